/* test_couplings_qed.c: the joint running of a_s and a_em (QED couplings;
 * src/evol/couplings.c and couplings_qed.c, docs/physics.md §15.2) against eko
 * 0.15.7 and a tight reference (tests/gen_qed_couplings_reference.py), plus
 * properties that need no reference: the beta coefficients, the m_tau split,
 * a_em's continuity at the quark thresholds, qed_order 0 and bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "ad/beta.h"
#include "ad/beta_qed.h"
#include "ekoc.h"
#include "evol/couplings.h"
#include "qed_couplings_reference.h"
#include "test_util.h"

#define FOUR_PI (4.0 * 3.14159265358979323846)
#define N_SETS (sizeof qedref_sets / sizeof qedref_sets[0])

/* ---- helpers ----------------------------------------------------------------- */

static ekoc_couplings *make(const ekoc_couplings_config *cfg) {
  ekoc_couplings *c = NULL;
  int rc = ekoc_couplings_new(cfg, &c);
  if (rc != EKOC_OK) fail_msg("ekoc_couplings_new: %s: %s", ekoc_status_str(rc), ekoc_last_error());
  return c;
}

static void both(const ekoc_couplings *c, double mu2, int nf, double a[2]) {
  a[0] = a[1] = NAN;
  int rc = ekoc_couplings_a(c, mu2, nf, &a[0], &a[1]);
  if (rc != EKOC_OK) fail_msg("a(%g, %d): %s: %s", mu2, nf, ekoc_status_str(rc), ekoc_last_error());
}

static ekoc_couplings_config config_of(const qedref_setup *s, int order, int qed_order, int mode, int em_running) {
  ekoc_couplings_config cfg;
  ekoc_couplings_config_default(&cfg);
  cfg.order = order;
  cfg.mode = mode;
  cfg.alphas_ref = s->alphas;
  cfg.mu2_ref = s->mu2_ref;
  cfg.nf_ref = s->nf_ref;
  for (int h = 0; h < 3; ++h) {
    cfg.masses2[h] = s->m2[h];
    cfg.thresholds_ratio2[h] = s->k2[h];
  }
  cfg.qed_order = qed_order;
  cfg.alphaem_ref = s->alphaem;
  cfg.em_running = em_running;
  return cfg;
}

/* NNPDF's setup (tests/gen_qed_couplings_reference.py) at the given orders */
static ekoc_couplings_config nnpdf(int order, int qed_order, int mode, int em_running) {
  return config_of(&qedref_setup_nnpdf, order, qed_order, mode, em_running);
}

/* ---- against eko and the tight reference ---------------------------------------- */

static void test_vs_reference(void **state) {
  (void)state;
  double worst_eko[2] = {0.0, 0.0}, worst_tight = 0.0;
  int n_nan = 0;
  for (size_t s = 0; s < N_SETS; ++s) {
    const qedref_set *set = &qedref_sets[s];
    ekoc_couplings_config cfg = config_of(set->setup, set->order, set->qed_order, set->mode, set->em_running);
    ekoc_couplings *c = make(&cfg);
    const int exact = set->mode == EKOC_COUPLING_EXACT;
    /* eko's exact solver is scipy Radau with rtol 1e-6 (atol 1e-6); its expanded
     * ones are the same closed formulas */
    const double rtol_eko = exact ? 2e-5 : 1e-13;
    for (size_t i = 0; i < set->n; ++i) {
      const qedref_point *p = &set->pts[i];
      double a[2], a_s_alone = NAN;
      if (p->eko_nan) { /* eko's NaN (expanded running a_em, long segment): an error here */
        a[0] = a[1] = 7.0;
        assert_int_equal(ekoc_couplings_a(c, p->mu2, p->nf, &a[0], &a[1]), EKOC_ERR_NUMERICAL);
        assert_true(a[0] == 7.0 && a[1] == 7.0);
        ++n_nan;
        continue;
      }
      both(c, p->mu2, p->nf, a);
      assert_int_equal(ekoc_couplings_a_s(c, p->mu2, p->nf, &a_s_alone), EKOC_OK);
      assert_true(a_s_alone == a[0]); /* a_s is the a_s component, bitwise */
      for (int k = 0; k < 2; ++k) {
        assert_close(a[k], p->eko[k], rtol_eko, 0.0);
        assert_close(a[k], p->tight[k], 1e-11, 0.0);
        worst_eko[exact] = fmax(worst_eko[exact], fabs(a[k] / p->eko[k] - 1.0));
        if (exact) worst_tight = fmax(worst_tight, fabs(a[k] / p->tight[k] - 1.0));
      }
      if (!set->em_running) assert_true(a[1] == cfg.alphaem_ref / 4.0 / EKOC_PI); /* fixed a_em */
    }
    ekoc_couplings_free(c);
  }
  print_message("vs eko: expanded %.2e, exact %.2e (Radau); exact vs DOP853 1e-13: %.2e; %d eko NaN points\n",
                worst_eko[0], worst_eko[1], worst_tight, n_nan);
}

/* ---- the beta coefficients --------------------------------------------------------- */

static void test_beta_coefficients(void **state) {
  (void)state;
  /* sum e_q^2 and sum e_q^4 of nf = 3..6 with nf/2 up-like quarks, by hand */
  static const double e2[4] = {6.0 / 9.0, 10.0 / 9.0, 11.0 / 9.0, 15.0 / 9.0};
  static const double e4[4] = {18.0 / 81.0, 34.0 / 81.0, 35.0 / 81.0, 51.0 / 81.0};
  for (int nf = 3; nf <= 6; ++nf) {
    const double s2 = e2[nf - 3], s4 = e4[nf - 3];
    assert_close(ekoc_beta_qcd_as2aem1(nf), -2.0 * s2, 1e-15, 0.0);
    assert_close(ekoc_beta_qed_aem2as1(nf), -16.0 * s2, 1e-15, 0.0);
    for (int nl = 2; nl <= 3; ++nl) {
      assert_close(ekoc_beta_qed_aem2(nf, nl), -4.0 / 3.0 * (nl + 3.0 * s2), 1e-15, 0.0);
      assert_close(ekoc_beta_qed_aem3(nf, nl), -4.0 * (nl + 3.0 * s4), 1e-15, 0.0);
    }
  }
  /* nf = 5, nl = 3: -22/9, -80/9, -464/27, -176/9 */
  assert_close(ekoc_beta_qcd_as2aem1(5), -22.0 / 9.0, 1e-15, 0.0);
  assert_close(ekoc_beta_qed_aem2(5, 3), -80.0 / 9.0, 1e-15, 0.0);
  assert_close(ekoc_beta_qed_aem3(5, 3), -464.0 / 27.0, 1e-15, 0.0);
  assert_close(ekoc_beta_qed_aem2as1(5), -176.0 / 9.0, 1e-15, 0.0);
}

/* ---- properties ----------------------------------------------------------------------- */

/* Exact, a_em running: on each side of m_tau^2 the logarithmic slopes follow
 * the RGE with n_l = 2 below and 3 above (central differences at +-1%), and
 * a_em is continuous through m_tau^2. */
static void test_tau_split(void **state) {
  (void)state;
  const double mtau2 = EKOC_MTAU * EKOC_MTAU;
  for (int qed_order = 1; qed_order <= 2; ++qed_order) {
    ekoc_couplings_config cfg = nnpdf(3, qed_order, EKOC_COUPLING_EXACT, 1);
    ekoc_couplings *c = make(&cfg);
    double beta[4];
    ekoc_beta_coefficients(4, beta);
    for (int side = 0; side < 2; ++side) {
      const int nl = side ? 3 : 2;
      const double mu2 = mtau2 * (side ? 1.2 : 0.8), h = 0.01;
      double lo[2], mid[2], hi[2];
      both(c, mu2 * exp(-h), 4, lo);
      both(c, mu2, 4, mid);
      both(c, mu2 * exp(h), 4, hi);
      const double as = mid[0], ae = mid[1];
      const double slope_em = (hi[1] - lo[1]) / (2.0 * h);
      const double want_em = -ae * ae *
                             (ekoc_beta_qed_aem2(4, nl) + (qed_order >= 2 ? ekoc_beta_qed_aem3(4, nl) * ae : 0.0) +
                              ekoc_beta_qed_aem2as1(4) * as);
      const double slope_s = (hi[0] - lo[0]) / (2.0 * h);
      const double want_s = -as * as * (beta[0] + as * (beta[1] + as * beta[2]) + ae * ekoc_beta_qcd_as2aem1(4));
      assert_close(slope_em, want_em, 1e-4, 0.0); /* O(h^2) differences */
      assert_close(slope_s, want_s, 1e-3, 0.0);
      /* the wrong n_l is far off: beta_qed(0,2) changes by 4/3 of ~ -6 */
      const double wrong = -ae * ae * ekoc_beta_qed_aem2(4, 5 - nl);
      assert_true(fabs(slope_em - wrong) > 0.1 * fabs(wrong));
    }
    double below[2], above[2];
    both(c, mtau2 * (1.0 - 1e-9), 4, below);
    both(c, mtau2 * (1.0 + 1e-9), 4, above);
    assert_close(above[1], below[1], 1e-8, 0.0);
    ekoc_couplings_free(c);
  }
}

/* a_em is continuous at every heavy-quark threshold (same value on both nf
 * there), a_s jumps by exactly the QCD decoupling factor. */
static void test_thresholds_match_a_s_only(void **state) {
  (void)state;
  for (int mode = 0; mode <= 1; ++mode) {
    ekoc_couplings_config cfg = nnpdf(3, 2, mode, 1);
    ekoc_couplings *c = make(&cfg);
    double walls[3];
    assert_int_equal(ekoc_couplings_matching_scales(c, walls), EKOC_OK);
    for (int h = 0; h < 3; ++h) {
      double lower[2], upper[2];
      both(c, walls[h], 3 + h, lower);
      both(c, walls[h], 4 + h, upper);
      const int up = 3 + h >= cfg.nf_ref; /* the walk from nf_ref = 5 crosses wall h upwards or downwards */
      if (up) {
        assert_true(upper[1] == lower[1]);
        assert_close(upper[0], lower[0] * ekoc_couplings_matching_factor(3, 1, 3 + h, lower[0], 0.0), 1e-15, 0.0);
      } else {
        assert_true(lower[1] == upper[1]);
        assert_close(lower[0], upper[0] * ekoc_couplings_matching_factor(3, 0, 3 + h, upper[0], 0.0), 1e-15, 0.0);
      }
      assert_true(upper[0] != lower[0]); /* NNLO decoupling is not continuous */
    }
    ekoc_couplings_free(c);
  }
}

/* qed_order 0: a_s is the pure-QCD one bitwise whatever em_running and
 * alphaem_ref, a_em is alphaem_ref/(4 pi); qed_order > 0 changes a_s. */
static void test_qed_order_zero(void **state) {
  (void)state;
  static const double mu2s[] = {1.0, 3.0, 10.0, 1e3, 1e5};
  for (int mode = 0; mode <= 1; ++mode)
    for (int order = 1; order <= 4; ++order) {
      ekoc_couplings_config pure = nnpdf(order, 0, mode, 0);
      ekoc_couplings_config qcd_only = pure;
      qcd_only.em_running = 1;
      qcd_only.alphaem_ref = 0.01;
      ekoc_couplings_config qed = pure;
      qed.qed_order = 1;
      ekoc_couplings *c0 = make(&pure), *c1 = make(&qcd_only), *c2 = make(&qed);
      for (size_t i = 0; i < sizeof mu2s / sizeof mu2s[0]; ++i) {
        double ref = NAN, a[2], b[2];
        assert_int_equal(ekoc_couplings_a_s(c0, mu2s[i], -1, &ref), EKOC_OK);
        both(c1, mu2s[i], -1, a);
        assert_true(a[0] == ref);
        assert_true(a[1] == 0.01 / 4.0 / EKOC_PI);
        both(c2, mu2s[i], -1, b);
        assert_true(fabs(b[0] / ref - 1.0) > 1e-6); /* the QED shift of beta_0 is seen */
      }
      ekoc_couplings_free(c0);
      ekoc_couplings_free(c1);
      ekoc_couplings_free(c2);
    }
}

/* Exact, fixed a_em, QCD LO, one segment (nf 5 from the Z to 1e3 GeV^2):
 * the closed form a0 / (1 + (beta_0 + a_em beta_qcd(2,1)) a0 L). */
static void test_fixed_alphaem_lo_closed_form(void **state) {
  (void)state;
  for (int qed_order = 1; qed_order <= 2; ++qed_order) {
    ekoc_couplings_config cfg = nnpdf(1, qed_order, EKOC_COUPLING_EXACT, 0);
    ekoc_couplings *c = make(&cfg);
    const double a0 = cfg.alphas_ref / FOUR_PI, ae = cfg.alphaem_ref / FOUR_PI, mu2 = 1e3;
    double beta[4];
    ekoc_beta_coefficients(5, beta);
    const double want = a0 / (1.0 + (beta[0] + ae * ekoc_beta_qcd_as2aem1(5)) * a0 * log(mu2 / cfg.mu2_ref));
    double a[2];
    both(c, mu2, -1, a);
    assert_close(a[0], want, 1e-14, 0.0);
    ekoc_couplings_free(c);
  }
}

/* Landau pole of a_s below 1 GeV^2 in every QED mode: EKOC_ERR_NUMERICAL,
 * outputs untouched. */
static void test_landau_pole(void **state) {
  (void)state;
  for (int mode = 0; mode <= 1; ++mode)
    for (int em = 0; em <= 1; ++em) {
      ekoc_couplings_config cfg = nnpdf(2, 2, mode, em);
      ekoc_couplings *c = make(&cfg);
      double a_s = 7.0, a_em = 7.0;
      assert_int_equal(ekoc_couplings_a(c, 0.01, 3, &a_s, &a_em), EKOC_ERR_NUMERICAL);
      assert_true(a_s == 7.0 && a_em == 7.0);
      assert_int_equal(ekoc_couplings_a_s(c, 0.01, 3, &a_s), EKOC_ERR_NUMERICAL);
      assert_true(a_s == 7.0);
      ekoc_couplings_free(c);
    }
}

/* ---- configuration and calls ------------------------------------------------------- */

static void expect_new_error(const ekoc_couplings_config *cfg, int want, const char *field) {
  ekoc_couplings *out = (ekoc_couplings *)(uintptr_t)0x1234;
  int rc = ekoc_couplings_new(cfg, &out);
  if (rc == EKOC_OK) ekoc_couplings_free(out);
  assert_int_equal(rc, want);
  assert_true(out == (ekoc_couplings *)(uintptr_t)0x1234);
  if (!strstr(ekoc_last_error(), field)) fail_msg("message '%s' does not name %s", ekoc_last_error(), field);
}

static void test_bad_config(void **state) {
  (void)state;
  ekoc_couplings_config good = nnpdf(3, 2, EKOC_COUPLING_EXACT, 1), cfg;
  static const int32_t bad_orders[] = {-1, 3, 100};
  for (size_t i = 0; i < sizeof bad_orders / sizeof bad_orders[0]; ++i) {
    cfg = good;
    cfg.qed_order = bad_orders[i];
    expect_new_error(&cfg, EKOC_ERR_INVALID_ORDER, "qed_order");
  }
  static const double bad_alpha[] = {0.0, -0.0078, NAN, INFINITY, -INFINITY, 4.0 * EKOC_PI, 20.0};
  for (size_t i = 0; i < sizeof bad_alpha / sizeof bad_alpha[0]; ++i)
    for (int qed_order = 0; qed_order <= 2; ++qed_order) { /* checked whatever qed_order, as eko does */
      cfg = good;
      cfg.qed_order = qed_order;
      cfg.alphaem_ref = bad_alpha[i];
      expect_new_error(&cfg, EKOC_ERR_INVALID_ARGUMENT, "alphaem_ref");
    }
  static const int32_t bad_flags[] = {-1, 2, 7};
  for (size_t i = 0; i < sizeof bad_flags / sizeof bad_flags[0]; ++i) {
    cfg = good;
    cfg.em_running = bad_flags[i];
    expect_new_error(&cfg, EKOC_ERR_INVALID_ARGUMENT, "em_running");
  }
  /* the edges that are fine */
  for (int qed_order = 0; qed_order <= 2; ++qed_order)
    for (int em = 0; em <= 1; ++em) {
      cfg = good;
      cfg.qed_order = qed_order;
      cfg.em_running = em;
      cfg.alphaem_ref = 1e-6;
      ekoc_couplings_free(make(&cfg));
    }
}

static void test_bad_calls(void **state) {
  (void)state;
  ekoc_couplings_config cfg = nnpdf(3, 2, EKOC_COUPLING_EXACT, 1);
  ekoc_couplings *c = make(&cfg);
  double a_s = 7.0, a_em = 7.0;
  assert_int_equal(ekoc_couplings_a(NULL, 10.0, -1, &a_s, &a_em), EKOC_ERR_NULL_POINTER);
  assert_int_equal(ekoc_couplings_a(c, 10.0, -1, NULL, NULL), EKOC_ERR_NULL_POINTER);
  static const double bad_mu2[] = {0.0, -1.0, NAN, INFINITY};
  for (size_t i = 0; i < sizeof bad_mu2 / sizeof bad_mu2[0]; ++i) {
    assert_int_equal(ekoc_couplings_a(c, bad_mu2[i], -1, &a_s, &a_em), EKOC_ERR_INVALID_SCALE);
    assert_non_null(strstr(ekoc_last_error(), "ekoc_couplings_a: mu2"));
  }
  static const int32_t bad_nf[] = {0, 2, 7};
  for (size_t i = 0; i < sizeof bad_nf / sizeof bad_nf[0]; ++i) {
    assert_int_equal(ekoc_couplings_a(c, 10.0, bad_nf[i], &a_s, &a_em), EKOC_ERR_INVALID_NF);
    assert_non_null(strstr(ekoc_last_error(), "nf_to"));
  }
  assert_true(a_s == 7.0 && a_em == 7.0);
  /* either output alone */
  double both_out[2], only_s = NAN, only_em = NAN;
  both(c, 10.0, -1, both_out);
  assert_int_equal(ekoc_couplings_a(c, 10.0, -1, &only_s, NULL), EKOC_OK);
  assert_int_equal(ekoc_couplings_a(c, 10.0, -1, NULL, &only_em), EKOC_OK);
  assert_true(only_s == both_out[0] && only_em == both_out[1]);
  ekoc_couplings_free(c);
  /* an unreachable nf_to (FFNS-like: bottom threshold at infinity) */
  cfg.thresholds_ratio2[1] = INFINITY;
  cfg.thresholds_ratio2[2] = INFINITY;
  cfg.nf_ref = 4;
  c = make(&cfg);
  assert_int_equal(ekoc_couplings_a(c, 1e4, 5, &a_s, &a_em), EKOC_ERR_INVALID_NF);
  ekoc_couplings_free(c);
}

static void test_defaults(void **state) {
  (void)state;
  ekoc_couplings_config cfg;
  memset(&cfg, 0xff, sizeof cfg);
  ekoc_couplings_config_default(&cfg);
  assert_int_equal(cfg.qed_order, 0);
  assert_int_equal(cfg.em_running, 0);
  assert_true(cfg.alphaem_ref == 0.007496252);
  /* appended after the QCD fields (ABI: append only) */
  assert_true(offsetof(ekoc_couplings_config, qed_order) > offsetof(ekoc_couplings_config, max_nf));
  assert_true(offsetof(ekoc_couplings_config, em_running) > offsetof(ekoc_couplings_config, alphaem_ref));
  assert_int_equal(ekoc_couplings_config_sizeof(), sizeof(ekoc_couplings_config));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vs_reference),
      cmocka_unit_test(test_beta_coefficients),
      cmocka_unit_test(test_tau_split),
      cmocka_unit_test(test_thresholds_match_a_s_only),
      cmocka_unit_test(test_qed_order_zero),
      cmocka_unit_test(test_fixed_alphaem_lo_closed_form),
      cmocka_unit_test(test_landau_pole),
      cmocka_unit_test(test_bad_config),
      cmocka_unit_test(test_bad_calls),
      cmocka_unit_test(test_defaults),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
