/* talbot.h: the Talbot path of the inverse Mellin transform, as eko uses it
 * (docs/physics.md §3; eko module eko.mellin; [Abate] J. Abate, P. Valko,
 * Int. J. Numer. Meth. Eng. 60 (2004) 979).
 *
 *   theta = pi (2t - 1),  t in (0, 1)
 *   N(t)  = o + r (theta cot theta + i theta)
 *   dN/dt = 2 pi r (cot theta - theta / sin^2 theta + i)
 *   r     = 0.4 * 16 / (0.1 - ln x)   (ln x: the inversion point, ln x <= 0)
 *   o     = 1 for singlet-like kernels, 0 for non-singlet ones.
 *
 * Only the upper half t in [1/2, 1) is integrated (the two halves are complex
 * conjugates), over eko's range [EKOC_TALBOT_T_MIN, EKOC_TALBOT_T_MAX]:
 *
 *   g(x) = (1/pi) Int dt Re[-i x^{-N} g~(N) dN/dt] = Int dt ekoc_talbot_weight_re(...).
 *
 * Host and device code (EKOC_HD); common subset of C11 and C++.
 */
#ifndef EKOC_QUAD_TALBOT_H
#define EKOC_QUAD_TALBOT_H

#include "ad/ad_math.h"

/* eko's integration range on the upper half path: [0.5, 1 - mellin_cut],
 * mellin_cut = 0.05 (Operator.run_op_integration). */
#define EKOC_TALBOT_T_MIN 0.5
#define EKOC_TALBOT_T_MAX 0.95

/* Below this |theta| the path uses Taylor series instead of the trigonometric
 * forms, which cancel catastrophically in dN/dt near theta = 0 (series
 * truncation error there is ~1e-16 relative, checked against mpmath). */
#define EKOC_TALBOT_SERIES_THETA 0.1

/* Talbot radius r = 0.4*16/(0.1 - ln x): Abate's 0.4*M/(-ln x) with M = 16
 * digits, regularised by eko at x -> 1 with the 0.1 (docs/physics.md §3, §12.1).
 * Defined for ln x <= 0 (grid points are in (0,1]); no checks. */
EKOC_HD double ekoc_talbot_radius(double logx) { return 0.4 * 16.0 / (0.1 - logx); }

/* theta cot theta, exact 1 at theta = 0 (Taylor series for small |theta|). */
EKOC_HD double ekoc_talbot_theta_cot_(double theta) {
  if (fabs(theta) < EKOC_TALBOT_SERIES_THETA) {
    double s = theta * theta;
    /* 1 - s/3 - s^2/45 - 2 s^3/945 - s^4/4725 - 2 s^5/93555 */
    return 1.0 + s * (-1.0 / 3.0 + s * (-1.0 / 45.0 + s * (-2.0 / 945.0 + s * (-1.0 / 4725.0 + s * (-2.0 / 93555.0)))));
  }
  return theta / tan(theta);
}

/* cot theta - theta / sin^2 theta, exact 0 at theta = 0 (Taylor series for
 * small |theta|: -2t/3 - 4t^3/45 - 4t^5/315 - 8t^7/4725 - 4t^9/18711
 * - 5528t^11/212837625). */
EKOC_HD double ekoc_talbot_djac_re_(double theta) {
  if (fabs(theta) < EKOC_TALBOT_SERIES_THETA) {
    double s = theta * theta;
    return theta * (-2.0 / 3.0 +
                    s * (-4.0 / 45.0 +
                         s * (-4.0 / 315.0 + s * (-8.0 / 4725.0 + s * (-4.0 / 18711.0 + s * (-5528.0 / 212837625.0))))));
  }
  {
    double sn = sin(theta);
    return cos(theta) / sn - theta / (sn * sn);
  }
}

/* The path point N(t) and its derivative dN/dt on the path of radius r;
 * singlet_like != 0 selects the offset o = 1, else o = 0. t = 1/2 gives
 * exactly N = o + r, dN/dt = 2 pi r i. Valid for t in (0, 1) (the end points
 * are the path's asymptotes); no checks, never fails. */
EKOC_HD void ekoc_talbot_point_r(double t, double r, int singlet_like, ekoc_complex *n, ekoc_complex *dn_dt) {
  double o = singlet_like ? 1.0 : 0.0;
  double theta = EKOC_PI * (2.0 * t - 1.0);
  n->re = o + r * ekoc_talbot_theta_cot_(theta);
  n->im = r * theta;
  dn_dt->re = 2.0 * EKOC_PI * r * ekoc_talbot_djac_re_(theta);
  dn_dt->im = 2.0 * EKOC_PI * r;
}

/* A path moved off a pole of the truncated solutions (quad/path_radius.h)
 * crosses the real axis at o + r but returns to eko's path (radius r0) away
 * from the axis: radius rho(theta) = r0 + (r - r0) w(theta) with
 * w = exp(-(theta/theta_w)^4), theta_w = EKOC_TALBOT_MOVE_THETA: w = 1 - 2.4e-4
 * at theta = 0.1 (the crossing keeps its distance from the pole), below 1e-67
 * at eko's Mellin cut (theta = 0.9 pi), where the point is eko's (to rounding).
 * Both ends being eko's, the integral over [1/2, 1 - cut] is eko's (Cauchy:
 * the region between the two paths holds no singularity when no pole lies
 * between o + r0 and o + r, and the real segment between the crossings adds
 * nothing to the imaginary part that is taken); a whole path of radius r
 * would change it by the difference of the parts beyond the cut, which the
 * basis transforms' algebraic decay next to the diagonal leaves far from
 * negligible (docs/physics.md §3.1). */
#define EKOC_TALBOT_MOVE_THETA 0.8

/* N and dN/dt at theta (tc = theta cot theta, dj = cot theta - theta /
 * sin^2 theta) on the path of crossing radius r returning to eko's radius r0
 * (above); exactly the Talbot point of radius r when r == r0. */
EKOC_HD void ekoc_talbot_point_moved_(double theta, double tc, double dj, double r0, double r, int singlet_like,
                                      ekoc_complex *n, ekoc_complex *dn_dt) {
  double o = singlet_like ? 1.0 : 0.0;
  if (r == r0) {
    n->re = o + r * tc;
    n->im = r * theta;
    dn_dt->re = 2.0 * EKOC_PI * r * dj;
    dn_dt->im = 2.0 * EKOC_PI * r;
  } else {
    double s = theta / EKOC_TALBOT_MOVE_THETA, s2 = s * s, w = exp(-s2 * s2);
    double rho = r0 + (r - r0) * w;
    /* d rho / d theta = (r - r0) w'(theta), w' = -4 s^3 w / theta_w */
    double drho = -(r - r0) * 4.0 * s2 * s * w / EKOC_TALBOT_MOVE_THETA;
    n->re = o + rho * tc;
    n->im = rho * theta;
    /* dN/dt = 2 pi dN/dtheta = 2 pi [rho (dj + i) + rho' (tc + i theta)] */
    dn_dt->re = 2.0 * EKOC_PI * (rho * dj + drho * tc);
    dn_dt->im = 2.0 * EKOC_PI * (rho + drho * theta);
  }
}

/* ekoc_talbot_point_r on the moved path of crossing radius r for the
 * inversion point ln x = logx (eko's radius ekoc_talbot_radius(logx) away
 * from the axis); ekoc_talbot_point_r itself when r is eko's radius. */
EKOC_HD void ekoc_talbot_point_moved(double t, double logx, double r, int singlet_like, ekoc_complex *n,
                                     ekoc_complex *dn_dt) {
  double theta = EKOC_PI * (2.0 * t - 1.0);
  ekoc_talbot_point_moved_(theta, ekoc_talbot_theta_cot_(theta), ekoc_talbot_djac_re_(theta),
                           ekoc_talbot_radius(logx), r, singlet_like, n, dn_dt);
}

/* The same on eko's path of the inversion point ln x = logx (r = ekoc_talbot_radius(logx)). */
EKOC_HD void ekoc_talbot_point(double t, double logx, int singlet_like, ekoc_complex *n, ekoc_complex *dn_dt) {
  ekoc_talbot_point_r(t, ekoc_talbot_radius(logx), singlet_like, n, dn_dt);
}

/* The real integrand from z = x^{-N} g~(N) dN/dt: Re(-i z)/pi = Im(z)/pi,
 * i.e. eko's Path.prefactor -i/pi applied and the real part taken. */
EKOC_HD double ekoc_talbot_weight_re(ekoc_complex value_times_dn) { return value_times_dn.im / EKOC_PI; }

#endif /* EKOC_QUAD_TALBOT_H */
