/* batch_eval.c: one row of one family on a set of path nodes, all basis
 * functions and elements at once (quad/batch_eval.h).
 *
 * Why P_j per node and not the cheaper contraction of the basis
 * coefficients after the node sums (sum_m first, then the coefficients): the
 * monomial form of eko's basis cancels by up to ~1e11 at small x, and
 * summing over the nodes before that cancellation multiplied the rounding
 * noise by ~20 (measured: 4e-5 instead of 2e-6 relative on the LHA
 * non-singlet at x = 1e-7), above eko's tolerance.
 */
#include "quad/batch_eval.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "quad/basis_group.h"
#include "quad/batch_math.h"
#include "quad/driver.h"
#include "quad/interp.h"
#include "quad/path_radius.h"
#include "status.h"

/* acc[e nx + j] += Im(P_j W_e) for j = j0..nx-1, e = 0..n_el-1: one node's
 * contribution to a row of every element (P from ekoc_batch_basis_all, W from
 * ekoc_batch_weight), in the same operations and order as the CUDA reduction
 * (ekoc_batch_thread_reduce, quad/batch_kernels.h); at nodes of the embedded
 * Gauss rule (wg not NULL) also accg with the Gauss-weighted W, in the same
 * pass over P. Element-major, so that the loop over j is contiguous and
 * vectorises; compiled twice, baseline and AVX2 (the same multiplications and
 * additions per entry, no FMA: the same bits). */
static inline __attribute__((always_inline)) void accumulate_body(const ekoc_complex *restrict p, size_t j0,
                                                                  size_t nx, const ekoc_complex *wk,
                                                                  const ekoc_complex *wg, int32_t n_el,
                                                                  double *restrict acc, double *restrict accg) {
  int32_t e;
  size_t j;
  for (e = 0; e < n_el; ++e) {
    const double kr = wk[e].re, ki = wk[e].im;
    double *restrict a = acc + (size_t)e * nx;
    if (wg) {
      const double gr = wg[e].re, gi = wg[e].im;
      double *restrict g = accg + (size_t)e * nx;
      for (j = j0; j < nx; ++j) {
        a[j] += p[j].re * ki + p[j].im * kr;
        g[j] += p[j].re * gi + p[j].im * gr;
      }
    } else {
      for (j = j0; j < nx; ++j) a[j] += p[j].re * ki + p[j].im * kr;
    }
  }
}
static void accumulate_base(const ekoc_complex *p, size_t j0, size_t nx, const ekoc_complex *wk,
                            const ekoc_complex *wg, int32_t n_el, double *acc, double *accg) {
  accumulate_body(p, j0, nx, wk, wg, n_el, acc, accg);
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EKOC_BATCH_AVX2 1
__attribute__((target("avx2"))) static void accumulate_avx2(const ekoc_complex *p, size_t j0, size_t nx,
                                                            const ekoc_complex *wk, const ekoc_complex *wg,
                                                            int32_t n_el, double *acc, double *accg) {
  accumulate_body(p, j0, nx, wk, wg, n_el, acc, accg);
}
#endif

/* The noise sample of a probe node from its shifted transforms P'_j =
 * P_j(N; logx + shift), held in delta: delta_j = P_j - e^{N shift} P'_j for
 * j >= jmin (quad/batch_eval.h). */
static void probe_difference(const ekoc_batch_row *row, ekoc_complex n, const ekoc_complex *restrict p,
                             ekoc_complex *restrict delta) {
  ekoc_complex shift = c_exp(c_scale(n, row->shift));
  size_t j;
  for (j = row->jmin; j < row->interp->n; ++j) delta[j] = c_sub(p[j], c_mul(delta[j], shift));
}

/* The noise sample of one probe node: P'_j computed into delta first. */
static void probe_delta(const ekoc_batch_row *row, ekoc_complex n, const ekoc_complex *restrict p,
                        ekoc_complex *restrict delta) {
  const ekoc_interp *in = row->interp;
  ekoc_batch_basis_all(in->logx, row->table, in->n, in->degree, n, row->logx + row->shift, delta);
  probe_difference(row, n, p, delta);
}

static int is_probe(int32_t m) { return m % EKOC_BATCH_PROBE_STRIDE == EKOC_BATCH_PROBE_STRIDE / 2; }

/* A cache row's transforms on all n nodes (path points in sc), in groups of
 * nodes (quad/basis_group.h: the bits of ekoc_batch_basis_all node by node),
 * then the probes' noise samples (probe_delta's, their shifted transforms
 * in groups too): basis [n + probes][nx] as ekoc_batch_row_cache holds it. */
static void fill_basis(const ekoc_batch_row *row, int32_t n, ekoc_batch_eval_scratch *sc, ekoc_complex *basis) {
  const ekoc_interp *in = row->interp;
  size_t nx = in->n, i;
  ekoc_complex pts[EKOC_BASIS_GROUP];
  int32_t m0, m, q, probes[EKOC_BASIS_GROUP];
  for (m0 = 0; m0 < n; m0 += EKOC_BASIS_GROUP) {
    size_t count = (size_t)(n - m0 < EKOC_BASIS_GROUP ? n - m0 : EKOC_BASIS_GROUP);
    for (i = 0; i < count; ++i) pts[i] = c_make(sc->n_re[m0 + (int32_t)i], sc->n_im[m0 + (int32_t)i]);
    ekoc_batch_basis_group(in->logx, row->table, nx, in->degree, count, pts, row->logx, basis + (size_t)m0 * nx, nx,
                           sc->group);
  }
  for (m = 0, q = 0, i = 0; m <= n; ++m) { /* the probes, a group at a time (m == n flushes the last) */
    if (m < n && is_probe(m)) {
      probes[i] = m;
      pts[i++] = c_make(sc->n_re[m], sc->n_im[m]);
    }
    if (i == EKOC_BASIS_GROUP || (m == n && i > 0)) {
      size_t g;
      ekoc_complex *delta = basis + ((size_t)n + (size_t)q) * nx;
      ekoc_batch_basis_group(in->logx, row->table, nx, in->degree, i, pts, row->logx + row->shift, delta, nx,
                             sc->group);
      for (g = 0; g < i; ++g, delta += nx) probe_difference(row, pts[g], basis + (size_t)probes[g] * nx, delta);
      q += (int32_t)i;
      i = 0;
    }
  }
}

/* At a probe node: ra += |Im(P_j W)| and nz += |Im(delta_j W)|; baseline and
 * AVX2 builds of the same sums, as accumulate_body. */
static inline __attribute__((always_inline)) void probe_body(const ekoc_complex *restrict p,
                                                            const ekoc_complex *restrict p2, size_t j0, size_t nx,
                                                            const ekoc_complex *wk, int32_t n_el, double *restrict ra,
                                                            double *restrict nz) {
  int32_t e;
  size_t j;
  for (e = 0; e < n_el; ++e) {
    const double kr = wk[e].re, ki = wk[e].im;
    double *restrict r = ra + (size_t)e * nx, *restrict z = nz + (size_t)e * nx;
    for (j = j0; j < nx; ++j) {
      r[j] += fabs(p[j].re * ki + p[j].im * kr);
      z[j] += fabs(p2[j].re * ki + p2[j].im * kr);
    }
  }
}
static void probe_base(const ekoc_complex *p, const ekoc_complex *p2, size_t j0, size_t nx, const ekoc_complex *wk,
                       int32_t n_el, double *ra, double *nz) {
  probe_body(p, p2, j0, nx, wk, n_el, ra, nz);
}
#ifdef EKOC_BATCH_AVX2
__attribute__((target("avx2"))) static void probe_avx2(const ekoc_complex *p, const ekoc_complex *p2, size_t j0,
                                                       size_t nx, const ekoc_complex *wk, int32_t n_el, double *ra,
                                                       double *nz) {
  probe_body(p, p2, j0, nx, wk, n_el, ra, nz);
}
#endif
/* The node sums and the probes' sums of this CPU: both AVX2 builds where it
 * has AVX2, else both baseline builds. */
static void node_sums_for_cpu(ekoc_batch_eval_scratch *sc) {
#ifdef EKOC_BATCH_AVX2
  if (__builtin_cpu_supports("avx2")) {
    sc->accumulate = accumulate_avx2;
    sc->accumulate_probe = probe_avx2;
    return;
  }
#endif
  sc->accumulate = accumulate_base;
  sc->accumulate_probe = probe_base;
}

void ekoc_batch_eval_scratch_free(ekoc_batch_eval_scratch *sc) {
  if (!sc) return;
  free(sc->n_re);
  free(sc->dn);
  free(sc->tscratch);
  free(sc->tower);
  free(sc->wk);
  free(sc->p);
  free(sc->vals);
  free(sc->group);
  memset(sc, 0, sizeof *sc);
}

int ekoc_batch_eval_scratch_alloc(ekoc_batch_eval_scratch *sc, size_t max_nodes, size_t nx) {
  memset(sc, 0, sizeof *sc);
  sc->n_re = malloc(2 * max_nodes * sizeof(double));
  sc->dn = malloc(max_nodes * sizeof(ekoc_complex));
  sc->tscratch = malloc(EKOC_NSPACE_TOWER_SCRATCH(max_nodes) * sizeof(double));
  sc->tower = malloc(max_nodes * EKOC_NSPACE_MAX_TOWER * sizeof(ekoc_complex));
  sc->wk = malloc(2 * max_nodes * EKOC_NSPACE_MAX_ELEMENTS * sizeof(ekoc_complex));
  sc->p = malloc(2 * nx * sizeof(ekoc_complex));
  sc->vals = malloc(max_nodes * EKOC_NSPACE_MAX_ELEMENTS * sizeof(ekoc_complex));
  sc->group = aligned_alloc(EKOC_BASIS_GROUP_ALIGN, EKOC_BASIS_GROUP_SCRATCH(nx) * sizeof(ekoc_complex));
  if (!sc->n_re || !sc->dn || !sc->tscratch || !sc->tower || !sc->wk || !sc->p || !sc->vals || !sc->group) {
    ekoc_batch_eval_scratch_free(sc);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "batch: out of memory for the row scratch (%zu nodes, nx=%zu)", max_nodes,
                      nx);
  }
  sc->max_nodes = max_nodes;
  sc->nx = nx;
  sc->n_im = sc->n_re + max_nodes;
  sc->wgs = sc->wk + max_nodes * EKOC_NSPACE_MAX_ELEMENTS;
  sc->p2 = sc->p + nx;
  node_sums_for_cpu(sc);
  return EKOC_OK;
}

int ekoc_batch_row_init(ekoc_batch_row *row, const ekoc_interp *interp, const double *table,
                        const ekoc_batch_family *fp, size_t k, int *active) {
  ekoc_path_status path;
  int rc;
  row->interp = interp;
  row->table = table;
  row->fp = fp;
  row->k = k;
  row->panels = NULL;
  row->cut = 0.0;
  row->logx = interp->logx[k];
  row->radius = ekoc_talbot_radius(row->logx);
  row->path_status = EKOC_PATH_TALBOT;
  *active = 0;
  if (row->logx == 0.0) return EKOC_OK;
  row->jmin = ekoc_batch_first_basis(interp->logx, interp->n, interp->degree, row->logx);
  if (row->jmin >= interp->n) return EKOC_OK;
  row->shift = 0.25 * (interp->logx[k + 1] - row->logx); /* k + 1 exists: some area lies above x_k */
  rc = ekoc_path_radius(fp->cfg, row->logx, &row->radius, &path);
  row->path_status = (int32_t)path;
  *active = rc == EKOC_OK;
  return rc;
}

/* The towers of all n nodes (path points in sc) into a cache row: from the
 * row's harmonic sums where the family takes them and the cache keeps them
 * (computed here on first use, then shared by every order and nf on this
 * path), else from N; the same bits either way (ad/nspace.h). */
static int cached_towers(const ekoc_nspace_cfg *cfg, size_t n, const ekoc_batch_row_cache *cache,
                         ekoc_batch_eval_scratch *sc, ekoc_complex *tower) {
  const double *sums = NULL;
  if (cache->sums && ekoc_nspace_takes_sums(cfg)) {
    if (!*cache->sums_ready) {
      int rc = ekoc_nspace_sums(n, sc->n_re, sc->n_im, (double *)cache->sums);
      if (rc != EKOC_OK) return rc;
      *cache->sums_ready = 1;
    }
    sums = (const double *)cache->sums;
  }
  return ekoc_nspace_towers_from_sums(cfg, n, sc->n_re, sc->n_im, sums, sc->tscratch, tower);
}


int ekoc_batch_eval(const ekoc_batch_row *row, const ekoc_batch_nodes *nodes, const ekoc_batch_row_cache *cache,
                    const ekoc_complex *towers, int probes_only, ekoc_batch_eval_scratch *sc,
                    const ekoc_batch_sums *out) {
  const ekoc_interp *in = row->interp;
  const ekoc_batch_family *fp = row->fp;
  size_t nx = in->n, jmin = row->jmin;
  int32_t m, e, c, q, ne = fp->n_el, deg = in->degree, n = nodes->n, count;
  double logx = row->logx, w_all = 0.0, w_probe = 0.0, scale;
  const ekoc_complex *tower = sc->tower;
  const ekoc_complex *basis = !probes_only && cache && cache->basis ? cache->basis : NULL;
  int basis_fill = basis && !*cache->basis_ready;
  int rc;
  /* path points of the nodes this call evaluates (all, or the probes), packed */
  for (m = 0, count = 0; m < n; ++m) {
    ekoc_complex pt;
    if (probes_only && !is_probe(m)) continue;
    ekoc_batch_path(nodes->theta[m], nodes->tc[m], nodes->dj[m], ekoc_talbot_radius(logx), row->radius,
                    fp->singlet_like, &pt, &sc->dn[count]);
    sc->n_re[count] = pt.re;
    sc->n_im[count] = pt.im;
    /* beyond the crate's domain only where the cut is too close to 1: say so (quad/driver.h) */
    if (!(pt.re * pt.re + pt.im * pt.im <= EKOC_QUAD_N_MAX * EKOC_QUAD_N_MAX))
      return ekoc_quad_cut_error(row->cut, logx, pt.re, pt.im);
    ++count;
  }
  if (towers) {
    tower = towers; /* [m][len] of all nodes */
  } else if (!probes_only && cache && cache->tower) {
    tower = cache->tower;
    if (!*cache->tower_ready) {
      rc = cached_towers(fp->cfg, (size_t)n, cache, sc, (ekoc_complex *)tower);
      if (rc != EKOC_OK) return rc;
      *cache->tower_ready = 1;
    }
  } else {
    rc = ekoc_nspace_towers(fp->cfg, (size_t)count, sc->n_re, sc->n_im, sc->tscratch, sc->tower);
    if (rc != EKOC_OK) return rc;
  }
  { /* the family's elements at every evaluated node: [c][EKOC_NSPACE_MAX_ELEMENTS] */
    size_t len = (size_t)fp->len, done;
    const ekoc_complex *first = tower;
    size_t stride = len;
    if (probes_only && towers) { /* the probes among all nodes' towers */
      first = towers + (size_t)(EKOC_BATCH_PROBE_STRIDE / 2) * len;
      stride = (size_t)EKOC_BATCH_PROBE_STRIDE * len;
    }
    done = ekoc_nspace_from_towers(fp->cfg, (size_t)count, first, stride, sc->vals, EKOC_NSPACE_MAX_ELEMENTS);
    if (done < (size_t)count)
      return ekoc_error(EKOC_ERR_NUMERICAL, "matching matrix at N=(%g,%g) is singular (backward exact inversion)",
                        sc->n_re[done], sc->n_im[done]);
  }
  for (m = 0, c = 0; m < n; ++m) {
    const ekoc_complex *vals = sc->vals + (size_t)c * EKOC_NSPACE_MAX_ELEMENTS;
    w_all += nodes->w[m];
    if (probes_only && !is_probe(m)) continue;
    for (e = 0; e < ne; ++e) {
      sc->wk[c * ne + e] = ekoc_batch_weight(vals[fp->element[e]], fp->subtract[e], sc->dn[c], nodes->w[m]);
      sc->wgs[c * ne + e] = ekoc_batch_weight(vals[fp->element[e]], fp->subtract[e], sc->dn[c], nodes->wg[m]);
    }
    ++c;
  }
  for (e = 0; e < ne; ++e) {
    size_t o = (size_t)e * nx + jmin, len = (nx - jmin) * sizeof(double);
    if (!probes_only) {
      memset(out->k + o, 0, len);
      memset(out->g + o, 0, len);
    }
    memset(out->ra + o, 0, len);
    memset(out->nz + o, 0, len);
  }
  if (basis_fill) fill_basis(row, n, sc, (ekoc_complex *)basis);
  for (m = 0, c = 0, q = 0; m < n; ++m) {
    const ekoc_complex *p = sc->p, *delta = sc->p2;
    ekoc_complex pt = c_make(sc->n_re[c], sc->n_im[c]);
    int probe = is_probe(m);
    if (probes_only && !probe) continue;
    if (basis) {
      p = basis + (size_t)m * nx;
      delta = basis + ((size_t)n + q) * nx;
    } else {
      ekoc_batch_basis_all(in->logx, row->table, nx, deg, pt, logx, sc->p);
      if (probe) probe_delta(row, pt, sc->p, sc->p2);
    }
    if (!probes_only)
      sc->accumulate(p, jmin, nx, sc->wk + c * ne, nodes->wg[m] != 0.0 ? sc->wgs + c * ne : NULL, ne, out->k,
                     out->g);
    if (probe) {
      sc->accumulate_probe(p, delta, jmin, nx, sc->wk + c * ne, ne, out->ra, out->nz);
      w_probe += nodes->w[m];
      ++q;
    }
    ++c;
  }
  if (basis_fill) *cache->basis_ready = 1;
  /* the probe integrals, rescaled from the probes' weights to all nodes' */
  scale = w_probe > 0.0 ? w_all / w_probe : 0.0;
  for (e = 0; e < ne; ++e) {
    double *r = out->ra + (size_t)e * nx, *z = out->nz + (size_t)e * nx;
    size_t j;
    for (j = jmin; j < nx; ++j) {
      r[j] *= scale;
      z[j] *= scale;
    }
  }
  return EKOC_OK;
}
