/* compute.c: from theory + request to operators (ekoc_compute).
 *
 * 1. cards: the caller's structs in this library's layout, validated
 *    (evol/cards.h);
 * 2. targets: the distinct (mu^2, nf) of the request, each computed once
 *    (evol/targets.h);
 * 3. engine: the request's backend, or the one EKOC_BACKEND_AUTO chooses
 *    (evol/backend_choice.h), from the plan of step 4 built first;
 *    size: the bytes the computation will hold, refused above the memory
 *    budget (evol/estimate.h), and the worker threads, refused when the
 *    system will not create them (evol/threads.h) -- both before any work;
 * 4. plan: for every distinct target, eko's matched path from (mu_0^2, nf0):
 *    evolution segments at fixed nf separated by matchings at the
 *    heavy-quark thresholds (eko's Atlas.matched_path); identical parts of
 *    different targets are computed once; couplings at every segment end and
 *    threshold (forced-nf, eko's rules for scale variations) (evol/plan.h);
 * 5. every part inverted on the grid by the chosen quadrature driver into a
 *    block-sparse operator in the evolution basis of its nf (evol/run.h);
 * 6. composition per distinct target, later parts on the left, with the
 *    basis rotation nf -> nf+1 after each matching (evol/compose.h): all
 *    targets held in the result (ekoc_compute), or each handed to the
 *    caller's callback and freed before the next (ekoc_compute_stream).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "evol/backend_choice.h"
#include "evol/cards.h"
#include "evol/compose.h"
#include "evol/estimate.h"
#include "evol/nspace_engine.h"
#include "evol/operator_internal.h"
#include "evol/plan.h"
#include "evol/profile_stage.h"
#include "evol/run.h"
#include "evol/targets.h"
#include "evol/threads.h"
#include "status.h"

/* Stages 1-2: *th / *rq the validated cards, *setup (which points at them)
 * and *tg the distinct targets. On error nothing is held. */
static int read_request(const ekoc_theory *th_in, const ekoc_request *rq_in, ekoc_theory *th, ekoc_request *rq,
                        ekoc_plan_setup *setup, ekoc_targets *tg) {
  int rc = ekoc_cards_upgrade(th_in, rq_in, th, rq);
  if (rc == EKOC_OK) rc = ekoc_cards_check(th, rq);
  if (rc == EKOC_OK) rc = ekoc_plan_setup_new(setup, th, rq);
  if (rc != EKOC_OK) return rc;
  memset(tg, 0, sizeof *tg);
  rc = ekoc_targets_new(setup, tg);
  if (rc != EKOC_OK) {
    ekoc_targets_free(tg);
    ekoc_plan_setup_free(setup);
  }
  return rc;
}

/* The plan of the distinct targets (*distinct: the request with them, which
 * *setup points at), the basis and the engine (stage 3). The caller frees
 * *plan and *interp, also on error. */
static int choose_engine(const ekoc_theory *th, ekoc_request *rq, ekoc_request *distinct, ekoc_plan_setup *setup,
                         const ekoc_targets *tg, ekoc_plan *plan, ekoc_interp **interp) {
  int rc;
  *distinct = *rq;
  distinct->mu2 = tg->mu2;
  distinct->nf = tg->nf;
  distinct->n_targets = tg->n_distinct;
  setup->rq = distinct;
  memset(plan, 0, sizeof *plan);
  *interp = NULL;
  rc = ekoc_interp_alloc_ex(rq->xgrid, rq->nx, rq->degree, rq->interpolation_is_log, interp);
  if (rc == EKOC_OK) rc = ekoc_plan_build(setup, plan);
  if (rc == EKOC_OK) rq->backend = distinct->backend = ekoc_backend_choose(th, rq, *interp);
  return rc;
}

/* Stages 1-3 without the work: the engine, and (bytes) the estimate. */
static int look_ahead(const ekoc_theory *th_in, const ekoc_request *rq_in, int32_t *backend, size_t *bytes) {
  ekoc_theory th;
  ekoc_request rq, distinct;
  ekoc_plan_setup setup;
  ekoc_targets tg;
  ekoc_estimate est;
  ekoc_plan plan;
  ekoc_interp *interp = NULL;
  int rc;
  ekoc_error_clear();
  rc = read_request(th_in, rq_in, &th, &rq, &setup, &tg);
  if (rc != EKOC_OK) return rc;
  rc = choose_engine(&th, &rq, &distinct, &setup, &tg, &plan, &interp);
  if (rc == EKOC_OK) {
    ekoc_estimate_request_of(&rq, &tg, 0, th.qed_order > 0, &est);
    if (bytes) *bytes = est.total;
    if (backend) *backend = rq.backend;
  }
  ekoc_plan_free(&plan);
  ekoc_interp_free(interp);
  ekoc_targets_free(&tg);
  ekoc_plan_setup_free(&setup);
  return rc;
}

int ekoc_request_estimate_bytes(const ekoc_theory *th_in, const ekoc_request *rq_in, size_t *bytes) {
  if (!th_in || !rq_in || !bytes)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_request_estimate_bytes: theory, request and bytes must not be NULL");
  return look_ahead(th_in, rq_in, NULL, bytes);
}

int ekoc_request_backend(const ekoc_theory *th_in, const ekoc_request *rq_in, int32_t *backend) {
  if (!th_in || !rq_in || !backend)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_request_backend: theory, request and backend must not be NULL");
  return look_ahead(th_in, rq_in, backend, NULL);
}

/* The N-space backend (evol/nspace_engine.h): all distinct targets at once
 * into *out, or (fn) one at a time, each computed, checked and handed out
 * before the next. */
static int run_nspace(const ekoc_plan *plan, const ekoc_interp *interp, const ekoc_request *rq, const ekoc_targets *tg,
                      const double *mu2, ekoc_profile *prof, ekoc_operator **out, ekoc_target_fn fn, void *data) {
  size_t n = tg->n_distinct, chunk = fn ? EKOC_NSPACE_STREAM_TARGETS : n, t, i, j, n_failed = 0;
  ekoc_blockop *ops = calloc(n ? n : 1, sizeof *ops), *taints = calloc(n ? n : 1, sizeof *taints);
  int rc = ops && taints ? EKOC_OK : ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_compute: out of memory");
  for (i = 0; rc == EKOC_OK && i < n; ++i) {
    ekoc_blockop_init(&ops[i], rq->nx);
    ekoc_blockop_init(&taints[i], rq->nx);
  }
  for (t = 0; rc == EKOC_OK && t < n; t += chunk) {
    size_t count = n - t < chunk ? n - t : chunk;
    rc = ekoc_nspace_engine_run(plan, interp, rq, t, count, NULL, prof, ops + t, taints + t, &n_failed);
    for (j = t; fn && j < t + count; ++j) { /* the view's ekoc_operator_failures: the count so far */
      if (rc == EKOC_OK)
        rc = ekoc_compose_hand_out(tg, mu2, j, rq->nf0, plan->unified, rq->backend, n_failed, &ops[j], &taints[j],
                                   fn, data);
      ekoc_blockop_clear(&ops[j]);
      ekoc_blockop_clear(&taints[j]);
    }
  }
  if (rc == EKOC_OK && !fn)
    rc = ekoc_compose_adopt(tg, mu2, rq->nx, rq->nf0, plan->unified, ops, taints, n_failed, out);
  for (i = 0; ops && taints && i < n; ++i) {
    ekoc_blockop_clear(&ops[i]);
    ekoc_blockop_clear(&taints[i]);
  }
  free(ops);
  free(taints);
  return rc;
}

/* ekoc_compute (out) and ekoc_compute_stream (fn): stages 1-5, then the
 * composition held (ekoc_compose_operator) or streamed (ekoc_compose_stream). */
static int compute(const ekoc_theory *th_in, const ekoc_request *rq_in, ekoc_profile *prof, ekoc_operator **out,
                   ekoc_target_fn fn, void *data) {
  ekoc_theory th;
  ekoc_request rq, distinct;
  ekoc_plan_setup setup;
  ekoc_targets tg;
  ekoc_estimate est;
  ekoc_plan plan;
  ekoc_interp *interp = NULL;
  size_t n_failed = 0;
  uint64_t t0;
  int rc;

  ekoc_init();
  ekoc_error_clear();
  if (prof) ekoc_profile_reset(prof);
  t0 = ekoc_profile_now_ns(prof);
  rc = read_request(th_in, rq_in, &th, &rq, &setup, &tg);
  if (rc != EKOC_OK) return rc;
  /* from here on the request is its distinct targets (resolved nf) */
  rc = choose_engine(&th, &rq, &distinct, &setup, &tg, &plan, &interp);
  if (rc == EKOC_OK) {
    ekoc_estimate_request_of(&rq, &tg, fn != NULL, th.qed_order > 0, &est);
    rc = ekoc_estimate_check(&est, &tg, &rq, ekoc_estimate_budget(&rq),
                             fn ? "ekoc_compute_stream" : "ekoc_compute");
  }
  if (rc == EKOC_OK) rc = ekoc_threads_probe(est.threads);
  if (rc == EKOC_OK) ekoc_profile_stage(prof, "plan+couplings", t0);
  if (rc == EKOC_OK && rq.backend == EKOC_BACKEND_NSPACE) {
    rc = run_nspace(&plan, interp, &distinct, &tg, rq.mu2, prof, out, fn, data);
  } else if (rc == EKOC_OK) {
    rc = ekoc_run_parts(&plan, interp, &distinct, prof, &n_failed);
    if (rc == EKOC_OK && fn)
      rc = ekoc_compose_stream(&plan, &distinct, &tg, rq.mu2, n_failed, prof, fn, data);
    else if (rc == EKOC_OK)
      rc = ekoc_compose_operator(&plan, &distinct, &tg, rq.mu2, n_failed, prof, out);
  }
  if (rc == EKOC_OK && out) (*out)->backend = rq.backend;
  ekoc_plan_free(&plan);
  ekoc_interp_free(interp);
  ekoc_targets_free(&tg);
  ekoc_plan_setup_free(&setup);
  if (rc == EKOC_OK) ekoc_profile_stage(prof, "compute", t0);
  return rc;
}

int ekoc_compute(const ekoc_theory *th_in, const ekoc_request *rq_in, ekoc_profile *prof, ekoc_operator **out) {
  if (!th_in || !rq_in || !out)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_compute: theory, request and out must not be NULL");
  return compute(th_in, rq_in, prof, out, NULL, NULL);
}

int ekoc_compute_stream(const ekoc_theory *th_in, const ekoc_request *rq_in, ekoc_profile *prof, ekoc_target_fn fn,
                        void *data) {
  if (!th_in || !rq_in || !fn)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_compute_stream: theory, request and fn must not be NULL");
  return compute(th_in, rq_in, prof, NULL, fn, data);
}
