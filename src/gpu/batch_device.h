/* batch_device.h: the math of the batch inversion, shared by the CPU batch
 * driver (src/quad/batch.c, compiled by gcc) and the CUDA kernels
 * (src/gpu/ekoc_cuda.cu, compiled by nvcc). Host+device (EKOC_HD), common
 * subset of C11 and C++, no allocation, no failure paths beyond return codes.
 *
 * The inversion of one target point x_k (ln x_k = logx) for element e of an
 * N-space family, with the Gauss-Kronrod nodes u_m and weights w_m:
 *   O_kj = sum_m Im[P_j(N_m; logx) W_m] + s_e delta_kj,
 *   W_m  = (w_m/pi) (K_e(N_m) - s_e) N'(u_m),
 * P_j the closed-form basis transform of PHYSICS.md §4.3 (quad/interp.h) and
 * s_e the constant taken out of the element (ekoc_quad_element.subtract).
 *
 * Towers (the per-N input of a family, from ekore) hold ekoc_bd_tower_len
 * complex numbers per point, laid out as ekoc_bd_family reads them.
 */
#ifndef EKOC_GPU_BATCH_DEVICE_H
#define EKOC_GPU_BATCH_DEVICE_H

#include <stddef.h>

#include "ad/nspace.h"
#include "quad/interp.h"
#include "quad/talbot.h"

/* Largest tower: the singlet matching at O(a_s^2), 2 x (3x3). */
#define EKOC_BD_MAX_TOWER (9 * EKOC_MAX_MATCHING_ORDER)

/* Complex numbers per point of a family's tower:
 *   evolution ns      3 order   [mode m (ns+, ns-, nsV)][order i]
 *   evolution singlet 4 order   [order i][qq, qg, gq, gg]
 *   matching ns       4 order   [order i][2x2 row-major in (q, H)]
 *   matching singlet  9 order   [order i][3x3 row-major in (g, q, H)] */
EKOC_HD int ekoc_bd_tower_len(const ekoc_nspace_cfg *cfg) {
  if (cfg->kind == EKOC_KIND_EVOLUTION) return (cfg->family == EKOC_FAMILY_NS ? 3 : 4) * cfg->order;
  return (cfg->family == EKOC_FAMILY_NS ? 4 : 9) * cfg->order;
}

/* The family's elements (ekoc_nspace_family_size of them) at one N from its
 * tower: the same functions as the CPU evaluator ekoc_nspace_eval, so equal
 * bitwise to it on the same compiler. The tower is read, not modified.
 * Returns 1, or 0 when a backward-exact matching matrix is singular. */
EKOC_HD int ekoc_bd_family(const ekoc_nspace_cfg *cfg, const ekoc_complex *tower, ekoc_complex *out) {
  int i, m;
  if (cfg->kind == EKOC_KIND_EVOLUTION) {
    if (cfg->family == EKOC_FAMILY_NS) {
      ekoc_complex gamma[3][EKOC_MAX_ORDER];
      for (m = 0; m < 3; ++m)
        for (i = 0; i < cfg->order; ++i) gamma[m][i] = tower[m * cfg->order + i];
      ekoc_nspace_evolution_ns(cfg, gamma, out);
    } else {
      ekoc_cmat2 gamma[EKOC_MAX_ORDER];
      for (i = 0; i < cfg->order; ++i)
        for (m = 0; m < 4; ++m) gamma[i].m[m] = tower[4 * i + m];
      ekoc_nspace_evolution_singlet(cfg, gamma, out);
    }
    return 1;
  } else {
    ekoc_complex t[EKOC_BD_MAX_TOWER];
    int len = ekoc_bd_tower_len(cfg);
    for (i = 0; i < len; ++i) t[i] = tower[i];
    return ekoc_nspace_matching(cfg, t, out);
  }
}

/* The Talbot point N(u) and dN/du of a tabulated node (theta, tc = theta cot
 * theta, dj = cot theta - theta/sin^2 theta, see quad/batch_nodes.h) for the
 * inversion point logx; bitwise equal to ekoc_talbot_point(u, ...). */
EKOC_HD void ekoc_bd_path(double theta, double tc, double dj, double logx, int singlet_like, ekoc_complex *n,
                          ekoc_complex *dn) {
  double r = ekoc_talbot_radius(logx);
  double o = singlet_like ? 1.0 : 0.0;
  n->re = o + r * tc;
  n->im = r * theta;
  dn->re = 2.0 * EKOC_PI * r * dj;
  dn->im = 2.0 * EKOC_PI * r;
}

/* W = (w/pi) (K - s) dN: the node's weight times the element (constant s
 * removed, see ekoc_quad_element.subtract) times the path Jacobian. */
EKOC_HD ekoc_complex ekoc_bd_weight(ekoc_complex k, double s, ekoc_complex dn, double w) {
  return c_scale(c_mul(c_add_real(k, -s), dn), w / EKOC_PI);
}

/* First basis function that can be non-zero at the inversion point logx:
 * the lowest one of the block of the first area not skipped by eko's rule
 * (logx < l_{a+1}); n when no area contributes (the whole row is 0). Basis
 * functions below it have all their areas skipped, so ekoc_basis_mellin_all
 * gives them exactly 0. */
EKOC_HD size_t ekoc_bd_first_basis(const double *logx_grid, size_t n, int32_t degree, double logx) {
  size_t a0 = 0;
  while (a0 + 1 < n && ekoc_interp_skip_(logx, logx_grid[a0 + 1])) ++a0;
  if (a0 + 1 >= n) return n;
  return ekoc_interp_block_kmin(a0, n, degree);
}

/* 1/i for i = 0..EKOC_INTERP_MAX_DEGREE (0 unused): folded at compile time,
 * so equal to the division 1.0/(double)i of quad/interp.h. */
#define EKOC_BD_INV_INT(i)                                                                                   \
  ((i) == 1 ? 1.0 : (i) == 2 ? 1.0 / 2.0 : (i) == 3 ? 1.0 / 3.0 : (i) == 4 ? 1.0 / 4.0 : (i) == 5 ? 1.0 / 5.0 \
   : (i) == 6 ? 1.0 / 6.0 : (i) == 7 ? 1.0 / 7.0 : (i) == 8 ? 1.0 / 8.0 : (i) == 9 ? 1.0 / 9.0              \
   : (i) == 10 ? 1.0 / 10.0 : (i) == 11 ? 1.0 / 11.0 : (i) == 12 ? 1.0 / 12.0 : (i) == 13 ? 1.0 / 13.0       \
   : (i) == 14 ? 1.0 / 14.0 : 1.0 / 15.0)

/* ekoc_interp_node_terms_ with the reciprocals 1/i from EKOC_BD_INV_INT
 * instead of divisions; bitwise equal to it. */
EKOC_HD void ekoc_bd_node_terms(ekoc_complex n, const ekoc_complex *f, double l, double logx, int32_t degree,
                                ekoc_complex *t) {
  ekoc_complex e = c_exp(c_scale(n, l - logx));
  ekoc_complex mnl = c_scale(n, -l);
  ekoc_complex u = c_real(1.0), s = c_real(1.0);
  int32_t i;
  t[0] = c_mul(c_mul(f[0], e), s);
  for (i = 1; i <= degree; ++i) {
    u = c_scale(c_mul(u, mnl), EKOC_BD_INV_INT(i));
    s = c_add(s, u);
    t[i] = c_mul(c_mul(f[i], e), s);
  }
}

/* Doubles of the area-major coefficient table of a basis (ekoc_bd_area_table). */
#define EKOC_BD_TABLE_LEN(n, degree) (((size_t)(n) - 1) * ((size_t)(degree) + 1) * ((size_t)(degree) + 1))

/* The basis coefficients rearranged area by area, so that the transform
 * reads them contiguously: table[(a (degree+1) + jj) (degree+1) + i] =
 * c_{j,a,i} for area a = 0..n-2 and its basis functions j = kmin(a) + jj
 * (eko's block rule, ekoc_interp_block_kmin). Arguments are the fields of
 * struct ekoc_interp; table holds EKOC_BD_TABLE_LEN(n, degree) doubles. */
EKOC_HD void ekoc_bd_area_table(const size_t *area_offset, const double *area, size_t n, int32_t degree,
                                double *table) {
  size_t stride = EKOC_AREA_STRIDE(degree), d1 = (size_t)degree + 1, a, jj, i;
  for (a = 0; a + 1 < n; ++a) {
    size_t kmin = ekoc_interp_block_kmin(a, n, degree);
    for (jj = 0; jj < d1; ++jj) {
      size_t j = kmin + jj;
      const double *coef = area + (area_offset[j] + (a - ekoc_interp_first_area(j, degree))) * stride + 2;
      for (i = 0; i < d1; ++i) table[(a * d1 + jj) * d1 + i] = coef[i];
    }
  }
}

/* The body of ekoc_bd_basis_all; called with a literal degree for the usual
 * cubic/quartic bases, so the compiler unrolls the short loops. */
EKOC_HD void ekoc_bd_basis_all_(const double *logx_grid, const double *table, size_t n, const int32_t degree,
                                ekoc_complex big_n, double logx, ekoc_complex *out) {
  ekoc_complex f[EKOC_INTERP_MAX_DEGREE + 1], t_lo[EKOC_INTERP_MAX_DEGREE + 1], t_hi[EKOC_INTERP_MAX_DEGREE + 1],
      d[EKOC_INTERP_MAX_DEGREE + 1];
  size_t d1 = (size_t)degree + 1, a, j, a0 = 0;
  int32_t i;
  int have_lo = 0;
  for (j = 0; j < n; ++j) out[j] = c_real(0.0);
  for (i = 0; i <= degree; ++i) t_lo[i] = c_real(0.0); /* set before use; keeps compilers quiet */
  while (a0 + 1 < n && ekoc_interp_skip_(logx, logx_grid[a0 + 1])) ++a0;
  if (a0 + 1 >= n) return;
  ekoc_interp_inv_powers_(big_n, degree, f);
  for (a = a0; a + 1 < n; ++a) {
    int lower = !ekoc_interp_drop_(logx, logx_grid[a]);
    size_t kmin = ekoc_interp_block_kmin(a, n, degree);
    const double *coef = table + a * d1 * d1;
    if (lower && !have_lo) ekoc_bd_node_terms(big_n, f, logx_grid[a], logx, degree, t_lo);
    ekoc_bd_node_terms(big_n, f, logx_grid[a + 1], logx, degree, t_hi);
    for (i = 0; i <= degree; ++i) d[i] = lower ? c_sub(t_hi[i], t_lo[i]) : t_hi[i];
    for (j = 0; j < d1; ++j, coef += d1) {
      ekoc_complex acc = c_real(0.0);
      for (i = 0; i <= degree; ++i) acc = c_add(acc, c_scale(d[i], coef[i]));
      out[kmin + j] = c_add(out[kmin + j], acc);
    }
    for (i = 0; i <= degree; ++i) t_lo[i] = t_hi[i];
    have_lo = 1;
  }
}

/* All P_j(N; logx) into out[0..n-1], bitwise equal to ekoc_basis_mellin_all
 * (quad/interp.h) and cheaper: the coefficients come from the area-major
 * table (ekoc_bd_area_table), the differences T_i(l_{a+1}) - T_i(l_a) of an
 * area are formed once for its degree+1 basis functions, 1/i is a constant,
 * and degrees 3 and 4 get unrolled code. */
EKOC_HD void ekoc_bd_basis_all(const double *logx_grid, const double *table, size_t n, int32_t degree,
                               ekoc_complex big_n, double logx, ekoc_complex *out) {
  if (degree == 4)
    ekoc_bd_basis_all_(logx_grid, table, n, 4, big_n, logx, out);
  else if (degree == 3)
    ekoc_bd_basis_all_(logx_grid, table, n, 3, big_n, logx, out);
  else
    ekoc_bd_basis_all_(logx_grid, table, n, degree, big_n, logx, out);
}

/* ---- per-thread bodies of the CUDA kernels -----------------------------------------
 * src/gpu/ekoc_cuda.cu launches one thread per index and calls these; tests
 * run the same bodies in plain loops on the CPU (tests/test_gpu_math.c), so
 * the device's indexing and layouts are checked without a device. Buffers:
 *   rule    5 x nodes doubles: w, wg, theta, tc, dj (quad/batch_nodes.h)
 *   table   the area-major basis coefficients (ekoc_bd_area_table)
 *   tower   [k][m][len] complex (gpu/batch_host.h)
 *   wbuf    [k][m][2 n_el] complex: Kronrod then Gauss weighted elements
 *   p       [r][m][j] complex, r = k - k0 within a chunk of rows
 *   out     [2 n_el][k][j] doubles: values, then errors */

/* Constants of one family, passed by value to the kernels. */
typedef struct ekoc_bd_fam {
  ekoc_nspace_config cfg;
  int32_t singlet_like, len, n_el;
  int32_t element[EKOC_NSPACE_MAX_ELEMENTS], diagonal[EKOC_NSPACE_MAX_ELEMENTS];
  double subtract[EKOC_NSPACE_MAX_ELEMENTS];
} ekoc_bd_fam;

/* Thread idx = k nodes + m of k_family: E(N) and the weighted elements. */
EKOC_HD void ekoc_bd_kernel_family(const ekoc_bd_fam *fa, size_t idx, int32_t nodes, const double *logx,
                                   const double *rule, const ekoc_complex *tower, const uint8_t *active,
                                   ekoc_complex *wbuf, int *status) {
  size_t k = idx / (size_t)nodes;
  int32_t m = (int32_t)(idx % (size_t)nodes), e;
  const double *w = rule, *wg = rule + nodes, *theta = rule + 2 * nodes, *tc = rule + 3 * nodes, *dj = rule + 4 * nodes;
  ekoc_complex n, dn, vals[EKOC_NSPACE_MAX_ELEMENTS];
  status[idx] = 0;
  if (!active[k]) return;
  ekoc_bd_path(theta[m], tc[m], dj[m], logx[k], fa->singlet_like, &n, &dn);
  if (!ekoc_bd_family(&fa->cfg, tower + idx * (size_t)fa->len, vals)) {
    status[idx] = 1;
    return;
  }
  for (e = 0; e < fa->n_el; ++e) {
    wbuf[idx * 2 * fa->n_el + e] = ekoc_bd_weight(vals[fa->element[e]], fa->subtract[e], dn, w[m]);
    wbuf[idx * 2 * fa->n_el + fa->n_el + e] = ekoc_bd_weight(vals[fa->element[e]], fa->subtract[e], dn, wg[m]);
  }
}

/* Thread idx = r nodes + m of k_basis: P_j(N_m; x_k) for all j, k = k0 + r. */
EKOC_HD void ekoc_bd_kernel_basis(size_t idx, size_t k0, size_t nx, int32_t degree, int32_t nodes, int singlet_like,
                                  const double *logx, const double *table, const double *rule,
                                  const uint8_t *active, ekoc_complex *p) {
  size_t k = k0 + idx / (size_t)nodes;
  int32_t m = (int32_t)(idx % (size_t)nodes);
  const double *theta = rule + 2 * nodes, *tc = rule + 3 * nodes, *dj = rule + 4 * nodes;
  ekoc_complex n, dn;
  if (!active[k]) return;
  ekoc_bd_path(theta[m], tc[m], dj[m], logx[k], singlet_like, &n, &dn);
  ekoc_bd_basis_all(logx, table, nx, degree, n, logx[k], p + idx * nx);
}

/* Thread idx = r nx + j of k_reduce: entry (k0 + r, j) of every element, the
 * node sums in node order (as the CPU driver), eko's corner and zero rows. */
EKOC_HD void ekoc_bd_kernel_reduce(const ekoc_bd_fam *fa, size_t idx, size_t k0, size_t nx, int32_t degree,
                                   int32_t nodes, const double *logx, const double *rule, const uint8_t *active,
                                   const ekoc_complex *wbuf, const ekoc_complex *p, double *out) {
  size_t r = idx / nx, j = idx % nx, k = k0 + r, jmin = nx;
  int32_t m, e, ne = fa->n_el;
  const double *wg = rule + nodes;
  double acc[EKOC_NSPACE_MAX_ELEMENTS], accg[EKOC_NSPACE_MAX_ELEMENTS];
  int corner = k == nx - 1 && j == nx - 1;
  if (active[k]) jmin = ekoc_bd_first_basis(logx, nx, degree, logx[k]);
  for (e = 0; e < ne; ++e) acc[e] = accg[e] = 0.0;
  if (j >= jmin && !corner)
    for (m = 0; m < nodes; ++m) {
      ekoc_complex pj = p[(r * (size_t)nodes + (size_t)m) * nx + j];
      const ekoc_complex *wv = wbuf + (k * (size_t)nodes + (size_t)m) * 2 * (size_t)ne;
      for (e = 0; e < ne; ++e) acc[e] += pj.re * wv[e].im + pj.im * wv[e].re;
      if (wg[m] != 0.0)
        for (e = 0; e < ne; ++e) accg[e] += pj.re * wv[ne + e].im + pj.im * wv[ne + e].re;
    }
  for (e = 0; e < ne; ++e) {
    double v = 0.0, err = 0.0;
    if (corner) {
      v = fa->diagonal[e] ? 1.0 : 0.0;
    } else if (j >= jmin) {
      v = acc[e] + (j == k ? fa->subtract[e] : 0.0);
      err = fabs(acc[e] - accg[e]);
    }
    out[((size_t)e * nx + k) * nx + j] = v;
    out[((size_t)(ne + e) * nx + k) * nx + j] = err;
  }
}

#endif /* EKOC_GPU_BATCH_DEVICE_H */
