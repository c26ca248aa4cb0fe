/* kernel_qed.h: the QCD x QED evolution kernels of one segment at fixed n_f,
 * host+device (EKOC_HD), as eko 0.15.7 computes them (docs/physics.md §15.3;
 * eko's modules eko.kernels.non_singlet_qed, singlet_qed, valence_qed).
 *
 * A segment is cut into ev_op_iterations steps, geometric in mu2. On each
 * step a_em is frozen at its value at the step's arithmetic midpoint:
 *  - non-singlet (each of ns+u, ns+d, ns-u, ns-d): the exact QCD solution
 *    (eko's *_exact closed forms) with gamma^(i) -> sum_j gamma^(i,j) a_em^j and
 *    beta_0 -> beta_0 + a_em beta_qcd(2,1), times exp[(gamma^(0,1) a_em +
 *    gamma^(0,2) a_em^2) ln(mu2_from / mu2_to)] for the pure-QED part;
 *  - valence 2x2 and singlet 4x4: E = prod_steps exp[gamma(a_h) (a_1 - a_0) /
 *    beta(a_h)], gamma and beta at the midpoint couplings a_h = (a_s, a_em),
 *    beta(a) = sum_i beta_i a_s^(i+2) + beta_qcd(2,1) a_s^2 a_em.
 *
 * The anomalous dimensions come as a compact tower of "pairs" (i, j), the
 * powers of (a_s, a_em) eko fills: (1,0) .. (order,0), (0,1), (1,1) and, at
 * QED order 2, (0,2). No allocation, no failure path (NaN for bad input).
 */
#ifndef EKOC_AD_KERNEL_QED_H
#define EKOC_AD_KERNEL_QED_H

#include <stdint.h>

#include "ad/ad_math.h"
#include "ad/beta_qed.h"
#include "ad/kernel_ns.h"
#include "ad/qed_matrix.h"

/* Number of (a_s, a_em) power pairs in a QED tower. */
EKOC_HD int ekoc_qed_pairs(int32_t order, int32_t qed_order) { return order + 2 + (qed_order >= 2 ? 1 : 0); }

/* The powers (i, j) of pair p. */
EKOC_HD void ekoc_qed_pair(int32_t order, int p, int *i, int *j) {
  if (p < order) {
    *i = p + 1;
    *j = 0;
  } else if (p == order) {
    *i = 0;
    *j = 1;
  } else if (p == order + 1) {
    *i = 1;
    *j = 1;
  } else {
    *i = 0;
    *j = 2;
  }
}

/* The step couplings of a QED family: a_s at the step ends [0..it], a_s and
 * a_em at the midpoints [0..it-1]. */
typedef struct ekoc_qed_steps {
  int32_t n;
  const double *as_ends, *as_half, *aem_half;
} ekoc_qed_steps;

EKOC_HD ekoc_qed_steps ekoc_qed_steps_of(int32_t iterations, const double *couplings) {
  ekoc_qed_steps s;
  s.n = iterations;
  s.as_ends = couplings;
  s.as_half = couplings + iterations + 1;
  s.aem_half = couplings + 2 * iterations + 1;
  return s;
}

/* The step's da_s/dln mu^2 up to sign, beta(a) = sum_i beta_i a_s^(i+2) +
 * beta_qcd(2,1) a_s^2 a_em, at the midpoint couplings (a_s, a_em). */
EKOC_HD double ekoc_qed_step_beta(int32_t order, const double beta[4], double beta_mix, double as, double aem) {
  double betatot = 0.0, apow = as * as;
  int i;
  for (i = 0; i < order; ++i) {
    betatot += beta[i] * apow;
    apow *= as;
  }
  return betatot + beta_mix * as * as * aem;
}

/* The evolution integrals of step s of a non-singlet QED kernel: eko's
 * exact non-singlet closed forms with beta_0 -> beta_0 + a_em beta_mix (j^(0,0)
 * at LO, the exact j^(i, order-1) above). They do not depend on N. */
EKOC_HD void ekoc_kernel_qed_ns_step_integrals(int32_t order, const double beta[4], double beta_mix,
                                               ekoc_qed_steps st, int s, double j[EKOC_MAX_ORDER]) {
  ekoc_kernel_cfg k;
  int i;
  k.order = order;
  k.method = EKOC_METHOD_PERTURBATIVE_EXACT; /* eko's *_exact closed forms */
  k.ev_op_iterations = 1;
  k.ev_op_max_order = 1;
  for (i = 0; i < 4; ++i) k.beta[i] = beta[i];
  k.beta[0] += st.aem_half[s] * beta_mix;
  k.a0 = st.as_ends[s];
  k.a1 = st.as_ends[s + 1];
  ekoc_kernel_ns_evolution_integrals(&k, j);
}

/* Non-singlet QED kernels of n_entries entries at once. g[p * stride + e] is
 * pair p of entry e; out[e] receives E_e. beta[4] are the QCD beta_0..3 of nf,
 * beta_mix = beta_qcd(2,1), log_step = ln(mu2_from/mu2_to) per step. Every
 * factor of eko's product is an exponential (its exact non-singlet solutions
 * exp[sum_i gamma^(i) j^(i)]), so the exponents are summed over the steps and
 * exponentiated once. step_j: the steps' integrals
 * (ekoc_kernel_qed_ns_step_integrals, EKOC_MAX_ORDER per step) made once for
 * many points, or NULL: made here. */
EKOC_HD void ekoc_kernel_qed_ns_with(int32_t order, int32_t qed_order, const double beta[4], double beta_mix,
                                     double log_step, ekoc_qed_steps st, const double *step_j, const ekoc_complex *g,
                                     int stride, int n_entries, ekoc_complex *out) {
  int e, s, i, pq = order, p11 = order + 1, p02 = order + 2;
  for (e = 0; e < n_entries; ++e) out[e] = c_real(0.0); /* the exponents first */
  for (s = 0; s < st.n; ++s) {
    double aem = st.aem_half[s];
    double own[EKOC_MAX_ORDER];
    const double *j = step_j ? step_j + (size_t)s * EKOC_MAX_ORDER : own;
    if (!step_j) ekoc_kernel_qed_ns_step_integrals(order, beta, beta_mix, st, s, own);
    for (e = 0; e < n_entries; ++e) {
      ekoc_complex expo = c_scale(c_add(g[e], c_scale(g[p11 * stride + e], aem)), j[0]);
      ekoc_complex pure = c_scale(g[pq * stride + e], aem);
      for (i = 1; i < order; ++i) expo = c_add(expo, c_scale(g[i * stride + e], j[i]));
      if (qed_order >= 2) pure = c_add(pure, c_scale(g[p02 * stride + e], aem * aem));
      out[e] = c_add(out[e], c_add(expo, c_scale(pure, log_step)));
    }
  }
  for (e = 0; e < n_entries; ++e) out[e] = c_exp(out[e]);
}

EKOC_HD void ekoc_kernel_qed_ns(int32_t order, int32_t qed_order, const double beta[4], double beta_mix,
                                double log_step, ekoc_qed_steps st, const ekoc_complex *g, int stride,
                                int n_entries, ekoc_complex *out) {
  ekoc_kernel_qed_ns_with(order, qed_order, beta, beta_mix, log_step, st, NULL, g, stride, n_entries, out);
}

/* Valence (dim 2) or singlet (dim 4) QED kernel: g[p * dim*dim + r*dim + c] is
 * pair p of the matrix; out (dim*dim, row-major) receives E. */
EKOC_HD void ekoc_kernel_qed_matrix(int32_t order, int32_t qed_order, int dim, const double beta[4], double beta_mix,
                                    ekoc_qed_steps st, const ekoc_complex *g, ekoc_complex *out) {
  int s, p, i, j, d2 = dim * dim, np = ekoc_qed_pairs(order, qed_order);
  ekoc_complex ln[EKOC_QED_MAX_DIM2], step[EKOC_QED_MAX_DIM2], tmp[EKOC_QED_MAX_DIM2];
  ekoc_qed_mat_identity(dim, out);
  for (s = 0; s < st.n; ++s) {
    double as = st.as_half[s], aem = st.aem_half[s];
    double fact = (st.as_ends[s + 1] - st.as_ends[s]) / ekoc_qed_step_beta(order, beta, beta_mix, as, aem);
    for (i = 0; i < d2; ++i) ln[i] = c_real(0.0);
    for (p = 0; p < np; ++p) {
      int pi, pj;
      double w = 1.0;
      ekoc_qed_pair(order, p, &pi, &pj);
      for (j = 0; j < pi; ++j) w *= as;
      for (j = 0; j < pj; ++j) w *= aem;
      for (i = 0; i < d2; ++i) ln[i] = c_add(ln[i], c_scale(g[p * d2 + i], w * fact));
    }
    ekoc_qed_mat_exp(dim, ln, step);
    ekoc_qed_mat_mul(dim, step, out, tmp);
    for (i = 0; i < d2; ++i) out[i] = tmp[i];
  }
}

#endif /* EKOC_AD_KERNEL_QED_H */
