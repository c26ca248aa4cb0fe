/* batch.c: the fixed-node batch driver.
 *
 * For each target point x_k the upper half of the Talbot path, u in
 * [0.5, 1-cut], is covered by `batch_panels` equal panels of `batch_points`
 * Gauss-Legendre nodes. At every node the N-space family is evaluated once
 * (all elements) and the Mellin transforms of all basis functions at once;
 * every operator entry (k, j, element) is then a weighted sum over the nodes:
 *   E_kj = (1/pi) sum_m w_m Im[ P_j(N_m; ln x_k) K_e(N_m) N'(u_m) ].
 * The integrand is smooth and decays exponentially towards u -> 1, so a
 * fixed rule of modest size agrees with the adaptive driver far below its
 * tolerance (the node count is checked against it in tests/test_batch.c and
 * recorded in perf/STATS.md). Cost: nodes x (family + basis) per k instead
 * of entries x adaptive evaluations.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_integration.h>

#include "ad/nspace.h"
#include "quad/batch_nodes.h"
#include "quad/interp.h"
#include "quad/job.h"
#include "quad/talbot.h"
#include "status.h"

typedef struct fatal_error {
  int status;
  char message[256];
} fatal_error;

static void fatal_record(fatal_error *f, int status) {
#pragma omp critical(ekoc_batch_fatal)
  {
    if (f->status == EKOC_OK) {
      f->status = status;
      snprintf(f->message, sizeof f->message, "%s", ekoc_last_error());
    }
  }
}

int ekoc_batch_nodes_fill(int32_t panels, int32_t points, double cut, double *u, double *w) {
  gsl_integration_glfixed_table *t = gsl_integration_glfixed_table_alloc((size_t)points);
  int32_t p, q;
  double a = 0.5, b = 1.0 - cut, h = (b - a) / panels;
  if (!t) return ekoc_error(EKOC_ERR_NO_MEMORY, "Gauss-Legendre table of %d points failed", (int)points);
  for (p = 0; p < panels; ++p)
    for (q = 0; q < points; ++q) {
      double xi, wi;
      gsl_integration_glfixed_point(a + p * h, a + (p + 1) * h, (size_t)q, &xi, &wi, t);
      u[p * points + q] = xi;
      w[p * points + q] = wi;
    }
  gsl_integration_glfixed_table_free(t);
  return EKOC_OK;
}

/* Per-thread scratch, sized before the loop. */
typedef struct batch_scratch {
  ekoc_complex *weighted; /* [node][element of family]: w_m K_e(N_m) N'(u_m) / pi */
  ekoc_complex *basis;    /* [node][j]: P_j(N_m; ln x_k) */
} batch_scratch;

static int batch_row(const ekoc_quad_job *job, size_t k, int32_t n_nodes, const double *u, const double *w,
                     batch_scratch *sc) {
  const ekoc_interp *in = job->interp;
  size_t nx = in->n, j;
  int32_t f, e, m;
  double logx = in->logx[k];
  for (e = 0; e < job->n_elements; ++e) {
    const ekoc_quad_element *el = &job->elements[e];
    for (j = 0; j < nx; ++j) {
      el->value[k * nx + j] = 0.0;
      el->error[k * nx + j] = 0.0;
      if (el->failed) el->failed[k * nx + j] = 0;
    }
    if (k == nx - 1) el->value[k * nx + k] = el->diagonal ? 1.0 : 0.0;
  }
  if (logx == 0.0) return EKOC_OK; /* x_k = 1: the integrand vanishes (eko) */
  for (f = 0; f < job->n_families; ++f) {
    const ekoc_nspace_config *cfg = &job->family[f];
    int size = ekoc_nspace_family_size(cfg);
    int singlet_like = ekoc_nspace_singlet_like(cfg);
    for (m = 0; m < n_nodes; ++m) {
      ekoc_complex n, dn, vals[EKOC_NSPACE_MAX_ELEMENTS];
      int rc;
      ekoc_talbot_point(u[m], logx, singlet_like, &n, &dn);
      rc = ekoc_nspace_eval(cfg, n, vals);
      if (rc != EKOC_OK) return rc;
      for (e = 0; e < size; ++e) sc->weighted[m * EKOC_NSPACE_MAX_ELEMENTS + e] = c_scale(c_mul(vals[e], dn), w[m] / EKOC_PI);
      for (e = 0; e < job->n_elements; ++e)
        if (job->elements[e].family == f && job->elements[e].subtract != 0.0) {
          ekoc_complex *q = &sc->weighted[m * EKOC_NSPACE_MAX_ELEMENTS + job->elements[e].element];
          *q = c_sub(*q, c_scale(dn, job->elements[e].subtract * w[m] / EKOC_PI));
        }
      ekoc_interp_mellin_all(in, n, logx, sc->basis + (size_t)m * nx);
    }
    for (e = 0; e < job->n_elements; ++e) {
      const ekoc_quad_element *el = &job->elements[e];
      if (el->family != f) continue;
      for (j = 0; j < nx; ++j) {
        const double *areas = in->area + in->area_offset[j] * EKOC_AREA_STRIDE(in->degree);
        size_t n_areas = in->area_offset[j + 1] - in->area_offset[j];
        double acc = 0.0;
        if (k == nx - 1 && j == nx - 1) continue;
        if (!ekoc_basis_is_active(areas, n_areas, in->degree, logx)) continue;
        for (m = 0; m < n_nodes; ++m) {
          ekoc_complex p = sc->basis[(size_t)m * nx + j], q = sc->weighted[m * EKOC_NSPACE_MAX_ELEMENTS + el->element];
          acc += p.re * q.im + p.im * q.re; /* Im(p q) */
        }
        if (j == k) acc += el->subtract;
        if (!isfinite(acc))
          return ekoc_error(EKOC_ERR_NUMERICAL, "batch: non-finite entry at ln x=%g basis %zu element %d", logx, j,
                            (int)el->element);
        el->value[k * nx + j] = acc;
      }
    }
  }
  return EKOC_OK;
}

int ekoc_quad_run_batch(const ekoc_quad_job *job, const ekoc_quad_settings *s, size_t *n_failed) {
  fatal_error fatal;
  int32_t n_nodes = s->batch_panels * s->batch_points;
  long nx = (long)job->interp->n;
  int n_threads = s->n_threads > 0 ? s->n_threads : omp_get_max_threads();
  double *u = malloc(2 * (size_t)n_nodes * sizeof(double)), *w;
  int rc;
  if (!u) return ekoc_error(EKOC_ERR_NO_MEMORY, "batch: out of memory for %d nodes", (int)n_nodes);
  w = u + n_nodes;
  rc = ekoc_batch_nodes_fill(s->batch_panels, s->batch_points, s->cut, u, w);
  if (rc != EKOC_OK) {
    free(u);
    return rc;
  }
  fatal.status = EKOC_OK;
  fatal.message[0] = '\0';
#pragma omp parallel num_threads(n_threads)
  {
    batch_scratch sc;
    long k;
    sc.weighted = malloc((size_t)n_nodes * EKOC_NSPACE_MAX_ELEMENTS * sizeof(ekoc_complex));
    sc.basis = malloc((size_t)n_nodes * (size_t)nx * sizeof(ekoc_complex));
    if (!sc.weighted || !sc.basis) fatal_record(&fatal, ekoc_error(EKOC_ERR_NO_MEMORY, "batch: out of memory"));
#pragma omp for schedule(dynamic, 1)
    for (k = 0; k < nx; ++k) {
      int stop, rck;
#pragma omp atomic read
      stop = fatal.status;
      if (stop != EKOC_OK || !sc.weighted || !sc.basis) continue;
      rck = batch_row(job, (size_t)k, n_nodes, u, w, &sc);
      if (rck == EKOC_OK) rck = ekoc_quad_progress_row(s->progress);
      if (rck != EKOC_OK) fatal_record(&fatal, rck);
    }
    free(sc.weighted);
    free(sc.basis);
  }
  free(u);
  if (fatal.status != EKOC_OK) return ekoc_error(fatal.status, "%s", fatal.message);
  *n_failed = 0;
  return EKOC_OK;
}
