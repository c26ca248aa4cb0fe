/* test_talbot.c: the Talbot inversion path (src/quad/talbot.h, docs/physics.md §3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>

#include "quad/talbot.h"
#include "test_util.h"

static const double LOGXS[] = {-16.11809565095832, -6.907755278982137, -2.302585092994046, -0.5, -1e-3, 0.0};
#define N_LOGXS (sizeof LOGXS / sizeof LOGXS[0])

/* eko 0.15.7, eko.mellin.Path(t, logx, axis_offset).n / .jac, printed with
 * repr() for t in {0.5, 0.501, 0.6, 0.75, 0.95, 0.3}, ln x in
 * {ln 1e-7, ln 0.1, 0} and axis_offset in {False, True}.
 * Columns: t, logx, offset, Re N, Im N, Re dN/dt, Im dN/dt. */
static const double EKO_PATH[][7] = {
  {0.5, -16.11809565095832, 0, 0.39462093070229404, 0.0, 0.0, 2.4794764336941877},
  {0.5, -16.11809565095832, 1, 1.394620930702294, 0.0, 0.0, 2.4794764336941877},
  {0.5, -2.3025850929940455, 0, 2.663797431634136, 0.0, 0.0, 16.737132883746323},
  {0.5, -2.3025850929940455, 1, 3.663797431634136, 0.0, 0.0, 16.737132883746323},
  {0.5, 0.0, 0, 64.0, 0.0, 0.0, 402.1238596594935},
  {0.5, 0.0, 1, 65.0, 0.0, 0.0, 402.1238596594935},
  {0.501, -16.11809565095832, 0, 0.3946157376853274, 0.00247947643369419, -0.010386061268539954, 2.4794764336941877},
  {0.501, -16.11809565095832, 1, 1.3946157376853274, 0.00247947643369419, -0.010386061268539954, 2.4794764336941877},
  {0.501, -2.3025850929940455, 0, 2.6637623773727372, 0.01673713288374634, -0.07010870731741112, 16.737132883746323},
  {0.501, -2.3025850929940455, 1, 3.6637623773727372, 0.01673713288374634, -0.07010870731741112, 16.737132883746323},
  {0.501, 0.0, 0, 63.99915779154117, 0.4021238596594939, -1.684421350898945, 402.1238596594935},
  {0.501, 0.0, 1, 64.99915779154117, 0.4021238596594939, -1.684421350898945, 402.1238596594935},
  {0.6, -16.11809565095832, 0, 0.34127065355710223, 0.2479476433694187, -1.0965244501007092, 2.4794764336941877},
  {0.6, -16.11809565095832, 1, 1.3412706535571022, 0.2479476433694187, -1.0965244501007092, 2.4794764336941877},
  {0.6, -2.3025850929940455, 0, 2.3036687101711997, 1.673713288374632, -7.401834993151626, 16.737132883746323},
  {0.6, -2.3025850929940455, 1, 3.3036687101711997, 1.673713288374632, -7.401834993151626, 16.737132883746323},
  {0.6, 0.0, 0, 55.34760102254144, 40.212385965949345, -177.83538415347778, 402.1238596594935},
  {0.6, 0.0, 1, 56.34760102254144, 40.212385965949345, -177.83538415347778, 402.1238596594935},
  {0.75, -16.11809565095832, 0, 3.7956035976061016e-17, 0.6198691084235469, -3.89475247442134, 2.4794764336941877},
  {0.75, -16.11809565095832, 1, 1.0, 0.6198691084235469, -3.89475247442134, 2.4794764336941877},
  {0.75, -2.3025850929940455, 0, 2.56213452662298e-16, 4.184283220936581, -26.290626854866797, 16.737132883746323},
  {0.75, -2.3025850929940455, 1, 1.0000000000000002, 4.184283220936581, -26.290626854866797, 16.737132883746323},
  {0.75, 0.0, 0, 6.155746219909727e-15, 100.53096491487338, -631.6546816697189, 402.1238596594935},
  {0.75, 0.0, 1, 1.0000000000000062, 100.53096491487338, -631.6546816697189, 402.1238596594935},
  {0.95, -16.11809565095832, 0, -3.4339697103575673, 1.1157643951623841, -81.04652316257467, 2.4794764336941877},
  {0.95, -16.11809565095832, 1, -2.4339697103575673, 1.1157643951623841, -81.04652316257467, 2.4794764336941877},
  {0.95, -2.3025850929940455, 0, -23.180219251119233, 7.531709797685844, -547.0858321152094, 16.737132883746323},
  {0.95, -2.3025850929940455, 1, -22.180219251119233, 7.531709797685844, -547.0858321152094, 16.737132883746323},
  {0.95, 0.0, 0, -556.9244922507266, 180.95573684677206, -13144.202648282451, 402.1238596594935},
  {0.95, 0.0, 1, -555.9244922507266, 180.95573684677206, -13144.202648282451, 402.1238596594935},
  {0.3, -16.11809565095832, 0, 0.16112614593051308, -0.49589528673883754, 2.639115217152258, 2.4794764336941877},
  {0.3, -16.11809565095832, 1, 1.161126145930513, -0.49589528673883754, 2.639115217152258, 2.4794764336941877},
  {0.3, -2.3025850929940455, 0, 1.0876448264793286, -3.3474265767492644, 17.814737613449864, 16.737132883746323},
  {0.3, -2.3025850929940455, 1, 2.0876448264793286, -3.3474265767492644, 17.814737613449864, 16.737132883746323},
  {0.3, 0.0, 0, 26.1315924657133, -80.4247719318987, 428.0142302567496, 402.1238596594935},
  {0.3, 0.0, 1, 27.1315924657133, -80.4247719318987, 428.0142302567496, 402.1238596594935},
};

static void test_eko_reference(void **state) {
  size_t i;
  (void)state;
  for (i = 0; i < sizeof EKO_PATH / sizeof EKO_PATH[0]; ++i) {
    const double *r = EKO_PATH[i];
    ekoc_complex n, dn;
    ekoc_talbot_point(r[0], r[1], (int)r[2], &n, &dn);
    /* eko evaluates the trigonometric form everywhere; near theta = 0 ekoc uses
     * a series, which differs at the 1e-13 level of |dN/dt| there */
    assert_close(n.re, r[3], 1e-14, 1e-14 * fabs(r[4]));
    assert_close(n.im, r[4], 1e-14, 0.0);
    assert_close(dn.re, r[5], 1e-13, 1e-13 * fabs(r[6]));
    assert_close(dn.im, r[6], 1e-14, 0.0);
  }
}

static void test_radius(void **state) {
  (void)state;
  /* r = 0.4*16/(0.1 - ln x): 64 at x = 1 (docs/physics.md §3) */
  assert_close(ekoc_talbot_radius(0.0), 64.0, 1e-15, 0.0);
  assert_close(ekoc_talbot_radius(-6.3), 1.0, 1e-15, 0.0);
  assert_close(ekoc_talbot_radius(-0.7), 8.0, 1e-15, 0.0);
}

/* N(1/2) = o + r and dN/dt(1/2) = 2 pi r i, exactly. */
static void test_midpoint(void **state) {
  size_t i;
  int o;
  (void)state;
  for (i = 0; i < N_LOGXS; ++i)
    for (o = 0; o <= 1; ++o) {
      double r = ekoc_talbot_radius(LOGXS[i]);
      ekoc_complex n, dn;
      ekoc_talbot_point(0.5, LOGXS[i], o, &n, &dn);
      assert_true(n.re == o + r);
      assert_true(n.im == 0.0);
      assert_true(dn.re == 0.0);
      assert_close(dn.im, 2.0 * EKOC_PI * r, 1e-15, 0.0);
    }
}

/* dN/dt against a 4th-order central difference of N(t) (h = 1e-4: truncation
 * ~h^4 |N^(5)| and rounding ~eps |N|/h both stay below 1e-9 |dN/dt| here),
 * at many t on both halves, including across the series switch at
 * |theta| = 0.1. */
static void test_derivative_fd(void **state) {
  const double h = 1e-4;
  size_t i;
  int o, k;
  (void)state;
  for (i = 0; i < N_LOGXS; ++i)
    for (o = 0; o <= 1; ++o)
      for (k = 0; k <= 180; ++k) {
        double t = 0.05 + 0.005 * k, logx = LOGXS[i];
        ekoc_complex n, dn, p1, p2, m1, m2, d;
        double fd_re, fd_im, scale;
        if (k == 90) t = 0.5 + 0.1 / (2.0 * EKOC_PI) + 1e-9; /* just past the switch */
        ekoc_talbot_point(t, logx, o, &n, &dn);
        ekoc_talbot_point(t + h, logx, o, &p1, &d);
        ekoc_talbot_point(t + 2 * h, logx, o, &p2, &d);
        ekoc_talbot_point(t - h, logx, o, &m1, &d);
        ekoc_talbot_point(t - 2 * h, logx, o, &m2, &d);
        fd_re = (8.0 * (p1.re - m1.re) - (p2.re - m2.re)) / (12.0 * h);
        fd_im = (8.0 * (p1.im - m1.im) - (p2.im - m2.im)) / (12.0 * h);
        scale = c_abs(dn);
        assert_close(dn.re, fd_re, 0.0, 1e-9 * scale);
        assert_close(dn.im, fd_im, 0.0, 1e-9 * scale);
      }
}

/* P(1/2 - s) = P(1/2 + s)^*, P'(1/2 - s) = -P'(1/2 + s)^*. */
static void test_conjugate_symmetry(void **state) {
  size_t i;
  int o, k;
  (void)state;
  for (i = 0; i < N_LOGXS; ++i)
    for (o = 0; o <= 1; ++o)
      for (k = 1; k < 50; ++k) {
        double s = 0.0099 * k;
        ekoc_complex np_, dp, nm, dm;
        ekoc_talbot_point(0.5 + s, LOGXS[i], o, &np_, &dp);
        ekoc_talbot_point(0.5 - s, LOGXS[i], o, &nm, &dm);
        assert_close(nm.re, np_.re, 1e-13, 1e-13 * c_abs(np_));
        assert_close(nm.im, -np_.im, 1e-13, 0.0);
        assert_close(dm.re, -dp.re, 1e-13, 1e-13 * c_abs(dp));
        assert_close(dm.im, dp.im, 1e-13, 0.0);
      }
}

/* theta cot theta and cot theta - theta/sin^2 theta against mpmath (40
 * digits), on both sides of the series switch at |theta| = 0.1. */
static void test_trig_parts(void **state) {
  static const double ref[][3] = {
      {1e-8, 0.99999999999999996667, -6.6666666666666667556e-9},
      {1e-3, 0.99999966666664444444, -0.00066666675555556825397},
      {0.05, 0.99916652774470072543, -0.033344448414021581683},
      {0.0999, 0.99667111454750516388, -0.066688749007617573889},
      {0.1001, 0.99665776341094545946, -0.066822616946680063842},
      {0.5, 0.91524386085622595963, -0.34485492795756949151},
      {-0.07, 0.99836613286199645173, 0.046697176911729994815},
      {2.5, -3.3466203207603784005, -8.3185951568346705653},
  };
  size_t i;
  (void)state;
  for (i = 0; i < sizeof ref / sizeof ref[0]; ++i) {
    assert_close(ekoc_talbot_theta_cot_(ref[i][0]), ref[i][1], 2e-16, 0.0);
    /* the trigonometric form loses ~eps/theta^2 relative to cancellation */
    assert_close(ekoc_talbot_djac_re_(ref[i][0]), ref[i][2], 2e-14, 0.0);
  }
  assert_true(ekoc_talbot_theta_cot_(0.0) == 1.0);
  assert_true(ekoc_talbot_djac_re_(0.0) == 0.0);
}

static void test_weight(void **state) {
  (void)state;
  /* Re(-i z)/pi = Im(z)/pi */
  assert_close(ekoc_talbot_weight_re(c_make(3.0, 4.0)), 4.0 / EKOC_PI, 1e-16, 0.0);
  assert_close(ekoc_talbot_weight_re(c_make(-7.0, -2.5)), -2.5 / EKOC_PI, 1e-16, 0.0);
}

/* Inversion of known transforms over eko's range t in [0.5, 0.95]:
 * Mellin[x^a](N) = 1/(N+a) and Mellin[-x^a ln x](N) = 1/(N+a)^2 on (0,1). */
struct inv_params {
  double logx, a;
  int o, power;
};

static double inv_integrand(double t, void *params) {
  const struct inv_params *p = (const struct inv_params *)params;
  ekoc_complex n, dn, g, z;
  ekoc_talbot_point(t, p->logx, p->o, &n, &dn);
  g = c_inv(c_add_real(n, p->a));
  if (p->power == 2) g = c_mul(g, g);
  z = c_mul(c_mul(c_exp(c_scale(n, -p->logx)), g), dn);
  return ekoc_talbot_weight_re(z);
}

static void test_inversion(void **state) {
  static const double xs[] = {1e-6, 1e-3, 0.1, 0.5, 0.9};
  static const double as[] = {0.0, 0.5, -0.3, 2.0};
  gsl_integration_workspace *w = gsl_integration_workspace_alloc(200);
  size_t i, k;
  int o, pw;
  (void)state;
  assert_non_null(w);
  ekoc_init(); /* GSL reports instead of aborting */
  for (i = 0; i < sizeof xs / sizeof xs[0]; ++i)
    for (k = 0; k < sizeof as / sizeof as[0]; ++k)
      for (o = 0; o <= 1; ++o)
        for (pw = 1; pw <= 2; ++pw) {
          struct inv_params p;
          gsl_function f;
          double val, err, want, lx = log(xs[i]);
          int st;
          p.logx = lx;
          p.a = as[k];
          p.o = o;
          p.power = pw;
          /* the pole -a must lie left of the crossing o + r */
          if (-as[k] >= o + ekoc_talbot_radius(lx)) continue;
          f.function = inv_integrand;
          f.params = &p;
          st = gsl_integration_qags(&f, EKOC_TALBOT_T_MIN, EKOC_TALBOT_T_MAX, 1e-12, 1e-10, 200, w, &val, &err);
          want = pow(xs[i], as[k]) * (pw == 2 ? -lx : 1.0);
          if (getenv("EKOC_TEST_VERBOSE"))
            print_message("x %g a %g o %d pw %d: st %d val %.17g want %.17g diff %.3g err %.3g\n", xs[i], as[k], o,
                          pw, st, val, want, val - want, err);
          /* the integrand peaks at t = 1/2 with |x^{-N}| = x^{-(o+r)} (5e8 for
           * x = 1e-6, o = 1), so rounding limits the result to ~eps times that;
           * GSL may then report GSL_EROUND, which is acceptable here */
          assert_true(st == GSL_SUCCESS || st == GSL_EROUND);
          assert_close(val, want, 1e-9, 1e-11 + 1e-14 * exp(-(o + ekoc_talbot_radius(lx)) * lx));
        }
  gsl_integration_workspace_free(w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_eko_reference),  cmocka_unit_test(test_radius),
      cmocka_unit_test(test_midpoint),       cmocka_unit_test(test_derivative_fd),
      cmocka_unit_test(test_conjugate_symmetry), cmocka_unit_test(test_trig_parts),
      cmocka_unit_test(test_weight),         cmocka_unit_test(test_inversion),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
