/* scale_variation.h: factorisation-scale variation pieces in N space,
 * host+device (EKOC_HD): the exponentiated shift of the gamma tower (scheme
 * A) and the expanded K factor (scheme B). docs/physics.md §7; eko's
 * modules eko.scale_variations.exponentiated / .expanded; [AbdulKhalek19]
 * eqs. 3.32, 3.35. L = ln(xif^2), beta[] of the segment's n_f.
 * No allocation, no failure path: order <= 1 means no shift and K = 1;
 * orders above 4 get the N3LO terms only.
 */
#ifndef EKOC_AD_SCALE_VARIATION_H
#define EKOC_AD_SCALE_VARIATION_H

#include <stdint.h>

#include "ad/ad_math.h"

/* Scheme A, in place on gamma[0..order-1] (docs/physics.md §7.1): gamma re-expanded
 * in a_s(xif^2 mu^2),
 *   g1 += beta0 L g0,  g2 += 2 beta0 L g1 + (beta1 L + beta0^2 L^2) g0,
 *   g3 += 3 beta0 L g2 + (2 beta1 L + 3 beta0^2 L^2) g1
 *         + (beta2 L + 5/2 beta1 beta0 L^2 + beta0^3 L^3) g0,
 * with the unshifted lower terms on the right (highest term first). order 1
 * (and anything below 2) leaves gamma unchanged. */
EKOC_HD void ekoc_sv_exponentiated_ns(int32_t order, double L, const double beta[4], ekoc_complex *gamma) {
  if (order >= 4)
    gamma[3] = c_add(gamma[3],
                     c_add(c_add(c_scale(gamma[2], 3.0 * beta[0] * L),
                                 c_scale(gamma[1], 2.0 * beta[1] * L + 3.0 * (beta[0] * beta[0]) * (L * L))),
                           c_scale(gamma[0], beta[2] * L + 5.0 / 2.0 * beta[1] * beta[0] * (L * L) +
                                                 (beta[0] * beta[0] * beta[0]) * (L * L * L))));
  if (order >= 3)
    gamma[2] = c_add(gamma[2], c_add(c_scale(gamma[1], 2.0 * beta[0] * L),
                                     c_scale(gamma[0], beta[1] * L + beta[0] * beta[0] * L * L)));
  if (order >= 2) gamma[1] = c_add(gamma[1], c_scale(gamma[0], beta[0] * L));
}

/* Scheme A for the singlet matrices gamma[0..order-1]; same formula as
 * ekoc_sv_exponentiated_ns, entry by entry. */
EKOC_HD void ekoc_sv_exponentiated_singlet(int32_t order, double L, const double beta[4], ekoc_cmat2 *gamma) {
  if (order >= 4)
    gamma[3] = m2_add(gamma[3],
                      m2_add(m2_add(m2_scale(gamma[2], 3.0 * beta[0] * L),
                                    m2_scale(gamma[1], 2.0 * beta[1] * L + 3.0 * (beta[0] * beta[0]) * (L * L))),
                             m2_scale(gamma[0], beta[2] * L + 5.0 / 2.0 * beta[1] * beta[0] * (L * L) +
                                                    (beta[0] * beta[0] * beta[0]) * (L * L * L))));
  if (order >= 3)
    gamma[2] = m2_add(gamma[2], m2_add(m2_scale(gamma[1], 2.0 * beta[0] * L),
                                       m2_scale(gamma[0], beta[1] * L + beta[0] * beta[0] * L * L)));
  if (order >= 2) gamma[1] = m2_add(gamma[1], m2_scale(gamma[0], beta[0] * L));
}

/* Scheme B K factor, multiplied from the left onto the kernel of the last
 * segment (docs/physics.md §7.2; eko's non_singlet_variation):
 *   K = 1                                        at LO (order 1),
 *     + a_s L g0                                 from NLO (order >= 2),
 *     + a_s^2 [L g1 + L^2 (beta0 g0 + g0^2)/2]   from NNLO (order >= 3),
 *     + a_s^3 [L g2 + L^2 (beta1 g0 + 2 beta0 g1 + g1 g0 + g0 g1)/2
 *              + L^3 (2 beta0^2 g0 + 3 beta0 g0^2 + g0^3)/6]  at N3LO (order >= 4),
 * a_s the coupling at the shifted target scale, gamma the unshifted tower;
 * beta[0] and (N3LO) beta[1] enter. */
EKOC_HD ekoc_complex ekoc_sv_expanded_ns(int32_t order, double L, double a_s, const double beta[4],
                                         const ekoc_complex *gamma) {
  ekoc_complex k = c_real(1.0);
  if (order >= 2) k = c_add(k, c_scale(gamma[0], a_s * L));
  if (order >= 3) {
    ekoc_complex t = c_scale(c_add(c_scale(gamma[0], beta[0]), c_mul(gamma[0], gamma[0])), 0.5 * L * L);
    t = c_add(t, c_scale(gamma[1], L));
    k = c_add(k, c_scale(t, a_s * a_s));
  }
  if (order >= 4) {
    ekoc_complex g0sq = c_mul(gamma[0], gamma[0]), g0g1 = c_mul(gamma[0], gamma[1]);
    ekoc_complex l2 = c_add(c_add(c_add(c_scale(gamma[0], beta[1]), c_scale(gamma[1], 2.0 * beta[0])), g0g1), g0g1);
    ekoc_complex l3 = c_add(c_add(c_scale(gamma[0], 2.0 * (beta[0] * beta[0])), c_scale(g0sq, 3.0 * beta[0])),
                            c_mul(g0sq, gamma[0]));
    ekoc_complex t = c_add(c_add(c_scale(gamma[2], L), c_scale(l2, 0.5 * (L * L))), c_scale(l3, (L * L * L) / 6.0));
    k = c_add(k, c_scale(t, a_s * a_s * a_s));
  }
  return k;
}

/* Scheme B K factor for the singlet (eko's singlet_variation): the formula
 * of ekoc_sv_expanded_ns with 1 -> identity, g0^2, g0^3 the matrix powers and
 * g1 g0 + g0 g1 in this order (the matrices do not commute). */
EKOC_HD ekoc_cmat2 ekoc_sv_expanded_singlet(int32_t order, double L, double a_s, const double beta[4],
                                            const ekoc_cmat2 *gamma) {
  ekoc_cmat2 k = m2_identity();
  if (order >= 2) k = m2_add(k, m2_scale(gamma[0], a_s * L));
  if (order >= 3) {
    ekoc_cmat2 t = m2_scale(m2_add(m2_scale(gamma[0], beta[0]), m2_mul(gamma[0], gamma[0])), 0.5 * L * L);
    t = m2_add(t, m2_scale(gamma[1], L));
    k = m2_add(k, m2_scale(t, a_s * a_s));
  }
  if (order >= 4) {
    ekoc_cmat2 g0sq = m2_mul(gamma[0], gamma[0]);
    ekoc_cmat2 l2 = m2_add(m2_add(m2_add(m2_scale(gamma[0], beta[1]), m2_scale(gamma[1], 2.0 * beta[0])),
                                  m2_mul(gamma[1], gamma[0])),
                           m2_mul(gamma[0], gamma[1]));
    ekoc_cmat2 l3 = m2_add(m2_add(m2_scale(gamma[0], 2.0 * (beta[0] * beta[0])), m2_scale(g0sq, 3.0 * beta[0])),
                           m2_mul(g0sq, gamma[0]));
    ekoc_cmat2 t = m2_add(m2_add(m2_scale(gamma[2], L), m2_scale(l2, 0.5 * (L * L))), m2_scale(l3, (L * L * L) / 6.0));
    k = m2_add(k, m2_scale(t, a_s * a_s * a_s));
  }
  return k;
}

#endif /* EKOC_AD_SCALE_VARIATION_H */
