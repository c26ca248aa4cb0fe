/* compute.c: from theory + request to operators.
 *
 * 1. plan: for every target, eko's matched path from (mu_0^2, nf0): evolution
 *    segments at fixed nf separated by matchings at the heavy-quark
 *    thresholds (eko's Atlas.matched_path); identical parts of different
 *    targets are computed once;
 * 2. couplings at every segment end and threshold (forced-nf, eko's rules
 *    for scale variations);
 * 3. every part inverted on the grid by the chosen quadrature driver into a
 *    block-sparse operator in the evolution basis of its nf;
 * 4. composition per target, later parts on the left, with the basis
 *    rotation nf -> nf+1 after each matching.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/axes.h"
#include "ad/beta.h"
#include "ad/nspace.h"
#include "evol/basis.h"
#include "evol/blockop.h"
#include "evol/couplings.h"
#include "evol/operator_internal.h"
#include "quad/interp.h"
#include "quad/job.h"
#include "quad/nspace_cache.h"
#include "status.h"

/* ---- defaults ----------------------------------------------------------------- */

/* The first versioned layouts (struct_size of a caller compiled against
 * them): fields are only appended after these, see include/ekoc/operator.h. */
#define THEORY_SIZE_V1 (offsetof(ekoc_theory, time_like) + sizeof(int32_t))
#define REQUEST_SIZE_V1 (offsetof(ekoc_request, nspace_cache) + sizeof(ekoc_nspace_cache *))

static void theory_defaults(ekoc_theory *t) {
  memset(t, 0, sizeof *t);
  t->struct_size = sizeof *t;
  t->order = 3;
  t->alphas = 0.35;
  t->mu2_ref = 2.0;
  t->nf_ref = 4;
  t->masses[0] = sqrt(2.0);
  t->masses[1] = 4.5;
  t->masses[2] = 175.0;
  t->matching_ratios[0] = t->matching_ratios[1] = t->matching_ratios[2] = 1.0;
  t->xif = 1.0;
  t->matching_order = -1;
  t->qed_order = 0;
  t->alphaem = 0.007496252; /* eko's TheoryCard default */
  t->em_running = 0;
  t->polarized = 0;
  t->time_like = 0;
}

static void request_defaults(ekoc_request *r) {
  memset(r, 0, sizeof *r);
  r->struct_size = sizeof *r;
  r->mu2_0 = 2.0;
  r->nf0 = 4;
  r->degree = 4;
  r->method = EKOC_METHOD_ITERATE_EXACT;
  r->ev_op_iterations = 10;
  r->ev_op_max_order = 10;
  r->sv_mode = EKOC_SV_NONE;
  r->inversion_method = EKOC_MATCHING_BACKWARD_EXPANDED;
  r->backend = EKOC_BACKEND_ADAPTIVE;
  r->epsabs = 1e-12;
  r->epsrel = 1e-5;
  r->limit = 100;
  r->mellin_cut = 5e-2;
  r->n_threads = 0;
  r->batch_panels = 1;  /* one Gauss-Kronrod panel of 36 Gauss / 73 Kronrod nodes: converged to a */
  r->batch_points = 36; /* small fraction of eko's tolerance (perf/STATS.md, tests/test_batch.c) */
}

static int check_struct_size(const char *what, size_t size, size_t v1, size_t full) {
  if (size < v1 || size > full)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT,
                      "%s.struct_size=%zu is not a layout this library knows (%zu..%zu): initialise it with "
                      "%s_default, and build against this library's headers",
                      what, size, v1, full, what);
  return EKOC_OK;
}

int ekoc_theory_init(ekoc_theory *t, size_t struct_size) {
  ekoc_theory full;
  int rc;
  if (!t) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_theory_init: theory is NULL");
  rc = check_struct_size("ekoc_theory", struct_size, THEORY_SIZE_V1, sizeof full);
  if (rc != EKOC_OK) return rc;
  theory_defaults(&full);
  full.struct_size = struct_size;
  memcpy(t, &full, struct_size);
  return EKOC_OK;
}

int ekoc_request_init(ekoc_request *r, size_t struct_size) {
  ekoc_request full;
  int rc;
  if (!r) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_request_init: request is NULL");
  rc = check_struct_size("ekoc_request", struct_size, REQUEST_SIZE_V1, sizeof full);
  if (rc != EKOC_OK) return rc;
  request_defaults(&full);
  full.struct_size = struct_size;
  memcpy(r, &full, struct_size);
  return EKOC_OK;
}

/* The caller's structs in this library's layout: its first struct_size
 * bytes, the defaults after them. */
static int upgrade_cards(const ekoc_theory *th, const ekoc_request *rq, ekoc_theory *th_full, ekoc_request *rq_full) {
  int rc = check_struct_size("ekoc_theory", th->struct_size, THEORY_SIZE_V1, sizeof *th_full);
  if (rc == EKOC_OK) rc = check_struct_size("ekoc_request", rq->struct_size, REQUEST_SIZE_V1, sizeof *rq_full);
  if (rc != EKOC_OK) return rc;
  theory_defaults(th_full);
  request_defaults(rq_full);
  memcpy(th_full, th, th->struct_size);
  memcpy(rq_full, rq, rq->struct_size);
  return EKOC_OK;
}

size_t ekoc_theory_sizeof(void) { return sizeof(ekoc_theory); }
size_t ekoc_request_sizeof(void) { return sizeof(ekoc_request); }

/* ---- validation ------------------------------------------------------------------ */

/* The physics axes: what the API describes, and what is computed yet. */
static int check_axes(const ekoc_theory *t) {
  if (t->order < 1 || t->order > EKOC_MAX_ORDER)
    return ekoc_error(EKOC_ERR_INVALID_ORDER, "theory.order=%d outside 1..%d", (int)t->order, EKOC_MAX_ORDER);
  if (t->qed_order < 0 || t->qed_order > EKOC_MAX_QED_ORDER)
    return ekoc_error(EKOC_ERR_INVALID_ORDER, "theory.qed_order=%d outside 0..%d", (int)t->qed_order,
                      EKOC_MAX_QED_ORDER);
  if (!isfinite(t->alphaem) || t->alphaem <= 0.0 || t->alphaem >= 4.0 * M_PI)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "theory.alphaem=%g must be finite and in (0, 4 pi)", t->alphaem);
  if (t->em_running != 0 && t->em_running != 1)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "theory.em_running=%d is neither 0 nor 1", (int)t->em_running);
  if (t->polarized != 0 && t->polarized != 1)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "theory.polarized=%d is neither 0 nor 1", (int)t->polarized);
  if (t->time_like != 0 && t->time_like != 1)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "theory.time_like=%d is neither 0 nor 1", (int)t->time_like);
  if (t->order > EKOC_IMPLEMENTED_ORDER)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "theory.order=%d (N3LO) is not implemented yet (1..%d)", (int)t->order,
                      EKOC_IMPLEMENTED_ORDER);
  if (t->qed_order > EKOC_IMPLEMENTED_QED_ORDER)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "theory.qed_order=%d: QED evolution is not implemented yet (only 0)",
                      (int)t->qed_order);
  if (t->polarized > EKOC_IMPLEMENTED_POLARIZED)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "theory.polarized=1: polarized evolution is not implemented yet");
  if (t->time_like > EKOC_IMPLEMENTED_TIME_LIKE)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "theory.time_like=1: time-like evolution is not implemented yet");
  return EKOC_OK;
}

static int check_theory(const ekoc_theory *t) {
  int h, rc = check_axes(t);
  if (rc != EKOC_OK) return rc;
  if (!isfinite(t->alphas) || t->alphas <= 0.0 || t->alphas >= 4.0 * M_PI)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "theory.alphas=%g must be finite and in (0, 4 pi)", t->alphas);
  if (!isfinite(t->mu2_ref) || t->mu2_ref <= 0.0)
    return ekoc_error(EKOC_ERR_INVALID_SCALE, "theory.mu2_ref=%g must be finite and > 0", t->mu2_ref);
  if (t->nf_ref < 3 || t->nf_ref > 6) return ekoc_error(EKOC_ERR_INVALID_NF, "theory.nf_ref=%d outside 3..6", (int)t->nf_ref);
  for (h = 0; h < 3; ++h) {
    if (!isfinite(t->masses[h]) || t->masses[h] <= 0.0)
      return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS, "theory.masses[%d]=%g must be finite and > 0", h, t->masses[h]);
    if (isnan(t->matching_ratios[h]) || t->matching_ratios[h] < 0.0)
      return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS, "theory.matching_ratios[%d]=%g must be >= 0 (inf allowed)", h,
                        t->matching_ratios[h]);
  }
  if (!(t->masses[0] <= t->masses[1] && t->masses[1] <= t->masses[2]))
    return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS, "theory.masses=(%g, %g, %g) are not ascending", t->masses[0],
                      t->masses[1], t->masses[2]);
  if (!isfinite(t->xif) || t->xif <= 0.0)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "theory.xif=%g must be finite and > 0", t->xif);
  if (t->matching_order < -1 || t->matching_order > EKOC_MAX_MATCHING_ORDER || t->matching_order > t->order - 1)
    return ekoc_error(EKOC_ERR_INVALID_ORDER, "theory.matching_order=%d outside -1..%d (and at most order-1=%d)",
                      (int)t->matching_order, EKOC_MAX_MATCHING_ORDER, (int)t->order - 1);
  return EKOC_OK;
}

static int check_request(const ekoc_request *r, const ekoc_theory *t) {
  size_t i;
  if (!isfinite(r->mu2_0) || r->mu2_0 <= 0.0)
    return ekoc_error(EKOC_ERR_INVALID_SCALE, "request.mu2_0=%g must be finite and > 0", r->mu2_0);
  if (r->nf0 < 3 || r->nf0 > 6) return ekoc_error(EKOC_ERR_INVALID_NF, "request.nf0=%d outside 3..6", (int)r->nf0);
  if (r->n_targets == 0) return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "request.n_targets is 0: nothing to compute");
  if (r->n_targets > 100000)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "request.n_targets=%zu exceeds 100000", r->n_targets);
  if (!r->mu2) return ekoc_error(EKOC_ERR_NULL_POINTER, "request.mu2 is NULL");
  for (i = 0; i < r->n_targets; ++i) {
    if (!isfinite(r->mu2[i]) || r->mu2[i] <= 0.0)
      return ekoc_error(EKOC_ERR_INVALID_SCALE, "request.mu2[%zu]=%g must be finite and > 0", i, r->mu2[i]);
    if (r->nf && r->nf[i] >= 0 && (r->nf[i] < 3 || r->nf[i] > 6))
      return ekoc_error(EKOC_ERR_INVALID_NF, "request.nf[%zu]=%d outside 3..6 (or < 0 for the default)", i,
                        (int)r->nf[i]);
  }
  if (!r->xgrid) return ekoc_error(EKOC_ERR_NULL_POINTER, "request.xgrid is NULL");
  if (r->nx < 2 || r->nx > 100000)
    return ekoc_error(EKOC_ERR_INVALID_GRID, "request.nx=%zu outside 2..100000", r->nx);
  for (i = 0; i < r->nx; ++i) {
    double x = r->xgrid[i];
    if (!isfinite(x) || x <= 0.0 || x > 1.0)
      return ekoc_error(EKOC_ERR_INVALID_GRID, "request.xgrid[%zu]=%g outside (0, 1]", i, x);
    if (i > 0 && !(x > r->xgrid[i - 1]))
      return ekoc_error(EKOC_ERR_INVALID_GRID, "request.xgrid[%zu]=%g not above xgrid[%zu]=%g (must be strictly ascending)",
                        i, x, i - 1, r->xgrid[i - 1]);
  }
  if (r->degree < 1 || (size_t)r->degree >= r->nx)
    return ekoc_error(EKOC_ERR_INVALID_DEGREE, "request.degree=%d outside 1..nx-1=%zu", (int)r->degree, r->nx - 1);
  if (r->method < 0 || r->method >= EKOC_METHOD_COUNT)
    return ekoc_error(EKOC_ERR_INVALID_METHOD, "request.method=%d is not an EKOC_METHOD_*", (int)r->method);
  if (r->ev_op_iterations < 1 || r->ev_op_iterations > EKOC_MAX_EV_OP_ITERATIONS)
    return ekoc_error(EKOC_ERR_INVALID_ITERATIONS, "request.ev_op_iterations=%d outside 1..%d",
                      (int)r->ev_op_iterations, EKOC_MAX_EV_OP_ITERATIONS);
  if (r->ev_op_max_order < 1 || r->ev_op_max_order > EKOC_MAX_EV_OP_MAX_ORDER)
    return ekoc_error(EKOC_ERR_INVALID_ITERATIONS, "request.ev_op_max_order=%d outside 1..%d",
                      (int)r->ev_op_max_order, EKOC_MAX_EV_OP_MAX_ORDER);
  if (r->sv_mode < EKOC_SV_NONE || r->sv_mode > EKOC_SV_EXPANDED)
    return ekoc_error(EKOC_ERR_INVALID_MODE, "request.sv_mode=%d is not an EKOC_SV_*", (int)r->sv_mode);
  if (r->sv_mode == EKOC_SV_NONE && t->xif != 1.0)
    return ekoc_error(EKOC_ERR_INVALID_MODE,
                      "theory.xif=%g != 1 needs request.sv_mode EKOC_SV_EXPONENTIATED or EKOC_SV_EXPANDED", t->xif);
  if (r->inversion_method != EKOC_MATCHING_BACKWARD_EXACT && r->inversion_method != EKOC_MATCHING_BACKWARD_EXPANDED)
    return ekoc_error(EKOC_ERR_INVALID_METHOD, "request.inversion_method=%d is not EKOC_MATCHING_BACKWARD_EXACT/EXPANDED",
                      (int)r->inversion_method);
  if (r->backend < EKOC_BACKEND_ADAPTIVE || r->backend > EKOC_BACKEND_GPU)
    return ekoc_error(EKOC_ERR_INVALID_MODE, "request.backend=%d is not an EKOC_BACKEND_*", (int)r->backend);
  if (!(r->epsabs >= 0.0) || !(r->epsrel >= 0.0) || !isfinite(r->epsabs) || !isfinite(r->epsrel) ||
      (r->epsabs == 0.0 && r->epsrel == 0.0))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "request tolerances epsabs=%g epsrel=%g invalid", r->epsabs, r->epsrel);
  if (r->limit < 1 || r->limit > 100000)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "request.limit=%d outside 1..100000", (int)r->limit);
  if (!(r->mellin_cut >= 0.0 && r->mellin_cut < 0.5))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "request.mellin_cut=%g outside [0, 0.5)", r->mellin_cut);
  if (r->n_threads < 0 || r->n_threads > 4096)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "request.n_threads=%d outside 0..4096", (int)r->n_threads);
  if (r->batch_panels < 1 || r->batch_panels > 4096 || r->batch_points < 1 || r->batch_points > 1024)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "request.batch_panels=%d / batch_points=%d outside 1..4096 / 1..1024",
                      (int)r->batch_panels, (int)r->batch_points);
  return EKOC_OK;
}

/* ---- plan ------------------------------------------------------------------------ */

/* A part of the computation: one evolution segment or one matching. */
typedef struct plan_job {
  int32_t is_matching;
  int32_t unity;    /* no integration: identity operator */
  int32_t nf;       /* segment nf, or the lower nf of a matching */
  double mu2_from, mu2_to;
  ekoc_nspace_config family[2];
  ekoc_blockop op; /* result, in B_nf */
  /* only when some quadrature of the computation missed its tolerance: op's
   * values with error 1 at the entries whose integral failed, 0 elsewhere;
   * composed like op, its errors mark the entries a failure reaches */
  ekoc_blockop taint;
  size_t n_failed; /* integrals of this part that missed their tolerance */
} plan_job;

/* One step of a target's path. */
typedef struct plan_step {
  int32_t job;
  int32_t kind;     /* 0 segment, 1 forward matching, 2 backward matching */
  int32_t nf;       /* segment nf / lower nf of the matching */
} plan_step;

#define MAX_STEPS 7 /* at most 4 segments and 3 matchings */

typedef struct plan {
  size_t n_jobs, cap_jobs;
  plan_job *jobs;
  plan_step (*steps)[MAX_STEPS];
  int32_t *n_steps; /* per target */
  int32_t *nf_out;  /* per target */
} plan;

static int isclose(double a, double b) { return fabs(a - b) <= 1e-8 + 1e-5 * fabs(b); }

/* eko's default nf at mu2: 2 + (number of walls <= mu2), walls = (0, thresholds, inf). */
static int nf_default(const double walls[5], double mu2) {
  int i = 0;
  while (i < 5 && walls[i] <= mu2) ++i;
  return 2 + i;
}

typedef struct setup {
  const ekoc_theory *th;
  const ekoc_request *rq;
  const ekoc_couplings *couplings;
  double walls[5];
  double xif2;
  int32_t sv_mode; /* effective: NONE when xif = 1 */
  int32_t coupling_exact;
  int32_t matching_order;
} setup;

static int find_or_add_job(plan *p, const plan_job *j) {
  size_t i;
  for (i = 0; i < p->n_jobs; ++i) {
    const plan_job *o = &p->jobs[i];
    if (o->is_matching == j->is_matching && o->unity == j->unity && o->nf == j->nf &&
        memcmp(o->family, j->family, sizeof o->family) == 0 && (!j->unity || (o->mu2_from == j->mu2_from)))
      return (int)i;
  }
  if (p->n_jobs == p->cap_jobs) {
    size_t cap = p->cap_jobs ? 2 * p->cap_jobs : 8;
    plan_job *nj = realloc(p->jobs, cap * sizeof *nj);
    if (!nj) return -1;
    p->jobs = nj;
    p->cap_jobs = cap;
  }
  p->jobs[p->n_jobs] = *j;
  ekoc_blockop_init(&p->jobs[p->n_jobs].op, 0);
  ekoc_blockop_init(&p->jobs[p->n_jobs].taint, 0);
  return (int)p->n_jobs++;
}

static int coupling_at(const setup *s, double mu2, int nf, double *a) {
  int rc = ekoc_couplings_a_s(s->couplings, mu2, nf, a);
  if (rc != EKOC_OK) return rc;
  if (!isfinite(*a) || *a <= 0.0)
    return ekoc_error(EKOC_ERR_NUMERICAL, "a_s(mu2=%g, nf=%d)=%g is not a positive finite number (Landau pole?)", mu2,
                      nf, *a);
  return EKOC_OK;
}

static void base_family(const setup *s, ekoc_nspace_config *f, int kind, int family, int nf) {
  memset(f, 0, sizeof *f);
  f->kind = kind;
  f->family = family;
  f->nf = nf;
  f->method = s->rq->method;
  f->ev_op_iterations = s->rq->ev_op_iterations;
  f->ev_op_max_order = s->rq->ev_op_max_order;
  f->sv_mode = s->sv_mode;
  f->sv_log = s->sv_mode == EKOC_SV_NONE ? 0.0 : log(s->xif2);
  f->polarized = s->th->polarized;
  f->time_like = s->th->time_like;
  ekoc_beta_coefficients(nf, f->beta);
}

static int add_segment(const setup *s, plan *p, double from, double to, int nf, plan_step *step) {
  plan_job j;
  int cliff = 0, h, fam, rc, idx;
  double mu2_0 = from, mu2_1 = to, a0, a1;
  for (h = 0; h < 5; ++h)
    if (to == s->walls[h]) cliff = 1;
  if (isinf(from) || isinf(to) || from <= 0.0 || to <= 0.0)
    return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS,
                      "the path to the target crosses a threshold at mu2=%g (nf=%d): thresholds inconsistent with "
                      "the requested flavour numbers",
                      from <= 0.0 || isinf(from) ? from : to, nf);
  memset(&j, 0, sizeof j);
  j.nf = nf;
  j.mu2_from = from;
  j.mu2_to = to;
  j.unity = isclose(from, to) && !(s->sv_mode == EKOC_SV_EXPANDED && !cliff);
  /* eko's Operator.mu2: exponentiated shifts both ends, expanded only a
   * segment that does not end on a threshold */
  if (s->sv_mode == EKOC_SV_EXPONENTIATED) {
    mu2_0 *= s->xif2;
    mu2_1 *= s->xif2;
  } else if (s->sv_mode == EKOC_SV_EXPANDED && !cliff) {
    mu2_1 *= s->xif2;
  }
  rc = coupling_at(s, mu2_0, nf, &a0);
  if (rc == EKOC_OK) rc = coupling_at(s, mu2_1, nf, &a1);
  if (rc != EKOC_OK) return rc;
  for (fam = 0; fam < 2; ++fam) {
    base_family(s, &j.family[fam], EKOC_KIND_EVOLUTION, fam, nf);
    j.family[fam].order = s->th->order;
    j.family[fam].is_threshold = cliff;
    j.family[fam].a0 = a0;
    j.family[fam].a1 = a1;
  }
  idx = find_or_add_job(p, &j);
  if (idx < 0) return ekoc_error(EKOC_ERR_NO_MEMORY, "out of memory while planning");
  step->job = idx;
  step->kind = 0;
  step->nf = nf;
  return EKOC_OK;
}

static int add_matching(const setup *s, plan *p, double scale, int hq, int backward, plan_step *step) {
  plan_job j;
  int fam, rc, idx;
  double a, k = s->th->matching_ratios[hq - 4];
  double mu2 = s->sv_mode == EKOC_SV_EXPONENTIATED ? scale * s->xif2 : scale;
  memset(&j, 0, sizeof j);
  j.is_matching = 1;
  j.nf = hq - 1;
  j.mu2_from = j.mu2_to = scale;
  j.unity = s->matching_order == 0;
  rc = coupling_at(s, mu2, hq, &a);
  if (rc != EKOC_OK) return rc;
  for (fam = 0; fam < 2; ++fam) {
    base_family(s, &j.family[fam], EKOC_KIND_MATCHING, fam, hq - 1);
    j.family[fam].order = s->matching_order;
    j.family[fam].a1 = a;
    j.family[fam].ome_log = log(k * k);
    j.family[fam].matching_method = backward ? s->rq->inversion_method : EKOC_MATCHING_FORWARD;
  }
  idx = find_or_add_job(p, &j);
  if (idx < 0) return ekoc_error(EKOC_ERR_NO_MEMORY, "out of memory while planning");
  step->job = idx;
  step->kind = backward ? 2 : 1;
  step->nf = hq - 1;
  return EKOC_OK;
}

/* eko's Atlas.path + matched_path for one target. */
static int plan_target(const setup *s, plan *p, size_t t) {
  const ekoc_request *rq = s->rq;
  double mu2f = rq->mu2[t], bounds[6];
  int nf0 = rq->nf0, nff = (rq->nf && rq->nf[t] >= 0) ? rq->nf[t] : nf_default(s->walls, rq->mu2[t]);
  int down = nff < nf0, rc_step = down ? -1 : 1, nb = 0, i, ns = 0, rc;
  int nseg;
  plan_step *steps = p->steps[t];
  if (nff < 3 || nff > 6)
    return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS, "default nf=%d at target mu2=%g is outside 3..6", nff, mu2f);
  bounds[nb++] = rq->mu2_0;
  /* walls crossed: upward nf -> nf+1 at walls[nf-2], downward nf -> nf-1 at walls[nf-3] */
  if (!down)
    for (i = nf0; i < nff; ++i) bounds[nb++] = s->walls[i - 2];
  else
    for (i = nf0; i > nff; --i) bounds[nb++] = s->walls[i - 3];
  bounds[nb++] = mu2f;
  nseg = nb - 1;
  for (i = 0; i < nseg; ++i) {
    int nf = nf0 + i * rc_step;
    if (i > 0) {
      /* matching between segment i-1 (nf - rc_step) and segment i (nf) */
      int prev_nf = nf - rc_step, hq = prev_nf > nf ? prev_nf : nf;
      int backward = nseg > 1 ? (nf < prev_nf) : 0;
      rc = add_matching(s, p, bounds[i], hq, backward, &steps[ns++]);
      if (rc != EKOC_OK) return rc;
    }
    rc = add_segment(s, p, bounds[i], bounds[i + 1], nf, &steps[ns++]);
    if (rc != EKOC_OK) return rc;
  }
  p->n_steps[t] = ns;
  p->nf_out[t] = nff;
  return EKOC_OK;
}

static void plan_free(plan *p) {
  size_t i;
  for (i = 0; i < p->n_jobs; ++i) {
    ekoc_blockop_clear(&p->jobs[i].op);
    ekoc_blockop_clear(&p->jobs[i].taint);
  }
  free(p->jobs);
  free(p->steps);
  free(p->n_steps);
  free(p->nf_out);
}

/* ---- running the parts ----------------------------------------------------------- */

/* Elements of a job: (family, element, diagonal, where it goes). */
typedef struct element_map {
  int32_t family, element, diagonal;
} element_map;

static int job_elements(const plan_job *j, element_map *m) {
  int n = 0, e;
  if (!j->is_matching) {
    int order = j->family[0].order;
    for (e = 0; e < order && e < 3; ++e) m[n++] = (element_map){EKOC_FAMILY_NS, e, 1};
    for (e = 0; e < 4; ++e) m[n++] = (element_map){EKOC_FAMILY_SINGLET, e, e == 0 || e == 3};
  } else {
    m[n++] = (element_map){EKOC_FAMILY_NS, 0, 1};
    m[n++] = (element_map){EKOC_FAMILY_NS, 1, 1};
    for (e = 0; e < 9; ++e) m[n++] = (element_map){EKOC_FAMILY_SINGLET, e, e == 0 || e == 4 || e == 8};
  }
  return n;
}

/* Slots of a matching singlet index (g, q, H) for heavy quark hq. */
static int matching_singlet_slot(int idx, int hq) {
  return idx == 0 ? EKOC_SLOT_G : idx == 1 ? EKOC_SLOT_SIGMA : ekoc_slot_t(hq);
}

/* Places the element matrices of a job into the block operator *op (B_nf). */
static int assemble_job(const plan_job *j, ekoc_blockop *op, size_t nx, const element_map *m, int n_el,
                        double *const *val, double *const *err) {
  int nf = j->nf, k, e, ok = 1;
  ekoc_blockop_init(op, nx);
  if (!j->is_matching) {
    /* non-singlet: index of the distinct element holding ns+, ns-, nsV */
    int idx[3] = {0, 0, 0}, ns_count = 0;
    for (e = 0; e < n_el; ++e)
      if (m[e].family == EKOC_FAMILY_NS) ++ns_count;
    idx[1] = ns_count >= 2 ? 1 : 0;
    idx[2] = ns_count >= 3 ? 2 : idx[1];
    ok &= ekoc_blockop_set(op, EKOC_SLOT_V, EKOC_SLOT_V, val[idx[2]], err[idx[2]]);
    for (k = 2; k <= 6; ++k) {
      if (k <= nf) {
        ok &= ekoc_blockop_set(op, ekoc_slot_v(k), ekoc_slot_v(k), val[idx[1]], err[idx[1]]);
        ok &= ekoc_blockop_set(op, ekoc_slot_t(k), ekoc_slot_t(k), val[idx[0]], err[idx[0]]);
      } else { /* intrinsic heavy flavours evolve with the identity */
        ok &= ekoc_blockop_set_identity(op, ekoc_slot_v(k), ekoc_slot_v(k));
        ok &= ekoc_blockop_set_identity(op, ekoc_slot_t(k), ekoc_slot_t(k));
      }
    }
    ok &= ekoc_blockop_set(op, EKOC_SLOT_SIGMA, EKOC_SLOT_SIGMA, val[ns_count + 0], err[ns_count + 0]);
    ok &= ekoc_blockop_set(op, EKOC_SLOT_SIGMA, EKOC_SLOT_G, val[ns_count + 1], err[ns_count + 1]);
    ok &= ekoc_blockop_set(op, EKOC_SLOT_G, EKOC_SLOT_SIGMA, val[ns_count + 2], err[ns_count + 2]);
    ok &= ekoc_blockop_set(op, EKOC_SLOT_G, EKOC_SLOT_G, val[ns_count + 3], err[ns_count + 3]);
  } else {
    int hq = nf + 1;
    /* light non-singlets and the valence get the (200,200) element, h- the (91,91) one */
    ok &= ekoc_blockop_set(op, EKOC_SLOT_V, EKOC_SLOT_V, val[0], err[0]);
    for (k = 2; k <= nf; ++k) {
      ok &= ekoc_blockop_set(op, ekoc_slot_v(k), ekoc_slot_v(k), val[0], err[0]);
      ok &= ekoc_blockop_set(op, ekoc_slot_t(k), ekoc_slot_t(k), val[0], err[0]);
    }
    ok &= ekoc_blockop_set(op, ekoc_slot_v(hq), ekoc_slot_v(hq), val[1], err[1]);
    for (k = hq + 1; k <= 6; ++k) {
      ok &= ekoc_blockop_set_identity(op, ekoc_slot_v(k), ekoc_slot_v(k));
      ok &= ekoc_blockop_set_identity(op, ekoc_slot_t(k), ekoc_slot_t(k));
    }
    for (e = 0; e < 9; ++e) {
      int a = matching_singlet_slot(e / 3, hq), b = matching_singlet_slot(e % 3, hq);
      ok &= ekoc_blockop_set(op, a, b, val[2 + e], err[2 + e]);
    }
  }
  if (!ok) {
    ekoc_blockop_clear(op);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "out of memory assembling an operator part");
  }
  return EKOC_OK;
}

/* Identity values for a unity part: 1 on the diagonal of diagonal elements. */
static void unity_element(size_t nx, int diagonal, double *v) {
  size_t i;
  memset(v, 0, nx * nx * sizeof(double));
  if (diagonal)
    for (i = 0; i < nx; ++i) v[i * nx + i] = 1.0;
}

/* Whether family element e is independent of N, probed at three unrelated
 * points; then *c is its value. Matching elements whose OME terms vanish
 * (e.g. every non-intrinsic entry at NLO with L = 0) are such constants: the
 * inverse Mellin transform of c p_j(N) at x_k is exactly c delta_kj, while
 * the quadrature of a non-decaying integrand would only approach it slowly. */
static int element_constant(const ekoc_nspace_config *cfg, int e, double *c, int *rc) {
  static const double probe[3][2] = {{2.3, 0.7}, {3.1, -2.9}, {5.7, 11.3}};
  ekoc_complex v[3][EKOC_NSPACE_MAX_ELEMENTS];
  int i;
  for (i = 0; i < 3; ++i) {
    *rc = ekoc_nspace_eval(cfg, c_make(probe[i][0], probe[i][1]), v[i]);
    if (*rc != EKOC_OK) return 0;
    /* NaN compares unequal to nothing below: leave such an element to the
     * quadrature, which reports it */
    if (!isfinite(v[i][e].re) || !isfinite(v[i][e].im)) return 0;
  }
  for (i = 1; i < 3; ++i) {
    double scale = fmax(1.0, c_abs(v[0][e]));
    if (c_abs(c_sub(v[i][e], v[0][e])) > 1e-14 * scale) return 0;
  }
  if (fabs(v[0][e].im) > 1e-14 * fmax(1.0, fabs(v[0][e].re))) return 0;
  *c = v[0][e].re;
  return 1;
}

/* c * delta_kj with eko's conventions for the x = 1 row and the corner. */
static void constant_element(const ekoc_interp *interp, int diagonal, double c, double *v) {
  size_t nx = interp->n, k;
  memset(v, 0, nx * nx * sizeof(double));
  for (k = 0; k + 1 < nx; ++k)
    if (interp->logx[k] != 0.0) v[k * nx + k] = c;
  v[(nx - 1) * nx + nx - 1] = diagonal ? 1.0 : 0.0;
}

static int run_job(plan_job *j, const ekoc_interp *interp, const ekoc_request *rq, ekoc_quad_progress *progress,
                   ekoc_profile *prof, ekoc_nspace_cache *nspace_cache, size_t *n_failed) {
  element_map m[EKOC_JOB_MAX_ELEMENTS];
  double *val[EKOC_JOB_MAX_ELEMENTS] = {0}, *err[EKOC_JOB_MAX_ELEMENTS] = {0};
  uint8_t *flag[EKOC_JOB_MAX_ELEMENTS] = {0};
  size_t nx = interp->n, failed = 0, k;
  int n_el = job_elements(j, m), e, rc = EKOC_OK;
  for (e = 0; e < n_el; ++e) {
    val[e] = calloc(nx * nx, sizeof(double));
    err[e] = calloc(nx * nx, sizeof(double));
    flag[e] = calloc(nx * nx, sizeof(uint8_t));
    if (!val[e] || !err[e] || !flag[e]) {
      rc = ekoc_error(EKOC_ERR_NO_MEMORY, "out of memory for %zu x %zu operator elements", nx, nx);
      goto done;
    }
  }
  if (j->unity) {
    for (e = 0; e < n_el; ++e) unity_element(nx, m[e].diagonal, val[e]);
  } else {
    ekoc_quad_job job;
    ekoc_quad_settings qs;
    memset(&job, 0, sizeof job);
    job.interp = interp;
    job.n_families = 2;
    job.family[0] = j->family[0];
    job.family[1] = j->family[1];
    for (e = 0; e < 2; ++e) {
      rc = ekoc_nspace_cfg_check(&job.family[e]);
      if (rc != EKOC_OK) goto done;
    }
    job.n_elements = 0;
    for (e = 0; e < n_el; ++e) {
      ekoc_quad_element *el = &job.elements[job.n_elements];
      double c;
      if (element_constant(&j->family[m[e].family], m[e].element, &c, &rc)) {
        constant_element(interp, m[e].diagonal, c, val[e]);
        continue;
      }
      if (rc != EKOC_OK) goto done;
      el->family = m[e].family;
      el->element = m[e].element;
      el->diagonal = m[e].diagonal;
      /* a matching is 1 + O(a_s) on its diagonal: invert only the O(a_s) part
       * and add the identity exactly (eko inverts the 1 numerically too, up
       * to the path cut at 1 - mellin_cut: a difference of order 1e-7) */
      el->subtract = (j->is_matching && m[e].diagonal) ? 1.0 : 0.0;
      el->value = val[e];
      el->error = err[e];
      el->failed = flag[e];
      job.n_elements++;
    }
    qs.epsabs = rq->epsabs;
    qs.epsrel = rq->epsrel;
    qs.cut = rq->mellin_cut;
    qs.limit = (size_t)rq->limit;
    qs.n_threads = rq->n_threads;
    qs.batch_panels = rq->batch_panels;
    qs.batch_points = rq->batch_points;
    qs.progress = progress;
    qs.profile = prof;
    qs.nspace_cache = nspace_cache;
    if (job.n_elements == 0)
      rc = EKOC_OK;
    else if (rq->backend == EKOC_BACKEND_ADAPTIVE)
      rc = ekoc_quad_run_adaptive(&job, &qs, &failed);
    else if (rq->backend == EKOC_BACKEND_BATCH)
      rc = ekoc_quad_run_batch(&job, &qs, &failed);
    else
      rc = ekoc_quad_run_gpu(&job, &qs, &failed);
    if (rc != EKOC_OK) goto done;
  }
  rc = assemble_job(j, &j->op, nx, m, n_el, val, err);
  if (rc == EKOC_OK && failed > 0) {
    /* the failed entries, placed like the values (errors 1 / 0) */
    for (e = 0; e < n_el; ++e)
      for (k = 0; k < nx * nx; ++k) err[e][k] = flag[e][k] ? 1.0 : 0.0;
    rc = assemble_job(j, &j->taint, nx, m, n_el, val, err);
  }
  j->n_failed = failed;
  *n_failed += failed;
done:
  for (e = 0; e < n_el; ++e) {
    free(val[e]);
    free(err[e]);
    free(flag[e]);
  }
  return rc;
}

/* The taint of a part without failures: its values, zero errors. Returns 0
 * on no memory. */
static int taint_clean(plan_job *j) {
  int a, b, ok = 1;
  ekoc_blockop_init(&j->taint, j->op.nx);
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b)
      if (j->op.val[a][b]) ok &= ekoc_blockop_set(&j->taint, a, b, j->op.val[a][b], NULL);
  return ok;
}

/* ---- composition -------------------------------------------------------------------- */

/* The states of the last target composed after each of its steps but the
 * last: targets above the same thresholds share their path up to the final
 * segment (a scan of 50 scales above m_b: segment, matching, then one
 * segment each), so a target whose path starts with the same steps (same
 * parts, same kinds) resumes from the stored state. The same products in the
 * same order: the same bits as composing from the start. */
typedef struct compose_memo {
  size_t t;                        /* the target the states belong to */
  int n;                           /* states held: after steps 0..n-1 */
  ekoc_blockop state[MAX_STEPS];
} compose_memo;

static void compose_memo_init(compose_memo *m, size_t nx) {
  int s;
  m->t = 0;
  m->n = 0;
  for (s = 0; s < MAX_STEPS; ++s) ekoc_blockop_init(&m->state[s], nx);
}

static void compose_memo_clear(compose_memo *m) {
  int s;
  for (s = 0; s < MAX_STEPS; ++s) ekoc_blockop_clear(&m->state[s]);
  m->n = 0;
}

/* Leading steps of target t's path equal to the memo's target's, at most
 * n_steps[t] - 1 (the last step is always computed). */
static int compose_memo_common(const plan *p, const compose_memo *m, size_t t) {
  int s, limit = p->n_steps[t] - 1;
  if (!m) return 0;
  if (limit > m->n) limit = m->n;
  for (s = 0; s < limit; ++s) {
    const plan_step *a = &p->steps[t][s], *b = &p->steps[m->t][s];
    if (a->job != b->job || a->kind != b->kind || a->nf != b->nf) break;
  }
  return s;
}

/* The operator of target t: its parts' op (taint = 0) or taint (taint = 1)
 * multiplied along its path. memo (may be NULL) holds the previous target's
 * intermediate states and receives this target's. */
static int compose_target(const plan *p, size_t t, size_t nx, int taint, int n_threads, compose_memo *memo,
                          ekoc_blockop *out) {
  ekoc_blockop cur, tmp, tmp2;
  int s, a, ok = 1, s0 = compose_memo_common(p, memo, t);
  ekoc_blockop_init(&cur, nx);
  ekoc_blockop_init(&tmp, nx);
  ekoc_blockop_init(&tmp2, nx);
  if (s0 > 0) ok &= ekoc_blockop_copy(&cur, &memo->state[s0 - 1]);
  if (memo) memo->n = s0; /* states beyond the shared steps are replaced by this target's */
  for (s = s0; ok && s < p->n_steps[t]; ++s) {
    const plan_step *st = &p->steps[t][s];
    const ekoc_blockop *part = taint ? &p->jobs[st->job].taint : &p->jobs[st->job].op;
    if (s == 0) { /* paths start with a segment: take it as is instead of multiplying the identity */
      if (st->kind == 0) {
        ok &= ekoc_blockop_copy(&cur, part);
        goto store;
      }
      for (a = 0; a < EKOC_NB; ++a) ok &= ekoc_blockop_set_identity(&cur, a, a);
    }
    if (st->kind == 0) { /* segment */
      ok &= ekoc_blockop_mul(part, &cur, &tmp, n_threads);
      ekoc_blockop_move(&cur, &tmp);
    } else {
      double r_hi[EKOC_NB][EKOC_NB], r_lo[EKOC_NB][EKOC_NB], rinv[EKOC_NB][EKOC_NB], m[EKOC_NB][EKOC_NB];
      int i, j, k;
      int lo = st->nf, hi = st->nf + 1;
      if (st->kind == 1) { /* forward: B_lo -> (OME) -> B_lo -> rotate -> B_hi */
        ekoc_basis_rotation(hi, r_hi);
        ekoc_basis_rotation_inverse(lo, rinv);
      } else { /* backward: B_hi -> rotate -> B_lo -> (inverse OME) */
        ekoc_basis_rotation(lo, r_lo);
        ekoc_basis_rotation_inverse(hi, rinv);
        memcpy(r_hi, r_lo, sizeof r_hi);
      }
      for (i = 0; i < EKOC_NB; ++i)
        for (j = 0; j < EKOC_NB; ++j) {
          double acc = 0.0;
          for (k = 0; k < EKOC_NB; ++k) acc += r_hi[i][k] * rinv[k][j];
          m[i][j] = fabs(acc) < 1e-14 ? 0.0 : acc;
        }
      if (st->kind == 1) {
        ok &= ekoc_blockop_mul(part, &cur, &tmp, n_threads);
        ok &= ekoc_blockop_rotate_left(m, &tmp, &tmp2);
      } else {
        ok &= ekoc_blockop_rotate_left(m, &cur, &tmp);
        ok &= ekoc_blockop_mul(part, &tmp, &tmp2, n_threads);
      }
      ekoc_blockop_move(&cur, &tmp2);
    }
  store:
    if (memo && ok && s + 1 < p->n_steps[t]) {
      ok &= ekoc_blockop_copy(&memo->state[s], &cur);
      memo->n = s + 1;
    }
  }
  if (memo) memo->t = t;
  ekoc_blockop_clear(&tmp);
  ekoc_blockop_clear(&tmp2);
  if (!ok) {
    ekoc_blockop_clear(&cur);
    if (memo) compose_memo_clear(memo);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "out of memory composing the operator of target %zu", t);
  }
  *out = cur;
  return EKOC_OK;
}

/* EKOC_ERR_NUMERICAL if a value or error of a composed operator is not
 * finite: products of finite parts can still overflow (e.g. the estimates of
 * failed integrations on extreme grids), and a NaN must never be handed out. */
static int check_finite(const ekoc_blockop *op, size_t t, double mu2) {
  size_t n = op->nx * op->nx, e;
  int a, b;
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) {
      const double *v = op->val[a][b], *er = op->err[a][b];
      if (!v) continue;
      for (e = 0; e < n; ++e)
        if (!isfinite(v[e]) || !isfinite(er[e]))
          return ekoc_error(EKOC_ERR_NUMERICAL,
                            "the operator of target %zu (mu2=%g) has a non-finite entry %g +- %g (block %d,%d, x index "
                            "%zu,%zu): overflow in the composition of its parts",
                            t, mu2, v[e], er[e], a, b, e / op->nx, e % op->nx);
    }
  return EKOC_OK;
}

/* ---- entry point ------------------------------------------------------------------------ */

static void stage(ekoc_profile *prof, const char *name, uint64_t t0) {
  ekoc_profile_store(prof, name, t0, ekoc_profile_now_ns(prof));
}

/* The batch backend's N-space cache for this computation (quad/nspace_cache.h),
 * bound to its grid and rule: the caller's when it is free, else one of its
 * own (*own, freed by the caller) when several parts (total_rows > nx) can
 * share it; *cache NULL when there is none. */
static int take_nspace_cache(const ekoc_request *rq, const ekoc_interp *interp, uint64_t total_rows,
                             ekoc_nspace_cache **cache, ekoc_nspace_cache **own) {
  int rc;
  *cache = *own = NULL;
  if (rq->backend != EKOC_BACKEND_BATCH) return EKOC_OK;
  if (rq->nspace_cache && ekoc_nspace_cache_bind(rq->nspace_cache, interp->logx, interp->n, rq->degree,
                                                 rq->batch_panels, rq->batch_points, rq->mellin_cut)) {
    *cache = rq->nspace_cache;
    return EKOC_OK;
  }
  if (total_rows <= rq->nx) return EKOC_OK;
  rc = ekoc_nspace_cache_new(0, own);
  if (rc != EKOC_OK) return rc;
  if (ekoc_nspace_cache_bind(*own, interp->logx, interp->n, rq->degree, rq->batch_panels, rq->batch_points,
                             rq->mellin_cut))
    *cache = *own;
  return EKOC_OK;
}

int ekoc_compute(const ekoc_theory *th_in, const ekoc_request *rq_in, ekoc_profile *prof, ekoc_operator **out) {
  ekoc_theory th_full;
  ekoc_request rq_full;
  const ekoc_theory *th = &th_full;
  const ekoc_request *rq = &rq_full;
  setup s;
  plan p;
  ekoc_couplings *couplings = NULL;
  ekoc_couplings_config cc;
  ekoc_interp *interp = NULL;
  ekoc_operator *op = NULL;
  ekoc_quad_progress progress;
  ekoc_nspace_cache *nspace_cache = NULL, *own_cache = NULL;
  compose_memo memo;
  size_t t, i, n_failed = 0;
  uint64_t t0;
  int rc, h;

  if (!th_in || !rq_in || !out)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_compute: theory, request and out must not be NULL");
  ekoc_init();
  ekoc_error_clear();
  if (prof) ekoc_profile_reset(prof);
  t0 = ekoc_profile_now_ns(prof);
  rc = upgrade_cards(th_in, rq_in, &th_full, &rq_full);
  if (rc != EKOC_OK) return rc;
  rc = check_theory(th);
  if (rc == EKOC_OK) rc = check_request(rq, th);
  if (rc != EKOC_OK) return rc;

  memset(&p, 0, sizeof p);
  memset(&s, 0, sizeof s);
  s.th = th;
  s.rq = rq;
  s.xif2 = th->xif * th->xif;
  s.sv_mode = th->xif == 1.0 ? EKOC_SV_NONE : rq->sv_mode;
  s.coupling_exact = rq->method == EKOC_METHOD_ITERATE_EXACT || rq->method == EKOC_METHOD_DECOMPOSE_EXACT ||
                     rq->method == EKOC_METHOD_PERTURBATIVE_EXACT;
  s.matching_order = th->matching_order < 0 ? th->order - 1 : th->matching_order;
  s.walls[0] = 0.0;
  for (h = 0; h < 3; ++h) {
    double k = th->matching_ratios[h], m = th->masses[h];
    s.walls[h + 1] = isinf(k) ? INFINITY : k * k * m * m;
  }
  s.walls[4] = INFINITY;

  /* couplings: thresholds shifted by xif^2 in exponentiated mode (eko's commons.couplings) */
  ekoc_couplings_config_default(&cc);
  cc.order = th->order;
  cc.mode = s.coupling_exact ? EKOC_COUPLING_EXACT : EKOC_COUPLING_EXPANDED;
  cc.alphas_ref = th->alphas;
  cc.mu2_ref = th->mu2_ref;
  cc.nf_ref = th->nf_ref;
  for (h = 0; h < 3; ++h) {
    cc.masses2[h] = th->masses[h] * th->masses[h];
    cc.thresholds_ratio2[h] = th->matching_ratios[h] * th->matching_ratios[h];
  }
  cc.threshold_shift = s.sv_mode == EKOC_SV_EXPONENTIATED ? s.xif2 : 1.0;
  cc.max_nf = 6;
  rc = ekoc_couplings_new(&cc, &couplings);
  if (rc != EKOC_OK) return rc;
  s.couplings = couplings;

  compose_memo_init(&memo, rq->nx); /* before the first goto fail, which clears it */
  rc = ekoc_interp_alloc(rq->xgrid, rq->nx, rq->degree, &interp);
  if (rc != EKOC_OK) goto fail;

  p.steps = calloc(rq->n_targets, sizeof *p.steps);
  p.n_steps = calloc(rq->n_targets, sizeof *p.n_steps);
  p.nf_out = calloc(rq->n_targets, sizeof *p.nf_out);
  if (!p.steps || !p.n_steps || !p.nf_out) {
    rc = ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_compute: out of memory for %zu targets", rq->n_targets);
    goto fail;
  }
  for (t = 0; t < rq->n_targets; ++t) {
    rc = plan_target(&s, &p, t);
    if (rc != EKOC_OK) goto fail;
  }
  stage(prof, "plan+couplings", t0);

  memset(&progress, 0, sizeof progress);
  progress.fn = rq->progress;
  progress.data = rq->progress_data;
  for (i = 0; i < p.n_jobs; ++i)
    if (!p.jobs[i].unity) progress.total += rq->nx;
  rc = take_nspace_cache(rq, interp, progress.total, &nspace_cache, &own_cache);
  if (rc != EKOC_OK) goto fail;

  for (i = 0; i < p.n_jobs; ++i) {
    plan_job *j = &p.jobs[i];
    char name[EKOC_PROFILE_NAME_LEN];
    uint64_t ts = ekoc_profile_now_ns(prof);
    rc = run_job(j, interp, rq, &progress, prof, nspace_cache, &n_failed);
    if (rc != EKOC_OK) goto fail;
    if (j->is_matching)
      snprintf(name, sizeof name, "matching nf=%d->%d at mu2=%.4g%s", (int)j->nf, (int)j->nf + 1, j->mu2_from,
               j->unity ? " (identity)" : "");
    else
      snprintf(name, sizeof name, "evolution nf=%d mu2 %.4g->%.4g%s", (int)j->nf, j->mu2_from, j->mu2_to,
               j->unity ? " (identity)" : "");
    stage(prof, name, ts);
  }
  ekoc_nspace_cache_release(nspace_cache); /* the parts are done */
  ekoc_nspace_cache_free(own_cache);
  nspace_cache = own_cache = NULL;


  op = calloc(1, sizeof *op);
  if (!op) {
    rc = ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_compute: out of memory");
    goto fail;
  }
  op->nx = rq->nx;
  op->n_targets = rq->n_targets;
  op->nf0 = rq->nf0;
  op->mu2 = malloc(rq->n_targets * sizeof *op->mu2);
  op->nf = malloc(rq->n_targets * sizeof *op->nf);
  op->ops = calloc(rq->n_targets, sizeof *op->ops);
  if (!op->mu2 || !op->nf || !op->ops) {
    rc = ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_compute: out of memory");
    goto fail;
  }
  {
    uint64_t ts = ekoc_profile_now_ns(prof);
    for (t = 0; t < rq->n_targets; ++t) {
      op->mu2[t] = rq->mu2[t];
      op->nf[t] = p.nf_out[t];
      rc = compose_target(&p, t, rq->nx, 0, rq->n_threads, rq->n_targets > 1 ? &memo : NULL, &op->ops[t]);
      if (rc == EKOC_OK) rc = check_finite(&op->ops[t], t, rq->mu2[t]);
      if (rc != EKOC_OK) goto fail;
    }
    compose_memo_clear(&memo);
    if (n_failed > 0) {
      /* which entries of each target a failed integral reaches */
      for (i = 0; i < p.n_jobs; ++i)
        if (p.jobs[i].n_failed == 0 && !taint_clean(&p.jobs[i])) {
          rc = ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_compute: out of memory marking failed entries");
          goto fail;
        }
      op->taint = calloc(rq->n_targets, sizeof *op->taint);
      if (!op->taint) {
        rc = ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_compute: out of memory marking failed entries");
        goto fail;
      }
      for (t = 0; t < rq->n_targets; ++t) ekoc_blockop_init(&op->taint[t], rq->nx);
      for (t = 0; t < rq->n_targets; ++t) {
        rc = compose_target(&p, t, rq->nx, 1, rq->n_threads, rq->n_targets > 1 ? &memo : NULL, &op->taint[t]);
        if (rc != EKOC_OK) goto fail;
      }
      compose_memo_clear(&memo);
    }
    stage(prof, "composition", ts);
  }
  op->n_failed = n_failed;
  plan_free(&p);
  ekoc_interp_free(interp);
  ekoc_couplings_free(couplings);
  stage(prof, "compute", t0);
  *out = op;
  return EKOC_OK;

fail:
  compose_memo_clear(&memo);
  ekoc_operator_free(op);
  ekoc_nspace_cache_release(nspace_cache);
  ekoc_nspace_cache_free(own_cache);
  plan_free(&p);
  ekoc_interp_free(interp);
  ekoc_couplings_free(couplings);
  return rc;
}
