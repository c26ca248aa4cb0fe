/* engine_jobs.h: random cards, grids and operator jobs for the tests of the
 * quadrature engines (test_batch_engine.c, test_engine_property.c), and the
 * references they are checked against.
 *
 * A card is one random inversion problem: a grid (lambertgrid, log-uniform,
 * or the fit grids' mixed shape: two thirds log-uniform up to 0.1, a third
 * linear above, optionally ending ..., 0.93, 1 as pineko's), a basis
 * (degree, polynomials in ln x or in x) and an N-space configuration
 * (evolution: order, method, iterations, scale variation; matching: order,
 * inversion method). A job holds both families and every element of the
 * card; its outputs start as NaN / 0xAA so that an entry a driver does not
 * write is caught.
 *
 * References:
 *  - reference_batch: the batch engine's rule as a fixed composite rule,
 *    64 panels x 61 Gauss-Kronrod nodes, no refinement; its error is the
 *    composite |K - G| (whole operators, small grids);
 *  - reference_rows: chosen rows only, through the public integrand
 *    ekoc_quad_kernel (include/ekoc/kernel.h) and GSL's fixed Gauss-Legendre
 *    tables, on `panels` equal panels with 30 and 40 points; the value is the
 *    40-point sum, the error the difference of the two (large grids, where
 *    whole reference operators cost too much). It shares no quadrature code
 *    with the batch engine nor with QAGS.
 *
 * Include after <cmocka.h> (it asserts), with ekoc.h, quad/interp.h and
 * quad/job.h.
 */
#ifndef EKOC_TEST_ENGINE_JOBS_H
#define EKOC_TEST_ENGINE_JOBS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_integration.h>

#include "ad/beta.h"
#include "ad/nspace.h"
#include "ekoc.h"
#include "quad/interp.h"
#include "quad/job.h"

/* ---- random numbers (xorshift64: the same cards on every platform) ------------------ */

typedef struct rnd {
  uint64_t s;
} rnd;
static uint64_t rnd_next(rnd *r) {
  r->s ^= r->s << 13;
  r->s ^= r->s >> 7;
  r->s ^= r->s << 17;
  return r->s;
}
static double rnd_u(rnd *r) { return (double)(rnd_next(r) >> 11) / 9007199254740992.0; }
static int rnd_i(rnd *r, int lo, int hi) { return lo + (int)(rnd_u(r) * (hi - lo + 1)); }

/* ---- cards --------------------------------------------------------------------------- */

enum { GRID_LAMBERT = 0, GRID_LOG = 1, GRID_MIXED = 2, GRID_MIXED_GAP = 3, GRID_KINDS = 4 };

typedef struct card {
  int nx, degree, is_log, grid_kind, kind, order, nf, method, iters, sv, matching_method;
  double xmin, sv_log, a0, a1, ome_log;
  char text[288];
} card;

static void card_describe(card *c) {
  static const char *grid_names[] = {"lambert", "log", "mixed", "mixed-0.93"};
  snprintf(c->text, sizeof c->text,
           "nx=%d degree=%d %s xmin=%.2g grid=%s %s order=%d nf=%d method=%d iterations=%d sv=%d (%.2f) "
           "a=%.4f->%.4f ome_log=%.3f inversion=%d",
           c->nx, c->degree, c->is_log ? "log-basis" : "linear-basis", c->xmin, grid_names[c->grid_kind],
           c->kind ? "matching" : "evolution", c->order, c->nf, c->method, c->iters, c->sv, c->sv_log, c->a0, c->a1,
           c->ome_log, c->matching_method);
}

/* A random card: nx in nx_min..nx_max, degree 1..degree_max (below nx), x
 * down to 1e-3..1e-9, one basis in four linear in x. */
static void card_random(rnd *r, card *c, int nx_min, int nx_max, int degree_max) {
  memset(c, 0, sizeof *c);
  c->nx = rnd_i(r, nx_min, nx_max);
  c->degree = rnd_i(r, 1, degree_max);
  if (c->degree >= c->nx) c->degree = c->nx - 1;
  c->is_log = rnd_u(r) < 0.75;
  c->xmin = pow(10.0, -3.0 - 6.0 * rnd_u(r));
  c->grid_kind = rnd_i(r, 0, GRID_KINDS - 1);
  c->kind = rnd_u(r) < 0.3 ? EKOC_KIND_MATCHING : EKOC_KIND_EVOLUTION;
  c->order = c->kind == EKOC_KIND_MATCHING ? rnd_i(r, 1, 2) : rnd_i(r, 1, 3);
  c->nf = rnd_i(r, 3, 5);
  c->method = rnd_i(r, 0, 7);
  c->iters = rnd_i(r, 1, 10);
  c->sv = c->kind == EKOC_KIND_EVOLUTION ? rnd_i(r, 0, 2) : 0;
  c->sv_log = c->sv ? (rnd_u(r) < 0.5 ? -1.0 : 1.0) * log(4.0) : 0.0;
  c->a0 = 0.008 + 0.022 * rnd_u(r);
  c->a1 = 0.008 + 0.022 * rnd_u(r);
  c->ome_log = c->kind == EKOC_KIND_MATCHING ? rnd_u(r) - 0.5 : 0.0;
  c->matching_method = rnd_i(r, 0, 2);
  card_describe(c);
}

/* The first large card of the large-grid tests: the fit grid's shape on 300
 * points from 1e-9. */
static void card_fit300(card *c) {
  c->nx = 300;
  c->xmin = 1e-9;
  c->grid_kind = GRID_MIXED;
  card_describe(c);
}

/* The card's grid into g[0..nx-1]: lambertgrid; log-uniform; two thirds
 * log-uniform up to 0.1 and a third linear above (the fit grids' shape); the
 * same with the linear part ending at 0.93 before 1 (pineko's grid). */
static void card_grid(const card *c, double *g) {
  int i, n = c->nx, nl = (2 * c->nx) / 3, nlin;
  double top;
  if (c->grid_kind == GRID_LAMBERT) {
    assert_int_equal(ekoc_grid_lambert((size_t)n, c->xmin, g), EKOC_OK);
    return;
  }
  if (c->grid_kind == GRID_LOG || nl < 2 || n - nl < 2) {
    for (i = 0; i < n; ++i) g[i] = i == n - 1 ? 1.0 : exp(log(c->xmin) * (1.0 - (double)i / (n - 1)));
    return;
  }
  for (i = 0; i < nl; ++i) g[i] = exp(log(c->xmin) + (log(0.1) - log(c->xmin)) * i / (nl - 1.0));
  nlin = c->grid_kind == GRID_MIXED ? n - nl : n - nl - 1; /* points above 0.1 up to `top` */
  top = c->grid_kind == GRID_MIXED ? 1.0 : 0.93;
  for (i = nl; i < nl + nlin; ++i) g[i] = 0.1 + (top - 0.1) * (double)(i - nl + 1) / nlin;
  g[n - 1] = 1.0;
}

/* ---- jobs ---------------------------------------------------------------------------- */

typedef struct job_data {
  ekoc_interp *interp;
  ekoc_quad_job job;
  double *val[EKOC_JOB_MAX_ELEMENTS], *err[EKOC_JOB_MAX_ELEMENTS];
  uint8_t *failed[EKOC_JOB_MAX_ELEMENTS];
} job_data;

/* Every element of both families of the card, outputs poisoned. */
static void job_make(job_data *d, const card *c) {
  double *g = malloc((size_t)c->nx * sizeof *g);
  int e, n = 0, f, nx = c->nx;
  assert_non_null(g);
  memset(d, 0, sizeof *d);
  card_grid(c, g);
  assert_int_equal(ekoc_interp_alloc_ex(g, (size_t)nx, c->degree, c->is_log, &d->interp), EKOC_OK);
  free(g);
  d->job.interp = d->interp;
  d->job.n_families = 2;
  for (f = 0; f < 2; ++f) {
    ekoc_nspace_config *x = &d->job.family[f];
    memset(x, 0, sizeof *x);
    x->kind = c->kind;
    x->family = f;
    x->order = c->order;
    x->nf = c->nf;
    x->method = c->method;
    x->ev_op_iterations = c->iters;
    x->ev_op_max_order = 10;
    x->sv_mode = c->sv;
    x->sv_log = c->sv_log;
    x->matching_method = c->matching_method;
    ekoc_beta_coefficients(c->nf, x->beta);
    x->a0 = c->a0;
    x->a1 = c->a1;
    x->ome_log = c->ome_log;
  }
  for (f = 0; f < 2; ++f) {
    int size = ekoc_nspace_family_size(&d->job.family[f]);
    for (e = 0; e < size; ++e, ++n) {
      int diag = f == 0 ? 1 : c->kind ? (e == 0 || e == 4 || e == 8) : (e == 0 || e == 3);
      d->job.elements[n].family = f;
      d->job.elements[n].element = e;
      d->job.elements[n].diagonal = diag;
      d->job.elements[n].subtract = c->kind && diag ? 1.0 : 0.0;
    }
  }
  d->job.n_elements = n;
  for (e = 0; e < n; ++e) {
    size_t i, nn = (size_t)nx * (size_t)nx;
    d->val[e] = malloc(nn * sizeof(double));
    d->err[e] = malloc(nn * sizeof(double));
    d->failed[e] = malloc(nn);
    assert_true(d->val[e] && d->err[e] && d->failed[e]);
    for (i = 0; i < nn; ++i) d->val[e][i] = d->err[e][i] = NAN; /* the driver must write every entry */
    memset(d->failed[e], 0xAA, nn);
    d->job.elements[e].value = d->val[e];
    d->job.elements[e].error = d->err[e];
    d->job.elements[e].failed = d->failed[e];
  }
}

static void job_free(job_data *d) {
  int e;
  for (e = 0; e < d->job.n_elements; ++e) {
    free(d->val[e]);
    free(d->err[e]);
    free(d->failed[e]);
  }
  ekoc_interp_free(d->interp);
}

/* eko's tolerances, limit 100, the default 1 x 36 base rule */
static ekoc_quad_settings engine_settings(int threads) {
  ekoc_quad_settings s;
  memset(&s, 0, sizeof s);
  s.epsabs = 1e-12;
  s.epsrel = 1e-5;
  s.cut = 0.05;
  s.limit = 100;
  s.n_threads = threads;
  s.batch_panels = 1;
  s.batch_points = 36;
  return s;
}

/* ---- references ---------------------------------------------------------------------- */

/* The whole job with 64 x 61 composite Gauss-Kronrod nodes, no refinement. */
static void reference_batch(job_data *t) {
  ekoc_quad_settings s = engine_settings(2);
  size_t nf;
  s.limit = 1;
  s.batch_panels = 64;
  s.batch_points = 30;
  s.skip_cut_remainder = 1; /* a reference of eko's range [0.5, 1 - cut]: its errors are its quadrature's */
  assert_int_equal(ekoc_quad_run_batch(&t->job, &s, &nf), EKOC_OK);
}

/* Rows rows[0..n_rows-1] of every element of t with GSL's Gauss-Legendre
 * tables on `panels` equal panels of [0.5, 1 - cut]: value the 40-point sum,
 * error |S40 - S30|; the constant of a matching's identity part added back on
 * the diagonal, the (x=1, x=1) corner and the row of x = 1 as the drivers
 * write them. Node outermost, so that the workspace's cache serves every basis
 * function and element of a node. Other rows are left as they are. */
static void reference_rows(job_data *t, const size_t *rows, size_t n_rows, int panels, double cut) {
  const ekoc_interp *in = t->interp;
  size_t nx = in->n, r, j;
  gsl_integration_glfixed_table *tab[2];
  ekoc_quad_workspace *ws = NULL;
  double *acc = calloc(2 * (size_t)EKOC_JOB_MAX_ELEMENTS * nx, sizeof *acc);
  static const int points[2] = {30, 40};
  assert_non_null(acc);
  tab[0] = gsl_integration_glfixed_table_alloc((size_t)points[0]);
  tab[1] = gsl_integration_glfixed_table_alloc((size_t)points[1]);
  assert_true(tab[0] && tab[1]);
  assert_int_equal(ekoc_quad_workspace_alloc(1, &ws), EKOC_OK);
  assert_int_equal(ekoc_quad_workspace_reserve_basis(ws, nx), EKOC_OK);
  for (r = 0; r < n_rows; ++r) {
    size_t k = rows[r];
    int e, p, q, i;
    memset(acc, 0, 2 * (size_t)EKOC_JOB_MAX_ELEMENTS * nx * sizeof *acc);
    for (q = 0; q < 2 && in->logx[k] != 0.0; ++q)
      for (p = 0; p < panels; ++p) {
        double a = 0.5 + (0.5 - cut) * p / panels, b = 0.5 + (0.5 - cut) * (p + 1) / panels;
        for (i = 0; i < points[q]; ++i) {
          double u, w;
          gsl_integration_glfixed_point(a, b, (size_t)i, &u, &w, tab[q]);
          for (e = 0; e < t->job.n_elements; ++e) {
            const ekoc_quad_element *el = &t->job.elements[e];
            ekoc_kernel_args args;
            memset(&args, 0, sizeof args);
            args.nspace = t->job.family[el->family];
            args.element = el->element;
            args.logx = in->logx[k];
            args.interp = in;
            args.subtract = el->subtract;
            args.workspace = ws;
            for (j = 0; j < nx; ++j) {
              double v;
              args.basis_index = (int32_t)j;
              v = ekoc_quad_kernel(u, &args);
              assert_int_equal(args.status, EKOC_OK);
              acc[((size_t)q * EKOC_JOB_MAX_ELEMENTS + (size_t)e) * nx + j] += w * v;
            }
          }
        }
      }
    for (e = 0; e < t->job.n_elements; ++e) {
      const ekoc_quad_element *el = &t->job.elements[e];
      for (j = 0; j < nx; ++j) {
        double s30 = acc[(size_t)e * nx + j], s40 = acc[((size_t)EKOC_JOB_MAX_ELEMENTS + (size_t)e) * nx + j];
        el->value[k * nx + j] = s40 + (j == k ? el->subtract : 0.0);
        el->error[k * nx + j] = fabs(s40 - s30);
        if (el->failed) el->failed[k * nx + j] = 0;
      }
      if (k == nx - 1) el->value[k * nx + k] = el->diagonal ? 1.0 : 0.0;
    }
  }
  ekoc_quad_workspace_free(ws);
  gsl_integration_glfixed_table_free(tab[0]);
  gsl_integration_glfixed_table_free(tab[1]);
  free(acc);
}

#endif /* EKOC_TEST_ENGINE_JOBS_H */
