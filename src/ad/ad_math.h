/* ad_math.h: complex arithmetic and 2x2 complex matrices shared by host and
 * device code.
 *
 * Everything here is `EKOC_HD` (static inline, plus __host__ __device__ under
 * nvcc), so gcc compiles the very same math into the CPU library and tests and
 * nvcc into the CUDA kernels. Keep it inside the common subset of C11 and C++:
 * no compound literals, no `restrict`, no `_Complex`, no GSL, no errno/printf.
 */
#ifndef EKOC_AD_MATH_H
#define EKOC_AD_MATH_H

#include <math.h>

#include "ad/ad_exp.h" /* ekoc_exp_sincos */
#include "ekoc.h"      /* ekoc_complex */

#ifdef __CUDACC__
#define EKOC_HD __host__ __device__ static inline
#else
#define EKOC_HD static inline
#endif

#define EKOC_PI 3.14159265358979323846264338327950288
#define EKOC_ZETA2 1.64493406684822643647241516664602519
#define EKOC_ZETA3 1.20205690315959428539973816151144999
#define EKOC_ZETA4 1.08232323371113819151600369654116790
#define EKOC_LN2 0.693147180559945309417232121458176568
#define EKOC_EULER_GAMMA 0.577215664901532860606512090082402431

/* QCD colour factors (eko's constants). */
#define EKOC_CA 3.0
#define EKOC_CF (4.0 / 3.0)
#define EKOC_TR 0.5

/* ---- complex numbers ---------------------------------------------------- */

EKOC_HD ekoc_complex c_make(double re, double im) {
  ekoc_complex z;
  z.re = re;
  z.im = im;
  return z;
}
EKOC_HD ekoc_complex c_real(double re) { return c_make(re, 0.0); }
EKOC_HD ekoc_complex c_add(ekoc_complex a, ekoc_complex b) { return c_make(a.re + b.re, a.im + b.im); }
EKOC_HD ekoc_complex c_sub(ekoc_complex a, ekoc_complex b) { return c_make(a.re - b.re, a.im - b.im); }
EKOC_HD ekoc_complex c_neg(ekoc_complex a) { return c_make(-a.re, -a.im); }
EKOC_HD ekoc_complex c_scale(ekoc_complex a, double s) { return c_make(a.re * s, a.im * s); }
EKOC_HD ekoc_complex c_add_real(ekoc_complex a, double s) { return c_make(a.re + s, a.im); }
EKOC_HD ekoc_complex c_mul(ekoc_complex a, ekoc_complex b) {
  return c_make(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
/* a * b + c */
EKOC_HD ekoc_complex c_fma(ekoc_complex a, ekoc_complex b, ekoc_complex c) {
  return c_make(a.re * b.re - a.im * b.im + c.re, a.re * b.im + a.im * b.re + c.im);
}
EKOC_HD ekoc_complex c_conj(ekoc_complex a) { return c_make(a.re, -a.im); }
/* |a|: sqrt(re^2 + im^2) where the squares neither overflow nor underflow
 * (within 1 ulp of hypot, at a fraction of its cost: the singlet
 * exponentials take square roots at every N), hypot outside that range. */
EKOC_HD double c_abs(ekoc_complex a) {
  double s = a.re * a.re + a.im * a.im;
  return s > 1e-290 && s < 1e290 ? sqrt(s) : hypot(a.re, a.im);
}
EKOC_HD double c_abs2(ekoc_complex a) { return a.re * a.re + a.im * a.im; }
/* Smith's algorithm: avoids overflow for large |b|. */
EKOC_HD ekoc_complex c_div(ekoc_complex a, ekoc_complex b) {
  if (fabs(b.re) >= fabs(b.im)) {
    double r = b.im / b.re, d = b.re + b.im * r;
    return c_make((a.re + a.im * r) / d, (a.im - a.re * r) / d);
  } else {
    double r = b.re / b.im, d = b.re * r + b.im;
    return c_make((a.re * r + a.im) / d, (a.im * r - a.re) / d);
  }
}
EKOC_HD ekoc_complex c_inv(ekoc_complex b) { return c_div(c_real(1.0), b); }
/* e^a (ad/ad_exp.h: ekoc's own e^x, cos y, sin y; the same bits as the
 * grouped kernels' four lanes) */
EKOC_HD ekoc_complex c_exp(ekoc_complex a) {
  double m, cs, sn;
  ekoc_exp_sincos(a.re, a.im, &m, &cs, &sn);
  return c_make(m * cs, m * sn);
}
/* principal branch */
EKOC_HD ekoc_complex c_log(ekoc_complex a) { return c_make(log(c_abs(a)), atan2(a.im, a.re)); }
/* principal square root, numerically stable */
EKOC_HD ekoc_complex c_sqrt(ekoc_complex a) {
  double m = c_abs(a);
  if (m == 0.0) return c_real(0.0);
  if (a.re >= 0.0) {
    double t = sqrt(0.5 * (m + a.re));
    return c_make(t, a.im / (2.0 * t));
  } else {
    double t = sqrt(0.5 * (m - a.re));
    return c_make(fabs(a.im) / (2.0 * t), signbit(a.im) ? -t : t);
  }
}
EKOC_HD int c_isfinite(ekoc_complex a) { return isfinite(a.re) && isfinite(a.im); }

/* ---- 2x2 complex matrices, row-major m[0]=(0,0) m[1]=(0,1) m[2]=(1,0) m[3]=(1,1) */

typedef struct ekoc_cmat2 {
  ekoc_complex m[4];
} ekoc_cmat2;

EKOC_HD ekoc_cmat2 m2_zero(void) {
  ekoc_cmat2 r;
  int i;
  for (i = 0; i < 4; ++i) r.m[i] = c_real(0.0);
  return r;
}
EKOC_HD ekoc_cmat2 m2_identity(void) {
  ekoc_cmat2 r = m2_zero();
  r.m[0] = c_real(1.0);
  r.m[3] = c_real(1.0);
  return r;
}
EKOC_HD ekoc_cmat2 m2_add(ekoc_cmat2 a, ekoc_cmat2 b) {
  ekoc_cmat2 r;
  int i;
  for (i = 0; i < 4; ++i) r.m[i] = c_add(a.m[i], b.m[i]);
  return r;
}
EKOC_HD ekoc_cmat2 m2_sub(ekoc_cmat2 a, ekoc_cmat2 b) {
  ekoc_cmat2 r;
  int i;
  for (i = 0; i < 4; ++i) r.m[i] = c_sub(a.m[i], b.m[i]);
  return r;
}
EKOC_HD ekoc_cmat2 m2_scale(ekoc_cmat2 a, double s) {
  ekoc_cmat2 r;
  int i;
  for (i = 0; i < 4; ++i) r.m[i] = c_scale(a.m[i], s);
  return r;
}
EKOC_HD ekoc_cmat2 m2_cscale(ekoc_cmat2 a, ekoc_complex s) {
  ekoc_cmat2 r;
  int i;
  for (i = 0; i < 4; ++i) r.m[i] = c_mul(a.m[i], s);
  return r;
}
EKOC_HD ekoc_cmat2 m2_mul(ekoc_cmat2 a, ekoc_cmat2 b) {
  ekoc_cmat2 r;
  r.m[0] = c_add(c_mul(a.m[0], b.m[0]), c_mul(a.m[1], b.m[2]));
  r.m[1] = c_add(c_mul(a.m[0], b.m[1]), c_mul(a.m[1], b.m[3]));
  r.m[2] = c_add(c_mul(a.m[2], b.m[0]), c_mul(a.m[3], b.m[2]));
  r.m[3] = c_add(c_mul(a.m[2], b.m[1]), c_mul(a.m[3], b.m[3]));
  return r;
}
EKOC_HD ekoc_complex m2_det(ekoc_cmat2 a) { return c_sub(c_mul(a.m[0], a.m[3]), c_mul(a.m[1], a.m[2])); }
EKOC_HD ekoc_cmat2 m2_inverse(ekoc_cmat2 a) {
  ekoc_complex d = c_inv(m2_det(a));
  ekoc_cmat2 r;
  r.m[0] = c_mul(a.m[3], d);
  r.m[1] = c_neg(c_mul(a.m[1], d));
  r.m[2] = c_neg(c_mul(a.m[2], d));
  r.m[3] = c_mul(a.m[0], d);
  return r;
}

/* Eigen-decomposition of a 2x2 matrix: eigenvalues lambda_+/- (principal
 * square root of the discriminant) and projectors e_+/- = +-(M - lambda_-/+)/(lambda_+ - lambda_-),
 * so that M = lambda_+ e_+ + lambda_- e_-. Degenerate eigenvalues are not
 * guarded (as in eko): they do not occur for QCD anomalous dimensions on the
 * inversion path. */
typedef struct ekoc_eig2 {
  ekoc_complex lambda_p, lambda_m;
  ekoc_cmat2 e_p, e_m;
} ekoc_eig2;

EKOC_HD ekoc_eig2 m2_eig(ekoc_cmat2 a) {
  ekoc_eig2 r;
  ekoc_complex diff = c_sub(a.m[0], a.m[3]);
  ekoc_complex disc = c_sqrt(c_add(c_mul(diff, diff), c_scale(c_mul(a.m[1], a.m[2]), 4.0)));
  ekoc_complex tr = c_add(a.m[0], a.m[3]);
  ekoc_complex inv_gap;
  ekoc_cmat2 id = m2_identity();
  r.lambda_p = c_scale(c_add(tr, disc), 0.5);
  r.lambda_m = c_scale(c_sub(tr, disc), 0.5);
  inv_gap = c_inv(disc); /* lambda_+ - lambda_- = disc */
  r.e_p = m2_cscale(m2_sub(a, m2_cscale(id, r.lambda_m)), inv_gap);
  r.e_m = m2_cscale(m2_sub(a, m2_cscale(id, r.lambda_p)), c_neg(inv_gap));
  return r;
}

/* cosh(z) and sinh(z)/z from their series in z2 = z^2, for |z2| < 1e-6 (the
 * first omitted terms are below 1e-36): 1 + z2/2 + z2^2/24 + z2^3/720 +
 * z2^4/40320 and 1 + z2/6 + z2^2/120 + z2^3/5040 + z2^4/362880. */
EKOC_HD void m2_cosh_sinhc_series(ekoc_complex z2, ekoc_complex *ch, ekoc_complex *sh) {
  *ch = c_add_real(c_mul(z2, c_add_real(c_mul(z2, c_add_real(c_mul(z2, c_add_real(c_scale(z2, 1.0 / 40320.0),
                                                                                     1.0 / 720.0)),
                                                             1.0 / 24.0)),
                                        0.5)),
                   1.0);
  *sh = c_add_real(c_mul(z2, c_add_real(c_mul(z2, c_add_real(c_mul(z2, c_add_real(c_scale(z2, 1.0 / 362880.0),
                                                                                     1.0 / 5040.0)),
                                                             1.0 / 120.0)),
                                        1.0 / 6.0)),
                   1.0);
}

/* exp(M) = e_+ exp(lambda_+) + e_- exp(lambda_-). When the eigenvalues
 * (nearly) coincide, |lambda_+ - lambda_-| = |d| < 2e-3, the projectors
 * divide by d (0/0 = NaN for d = 0, e.g. M = 0), so there
 *   exp(M) = e^t [cosh(z) 1 + sinh(z)/z (M - t 1)],  t = tr M / 2, z = d / 2,
 * with cosh z and sinh(z)/z from their series in z^2 (|z^2| < 1e-6: the first
 * omitted terms are below 1e-36). */
EKOC_HD ekoc_cmat2 m2_exp(ekoc_cmat2 a) {
  ekoc_complex diff = c_sub(a.m[0], a.m[3]);
  ekoc_complex z2 = c_scale(c_add(c_mul(diff, diff), c_scale(c_mul(a.m[1], a.m[2]), 4.0)), 0.25);
  if (c_abs2(z2) < 1e-12) { /* |z2| < 1e-6 */
    ekoc_complex t = c_scale(c_add(a.m[0], a.m[3]), 0.5), ch, sh, et = c_exp(t);
    ekoc_cmat2 r;
    m2_cosh_sinhc_series(z2, &ch, &sh);
    r = m2_cscale(a, sh);
    r.m[0] = c_add(r.m[0], c_sub(ch, c_mul(sh, t)));
    r.m[3] = c_add(r.m[3], c_sub(ch, c_mul(sh, t)));
    return m2_cscale(r, et);
  }
  {
    /* the same sum e_+ exp(lambda_+) + e_- exp(lambda_-) with the projectors
     * e_+- = 1/2 +- (M - t 1)/(2z) written out, lambda_+- = t +- z (z = sqrt z2,
     * either branch: the sum is even in z): c0 1 + c1 (M - t 1) with
     * c0 = (E_+ + E_-)/2, c1 = (E_+ - E_-)/(2z); half the products of forming
     * both projectors (the iterate methods take one per step and N) */
    ekoc_complex t = c_scale(c_add(a.m[0], a.m[3]), 0.5), z = c_sqrt(z2);
    ekoc_complex ep = c_exp(c_add(t, z)), em = c_exp(c_sub(t, z));
    ekoc_complex c0 = c_scale(c_add(ep, em), 0.5), c1 = c_div(c_sub(ep, em), c_scale(z, 2.0));
    ekoc_complex h = c_mul(c1, c_scale(diff, 0.5)); /* c1 (M - t 1)_00 = -c1 (M - t 1)_11 */
    ekoc_cmat2 r;
    r.m[0] = c_add(c0, h);
    r.m[1] = c_mul(c1, a.m[1]);
    r.m[2] = c_mul(c1, a.m[2]);
    r.m[3] = c_sub(c0, h);
    return r;
  }
}

#endif /* EKOC_AD_MATH_H */
