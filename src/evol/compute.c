/* compute.c: from theory + request to operators (ekoc_compute).
 *
 * 1. cards: the caller's structs in this library's layout, validated
 *    (evol/cards.h);
 * 2. plan: for every target, eko's matched path from (mu_0^2, nf0): evolution
 *    segments at fixed nf separated by matchings at the heavy-quark
 *    thresholds (eko's Atlas.matched_path); identical parts of different
 *    targets are computed once; couplings at every segment end and threshold
 *    (forced-nf, eko's rules for scale variations) (evol/plan.h);
 * 3. every part inverted on the grid by the chosen quadrature driver into a
 *    block-sparse operator in the evolution basis of its nf (evol/run.h);
 * 4. composition per target, later parts on the left, with the basis
 *    rotation nf -> nf+1 after each matching (evol/compose.h).
 */
#include <stddef.h>
#include <string.h>

#include "evol/cards.h"
#include "evol/compose.h"
#include "evol/plan.h"
#include "evol/profile_stage.h"
#include "evol/run.h"
#include "status.h"

int ekoc_compute(const ekoc_theory *th_in, const ekoc_request *rq_in, ekoc_profile *prof, ekoc_operator **out) {
  ekoc_theory th;
  ekoc_request rq;
  ekoc_plan_setup setup;
  ekoc_plan plan;
  ekoc_interp *interp = NULL;
  size_t n_failed = 0;
  uint64_t t0;
  int rc;

  if (!th_in || !rq_in || !out)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_compute: theory, request and out must not be NULL");
  ekoc_init();
  ekoc_error_clear();
  if (prof) ekoc_profile_reset(prof);
  t0 = ekoc_profile_now_ns(prof);
  rc = ekoc_cards_upgrade(th_in, rq_in, &th, &rq);
  if (rc == EKOC_OK) rc = ekoc_cards_check(&th, &rq);
  if (rc == EKOC_OK) rc = ekoc_plan_setup_new(&setup, &th, &rq);
  if (rc != EKOC_OK) return rc;

  memset(&plan, 0, sizeof plan);
  rc = ekoc_interp_alloc(rq.xgrid, rq.nx, rq.degree, &interp);
  if (rc == EKOC_OK) rc = ekoc_plan_build(&setup, &plan);
  if (rc == EKOC_OK) {
    ekoc_profile_stage(prof, "plan+couplings", t0);
    rc = ekoc_run_parts(&plan, interp, &rq, prof, &n_failed);
  }
  if (rc == EKOC_OK) rc = ekoc_compose_operator(&plan, &rq, n_failed, prof, out);
  ekoc_plan_free(&plan);
  ekoc_interp_free(interp);
  ekoc_plan_setup_free(&setup);
  if (rc == EKOC_OK) ekoc_profile_stage(prof, "compute", t0);
  return rc;
}
