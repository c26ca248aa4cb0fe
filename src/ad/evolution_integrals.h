/* evolution_integrals.h: the evolution integrals j^(n,m)(a1, a0) of the
 * non-singlet exact and expanded solutions, host+device (EKOC_HD).
 *
 * Definition (docs/physics.md §6.1, eko's module eko.kernels.evolution_integrals,
 * doc names; eko's code names j12, j23, j13, j34, j24, j14 in brackets):
 *
 *   j^(n,m)(a1, a0) = int_{a0}^{a1} da  a^n / (sum_{k=0}^{m} beta_k a^(k+1)),
 *
 * i.e. the integrand is a^n / (-beta(a)/a) with the beta function truncated
 * at beta_m. The "expanded" variants are the Taylor expansions of the exact
 * ones in (a1, a0) up to the order of the solution. Every function takes the
 * couplings a1 (target), a0 (start) and beta[0..m]; the b_k = beta_k/beta_0
 * are formed inside. All are pure functions, no allocation, no failure path:
 * a0 or a1 <= 0 gives NaN/inf through the logarithm.
 */
#ifndef EKOC_AD_EVOLUTION_INTEGRALS_H
#define EKOC_AD_EVOLUTION_INTEGRALS_H

#include "ad/ad_math.h"

/* j^(0,0) [j12] = ln(a1/a0)/beta_0: the LO integral, also used by every
 * higher-order j^(0,m). */
EKOC_HD double ekoc_ei_j00(double a1, double a0, const double *beta) { return log(a1 / a0) / beta[0]; }

/* ---- NLO (m = 1) ----------------------------------------------------------- */

/* j^(1,1) [j23] exact = ln[(1 + b1 a1)/(1 + b1 a0)] / beta_1 (written as
 * 1/(b1 beta0) like eko). */
EKOC_HD double ekoc_ei_j11_exact(double a1, double a0, const double *beta) {
  double b1 = beta[1] / beta[0];
  return 1.0 / (b1 * beta[0]) * log((1.0 + a1 * b1) / (1.0 + a0 * b1));
}

/* j^(1,1) [j23] expanded = (a1 - a0)/beta_0. */
EKOC_HD double ekoc_ei_j11_expanded(double a1, double a0, const double *beta) { return (a1 - a0) / beta[0]; }

/* j^(0,1) [j13] exact = j^(0,0) - b1 j^(1,1). */
EKOC_HD double ekoc_ei_j01_exact(double a1, double a0, const double *beta) {
  return ekoc_ei_j00(a1, a0, beta) - beta[1] / beta[0] * ekoc_ei_j11_exact(a1, a0, beta);
}

/* j^(0,1) [j13] expanded = j^(0,0) - b1 j^(1,1)_exp. */
EKOC_HD double ekoc_ei_j01_expanded(double a1, double a0, const double *beta) {
  return ekoc_ei_j00(a1, a0, beta) - beta[1] / beta[0] * ekoc_ei_j11_expanded(a1, a0, beta);
}

/* ---- NNLO (m = 2) ---------------------------------------------------------- */

/* Re(delta/Delta) with Delta = sqrt(4 b2 - b1^2) and
 * delta = atan((b1 + 2 b2 a1)/Delta) - atan((b1 + 2 b2 a0)/Delta)
 * (docs/physics.md §6.1). eko evaluates it with a complex Delta, which is
 * imaginary for n_f = 6 (b2 < 0); there, with d = sqrt(b1^2 - 4 b2) and
 * y = (b1 + 2 b2 a)/d, Re(delta/Delta) = -[Re atanh(y1) - Re atanh(y0)]/d and
 * Re atanh(y) = ln|(1+y)/(1-y)|/2 on either side of the branch cut, so the
 * real formula below is exact. Delta = 0 (never met for integer n_f) takes
 * the limit 1/x0 - 1/x1, x = b1 + 2 b2 a. */
EKOC_HD double ekoc_ei_delta_over_Delta(double a1, double a0, double b1, double b2) {
  double disc = 4.0 * b2 - b1 * b1;
  double x1 = b1 + 2.0 * b2 * a1, x0 = b1 + 2.0 * b2 * a0;
  if (disc > 0.0) {
    double D = sqrt(disc);
    return (atan(x1 / D) - atan(x0 / D)) / D;
  }
  if (disc < 0.0) {
    double d = sqrt(-disc);
    double y1 = x1 / d, y0 = x0 / d;
    double r1 = 0.5 * log(fabs((1.0 + y1) / (1.0 - y1)));
    double r0 = 0.5 * log(fabs((1.0 + y0) / (1.0 - y0)));
    return -(r1 - r0) / d;
  }
  return 1.0 / x0 - 1.0 / x1;
}

/* j^(2,2) [j34] exact = ln[Q(a1)/Q(a0)]/(2 beta_2) - (b1/beta_2) Re(delta/Delta),
 * Q(a) = 1 + b1 a + b2 a^2 (docs/physics.md §6.1; note 1/(2 beta_2), §12 item 3). */
EKOC_HD double ekoc_ei_j22_exact(double a1, double a0, const double *beta) {
  double b1 = beta[1] / beta[0], b2 = beta[2] / beta[0];
  double beta2 = b2 * beta[0];
  double lg = log((1.0 + a1 * (b1 + b2 * a1)) / (1.0 + a0 * (b1 + b2 * a0)));
  return 1.0 / (2.0 * beta2) * lg - b1 / beta2 * ekoc_ei_delta_over_Delta(a1, a0, b1, b2);
}

/* j^(1,2) [j24] exact = (2/beta_0) Re(delta/Delta). */
EKOC_HD double ekoc_ei_j12_exact(double a1, double a0, const double *beta) {
  double b1 = beta[1] / beta[0], b2 = beta[2] / beta[0];
  return 2.0 / beta[0] * ekoc_ei_delta_over_Delta(a1, a0, b1, b2);
}

/* j^(0,2) [j14] exact = j^(0,0) - b1 j^(1,2) - b2 j^(2,2). */
EKOC_HD double ekoc_ei_j02_exact(double a1, double a0, const double *beta) {
  double b1 = beta[1] / beta[0], b2 = beta[2] / beta[0];
  return ekoc_ei_j00(a1, a0, beta) - b1 * ekoc_ei_j12_exact(a1, a0, beta) - b2 * ekoc_ei_j22_exact(a1, a0, beta);
}

/* j^(2,2) [j34] expanded = (a1^2 - a0^2)/(2 beta_0). */
EKOC_HD double ekoc_ei_j22_expanded(double a1, double a0, const double *beta) {
  return 1.0 / (2.0 * beta[0]) * (a1 * a1 - a0 * a0);
}

/* j^(1,2) [j24] expanded = [a1 - a0 - b1 (a1^2 - a0^2)/2]/beta_0. */
EKOC_HD double ekoc_ei_j12_expanded(double a1, double a0, const double *beta) {
  double b1 = beta[1] / beta[0];
  return 1.0 / beta[0] * (a1 - a0 - b1 / 2.0 * (a1 * a1 - a0 * a0));
}

/* j^(0,2) [j14] expanded = j^(0,0) - b1 j^(1,2)_exp - b2 j^(2,2)_exp. */
EKOC_HD double ekoc_ei_j02_expanded(double a1, double a0, const double *beta) {
  double b1 = beta[1] / beta[0], b2 = beta[2] / beta[0];
  return ekoc_ei_j00(a1, a0, beta) - b1 * ekoc_ei_j12_expanded(a1, a0, beta) -
         b2 * ekoc_ei_j22_expanded(a1, a0, beta);
}

/* Fills j[i] = j^(i, order-1)(a1, a0), i = 0..order-1, the coefficients of
 * gamma^(i) in the exponent of the exact (expanded = 0) or expanded
 * (expanded != 0) solution (docs/physics.md §6.2). order outside 1..3 leaves j
 * untouched; j must have room for `order` entries. */
EKOC_HD void ekoc_ei_fill(int order, int expanded, double a1, double a0, const double *beta, double *j) {
  if (order == 1) {
    j[0] = ekoc_ei_j00(a1, a0, beta);
  } else if (order == 2) {
    j[0] = expanded ? ekoc_ei_j01_expanded(a1, a0, beta) : ekoc_ei_j01_exact(a1, a0, beta);
    j[1] = expanded ? ekoc_ei_j11_expanded(a1, a0, beta) : ekoc_ei_j11_exact(a1, a0, beta);
  } else if (order == 3) {
    j[0] = expanded ? ekoc_ei_j02_expanded(a1, a0, beta) : ekoc_ei_j02_exact(a1, a0, beta);
    j[1] = expanded ? ekoc_ei_j12_expanded(a1, a0, beta) : ekoc_ei_j12_exact(a1, a0, beta);
    j[2] = expanded ? ekoc_ei_j22_expanded(a1, a0, beta) : ekoc_ei_j22_exact(a1, a0, beta);
  }
}

#endif /* EKOC_AD_EVOLUTION_INTEGRALS_H */
