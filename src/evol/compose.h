/* compose.h (private): the operator of every target, its parts multiplied
 * along its path (later parts on the left) with the basis rotation
 * nf -> nf+1 after each matching. */
#ifndef EKOC_EVOL_COMPOSE_H
#define EKOC_EVOL_COMPOSE_H

#include <stddef.h>

#include "ekoc.h"
#include "evol/plan.h"

/* *out: a new operator with every target of rq composed from the parts of p
 * (ekoc_run_parts done). When n_failed > 0 (integrals that missed their
 * tolerance) it also composes each target's taint, which marks the entries a
 * failure reaches; the parts without failures get their clean taint here.
 * Records the profile stage "composition". On error *out is untouched.
 * Errors: EKOC_ERR_NO_MEMORY, EKOC_ERR_NUMERICAL (a non-finite composed
 * entry). */
int ekoc_compose_operator(ekoc_plan *p, const ekoc_request *rq, size_t n_failed, ekoc_profile *prof,
                          ekoc_operator **out);

#endif /* EKOC_EVOL_COMPOSE_H */
