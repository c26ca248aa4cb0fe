/* targets.c: the distinct (mu^2, nf) of a request (targets.h). Sorting by
 * (nf, mu2, index) puts equal targets next to each other with their first
 * index in front: O(n log n) for eko's largest allowed lists. */
#include <stdlib.h>
#include <string.h>

#include "evol/targets.h"
#include "status.h"

typedef struct target_key {
  double mu2;
  int32_t nf;
  size_t index;
} target_key;

static int key_compare(const void *pa, const void *pb) {
  const target_key *a = pa, *b = pb;
  if (a->nf != b->nf) return a->nf < b->nf ? -1 : 1;
  if (a->mu2 != b->mu2) return a->mu2 < b->mu2 ? -1 : 1; /* finite and > 0 (validated) */
  return a->index < b->index ? -1 : a->index > b->index;
}

int ekoc_targets_new(const ekoc_plan_setup *s, ekoc_targets *tg) {
  const ekoc_request *rq = s->rq;
  size_t n = rq->n_targets, i, d = 0;
  target_key *keys = malloc(n * sizeof *keys);
  size_t *leader = malloc(n * sizeof *leader); /* the first index equal to target i */
  tg->n = n;
  tg->distinct = malloc(n * sizeof *tg->distinct);
  tg->first = malloc(n * sizeof *tg->first);
  tg->mu2 = malloc(n * sizeof *tg->mu2);
  tg->nf = malloc(n * sizeof *tg->nf);
  if (!keys || !leader || !tg->distinct || !tg->first || !tg->mu2 || !tg->nf) {
    free(keys);
    free(leader);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_compute: out of memory for %zu targets", n);
  }
  for (i = 0; i < n; ++i) {
    keys[i].mu2 = rq->mu2[i];
    keys[i].nf = (rq->nf && rq->nf[i] >= 0) ? rq->nf[i] : ekoc_plan_default_nf(s, rq->mu2[i]);
    keys[i].index = i;
  }
  qsort(keys, n, sizeof *keys, key_compare);
  for (i = 0; i < n; ++i) {
    int same = i > 0 && keys[i].nf == keys[i - 1].nf && keys[i].mu2 == keys[i - 1].mu2;
    leader[keys[i].index] = same ? leader[keys[i - 1].index] : keys[i].index;
  }
  /* distinct ids in order of first appearance: a leader precedes its copies */
  for (i = 0; i < n; ++i) {
    if (leader[i] == i) {
      tg->first[d] = i;
      tg->mu2[d] = rq->mu2[i];
      tg->nf[d] = (rq->nf && rq->nf[i] >= 0) ? rq->nf[i] : ekoc_plan_default_nf(s, rq->mu2[i]);
      tg->distinct[i] = d++;
    } else {
      tg->distinct[i] = tg->distinct[leader[i]];
    }
  }
  tg->n_distinct = d;
  free(keys);
  free(leader);
  return EKOC_OK;
}

void ekoc_targets_free(ekoc_targets *tg) {
  free(tg->distinct);
  free(tg->first);
  free(tg->mu2);
  free(tg->nf);
  memset(tg, 0, sizeof *tg);
}
