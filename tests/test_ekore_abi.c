/* test_ekore_abi.c: the ekore C ABI (include/ekore.h) seen from C.
 *
 * Identities (number and momentum conservation), closed forms and reference
 * values of docs/physics.md §§2.1, 10, 11.3-11.4, every bad-input case (outputs are
 * poisoned and must stay untouched), and batch == single calls bitwise. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "ekore.h"
#include "test_util.h"

#define POISON (-12345.678)
#define NBUF 64

typedef struct {
  double re[NBUF], im[NBUF];
} buf;

static void poison(buf *b) {
  for (int i = 0; i < NBUF; i++) b->re[i] = b->im[i] = POISON;
}

static void assert_untouched(const buf *b) {
  for (int i = 0; i < NBUF; i++) {
    if (b->re[i] != POISON || b->im[i] != POISON) fail_msg("output %d was written", i);
  }
}

static const double pi = 3.14159265358979323846;
static const double zeta3 = 1.2020569031595942854;
static const double CF = 4.0 / 3.0, CA = 3.0;

/* ---- beta ------------------------------------------------------------------ */

/* docs/physics.md §2.1 table [verified]. */
static void test_beta_table(void **state) {
  (void)state;
  static const double want[4][4] = {
      {9, 64, 643.833333333, 12090.3781308},
      {8.33333333333, 51.3333333333, 406.351851852, 8035.18641979},
      {7.66666666667, 38.6666666667, 180.907407407, 4826.15632879},
      {7, 26, -32.5, 2472.28374258},
  };
  for (uint32_t nf = 3; nf <= 6; nf++) {
    double b[5] = {POISON, POISON, POISON, POISON, POISON};
    assert_int_equal(ekore_beta(nf, b), EKORE_OK);
    for (int k = 0; k < 4; k++) assert_close(b[k], want[nf - 3][k], 1e-11, 0);
    assert_true(b[4] == POISON);
  }
}

/* ---- identities ---------------------------------------------------------------- */

/* gamma_ns^(0)(1) = 0 exactly; gamma_ns-^(1)(1) = 1.586e-6 (eko's g_3
 * approximation, nf-independent); the valence towers agree at LO/NLO. */
static void test_number_conservation(void **state) {
  (void)state;
  for (uint32_t nf = 3; nf <= 6; nf++) {
    buf m, v, p;
    poison(&m), poison(&v), poison(&p);
    assert_int_equal(ekore_gamma_ns(2, EKORE_MODE_NS_MINUS, 1.0, 0.0, nf, m.re, m.im), EKORE_OK);
    assert_int_equal(ekore_gamma_ns(2, EKORE_MODE_NS_V, 1.0, 0.0, nf, v.re, v.im), EKORE_OK);
    assert_int_equal(ekore_gamma_ns(2, EKORE_MODE_NS_PLUS, 1.0, 0.0, nf, p.re, p.im), EKORE_OK);
    assert_close(m.re[0], 0.0, 0, 1e-14);
    assert_close(m.im[0], 0.0, 0, 0);
    assert_close(m.re[1], 1.586e-6, 0, 5e-10);
    assert_true(m.re[2] == POISON); /* exactly `order` values */
    /* LO identical for all modes, NLO nsV = ns- */
    assert_true(m.re[0] == p.re[0] && m.re[0] == v.re[0]);
    assert_true(m.re[1] == v.re[1] && m.im[1] == v.im[1]);
    assert_true(fabs(p.re[1] - m.re[1]) > 1e-3); /* ns+ differs beyond LO */
  }
}

/* Column sums of the singlet matrix at N = 2: exact at LO (with the closed
 * matrix of docs/physics.md §10), -1.729e-6 and 3.501e-5 at NLO. */
static void test_momentum_sum_rule(void **state) {
  (void)state;
  for (uint32_t nf = 3; nf <= 6; nf++) {
    buf g;
    poison(&g);
    assert_int_equal(ekore_gamma_singlet(2, 2.0, 0.0, nf, g.re, g.im), EKORE_OK);
    assert_close(g.re[0], 32.0 / 9.0, 1e-15, 0);
    assert_close(g.re[1], -2.0 * nf / 3.0, 1e-15, 0);
    assert_close(g.re[2], -32.0 / 9.0, 1e-15, 0);
    assert_close(g.re[3], 2.0 * nf / 3.0, 1e-14, 1e-15);
    assert_close(g.re[0] + g.re[2], 0.0, 0, 1e-14);
    assert_close(g.re[1] + g.re[3], 0.0, 0, 1e-14);
    assert_close(g.re[4] + g.re[6], -1.729e-6, 0, 5e-10);
    assert_close(g.re[5] + g.re[7], 3.501e-5, 0, 5e-9);
    for (int k = 0; k < 8; k++) assert_true(g.im[k] == 0.0);
    assert_true(g.re[8] == POISON);
  }
}

/* ---- closed forms -------------------------------------------------------------- */

/* LO values of eko's LO tests and NLO closed forms of its NLO tests (docs/physics.md §10). */
static void test_closed_forms(void **state) {
  (void)state;
  buf g;
  /* gamma_qg^(0)(N=i) and gamma_gg^(0)(i) at nf = 5; gamma_gq^(0)(i) = (4-4i)/3 */
  assert_int_equal(ekore_gamma_singlet(1, 0.0, 1.0, 5, g.re, g.im), EKORE_OK);
  assert_close(g.re[2], 4.0 / 3.0, 1e-15, 0);
  assert_close(g.im[2], -4.0 / 3.0, 1e-15, 0);
  assert_close(g.re[3], 5.195725159621, 1e-12, 0);
  assert_close(g.im[3], 10.52008856962, 1e-12, 0);
  for (uint32_t nf = 3; nf <= 6; nf++) {
    double n = nf;
    assert_int_equal(ekore_gamma_singlet(2, 2.0, 0.0, nf, g.re, g.im), EKORE_OK);
    double nsp = (-112 * CF + 376 * CA - 64 * n) * CF / 27;
    double ps = -40 * CF * n / 27;
    assert_close(g.re[4], nsp + ps, 1e-6, 0); /* g_3 approximation: ~1e-7 */
    assert_close(g.re[5], (-74 * CF - 35 * CA) * n / 27, 1e-14, 0);
    assert_close(g.re[6], (112 * CF - 376 * CA + 104 * n) * CF / 27, 1e-14, 1e-14);
    buf m;
    assert_int_equal(ekore_gamma_ns(2, EKORE_MODE_NS_MINUS, 2.0, 0.0, nf, m.re, m.im), EKORE_OK);
    double nsm = ((34.0 / 27 * (6 * pi * pi - 47) - 16 * zeta3) * CF +
                  (373.0 / 9 - 34 * pi * pi / 9 + 8 * zeta3) * CA - 64.0 / 27 * n) * CF;
    assert_close(m.re[1], nsm, 1e-6, 0);
    assert_int_equal(ekore_gamma_singlet(2, 4.0, 0.0, nf, g.re, g.im), EKORE_OK);
    assert_close(g.re[5], (-56317.0 / 18000 * CF + 16387.0 / 9000 * CA) * n, 1e-14, 0);
  }
  /* eko's ns+ (with g_3) at N = 2, nf = 5 */
  buf p;
  assert_int_equal(ekore_gamma_ns(2, EKORE_MODE_NS_PLUS, 2.0, 0.0, 5, p.re, p.im), EKORE_OK);
  assert_close(p.re[1], 32.5267472, 2e-9, 0);
}

/* N = 2.5 + 1.5i, nf = 4: docs/physics.md §11.3 (mpmath, eko's algorithms). */
static void test_reference_values(void **state) {
  (void)state;
  const double nr = 2.5, ni = 1.5;
  buf s, p, m, v;
  assert_int_equal(ekore_gamma_singlet(3, nr, ni, 4, s.re, s.im), EKORE_OK);
  assert_int_equal(ekore_gamma_ns(3, EKORE_MODE_NS_PLUS, nr, ni, 4, p.re, p.im), EKORE_OK);
  assert_int_equal(ekore_gamma_ns(3, EKORE_MODE_NS_MINUS, nr, ni, 4, m.re, m.im), EKORE_OK);
  assert_int_equal(ekore_gamma_ns(3, EKORE_MODE_NS_V, nr, ni, 4, v.re, v.im), EKORE_OK);
  const double tol = 1e-10;
  assert_close(p.re[0], 5.40408851739, tol, 0);
  assert_close(p.im[0], 2.65200030325, tol, 0);
  assert_close(s.re[1], -1.69087221095, tol, 0);
  assert_close(s.im[1], 0.823258958756, tol, 0);
  assert_close(s.re[2], -0.852828487717, tol, 0);
  assert_close(s.im[2], 1.11246337616, tol, 0);
  assert_close(s.re[3], 12.1751558917, tol, 0);
  assert_close(s.im[3], 7.85259905959, tol, 0);
  assert_close(p.re[1], 50.3451052631, tol, 0);
  assert_close(p.im[1], 18.09038694, 1e-9, 0);
  assert_close(m.re[1], 50.3563688416, tol, 0);
  assert_close(m.im[1], 18.0962787833, tol, 0);
  /* gamma_qq^(1) = ns+ + ps */
  assert_close(s.re[4], 50.3451052631 + 0.857839197027, tol, 0);
  assert_close(s.im[4], 18.09038694 + 1.16271180073, 1e-9, 0);
  assert_close(s.re[5], 5.59634872449, tol, 0);
  assert_close(s.im[5], 15.9912512874, tol, 0);
  assert_close(s.re[6], -15.657740933, tol, 0);
  assert_close(s.im[6], 10.8994209341, tol, 0);
  assert_close(s.re[7], 52.6533589869, tol, 0);
  assert_close(s.im[7], 39.4312526242, tol, 0);
  /* NNLO non-singlet */
  assert_close(p.re[2], 413.448778759, tol, 0);
  assert_close(p.im[2], 150.082475714, tol, 0);
  assert_close(m.re[2], 413.174615995, tol, 0);
  assert_close(m.im[2], 153.455250863, tol, 0);
  assert_close(v.re[2], 417.919470148, tol, 0);
  assert_close(v.im[2], 140.372700141, tol, 0);
}

/* NNLO sum rules and values of docs/physics.md §10 (parametrised, so approximate). */
static void test_nnlo_identities(void **state) {
  (void)state;
  static const double nsm1[3] = {1.97077e-4, 3.95651e-4, 5.94225e-4};
  static const double nsv1[3] = {-7.35809e-4, -8.48198e-4, -9.60586e-4};
  for (uint32_t nf = 3; nf <= 5; nf++) {
    buf m, v;
    assert_int_equal(ekore_gamma_ns(3, EKORE_MODE_NS_MINUS, 1.0, 0.0, nf, m.re, m.im), EKORE_OK);
    assert_int_equal(ekore_gamma_ns(3, EKORE_MODE_NS_V, 1.0, 0.0, nf, v.re, v.im), EKORE_OK);
    assert_close(m.re[2], nsm1[nf - 3], 0, 5e-10);
    assert_close(v.re[2], nsv1[nf - 3], 0, 5e-10);
  }
  buf g;
  assert_int_equal(ekore_gamma_singlet(3, 2.0, 0.0, 5, g.re, g.im), EKORE_OK);
  assert_close(g.re[8] + g.re[10], 1.69375e-3, 0, 5e-9);
  assert_close(g.re[9] + g.re[11], -3.88726e-3, 0, 5e-9);
  buf p, m, v;
  assert_int_equal(ekore_gamma_ns(3, EKORE_MODE_NS_PLUS, 2.0, 0.0, 4, p.re, p.im), EKORE_OK);
  assert_int_equal(ekore_gamma_ns(3, EKORE_MODE_NS_MINUS, 2.0, 0.0, 4, m.re, m.im), EKORE_OK);
  assert_int_equal(ekore_gamma_ns(3, EKORE_MODE_NS_V, 2.0, 0.0, 4, v.re, v.im), EKORE_OK);
  assert_close(p.re[2], 306.033573, 0, 5e-7);
  assert_close(m.re[2], 295.824004, 0, 5e-7);
  assert_close(v.re[2], 325.215324, 0, 5e-7);
  assert_int_equal(ekore_gamma_ns(3, EKORE_MODE_NS_V, 2.0, 0.0, 5, v.re, v.im), EKORE_OK);
  assert_close(v.re[2], 188.325593, 0, 5e-7);
}

/* ekore_gamma_all equals the separate calls bitwise, in the documented layout. */
static void test_gamma_all(void **state) {
  (void)state;
  const double nr = 3.7, ni = -2.2;
  for (uint32_t order = 1; order <= 3; order++) {
    buf ns, s, t;
    poison(&ns), poison(&s);
    assert_int_equal(ekore_gamma_all(order, nr, ni, 5, ns.re, ns.im, s.re, s.im), EKORE_OK);
    const uint32_t modes[3] = {EKORE_MODE_NS_PLUS, EKORE_MODE_NS_MINUS, EKORE_MODE_NS_V};
    for (int m = 0; m < 3; m++) {
      assert_int_equal(ekore_gamma_ns(order, modes[m], nr, ni, 5, t.re, t.im), EKORE_OK);
      for (uint32_t k = 0; k < order; k++) {
        assert_true(ns.re[3 * k + m] == t.re[k] && ns.im[3 * k + m] == t.im[k]);
      }
    }
    assert_true(ns.re[3 * order] == POISON);
    assert_int_equal(ekore_gamma_singlet(order, nr, ni, 5, t.re, t.im), EKORE_OK);
    assert_memory_equal(s.re, t.re, 4 * order * sizeof(double));
    assert_memory_equal(s.im, t.im, 4 * order * sizeof(double));
    assert_true(s.re[4 * order] == POISON);
  }
}

/* ---- OMEs ---------------------------------------------------------------------- */

/* L = 0 values of docs/physics.md §10 (N = 2) and §11.4 (N = 2.5+1.5i) and the
 * N = 2 momentum sums; basis (g, q, H) for the singlet, (q, H) for ns. */
static void test_ome_values(void **state) {
  (void)state;
  buf a, b;
  poison(&a), poison(&b);
  assert_int_equal(ekore_ome_singlet(2, 2.0, 0.0, 4, 0.0, a.re, a.im), EKORE_OK);
  assert_int_equal(ekore_ome_ns(2, 2.0, 0.0, 4, 0.0, b.re, b.im), EKORE_OK);
  /* A^(1) vanishes at L = 0 except on the intrinsic entries (column H) */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 2; j++) assert_close(a.re[3 * i + j], 0.0, 0, 1e-15);
  assert_close(b.re[0], 0.0, 0, 1e-15);
  const double *a2 = a.re + 9;
  assert_close(a2[0], -9.96091, 0, 5e-6);     /* A_gg */
  assert_close(a2[6], 9.96091, 0, 5e-6);      /* A_Hg */
  assert_close(a2[1], 5.82716, 0, 5e-6);      /* A_gq */
  assert_close(a2[4], -3.16049, 0, 5e-6);     /* A_qq^NS */
  assert_close(a2[7], -2.66667, 0, 5e-6);     /* A_Hq^PS */
  assert_close(a2[0] + a2[6], 0.0, 0, 2e-6);  /* gluon column: 1.4e-6 from g_3 */
  assert_close(a2[1] + a2[4] + a2[7], 0.0, 0, 1e-12);
  assert_close(b.re[4], a2[4], 1e-15, 0);     /* A_qq^NS in both blocks */
  assert_true(a.re[18] == POISON && b.re[8] == POISON);
  /* quark-number conservation of A_qq^NS at N = 1 */
  assert_int_equal(ekore_ome_ns(2, 1.0, 0.0, 4, 0.0, b.re, b.im), EKORE_OK);
  assert_close(b.re[4], 0.0, 0, 1e-14);

  assert_int_equal(ekore_ome_singlet(2, 2.5, 1.5, 4, 0.0, a.re, a.im), EKORE_OK);
  a2 = a.re + 9;
  const double *a2i = a.im + 9;
  assert_close(a2[4], -4.882509255, 1e-9, 0);
  assert_close(a2i[4], -2.549452698, 1e-9, 0);
  assert_close(a2[7], -0.09328978395, 1e-9, 0);
  assert_close(a2i[7], 0.6385804207, 1e-9, 0);
  assert_close(a2[1], 0.9720893162, 1e-9, 0);
  assert_close(a2i[1], -1.730011534, 1e-9, 0);
  assert_close(a2[0], -27.05281104, 1e-9, 0);
  assert_close(a2i[0], -11.37714643, 1e-9, 0);
  assert_close(a2[6], 12.40544936, 1e-9, 0);
  assert_close(a2i[6], -1.657322357, 1e-9, 0);
}

/* ---- bad input ----------------------------------------------------------------- */

static void test_bad_null(void **state) {
  (void)state;
  buf o;
  poison(&o);
  double n[2] = {2.0, 3.0}, ni[2] = {0.5, 0.5};
  assert_int_equal(ekore_beta(4, NULL), EKORE_ERR_NULL);
  assert_int_equal(ekore_gamma_ns(1, EKORE_MODE_NS_PLUS, 2, 0, 4, NULL, o.im), EKORE_ERR_NULL);
  assert_string_equal(ekore_last_error(), "ekore_gamma_ns: out_re is NULL");
  assert_int_equal(ekore_gamma_ns(1, EKORE_MODE_NS_PLUS, 2, 0, 4, o.re, NULL), EKORE_ERR_NULL);
  assert_int_equal(ekore_gamma_singlet(1, 2, 0, 4, NULL, o.im), EKORE_ERR_NULL);
  assert_int_equal(ekore_gamma_singlet(1, 2, 0, 4, o.re, NULL), EKORE_ERR_NULL);
  assert_int_equal(ekore_gamma_all(1, 2, 0, 4, NULL, o.im, o.re, o.im), EKORE_ERR_NULL);
  assert_int_equal(ekore_gamma_all(1, 2, 0, 4, o.re, o.im, o.re, NULL), EKORE_ERR_NULL);
  assert_int_equal(ekore_gamma_singlet_batch(1, NULL, ni, 2, 4, o.re, o.im), EKORE_ERR_NULL);
  assert_int_equal(ekore_gamma_singlet_batch(1, n, NULL, 2, 4, o.re, o.im), EKORE_ERR_NULL);
  assert_int_equal(ekore_gamma_singlet_batch(1, n, ni, 2, 4, NULL, o.im), EKORE_ERR_NULL);
  assert_int_equal(ekore_gamma_ns_batch(1, EKORE_MODE_NS_PLUS, n, ni, 2, 4, o.re, NULL), EKORE_ERR_NULL);
  assert_int_equal(ekore_gamma_ns_batch(1, EKORE_MODE_NS_PLUS, NULL, ni, 2, 4, o.re, o.im), EKORE_ERR_NULL);
  assert_int_equal(ekore_ome_ns(1, 2, 0, 4, 0, NULL, o.im), EKORE_ERR_NULL);
  assert_int_equal(ekore_ome_singlet(1, 2, 0, 4, 0, o.re, NULL), EKORE_ERR_NULL);
  assert_untouched(&o);
}

static void test_bad_order_mode_nf(void **state) {
  (void)state;
  buf o;
  poison(&o);
  double n[2] = {2.0, 3.0}, ni[2] = {0.5, 0.5};
  const uint32_t bad_orders[3] = {0, 5, 1000};
  for (int k = 0; k < 3; k++) {
    uint32_t ord = bad_orders[k];
    assert_int_equal(ekore_gamma_ns(ord, EKORE_MODE_NS_PLUS, 2, 0, 4, o.re, o.im), EKORE_ERR_ORDER);
    assert_int_equal(ekore_gamma_singlet(ord, 2, 0, 4, o.re, o.im), EKORE_ERR_ORDER);
    assert_int_equal(ekore_gamma_all(ord, 2, 0, 4, o.re, o.im, o.re, o.im), EKORE_ERR_ORDER);
    assert_int_equal(ekore_gamma_singlet_batch(ord, n, ni, 2, 4, o.re, o.im), EKORE_ERR_ORDER);
    assert_int_equal(ekore_gamma_ns_batch(ord, EKORE_MODE_NS_V, n, ni, 2, 4, o.re, o.im), EKORE_ERR_ORDER);
  }
  /* OMEs: 1..3 terms only */
  assert_int_equal(ekore_ome_ns(0, 2, 0, 4, 0, o.re, o.im), EKORE_ERR_ORDER);
  assert_int_equal(ekore_ome_ns(4, 2, 0, 4, 0, o.re, o.im), EKORE_ERR_ORDER);
  assert_int_equal(ekore_ome_singlet(0, 2, 0, 4, 0, o.re, o.im), EKORE_ERR_ORDER);
  assert_int_equal(ekore_ome_singlet(4, 2, 0, 4, 0, o.re, o.im), EKORE_ERR_ORDER);
  assert_string_equal(ekore_last_error(), "ekore_ome_singlet: order = 4 outside 1..3");
  /* modes */
  const uint32_t bad_modes[5] = {0, 100, 21, 10100, 10202};
  for (int k = 0; k < 5; k++) {
    assert_int_equal(ekore_gamma_ns(2, bad_modes[k], 2, 0, 4, o.re, o.im), EKORE_ERR_MODE);
    assert_int_equal(ekore_gamma_ns_batch(2, bad_modes[k], n, ni, 2, 4, o.re, o.im), EKORE_ERR_MODE);
  }
  /* nf */
  const uint32_t bad_nf[4] = {0, 2, 7, UINT32_MAX};
  for (int k = 0; k < 4; k++) {
    uint32_t nf = bad_nf[k];
    double b[4] = {POISON, POISON, POISON, POISON};
    assert_int_equal(ekore_beta(nf, b), EKORE_ERR_NF);
    for (int i = 0; i < 4; i++) assert_true(b[i] == POISON);
    assert_int_equal(ekore_gamma_ns(1, EKORE_MODE_NS_PLUS, 2, 0, nf, o.re, o.im), EKORE_ERR_NF);
    assert_int_equal(ekore_gamma_singlet(1, 2, 0, nf, o.re, o.im), EKORE_ERR_NF);
    assert_int_equal(ekore_gamma_all(1, 2, 0, nf, o.re, o.im, o.re, o.im), EKORE_ERR_NF);
    assert_int_equal(ekore_gamma_singlet_batch(1, n, ni, 2, nf, o.re, o.im), EKORE_ERR_NF);
    assert_int_equal(ekore_gamma_ns_batch(1, EKORE_MODE_NS_PLUS, n, ni, 2, nf, o.re, o.im), EKORE_ERR_NF);
    assert_int_equal(ekore_ome_ns(1, 2, 0, nf, 0, o.re, o.im), EKORE_ERR_NF);
    assert_int_equal(ekore_ome_singlet(1, 2, 0, nf, 0, o.re, o.im), EKORE_ERR_NF);
  }
  assert_string_equal(ekore_last_error(), "ekore_ome_singlet: nf = 4294967295 outside 3..6");
  assert_untouched(&o);
}

static void test_bad_domain(void **state) {
  (void)state;
  buf o;
  poison(&o);
  const double bad[][2] = {
      {NAN, 0},  {2, NAN},  {INFINITY, 0}, {2, -INFINITY}, {2e5, 0}, {0, 3e5},
      {0, 0},    {-1, 0},   {-3, 0},       {-3 + 1e-12, 1e-12},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    double r = bad[k][0], i = bad[k][1];
    assert_int_equal(ekore_gamma_ns(3, EKORE_MODE_NS_MINUS, r, i, 4, o.re, o.im), EKORE_ERR_DOMAIN);
    assert_int_equal(ekore_gamma_singlet(3, r, i, 4, o.re, o.im), EKORE_ERR_DOMAIN);
    assert_int_equal(ekore_gamma_all(3, r, i, 4, o.re, o.im, o.re, o.im), EKORE_ERR_DOMAIN);
    assert_int_equal(ekore_ome_ns(2, r, i, 4, 0, o.re, o.im), EKORE_ERR_DOMAIN);
    assert_int_equal(ekore_ome_singlet(2, r, i, 4, 0, o.re, o.im), EKORE_ERR_DOMAIN);
  }
  /* N = 1 is a pole of the singlet quantities only */
  assert_int_equal(ekore_gamma_singlet(1, 1, 0, 4, o.re, o.im), EKORE_ERR_DOMAIN);
  assert_string_equal(ekore_last_error(), "ekore_gamma_singlet: N = (1, 0) is on the pole N = 1");
  assert_int_equal(ekore_gamma_all(1, 1, 0, 4, o.re, o.im, o.re, o.im), EKORE_ERR_DOMAIN);
  assert_int_equal(ekore_ome_singlet(1, 1, 0, 4, 0, o.re, o.im), EKORE_ERR_DOMAIN);
  /* L not finite */
  const double bad_l[3] = {NAN, INFINITY, -INFINITY};
  for (int k = 0; k < 3; k++) {
    assert_int_equal(ekore_ome_ns(1, 2, 0, 4, bad_l[k], o.re, o.im), EKORE_ERR_DOMAIN);
    assert_int_equal(ekore_ome_singlet(2, 2, 0, 4, bad_l[k], o.re, o.im), EKORE_ERR_DOMAIN);
  }
  /* one bad point in a batch: nothing written, the point named */
  double n[4] = {2.0, 3.0, 4.0, 1.0}, ni[4] = {0.5, 0.5, 0.5, 0.0};
  assert_int_equal(ekore_gamma_singlet_batch(3, n, ni, 4, 4, o.re, o.im), EKORE_ERR_DOMAIN);
  assert_string_equal(ekore_last_error(), "ekore_gamma_singlet_batch: N[3] = (1, 0) is on the pole N = 1");
  n[3] = NAN;
  assert_int_equal(ekore_gamma_ns_batch(3, EKORE_MODE_NS_PLUS, n, ni, 4, 4, o.re, o.im), EKORE_ERR_DOMAIN);
  assert_untouched(&o);
  /* non-singlet quantities accept N = 1; a successful call keeps the last message */
  assert_int_equal(ekore_gamma_ns(3, EKORE_MODE_NS_V, 1, 0, 4, o.re, o.im), EKORE_OK);
  assert_int_equal(ekore_ome_ns(2, 1, 0, 4, 0, o.re, o.im), EKORE_OK);
  assert_true(strncmp(ekore_last_error(), "ekore_gamma_ns_batch: N[3]", 26) == 0);
}

/* ---- batch --------------------------------------------------------------------- */

/* Each batch point is bitwise the single call, point-major layout. */
static void test_batch_equals_single(void **state) {
  (void)state;
  enum { COUNT = 5 };
  const double nr[COUNT] = {2.5, 1.1, 4.0, -0.5, 30.0};
  const double ni[COUNT] = {1.5, -3.0, 0.0, 7.0, 0.1};
  for (uint32_t order = 1; order <= 3; order++) {
    buf o, t;
    poison(&o);
    assert_int_equal(ekore_gamma_singlet_batch(order, nr, ni, COUNT, 6, o.re, o.im), EKORE_OK);
    for (int p = 0; p < COUNT; p++) {
      assert_int_equal(ekore_gamma_singlet(order, nr[p], ni[p], 6, t.re, t.im), EKORE_OK);
      assert_memory_equal(o.re + 4 * order * p, t.re, 4 * order * sizeof(double));
      assert_memory_equal(o.im + 4 * order * p, t.im, 4 * order * sizeof(double));
    }
    assert_true(o.re[4 * order * COUNT] == POISON);
    poison(&o);
    assert_int_equal(ekore_gamma_ns_batch(order, EKORE_MODE_NS_V, nr, ni, COUNT, 3, o.re, o.im), EKORE_OK);
    for (int p = 0; p < COUNT; p++) {
      assert_int_equal(ekore_gamma_ns(order, EKORE_MODE_NS_V, nr[p], ni[p], 3, t.re, t.im), EKORE_OK);
      assert_memory_equal(o.re + order * p, t.re, order * sizeof(double));
      assert_memory_equal(o.im + order * p, t.im, order * sizeof(double));
    }
    assert_true(o.re[order * COUNT] == POISON);
  }
  /* count = 0: nothing to do, nothing written */
  buf o;
  poison(&o);
  assert_int_equal(ekore_gamma_singlet_batch(3, nr, ni, 0, 4, o.re, o.im), EKORE_OK);
  assert_untouched(&o);
}

/* ---- N3LO choice -------------------------------------------------------------- */

/* The _n3lo entry points from C: the batch equals the single-N call bitwise,
 * the choice changes gamma^(3) only, the entry points without a choice use
 * eko's default (central, FHMRUVV), a NULL choice at order 4 is refused and
 * one below order 4 is not read; the ranges eko implements. */
static void test_n3lo_choice(void **state) {
  (void)state;
  const ekore_n3lo central = {{0, 0, 0, 0, 0, 0, 0}, 1};
  const ekore_n3lo varied = {{1, 2, 0, 1, 2, 1, 0}, 1};
  const double nr[2] = {2.5, 4.0}, ni[2] = {1.5, -3.0};
  buf a, b, c;
  assert_int_equal(ekore_gamma_singlet_batch_n3lo(4, &varied, nr, ni, 2, 4, a.re, a.im), EKORE_OK);
  for (int p = 0; p < 2; p++) {
    assert_int_equal(ekore_gamma_singlet_n3lo(4, &varied, nr[p], ni[p], 4, b.re, b.im), EKORE_OK);
    for (int k = 0; k < 16; k++) {
      assert_true(a.re[16 * p + k] == b.re[k] && a.im[16 * p + k] == b.im[k]);
    }
  }
  assert_int_equal(ekore_gamma_singlet_n3lo(4, &varied, nr[0], ni[0], 4, b.re, b.im), EKORE_OK);
  assert_int_equal(ekore_gamma_singlet_n3lo(4, &central, nr[0], ni[0], 4, c.re, c.im), EKORE_OK);
  for (int k = 0; k < 12; k++) assert_true(b.re[k] == c.re[k]); /* LO..NNLO untouched by the choice */
  int differs = 0;
  for (int k = 12; k < 16; k++) differs |= b.re[k] != c.re[k];
  assert_true(differs);
  assert_int_equal(ekore_gamma_singlet(4, nr[0], ni[0], 4, b.re, b.im), EKORE_OK);
  for (int k = 0; k < 16; k++) assert_true(b.re[k] == c.re[k] && b.im[k] == c.im[k]);
  assert_int_equal(ekore_gamma_ns_all_batch_n3lo(4, NULL, nr, ni, 2, 4, a.re, a.im), EKORE_ERR_NULL);
  assert_non_null(strstr(ekore_last_error(), "n3lo"));
  assert_int_equal(ekore_gamma_ns_all_batch_n3lo(3, NULL, nr, ni, 2, 4, a.re, a.im), EKORE_OK);
  uint32_t max[7];
  assert_int_equal(ekore_n3lo_variation_max(0, max), EKORE_OK);
  assert_int_equal(max[0], 19);
  assert_int_equal(max[4], 0);
  assert_int_equal(ekore_n3lo_variation_max(2, max), EKORE_OK); /* the 2512 set: 0..2 each */
  for (int k = 0; k < 7; k++) assert_int_equal(max[k], 2);
  assert_int_equal(ekore_n3lo_variation_max(3, max), EKORE_ERR_VARIATION);
  /* the 2512 set has the singlet at nf = 6, FHMRUVV 2024 does not */
  ekore_n3lo s2512 = {{0, 0, 0, 0, 0, 0, 0}, 2}, f2024 = {{0, 0, 0, 0, 0, 0, 0}, 1};
  assert_int_equal(ekore_gamma_singlet_n3lo(4, &s2512, nr[0], ni[0], 6, b.re, b.im), EKORE_OK);
  assert_true(isfinite(b.re[12]) && isfinite(b.re[15]));
  assert_int_equal(ekore_gamma_singlet_n3lo(4, &f2024, nr[0], ni[0], 6, b.re, b.im), EKORE_ERR_NF);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_n3lo_choice),
      cmocka_unit_test(test_beta_table),
      cmocka_unit_test(test_number_conservation),
      cmocka_unit_test(test_momentum_sum_rule),
      cmocka_unit_test(test_closed_forms),
      cmocka_unit_test(test_reference_values),
      cmocka_unit_test(test_nnlo_identities),
      cmocka_unit_test(test_gamma_all),
      cmocka_unit_test(test_ome_values),
      cmocka_unit_test(test_bad_null),
      cmocka_unit_test(test_bad_order_mode_nf),
      cmocka_unit_test(test_bad_domain),
      cmocka_unit_test(test_batch_equals_single),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
