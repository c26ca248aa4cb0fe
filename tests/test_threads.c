/* test_threads.c: thread safety (issue 7, item 2; docs/architecture.md "no global
 * mutable state"). Eight different operators (orders, methods, schemes,
 * scale variations, FFNS/VFNS, up and down, both CPU backends) are computed
 * one after the other, then by 8 threads at once, each with nested OpenMP
 * workers of its own; every thread compares its operator (values, errors,
 * failure count, targets) bit for bit with the sequential one and records a
 * pass flag; the flags are combined with AND on the main thread (CMocka is
 * not thread-safe). Also: a coupling object, an interpolation basis and the
 * ekore ABI shared by 8 threads, the thread-local error message, and
 * concurrent profile records.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ekoc.h"
#include "ekore.h"
#include "test_util.h"

#define N_THREADS 8
#define NX 6

/* ---- the eight computations ------------------------------------------------------- */

static double grid[NX];
static const double targets_up[2] = {10.0, 1e4};
static const double targets_mixed[2] = {1.5, 3e4};

typedef struct job {
  ekoc_theory th;
  ekoc_request rq;
  const char *name;
  /* sequential reference */
  size_t len, n_failed;
  double *values, *errors; /* n_targets * len */
  double mu2[2];
  int32_t nf[2];
  /* threaded run */
  int inner_threads;
  int pass;
  char why[256];
} job;

static job jobs[N_THREADS];

static void make_jobs(void) {
  int i;
  assert_int_equal(ekoc_grid_lambert(NX, 1e-5, grid), EKOC_OK);
  for (i = 0; i < N_THREADS; ++i) {
    job *j = &jobs[i];
    memset(j, 0, sizeof *j);
    ekoc_theory_default(&j->th);
    ekoc_request_default(&j->rq);
    j->rq.backend = EKOC_BACKEND_ADAPTIVE; /* the jobs below name the others */
    j->rq.mu2 = targets_up;
    j->rq.n_targets = 2;
    j->rq.xgrid = grid;
    j->rq.nx = NX;
    j->rq.degree = 3;
    j->rq.ev_op_iterations = 4;
    j->rq.epsrel = 1e-4;
  }
  jobs[0].name = "LO VFNS";
  jobs[0].th.order = 1;
  jobs[1].name = "NLO FFNS (nf 4)";
  jobs[1].th.order = 2;
  jobs[1].th.matching_ratios[0] = 0.0;
  jobs[1].th.matching_ratios[1] = jobs[1].th.matching_ratios[2] = INFINITY;
  jobs[2].name = "NNLO iterate-exact, down and up";
  jobs[2].rq.mu2 = targets_mixed;
  jobs[3].name = "NNLO truncated";
  jobs[3].rq.method = EKOC_METHOD_TRUNCATED;
  jobs[4].name = "NLO perturbative-exact, exponentiated xif = 2";
  jobs[4].th.order = 2;
  jobs[4].th.xif = 2.0;
  jobs[4].rq.method = EKOC_METHOD_PERTURBATIVE_EXACT;
  jobs[4].rq.sv_mode = EKOC_SV_EXPONENTIATED;
  jobs[5].name = "NNLO decompose-expanded, expanded xif = 1/2, backward exact";
  jobs[5].th.xif = 0.5;
  jobs[5].rq.method = EKOC_METHOD_DECOMPOSE_EXPANDED;
  jobs[5].rq.sv_mode = EKOC_SV_EXPANDED;
  jobs[5].rq.inversion_method = EKOC_MATCHING_BACKWARD_EXACT;
  jobs[5].rq.mu2 = targets_mixed;
  jobs[6].name = "NNLO batch backend";
  jobs[6].rq.backend = EKOC_BACKEND_BATCH;
  jobs[7].name = "NLO iterate-expanded, missed tolerances (limit 2)";
  jobs[7].th.order = 2;
  jobs[7].rq.method = EKOC_METHOD_ITERATE_EXPANDED;
  jobs[7].rq.limit = 2;
  jobs[7].rq.epsrel = 1e-9;
}

/* Computes job j with `inner` OpenMP workers; on success fills the arrays
 * (allocating them) and returns EKOC_OK. */
static int run_job(const job *j, int inner, double **values, double **errors, size_t *len, size_t *n_failed,
                   double mu2[2], int32_t nf[2]) {
  ekoc_request rq = j->rq;
  ekoc_operator *op = NULL;
  size_t t;
  int rc;
  rq.n_threads = inner;
  rc = ekoc_compute(&j->th, &rq, NULL, &op);
  if (rc != EKOC_OK) return rc;
  *len = (size_t)196 * NX * NX;
  *values = malloc(2 * *len * sizeof(double));
  *errors = malloc(2 * *len * sizeof(double));
  if (!*values || !*errors) {
    ekoc_operator_free(op);
    return EKOC_ERR_NO_MEMORY;
  }
  for (t = 0; t < 2; ++t) {
    rc = ekoc_operator_flavor(op, t, *values + t * *len, *errors + t * *len, *len);
    if (rc == EKOC_OK) rc = ekoc_operator_target(op, t, &mu2[t], &nf[t]);
    if (rc != EKOC_OK) break;
  }
  *n_failed = ekoc_operator_failures(op);
  ekoc_operator_free(op);
  return rc;
}

static pthread_barrier_t start_line;

static void *thread_main(void *arg) {
  job *j = (job *)arg;
  double *v = NULL, *e = NULL, mu2[2] = {0, 0};
  int32_t nf[2] = {0, 0};
  size_t len = 0, n_failed = 0;
  int rc;
  pthread_barrier_wait(&start_line);
  rc = run_job(j, j->inner_threads, &v, &e, &len, &n_failed, mu2, nf);
  if (rc != EKOC_OK) {
    snprintf(j->why, sizeof j->why, "%s: %s", ekoc_status_str(rc), ekoc_last_error());
    j->pass = 0;
  } else if (len != j->len || memcmp(v, j->values, 2 * len * sizeof(double)) != 0) {
    snprintf(j->why, sizeof j->why, "values differ from the sequential run");
    j->pass = 0;
  } else if (memcmp(e, j->errors, 2 * len * sizeof(double)) != 0) {
    snprintf(j->why, sizeof j->why, "error estimates differ from the sequential run");
    j->pass = 0;
  } else if (n_failed != j->n_failed || mu2[0] != j->mu2[0] || mu2[1] != j->mu2[1] || nf[0] != j->nf[0] ||
             nf[1] != j->nf[1]) {
    snprintf(j->why, sizeof j->why, "failures %zu vs %zu or targets differ", n_failed, j->n_failed);
    j->pass = 0;
  } else {
    j->pass = 1;
  }
  free(v);
  free(e);
  return NULL;
}

/* One parallel round: 8 threads, each its own job, `inner` OpenMP workers each. */
static int parallel_round(int inner) {
  pthread_t tid[N_THREADS];
  int i, all = 1;
  assert_int_equal(pthread_barrier_init(&start_line, NULL, N_THREADS), 0);
  for (i = 0; i < N_THREADS; ++i) {
    jobs[i].inner_threads = inner;
    jobs[i].pass = 0;
    jobs[i].why[0] = '\0';
    assert_int_equal(pthread_create(&tid[i], NULL, thread_main, &jobs[i]), 0);
  }
  for (i = 0; i < N_THREADS; ++i) assert_int_equal(pthread_join(tid[i], NULL), 0);
  pthread_barrier_destroy(&start_line);
  for (i = 0; i < N_THREADS; ++i) {
    if (!jobs[i].pass) print_error("job %d (%s), %d inner threads: %s\n", i, jobs[i].name, inner, jobs[i].why);
    all = all && jobs[i].pass;
  }
  return all;
}

static void test_operators_bitwise(void **state) {
  int i, distinct = 0, ok;
  (void)state;
  make_jobs();
  /* sequential reference, one worker each */
  for (i = 0; i < N_THREADS; ++i) {
    job *j = &jobs[i];
    int rc = run_job(j, 1, &j->values, &j->errors, &j->len, &j->n_failed, j->mu2, j->nf);
    if (rc != EKOC_OK) fail_msg("job %d (%s): %s: %s", i, j->name, ekoc_status_str(rc), ekoc_last_error());
  }
  /* the jobs are really different operators */
  for (i = 1; i < N_THREADS; ++i)
    if (memcmp(jobs[i].values, jobs[0].values, 2 * jobs[0].len * sizeof(double)) != 0) ++distinct;
  assert_int_equal(distinct, N_THREADS - 1);
  /* job 7 must have missed tolerances (its failures are part of what is compared) */
  assert_true(jobs[7].n_failed > 0);
  /* all at once: one worker each, then two nested workers each */
  ok = parallel_round(1);
  ok = parallel_round(2) && ok;
  for (i = 0; i < N_THREADS; ++i) {
    free(jobs[i].values);
    free(jobs[i].errors);
  }
  assert_true(ok);
}

/* ---- shared immutable objects and the ABI ------------------------------------------- */

#define N_QUERIES 64

typedef struct shared_work {
  const ekoc_couplings *c;
  const ekoc_interp *ip;
  int index;
  double a_s[N_QUERIES];
  double w[N_QUERIES][NX];
  double gamma_re[N_QUERIES][12], gamma_im[N_QUERIES][12];
  int pass;
} shared_work;

static void shared_fill(shared_work *s) {
  int q;
  s->pass = 1;
  for (q = 0; q < N_QUERIES; ++q) {
    /* every thread asks the same questions in a different order */
    int k = (q + 7 * s->index) % N_QUERIES;
    double mu2 = 1.5 * pow(1e6, (double)k / N_QUERIES), x = pow(1e-5, (double)(k % 17) / 17.0);
    if (ekoc_couplings_a_s(s->c, mu2, -1, &s->a_s[k]) != EKOC_OK) s->pass = 0;
    if (ekoc_interp_eval(s->ip, x, s->w[k], NX) != EKOC_OK) s->pass = 0;
    if (ekore_gamma_singlet(3, 1.5 + 0.1 * k, 0.3 * k, 3 + k % 4, s->gamma_re[k], s->gamma_im[k]) != EKORE_OK) s->pass = 0;
  }
}

static void *shared_main(void *arg) {
  shared_work *s = (shared_work *)arg;
  pthread_barrier_wait(&start_line);
  shared_fill(s);
  return NULL;
}

static void test_shared_objects(void **state) {
  ekoc_couplings_config cfg;
  ekoc_couplings *c = NULL;
  ekoc_interp *ip = NULL;
  shared_work *ref = calloc(1, sizeof *ref), *w = calloc(N_THREADS, sizeof *w);
  pthread_t tid[N_THREADS];
  int i, ok = 1;
  (void)state;
  assert_non_null(ref);
  assert_non_null(w);
  assert_int_equal(ekoc_grid_lambert(NX, 1e-5, grid), EKOC_OK);
  ekoc_couplings_config_default(&cfg);
  assert_int_equal(ekoc_couplings_new(&cfg, &c), EKOC_OK);
  assert_int_equal(ekoc_interp_alloc(grid, NX, 3, &ip), EKOC_OK);
  ref->c = c;
  ref->ip = ip;
  shared_fill(ref);
  assert_true(ref->pass);
  assert_int_equal(pthread_barrier_init(&start_line, NULL, N_THREADS), 0);
  for (i = 0; i < N_THREADS; ++i) {
    w[i].c = c;
    w[i].ip = ip;
    w[i].index = i + 1;
    assert_int_equal(pthread_create(&tid[i], NULL, shared_main, &w[i]), 0);
  }
  for (i = 0; i < N_THREADS; ++i) assert_int_equal(pthread_join(tid[i], NULL), 0);
  pthread_barrier_destroy(&start_line);
  for (i = 0; i < N_THREADS; ++i) {
    int same = w[i].pass && memcmp(w[i].a_s, ref->a_s, sizeof ref->a_s) == 0 && memcmp(w[i].w, ref->w, sizeof ref->w) == 0 &&
               memcmp(w[i].gamma_re, ref->gamma_re, sizeof ref->gamma_re) == 0 &&
               memcmp(w[i].gamma_im, ref->gamma_im, sizeof ref->gamma_im) == 0;
    if (!same) print_error("thread %d: shared-object results differ from the sequential ones\n", i);
    ok = ok && same;
  }
  ekoc_interp_free(ip);
  ekoc_couplings_free(c);
  free(ref);
  free(w);
  assert_true(ok);
}

/* ---- thread-local error messages ------------------------------------------------------ */

typedef struct err_work {
  int index, pass;
} err_work;

static void *err_main(void *arg) {
  err_work *e = (err_work *)arg;
  char want[64];
  int k, pass = 1;
  pthread_barrier_wait(&start_line);
  for (k = 0; k < 2000; ++k) {
    /* each thread fails with its own argument; the message must stay its own */
    int32_t nf = 10 + e->index;
    double b[4];
    if (ekoc_beta(nf, b) != EKOC_ERR_INVALID_NF) pass = 0;
    snprintf(want, sizeof want, "nf=%d outside", (int)nf);
    if (!strstr(ekoc_last_error(), want)) pass = 0;
    if (ekore_gamma_ns(1, EKORE_MODE_NS_PLUS, 2.0, 0.0, (uint32_t)nf, b, b + 1) != EKORE_ERR_NF) pass = 0;
    snprintf(want, sizeof want, "%d", (int)nf);
    if (!strstr(ekore_last_error(), want)) pass = 0;
  }
  e->pass = pass;
  return NULL;
}

static void test_error_messages_thread_local(void **state) {
  err_work w[N_THREADS];
  pthread_t tid[N_THREADS];
  int i, ok = 1;
  (void)state;
  assert_int_equal(pthread_barrier_init(&start_line, NULL, N_THREADS), 0);
  for (i = 0; i < N_THREADS; ++i) {
    w[i].index = i;
    w[i].pass = 0;
    assert_int_equal(pthread_create(&tid[i], NULL, err_main, &w[i]), 0);
  }
  for (i = 0; i < N_THREADS; ++i) assert_int_equal(pthread_join(tid[i], NULL), 0);
  pthread_barrier_destroy(&start_line);
  for (i = 0; i < N_THREADS; ++i) {
    if (!w[i].pass) print_error("thread %d saw another thread's message\n", i);
    ok = ok && w[i].pass;
  }
  assert_true(ok);
}

/* ---- one profile, many writers --------------------------------------------------------- */

#define RECORDS_PER_THREAD 500

static void *profile_main(void *arg) {
  ekoc_profile *p = (ekoc_profile *)arg;
  int k;
  pthread_barrier_wait(&start_line);
  for (k = 0; k < RECORDS_PER_THREAD; ++k) ekoc_profile_store(p, "stage", (uint64_t)k, (uint64_t)k + 1);
  return NULL;
}

static void test_profile_concurrent(void **state) {
  ekoc_profile *p = NULL;
  pthread_t tid[N_THREADS];
  size_t cap = N_THREADS * RECORDS_PER_THREAD / 2, i;
  (void)state;
  assert_int_equal(ekoc_profile_new(cap, &p), EKOC_OK);
  assert_int_equal(pthread_barrier_init(&start_line, NULL, N_THREADS), 0);
  for (i = 0; i < N_THREADS; ++i) assert_int_equal(pthread_create(&tid[i], NULL, profile_main, p), 0);
  for (i = 0; i < N_THREADS; ++i) assert_int_equal(pthread_join(tid[i], NULL), 0);
  pthread_barrier_destroy(&start_line);
  /* exactly the capacity kept, the rest counted as dropped, every kept record whole */
  assert_int_equal(ekoc_profile_count(p), cap);
  assert_int_equal(ekoc_profile_dropped(p), N_THREADS * RECORDS_PER_THREAD - cap);
  for (i = 0; i < cap; ++i) {
    const char *name;
    uint64_t s, e;
    assert_int_equal(ekoc_profile_get(p, i, &name, &s, &e), EKOC_OK);
    assert_string_equal(name, "stage");
    assert_int_equal(e, s + 1);
  }
  ekoc_profile_free(p);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_error_messages_thread_local),
      cmocka_unit_test(test_profile_concurrent),
      cmocka_unit_test(test_shared_objects),
      cmocka_unit_test(test_operators_bitwise),
  };
  if (argc > 1) cmocka_set_test_filter(argv[1]);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
