/* batch_math.h: the math of the fixed-node batch inversion, shared by the CPU
 * batch driver (quad/batch.c, compiled by gcc) and the CUDA kernels
 * (gpu/ekoc_cuda.cu, compiled by nvcc, through quad/batch_kernels.h).
 * Host+device (EKOC_HD), common subset of C11 and C++, no allocation, no
 * failure paths beyond return codes.
 *
 * The inversion of one target point x_k (ln x_k = logx) for element e of an
 * N-space family, with the Gauss-Kronrod nodes u_m and weights w_m of the
 * rule (quad/batch_rule.h):
 *   O_kj = sum_m Im[P_j(N_m; logx) W_m] + s_e delta_kj,
 *   W_m  = (w_m/pi) (K_e(N_m) - s_e) N'(u_m),
 * P_j the stable basis transform of docs/physics.md §4.3 (quad/interp.h,
 * quad/area_moments.h),
 * K_e the family's element from its tower (ad/nspace.h) and s_e the constant
 * taken out of the element (ekoc_quad_element.subtract).
 */
#ifndef EKOC_QUAD_BATCH_MATH_H
#define EKOC_QUAD_BATCH_MATH_H

#include <stddef.h>
#include <stdint.h>

#include "ad/ad_math.h"
#include "quad/interp.h"
#include "quad/talbot.h"

/* The Talbot point N(u) and dN/du of a tabulated node (theta, tc = theta cot
 * theta, dj = cot theta - theta/sin^2 theta, see quad/batch_rule.h) on the
 * row's path: crossing the real axis at radius r (the row's,
 * quad/path_radius.h: r0 = ekoc_talbot_radius(ln x) unless moved off a pole),
 * back on eko's radius r0 away from the axis (ekoc_talbot_point_moved_,
 * quad/talbot.h); bitwise equal to ekoc_talbot_point_r(u, r, ...) when r == r0. */
EKOC_HD void ekoc_batch_path(double theta, double tc, double dj, double r0, double r, int singlet_like,
                             ekoc_complex *n, ekoc_complex *dn) {
  ekoc_talbot_point_moved_(theta, tc, dj, r0, r, singlet_like, n, dn);
}

/* W = (w/pi) (K - s) dN: the node's weight times the element (constant s
 * removed, see ekoc_quad_element.subtract) times the path Jacobian. */
EKOC_HD ekoc_complex ekoc_batch_weight(ekoc_complex k, double s, ekoc_complex dn, double w) {
  return c_scale(c_mul(c_add_real(k, -s), dn), w / EKOC_PI);
}

/* First basis function that can be non-zero at the inversion point logx:
 * the lowest one of the block of the first area not skipped by eko's rule
 * (logx < l_{a+1}); n when no area contributes (the whole row is 0). Basis
 * functions below it have all their areas skipped, so ekoc_basis_mellin_all
 * gives them exactly 0. */
EKOC_HD size_t ekoc_batch_first_basis(const double *logx_grid, size_t n, int32_t degree, double logx) {
  size_t a0 = 0;
  while (a0 + 1 < n && ekoc_interp_skip_(logx, logx_grid[a0 + 1])) ++a0;
  if (a0 + 1 >= n) return n;
  return ekoc_interp_block_kmin(a0, n, degree);
}

/* 1/i for i = 0..EKOC_INTERP_MAX_DEGREE (0 unused): folded at compile time,
 * so equal to the division 1.0/(double)i of quad/interp.h. */
#define EKOC_BATCH_INV_INT(i)                                                                                   \
  ((i) == 1 ? 1.0 : (i) == 2 ? 1.0 / 2.0 : (i) == 3 ? 1.0 / 3.0 : (i) == 4 ? 1.0 / 4.0 : (i) == 5 ? 1.0 / 5.0 \
   : (i) == 6 ? 1.0 / 6.0 : (i) == 7 ? 1.0 / 7.0 : (i) == 8 ? 1.0 / 8.0 : (i) == 9 ? 1.0 / 9.0              \
   : (i) == 10 ? 1.0 / 10.0 : (i) == 11 ? 1.0 / 11.0 : (i) == 12 ? 1.0 / 12.0 : (i) == 13 ? 1.0 / 13.0       \
   : (i) == 14 ? 1.0 / 14.0 : 1.0 / 15.0)

/* ekoc_interp_node_terms_ (the monomial form) with the reciprocals 1/i from
 * EKOC_BATCH_INV_INT instead of divisions; bitwise equal to it. The batch
 * transform no longer uses it; tests/gpu/gpu_check.c builds its (now
 * conservative) rounding scale from it. */
EKOC_HD void ekoc_batch_node_terms(ekoc_complex n, const ekoc_complex *f, double l, double logx, int32_t degree,
                                   ekoc_complex *t) {
  ekoc_complex e = c_exp(c_scale(n, l - logx));
  ekoc_complex mnl = c_scale(n, -l);
  ekoc_complex u = c_real(1.0), s = c_real(1.0);
  int32_t i;
  t[0] = c_mul(c_mul(f[0], e), s);
  for (i = 1; i <= degree; ++i) {
    u = c_scale(c_mul(u, mnl), EKOC_BATCH_INV_INT(i));
    s = c_add(s, u);
    t[i] = c_mul(c_mul(f[i], e), s);
  }
}

/* Doubles of the area-major table of a basis (ekoc_batch_area_table). */
#define EKOC_BATCH_TABLE_LEN(n, degree)                                                          \
  (EKOC_BASIS_HEADER_LEN + EKOC_AREA_GEOM * ((size_t)(n) - 1) +                                  \
   ((size_t)(n) - 1) * ((size_t)(degree) + 1) * ((size_t)(degree) + 1))

/* The stable local form of a basis (quad/interp.h) rearranged area by area,
 * so that the transform reads it contiguously: the header
 * (EKOC_BASIS_HEADER_LEN: is_log, backward start limits), the geometry
 * (EKOC_AREA_GEOM per area), then table[coef + (a (degree+1) + jj) (degree+1)
 * + r] = q_{j,a,r} for area a = 0..n-2 and its basis functions
 * j = kmin(a) + jj (eko's block rule, ekoc_interp_block_kmin). Arguments are
 * fields of struct ekoc_interp (the local block follows the records in
 * `area`); table holds EKOC_BATCH_TABLE_LEN(n, degree) doubles. */
EKOC_HD void ekoc_batch_area_table(const size_t *area_offset, const double *area, size_t n, int32_t degree,
                                   double *table) {
  const double *local = ekoc_basis_local(area_offset, area, n, degree), *coefs = ekoc_local_coefs(local, n);
  size_t d1 = (size_t)degree + 1, head = EKOC_BASIS_HEADER_LEN + EKOC_AREA_GEOM * (n - 1), a, jj, i;
  for (i = 0; i < head; ++i) table[i] = local[i];
  for (a = 0; a + 1 < n; ++a) {
    size_t kmin = ekoc_interp_block_kmin(a, n, degree);
    for (jj = 0; jj < d1; ++jj) {
      size_t j = kmin + jj;
      const double *q = coefs + (area_offset[j] + (a - ekoc_interp_first_area(j, degree))) * d1;
      for (i = 0; i < d1; ++i) table[head + (a * d1 + jj) * d1 + i] = q[i];
    }
  }
}

/* The body of ekoc_batch_basis_all; called with a literal degree for the usual
 * cubic/quartic bases, so the compiler unrolls the short loops. */
EKOC_HD void ekoc_batch_basis_all_(const double *logx_grid, const double *table, size_t n, const int32_t degree,
                                   ekoc_complex big_n, double logx, ekoc_complex *out) {
  const double *geom = table + EKOC_BASIS_HEADER_LEN, *coef = geom + EKOC_AREA_GEOM * (n - 1);
  ekoc_moment_ctx ctx;
  ekoc_complex mom[EKOC_INTERP_MAX_DEGREE + 1], e_lo = c_real(0.0), e_hi;
  size_t d1 = (size_t)degree + 1, a, j, a0 = 0;
  int have_lo = 0;
  for (j = 0; j < n; ++j) out[j] = c_real(0.0);
  while (a0 + 1 < n && ekoc_interp_skip_(logx, logx_grid[a0 + 1])) ++a0;
  if (a0 + 1 >= n) return;
  ekoc_moment_ctx_init(&ctx, table, degree, big_n);
  for (a = a0; a + 1 < n; ++a) {
    int lower = ekoc_interp_lower_(logx, logx_grid[a]);
    size_t kmin = ekoc_interp_block_kmin(a, n, degree);
    const double *q = coef + a * d1 * d1;
    if (lower && !have_lo) e_lo = ekoc_node_exp(big_n, logx_grid[a], logx);
    e_hi = ekoc_node_exp(big_n, logx_grid[a + 1], logx);
    ekoc_area_moments(&ctx, degree, geom + EKOC_AREA_GEOM * a, e_lo, e_hi, lower, mom);
    for (j = 0; j < d1; ++j, q += d1) out[kmin + j] = c_add(out[kmin + j], ekoc_area_combine(q, mom, degree));
    e_lo = e_hi;
    have_lo = 1;
  }
}

/* All P_j(N; logx) into out[0..n-1], bitwise equal to ekoc_basis_mellin_all
 * (quad/interp.h) and cheaper: the coefficients come from the area-major
 * table (ekoc_batch_area_table) and degrees 3 to 6 (eko's default 4, the
 * converged LHA run's 6) get unrolled code. */
EKOC_HD void ekoc_batch_basis_all(const double *logx_grid, const double *table, size_t n, int32_t degree,
                                  ekoc_complex big_n, double logx, ekoc_complex *out) {
  if (degree == 4)
    ekoc_batch_basis_all_(logx_grid, table, n, 4, big_n, logx, out);
  else if (degree == 3)
    ekoc_batch_basis_all_(logx_grid, table, n, 3, big_n, logx, out);
  else if (degree == 6)
    ekoc_batch_basis_all_(logx_grid, table, n, 6, big_n, logx, out);
  else if (degree == 5)
    ekoc_batch_basis_all_(logx_grid, table, n, 5, big_n, logx, out);
  else
    ekoc_batch_basis_all_(logx_grid, table, n, degree, big_n, logx, out);
}

#endif /* EKOC_QUAD_BATCH_MATH_H */
