/* test_reliability.c: issue 15, the C side of its findings in src/evol.
 *  - size (finding 6): ekoc_compute estimates the bytes it will hold before
 *    any work and refuses a request above request.memory_budget (or 3/4 of
 *    physical memory) with EKOC_ERR_NO_MEMORY naming both in MB; the
 *    estimate bounds what a computation really holds; callers built before
 *    the memory_budget field (struct_size = its offset) still compute;
 *  - duplicate targets (finding 6): equal (mu^2, nf), eko's default nf
 *    resolved, are computed once and every index reads the same operator,
 *    with the bits of a single-target request; 100 000 copies are one;
 *  - apply (finding 8): a result that overflows is EKOC_ERR_NUMERICAL naming
 *    the output flavour and x index, with pdf_out untouched;
 *  - threads (finding 3): n_threads above max(64, 8 x cores) is refused
 *    naming the field, the value and the cap; the probe's stack-size reading
 *    follows libgomp's. Thread creation under an address-space limit is in
 *    test_thread_limit.c (it needs a process without an OpenMP pool).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ekoc.h"
#include "evol/blockop.h"
#include "evol/estimate.h"
#include "evol/operator_internal.h"
#include "evol/threads.h"
#include "test_util.h"

#define NX 6
#define LEN ((size_t)196 * NX * NX)

static double grid[NX];

/* NNLO VFNS from mu_0^2 = 2 (nf0 = 4) on a 6-point grid, batch backend. */
static void setup(ekoc_theory *th, ekoc_request *rq, const double *mu2, const int32_t *nf, size_t n) {
  assert_int_equal(ekoc_grid_lambert(NX, 1e-4, grid), EKOC_OK);
  ekoc_theory_default(th);
  ekoc_request_default(rq);
  rq->mu2 = mu2;
  rq->nf = nf;
  rq->n_targets = n;
  rq->xgrid = grid;
  rq->nx = NX;
  rq->degree = 3;
  rq->backend = EKOC_BACKEND_BATCH;
  rq->batch_points = 8;
  rq->n_threads = 2;
}

static int contains(const char *haystack, const char *needle) { return strstr(haystack, needle) != NULL; }

/* ---- size estimate -------------------------------------------------------------- */

/* The estimated block pattern bounds what compose.c builds, target by target
 * (nf 3..6 from nf0 = 4, up and down), and ekoc_request_estimate_bytes bounds
 * the operators' storage. */
static void test_estimate_bounds_the_operators(void **state) {
  static const double mu2[4] = {1.5, 10.0, 100.0, 1e5};
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = NULL;
  size_t bytes = 0, held = 0, t;
  (void)state;
  setup(&th, &rq, mu2, NULL, 4);
  assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_OK);
  for (t = 0; t < 4; ++t) {
    double m;
    int32_t nf;
    int most, want;
    const ekoc_blockop *e = ekoc_operator_values_of(op, t);
    assert_int_equal(ekoc_operator_target(op, t, &m, &nf), EKOC_OK);
    assert_int_equal(nf, (int32_t)(3 + t)); /* 1.5 < m_c^2 = 2 < 10 < m_b^2 < 100 < m_t^2 < 1e5 */
    want = ekoc_estimate_target_blocks(4, nf, &most);
    assert_true(ekoc_blockop_count(e) <= want);
    assert_true(want <= most);
    /* the bound is the pattern itself here: nothing cancels on this path */
    assert_int_equal(ekoc_blockop_count(e), want);
    held += (size_t)ekoc_blockop_count(e) * 2 * NX * NX * sizeof(double);
  }
  assert_int_equal(ekoc_estimate_target_blocks(4, 4, NULL), 15);
  assert_int_equal(ekoc_request_estimate_bytes(&th, &rq, &bytes), EKOC_OK);
  assert_true(bytes >= held);
  ekoc_operator_free(op);
}

/* Every path, nf0 and nf in 3..6 (explicit nf at one scale): the pattern is
 * exact, 15, 21, 29 and 39 blocks across 0, 1, 2 and 3 thresholds. */
static void test_estimate_every_path(void **state) {
  static const double mu2[4] = {10.0, 10.0, 10.0, 10.0};
  static const int32_t nf[4] = {3, 4, 5, 6};
  static const int by_thresholds[4] = {15, 21, 29, 39};
  int nf0;
  (void)state;
  for (nf0 = 3; nf0 <= 6; ++nf0) {
    ekoc_theory th;
    ekoc_request rq;
    ekoc_operator *op = NULL;
    size_t t;
    setup(&th, &rq, mu2, nf, 4);
    rq.nf0 = nf0;
    assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_OK);
    for (t = 0; t < 4; ++t) {
      int want = ekoc_estimate_target_blocks(nf0, nf[t], NULL);
      assert_int_equal(want, by_thresholds[abs(nf[t] - nf0)]);
      assert_int_equal(ekoc_blockop_count(ekoc_operator_values_of(op, t)), want);
    }
    ekoc_operator_free(op);
  }
}

/* An explicit budget below the estimate: refused at once, naming the
 * estimate and the budget in MB; the same request with room computes. */
static void test_budget_refuses_before_work(void **state) {
  static const double mu2[50] = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170,
                                 180, 190, 200, 210, 220, 230, 240, 250, 260, 270, 280, 290, 300, 310, 320, 330,
                                 340, 350, 360, 370, 380, 390, 400, 410, 420, 430, 440, 450, 460, 470, 480, 490, 500};
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = (ekoc_operator *)(uintptr_t)0x5a5a;
  double *big = malloc(2000 * sizeof *big);
  size_t bytes = 0;
  const char *msg;
  (void)state;
  assert_non_null(big);
  setup(&th, &rq, mu2, NULL, 50);
  assert_int_equal(ekoc_grid_lambert(2000, 1e-7, big), EKOC_OK);
  rq.xgrid = big;
  rq.nx = 2000; /* nx = 2000 with 50 targets: hours of work, hundreds of GB */
  assert_int_equal(ekoc_request_estimate_bytes(&th, &rq, &bytes), EKOC_OK);
  assert_true(bytes > (size_t)50 * 15 * 2 * 2000 * 2000 * sizeof(double));
  rq.memory_budget = (size_t)1 << 30;
  assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_ERR_NO_MEMORY);
  assert_ptr_equal(op, (ekoc_operator *)(uintptr_t)0x5a5a);
  msg = ekoc_last_error();
  assert_true(contains(msg, "GB"));
  assert_true(contains(msg, "memory budget of 1.07 GB"));
  assert_true(contains(msg, "request.memory_budget=1073741824;"));
  assert_true(contains(msg, "50 distinct targets: operators"));
  assert_true(strncmp(msg, "ekoc_compute: about ", 20) == 0);
  free(big);
  /* a budget just at the estimate of a small request lets it through */
  setup(&th, &rq, mu2, NULL, 3);
  assert_int_equal(ekoc_request_estimate_bytes(&th, &rq, &bytes), EKOC_OK);
  rq.memory_budget = bytes;
  assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_OK);
  ekoc_operator_free(op);
  rq.memory_budget = bytes - 1;
  assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_ERR_NO_MEMORY);
}

static int no_target(void *data, size_t index, const ekoc_operator *target) {
  (void)data, (void)index, (void)target;
  return 1;
}

/* A budget of one byte reads "1 B", not "0.0 MB" (issue 33 item 4); the
 * streamed entry names itself. */
static void test_budget_printed_with_its_unit(void **state) {
  static const double mu2[1] = {10.0};
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = NULL;
  const char *msg;
  (void)state;
  setup(&th, &rq, mu2, NULL, 1);
  rq.memory_budget = 1;
  assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_ERR_NO_MEMORY);
  msg = ekoc_last_error();
  if (!contains(msg, "above the memory budget of 1 B (request.memory_budget=1;") || contains(msg, "0.0 MB") ||
      strncmp(msg, "ekoc_compute: about ", 20) != 0)
    fail_msg("message: %s", msg);
  assert_int_equal(ekoc_compute_stream(&th, &rq, NULL, no_target, NULL), EKOC_ERR_NO_MEMORY);
  msg = ekoc_last_error();
  if (strncmp(msg, "ekoc_compute_stream: about ", 27) != 0 || !contains(msg, "memory budget of 1 B"))
    fail_msg("message: %s", msg);
}

/* The default budget (3/4 of physical memory) refuses a request no machine
 * holds: 100 000 grid points, 100 targets (8e10 bytes per block). */
static void test_default_budget_refuses_absurd_request(void **state) {
  double mu2[100], *big = malloc(100000 * sizeof *big);
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = NULL;
  size_t i, bytes = 0;
  (void)state;
  assert_non_null(big);
  for (i = 0; i < 100; ++i) mu2[i] = 10.0 + (double)i;
  for (i = 0; i < 100000; ++i) big[i] = (double)(i + 1) / 100000.0;
  setup(&th, &rq, mu2, NULL, 100);
  rq.xgrid = big;
  rq.nx = 100000;
  assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_ERR_NO_MEMORY);
  assert_null(op);
  assert_true(contains(ekoc_last_error(), "=0: 3/4 of physical memory"));
  assert_int_equal(ekoc_request_estimate_bytes(&th, &rq, &bytes), EKOC_OK);
  assert_true(bytes > (size_t)1e15);
  free(big);
}

/* The accessor validates like ekoc_compute and names its arguments. */
static void test_estimate_accessor_errors(void **state) {
  static const double mu2[1] = {10.0};
  ekoc_theory th;
  ekoc_request rq;
  size_t bytes = 7;
  (void)state;
  setup(&th, &rq, mu2, NULL, 1);
  assert_int_equal(ekoc_request_estimate_bytes(NULL, &rq, &bytes), EKOC_ERR_NULL_POINTER);
  assert_int_equal(ekoc_request_estimate_bytes(&th, NULL, &bytes), EKOC_ERR_NULL_POINTER);
  assert_int_equal(ekoc_request_estimate_bytes(&th, &rq, NULL), EKOC_ERR_NULL_POINTER);
  assert_true(contains(ekoc_last_error(), "ekoc_request_estimate_bytes"));
  rq.nx = 1;
  assert_int_equal(ekoc_request_estimate_bytes(&th, &rq, &bytes), EKOC_ERR_INVALID_GRID);
  assert_true(contains(ekoc_last_error(), "request.nx=1"));
  assert_int_equal(bytes, 7);
}

/* A caller built before memory_budget existed (struct_size its offset, the
 * first versioned layout) still computes, with the default budget: whatever
 * lies after its struct is not read. */
static void test_request_without_budget_field(void **state) {
  static const double mu2[1] = {10.0};
  ekoc_theory th;
  ekoc_request rq, full;
  ekoc_operator *op = NULL, *ref = NULL;
  size_t old = offsetof(ekoc_request, memory_budget);
  double *a = malloc(2 * LEN * sizeof *a), *b = malloc(2 * LEN * sizeof *b);
  (void)state;
  assert_non_null(a);
  assert_non_null(b);
  setup(&th, &full, mu2, NULL, 1);
  assert_int_equal(ekoc_compute(&th, &full, NULL, &ref), EKOC_OK);
  memset(&rq, 0, sizeof rq);
  assert_int_equal(ekoc_request_init(&rq, old), EKOC_OK);
  assert_int_equal(rq.struct_size, old);
  memcpy((char *)&rq + sizeof(size_t), (const char *)&full + sizeof(size_t), old - sizeof(size_t));
  rq.memory_budget = 1; /* beyond the caller's layout: must be ignored */
  assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_OK);
  assert_int_equal(ekoc_operator_flavor(op, 0, a, a + LEN, LEN), EKOC_OK);
  assert_int_equal(ekoc_operator_flavor(ref, 0, b, b + LEN, LEN), EKOC_OK);
  assert_memory_equal(a, b, 2 * LEN * sizeof *a);
  ekoc_operator_free(op);
  ekoc_operator_free(ref);
  free(a);
  free(b);
}

/* ---- duplicate targets ------------------------------------------------------------ */

/* Target i of op against a single-target request for (mu2, nf): values,
 * errors, target bookkeeping and failure flags, bit for bit. */
static void compare_with_single(const ekoc_theory *th, const ekoc_request *base, const ekoc_operator *op, size_t i,
                                double mu2, int32_t nf) {
  ekoc_request rq = *base;
  ekoc_operator *one = NULL;
  double *a = malloc(2 * LEN * sizeof *a), *b = malloc(2 * LEN * sizeof *b), m;
  uint8_t *fa = malloc(LEN), *fb = malloc(LEN);
  size_t na = 0, nb = 0;
  int32_t n;
  assert_true(a && b && fa && fb);
  rq.mu2 = &mu2;
  rq.nf = &nf;
  rq.n_targets = 1;
  assert_int_equal(ekoc_compute(th, &rq, NULL, &one), EKOC_OK);
  assert_int_equal(ekoc_operator_flavor(op, i, a, a + LEN, LEN), EKOC_OK);
  assert_int_equal(ekoc_operator_flavor(one, 0, b, b + LEN, LEN), EKOC_OK);
  assert_memory_equal(a, b, 2 * LEN * sizeof *a);
  assert_int_equal(ekoc_operator_evolution(op, i, a, a + LEN, LEN), EKOC_OK);
  assert_int_equal(ekoc_operator_evolution(one, 0, b, b + LEN, LEN), EKOC_OK);
  assert_memory_equal(a, b, 2 * LEN * sizeof *a);
  assert_int_equal(ekoc_operator_target(op, i, &m, &n), EKOC_OK);
  assert_true(m == mu2);
  if (nf >= 0) assert_int_equal(n, nf);
  assert_int_equal(ekoc_operator_failed_flavor(op, i, fa, LEN, &na), EKOC_OK);
  assert_int_equal(ekoc_operator_failed_flavor(one, 0, fb, LEN, &nb), EKOC_OK);
  assert_int_equal(na, nb);
  assert_memory_equal(fa, fb, LEN);
  ekoc_operator_free(one);
  free(a);
  free(b);
  free(fa);
  free(fb);
}

/* (100, default) = (100, 5) and (10, 4) = (10, default): three distinct
 * operators for six targets, each with the bits of its own request; in
 * both CPU backends, the adaptive one with failed integrals (limit 1) so
 * that the failure masks are shared too. */
static void test_duplicates_computed_once(void **state) {
  static const double mu2[6] = {100.0, 10.0, 100.0, 1e4, 10.0, 100.0};
  static const int32_t nf[6] = {-1, 4, 5, -1, -1, 5};
  int backend;
  (void)state;
  for (backend = 0; backend < 2; ++backend) {
    ekoc_theory th;
    ekoc_request rq;
    ekoc_operator *op = NULL;
    size_t i;
    setup(&th, &rq, mu2, nf, 6);
    if (backend == 1) {
      rq.backend = EKOC_BACKEND_ADAPTIVE;
      rq.limit = 1;
      th.order = 2;
    }
    assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_OK);
    if (backend == 1) assert_true(ekoc_operator_failures(op) > 0);
    assert_int_equal(ekoc_operator_n_targets(op), 6);
    assert_int_equal(op->n_distinct, 3);
    assert_ptr_equal(ekoc_operator_values_of(op, 0), ekoc_operator_values_of(op, 2));
    assert_ptr_equal(ekoc_operator_values_of(op, 0), ekoc_operator_values_of(op, 5));
    assert_ptr_equal(ekoc_operator_values_of(op, 1), ekoc_operator_values_of(op, 4));
    assert_true(ekoc_operator_values_of(op, 0) != ekoc_operator_values_of(op, 3));
    for (i = 0; i < 6; ++i) compare_with_single(&th, &rq, op, i, mu2[i], nf[i]);
    ekoc_operator_free(op);
  }
}

/* mugrid = [(10, 5)] * 100000: one operator (the copy of eko's report took
 * 26 s and 3.4 GB before a MemoryError), every index reads it; the estimate
 * counts it once. */
static void test_hundred_thousand_copies(void **state) {
  enum { N = 100000 };
  double *mu2 = malloc(N * sizeof *mu2);
  int32_t *nf = malloc(N * sizeof *nf);
  double *a = malloc(2 * LEN * sizeof *a), *b = malloc(2 * LEN * sizeof *b), m;
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = NULL;
  size_t i, bytes_many = 0, bytes_one = 0;
  int32_t n;
  (void)state;
  assert_true(mu2 && nf && a && b);
  for (i = 0; i < N; ++i) {
    mu2[i] = 100.0;
    nf[i] = 5;
  }
  setup(&th, &rq, mu2, nf, N);
  assert_int_equal(ekoc_request_estimate_bytes(&th, &rq, &bytes_many), EKOC_OK);
  rq.n_targets = 1;
  assert_int_equal(ekoc_request_estimate_bytes(&th, &rq, &bytes_one), EKOC_OK);
  assert_true(bytes_many - bytes_one < (size_t)N * 64); /* only the per-index bookkeeping */
  rq.n_targets = N;
  assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_OK);
  assert_int_equal(ekoc_operator_n_targets(op), N);
  assert_int_equal(op->n_distinct, 1);
  assert_int_equal(ekoc_operator_target(op, N - 1, &m, &n), EKOC_OK);
  assert_true(m == 100.0 && n == 5);
  assert_int_equal(ekoc_operator_flavor(op, 0, a, a + LEN, LEN), EKOC_OK);
  assert_int_equal(ekoc_operator_flavor(op, N - 1, b, b + LEN, LEN), EKOC_OK);
  assert_memory_equal(a, b, 2 * LEN * sizeof *a);
  ekoc_operator_free(op);
  free(mu2);
  free(nf);
  free(a);
  free(b);
}

/* ---- apply ------------------------------------------------------------------------- */

static void test_apply_reports_overflow(void **state) {
  static const double mu2[2] = {1e4, 10.0};
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = NULL;
  double in[14 * NX], out[14 * NX], same[14 * NX];
  size_t k;
  const char *msg;
  (void)state;
  setup(&th, &rq, mu2, NULL, 2);
  assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_OK);
  /* finite but huge: the products overflow */
  for (k = 0; k < 14 * NX; ++k) {
    in[k] = 1e308;
    out[k] = -7.0;
  }
  assert_int_equal(ekoc_operator_apply(op, 0, in, out, 14 * NX, NULL), EKOC_ERR_NUMERICAL);
  msg = ekoc_last_error();
  assert_true(contains(msg, "ekoc_operator_apply: pdf_out["));
  assert_true(contains(msg, "PDG id"));
  assert_true(contains(msg, "x index"));
  for (k = 0; k < 14 * NX; ++k) assert_true(out[k] == -7.0); /* untouched */
  /* a non-finite input is refused naming its index */
  in[17] = INFINITY;
  assert_int_equal(ekoc_operator_apply(op, 0, in, out, 14 * NX, NULL), EKOC_ERR_INVALID_ARGUMENT);
  assert_true(contains(ekoc_last_error(), "pdf_in[17]=inf is not finite"));
  /* ordinary values still work, also in place */
  for (k = 0; k < 14 * NX; ++k) in[k] = 1.0 + 0.01 * (double)k;
  assert_int_equal(ekoc_operator_apply(op, 1, in, out, 14 * NX, NULL), EKOC_OK);
  memcpy(same, in, sizeof in);
  assert_int_equal(ekoc_operator_apply(op, 1, same, same, 14 * NX, NULL), EKOC_OK);
  assert_memory_equal(same, out, sizeof out);
  for (k = 0; k < 14 * NX; ++k) assert_true(isfinite(out[k]));
  ekoc_operator_free(op);
}

/* ---- threads ------------------------------------------------------------------------ */

static void test_thread_cap(void **state) {
  static const double mu2[1] = {10.0};
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = NULL;
  int cap = ekoc_threads_cap();
  char want[96];
  (void)state;
  assert_true(cap >= 64);
  assert_true(cap >= 8 * omp_get_num_procs());
  setup(&th, &rq, mu2, NULL, 1);
  rq.n_threads = cap + 1;
  assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_ERR_INVALID_ARGUMENT);
  snprintf(want, sizeof want, "request.n_threads=%d exceeds the cap of %d threads", cap + 1, cap);
  assert_true(contains(ekoc_last_error(), want));
  rq.n_threads = 4096; /* the value of the report (intermittent SIGSEGV at exit) */
  if (cap < 4096) {
    assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_ERR_INVALID_ARGUMENT);
    assert_true(contains(ekoc_last_error(), "request.n_threads=4096 exceeds the cap"));
  }
  assert_null(op);
  rq.n_threads = 64; /* within every cap */
  assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_OK);
  ekoc_operator_free(op);
}

/* OMP_STACKSIZE as libgomp reads it: kilobytes by default, B/K/M/G suffixes,
 * blanks around; malformed values fall back to GOMP_STACKSIZE, then to the
 * pthread default (0). */
static void test_stack_size_reading(void **state) {
  (void)state;
  assert_int_equal(ekoc_threads_stack_size(NULL, NULL), 0);
  assert_int_equal(ekoc_threads_stack_size("100", NULL), 100 << 10);
  assert_int_equal(ekoc_threads_stack_size(" 512k ", NULL), 512 << 10);
  assert_int_equal(ekoc_threads_stack_size("4M", NULL), 4 << 20);
  assert_int_equal(ekoc_threads_stack_size("1 g", NULL), (size_t)1 << 30);
  assert_int_equal(ekoc_threads_stack_size("65536B", NULL), 65536);
  assert_int_equal(ekoc_threads_stack_size("12X", "2M"), 2 << 20);
  assert_int_equal(ekoc_threads_stack_size("", "8"), 8 << 10);
  assert_int_equal(ekoc_threads_stack_size("-3", NULL), 0);
  assert_int_equal(ekoc_threads_stack_size("0", NULL), 0);
  assert_int_equal(ekoc_threads_stack_size("99999999999999999999999", NULL), 0);
  assert_int_equal(ekoc_threads_probe(1), EKOC_OK);
  assert_int_equal(ekoc_threads_probe(8), EKOC_OK);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_estimate_bounds_the_operators),
      cmocka_unit_test(test_estimate_every_path),
      cmocka_unit_test(test_budget_refuses_before_work),
      cmocka_unit_test(test_budget_printed_with_its_unit),
      cmocka_unit_test(test_default_budget_refuses_absurd_request),
      cmocka_unit_test(test_estimate_accessor_errors),
      cmocka_unit_test(test_request_without_budget_field),
      cmocka_unit_test(test_duplicates_computed_once),
      cmocka_unit_test(test_hundred_thousand_copies),
      cmocka_unit_test(test_apply_reports_overflow),
      cmocka_unit_test(test_thread_cap),
      cmocka_unit_test(test_stack_size_reading),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
