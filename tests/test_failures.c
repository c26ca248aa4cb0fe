/* test_failures.c: integration failures are reported, not hidden (issue 7,
 * item 5). A quadrature that misses its tolerance (here forced with GSL's
 * subdivision limit 1) must say so at every level:
 *  - ekoc_quad_integrate: EKOC_ERR_INTEGRATION naming the GSL code, with the
 *    value and error estimate still written, the estimate above the
 *    tolerance and bounding the true error;
 *  - ekoc_compute: EKOC_OK, ekoc_operator_failures > 0 and
 *    ekoc_operator_failed_flavor flagging exactly the entries a failed
 *    integral reaches: every unflagged entry is bitwise the value of a run
 *    whose integrals all converge (limit 100), because QAGS returns its first
 *    21-point estimate unchanged whenever that already meets the tolerance;
 *  - the batch backend: entries whose Kronrod-Gauss estimate misses the
 *    tolerance are flagged the same way.
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

#include "ekoc.h"
#include "test_util.h"

#define NX 6
#define LEN ((size_t)196 * NX * NX)

static double grid[NX];

/* ---- one integral ------------------------------------------------------------------------ */

/* NNLO singlet evolution, qg element, basis function 3 at x_1 of the grid. */
static void make_args(ekoc_kernel_args *a, ekoc_interp **ip, ekoc_quad_workspace **ws, size_t limit) {
  assert_int_equal(ekoc_grid_lambert(NX, 1e-4, grid), EKOC_OK);
  assert_int_equal(ekoc_interp_alloc(grid, NX, 3, ip), EKOC_OK);
  assert_int_equal(ekoc_quad_workspace_alloc(limit, ws), EKOC_OK);
  assert_int_equal(ekoc_quad_workspace_reserve_basis(*ws, NX), EKOC_OK);
  memset(a, 0, sizeof *a);
  a->nspace.kind = EKOC_KIND_EVOLUTION;
  a->nspace.family = EKOC_FAMILY_SINGLET;
  a->nspace.order = 3;
  a->nspace.nf = 4;
  a->nspace.method = EKOC_METHOD_ITERATE_EXACT;
  a->nspace.ev_op_iterations = 10;
  a->nspace.ev_op_max_order = 10;
  a->nspace.a0 = 0.35 / (4.0 * M_PI);
  a->nspace.a1 = 0.012;
  assert_int_equal(ekoc_beta(4, a->nspace.beta), EKOC_OK);
  a->element = 1;
  a->interp = *ip;
  a->basis_index = 3;
  a->logx = log(grid[1]);
  a->workspace = *ws;
}

static void test_integrate_limit_one(void **state) {
  ekoc_kernel_args a;
  ekoc_interp *ip = NULL;
  ekoc_quad_workspace *ws = NULL;
  double v1 = NAN, e1 = NAN, vref, eref, tol;
  const double epsrel = 1e-10;
  int rc;
  (void)state;
  make_args(&a, &ip, &ws, 1000);
  /* reference: converged */
  rc = ekoc_quad_integrate(&a, 0.05, 0.0, epsrel, 1000, &vref, &eref);
  if (rc != EKOC_OK) fail_msg("reference: %s", ekoc_last_error());
  assert_true(eref <= epsrel * fabs(vref));
  /* one subinterval: GSL's "maximum of one iteration was insufficient" */
  rc = ekoc_quad_integrate(&a, 0.05, 0.0, epsrel, 1, &v1, &e1);
  assert_int_equal(rc, EKOC_ERR_INTEGRATION);
  assert_non_null(strstr(ekoc_last_error(), "GSL code 11"));
  assert_non_null(strstr(ekoc_last_error(), "element 1"));
  /* the estimate is written and says the tolerance was missed ... */
  assert_true(isfinite(v1) && isfinite(e1));
  tol = epsrel * fabs(v1);
  if (!(e1 > tol)) fail_msg("error estimate %g does not exceed the tolerance %g", e1, tol);
  /* ... and it bounds the true error */
  if (!(fabs(v1 - vref) <= e1)) fail_msg("|%.17g - %.17g| > estimate %g", v1, vref, e1);
  assert_true(fabs(v1 - vref) > eref); /* it really is a worse value */
  ekoc_quad_workspace_free(ws);
  ekoc_interp_free(ip);
}

/* ---- a whole operator ------------------------------------------------------------------------ */

typedef struct run {
  ekoc_operator *op;
  double v[2][LEN], e[2][LEN];
  uint8_t flags[2][LEN];
  size_t n_flagged[2], failures;
} run;

static double targets[2] = {10.0, 1e4};

static run *compute_rule(int order, int32_t limit, int backend, int32_t batch_points) {
  ekoc_theory th;
  ekoc_request rq;
  run *r = calloc(1, sizeof *r);
  size_t t;
  int rc;
  assert_non_null(r);
  assert_int_equal(ekoc_grid_lambert(NX, 1e-4, grid), EKOC_OK);
  ekoc_theory_default(&th);
  th.order = order;
  ekoc_request_default(&rq);
  rq.mu2 = targets;
  rq.n_targets = 2;
  rq.xgrid = grid;
  rq.nx = NX;
  rq.degree = 3;
  rq.epsabs = 1e-12;
  rq.epsrel = 1e-7;
  rq.limit = limit;
  rq.backend = backend;
  if (batch_points > 0) rq.batch_points = batch_points;
  rc = ekoc_compute(&th, &rq, NULL, &r->op);
  if (rc != EKOC_OK) fail_msg("compute: %s", ekoc_last_error());
  r->failures = ekoc_operator_failures(r->op);
  for (t = 0; t < 2; ++t) {
    assert_int_equal(ekoc_operator_flavor(r->op, t, r->v[t], r->e[t], LEN), EKOC_OK);
    memset(r->flags[t], 0xA5, LEN);
    assert_int_equal(ekoc_operator_failed_flavor(r->op, t, r->flags[t], LEN, &r->n_flagged[t]), EKOC_OK);
  }
  return r;
}

static run *compute(int order, int32_t limit, int backend) { return compute_rule(order, limit, backend, 0); }

static void run_free(run *r) {
  ekoc_operator_free(r->op);
  free(r);
}

static void test_compute_limit_one(void **state) {
  run *bad = compute(2, 1, EKOC_BACKEND_ADAPTIVE), *good = compute(2, 100, EKOC_BACKEND_ADAPTIVE);
  size_t t, k, differ = 0, flagged_checked = 0;
  (void)state;
  /* the converged run: no failure, no flag */
  assert_int_equal(good->failures, 0);
  for (t = 0; t < 2; ++t) {
    assert_int_equal(good->n_flagged[t], 0);
    for (k = 0; k < LEN; ++k) assert_int_equal(good->flags[t][k], 0);
  }
  /* the forced one: failures counted, flags set on part of the operator only */
  if (bad->failures == 0) fail_msg("limit 1 with epsrel 1e-7 missed no tolerance");
  for (t = 0; t < 2; ++t) {
    size_t count = 0, n_only = 0;
    assert_true(bad->n_flagged[t] > 0);
    assert_true(bad->n_flagged[t] < LEN);
    for (k = 0; k < LEN; ++k) {
      assert_true(bad->flags[t][k] == 0 || bad->flags[t][k] == 1);
      count += bad->flags[t][k];
      if (!bad->flags[t][k]) {
        /* unflagged: only converged integrals behind it, bitwise the converged value */
        if (!(bad->v[t][k] == good->v[t][k]) || !(bad->e[t][k] == good->e[t][k]))
          fail_msg("target %zu entry %zu unflagged but %.17g +- %g vs converged %.17g +- %g", t, k, bad->v[t][k],
                   bad->e[t][k], good->v[t][k], good->e[t][k]);
      } else {
        /* flagged: GSL's estimate of a failed integral behind it, so a non-zero error */
        assert_true(bad->e[t][k] > 0.0);
        differ += bad->v[t][k] != good->v[t][k];
        ++flagged_checked;
      }
    }
    assert_int_equal(count, bad->n_flagged[t]);
    /* the count alone (flags NULL) agrees */
    assert_int_equal(ekoc_operator_failed_flavor(bad->op, t, NULL, 0, &n_only), EKOC_OK);
    assert_int_equal(n_only, count);
  }
  /* the flags are not a blanket: most flagged entries really moved */
  assert_true(flagged_checked > 0);
  assert_true(differ * 2 > flagged_checked);
  run_free(bad);
  run_free(good);
}

/* The batch backend flags what its own estimate |K - G| says missed the
 * tolerance (issue 15, finding 8: batch_points=1 gave entries off by 7.7e5
 * with failures=0). With the default rule on this small grid every entry
 * converges; with one Gauss point per panel (a 3-node Kronrod rule) entries
 * are flagged, and every entry left unflagged is still close to the
 * converged adaptive reference. */
static void test_batch_flags_its_estimate(void **state) {
  run *fine = compute(2, 1, EKOC_BACKEND_BATCH);
  run *coarse = compute_rule(2, 1, EKOC_BACKEND_BATCH, 1);
  run *ref = compute(2, 100, EKOC_BACKEND_ADAPTIVE);
  size_t t, k, off_unflagged = 0, off = 0;
  (void)state;
  assert_int_equal(fine->failures, 0);
  assert_int_equal(fine->n_flagged[0], 0);
  assert_int_equal(fine->n_flagged[1], 0);
  assert_true(ref->failures == 0);
  if (coarse->failures == 0) fail_msg("batch_points=1 flagged nothing");
  for (t = 0; t < 2; ++t) {
    assert_true(coarse->n_flagged[t] > 0);
    for (k = 0; k < LEN; ++k) {
      double d = fabs(coarse->v[t][k] - ref->v[t][k]);
      int is_off = d > 1e-4 * fabs(ref->v[t][k]) + 1e-9;
      off += (size_t)is_off;
      if (is_off && !coarse->flags[t][k]) {
        ++off_unflagged;
        print_message("target %zu entry %zu unflagged: %.10g vs %.10g\n", t, k, coarse->v[t][k], ref->v[t][k]);
      }
    }
  }
  assert_true(off > 0); /* the coarse rule really is wrong somewhere */
  assert_int_equal(off_unflagged, 0);
  run_free(fine);
  run_free(coarse);
  run_free(ref);
}

/* A Mellin cut so close to 1 that the batch engine's nodes leave the
 * anomalous dimensions' domain (|N| <= 1e5) is reported as what it is: the
 * message names request.mellin_cut and its value (issue 33 item 4: it named
 * the crate's entry point, ekore_sums_batch / ekore_gamma_ns_all_batch_n3lo). */
static void test_cut_too_small_named(void **state) {
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = NULL;
  double xg[15], mu2 = 1e4;
  int rc;
  (void)state;
  assert_int_equal(ekoc_grid_lambert(15, 1e-4, xg), EKOC_OK);
  ekoc_theory_default(&th);
  th.order = 3;
  ekoc_request_default(&rq);
  rq.mu2 = &mu2;
  rq.n_targets = 1;
  rq.xgrid = xg;
  rq.nx = 15;
  rq.degree = 4;
  rq.mellin_cut = 1e-7;
  rq.backend = EKOC_BACKEND_BATCH;
  rc = ekoc_compute(&th, &rq, NULL, &op);
  assert_int_equal(rc, EKOC_ERR_INVALID_ARGUMENT);
  assert_null(op);
  if (!strstr(ekoc_last_error(), "request.mellin_cut=1e-07")) fail_msg("message: %s", ekoc_last_error());
  assert_null(strstr(ekoc_last_error(), "ekore_"));
}

/* Bad arguments of ekoc_operator_failed_flavor: status, message, outputs untouched. */
static void test_failed_flavor_bad_args(void **state) {
  run *r = compute(1, 1, EKOC_BACKEND_ADAPTIVE);
  uint8_t *flags = malloc(LEN), *ref = malloc(LEN);
  size_t n = 777;
  (void)state;
  assert_non_null(flags);
  assert_non_null(ref);
  memset(flags, 0xA5, LEN);
  memset(ref, 0xA5, LEN);
  assert_int_equal(ekoc_operator_failed_flavor(NULL, 0, flags, LEN, &n), EKOC_ERR_NULL_POINTER);
  assert_non_null(strstr(ekoc_last_error(), "op is NULL"));
  assert_int_equal(ekoc_operator_failed_flavor(r->op, 0, NULL, LEN, NULL), EKOC_ERR_NULL_POINTER);
  assert_int_equal(ekoc_operator_failed_flavor(r->op, 2, flags, LEN, &n), EKOC_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(ekoc_last_error(), "target 2"));
  assert_int_equal(ekoc_operator_failed_flavor(r->op, SIZE_MAX, flags, LEN, &n), EKOC_ERR_INVALID_ARGUMENT);
  assert_int_equal(ekoc_operator_failed_flavor(r->op, 0, flags, LEN - 1, &n), EKOC_ERR_BUFFER_TOO_SMALL);
  assert_non_null(strstr(ekoc_last_error(), "len=7055"));
  assert_int_equal(ekoc_operator_failed_flavor(r->op, 0, flags, 0, &n), EKOC_ERR_BUFFER_TOO_SMALL);
  assert_int_equal(memcmp(flags, ref, LEN), 0);
  assert_int_equal(n, 777);
  free(flags);
  free(ref);
  run_free(r);
}

/* The count does not depend on the number of workers (a reduction over threads). */
static void test_failures_thread_count(void **state) {
  ekoc_theory th;
  ekoc_request rq;
  size_t counts[3];
  int threads[3] = {1, 2, 3}, i;
  (void)state;
  assert_int_equal(ekoc_grid_lambert(NX, 1e-4, grid), EKOC_OK);
  for (i = 0; i < 3; ++i) {
    ekoc_operator *op = NULL;
    ekoc_theory_default(&th);
    th.order = 1;
    ekoc_request_default(&rq);
    rq.mu2 = targets;
    rq.n_targets = 2;
    rq.xgrid = grid;
    rq.nx = NX;
    rq.degree = 3;
    rq.epsrel = 1e-9;
    rq.limit = 2;
    rq.backend = EKOC_BACKEND_ADAPTIVE; /* its subdivision limit is what fails */
    rq.n_threads = threads[i];
    assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_OK);
    counts[i] = ekoc_operator_failures(op);
    ekoc_operator_free(op);
  }
  assert_true(counts[0] > 0);
  assert_int_equal(counts[1], counts[0]);
  assert_int_equal(counts[2], counts[0]);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_integrate_limit_one),
      cmocka_unit_test(test_compute_limit_one),
      cmocka_unit_test(test_batch_flags_its_estimate),
      cmocka_unit_test(test_failed_flavor_bad_args),
      cmocka_unit_test(test_cut_too_small_named),
      cmocka_unit_test(test_failures_thread_count),
  };
  if (argc > 1) cmocka_set_test_filter(argv[1]);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
