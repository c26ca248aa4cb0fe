/* batch.c: the batch engine on the CPU (docs/physics.md §3, "In ekoc").
 *
 * For each target point x_k the upper half of the Talbot path, u in
 * [0.5, 1-cut], is first integrated with a fixed Gauss-Kronrod rule, the
 * base rule (quad/batch_rule.h). Per row k and family: the path points of
 * all nodes (tabulated Talbot pieces, no trigonometry per row), one batch
 * call of the ekore crate for the anomalous dimensions / OMEs at all of them
 * (ekoc_nspace_towers, ad/nspace.h), the family's elements from those towers
 * and the node weights (the very functions the GPU runs, ad/nspace.h and
 * quad/batch_math.h), then per node all basis transforms P_j(N) at once and
 * the weighted sums O_kj += Im(P_j W_m) of every element (quad/batch_eval.h).
 * Each node costs one family evaluation and one complex exponential per grid
 * node above x_k, shared by all basis functions and elements.
 *
 * Error control (quad/batch_refine.h): every entry gets an estimate from the
 * Kronrod-Gauss difference, the integrand's magnitude and a sample of its
 * rounding noise; a row whose entries miss max(epsabs, epsrel |value|) and
 * could meet it is refined by panels, vectorised over its basis functions
 * and elements, until they do or the budget is spent; entries still missing
 * it are flagged and counted, so no entry is silently less accurate than
 * asked for. Rows that pass on the base rule keep its sums bit for bit; a
 * row whose earlier family was refined skips its base rule (batch_row). Rows
 * are independent and threads take whole rows: the same bits for any thread
 * count.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/nspace.h"
#include "quad/batch_eval.h"
#include "quad/batch_math.h"
#include "quad/batch_plan.h"
#include "quad/batch_refine.h"
#include "quad/batch_rule.h"
#include "quad/driver.h"
#include "quad/interp.h"
#include "quad/job.h"
#include "quad/nspace_cache.h"
#include "quad/path_radius.h"
#include "status.h"

/* A family's rows in the N-space cache (quad/nspace_cache.h), or NULLs. */
typedef struct batch_family_cache {
  ekoc_complex *basis, *tower; /* [k][m][j] (m: nodes, then probes), [k][m][len] */
  unsigned char *basis_ready, *tower_ready; /* [k] */
  double *basis_radius, *tower_radius;      /* [k]: the path each ready row is on */
  ekoc_complex *sums;          /* [k][m][EKOC_NSPACE_SUMS_LEN / 2]: the harmonic sums of the offset's nodes */
  unsigned char *sums_ready;
  double *sums_radius;
  ekoc_nspace_panels *panels; /* the refined panels */
} batch_family_cache;

/* The ready flag of cached row k for the path of this radius: a row cached
 * on another path is no longer ready, and the row now belongs to this one. */
static unsigned char *cached_row_on_path(unsigned char *ready, double *radius_of, size_t k, double radius) {
  if (ready[k] && radius_of[k] != radius) ready[k] = 0;
  radius_of[k] = radius;
  return &ready[k];
}

/* Row k of every element of family plan fp: the base rule (with the
 * N-space cache), then the engine's estimate, refinement and outputs; with
 * skip_base the refinement from its first panels on, without the base rule.
 * *refined: whether the row was refined. */
static int batch_family_row(const ekoc_quad_job *job, const ekoc_batch_engine *eng, const ekoc_batch_rule *rule,
                            const double *table, const ekoc_batch_family *fp, size_t k,
                            const batch_family_cache *fc, int skip_base, ekoc_batch_thread *sc, int *refined) {
  const ekoc_interp *in = job->interp;
  size_t nx = in->n, j;
  int32_t e;
  ekoc_batch_row row;
  ekoc_batch_nodes nodes;
  ekoc_batch_row_cache cache;
  ekoc_batch_base base;
  int rc, active;
  *refined = 0;
  rc = ekoc_batch_row_init(&row, in, table, fp, k, &active);
  if (rc != EKOC_OK || !active) return rc; /* an inactive row stays 0 */
  row.panels = fc->panels; /* keyed by the row's radius too */
  row.cut = eng->cut;
  if (skip_base) return ekoc_batch_finish_row(eng, job, &row, NULL, &sc->eval, &sc->refine, &sc->n_failed, refined);
  nodes.n = rule->n_nodes;
  nodes.theta = rule->theta;
  nodes.tc = rule->tc;
  nodes.dj = rule->dj;
  nodes.w = rule->w;
  nodes.wg = rule->wg;
  memset(&cache, 0, sizeof cache);
  /* a cached row serves only the path it was computed on: a row moved off a
   * pole (quad/path_radius.h) has its own radius, and families sharing the
   * transforms (or methods sharing the towers) may move it differently; a
   * row cached on another path is recomputed on this one and replaces it
   * (the parts of a computation come in runs of one family and method) */
  if (fc->tower) {
    cache.tower = fc->tower + k * (size_t)rule->n_nodes * (size_t)fp->len;
    cache.tower_ready = cached_row_on_path(fc->tower_ready, fc->tower_radius, k, row.radius);
  }
  if (fc->basis) {
    cache.basis = fc->basis + k * ((size_t)rule->n_nodes + EKOC_BATCH_PROBES(rule->n_nodes)) * nx;
    cache.basis_ready = cached_row_on_path(fc->basis_ready, fc->basis_radius, k, row.radius);
  }
  if (fc->sums) {
    cache.sums = fc->sums + k * (size_t)rule->n_nodes * (EKOC_NSPACE_SUMS_LEN / 2);
    cache.sums_ready = cached_row_on_path(fc->sums_ready, fc->sums_radius, k, row.radius);
  }
  rc = ekoc_batch_eval(&row, &nodes, &cache, NULL, 0, &sc->eval, &sc->sums);
  if (rc != EKOC_OK) return rc;
  /* what the GPU hands over: the stored value (constant back on the
   * diagonal) in k, |K - G| in g */
  for (e = 0; e < fp->n_el; ++e) {
    double *v = sc->sums.k + (size_t)e * nx, *g = sc->sums.g + (size_t)e * nx;
    for (j = row.jmin; j < nx; ++j) {
      g[j] = fabs(v[j] - g[j]);
      v[j] = v[j] + (j == k ? fp->subtract[e] : 0.0);
    }
    base.stored[e] = v;
    base.diff[e] = g;
  }
  base.ra = sc->sums.ra;
  base.nz = sc->sums.nz;
  return ekoc_batch_finish_row(eng, job, &row, &base, &sc->eval, &sc->refine, &sc->n_failed, refined);
}

/* Family f of row k of a job (nothing when the job has no such family, it
 * has no elements, or x_k = 1); *refined carries whether the row's earlier
 * family was refined in, and this one's out. The families of a row share its
 * x_k and its basis transforms, whose algebraic tails along the path are
 * what makes the base rule miss (the near-diagonal entries
 * at small x; quad/batch_refine.h), so once a family of the row needed
 * refinement the next one is refined without its base rule (converged LHA
 * run: every one of the 1175 non-singlet rows refined had its singlet row
 * refined too; eko's LHA settings 9 of 9; perf/STATS.md "the base rule
 * skipped"). The guess decides only the cost and, for a row that would have
 * passed its base rule, whether its entries are the base or the refined sums
 * (each within its tolerance); the rows of a family are those of one job and
 * thread, so the bits still do not depend on the thread count or on the jobs
 * integrated together. */
static int batch_row_family(const ekoc_quad_job *job, const ekoc_batch_engine *eng, const ekoc_batch_rule *rule,
                            const double *table, const ekoc_batch_family *plans, size_t k, int32_t f,
                            const batch_family_cache *fc, ekoc_batch_thread *sc, int *refined) {
  int skip_base = *refined && eng->max_panels > 1;
  if (f >= job->n_families || plans[f].n_el == 0 || job->interp->logx[k] == 0.0)
    return EKOC_OK; /* x_k = 1: the integrand vanishes (eko) */
  return batch_family_row(job, eng, rule, table, &plans[f], k, &fc[f], skip_base, sc, refined);
}

/* What one job of ekoc_quad_run_batch_jobs runs with. */
typedef struct batch_job_setup {
  ekoc_batch_family plans[2];
  ekoc_batch_engine eng;
  double *table; /* its allocation also holds the refinement rule */
  batch_family_cache fc[2];
} batch_job_setup;

int ekoc_quad_run_batch_jobs(const ekoc_quad_job *const *jobs, size_t n_jobs, const ekoc_quad_settings *s,
                             size_t *n_failed) {
  ekoc_quad_fatal fatal;
  batch_job_setup *js;
  size_t *total = NULL;
  const double *ref_rule;
  const ekoc_batch_rule *rule;
  ekoc_batch_rule *own_rule = NULL;
  long nx;
  size_t i;
  int32_t f;
  int n_threads, rc = EKOC_OK;
  if (!jobs || !s || !n_failed || n_jobs == 0)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_quad_run_batch: jobs, settings and n_failed are required");
  for (i = 0; i < n_jobs; ++i) {
    if (!jobs[i] || !jobs[i]->interp)
      return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_quad_run_batch: job %zu or its interp is NULL", i);
    if (jobs[i]->interp != jobs[0]->interp)
      return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_quad_run_batch: job %zu is on another grid than job 0", i);
  }
  js = calloc(n_jobs, sizeof *js);
  if (!js) return ekoc_error(EKOC_ERR_NO_MEMORY, "batch: out of memory for %zu jobs", n_jobs);
  /* the refinement rule is built once: kept in the N-space cache, else the first job's serves the others */
  ref_rule = s->nspace_cache ? ekoc_nspace_cache_refine_rule(s->nspace_cache, ekoc_batch_refine_points(s)) : NULL;
  for (i = 0; i < n_jobs && rc == EKOC_OK; ++i) {
    rc = ekoc_batch_job_setup(jobs[i], s, ref_rule, js[i].plans, &js[i].eng, &js[i].table);
    if (rc == EKOC_OK && !ref_rule) ref_rule = js[i].eng.ref_x; /* x, wk, wg contiguous */
  }
  rule = s->nspace_cache ? ekoc_nspace_cache_rule(s->nspace_cache) : NULL; /* the cache's key has this rule */
  if (rc == EKOC_OK && !rule) {
    rc = ekoc_batch_rule_alloc(s->batch_panels, s->batch_points, s->cut, &own_rule);
    rule = own_rule;
  }
  nx = (long)jobs[0]->interp->n;
  if (rc == EKOC_OK && s->nspace_cache) /* bound by the caller to this grid and rule */
    for (i = 0; i < n_jobs; ++i)
      for (f = 0; f < jobs[i]->n_families; ++f) {
        const ekoc_batch_family *pl = &js[i].plans[f];
        batch_family_cache *fc = &js[i].fc[f];
        fc->basis = ekoc_nspace_cache_basis(s->nspace_cache, pl->singlet_like, &fc->basis_ready, &fc->basis_radius);
        fc->tower = ekoc_nspace_cache_towers(s->nspace_cache, pl->cfg, &fc->tower_ready, &fc->tower_radius);
        if (ekoc_nspace_takes_sums(pl->cfg))
          fc->sums = ekoc_nspace_cache_sums(s->nspace_cache, pl->singlet_like, &fc->sums_ready, &fc->sums_radius);
        fc->panels = ekoc_nspace_cache_panels(s->nspace_cache, pl->singlet_like, pl->cfg, js[i].eng.ref_nodes);
      }
  n_threads = s->n_threads > 0 ? s->n_threads : omp_get_max_threads();
  (void)n_threads; /* used by the OpenMP pragma only */
  fatal.status = EKOC_OK;
  fatal.message[0] = '\0';
  total = rc == EKOC_OK ? calloc(n_jobs, sizeof *total) : NULL; /* n_failed is written only on success */
  if (rc == EKOC_OK && !total) rc = ekoc_error(EKOC_ERR_NO_MEMORY, "batch: out of memory for %zu jobs", n_jobs);
  if (rc == EKOC_OK) {
#pragma omp parallel num_threads(n_threads)
    {
      ekoc_batch_thread sc;
      size_t *mine = calloc(n_jobs, sizeof *mine), q; /* this thread's failed entries per job */
      int *refined = calloc(n_jobs, sizeof *refined);   /* per job: the row's earlier family was refined */
      long k;
      /* every job has the same engine sizes: they come from the settings alone */
      int have = mine && refined &&
                 ekoc_batch_thread_alloc(&sc, &js[0].eng, (size_t)rule->n_nodes, (size_t)nx) == EKOC_OK;
      if (!have) ekoc_quad_fatal_record(&fatal, EKOC_ERR_NO_MEMORY);
      /* row-major over the jobs, and within a row family by family: a
       * family's basis transforms of the row (one path, read by every job's
       * integrals of that family) are read while they are in cache */
#pragma omp for schedule(dynamic, 1)
      for (k = 0; k < nx; ++k) {
        int32_t fam;
        if (ekoc_quad_fatal_status(&fatal) != EKOC_OK || !have) continue; /* a cancelled row is never started */
        for (q = 0; q < n_jobs; ++q) {
          refined[q] = 0;
          ekoc_quad_row_init(jobs[q], (size_t)k);
        }
        for (fam = 0; fam < 2; ++fam) /* a job has 1 or 2 families (ekoc_batch_plan) */
          for (q = 0; q < n_jobs; ++q) {
            size_t before;
            int rck;
            if (ekoc_quad_fatal_status(&fatal) != EKOC_OK || !have) continue;
            before = sc.n_failed;
            rck = batch_row_family(jobs[q], &js[q].eng, rule, js[q].table, js[q].plans, (size_t)k, fam, js[q].fc, &sc,
                                   &refined[q]);
            mine[q] += sc.n_failed - before;
            if (rck == EKOC_OK && fam == 1) rck = ekoc_quad_progress_row(s->progress);
            if (rck != EKOC_OK) ekoc_quad_fatal_record(&fatal, rck);
          }
      }
      if (have) {
#pragma omp critical(ekoc_batch_failed)
        for (q = 0; q < n_jobs; ++q) total[q] += mine[q];
        ekoc_batch_thread_free(&sc);
      }
      free(mine);
      free(refined);
    }
    if (fatal.status != EKOC_OK) rc = ekoc_error(fatal.status, "%s", fatal.message);
  }
  if (rc == EKOC_OK)
    for (i = 0; i < n_jobs; ++i) n_failed[i] = total[i];
  free(total);
  ekoc_batch_rule_free(own_rule);
  for (i = 0; i < n_jobs; ++i) free(js[i].table);
  free(js);
  return rc;
}

int ekoc_quad_run_batch(const ekoc_quad_job *job, const ekoc_quad_settings *s, size_t *n_failed) {
  return ekoc_quad_run_batch_jobs(&job, 1, s, n_failed); /* which checks job, its interp, s and n_failed */
}
