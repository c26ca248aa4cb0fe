/* test_nspace_cache.c: ekoc_nspace_cache, the batch backend's N-space values
 * shared between computations (include/ekoc/operator.h).
 *
 * The reference for every check is the same computation without a cache:
 * a cache must never change a bit of the result. Checked: a series of
 * theories (orders, FFNS/VFNS, scale variation, methods) through one cache,
 * the same theory twice (the second run reads every value from the cache),
 * a different grid or rule through a filled cache (it is emptied and
 * refilled), two threads computing at once with one cache (one of them runs
 * without it), the adaptive backend (ignores it), the byte budget, and bad
 * arguments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ekoc.h"

#include "cache_checks.h"

#define NX 10
#define NB 14

static const double targets[2] = {10.0, 1e4};

typedef struct setup {
  ekoc_theory th;
  ekoc_request rq;
  double grid[NX];
} setup;

static void make_setup(setup *s, int order, int ffns, double xif) {
  ekoc_theory_default(&s->th);
  ekoc_request_default(&s->rq);
  assert_int_equal(ekoc_grid_lambert(NX, 1e-5, s->grid), EKOC_OK);
  s->th.order = order;
  s->th.xif = xif;
  if (ffns) {
    s->th.matching_ratios[0] = 0.0;
    s->th.matching_ratios[1] = s->th.matching_ratios[2] = INFINITY;
  }
  s->rq.sv_mode = xif == 1.0 ? EKOC_SV_NONE : EKOC_SV_EXPONENTIATED;
  s->rq.mu2 = targets;
  s->rq.n_targets = 2;
  s->rq.xgrid = s->grid;
  s->rq.nx = NX;
  s->rq.degree = 3;
  s->rq.ev_op_iterations = 4;
  s->rq.backend = EKOC_BACKEND_BATCH;
  s->rq.batch_points = 20;
  s->rq.n_threads = 2;
}

/* The computation with `cache` gives the bits of the one without. */
static void check_same_with_cache(setup *s, ekoc_nspace_cache *cache) { cache_check_same(&s->th, &s->rq, cache); }

static void test_series_of_theories(void **state) {
  ekoc_nspace_cache *cache = NULL;
  setup s;
  size_t bytes_after_first;
  (void)state;
  assert_int_equal(ekoc_nspace_cache_new(0, &cache), EKOC_OK);
  assert_int_equal(ekoc_nspace_cache_bytes(cache), 0);
  make_setup(&s, 3, 0, 1.0); /* NNLO VFNS */
  check_same_with_cache(&s, cache);
  bytes_after_first = ekoc_nspace_cache_bytes(cache);
  assert_true(bytes_after_first > 0);
  check_same_with_cache(&s, cache); /* every value from the cache now */
  assert_int_equal(ekoc_nspace_cache_bytes(cache), bytes_after_first);
  make_setup(&s, 3, 1, 1.0); /* NNLO FFNS: towers of nf = 4 reused */
  check_same_with_cache(&s, cache);
  make_setup(&s, 2, 0, 1.41421356237); /* NLO, scale variation: new towers */
  check_same_with_cache(&s, cache);
  assert_true(ekoc_nspace_cache_bytes(cache) > bytes_after_first);
  make_setup(&s, 3, 0, 1.0);
  s.rq.method = EKOC_METHOD_TRUNCATED;
  check_same_with_cache(&s, cache);
  ekoc_nspace_cache_free(cache);
}

/* Rows whose path is moved off a pole of the truncated solutions
 * (quad/path_radius.h; at nf = 4 the crossings of x = 2.67e-6, 3.69e-4,
 * 0.1167 and 0.643 lie next to one) are cached on their
 * own radius: methods that move them differently, or not at all, take turns
 * on one cache and each gets the bits of a run without any (one FFNS
 * segment: no cache of its own either). */
static void test_moved_rows(void **state) {
  static const double grid[NX] = {2.67e-6, 1e-4, 3.69e-4, 0.01, 0.1167, 0.2, 0.5, 0.643, 0.8, 1.0};
  static const int methods[] = {EKOC_METHOD_TRUNCATED, EKOC_METHOD_ITERATE_EXACT, EKOC_METHOD_PERTURBATIVE_EXACT,
                                EKOC_METHOD_TRUNCATED};
  ekoc_nspace_cache *cache = NULL;
  setup s;
  size_t i;
  (void)state;
  assert_int_equal(ekoc_nspace_cache_new(0, &cache), EKOC_OK);
  for (i = 0; i < sizeof methods / sizeof methods[0]; ++i) {
    make_setup(&s, 3, 1, 1.0);
    memcpy(s.grid, grid, sizeof grid);
    s.rq.n_targets = 1;
    s.rq.method = methods[i];
    check_same_with_cache(&s, cache);
    check_same_with_cache(&s, cache); /* from the cache now */
  }
  ekoc_nspace_cache_free(cache);
}

/* After a computation with another key, cache holds what a fresh cache
 * would (it was emptied first; the refined panels it keeps depend on the
 * grid and the rule). */
static void check_refilled_as_fresh(setup *s, ekoc_nspace_cache *cache) {
  ekoc_nspace_cache *fresh = NULL;
  check_same_with_cache(s, cache);
  assert_int_equal(ekoc_nspace_cache_new(0, &fresh), EKOC_OK);
  check_same_with_cache(s, fresh);
  assert_int_equal(ekoc_nspace_cache_bytes(cache), ekoc_nspace_cache_bytes(fresh));
  ekoc_nspace_cache_free(fresh);
}

static void test_other_grid_or_rule_empties(void **state) {
  ekoc_nspace_cache *cache = NULL;
  setup s;
  size_t full;
  (void)state;
  assert_int_equal(ekoc_nspace_cache_new(0, &cache), EKOC_OK);
  make_setup(&s, 3, 0, 1.0);
  check_same_with_cache(&s, cache);
  full = ekoc_nspace_cache_bytes(cache);
  assert_true(full > 0);
  assert_int_equal(ekoc_grid_lambert(NX, 1e-4, s.grid), EKOC_OK); /* same nx, other points */
  check_refilled_as_fresh(&s, cache);
  s.rq.batch_points = 16; /* another rule */
  check_refilled_as_fresh(&s, cache);
  s.rq.degree = 2; /* another basis */
  check_same_with_cache(&s, cache);
  ekoc_nspace_cache_free(cache);
}

static void test_budget(void **state) {
  ekoc_nspace_cache *cache = NULL;
  setup s;
  (void)state;
  /* 4 KiB: nothing fits, the computation runs without (and still agrees) */
  assert_int_equal(ekoc_nspace_cache_new(4096, &cache), EKOC_OK);
  make_setup(&s, 3, 0, 1.0);
  check_same_with_cache(&s, cache);
  assert_true(ekoc_nspace_cache_bytes(cache) <= 4096);
  ekoc_nspace_cache_free(cache);
  /* room for the towers but not the basis transforms (2 x 16 x 10^2 x 41 bytes) */
  assert_int_equal(ekoc_nspace_cache_new(60000, &cache), EKOC_OK);
  check_same_with_cache(&s, cache);
  assert_true(ekoc_nspace_cache_bytes(cache) > 0 && ekoc_nspace_cache_bytes(cache) <= 60000);
  ekoc_nspace_cache_free(cache);
}

static void test_adaptive_ignores(void **state) {
  ekoc_nspace_cache *cache = NULL;
  setup s;
  (void)state;
  assert_int_equal(ekoc_nspace_cache_new(0, &cache), EKOC_OK);
  make_setup(&s, 1, 0, 1.0);
  s.rq.backend = EKOC_BACKEND_ADAPTIVE;
  check_same_with_cache(&s, cache);
  assert_int_equal(ekoc_nspace_cache_bytes(cache), 0);
  ekoc_nspace_cache_free(cache);
}

/* ---- two computations at once on one cache ---------------------------------------- */

static void test_concurrent(void **state) {
  ekoc_nspace_cache *cache = NULL;
  setup s[2];
  int i, round;
  (void)state;
  assert_int_equal(ekoc_nspace_cache_new(0, &cache), EKOC_OK);
  for (round = 0; round < 3; ++round) {
    const ekoc_theory *th[2];
    const ekoc_request *rq[2];
    for (i = 0; i < 2; ++i) {
      make_setup(&s[i], 3 - i, i, 1.0);
      th[i] = &s[i].th;
      rq[i] = &s[i].rq;
    }
    cache_check_concurrent(th, rq, cache);
  }
  assert_true(ekoc_nspace_cache_bytes(cache) > 0);
  ekoc_nspace_cache_free(cache);
}

static void test_bad_arguments(void **state) {
  (void)state;
  assert_int_equal(ekoc_nspace_cache_new(0, NULL), EKOC_ERR_NULL_POINTER);
  assert_non_null(strstr(ekoc_last_error(), "out"));
  ekoc_nspace_cache_free(NULL);
  assert_int_equal(ekoc_nspace_cache_bytes(NULL), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_series_of_theories),
      cmocka_unit_test(test_moved_rows), cmocka_unit_test(test_other_grid_or_rule_empties),
      cmocka_unit_test(test_budget),             cmocka_unit_test(test_adaptive_ignores),
      cmocka_unit_test(test_concurrent),         cmocka_unit_test(test_bad_arguments),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
