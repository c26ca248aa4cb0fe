/* test_qed_kernels.c: the QCD x QED evolution kernels and their scale
 * variations (ad/kernel_qed.h, ad/scale_variation_qed.h, docs/physics.md
 * §15.3-15.4) on arbitrary complex towers, against eko 0.15.7's own functions
 * (tests/qed_kernel_reference.h, from tests/gen_qed_kernel_reference.py), and
 * the matrix exponential (ad/qed_matrix.h) against properties eko does not
 * enter. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "test_util.h"

#include "ad/beta.h"
#include "ad/beta_qed.h"
#include "ad/kernel_qed.h"
#include "ad/qed_matrix.h"
#include "ad/scale_variation_qed.h"
#include "qed_kernel_reference.h"

#define N_ROWS(t) (sizeof(t) / sizeof((t)[0]))

/* The row's packed tower as complex numbers; returns its length. */
static int row_tower(const qed_ref_row *r, ekoc_complex *t) {
  int n = ekoc_qed_pairs(r->order, r->qed) * r->dim * r->dim, i;
  for (i = 0; i < n; ++i) t[i] = c_make(r->tower[i][0], r->tower[i][1]);
  return n;
}

static ekoc_qed_steps row_steps(const qed_ref_row *r) {
  ekoc_qed_steps st;
  st.n = QED_REF_ITERATIONS;
  st.as_ends = r->as_ends;
  st.as_half = r->as_half;
  st.aem_half = r->aem_half;
  return st;
}

/* Worst |ours - eko| over the n entries relative to eko's largest entry. */
static double worst_dev(const ekoc_complex *ours, const double (*eko)[2], int n) {
  double scale = 0.0, worst = 0.0;
  int i;
  for (i = 0; i < n; ++i) scale = fmax(scale, hypot(eko[i][0], eko[i][1]));
  for (i = 0; i < n; ++i) worst = fmax(worst, hypot(ours[i].re - eko[i][0], ours[i].im - eko[i][1]) / scale);
  return worst;
}

static void test_kernels_match_eko(void **state) {
  size_t k;
  double worst = 0.0;
  (void)state;
  for (k = 0; k < N_ROWS(qed_ref_kernels); ++k) {
    const qed_ref_row *r = &qed_ref_kernels[k];
    ekoc_complex t[16 * 7], out[16];
    double beta[4], dev;
    int d2 = r->dim * r->dim;
    row_tower(r, t);
    ekoc_beta_coefficients(r->nf, beta);
    if (r->dim == 1)
      ekoc_kernel_qed_ns(r->order, r->qed, beta, ekoc_beta_qcd_as2aem1(r->nf),
                         log(QED_REF_MU2_FROM / QED_REF_MU2_TO) / QED_REF_ITERATIONS, row_steps(r), t, 1, 1, out);
    else
      ekoc_kernel_qed_matrix(r->order, r->qed, r->dim, beta, ekoc_beta_qcd_as2aem1(r->nf), row_steps(r), t, out);
    dev = worst_dev(out, r->result, d2);
    if (dev > 1e-13)
      fprintf(stderr, "row %zu order (%d,%d) nf %d dim %d: dev %.3g\n", k, r->order, r->qed, r->nf, r->dim, dev);
    assert_true(dev <= 1e-13);
    worst = fmax(worst, dev);
  }
  printf("QED kernels vs eko: %zu rows, worst %.2g of the largest entry\n", N_ROWS(qed_ref_kernels), worst);
}

static void test_exponentiated_shift_matches_eko(void **state) {
  size_t k;
  (void)state;
  for (k = 0; k < N_ROWS(qed_ref_sv_exponentiated); ++k) {
    const qed_ref_row *r = &qed_ref_sv_exponentiated[k];
    ekoc_complex t[16 * 7];
    double beta[4];
    int n = row_tower(r, t);
    ekoc_beta_coefficients(r->nf, beta);
    /* eko's call: running a_em, lepton number 3 */
    ekoc_sv_exponentiated_qed_tower(r->order, r->qed, 1, r->nf, 3, QED_REF_SV_LOG, beta, r->dim * r->dim, t);
    assert_true(worst_dev(t, r->result, n) <= 1e-15);
  }
}

static void test_expanded_factor_matches_eko(void **state) {
  size_t k;
  (void)state;
  for (k = 0; k < N_ROWS(qed_ref_sv_expanded); ++k) {
    const qed_ref_row *r = &qed_ref_sv_expanded[k];
    ekoc_complex t[16 * 7], kf[16];
    double beta[4];
    int d2 = r->dim * r->dim;
    row_tower(r, t);
    ekoc_beta_coefficients(r->nf, beta);
    ekoc_sv_expanded_qed_factor(r->order, r->qed, 1, QED_REF_SV_LOG, r->as_ends[QED_REF_ITERATIONS],
                                r->aem_half[QED_REF_ITERATIONS - 1], beta, r->dim, t, d2, 0, kf);
    assert_true(worst_dev(kf, r->result, d2) <= 1e-14);
  }
}

/* exp(A) exp(-A) = 1, exp of a diagonal matrix is the diagonal of exps, and
 * exp(A) for a nilpotent A is the finite series (large norms: squarings). */
static void test_matrix_exponential_properties(void **state) {
  ekoc_complex a[16], na[16], e[16], en[16], p[16];
  int i, j;
  (void)state;
  for (i = 0; i < 16; ++i) {
    a[i] = c_make(sin(1.3 * i + 0.2) * 3.0, cos(0.7 * i) * 2.0);
    na[i] = c_neg(a[i]);
  }
  ekoc_qed_mat_exp(4, a, e);
  ekoc_qed_mat_exp(4, na, en);
  ekoc_qed_mat_mul(4, e, en, p);
  for (i = 0; i < 4; ++i)
    for (j = 0; j < 4; ++j) assert_true(c_abs(c_sub(p[i * 4 + j], c_real(i == j))) < 1e-10);
  for (i = 0; i < 16; ++i) a[i] = c_real(0.0);
  a[0] = c_make(-7.5, 2.0);
  a[5] = c_make(3.25, -1.0);
  a[10] = c_make(0.01, 0.0);
  a[15] = c_make(-20.0, 30.0);
  ekoc_qed_mat_exp(4, a, e);
  for (i = 0; i < 4; ++i) {
    ekoc_complex want = c_exp(a[i * 5]);
    assert_true(c_abs(c_sub(e[i * 5], want)) <= 1e-13 * c_abs(want));
  }
  for (i = 0; i < 16; ++i) a[i] = c_real(0.0);
  a[1] = c_make(50.0, 0.0); /* strictly upper triangular: exp = 1 + A + A^2/2 + A^3/6 */
  a[6] = c_make(0.0, 40.0);
  a[11] = c_make(-30.0, 0.0);
  ekoc_qed_mat_exp(4, a, e);
  assert_true(c_abs(c_sub(e[1], c_make(50.0, 0.0))) < 1e-11);
  assert_true(c_abs(c_sub(e[2], c_make(0.0, 1000.0))) < 1e-9);                 /* 50 * 40i / 2 */
  assert_true(c_abs(c_sub(e[3], c_make(0.0, -50.0 * 40.0 * 30.0 / 6.0))) < 1e-7); /* A^3/6 */
}

/* Small norms take lower Taylor degrees (ekoc_qed_exp_degree): at the top
 * of each degree's range exp(A) exp(-A) = 1 to a few units of rounding, and
 * exp(A) equals exp(A / 2)^2 (which takes the lower degree or one squaring). */
static void test_matrix_exponential_degrees(void **state) {
  const double norms[] = {1e-4, 1.1e-3, 0.02, 0.055, 0.1, 0.27, 0.45};
  ekoc_complex base[16], a[16], na[16], half[16], e[16], en[16], eh[16], p[16];
  size_t n;
  int i, j;
  (void)state;
  assert_int_equal(ekoc_qed_exp_degree(1e-3), 4);
  assert_int_equal(ekoc_qed_exp_degree(0.05), 8);
  assert_int_equal(ekoc_qed_exp_degree(0.2), 12);
  assert_int_equal(ekoc_qed_exp_degree(0.4), 16);
  for (i = 0; i < 16; ++i) base[i] = c_make(sin(1.7 * i + 0.4), cos(0.9 * i + 0.1));
  for (n = 0; n < sizeof norms / sizeof *norms; ++n) {
    double row_max = 0.0;
    for (i = 0; i < 4; ++i) {
      double row = 0.0;
      for (j = 0; j < 4; ++j) row += c_abs(base[i * 4 + j]);
      row_max = fmax(row_max, row);
    }
    for (i = 0; i < 16; ++i) {
      a[i] = c_scale(base[i], norms[n] / row_max); /* infinity norm = norms[n] */
      na[i] = c_neg(a[i]);
      half[i] = c_scale(a[i], 0.5);
    }
    ekoc_qed_mat_exp(4, a, e);
    ekoc_qed_mat_exp(4, na, en);
    ekoc_qed_mat_mul(4, e, en, p);
    for (i = 0; i < 16; ++i) assert_true(c_abs(c_sub(p[i], c_real(i % 5 == 0))) < 1e-15);
    ekoc_qed_mat_exp(4, half, eh);
    ekoc_qed_mat_mul(4, eh, eh, p);
    for (i = 0; i < 16; ++i) assert_true(c_abs(c_sub(p[i], e[i])) < 1e-15);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kernels_match_eko),
      cmocka_unit_test(test_exponentiated_shift_matches_eko),
      cmocka_unit_test(test_expanded_factor_matches_eko),
      cmocka_unit_test(test_matrix_exponential_properties),
      cmocka_unit_test(test_matrix_exponential_degrees),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
