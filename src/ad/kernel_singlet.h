/* kernel_singlet.h: the singlet evolution kernel E_S(N), a 2x2 matrix in the
 * (Sigma, g) basis, of one segment at fixed n_f, for every eko solution
 * method, host+device (EKOC_HD).
 *
 * E_S solves dE/da = -gamma(a)/beta(a) E from a0 to a1 with
 * gamma(a) = sum_i a^(i+1) gamma^(i) (docs/physics.md §1.1, §6.3; eko's
 * module eko.kernels.singlet). No allocation: the perturbative methods use
 * fixed stack arrays of EKOC_MAX_EV_OP_MAX_ORDER (+1) matrices (about 4 KB).
 * Invalid cfg: every entry is NaN.
 */
#ifndef EKOC_AD_KERNEL_SINGLET_H
#define EKOC_AD_KERNEL_SINGLET_H

#include "ad/ad_math.h"
#include "ad/evolution_integrals.h"
#include "ad/kernel_ns.h"

EKOC_HD ekoc_cmat2 ekoc_kernel_m2_nan(void) {
  ekoc_cmat2 r;
  int i;
  for (i = 0; i < 4; ++i) r.m[i] = c_make(NAN, NAN);
  return r;
}

/* exp(M t) from the eigen-decomposition of M: e_+ exp(l_+ t) + e_- exp(l_- t).
 * Lets the LO step be evaluated for many t with one decomposition. */
EKOC_HD ekoc_cmat2 ekoc_kernel_eig_exp(const ekoc_eig2 *e, double t) {
  return m2_add(m2_cscale(e->e_p, c_exp(c_scale(e->lambda_p, t))),
                m2_cscale(e->e_m, c_exp(c_scale(e->lambda_m, t))));
}

/* The k-th coupling of the iterate/perturbative grid a_k = a0 (a1/a0)^(k/n),
 * k = 0..n, computed like numpy.geomspace (10^(log10 a0 + k step), endpoints
 * exact), which eko uses (docs/physics.md §6.3 and §12 item 2: geometric, not
 * linear as eko's DGLAP documentation page says). The logarithms are taken once per kernel
 * evaluation (ekoc_kernel_geom_grid), not per step. */
typedef struct ekoc_geom_grid {
  double a0, a1, l0, step;
  int32_t n;
} ekoc_geom_grid;
EKOC_HD ekoc_geom_grid ekoc_kernel_geom_grid(double a0, double a1, int32_t n) {
  ekoc_geom_grid g;
  g.a0 = a0;
  g.a1 = a1;
  g.n = n;
  g.l0 = log10(a0);
  g.step = (log10(a1) - g.l0) / (double)n;
  return g;
}
EKOC_HD double ekoc_kernel_geom_at(const ekoc_geom_grid *g, int32_t k) {
  if (k <= 0) return g->a0;
  if (k >= g->n) return g->a1;
  return pow(10.0, g->l0 + (double)k * g->step);
}

/* The two sums of the singlet generator at coupling a: returns
 * sum_i gamma^(i) a^i and sets *bsum = sum_i beta_i a^(i+1), i < order;
 * dE/da = (gsum / bsum) E. iterate-exact freezes it at each step's midpoint,
 * ordered-exact integrates it. */
EKOC_HD ekoc_cmat2 ekoc_kernel_singlet_sums(const ekoc_kernel_cfg *cfg, const ekoc_cmat2 *gamma, double a,
                                            double *bsum) {
  double pw = 1.0;
  ekoc_cmat2 gsum = m2_zero();
  int32_t i;
  *bsum = 0.0;
  for (i = 0; i < cfg->order; ++i) {
    gsum = m2_add(gsum, m2_scale(gamma[i], pw));
    *bsum += cfg->beta[i] * pw * a;
    pw *= a;
  }
  return gsum;
}

/* The generator A(a) = gsum / bsum of ekoc_kernel_singlet_sums. */
EKOC_HD ekoc_cmat2 ekoc_kernel_singlet_generator(const ekoc_kernel_cfg *cfg, const ekoc_cmat2 *gamma, double a) {
  double bsum;
  ekoc_cmat2 gsum = ekoc_kernel_singlet_sums(cfg, gamma, a, &bsum);
  return m2_scale(gsum, 1.0 / bsum);
}

/* iterate-exact / iterate-expanded (identical code, docs/physics.md §6.3): product
 * over n geometric steps, later steps on the left, of
 * exp[(a_{k+1}-a_k) sum_i gamma^(i) abar^i / sum_i beta_i abar^(i+1)],
 * abar the arithmetic midpoint. */
EKOC_HD ekoc_cmat2 ekoc_kernel_singlet_iterate(const ekoc_kernel_cfg *cfg, const ekoc_cmat2 *gamma) {
  int32_t n = cfg->ev_op_iterations, k;
  ekoc_cmat2 e = m2_identity();
  double al = cfg->a0;
  ekoc_geom_grid grid = ekoc_kernel_geom_grid(cfg->a0, cfg->a1, n);
  for (k = 1; k <= n; ++k) {
    double ah = ekoc_kernel_geom_at(&grid, k);
    double amid = (ah + al) / 2.0, da = ah - al, bsum;
    ekoc_cmat2 gsum = ekoc_kernel_singlet_sums(cfg, gamma, amid, &bsum);
    e = m2_mul(m2_exp(m2_scale(gsum, da / bsum)), e);
    al = ah;
  }
  return e;
}

/* The commutator [x, y] = x y - y x of 2x2 matrices. Only the traceless
 * parts contribute and the result is traceless: with d = m00 - m11,
 *   [x, y]_00 = x01 y10 - y01 x10 = -[x, y]_11,
 *   [x, y]_01 = y01 d_x - x01 d_y,   [x, y]_10 = x10 d_y - y10 d_x,
 * six complex products instead of the sixteen of two matrix products. */
EKOC_HD ekoc_cmat2 ekoc_kernel_m2_comm(ekoc_cmat2 x, ekoc_cmat2 y) {
  ekoc_complex dx = c_sub(x.m[0], x.m[3]), dy = c_sub(y.m[0], y.m[3]);
  ekoc_cmat2 r;
  r.m[0] = c_sub(c_mul(x.m[1], y.m[2]), c_mul(y.m[1], x.m[2]));
  r.m[1] = c_sub(c_mul(y.m[1], dx), c_mul(x.m[1], dy));
  r.m[2] = c_sub(c_mul(x.m[2], dy), c_mul(y.m[2], dx));
  r.m[3] = c_neg(r.m[0]);
  return r;
}

/* exp(D) of a traceless 2x2 matrix D: cosh(z) 1 + sinh(z)/z D with
 * z^2 = D00^2 + D01 D10 (the eigenvalues are +-z), from one complex
 * exponential e^z (e^-z shares its sine and cosine); for |z^2| < 1e-6 the
 * series of m2_exp. Returns 0 (*out untouched) when |Re z| > 300, where e^z
 * alone could overflow while exp(M) of the full matrix does not: the caller
 * then takes m2_exp of the full matrix. */
EKOC_HD int ekoc_kernel_m2_exp_traceless(ekoc_cmat2 d, ekoc_cmat2 *out) {
  ekoc_complex z2 = c_add(c_mul(d.m[0], d.m[0]), c_mul(d.m[1], d.m[2])), ch, sh;
  if (c_abs2(z2) < 1e-12) { /* |z2| < 1e-6 */
    m2_cosh_sinhc_series(z2, &ch, &sh);
  } else {
    ekoc_complex z = c_sqrt(z2), ep, em;
    double ex, cs, sn;
    if (fabs(z.re) > 300.0) return 0;
    ekoc_exp_sincos(z.re, z.im, &ex, &cs, &sn);
    ep = c_make(ex * cs, ex * sn);
    em = c_make(cs / ex, -sn / ex);
    ch = c_scale(c_add(ep, em), 0.5);
    sh = c_div(c_sub(ep, em), c_scale(z, 2.0));
  }
  *out = m2_cscale(d, sh);
  out->m[0] = c_add(out->m[0], ch);
  out->m[3] = c_add(out->m[3], ch);
  return 1;
}

/* The weights of the gamma^(i) in B at the three Gauss-Legendre couplings of
 * a Magnus step (a_mid times r_lo, 1, r_hi): wb[q][i] = a_q^i / sum_j beta_j a_q^j,
 * i < order, with one division for the three sums. The same for every N, so
 * the grouped kernel (ad/kernel_magnus_batch.h) takes them once per step. */
EKOC_HD void ekoc_kernel_magnus_weights(const ekoc_kernel_cfg *cfg, double a_mid, double r_lo, double r_hi,
                                        double wb[3][EKOC_MAX_ORDER]) {
  double a[3], bsum[3], inv_all;
  int32_t q, i, order = cfg->order;
  a[0] = a_mid * r_lo;
  a[1] = a_mid;
  a[2] = a_mid * r_hi;
  for (q = 0; q < 3; ++q) { /* wb[q][i] before the division */
    double pw = 1.0;
    bsum[q] = 0.0;
    for (i = 0; i < order; ++i) {
      wb[q][i] = pw;
      bsum[q] += cfg->beta[i] * pw;
      pw *= a[q];
    }
  }
  inv_all = 1.0 / (bsum[0] * bsum[1] * bsum[2]);
  for (i = 0; i < order; ++i) {
    wb[0][i] *= inv_all * (bsum[1] * bsum[2]);
    wb[1][i] *= inv_all * (bsum[0] * bsum[2]);
    wb[2][i] *= inv_all * (bsum[0] * bsum[1]);
  }
}

/* 1 when an entry of the product of traceless step exponentials exceeds
 * 1e100 in modulus: the traces held back (exp(sum_k tau_k), which keeps the
 * full product finite) are then applied, so that the product itself never
 * overflows however many steps of large eigenvalue gaps it takes. */
EKOC_HD int ekoc_kernel_magnus_large(const ekoc_cmat2 *e) {
  int i;
  for (i = 0; i < 4; ++i)
    if (!(c_abs2(e->m[i]) <= 1e200)) return 1;
  return 0;
}

/* ordered-exact (an ekoc method, not eko's; docs/physics.md §6.3): the same
 * path-ordered solution that iterate-exact approaches as its steps shrink,
 * integrated to sixth order by the three-point Gauss-Legendre Magnus formula
 * in t = ln a on n equal steps. With B(t) = a A(a) and, per step
 * [t_k, t_k + h], B_1,2,3 = B(t_k + c h) at c = 1/2 - sqrt(15)/10, 1/2,
 * 1/2 + sqrt(15)/10:
 *   alpha_1 = h B_2, alpha_2 = sqrt(15) h/3 (B_3 - B_1),
 *   alpha_3 = 10 h/3 (B_3 - 2 B_2 + B_1),
 *   C_1 = [alpha_1, alpha_2], C_2 = -1/60 [alpha_1, 2 alpha_3 + C_1],
 *   Omega = alpha_1 + alpha_3/12 + 1/240 [-20 alpha_1 - alpha_3 + C_1, alpha_2 + C_2],
 * E <- exp(Omega) E. In t the LO part of B (gamma^(0)/beta_0) is constant:
 * then alpha_2 = alpha_3 = 0 and Omega = h B exactly, at any step count;
 * only the a-dependent higher orders leave an error, falling as steps^-6
 * (iterate-exact's as steps^-2).
 * Cost per N: B(a) = sum_i gamma^(i) a^i / sum_i beta_i a^i is linear in the
 * gamma^(i) with N-independent weights, so each alpha is one weighted sum of
 * the gamma^(i) (the weights of B_3 - B_1 subtracted as numbers: exactly 0 at
 * LO); the commutators are traceless (ekoc_kernel_m2_comm) and so is Omega
 * but for its trace part tau 1, tau = (tr alpha_1 + tr alpha_3/12)/2, which
 * commutes with everything: E = exp(sum_k tau_k) prod_k exp(Omega_k - tau_k 1),
 * one complex exponential per step (ekoc_kernel_m2_exp_traceless) and one
 * at the end instead of two per step (earlier when the product grows large:
 * ekoc_kernel_magnus_large). */
EKOC_HD ekoc_cmat2 ekoc_kernel_singlet_magnus(const ekoc_kernel_cfg *cfg, const ekoc_cmat2 *gamma) {
  const double node_offset = 0.38729833462074168852; /* sqrt(15)/10 */
  const double w_alpha2 = 1.2909944487358056284;     /* sqrt(15)/3 */
  int32_t n = cfg->ev_op_iterations, order = cfg->order, k, i;
  ekoc_cmat2 e = m2_identity();
  ekoc_complex tau_sum = c_real(0.0);
  double h = (log(cfg->a1) - log(cfg->a0)) / (double)n;
  double r_lo = exp(-node_offset * h), r_hi = exp(node_offset * h), r_step = exp(h);
  double a_mid = cfg->a0 * exp(0.5 * h); /* then times e^h per step: k ulp at most, no exp per step */
  for (k = 0; k < n; ++k) {
    double wb[3][EKOC_MAX_ORDER];
    ekoc_cmat2 alpha1 = m2_zero(), alpha2 = m2_zero(), alpha3 = m2_zero(), c1, c2, left, omega, step;
    ekoc_complex tau;
    ekoc_kernel_magnus_weights(cfg, a_mid, r_lo, r_hi, wb);
    for (i = 0; i < order; ++i) {
      alpha1 = m2_add(alpha1, m2_scale(gamma[i], h * wb[1][i]));
      alpha2 = m2_add(alpha2, m2_scale(gamma[i], w_alpha2 * h * (wb[2][i] - wb[0][i])));
      alpha3 = m2_add(alpha3, m2_scale(gamma[i], 10.0 * h / 3.0 * ((wb[2][i] - 2.0 * wb[1][i]) + wb[0][i])));
    }
    c1 = ekoc_kernel_m2_comm(alpha1, alpha2);
    c2 = m2_scale(ekoc_kernel_m2_comm(alpha1, m2_add(m2_scale(alpha3, 2.0), c1)), -1.0 / 60.0);
    left = m2_add(m2_sub(m2_scale(alpha1, -20.0), alpha3), c1);
    omega = m2_add(m2_add(alpha1, m2_scale(alpha3, 1.0 / 12.0)),
                   m2_scale(ekoc_kernel_m2_comm(left, m2_add(alpha2, c2)), 1.0 / 240.0));
    tau = c_scale(c_add(omega.m[0], omega.m[3]), 0.5);
    omega.m[0] = c_sub(omega.m[0], tau);
    omega.m[3] = c_sub(omega.m[3], tau);
    if (ekoc_kernel_m2_exp_traceless(omega, &step)) {
      tau_sum = c_add(tau_sum, tau);
    } else { /* a huge eigenvalue gap: the full exponential of this step */
      omega.m[0] = c_add(omega.m[0], tau);
      omega.m[3] = c_add(omega.m[3], tau);
      step = m2_exp(omega);
    }
    e = m2_mul(step, e);
    if (ekoc_kernel_magnus_large(&e)) { /* the steps' traces are due: take them now */
      e = m2_cscale(e, c_exp(tau_sum));
      tau_sum = c_real(0.0);
    }
    a_mid *= r_step;
  }
  return m2_cscale(e, c_exp(tau_sum));
}

/* The singlet R_k of docs/physics.md §6.3 step 1-2, k = 0..kmax-1 (kmax >= order):
 * R_0 = g0/b0, R_1 = g1/b0 - b1 R_0, R_2 = g2/b0 - b1 R_1 - b2 R_0,
 * R_3 = g3/b0 - b1 R_2 - b2 R_1 - b3 R_0; if fill (perturbative-exact),
 * R_k = -b1 R_{k-1} [- b2 R_{k-2} from NNLO] [- b3 R_{k-3} at N3LO] for
 * k >= order, else 0. */
EKOC_HD void ekoc_kernel_singlet_r(const ekoc_kernel_cfg *cfg, const ekoc_cmat2 *gamma, int fill, int32_t kmax,
                                   ekoc_cmat2 *r) {
  double inv_b0 = 1.0 / cfg->beta[0];
  double b1 = cfg->beta[1] * inv_b0, b2 = cfg->beta[2] * inv_b0, b3 = cfg->beta[3] * inv_b0;
  int32_t order = cfg->order, k;
  r[0] = m2_scale(gamma[0], inv_b0);
  if (order >= 2) r[1] = m2_sub(m2_scale(gamma[1], inv_b0), m2_scale(r[0], b1));
  if (order >= 3) r[2] = m2_sub(m2_sub(m2_scale(gamma[2], inv_b0), m2_scale(r[1], b1)), m2_scale(r[0], b2));
  if (order >= 4)
    r[3] = m2_sub(m2_sub(m2_sub(m2_scale(gamma[3], inv_b0), m2_scale(r[2], b1)), m2_scale(r[1], b2)),
                  m2_scale(r[0], b3));
  for (k = order; k < kmax; ++k) {
    if (!fill) {
      r[k] = m2_zero();
    } else if (order == 2) {
      r[k] = m2_scale(r[k - 1], -b1);
    } else if (order == 3) {
      r[k] = m2_sub(m2_scale(r[k - 1], -b1), m2_scale(r[k - 2], b2));
    } else {
      r[k] = m2_sub(m2_sub(m2_scale(r[k - 1], -b1), m2_scale(r[k - 2], b2)), m2_scale(r[k - 3], b3));
    }
  }
}

/* The U_k recursion of docs/physics.md §6.3 step 4 for k = 1..kmax-1 (U_0 = 1):
 * R'_k = R_k + sum_{j=1}^{k-1} R_{k-j} U_j,
 * U_k = (e_- R' e_- + e_+ R' e_+)/k + e_+ R' e_-/(r_- - r_+ + k) + e_- R' e_+/(r_+ - r_- + k),
 * with r_+-, e_+- the eigen-decomposition of R_0. */
EKOC_HD void ekoc_kernel_singlet_u(const ekoc_cmat2 *r, int32_t kmax, ekoc_cmat2 *u) {
  ekoc_eig2 ev = m2_eig(r[0]);
  ekoc_complex dpm = c_sub(ev.lambda_p, ev.lambda_m);
  int32_t k, j;
  u[0] = m2_identity();
  for (k = 1; k < kmax; ++k) {
    ekoc_cmat2 rp = r[k], diag, off;
    for (j = 1; j < k; ++j) rp = m2_add(rp, m2_mul(r[k - j], u[j]));
    diag = m2_scale(m2_add(m2_mul(m2_mul(ev.e_m, rp), ev.e_m), m2_mul(m2_mul(ev.e_p, rp), ev.e_p)), 1.0 / (double)k);
    off = m2_add(m2_cscale(m2_mul(m2_mul(ev.e_p, rp), ev.e_m), c_inv(c_add_real(c_neg(dpm), (double)k))),
                 m2_cscale(m2_mul(m2_mul(ev.e_m, rp), ev.e_p), c_inv(c_add_real(dpm, (double)k))));
    u[k] = m2_add(diag, off);
  }
}

/* U(a) = sum_{k<kmax} a^k U_k. */
EKOC_HD ekoc_cmat2 ekoc_kernel_singlet_u_sum(const ekoc_cmat2 *u, int32_t kmax, double a) {
  ekoc_cmat2 s = m2_zero();
  double p = 1.0;
  int32_t k;
  for (k = 0; k < kmax; ++k) {
    s = m2_add(s, m2_scale(u[k], p));
    p *= a;
  }
  return s;
}

/* perturbative-exact (fill = 1) / -expanded (fill = 0), docs/physics.md §6.3:
 * over the same geometric steps as iterate,
 * E_k = U(a_{k+1}) E_LO(a_{k+1} <- a_k) U(a_k)^-1, K = ev_op_max_order terms.
 * K = 1 gives U = 1, i.e. the LO kernel (eko would index past its R array
 * for K = 1 at NNLO and K <= 2 at N3LO; from there on ekoc matches eko). */
EKOC_HD ekoc_cmat2 ekoc_kernel_singlet_perturbative(const ekoc_kernel_cfg *cfg, const ekoc_cmat2 *gamma, int fill) {
  ekoc_cmat2 r[EKOC_MAX_EV_OP_MAX_ORDER + 1], u[EKOC_MAX_EV_OP_MAX_ORDER];
  int32_t kmax = cfg->ev_op_max_order, n = cfg->ev_op_iterations, k;
  int32_t rlen = kmax > cfg->order ? kmax : cfg->order;
  ekoc_eig2 g0 = m2_eig(gamma[0]);
  ekoc_cmat2 e = m2_identity(), ul;
  double al = cfg->a0;
  ekoc_geom_grid grid = ekoc_kernel_geom_grid(cfg->a0, cfg->a1, n);
  ekoc_kernel_singlet_r(cfg, gamma, fill, rlen, r);
  ekoc_kernel_singlet_u(r, kmax, u);
  ul = ekoc_kernel_singlet_u_sum(u, kmax, al);
  for (k = 1; k <= n; ++k) {
    double ah = ekoc_kernel_geom_at(&grid, k);
    ekoc_cmat2 uh = ekoc_kernel_singlet_u_sum(u, kmax, ah);
    ekoc_cmat2 e0 = ekoc_kernel_eig_exp(&g0, ekoc_ei_j00(ah, al, cfg->beta));
    e = m2_mul(m2_mul(m2_mul(uh, e0), m2_inverse(ul)), e);
    ul = uh;
    al = ah;
  }
  return e;
}

/* truncated == ordered-truncated (docs/physics.md §6.3, §12 items 4-5), with
 * U_1..U_3 from R_0..R_{order-1} only and E_0 the LO exact kernel:
 *   E_1 = E_0 + a1 U_1 E_0 - a0 E_0 U_1                                 (NLO)
 *   E_2 = E_1 + a1^2 U_2 E_1 - a1 a0 U_1 E_1 U_1 + a0^2 E_1 (U_1^2 - U_2) (NNLO)
 *   E_3 = E_2 + a1^3 U_3 E_2 - a1^2 a0 U_2 E_2 U_1 + a1 a0^2 U_1 E_2 (U_1^2 - U_2)
 *             - a0^3 E_2 (U_1^3 - U_1 U_2 - U_2 U_1 + U_3)                (N3LO).
 * Note E_1, E_2, not E_0, in the higher terms: eko's eko_truncated adds each
 * order's terms in place into the array that holds E_0 before forming the
 * next order's, so its numbers carry this O(a^3) difference from the textbook
 * formula (docs/physics.md §6.3, §12.4); we reproduce the numbers (verified
 * against eko 0.15.7 to 1e-16 at NNLO, 1e-12 at N3LO). */
EKOC_HD ekoc_cmat2 ekoc_kernel_singlet_truncated(const ekoc_kernel_cfg *cfg, const ekoc_cmat2 *gamma) {
  ekoc_cmat2 r[EKOC_MAX_ORDER], u[EKOC_MAX_ORDER], e0, e;
  double a0 = cfg->a0, a1 = cfg->a1;
  ekoc_kernel_singlet_r(cfg, gamma, 0, cfg->order, r);
  ekoc_kernel_singlet_u(r, cfg->order, u);
  e0 = m2_exp(m2_scale(gamma[0], ekoc_ei_j00(a1, a0, cfg->beta)));
  e = m2_add(e0, m2_sub(m2_scale(m2_mul(u[1], e0), a1), m2_scale(m2_mul(e0, u[1]), a0)));
  if (cfg->order >= 3) {
    ekoc_cmat2 t = m2_scale(m2_mul(u[2], e), a1 * a1);
    t = m2_sub(t, m2_scale(m2_mul(m2_mul(u[1], e), u[1]), a1 * a0));
    t = m2_add(t, m2_scale(m2_mul(e, m2_sub(m2_mul(u[1], u[1]), u[2])), a0 * a0));
    e = m2_add(e, t);
  }
  if (cfg->order >= 4) { /* eko's grouping: each coefficient scales the left factor */
    ekoc_cmat2 u1u1 = m2_mul(u[1], u[1]);
    ekoc_cmat2 tail = m2_add(m2_sub(m2_sub(m2_mul(u1u1, u[1]), m2_mul(u[1], u[2])), m2_mul(u[2], u[1])), u[3]);
    ekoc_cmat2 t = m2_mul(m2_scale(u[3], a1 * a1 * a1), e);
    t = m2_sub(t, m2_mul(m2_mul(m2_scale(u[2], a1 * a1 * a0), e), u[1]));
    t = m2_add(t, m2_mul(m2_mul(m2_scale(u[1], a1 * (a0 * a0)), e), m2_sub(u1u1, u[2])));
    t = m2_sub(t, m2_mul(m2_scale(e, a0 * a0 * a0), tail));
    e = m2_add(e, t);
  }
  return e;
}

/* ---- the N3LO truncated singlet in the eigenbasis of R_0 ------------------------
 * The same formula as ekoc_kernel_singlet_truncated at order 4 (eko's
 * in-place grouping, E_1 and E_2 in the higher terms), evaluated in the basis
 * of the eigenvectors v_+, v_- of R_0 (V = [v_+ v_-], W = V^-1, X~ = W X V):
 * there e_a X e_b is the single entry X~_ab, so each U~_k is R~'_k scaled
 * entry by entry (1/k on the diagonal, 1/(k + r_b - r_a) off it), and
 * E_0 = exp(gamma^(0) j00) is diag(exp(beta_0 r_+ j00), exp(beta_0 r_- j00)).
 * About half the complex 2x2 products of the projector form (24 against 44
 * per N); the values agree with it to rounding (about 1e-15 of the matrix,
 * docs/physics.md §6.3). Where the eigenvalues of R_0 (nearly)
 * coincide, the eigenbasis is ill-conditioned: there the projector form is
 * used, which m2_exp treats with its series. */

/* X (2x2) times diag(d0, d1) from the right / from the left. */
EKOC_HD ekoc_cmat2 m2_mul_diag_right(ekoc_cmat2 x, ekoc_complex d0, ekoc_complex d1) {
  ekoc_cmat2 r;
  r.m[0] = c_mul(x.m[0], d0);
  r.m[1] = c_mul(x.m[1], d1);
  r.m[2] = c_mul(x.m[2], d0);
  r.m[3] = c_mul(x.m[3], d1);
  return r;
}
EKOC_HD ekoc_cmat2 m2_mul_diag_left(ekoc_complex d0, ekoc_complex d1, ekoc_cmat2 x) {
  ekoc_cmat2 r;
  r.m[0] = c_mul(d0, x.m[0]);
  r.m[1] = c_mul(d0, x.m[1]);
  r.m[2] = c_mul(d1, x.m[2]);
  r.m[3] = c_mul(d1, x.m[3]);
  return r;
}

/* U~_k from R~'_k: 1/k on the diagonal, c_pm = 1/(k + r_- - r_+) at (+,-) and
 * c_mp = 1/(k + r_+ - r_-) at (-,+) (index 0 is +, 1 is -). */
EKOC_HD ekoc_cmat2 ekoc_kernel_singlet_u_eigen(ekoc_cmat2 rp, double k, ekoc_complex c_pm, ekoc_complex c_mp) {
  ekoc_cmat2 u;
  u.m[0] = c_scale(rp.m[0], 1.0 / k);
  u.m[1] = c_mul(rp.m[1], c_pm);
  u.m[2] = c_mul(rp.m[2], c_mp);
  u.m[3] = c_scale(rp.m[3], 1.0 / k);
  return u;
}

/* The column of projector e with the larger norm: an eigenvector of its eigenvalue. */
EKOC_HD void ekoc_kernel_projector_column(const ekoc_cmat2 *e, ekoc_complex *v0, ekoc_complex *v1) {
  int j = c_abs2(e->m[0]) + c_abs2(e->m[2]) >= c_abs2(e->m[1]) + c_abs2(e->m[3]) ? 0 : 1;
  *v0 = e->m[j];
  *v1 = e->m[2 + j];
}

/* The truncated singlet at order 4; falls back to the projector form
 * (ekoc_kernel_singlet_truncated) when |r_+ - r_-| < 1e-6 (|r_+| + |r_-|). */
EKOC_HD ekoc_cmat2 ekoc_kernel_singlet_truncated_n3lo(const ekoc_kernel_cfg *cfg, const ekoc_cmat2 *gamma) {
  ekoc_cmat2 r[EKOC_MAX_ORDER], v, w, rt[EKOC_MAX_ORDER], u1, u2, u3, e, u1u1, wm, tail, t;
  ekoc_complex dpm, c[3][2], d0, d1;
  ekoc_eig2 ev;
  double a0 = cfg->a0, a1 = cfg->a1, j00 = ekoc_ei_j00(a1, a0, cfg->beta);
  int k;
  ekoc_kernel_singlet_r(cfg, gamma, 0, 4, r);
  ev = m2_eig(r[0]);
  dpm = c_sub(ev.lambda_p, ev.lambda_m);
  if (!(c_abs(dpm) >= 1e-6 * (c_abs(ev.lambda_p) + c_abs(ev.lambda_m)))) return ekoc_kernel_singlet_truncated(cfg, gamma);
  ekoc_kernel_projector_column(&ev.e_p, &v.m[0], &v.m[2]);
  ekoc_kernel_projector_column(&ev.e_m, &v.m[1], &v.m[3]);
  w = m2_inverse(v);
  for (k = 1; k < 4; ++k) {
    rt[k] = m2_mul(m2_mul(w, r[k]), v);
    c[k - 1][0] = c_inv(c_add_real(c_neg(dpm), (double)k)); /* 1/(k + r_- - r_+) */
    c[k - 1][1] = c_inv(c_add_real(dpm, (double)k));        /* 1/(k + r_+ - r_-) */
  }
  u1 = ekoc_kernel_singlet_u_eigen(rt[1], 1.0, c[0][0], c[0][1]);
  u2 = ekoc_kernel_singlet_u_eigen(m2_add(rt[2], m2_mul(rt[1], u1)), 2.0, c[1][0], c[1][1]);
  u3 = ekoc_kernel_singlet_u_eigen(m2_add(m2_add(rt[3], m2_mul(rt[2], u1)), m2_mul(rt[1], u2)), 3.0, c[2][0],
                                   c[2][1]);
  /* E_0 = diag(exp(beta_0 r_+- j00)) */
  d0 = c_exp(c_scale(ev.lambda_p, cfg->beta[0] * j00));
  d1 = c_exp(c_scale(ev.lambda_m, cfg->beta[0] * j00));
  e = m2_zero();
  e.m[0] = d0;
  e.m[3] = d1;
  e = m2_add(e, m2_sub(m2_scale(m2_mul_diag_right(u1, d0, d1), a1), m2_scale(m2_mul_diag_left(d0, d1, u1), a0)));
  /* NNLO terms on E_1 */
  u1u1 = m2_mul(u1, u1);
  wm = m2_sub(u1u1, u2);
  t = m2_scale(m2_mul(u2, e), a1 * a1);
  t = m2_sub(t, m2_scale(m2_mul(m2_mul(u1, e), u1), a1 * a0));
  t = m2_add(t, m2_scale(m2_mul(e, wm), a0 * a0));
  e = m2_add(e, t);
  /* N3LO terms on E_2; U_1^3 - U_1 U_2 - U_2 U_1 + U_3 = U_1 (U_1^2 - U_2) - U_2 U_1 + U_3 */
  tail = m2_add(m2_sub(m2_mul(u1, wm), m2_mul(u2, u1)), u3);
  t = m2_mul(m2_scale(u3, a1 * a1 * a1), e);
  t = m2_sub(t, m2_mul(m2_mul(m2_scale(u2, a1 * a1 * a0), e), u1));
  t = m2_add(t, m2_mul(m2_mul(m2_scale(u1, a1 * (a0 * a0)), e), wm));
  t = m2_sub(t, m2_mul(m2_scale(e, a0 * a0 * a0), tail));
  e = m2_add(e, t);
  return m2_mul(m2_mul(v, e), w);
}

/* E_S(a1 <- a0) for cfg->method (docs/physics.md §6.3), gamma[0..order-1] =
 * gamma_S^(0..order-1)(N) in (Sigma, g) order:
 *  - a1 == a0: the identity, every method and order (as eko's dispatcher);
 *  - LO, every method: exp[gamma^(0) j^(0,0)];
 *  - iterate-exact/-expanded: ekoc_kernel_singlet_iterate;
 *  - ordered-exact: ekoc_kernel_singlet_magnus;
 *  - perturbative-exact/-expanded: ekoc_kernel_singlet_perturbative;
 *  - truncated, ordered-truncated: ekoc_kernel_singlet_truncated;
 *  - decompose-exact/-expanded: exp[sum_i gamma^(i) j^(i,order-1)] (exact /
 *    expanded j's; ignores non-commutativity).
 * Degenerate eigenvalues are not guarded (as in eko). Invalid cfg: NaN. */
EKOC_HD ekoc_cmat2 ekoc_kernel_singlet(const ekoc_kernel_cfg *cfg, const ekoc_cmat2 *gamma) {
  int32_t method = cfg->method, i;
  if (!ekoc_kernel_cfg_valid(cfg)) return ekoc_kernel_m2_nan();
  if (cfg->a1 == cfg->a0) return m2_identity();
  if (cfg->order == 1) return m2_exp(m2_scale(gamma[0], ekoc_ei_j00(cfg->a1, cfg->a0, cfg->beta)));
  switch (method) {
    case EKOC_METHOD_ITERATE_EXACT:
    case EKOC_METHOD_ITERATE_EXPANDED:
      return ekoc_kernel_singlet_iterate(cfg, gamma);
    case EKOC_METHOD_ORDERED_EXACT:
      return ekoc_kernel_singlet_magnus(cfg, gamma);
    case EKOC_METHOD_PERTURBATIVE_EXACT:
      return ekoc_kernel_singlet_perturbative(cfg, gamma, 1);
    case EKOC_METHOD_PERTURBATIVE_EXPANDED:
      return ekoc_kernel_singlet_perturbative(cfg, gamma, 0);
    case EKOC_METHOD_TRUNCATED:
    case EKOC_METHOD_ORDERED_TRUNCATED:
      return cfg->order == 4 ? ekoc_kernel_singlet_truncated_n3lo(cfg, gamma) : ekoc_kernel_singlet_truncated(cfg, gamma);
    default: {
      double j[EKOC_MAX_ORDER];
      ekoc_cmat2 expo = m2_zero();
      ekoc_ei_fill(cfg->order, method == EKOC_METHOD_DECOMPOSE_EXPANDED, cfg->a1, cfg->a0, cfg->beta, j);
      for (i = 0; i < cfg->order; ++i) expo = m2_add(expo, m2_scale(gamma[i], j[i]));
      return m2_exp(expo);
    }
  }
}

#endif /* EKOC_AD_KERNEL_SINGLET_H */
