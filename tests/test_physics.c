/* test_physics.c: theory.physics, the run-time choice between eko's
 * approximations (EKOC_PHYSICS_EKO, the default) and the exact g_3(N) with
 * the exact three-loop anomalous dimensions (EKOC_PHYSICS_EXACT; docs/physics.md
 * §12.9, §12.11).
 *
 * Checked: the default is eko's and gives the bits it gave before the field
 * existed (also for a caller built against the 0.2 layout, whose struct_size
 * ends before the field, with garbage in the old tail padding); exact physics
 * moves the operators by a little and not at all at LO, on every engine and
 * axis that computes it (unpolarized with matchings, polarized, time-like,
 * QED); an N-space cache shared between the two keeps them apart; the
 * per-point configuration carries it; the crate's _physics entry points
 * move the NNLO non-singlet by less than the parametrisations' error. Bad
 * values are in test_bad_input.c.
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
#include "ekore.h"
#include "test_util.h"

#define NX 12
#define NB 14

static const double targets[2] = {10.0, 1e4};

typedef struct setup {
  ekoc_theory th;
  ekoc_request rq;
  double grid[NX];
} setup;

/* A small VFNS card (both targets cross thresholds, so matchings run). */
static void make_setup(setup *s, int order, int backend) {
  ekoc_theory_default(&s->th);
  ekoc_request_default(&s->rq);
  assert_int_equal(ekoc_grid_lambert(NX, 1e-5, s->grid), EKOC_OK);
  s->th.order = order;
  s->th.nf_ref = 3;
  s->rq.nf0 = 3;
  s->rq.mu2 = targets;
  s->rq.n_targets = 2;
  s->rq.xgrid = s->grid;
  s->rq.nx = NX;
  s->rq.degree = 3;
  s->rq.ev_op_iterations = 4;
  s->rq.backend = backend;
  s->rq.n_threads = 2;
}

/* The values of every target in the flavour basis (caller frees); *len_out doubles. */
static double *values(const ekoc_theory *th, const ekoc_request *rq, size_t *len_out) {
  ekoc_operator *op = NULL;
  size_t len = (size_t)NB * NB * rq->nx * rq->nx, t;
  double *v = malloc(rq->n_targets * len * sizeof *v);
  assert_non_null(v);
  if (ekoc_compute(th, rq, NULL, &op) != EKOC_OK) fail_msg("ekoc_compute: %s", ekoc_last_error());
  for (t = 0; t < rq->n_targets; ++t)
    assert_int_equal(ekoc_operator_flavor(op, t, v + t * len, NULL, len), EKOC_OK);
  ekoc_operator_free(op);
  *len_out = rq->n_targets * len;
  return v;
}

static void assert_bitwise(const double *a, const double *b, size_t n, const char *what) {
  if (memcmp(a, b, n * sizeof *a) != 0) fail_msg("%s: not the same bits", what);
}

/* exact moves the operator somewhere, by at most `rel` of its largest entry. */
static void assert_moved_a_little(const double *eko, const double *exact, size_t n, double rel, const char *what) {
  double largest = 0.0, moved = 0.0;
  size_t i;
  for (i = 0; i < n; ++i) {
    largest = fmax(largest, fabs(eko[i]));
    moved = fmax(moved, fabs(exact[i] - eko[i]));
  }
  if (!(moved > 0.0)) fail_msg("%s: exact physics moved nothing", what);
  if (!(moved <= rel * largest)) fail_msg("%s: exact physics moved an entry by %g (largest entry %g)", what, moved,
                                          largest);
}

static void test_default_is_eko(void **state) {
  setup s;
  (void)state;
  make_setup(&s, 2, EKOC_BACKEND_AUTO);
  assert_int_equal(s.th.physics, EKOC_PHYSICS_EKO);
}

/* A caller built against 0.2 passes struct_size = offsetof(physics) and may
 * leave the old tail padding unset: physics is eko's whatever lies beyond. */
static void test_old_layout_gets_eko(void **state) {
  setup s;
  size_t n_ref, n_old;
  double *ref, *old;
  (void)state;
  make_setup(&s, 2, EKOC_BACKEND_AUTO);
  ref = values(&s.th, &s.rq, &n_ref);
  s.th.struct_size = offsetof(ekoc_theory, physics);
  s.th.reserved_0_2_padding = 0x5a5a5a5a;
  s.th.physics = EKOC_PHYSICS_EXACT; /* beyond the caller's layout: never read */
  old = values(&s.th, &s.rq, &n_old);
  assert_int_equal(n_ref, n_old);
  assert_bitwise(ref, old, n_ref, "0.2 layout");
  free(ref);
  free(old);
}

/* Exact physics on the engines: LO unmoved (no approximation at LO), NLO and
 * NNLO (with the O(a_s^2) matchings) moved by < 1e-5 of the largest entry. */
static void test_exact_moves_a_little(void **state) {
  static const int backends[] = {EKOC_BACKEND_NSPACE, EKOC_BACKEND_BATCH};
  int b, order;
  (void)state;
  for (b = 0; b < 2; ++b)
    for (order = 1; order <= 3; ++order) {
      setup s;
      size_t n, m;
      double *eko, *exact;
      char what[64];
      make_setup(&s, order, backends[b]);
      eko = values(&s.th, &s.rq, &n);
      s.th.physics = EKOC_PHYSICS_EXACT;
      exact = values(&s.th, &s.rq, &m);
      assert_int_equal(n, m);
      snprintf(what, sizeof what, "backend %d order %d", backends[b], order);
      if (order == 1)
        assert_bitwise(eko, exact, n, what);
      else
        assert_moved_a_little(eko, exact, n, 1e-5, what);
      free(eko);
      free(exact);
    }
}

/* Polarized, time-like and QED (NLO) take the physics too. */
static void test_exact_on_every_axis(void **state) {
  int axis;
  (void)state;
  for (axis = 0; axis < 3; ++axis) {
    setup s;
    size_t n, m;
    double *eko, *exact;
    static const char *const name[] = {"polarized", "time-like", "QED"};
    make_setup(&s, 2, EKOC_BACKEND_AUTO);
    if (axis == 0) s.th.polarized = 1;
    if (axis == 1) s.th.time_like = 1;
    if (axis == 2) s.th.qed_order = 1;
    eko = values(&s.th, &s.rq, &n);
    s.th.physics = EKOC_PHYSICS_EXACT;
    exact = values(&s.th, &s.rq, &m);
    assert_int_equal(n, m);
    assert_moved_a_little(eko, exact, n, 1e-5, name[axis]);
    free(eko);
    free(exact);
  }
}

/* One N-space cache through both physics, in both orders: each computation
 * gives the bits of the same one without a cache (the towers are keyed by
 * the physics). */
static void test_cache_keeps_physics_apart(void **state) {
  int first;
  (void)state;
  for (first = 0; first < 2; ++first) {
    setup s;
    ekoc_nspace_cache *cache = NULL;
    size_t n_ref[2], n_got;
    double *ref[2], *got;
    int p, k;
    make_setup(&s, 3, EKOC_BACKEND_BATCH);
    s.rq.batch_points = 20;
    for (p = 0; p < 2; ++p) {
      s.th.physics = p;
      ref[p] = values(&s.th, &s.rq, &n_ref[p]);
    }
    assert_int_equal(ekoc_nspace_cache_new(0, &cache), EKOC_OK);
    s.rq.nspace_cache = cache;
    for (k = 0; k < 2; ++k) {
      p = k == 0 ? first : 1 - first;
      s.th.physics = p;
      got = values(&s.th, &s.rq, &n_got);
      assert_int_equal(n_got, n_ref[p]);
      assert_bitwise(ref[p], got, n_got, p ? "exact through a shared cache" : "eko through a shared cache");
      free(got);
    }
    ekoc_nspace_cache_free(cache);
    free(ref[0]);
    free(ref[1]);
  }
}

/* The per-point configuration: the NNLO non-singlet kernels move with the
 * physics (all three: their NLO terms hold g_3), by a little. */
static void test_nspace_config(void **state) {
  ekoc_nspace_config c;
  double re[2][3], im[2][3];
  int p;
  (void)state;
  memset(&c, 0, sizeof c);
  c.kind = EKOC_KIND_EVOLUTION;
  c.family = EKOC_FAMILY_NS;
  c.order = 3;
  c.nf = 4;
  c.method = EKOC_METHOD_ITERATE_EXACT;
  c.ev_op_iterations = 10;
  c.ev_op_max_order = 10;
  c.a0 = 0.35 / (4.0 * M_PI);
  c.a1 = 0.12 / (4.0 * M_PI);
  c.use_fhmruvv = 1;
  assert_int_equal(ekoc_beta(4, c.beta), EKOC_OK);
  for (p = 0; p < 2; ++p) {
    c.physics = p;
    assert_int_equal(ekoc_nspace_evaluate(&c, 2.5, 1.5, re[p], im[p], 3), EKOC_OK);
  }
  for (p = 0; p < 3; ++p) {
    assert_true(re[0][p] != re[1][p] || im[0][p] != im[1][p]);
    assert_close(re[1][p], re[0][p], 1e-4, 0.0);
    assert_close(im[1][p], im[0][p], 1e-4, 1e-12);
  }
}

/* The crate's C ABI: eko's physics gives the bits of the form without it;
 * exact takes the exact gamma_ns^(2)+, -, V, which differ from eko's
 * parametrisations by less than 3e-3 relative (1e-4 typically). */
static void test_crate_entry_points(void **state) {
  const double n_re[2] = {2.5, 11.0}, n_im[2] = {1.5, -4.0};
  const ekore_n3lo n3lo = {{0, 0, 0, 0, 0, 0, 0}, 1};
  double re[3][18], im[3][18];
  int p, m;
  (void)state;
  assert_int_equal(ekore_gamma_ns_all_batch_n3lo(3, &n3lo, n_re, n_im, 2, 5, re[0], im[0]), EKORE_OK);
  assert_int_equal(ekore_gamma_ns_all_batch_physics(3, &n3lo, EKORE_PHYSICS_EKO, n_re, n_im, 2, 5, re[1], im[1]),
                   EKORE_OK);
  assert_int_equal(ekore_gamma_ns_all_batch_physics(3, &n3lo, EKORE_PHYSICS_EXACT, n_re, n_im, 2, 5, re[2], im[2]),
                   EKORE_OK);
  assert_memory_equal(re[0], re[1], sizeof re[0]);
  assert_memory_equal(im[0], im[1], sizeof im[0]);
  for (p = 0; p < 2; ++p)
    for (m = 0; m < 3; ++m) {
      int k = (3 * p + m) * 3 + 2;
      double d = hypot(re[2][k] - re[0][k], im[2][k] - im[0][k]), size = hypot(re[0][k], im[0][k]);
      assert_true(d > 0.0 && d < 3e-3 * size);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_default_is_eko),
      cmocka_unit_test(test_old_layout_gets_eko),
      cmocka_unit_test(test_exact_moves_a_little),
      cmocka_unit_test(test_exact_on_every_axis),
      cmocka_unit_test(test_cache_keeps_physics_apart),
      cmocka_unit_test(test_nspace_config),
      cmocka_unit_test(test_crate_entry_points),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
