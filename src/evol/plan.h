/* plan.h (private): what a computation integrates and in which order it
 * multiplies the results. For every target, eko's matched path from
 * (mu_0^2, nf0) (eko's Atlas.matched_path): evolution segments at fixed nf
 * separated by matchings at the heavy-quark thresholds. A part (segment or
 * matching) shared by several targets is one job, computed once. */
#ifndef EKOC_EVOL_PLAN_H
#define EKOC_EVOL_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "ekoc.h"
#include "evol/blockop.h"

/* A part of the computation: one evolution segment or one matching. */
typedef struct ekoc_plan_job {
  int32_t is_matching;
  int32_t unity;    /* no integration: identity operator */
  int32_t nf;       /* segment nf, or the lower nf of a matching */
  double mu2_from, mu2_to;
  ekoc_nspace_config family[2];
  ekoc_blockop op; /* result, in B_nf (U_nf with QED) */
  /* only when some quadrature of the computation missed its tolerance: op's
   * values with error 1 at the entries whose integral failed, 0 elsewhere;
   * composed like op, its errors mark the entries a failure reaches */
  ekoc_blockop taint;
  size_t n_failed; /* integrals of this part that missed their tolerance */
  double *qed_couplings; /* QED segment: the step couplings its families point to (owned) */
} ekoc_plan_job;

/* How a step of a path acts on the operator composed so far. */
enum {
  EKOC_STEP_SEGMENT = 0,  /* evolution at fixed nf */
  EKOC_STEP_FORWARD = 1,  /* matching nf -> nf+1 */
  EKOC_STEP_BACKWARD = 2  /* inverse matching nf+1 -> nf */
};

/* One step of a target's path. */
typedef struct ekoc_plan_step {
  int32_t job;
  int32_t kind;     /* EKOC_STEP_* */
  int32_t nf;       /* segment nf / lower nf of the matching */
  int32_t unified;  /* 1: the parts live in the unified bases U_nf (QED), 0: in B_nf */
} ekoc_plan_step;

#define EKOC_PLAN_MAX_STEPS 7 /* at most 4 segments and 3 matchings */

typedef struct ekoc_plan {
  size_t n_jobs, cap_jobs;
  ekoc_plan_job *jobs;
  ekoc_plan_step (*steps)[EKOC_PLAN_MAX_STEPS];
  int32_t *n_steps; /* per target */
  int32_t *nf_out;  /* per target */
  int32_t unified;  /* QED: every part in U_nf (evol/basis.h), else B_nf */
} ekoc_plan;

/* What the plan reads from the (validated) theory and request. */
typedef struct ekoc_plan_setup {
  const ekoc_theory *th;
  const ekoc_request *rq;
  ekoc_couplings *couplings; /* owned: ekoc_plan_setup_free */
  double walls[5];           /* 0, the three thresholds (k_h m_h)^2, inf */
  double xif2;
  int32_t sv_mode; /* effective: NONE when xif = 1 */
  int32_t coupling_exact;
  int32_t matching_order;
} ekoc_plan_setup;

/* Fills *s from th and rq (which must outlive it) and builds its running
 * coupling (thresholds shifted by xif^2 in exponentiated mode, eko's
 * commons.couplings). Errors: those of ekoc_couplings_new; then *s owns
 * nothing. */
int ekoc_plan_setup_new(ekoc_plan_setup *s, const ekoc_theory *th, const ekoc_request *rq);
void ekoc_plan_setup_free(ekoc_plan_setup *s);

/* eko's default nf at mu2: 2 + the number of walls (0, the thresholds, inf)
 * at or below mu2, i.e. 3..6 for mu2 > 0. */
int ekoc_plan_default_nf(const ekoc_plan_setup *s, double mu2);

/* The paths of all targets and their jobs (couplings at every segment end
 * and threshold, eko's rules for scale variations); no integration yet.
 * *p must be all-zero before; free it with ekoc_plan_free whatever the
 * outcome. Errors: EKOC_ERR_NO_MEMORY, EKOC_ERR_INVALID_THRESHOLDS (a path
 * crossing inconsistent thresholds), EKOC_ERR_NUMERICAL (a_s not positive
 * and finite, e.g. beyond a Landau pole). */
int ekoc_plan_build(const ekoc_plan_setup *s, ekoc_plan *p);

/* Frees the jobs (with their operators) and the paths; *p is then unusable
 * until zeroed again. */
void ekoc_plan_free(ekoc_plan *p);

#endif /* EKOC_EVOL_PLAN_H */
