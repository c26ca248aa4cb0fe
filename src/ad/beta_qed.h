/* beta_qed.h: the QED and mixed QCD x QED beta-function coefficients,
 * host+device (EKOC_HD, no allocation), next to the pure-QCD ones of
 * src/ad/beta.h.
 *
 * Convention (docs/physics.md §15.2; eko's module eko.beta), with
 * a_s = alpha_s/(4 pi), a_em = alpha_em/(4 pi):
 *   d a_s  / d ln mu^2 = -a_s^2  (sum_k beta_k a_s^k + beta_qcd(2,1) a_em + ...),
 *   d a_em / d ln mu^2 = -a_em^2 (beta_qed(0,2) + beta_qed(0,3) a_em + beta_qed(1,2) a_s + ...).
 * The coefficients are L. R. Surguladze's (1996; eko.beta's reference
 * Surguladze:1996hx, eq. 7), written with eko's charge sums: n_u = n_f / 2
 * up-like quarks (e_u^2 = 4/9), n_d = n_f - n_u down-like ones
 * (e_d^2 = 1/9), N_C = 3 and n_l charged leptons. Any n_f is accepted
 * (callers validate 3..6).
 */
#ifndef EKOC_AD_BETA_QED_H
#define EKOC_AD_BETA_QED_H

#include "ad/ad_math.h"

#define EKOC_NC 3.0
#define EKOC_EU2 (4.0 / 9.0)
#define EKOC_ED2 (1.0 / 9.0)

/* sum_q e_q^2 over the n_f active quarks (n_f / 2 up-like ones). */
EKOC_HD double ekoc_quark_charge2_sum(int nf) {
  const int nu = nf / 2, nd = nf - nu;
  return (double)nu * EKOC_EU2 + (double)nd * EKOC_ED2;
}

/* sum_q e_q^4 over the n_f active quarks. */
EKOC_HD double ekoc_quark_charge4_sum(int nf) {
  const int nu = nf / 2, nd = nf - nu;
  return (double)nu * (EKOC_EU2 * EKOC_EU2) + (double)nd * (EKOC_ED2 * EKOC_ED2);
}

/* beta_qcd(2,1): the O(a_s^2 a_em) term of the QCD beta function,
 * -4 T_R sum_q e_q^2. */
EKOC_HD double ekoc_beta_qcd_as2aem1(int nf) { return -4.0 * EKOC_TR * ekoc_quark_charge2_sum(nf); }

/* beta_qed(0,2): the one-loop QED coefficient, -4/3 (n_l + N_C sum_q e_q^2)
 * (negative: a_em grows with the scale). */
EKOC_HD double ekoc_beta_qed_aem2(int nf, int nl) {
  return -4.0 / 3.0 * ((double)nl + EKOC_NC * ekoc_quark_charge2_sum(nf));
}

/* beta_qed(0,3): the two-loop QED coefficient, -4 (n_l + N_C sum_q e_q^4). */
EKOC_HD double ekoc_beta_qed_aem3(int nf, int nl) {
  return -4.0 * ((double)nl + EKOC_NC * ekoc_quark_charge4_sum(nf));
}

/* beta_qed(1,2): the O(a_em^2 a_s) term of the QED beta function,
 * -4 C_F N_C sum_q e_q^2. */
EKOC_HD double ekoc_beta_qed_aem2as1(int nf) { return -4.0 * EKOC_CF * EKOC_NC * ekoc_quark_charge2_sum(nf); }

#endif /* EKOC_AD_BETA_QED_H */
