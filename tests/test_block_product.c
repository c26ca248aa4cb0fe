/* test_block_product.c: the tiled block product (src/evol/block_product.h)
 * has the bits of the plain i-k-j product, c_ij += op(a_ik) op(b_kj) in
 * increasing k with the terms of a_ik = 0 skipped: the three kinds, sizes
 * around the tile widths (1..37) and the grid sizes users run (100, 196),
 * nearly triangular operators (the x-space shape), full and sparse ones,
 * zero rows, signed zeros and subnormal products, and c already holding
 * earlier terms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evol/block_product.h"

static uint64_t rng_state = 0x243f6a8885a308d3ULL;
static double uniform(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (double)((rng_state * 0x2545f4914f6cdd1dULL) >> 11) * 0x1.0p-53;
}

/* shape 0: nearly upper triangular (a_ij = 0 for j < i - 2), 1: full,
 * 2: sparse with zero rows, -0 entries and tiny values (products that
 * underflow) */
static void fill(double *m, size_t n, int shape) {
  size_t i, j;
  for (i = 0; i < n; ++i)
    for (j = 0; j < n; ++j) {
      double v = 2.0 * uniform() - 1.0;
      if (shape == 0 && j + 2 < i) v = 0.0;
      if (shape == 2) {
        double r = uniform();
        if (i % 5 == 3 || r < 0.4) v = 0.0;
        else if (r < 0.5) v = -0.0;
        else if (r < 0.6) v *= 1e-200;
      }
      m[i * n + j] = v;
    }
}

static void plain(int kind, size_t n, const double *a, const double *b, double *c) {
  size_t i, k, j;
  for (i = 0; i < n; ++i)
    for (k = 0; k < n; ++k) {
      double aik = kind == EKOC_PRODUCT_ABS_LEFT ? fabs(a[i * n + k]) : a[i * n + k];
      if (aik == 0.0) continue;
      for (j = 0; j < n; ++j) {
        double bkj = kind == EKOC_PRODUCT_ABS_RIGHT ? fabs(b[k * n + j]) : b[k * n + j];
        c[i * n + j] += aik * bkj;
      }
    }
}

static void check(size_t n, int shape_a, int shape_b, int kind, int prefilled) {
  double *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b);
  double *c = malloc(n * n * sizeof *c), *ref = malloc(n * n * sizeof *ref);
  size_t e;
  assert_true(a && b && c && ref);
  fill(a, n, shape_a);
  fill(b, n, shape_b);
  for (e = 0; e < n * n; ++e) c[e] = prefilled ? 3.0 * uniform() - 1.5 : 0.0;
  memcpy(ref, c, n * n * sizeof *c);
  plain(kind, n, a, b, ref);
  ekoc_block_product_for_cpu()(kind, n, a, b, c);
  for (e = 0; e < n * n; ++e)
    if (memcmp(&c[e], &ref[e], sizeof c[e]))
      fail_msg("n=%zu shapes %d %d kind %d: c[%zu][%zu] = %.17g, plain product %.17g", n, shape_a, shape_b, kind,
               e / n, e % n, c[e], ref[e]);
  free(a);
  free(b);
  free(c);
  free(ref);
}

static void test_bits_of_the_plain_product(void **state) {
  static const size_t sizes[] = {100, 196, 64, 61};
  size_t n, s;
  int kind, sa, sb;
  (void)state;
  for (kind = 0; kind < 3; ++kind)
    for (sa = 0; sa < 3; ++sa)
      for (sb = 0; sb < 3; ++sb) {
        for (n = 1; n <= 37; ++n) check(n, sa, sb, kind, (int)(n % 2));
        for (s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) check(sizes[s], sa, sb, kind, (int)(s % 2));
      }
}

/* A zero a leaves c as it was, bit for bit (+0 stays +0). */
static void test_zero_operand(void **state) {
  enum { N = 13 };
  double a[N * N] = {0}, b[N * N], c[N * N] = {0};
  size_t e;
  (void)state;
  fill(b, N, 1);
  ekoc_block_product_for_cpu()(EKOC_PRODUCT_PLAIN, N, a, b, c);
  for (e = 0; e < N * N; ++e) assert_true(c[e] == 0.0 && !signbit(c[e]));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bits_of_the_plain_product),
      cmocka_unit_test(test_zero_operand),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
