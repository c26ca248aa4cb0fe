/* basis_group.c: ekoc_batch_basis_all for groups of nodes (quad/basis_group.h).
 * Each function below is the scalar one of quad/batch_math.h,
 * quad/area_moments.h or ad/ad_math.h named in its comment, applied lane by
 * lane; compiled twice, baseline and AVX2 (no FMA: the same bits). */
#include "quad/basis_group.h"

#include <string.h>

#include "ad/ad_exp_vec.h"
#include "quad/area_moments.h"
#include "quad/batch_math.h"
#include "quad/interp.h"

#define LANES EKOC_BASIS_GROUP

/* The helpers below take and return vectors by value; all of them are
 * inlined into the two builds of group_body, so no call crosses the ABI
 * GCC warns about. */
#pragma GCC diagnostic ignored "-Wpsabi"

/* LANES doubles as one GNU C vector value (element-wise IEEE operations: the
 * scalar ones lane by lane), so that a group's numbers stay in registers. */
typedef double vd __attribute__((vector_size(LANES * sizeof(double))));
typedef long vl __attribute__((vector_size(LANES * sizeof(long)))); /* the type of a comparison of vd */

typedef struct cv {
  vd re, im;
} cv;
_Static_assert(sizeof(cv) == 16 * LANES && EKOC_BASIS_GROUP_ALIGN % _Alignof(cv) == 0,
               "the scratch's alignment is the group's");

/* lanes where the mask is set from a, the others from b */
static inline __attribute__((always_inline)) vd vd_select(vl mask, vd a, vd b) {
  vl r = ((vl)a & mask) | ((vl)b & ~mask);
  return (vd)r;
}
/* c_mul */
static inline __attribute__((always_inline)) cv cv_mul(cv a, cv b) {
  cv r;
  r.re = a.re * b.re - a.im * b.im;
  r.im = a.re * b.im + a.im * b.re;
  return r;
}
/* c_scale */
static inline __attribute__((always_inline)) cv cv_scale(cv a, double s) {
  cv r;
  r.re = a.re * s;
  r.im = a.im * s;
  return r;
}

_Static_assert(LANES == 4, "the node exponentials are ad/ad_exp_vec.h's four lanes");
/* ekoc_node_exp: exp(N (l - logx)) */
static inline __attribute__((always_inline)) cv cv_node_exp(cv n, double l, double logx) {
  cv a = cv_scale(n, l - logx), r;
  vd m, cs, sn;
  ekoc_v4_exp_sincos(a.re, a.im, &m, &cs, &sn);
  r.re = m * cs;
  r.im = m * sn;
  return r;
}

/* ekoc_series4_ with each lane's own number of groups g[l] <= g_max: a lane's
 * chains stay at +0 (the scalar start) until its first group. */
static inline __attribute__((always_inline)) cv cv_series4(const double *a, vl g, int32_t g_max, cv z) {
  const vd zero = {0};
  cv z2 = cv_mul(z, z), z4 = cv_mul(z2, z2), c0 = {zero, zero}, c1 = c0, c2 = c0, c3 = c0, t, r;
  int32_t i;
  for (i = g_max - 1; i >= 0; --i) {
    const double *c = a + 4 * i;
    vl on = (vl){0} + i < g;
    cv n0 = cv_mul(c0, z4), n1 = cv_mul(c1, z4), n2 = cv_mul(c2, z4), n3 = cv_mul(c3, z4);
    c0.re = vd_select(on, n0.re + c[0], c0.re);
    c0.im = vd_select(on, n0.im, c0.im);
    c1.re = vd_select(on, n1.re + c[1], c1.re);
    c1.im = vd_select(on, n1.im, c1.im);
    c2.re = vd_select(on, n2.re + c[2], c2.re);
    c2.im = vd_select(on, n2.im, c2.im);
    c3.re = vd_select(on, n3.re + c[3], c3.re);
    c3.im = vd_select(on, n3.im, c3.im);
  }
  /* c_add(c_add(a0, c_mul(z, a1)), c_mul(z2, c_add(a2, c_mul(z, a3)))) */
  t = cv_mul(z, c3);
  t.re = c2.re + t.re;
  t.im = c2.im + t.im;
  t = cv_mul(z2, t);
  c1 = cv_mul(z, c1);
  r.re = (c0.re + c1.re) + t.re;
  r.im = (c0.im + c1.im) + t.im;
  return r;
}

/* ekoc_moments_log_ for the lanes, each in its own direction. */
static inline __attribute__((always_inline)) void cv_moments_log(cv n, cv inv_n, const double *header, int32_t d,
                                                                const double *geom, cv e_lo, cv e_hi, int lower,
                                                                cv *mom) {
  const double h = geom[0], fz2 = ekoc_moment_forward_z2(d), *terms_z2 = header + 1,
               *series = header + 1 + EKOC_MOMENT_TMAX;
  cv z = cv_scale(n, h), fmom[EKOC_INTERP_MAX_DEGREE + 1];
  vd z2 = z.re * z.re + z.im * z.im;
  vl fwd, g;
  int32_t n_fwd = 0, g_max = 0, r;
  int l;
  if (lower)
    fwd = z2 >= fz2;
  else
    fwd = (vl){0} - 1;
  for (l = 0; l < LANES; ++l) {
    int32_t gl = 1;
    while (4 * gl < EKOC_MOMENT_TMAX && z2[l] > terms_z2[4 * gl - 2]) ++gl;
    g[l] = gl;
    n_fwd += fwd[l] != 0;
    if (!fwd[l] && gl > g_max) g_max = gl;
  }
  if (n_fwd > 0) { /* forward: (r K - E_lo)/z */
    const vd zero = {0};
    cv w = cv_scale(inv_n, geom[1]), ew = {zero, zero}, k;
    if (lower) {
      ew = cv_mul(e_lo, w);
      k.re = e_hi.re - e_lo.re;
      k.im = e_hi.im - e_lo.im;
      k = cv_mul(k, w);
    } else {
      k = cv_mul(e_hi, w);
    }
    fmom[0] = cv_scale(k, h);
    for (r = 1; r <= d; ++r) {
      k = cv_mul(cv_scale(w, (double)r), k);
      k.re = k.re - ew.re;
      k.im = k.im - ew.im;
      fmom[r] = cv_scale(k, r % 2 ? -h : h);
    }
  }
  if (n_fwd < LANES) { /* the series from the lower end, then down to M_0 */
    cv eh = cv_scale(e_lo, h), m = cv_series4(series, g, g_max, z);
    mom[d] = cv_mul(eh, m);
    for (r = d; r >= 1; --r) {
      double inv_r = 1.0 / (double)r;
      m = cv_mul(cv_scale(z, inv_r), m);
      m.re = m.re + inv_r;
      mom[r - 1] = cv_mul(eh, m);
    }
    for (r = 1; r <= d; r += 2) {
      mom[r].re = -mom[r].re;
      mom[r].im = -mom[r].im;
    }
  }
  for (r = 0; r <= d; ++r) {
    if (n_fwd == LANES) {
      mom[r] = fmom[r];
    } else if (n_fwd > 0) {
      mom[r].re = vd_select(fwd, fmom[r].re, mom[r].re);
      mom[r].im = vd_select(fwd, fmom[r].im, mom[r].im);
    }
  }
}

/* ekoc_batch_basis_all_ (logarithmic basis) for the group into out[j] (SoA). */
static inline __attribute__((always_inline)) void group_body(const double *logx_grid, const double *table, size_t n,
                                                            int32_t d, const ekoc_complex *nodes, size_t count,
                                                            double logx, cv *out) {
  const double *geom = table + EKOC_BASIS_HEADER_LEN, *coef = geom + EKOC_AREA_GEOM * (n - 1);
  const vd zero = {0};
  size_t d1 = (size_t)d + 1, a, jj, a0 = 0, j;
  cv nv, inv_n, e_lo = {zero, zero}, e_hi, mom[EKOC_INTERP_MAX_DEGREE + 1];
  ekoc_complex lane_n[LANES];
  int32_t r;
  int l, have_lo = 0;
  for (j = 0; j < n; ++j) out[j].re = out[j].im = zero;
  while (a0 + 1 < n && ekoc_interp_skip_(logx, logx_grid[a0 + 1])) ++a0;
  if (a0 + 1 >= n) return;
  for (l = 0; l < LANES; ++l) {
    ekoc_complex inv;
    lane_n[l] = nodes[(size_t)l < count ? (size_t)l : 0]; /* spare lanes repeat the first node */
    inv = c_inv(lane_n[l]);
    nv.re[l] = lane_n[l].re;
    nv.im[l] = lane_n[l].im;
    inv_n.re[l] = inv.re;
    inv_n.im[l] = inv.im;
  }
  for (a = a0; a + 1 < n; ++a) {
    int lower = ekoc_interp_lower_(logx, logx_grid[a]);
    size_t kmin = ekoc_interp_block_kmin(a, n, d);
    const double *q = coef + a * d1 * d1;
    if (lower && !have_lo) e_lo = cv_node_exp(nv, logx_grid[a], logx);
    e_hi = cv_node_exp(nv, logx_grid[a + 1], logx);
    cv_moments_log(nv, inv_n, table, d, geom + EKOC_AREA_GEOM * a, e_lo, e_hi, lower, mom);
    for (jj = 0; jj < d1; ++jj, q += d1) { /* ekoc_area_combine, then c_add into the output */
      cv acc = {zero, zero};
      for (r = 0; r <= d; ++r) {
        acc.re = acc.re + mom[r].re * q[r];
        acc.im = acc.im + mom[r].im * q[r];
      }
      out[kmin + jj].re = out[kmin + jj].re + acc.re;
      out[kmin + jj].im = out[kmin + jj].im + acc.im;
    }
    e_lo = e_hi;
    have_lo = 1;
  }
}

typedef void (*group_fn)(const double *, const double *, size_t, int32_t, const ekoc_complex *, size_t, double, cv *);

static void group_base(const double *logx_grid, const double *table, size_t n, int32_t d, const ekoc_complex *nodes,
                       size_t count, double logx, cv *out) {
  group_body(logx_grid, table, n, d, nodes, count, logx, out);
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EKOC_BASIS_GROUP_AVX2 1
__attribute__((target("avx2"))) static void group_avx2(const double *logx_grid, const double *table, size_t n,
                                                       int32_t d, const ekoc_complex *nodes, size_t count,
                                                       double logx, cv *out) {
  group_body(logx_grid, table, n, d, nodes, count, logx, out);
}
#endif

static group_fn group_for_cpu(void) {
#ifdef EKOC_BASIS_GROUP_AVX2
  if (__builtin_cpu_supports("avx2")) return group_avx2;
#endif
  return group_base;
}

void ekoc_batch_basis_group(const double *logx_grid, const double *table, size_t n, int32_t degree, size_t count,
                            const ekoc_complex *nodes, double logx, ekoc_complex *out, size_t out_stride,
                            ekoc_complex *scratch) {
  cv *soa = (cv *)scratch;
  size_t i, j;
  if (count == 0) return;
  if (table[0] == 0.0 || count > LANES || degree < 0 || degree > EKOC_INTERP_MAX_DEGREE) { /* linear basis */
    for (i = 0; i < count; ++i) ekoc_batch_basis_all(logx_grid, table, n, degree, nodes[i], logx, out + i * out_stride);
    return;
  }
  group_for_cpu()(logx_grid, table, n, degree, nodes, count, logx, soa);
  for (i = 0; i < count; ++i) {
    ekoc_complex *o = out + i * out_stride;
    for (j = 0; j < n; ++j) o[j] = c_make(soa[j].re[i], soa[j].im[i]);
  }
}
