/* msbar.c: MSbar heavy-quark masses as eko 0.15.7 computes them (module
 * eko.msbar_masses; docs/physics.md §17): the running mass m(mu) at the QCD
 * order of the evolution, the threshold masses m(m) = m, and the mass
 * decoupling at a threshold. Written from eko's formulas; the coefficients
 * (gamma_m, the mass decoupling) are facts carried over from eko's files. */
#include <math.h>
#include <string.h>

#include "ad/beta.h"
#include "evol/couplings.h"
#include "status.h"

#define ZETA5 1.03692775514336992633136548645703417

static const char *const quark_name[3] = {"charm", "bottom", "top"};

/* gamma_m coefficients gamma_0..gamma_3 of nf flavours in eko's normalisation
 * (eko.gamma, [Vermaseren:1997fq] eq. 15): d ln m / d ln mu^2 = -sum gamma_k a^(k+1).
 * The a^4 term is eko's as written (its 135680 zeta_3 / 28). */
static void gamma_m(int32_t nf, double g[4]) {
  const double n = (double)nf;
  g[0] = 4.0;
  g[1] = 202.0 / 3.0 - 20.0 / 9.0 * n;
  g[2] = 1249.0 - (2216.0 / 27.0 + 160.0 / 3.0 * EKOC_ZETA3) * n - 140.0 / 81.0 * n * n;
  g[3] = 4603055.0 / 162.0 + 135680.0 * EKOC_ZETA3 / 28.0 - 8800.0 * ZETA5 +
         (-91723.0 / 27.0 - 34192.0 * EKOC_ZETA3 / 9.0 + 880.0 * EKOC_ZETA4 + 18400.0 * ZETA5 / 9.0) * n +
         (5242.0 / 243.0 + 800.0 * EKOC_ZETA3 / 9.0 - 160.0 * EKOC_ZETA4 / 3.0) * n * n +
         (332.0 / 243.0 + 64.0 * EKOC_ZETA3 / 27.0) * n * n * n;
}

/* The integrand of the exact kernel in u = ln a: a * gamma(a) / (a beta(a)) with
 * gamma(a) = sum_k g_k a^k and beta(a) = a sum_k b_k a^k, `order` terms each. */
static double exact_integrand(int32_t order, const double g[4], const double b[4], double a) {
  double num = 0.0, den = 0.0;
  for (int k = order - 1; k >= 0; --k) {
    num = num * a + g[k];
    den = den * a + b[k];
  }
  return num / den;
}

/* Gauss-Legendre nodes/weights of degree 12 on [-1, 1] (Newton on P_12). */
#define GL_N 12
static void gauss_legendre(double x[GL_N], double w[GL_N]) {
  for (int i = 0; i < GL_N; ++i) {
    double z = cos(EKOC_PI * (i + 0.75) / (GL_N + 0.5)), dp = 1.0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1.0, p1 = z;
      for (int k = 2; k <= GL_N; ++k) {
        double p2 = ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = GL_N * (z * p1 - p0) / (z * z - 1.0);
      double dz = p1 / dp;
      z -= dz;
      if (fabs(dz) < 1e-16) break;
    }
    x[i] = z;
    w[i] = 2.0 / ((1.0 - z * z) * dp * dp);
  }
}

/* int_{ln a0}^{ln a1} f du on `panels` equal panels. */
static double gl_panels(int32_t order, const double g[4], const double b[4], double u0, double u1, int panels,
                        const double x[GL_N], const double w[GL_N]) {
  const double h = (u1 - u0) / panels;
  double sum = 0.0;
  for (int p = 0; p < panels; ++p) {
    const double mid = u0 + (p + 0.5) * h;
    for (int i = 0; i < GL_N; ++i) sum += w[i] * exact_integrand(order, g, b, exp(mid + 0.5 * h * x[i]));
  }
  return 0.5 * h * sum;
}

int ekoc_msbar_kernel(int32_t order, int32_t mode, int32_t nf, double a0, double a1, double *ker_out) {
  if (!ker_out) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_msbar_kernel: ker_out is NULL");
  if (order < 1 || order > EKOC_MAX_ORDER)
    return ekoc_error(EKOC_ERR_INVALID_ORDER, "ekoc_msbar_kernel: order = %d, want 1..%d", (int)order,
                      EKOC_MAX_ORDER);
  if (mode != EKOC_COUPLING_EXACT && mode != EKOC_COUPLING_EXPANDED)
    return ekoc_error(EKOC_ERR_INVALID_MODE, "ekoc_msbar_kernel: mode = %d, want 0 (exact) or 1 (expanded)",
                      (int)mode);
  if (nf < 3 || nf > 6) return ekoc_error(EKOC_ERR_INVALID_NF, "ekoc_msbar_kernel: nf = %d, want 3..6", (int)nf);
  if (!(isfinite(a0) && a0 > 0.0 && isfinite(a1) && a1 > 0.0))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_msbar_kernel: a0 = %g, a1 = %g, want finite and > 0", a0,
                      a1);
  double b[4], g[4], ker;
  ekoc_beta_coefficients(nf, b);
  gamma_m(nf, g);
  if (mode == EKOC_COUPLING_EXPANDED) {
    /* eko's ker_expanded: (a1/a0)^c0 j(a1)/j(a0), j truncated at a^(order-1) */
    const double c0 = g[0] / b[0];
    double num = 1.0, den = 1.0;
    if (order >= 2) {
      const double b1 = b[1] / b[0], c1 = g[1] / b[0], u = c1 - b1 * c0;
      num += a1 * u;
      den += a0 * u;
      if (order >= 3) {
        const double b2 = b[2] / b[0], c2 = g[2] / b[0];
        const double u2 = (c2 - c1 * b1 - b2 * c0 + b1 * b1 * c0 + (c1 - b1 * c0) * (c1 - b1 * c0)) / 2.0;
        num += a1 * a1 * u2;
        den += a0 * a0 * u2;
        if (order >= 4) {
          const double b3 = b[3] / b[0], c3 = g[3] / b[0];
          const double u3 = (-2.0 * b3 * c0 - b1 * b1 * b1 * c0 * (1.0 + c0) * (2.0 + c0) - 2.0 * b2 * c1 -
                             3.0 * b2 * c0 * c1 + b1 * b1 * (2.0 + 3.0 * c0 * (2.0 + c0)) * c1 + c1 * c1 * c1 +
                             3.0 * c1 * c2 +
                             b1 * (b2 * c0 * (4.0 + 3.0 * c0) - 3.0 * (1.0 + c0) * c1 * c1 - (2.0 + 3.0 * c0) * c2) +
                             2.0 * c3) / 6.0;
          num += a1 * a1 * a1 * u3;
          den += a0 * a0 * a0 * u3;
        }
      }
    }
    ker = pow(a1 / a0, c0) * num / den;
  } else {
    /* eko's ker_exact: exp(int_{a0}^{a1} gamma(a) / (a beta(a)) da), here in
     * u = ln a by composite Gauss-Legendre, panels doubled to ~1e-15 */
    double x[GL_N], w[GL_N];
    gauss_legendre(x, w);
    const double u0 = log(a0), u1 = log(a1);
    double prev = gl_panels(order, g, b, u0, u1, 1, x, w), val = prev;
    for (int panels = 2; panels <= 256; panels *= 2) {
      val = gl_panels(order, g, b, u0, u1, panels, x, w);
      if (fabs(val - prev) <= 1e-15 * fabs(val) + 1e-300) break;
      prev = val;
    }
    ker = exp(val);
  }
  if (!(isfinite(ker) && ker > 0.0))
    return ekoc_error(EKOC_ERR_NUMERICAL, "ekoc_msbar_kernel: m(mu1)/m(mu0) = %g (a0 = %g, a1 = %g, nf = %d)", ker,
                      a0, a1, (int)nf);
  *ker_out = ker;
  return EKOC_OK;
}

/* eko's ker_dispatcher: m(q2_to)/m(q2_from) at fixed nf, a_s at q2 * xif2. */
static int kernel_between(const ekoc_couplings *c, double xif2, int32_t nf, double q2_from, double q2_to,
                          double *ker) {
  const ekoc_couplings_config *cfg = ekoc_couplings_cfg(c);
  double a0, a1;
  int rc = ekoc_couplings_a_s(c, q2_from * xif2, nf, &a0);
  if (rc == EKOC_OK) rc = ekoc_couplings_a_s(c, q2_to * xif2, nf, &a1);
  if (rc == EKOC_OK) rc = ekoc_msbar_kernel(cfg->order, cfg->mode, nf, a0, a1, ker);
  return rc;
}

/* The mass decoupling factor at a threshold (eko msbar_masses.evolve with
 * compute_matching_coeffs_up / _down, [Liu:2015fxa]): upward from nf_low
 * flavours, downward to nf_low (coefficients of nf_low, inverted as eko's
 * invert_matching_coeffs), a = a_s of the upper nf, L = ln k_h^2. */
static double mass_matching(int32_t order, int up, int32_t nf_low, double a, double L) {
  const double n = (double)nf_low;
  double c[4][4] = {{0.0}};
  c[2][0] = -89.0 / 27.0;
  c[2][1] = 20.0 / 9.0;
  c[2][2] = -4.0 / 3.0;
  c[3][0] = -118.248 - 1.58257 * n;
  c[3][1] = 71.7887 + 7.85185 * n;
  c[3][2] = -700.0 / 27.0;
  c[3][3] = -232.0 / 27.0 + 16.0 / 27.0 * n;
  return ekoc_matching_factor_of(c, up, order - 1, a, L);
}

static int isclose(double a, double b) { return fabs(a - b) <= 1e-8 + 1e-5 * fabs(b); }

int ekoc_msbar_evolve(const ekoc_couplings *c, double xif2, double m2_ref, double q2m_ref, int32_t nf_ref,
                      double q2_to, int32_t nf_to, double *m2_out) {
  if (!c) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_msbar_evolve: c is NULL");
  if (!m2_out) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_msbar_evolve: m2_out is NULL");
  if (!(isfinite(xif2) && xif2 > 0.0))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_msbar_evolve: xif2 = %g, want finite and > 0", xif2);
  if (!(isfinite(m2_ref) && m2_ref > 0.0))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_msbar_evolve: m2_ref = %g, want finite and > 0", m2_ref);
  if (!(isfinite(q2m_ref) && q2m_ref > 0.0 && isfinite(q2_to) && q2_to > 0.0))
    return ekoc_error(EKOC_ERR_INVALID_SCALE, "ekoc_msbar_evolve: q2m_ref = %g, q2_to = %g, want finite and > 0",
                      q2m_ref, q2_to);
  if (nf_ref < 3 || nf_ref > 6 || nf_to < 3 || nf_to > 6)
    return ekoc_error(EKOC_ERR_INVALID_NF, "ekoc_msbar_evolve: nf_ref = %d, nf_to = %d, want 3..6", (int)nf_ref,
                      (int)nf_to);
  const ekoc_couplings_config *cfg = ekoc_couplings_cfg(c);
  double walls[3];
  ekoc_couplings_matching_scales(c, walls);
  /* eko's evolve builds its atlas on the coupling's matching scales times the
   * threshold ratios once more (k_h^2 enters twice; nothing with k_h = 1) */
  for (int h = 0; h < 3; ++h) walls[h] *= cfg->thresholds_ratio2[h];
  const int up = nf_to >= nf_ref;
  double ev = 1.0, from = q2m_ref;
  int32_t nf = nf_ref;
  for (;;) {
    const int last = nf == nf_to;
    const int h = up ? nf - 3 : nf - 4;
    const double to = last ? q2_to : walls[h];
    if (!last && !(isfinite(to) && to > 0.0))
      return ekoc_error(EKOC_ERR_INVALID_NF, "ekoc_msbar_evolve: nf_to = %d is unreachable from nf_ref = %d: the %s "
                        "matching scale is %g", (int)nf_to, (int)nf_ref, quark_name[h], to);
    double ker = 1.0;
    if (!isclose(from, to)) {
      int rc = kernel_between(c, xif2, nf, from, to, &ker);
      if (rc != EKOC_OK) return rc;
      ker *= ker;
    }
    if (!last) {
      const int32_t nf_up = up ? nf + 1 : nf;
      double a;
      int rc = ekoc_couplings_a_s(c, to * xif2, nf_up, &a);
      if (rc != EKOC_OK) return rc;
      ker *= mass_matching(cfg->order, up, nf_up - 1, a, log(cfg->thresholds_ratio2[h]));
    }
    ev *= ker;
    if (last) break;
    from = to;
    nf += up ? 1 : -1;
  }
  const double m2 = m2_ref * ev;
  if (!(isfinite(m2) && m2 > 0.0))
    return ekoc_error(EKOC_ERR_NUMERICAL, "ekoc_msbar_evolve: m^2 = %g at q2 = %g", m2, q2_to);
  *m2_out = m2;
  return EKOC_OK;
}

/* m(m)^2 at fixed nf from m2_ref at q2m_ref (eko's msbar_masses.solve, which
 * uses scipy's fsolve from q2m_ref): the root of ln m2_ref + 2 ln ker(q2) - ln q2
 * in ln q2 by the secant method to 1e-15. */
static int solve_mm(const ekoc_couplings *c, double xif2, int32_t nf, double m2_ref, double q2m_ref, int h,
                    double *m2_out) {
  double t[2] = {log(q2m_ref), log(m2_ref)}, f[2];
  if (fabs(t[1] - t[0]) < 1e-6) t[1] = t[0] + 1e-3;
  for (int i = 0; i < 2; ++i) {
    double ker;
    int rc = kernel_between(c, xif2, nf, q2m_ref, exp(t[i]), &ker);
    if (rc != EKOC_OK) return rc;
    f[i] = log(m2_ref) + 2.0 * log(ker) - t[i];
  }
  for (int it = 0; it < 100; ++it) {
    if (f[1] == f[0]) break;
    const double tn = t[1] - f[1] * (t[1] - t[0]) / (f[1] - f[0]);
    if (!isfinite(tn)) break;
    double ker;
    int rc = kernel_between(c, xif2, nf, q2m_ref, exp(tn), &ker);
    if (rc != EKOC_OK) return rc;
    t[0] = t[1];
    f[0] = f[1];
    t[1] = tn;
    f[1] = log(m2_ref) + 2.0 * log(ker) - tn;
    if (fabs(t[1] - t[0]) <= 1e-15 * (1.0 + fabs(t[1]))) {
      *m2_out = exp(t[1]);
      return EKOC_OK;
    }
  }
  return ekoc_error(EKOC_ERR_NUMERICAL,
                    "theory.masses[%d] (%s, MSbar): m(m) = m not found at nf = %d from m(%g GeV) = %g GeV", h,
                    quark_name[h], (int)nf, sqrt(q2m_ref), sqrt(m2_ref));
}

/* A coupling for the solve with eko's placeholder thresholds: masses not yet
 * known sit at 0 (below nf_ref) or infinity (above), the known ones at m(m)^2;
 * ratios k_h^2 and shift xif2 as eko's compute (always xif2). */
static int solve_couplings(const ekoc_couplings_config *base, const double m2[3], double xif2, ekoc_couplings **out) {
  ekoc_couplings_config cc = *base;
  double lo = 1.0, hi = 1.0;
  int known = 0;
  for (int h = 0; h < 3; ++h)
    if (m2[h] > 0.0 && isfinite(m2[h])) {
      if (!known) lo = m2[h];
      hi = m2[h];
      known = 1;
    }
  for (int h = 0; h < 3; ++h) {
    if (m2[h] == 0.0) {
      cc.masses2[h] = lo; /* any value up to the next mass: the ratio 0 puts the wall at 0 */
      cc.thresholds_ratio2[h] = 0.0;
    } else if (isinf(m2[h])) {
      cc.masses2[h] = hi;
      cc.thresholds_ratio2[h] = INFINITY;
    } else {
      cc.masses2[h] = m2[h];
    }
  }
  cc.threshold_shift = xif2;
  cc.max_nf = 6;
  cc.masses_scheme = EKOC_MASSES_MSBAR;
  return ekoc_couplings_new(&cc, out);
}

int ekoc_msbar_masses(const ekoc_couplings_config *cfg, const double m_ref[3], const double mu_ref[3], double xif2,
                      double masses2_out[3]) {
  if (!cfg || !m_ref || !mu_ref || !masses2_out)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_msbar_masses: cfg, m_ref, mu_ref and masses2_out must not be NULL");
  if (!(isfinite(xif2) && xif2 > 0.0))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_msbar_masses: xif2 = %g, want finite and > 0", xif2);
  for (int h = 0; h < 3; ++h)
    if (!(isfinite(m_ref[h]) && m_ref[h] > 0.0 && isfinite(mu_ref[h]) && mu_ref[h] > 0.0))
      return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS,
                        "theory.masses[%d] (%s, MSbar) = [%g, %g]: m(mu_ref) and mu_ref must be finite and > 0", h,
                        quark_name[h], m_ref[h], mu_ref[h]);
  const int32_t nf_ref = cfg->nf_ref;
  if (nf_ref < 3 || nf_ref > 6)
    return ekoc_error(EKOC_ERR_INVALID_NF, "ekoc_msbar_masses: nf_ref = %d, want 3..6", (int)nf_ref);
  const double mu2_ref = cfg->mu2_ref;
  double m2[3];
  for (int h = 0; h < 3; ++h) m2[h] = h < nf_ref - 3 ? 0.0 : INFINITY;
  /* eko's order: c, b, t; t, b, c when a_s is given with nf_ref > 4 */
  for (int step = 0; step < 3; ++step) {
    const int h = nf_ref > 4 ? 2 - step : step;
    double q2m = mu_ref[h] * mu_ref[h], mr2 = m_ref[h] * m_ref[h];
    if (q2m == mr2) { /* given at m itself */
      m2[h] = mr2;
      continue;
    }
    int32_t nf_target = h + 3;
    int shift = -1;
    if (h + 4 == nf_ref && q2m > mu2_ref)
      return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS,
                        "theory.masses[%d] (%s, MSbar): its scale %g GeV must lie below the coupling's reference "
                        "scale %g GeV when alpha_s is given with nf_ref = %d (eko's rule)",
                        h, quark_name[h], mu_ref[h], sqrt(mu2_ref), (int)nf_ref);
    if (h + 4 == nf_ref + 1 && q2m < mu2_ref)
      return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS,
                        "theory.masses[%d] (%s, MSbar): its scale %g GeV must lie above the coupling's reference "
                        "scale %g GeV when alpha_s is given with nf_ref = %d (eko's rule)",
                        h, quark_name[h], mu_ref[h], sqrt(mu2_ref), (int)nf_ref);
    if (h + 3 >= nf_ref && q2m >= mr2)
      return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS,
                        "theory.masses[%d] (%s, MSbar) = [%g, %g]: the scale must lie below the mass when alpha_s "
                        "is given with nf_ref = %d (eko's rule: forward running)",
                        h, quark_name[h], m_ref[h], mu_ref[h], (int)nf_ref);
    if (h + 3 < nf_ref) {
      if (q2m < mr2)
        return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS,
                          "theory.masses[%d] (%s, MSbar) = [%g, %g]: the scale must lie above the mass when alpha_s "
                          "is given with nf_ref = %d (eko's rule: backward running)",
                          h, quark_name[h], m_ref[h], mu_ref[h], (int)nf_ref);
      nf_target += 1;
      shift = 1;
    }
    ekoc_couplings *c = NULL;
    int rc = solve_couplings(cfg, m2, xif2, &c);
    if (rc != EKOC_OK) return rc;
    int32_t nf_cur = 3;
    for (int k = 0; k < 3; ++k)
      if (q2m > m2[k]) ++nf_cur;
    if (nf_target != nf_cur) { /* bring m to the target patch's wall first */
      const double q2_to = m2[h + shift];
      rc = ekoc_msbar_evolve(c, xif2, mr2, q2m, nf_cur, q2_to, nf_target, &mr2);
      q2m = q2_to;
    }
    if (rc == EKOC_OK) rc = solve_mm(c, xif2, nf_target, mr2, q2m, h, &m2[h]);
    ekoc_couplings_free(c);
    if (rc != EKOC_OK) return rc;
  }
  if (!(m2[0] <= m2[1] && m2[1] <= m2[2]))
    return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS,
                      "theory.masses (MSbar): m(m) = (%g, %g, %g) GeV of charm, bottom, top are not ascending",
                      sqrt(m2[0]), sqrt(m2[1]), sqrt(m2[2]));
  memcpy(masses2_out, m2, sizeof m2);
  return EKOC_OK;
}
