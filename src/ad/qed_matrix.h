/* qed_matrix.h: small complex matrices (dimension 2..4, row-major) for the
 * QED valence and singlet kernels, host+device (EKOC_HD): identity, product
 * and the matrix exponential.
 *
 * The exponential is the Taylor series after scaling by 2^-s so that the
 * scaled matrix has norm <= 1/4, followed by s squarings (the standard
 * scaling-and-squaring method); 12 Taylor terms take the truncation error
 * below 3e-18 relative (0.25^13 / 13!). eko diagonalises the matrix instead; both agree to
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

/* out = exp(a); a is not modified. */
EKOC_HD void ekoc_qed_mat_exp(int dim, const ekoc_complex *a, ekoc_complex *out) {
  ekoc_complex x[EKOC_QED_MAX_DIM2], term[EKOC_QED_MAX_DIM2], tmp[EKOC_QED_MAX_DIM2];
  double norm = 0.0, scale = 1.0;
  int i, j, k, squarings = 0, d2 = dim * dim;
  for (i = 0; i < dim; ++i) { /* infinity norm */
    double row = 0.0;
    for (j = 0; j < dim; ++j) row += c_abs(a[i * dim + j]);
    norm = row > norm ? row : norm;
  }
  if (!(norm < 1e300)) { /* NaN or inf in: NaN out */
    for (i = 0; i < d2; ++i) out[i] = c_make(NAN, NAN);
    return;
  }
  while (norm * scale > 0.25) {
    scale *= 0.5;
    ++squarings;
  }
  for (i = 0; i < d2; ++i) x[i] = c_scale(a[i], scale);
  ekoc_qed_mat_identity(dim, out);
  ekoc_qed_mat_identity(dim, term);
  for (k = 1; k <= 12; ++k) { /* term = x^k / k! */
    ekoc_qed_mat_mul(dim, term, x, tmp);
    for (i = 0; i < d2; ++i) {
      term[i] = c_scale(tmp[i], 1.0 / k);
      out[i] = c_add(out[i], term[i]);
    }
  }
  for (k = 0; k < squarings; ++k) {
    ekoc_qed_mat_mul(dim, out, out, tmp);
    for (i = 0; i < d2; ++i) out[i] = tmp[i];
  }
}

#endif /* EKOC_AD_QED_MATRIX_H */
