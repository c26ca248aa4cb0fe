/* scale_variation_qed.h: factorisation-scale variation of the QED kernels,
 * host+device (EKOC_HD), as eko 0.15.7 (docs/physics.md §15.4; eko's
 * gamma_variation_qed and *_variation_qed in eko.scale_variations):
 *  - exponentiated (scheme A): the QCD column gamma^(i,0) shifted as in pure
 *    QCD (ad/scale_variation.h) and, with a running a_em at QED order 2,
 *    gamma^(0,2) += beta_qed(0,2) L gamma^(0,1) (beta_qed at the segment end's
 *    lepton number); the mixed and pure-QED terms are not shifted otherwise.
 *  - expanded (scheme B): the QCD K factor of the QCD column (matrix powers
 *    for the valence 2x2 and the singlet 4x4) plus, with a running a_em at QED
 *    order 2, a_em L gamma^(0,1); applied from the left, a_s at the end of the
 *    segment's last step and a_em at its midpoint.
 * Matrices are row-major dim x dim (dim 1 for a non-singlet entry); towers in
 * the packed pair layout of ad/kernel_qed.h. No allocation.
 */
#ifndef EKOC_AD_SCALE_VARIATION_QED_H
#define EKOC_AD_SCALE_VARIATION_QED_H

#include "ad/beta_qed.h"
#include "ad/kernel_qed.h"
#include "ad/scale_variation.h"

/* Scheme A in place on a packed tower of `size` entries per pair. */
EKOC_HD void ekoc_sv_exponentiated_qed_tower(int32_t order, int32_t qed_order, int32_t em_running, int32_t nf,
                                             int32_t nl, double L, const double beta[4], int size,
                                             ekoc_complex *tower) {
  int e, i;
  for (e = 0; e < size; ++e) {
    ekoc_complex g[EKOC_MAX_ORDER];
    for (i = 0; i < order; ++i) g[i] = tower[i * size + e];
    ekoc_sv_exponentiated_ns(order, L, beta, g); /* linear: entry by entry */
    for (i = 0; i < order; ++i) tower[i * size + e] = g[i];
    if (em_running && qed_order >= 2)
      tower[(order + 2) * size + e] = c_add(tower[(order + 2) * size + e],
                                            c_scale(tower[order * size + e], ekoc_beta_qed_aem2(nf, nl) * L));
  }
}

/* The scheme-B factor K (dim x dim) of one matrix of a packed tower: g(p, r, c)
 * = tower[p * stride + offset + r * dim + c]. */
EKOC_HD void ekoc_sv_expanded_qed_factor(int32_t order, int32_t qed_order, int32_t em_running, double L, double a_s,
                                         double a_em, const double beta[4], int dim, const ekoc_complex *tower,
                                         int stride, int offset, ekoc_complex *k) {
  ekoc_complex g[3][EKOC_QED_MAX_DIM2], g0sq[EKOC_QED_MAX_DIM2], t[EKOC_QED_MAX_DIM2], u[EKOC_QED_MAX_DIM2];
  int i, p, d2 = dim * dim;
  for (p = 0; p < 3 && p < order; ++p)
    for (i = 0; i < d2; ++i) g[p][i] = tower[p * stride + offset + i];
  ekoc_qed_mat_identity(dim, k);
  if (order >= 2)
    for (i = 0; i < d2; ++i) k[i] = c_add(k[i], c_scale(g[0][i], a_s * L));
  if (order >= 3) {
    ekoc_qed_mat_mul(dim, g[0], g[0], g0sq);
    for (i = 0; i < d2; ++i) {
      ekoc_complex v = c_scale(c_add(c_scale(g[0][i], beta[0]), g0sq[i]), 0.5 * L * L);
      k[i] = c_add(k[i], c_scale(c_add(v, c_scale(g[1][i], L)), a_s * a_s));
    }
  }
  if (order >= 4) {
    ekoc_qed_mat_mul(dim, g[1], g[0], t); /* g1 g0 */
    ekoc_qed_mat_mul(dim, g[0], g[1], u); /* g0 g1 */
    for (i = 0; i < d2; ++i) t[i] = c_add(t[i], u[i]);
    ekoc_qed_mat_mul(dim, g0sq, g[0], u); /* g0^3 */
    for (i = 0; i < d2; ++i) {
      ekoc_complex l2 = c_add(c_add(c_scale(g[0][i], beta[1]), c_scale(g[1][i], 2.0 * beta[0])), t[i]);
      ekoc_complex l3 =
          c_add(c_add(c_scale(g[0][i], 2.0 * beta[0] * beta[0]), c_scale(g0sq[i], 3.0 * beta[0])), u[i]);
      ekoc_complex v = c_add(c_add(c_scale(g[2][i], L), c_scale(l2, 0.5 * L * L)), c_scale(l3, L * L * L / 6.0));
      k[i] = c_add(k[i], c_scale(v, a_s * a_s * a_s));
    }
  }
  if (em_running && qed_order >= 2)
    for (i = 0; i < d2; ++i) k[i] = c_add(k[i], c_scale(tower[order * stride + offset + i], a_em * L));
}

#endif /* EKOC_AD_SCALE_VARIATION_QED_H */
