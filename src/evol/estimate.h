/* estimate.h (private): the bytes a computation will hold, known before any
 * work, and the memory budget it must fit (include/ekoc/operator.h
 * documents both for callers). An upper bound: every term counts the most
 * its stage can hold, from the request alone (grid size, distinct targets,
 * backend, rule, threads). */
#ifndef EKOC_EVOL_ESTIMATE_H
#define EKOC_EVOL_ESTIMATE_H

#include <stddef.h>

#include "ekoc.h"
#include "evol/targets.h"

typedef struct ekoc_estimate {
  size_t operators;   /* the distinct targets' operators and failure masks, and the index bookkeeping */
  size_t parts;       /* the parts' operators and masks, and the element matrices of the part being integrated */
  size_t composition; /* the composition's products and its shared path prefixes */
  size_t driver;      /* the quadrature driver: per-thread scratch, tables, the batch N-space cache */
  size_t total;       /* their sum (saturating: SIZE_MAX means "more than a size_t holds") */
  int threads;        /* worker threads counted in driver */
  int max_blocks;     /* the most nx x nx blocks of one composed operator (at any step of its path) */
} ekoc_estimate;

/* The number of nx x nx blocks the composed operator nf0 -> nf can hold
 * (the block pattern of eko's matched path, composed like evol/compose.c);
 * *max_blocks (may be NULL): the most along the path, intermediate products
 * included. */
int ekoc_estimate_target_blocks(int nf0, int nf, int *max_blocks);
/* The same for the unified bases of QED evolution (unified = 1) or B_nf (0). */
int ekoc_estimate_target_blocks_of(int nf0, int nf, int unified, int *max_blocks);

/* *e for the validated request rq and its distinct targets tg; streamed
 * (ekoc_compute_stream): one target's operator held at a time, the largest. */
void ekoc_estimate_request(const ekoc_request *rq, const ekoc_targets *tg, int streamed, ekoc_estimate *e);
/* The same for QED evolution (unified = 1: U_nf parts, the QED towers). */
void ekoc_estimate_request_of(const ekoc_request *rq, const ekoc_targets *tg, int streamed, int unified,
                              ekoc_estimate *e);

/* rq->memory_budget, or for 0 three quarters of physical memory (SIZE_MAX
 * when the system does not say). */
size_t ekoc_estimate_budget(const ekoc_request *rq);

/* EKOC_OK when e->total <= budget, else EKOC_ERR_NO_MEMORY with a message
 * beginning "<entry>: " (the public function called) and naming the
 * estimate, its terms and the budget (three significant digits, B to EB),
 * and request.memory_budget as given. */
int ekoc_estimate_check(const ekoc_estimate *e, const ekoc_targets *tg, const ekoc_request *rq, size_t budget,
                        const char *entry);

#endif /* EKOC_EVOL_ESTIMATE_H */
