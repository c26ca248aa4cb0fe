/* test_n3lo_kernels.c: the N3LO (order 4, a_s^4) pieces that do not depend on
 * the anomalous dimensions: evolution integrals j^(n,3), the non-singlet and
 * singlet kernels of every method, both scale-variation schemes and the
 * matching matrices at O(a_s^3) (docs/physics.md §6-8). Each against eko
 * 0.15.7's own functions (tests/n3lo_reference.h, from
 * tests/gen_n3lo_reference.py) and against properties eko does not enter:
 * quadrature, ODE solutions, truncation orders, inverses. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "test_util.h"

#include "ad/beta.h"
#include "ad/evolution_integrals.h"
#include "ad/kernel_ns.h"
#include "ad/kernel_singlet.h"
#include "ad/matching.h"
#include "ad/scale_variation.h"
#include "kernel_test_math.h"
#include "ekore.h"
#include "n3lo_reference.h"

#define LHA_A0 0.0278521150410817
#define LHA_A1 0.00935624138194655
#define N_ROWS(t) (sizeof(t) / sizeof((t)[0]))

/* ---- helpers -------------------------------------------------------------- */

static ekoc_kernel_cfg make_cfg(int method, int nf, double a0, double a1) {
  ekoc_kernel_cfg cfg;
  cfg.order = 4;
  cfg.method = method;
  cfg.ev_op_iterations = 10;
  cfg.ev_op_max_order = 10;
  ekoc_beta_coefficients(nf, cfg.beta);
  cfg.a0 = a0;
  cfg.a1 = a1;
  return cfg;
}

/* gamma tower of reference set `set`: ns[4] and singlet[4] */
static void ref_gamma(int set, ekoc_complex g_ns[4], ekoc_cmat2 g_s[4]) {
  const double *v = n3ref_gamma[set];
  int i, k;
  for (i = 0; i < 4; ++i) g_ns[i] = c_make(v[2 * i], v[2 * i + 1]);
  for (i = 0; i < 4; ++i)
    for (k = 0; k < 4; ++k) g_s[i].m[k] = c_make(v[8 + 8 * i + 2 * k], v[8 + 8 * i + 2 * k + 1]);
}

static ekoc_cmat2 m2_from(const double *v) {
  ekoc_cmat2 r;
  int k;
  for (k = 0; k < 4; ++k) r.m[k] = c_make(v[2 * k], v[2 * k + 1]);
  return r;
}

/* a(t), t = ln(mu^2/mu0^2), from a(0) = a0, four-loop beta: RK4, nsteps steps */
static double rge_a(const double *beta, double a0, double t, int nsteps) {
  double h = t / nsteps, a = a0;
  int s, st, i;
  for (s = 0; s < nsteps; ++s) {
    double k[4], x = a;
    for (st = 0; st < 4; ++st) {
      double p = x * x, b = 0.0;
      for (i = 0; i < 4; ++i) {
        b -= beta[i] * p;
        p *= x;
      }
      k[st] = b;
      x = a + (st < 2 ? 0.5 : 1.0) * h * k[st];
    }
    a += h / 6.0 * (k[0] + 2.0 * k[1] + 2.0 * k[2] + k[3]);
  }
  return a;
}

/* ---- evolution integrals -------------------------------------------------- */

static void test_integrals_vs_eko(void **state) {
  double worst[2] = {0.0, 0.0};
  size_t r;
  int i;
  (void)state;
  for (r = 0; r < N_ROWS(n3ref_ei_rows); ++r) {
    const n3ref_ei *row = &n3ref_ei_rows[r];
    double beta[4], jx[4], jp[4];
    ekoc_beta_coefficients(row->nf, beta);
    ekoc_ei_fill(4, 0, row->a1, row->a0, beta, jx);
    ekoc_ei_fill(4, 1, row->a1, row->a0, beta, jp);
    for (i = 0; i < 4; ++i) {
      assert_close(jx[i], row->exact[i], 1e-13, 0); /* both sum cancelling partial fractions */
      assert_close(jp[i], row->expanded[i], 1e-14, 0);
      worst[0] = fmax(worst[0], fabs(jx[i] / row->exact[i] - 1.0));
      worst[1] = fmax(worst[1], fabs(jp[i] / row->expanded[i] - 1.0));
    }
  }
  print_message("j^(n,3) vs eko: worst rel. diff exact %.1e, expanded %.1e\n", worst[0], worst[1]);
}

/* j^(n,3) exact = int a^n / (sum_{k<=3} beta_k a^(k+1)): composite Simpson
 * in ln a (20000 intervals), every nf, forward and backward */
static void test_integrals_quadrature(void **state) {
  static const double pairs[2][2] = {{LHA_A0, LHA_A1}, {0.011, 0.04}};
  int nf, n, p, k;
  (void)state;
  for (nf = 3; nf <= 6; ++nf) {
    double beta[4], j[4];
    ekoc_beta_coefficients(nf, beta);
    for (p = 0; p < 2; ++p) {
      double a0 = pairs[p][0], a1 = pairs[p][1];
      ekoc_ei_fill(4, 0, a1, a0, beta, j);
      for (n = 0; n < 4; ++n) {
        const int steps = 20000;
        double u0 = log(a0), h = (log(a1) - u0) / steps, sum = 0.0;
        for (k = 0; k <= steps; ++k) {
          double a = exp(u0 + k * h), w = (k == 0 || k == steps) ? 1.0 : (k % 2 ? 4.0 : 2.0);
          double den = a * (beta[0] + a * (beta[1] + a * (beta[2] + a * beta[3])));
          sum += w * a * pow(a, n) / den;
        }
        assert_close(j[n], sum * h / 3.0, 1e-11, 1e-17);
      }
    }
  }
}

/* expanded - exact = O(a^4) with a1/a0 fixed: halving divides it by 16 */
static void test_integrals_expanded_scaling(void **state) {
  int nf, n;
  (void)state;
  for (nf = 3; nf <= 6; ++nf) {
    double beta[4], x1[4], p1[4], x2[4], p2[4], lam = 1.0 / 128.0; /* nf = 5 j^(2,3): small a^4 term */
    ekoc_beta_coefficients(nf, beta);
    ekoc_ei_fill(4, 0, 0.012 * lam, 0.03 * lam, beta, x1);
    ekoc_ei_fill(4, 1, 0.012 * lam, 0.03 * lam, beta, p1);
    ekoc_ei_fill(4, 0, 0.006 * lam, 0.015 * lam, beta, x2);
    ekoc_ei_fill(4, 1, 0.006 * lam, 0.015 * lam, beta, p2);
    for (n = 0; n < 4; ++n) assert_close((x1[n] - p1[n]) / (x2[n] - p2[n]), 16.0, 0.08, 0);
  }
}

/* ---- kernels against eko ---------------------------------------------------- */

static void test_kernels_vs_eko(void **state) {
  double worst_ns[EKOC_METHOD_COUNT] = {0}, worst_s[EKOC_METHOD_COUNT] = {0};
  size_t r;
  int m;
  (void)state;
  for (r = 0; r < N_ROWS(n3ref_kernel_rows); ++r) {
    const n3ref_kernel *row = &n3ref_kernel_rows[r];
    ekoc_complex g_ns[4];
    ekoc_cmat2 g_s[4];
    ekoc_kernel_cfg cfg = make_cfg(row->method, row->nf, row->a0, row->a1);
    char what[96];
    cfg.ev_op_iterations = row->iters;
    cfg.ev_op_max_order = row->maxord;
    ref_gamma(row->gset, g_ns, g_s);
    snprintf(what, sizeof what, "row %zu (method %d nf %d set %d)", r, row->method, row->nf, row->gset);
    assert_true(ekoc_kernel_cfg_valid(&cfg));
    {
      ekoc_complex got = ekoc_kernel_ns(&cfg, g_ns), want = c_make(row->ns[0], row->ns[1]);
      ekoc_cmat2 got_s = ekoc_kernel_singlet(&cfg, g_s);
      assert_cclose(got, want, 1e-12, what);
      assert_m2close(got_s, m2_from(row->s), 1e-12, 1e-14, what);
      worst_ns[row->method] = fmax(worst_ns[row->method], c_abs(c_sub(got, want)) / c_abs(want));
      worst_s[row->method] = fmax(worst_s[row->method], m2_reldiff(got_s, m2_from(row->s)));
    }
  }
  for (m = 0; m < EKOC_METHOD_ORDERED_EXACT; ++m) /* ordered-exact is not eko's */
    print_message("method %d: worst rel. diff vs eko ns %.1e, singlet %.1e\n", m, worst_ns[m], worst_s[m]);
}

/* ---- kernels against properties ---------------------------------------------- */

/* non-singlet exact (decompose-exact) vs RK4 of the four-loop evolution equation */
static void test_ns_exact_vs_ode(void **state) {
  ekoc_complex g_ns[4];
  ekoc_cmat2 g_s[4], gd[4];
  int set, nf, i;
  (void)state;
  for (set = 0; set < 2; ++set) {
    ref_gamma(set, g_ns, g_s);
    for (i = 0; i < 4; ++i) {
      gd[i] = m2_zero();
      gd[i].m[0] = g_ns[i];
    }
    for (nf = 3; nf <= 6; ++nf) {
      ekoc_kernel_cfg cfg = make_cfg(EKOC_METHOD_DECOMPOSE_EXACT, nf, LHA_A0, LHA_A1);
      assert_cclose(ekoc_kernel_ns(&cfg, g_ns), ode_solve(4, cfg.beta, gd, LHA_A0, LHA_A1, 2000).m[0], 1e-12,
                    "ns N3LO exact vs RK4");
    }
  }
}

/* truncated, ordered-truncated and expanded non-singlet kernels differ from
 * the exact one at O(a^4): halving both couplings (a1/a0 fixed) divides the
 * relative difference by 16 */
static void test_ns_truncation_scaling(void **state) {
  static const int methods[3] = {EKOC_METHOD_TRUNCATED, EKOC_METHOD_ORDERED_TRUNCATED,
                                 EKOC_METHOD_ITERATE_EXPANDED};
  ekoc_complex g_ns[4];
  ekoc_cmat2 g_s[4];
  int set, nf, m, h;
  (void)state;
  for (set = 0; set < 2; ++set) {
    ref_gamma(set, g_ns, g_s);
    for (nf = 3; nf <= 6; ++nf)
      for (m = 0; m < 3; ++m) {
        double d[2];
        for (h = 0; h < 2; ++h) {
          double lam = (h ? 0.5 : 1.0) / 64.0;
          ekoc_kernel_cfg cx = make_cfg(EKOC_METHOD_ITERATE_EXACT, nf, 0.03 * lam, 0.011 * lam);
          ekoc_kernel_cfg ct = cx;
          ekoc_complex ex;
          ct.method = methods[m];
          ex = ekoc_kernel_ns(&cx, g_ns);
          d[h] = c_abs(c_sub(ekoc_kernel_ns(&ct, g_ns), ex)) / c_abs(ex);
        }
        assert_close(d[0] / d[1], 16.0, 0.05, 0);
      }
  }
}

/* singlet, non-commuting gammas: perturbative-exact with K = 30 is the exact
 * solution (RK4), ordered-exact (Magnus) gets within 3e-8 in 16 steps,
 * iterate-exact within 3e-7 in 1000 steps (midpoint rule, 1/n^2) */
static void test_singlet_exact_vs_ode(void **state) {
  ekoc_complex g_ns[4];
  ekoc_cmat2 g_s[4];
  int set, nf;
  (void)state;
  for (set = 0; set < 2; ++set) {
    ref_gamma(set, g_ns, g_s);
    for (nf = 3; nf <= 6; ++nf) {
      ekoc_kernel_cfg c = make_cfg(EKOC_METHOD_PERTURBATIVE_EXACT, nf, LHA_A0, LHA_A1);
      ekoc_cmat2 ode = ode_solve(4, c.beta, g_s, LHA_A0, LHA_A1, 4000);
      c.ev_op_max_order = EKOC_MAX_EV_OP_MAX_ORDER;
      c.ev_op_iterations = 1;
      assert_m2close(ekoc_kernel_singlet(&c, g_s), ode, 1e-11, 1e-13, "perturbative-exact K=30 vs RK4");
      c.method = EKOC_METHOD_ORDERED_EXACT;
      c.ev_op_iterations = 16;
      assert_true(m2_reldiff(ekoc_kernel_singlet(&c, g_s), ode) < 3e-8);
      c.method = EKOC_METHOD_ITERATE_EXACT;
      c.ev_op_iterations = 1000;
      assert_true(m2_reldiff(ekoc_kernel_singlet(&c, g_s), ode) < 3e-7);
    }
  }
}

/* singlet approximations vs the exact solution (perturbative-exact, K = 30)
 * with a1/a0 fixed: perturbative-expanded and decompose-expanded are
 * O(a^4) (ratio 16 per halving); truncated is O(a^3) only (ratio 8), because
 * eko's eko_truncated forms the NNLO and N3LO terms from the already updated
 * E (docs/physics.md §12.4), which ekoc reproduces. */
static void test_singlet_truncation_scaling(void **state) {
  static const int methods[3] = {EKOC_METHOD_TRUNCATED, EKOC_METHOD_PERTURBATIVE_EXPANDED,
                                 EKOC_METHOD_DECOMPOSE_EXPANDED};
  static const double want[3] = {8.0, 16.0, 16.0};
  ekoc_complex g_ns[4];
  ekoc_cmat2 g_s[4];
  int set, nf, m, h;
  (void)state;
  for (set = 0; set < 2; ++set) {
    ref_gamma(set, g_ns, g_s);
    for (nf = 3; nf <= 6; ++nf)
      for (m = 0; m < 3; ++m) {
        double d[2];
        for (h = 0; h < 2; ++h) {
          double lam = (h ? 0.5 : 1.0) / 64.0;
          ekoc_kernel_cfg cx = make_cfg(EKOC_METHOD_PERTURBATIVE_EXACT, nf, 0.03 * lam, 0.011 * lam);
          ekoc_kernel_cfg ct;
          cx.ev_op_max_order = EKOC_MAX_EV_OP_MAX_ORDER;
          cx.ev_op_iterations = 1;
          ct = cx;
          ct.method = methods[m];
          ct.ev_op_max_order = 10;
          if (methods[m] == EKOC_METHOD_DECOMPOSE_EXPANDED) cx.method = EKOC_METHOD_DECOMPOSE_EXACT;
          d[h] = m2_reldiff(ekoc_kernel_singlet(&ct, g_s), ekoc_kernel_singlet(&cx, g_s));
        }
        assert_close(d[0] / d[1], want[m], 0.05, 0);
      }
  }
}

/* The N3LO truncated singlet is evaluated in the eigenbasis of R_0
 * (ekoc_kernel_singlet_truncated_n3lo); it must equal the projector form of
 * the same formula (ekoc_kernel_singlet_truncated) to rounding, here on
 * ekore's gamma towers along a Talbot path for every nf, forward and
 * backward; where R_0's eigenvalues coincide it must be that form exactly. */
static void test_singlet_truncated_eigenbasis(void **state) {
  enum { P = 200 };
  static const double couplings[3][2] = {{0.0278, 0.0094}, {0.0176, 0.0121}, {0.0121, 0.0176}};
  const ekore_n3lo choice = {{0, 0, 0, 0, 0, 0, 0}, 0};
  double re[P], im[P], gr[16 * P], gi[16 * P], worst = 0.0;
  int p, nf, c, i, k;
  (void)state;
  for (p = 0; p < P; ++p) { /* eko's Talbot path at x = 1e-4, singlet offset 1 */
    double th = 3.14159265358979323846 * (2.0 * (0.5 + 0.45 * (p + 0.5) / P) - 1.0), r = 6.4 / (0.1 - log(1e-4));
    re[p] = 1.0 + r * (th == 0.0 ? 1.0 : th / tan(th));
    im[p] = r * th;
  }
  for (nf = 3; nf <= 6; ++nf) {
    assert_int_equal(ekore_gamma_singlet_batch_n3lo(4, &choice, re, im, P, (uint32_t)nf, gr, gi), 0);
    for (p = 0; p < P; ++p) {
      ekoc_cmat2 g[4];
      for (i = 0; i < 4; ++i)
        for (k = 0; k < 4; ++k) g[i].m[k] = c_make(gr[16 * p + 4 * i + k], gi[16 * p + 4 * i + k]);
      for (c = 0; c < 3; ++c) {
        ekoc_kernel_cfg cfg = make_cfg(EKOC_METHOD_TRUNCATED, nf, couplings[c][0], couplings[c][1]);
        ekoc_cmat2 eig = ekoc_kernel_singlet(&cfg, g), proj = ekoc_kernel_singlet_truncated(&cfg, g);
        double d = m2_reldiff(eig, proj);
        if (!(d <= 1e-14))
          fail_msg("nf %d N=(%g,%g) a %g->%g: eigenbasis vs projector form %.3g", nf, re[p], im[p], cfg.a0, cfg.a1, d);
        worst = fmax(worst, d);
      }
    }
  }
  print_message("N3LO truncated singlet, eigenbasis vs projector form: worst %.1e of the matrix\n", worst);
  { /* degenerate R_0 (gamma^(0) a multiple of 1): the projector form itself */
    ekoc_complex g_ns[4];
    ekoc_cmat2 g_s[4], eig, proj;
    ekoc_kernel_cfg cfg = make_cfg(EKOC_METHOD_TRUNCATED, 4, 0.02, 0.01);
    ref_gamma(0, g_ns, g_s);
    g_s[0] = m2_scale(m2_identity(), 3.0);
    eig = ekoc_kernel_singlet(&cfg, g_s);
    proj = ekoc_kernel_singlet_truncated(&cfg, g_s);
    assert_memory_equal(&eig, &proj, sizeof eig);
  }
}

/* order 4 is a valid kernel order, 5 is not; N3LO needs beta_3 != 0 */
static void test_order_bounds(void **state) {
  ekoc_complex g_ns[4];
  ekoc_cmat2 g_s[4];
  ekoc_kernel_cfg c = make_cfg(EKOC_METHOD_ITERATE_EXACT, 4, 0.02, 0.01);
  (void)state;
  ref_gamma(1, g_ns, g_s);
  assert_true(ekoc_kernel_cfg_valid(&c));
  c.order = EKOC_MAX_ORDER + 1;
  assert_false(ekoc_kernel_cfg_valid(&c));
  assert_true(isnan(ekoc_kernel_ns(&c, g_ns).re));
  assert_true(isnan(ekoc_kernel_singlet(&c, g_s).m[0].re));
  c.order = 4;
  c.beta[3] = 0.0;
  assert_false(ekoc_kernel_cfg_valid(&c));
  c.order = 3;
  assert_true(ekoc_kernel_cfg_valid(&c));
}

/* ---- scale variations -------------------------------------------------------- */

static void test_sv_vs_eko(void **state) {
  size_t r;
  int i;
  (void)state;
  for (r = 0; r < N_ROWS(n3ref_sv_rows); ++r) {
    const n3ref_sv *row = &n3ref_sv_rows[r];
    ekoc_complex g_ns[4], x[4];
    ekoc_cmat2 g_s[4], xs[4];
    double beta[4];
    char what[64];
    ekoc_beta_coefficients(row->nf, beta);
    ref_gamma(row->gset, g_ns, g_s);
    snprintf(what, sizeof what, "sv row %zu", r);
    for (i = 0; i < 4; ++i) {
      x[i] = g_ns[i];
      xs[i] = g_s[i];
    }
    ekoc_sv_exponentiated_ns(4, row->L, beta, x);
    ekoc_sv_exponentiated_singlet(4, row->L, beta, xs);
    for (i = 0; i < 4; ++i) {
      assert_cclose(x[i], c_make(row->x_ns[2 * i], row->x_ns[2 * i + 1]), 1e-14, what);
      assert_m2close(xs[i], m2_from(row->x_s + 8 * i), 1e-14, 1e-15, what);
    }
    assert_cclose(ekoc_sv_expanded_ns(4, row->L, row->a_s, beta, g_ns), c_make(row->k_ns[0], row->k_ns[1]), 1e-14,
                  what);
    assert_m2close(ekoc_sv_expanded_singlet(4, row->L, row->a_s, beta, g_s), m2_from(row->k_s), 1e-14, 1e-15, what);
  }
}

/* Scheme A is the re-expansion of gamma in a(xif^2 mu^2): with a_R and
 * a_F = a(mu_R^2/xif^2) from the four-loop RGE, sum_i a_R^(i+1) gbar^(i) -
 * sum_i a_F^(i+1) g^(i) = O(a^5), so halving a_R divides it by 32. Scheme B:
 * K(a1s) E(a1s <- a0) reproduces the unvaried E(a1 <- a0) to O(a^4) relative
 * (ratio 16), ns exact kernel. */
static void test_sv_orders(void **state) {
  static const double Ls[2] = {0.69314718055994531, -0.4};
  ekoc_complex g_ns[4];
  ekoc_cmat2 g_s[4];
  int set, nf, l, h, i;
  (void)state;
  for (set = 0; set < 2; ++set) {
    ref_gamma(set, g_ns, g_s);
    for (nf = 3; nf <= 6; ++nf)
      for (l = 0; l < 2; ++l) {
        double beta[4], dA_ns[2], dA_s[2], dB[2];
        ekoc_beta_coefficients(nf, beta);
        for (h = 0; h < 2; ++h) {
          double aR = 0.02 / (h ? 32.0 : 16.0), aF = rge_a(beta, aR, -Ls[l], 200), pR = aR, pF = aF;
          double a0 = 0.02 / (h ? 128.0 : 64.0), a1 = rge_a(beta, a0, 3.0, 400);
          double a1s = rge_a(beta, a0, 3.0 + Ls[l], 400);
          ekoc_complex x[4], sum_n = c_real(0.0), eT, eB;
          ekoc_cmat2 xs[4], sum_s = m2_zero();
          ekoc_kernel_cfg c = make_cfg(EKOC_METHOD_DECOMPOSE_EXACT, nf, a0, a1);
          for (i = 0; i < 4; ++i) {
            x[i] = g_ns[i];
            xs[i] = g_s[i];
          }
          ekoc_sv_exponentiated_ns(4, Ls[l], beta, x);
          ekoc_sv_exponentiated_singlet(4, Ls[l], beta, xs);
          for (i = 0; i < 4; ++i) {
            sum_n = c_add(sum_n, c_sub(c_scale(x[i], pR), c_scale(g_ns[i], pF)));
            sum_s = m2_add(sum_s, m2_sub(m2_scale(xs[i], pR), m2_scale(g_s[i], pF)));
            pR *= aR;
            pF *= aF;
          }
          dA_ns[h] = c_abs(sum_n);
          dA_s[h] = m2_maxabs(sum_s);
          eT = ekoc_kernel_ns(&c, g_ns);
          c.a1 = a1s;
          eB = c_mul(ekoc_sv_expanded_ns(4, Ls[l], a1s, beta, g_ns), ekoc_kernel_ns(&c, g_ns));
          dB[h] = c_abs(c_sub(c_div(eB, eT), c_real(1.0)));
        }
        assert_close(dA_ns[0] / dA_ns[1], 32.0, 0.06, 0);
        assert_close(dA_s[0] / dA_s[1], 32.0, 0.06, 0);
        assert_close(dB[0] / dB[1], 16.0, 0.06, 0);
      }
  }
}

/* ---- matching at O(a_s^3) ------------------------------------------------------ */

static void ome_tower(int dim, ekoc_complex *t) {
  const double *v = dim == 2 ? n3ref_ome_tower2 : n3ref_ome_tower3;
  int i;
  for (i = 0; i < 3 * dim * dim; ++i) t[i] = c_make(v[2 * i], v[2 * i + 1]);
}

static void test_matching_vs_eko(void **state) {
  size_t r;
  int i;
  (void)state;
  for (r = 0; r < N_ROWS(n3ref_ome_rows); ++r) {
    const n3ref_ome *row = &n3ref_ome_rows[r];
    ekoc_complex t[27], m[9];
    double beta[4];
    char what[64];
    int n = row->dim * row->dim;
    ekoc_beta_coefficients(row->nf, beta);
    ome_tower(row->dim, t);
    if (row->sv_log != 0.0) ekoc_matching_sv_shift(row->dim, 3, beta, row->sv_log, t);
    assert_true(ekoc_matching_build(row->dim, 3, t, row->a_s, row->method, m));
    snprintf(what, sizeof what, "ome row %zu (dim %d method %d)", r, row->dim, row->method);
    for (i = 0; i < n; ++i) {
      ekoc_complex want = c_make(row->m[2 * i], row->m[2 * i + 1]);
      if (!(c_abs(c_sub(m[i], want)) <= 1e-13 * c_abs(want) + 1e-15))
        fail_msg("%s entry %d: got (%.17g, %.17g) want (%.17g, %.17g)", what, i, m[i].re, m[i].im, want.re, want.im);
    }
  }
}

/* forward x backward-exact = 1; forward x backward-expanded = 1 + O(a^4)
 * (halving a divides the residual by 16); the O(a^3) sv shift vanishes at L = 0 */
static void test_matching_inverses(void **state) {
  int dim, h, i;
  (void)state;
  for (dim = 2; dim <= 3; ++dim) {
    ekoc_complex t[27], f[9], b[9], p[9], s[27];
    double res[2], beta[4];
    int n = dim * dim;
    ome_tower(dim, t);
    for (h = 0; h < 2; ++h) {
      double a = (h ? 0.5 : 1.0) * 2e-4;
      assert_true(ekoc_matching_build(dim, 3, t, a, EKOC_MATCHING_FORWARD, f));
      assert_true(ekoc_matching_build(dim, 3, t, a, EKOC_MATCHING_BACKWARD_EXACT, b));
      ekoc_cmat_mul(dim, f, b, p);
      for (i = 0; i < n; ++i) assert_true(c_abs(c_sub(p[i], c_real(i % (dim + 1) == 0 ? 1.0 : 0.0))) < 1e-13);
      assert_true(ekoc_matching_build(dim, 3, t, a, EKOC_MATCHING_BACKWARD_EXPANDED, b));
      ekoc_cmat_mul(dim, f, b, p);
      res[h] = 0.0;
      for (i = 0; i < n; ++i) res[h] = fmax(res[h], c_abs(c_sub(p[i], c_real(i % (dim + 1) == 0 ? 1.0 : 0.0))));
    }
    assert_close(res[0] / res[1], 16.0, 0.02, 0);
    ekoc_beta_coefficients(4, beta);
    for (i = 0; i < 3 * n; ++i) s[i] = t[i];
    ekoc_matching_sv_shift(dim, 3, beta, 0.0, s);
    for (i = 0; i < 3 * n; ++i) assert_true(s[i].re == t[i].re && s[i].im == t[i].im);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_integrals_vs_eko),
      cmocka_unit_test(test_integrals_quadrature),
      cmocka_unit_test(test_integrals_expanded_scaling),
      cmocka_unit_test(test_kernels_vs_eko),
      cmocka_unit_test(test_ns_exact_vs_ode),
      cmocka_unit_test(test_ns_truncation_scaling),
      cmocka_unit_test(test_singlet_exact_vs_ode),
      cmocka_unit_test(test_singlet_truncation_scaling),
      cmocka_unit_test(test_singlet_truncated_eigenbasis),
      cmocka_unit_test(test_order_bounds),
      cmocka_unit_test(test_sv_vs_eko),
      cmocka_unit_test(test_sv_orders),
      cmocka_unit_test(test_matching_vs_eko),
      cmocka_unit_test(test_matching_inverses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
