/* backend_choice.h (private): which engine a request with
 * EKOC_BACKEND_AUTO runs (docs/architecture.md, "Engines"). */
#ifndef EKOC_EVOL_BACKEND_CHOICE_H
#define EKOC_EVOL_BACKEND_CHOICE_H

#include <stdint.h>

#include "ekoc.h"
#include "quad/interp.h"

/* The engine for request rq (validated) on basis ip: rq's own
 * backend unless it is EKOC_BACKEND_AUTO; then the N-space engine, except
 * for two grid points closer than the band paths resolve (quad/band_plan.h),
 * which the batch engine computes. th: unused (every theory the card checks
 * pass is the N-space engine's). Never fails; leaves no error message behind. */
int32_t ekoc_backend_choose(const ekoc_theory *th, const ekoc_request *rq, const ekoc_interp *ip);

#endif /* EKOC_EVOL_BACKEND_CHOICE_H */
