/* evolution_integrals.h: the evolution integrals j^(n,m)(a1, a0) of the
 * non-singlet exact and expanded solutions, host+device (EKOC_HD).
 *
 * Definition (docs/physics.md §6.1, eko's module eko.kernels.evolution_integrals,
 * doc names; eko's code names j12, j23, j13, j34, j24, j14 in brackets, and
 * at N3LO those of eko.kernels.as4_evolution_integrals, j13, j23, j33, j03):
 *
 *   j^(n,m)(a1, a0) = int_{a0}^{a1} da  a^n / (sum_{k=0}^{m} beta_k a^(k+1)),
 *
 * i.e. the integrand is a^n / (-beta(a)/a) with the beta function truncated
 * at beta_m (m = 0..3: LO..N3LO). The "expanded" variants are the Taylor expansions of the exact
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

/* ---- N3LO (m = 3) ----------------------------------------------------------- */

/* The three roots r of P(a) = 1 + b1 a + b2 a^2 + b3 a^3 (Cardano, as eko's
 * module eko.kernels.as4_evolution_integrals writes them), with
 *   d1 = 3 b1 b3 - b2^2,  d2 = -2 b2^3 + 9 b1 b2 b3 - 27 b3^2,
 *   d3 = [(d2 + sqrt(4 d1^3 + d2^2))/2]^(1/3),
 *   r_real = (-b2 - d1/d3 + d3)/(3 b3),
 *   r_pair = (-b2 + (1 + i sqrt3) d1/(2 d3) - (1 - i sqrt3) d3/2)/(3 b3),
 * and the third root the conjugate of r_pair. For every n_f = 3..6 the
 * discriminant and d2 + sqrt(...) are positive (one real negative root and a
 * complex pair, docs/physics.md §6.1); otherwise d3 is NaN, as in eko, whose
 * real square and cube roots give NaN there too. */
typedef struct ekoc_ei_cubic_roots {
  double real;
  ekoc_complex pair;
} ekoc_ei_cubic_roots;

EKOC_HD ekoc_ei_cubic_roots ekoc_ei_cubic_roots_of(double b1, double b2, double b3) {
  const double sqrt3 = 1.73205080756887729352744634150587237;
  double d1 = -(b2 * b2) + 3.0 * b1 * b3;
  double d2 = -2.0 * (b2 * b2 * b2) + 9.0 * b1 * b2 * b3 - 27.0 * (b3 * b3);
  double d3 = pow((d2 + sqrt(4.0 * (d1 * d1 * d1) + d2 * d2)) / 2.0, 1.0 / 3.0);
  double inv = 1.0 / (3.0 * b3);
  ekoc_ei_cubic_roots r;
  r.real = inv * (-b2 - d1 / d3 + d3);
  r.pair = c_scale(c_make(-b2 + d1 / (2.0 * d3) - d3 / 2.0, sqrt3 * d1 / (2.0 * d3) + sqrt3 * d3 / 2.0), inv);
  return r;
}

/* One root's share of the partial fractions of a^k/P(a) integrated from a0
 * to a1: r^k / P'(r) ln[(a1 - r)/(a0 - r)], P'(r) = b1 + 2 b2 r + 3 b3 r^2. */
EKOC_HD ekoc_complex ekoc_ei_cubic_term(int k, ekoc_complex r, double a1, double a0, double b1, double b2,
                                        double b3) {
  ekoc_complex r2 = c_mul(r, r);
  ekoc_complex num = k == 0 ? c_real(1.0) : (k == 1 ? r : r2);
  ekoc_complex deriv = c_add_real(c_add(c_scale(r, 2.0 * b2), c_scale(r2, 3.0 * b3)), b1);
  ekoc_complex lg = c_log(c_div(c_sub(c_real(a1), r), c_sub(c_real(a0), r)));
  return c_mul(c_div(num, deriv), lg);
}

/* j^(n,3) exact for n = 1, 2, 3 (eko's as4 j13, j23, j33):
 *   int_{a0}^{a1} da a^(n-1) / (beta_0 P(a)) = (1/beta_0) sum_r r^(n-1)/P'(r) ln[(a1 - r)/(a0 - r)].
 * The conjugate pair contributes twice the real part of one of them; the sum
 * is real (eko's complex sum has an exactly zero imaginary part). */
EKOC_HD double ekoc_ei_jn3_exact(int n, double a1, double a0, const double *beta, const ekoc_ei_cubic_roots *roots) {
  double b1 = beta[1] / beta[0], b2 = beta[2] / beta[0], b3 = beta[3] / beta[0];
  double t_real = ekoc_ei_cubic_term(n - 1, c_real(roots->real), a1, a0, b1, b2, b3).re;
  double t_pair = ekoc_ei_cubic_term(n - 1, roots->pair, a1, a0, b1, b2, b3).re;
  return (1.0 / beta[0]) * (t_real + t_pair + t_pair);
}

/* j^(0,3) [eko's as4 j03] = j^(0,0) - b1 j^(1,3) - b2 j^(2,3) - b3 j^(3,3),
 * from the three others (exact or expanded alike). */
EKOC_HD double ekoc_ei_j03_from(double j00, double j13, double j23, double j33, const double *beta) {
  double b1 = beta[1] / beta[0], b2 = beta[2] / beta[0], b3 = beta[3] / beta[0];
  return j00 - b1 * j13 - b2 * j23 - b3 * j33;
}

/* j^(3,3) [as4 j33] expanded = (a1^3 - a0^3)/(3 beta_0). */
EKOC_HD double ekoc_ei_j33_expanded(double a1, double a0, const double *beta) {
  return 1.0 / (3.0 * beta[0]) * (a1 * a1 * a1 - a0 * a0 * a0);
}

/* j^(2,3) [as4 j23] expanded = [(a1^2 - a0^2)/2 - b1 (a1^3 - a0^3)/3]/beta_0. */
EKOC_HD double ekoc_ei_j23_expanded(double a1, double a0, const double *beta) {
  double b1 = beta[1] / beta[0];
  return 1.0 / beta[0] * (0.5 * (a1 * a1 - a0 * a0) - b1 / 3.0 * (a1 * a1 * a1 - a0 * a0 * a0));
}

/* j^(1,3) [as4 j13] expanded = [a1 - a0 - b1 (a1^2 - a0^2)/2 + (b1^2 - b2)(a1^3 - a0^3)/3]/beta_0. */
EKOC_HD double ekoc_ei_j13_expanded(double a1, double a0, const double *beta) {
  double b1 = beta[1] / beta[0], b2 = beta[2] / beta[0];
  return (1.0 / beta[0]) *
         ((a1 - a0) - b1 / 2.0 * (a1 * a1 - a0 * a0) + (b1 * b1 - b2) / 3.0 * (a1 * a1 * a1 - a0 * a0 * a0));
}

/* Fills j[i] = j^(i, order-1)(a1, a0), i = 0..order-1, the coefficients of
 * gamma^(i) in the exponent of the exact (expanded = 0) or expanded
 * (expanded != 0) solution (docs/physics.md §6.2). order outside 1..4 leaves j
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
  } else if (order == 4) {
    if (expanded) {
      j[1] = ekoc_ei_j13_expanded(a1, a0, beta);
      j[2] = ekoc_ei_j23_expanded(a1, a0, beta);
      j[3] = ekoc_ei_j33_expanded(a1, a0, beta);
    } else {
      ekoc_ei_cubic_roots roots = ekoc_ei_cubic_roots_of(beta[1] / beta[0], beta[2] / beta[0], beta[3] / beta[0]);
      j[1] = ekoc_ei_jn3_exact(1, a1, a0, beta, &roots);
      j[2] = ekoc_ei_jn3_exact(2, a1, a0, beta, &roots);
      j[3] = ekoc_ei_jn3_exact(3, a1, a0, beta, &roots);
    }
    j[0] = ekoc_ei_j03_from(ekoc_ei_j00(a1, a0, beta), j[1], j[2], j[3], beta);
  }
}

#endif /* EKOC_AD_EVOLUTION_INTEGRALS_H */
