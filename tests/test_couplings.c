/* test_couplings.c: the strong coupling a_s with thresholds (src/evol/couplings.c,
 * docs/physics.md §2 and §11.1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "ekoc.h"
#include "evol/couplings.h"
#include "test_util.h"

#define FOUR_PI (4.0 * 3.14159265358979323846)

/* ---- helpers ----------------------------------------------------------------- */

static ekoc_couplings *make(const ekoc_couplings_config *cfg) {
  ekoc_couplings *c = NULL;
  int rc = ekoc_couplings_new(cfg, &c);
  if (rc != EKOC_OK) fail_msg("ekoc_couplings_new: %s: %s", ekoc_status_str(rc), ekoc_last_error());
  return c;
}

static double a_s(const ekoc_couplings *c, double mu2, int nf) {
  double a = NAN;
  int rc = ekoc_couplings_a_s(c, mu2, nf, &a);
  if (rc != EKOC_OK) fail_msg("a_s(%g, %d): %s: %s", mu2, nf, ekoc_status_str(rc), ekoc_last_error());
  return a;
}

/* The LHA setups of docs/physics.md §2.4: VFNS (nf_ref 3, k_h = 1) or FFNS
 * (nf_ref 4, k_c = 0, k_b = k_t = inf); thresholds shifted by rho. */
static ekoc_couplings_config lha(int order, int vfns, double rho) {
  ekoc_couplings_config cfg;
  ekoc_couplings_config_default(&cfg);
  cfg.order = order;
  cfg.mode = EKOC_COUPLING_EXACT;
  cfg.threshold_shift = rho;
  if (!vfns) {
    cfg.nf_ref = 4;
    cfg.thresholds_ratio2[0] = 0.0;
    cfg.thresholds_ratio2[1] = INFINITY;
    cfg.thresholds_ratio2[2] = INFINITY;
  }
  return cfg;
}

/* alpha_s = 4 pi a_s printed to 10 digits: half a unit of the last digit */
#define TEN_DIGITS(x) (0.5e-10 * pow(10.0, floor(log10(fabs(x))) + 1.0))

/* ---- docs/physics.md §11.1 --------------------------------------------------------- */

static void test_phys_ffns(void **state) {
  (void)state;
  /* order, rho, alpha_s(2 rho), alpha_s(1e4 rho) */
  static const double T[][4] = {
      {1, 1.0, 0.35, 0.1175739968},         {1, 2.0, 0.3014953848, 0.1115456494},
      {1, 0.5, 0.4171036946, 0.1242911595}, {2, 1.0, 0.35, 0.1109017521},
      {2, 2.0, 0.2950637299, 0.1052522068}, {2, 0.5, 0.4329011525, 0.1172106686},
      {3, 1.0, 0.35, 0.1101409557},         {3, 2.0, 0.2938140933, 0.1045506408},
      {3, 0.5, 0.4370725671, 0.1163834002},
  };
  for (size_t i = 0; i < sizeof T / sizeof T[0]; ++i) {
    ekoc_couplings_config cfg = lha((int)T[i][0], 0, T[i][1]);
    ekoc_couplings *c = make(&cfg);
    double rho = T[i][1];
    assert_close(FOUR_PI * a_s(c, 2.0 * rho, -1), T[i][2], 0.0, TEN_DIGITS(T[i][2]));
    assert_close(FOUR_PI * a_s(c, 1e4 * rho, -1), T[i][3], 0.0, TEN_DIGITS(T[i][3]));
    assert_close(FOUR_PI * a_s(c, 1e4 * rho, 4), T[i][3], 0.0, TEN_DIGITS(T[i][3]));
    ekoc_couplings_free(c);
  }
}

static void test_phys_vfns(void **state) {
  (void)state;
  /* order, rho, a4(2 rho), a4(20.25 rho), a5(20.25 rho), a5(1e4 rho), a5(1e4), all as alpha_s */
  static const double T[][7] = {
      {1, 1.0, 0.35, 0.2276695988, 0.2276695988, 0.12230552, 0.12230552},
      {2, 1.0, 0.35, 0.217506606, 0.217506606, 0.1160315053, 0.1160315053},
      {2, 2.0, 0.2935488787, 0.1952949727, 0.1966974843, 0.1100371974, 0.1156630185},
      {2, 0.5, 0.4371270543, 0.2459823294, 0.2437573184, 0.1227991673, 0.1164611154},
      {3, 1.0, 0.3512670425, 0.2163272799, 0.2166264519, 0.1156047287, 0.1156047287},
      {3, 2.0, 0.2937133485, 0.1943626938, 0.1963869904, 0.1097987888, 0.1154097466},
      {3, 0.5, 0.4418838871, 0.2444238734, 0.2418663565, 0.1220959668, 0.1158179877},
  };
  for (size_t i = 0; i < sizeof T / sizeof T[0]; ++i) {
    ekoc_couplings_config cfg = lha((int)T[i][0], 1, T[i][1]);
    ekoc_couplings *c = make(&cfg);
    double rho = T[i][1];
    const double mu2[5] = {2.0 * rho, 20.25 * rho, 20.25 * rho, 1e4 * rho, 1e4};
    const int nf[5] = {4, 4, 5, 5, 5};
    for (int k = 0; k < 5; ++k) {
      double want = T[i][2 + k];
      /* the printed LO value 0.12230552 has 8 digits */
      double atol = (want == 0.12230552) ? 0.5e-8 : TEN_DIGITS(want);
      assert_close(FOUR_PI * a_s(c, mu2[k], nf[k]), want, 0.0, atol);
    }
    ekoc_couplings_free(c);
  }
  /* the two NNLO lower-scheme values at the charm point: alpha_s^(3)(2 rho) */
  ekoc_couplings_config cfg = lha(3, 1, 2.0);
  ekoc_couplings *c = make(&cfg);
  assert_close(FOUR_PI * a_s(c, 4.0, 3), 0.2885724182, 0.0, TEN_DIGITS(0.2885724182));
  ekoc_couplings_free(c);
  cfg = lha(3, 1, 0.5);
  c = make(&cfg);
  assert_close(FOUR_PI * a_s(c, 1.0, 3), 0.4516607323, 0.0, TEN_DIGITS(0.4516607323));
  ekoc_couplings_free(c);
}

/* The values printed in the LHA papers' headers (docs/physics.md §2.4). */
static void test_lha_headers(void **state) {
  (void)state;
  /* order, vfns, rho, alpha_s(1e4) to 6 digits */
  static const double T[][4] = {
      {1, 0, 1.0, 0.117574}, {1, 1, 1.0, 0.122306}, {3, 0, 1.0, 0.110141},
      {3, 1, 1.0, 0.115605}, {3, 1, 2.0, 0.115410}, {3, 1, 0.5, 0.115818},
  };
  for (size_t i = 0; i < sizeof T / sizeof T[0]; ++i) {
    ekoc_couplings_config cfg = lha((int)T[i][0], (int)T[i][1], T[i][2]);
    ekoc_couplings *c = make(&cfg);
    assert_close(FOUR_PI * a_s(c, 1e4, -1), T[i][3], 0.0, 0.5e-6);
    ekoc_couplings_free(c);
  }
}

/* ---- identities ------------------------------------------------------------------ */

static ekoc_couplings_config mz_config(int order, int mode) {
  ekoc_couplings_config cfg;
  ekoc_couplings_config_default(&cfg);
  cfg.order = order;
  cfg.mode = mode;
  cfg.alphas_ref = 0.118;
  cfg.mu2_ref = 91.1876 * 91.1876;
  cfg.nf_ref = 5;
  cfg.masses2[0] = 1.51 * 1.51;
  cfg.masses2[1] = 4.92 * 4.92;
  cfg.masses2[2] = 172.5 * 172.5;
  return cfg;
}

/* a_s(mu2_ref) is the input, in every setup. */
static void test_reference_point(void **state) {
  (void)state;
  for (int order = 1; order <= 3; ++order)
    for (int mode = 0; mode <= 1; ++mode) {
      ekoc_couplings_config cfg = mz_config(order, mode);
      ekoc_couplings *c = make(&cfg);
      assert_close(a_s(c, cfg.mu2_ref, 5), 0.118 / FOUR_PI, 1e-15, 0.0);
      assert_close(a_s(c, cfg.mu2_ref, -1), 0.118 / FOUR_PI, 1e-15, 0.0);
      ekoc_couplings_free(c);
      cfg = lha(order, 1, 1.0);
      cfg.mode = mode;
      c = make(&cfg);
      assert_close(a_s(c, 2.0, 3), 0.35 / FOUR_PI, 1e-15, 0.0);
      ekoc_couplings_free(c);
    }
}

/* LO and NLO with L_h = 0: a_s is continuous at every threshold, up and down. */
static void test_continuity(void **state) {
  (void)state;
  for (int order = 1; order <= 2; ++order)
    for (int mode = 0; mode <= 1; ++mode) {
      ekoc_couplings_config cfg = mz_config(order, mode);
      ekoc_couplings *c = make(&cfg); /* downward crossings of b and c, upward of t */
      cfg.nf_ref = 3;
      cfg.mu2_ref = 1.0;
      cfg.alphas_ref = 0.45;
      ekoc_couplings *u = make(&cfg); /* upward crossings */
      for (int h = 0; h < 3; ++h) {
        double m2 = cfg.masses2[h];
        assert_close(a_s(c, m2, 4 + h), a_s(c, m2, 3 + h), 1e-15, 0.0);
        assert_close(a_s(u, m2, 4 + h), a_s(u, m2, 3 + h), 1e-15, 0.0);
      }
      ekoc_couplings_free(c);
      ekoc_couplings_free(u);
    }
}

/* NNLO with L_h = 0: a^(nf+1) = a^(nf) (1 + 14/3 a^(nf)^2) upward ([CKS]
 * 7/24 (alpha_s/pi)^2); downward a^(nf) = a^(nf+1) (1 - 14/3 a^(nf+1)^2), so
 * that re-applying the upward formula misses by -3 (14/3)^2 a^5 (1 - 14/3 a^2). */
static void test_nnlo_jump(void **state) {
  (void)state;
  const double k = 14.0 / 3.0;
  for (int mode = 0; mode <= 1; ++mode) {
    ekoc_couplings_config cfg = lha(3, 1, 1.0);
    cfg.mode = mode;
    ekoc_couplings *c = make(&cfg);
    double a3 = a_s(c, 2.0, 3), a4 = a_s(c, 2.0, 4);
    assert_close(a3, 0.35 / FOUR_PI, 1e-15, 0.0);
    assert_close(a4, a3 * (1.0 + k * a3 * a3), 1e-15, 0.0);
    a4 = a_s(c, 20.25, 4);
    assert_close(a_s(c, 20.25, 5), a4 * (1.0 + k * a4 * a4), 1e-15, 0.0);
    ekoc_couplings_free(c);

    cfg = mz_config(3, mode);
    c = make(&cfg);
    double mb2 = cfg.masses2[1];
    double a5 = a_s(c, mb2, 5);
    a4 = a_s(c, mb2, 4);
    assert_close(a4, a5 * (1.0 - k * a5 * a5), 1e-15, 0.0);
    double miss = a4 * (1.0 + k * a4 * a4) - a5;
    assert_close(miss, -3.0 * k * k * pow(a5, 5), 5e-3, 0.0);
    ekoc_couplings_free(c);
  }
}

/* Up then down across one threshold with L_h = ln 2: with the decoupling
 * g(a) = a (1 + c1 a + c2 a^2) and its truncated inverse f (c1 = 2/3 L,
 * c2 = 14/3 + 38/3 L + 4/9 L^2), f(g(a)) = a at LO, a - 2 c1^2 a^3 - c1^3 a^4
 * at NLO (exactly) and a + 5 c1 (c1^2 - c2) a^4 + O(a^5) at NNLO. */
static void test_round_trip_matching(void **state) {
  (void)state;
  const double L = log(2.0);
  const double c1 = 2.0 / 3.0 * L, c2 = 14.0 / 3.0 + 38.0 / 3.0 * L + 4.0 / 9.0 * L * L;
  for (int order = 1; order <= 3; ++order)
    for (int mode = 0; mode <= 1; ++mode) {
      const double alphas = 0.0125, a = alphas / FOUR_PI; /* a ~ 1e-3: O(a^5) is ~2% of the a^4 term */
      ekoc_couplings_config cfg = lha(order, 1, 1.0);
      cfg.mode = mode;
      cfg.thresholds_ratio2[0] = 2.0; /* charm matching at 4 = mu2_ref */
      cfg.mu2_ref = 4.0;
      cfg.alphas_ref = alphas;
      ekoc_couplings *up = make(&cfg);
      double g = a_s(up, 4.0, 4);
      cfg.nf_ref = 4;
      cfg.alphas_ref = FOUR_PI * g;
      ekoc_couplings *down = make(&cfg);
      double fg = a_s(down, 4.0, 3);
      if (order == 1) {
        assert_close(g, a, 1e-15, 0.0);
        assert_close(fg, a, 1e-15, 0.0);
      } else if (order == 2) {
        assert_close(g, a * (1.0 + c1 * a), 1e-15, 0.0);
        assert_close(fg, a - 2.0 * c1 * c1 * pow(a, 3) - pow(c1, 3) * pow(a, 4), 1e-14, 0.0);
      } else {
        assert_close(g, a * (1.0 + c1 * a + c2 * a * a), 1e-15, 0.0);
        assert_close((fg - a) / pow(a, 4), 5.0 * c1 * (c1 * c1 - c2), 0.03, 0.0);
      }
      ekoc_couplings_free(up);
      ekoc_couplings_free(down);
    }
}

/* Exact mode: the running is a flow, so running up and back down returns the
 * start (up to the decoupling, which is the identity at LO and NLO with
 * L_h = 0), and two consecutive runs equal one. */
static void test_round_trip_running(void **state) {
  (void)state;
  for (int order = 1; order <= 3; ++order) {
    ekoc_couplings_config cfg = mz_config(order, EKOC_COUPLING_EXACT);
    cfg.mu2_ref = 1.0;
    cfg.nf_ref = 3;
    cfg.alphas_ref = 0.4;
    ekoc_couplings *up = make(&cfg);
    double a5 = a_s(up, 1e4, 5);
    cfg.mu2_ref = 1e4;
    cfg.nf_ref = 5;
    cfg.alphas_ref = FOUR_PI * a5;
    ekoc_couplings *down = make(&cfg);
    double back = a_s(down, 1.0, 3);
    if (order < 3) assert_close(back, 0.4 / FOUR_PI, 1e-13, 0.0);
    else assert_close(back, 0.4 / FOUR_PI, 1e-3, 0.0); /* O(a^4) from two NNLO decouplings */
    ekoc_couplings_free(up);
    ekoc_couplings_free(down);

    double x, y, z, w;
    assert_int_equal(ekoc_couplings_run(order, EKOC_COUPLING_EXACT, 4, 0.03, 2.0, 50.0, &x), EKOC_OK);
    assert_int_equal(ekoc_couplings_run(order, EKOC_COUPLING_EXACT, 4, x, 50.0, 1e5, &y), EKOC_OK);
    assert_int_equal(ekoc_couplings_run(order, EKOC_COUPLING_EXACT, 4, 0.03, 2.0, 1e5, &z), EKOC_OK);
    assert_close(y, z, 1e-13, 0.0);
    assert_int_equal(ekoc_couplings_run(order, EKOC_COUPLING_EXACT, 4, z, 1e5, 2.0, &w), EKOC_OK);
    assert_close(w, 0.03, 1e-13, 0.0);
  }
}

/* Exact LO is 1/a = 1/a0 + beta0 ln(mu2/mu2_0); the expanded LO is the same. */
static void test_lo_closed_form(void **state) {
  (void)state;
  for (int nf = 3; nf <= 6; ++nf)
    for (int mode = 0; mode <= 1; ++mode) {
      double beta0 = 11.0 - 2.0 / 3.0 * nf, a = 0;
      assert_int_equal(ekoc_couplings_run(1, mode, nf, 0.02, 3.0, 7e3, &a), EKOC_OK);
      assert_close(a, 1.0 / (1.0 / 0.02 + beta0 * log(7e3 / 3.0)), 1e-14, 0.0);
    }
}

/* The exact NLO solution solves the implicit equation (docs/physics.md §2.2)
 * t = 1/a - 1/a0 + b1 ln[(a (1 + b1 a0)) / (a0 (1 + b1 a))], t = beta0 ln(mu2/mu2_0). */
static void test_nlo_implicit(void **state) {
  (void)state;
  for (int nf = 3; nf <= 6; ++nf) {
    double beta0 = 11.0 - 2.0 / 3.0 * nf, beta1 = 102.0 - 38.0 / 3.0 * nf, b1 = beta1 / beta0;
    const double mu2[] = {0.7, 5.0, 91.0, 1e6};
    for (int i = 0; i < 4; ++i) {
      double a0 = 0.025, a = 0;
      assert_int_equal(ekoc_couplings_run(2, EKOC_COUPLING_EXACT, nf, a0, 10.0, mu2[i], &a), EKOC_OK);
      double t = 1.0 / a - 1.0 / a0 + b1 * log(a * (1.0 + b1 * a0) / (a0 * (1.0 + b1 * a)));
      assert_close(t, beta0 * log(mu2[i] / 10.0), 1e-12, 1e-12);
    }
  }
}

/* eko's nf_default: the matching scale itself belongs to the upper nf. */
static void test_nf_at(void **state) {
  (void)state;
  ekoc_couplings_config cfg = lha(3, 1, 1.0);
  ekoc_couplings *c = make(&cfg);
  const double mu2[] = {0.5, 1.999999, 2.0, 20.2499, 20.25, 1e4, 30625.0, 1e6};
  const int want[] = {3, 3, 4, 4, 5, 5, 6, 6};
  for (int i = 0; i < 8; ++i) {
    int32_t nf = -7;
    assert_int_equal(ekoc_couplings_nf_at(c, mu2[i], &nf), EKOC_OK);
    assert_int_equal(nf, want[i]);
  }
  ekoc_couplings_free(c);
  cfg = lha(3, 1, 2.0); /* thresholds at 4, 40.5, 61250 */
  c = make(&cfg);
  const double mu2b[] = {3.9, 4.0, 40.0, 40.5, 1e5};
  const int wantb[] = {3, 4, 4, 5, 6};
  for (int i = 0; i < 5; ++i) {
    int32_t nf = -7;
    assert_int_equal(ekoc_couplings_nf_at(c, mu2b[i], &nf), EKOC_OK);
    assert_int_equal(nf, wantb[i]);
  }
  double thr[3];
  assert_int_equal(ekoc_couplings_matching_scales(c, thr), EKOC_OK);
  assert_close(thr[0], 4.0, 1e-15, 0.0);
  assert_close(thr[1], 40.5, 1e-15, 0.0);
  assert_close(thr[2], 61250.0, 1e-15, 0.0);
  ekoc_couplings_free(c);
  cfg = lha(3, 0, 1.0); /* FFNS: 4 flavours everywhere */
  c = make(&cfg);
  for (int i = 0; i < 8; ++i) {
    int32_t nf = -7;
    assert_int_equal(ekoc_couplings_nf_at(c, mu2[i], &nf), EKOC_OK);
    assert_int_equal(nf, 4);
  }
  ekoc_couplings_free(c);
}

/* max_nf = 5: the top threshold is never crossed. */
static void test_max_nf(void **state) {
  (void)state;
  ekoc_couplings_config cfg = lha(3, 1, 1.0);
  ekoc_couplings *c6 = make(&cfg);
  cfg.max_nf = 5;
  ekoc_couplings *c5 = make(&cfg);
  int32_t nf = 0;
  assert_int_equal(ekoc_couplings_nf_at(c5, 1e6, &nf), EKOC_OK);
  assert_int_equal(nf, 5);
  assert_close(a_s(c5, 1e6, -1), a_s(c6, 1e6, 5), 1e-15, 0.0);
  assert_true(a_s(c6, 1e6, 6) != a_s(c6, 1e6, 5));
  double thr[3];
  assert_int_equal(ekoc_couplings_matching_scales(c5, thr), EKOC_OK);
  assert_true(isinf(thr[2]));
  double a = -1.0;
  assert_int_equal(ekoc_couplings_a_s(c5, 1e6, 6, &a), EKOC_ERR_INVALID_NF);
  assert_true(a == -1.0);
  ekoc_couplings_free(c5);
  ekoc_couplings_free(c6);
}

/* The walls' entries made at creation (each nf's segment start) leave the
 * thread's error message as the caller left it, even where an nf cannot be
 * reached (FFNS: the walls at infinity); asking for that nf still fails,
 * naming it, and the reachable nf's a_s is the same walked from the
 * reference with the same walls (a VFNS couplings whose reference is in
 * nf = 4 reaches nf = 5 through its wall). */
static void test_entries_keep_the_error_message(void **state) {
  (void)state;
  ekoc_couplings_config cfg = lha(3, 0, 1.0);
  ekoc_couplings *c;
  double a = -1.0;
  assert_int_equal(ekoc_couplings_new(NULL, &c), EKOC_ERR_NULL_POINTER);
  char before[256];
  snprintf(before, sizeof before, "%s", ekoc_last_error());
  assert_true(before[0] != '\0');
  assert_int_equal(ekoc_couplings_new(&cfg, &c), EKOC_OK);
  assert_string_equal(ekoc_last_error(), before);
  assert_int_equal(ekoc_couplings_a_s(c, 1e4, 5, &a), EKOC_ERR_INVALID_NF);
  assert_non_null(strstr(ekoc_last_error(), "unreachable"));
  assert_true(a == -1.0);
  assert_int_equal(ekoc_couplings_a_s(c, 1e4, 4, &a), EKOC_OK);
  assert_true(a > 0.0 && isfinite(a));
  ekoc_couplings_free(c);
}

/* eko does not run a segment whose ends are np.isclose (rtol 1e-5, atol
 * 1e-8) but still matches; values from eko 0.15.7, NNLO expanded LHA VFNS
 * (Couplings.a_s). */
static void test_eko_short_segment(void **state) {
  (void)state;
  ekoc_couplings_config cfg = lha(3, 1, 1.0);
  cfg.mode = EKOC_COUPLING_EXPANDED;
  ekoc_couplings *c = make(&cfg);
  assert_true(a_s(c, 2.0 * (1 + 5e-6), 3) == 0.35 / 4.0 / 3.14159265358979323846);
  assert_close(a_s(c, 2.0 * (1 + 5e-5), 3), 0.027851677465120787, 1e-14, 0.0);
  assert_close(a_s(c, 20.25 * (1 + 5e-6), 4), 0.017195516974671157, 1e-14, 0.0);
  assert_close(a_s(c, 20.25, 4), 0.017195530818906755, 1e-14, 0.0);
  assert_close(a_s(c, 20.25 * (1 + 5e-6), 5), 0.01721925840410716, 1e-14, 0.0);
  assert_true(a_s(c, 20.25 * (1 + 5e-6), 5) == a_s(c, 20.25, 5));
  ekoc_couplings_free(c);
}

/* ---- eko 0.15.7 and 30-digit mpmath (perf/gen_couplings_reference.py) -------- */

typedef struct ref_config {
  int order, mode;
  double alphas, mu2_ref;
  int nf_ref;
  double m2[3], k2[3], shift;
} ref_config;

typedef struct ref_point {
  double mu2;
  int nf;       /* -1: natural */
  double eko;   /* eko.couplings.Couplings(...).a_s(mu2, nf) */
  double exact; /* the same equations in 30-digit mpmath */
} ref_point;

/* BEGIN generated by perf/gen_couplings_reference.py */
/* lha_vfns_nnlo_exact: order 3, exact, alphas(1.4142135623730951^2, nf=3) = 0.35, masses [1.4142135623730951, 4.5, 175.0], k^2 [1.0, 1.0, 1.0], shift 1.0 */
static const ref_config cfg_lha_vfns_nnlo_exact = {3, EKOC_COUPLING_EXACT, 0.35, 2.0000000000000004, 3, {2.0000000000000004, 20.25, 30625.0}, {1.0, 1.0, 1.0}, 1.0};
static const ref_point pts_lha_vfns_nnlo_exact[] = {
    {1.0, -1, 0.03594201917391864, 0.035942019074106144648},
    {1.0, 4, 0.03494689636196747, 0.034946897155234846699},
    {2.5, -1, 0.02630805393863556, 0.026308053939182678114},
    {2.5, 3, 0.026041058976728173, 0.026041058978432680836},
    {5.0, 5, 0.021668973062239662, 0.021668975654120829105},
    {10.0, -1, 0.019435594615691873, 0.019435595424727358005},
    {20.0, -1, 0.017249224475142773, 0.01724922574071621683},
    {30.0, 4, 0.016195293558211445, 0.016195295238819802459},
    {100.0, -1, 0.014028915742242389, 0.014028916756301732816},
    {100.0, 3, 0.013048316823617989, 0.013048318267628124612},
    {1000.0, 6, 0.010770174135214007, 0.010770176731239159522},
    {8317.44, -1, 0.009326625438424446, 0.0093266265701531088182},
    {10000.0, -1, 0.009199530908393547, 0.0091995320094327805687},
    {10000.0, 4, 0.008773444807518311, 0.0087734457122753173751},
    {100000.0, -1, 0.007925559844270942, 0.0079255608426918908295},
};

/* lha_vfns_nlo_expanded_rho2: order 2, expanded, alphas(1.4142135623730951^2, nf=3) = 0.35, masses [1.4142135623730951, 4.5, 175.0], k^2 [1.0, 1.0, 1.0], shift 2.0 */
static const ref_config cfg_lha_vfns_nlo_expanded_rho2 = {2, EKOC_COUPLING_EXPANDED, 0.35, 2.0000000000000004, 3, {2.0000000000000004, 20.25, 30625.0}, {1.0, 1.0, 1.0}, 2.0};
static const ref_point pts_lha_vfns_nlo_expanded_rho2[] = {
    {1.0, -1, 0.03525129521168341, 0.035251295211683397575},
    {1.0, 4, 0.03391998790595624, 0.033919987905956231696},
    {2.5, -1, 0.026107455478916446, 0.02610745547891644788},
    {2.5, 3, 0.026107455478916446, 0.02610745547891644788},
    {5.0, 5, 0.02145104104995358, 0.021451041049953566478},
    {10.0, -1, 0.019409071951197197, 0.01940907195119719544},
    {20.0, -1, 0.017242370542692488, 0.017242370542692488053},
    {30.0, 4, 0.01619296228401317, 0.016192962284013168382},
    {100.0, -1, 0.013982625435670842, 0.01398262543567083698},
    {100.0, 3, 0.01310127986937164, 0.013101279869371639856},
    {1000.0, 6, 0.010728419217255756, 0.010728419217255757566},
    {8317.44, -1, 0.009307851507712383, 0.0093078515077123809518},
    {10000.0, -1, 0.009181170841180222, 0.0091811708411802198311},
    {10000.0, 4, 0.008766534102620535, 0.0087665341026205354518},
    {100000.0, -1, 0.00790328899350234, 0.0079032889935023420093},
};

/* lha_ffns_nnlo_exact: order 3, exact, alphas(1.4142135623730951^2, nf=4) = 0.35, masses [1.4142135623730951, 4.5, 175.0], k^2 [0.0, inf, inf], shift 1.0 */
static const ref_config cfg_lha_ffns_nnlo_exact = {3, EKOC_COUPLING_EXACT, 0.35, 2.0000000000000004, 4, {2.0000000000000004, 20.25, 30625.0}, {0.0, INFINITY, INFINITY}, 1.0};
static const ref_point pts_lha_ffns_nnlo_exact[] = {
    {1.0, -1, 0.034781129012308586, 0.034781129772776287222},
    {1.0, 4, 0.034781129012308586, 0.034781129772776287222},
    {2.5, -1, 0.026219785505412364, 0.02621978550593689109},
    /* (2.5, 3): not reachable (threshold at 0 or inf) */
    /* (5.0, 5): not reachable (threshold at 0 or inf) */
    {10.0, -1, 0.01938968945470782, 0.019389690265215124274},
    {20.0, -1, 0.017213606657862243, 0.017213607862381089087},
    {30.0, 4, 0.016164120368088442, 0.016164122059311207201},
    {100.0, -1, 0.01371256862599995, 0.013712569993665392261},
    /* (100.0, 3): not reachable (threshold at 0 or inf) */
    /* (1000.0, 6): not reachable (threshold at 0 or inf) */
    {8317.44, -1, 0.008891341447626044, 0.0088913423067686897551},
    {10000.0, -1, 0.008764737851671745, 0.0087647387650816147076},
    {10000.0, 4, 0.008764737851671745, 0.0087647387650816147076},
    {100000.0, -1, 0.007446209213302926, 0.0074462098981615105148},
};

/* mz_nnlo_expanded: order 3, expanded, alphas(91.1876^2, nf=5) = 0.118, masses [1.51, 4.92, 172.5], k^2 [1.0, 4.0, 0.25], shift 1.0 */
static const ref_config cfg_mz_nnlo_expanded = {3, EKOC_COUPLING_EXPANDED, 0.118, 8315.178393760001, 5, {2.2801, 24.2064, 29756.25}, {1.0, 4.0, 0.25}, 1.0};
static const ref_point pts_mz_nnlo_expanded[] = {
    {1.0, -1, 0.03726865502240781, 0.037268655022407800767},
    {1.0, 4, 0.03567640644650961, 0.035676406446509601537},
    {2.5, -1, 0.0269322278957478, 0.026932227895747788337},
    {2.5, 3, 0.026745844064704694, 0.02674584406470469321},
    {5.0, 5, 0.021987555789487613, 0.021987555789487603608},
    {10.0, -1, 0.019814800027006606, 0.019814800027006607073},
    {20.0, -1, 0.017549296887958345, 0.017549296887958343449},
    {30.0, 4, 0.01645927610312824, 0.016459276103128235806},
    {100.0, -1, 0.014174122540085425, 0.014174122540085421464},
    {100.0, 3, 0.01317382782756666, 0.013173827827566660172},
    {1000.0, 6, 0.010860065116274815, 0.010860065116274813521},
    {8317.44, -1, 0.009306198596676356, 0.0093061985966763554533},
    {10000.0, -1, 0.009192134303831027, 0.0091921343038310269879},
    {10000.0, 4, 0.008845660988915911, 0.0088456609889159114674},
    {100000.0, -1, 0.00797364381161939, 0.0079736438116193897468},
};

/* mz_nnlo_exact: order 3, exact, alphas(91.1876^2, nf=5) = 0.118, masses [1.51, 4.92, 172.5], k^2 [1.0, 4.0, 0.25], shift 1.0 */
static const ref_config cfg_mz_nnlo_exact = {3, EKOC_COUPLING_EXACT, 0.118, 8315.178393760001, 5, {2.2801, 24.2064, 29756.25}, {1.0, 4.0, 0.25}, 1.0};
static const ref_point pts_mz_nnlo_exact[] = {
    {1.0, -1, 0.03778431622657399, 0.037784340715276907183},
    {1.0, 4, 0.03642307336973538, 0.036423094673268422773},
    {2.5, -1, 0.02708101651972603, 0.027081024674361234603},
    {2.5, 3, 0.02690711752449611, 0.026907127901100451783},
    {5.0, 5, 0.022038021840794897, 0.022038026014813087399},
    {10.0, -1, 0.0198330816621199, 0.019833085838415597026},
    {20.0, -1, 0.017556637449956135, 0.017556640216532207389},
    {30.0, 4, 0.016463939696987367, 0.016463942085160300606},
    {100.0, -1, 0.014176353589988052, 0.014176355064637270628},
    {100.0, 3, 0.013238982907101241, 0.013238986483871495822},
    {1000.0, 6, 0.010860048046597726, 0.010860048070371867159},
    {8317.44, -1, 0.009306198744412483, 0.0093061987444124862077},
    {10000.0, -1, 0.009192134246997776, 0.0091921342469977834578},
    {10000.0, 4, 0.008847754203418406, 0.0088477557411607567071},
    {100000.0, -1, 0.007973632497035177, 0.0079736325177904120032},
};

/* mz_nlo_exact_rhohalf: order 2, exact, alphas(91.1876^2, nf=5) = 0.118, masses [1.51, 4.92, 172.5], k^2 [1.0, 4.0, 0.25], shift 0.5 */
static const ref_config cfg_mz_nlo_exact_rhohalf = {2, EKOC_COUPLING_EXACT, 0.118, 8315.178393760001, 5, {2.2801, 24.2064, 29756.25}, {1.0, 4.0, 0.25}, 0.5};
static const ref_point pts_mz_nlo_exact_rhohalf[] = {
    {1.0, -1, 0.03606540123621446, 0.03606541754399195138},
    {1.0, 4, 0.035295202489629314, 0.035295218165327284214},
    {2.5, -1, 0.026733012225421977, 0.026733020457309200212},
    {2.5, 3, 0.026471690991734905, 0.026471700383913280629},
    {5.0, 5, 0.021901289611397857, 0.021901293791649932956},
    {10.0, -1, 0.019767705559830158, 0.019767709343322803387},
    {20.0, -1, 0.017535928373196515, 0.017535930998037663202},
    {30.0, 4, 0.016458687136507635, 0.016458689310542986313},
    {100.0, -1, 0.01415478424154071, 0.014154785621438626561},
    {100.0, 3, 0.013280870011280543, 0.013280874520855857176},
    {1000.0, 6, 0.010883456154118702, 0.010883456160485933975},
    {8317.44, -1, 0.00932268356225467, 0.0093226835624757306662},
    {10000.0, -1, 0.00920816705660461, 0.0092081670570885643924},
    {10000.0, 4, 0.008872575221582132, 0.0088725768826990147327},
    {100000.0, -1, 0.007985291389551835, 0.0079852917493116388125},
};

/* lo_expanded: order 1, expanded, alphas(10.0^2, nf=4) = 0.2, masses [1.3, 4.75, 172.0], k^2 [2.0, 0.5, 1.0], shift 1.0 */
static const ref_config cfg_lo_expanded = {1, EKOC_COUPLING_EXPANDED, 0.2, 100.0, 4, {1.6900000000000002, 22.5625, 29584.0}, {2.0, 0.5, 1.0}, 1.0};
static const ref_point pts_lo_expanded[] = {
    {1.0, -1, 0.04229489080390409, 0.042294890803904097376},
    {1.0, 4, 0.04089070613218745, 0.0408907061321874501},
    {2.5, -1, 0.031357660350891686, 0.031357660350891689952},
    {2.5, 3, 0.031357660350891686, 0.031357660350891689952},
    {5.0, 5, 0.02603496341780141, 0.026034963417801411938},
    {10.0, -1, 0.022912843868766786, 0.022912843868766789345},
    {20.0, -1, 0.020392289051795957, 0.020392289051795956503},
    {30.0, 4, 0.018939843628287833, 0.01893984362828783216},
    {100.0, -1, 0.01629270359424417, 0.01629270359424417005},
    {100.0, 3, 0.015363331405951593, 0.015363331405951593767},
    {1000.0, 6, 0.012301866777346923, 0.012301866777346921892},
    {8317.44, -1, 0.010496369318463537, 0.01049636931846353676},
    {10000.0, -1, 0.010343029424426959, 0.010343029424426957976},
    {10000.0, 4, 0.0098806153614737, 0.0098806153614737006384},
    {100000.0, -1, 0.008808658289013782, 0.0088086582890137809153},
};

/* END generated */

typedef struct ref_set {
  const char *name;
  const ref_config *cfg;
  const ref_point *pts;
  size_t n;
} ref_set;

#define SET(x) {#x, &cfg_##x, pts_##x, sizeof pts_##x / sizeof pts_##x[0]}
static const ref_set SETS[] = {
    SET(lha_vfns_nnlo_exact), SET(lha_vfns_nlo_expanded_rho2), SET(lha_ffns_nnlo_exact),
    SET(mz_nnlo_expanded),    SET(mz_nnlo_exact),              SET(mz_nlo_exact_rhohalf),
    SET(lo_expanded),
};
#define N_SETS (sizeof SETS / sizeof SETS[0])

static ekoc_couplings *make_ref(const ref_config *r) {
  ekoc_couplings_config cfg;
  ekoc_couplings_config_default(&cfg);
  cfg.order = r->order;
  cfg.mode = r->mode;
  cfg.alphas_ref = r->alphas;
  cfg.mu2_ref = r->mu2_ref;
  cfg.nf_ref = r->nf_ref;
  for (int h = 0; h < 3; ++h) {
    cfg.masses2[h] = r->m2[h];
    cfg.thresholds_ratio2[h] = r->k2[h];
  }
  cfg.threshold_shift = r->shift;
  return make(&cfg);
}

static void test_vs_eko(void **state) {
  (void)state;
  double worst_eko = 0.0, worst_exact = 0.0;
  for (size_t s = 0; s < N_SETS; ++s) {
    ekoc_couplings *c = make_ref(SETS[s].cfg);
    /* eko's exact solver is scipy Radau with rtol = atol = 1e-6 */
    double rtol_eko = SETS[s].cfg->mode == EKOC_COUPLING_EXACT ? 2e-6 : 1e-14;
    for (size_t i = 0; i < SETS[s].n; ++i) {
      const ref_point *p = &SETS[s].pts[i];
      double got = a_s(c, p->mu2, p->nf);
      assert_close(got, p->eko, rtol_eko, 0.0);
      assert_close(got, p->exact, 1e-13, 0.0);
      worst_eko = fmax(worst_eko, fabs(got / p->eko - 1.0));
      worst_exact = fmax(worst_exact, fabs(got / p->exact - 1.0));
    }
    ekoc_couplings_free(c);
  }
  print_message("vs eko: worst rel. diff %.2e; vs mpmath: %.2e\n", worst_eko, worst_exact);
}

/* ---- threads: one shared object, bitwise identical results ------------------- */

#define N_THREADS 6
typedef struct thread_job {
  ekoc_couplings *const *cs;
  double out[N_SETS][16];
  int rc;
} thread_job;

static void *thread_body(void *arg) {
  thread_job *job = (thread_job *)arg;
  job->rc = EKOC_OK;
  for (int rep = 0; rep < 20; ++rep)
    for (size_t s = 0; s < N_SETS; ++s)
      for (size_t i = 0; i < SETS[s].n; ++i) {
        int rc = ekoc_couplings_a_s(job->cs[s], SETS[s].pts[i].mu2, SETS[s].pts[i].nf, &job->out[s][i]);
        if (rc != EKOC_OK) job->rc = rc;
      }
  return NULL;
}

static void test_threads(void **state) {
  (void)state;
  ekoc_couplings *cs[N_SETS];
  for (size_t s = 0; s < N_SETS; ++s) cs[s] = make_ref(SETS[s].cfg);
  static thread_job jobs[N_THREADS];
  pthread_t th[N_THREADS];
  for (int t = 0; t < N_THREADS; ++t) {
    jobs[t].cs = cs;
    assert_int_equal(pthread_create(&th[t], NULL, thread_body, &jobs[t]), 0);
  }
  for (int t = 0; t < N_THREADS; ++t) assert_int_equal(pthread_join(th[t], NULL), 0);
  int all_same = 1;
  for (int t = 0; t < N_THREADS; ++t) {
    all_same = all_same && jobs[t].rc == EKOC_OK;
    for (size_t s = 0; s < N_SETS; ++s)
      for (size_t i = 0; i < SETS[s].n; ++i) {
        double serial = a_s(cs[s], SETS[s].pts[i].mu2, SETS[s].pts[i].nf);
        all_same = all_same && memcmp(&serial, &jobs[t].out[s][i], sizeof serial) == 0;
      }
  }
  assert_true(all_same);
  for (size_t s = 0; s < N_SETS; ++s) ekoc_couplings_free(cs[s]);
}

/* ---- bad input: named error, output untouched --------------------------------- */

static void expect_new_error(const ekoc_couplings_config *cfg, int want, const char *word) {
  ekoc_couplings *sentinel = (ekoc_couplings *)(uintptr_t)0x1234;
  ekoc_couplings *out = sentinel;
  int rc = ekoc_couplings_new(cfg, &out);
  if (rc != want)
    fail_msg("ekoc_couplings_new: got %s (%s), want %s", ekoc_status_str(rc), ekoc_last_error(),
             ekoc_status_str(want));
  assert_true(out == sentinel);
  if (!strstr(ekoc_last_error(), word)) fail_msg("message '%s' does not name '%s'", ekoc_last_error(), word);
}

static void test_bad_config(void **state) {
  (void)state;
  ekoc_couplings_config good, cfg;
  ekoc_couplings_config_default(&good);
  ekoc_couplings *out = (ekoc_couplings *)(uintptr_t)0x1234;
  assert_int_equal(ekoc_couplings_new(NULL, &out), EKOC_ERR_NULL_POINTER);
  assert_true(out == (ekoc_couplings *)(uintptr_t)0x1234);
  assert_non_null(strstr(ekoc_last_error(), "cfg"));
  assert_int_equal(ekoc_couplings_new(&good, NULL), EKOC_ERR_NULL_POINTER);
  assert_non_null(strstr(ekoc_last_error(), "out"));

  const int orders[] = {0, EKOC_MAX_ORDER + 1, -1};
  for (int i = 0; i < 3; ++i) {
    cfg = good;
    cfg.order = orders[i];
    expect_new_error(&cfg, EKOC_ERR_INVALID_ORDER, "order");
  }
  const int modes[] = {2, -1};
  for (int i = 0; i < 2; ++i) {
    cfg = good;
    cfg.mode = modes[i];
    expect_new_error(&cfg, EKOC_ERR_INVALID_MODE, "mode");
  }
  const double bad_pos[] = {NAN, 0.0, -0.1, INFINITY, -INFINITY};
  for (int i = 0; i < 5; ++i) {
    cfg = good;
    cfg.alphas_ref = bad_pos[i];
    expect_new_error(&cfg, EKOC_ERR_INVALID_ARGUMENT, "alphas_ref");
    cfg = good;
    cfg.mu2_ref = bad_pos[i];
    expect_new_error(&cfg, EKOC_ERR_INVALID_SCALE, "mu2_ref");
    cfg = good;
    cfg.threshold_shift = bad_pos[i];
    expect_new_error(&cfg, EKOC_ERR_INVALID_ARGUMENT, "threshold_shift");
    for (int h = 0; h < 3; ++h) {
      cfg = good;
      cfg.masses2[h] = bad_pos[i];
      expect_new_error(&cfg, EKOC_ERR_INVALID_THRESHOLDS, "masses2");
    }
  }
  const int nfs[] = {2, 7, 0, -1};
  for (int i = 0; i < 4; ++i) {
    cfg = good;
    cfg.nf_ref = nfs[i];
    expect_new_error(&cfg, EKOC_ERR_INVALID_NF, "nf_ref");
    cfg = good;
    cfg.max_nf = nfs[i];
    expect_new_error(&cfg, EKOC_ERR_INVALID_NF, "max_nf");
  }
  cfg = good;
  cfg.nf_ref = 6;
  cfg.max_nf = 5;
  expect_new_error(&cfg, EKOC_ERR_INVALID_NF, "nf_ref");
  cfg = good;
  cfg.masses2[1] = 1.0; /* m_b^2 < m_c^2 */
  expect_new_error(&cfg, EKOC_ERR_INVALID_THRESHOLDS, "masses2[1]");
  cfg = good;
  cfg.masses2[2] = 19.0; /* m_t^2 < m_b^2 */
  expect_new_error(&cfg, EKOC_ERR_INVALID_THRESHOLDS, "masses2[2]");
  const double bad_ratio[] = {-1.0, NAN, -INFINITY, -1e-300};
  for (int i = 0; i < 4; ++i)
    for (int h = 0; h < 3; ++h) {
      cfg = good;
      cfg.thresholds_ratio2[h] = bad_ratio[i];
      expect_new_error(&cfg, EKOC_ERR_INVALID_THRESHOLDS, "thresholds_ratio2");
    }
  cfg = good;
  cfg.thresholds_ratio2[0] = 100.0; /* charm matching at 200 > bottom at 20.25 */
  expect_new_error(&cfg, EKOC_ERR_INVALID_THRESHOLDS, "matching scale");
  cfg = good;
  cfg.thresholds_ratio2[1] = 0.0; /* bottom at 0 below charm at 2 */
  expect_new_error(&cfg, EKOC_ERR_INVALID_THRESHOLDS, "matching scale");
  /* a top matching scale below the bottom one is fine when top is unreachable */
  cfg = good;
  cfg.thresholds_ratio2[2] = 1e-6;
  cfg.max_nf = 5;
  ekoc_couplings *c = make(&cfg);
  ekoc_couplings_free(c);
  ekoc_couplings_free(NULL);
}

static void expect_a_s_error(const ekoc_couplings *c, double mu2, int nf, int want, const char *word) {
  double a = -42.0;
  int rc = ekoc_couplings_a_s(c, mu2, nf, &a);
  if (rc != want)
    fail_msg("a_s(%g, %d): got %s (%s), want %s", mu2, nf, ekoc_status_str(rc), ekoc_last_error(),
             ekoc_status_str(want));
  assert_true(a == -42.0);
  if (!strstr(ekoc_last_error(), word)) fail_msg("message '%s' does not name '%s'", ekoc_last_error(), word);
}

static void test_bad_calls(void **state) {
  (void)state;
  ekoc_couplings_config cfg = lha(3, 1, 1.0);
  ekoc_couplings *c = make(&cfg);
  double a = -42.0;
  assert_int_equal(ekoc_couplings_a_s(NULL, 10.0, -1, &a), EKOC_ERR_NULL_POINTER);
  assert_true(a == -42.0);
  assert_int_equal(ekoc_couplings_a_s(c, 10.0, -1, NULL), EKOC_ERR_NULL_POINTER);
  assert_non_null(strstr(ekoc_last_error(), "a_s_out"));
  const double bad_mu2[] = {NAN, 0.0, -1.0, INFINITY, -INFINITY};
  for (int i = 0; i < 5; ++i) expect_a_s_error(c, bad_mu2[i], -1, EKOC_ERR_INVALID_SCALE, "mu2");
  expect_a_s_error(c, 10.0, 2, EKOC_ERR_INVALID_NF, "nf_to");
  expect_a_s_error(c, 10.0, 7, EKOC_ERR_INVALID_NF, "nf_to");
  /* below the Landau pole (nf = 3, a0 = 0.35/(4 pi) at 2: LO pole at 2 e^-4) */
  expect_a_s_error(c, 0.01, 3, EKOC_ERR_NUMERICAL, "Landau");
  ekoc_couplings_free(c);
  for (int mode = 0; mode <= 1; ++mode)
    for (int order = 1; order <= 3; ++order) {
      cfg = lha(order, 1, 1.0);
      cfg.mode = mode;
      c = make(&cfg);
      expect_a_s_error(c, 0.03, 3, EKOC_ERR_NUMERICAL, "Landau");
      ekoc_couplings_free(c);
    }
  /* FFNS: the charm wall is at 0 and the bottom one at infinity */
  cfg = lha(3, 0, 1.0);
  c = make(&cfg);
  expect_a_s_error(c, 10.0, 3, EKOC_ERR_INVALID_NF, "charm");
  expect_a_s_error(c, 10.0, 5, EKOC_ERR_INVALID_NF, "bottom");
  expect_a_s_error(c, 10.0, 6, EKOC_ERR_INVALID_NF, "bottom");

  int32_t nf = -7;
  assert_int_equal(ekoc_couplings_nf_at(NULL, 1.0, &nf), EKOC_ERR_NULL_POINTER);
  assert_int_equal(ekoc_couplings_nf_at(c, 1.0, NULL), EKOC_ERR_NULL_POINTER);
  for (int i = 0; i < 5; ++i) {
    assert_int_equal(ekoc_couplings_nf_at(c, bad_mu2[i], &nf), EKOC_ERR_INVALID_SCALE);
    assert_non_null(strstr(ekoc_last_error(), "mu2"));
  }
  assert_int_equal(nf, -7);
  double thr[3] = {-1.0, -1.0, -1.0};
  assert_int_equal(ekoc_couplings_matching_scales(NULL, thr), EKOC_ERR_NULL_POINTER);
  assert_int_equal(ekoc_couplings_matching_scales(c, NULL), EKOC_ERR_NULL_POINTER);
  assert_true(thr[0] == -1.0 && thr[1] == -1.0 && thr[2] == -1.0);
  ekoc_couplings_free(c);

  /* the fixed-nf runner */
  a = -42.0;
  assert_int_equal(ekoc_couplings_run(3, 0, 4, 0.02, 2.0, 10.0, NULL), EKOC_ERR_NULL_POINTER);
  assert_int_equal(ekoc_couplings_run(0, 0, 4, 0.02, 2.0, 10.0, &a), EKOC_ERR_INVALID_ORDER);
  assert_int_equal(ekoc_couplings_run(3, 5, 4, 0.02, 2.0, 10.0, &a), EKOC_ERR_INVALID_MODE);
  assert_int_equal(ekoc_couplings_run(3, 0, 7, 0.02, 2.0, 10.0, &a), EKOC_ERR_INVALID_NF);
  assert_int_equal(ekoc_couplings_run(3, 0, 4, NAN, 2.0, 10.0, &a), EKOC_ERR_INVALID_ARGUMENT);
  assert_int_equal(ekoc_couplings_run(3, 0, 4, -0.1, 2.0, 10.0, &a), EKOC_ERR_INVALID_ARGUMENT);
  assert_int_equal(ekoc_couplings_run(3, 0, 4, 0.02, 0.0, 10.0, &a), EKOC_ERR_INVALID_SCALE);
  assert_int_equal(ekoc_couplings_run(3, 0, 4, 0.02, 2.0, NAN, &a), EKOC_ERR_INVALID_SCALE);
  assert_true(a == -42.0);
}

static void test_defaults(void **state) {
  (void)state;
  ekoc_couplings_config cfg;
  memset(&cfg, 0xff, sizeof cfg);
  ekoc_couplings_config_default(&cfg);
  assert_int_equal(cfg.order, 3);
  assert_int_equal(cfg.mode, EKOC_COUPLING_EXACT);
  assert_int_equal(cfg.nf_ref, 3);
  assert_int_equal(cfg.max_nf, 6);
  assert_true(cfg.alphas_ref == 0.35 && cfg.mu2_ref == 2.0 && cfg.threshold_shift == 1.0);
  assert_int_equal(ekoc_couplings_config_sizeof(), sizeof(ekoc_couplings_config));
  ekoc_couplings_config_default(NULL); /* ignored */
  /* the default is the LHA NNLO VFNS header value 0.115605 */
  ekoc_couplings *c = make(&cfg);
  assert_close(FOUR_PI * a_s(c, 1e4, -1), 0.115605, 0.0, 0.5e-6);
  ekoc_couplings_free(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_phys_ffns),
      cmocka_unit_test(test_phys_vfns),
      cmocka_unit_test(test_lha_headers),
      cmocka_unit_test(test_reference_point),
      cmocka_unit_test(test_continuity),
      cmocka_unit_test(test_nnlo_jump),
      cmocka_unit_test(test_round_trip_matching),
      cmocka_unit_test(test_round_trip_running),
      cmocka_unit_test(test_lo_closed_form),
      cmocka_unit_test(test_nlo_implicit),
      cmocka_unit_test(test_nf_at),
      cmocka_unit_test(test_max_nf),
      cmocka_unit_test(test_entries_keep_the_error_message),
      cmocka_unit_test(test_eko_short_segment),
      cmocka_unit_test(test_vs_eko),
      cmocka_unit_test(test_threads),
      cmocka_unit_test(test_bad_config),
      cmocka_unit_test(test_bad_calls),
      cmocka_unit_test(test_defaults),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
