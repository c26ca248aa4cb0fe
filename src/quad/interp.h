/* quad/interp.h: private layout of the interpolation basis and the Mellin
 * transforms of its basis functions (docs/physics.md §4.2-4.3; eko module
 * eko.interpolation, log_evaluate_Nx / evaluate_Nx).
 *
 * The struct is flat (plain arrays) so that the batch and GPU drivers can copy
 * it to the device as is; the EKOC_HD functions below take plain pointers and
 * run unchanged on host and device (common subset of C11 and C++). None of
 * them allocates, checks arguments or fails.
 *
 * Two forms of every basis polynomial are kept:
 *  - the records (eko's representation, public through
 *    include/ekoc/interp_access.h): per (basis, area) lmin, lmax and the
 *    monomial coefficients c_i in l = ln x. Their closed-form transform
 *    (ekoc_basis_mellin) cancels catastrophically at high degree and on fine
 *    grids (|l| up to ~20 against areas of width ~0.05); it serves only the
 *    kernel's user-supplied records;
 *  - the local form that the library's own transforms use: per (basis, area)
 *    the coefficients q_r in s = (u - u_{a+1})/(u_{a+1} - u_a), u = ln x
 *    (log basis) or x (linear basis), computed from the Lagrange nodes, and
 *    the area moments of quad/area_moments.h (ekoc_basis_mellin_all,
 *    ekoc_interp_basis_mellin).
 */
#ifndef EKOC_QUAD_INTERP_H
#define EKOC_QUAD_INTERP_H

#include <stddef.h>
#include <stdint.h>

#include "ad/ad_math.h"
#include "ekoc/interp.h"
#include "quad/area_moments.h"

/* Doubles per (basis, area) record: lmin, lmax, c_0..c_degree. */
#define EKOC_AREA_STRIDE(degree) ((size_t)(degree) + 3)

/* eko's absolute tolerance on ln x comparisons: 10 machine epsilons
 * (eko.interpolation's _atol_eps). */
#define EKOC_INTERP_ATOL (10.0 * 2.220446049250313080847e-16)

struct ekoc_interp {
  size_t n;             /* grid points = basis functions */
  int32_t degree;       /* polynomial degree, 1..EKOC_INTERP_MAX_DEGREE, < n */
  int32_t is_log;       /* 1: polynomials in ln x (eko's default), 0: in x */
  double *x, *logx;     /* n each: the grid and ln of it (logx[n-1] = 0 if x[n-1] = 1) */
  size_t n_areas;       /* total number of (basis, area) records */
  size_t *area_offset;  /* n+1: the records of basis j are [area_offset[j], area_offset[j+1]),
                           ascending in x; they cover consecutive grid areas */
  double *area;         /* n_areas records of EKOC_AREA_STRIDE(degree) doubles: lmin, lmax
                           (ln x of the area's ends), c_0..c_degree (monomials in ln x; in x for
                           a linear basis), followed in the same allocation by the local block
                           (ekoc_basis_local: the batch table is built from area alone) */
  const double *local;  /* = ekoc_basis_local(area_offset, area, n, degree) */
};

/* The local block, EKOC_LOCAL_LEN doubles right after the records:
 *   header   EKOC_BASIS_HEADER_LEN: is_log, the backward start limits
 *            (quad/area_moments.h)
 *   geometry EKOC_AREA_GEOM per grid area a = 0..n-2: log (h, 1/h, 0) with
 *            h = l_{a+1} - l_a; linear (eta, 1/eta, 1/rho) with
 *            rho = x_a/x_{a+1}, eta = (x_{a+1} - x_a)/x_{a+1}
 *   local coefficients, degree+1 per record in record order: q_0..q_degree
 *            of p_j(s) = sum_r q_r s^r, s = (u - u_{a+1})/(u_{a+1} - u_a). */
#define EKOC_LOCAL_LEN(n, n_areas, degree) \
  (EKOC_BASIS_HEADER_LEN + EKOC_AREA_GEOM * ((size_t)(n) - 1) + (size_t)(n_areas) * ((size_t)(degree) + 1))

EKOC_HD const double *ekoc_basis_local(const size_t *area_offset, const double *area, size_t n, int32_t degree) {
  return area + area_offset[n] * EKOC_AREA_STRIDE(degree);
}
EKOC_HD const double *ekoc_local_geom(const double *local) { return local + EKOC_BASIS_HEADER_LEN; }
EKOC_HD const double *ekoc_local_coefs(const double *local, size_t n) {
  return local + EKOC_BASIS_HEADER_LEN + EKOC_AREA_GEOM * (n - 1);
}

/* e^{N (l - logx)}: the one complex exponential of a grid node. */
EKOC_HD ekoc_complex ekoc_node_exp(ekoc_complex n, double l, double logx) { return c_exp(c_scale(n, l - logx)); }

/* eko's block rule (InterpolatorDispatcher): area i = (l_i, l_{i+1}] is
 * interpolated through the degree+1 points kmin..kmin+degree with
 * kmin = max(0, i - p), p = floor(degree/2) - (degree even), clamped so that
 * kmin + degree <= n - 1 (degree 4: one point below, three above). */
EKOC_HD size_t ekoc_interp_block_kmin(size_t area_index, size_t n, int32_t degree) {
  size_t d = (size_t)degree;
  size_t p = d / 2 - (d % 2 == 0 ? 1 : 0);
  size_t kmin = area_index >= p ? area_index - p : 0;
  if (kmin + d >= n) kmin = n - 1 - d;
  return kmin;
}

/* Index of the first grid area on which basis function j is non-zero:
 * the smallest i with kmin(i) + degree >= j, i.e. 0 for j <= degree and
 * j - degree + p above (the top clamp never binds there). kmin and kmax are
 * non-decreasing in i, so the records of j cover areas first, first+1, ...
 * consecutively. */
EKOC_HD size_t ekoc_interp_first_area(size_t j, int32_t degree) {
  size_t d = (size_t)degree;
  size_t p = d / 2 - (d % 2 == 0 ? 1 : 0);
  return j > d ? j - d + p : 0;
}

/* eko's skip rule: the area (lmin, lmax] adds nothing at the inversion point
 * logx when logx >= lmax (within EKOC_INTERP_ATOL). */
EKOC_HD int ekoc_interp_skip_(double logx, double lmax) {
  return logx >= lmax || fabs(logx - lmax) < EKOC_INTERP_ATOL;
}

/* eko's drop rule: the lower-bound term is dropped when logx >= lmin (within
 * EKOC_INTERP_ATOL); a term x_min^N x^{-N} with x >= x_min has zero inverse
 * Mellin transform and blows up on the Talbot path (docs/physics.md §4.3). */
EKOC_HD int ekoc_interp_drop_(double logx, double lmin) {
  return logx >= lmin || fabs(logx - lmin) < EKOC_INTERP_ATOL;
}

/* f_i = (-1)^i i! / N^{i+1}, i = 0..degree. */
EKOC_HD void ekoc_interp_inv_powers_(ekoc_complex n, int32_t degree, ekoc_complex *f) {
  ekoc_complex inv_n = c_inv(n);
  int32_t i;
  f[0] = inv_n;
  for (i = 1; i <= degree; ++i) f[i] = c_mul(f[i - 1], c_scale(inv_n, -(double)i));
}

/* The primitive of x^{N-1} ln^i x at x = e^l, times x_k^{-N} (logx = ln x_k):
 *   T_i(l) = f_i e^{N(l - logx)} sum_{m=0}^{i} (-N l)^m / m!,  i = 0..degree,
 * with f from ekoc_interp_inv_powers_. At l = 0 only m = 0 survives (0^0 = 1).
 * One complex exponential per call. */
EKOC_HD void ekoc_interp_node_terms_(ekoc_complex n, const ekoc_complex *f, double l, double logx,
                                     int32_t degree, ekoc_complex *t) {
  ekoc_complex e = c_exp(c_scale(n, l - logx));
  ekoc_complex mnl = c_scale(n, -l);
  ekoc_complex u = c_real(1.0), s = c_real(1.0);
  int32_t i;
  t[0] = c_mul(c_mul(f[0], e), s);
  for (i = 1; i <= degree; ++i) {
    u = c_scale(c_mul(u, mnl), 1.0 / (double)i);
    s = c_add(s, u);
    t[i] = c_mul(c_mul(f[i], e), s);
  }
}

/* Contribution of one area record: sum_i c_i (T_i(lmax) - theta T_i(lmin)). */
EKOC_HD ekoc_complex ekoc_interp_area_sum_(const double *coef, int32_t degree, const ekoc_complex *t_max,
                                           const ekoc_complex *t_min, int lower) {
  ekoc_complex acc = c_real(0.0);
  int32_t i;
  for (i = 0; i <= degree; ++i) {
    ekoc_complex d = lower ? c_sub(t_max[i], t_min[i]) : t_max[i];
    acc = c_add(acc, c_scale(d, coef[i]));
  }
  return acc;
}

/* P_j(N; logx) = x^{-N} Mellin[p_j](N), x = e^logx, in closed form
 * (docs/physics.md §4.3, eko's log_evaluate_Nx), for one basis function given by
 * its n_areas records `areas` (stride EKOC_AREA_STRIDE(degree), ascending):
 *   sum_a sum_i c_{a,i} (T_i(lmax_a) - theta_a T_i(lmin_a)),
 * skipping areas with logx >= lmax and dropping the lower term (theta_a = 0)
 * when logx >= lmin. Returns exactly 0 when every area is skipped. Requires
 * N != 0 and degree <= EKOC_INTERP_MAX_DEGREE. Monomial form: only for
 * records a caller supplies (ekoc_kernel_args.areas without interp); it loses
 * up to ~sum |c_i| |l|^i / |p| digits (docs/physics.md §4.3). The library's
 * own transforms are ekoc_basis_mellin_all / ekoc_interp_basis_mellin. */
EKOC_HD ekoc_complex ekoc_basis_mellin(const double *areas, size_t n_areas, int32_t degree, ekoc_complex n,
                                       double logx) {
  ekoc_complex f[EKOC_INTERP_MAX_DEGREE + 1], t_max[EKOC_INTERP_MAX_DEGREE + 1],
      t_min[EKOC_INTERP_MAX_DEGREE + 1];
  ekoc_complex res = c_real(0.0);
  size_t stride = EKOC_AREA_STRIDE(degree), a;
  int have_f = 0;
  for (a = 0; a < n_areas; ++a) {
    const double *rec = areas + a * stride;
    int lower;
    if (ekoc_interp_skip_(logx, rec[1])) continue;
    if (!have_f) {
      ekoc_interp_inv_powers_(n, degree, f);
      have_f = 1;
    }
    lower = !ekoc_interp_drop_(logx, rec[0]);
    ekoc_interp_node_terms_(n, f, rec[1], logx, degree, t_max);
    if (lower) ekoc_interp_node_terms_(n, f, rec[0], logx, degree, t_min);
    res = c_add(res, ekoc_interp_area_sum_(rec + 2, degree, t_max, t_min, lower));
  }
  return res;
}

/* Whether the basis function with these records contributes at all at the
 * inversion point logx, i.e. some area has logx < lmax (eko: the operator
 * entry is exactly 0 otherwise). The records are ascending, so the last one
 * decides. */
EKOC_HD int ekoc_basis_is_active(const double *areas, size_t n_areas, int32_t degree, double logx) {
  if (n_areas == 0) return 0;
  return !ekoc_interp_skip_(logx, areas[(n_areas - 1) * EKOC_AREA_STRIDE(degree) + 1]);
}

/* Whether an area (lower end l_lo) keeps its lower bound at logx: eko's drop
 * rule, for both kinds of basis. eko's evaluate_Nx keeps every lower bound of
 * a linear basis; the area starting at (or containing) x_k then adds terms
 * that do not decay on the Talbot path, and the inversion misses the
 * diagonal by O(1) (docs/physics.md §4.3); dropping it is exact there as for
 * the log basis (only p_j above x_k enters the convolution at x_k). */
EKOC_HD int ekoc_interp_lower_(double logx, double l_lo) { return !ekoc_interp_drop_(logx, l_lo); }

/* P_j(N; logx) = x^{-N} Mellin[p_j](N), x = e^logx, for every j into
 * out[0..n-1], in the stable local form (docs/physics.md §4.3): per grid area
 * above logx (eko's skip rule) the moments I_r (quad/area_moments.h) from the
 * exponentials of its two nodes, shared by the degree+1 basis functions of
 * its block: O(n (degree+1)^2) real work, at most n complex exponentials.
 * An area whose lower bound eko's rule drops (ekoc_interp_lower_) takes the
 * primitive that vanishes at x -> 0. Arguments are fields of struct ekoc_interp
 * (plain pointers, so device code passes device copies): logx_grid (n),
 * area_offset (n+1), area (records followed by the local block), n, degree.
 * Requires N != 0. Bitwise equal to ekoc_interp_basis_mellin for each j. */
EKOC_HD void ekoc_basis_mellin_all(const double *logx_grid, const size_t *area_offset, const double *area,
                                   size_t n, int32_t degree, ekoc_complex big_n, double logx,
                                   ekoc_complex *out) {
  const double *local = ekoc_basis_local(area_offset, area, n, degree);
  const double *geom = ekoc_local_geom(local), *coefs = ekoc_local_coefs(local, n);
  ekoc_moment_ctx ctx;
  ekoc_complex mom[EKOC_INTERP_MAX_DEGREE + 1], e_lo = c_real(0.0), e_hi;
  size_t d1 = (size_t)degree + 1, a, j, a0 = 0;
  int have_lo = 0;
  for (j = 0; j < n; ++j) out[j] = c_real(0.0);
  /* first area that is not skipped; none: everything is 0 */
  while (a0 + 1 < n && ekoc_interp_skip_(logx, logx_grid[a0 + 1])) ++a0;
  if (a0 + 1 >= n) return;
  ekoc_moment_ctx_init(&ctx, local, degree, big_n);
  for (a = a0; a + 1 < n; ++a) {
    int lower = ekoc_interp_lower_(logx, logx_grid[a]);
    size_t kmin = ekoc_interp_block_kmin(a, n, degree);
    if (lower && !have_lo) e_lo = ekoc_node_exp(big_n, logx_grid[a], logx);
    e_hi = ekoc_node_exp(big_n, logx_grid[a + 1], logx);
    ekoc_area_moments(&ctx, degree, geom + EKOC_AREA_GEOM * a, e_lo, e_hi, lower, mom);
    for (j = kmin; j <= kmin + (size_t)degree; ++j) {
      const double *q = coefs + (area_offset[j] + (a - ekoc_interp_first_area(j, degree))) * d1;
      out[j] = c_add(out[j], ekoc_area_combine(q, mom, degree));
    }
    e_lo = e_hi;
    have_lo = 1;
  }
}

/* ekoc_basis_mellin_all on a host-side basis. */
EKOC_HD void ekoc_interp_mellin_all(const ekoc_interp *interp, ekoc_complex big_n, double logx,
                                    ekoc_complex *out) {
  ekoc_basis_mellin_all(interp->logx, interp->area_offset, interp->area, interp->n, interp->degree, big_n,
                        logx, out);
}

/* P_j(N; logx) of one basis function in the stable local form: its own areas
 * only (at most degree+3 exponentials), bitwise equal to element j of
 * ekoc_basis_mellin_all. Exactly 0 when every area is skipped. Requires
 * N != 0 and j < n. */
EKOC_HD ekoc_complex ekoc_interp_basis_mellin(const ekoc_interp *interp, size_t j, ekoc_complex big_n, double logx) {
  const int32_t degree = interp->degree;
  const double *lg = interp->logx, *geom = ekoc_local_geom(interp->local);
  const double *q = ekoc_local_coefs(interp->local, interp->n) + interp->area_offset[j] * ((size_t)degree + 1);
  size_t first = ekoc_interp_first_area(j, degree), na = interp->area_offset[j + 1] - interp->area_offset[j], i;
  ekoc_moment_ctx ctx;
  ekoc_complex mom[EKOC_INTERP_MAX_DEGREE + 1], e_lo = c_real(0.0), e_hi, res = c_real(0.0);
  int have_ctx = 0, have_lo = 0;
  for (i = 0; i < na; ++i, q += degree + 1) {
    size_t a = first + i;
    int lower;
    if (ekoc_interp_skip_(logx, lg[a + 1])) continue;
    if (!have_ctx) {
      ekoc_moment_ctx_init(&ctx, interp->local, degree, big_n);
      have_ctx = 1;
    }
    lower = ekoc_interp_lower_(logx, lg[a]);
    if (lower && !have_lo) e_lo = ekoc_node_exp(big_n, lg[a], logx);
    e_hi = ekoc_node_exp(big_n, lg[a + 1], logx);
    ekoc_area_moments(&ctx, degree, geom + EKOC_AREA_GEOM * a, e_lo, e_hi, lower, mom);
    res = c_add(res, ekoc_area_combine(q, mom, degree));
    e_lo = e_hi;
    have_lo = 1;
  }
  return res;
}

/* The records of basis function j and their count. */
EKOC_HD const double *ekoc_interp_areas(const ekoc_interp *interp, size_t j, size_t *n_areas) {
  *n_areas = interp->area_offset[j + 1] - interp->area_offset[j];
  return interp->area + interp->area_offset[j] * EKOC_AREA_STRIDE(interp->degree);
}

#endif /* EKOC_QUAD_INTERP_H */
