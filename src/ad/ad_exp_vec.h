/* ad_exp_vec.h: ekoc_exp_sincos (ad/ad_exp.h) for four lanes at once in GNU C
 * vectors (host code only: GCC and clang). Every lane gets the bits the
 * scalar function gives it: the same operations in the same order, and the
 * lanes outside the polynomials' range are handed to the scalar function
 * (libm). Include into functions that are inlined into baseline and AVX2
 * builds (quad/basis_group.c, ad/kernel_magnus_batch.c). */
#ifndef EKOC_AD_EXP_VEC_H
#define EKOC_AD_EXP_VEC_H

#include <stdint.h>

#include "ad/ad_exp.h"

/* Vectors pass by value only into always_inline functions: no call crosses
 * the ABI GCC warns about. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

typedef double ekoc_v4d __attribute__((vector_size(4 * sizeof(double))));
typedef int64_t ekoc_v4l __attribute__((vector_size(4 * sizeof(int64_t)))); /* a comparison of ekoc_v4d */
typedef uint64_t ekoc_v4u __attribute__((vector_size(4 * sizeof(uint64_t))));

static inline __attribute__((always_inline)) ekoc_v4d ekoc_v4_select(ekoc_v4l mask, ekoc_v4d a, ekoc_v4d b) {
  return (ekoc_v4d)(((ekoc_v4l)a & mask) | ((ekoc_v4l)b & ~mask));
}

/* ekoc_exp_sincos lane by lane. */
static inline __attribute__((always_inline)) void ekoc_v4_exp_sincos(ekoc_v4d x, ekoc_v4d y, ekoc_v4d *ex,
                                                                     ekoc_v4d *cs, ekoc_v4d *sn) {
  const ekoc_v4u abs_mask = (ekoc_v4u){0} + 0x7fffffffffffffffULL, sign = (ekoc_v4u){0} + 0x8000000000000000ULL;
  ekoc_v4d ax = (ekoc_v4d)((ekoc_v4u)x & abs_mask), ay = (ekoc_v4d)((ekoc_v4u)y & abs_mask);
  ekoc_v4l in = (ax <= EKOC_EXP_ARG_MAX) & (ay <= EKOC_SINCOS_ARG_MAX);
  ekoc_v4d tk = x * EKOC_EXP_INV_LN2 + EKOC_EXP_ROUND, k = tk - EKOC_EXP_ROUND;
  ekoc_v4d r = (x - k * EKOC_EXP_LN2_HI) - k * EKOC_EXP_LN2_LO;
  ekoc_v4d tj = y * EKOC_EXP_TWO_OVER_PI + EKOC_EXP_ROUND, j = tj - EKOC_EXP_ROUND;
  ekoc_v4d t = ((y - j * EKOC_EXP_PIO2_1) - j * EKOC_EXP_PIO2_2) - j * EKOC_EXP_PIO2_3, t2 = t * t;
  ekoc_v4d s = ekoc_v4_select(t == 0.0, t, EKOC_SIN_POLY(t, t2)), c = EKOC_COS_POLY(t2); /* sin(-0) = -0 */
  ekoc_v4u bj = (ekoc_v4u)tj, one = (ekoc_v4u){0} + 1u, two = (ekoc_v4u){0} + 2u;
  ekoc_v4u bs = ((ekoc_v4u)tk - EKOC_EXP_ROUND_BITS + 1023u) << 52;
  ekoc_v4l odd = (ekoc_v4l)((bj & one) != 0);
  ekoc_v4u neg_s = (ekoc_v4u)((ekoc_v4l)((bj & two) != 0)) & sign;
  ekoc_v4u neg_c = (ekoc_v4u)((ekoc_v4l)(((bj + one) & two) != 0)) & sign;
  int l;
  *ex = EKOC_EXP_POLY(r) * (ekoc_v4d)bs;
  *sn = (ekoc_v4d)((ekoc_v4u)ekoc_v4_select(odd, c, s) ^ neg_s);
  *cs = (ekoc_v4d)((ekoc_v4u)ekoc_v4_select(odd, s, c) ^ neg_c);
  if (in[0] & in[1] & in[2] & in[3]) return;
  for (l = 0; l < 4; ++l) { /* out of range: libm, as the scalar function */
    double e1, c1, s1;
    if (in[l]) continue;
    ekoc_exp_sincos(x[l], y[l], &e1, &c1, &s1);
    (*ex)[l] = e1;
    (*cs)[l] = c1;
    (*sn)[l] = s1;
  }
}

#pragma GCC diagnostic pop

#endif /* EKOC_AD_EXP_VEC_H */
