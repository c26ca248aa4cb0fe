/* run.h (private): every part of a plan inverted on the x grid by the
 * request's quadrature driver (adaptive, batch or GPU) into a block-sparse
 * operator in the evolution basis of its nf. */
#ifndef EKOC_EVOL_RUN_H
#define EKOC_EVOL_RUN_H

#include <stddef.h>

#include "ekoc.h"
#include "evol/plan.h"

/* The batch backend integrates consecutive parts that need integrals
 * together, row by row (ekoc_quad_run_batch_jobs): at most this many, and
 * their element matrices within EKOC_RUN_GROUP_BYTES (a single part is
 * always allowed its own). */
#define EKOC_RUN_GROUP_JOBS 8
#define EKOC_RUN_GROUP_BYTES ((size_t)128 << 20)

/* Fills p->jobs[i].op for every job (and .taint for those with integrals
 * that missed their tolerance), in job order, recording one profile stage
 * per part (parts integrated together record the span of their group). The
 * batch backend shares one N-space cache among the parts: the
 * request's when it can be bound, else its own when several parts use it.
 * *n_failed is increased by the integrals that missed their tolerance.
 * Errors: those of the drivers (EKOC_ERR_CANCELLED by the progress callback
 * included) and EKOC_ERR_NO_MEMORY. */
int ekoc_run_parts(ekoc_plan *p, const ekoc_interp *interp, const ekoc_request *rq, ekoc_profile *prof,
                   size_t *n_failed);

#endif /* EKOC_EVOL_RUN_H */
