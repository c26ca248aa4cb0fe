/* test_nspace_compose.c: the targets' N-space operators composed with
 * their common first steps shared (ekoc_nsop_targets) have the bits of
 * each composed alone (ekoc_nsop_target): values, sizes, constants, limits
 * and corners, for paths that share nothing, a segment, a segment and a
 * matching, everything (a repeated target), that start with a matching, and
 * with targets left inactive in between. ekoc_plan_common_steps counts the
 * steps two paths share. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evol/nspace_compose.h"

#define COUNT 9
#define N_JOBS 6
#define N_TARGETS 7

static double draw(uint64_t *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return ldexp((double)(*state >> 11), -53) * 2.0 - 1.0;
}

/* A part with some blocks as arrays, some constant, the rest absent. */
static void random_part(ekoc_nsop *op, uint64_t *state) {
  int a, b;
  size_t i;
  ekoc_nsop_init(op, COUNT);
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) {
      double u = draw(state);
      op->lim[a][b] = draw(state);
      op->corner[a][b] = draw(state);
      if (u < -0.3) continue; /* absent */
      if (u < 0.2) {
        op->k[a][b] = draw(state);
        continue;
      }
      op->v[a][b] = malloc(COUNT * (sizeof(ekoc_complex) + sizeof(double)));
      assert_non_null(op->v[a][b]);
      op->size[a][b] = (double *)(op->v[a][b] + COUNT);
      for (i = 0; i < COUNT; ++i) {
        op->v[a][b][i] = c_make(draw(state), draw(state));
        op->size[a][b][i] = c_abs(op->v[a][b][i]) * (1.0 + fabs(draw(state)));
      }
    }
}

static void assert_same(const ekoc_nsop *x, const ekoc_nsop *y) {
  int a, b;
  assert_int_equal(x->count, y->count);
  assert_memory_equal(x->k, y->k, sizeof x->k);
  assert_memory_equal(x->lim, y->lim, sizeof x->lim);
  assert_memory_equal(x->corner, y->corner, sizeof x->corner);
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) {
      assert_true((x->v[a][b] == NULL) == (y->v[a][b] == NULL));
      if (x->v[a][b]) {
        assert_memory_equal(x->v[a][b], y->v[a][b], COUNT * sizeof(ekoc_complex));
        assert_memory_equal(x->size[a][b], y->size[a][b], COUNT * sizeof(double));
      }
    }
}

static void set_step(ekoc_plan_step *st, int job, int kind, int nf) {
  st->job = job;
  st->kind = kind;
  st->nf = nf;
  st->unified = 0;
}

/* Paths as a VFNS computation from nf = 3 has them, then a backward one. */
static void fill_plan(ekoc_plan *p, ekoc_plan_step steps[N_TARGETS][EKOC_PLAN_MAX_STEPS], int32_t *n_steps) {
  memset(p, 0, sizeof *p);
  memset(steps, 0, sizeof(ekoc_plan_step) * N_TARGETS * EKOC_PLAN_MAX_STEPS);
  p->n_jobs = N_JOBS;
  p->steps = steps;
  p->n_steps = n_steps;
  set_step(&steps[0][0], 0, EKOC_STEP_SEGMENT, 3); /* below charm */
  n_steps[0] = 1;
  set_step(&steps[1][0], 1, EKOC_STEP_SEGMENT, 3); /* another segment: nothing shared */
  set_step(&steps[1][1], 2, EKOC_STEP_FORWARD, 3);
  set_step(&steps[1][2], 3, EKOC_STEP_SEGMENT, 4);
  n_steps[1] = 3;
  memcpy(steps[2], steps[1], sizeof steps[1]); /* shares the segment and the matching */
  set_step(&steps[2][2], 4, EKOC_STEP_SEGMENT, 4);
  n_steps[2] = 3;
  memcpy(steps[3], steps[2], sizeof steps[2]); /* the same target again: everything shared */
  n_steps[3] = 3;
  set_step(&steps[4][0], 2, EKOC_STEP_FORWARD, 3); /* starts with a matching */
  set_step(&steps[4][1], 3, EKOC_STEP_SEGMENT, 4);
  n_steps[4] = 2;
  memcpy(steps[5], steps[4], sizeof steps[4]); /* shares everything of 4 and goes on */
  set_step(&steps[5][2], 2, EKOC_STEP_BACKWARD, 3);
  set_step(&steps[5][3], 5, EKOC_STEP_SEGMENT, 3);
  n_steps[5] = 4;
  memcpy(steps[6], steps[5], sizeof steps[5]); /* shares three steps of 5 */
  set_step(&steps[6][3], 0, EKOC_STEP_SEGMENT, 3);
  n_steps[6] = 4;
}

static void test_common_steps(void **state) {
  ekoc_plan p;
  ekoc_plan_step steps[N_TARGETS][EKOC_PLAN_MAX_STEPS];
  int32_t n_steps[N_TARGETS];
  (void)state;
  fill_plan(&p, steps, n_steps);
  assert_int_equal(ekoc_plan_common_steps(&p, 0, 1), 0);
  assert_int_equal(ekoc_plan_common_steps(&p, 1, 2), 2);
  assert_int_equal(ekoc_plan_common_steps(&p, 2, 3), 3);
  assert_int_equal(ekoc_plan_common_steps(&p, 3, 4), 0);
  assert_int_equal(ekoc_plan_common_steps(&p, 4, 5), 2);
  assert_int_equal(ekoc_plan_common_steps(&p, 5, 6), 3);
  assert_int_equal(ekoc_plan_common_steps(&p, 6, 6), 4);
}

/* Every pattern of active targets (2^7) against the targets alone. */
static void test_shared_steps_same_bits(void **state) {
  ekoc_plan p;
  ekoc_plan_step steps[N_TARGETS][EKOC_PLAN_MAX_STEPS];
  int32_t n_steps[N_TARGETS];
  ekoc_nsop parts[N_JOBS], alone[N_TARGETS], shared[N_TARGETS];
  uint64_t seed = 12345;
  unsigned mask;
  size_t j, t;
  (void)state;
  fill_plan(&p, steps, n_steps);
  for (j = 0; j < N_JOBS; ++j) random_part(&parts[j], &seed);
  for (t = 0; t < N_TARGETS; ++t) {
    ekoc_nsop_init(&alone[t], COUNT);
    assert_true(ekoc_nsop_target(&p, t, parts, &alone[t]));
  }
  for (mask = 0; mask < (1u << N_TARGETS); ++mask) {
    unsigned char active[N_TARGETS];
    for (t = 0; t < N_TARGETS; ++t) {
      active[t] = (unsigned char)((mask >> t) & 1u);
      ekoc_nsop_init(&shared[t], 0);
    }
    assert_true(ekoc_nsop_targets(&p, 0, N_TARGETS, active, parts, COUNT, shared));
    for (t = 0; t < N_TARGETS; ++t) {
      if (active[t])
        assert_same(&shared[t], &alone[t]);
      else
        assert_int_equal(shared[t].count, 0); /* left as it was */
      ekoc_nsop_clear(&shared[t]);
    }
  }
  /* a later window of the targets (t0 > 0) */
  {
    unsigned char active[3] = {1, 1, 1};
    for (t = 0; t < 3; ++t) ekoc_nsop_init(&shared[t], 0);
    assert_true(ekoc_nsop_targets(&p, 4, 3, active, parts, COUNT, shared));
    for (t = 0; t < 3; ++t) {
      assert_same(&shared[t], &alone[4 + t]);
      ekoc_nsop_clear(&shared[t]);
    }
  }
  for (t = 0; t < N_TARGETS; ++t) ekoc_nsop_clear(&alone[t]);
  for (j = 0; j < N_JOBS; ++j) ekoc_nsop_clear(&parts[j]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_common_steps),
      cmocka_unit_test(test_shared_steps_same_bits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
