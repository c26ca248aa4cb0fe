/* kernel_test_math.h: complex and 2x2 matrix comparisons and the independent
 * RK4 solution of the evolution equation, shared by the kernel tests
 * (test_kernels.c, test_n3lo_kernels.c, test_scale_variation.c).
 *
 * Include after test_util.h (cmocka) and ad/ad_math.h. */
#ifndef EKOC_KERNEL_TEST_MATH_H
#define EKOC_KERNEL_TEST_MATH_H

#include <math.h>

#include "ad/ad_math.h"

/* max_k |a_k|; NaN if an entry is NaN (so that a NaN result fails every
 * "m2_reldiff(...) < bound" check instead of reading as 0) */
static double m2_maxabs(ekoc_cmat2 a) {
  double m = 0.0;
  int k;
  for (k = 0; k < 4; ++k)
    if (!(c_abs(a.m[k]) <= m)) m = c_abs(a.m[k]);
  return m;
}

/* max_k |a_k - b_k| / max_k |b_k| */
static double m2_reldiff(ekoc_cmat2 a, ekoc_cmat2 b) { return m2_maxabs(m2_sub(a, b)) / m2_maxabs(b); }

/* |got - want| <= rtol |want| + atol */
static void assert_cclose_abs(ekoc_complex got, ekoc_complex want, double rtol, double atol, const char *what) {
  double d = c_abs(c_sub(got, want));
  if (!(d <= rtol * c_abs(want) + atol))
    fail_msg("%s: got (%.17g, %.17g) want (%.17g, %.17g), |diff| %.3g", what, got.re, got.im, want.re, want.im, d);
}

/* |got - want| <= rtol |want| */
static void assert_cclose(ekoc_complex got, ekoc_complex want, double rtol, const char *what) {
  double d = c_abs(c_sub(got, want));
  if (!(d <= rtol * c_abs(want)))
    fail_msg("%s: got (%.17g, %.17g) want (%.17g, %.17g), rel diff %.3g > %.3g", what, got.re, got.im, want.re,
             want.im, d / c_abs(want), rtol);
}

/* every entry within rtol of its own size plus small * max|want| */
static void assert_m2close(ekoc_cmat2 got, ekoc_cmat2 want, double rtol, double small, const char *what) {
  double scale = m2_maxabs(want);
  int k;
  for (k = 0; k < 4; ++k) {
    double d = c_abs(c_sub(got.m[k], want.m[k]));
    if (!(d <= rtol * c_abs(want.m[k]) + small * scale))
      fail_msg("%s: entry %d got (%.17g, %.17g) want (%.17g, %.17g), |diff| %.3g", what, k, got.m[k].re,
               got.m[k].im, want.m[k].re, want.m[k].im, d);
  }
}

/* Independent solution of dE/du = [sum_i gamma^(i) a^i / sum_i beta_i a^i] E,
 * u = ln a, from a0 to a1 (docs/physics.md §1.1 with -gamma/beta(a) da rewritten
 * in ln a): RK4 with nsteps steps. The ns case is the 1x1 diagonal entry. */
static ekoc_cmat2 ode_rhs(int order, const double *beta, const ekoc_cmat2 *g, double a) {
  ekoc_cmat2 num = m2_zero();
  double den = 0.0, p = 1.0;
  int i;
  for (i = 0; i < order; ++i) {
    num = m2_add(num, m2_scale(g[i], p));
    den += beta[i] * p;
    p *= a;
  }
  return m2_scale(num, 1.0 / den);
}
static ekoc_cmat2 ode_solve(int order, const double *beta, const ekoc_cmat2 *g, double a0, double a1, int nsteps) {
  double u0 = log(a0), h = (log(a1) - u0) / nsteps;
  ekoc_cmat2 e = m2_identity();
  int s;
  for (s = 0; s < nsteps; ++s) {
    double u = u0 + s * h;
    ekoc_cmat2 r1 = ode_rhs(order, beta, g, exp(u));
    ekoc_cmat2 r2 = ode_rhs(order, beta, g, exp(u + 0.5 * h));
    ekoc_cmat2 r4 = ode_rhs(order, beta, g, exp(u + h));
    ekoc_cmat2 k1 = m2_mul(r1, e);
    ekoc_cmat2 k2 = m2_mul(r2, m2_add(e, m2_scale(k1, 0.5 * h)));
    ekoc_cmat2 k3 = m2_mul(r2, m2_add(e, m2_scale(k2, 0.5 * h)));
    ekoc_cmat2 k4 = m2_mul(r4, m2_add(e, m2_scale(k3, h)));
    e = m2_add(e, m2_scale(m2_add(m2_add(k1, k4), m2_scale(m2_add(k2, k3), 2.0)), h / 6.0));
  }
  return e;
}

#endif /* EKOC_KERNEL_TEST_MATH_H */
