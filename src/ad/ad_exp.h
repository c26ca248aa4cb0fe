/* ad_exp.h: e^x, cos y and sin y together, the parts of every complex
 * exponential (c_exp, the Magnus steps' 2x2 exponentials, the basis
 * transforms' node factors x^N), by ekoc's own argument reduction and
 * polynomials (docs/architecture.md, "One exponential").
 *
 * Why not libm: the batch engine evaluates these for groups of nodes side by
 * side (ad/ad_exp_vec.h, four lanes in one vector register), and libm has no
 * vector form GCC calls on its own; a scalar libm call per lane was ~9 % of the
 * converged LHA run. The scalar function here and the vector one perform the
 * very same IEEE operations in the same order (no FMA in either build), so a
 * node has the same bits whichever computes it (tests/test_ad_exp.c).
 *
 * Method (Cody-Waite reduction, Taylor polynomials):
 * - e^x = 2^k e^r, k = round(x / ln 2), r = (x - k ln2_hi) - k ln2_lo with
 *   ln2_hi of 32 significant bits (k ln2_hi exact for |k| < 2^21), |r| <= 0.347;
 *   e^r by its Taylor polynomial to r^13 (the first omitted term < 5e-18).
 * - y = j pi/2 + t, j = round(2 y / pi), t = ((y - j p1) - j p2) - j p3 with
 *   pi/2 = p1 + p2 + p3 + O(1e-31), p1, p2, p3 of 33 bits (each j p_i exact
 *   for |j| < 2^20); sin t to t^17 and cos t to t^18 on |t| <= pi/4 (first
 *   omitted terms < 1e-19), then the quadrant j mod 4 picks and signs them.
 * - round() is the 1.5 2^52 trick: x + 1.5 2^52 rounds x to an integer in the
 *   last bits of the sum's mantissa, which are also k's and j's bits.
 * Outside |x| <= EKOC_EXP_ARG_MAX, |y| <= EKOC_SINCOS_ARG_MAX (or for NaN) the
 * libm functions answer: overflow, underflow and huge phases stay theirs.
 * Measured against libm (4 million random arguments over the range and the
 * engine's): e^x at most 1 ulp apart, cos and sin at most 2^-52 absolutely
 * (tests/test_ad_exp.c asserts 4 ulp and 2^-51).
 *
 * Device code (nvcc's device pass) keeps CUDA's exp, cos and sin: the device
 * is not bitwise the host anyway (it contracts to FMA); the host build of the
 * device math uses this file like the rest of the library.
 */
#ifndef EKOC_AD_EXP_H
#define EKOC_AD_EXP_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define EKOC_EXP_HD __host__ __device__ static inline
#else
#define EKOC_EXP_HD static inline
#endif

#define EKOC_EXP_ARG_MAX 700.0  /* |x| up to which e^x is ekoc's: 2^k stays a normal number */
#define EKOC_SINCOS_ARG_MAX 1e5 /* |y| up to which the reduction is exact: |j| < 2^16 */

#define EKOC_EXP_ROUND 6755399441055744.0 /* 1.5 * 2^52 */
#define EKOC_EXP_ROUND_BITS 0x4338000000000000ULL
#define EKOC_EXP_INV_LN2 1.44269504088896338700e+00
#define EKOC_EXP_LN2_HI 6.93147180369123816490e-01 /* 0x3fe62e42fee00000 */
#define EKOC_EXP_LN2_LO 1.90821492927058770002e-10
#define EKOC_EXP_TWO_OVER_PI 6.36619772367581382433e-01
#define EKOC_EXP_PIO2_1 1.57079632673412561417e+00 /* 0x3ff921fb54400000 */
#define EKOC_EXP_PIO2_2 6.07710050630396597660e-11 /* 0x3dd0b4611a600000 */
#define EKOC_EXP_PIO2_3 2.02226624871116645580e-21 /* 0x3ba3198a2e000000 */

/* 1/n! for the Taylor polynomials */
#define EKOC_EXP_F2 0.5
#define EKOC_EXP_F3 0.16666666666666666
#define EKOC_EXP_F4 0.041666666666666664
#define EKOC_EXP_F5 0.008333333333333333
#define EKOC_EXP_F6 0.001388888888888889
#define EKOC_EXP_F7 0.0001984126984126984
#define EKOC_EXP_F8 2.48015873015873e-05
#define EKOC_EXP_F9 2.7557319223985893e-06
#define EKOC_EXP_F10 2.755731922398589e-07
#define EKOC_EXP_F11 2.505210838544172e-08
#define EKOC_EXP_F12 2.08767569878681e-09
#define EKOC_EXP_F13 1.6059043836821613e-10
#define EKOC_EXP_F14 1.1470745597729725e-11
#define EKOC_EXP_F15 7.647163731819816e-13
#define EKOC_EXP_F16 4.779477332387385e-14
#define EKOC_EXP_F17 2.8114572543455206e-15
#define EKOC_EXP_F18 1.5619206968586225e-16

/* The polynomials, written once as macros so that the scalar and the vector
 * builds expand to the same operations (T: double or a vector of them). */
#define EKOC_EXP_H(p, v, c) ((p) * (v) + (c)) /* one Horner step */
/* e^r = sum_{n <= 13} r^n / n! */
#define EKOC_EXP_POLY(r) \
  EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H( \
  EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_F13, r, EKOC_EXP_F12), r, EKOC_EXP_F11), r, EKOC_EXP_F10), r, \
  EKOC_EXP_F9), r, EKOC_EXP_F8), r, EKOC_EXP_F7), r, EKOC_EXP_F6), r, EKOC_EXP_F5), r, EKOC_EXP_F4), r, \
  EKOC_EXP_F3), r, EKOC_EXP_F2), r, 1.0), r, 1.0)
/* sin t = t + t^3 P(t^2), t2 = t^2 */
#define EKOC_SIN_POLY(t, t2) \
  ((t) + ((t) * (t2)) * \
  EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_F17, t2, -EKOC_EXP_F15), \
  t2, EKOC_EXP_F13), t2, -EKOC_EXP_F11), t2, EKOC_EXP_F9), t2, -EKOC_EXP_F7), t2, EKOC_EXP_F5), t2, \
  -EKOC_EXP_F3))
/* cos t = 1 + t^2 Q(t^2) */
#define EKOC_COS_POLY(t2) \
  (1.0 + (t2) * \
  EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(EKOC_EXP_H(-EKOC_EXP_F18, t2, \
  EKOC_EXP_F16), t2, -EKOC_EXP_F14), t2, EKOC_EXP_F12), t2, -EKOC_EXP_F10), t2, EKOC_EXP_F8), t2, -EKOC_EXP_F6), \
  t2, EKOC_EXP_F4), t2, -EKOC_EXP_F2))

/* Whether (x, y) is in the polynomials' range (NaN is not). */
EKOC_EXP_HD int ekoc_exp_sincos_in_range(double x, double y) {
  return fabs(x) <= EKOC_EXP_ARG_MAX && fabs(y) <= EKOC_SINCOS_ARG_MAX;
}

/* *ex = e^x, *cs = cos y, *sn = sin y. */
EKOC_EXP_HD void ekoc_exp_sincos(double x, double y, double *ex, double *cs, double *sn) {
#ifndef __CUDA_ARCH__
  if (ekoc_exp_sincos_in_range(x, y)) {
    double tk = x * EKOC_EXP_INV_LN2 + EKOC_EXP_ROUND, k = tk - EKOC_EXP_ROUND;
    double r = (x - k * EKOC_EXP_LN2_HI) - k * EKOC_EXP_LN2_LO;
    double tj = y * EKOC_EXP_TWO_OVER_PI + EKOC_EXP_ROUND, j = tj - EKOC_EXP_ROUND;
    double t = ((y - j * EKOC_EXP_PIO2_1) - j * EKOC_EXP_PIO2_2) - j * EKOC_EXP_PIO2_3, t2 = t * t;
    double s = t == 0.0 ? t : EKOC_SIN_POLY(t, t2), c = EKOC_COS_POLY(t2), scale; /* sin(-0) = -0 */
    uint64_t bk, bj, bs;
    memcpy(&bk, &tk, sizeof bk);
    memcpy(&bj, &tj, sizeof bj);
    bs = (bk - EKOC_EXP_ROUND_BITS + 1023u) << 52; /* 2^k */
    memcpy(&scale, &bs, sizeof scale);
    *ex = EKOC_EXP_POLY(r) * scale;
    *sn = (bj & 1u) ? c : s;
    *cs = (bj & 1u) ? s : c;
    if (bj & 2u) *sn = -*sn;
    if ((bj + 1u) & 2u) *cs = -*cs;
    return;
  }
#endif
  *ex = exp(x);
  *cs = cos(y);
  *sn = sin(y);
}

#endif /* EKOC_AD_EXP_H */
