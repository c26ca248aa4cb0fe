/* kernel_magnus_batch.c: ekoc_kernel_singlet_magnus for groups of points
 * (kernel_magnus_batch.h). Each group of LANES points is held as a
 * structure of arrays: a complex number of the group is two arrays of LANES
 * doubles, a 2x2 matrix four such numbers, and every operation below is the
 * one of ad/ad_math.h or ad/kernel_singlet.h applied lane by lane, with the
 * same operands in the same order (the bits of the scalar kernel; no FMA in
 * either build). */
#include "ad/kernel_magnus_batch.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ad/ad_exp_vec.h"

/* the four-lane exponentials take vectors by value, inlined (no call crosses
 * the ABI GCC warns about) */
#pragma GCC diagnostic ignored "-Wpsabi"

#define LANES 8

typedef struct cv {
  double re[LANES], im[LANES];
} cv;
typedef struct mv {
  cv m[4];
} mv;

#define FOR_LANES(l) for (l = 0; l < LANES; ++l)

static inline __attribute__((always_inline)) void cv_add(const cv *a, const cv *b, cv *r) {
  int l;
  FOR_LANES(l) {
    r->re[l] = a->re[l] + b->re[l];
    r->im[l] = a->im[l] + b->im[l];
  }
}
static inline __attribute__((always_inline)) void cv_sub(const cv *a, const cv *b, cv *r) {
  int l;
  FOR_LANES(l) {
    r->re[l] = a->re[l] - b->re[l];
    r->im[l] = a->im[l] - b->im[l];
  }
}
/* c_mul */
static inline __attribute__((always_inline)) void cv_mul(const cv *a, const cv *b, cv *r) {
  int l;
  FOR_LANES(l) {
    double re = a->re[l] * b->re[l] - a->im[l] * b->im[l], im = a->re[l] * b->im[l] + a->im[l] * b->re[l];
    r->re[l] = re;
    r->im[l] = im;
  }
}
static inline __attribute__((always_inline)) void mv_add(const mv *a, const mv *b, mv *r) {
  int i;
  for (i = 0; i < 4; ++i) cv_add(&a->m[i], &b->m[i], &r->m[i]);
}
static inline __attribute__((always_inline)) void mv_sub(const mv *a, const mv *b, mv *r) {
  int i;
  for (i = 0; i < 4; ++i) cv_sub(&a->m[i], &b->m[i], &r->m[i]);
}
/* m2_scale */
static inline __attribute__((always_inline)) void mv_scale(const mv *a, double s, mv *r) {
  int i, l;
  for (i = 0; i < 4; ++i) FOR_LANES(l) {
      r->m[i].re[l] = a->m[i].re[l] * s;
      r->m[i].im[l] = a->m[i].im[l] * s;
    }
}
/* r = +0 + a s (the first term of a sum, as m2_add(m2_zero(), m2_scale(a, s))) */
static inline __attribute__((always_inline)) void mv_set_scaled(mv *r, const mv *a, double s) {
  int i, l;
  for (i = 0; i < 4; ++i) FOR_LANES(l) {
      r->m[i].re[l] = 0.0 + a->m[i].re[l] * s;
      r->m[i].im[l] = 0.0 + a->m[i].im[l] * s;
    }
}
/* r = r + a s (m2_add(r, m2_scale(a, s))) */
static inline __attribute__((always_inline)) void mv_add_scaled(mv *r, const mv *a, double s) {
  int i, l;
  for (i = 0; i < 4; ++i) FOR_LANES(l) {
      r->m[i].re[l] = r->m[i].re[l] + a->m[i].re[l] * s;
      r->m[i].im[l] = r->m[i].im[l] + a->m[i].im[l] * s;
    }
}
/* ekoc_kernel_m2_comm */
static inline __attribute__((always_inline)) void mv_comm(const mv *x, const mv *y, mv *r) {
  cv dx, dy, t1, t2;
  int l;
  cv_sub(&x->m[0], &x->m[3], &dx);
  cv_sub(&y->m[0], &y->m[3], &dy);
  cv_mul(&x->m[1], &y->m[2], &t1);
  cv_mul(&y->m[1], &x->m[2], &t2);
  cv_sub(&t1, &t2, &r->m[0]);
  cv_mul(&y->m[1], &dx, &t1);
  cv_mul(&x->m[1], &dy, &t2);
  cv_sub(&t1, &t2, &r->m[1]);
  cv_mul(&x->m[2], &dy, &t1);
  cv_mul(&y->m[2], &dx, &t2);
  cv_sub(&t1, &t2, &r->m[2]);
  FOR_LANES(l) {
    r->m[3].re[l] = -r->m[0].re[l];
    r->m[3].im[l] = -r->m[0].im[l];
  }
}
/* m2_mul */
static inline __attribute__((always_inline)) void mv_mul(const mv *a, const mv *b, mv *r) {
  cv t1, t2;
  mv o;
  cv_mul(&a->m[0], &b->m[0], &t1);
  cv_mul(&a->m[1], &b->m[2], &t2);
  cv_add(&t1, &t2, &o.m[0]);
  cv_mul(&a->m[0], &b->m[1], &t1);
  cv_mul(&a->m[1], &b->m[3], &t2);
  cv_add(&t1, &t2, &o.m[1]);
  cv_mul(&a->m[2], &b->m[0], &t1);
  cv_mul(&a->m[3], &b->m[2], &t2);
  cv_add(&t1, &t2, &o.m[2]);
  cv_mul(&a->m[2], &b->m[1], &t1);
  cv_mul(&a->m[3], &b->m[3], &t2);
  cv_add(&t1, &t2, &o.m[3]);
  *r = o;
}

static void lane_get(const mv *a, int l, ekoc_cmat2 *m) {
  int i;
  for (i = 0; i < 4; ++i) m->m[i] = c_make(a->m[i].re[l], a->m[i].im[l]);
}
static void lane_set(mv *a, int l, const ekoc_cmat2 *m) {
  int i;
  for (i = 0; i < 4; ++i) {
    a->m[i].re[l] = m->m[i].re;
    a->m[i].im[l] = m->m[i].im;
  }
}

/* One group: out[l] = ekoc_kernel_singlet_magnus(cfg, gamma[l]) for l < LANES. */
static inline __attribute__((always_inline)) void magnus_group(const ekoc_kernel_cfg *cfg, const mv *gamma,
                                                               mv *out) {
  const double node_offset = 0.38729833462074168852; /* sqrt(15)/10, as the scalar kernel */
  const double w_alpha2 = 1.2909944487358056284;     /* sqrt(15)/3 */
  int32_t n = cfg->ev_op_iterations, order = cfg->order, k, i;
  int l;
  mv e, alpha1, alpha2, alpha3, c1, c2, left, omega, step, tmp;
  cv tau, tau_sum, z, ep, em, ch, sh;
  double h = (log(cfg->a1) - log(cfg->a0)) / (double)n;
  double r_lo = exp(-node_offset * h), r_hi = exp(node_offset * h), r_step = exp(h);
  double a_mid = cfg->a0 * exp(0.5 * h);
  memset(&e, 0, sizeof e);
  memset(&tau_sum, 0, sizeof tau_sum);
  FOR_LANES(l) e.m[0].re[l] = e.m[3].re[l] = 1.0;
  for (k = 0; k < n; ++k) {
    double wb[3][EKOC_MAX_ORDER];
    int64_t apart[LANES], add_tau[LANES], any_apart = 0; /* lane masks (0 or 1), int64 to vectorise with the doubles */
    ekoc_kernel_magnus_weights(cfg, a_mid, r_lo, r_hi, wb);
    mv_set_scaled(&alpha1, &gamma[0], h * wb[1][0]); /* +0 + gamma w: the bits of summing into zero */
    mv_set_scaled(&alpha2, &gamma[0], w_alpha2 * h * (wb[2][0] - wb[0][0]));
    mv_set_scaled(&alpha3, &gamma[0], 10.0 * h / 3.0 * ((wb[2][0] - 2.0 * wb[1][0]) + wb[0][0]));
    for (i = 1; i < order; ++i) {
      mv_add_scaled(&alpha1, &gamma[i], h * wb[1][i]);
      mv_add_scaled(&alpha2, &gamma[i], w_alpha2 * h * (wb[2][i] - wb[0][i]));
      mv_add_scaled(&alpha3, &gamma[i], 10.0 * h / 3.0 * ((wb[2][i] - 2.0 * wb[1][i]) + wb[0][i]));
    }
    mv_comm(&alpha1, &alpha2, &c1);
    mv_scale(&alpha3, 2.0, &tmp);
    mv_add(&tmp, &c1, &tmp);
    mv_comm(&alpha1, &tmp, &c2);
    mv_scale(&c2, -1.0 / 60.0, &c2);
    mv_scale(&alpha1, -20.0, &left);
    mv_sub(&left, &alpha3, &left);
    mv_add(&left, &c1, &left);
    mv_scale(&alpha3, 1.0 / 12.0, &tmp);
    mv_add(&alpha1, &tmp, &omega);
    mv_add(&alpha2, &c2, &tmp);
    mv_comm(&left, &tmp, &step);
    mv_scale(&step, 1.0 / 240.0, &step);
    mv_add(&omega, &step, &omega);
    cv_add(&omega.m[0], &omega.m[3], &tau);
    FOR_LANES(l) {
      tau.re[l] = tau.re[l] * 0.5;
      tau.im[l] = tau.im[l] * 0.5;
    }
    cv_sub(&omega.m[0], &tau, &omega.m[0]);
    cv_sub(&omega.m[3], &tau, &omega.m[3]);
    /* ekoc_kernel_m2_exp_traceless, its main branch on every lane */
    {
      cv z2, t1;
      double ex[LANES], cs[LANES], sn[LANES], zr[LANES], zi[LANES];
      cv_mul(&omega.m[0], &omega.m[0], &z2);
      cv_mul(&omega.m[1], &omega.m[2], &t1);
      cv_add(&z2, &t1, &z2);
      FOR_LANES(l) { /* c_sqrt(z2) with c_abs's fast modulus; apart: the scalar kernel's other branches */
        double re = z2.re[l], im = z2.im[l], s = re * re + im * im, m = sqrt(s);
        double tp = sqrt(0.5 * (m + re)), tn = sqrt(0.5 * (m - re));
        double re_neg = fabs(im) / (2.0 * tn), im_pos = im / (2.0 * tp); /* both branches, then a select */
        double zr_l = re >= 0.0 ? tp : re_neg, zi_l = re >= 0.0 ? im_pos : copysign(tn, im);
        z.re[l] = zr_l;
        z.im[l] = zi_l;
        apart[l] = (s >= 1e-12) & (s > 1e-290) & (s < 1e290) & (fabs(zr_l) <= 300.0) ? 0 : 1;
      }
      FOR_LANES(l) any_apart |= apart[l];
      FOR_LANES(l) {
        zr[l] = apart[l] ? 0.0 : z.re[l];
        zi[l] = apart[l] ? 0.0 : z.im[l];
      }
      for (l = 0; l < LANES; l += 4) { /* ekoc_exp_sincos, four lanes at a time */
        ekoc_v4d x4, y4, e4, c4, s4;
        memcpy(&x4, zr + l, sizeof x4);
        memcpy(&y4, zi + l, sizeof y4);
        ekoc_v4_exp_sincos(x4, y4, &e4, &c4, &s4);
        memcpy(ex + l, &e4, sizeof e4);
        memcpy(cs + l, &c4, sizeof c4);
        memcpy(sn + l, &s4, sizeof s4);
      }
      FOR_LANES(l) {
        ep.re[l] = ex[l] * cs[l];
        ep.im[l] = ex[l] * sn[l];
        em.re[l] = cs[l] / ex[l];
        em.im[l] = -sn[l] / ex[l];
      }
      cv_add(&ep, &em, &ch);
      FOR_LANES(l) {
        ch.re[l] = ch.re[l] * 0.5;
        ch.im[l] = ch.im[l] * 0.5;
      }
      FOR_LANES(l) { /* c_div(ep - em, 2 z), Smith's two branches selected per lane */
        double ar = ep.re[l] - em.re[l], ai = ep.im[l] - em.im[l], br = z.re[l] * 2.0, bi = z.im[l] * 2.0;
        double r1 = bi / br, d1 = br + bi * r1, r2 = br / bi, d2 = br * r2 + bi;
        double re1 = (ar + ai * r1) / d1, im1 = (ai - ar * r1) / d1; /* both branches, then a select */
        double re2 = (ar * r2 + ai) / d2, im2 = (ai * r2 - ar) / d2;
        sh.re[l] = fabs(br) >= fabs(bi) ? re1 : re2;
        sh.im[l] = fabs(br) >= fabs(bi) ? im1 : im2;
      }
      for (i = 0; i < 4; ++i) cv_mul(&omega.m[i], &sh, &step.m[i]);
      cv_add(&step.m[0], &ch, &step.m[0]);
      cv_add(&step.m[3], &ch, &step.m[3]);
      FOR_LANES(l) add_tau[l] = 1;
      for (l = 0; any_apart && l < LANES; ++l) { /* the lanes the scalar kernel treats apart, with its functions */
        ekoc_cmat2 om, st;
        if (!apart[l]) continue;
        lane_get(&omega, l, &om);
        if (!ekoc_kernel_m2_exp_traceless(om, &st)) {
          ekoc_complex t = c_make(tau.re[l], tau.im[l]);
          om.m[0] = c_add(om.m[0], t);
          om.m[3] = c_add(om.m[3], t);
          st = m2_exp(om);
          add_tau[l] = 0;
        }
        lane_set(&step, l, &st);
      }
    }
    FOR_LANES(l) {
      double re = tau_sum.re[l] + tau.re[l], im = tau_sum.im[l] + tau.im[l];
      tau_sum.re[l] = add_tau[l] ? re : tau_sum.re[l];
      tau_sum.im[l] = add_tau[l] ? im : tau_sum.im[l];
    }
    mv_mul(&step, &e, &e);
    any_apart = 0;
    FOR_LANES(l) { /* ekoc_kernel_magnus_large on every lane */
      double n0 = e.m[0].re[l] * e.m[0].re[l] + e.m[0].im[l] * e.m[0].im[l];
      double n1 = e.m[1].re[l] * e.m[1].re[l] + e.m[1].im[l] * e.m[1].im[l];
      double n2 = e.m[2].re[l] * e.m[2].re[l] + e.m[2].im[l] * e.m[2].im[l];
      double n3 = e.m[3].re[l] * e.m[3].re[l] + e.m[3].im[l] * e.m[3].im[l];
      apart[l] = !(n0 <= 1e200) | !(n1 <= 1e200) | !(n2 <= 1e200) | !(n3 <= 1e200);
      any_apart |= apart[l];
    }
    /* the traces of the lanes grown large, as the scalar kernel applies them */
    for (l = 0; any_apart && l < LANES; ++l) {
      ekoc_cmat2 el;
      if (!apart[l]) continue;
      lane_get(&e, l, &el);
      el = m2_cscale(el, c_exp(c_make(tau_sum.re[l], tau_sum.im[l])));
      lane_set(&e, l, &el);
      tau_sum.re[l] = tau_sum.im[l] = 0.0;
    }
    a_mid *= r_step;
  }
  for (l = 0; l < LANES; ++l) { /* m2_cscale(e, c_exp(tau_sum)) */
    ekoc_complex s = c_exp(c_make(tau_sum.re[l], tau_sum.im[l]));
    z.re[l] = s.re;
    z.im[l] = s.im;
  }
  for (i = 0; i < 4; ++i) cv_mul(&e.m[i], &z, &out->m[i]);
}

static void magnus_group_base(const ekoc_kernel_cfg *cfg, const mv *gamma, mv *out) {
  magnus_group(cfg, gamma, out);
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EKOC_MAGNUS_AVX2 1
/* AVX2 without FMA: the same multiplications and additions, four lanes per instruction */
__attribute__((target("avx2"))) static void magnus_group_avx2(const ekoc_kernel_cfg *cfg, const mv *gamma, mv *out) {
  magnus_group(cfg, gamma, out);
}
#endif

void ekoc_kernel_magnus_batch(const ekoc_kernel_cfg *cfg, size_t count, const ekoc_cmat2 *gamma, size_t stride,
                              ekoc_cmat2 *out) {
  void (*group)(const ekoc_kernel_cfg *, const mv *, mv *) = magnus_group_base;
  mv g[EKOC_MAX_ORDER], o;
  size_t p0;
  int32_t i;
#ifdef EKOC_MAGNUS_AVX2
  if (__builtin_cpu_supports("avx2")) group = magnus_group_avx2;
#endif
  for (p0 = 0; p0 < count; p0 += LANES) {
    int l, lanes = count - p0 < LANES ? (int)(count - p0) : LANES;
    for (l = 0; l < LANES; ++l) /* a short last group repeats its first point */
      for (i = 0; i < cfg->order; ++i) lane_set(&g[i], l, &gamma[(p0 + (size_t)(l < lanes ? l : 0)) * stride + i]);
    group(cfg, g, &o);
    for (l = 0; l < lanes; ++l) lane_get(&o, l, &out[p0 + (size_t)l]);
  }
}
