/* cards.h (private): the caller's theory and request (eko's TheoryCard and
 * OperatorCard) read in this library's layout and validated. The public
 * side, ekoc_theory_init / ekoc_request_init and the *_sizeof helpers, is
 * defined in cards.c too. */
#ifndef EKOC_EVOL_CARDS_H
#define EKOC_EVOL_CARDS_H

#include "ekoc.h"

/* *th_full / *rq_full: the caller's first struct_size bytes of th / rq, this
 * library's defaults for the fields after them (callers built against an
 * older header). Errors: EKOC_ERR_INVALID_ARGUMENT when a struct_size is not
 * a layout this library knows. */
int ekoc_cards_upgrade(const ekoc_theory *th, const ekoc_request *rq, ekoc_theory *th_full, ekoc_request *rq_full);

/* The theory part of ekoc_cards_upgrade / ekoc_cards_check. */
int ekoc_cards_upgrade_theory(const ekoc_theory *th, ekoc_theory *th_full);
int ekoc_cards_check_theory(const ekoc_theory *th);

/* The theory, then the request against it: EKOC_OK, or the error of the
 * first field out of range (the message names it). */
int ekoc_cards_check(const ekoc_theory *th, const ekoc_request *rq);

#endif /* EKOC_EVOL_CARDS_H */
