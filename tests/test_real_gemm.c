/* test_real_gemm.c: the band products' C = A B (quad/real_gemm.h) have the
 * bits of the plain loop (each c_ij the sum of a_ij b_kj in increasing k,
 * multiplied and added apart) for every column count the callers pad to
 * (multiples of EKOC_REAL_GEMM_COLS, including the last 8 and the last 4
 * columns the AVX-512 build takes one vector wide and one half vector wide),
 * leading dimensions wider than the
 * columns, and values of every size; the columns beyond cols are left as
 * they were. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "quad/real_gemm.h"

static double draw(uint64_t *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return ldexp((double)(*state >> 11), -53) * 2.0 - 1.0;
}

static void check_shape(ekoc_real_gemm_fn gemm, size_t rows, size_t cols, size_t inner, size_t extra) {
  size_t lda = inner + extra, ldb = cols + extra, ldc = cols + extra, i, j, k;
  double *a = malloc(rows * lda * sizeof *a), *b = malloc(inner * ldb * sizeof *b);
  double *c = malloc(rows * ldc * sizeof *c);
  uint64_t state = rows * 1000003u + cols * 1009u + inner;
  assert_non_null(a);
  assert_non_null(b);
  assert_non_null(c);
  for (i = 0; i < rows * lda; ++i) a[i] = draw(&state) * pow(10.0, (double)(i % 7) - 3.0);
  for (i = 0; i < inner * ldb; ++i) b[i] = draw(&state) * pow(10.0, (double)(i % 5) - 2.0);
  for (i = 0; i < rows * ldc; ++i) c[i] = -7.0;
  gemm(rows, cols, inner, a, lda, b, ldb, c, ldc);
  for (i = 0; i < rows; ++i)
    for (j = 0; j < ldc; ++j) {
      double s = 0.0;
      if (j >= cols) { /* untouched */
        assert_true(c[i * ldc + j] == -7.0);
        continue;
      }
      for (k = 0; k < inner; ++k) {
        double p = a[i * lda + k] * b[k * ldb + j];
        s = s + p;
      }
      assert_memory_equal(&s, &c[i * ldc + j], sizeof s);
    }
  free(a);
  free(b);
  free(c);
}

static void test_plain_loop_bits(void **state) {
  static const size_t cols[] = {4, 8, 12, 16, 20, 24, 28, 40, 44, 64, 72};
  static const size_t inner[] = {1, 7, 64, 130};
  ekoc_real_gemm_fn gemm = ekoc_real_gemm_for_cpu();
  size_t c, k, rows;
  (void)state;
  assert_int_equal(EKOC_REAL_GEMM_COLS % 4, 0);
  for (rows = EKOC_REAL_GEMM_ROWS; rows <= 3 * EKOC_REAL_GEMM_ROWS; rows += EKOC_REAL_GEMM_ROWS)
    for (c = 0; c < sizeof cols / sizeof cols[0]; ++c)
      for (k = 0; k < sizeof inner / sizeof inner[0]; ++k) {
        check_shape(gemm, rows, cols[c], inner[k], 0);
        check_shape(gemm, rows, cols[c], inner[k], 5);
      }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_plain_loop_bits)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
