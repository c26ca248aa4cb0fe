/* beta.h: QCD beta-function coefficients beta_0..beta_3 for n_f active
 * flavours, host+device (EKOC_HD, no allocation).
 *
 * Convention (docs/physics.md §1.1, §2.1; eko's module eko.beta):
 *   d a_s / d ln mu^2 = -sum_n beta_n a_s^(n+2),  a_s = alpha_s / (4 pi),
 * so beta_0 = 11 - 2 n_f / 3. Coefficients of [Herzog17] eqs. 3.1-3.3 and 3.6.
 */
#ifndef EKOC_AD_BETA_H
#define EKOC_AD_BETA_H

#include "ad/ad_math.h"

/* Writes beta_0..beta_3 of n_f flavours into beta[0..3] (docs/physics.md §2.1).
 * Written in colour factors with T_F = T_R n_f as eko writes them, so the
 * rounding is the same as eko's; beta_3 is the pure-number form of
 * [Herzog17] eq. 3.6. Any n_f is accepted (callers validate 3..6). */
EKOC_HD void ekoc_beta_coefficients(int nf, double beta[4]) {
  const double ca = EKOC_CA, cf = EKOC_CF;
  const double tf = EKOC_TR * (double)nf;
  const double n = (double)nf;
  beta[0] = 11.0 / 3.0 * ca - 4.0 / 3.0 * EKOC_TR * n;
  beta[1] = 34.0 / 3.0 * ca * ca - 20.0 / 3.0 * ca * tf - 4.0 * cf * tf;
  beta[2] = 2857.0 / 54.0 * ca * ca * ca - 1415.0 / 27.0 * ca * ca * tf - 205.0 / 9.0 * cf * ca * tf +
            2.0 * cf * cf * tf + 44.0 / 9.0 * cf * tf * tf + 158.0 / 27.0 * ca * tf * tf;
  beta[3] = 149753.0 / 6.0 + 3564.0 * EKOC_ZETA3 + n * (-1078361.0 / 162.0 - 6508.0 / 27.0 * EKOC_ZETA3) +
            n * n * (50065.0 / 162.0 + 6472.0 / 81.0 * EKOC_ZETA3) + 1093.0 / 729.0 * n * n * n;
}

#endif /* EKOC_AD_BETA_H */
