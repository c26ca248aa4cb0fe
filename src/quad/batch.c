/* batch.c: the fixed-node batch driver on the CPU.
 *
 * For each target point x_k the upper half of the Talbot path, u in
 * [0.5, 1-cut], is integrated with a fixed Gauss-Kronrod rule
 * (quad/batch_rule.h). Per row k and family: the path points of all nodes
 * (tabulated Talbot pieces, no trigonometry per row), one batch call of the
 * ekore crate for the anomalous dimensions / OMEs at all of them
 * (ekoc_nspace_towers, ad/nspace.h), the family's elements from those towers
 * and the node weights (the very functions the GPU runs, ad/nspace.h and
 * quad/batch_math.h), then per
 * node all basis transforms P_j(N) at once and the weighted sums
 * O_kj += Im(P_j W_m) of every element. Each node costs one family
 * evaluation and one complex exponential per grid node above x_k, shared by
 * all basis functions and elements.
 *
 * Error estimate: |K - G|, the difference between the Kronrod value and the
 * embedded Gauss rule's; conservative for the quadrature error, blind to
 * eko's rounding noise (tests/test_batch.c). An entry whose estimate misses
 * the request's tolerance, |K - G| > max(epsabs, epsrel |K|) (the test GSL's
 * QAGS applies to the adaptive driver's integrals), is flagged as failed and
 * counted, so no entry is silently less accurate than asked for.
 *
 * Why P_j per node and not the cheaper contraction of the basis
 * coefficients after the node sums (sum_m first, then the coefficients): the
 * monomial form of eko's basis cancels by up to ~1e11 at small x, and
 * summing over the nodes before that cancellation multiplied the rounding
 * noise by ~20 (measured: 4e-5 instead of 2e-6 relative on the LHA
 * non-singlet at x = 1e-7), above eko's tolerance.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/nspace.h"
#include "quad/batch_math.h"
#include "quad/batch_plan.h"
#include "quad/batch_rule.h"
#include "quad/driver.h"
#include "quad/interp.h"
#include "quad/job.h"
#include "quad/nspace_cache.h"
#include "status.h"

/* acc[e nx + j] += Im(P_j W_e) for j = j0..nx-1, e = 0..n_el-1: one node's
 * contribution to a row of every element (P from ekoc_batch_basis_all, W from
 * ekoc_batch_weight), in the same operations and order as the CUDA reduction
 * (ekoc_batch_thread_reduce, quad/batch_kernels.h); at nodes of the embedded Gauss rule (wg not NULL)
 * also accg with the Gauss-weighted W, in the same pass over P.
 * Element-major, so that the loop over j is contiguous and vectorises;
 * compiled twice, baseline and AVX2 (the same multiplications and additions
 * per entry, no FMA: the same bits). */
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
typedef void (*accumulate_fn)(const ekoc_complex *p, size_t j0, size_t nx, const ekoc_complex *wk,
                              const ekoc_complex *wg, int32_t n_el, double *acc, double *accg);
static accumulate_fn accumulate_for_cpu(void) {
#ifdef EKOC_BATCH_AVX2
  if (__builtin_cpu_supports("avx2")) return accumulate_avx2;
#endif
  return accumulate_base;
}

/* A family's rows in the N-space cache (quad/nspace_cache.h), or NULLs. */
typedef struct batch_family_cache {
  ekoc_complex *basis, *tower; /* [k][m][j], [k][m][len] */
  unsigned char *basis_ready, *tower_ready; /* [k] */
} batch_family_cache;

/* Per-thread scratch, sized before the loop. */
typedef struct batch_scratch {
  double *n_re, *n_im;      /* [node] */
  ekoc_complex *dn;         /* [node] */
  double *tscratch;         /* EKOC_NSPACE_TOWER_SCRATCH(nodes) */
  ekoc_complex *tower;      /* [node][EKOC_NSPACE_MAX_TOWER] */
  ekoc_complex *wk, *wgs;   /* [node][element]: Kronrod and Gauss weighted elements */
  ekoc_complex *p;          /* [j]: basis transforms at one node */
  double *acc, *accg;       /* [element][j]: Kronrod and Gauss sums */
  accumulate_fn accumulate; /* accumulate_base or _avx2 */
  double epsabs, epsrel;    /* the request's tolerances */
  size_t n_failed;          /* entries of this thread whose estimate missed them */
} batch_scratch;

static void scratch_free(batch_scratch *sc) {
  free(sc->n_re);
  free(sc->dn);
  free(sc->tscratch);
  free(sc->tower);
  free(sc->wk);
  free(sc->acc);
  free(sc->p);
}

static int scratch_alloc(batch_scratch *sc, size_t nodes, size_t nx) {
  size_t asize = nx * EKOC_NSPACE_MAX_ELEMENTS;
  memset(sc, 0, sizeof *sc);
  sc->n_re = malloc(2 * nodes * sizeof(double));
  sc->dn = malloc(nodes * sizeof(ekoc_complex));
  sc->tscratch = malloc(EKOC_NSPACE_TOWER_SCRATCH(nodes) * sizeof(double));
  sc->tower = malloc(nodes * EKOC_NSPACE_MAX_TOWER * sizeof(ekoc_complex));
  sc->wk = malloc(2 * nodes * EKOC_NSPACE_MAX_ELEMENTS * sizeof(ekoc_complex));
  sc->acc = malloc(2 * asize * sizeof(double));
  sc->p = malloc(nx * sizeof(ekoc_complex));
  if (!sc->n_re || !sc->dn || !sc->tscratch || !sc->tower || !sc->wk || !sc->acc || !sc->p) {
    scratch_free(sc);
    memset(sc, 0, sizeof *sc);
    return 0;
  }
  sc->n_im = sc->n_re + nodes;
  sc->wgs = sc->wk + nodes * EKOC_NSPACE_MAX_ELEMENTS;
  sc->accg = sc->acc + asize;
  sc->accumulate = accumulate_for_cpu();
  return 1;
}

/* Row k of every element of family plan fp. */
static int batch_family_row(const ekoc_quad_job *job, const ekoc_batch_rule *rule, const double *table,
                            const ekoc_batch_family *fp, size_t k, const batch_family_cache *fc,
                            batch_scratch *sc) {
  const ekoc_interp *in = job->interp;
  size_t nx = in->n, j, jmin;
  int32_t m, e, ne = fp->n_el, deg = in->degree, nodes = rule->n_nodes;
  double logx = in->logx[k];
  const ekoc_complex *tower = sc->tower;
  int rc;
  jmin = ekoc_batch_first_basis(in->logx, nx, deg, logx);
  if (jmin >= nx) return EKOC_OK; /* no basis function reaches x_k: the row stays 0 */
  for (m = 0; m < nodes; ++m) {
    ekoc_complex n;
    ekoc_batch_path(rule->theta[m], rule->tc[m], rule->dj[m], logx, fp->singlet_like, &n, &sc->dn[m]);
    sc->n_re[m] = n.re;
    sc->n_im[m] = n.im;
  }
  if (fc->tower) { /* the towers of this row from the cache, computed into it on first use */
    tower = fc->tower + k * (size_t)nodes * (size_t)fp->len;
    if (!fc->tower_ready[k]) {
      rc = ekoc_nspace_towers(fp->cfg, (size_t)nodes, sc->n_re, sc->n_im, sc->tscratch, (ekoc_complex *)tower);
      if (rc != EKOC_OK) return rc;
      fc->tower_ready[k] = 1;
    }
  } else {
    rc = ekoc_nspace_towers(fp->cfg, (size_t)nodes, sc->n_re, sc->n_im, sc->tscratch, sc->tower);
    if (rc != EKOC_OK) return rc;
  }
  for (m = 0; m < nodes; ++m) {
    ekoc_complex vals[EKOC_NSPACE_MAX_ELEMENTS];
    if (!ekoc_nspace_from_tower(fp->cfg, tower + (size_t)m * fp->len, vals))
      return ekoc_error(EKOC_ERR_NUMERICAL, "matching matrix at N=(%g,%g) is singular (backward exact inversion)",
                        sc->n_re[m], sc->n_im[m]);
    for (e = 0; e < ne; ++e) {
      sc->wk[m * ne + e] = ekoc_batch_weight(vals[fp->element[e]], fp->subtract[e], sc->dn[m], rule->w[m]);
      sc->wgs[m * ne + e] = ekoc_batch_weight(vals[fp->element[e]], fp->subtract[e], sc->dn[m], rule->wg[m]);
    }
  }
  memset(sc->acc, 0, nx * (size_t)ne * sizeof(double));
  memset(sc->accg, 0, nx * (size_t)ne * sizeof(double));
  {
    const ekoc_complex *row = fc->basis ? fc->basis + k * (size_t)nodes * nx : NULL;
    unsigned char *ready = row ? &fc->basis_ready[k] : NULL;
    for (m = 0; m < nodes; ++m) {
      const ekoc_complex *p = sc->p;
      if (row) {
        p = row + (size_t)m * nx;
        if (!*ready) {
          ekoc_complex n = c_make(sc->n_re[m], sc->n_im[m]);
          ekoc_batch_basis_all(in->logx, table, nx, deg, n, logx, (ekoc_complex *)p);
        }
      } else {
        ekoc_complex n = c_make(sc->n_re[m], sc->n_im[m]);
        ekoc_batch_basis_all(in->logx, table, nx, deg, n, logx, sc->p);
      }
      sc->accumulate(p, jmin, nx, sc->wk + m * ne, rule->wg[m] != 0.0 ? sc->wgs + m * ne : NULL, ne, sc->acc,
                     sc->accg);
    }
    if (ready) *ready = 1;
  }
  for (e = 0; e < ne; ++e) {
    const ekoc_quad_element *el = &job->elements[fp->job_el[e]];
    for (j = jmin; j < nx; ++j) {
      double v = sc->acc[(size_t)e * nx + j], vg = sc->accg[(size_t)e * nx + j];
      if (k == nx - 1 && j == nx - 1) continue; /* eko's corner keeps its initial value */
      if (!isfinite(v) || !isfinite(vg))
        return ekoc_error(EKOC_ERR_NUMERICAL, "batch: non-finite entry at ln x=%g basis %zu element %d", logx, j,
                          (int)el->element);
      el->value[k * nx + j] = v + (j == k ? el->subtract : 0.0);
      el->error[k * nx + j] = fabs(v - vg);
      if (fabs(v - vg) > fmax(sc->epsabs, sc->epsrel * fabs(v))) {
        if (el->failed) el->failed[k * nx + j] = 1;
        ++sc->n_failed;
      }
    }
  }
  return EKOC_OK;
}

static int batch_row(const ekoc_quad_job *job, const ekoc_batch_rule *rule, const double *table,
                     const ekoc_batch_family *plans, size_t k, const batch_family_cache *fc,
                     batch_scratch *sc) {
  int32_t f;
  ekoc_quad_row_init(job, k);
  if (job->interp->logx[k] == 0.0) return EKOC_OK; /* x_k = 1: the integrand vanishes (eko) */
  for (f = 0; f < job->n_families; ++f) {
    int rc;
    if (plans[f].n_el == 0) continue;
    rc = batch_family_row(job, rule, table, &plans[f], k, &fc[f], sc);
    if (rc != EKOC_OK) return rc;
  }
  return EKOC_OK;
}

int ekoc_quad_run_batch(const ekoc_quad_job *job, const ekoc_quad_settings *s, size_t *n_failed) {
  ekoc_quad_fatal fatal;
  ekoc_batch_family plans[2];
  const ekoc_batch_rule *rule;
  ekoc_batch_rule *own_rule = NULL;
  batch_family_cache fc[2];
  double *table;
  long nx;
  int32_t f;
  int n_threads, rc;
  size_t failed_total;
  if (!job || !s || !n_failed || !job->interp)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_quad_run_batch: job, settings, n_failed and job->interp are required");
  rc = ekoc_batch_plan(job, plans);
  if (rc != EKOC_OK) return rc;
  rule = s->nspace_cache ? ekoc_nspace_cache_rule(s->nspace_cache) : NULL; /* the cache's key has this rule */
  if (!rule) {
    rc = ekoc_batch_rule_alloc(s->batch_panels, s->batch_points, s->cut, &own_rule);
    if (rc != EKOC_OK) return rc;
    rule = own_rule;
  }
  nx = (long)job->interp->n;
  table = malloc(EKOC_BATCH_TABLE_LEN(nx, job->interp->degree) * sizeof(double));
  if (!table) {
    ekoc_batch_rule_free(own_rule);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "batch: out of memory for the coefficient table (nx=%ld)", nx);
  }
  ekoc_batch_area_table(job->interp->area_offset, job->interp->area, (size_t)nx, job->interp->degree, table);
  memset(fc, 0, sizeof fc);
  if (s->nspace_cache) /* bound by the caller to this grid and rule */
    for (f = 0; f < job->n_families; ++f) {
      fc[f].basis = ekoc_nspace_cache_basis(s->nspace_cache, plans[f].singlet_like, &fc[f].basis_ready);
      fc[f].tower = ekoc_nspace_cache_towers(s->nspace_cache, plans[f].cfg, &fc[f].tower_ready);
    }
  n_threads = s->n_threads > 0 ? s->n_threads : omp_get_max_threads();
  (void)n_threads; /* used by the OpenMP pragma only */
  fatal.status = EKOC_OK;
  fatal.message[0] = '\0';
  failed_total = 0;
#pragma omp parallel num_threads(n_threads) reduction(+ : failed_total)
  {
    batch_scratch sc;
    long k;
    int have = scratch_alloc(&sc, (size_t)rule->n_nodes, (size_t)nx);
    sc.epsabs = s->epsabs;
    sc.epsrel = s->epsrel;
    sc.n_failed = 0;
    if (!have) ekoc_quad_fatal_record(&fatal, ekoc_error(EKOC_ERR_NO_MEMORY, "batch: out of memory for the row scratch"));
#pragma omp for schedule(dynamic, 1)
    for (k = 0; k < nx; ++k) {
      int rck;
      if (ekoc_quad_fatal_status(&fatal) != EKOC_OK || !have) continue;
      rck = batch_row(job, rule, table, plans, (size_t)k, fc, &sc);
      if (rck == EKOC_OK) rck = ekoc_quad_progress_row(s->progress);
      if (rck != EKOC_OK) ekoc_quad_fatal_record(&fatal, rck);
    }
    if (have) scratch_free(&sc);
    failed_total += sc.n_failed;
  }
  ekoc_batch_rule_free(own_rule);
  free(table);
  if (fatal.status != EKOC_OK) return ekoc_error(fatal.status, "%s", fatal.message);
  *n_failed = failed_total;
  return EKOC_OK;
}
