/* cards.c: defaults, layout upgrade (struct_size) and validation of the
 * theory and the request. Every check reports the first field out of range,
 * named in its message, in the order the fields are read here. */
#include <math.h>
#include <omp.h>
#include <stddef.h>
#include <string.h>

#include "ad/axes.h"
#include "ad/nspace.h" /* EKOC_MAX_MATCHING_ORDER (ad/matching.h) */
#include "evol/cards.h"

#include "evol/nspace_engine.h"
#include "evol/threads.h"
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
  t->use_fhmruvv = 1; /* eko's TheoryCard default; n3lo_ad_variation stays all 0 (central) */
  t->physics = EKOC_PHYSICS_EKO;
  t->masses_scheme = EKOC_MASSES_POLE;
  for (int h = 0; h < 3; ++h) t->mass_scales[h] = t->masses[h]; /* (read with MSbar masses only) */
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
  r->backend = EKOC_BACKEND_AUTO;
  r->epsabs = 1e-12;
  r->epsrel = 1e-5;
  r->limit = 100;
  r->mellin_cut = 5e-2;
  r->n_threads = 0;
  r->batch_panels = 1;  /* one Gauss-Kronrod panel of 36 Gauss / 73 Kronrod nodes: converged to a */
  r->batch_points = 36; /* small fraction of eko's tolerance (perf/STATS.md, tests/test_batch.c) */
  r->memory_budget = 0; /* 3/4 of physical memory (evol/estimate.h) */
  r->interpolation_is_log = 1;
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
int ekoc_cards_upgrade_theory(const ekoc_theory *th, ekoc_theory *th_full) {
  int rc = check_struct_size("ekoc_theory", th->struct_size, THEORY_SIZE_V1, sizeof *th_full);
  if (rc != EKOC_OK) return rc;
  theory_defaults(th_full);
  memcpy(th_full, th, th->struct_size);
  return EKOC_OK;
}

int ekoc_cards_upgrade(const ekoc_theory *th, const ekoc_request *rq, ekoc_theory *th_full, ekoc_request *rq_full) {
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

/* Polarized or time-like: what eko 0.15.7 has of them (docs/physics.md §16). */
static int check_axis(const ekoc_theory *t) {
  const char *axis = t->polarized ? "theory.polarized=1" : "theory.time_like=1";
  int matching = t->matching_order < 0 ? t->order - 1 : t->matching_order;
  if (t->polarized && t->time_like)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "theory.polarized=1 with theory.time_like=1: eko has no polarized "
                                            "time-like evolution");
  if (t->order > EKOC_IMPLEMENTED_AXIS_ORDER)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "theory.order=%d with %s: eko has LO..NNLO (1..%d)", (int)t->order, axis,
                      EKOC_IMPLEMENTED_AXIS_ORDER);
  if (t->qed_order > 0)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "theory.qed_order=%d with %s: eko's QED ignores the axis",
                      (int)t->qed_order, axis);
  if (t->polarized && matching > EKOC_IMPLEMENTED_POLARIZED_MATCHING_ORDER)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "theory.matching_order=%d with %s: eko's polarized OMEs go to O(a_s^%d)",
                      matching, axis, EKOC_IMPLEMENTED_POLARIZED_MATCHING_ORDER);
  return EKOC_OK;
}

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
  if (t->use_fhmruvv < 0 || t->use_fhmruvv > 2)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT,
                      "theory.use_fhmruvv=%d is not 0 (eko's own), 1 (FHMRUVV 2024) or 2 (the 2512 set)",
                      (int)t->use_fhmruvv);
  if (t->physics != EKOC_PHYSICS_EKO && t->physics != EKOC_PHYSICS_EXACT)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT,
                      "theory.physics=%d is neither EKOC_PHYSICS_EKO (0) nor EKOC_PHYSICS_EXACT (1)", (int)t->physics);
  if (t->order == 4) { /* eko reads the variation at N3LO only */
    int rc = ekoc_nspace_check_n3lo(t->n3lo_ad_variation, t->use_fhmruvv, "theory.n3lo_ad_variation");
    if (rc != EKOC_OK) return rc;
  }
  if (t->order > EKOC_IMPLEMENTED_ORDER)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "theory.order=%d (N3LO) is not implemented yet (1..%d)", (int)t->order,
                      EKOC_IMPLEMENTED_ORDER);
  if (t->qed_order > EKOC_IMPLEMENTED_QED_ORDER)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "theory.qed_order=%d is not implemented (0..%d)", (int)t->qed_order,
                      EKOC_IMPLEMENTED_QED_ORDER);
  if (t->polarized > EKOC_IMPLEMENTED_POLARIZED)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "theory.polarized=1: polarized evolution is not implemented yet");
  if (t->time_like > EKOC_IMPLEMENTED_TIME_LIKE)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "theory.time_like=1: time-like evolution is not implemented yet");
  if (t->polarized || t->time_like) return check_axis(t);
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
  if (t->masses_scheme != EKOC_MASSES_POLE && t->masses_scheme != EKOC_MASSES_MSBAR)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT,
                      "theory.masses_scheme=%d is neither EKOC_MASSES_POLE (0) nor EKOC_MASSES_MSBAR (1)",
                      (int)t->masses_scheme);
  if (t->masses_scheme == EKOC_MASSES_MSBAR) { /* m(m) found and checked ascending at the start of the work */
    for (h = 0; h < 3; ++h)
      if (!isfinite(t->mass_scales[h]) || t->mass_scales[h] <= 0.0)
        return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS,
                          "theory.mass_scales[%d]=%g (the scale of the MSbar mass theory.masses[%d]) must be finite "
                          "and > 0", h, t->mass_scales[h], h);
  } else if (!(t->masses[0] <= t->masses[1] && t->masses[1] <= t->masses[2]))
    return ekoc_error(EKOC_ERR_INVALID_THRESHOLDS, "theory.masses=(%g, %g, %g) are not ascending", t->masses[0],
                      t->masses[1], t->masses[2]);
  if (!isfinite(t->xif) || t->xif <= 0.0)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "theory.xif=%g must be finite and > 0", t->xif);
  if (t->matching_order < -1 || t->matching_order > EKOC_MAX_MATCHING_ORDER || t->matching_order > t->order - 1)
    return ekoc_error(EKOC_ERR_INVALID_ORDER, "theory.matching_order=%d outside -1..%d (and at most order-1=%d)",
                      (int)t->matching_order, EKOC_MAX_MATCHING_ORDER, (int)t->order - 1);
  return EKOC_OK;
}

/* The request's scales: the initial one, and every target with its nf. */
static int check_request_targets(const ekoc_request *r) {
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
  return EKOC_OK;
}

/* The x grid and the interpolation degree on it. */
static int check_request_grid(const ekoc_request *r) {
  size_t i;
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
  return EKOC_OK;
}

/* What eko 0.15.7 computes with QED (docs/physics.md §15): iterate-exact
 * only (its singlet and valence QED kernels refuse every other method), and
 * the exponentiated scale variation only with a running a_em (eko's
 * gamma_variation_qed returns nothing for a fixed one). The CUDA path has no
 * QED kernels yet. */
static int check_request_qed(const ekoc_request *r, const ekoc_theory *t) {
  if (r->method != EKOC_METHOD_ITERATE_EXACT)
    return ekoc_error(EKOC_ERR_UNSUPPORTED,
                      "request.method=%d with theory.qed_order=%d: QED evolution is computed with iterate-exact only "
                      "(as in eko)",
                      (int)r->method, (int)t->qed_order);
  if (t->xif != 1.0 && r->sv_mode == EKOC_SV_EXPONENTIATED && !t->em_running)
    return ekoc_error(EKOC_ERR_UNSUPPORTED,
                      "request.sv_mode=exponentiated with theory.qed_order=%d needs theory.em_running=1 (eko fails "
                      "with a fixed alpha_em)",
                      (int)t->qed_order);
  if (r->backend == EKOC_BACKEND_GPU)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "request.backend=gpu with theory.qed_order=%d: no QED kernels on the GPU yet",
                      (int)t->qed_order);
  return EKOC_OK;
}

/* The solution method, scale variations, matching inversion and backend. */
static int check_request_methods(const ekoc_request *r, const ekoc_theory *t) {
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
  if (r->backend < EKOC_BACKEND_ADAPTIVE || r->backend > EKOC_BACKEND_AUTO)
    return ekoc_error(EKOC_ERR_INVALID_MODE, "request.backend=%d is not an EKOC_BACKEND_*", (int)r->backend);
  return t->qed_order > 0 ? check_request_qed(r, t) : EKOC_OK;
}

/* The quadrature settings: tolerances, limits, threads, batch rule. */
static int check_request_quadrature(const ekoc_request *r) {
  if (!(r->epsabs >= 0.0) || !(r->epsrel >= 0.0) || !isfinite(r->epsabs) || !isfinite(r->epsrel) ||
      (r->epsabs == 0.0 && r->epsrel == 0.0))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "request tolerances epsabs=%g epsrel=%g invalid", r->epsabs, r->epsrel);
  if (r->limit < 1 || r->limit > 100000)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "request.limit=%d outside 1..100000", (int)r->limit);
  if (!(r->mellin_cut >= 0.0 && r->mellin_cut < 0.5))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "request.mellin_cut=%g outside [0, 0.5)", r->mellin_cut);
  if (r->n_threads < 0 || r->n_threads > 4096)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "request.n_threads=%d outside 0..4096", (int)r->n_threads);
  if (r->n_threads > ekoc_threads_cap())
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT,
                      "request.n_threads=%d exceeds the cap of %d threads (max(64, 8 x %d processors)): more only "
                      "cost memory",
                      (int)r->n_threads, ekoc_threads_cap(), omp_get_num_procs());
  if (r->interpolation_is_log != 0 && r->interpolation_is_log != 1)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "request.interpolation_is_log=%d is neither 0 nor 1",
                      (int)r->interpolation_is_log);
  if (r->batch_panels < 1 || r->batch_panels > 4096 || r->batch_points < 1 || r->batch_points > 1024)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "request.batch_panels=%d / batch_points=%d outside 1..4096 / 1..1024",
                      (int)r->batch_panels, (int)r->batch_points);
  return EKOC_OK;
}

int ekoc_cards_check_theory(const ekoc_theory *th) { return check_theory(th); }

int ekoc_cards_check(const ekoc_theory *th, const ekoc_request *rq) {
  int rc = check_theory(th);
  if (rc == EKOC_OK) rc = check_request_targets(rq);
  if (rc == EKOC_OK) rc = check_request_grid(rq);
  if (rc == EKOC_OK) rc = check_request_methods(rq, th);
  if (rc == EKOC_OK) rc = check_request_quadrature(rq);
  return rc;
}
