/* compose.h (private): the operator of every target, its parts multiplied
 * along its path (later parts on the left) with the basis rotation
 * nf -> nf+1 after each matching. */
#ifndef EKOC_EVOL_COMPOSE_H
#define EKOC_EVOL_COMPOSE_H

#include <stddef.h>

#include "ekoc.h"
#include "evol/basis.h"
#include "evol/plan.h"
#include "evol/targets.h"

/* *out: a new operator for the tg->n targets of the request (scales mu2, the
 * caller's array), holding one operator per distinct target, composed from
 * the parts of p (planned for the distinct targets, ekoc_run_parts done; rq
 * the request p was planned with). When n_failed > 0 (integrals that missed
 * their tolerance) it also composes each distinct target's taint, which
 * marks the entries a failure reaches; the parts without failures get their
 * clean taint here. Records the profile stage "composition". On error *out
 * is untouched. Messages name the first target index asking for an
 * operator. Errors: EKOC_ERR_NO_MEMORY, EKOC_ERR_NUMERICAL (a non-finite
 * composed entry). */
int ekoc_compose_operator(ekoc_plan *p, const ekoc_request *rq, const ekoc_targets *tg, const double *mu2,
                          size_t n_failed, ekoc_profile *prof, ekoc_operator **out);

/* The same operators handed out one distinct target at a time
 * (ekoc_compute_stream, include/ekoc/operator.h): each composed (values, then
 * its taint when n_failed > 0), checked finite, passed to fn for every
 * request index asking for it through a one-target view, and freed before the
 * next is composed; the shared path prefixes are kept as in
 * ekoc_compose_operator, so the bits are the same. Records "composition".
 * Errors: those of ekoc_compose_operator, EKOC_ERR_CANCELLED when fn returns
 * non-zero. */
int ekoc_compose_stream(ekoc_plan *p, const ekoc_request *rq, const ekoc_targets *tg, const double *mu2,
                        size_t n_failed, ekoc_profile *prof, ekoc_target_fn fn, void *data);

/* EKOC_ERR_NUMERICAL if a value or error of a target's operator (request
 * index t, scale mu2, for the message) is not finite: products of finite
 * parts can still overflow (e.g. the estimates of failed integrations on
 * extreme grids), and a NaN must never be handed out. */
int ekoc_compose_check_finite(const ekoc_blockop *op, size_t t, double mu2, int n_threads);

/* *out: a new operator for the tg->n targets of the request holding the
 * distinct targets' operators ops[0..tg->n_distinct-1] computed elsewhere
 * (the N-space backend, evol/nspace_engine.h) and, when n_failed > 0, their
 * taints; both are moved (left empty). On error *out is untouched and ops,
 * taints are kept. Errors: EKOC_ERR_NO_MEMORY. */
int ekoc_compose_adopt(const ekoc_targets *tg, const double *mu2, size_t nx, int32_t nf0, int32_t unified,
                       ekoc_blockop *ops, ekoc_blockop *taints, size_t n_failed, ekoc_operator **out);

/* Hands distinct target t (*value and, when n_failed > 0, *taint) to fn for
 * every request index asking for it, in index order (ekoc_compose_stream and
 * the N-space backend's stream), as a view naming `backend` the engine that
 * computed it (ekoc_operator_backend). Errors: EKOC_ERR_CANCELLED when fn returns
 * non-zero. */
int ekoc_compose_hand_out(const ekoc_targets *tg, const double *mu2, size_t t, int32_t nf0, int32_t unified,
                          int32_t backend, size_t n_failed, ekoc_blockop *value, ekoc_blockop *taint,
                          ekoc_target_fn fn, void *data);

/* The rotation applied with the matching step *st, a constant matrix on the
 * basis elements: forward B_lo -> B_hi after the OME, backward B_hi -> B_lo
 * before the inverse OME (lo = st->nf, hi = lo + 1); rounding residues below
 * 1e-14 are set to 0. (Also read by the size estimate, evol/estimate.h.) */
void ekoc_compose_matching_rotation(const ekoc_plan_step *st, double m[EKOC_NB][EKOC_NB]);

#endif /* EKOC_EVOL_COMPOSE_H */
