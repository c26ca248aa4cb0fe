/* couplings.c: the strong coupling a_s = alpha_s/(4 pi) with heavy-quark
 * thresholds, as eko's Couplings (docs/physics.md §2; eko module eko.couplings,
 * eko.matchings), and the walk of its joint running with a_em (§15.2; the
 * per-segment QED solutions are in couplings_qed.c). Written from the
 * formulas; the numbers (matching coefficients, eko's tolerances) are facts
 * carried over from those files. */
#include "evol/couplings.h"

#include <math.h>
#include <stdlib.h>

#include "ad/beta.h"
#include "status.h"

struct ekoc_couplings {
  ekoc_couplings_config cfg; /* validated copy */
  double a_ref;              /* alphas_ref / (4 pi) */
  double a_em_ref;           /* alphaem_ref / (4 pi) */
  double ratio[3];           /* eko's thresholds_ratios: k_h^2 * rho */
  double log_ratio[3];       /* L_h = ln(ratio[h]) */
  double wall[3];            /* matching scales m_h^2 * ratio[h]; +inf above max_nf */
  /* by nf: where eko's path from the reference enters nf's segment (every wall between nf_ref and nf crossed and
   * decoupled), made once at creation (entry_ok[nf]: reachable): (a_s, a_em) and the scale there */
  int entry_ok[7];
  double entry_a[7][2], entry_scale[7];
};

static const char *const quark_name[3] = {"charm", "bottom", "top"};

static void precompute_entries(ekoc_couplings *c);

/* ---- fixed-nf running ------------------------------------------------------ */

/* b_1, b_2, b_3 of the exact RGE in y = 1/a: dy/dt = 1 + b1/y + b2/y^2 + b3/y^3
 * (the unused ones 0 below N3LO: b2 + 0/y is b2 exactly, so the lower orders'
 * numbers do not depend on the b3 term being there). */
typedef struct rge_coeffs {
  double b1, b2, b3;
} rge_coeffs;

static void rge_rhs(const void *ctx, const double *y, double *dydt) {
  const rge_coeffs *r = (const rge_coeffs *)ctx;
  dydt[0] = 1.0 + (r->b1 + (r->b2 + r->b3 / y[0]) / y[0]) / y[0];
}

/* Dormand-Prince 5(4) (J. R. Dormand, P. J. Prince, J. Comput. Appl. Math. 6
 * (1980) 19), local extrapolation, FSAL, on an autonomous system of dim <= 2
 * equations for y = 1/a from t = 0 to t = t_end. y is nearly linear in t
 * (exactly so at LO), so few steps are needed. A step is accepted when every
 * component's error is below rtol times its size (for dim 1 this is the
 * scalar controller, operation for operation).
 * Returns 0 and writes y_out, or -1 if a component reaches 0 (Landau pole),
 * turns non-finite, or the step count runs out. */
int ekoc_rge_integrate(int dim, ekoc_rge_rhs rhs, const void *ctx, const double *y0, double t_end,
                       double *y_out) {
  static const double c21 = 1.0 / 5.0;
  static const double c31 = 3.0 / 40.0, c32 = 9.0 / 40.0;
  static const double c41 = 44.0 / 45.0, c42 = -56.0 / 15.0, c43 = 32.0 / 9.0;
  static const double c51 = 19372.0 / 6561.0, c52 = -25360.0 / 2187.0, c53 = 64448.0 / 6561.0,
                      c54 = -212.0 / 729.0;
  static const double c61 = 9017.0 / 3168.0, c62 = -355.0 / 33.0, c63 = 46732.0 / 5247.0,
                      c64 = 49.0 / 176.0, c65 = -5103.0 / 18656.0;
  static const double b1 = 35.0 / 384.0, b3 = 500.0 / 1113.0, b4 = 125.0 / 192.0,
                      b5 = -2187.0 / 6784.0, b6 = 11.0 / 84.0;
  /* 5th minus 4th order weights */
  static const double e1 = 71.0 / 57600.0, e3 = -71.0 / 16695.0, e4 = 71.0 / 1920.0,
                      e5 = -17253.0 / 339200.0, e6 = 22.0 / 525.0, e7 = -1.0 / 40.0;
  const double rtol = 1e-14; /* per step; global error <~ 3e-14 relative vs 30-digit mpmath, ~150 steps
                               for 1 <- 8315 GeV^2 at NNLO (tests/test_couplings.c) */
  const int max_steps = 20000;
  enum { DIM_MAX = 2 };
  if (dim < 1 || dim > DIM_MAX) return -1;

  double t = 0.0, y[DIM_MAX], y_new[DIM_MAX], w[DIM_MAX];
  double k1[DIM_MAX], k2[DIM_MAX], k3[DIM_MAX], k4[DIM_MAX], k5[DIM_MAX], k6[DIM_MAX], k7[DIM_MAX];
  int i;
  for (i = 0; i < dim; ++i) y[i] = y0[i];
  double h = t_end; /* try it in one step; the controller shrinks it */
  rhs(ctx, y, k1);
  for (int step = 0; step < max_steps; ++step) {
    double rest = t_end - t;
    if (rest == 0.0) break;
    if (fabs(h) >= fabs(rest)) h = rest;
    for (i = 0; i < dim; ++i) w[i] = y[i] + h * (c21 * k1[i]);
    rhs(ctx, w, k2);
    for (i = 0; i < dim; ++i) w[i] = y[i] + h * (c31 * k1[i] + c32 * k2[i]);
    rhs(ctx, w, k3);
    for (i = 0; i < dim; ++i) w[i] = y[i] + h * (c41 * k1[i] + c42 * k2[i] + c43 * k3[i]);
    rhs(ctx, w, k4);
    for (i = 0; i < dim; ++i) w[i] = y[i] + h * (c51 * k1[i] + c52 * k2[i] + c53 * k3[i] + c54 * k4[i]);
    rhs(ctx, w, k5);
    for (i = 0; i < dim; ++i)
      w[i] = y[i] + h * (c61 * k1[i] + c62 * k2[i] + c63 * k3[i] + c64 * k4[i] + c65 * k5[i]);
    rhs(ctx, w, k6);
    for (i = 0; i < dim; ++i) y_new[i] = y[i] + h * (b1 * k1[i] + b3 * k3[i] + b4 * k4[i] + b5 * k5[i] + b6 * k6[i]);
    rhs(ctx, y_new, k7);
    double ratio = 0.0;
    for (i = 0; i < dim; ++i) {
      double err = fabs(h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] + e7 * k7[i]));
      double scale = rtol * fmax(fabs(y[i]), fabs(y_new[i]));
      int bad = !(isfinite(y_new[i]) && y_new[i] > 0.0 && isfinite(k7[i]) && isfinite(err));
      double r = bad ? 1e300 : err / scale;
      if (!(r <= ratio)) ratio = r;
    }
    if (ratio <= 1.0) { /* accept */
      t = (h == rest) ? t_end : t + h;
      for (i = 0; i < dim; ++i) {
        y[i] = y_new[i];
        k1[i] = k7[i];
      }
    }
    /* standard controller: safety 0.9, growth in [0.2, 5] */
    double fac = (ratio == 0.0) ? 5.0 : 0.9 * pow(ratio, -0.2);
    fac = fmin(5.0, fmax(0.2, fac));
    h *= fac;
    if (fabs(h) < 1e-14 * fabs(t_end)) return -1;
  }
  if (t != t_end) return -1;
  for (i = 0; i < dim; ++i) {
    if (!(y[i] > 0.0) || !isfinite(y[i])) return -1;
    y_out[i] = y[i];
  }
  return 0;
}

/* The N3LO term eko's expanded_n3lo adds to its NNLO expanded solution
 * (docs/physics.md §2.2), with a_LO = a0/(1 + beta0 a0 lmu), l0 = ln a0,
 * lf = ln a_LO and the b_k = beta_k/beta_0:
 *   a_LO^4/(2 beta0^3) [ -2 b1^3 l0^3 + 5 b1^3 lf^2 + 2 b1^3 lf^3 + b1^3 l0^2 (5 + 6 lf)
 *     + 2 beta0 b1 lf (b2 + 2 (b1^2 - beta0 b2) lmu a0)
 *     - beta0^2 lmu a0 (-2 b1 b2 + 2 beta0 b3 + (b1^3 - 2 beta0 b1 b2 + beta0^2 b3) lmu a0)
 *     - 2 b1 l0 (5 b1^2 lf + 3 b1^2 lf^2 + beta0 (b2 + 2 (b1^2 - beta0 b2) lmu a0)) ]
 * (eko mixes beta0 and the b_k this way; the formula is taken as it is). */
static double expanded_n3lo_term(double a0, double beta0, double b1, double b2, double b3, double lmu, double a_lo) {
  const double lf = log(a_lo), l0 = log(a0);
  const double b1c = b1 * b1 * b1, x = lmu * a0;
  const double a_lo2 = a_lo * a_lo;
  const double inner = b2 + 2.0 * (b1 * b1 - beta0 * b2) * x;
  const double bracket = -2.0 * b1c * (l0 * l0 * l0) + 5.0 * b1c * (lf * lf) + 2.0 * b1c * (lf * lf * lf) +
                         b1c * (l0 * l0) * (5.0 + 6.0 * lf) + 2.0 * beta0 * b1 * lf * inner -
                         (beta0 * beta0) * lmu * a0 *
                             (-2.0 * b1 * b2 + 2.0 * beta0 * b3 +
                              (b1c - 2.0 * beta0 * b1 * b2 + (beta0 * beta0) * b3) * lmu * a0) -
                         2.0 * b1 * l0 * (5.0 * (b1 * b1) * lf + 3.0 * (b1 * b1) * (lf * lf) + beta0 * inner);
  return (a_lo2 * a_lo2) / (2.0 * (beta0 * beta0 * beta0)) * bracket;
}

double ekoc_couplings_solve(int32_t order, int32_t mode, const double beta[4], double a0, double lmu) {
  const double beta0 = beta[0];
  const double b1 = beta[1] / beta0, b2 = beta[2] / beta0, b3 = beta[3] / beta0;
  /* eko's exact_lo; also the first piece of the expanded solutions */
  const double den = 1.0 + beta0 * a0 * lmu;
  double a = NAN;
  if (den <= 0.0) {
    a = NAN; /* beyond the Landau pole of the LO solution */
  } else if (order == 1) {
    a = a0 / den;
  } else if (mode == EKOC_COUPLING_EXPANDED) {
    /* eko's expanded_nlo / expanded_nnlo (APFEL's NNLO) / expanded_n3lo, docs/physics.md §2.2 */
    const double a_lo = a0 / den;
    const double a_nlo = a_lo * (1 - b1 * a_lo * log(den));
    if (order == 2) {
      a = a_nlo;
    } else if (a_nlo > 0.0) {
      a = a_lo * (1.0 + a_lo * (a_lo - a0) * (b2 - b1 * b1) + a_nlo * b1 * log(a_nlo / a0));
      if (order >= 4) a += expanded_n3lo_term(a0, beta0, b1, b2, b3, lmu, a_lo);
    }
  } else {
    /* exact: da/dt = -a^2 (1 + b1 a [+ b2 a^2 [+ b3 a^3]]) with t = beta0 lmu,
     * solved for y = 1/a, dy/dt = 1 + b1/y + b2/y^2 + b3/y^3 (the same ODE;
     * eko: scipy Radau) */
    rge_coeffs r;
    r.b1 = b1;
    r.b2 = (order >= 3) ? b2 : 0.0;
    r.b3 = (order >= 4) ? b3 : 0.0;
    double y0 = 1.0 / a0, y;
    if (ekoc_rge_integrate(1, rge_rhs, &r, &y0, beta0 * lmu, &y) == 0) a = 1.0 / y;
  }
  return a;
}

int ekoc_couplings_run(int32_t order, int32_t mode, int32_t nf, double a0, double mu2_from,
                       double mu2_to, double *a_out) {
  if (!a_out) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_couplings_run: a_out is NULL");
  if (order < 1 || order > EKOC_MAX_ORDER)
    return ekoc_error(EKOC_ERR_INVALID_ORDER, "ekoc_couplings_run: order = %d, want 1..%d", (int)order,
                      EKOC_MAX_ORDER);
  if (mode != EKOC_COUPLING_EXACT && mode != EKOC_COUPLING_EXPANDED)
    return ekoc_error(EKOC_ERR_INVALID_MODE, "ekoc_couplings_run: mode = %d, want EKOC_COUPLING_EXACT (0) or "
                      "EKOC_COUPLING_EXPANDED (1)", (int)mode);
  if (nf < 3 || nf > 6)
    return ekoc_error(EKOC_ERR_INVALID_NF, "ekoc_couplings_run: nf = %d, want 3..6", (int)nf);
  if (!(isfinite(a0) && a0 > 0.0))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_couplings_run: a0 = %g, want finite and > 0", a0);
  if (!(isfinite(mu2_from) && mu2_from > 0.0))
    return ekoc_error(EKOC_ERR_INVALID_SCALE, "ekoc_couplings_run: mu2_from = %g, want finite and > 0", mu2_from);
  if (!(isfinite(mu2_to) && mu2_to > 0.0))
    return ekoc_error(EKOC_ERR_INVALID_SCALE, "ekoc_couplings_run: mu2_to = %g, want finite and > 0", mu2_to);

  double beta[4];
  ekoc_beta_coefficients(nf, beta);
  const double a = ekoc_couplings_solve(order, mode, beta, a0, log(mu2_to / mu2_from));
  if (!(isfinite(a) && a > 0.0))
    return ekoc_error(EKOC_ERR_NUMERICAL,
                      "ekoc_couplings_run: a_s^(nf=%d) from a0 = %g at mu2 = %g to mu2 = %g crosses the "
                      "Landau pole (order %d, %s)",
                      (int)nf, a0, mu2_from, mu2_to, (int)order,
                      mode == EKOC_COUPLING_EXACT ? "exact" : "expanded");
  *a_out = a;
  return EKOC_OK;
}

/* ---- decoupling --------------------------------------------------------------- */

double ekoc_couplings_matching_factor(int32_t order, int up, int32_t nf_light, double a, double L) {
  return ekoc_couplings_matching_factor_scheme(order, up, nf_light, a, L, EKOC_MASSES_POLE);
}

double ekoc_couplings_matching_factor_scheme(int32_t order, int up, int32_t nf_light, double a, double L,
                                             int32_t masses_scheme) {
  /* [PEG] eq. 2.43 and the O(a_s^3) terms eko uses, pole masses (eko
   * compute_matching_coeffs_up, T_R = 1/2); the a_s^3 constant depends on the
   * light n_f. With MSbar masses eko takes the O(a_s^2) constant and log and
   * the O(a_s^3) terms from the inverse of [Schroder:2005hy] eq. 3.1 (eko's
   * numbers; c_{1,1}, c_{2,2}, c_{3,3} are the same in both schemes). */
  const double nf = (double)nf_light;
  const int msbar = masses_scheme == EKOC_MASSES_MSBAR;
  const double c11 = 4.0 / 3.0 * EKOC_TR, c22 = 4.0 / 9.0, c33 = 8.0 / 27.0;
  const double c20 = msbar ? -22.0 / 9.0 : 14.0 / 3.0, c21 = msbar ? 22.0 / 3.0 : 38.0 / 3.0;
  const double c30 = msbar ? -62.2116 + 5.4177 * nf : 340.729 - 16.7981 * nf;
  const double c31 = msbar ? 365.0 / 3.0 - 67.0 / 9.0 * nf : 8941.0 / 27.0 - 409.0 / 27.0 * nf;
  const double c32 = msbar ? 109.0 / 3.0 + 16.0 / 9.0 * nf : 511.0 / 9.0;
  double c[4][4] = {{0.0, 0.0, 0.0, 0.0}, {0.0, c11, 0.0, 0.0}, {c20, c21, c22, 0.0}, {c30, c31, c32, c33}};
  return ekoc_matching_factor_of(c, up, (order >= 1 && order <= 4) ? order - 1 : 3, a, L);
}

double ekoc_matching_factor_of(double c[4][4], int up, int n_max, double a, double L) {
  double fact = 1.0;
  if (!up) { /* the perturbative inverse (eko invert_matching_coeffs) */
    const double c11 = c[1][1], c20 = c[2][0], c21 = c[2][1], c22 = c[2][2];
    const double c30 = c[3][0], c31 = c[3][1], c32 = c[3][2], c33 = c[3][3];
    c[1][1] = -c11;
    c[2][0] = -c20;
    c[2][1] = -c21;
    c[2][2] = 2.0 * c11 * c11 - c22;
    c[3][0] = -c30;
    c[3][1] = 5.0 * c11 * c20 - c31;
    c[3][2] = 5.0 * c11 * c21 - c32;
    c[3][3] = -5.0 * (c11 * c11 * c11) + 5.0 * c11 * c22 - c33;
  }
  /* same summation order and powers as eko, so the rounding agrees */
  for (int n = 1; n <= n_max; ++n)
    for (int l = 0; l <= n; ++l) fact += pow(a, (double)n) * pow(L, (double)l) * c[n][l];
  return fact;
}

/* ---- the object ------------------------------------------------------------------ */

void ekoc_couplings_config_default(ekoc_couplings_config *cfg) {
  if (!cfg) return;
  cfg->order = 3;
  cfg->mode = EKOC_COUPLING_EXACT;
  cfg->alphas_ref = 0.35;
  cfg->mu2_ref = 2.0;
  cfg->nf_ref = 3;
  cfg->masses2[0] = 2.0;
  cfg->masses2[1] = 20.25;
  cfg->masses2[2] = 30625.0;
  for (int h = 0; h < 3; ++h) cfg->thresholds_ratio2[h] = 1.0;
  cfg->threshold_shift = 1.0;
  cfg->max_nf = 6;
  cfg->qed_order = 0;
  cfg->alphaem_ref = 0.007496252; /* eko's default alpha_em */
  cfg->em_running = 0;
  cfg->masses_scheme = EKOC_MASSES_POLE;
}

size_t ekoc_couplings_config_sizeof(void) { return sizeof(ekoc_couplings_config); }

int ekoc_couplings_new(const ekoc_couplings_config *cfg, ekoc_couplings **out) {
  if (!cfg) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_couplings_new: cfg is NULL");
  if (!out) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_couplings_new: out is NULL");
  if (cfg->order < 1 || cfg->order > EKOC_MAX_ORDER)
    return ekoc_error(EKOC_ERR_INVALID_ORDER, "ekoc_couplings_new: order = %d, want 1 (LO) .. %d (N3LO)",
                      (int)cfg->order, EKOC_MAX_ORDER);
  if (cfg->mode != EKOC_COUPLING_EXACT && cfg->mode != EKOC_COUPLING_EXPANDED)
    return ekoc_error(EKOC_ERR_INVALID_MODE,
                      "ekoc_couplings_new: mode = %d, want EKOC_COUPLING_EXACT (0) or EKOC_COUPLING_EXPANDED (1)",
                      (int)cfg->mode);
  if (!(isfinite(cfg->alphas_ref) && cfg->alphas_ref > 0.0))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_couplings_new: alphas_ref = %g, want finite and > 0",
                      cfg->alphas_ref);
  if (!(isfinite(cfg->mu2_ref) && cfg->mu2_ref > 0.0))
    return ekoc_error(EKOC_ERR_INVALID_SCALE, "ekoc_couplings_new: mu2_ref = %g, want finite and > 0",
                      cfg->mu2_ref);
  if (cfg->max_nf < 3 || cfg->max_nf > 6)
    return ekoc_error(EKOC_ERR_INVALID_NF, "ekoc_couplings_new: max_nf = %d, want 3..6", (int)cfg->max_nf);
  if (cfg->nf_ref < 3 || cfg->nf_ref > cfg->max_nf)
    return ekoc_error(EKOC_ERR_INVALID_NF, "ekoc_couplings_new: nf_ref = %d, want 3..max_nf (%d)",
                      (int)cfg->nf_ref, (int)cfg->max_nf);
  if (!(isfinite(cfg->threshold_shift) && cfg->threshold_shift > 0.0))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_couplings_new: threshold_shift = %g, want finite and > 0",
                      cfg->threshold_shift);
  if (cfg->qed_order < 0 || cfg->qed_order > 2)
    return ekoc_error(EKOC_ERR_INVALID_ORDER, "ekoc_couplings_new: qed_order = %d, want 0 (no QED) .. 2",
                      (int)cfg->qed_order);
  if (!(isfinite(cfg->alphaem_ref) && cfg->alphaem_ref > 0.0 && cfg->alphaem_ref < 4.0 * EKOC_PI))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_couplings_new: alphaem_ref = %g, want finite in (0, 4 pi)",
                      cfg->alphaem_ref);
  if (cfg->em_running != 0 && cfg->em_running != 1)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_couplings_new: em_running = %d, want 0 or 1",
                      (int)cfg->em_running);
  if (cfg->masses_scheme != EKOC_MASSES_POLE && cfg->masses_scheme != EKOC_MASSES_MSBAR)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT,
                      "ekoc_couplings_new: masses_scheme = %d, want EKOC_MASSES_POLE (0) or EKOC_MASSES_MSBAR (1)",
                      (int)cfg->masses_scheme);
  for (int h = 0; h < 3; ++h) {
    double m2 = cfg->masses2[h], k2 = cfg->thresholds_ratio2[h];
    if (!(isfinite(m2) && m2 > 0.0))
      return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS,
                        "ekoc_couplings_new: masses2[%d] (%s) = %g, want finite and > 0", h, quark_name[h], m2);
    if (h > 0 && !(m2 >= cfg->masses2[h - 1]))
      return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS,
                        "ekoc_couplings_new: masses2[%d] (%s) = %g is below masses2[%d] = %g, want ascending",
                        h, quark_name[h], m2, h - 1, cfg->masses2[h - 1]);
    if (!(k2 >= 0.0)) /* also NaN */
      return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS,
                        "ekoc_couplings_new: thresholds_ratio2[%d] (%s) = %g, want >= 0 (INFINITY allowed)", h,
                        quark_name[h], k2);
  }

  ekoc_couplings tmp;
  tmp.cfg = *cfg;
  tmp.a_ref = cfg->alphas_ref / 4.0 / EKOC_PI; /* same rounding as eko */
  tmp.a_em_ref = cfg->alphaem_ref / 4.0 / EKOC_PI;
  for (int h = 0; h < 3; ++h) {
    /* eko: thresholds_ratios = k^2 * xif^2, matching scales = m^2 * thresholds_ratios */
    tmp.ratio[h] = cfg->thresholds_ratio2[h] * cfg->threshold_shift;
    tmp.log_ratio[h] = log(tmp.ratio[h]);
    tmp.wall[h] = (h + 4 <= cfg->max_nf) ? cfg->masses2[h] * tmp.ratio[h] : INFINITY;
  }
  for (int h = 1; h < 3; ++h)
    if (!(tmp.wall[h] >= tmp.wall[h - 1]))
      return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS,
                        "ekoc_couplings_new: the %s matching scale %g lies below the %s one %g (matching scales "
                        "rho k_h^2 m_h^2 must be non-decreasing)",
                        quark_name[h], tmp.wall[h], quark_name[h - 1], tmp.wall[h - 1]);

  ekoc_couplings *c = (ekoc_couplings *)malloc(sizeof *c);
  if (!c) return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_couplings_new: out of memory (%zu bytes)", sizeof *c);
  *c = tmp;
  precompute_entries(c);
  *out = c;
  return EKOC_OK;
}

void ekoc_couplings_free(ekoc_couplings *c) { free(c); }

const ekoc_couplings_config *ekoc_couplings_cfg(const ekoc_couplings *c) { return &c->cfg; }

/* eko's nf_default: 3 + #{walls <= mu2} (np.digitize on [0, walls..., inf]). */
static int32_t natural_nf(const ekoc_couplings *c, double mu2) {
  int32_t nf = 3;
  for (int h = 0; h < 3; ++h)
    if (c->wall[h] <= mu2) nf = (int32_t)(4 + h);
  return nf;
}

int ekoc_couplings_nf_at(const ekoc_couplings *c, double mu2, int32_t *nf_out) {
  if (!c) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_couplings_nf_at: c is NULL");
  if (!nf_out) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_couplings_nf_at: nf_out is NULL");
  if (!(isfinite(mu2) && mu2 > 0.0))
    return ekoc_error(EKOC_ERR_INVALID_SCALE, "ekoc_couplings_nf_at: mu2 = %g, want finite and > 0", mu2);
  *nf_out = natural_nf(c, mu2);
  return EKOC_OK;
}

int ekoc_couplings_matching_scales(const ekoc_couplings *c, double mu2_thr[3]) {
  if (!c) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_couplings_matching_scales: c is NULL");
  if (!mu2_thr) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_couplings_matching_scales: mu2_thr is NULL");
  for (int h = 0; h < 3; ++h) mu2_thr[h] = c->wall[h];
  return EKOC_OK;
}

/* eko's np.isclose(origin, target) (rtol 1e-5, atol 1e-8): such a segment is
 * not run, only its matching is applied (Couplings.a). */
static int segment_is_short(double origin, double target) {
  return fabs(origin - target) <= 1e-8 + 1e-5 * fabs(target);
}

static int run_segment(const ekoc_couplings *c, int32_t nf, double a, double from, double to, double *a_out) {
  if (segment_is_short(from, to)) {
    *a_out = a;
    return EKOC_OK;
  }
  return ekoc_couplings_run(c->cfg.order, c->cfg.mode, nf, a, from, to, a_out);
}

/* One segment of the joint running (qed_order > 0), eko's Couplings.a: not
 * run when short; split at m_tau^2 when its ends have different lepton
 * numbers, each part with the n_l of its own side. */
static int run_segment_qed(const ekoc_couplings *c, int32_t nf, double a[2], double from, double to) {
  if (segment_is_short(from, to)) return EKOC_OK;
  const ekoc_qed_running q = {c->cfg.order, c->cfg.qed_order, c->cfg.mode, c->cfg.em_running};
  const int32_t nl_from = ekoc_lepton_number(from), nl_to = ekoc_lepton_number(to);
  if (nl_from != nl_to) {
    const double mtau2 = EKOC_MTAU * EKOC_MTAU;
    int rc = ekoc_couplings_run_qed(&q, nf, nl_from, a, from, mtau2, a);
    if (rc != EKOC_OK) return rc;
    return ekoc_couplings_run_qed(&q, nf, nl_to, a, mtau2, to, a);
  }
  return ekoc_couplings_run_qed(&q, nf, nl_from, a, from, to, a);
}

/* eko's Atlas.path from the reference up to nf_to's segment: every wall
 * between nf_ref and nf_to crossed in order, each segment run and a_s
 * decoupled at its wall; (a_s, a_em) and the scale where nf_to's segment
 * starts. `fn` names the caller in messages. */
static int walk_entry(const ekoc_couplings *c, int32_t nf_to, double a[2], double *scale, const char *fn) {
  const int qed = c->cfg.qed_order > 0;
  int32_t nf = c->cfg.nf_ref;
  int rc;
  a[0] = c->a_ref;
  a[1] = c->a_em_ref;
  *scale = c->cfg.mu2_ref;
  while (nf != nf_to) {
    const int up = nf_to > nf;
    const int h = up ? nf - 3 : nf - 4; /* the heavy quark whose threshold is crossed */
    const double wall = c->wall[h];
    if (!(wall > 0.0 && isfinite(wall)))
      return ekoc_error(EKOC_ERR_INVALID_NF,
                        "%s: nf_to = %d is unreachable from nf_ref = %d: the %s matching scale is %g", fn,
                        (int)nf_to, (int)c->cfg.nf_ref, quark_name[h], wall);
    rc = qed ? run_segment_qed(c, nf, a, *scale, wall) : run_segment(c, nf, a[0], *scale, wall, &a[0]);
    if (rc != EKOC_OK) return rc;
    /* the decoupling acts on a_s only; a_em is continuous */
    a[0] *= ekoc_couplings_matching_factor_scheme(c->cfg.order, up, up ? nf : nf - 1, a[0], c->log_ratio[h],
                                                  c->cfg.masses_scheme);
    *scale = wall;
    nf += up ? 1 : -1;
  }
  return EKOC_OK;
}

/* Fills c->entry_*: every nf's segment entry, made once (the walks of
 * ekoc_couplings_a start there: the same bits, without running the segments
 * below again); an nf that cannot be reached is walked, and fails, when
 * asked for. The thread's error message is left as it was. */
static void precompute_entries(ekoc_couplings *c) {
  ekoc_error_text saved;
  int32_t nf;
  ekoc_error_stash(&saved);
  for (nf = 0; nf < 7; ++nf) c->entry_ok[nf] = 0;
  for (nf = 3; nf <= c->cfg.max_nf; ++nf)
    c->entry_ok[nf] = walk_entry(c, nf, c->entry_a[nf], &c->entry_scale[nf], "ekoc_couplings_new") == EKOC_OK;
  ekoc_error_unstash(&saved);
}

/* eko's Couplings.a: (a_s, a_em) at (mu2, nf_to); `fn` names the caller in
 * messages. With qed_order 0 a_em is the reference value and a_s the pure-QCD
 * walk. */
static int couplings_walk(const ekoc_couplings *c, double mu2, int32_t nf_to, double out[2], const char *fn) {
  if (!(isfinite(mu2) && mu2 > 0.0))
    return ekoc_error(EKOC_ERR_INVALID_SCALE, "%s: mu2 = %g, want finite and > 0", fn, mu2);
  if (nf_to < 0) nf_to = natural_nf(c, mu2);
  if (nf_to < 3 || nf_to > c->cfg.max_nf)
    return ekoc_error(EKOC_ERR_INVALID_NF, "%s: nf_to = %d, want 3..max_nf (%d) or < 0 (natural)", fn,
                      (int)nf_to, (int)c->cfg.max_nf);

  const int qed = c->cfg.qed_order > 0;
  double a[2], scale;
  int32_t nf = nf_to;
  int rc;
  if (c->entry_ok[nf_to]) {
    a[0] = c->entry_a[nf_to][0];
    a[1] = c->entry_a[nf_to][1];
    scale = c->entry_scale[nf_to];
  } else {
    rc = walk_entry(c, nf_to, a, &scale, fn);
    if (rc != EKOC_OK) return rc;
  }
  rc = qed ? run_segment_qed(c, nf, a, scale, mu2) : run_segment(c, nf, a[0], scale, mu2, &a[0]);
  if (rc != EKOC_OK) return rc;
  if (!(isfinite(a[0]) && a[0] > 0.0))
    return ekoc_error(EKOC_ERR_NUMERICAL, "%s: a_s^(nf=%d)(mu2 = %g) = %g is not finite and > 0", fn, (int)nf_to,
                      mu2, a[0]);
  if (!(isfinite(a[1]) && a[1] > 0.0))
    return ekoc_error(EKOC_ERR_NUMERICAL, "%s: a_em^(nf=%d)(mu2 = %g) = %g is not finite and > 0", fn, (int)nf_to,
                      mu2, a[1]);
  out[0] = a[0];
  out[1] = a[1];
  return EKOC_OK;
}

int ekoc_couplings_a_s(const ekoc_couplings *c, double mu2, int32_t nf_to, double *a_s_out) {
  if (!c) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_couplings_a_s: c is NULL");
  if (!a_s_out) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_couplings_a_s: a_s_out is NULL");
  double a[2];
  int rc = couplings_walk(c, mu2, nf_to, a, "ekoc_couplings_a_s");
  if (rc == EKOC_OK) *a_s_out = a[0];
  return rc;
}

int ekoc_couplings_a(const ekoc_couplings *c, double mu2, int32_t nf_to, double *a_s_out, double *a_em_out) {
  if (!c) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_couplings_a: c is NULL");
  if (!a_s_out && !a_em_out)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_couplings_a: a_s_out and a_em_out are both NULL");
  double a[2];
  int rc = couplings_walk(c, mu2, nf_to, a, "ekoc_couplings_a");
  if (rc != EKOC_OK) return rc;
  if (a_s_out) *a_s_out = a[0];
  if (a_em_out) *a_em_out = a[1];
  return EKOC_OK;
}
