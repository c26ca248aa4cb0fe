/* kernel_ns.h: the non-singlet evolution kernel E_ns(N) of one segment at
 * fixed n_f, for every eko solution method, host+device (EKOC_HD).
 *
 * E_ns solves dE/da = -gamma(a)/beta(a) E from a0 to a1 with
 * gamma(a) = sum_i a^(i+1) gamma^(i) (docs/physics.md §1.1, §6.2; eko's
 * module eko.kernels.non_singlet). No allocation, no failure path besides
 * returning NaN for an invalid configuration (see ekoc_kernel_cfg_valid).
 */
#ifndef EKOC_AD_KERNEL_NS_H
#define EKOC_AD_KERNEL_NS_H

#include <stdint.h>

#include "ad/ad_math.h"
#include "ad/axes.h"
#include "ad/evolution_integrals.h"

/* Everything a kernel needs about one evolution segment; plain data, shared
 * read-only by all points of the segment.
 *   order            1..4 = number of gamma terms (LO .. N3LO), eko's order[0]
 *   method           EKOC_METHOD_*
 *   ev_op_iterations >= 1: a_s steps of the iterate and perturbative singlet methods
 *   ev_op_max_order  1..EKOC_MAX_EV_OP_MAX_ORDER: terms of U(a) in the
 *                    perturbative singlet methods (eko's ev_op_max_order[0])
 *   beta[4]          beta_0..beta_3 of the segment's n_f (beta.h)
 *   a0, a1           a_s = alpha_s/(4 pi) at the start and the end of the segment */
typedef struct ekoc_kernel_cfg {
  int32_t order;
  int32_t method;
  int32_t ev_op_iterations;
  int32_t ev_op_max_order;
  double beta[4];
  double a0, a1;
} ekoc_kernel_cfg;

/* 1 if cfg is usable by the kernels (order 1..EKOC_MAX_ORDER, known method,
 * iterations in 1..EKOC_MAX_EV_OP_ITERATIONS, max order in
 * 1..EKOC_MAX_EV_OP_MAX_ORDER, finite nonzero beta_0..beta_2, finite beta_3,
 * nonzero at N3LO, finite positive couplings), 0 otherwise. The kernels
 * compute every order the API describes; which orders a theory may ask for
 * is decided elsewhere (ad/axes.h, EKOC_IMPLEMENTED_ORDER).
 * The kernels return NaN for an invalid cfg; a host caller should check this
 * first and report which field is wrong through ekoc_error. */
EKOC_HD int ekoc_kernel_cfg_valid(const ekoc_kernel_cfg *cfg) {
  int i;
  if (cfg->order < 1 || cfg->order > EKOC_MAX_ORDER) return 0; /* the kernels know LO..N3LO */
  if (cfg->method < 0 || cfg->method >= EKOC_METHOD_COUNT) return 0;
  if (cfg->ev_op_iterations < 1 || cfg->ev_op_iterations > EKOC_MAX_EV_OP_ITERATIONS) return 0;
  if (cfg->ev_op_max_order < 1 || cfg->ev_op_max_order > EKOC_MAX_EV_OP_MAX_ORDER) return 0;
  for (i = 0; i < 3; ++i)
    if (!isfinite(cfg->beta[i]) || cfg->beta[i] == 0.0) return 0;
  if (!isfinite(cfg->beta[3]) || (cfg->order >= 4 && cfg->beta[3] == 0.0)) return 0;
  if (!(isfinite(cfg->a0) && cfg->a0 > 0.0 && isfinite(cfg->a1) && cfg->a1 > 0.0)) return 0;
  return 1;
}

/* 1 for the methods whose exponent uses the expanded integrals j_exp
 * (iterate-, decompose-, perturbative-expanded), 0 otherwise. */
EKOC_HD int ekoc_kernel_method_is_expanded(int32_t method) {
  return method == EKOC_METHOD_ITERATE_EXPANDED || method == EKOC_METHOD_DECOMPOSE_EXPANDED ||
         method == EKOC_METHOD_PERTURBATIVE_EXPANDED;
}

/* Non-singlet U_0..U_{order-1} of the truncated solutions (docs/physics.md §6.2):
 * R_0 = g0/b0, R_1 = g1/b0 - b1 R_0, R_2 = g2/b0 - b1 R_1 - b2 R_0,
 * R_3 = g3/b0 - b1 R_2 - b2 R_1 - b3 R_0,
 * U_0 = 1, U_1 = R_1, U_2 = (R_2 + U_1 R_1)/2, U_3 = (R_3 + R_2 U_1 + R_1 U_2)/3. */
EKOC_HD void ekoc_kernel_ns_u(int32_t order, const double *beta, const ekoc_complex *gamma, ekoc_complex *u) {
  double inv_b0 = 1.0 / beta[0];
  ekoc_complex r0 = c_scale(gamma[0], inv_b0), r1, r2;
  u[0] = c_real(1.0);
  if (order >= 2) {
    double b1 = beta[1] * inv_b0;
    r1 = c_sub(c_scale(gamma[1], inv_b0), c_scale(r0, b1));
    u[1] = r1;
    if (order >= 3) {
      double b2 = beta[2] * inv_b0;
      r2 = c_sub(c_sub(c_scale(gamma[2], inv_b0), c_scale(r1, b1)), c_scale(r0, b2));
      u[2] = c_scale(c_add(r2, c_mul(u[1], r1)), 0.5);
      if (order >= 4) {
        double b3 = beta[3] * inv_b0;
        ekoc_complex r3 =
            c_sub(c_sub(c_sub(c_scale(gamma[3], inv_b0), c_scale(r2, b1)), c_scale(r1, b2)), c_scale(r0, b3));
        u[3] = c_scale(c_add(c_add(r3, c_mul(r2, u[1])), c_mul(r1, u[2])), 1.0 / 3.0);
      }
    }
  }
}

/* sum_{i < order} u[i] a^i (u from ekoc_kernel_ns_u): the numerator (a = a1)
 * and the denominator (a = a0) of the ordered-truncated solution, whose
 * zeros are poles of that kernel (evol/nspace_poles.h). */
EKOC_HD ekoc_complex ekoc_kernel_ns_u_sum(int32_t order, const ekoc_complex *u, double a) {
  ekoc_complex sum = c_real(0.0);
  double p = 1.0;
  int32_t i;
  for (i = 0; i < order; ++i) {
    sum = c_add(sum, c_scale(u[i], p));
    p *= a;
  }
  return sum;
}

/* E_ns(a1 <- a0) for cfg->method (docs/physics.md §6.2), gamma[0..order-1] =
 * gamma^(0..order-1)(N) of the segment (already shifted by exponentiated
 * scale variation if any):
 *  - LO, every method: exp[gamma^(0) j^(0,0)];
 *  - iterate-/decompose-/perturbative-exact: exp[sum_i gamma^(i) j^(i,order-1)];
 *  - the *-expanded methods: the same with the expanded j's;
 *  - truncated: E_0 [1 + U_1 (a1-a0) + a1^2 U_2 - a1 a0 U_1^2 + a0^2 (U_1^2 - U_2)
 *               + a1^3 U_3 - a1^2 a0 U_2 U_1 + a1 a0^2 U_1 (U_1^2 - U_2)
 *               - a0^3 (U_1^3 - 2 U_1 U_2 + U_3)] (each line from its order on);
 *  - ordered-truncated: E_0 (sum_i U_i a1^i)/(sum_i U_i a0^i).
 * ev_op_iterations and ev_op_max_order play no role here. a1 == a0 is not
 * special-cased (the formulas give 1 up to rounding, as in eko). Returns NaN
 * for an invalid cfg. */
EKOC_HD int ekoc_kernel_ns_uses_j00(const ekoc_kernel_cfg *cfg) {
  return cfg->order == 1 || cfg->method == EKOC_METHOD_TRUNCATED || cfg->method == EKOC_METHOD_ORDERED_TRUNCATED;
}

/* The N-independent (real) part of ekoc_kernel_ns: j[0] = j^(0,0) for LO and
 * the truncated methods, else the j^(i,order-1) of ekoc_ei_fill; NaN for an
 * invalid cfg. One evaluation serves every N and sector of a segment. */
EKOC_HD void ekoc_kernel_ns_evolution_integrals(const ekoc_kernel_cfg *cfg, double j[EKOC_MAX_ORDER]) {
  int i;
  for (i = 0; i < EKOC_MAX_ORDER; ++i) j[i] = NAN;
  if (!ekoc_kernel_cfg_valid(cfg)) return;
  if (ekoc_kernel_ns_uses_j00(cfg))
    j[0] = ekoc_ei_j00(cfg->a1, cfg->a0, cfg->beta);
  else
    ekoc_ei_fill(cfg->order, ekoc_kernel_method_is_expanded(cfg->method), cfg->a1, cfg->a0, cfg->beta, j);
}

/* ekoc_kernel_ns with its integrals j from ekoc_kernel_ns_evolution_integrals. */
EKOC_HD ekoc_complex ekoc_kernel_ns_with(const ekoc_kernel_cfg *cfg, const double j[EKOC_MAX_ORDER],
                                         const ekoc_complex *gamma) {
  int32_t order = cfg->order, method = cfg->method, i;
  double a0 = cfg->a0, a1 = cfg->a1;
  ekoc_complex expo, e0, u[EKOC_MAX_ORDER];
  if (!ekoc_kernel_cfg_valid(cfg)) return c_make(NAN, NAN);
  if (order == 1) return c_exp(c_scale(gamma[0], j[0]));
  if (method == EKOC_METHOD_TRUNCATED || method == EKOC_METHOD_ORDERED_TRUNCATED) {
    e0 = c_exp(c_scale(gamma[0], j[0]));
    ekoc_kernel_ns_u(order, cfg->beta, gamma, u);
    if (method == EKOC_METHOD_TRUNCATED) {
      ekoc_complex fact = c_add(u[0], c_scale(u[1], a1 - a0));
      if (order >= 3) {
        ekoc_complex u1sq = c_mul(u[1], u[1]);
        fact = c_add(fact, c_scale(u[2], a1 * a1));
        fact = c_sub(fact, c_scale(u1sq, a1 * a0));
        fact = c_add(fact, c_scale(c_sub(u1sq, u[2]), a0 * a0));
        if (order >= 4) {
          ekoc_complex t = c_scale(u[3], a1 * a1 * a1);
          t = c_sub(t, c_scale(c_mul(u[2], u[1]), a1 * a1 * a0));
          t = c_add(t, c_scale(c_mul(u[1], c_sub(u1sq, u[2])), a1 * a0 * a0));
          t = c_sub(t, c_scale(c_add(c_sub(c_mul(u1sq, u[1]), c_scale(c_mul(u[1], u[2]), 2.0)), u[3]), a0 * a0 * a0));
          fact = c_add(fact, t);
        }
      }
      return c_mul(e0, fact);
    } else {
      return c_mul(e0, c_div(ekoc_kernel_ns_u_sum(order, u, a1), ekoc_kernel_ns_u_sum(order, u, a0)));
    }
  }
  expo = c_real(0.0);
  for (i = 0; i < order; ++i) expo = c_add(expo, c_scale(gamma[i], j[i]));
  return c_exp(expo);
}

EKOC_HD ekoc_complex ekoc_kernel_ns(const ekoc_kernel_cfg *cfg, const ekoc_complex *gamma) {
  double j[EKOC_MAX_ORDER];
  ekoc_kernel_ns_evolution_integrals(cfg, j);
  return ekoc_kernel_ns_with(cfg, j, gamma);
}

#endif /* EKOC_AD_KERNEL_NS_H */
