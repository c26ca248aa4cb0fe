/* test_batch_engine.c: the batch engine's error control (src/quad/batch.c,
 * batch_eval.h, batch_refine.h, batch_host.h) on random small jobs:
 *  - property: every entry is flagged, or within 10 x its stated error
 *    (+ 1e-12) of a converged reference, for random grids (lambert, log,
 *    mixed log/linear; x down to 1e-9), degrees 1..4, evolution (orders,
 *    methods, scale variations) and matching (orders, inversion methods);
 *  - a 3-node base rule (batch_points = 1): refined to tolerance or flagged;
 *  - the same bits for 1 and 4 threads and with or without the N-space cache;
 *  - rows that pass on the base rule keep its sums bit for bit;
 *  - the budget: without refinement (limit 1) more entries are flagged.
 * The reference is a fixed composite rule, 64 panels x 61 Gauss-Kronrod
 * nodes (the base rule with no refinement; its own |K - G| must be below
 * 1e-3 of eko's tolerance for the entry to be checked), independent of the
 * estimate and of the refinement. The adaptive driver at epsrel 1e-9 is
 * not used: its GSL estimate missed its own error by up to 60x at the 1e-10
 * level on these jobs, where the composite rule agreed with the engine.
 * TODO(issue 17): raise the degree to 8 once the basis transforms are the
 * numerically stable ones (batch_math.h); with the monomial forms the
 * rounding noise at degree > 4 makes most small-x entries unconvergeable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/beta.h"
#include "ad/nspace.h"
#include "ekoc.h"
#include "quad/interp.h"
#include "quad/job.h"
#include "quad/nspace_cache.h"
#include "test_util.h"

static int verbose(void) { return getenv("EKOC_TEST_VERBOSE") != NULL; }

/* ---- random cards ------------------------------------------------------------------ */

typedef struct rnd {
  uint64_t s;
} rnd;
static uint64_t rnd_next(rnd *r) { /* xorshift64 */
  r->s ^= r->s << 13;
  r->s ^= r->s >> 7;
  r->s ^= r->s << 17;
  return r->s;
}
static double rnd_u(rnd *r) { return (double)(rnd_next(r) >> 11) / 9007199254740992.0; }
static int rnd_i(rnd *r, int lo, int hi) { return lo + (int)(rnd_u(r) * (hi - lo + 1)); }

typedef struct card {
  int nx, degree, grid_kind, kind, order, nf, method, iters, sv, matching_method;
  double xmin, sv_log, a0, a1, ome_log;
  char text[256];
} card;

static void card_describe(card *c) {
  static const char *grid_names[] = {"lambert", "log", "mixed"};
  snprintf(c->text, sizeof c->text,
           "nx=%d degree=%d xmin=%.2g grid=%s %s order=%d nf=%d method=%d iterations=%d sv=%d (%.2f) a=%.4f->%.4f "
           "ome_log=%.3f inversion=%d",
           c->nx, c->degree, c->xmin, grid_names[c->grid_kind], c->kind ? "matching" : "evolution", c->order, c->nf,
           c->method, c->iters, c->sv, c->sv_log, c->a0, c->a1, c->ome_log, c->matching_method);
}

static void card_random(rnd *r, card *c, int nx_max) {
  memset(c, 0, sizeof *c);
  c->nx = rnd_i(r, 6, nx_max);
  c->degree = rnd_i(r, 1, 4);
  if (c->degree >= c->nx) c->degree = c->nx - 1;
  c->xmin = pow(10.0, -3.0 - 6.0 * rnd_u(r));
  c->grid_kind = rnd_i(r, 0, 2);
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

/* lambertgrid, log-uniform, or two thirds log-uniform up to 0.1 and a third
 * linear above (the fit grids' shape) */
static void card_grid(const card *c, double *g) {
  int i, n = c->nx, nl = (2 * c->nx) / 3;
  if (c->grid_kind == 0) {
    assert_int_equal(ekoc_grid_lambert(n, c->xmin, g), EKOC_OK);
    return;
  }
  if (c->grid_kind == 1 || nl < 2) {
    for (i = 0; i < n; ++i) g[i] = i == n - 1 ? 1.0 : exp(log(c->xmin) * (1.0 - (double)i / (n - 1)));
    return;
  }
  for (i = 0; i < nl; ++i) g[i] = exp(log(c->xmin) + (log(0.1) - log(c->xmin)) * i / (nl - 1.0));
  for (i = nl; i < n; ++i) g[i] = i == n - 1 ? 1.0 : 0.1 + 0.9 * (double)(i - nl + 1) / (n - nl);
}

typedef struct job_data {
  ekoc_interp *interp;
  ekoc_quad_job job;
  double *val[EKOC_JOB_MAX_ELEMENTS], *err[EKOC_JOB_MAX_ELEMENTS];
  uint8_t *failed[EKOC_JOB_MAX_ELEMENTS];
} job_data;

static void job_make(job_data *d, const card *c) {
  double g[64];
  int e, n = 0, f, nx = c->nx;
  memset(d, 0, sizeof *d);
  card_grid(c, g);
  assert_int_equal(ekoc_interp_alloc(g, (size_t)nx, c->degree, &d->interp), EKOC_OK);
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
    int i;
    d->val[e] = malloc((size_t)nx * nx * sizeof(double));
    d->err[e] = malloc((size_t)nx * nx * sizeof(double));
    d->failed[e] = malloc((size_t)nx * nx);
    assert_true(d->val[e] && d->err[e] && d->failed[e]);
    for (i = 0; i < nx * nx; ++i) d->val[e][i] = d->err[e][i] = NAN; /* the driver must write every entry */
    memset(d->failed[e], 0xAA, (size_t)nx * nx);
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
static ekoc_quad_settings settings(int threads) {
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

/* The reference: 64 x 61 composite Gauss-Kronrod nodes, no refinement. */
static void reference(job_data *t) {
  ekoc_quad_settings s = settings(2);
  size_t nf;
  s.limit = 1;
  s.batch_panels = 64;
  s.batch_points = 30;
  assert_int_equal(ekoc_quad_run_batch(&t->job, &s, &nf), EKOC_OK);
}

typedef struct tally {
  size_t entries, flagged, checked, silent;
  double worst; /* largest |v - ref| / err among the unflagged entries off by more than 1e-12 */
} tally;

/* Entry by entry: flagged, or within 10 err + 1e-12 of the reference
 * (skipped where the reference is not converged to 1e-3 of the tolerance);
 * the flags counted in n_failed. */
static void check_entries(const card *c, const job_data *b, const job_data *t, size_t n_failed, tally *tl) {
  size_t i, nn = (size_t)c->nx * (size_t)c->nx, flagged = 0;
  int e;
  for (e = 0; e < b->job.n_elements; ++e)
    for (i = 0; i < nn; ++i) {
      double v = b->val[e][i], ref = t->val[e][i], d = fabs(v - ref), tol = fmax(1e-12, 1e-5 * fabs(ref));
      assert_true(isfinite(v) && isfinite(b->err[e][i]) && b->err[e][i] >= 0.0);
      assert_true(b->failed[e][i] <= 1);
      ++tl->entries;
      if (b->failed[e][i]) {
        ++flagged;
        continue;
      }
      if (t->err[e][i] > 1e-3 * tol) continue;
      ++tl->checked;
      if (d > tol) ++tl->silent;
      if (d > 1e-12) tl->worst = fmax(tl->worst, d / b->err[e][i]);
      if (!(d <= 10.0 * b->err[e][i] + 1e-12))
        fail_msg("%s: element %d entry (%zu, %zu) = %.15g, reference %.15g, stated error %.3g", c->text, e, i / c->nx,
                 i % c->nx, v, ref, b->err[e][i]);
    }
  assert_int_equal(flagged, n_failed);
  tl->flagged += flagged;
}

/* ---- the tests --------------------------------------------------------------------- */

/* Random cards (nx 6..40, one in four up to 60): flagged or within 10 x the
 * stated error of the reference, every entry. */
static void test_property_random_cards(void **state) {
  rnd r = {0x5eed2026u};
  tally tl;
  int n;
  (void)state;
  memset(&tl, 0, sizeof tl);
  for (n = 0; n < 16; ++n) {
    card c;
    job_data b, t;
    ekoc_quad_settings s = settings(2);
    size_t nf = 0;
    card_random(&r, &c, n % 4 == 3 ? 60 : 40);
    job_make(&b, &c);
    job_make(&t, &c);
    assert_int_equal(ekoc_quad_run_batch(&b.job, &s, &nf), EKOC_OK);
    reference(&t);
    check_entries(&c, &b, &t, nf, &tl);
    job_free(&b);
    job_free(&t);
  }
  assert_int_equal(tl.silent, 0);
  assert_true(tl.checked > tl.entries / 2);
  if (verbose())
    printf("random cards: %zu entries, %zu flagged, %zu checked, worst |v - ref| / error %.3g\n", tl.entries,
           tl.flagged, tl.checked, tl.worst);
}

/* A 3-node base rule (1 Gauss point): every entry refined to the tolerance or
 * flagged, none silently off; and far fewer flags than without refinement. */
static void test_points_one(void **state) {
  rnd r = {0xb0b1u};
  tally tl;
  int n;
  (void)state;
  memset(&tl, 0, sizeof tl);
  for (n = 0; n < 6; ++n) {
    card c;
    job_data b, t;
    ekoc_quad_settings s = settings(2);
    size_t nf = 0, nf_base = 0;
    card_random(&r, &c, 30);
    job_make(&b, &c);
    job_make(&t, &c);
    s.batch_points = 1;
    s.limit = 1;
    assert_int_equal(ekoc_quad_run_batch(&b.job, &s, &nf_base), EKOC_OK);
    s.limit = 100;
    assert_int_equal(ekoc_quad_run_batch(&b.job, &s, &nf), EKOC_OK);
    reference(&t);
    check_entries(&c, &b, &t, nf, &tl);
    assert_true(nf < nf_base || nf_base == 0);
    if (verbose()) printf("points=1: %s: %zu flagged unrefined, %zu refined\n", c.text, nf_base, nf);
    job_free(&b);
    job_free(&t);
  }
  assert_int_equal(tl.silent, 0);
}

/* The same bits for 1 and 4 threads, and with the N-space cache (twice: cold
 * and warm) as without it. */
static void test_threads_and_cache_bitwise(void **state) {
  rnd r = {0x7ea5u};
  int n;
  (void)state;
  for (n = 0; n < 3; ++n) {
    card c;
    job_data x, y;
    ekoc_quad_settings s1 = settings(1), s4 = settings(4);
    ekoc_nspace_cache *cache = NULL;
    size_t nf1 = 0, nf4 = 0, nfc = 0;
    int e, pass;
    card_random(&r, &c, 40);
    c.xmin = 1e-8; /* small x: some rows refine */
    card_describe(&c);
    job_make(&x, &c);
    job_make(&y, &c);
    assert_int_equal(ekoc_quad_run_batch(&x.job, &s1, &nf1), EKOC_OK);
    assert_int_equal(ekoc_quad_run_batch(&y.job, &s4, &nf4), EKOC_OK);
    assert_int_equal(nf1, nf4);
    for (e = 0; e < x.job.n_elements; ++e) {
      assert_memory_equal(x.val[e], y.val[e], (size_t)c.nx * c.nx * sizeof(double));
      assert_memory_equal(x.err[e], y.err[e], (size_t)c.nx * c.nx * sizeof(double));
      assert_memory_equal(x.failed[e], y.failed[e], (size_t)c.nx * c.nx);
    }
    assert_int_equal(ekoc_nspace_cache_new(0, &cache), EKOC_OK);
    assert_true(ekoc_nspace_cache_bind(cache, x.interp->logx, x.interp->n, c.degree, s4.batch_panels,
                                       s4.batch_points, s4.cut));
    s4.nspace_cache = cache;
    for (pass = 0; pass < 2; ++pass) {
      assert_int_equal(ekoc_quad_run_batch(&y.job, &s4, &nfc), EKOC_OK);
      assert_int_equal(nf1, nfc);
      for (e = 0; e < x.job.n_elements; ++e) {
        assert_memory_equal(x.val[e], y.val[e], (size_t)c.nx * c.nx * sizeof(double));
        assert_memory_equal(x.err[e], y.err[e], (size_t)c.nx * c.nx * sizeof(double));
      }
    }
    ekoc_nspace_cache_release(cache);
    ekoc_nspace_cache_free(cache);
    job_free(&x);
    job_free(&y);
  }
}

/* Rows whose entries all pass on the base rule keep its sums bit for bit
 * (limit 1: the base rule alone), and some rows do refine. */
static void test_unrefined_rows_keep_base_bits(void **state) {
  rnd r = {0x0b175u};
  card c;
  job_data a, b;
  ekoc_quad_settings s = settings(2);
  size_t nf_base = 0, nf = 0, k, j, kept = 0, changed = 0;
  int e, f;
  (void)state;
  card_random(&r, &c, 40);
  c.nx = 30; /* NNLO iterate-exact evolution on a lambertgrid from 1e-7, degree 4: small-x singlet rows refine */
  c.degree = 4;
  c.grid_kind = 0;
  c.kind = EKOC_KIND_EVOLUTION;
  c.order = 3;
  c.method = EKOC_METHOD_ITERATE_EXACT;
  c.iters = 10;
  c.sv = 0;
  c.sv_log = 0.0;
  c.xmin = 1e-7;
  card_describe(&c);
  job_make(&a, &c);
  job_make(&b, &c);
  s.limit = 1;
  assert_int_equal(ekoc_quad_run_batch(&a.job, &s, &nf_base), EKOC_OK);
  s.limit = 100;
  assert_int_equal(ekoc_quad_run_batch(&b.job, &s, &nf), EKOC_OK);
  for (f = 0; f < 2; ++f)
    for (k = 0; k < (size_t)c.nx; ++k) {
      int row_failed = 0, same = 1;
      for (e = 0; e < a.job.n_elements; ++e) {
        if (a.job.elements[e].family != f) continue;
        for (j = 0; j < (size_t)c.nx; ++j) {
          row_failed |= a.failed[e][k * c.nx + j];
          same &= memcmp(&a.val[e][k * c.nx + j], &b.val[e][k * c.nx + j], sizeof(double)) == 0;
        }
      }
      if (!row_failed) assert_true(same);
      if (!row_failed) ++kept;
      if (row_failed && !same) ++changed;
    }
  assert_true(kept > 0);
  assert_true(changed > 0);
  if (verbose()) printf("%s: %zu rows kept, %zu refined, flags %zu -> %zu\n", c.text, kept, changed, nf_base, nf);
  job_free(&a);
  job_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_property_random_cards),
      cmocka_unit_test(test_points_one),
      cmocka_unit_test(test_threads_and_cache_bitwise),
      cmocka_unit_test(test_unrefined_rows_keep_base_bits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
