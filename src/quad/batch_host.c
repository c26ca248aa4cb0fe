/* batch_host.c: the engine's error control for base values computed on a
 * device (quad/batch_host.h). */
#include "quad/batch_host.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "quad/batch_eval.h"
#include "quad/batch_math.h"
#include "quad/batch_plan.h"
#include "quad/batch_refine.h"
#include "quad/driver.h"
#include "quad/interp.h"
#include "status.h"

static void rule_nodes(const ekoc_batch_rule *rule, ekoc_batch_nodes *nodes) {
  nodes->n = rule->n_nodes;
  nodes->theta = rule->theta;
  nodes->tc = rule->tc;
  nodes->dj = rule->dj;
  nodes->w = rule->w;
  nodes->wg = rule->wg;
}

int ekoc_batch_host_finish(const ekoc_quad_job *job, const ekoc_quad_settings *s, const ekoc_batch_rule *rule,
                           const ekoc_complex *const towers[2], size_t *n_failed) {
  ekoc_batch_family plans[2];
  ekoc_batch_engine eng;
  ekoc_quad_fatal fatal;
  double *table = NULL;
  size_t failed_total = 0;
  long nx;
  int n_threads, rc;
  if (!job || !s || !rule || !n_failed || !job->interp)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_batch_host_finish: job, settings, rule and n_failed are required");
  rc = ekoc_batch_job_setup(job, s, NULL, plans, &eng, &table);
  if (rc != EKOC_OK) return rc;
  nx = (long)job->interp->n;
  n_threads = s->n_threads > 0 ? s->n_threads : omp_get_max_threads();
  (void)n_threads; /* used by the OpenMP pragma only */
  fatal.status = EKOC_OK;
  fatal.message[0] = '\0';
#pragma omp parallel num_threads(n_threads) reduction(+ : failed_total)
  {
    ekoc_batch_thread sc;
    ekoc_batch_nodes nodes;
    long k;
    int have = ekoc_batch_thread_alloc(&sc, &eng, (size_t)rule->n_nodes, (size_t)nx) == EKOC_OK;
    if (!have) ekoc_quad_fatal_record(&fatal, EKOC_ERR_NO_MEMORY);
    rule_nodes(rule, &nodes);
#pragma omp for schedule(dynamic, 1)
    for (k = 0; k < nx; ++k) {
      int32_t f, e;
      int rck = EKOC_OK;
      if (ekoc_quad_fatal_status(&fatal) != EKOC_OK || !have) continue;
      for (e = 0; e < job->n_elements; ++e)
        if (job->elements[e].failed) memset(job->elements[e].failed + (size_t)k * (size_t)nx, 0, (size_t)nx);
      for (f = 0; f < job->n_families && rck == EKOC_OK; ++f) {
        const ekoc_batch_family *fp = &plans[f];
        const ekoc_complex *tw = towers && towers[f] ? towers[f] + (size_t)k * (size_t)rule->n_nodes * (size_t)fp->len
                                                     : NULL;
        ekoc_batch_row row;
        ekoc_batch_base base;
        int active;
        if (fp->n_el == 0) continue;
        rck = ekoc_batch_row_init(&row, job->interp, table, fp, (size_t)k, &active); /* the device's path */
        if (rck != EKOC_OK) break;
        row.cut = eng.cut;
        if (!active) continue;
        rck = ekoc_batch_eval(&row, &nodes, NULL, tw, 1, &sc.eval, &sc.sums);
        if (rck != EKOC_OK) break;
        for (e = 0; e < fp->n_el; ++e) {
          const ekoc_quad_element *el = &job->elements[fp->job_el[e]];
          base.stored[e] = el->value + (size_t)k * (size_t)nx;
          base.diff[e] = el->error + (size_t)k * (size_t)nx;
        }
        base.ra = sc.sums.ra;
        base.nz = sc.sums.nz;
        rck = ekoc_batch_finish_row(&eng, job, &row, &base, &sc.eval, &sc.refine, &sc.n_failed, NULL);
      }
      if (rck != EKOC_OK) ekoc_quad_fatal_record(&fatal, rck);
    }
    if (have) {
      failed_total += sc.n_failed;
      ekoc_batch_thread_free(&sc);
    }
  }
  free(table);
  if (fatal.status != EKOC_OK) return ekoc_error(fatal.status, "%s", fatal.message);
  *n_failed = failed_total;
  return EKOC_OK;
}

int ekoc_batch_host_base(const ekoc_quad_job *job, const ekoc_quad_settings *s, const ekoc_batch_rule *rule) {
  ekoc_batch_family plans[2];
  ekoc_batch_engine eng;
  ekoc_batch_nodes nodes;
  ekoc_batch_thread sc;
  double *table = NULL;
  size_t nx, k, j;
  int rc;
  if (!job || !s || !rule || !job->interp)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_batch_host_base: job, settings and rule are required");
  rc = ekoc_batch_job_setup(job, s, NULL, plans, &eng, &table);
  if (rc == EKOC_OK) rc = ekoc_batch_thread_alloc(&sc, &eng, (size_t)rule->n_nodes, job->interp->n);
  if (rc != EKOC_OK) {
    free(table);
    return rc;
  }
  rule_nodes(rule, &nodes);
  nx = job->interp->n;
  for (k = 0; k < nx && rc == EKOC_OK; ++k) {
    int32_t f, e;
    ekoc_quad_row_init(job, k);
    for (f = 0; f < job->n_families && rc == EKOC_OK; ++f) {
      const ekoc_batch_family *fp = &plans[f];
      ekoc_batch_row row;
      int active;
      if (fp->n_el == 0) continue;
      rc = ekoc_batch_row_init(&row, job->interp, table, fp, k, &active);
      if (rc != EKOC_OK || !active) continue;
      row.cut = eng.cut;
      rc = ekoc_batch_eval(&row, &nodes, NULL, NULL, 0, &sc.eval, &sc.sums);
      for (e = 0; rc == EKOC_OK && e < fp->n_el; ++e) {
        const ekoc_quad_element *el = &job->elements[fp->job_el[e]];
        for (j = row.jmin; j < nx; ++j) {
          double v = sc.sums.k[(size_t)e * nx + j], vg = sc.sums.g[(size_t)e * nx + j];
          if (k == nx - 1 && j == nx - 1) continue;
          el->value[k * nx + j] = v + (j == k ? fp->subtract[e] : 0.0);
          el->error[k * nx + j] = fabs(v - vg);
        }
      }
    }
  }
  ekoc_batch_thread_free(&sc);
  free(table);
  return rc;
}
