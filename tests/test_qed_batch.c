/* test_qed_batch.c: the QED matrix kernels of a group of points
 * (ekoc_kernel_qed_matrix_batch, ad/kernel_qed_batch.h) have the bits of
 * the scalar kernel point by point (ekoc_kernel_qed_matrix): valence (2x2)
 * and singlet (4x4), QED orders 1 and 2, LO to N3LO, step norms that take
 * every Taylor degree and up to several squarings in one group, short last
 * groups, strided inputs, and a point with a NaN or an infinity (NaN out
 * for it, the others untouched). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ad/kernel_qed_batch.h"

#define STEPS 7
#define MAX_POINTS 19

static double draw(uint64_t *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return ldexp((double)(*state >> 11), -53) * 2.0 - 1.0;
}

/* a_s falling over the steps, a_em about 1/130: the couplings of a QED segment */
static void fill_couplings(double *c) {
  int s;
  for (s = 0; s <= STEPS; ++s) c[s] = 0.03 - 0.002 * s;
  for (s = 0; s < STEPS; ++s) {
    c[STEPS + 1 + s] = 0.5 * (c[s] + c[s + 1]);
    c[2 * STEPS + 1 + s] = 0.0077 + 1e-5 * s;
  }
}

static int same_bits(ekoc_complex a, ekoc_complex b) {
  if (isnan(a.re) || isnan(b.re)) return isnan(a.re) && isnan(b.re) && isnan(a.im) && isnan(b.im);
  return memcmp(&a, &b, sizeof a) == 0;
}

/* count points whose pair matrices have sizes spread over `spread` decades
 * (point p scaled by 10^(spread * p / count - 3)): the step exponents range
 * from ~1e-5 (degree 4) to beyond 0.5 (squarings). */
static void check_case(int order, int qed_order, int dim, size_t count, double spread, int poison, uint64_t *state) {
  double couplings[3 * STEPS + 1], beta[4] = {11.0 - 2.0 / 3.0 * 4, 102.0 - 38.0 / 3.0 * 4, 1000.0, 5000.0};
  int np = ekoc_qed_pairs(order, qed_order), d2 = dim * dim, q, i;
  size_t pair_stride = (size_t)d2 + 3, g_stride = (size_t)np * pair_stride + 5, out_stride = (size_t)d2 + 1, p;
  ekoc_complex *g = calloc(count * g_stride, sizeof *g), *out = calloc(count * out_stride, sizeof *out);
  ekoc_qed_steps st;
  assert_non_null(g);
  assert_non_null(out);
  fill_couplings(couplings);
  st = ekoc_qed_steps_of(STEPS, couplings);
  for (p = 0; p < count; ++p) {
    double size = pow(10.0, spread * (double)p / (double)count - 3.0);
    for (q = 0; q < np; ++q)
      for (i = 0; i < d2; ++i)
        g[p * g_stride + (size_t)q * pair_stride + (size_t)i] =
            c_make(size * 40.0 * draw(state), size * 40.0 * draw(state));
  }
  if (poison && count > 2) g[2 * g_stride + 1] = c_make(poison == 1 ? NAN : INFINITY, 0.0);
  ekoc_kernel_qed_matrix_batch(order, qed_order, dim, beta, -0.5, st, count, g, g_stride, pair_stride, out,
                               out_stride);
  for (p = 0; p < count; ++p) {
    ekoc_complex gp[(EKOC_MAX_ORDER + 3) * EKOC_QED_MAX_DIM2], want[EKOC_QED_MAX_DIM2];
    for (q = 0; q < np; ++q)
      for (i = 0; i < d2; ++i) gp[q * d2 + i] = g[p * g_stride + (size_t)q * pair_stride + (size_t)i];
    ekoc_kernel_qed_matrix(order, qed_order, dim, beta, -0.5, st, gp, want);
    for (i = 0; i < d2; ++i) {
      if (!same_bits(out[p * out_stride + (size_t)i], want[i]))
        fail_msg("order %d qed %d dim %d count %zu point %zu entry %d: batch (%.17g, %.17g) scalar (%.17g, %.17g)",
                 order, qed_order, dim, count, p, i, out[p * out_stride + (size_t)i].re,
                 out[p * out_stride + (size_t)i].im, want[i].re, want[i].im);
      if (poison && count > 2 && p == 2) assert_true(isnan(out[p * out_stride + (size_t)i].re));
      if (p != 2 || !poison) assert_true(isfinite(out[p * out_stride + (size_t)i].re));
    }
  }
  free(g);
  free(out);
}

static void test_same_bits_as_scalar(void **unused) {
  uint64_t state = 2024;
  int order, qed_order, dim;
  size_t count;
  (void)unused;
  for (order = 1; order <= 4; ++order)
    for (qed_order = 1; qed_order <= 2; ++qed_order)
      for (dim = 2; dim <= 4; dim += 2)
        for (count = 1; count <= MAX_POINTS; count += 6) check_case(order, qed_order, dim, count, 4.5, 0, &state);
}

static void test_a_bad_point_leaves_the_others(void **unused) {
  uint64_t state = 7;
  (void)unused;
  check_case(2, 1, 4, 11, 3.0, 1, &state);
  check_case(2, 2, 2, 11, 3.0, 2, &state);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same_bits_as_scalar),
      cmocka_unit_test(test_a_bad_point_leaves_the_others),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
