/* adaptive.c: the adaptive driver, one GSL QAGS integral per operator entry
 * (as eko does with scipy.integrate.quad), threads over target points.
 *
 * QAGS's own estimate is QUADPACK's rescaled |K21 - G10| per interval; on
 * these integrands the 10-point Gauss and 21-point Kronrod sums of an
 * interval can agree by accident far better than either is right, and the
 * rescaling shrinks that difference further: measured on random cards
 * (tests/test_engine_property.c), QAGS's stated error missed the true one by
 * up to 2700x, with single-interval results (one 21-point rule on the whole
 * path) the worst. Every accepted integral is therefore checked against the
 * 21-point rule on the two halves of each of its final intervals; the stated
 * error is the larger of QAGS's and that gap, and the entry is flagged when
 * it misses the tolerance (measured: worst true error 6.7x the stated one,
 * about 1% more flags). The value stays QAGS's (eko's). The check costs 42
 * integrand evaluations per final interval, most of them new nodes, about 3x
 * the adaptive backend's time (perf/STATS.md). */
#include <math.h>
#include <omp.h>
#include <string.h>

#include <gsl/gsl_integration.h>

#include "quad/driver.h"
#include "quad/interp.h"
#include "quad/job.h"
#include "quad/path_radius.h"
#include "quad/workspace.h"
#include "status.h"

/* |v - sum over the final intervals of QAGS (still in the workspace) of the
 * 21-point Gauss-Kronrod rule on each half|: the same integral on twice as
 * many intervals, whose difference from v bounds v's error where QAGS's
 * estimate does not. */
static double adaptive_bisection_gap(ekoc_kernel_args *args, const ekoc_quad_workspace *ws, double v) {
  const gsl_integration_workspace *w = ws->gsl;
  gsl_function f;
  size_t i;
  double sum = 0.0;
  f.function = ekoc_quad_kernel;
  f.params = args;
  for (i = 0; i < w->size; ++i) {
    double a = w->alist[i], b = w->blist[i], m = 0.5 * (a + b), left, right, abserr, resabs, resasc;
    gsl_integration_qk21(&f, a, m, &left, &abserr, &resabs, &resasc);
    gsl_integration_qk21(&f, m, b, &right, &abserr, &resabs, &resasc);
    sum += left + right;
  }
  return fabs(v - sum);
}

/* The integrand in the tail variable s = -ln(1 - u + EKOC_QUAD_TAIL_SHIFT)
 * (quad/driver.h): f(u(s)) du/ds. */
static double tail_integrand(double s, void *vargs) {
  double du = exp(-s);
  return ekoc_quad_kernel(1.0 + EKOC_QUAD_TAIL_SHIFT - du, vargs) * du;
}

/* The remainder beyond the cut of one entry (quad/driver.h): the tail
 * u in [1 - cut, 1 - cut_t] as one 15-point Gauss-Kronrod rule in s, its
 * |integral| plus that rule's own estimate (QUADPACK's); 0 when there is no
 * tail. The kernel's status is left in args->status. */
static double adaptive_tail(ekoc_kernel_args *args, double cut) {
  gsl_function f;
  double cut_t = ekoc_quad_tail_cut(cut, args->logx), v = 0.0, err = 0.0, resabs, resasc;
  if (!(cut_t < cut)) return 0.0;
  f.function = tail_integrand;
  f.params = args;
  gsl_integration_qk15(&f, -log(cut + EKOC_QUAD_TAIL_SHIFT), -log(cut_t + EKOC_QUAD_TAIL_SHIFT), &v, &err, &resabs,
                       &resasc);
  return fabs(v) + err;
}

/* Fills the entries of row k with eko's corner conventions applied. Between
 * basis functions it stops when another row has failed and polls the
 * progress callback, so a cancellation is seen within a fraction of a second
 * even when one row takes minutes (large grids). */
static int adaptive_row(const ekoc_quad_job *job, const ekoc_quad_settings *s, size_t k, ekoc_quad_workspace *ws,
                        const ekoc_quad_fatal *fatal, size_t *n_failed) {
  const ekoc_interp *in = job->interp;
  size_t nx = in->n, j;
  int32_t f, e;
  double logx = in->logx[k], last_poll = ekoc_quad_clock_s();
  ekoc_quad_row_init(job, k);
  if (logx == 0.0) return EKOC_OK; /* x_k = 1: the integrand vanishes (eko) */
  /* family outermost: all basis functions and elements of one family share
   * the inversion nodes, so the workspace cache serves them */
  for (f = 0; f < job->n_families; ++f) {
    /* the row's path off the poles of the kernel (quad/path_radius.h); the
     * batch engine computes the row on the same path */
    double radius;
    ekoc_path_status path;
    int rc_path = ekoc_path_radius(&job->family[f], logx, &radius, &path);
    if (rc_path != EKOC_OK) return rc_path;
    for (j = 0; j < nx; ++j) {
      const double *areas = in->area + in->area_offset[j] * EKOC_AREA_STRIDE(in->degree);
      size_t n_areas = in->area_offset[j + 1] - in->area_offset[j];
      int rc_poll;
      if (k == nx - 1 && j == nx - 1) continue;
      if (!ekoc_basis_is_active(areas, n_areas, in->degree, logx)) continue;
      if (ekoc_quad_fatal_status(fatal) != EKOC_OK) return ekoc_quad_fatal_status(fatal); /* recorded already */
      rc_poll = ekoc_quad_progress_poll(s->progress, &last_poll);
      if (rc_poll != EKOC_OK) return rc_poll;
      for (e = 0; e < job->n_elements; ++e) {
        const ekoc_quad_element *el = &job->elements[e];
        ekoc_kernel_args args;
        double v, err;
        int rc;
        if (el->family != f) continue;
        memset(&args, 0, sizeof args);
        args.nspace = job->family[f];
        args.element = el->element;
        args.degree = in->degree;
        args.logx = logx;
        args.areas = areas;
        args.n_areas = n_areas;
        args.subtract = el->subtract;
        args.interp = in;
        args.basis_index = (int32_t)j;
        args.workspace = ws;
        args.path_radius = path == EKOC_PATH_MOVED ? radius : 0.0;
        rc = ekoc_quad_integrate(&args, s->cut, s->epsabs, s->epsrel, s->limit, &v, &err);
        if (rc == EKOC_OK) { /* QAGS accepted it: check its estimate (see the top of this file) */
          double gap = adaptive_bisection_gap(&args, ws, v);
          if (args.status != EKOC_OK) return args.status; /* the kernel's message is in place */
          if (gap > err) err = gap;
        }
        if (rc == EKOC_OK || rc == EKOC_ERR_INTEGRATION) { /* the remainder beyond the cut (quad/driver.h) */
          if (!s->skip_cut_remainder) err += adaptive_tail(&args, s->cut);
          if (args.status != EKOC_OK) return args.status;
          if (!(err <= ekoc_quad_tolerance(s->epsabs, s->epsrel, v))) rc = EKOC_ERR_INTEGRATION;
          if (path == EKOC_PATH_UNRESOLVED) rc = EKOC_ERR_INTEGRATION; /* a pole next to the path */
        }
        el->value[k * nx + j] = v + (j == k ? el->subtract : 0.0);
        el->error[k * nx + j] = err;
        if (rc == EKOC_ERR_INTEGRATION) {
          if (el->failed) el->failed[k * nx + j] = 1;
          ++*n_failed;
        } else if (rc != EKOC_OK) {
          return rc;
        }
      }
    }
  }
  return EKOC_OK;
}

int ekoc_quad_run_adaptive(const ekoc_quad_job *job, const ekoc_quad_settings *s, size_t *n_failed) {
  ekoc_quad_fatal fatal;
  size_t failed_total = 0;
  long nx = (long)job->interp->n;
  int n_threads = s->n_threads > 0 ? s->n_threads : omp_get_max_threads();
  fatal.status = EKOC_OK;
  fatal.message[0] = '\0';
  ekoc_init();
#pragma omp parallel num_threads(n_threads) reduction(+ : failed_total)
  {
    ekoc_quad_workspace *ws = NULL;
    int rc = ekoc_quad_workspace_alloc(s->limit, &ws);
    long k;
    if (rc == EKOC_OK) rc = ekoc_quad_workspace_reserve_basis(ws, (size_t)nx);
    if (rc != EKOC_OK) {
      ekoc_quad_fatal_record(&fatal, rc);
      ekoc_quad_workspace_free(ws);
      ws = NULL;
    }
#pragma omp for schedule(dynamic, 1)
    for (k = 0; k < nx; ++k) {
      if (ekoc_quad_fatal_status(&fatal) != EKOC_OK || !ws) continue;
      rc = adaptive_row(job, s, (size_t)k, ws, &fatal, &failed_total);
      if (rc == EKOC_OK) rc = ekoc_quad_progress_row(s->progress);
      if (rc != EKOC_OK) ekoc_quad_fatal_record(&fatal, rc);
    }
    ekoc_quad_workspace_free(ws);
  }
  if (fatal.status != EKOC_OK) return ekoc_error(fatal.status, "%s", fatal.message);
  *n_failed = failed_total;
  return EKOC_OK;
}
