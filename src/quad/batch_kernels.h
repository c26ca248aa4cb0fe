/* batch_kernels.h: the batch inversion as one thread per index, the bodies
 * of the CUDA kernels (host+device, quad/batch_math.h for the math).
 *
 * src/gpu/ekoc_cuda.cu launches one thread per index and calls these; tests
 * run the same bodies in plain loops on the CPU (tests/test_gpu_math.c), so
 * the device's indexing and layouts are checked without a device. Buffers:
 *   rule    5 x nodes doubles: w, wg, theta, tc, dj (quad/batch_rule.h)
 *   table   the area-major basis coefficients (ekoc_batch_area_table)
 *   tower   [k][m][len] complex (ekoc_nspace_towers, ad/nspace.h)
 *   wbuf    [k][m][2 n_el] complex: Kronrod then Gauss weighted elements
 *   p       [r][m][j] complex, r = k - k0 within a chunk of rows
 *   out     [2 n_el][k][j] doubles: values, then errors
 *   radius  [k] the radius at which each row's path for the family crosses
 *           the real axis (ekoc_path_radius, quad/path_radius.h; away from
 *           the axis the path is on eko's radius of logx[k]) */
#ifndef EKOC_QUAD_BATCH_KERNELS_H
#define EKOC_QUAD_BATCH_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "ad/nspace.h"
#include "quad/batch_math.h"

/* Constants of one family, passed by value to the kernels. */
typedef struct ekoc_batch_family_args {
  ekoc_nspace_config cfg;
  int32_t singlet_like, len, n_el;
  int32_t element[EKOC_NSPACE_MAX_ELEMENTS], diagonal[EKOC_NSPACE_MAX_ELEMENTS];
  double subtract[EKOC_NSPACE_MAX_ELEMENTS];
} ekoc_batch_family_args;

/* Thread idx = k nodes + m of k_family: E(N) and the weighted elements. */
EKOC_HD void ekoc_batch_thread_family(const ekoc_batch_family_args *fa, size_t idx, int32_t nodes, const double *logx,
                                      const double *radius, const double *rule, const ekoc_complex *tower, const uint8_t *active,
                                      ekoc_complex *wbuf, int *status) {
  size_t k = idx / (size_t)nodes;
  int32_t m = (int32_t)(idx % (size_t)nodes), e;
  const double *w = rule, *wg = rule + nodes, *theta = rule + 2 * nodes, *tc = rule + 3 * nodes, *dj = rule + 4 * nodes;
  ekoc_complex n, dn, vals[EKOC_NSPACE_MAX_ELEMENTS];
  status[idx] = 0;
  if (!active[k]) return;
  ekoc_batch_path(theta[m], tc[m], dj[m], ekoc_talbot_radius(logx[k]), radius[k], fa->singlet_like, &n, &dn);
  if (!ekoc_nspace_from_tower(&fa->cfg, tower + idx * (size_t)fa->len, vals)) {
    status[idx] = 1;
    return;
  }
  for (e = 0; e < fa->n_el; ++e) {
    wbuf[idx * 2 * fa->n_el + e] = ekoc_batch_weight(vals[fa->element[e]], fa->subtract[e], dn, w[m]);
    wbuf[idx * 2 * fa->n_el + fa->n_el + e] = ekoc_batch_weight(vals[fa->element[e]], fa->subtract[e], dn, wg[m]);
  }
}

/* Thread idx = r nodes + m of k_basis: P_j(N_m; x_k) for all j, k = k0 + r. */
EKOC_HD void ekoc_batch_thread_basis(size_t idx, size_t k0, size_t nx, int32_t degree, int32_t nodes, int singlet_like,
                                     const double *logx, const double *radius, const double *table, const double *rule,
                                     const uint8_t *active, ekoc_complex *p) {
  size_t k = k0 + idx / (size_t)nodes;
  int32_t m = (int32_t)(idx % (size_t)nodes);
  const double *theta = rule + 2 * nodes, *tc = rule + 3 * nodes, *dj = rule + 4 * nodes;
  ekoc_complex n, dn;
  if (!active[k]) return;
  ekoc_batch_path(theta[m], tc[m], dj[m], ekoc_talbot_radius(logx[k]), radius[k], singlet_like, &n, &dn);
  ekoc_batch_basis_all(logx, table, nx, degree, n, logx[k], p + idx * nx);
}

/* Thread idx = r nx + j of k_reduce: entry (k0 + r, j) of every element, the
 * node sums in node order (as the CPU driver), eko's corner and zero rows. */
EKOC_HD void ekoc_batch_thread_reduce(const ekoc_batch_family_args *fa, size_t idx, size_t k0, size_t nx,
                                      int32_t degree, int32_t nodes, const double *logx, const double *rule,
                                      const uint8_t *active, const ekoc_complex *wbuf, const ekoc_complex *p,
                                      double *out) {
  size_t r = idx / nx, j = idx % nx, k = k0 + r, jmin = nx;
  int32_t m, e, ne = fa->n_el;
  const double *wg = rule + nodes;
  double acc[EKOC_NSPACE_MAX_ELEMENTS], accg[EKOC_NSPACE_MAX_ELEMENTS];
  int corner = k == nx - 1 && j == nx - 1;
  if (active[k]) jmin = ekoc_batch_first_basis(logx, nx, degree, logx[k]);
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

#endif /* EKOC_QUAD_BATCH_KERNELS_H */
