/* test_nspace_warm.c: the N-space backend with an ekoc_nspace_cache (a warm
 * engine, quad/path_cache.h): towers, basis transforms and node factors
 * kept between computations on one grid.
 *
 * The reference for every check is the same computation without a cache:
 * a cache must never change a bit of the values, errors or flags. Checked:
 * a scan of alpha_s and the scales through one cache (the second run of a
 * theory adds nothing: every value comes from the cache); methods whose
 * poles move the band paths (ordered-truncated, truncated), other orders,
 * FFNS, scale variation, exact physics, polarized, time-like, aN3LO and a
 * variation, MSbar masses, QED at two alpha_em; the batch and N-space
 * backends taking turns on one cache; another grid or degree; byte budgets
 * from nothing to one theory's worth (entries of earlier theories dropped to
 * make room); two threads at once on one cache.
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

#define NX 16
#define NB 14
#define NT 3

static const double targets[NT] = {10.0, 100.0, 1e4};

typedef struct setup {
  ekoc_theory th;
  ekoc_request rq;
  double grid[NX];
} setup;

static void make_setup(setup *s, int order, int ffns, double xif) {
  ekoc_theory_default(&s->th);
  ekoc_request_default(&s->rq);
  assert_int_equal(ekoc_grid_lambert(NX, 1e-6, s->grid), EKOC_OK);
  s->th.order = order;
  s->th.xif = xif;
  if (ffns) {
    s->th.matching_ratios[0] = 0.0;
    s->th.matching_ratios[1] = s->th.matching_ratios[2] = INFINITY;
  }
  s->rq.sv_mode = xif == 1.0 ? EKOC_SV_NONE : EKOC_SV_EXPONENTIATED;
  s->rq.mu2 = targets;
  s->rq.n_targets = NT;
  s->rq.xgrid = s->grid;
  s->rq.nx = NX;
  s->rq.degree = 4;
  s->rq.ev_op_iterations = 4;
  s->rq.backend = EKOC_BACKEND_NSPACE;
  s->rq.n_threads = 2;
}

/* The computation with `cache` gives the bits of the one without. */
static void check_same_with_cache(setup *s, ekoc_nspace_cache *cache) { cache_check_same(&s->th, &s->rq, cache); }

/* Once, then again from the cache: the second run adds no bytes. */
static void check_twice(setup *s, ekoc_nspace_cache *cache) {
  size_t bytes;
  check_same_with_cache(s, cache);
  bytes = ekoc_nspace_cache_bytes(cache);
  assert_true(bytes > 0);
  check_same_with_cache(s, cache);
  assert_int_equal(ekoc_nspace_cache_bytes(cache), bytes);
}

/* an alpha_s scan of the truncated solution: its U_k poles do not move with
 * a_s, so the rows' Taylor coefficients at them come from the cache too */
static void test_alpha_s_scan_truncated(void **state) {
  static const double alphas[] = {0.118, 0.114, 0.118};
  ekoc_nspace_cache *cache = NULL;
  setup s;
  size_t i;
  (void)state;
  assert_int_equal(ekoc_nspace_cache_new(0, &cache), EKOC_OK);
  for (i = 0; i < sizeof alphas / sizeof alphas[0]; ++i) {
    make_setup(&s, 3, 0, 1.0);
    s.rq.method = EKOC_METHOD_TRUNCATED;
    s.th.alphas = alphas[i];
    s.th.mu2_ref = 91.1876 * 91.1876;
    s.th.nf_ref = 5;
    check_same_with_cache(&s, cache);
  }
  ekoc_nspace_cache_free(cache);
}

static void test_alpha_s_scan(void **state) {
  static const double alphas[] = {0.118, 0.114, 0.122, 0.118};
  ekoc_nspace_cache *cache = NULL;
  setup s;
  size_t i, bytes = 0;
  (void)state;
  assert_int_equal(ekoc_nspace_cache_new(0, &cache), EKOC_OK);
  for (i = 0; i < sizeof alphas / sizeof alphas[0]; ++i) {
    make_setup(&s, 3, 0, 1.0);
    s.th.alphas = alphas[i];
    s.th.mu2_ref = 91.1876 * 91.1876;
    s.th.nf_ref = 5;
    check_same_with_cache(&s, cache);
    if (i == 0) bytes = ekoc_nspace_cache_bytes(cache);
  }
  /* the same theory again: every value from the cache, nothing added */
  assert_true(bytes > 0);
  make_setup(&s, 3, 0, 1.0);
  s.th.alphas = 0.118;
  s.th.mu2_ref = 91.1876 * 91.1876;
  s.th.nf_ref = 5;
  {
    size_t before = ekoc_nspace_cache_bytes(cache);
    check_same_with_cache(&s, cache);
    assert_int_equal(ekoc_nspace_cache_bytes(cache), before);
  }
  ekoc_nspace_cache_free(cache);
}

static void test_series_of_theories(void **state) {
  static const int methods[] = {EKOC_METHOD_ORDERED_TRUNCATED, EKOC_METHOD_TRUNCATED, EKOC_METHOD_ORDERED_EXACT,
                                EKOC_METHOD_PERTURBATIVE_EXACT, EKOC_METHOD_ITERATE_EXPANDED};
  ekoc_nspace_cache *cache = NULL;
  setup s;
  size_t i;
  (void)state;
  assert_int_equal(ekoc_nspace_cache_new(0, &cache), EKOC_OK);
  for (i = 0; i < sizeof methods / sizeof methods[0]; ++i) { /* poles move some bands' paths */
    make_setup(&s, 3, 0, 1.0);
    s.rq.method = methods[i];
    check_twice(&s, cache);
  }
  make_setup(&s, 2, 1, 1.0); /* NLO FFNS */
  check_twice(&s, cache);
  make_setup(&s, 3, 0, 1.41421356237); /* scale variation */
  check_twice(&s, cache);
  make_setup(&s, 3, 0, 1.0);
  s.th.physics = EKOC_PHYSICS_EXACT; /* other towers at the same nodes */
  check_twice(&s, cache);
  make_setup(&s, 2, 1, 1.0);
  s.th.polarized = 1;
  check_twice(&s, cache);
  make_setup(&s, 2, 1, 1.0);
  s.th.time_like = 1;
  check_twice(&s, cache);
  make_setup(&s, 4, 0, 1.0); /* aN3LO: a variation is another tower */
  check_twice(&s, cache);
  s.th.n3lo_ad_variation[0] = 1;
  check_twice(&s, cache);
  make_setup(&s, 3, 0, 1.0); /* MSbar masses: other OME terms at the same nodes */
  s.th.masses_scheme = EKOC_MASSES_MSBAR;
  s.th.masses[0] = 1.27, s.th.masses[1] = 4.18, s.th.masses[2] = 162.5;
  s.th.mass_scales[0] = 1.27, s.th.mass_scales[1] = 4.18, s.th.mass_scales[2] = 162.5;
  check_twice(&s, cache);
  {
    static const double alphaem[] = {0.0078, 0.0075};
    size_t q;
    for (q = 0; q < 2; ++q) { /* QED: the couplings differ, the towers are the same */
      make_setup(&s, 2, 0, 1.0);
      s.th.qed_order = 1;
      s.th.alphaem = alphaem[q];
      s.th.em_running = 1;
      s.rq.n_targets = 1;
      check_same_with_cache(&s, cache);
    }
  }
  ekoc_nspace_cache_free(cache);
}

/* The batch backend's values and the N-space engine's share a cache and its
 * budget, each with its own key. */
static void test_backends_take_turns(void **state) {
  ekoc_nspace_cache *cache = NULL;
  setup s;
  int round;
  (void)state;
  assert_int_equal(ekoc_nspace_cache_new(0, &cache), EKOC_OK);
  for (round = 0; round < 2; ++round) {
    make_setup(&s, 2, 0, 1.0);
    s.rq.backend = EKOC_BACKEND_BATCH;
    s.rq.batch_points = 20;
    check_same_with_cache(&s, cache);
    make_setup(&s, 2, 0, 1.0);
    check_same_with_cache(&s, cache);
  }
  ekoc_nspace_cache_free(cache);
}

static void test_other_grid(void **state) {
  ekoc_nspace_cache *cache = NULL, *fresh = NULL;
  setup s;
  (void)state;
  assert_int_equal(ekoc_nspace_cache_new(0, &cache), EKOC_OK);
  make_setup(&s, 3, 0, 1.0);
  check_same_with_cache(&s, cache);
  assert_int_equal(ekoc_grid_lambert(NX, 1e-5, s.grid), EKOC_OK); /* same nx, other points */
  check_same_with_cache(&s, cache);
  assert_int_equal(ekoc_nspace_cache_new(0, &fresh), EKOC_OK); /* emptied first: as a fresh one */
  check_same_with_cache(&s, fresh);
  assert_int_equal(ekoc_nspace_cache_bytes(cache), ekoc_nspace_cache_bytes(fresh));
  s.rq.degree = 3; /* another basis */
  check_same_with_cache(&s, cache);
  ekoc_nspace_cache_free(fresh);
  ekoc_nspace_cache_free(cache);
}

static void test_budget(void **state) {
  ekoc_nspace_cache *cache = NULL;
  setup s;
  size_t one_theory, budgets[3], i;
  (void)state;
  assert_int_equal(ekoc_nspace_cache_new(0, &cache), EKOC_OK);
  make_setup(&s, 3, 0, 1.0);
  check_same_with_cache(&s, cache);
  one_theory = ekoc_nspace_cache_bytes(cache);
  ekoc_nspace_cache_free(cache);
  budgets[0] = 4096;               /* hardly anything fits */
  budgets[1] = one_theory / 2;     /* part of one theory */
  budgets[2] = one_theory + 4096;  /* one theory: the next drops what it does not use */
  for (i = 0; i < 3; ++i) {
    int round;
    assert_int_equal(ekoc_nspace_cache_new(budgets[i], &cache), EKOC_OK);
    for (round = 0; round < 2; ++round) {
      make_setup(&s, 3, 0, 1.0);
      check_same_with_cache(&s, cache);
      assert_true(ekoc_nspace_cache_bytes(cache) <= budgets[i]);
      make_setup(&s, 3, 0, 1.0);
      s.rq.method = EKOC_METHOD_ORDERED_TRUNCATED;
      s.th.physics = EKOC_PHYSICS_EXACT;
      check_same_with_cache(&s, cache);
      assert_true(ekoc_nspace_cache_bytes(cache) <= budgets[i]);
    }
    if (i > 0) assert_true(ekoc_nspace_cache_bytes(cache) > 0);
    ekoc_nspace_cache_free(cache);
  }
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_alpha_s_scan),        cmocka_unit_test(test_alpha_s_scan_truncated),
      cmocka_unit_test(test_series_of_theories),
      cmocka_unit_test(test_backends_take_turns), cmocka_unit_test(test_other_grid),
      cmocka_unit_test(test_budget),              cmocka_unit_test(test_concurrent),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
