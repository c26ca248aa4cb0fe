/* test_ad_exp.c: ekoc's own e^x, cos y, sin y (src/ad/ad_exp.h) against
 * libm, and its four-lane form (src/ad/ad_exp_vec.h) bitwise against the
 * scalar one: random arguments over the whole polynomial range and the ranges
 * the engine meets, the quadrant boundaries, signed zeros, and lanes outside
 * the range (NaN, infinities, huge arguments) mixed with lanes inside. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "ad/ad_exp_vec.h"
#include "ad/ad_math.h"

#pragma GCC diagnostic ignored "-Wpsabi" /* ekoc_v4d values in the test, baseline build */

/* xorshift64*: a fixed sequence, so a failure repeats */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static double uniform(double lo, double hi) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return lo + (hi - lo) * (double)((rng_state * 0x2545f4914f6cdd1dULL) >> 11) * 0x1.0p-53;
}

static int64_t ordered_bits(double v) {
  int64_t b;
  memcpy(&b, &v, sizeof b);
  return b < 0 ? INT64_MIN - b : b;
}
/* distance in units in the last place (same sign assumed) */
static int64_t ulps(double a, double b) {
  int64_t d = ordered_bits(a) - ordered_bits(b);
  return d < 0 ? -d : d;
}
static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Against libm: e^x within 4 ulp, cos and sin within 4 ulp of 1 absolutely
 * (near their zeros only an absolute bound is meaningful for a reduced
 * argument); over [lo, hi] for x and y. Returns the worst e^x ulps. */
static int64_t check_range(double xlo, double xhi, double ylo, double yhi, int n) {
  int64_t worst = 0;
  int i;
  for (i = 0; i < n; ++i) {
    double x = uniform(xlo, xhi), y = uniform(ylo, yhi), ex, cs, sn;
    int64_t u;
    ekoc_exp_sincos(x, y, &ex, &cs, &sn);
    u = ulps(ex, exp(x));
    if (u > worst) worst = u;
    if (u > 4) fail_msg("exp(%.17g) = %.17g, libm %.17g (%lld ulp)", x, ex, exp(x), (long long)u);
    if (fabs(cs - cos(y)) > 4 * 0x1.0p-53 || fabs(sn - sin(y)) > 4 * 0x1.0p-53)
      fail_msg("cos/sin(%.17g) = %.17g %.17g, libm %.17g %.17g", y, cs, sn, cos(y), sin(y));
  }
  return worst;
}

static void test_against_libm(void **state) {
  (void)state;
  check_range(-EKOC_EXP_ARG_MAX, EKOC_EXP_ARG_MAX, -EKOC_SINCOS_ARG_MAX, EKOC_SINCOS_ARG_MAX, 200000);
  check_range(-50.0, 50.0, -400.0, 400.0, 200000); /* the engine's node exponentials and Magnus steps */
  check_range(-1e-3, 1e-3, -3.0, 3.0, 50000);       /* near 0 and across the first quadrants */
}

/* Exact values and the quadrant boundaries: cos and sin at j pi/2 (+- a few
 * ulp), e^0 = 1, and the sign of zero kept: sin(-0) = -0. */
static void test_special_points(void **state) {
  double ex, cs, sn;
  int j;
  (void)state;
  ekoc_exp_sincos(0.0, 0.0, &ex, &cs, &sn);
  assert_true(ex == 1.0 && cs == 1.0 && same_bits(sn, 0.0));
  ekoc_exp_sincos(-0.0, -0.0, &ex, &cs, &sn);
  assert_true(ex == 1.0 && cs == 1.0 && same_bits(sn, -0.0));
  ekoc_exp_sincos(1.0, 0.0, &ex, &cs, &sn);
  assert_true(ulps(ex, exp(1.0)) <= 1);
  for (j = -40; j <= 40; ++j) {
    double y = j * (EKOC_PI / 2), d;
    for (d = -3; d <= 3; ++d) {
      double yy = nextafter(y, d < 0 ? -INFINITY : INFINITY);
      ekoc_exp_sincos(0.0, d == 0 ? y : yy, &ex, &cs, &sn);
      assert_true(fabs(cs - cos(d == 0 ? y : yy)) <= 2 * 0x1.0p-53);
      assert_true(fabs(sn - sin(d == 0 ? y : yy)) <= 2 * 0x1.0p-53);
    }
  }
}

/* Outside the range the libm functions answer, bit for bit. */
static void test_outside_range(void **state) {
  const double xs[] = {NAN, INFINITY, -INFINITY, 701.0, -701.0, -745.5, 710.0, 0.5};
  const double ys[] = {0.3, NAN, INFINITY, 1.5e5, -1e6, 1e300, 0.0, -INFINITY};
  size_t i;
  (void)state;
  for (i = 0; i < sizeof xs / sizeof xs[0]; ++i) {
    double ex, cs, sn;
    ekoc_exp_sincos(xs[i], ys[i], &ex, &cs, &sn);
    assert_true(same_bits(ex, exp(xs[i])) && same_bits(cs, cos(ys[i])) && same_bits(sn, sin(ys[i])));
  }
}

/* The four lanes have the scalar bits, in and out of range, in every lane. */
static void check_lanes(const double x[4], const double y[4]) {
  ekoc_v4d vx, vy, ve, vc, vs;
  int l;
  memcpy(&vx, x, sizeof vx);
  memcpy(&vy, y, sizeof vy);
  ekoc_v4_exp_sincos(vx, vy, &ve, &vc, &vs);
  for (l = 0; l < 4; ++l) {
    double ex, cs, sn;
    ekoc_exp_sincos(x[l], y[l], &ex, &cs, &sn);
    if (!same_bits(ex, ve[l]) || !same_bits(cs, vc[l]) || !same_bits(sn, vs[l]))
      fail_msg("lane %d at (%.17g, %.17g): %.17g %.17g %.17g, scalar %.17g %.17g %.17g", l, x[l], y[l], ve[l],
               vc[l], vs[l], ex, cs, sn);
  }
}

static void test_lanes_bitwise(void **state) {
  const double odd[] = {NAN, INFINITY, -800.0, 2e5, -0.0, 0.0, 1e-300, -EKOC_EXP_ARG_MAX};
  int i, l;
  (void)state;
  for (i = 0; i < 100000; ++i) {
    double x[4], y[4];
    for (l = 0; l < 4; ++l) {
      x[l] = uniform(-60.0, 60.0);
      y[l] = uniform(-500.0, 500.0);
      if (i % 7 == 0 && (int)uniform(0, 4) == l) x[l] = odd[(int)uniform(0, 8)]; /* some lanes out of range */
      if (i % 11 == 0 && (int)uniform(0, 4) == l) y[l] = odd[(int)uniform(0, 8)];
    }
    check_lanes(x, y);
  }
}

/* c_exp is e^re (cos im, sin im) from the same parts. */
static void test_c_exp(void **state) {
  ekoc_complex z = c_exp(c_make(-2.5, 7.25));
  double ex, cs, sn;
  (void)state;
  ekoc_exp_sincos(-2.5, 7.25, &ex, &cs, &sn);
  assert_true(same_bits(z.re, ex * cs) && same_bits(z.im, ex * sn));
  assert_true(fabs(z.re - exp(-2.5) * cos(7.25)) <= 4e-16 * exp(-2.5));
  assert_true(fabs(z.im - exp(-2.5) * sin(7.25)) <= 4e-16 * exp(-2.5));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_against_libm),  cmocka_unit_test(test_special_points), cmocka_unit_test(test_outside_range),
      cmocka_unit_test(test_lanes_bitwise), cmocka_unit_test(test_c_exp),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
