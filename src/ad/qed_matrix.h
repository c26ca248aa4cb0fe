/* qed_matrix.h: small complex matrices (dimension 2..4, row-major) for the
 * QED valence and singlet kernels, host+device (EKOC_HD): identity, product
 * and the matrix exponential.
 *
 * The exponential is the Taylor polynomial after scaling by 2^-s so that
 * the scaled matrix has norm <= 1/2, of the degree (4, 8, 12 or 16) whose
 * remainder is below 2^-56 at that norm (ekoc_qed_exp_degree), evaluated in
 * Paterson-Stockmeyer form (3 to 6 products instead of 16), followed by s
 * squarings (the standard scaling-and-squaring
 * method). eko diagonalises the matrix instead; both agree to
 * rounding for the matrices of a QED step (docs/physics.md §15.3). No
 * allocation.
 */
#ifndef EKOC_AD_QED_MATRIX_H
#define EKOC_AD_QED_MATRIX_H

#include <math.h>

#include "ad/ad_math.h"

#define EKOC_QED_MAX_DIM 4
#define EKOC_QED_MAX_DIM2 (EKOC_QED_MAX_DIM * EKOC_QED_MAX_DIM)

EKOC_HD void ekoc_qed_mat_identity(int dim, ekoc_complex *m) {
  int i;
  for (i = 0; i < dim * dim; ++i) m[i] = c_real(i % (dim + 1) == 0 ? 1.0 : 0.0);
}

/* c = a b (c must not alias a or b). */
EKOC_HD void ekoc_qed_mat_mul(int dim, const ekoc_complex *a, const ekoc_complex *b, ekoc_complex *c) {
  int i, j, k;
  for (i = 0; i < dim; ++i)
    for (j = 0; j < dim; ++j) {
      ekoc_complex acc = c_real(0.0);
      for (k = 0; k < dim; ++k) acc = c_add(acc, c_mul(a[i * dim + k], b[k * dim + j]));
      c[i * dim + j] = acc;
    }
}

/* The Taylor degree (a multiple of 4, for Paterson-Stockmeyer) at which
 * the remainder of exp(x), ||x|| <= norm <= 0.5, is below 2^-56 of exp(x)'s
 * size (~1): norm^(d+1) / (d+1)! e^norm < 1.4e-17. The steps of a QED
 * evolution mostly have norms below 0.05 (NNPDF 40000100 on NNPDF's fit
 * grid: 85 % of 6 million), where degree 8 takes 4 products instead of 6. */
EKOC_HD int ekoc_qed_exp_degree(double norm) {
  if (norm <= 1.1e-3) return 4;  /* 1.1e-3^5 / 5! = 1.3e-17 */
  if (norm <= 0.055) return 8;   /* 0.055^9 / 9! = 1.3e-17 */
  if (norm <= 0.27) return 12;   /* 0.27^13 / 13! e^0.27 = 8.5e-18 */
  return 16;                     /* 0.5^17 / 17! e^0.5 = 4e-20 */
}

/* 1/k!, k = 0..16: the exponential's Taylor coefficients. */
EKOC_HD double ekoc_qed_inv_fact(int k) {
  static const double inv_fact[17] = {1.0,
                                      1.0,
                                      0.5,
                                      1.0 / 6.0,
                                      1.0 / 24.0,
                                      1.0 / 120.0,
                                      1.0 / 720.0,
                                      1.0 / 5040.0,
                                      1.0 / 40320.0,
                                      1.0 / 362880.0,
                                      1.0 / 3628800.0,
                                      1.0 / 39916800.0,
                                      1.0 / 479001600.0,
                                      1.0 / 6227020800.0,
                                      1.0 / 87178291200.0,
                                      1.0 / 1307674368000.0,
                                      1.0 / 20922789888000.0};
  return inv_fact[k];
}

/* out = exp(a); a is not modified. */
EKOC_HD void ekoc_qed_mat_exp(int dim, const ekoc_complex *a, ekoc_complex *out) {
  ekoc_complex x[EKOC_QED_MAX_DIM2], x2[EKOC_QED_MAX_DIM2], x3[EKOC_QED_MAX_DIM2], x4[EKOC_QED_MAX_DIM2];
  ekoc_complex tmp[EKOC_QED_MAX_DIM2];
  double norm = 0.0, scale = 1.0;
  int i, j, k, squarings = 0, d2 = dim * dim, degree;
  for (i = 0; i < dim; ++i) { /* a bound of the infinity norm: |re| + |im| >= |z| (no hypot) */
    double row = 0.0;
    for (j = 0; j < dim; ++j) row += fabs(a[i * dim + j].re) + fabs(a[i * dim + j].im);
    norm = row > norm ? row : norm;
  }
  if (!(norm < 1e300)) { /* NaN or inf in: NaN out */
    for (i = 0; i < d2; ++i) out[i] = c_make(NAN, NAN);
    return;
  }
  /* norm <= 0.5 after the scaling: remainder < 0.5^17 / 17! = 2e-20 at degree 16 */
  while (norm * scale > 0.5) {
    scale *= 0.5;
    ++squarings;
  }
  degree = ekoc_qed_exp_degree(norm * scale);
  for (i = 0; i < d2; ++i) x[i] = c_scale(a[i], scale);
  ekoc_qed_mat_mul(dim, x, x, x2);
  ekoc_qed_mat_mul(dim, x2, x, x3);
  ekoc_qed_mat_mul(dim, x3, x, x4);
  /* Paterson-Stockmeyer: sum_k c_k x^k = B_0 + x4 (B_1 + ... + x4 (B_q-1 + c_d x4)), q = degree / 4,
   * B_m = c_4m + c_4m+1 x + c_4m+2 x^2 + c_4m+3 x^3; the innermost bracket needs no product */
  for (k = degree / 4 - 1; k >= 0; --k) {
    if (k == degree / 4 - 1)
      for (i = 0; i < d2; ++i) tmp[i] = c_scale(x4[i], ekoc_qed_inv_fact(degree));
    else
      ekoc_qed_mat_mul(dim, x4, out, tmp);
    for (i = 0; i < d2; ++i) {
      ekoc_complex b = c_add(c_add(c_scale(x[i], ekoc_qed_inv_fact(4 * k + 1)),
                                   c_scale(x2[i], ekoc_qed_inv_fact(4 * k + 2))),
                             c_scale(x3[i], ekoc_qed_inv_fact(4 * k + 3)));
      if (i % (dim + 1) == 0) b = c_add_real(b, ekoc_qed_inv_fact(4 * k));
      out[i] = c_add(tmp[i], b);
    }
  }
  for (k = 0; k < squarings; ++k) {
    ekoc_qed_mat_mul(dim, out, out, tmp);
    for (i = 0; i < d2; ++i) out[i] = tmp[i];
  }
}

#endif /* EKOC_AD_QED_MATRIX_H */
