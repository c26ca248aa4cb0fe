/* quad/interp.h: private layout of the interpolation basis and the
 * closed-form Mellin transforms of its basis functions (docs/physics.md §4.2-4.3;
 * eko module eko.interpolation, log_evaluate_Nx).
 *
 * The struct is flat (plain arrays) so that the batch and GPU drivers can copy
 * it to the device as is; the EKOC_HD functions below take plain pointers and
 * run unchanged on host and device (common subset of C11 and C++). None of
 * them allocates, checks arguments or fails.
 *
 * Monomial form. As eko does, the Lagrange polynomial of basis j on area a is
 * expanded into monomials of l = ln x, p_j(l) = sum_i c_{j,a,i} l^i (|l| up to
 * ~16 on the LHA grid), which costs a few digits against a product form but
 * keeps ekoc comparable with eko (docs/physics.md §13, last bullet).
 */
#ifndef EKOC_QUAD_INTERP_H
#define EKOC_QUAD_INTERP_H

#include <stddef.h>
#include <stdint.h>

#include "ad/ad_math.h"
#include "ekoc/interp.h"

/* Doubles per (basis, area) record: lmin, lmax, c_0..c_degree. */
#define EKOC_AREA_STRIDE(degree) ((size_t)(degree) + 3)

/* eko's absolute tolerance on ln x comparisons: 10 machine epsilons
 * (eko.interpolation's _atol_eps). */
#define EKOC_INTERP_ATOL (10.0 * 2.220446049250313080847e-16)

struct ekoc_interp {
  size_t n;             /* grid points = basis functions */
  int32_t degree;       /* polynomial degree, 1..EKOC_INTERP_MAX_DEGREE, < n */
  double *x, *logx;     /* n each: the grid and ln of it (logx[n-1] = 0 if x[n-1] = 1) */
  size_t n_areas;       /* total number of (basis, area) records */
  size_t *area_offset;  /* n+1: the records of basis j are [area_offset[j], area_offset[j+1]),
                           ascending in x; they cover consecutive grid areas */
  double *area;         /* n_areas records of EKOC_AREA_STRIDE(degree) doubles:
                           lmin, lmax, c_0..c_degree (monomial coefficients in ln x) */
};

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
 * N != 0 and degree <= EKOC_INTERP_MAX_DEGREE. */
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

/* All P_j(N; logx), j = 0..n-1, at once into out[0..n-1]; equal (bitwise on
 * the same compiler) to calling ekoc_basis_mellin for every j. The terms
 * T_i(l_q) are computed once per grid node q above logx (one complex exp per
 * node) and shared by the degree+1 basis functions of every area, so the cost
 * is O(n (degree+1)) complex products plus at most n exponentials.
 * Arguments are the fields of struct ekoc_interp (plain pointers, so device
 * code passes device copies): logx_grid (n), area_offset (n+1), area (records),
 * n, degree (<= EKOC_INTERP_MAX_DEGREE). Requires N != 0. */
EKOC_HD void ekoc_basis_mellin_all(const double *logx_grid, const size_t *area_offset, const double *area,
                                   size_t n, int32_t degree, ekoc_complex big_n, double logx,
                                   ekoc_complex *out) {
  ekoc_complex f[EKOC_INTERP_MAX_DEGREE + 1], t_lo[EKOC_INTERP_MAX_DEGREE + 1],
      t_hi[EKOC_INTERP_MAX_DEGREE + 1];
  size_t stride = EKOC_AREA_STRIDE(degree), a, j, a0 = 0;
  int32_t i;
  int have_lo = 0;
  for (j = 0; j < n; ++j) out[j] = c_real(0.0);
  /* first area that is not skipped; none: everything is 0 */
  while (a0 + 1 < n && ekoc_interp_skip_(logx, logx_grid[a0 + 1])) ++a0;
  if (a0 + 1 >= n) return;
  ekoc_interp_inv_powers_(big_n, degree, f);
  for (a = a0; a + 1 < n; ++a) {
    int lower = !ekoc_interp_drop_(logx, logx_grid[a]);
    size_t kmin = ekoc_interp_block_kmin(a, n, degree);
    if (lower && !have_lo) ekoc_interp_node_terms_(big_n, f, logx_grid[a], logx, degree, t_lo);
    ekoc_interp_node_terms_(big_n, f, logx_grid[a + 1], logx, degree, t_hi);
    for (j = kmin; j <= kmin + (size_t)degree; ++j) {
      const double *rec = area + (area_offset[j] + (a - ekoc_interp_first_area(j, degree))) * stride;
      out[j] = c_add(out[j], ekoc_interp_area_sum_(rec + 2, degree, t_hi, t_lo, lower));
    }
    for (i = 0; i <= degree; ++i) t_lo[i] = t_hi[i];
    have_lo = 1;
  }
}

/* ekoc_basis_mellin_all on a host-side basis. */
EKOC_HD void ekoc_interp_mellin_all(const ekoc_interp *interp, ekoc_complex big_n, double logx,
                                    ekoc_complex *out) {
  ekoc_basis_mellin_all(interp->logx, interp->area_offset, interp->area, interp->n, interp->degree, big_n,
                        logx, out);
}

/* The records of basis function j and their count. */
EKOC_HD const double *ekoc_interp_areas(const ekoc_interp *interp, size_t j, size_t *n_areas) {
  *n_areas = interp->area_offset[j + 1] - interp->area_offset[j];
  return interp->area + interp->area_offset[j] * EKOC_AREA_STRIDE(interp->degree);
}

#endif /* EKOC_QUAD_INTERP_H */
