/* run.c: the plan's parts, their elements (non-singlet and singlet
 * entries of the evolution kernel or of the matching) integrated by the
 * chosen driver and placed into their block operators (run.h): one part at
 * a time, or with the batch backend groups of consecutive parts row by row. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/nspace.h"
#include "evol/profile_stage.h"
#include "evol/part_layout.h"
#include "evol/run.h"
#include "quad/interp.h"
#include "quad/driver.h"
#include "quad/job.h"
#include "quad/nspace_cache.h"
#include "status.h"

/* A part's element matrices while it runs: values, errors and failure flags
 * (nx * nx each) of its n elements. */
typedef struct part_elements {
  int n;
  ekoc_element_map map[EKOC_JOB_MAX_ELEMENTS];
  double *val[EKOC_JOB_MAX_ELEMENTS], *err[EKOC_JOB_MAX_ELEMENTS];
  uint8_t *flag[EKOC_JOB_MAX_ELEMENTS];
  unsigned char owned_by_op[EKOC_JOB_MAX_ELEMENTS]; /* val/err became blocks of the part's operator */
} part_elements;

/* What every part of one computation runs with. */
typedef struct run_context {
  const ekoc_interp *interp;
  const ekoc_request *rq;
  ekoc_profile *prof;
  ekoc_quad_progress progress;     /* rows over all the parts */
  ekoc_nspace_cache *nspace_cache; /* batch backend, may be NULL */
  int32_t unified;                 /* QED: the parts go into U_nf */
} run_context;

/* Places the element matrices of a job into the block operator *op (B_nf,
 * or U_nf with QED; evol/part_layout.h). */
static int assemble_job(const ekoc_plan_job *j, int unified, ekoc_blockop *op, size_t nx, part_elements *el,
                        int adopt) {
  ekoc_part_layout pl;
  int ok = 1, q;
  ekoc_blockop_init(op, nx);
  ekoc_part_layout_of(j, unified, el->map, el->n, &pl);
  /* an element's first block takes its arrays (adopt: the elements are not
   * needed afterwards), the others copy them */
  for (q = 0; ok && q < pl.n; ++q) {
    int e = pl.e[q];
    if (e == EKOC_PART_IDENTITY) {
      ok = ekoc_blockop_set_identity(op, pl.a[q], pl.b[q]);
    } else if (adopt && !el->owned_by_op[e]) {
      ok = ekoc_blockop_adopt(op, pl.a[q], pl.b[q], el->val[e], el->err[e]);
      el->owned_by_op[e] = (unsigned char)ok;
    } else {
      ok = ekoc_blockop_set(op, pl.a[q], pl.b[q], el->val[e], el->err[e]);
    }
  }
  if (!ok) {
    ekoc_blockop_clear(op);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "out of memory assembling an operator part");
  }
  return EKOC_OK;
}

/* ---- element values without the quadrature ------------------------------------------ */

/* Identity values for a unity part: 1 on the diagonal of diagonal elements. */
static void unity_element(size_t nx, int diagonal, double *v) {
  size_t i;
  memset(v, 0, nx * nx * sizeof(double));
  if (diagonal)
    for (i = 0; i < nx; ++i) v[i * nx + i] = 1.0;
}

/* c * delta_kj with eko's conventions for the x = 1 row and the corner. */
static void constant_element(const ekoc_interp *interp, int diagonal, double c, double *v) {
  size_t nx = interp->n, k;
  memset(v, 0, nx * nx * sizeof(double));
  for (k = 0; k + 1 < nx; ++k)
    if (interp->logx[k] != 0.0) v[k * nx + k] = c;
  v[(nx - 1) * nx + nx - 1] = diagonal ? 1.0 : 0.0;
}

/* ---- one part ------------------------------------------------------------------------ */

/* Zeroed matrices for the el->n elements of a part. */
static int elements_alloc(part_elements *el, size_t nx) {
  int e;
  for (e = 0; e < el->n; ++e) {
    el->val[e] = calloc(nx * nx, sizeof(double));
    el->err[e] = calloc(nx * nx, sizeof(double));
    el->flag[e] = calloc(nx * nx, sizeof(uint8_t));
    if (!el->val[e] || !el->err[e] || !el->flag[e])
      return ekoc_error(EKOC_ERR_NO_MEMORY, "out of memory for %zu x %zu operator elements", nx, nx);
  }
  return EKOC_OK;
}

/* Frees what elements_alloc allocated (also after it failed). */
static void elements_free(part_elements *el) {
  int e;
  for (e = 0; e < el->n; ++e) {
    if (!el->owned_by_op[e]) {
      free(el->val[e]);
      free(el->err[e]);
    }
    free(el->flag[e]);
  }
}

/* The quadrature job of part j: its two families and the elements that need
 * an integration; the elements independent of N get their constant here. */
static int quad_job_fill(const ekoc_plan_job *j, const ekoc_interp *interp, part_elements *el, ekoc_quad_job *job) {
  int e, rc = EKOC_OK;
  ekoc_part_probe probe[2]; /* the two families at the probe points (ekoc_part_element_constant) */
  memset(job, 0, sizeof *job);
  job->interp = interp;
  job->n_families = 2;
  job->family[0] = j->family[0];
  job->family[1] = j->family[1];
  for (e = 0; e < 2; ++e) {
    rc = ekoc_nspace_cfg_check(&job->family[e]);
    if (rc != EKOC_OK) return rc;
  }
  job->n_elements = 0;
  memset(probe, 0, sizeof probe);
  for (e = 0; e < el->n; ++e) {
    const ekoc_element_map *m = &el->map[e];
    ekoc_quad_element *q = &job->elements[job->n_elements];
    double c;
    if (ekoc_part_element_constant(&j->family[m->family], &probe[m->family], m->element, &c, &rc)) {
      constant_element(interp, m->diagonal, c, el->val[e]);
      continue;
    }
    if (rc != EKOC_OK) return rc;
    q->family = m->family;
    q->element = m->element;
    q->diagonal = m->diagonal;
    /* a matching is 1 + O(a_s) on its diagonal: invert only the O(a_s) part
     * and add the identity exactly (eko inverts the 1 numerically too, up
     * to the path cut at 1 - mellin_cut: a difference of order 1e-7) */
    q->subtract = (j->is_matching && m->diagonal) ? 1.0 : 0.0;
    /* the photon of a QED segment tends to a constant at large N: invert only the rest */
    if (j->family[m->family].family == EKOC_FAMILY_QED_SINGLET && m->element == 5)
      q->subtract = ekoc_nspace_qed_photon_limit(&j->family[m->family]);
    q->value = el->val[e];
    q->error = el->err[e];
    q->failed = el->flag[e];
    job->n_elements++;
  }
  return EKOC_OK;
}

/* The driver settings from the request and the computation's shared state. */
static void quad_settings(run_context *ctx, ekoc_quad_settings *qs) {
  const ekoc_request *rq = ctx->rq;
  qs->epsabs = rq->epsabs;
  qs->epsrel = rq->epsrel;
  qs->cut = rq->mellin_cut;
  qs->limit = (size_t)rq->limit;
  qs->n_threads = rq->n_threads;
  qs->batch_panels = rq->batch_panels;
  qs->batch_points = rq->batch_points;
  qs->progress = &ctx->progress;
  qs->profile = ctx->prof;
  qs->nspace_cache = ctx->nspace_cache;
  qs->skip_cut_remainder = 0; /* the remainder beyond the cut enters the errors (quad/driver.h) */
}

/* The integrals of part j by the adaptive or gpu backend (the batch backend
 * takes its parts in groups: run_job_group); *failed: those that missed
 * their tolerance. */
static int integrate_part(const ekoc_plan_job *j, run_context *ctx, part_elements *el, size_t *failed) {
  ekoc_quad_job job;
  ekoc_quad_settings qs;
  int rc = quad_job_fill(j, ctx->interp, el, &job);
  if (rc != EKOC_OK) return rc;
  quad_settings(ctx, &qs);
  if (job.n_elements == 0) return EKOC_OK;
  if (ctx->rq->backend == EKOC_BACKEND_ADAPTIVE) return ekoc_quad_run_adaptive(&job, &qs, failed);
  return ekoc_quad_run_gpu(&job, &qs, failed);
}

/* j->taint: the failed entries of part j placed like its values (errors 1
 * where the integral failed, 0 elsewhere). */
static int assemble_taint(ekoc_plan_job *j, int unified, size_t nx, part_elements *el) {
  size_t k;
  int e;
  for (e = 0; e < el->n; ++e)
    for (k = 0; k < nx * nx; ++k) el->err[e][k] = el->flag[e][k] ? 1.0 : 0.0;
  return assemble_job(j, unified, &j->taint, nx, el, 0);
}

/* Part j's elements after their integrals (failed of them missed their
 * tolerance): j->op, j->taint when some failed, the counts. */
static int finish_job(ekoc_plan_job *j, run_context *ctx, part_elements *el, size_t failed, size_t *n_failed) {
  size_t nx = ctx->interp->n;
  /* with failures the error arrays are reused for the taint below: copy them */
  int rc = assemble_job(j, ctx->unified, &j->op, nx, el, failed == 0);
  if (rc == EKOC_OK && failed > 0) rc = assemble_taint(j, ctx->unified, nx, el);
  if (rc == EKOC_OK) {
    j->n_failed = failed;
    *n_failed += failed;
  }
  return rc;
}

/* j->op (and j->taint when an integral failed) of one part; identity parts
 * need no integration. */
static int run_job(ekoc_plan_job *j, run_context *ctx, size_t *n_failed) {
  part_elements el;
  size_t nx = ctx->interp->n, failed = 0;
  int e, rc;
  memset(&el, 0, sizeof el);
  el.n = ekoc_part_elements(j, el.map);
  rc = elements_alloc(&el, nx);
  if (rc == EKOC_OK && j->unity)
    for (e = 0; e < el.n; ++e) unity_element(nx, el.map[e].diagonal, el.val[e]);
  else if (rc == EKOC_OK)
    rc = integrate_part(j, ctx, &el, &failed);
  if (rc == EKOC_OK) rc = finish_job(j, ctx, &el, failed, n_failed);
  elements_free(&el);
  return rc;
}

/* The bytes of part j's element matrices. */
static size_t job_element_bytes(const ekoc_plan_job *j, size_t nx) {
  ekoc_element_map map[EKOC_JOB_MAX_ELEMENTS];
  return (size_t)ekoc_part_elements(j, map) * nx * nx * (2 * sizeof(double) + sizeof(uint8_t));
}

/* Parts jobs[0..n-1] (none an identity, n >= 1) integrated together by the
 * batch driver (ekoc_quad_run_batch_jobs), then each finished as run_job does. */
static int run_job_group(ekoc_plan_job *jobs, size_t n, run_context *ctx, size_t *n_failed) {
  part_elements el[EKOC_RUN_GROUP_JOBS];
  ekoc_quad_job qj[EKOC_RUN_GROUP_JOBS];
  const ekoc_quad_job *integrate[EKOC_RUN_GROUP_JOBS];
  size_t failed[EKOC_RUN_GROUP_JOBS], nx = ctx->interp->n, i, m = 0, slot[EKOC_RUN_GROUP_JOBS];
  ekoc_quad_settings qs;
  int rc = EKOC_OK;
  memset(el, 0, sizeof el);
  for (i = 0; i < n && rc == EKOC_OK; ++i) {
    el[i].n = ekoc_part_elements(&jobs[i], el[i].map);
    failed[i] = 0;
    rc = elements_alloc(&el[i], nx);
    if (rc == EKOC_OK) rc = quad_job_fill(&jobs[i], ctx->interp, &el[i], &qj[i]);
    if (rc == EKOC_OK && qj[i].n_elements > 0) { /* parts whose elements are all constants need no integral */
      slot[m] = i;
      integrate[m++] = &qj[i];
    }
  }
  quad_settings(ctx, &qs);
  if (rc == EKOC_OK && m > 0) {
    size_t got[EKOC_RUN_GROUP_JOBS];
    rc = ekoc_quad_run_batch_jobs(integrate, m, &qs, got);
    for (i = 0; rc == EKOC_OK && i < m; ++i) failed[slot[i]] = got[i];
  }
  for (i = 0; rc == EKOC_OK && i < n; ++i) rc = finish_job(&jobs[i], ctx, &el[i], failed[i], n_failed);
  for (i = 0; i < n; ++i) elements_free(&el[i]);
  return rc;
}

/* ---- all the parts -------------------------------------------------------------------- */

/* The batch backend's N-space cache for this computation (quad/nspace_cache.h),
 * bound to its grid and rule: the caller's when it is free, else one of its
 * own (*own, freed by the caller) when several parts (total_rows > nx) can
 * share it; *cache NULL when there is none. */
static int take_nspace_cache(const ekoc_request *rq, const ekoc_interp *interp, uint64_t total_rows,
                             ekoc_nspace_cache **cache, ekoc_nspace_cache **own) {
  int rc;
  *cache = *own = NULL;
  if (rq->backend != EKOC_BACKEND_BATCH) return EKOC_OK;
  if (rq->nspace_cache && ekoc_nspace_cache_bind(rq->nspace_cache, interp->logx, interp->n, rq->degree,
                                                 rq->batch_panels, rq->batch_points, rq->mellin_cut)) {
    *cache = rq->nspace_cache;
    return EKOC_OK;
  }
  if (total_rows <= rq->nx) return EKOC_OK;
  rc = ekoc_nspace_cache_new(0, own);
  if (rc != EKOC_OK) return rc;
  if (ekoc_nspace_cache_bind(*own, interp->logx, interp->n, rq->degree, rq->batch_panels, rq->batch_points,
                             rq->mellin_cut))
    *cache = *own;
  return EKOC_OK;
}

/* The profile stage name of part j. */
static void part_name(const ekoc_plan_job *j, char *name, size_t len) {
  if (j->is_matching)
    snprintf(name, len, "matching nf=%d->%d at mu2=%.4g%s", (int)j->nf, (int)j->nf + 1, j->mu2_from,
             j->unity ? " (identity)" : "");
  else
    snprintf(name, len, "evolution nf=%d mu2 %.4g->%.4g%s", (int)j->nf, j->mu2_from, j->mu2_to,
             j->unity ? " (identity)" : "");
}

int ekoc_run_parts(ekoc_plan *p, const ekoc_interp *interp, const ekoc_request *rq, ekoc_profile *prof,
                   size_t *n_failed) {
  run_context ctx;
  ekoc_nspace_cache *own_cache = NULL;
  size_t i;
  int rc;
  memset(&ctx, 0, sizeof ctx);
  ctx.interp = interp;
  ctx.rq = rq;
  ctx.prof = prof;
  ctx.unified = p->unified;
  {
    uint64_t rows = 0;
    for (i = 0; i < p->n_jobs; ++i)
      if (!p->jobs[i].unity) rows += rq->nx;
    ekoc_quad_progress_init(&ctx.progress, rq->progress, rq->progress_data, rows);
  }
  rc = take_nspace_cache(rq, interp, ctx.progress.total, &ctx.nspace_cache, &own_cache);
  for (i = 0; rc == EKOC_OK && i < p->n_jobs;) {
    uint64_t ts = ekoc_profile_now_ns(prof);
    size_t n = 1, q, bytes = job_element_bytes(&p->jobs[i], rq->nx);
    int grouped = rq->backend == EKOC_BACKEND_BATCH && !p->jobs[i].unity;
    if (grouped) /* consecutive parts with integrals, bounded */
      while (i + n < p->n_jobs && n < EKOC_RUN_GROUP_JOBS && !p->jobs[i + n].unity &&
             bytes + job_element_bytes(&p->jobs[i + n], rq->nx) <= EKOC_RUN_GROUP_BYTES)
        bytes += job_element_bytes(&p->jobs[i + n++], rq->nx);
    rc = grouped ? run_job_group(&p->jobs[i], n, &ctx, n_failed) : run_job(&p->jobs[i], &ctx, n_failed);
    for (q = 0; rc == EKOC_OK && q < n; ++q) { /* parts of a group share its span */
      char name[EKOC_PROFILE_NAME_LEN];
      part_name(&p->jobs[i + q], name, sizeof name);
      ekoc_profile_stage(prof, name, ts);
    }
    i += n;
  }
  ekoc_nspace_cache_release(ctx.nspace_cache); /* the parts are done */
  ekoc_nspace_cache_free(own_cache);
  ekoc_quad_progress_destroy(&ctx.progress);
  return rc;
}
