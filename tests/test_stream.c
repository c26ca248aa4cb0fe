/* test_stream.c: ekoc_compute_stream (src/evol/compose.c, compute.c). The
 * streamed targets are bitwise ekoc_compute's (values, errors, both bases,
 * failure flags, apply), duplicates are handed out at every index that asked,
 * the callback can cancel, and a 200-target computation holds a few targets
 * at a time, not all of them (bytes in use counted with glibc's mallinfo2,
 * which sums every arena, the worker threads' included). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ekoc.h"
#include "test_util.h"

#define NB 14
#define MAX_NX 20

typedef struct setup {
  ekoc_theory th;
  ekoc_request rq;
  double grid[MAX_NX];
} setup;

static void setup_init(setup *s, size_t nx, const double *mu2, const int32_t *nf, size_t n) {
  ekoc_theory_default(&s->th);
  ekoc_request_default(&s->rq);
  s->th.order = 3; /* mu_0^2 = 2 at nf0 = 4 (the LHA setup): targets below run backward to nf = 3 */
  assert_int_equal(ekoc_grid_lambert(nx, 1e-5, s->grid), EKOC_OK);
  s->rq.xgrid = s->grid;
  s->rq.nx = nx;
  s->rq.degree = 3;
  s->rq.mu2 = mu2;
  s->rq.nf = nf;
  s->rq.n_targets = n;
  s->rq.backend = EKOC_BACKEND_BATCH;
  s->rq.batch_points = 8;
}

/* ---- what a callback saw ---------------------------------------------------------- */

typedef struct seen {
  const ekoc_operator *full; /* ekoc_compute's result, to compare with (may be NULL) */
  size_t nx, calls, cancel_at, n_indices;
  size_t order[32];     /* the indices in call order */
  size_t live_first;    /* bytes in use at the first call */
  size_t live_max;      /* the most at any call */
  int mismatches;
} seen;

static size_t live_bytes(void) {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

/* Compares the view's target with target `index` of the full result, bit for bit. */
static int same_target(const ekoc_operator *view, const ekoc_operator *full, size_t index, size_t nx) {
  size_t len = (size_t)NB * NB * nx * nx, k, n1, n2;
  double *a = malloc(8 * len * sizeof(double)), mu2a, mu2b, in[NB * MAX_NX], out_a[NB * MAX_NX], out_b[NB * MAX_NX];
  uint8_t *fa = malloc(2 * len);
  int32_t nfa, nfb;
  int same = 1;
  assert_non_null(a);
  assert_non_null(fa);
  assert_int_equal(ekoc_operator_n_targets(view), 1);
  assert_int_equal(ekoc_operator_nx(view), nx);
  assert_int_equal(ekoc_operator_failures(view), ekoc_operator_failures(full));
  assert_int_equal(ekoc_operator_target(view, 0, &mu2a, &nfa), EKOC_OK);
  assert_int_equal(ekoc_operator_target(full, index, &mu2b, &nfb), EKOC_OK);
  same &= mu2a == mu2b && nfa == nfb;
  assert_int_equal(ekoc_operator_flavor(view, 0, a, a + len, len), EKOC_OK);
  assert_int_equal(ekoc_operator_flavor(full, index, a + 2 * len, a + 3 * len, len), EKOC_OK);
  assert_int_equal(ekoc_operator_evolution(view, 0, a + 4 * len, a + 5 * len, len), EKOC_OK);
  assert_int_equal(ekoc_operator_evolution(full, index, a + 6 * len, a + 7 * len, len), EKOC_OK);
  same &= memcmp(a, a + 2 * len, 2 * len * sizeof(double)) == 0;
  same &= memcmp(a + 4 * len, a + 6 * len, 2 * len * sizeof(double)) == 0;
  assert_int_equal(ekoc_operator_failed_flavor(view, 0, fa, len, &n1), EKOC_OK);
  assert_int_equal(ekoc_operator_failed_flavor(full, index, fa + len, len, &n2), EKOC_OK);
  same &= n1 == n2 && memcmp(fa, fa + len, len) == 0;
  for (k = 0; k < NB * nx; ++k) in[k] = 1.0 / (1.0 + (double)k);
  assert_int_equal(ekoc_operator_apply(view, 0, in, out_a, NB * nx, NULL), EKOC_OK);
  assert_int_equal(ekoc_operator_apply(full, index, in, out_b, NB * nx, NULL), EKOC_OK);
  same &= memcmp(out_a, out_b, NB * nx * sizeof(double)) == 0;
  /* one target only: index 1 is out of range */
  assert_int_equal(ekoc_operator_flavor(view, 1, a, NULL, len), EKOC_ERR_INVALID_ARGUMENT);
  free(a);
  free(fa);
  return same;
}

static int on_target(void *data, size_t index, const ekoc_operator *target) {
  seen *s = data;
  size_t live = live_bytes();
  if (s->calls == 0) s->live_first = live;
  if (live > s->live_max) s->live_max = live;
  if (s->calls < 32) s->order[s->calls] = index;
  s->calls++;
  if (s->full && !same_target(target, s->full, index, s->nx)) s->mismatches++;
  return s->cancel_at && s->calls >= s->cancel_at;
}

/* ---- the tests ---------------------------------------------------------------------- */

/* Targets below mu_0 (backward matching), in every nf, repeated (explicitly
 * and through eko's default nf): every index handed out once, distinct
 * targets in first-asked order with their repeats right after, each bitwise
 * ekoc_compute's. Then with integrals that miss their tolerance (a
 * tolerance below the rounding floor, which the batch engine flags rather
 * than refines): the failure flags stream the same too. */
static void test_stream_bitwise(void **state) {
  static const double mu2[] = {10.0, 1.2, 30.0, 10.0, 1e4, 30.0, 400.0, 1e4};
  static const int32_t nf[] = {-1, -1, -1, 4, 5, 5, -1, -1};
  static const size_t want_order[] = {0, 3, 1, 2, 5, 4, 7, 6};
  size_t n = sizeof mu2 / sizeof *mu2, i;
  int pass;
  (void)state;
  for (pass = 0; pass < 2; ++pass) {
    setup s;
    ekoc_operator *full = NULL;
    seen sn;
    setup_init(&s, 8, mu2, nf, n);
    s.rq.batch_points = 8;
    if (pass == 1) { /* unreachable: 1e-15 relative, no absolute floor */
      s.rq.epsrel = 1e-15;
      s.rq.epsabs = 1e-300;
    }
    assert_int_equal(ekoc_compute(&s.th, &s.rq, NULL, &full), EKOC_OK);
    if (pass == 1 && ekoc_operator_failures(full) == 0) fail_msg("a tolerance of 1e-15 missed nothing");
    memset(&sn, 0, sizeof sn);
    sn.full = full;
    sn.nx = 8;
    assert_int_equal(ekoc_compute_stream(&s.th, &s.rq, NULL, on_target, &sn), EKOC_OK);
    assert_int_equal(sn.calls, n);
    assert_int_equal(sn.mismatches, 0);
    for (i = 0; i < n; ++i) assert_int_equal(sn.order[i], want_order[i]);
    ekoc_operator_free(full);
  }
}

/* A non-zero return stops the computation at once: EKOC_ERR_CANCELLED naming
 * the index, no further call; a NULL callback is refused. */
static void test_stream_cancel(void **state) {
  static const double mu2[] = {10.0, 30.0, 100.0, 1e4};
  setup s;
  seen sn;
  (void)state;
  setup_init(&s, 8, mu2, NULL, 4);
  memset(&sn, 0, sizeof sn);
  sn.cancel_at = 2;
  assert_int_equal(ekoc_compute_stream(&s.th, &s.rq, NULL, on_target, &sn), EKOC_ERR_CANCELLED);
  assert_int_equal(sn.calls, 2);
  assert_non_null(strstr(ekoc_last_error(), "at index 1"));
  assert_int_equal(ekoc_compute_stream(&s.th, &s.rq, NULL, NULL, NULL), EKOC_ERR_NULL_POINTER);
  assert_int_equal(ekoc_compute_stream(NULL, &s.rq, NULL, on_target, &sn), EKOC_ERR_NULL_POINTER);
}

/* 200 targets above the b threshold on a 20-point grid: ekoc_compute holds
 * all of them (about 200 x 29 blocks x 6.4 KB), the stream a few at any call
 * (both hold the parts: one final segment per target here);
 * and a memory budget that refuses the held computation lets the stream run. */
/* ASan and valgrind replace malloc, and mallinfo2 then reports nothing of
 * the heap: there the byte counts are not checked (the calls and the budget
 * still are; check-valgrind sets EKOC_TEST_UNDER_VALGRIND=1). */
#if defined(__SANITIZE_ADDRESS__)
#define HEAP_COUNTS_MEANINGFUL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HEAP_COUNTS_MEANINGFUL 0
#endif
#endif
#ifndef HEAP_COUNTS_MEANINGFUL
#define HEAP_COUNTS_MEANINGFUL 1
#endif

static void test_stream_memory_bounded(void **state) {
  enum { N = 200, NX = 20 };
  static double mu2[N];
  size_t i, before, held, one_target = (size_t)39 * NX * NX * 2 * sizeof(double), estimate;
  setup s;
  seen sn;
  ekoc_operator *full = NULL;
  (void)state;
  for (i = 0; i < N; ++i) mu2[i] = 25.0 * pow(1e4 / 25.0, (double)i / (N - 1));
  setup_init(&s, NX, mu2, NULL, N);
  s.th.order = 1;
  before = live_bytes();
  assert_int_equal(ekoc_compute(&s.th, &s.rq, NULL, &full), EKOC_OK);
  held = live_bytes() - before;
  ekoc_operator_free(full);
  int counts = HEAP_COUNTS_MEANINGFUL && !getenv("EKOC_TEST_UNDER_VALGRIND");
  if (counts) assert_true(held > (size_t)N * one_target / 3); /* the held result: every target */

  memset(&sn, 0, sizeof sn);
  assert_int_equal(ekoc_compute_stream(&s.th, &s.rq, NULL, on_target, &sn), EKOC_OK);
  assert_int_equal(sn.calls, N);
  print_message("held after ekoc_compute: %.2f MB; stream: %.2f MB growth over %d calls (one target <= %.2f MB)\n",
                held / 1e6, (double)(sn.live_max - sn.live_first) / 1e6, N, one_target / 1e6);
  if (counts) assert_true(sn.live_max - sn.live_first < 4 * one_target);

  assert_int_equal(ekoc_request_estimate_bytes(&s.th, &s.rq, &estimate), EKOC_OK);
  s.rq.memory_budget = estimate / 2;
  assert_int_equal(ekoc_compute(&s.th, &s.rq, NULL, &full), EKOC_ERR_NO_MEMORY);
  memset(&sn, 0, sizeof sn);
  assert_int_equal(ekoc_compute_stream(&s.th, &s.rq, NULL, on_target, &sn), EKOC_OK);
  assert_int_equal(sn.calls, N);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stream_bitwise),
      cmocka_unit_test(test_stream_cancel),
      cmocka_unit_test(test_stream_memory_bounded),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
