/* targets.h (private): the distinct targets of a request. Targets with the
 * same (mu^2, nf), after eko's default nf is resolved, are one operator:
 * computed and composed once, and every index that asked for it reads the
 * same storage (struct ekoc_operator keeps the index map). */
#ifndef EKOC_EVOL_TARGETS_H
#define EKOC_EVOL_TARGETS_H

#include <stddef.h>
#include <stdint.h>

#include "evol/plan.h"

typedef struct ekoc_targets {
  size_t n;          /* the request's targets */
  size_t n_distinct; /* distinct (mu2, nf) among them */
  size_t *distinct;  /* n: index of target i's distinct operator */
  size_t *first;     /* n_distinct: the first target index that asked for it */
  double *mu2;       /* n_distinct, in order of first appearance */
  int32_t *nf;       /* n_distinct: resolved (eko's default where the request gave < 0) */
} ekoc_targets;

/* *tg: the distinct targets of s->rq (validated), in order of first
 * appearance, so a request without duplicates keeps its order. *tg must be
 * all-zero before; free it with ekoc_targets_free whatever the outcome.
 * Errors: EKOC_ERR_NO_MEMORY. */
int ekoc_targets_new(const ekoc_plan_setup *s, ekoc_targets *tg);
void ekoc_targets_free(ekoc_targets *tg);

#endif /* EKOC_EVOL_TARGETS_H */
