/* matching.h: heavy-quark matching matrices in N space (host and device).
 *
 * The operator matrix elements (OMEs) come as a tower A^(k), the coefficient
 * of a_s^k (k = 1..matching order), in the basis (g, q, H) for the singlet
 * block (3x3) and (q, H) for the non-singlet block (2x2), both row-major
 * (docs/physics.md §8.1). This header turns the tower into the matching matrix:
 *   forward:            1 + a A1 + a^2 A2 + a^3 A3
 *   backward, exact:    (1 + a A1 + a^2 A2 + a^3 A3)^(-1)
 *   backward, expanded: 1 - a A1 + a^2 (A1 A1 - A2)
 *                       + a^3 (A1 A2 + A2 A1 - A1 A1 A1 - A3)
 * (each term from its order on; eko's `build_ome`, docs/physics.md §8.4), and
 * applies the exponentiated scale-variation shift of the tower, the same
 * re-expansion as the anomalous dimensions' (eko applies gamma_variation to
 * the OME tower): A2 -> A2 + beta0 L A1,
 * A3 -> A3 + 2 beta0 L A2 + (beta1 L + beta0^2 L^2) A1 (docs/physics.md §7.1).
 */
#ifndef EKOC_AD_MATCHING_H
#define EKOC_AD_MATCHING_H

#include "ad/ad_math.h"

/* EKOC_MATCHING_FORWARD / _BACKWARD_EXACT / _BACKWARD_EXPANDED: include/ekoc/kernel.h */
#include "ekoc/kernel.h"

/* Largest OME order the matching matrices are built for (O(a_s^3), eko's
 * matching_order at N3LO); which OME orders the ekore crate computes is its
 * own business (it refuses the others). */
#define EKOC_MAX_MATCHING_ORDER 3

/* C = A * B for dim x dim row-major complex matrices (dim <= 3). */
EKOC_HD void ekoc_cmat_mul(int dim, const ekoc_complex *a, const ekoc_complex *b, ekoc_complex *c) {
  int i, j, k;
  for (i = 0; i < dim; ++i)
    for (j = 0; j < dim; ++j) {
      ekoc_complex s = c_real(0.0);
      for (k = 0; k < dim; ++k) s = c_fma(a[i * dim + k], b[k * dim + j], s);
      c[i * dim + j] = s;
    }
}

/* Inverse of a dim x dim complex matrix (dim = 2 or 3) by the adjugate.
 * Returns 0 when the determinant vanishes (then `inv` is left untouched). */
EKOC_HD int ekoc_cmat_inverse(int dim, const ekoc_complex *a, ekoc_complex *inv) {
  if (dim == 2) {
    ekoc_complex det = c_sub(c_mul(a[0], a[3]), c_mul(a[1], a[2]));
    ekoc_complex d;
    if (det.re == 0.0 && det.im == 0.0) return 0;
    d = c_inv(det);
    inv[0] = c_mul(a[3], d);
    inv[1] = c_neg(c_mul(a[1], d));
    inv[2] = c_neg(c_mul(a[2], d));
    inv[3] = c_mul(a[0], d);
    return 1;
  } else {
    /* cofactors C_ij; inverse = C^T / det */
    ekoc_complex c[9], det, d;
    int i, j;
    for (i = 0; i < 3; ++i)
      for (j = 0; j < 3; ++j) {
        int r0 = (i + 1) % 3, r1 = (i + 2) % 3, k0 = (j + 1) % 3, k1 = (j + 2) % 3;
        c[i * 3 + j] = c_sub(c_mul(a[r0 * 3 + k0], a[r1 * 3 + k1]), c_mul(a[r0 * 3 + k1], a[r1 * 3 + k0]));
      }
    det = c_add(c_add(c_mul(a[0], c[0]), c_mul(a[1], c[1])), c_mul(a[2], c[2]));
    if (det.re == 0.0 && det.im == 0.0) return 0;
    d = c_inv(det);
    for (i = 0; i < 3; ++i)
      for (j = 0; j < 3; ++j) inv[i * 3 + j] = c_mul(c[j * 3 + i], d);
    return 1;
  }
}

/* Exponentiated scale variation of an OME tower in place (eko's
 * gamma_variation on the tower, highest term first so that the unshifted
 * lower terms enter): A^(3) += 2 beta0 L A^(2) + (beta1 L + beta0^2 L^2) A^(1)
 * when the tower has three terms, A^(2) += beta0 L A^(1) when it has two or
 * more, L = sv_log; `tower` holds `order` matrices of dim*dim entries,
 * beta[] the coefficients at the matching's n_f. */
EKOC_HD void ekoc_matching_sv_shift(int dim, int order, const double *beta, double sv_log, ekoc_complex *tower) {
  int i, n = dim * dim;
  double beta0 = beta[0];
  if (order >= 3) {
    double c2 = 2.0 * beta0 * sv_log, c1 = beta[1] * sv_log + beta0 * beta0 * (sv_log * sv_log);
    for (i = 0; i < n; ++i)
      tower[2 * n + i] = c_add(tower[2 * n + i], c_add(c_scale(tower[n + i], c2), c_scale(tower[i], c1)));
  }
  if (order < 2) return;
  for (i = 0; i < n; ++i) tower[n + i] = c_add(tower[n + i], c_scale(tower[i], beta0 * sv_log));
}

/* The matching matrix from the tower A^(1..order) (order <= 3) at coupling a.
 * Writes dim*dim entries to `out`; returns 0 if a backward-exact inverse is
 * singular (then `out` is untouched). */
EKOC_HD int ekoc_matching_build(int dim, int order, const ekoc_complex *tower, double a, int method,
                                ekoc_complex *out) {
  ekoc_complex m[9];
  int i, n = dim * dim;
  for (i = 0; i < n; ++i) m[i] = c_real((i % (dim + 1)) == 0 ? 1.0 : 0.0);
  if (method == EKOC_MATCHING_BACKWARD_EXPANDED) {
    if (order >= 1)
      for (i = 0; i < n; ++i) m[i] = c_sub(m[i], c_scale(tower[i], a));
    if (order >= 2) {
      ekoc_complex sq[9];
      ekoc_cmat_mul(dim, tower, tower, sq);
      for (i = 0; i < n; ++i) m[i] = c_add(m[i], c_scale(c_sub(sq[i], tower[n + i]), a * a));
    }
    if (order >= 3) {
      ekoc_complex a1a2[9], a2a1[9], a1a1[9], cube[9];
      ekoc_cmat_mul(dim, tower, tower + n, a1a2);
      ekoc_cmat_mul(dim, tower + n, tower, a2a1);
      ekoc_cmat_mul(dim, tower, tower, a1a1);
      ekoc_cmat_mul(dim, a1a1, tower, cube);
      for (i = 0; i < n; ++i) {
        ekoc_complex t = c_sub(c_add(c_add(c_neg(tower[2 * n + i]), a1a2[i]), a2a1[i]), cube[i]);
        m[i] = c_add(m[i], c_scale(t, a * a * a));
      }
    }
  } else {
    if (order >= 1)
      for (i = 0; i < n; ++i) m[i] = c_add(m[i], c_scale(tower[i], a));
    if (order >= 2)
      for (i = 0; i < n; ++i) m[i] = c_add(m[i], c_scale(tower[n + i], a * a));
    if (order >= 3)
      for (i = 0; i < n; ++i) m[i] = c_add(m[i], c_scale(tower[2 * n + i], a * a * a));
    if (method == EKOC_MATCHING_BACKWARD_EXACT) {
      ekoc_complex inv[9];
      if (!ekoc_cmat_inverse(dim, m, inv)) return 0;
      for (i = 0; i < n; ++i) m[i] = inv[i];
    }
  }
  for (i = 0; i < n; ++i) out[i] = m[i];
  return 1;
}

#endif /* EKOC_AD_MATCHING_H */
