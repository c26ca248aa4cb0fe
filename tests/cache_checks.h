/* cache_checks.h: the checks the cache tests share (tests/test_nspace_cache.c,
 * tests/test_nspace_warm.c): a computation's values, errors and failure flags
 * in the flavour basis; the same with a cache as without; two computations
 * at once on one cache, each with the bits it gets alone. Include after
 * cmocka.h and ekoc.h. */
#ifndef EKOC_TESTS_CACHE_CHECKS_H
#define EKOC_TESTS_CACHE_CHECKS_H

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Values, errors and failure flags (as 0/1) of every target in the flavour
 * basis, one after the other, into *out (caller frees; *len_out doubles).
 * Returns the first status that is not EKOC_OK (no cmocka assertion: worker
 * threads call it too). */
static int cache_flavor_try(const ekoc_theory *th, const ekoc_request *rq, double **out, size_t *len_out) {
  ekoc_operator *op = NULL;
  size_t len = (size_t)14 * 14 * rq->nx * rq->nx, t, i;
  double *v = malloc(3 * rq->n_targets * len * sizeof *v);
  unsigned char *flags = malloc(len);
  int rc = v && flags ? ekoc_compute(th, rq, NULL, &op) : EKOC_ERR_NO_MEMORY;
  for (t = 0; rc == EKOC_OK && t < rq->n_targets; ++t) {
    double *at = v + 3 * t * len;
    rc = ekoc_operator_flavor(op, t, at, at + len, len);
    if (rc == EKOC_OK) rc = ekoc_operator_failed_flavor(op, t, flags, len, NULL);
    for (i = 0; rc == EKOC_OK && i < len; ++i) at[2 * len + i] = flags[i];
  }
  ekoc_operator_free(op);
  free(flags);
  if (rc != EKOC_OK) {
    free(v);
    v = NULL;
  }
  *out = v;
  *len_out = 3 * rq->n_targets * len;
  return rc;
}

static double *cache_flavor_all(const ekoc_theory *th, const ekoc_request *rq, size_t *len_out) {
  double *v = NULL;
  assert_int_equal(cache_flavor_try(th, rq, &v, len_out), EKOC_OK);
  return v;
}

/* The computation with `cache` gives the bits of the one without. */
static void cache_check_same(const ekoc_theory *th, ekoc_request *rq, ekoc_nspace_cache *cache) {
  size_t n_ref, n_got;
  double *ref, *got;
  rq->nspace_cache = NULL;
  ref = cache_flavor_all(th, rq, &n_ref);
  rq->nspace_cache = cache;
  got = cache_flavor_all(th, rq, &n_got);
  assert_int_equal(n_ref, n_got);
  assert_memory_equal(ref, got, n_ref * sizeof *ref);
  free(ref);
  free(got);
}

typedef struct cache_worker {
  const ekoc_theory *th;
  ekoc_request rq;
  double *got;
  size_t n;
  int rc;
} cache_worker;

static void *cache_work(void *p) {
  cache_worker *w = p;
  w->rc = cache_flavor_try(w->th, &w->rq, &w->got, &w->n);
  return NULL;
}

/* The two computations (th[i], rq[i]) at once, both on `cache`, one thread
 * each: each gets the bits it gets alone without a cache (the one that
 * finds the cache in use runs without it). */
static void cache_check_concurrent(const ekoc_theory *const th[2], const ekoc_request *const rq[2],
                                   ekoc_nspace_cache *cache) {
  cache_worker w[2];
  pthread_t thread[2];
  int i;
  for (i = 0; i < 2; ++i) {
    memset(&w[i], 0, sizeof w[i]);
    w[i].th = th[i];
    w[i].rq = *rq[i];
    w[i].rq.n_threads = 1;
    w[i].rq.nspace_cache = cache;
  }
  for (i = 0; i < 2; ++i) assert_int_equal(pthread_create(&thread[i], NULL, cache_work, &w[i]), 0);
  for (i = 0; i < 2; ++i) assert_int_equal(pthread_join(thread[i], NULL), 0);
  for (i = 0; i < 2; ++i) {
    size_t n_ref;
    double *ref;
    assert_int_equal(w[i].rc, EKOC_OK);
    w[i].rq.nspace_cache = NULL;
    ref = cache_flavor_all(w[i].th, &w[i].rq, &n_ref);
    assert_int_equal(n_ref, w[i].n);
    assert_memory_equal(ref, w[i].got, n_ref * sizeof *ref);
    free(ref);
    free(w[i].got);
  }
}

#endif /* EKOC_TESTS_CACHE_CHECKS_H */
