/* nspace.c: the CPU evaluator of an N-space family, anomalous dimensions and
 * OMEs taken from the ekore crate through its C ABI (include/ekore.h). */
#include "ad/nspace.h"

#include "ad/axes.h"
#include "ad/beta.h"

#include <math.h>

#include "ekore.h"
#include "status.h"

/* Turns an ekore failure into an ekoc status with the crate's message. */
static int ekore_failure(int32_t rc, const char *what, ekoc_complex n) {
  return ekoc_error(EKOC_ERR_ANOMALOUS_DIMENSION, "%s at N=(%g,%g) failed (ekore code %d): %s", what, n.re, n.im,
                    (int)rc, ekore_last_error());
}

static int eval_evolution_ns(const ekoc_nspace_cfg *cfg, ekoc_complex n, ekoc_complex *out) {
  ekoc_complex gamma[3][EKOC_MAX_ORDER];
  double re[3 * EKOC_MAX_ORDER], im[3 * EKOC_MAX_ORDER];
  int m, i;
  /* ns+, ns-, nsV sharing the harmonic sums (below NNLO the crate gives nsV = ns-,
   * below NLO all three = ns+, PHYSICS.md §1.3) */
  int32_t rc = ekore_gamma_ns_all_batch((uint32_t)cfg->order, &n.re, &n.im, 1, (uint32_t)cfg->nf, re, im);
  if (rc != 0) return ekore_failure(rc, "ekore_gamma_ns_all_batch", n);
  for (m = 0; m < 3; ++m)
    for (i = 0; i < cfg->order; ++i) gamma[m][i] = c_make(re[m * cfg->order + i], im[m * cfg->order + i]);
  ekoc_nspace_evolution_ns(cfg, gamma, out);
  return EKOC_OK;
}

static int eval_evolution_singlet(const ekoc_nspace_cfg *cfg, ekoc_complex n, ekoc_complex *out) {
  double re[4 * EKOC_MAX_ORDER], im[4 * EKOC_MAX_ORDER];
  ekoc_cmat2 gamma[EKOC_MAX_ORDER];
  int i, e;
  int32_t rc = ekore_gamma_singlet((uint32_t)cfg->order, n.re, n.im, (uint32_t)cfg->nf, re, im);
  if (rc != 0) return ekore_failure(rc, "ekore_gamma_singlet", n);
  for (i = 0; i < cfg->order; ++i)
    for (e = 0; e < 4; ++e) gamma[i].m[e] = c_make(re[4 * i + e], im[4 * i + e]);
  ekoc_nspace_evolution_singlet(cfg, gamma, out);
  return EKOC_OK;
}

static int eval_matching(const ekoc_nspace_cfg *cfg, ekoc_complex n, ekoc_complex *out) {
  int dim = cfg->family == EKOC_FAMILY_NS ? 2 : 3, sz = dim * dim, i;
  double re[9 * EKOC_MAX_MATCHING_ORDER], im[9 * EKOC_MAX_MATCHING_ORDER];
  ekoc_complex tower[9 * EKOC_MAX_MATCHING_ORDER];
  if (cfg->order > 0) {
    int32_t rc = dim == 2 ? ekore_ome_ns((uint32_t)cfg->order, n.re, n.im, (uint32_t)cfg->nf, cfg->ome_log, re, im)
                          : ekore_ome_singlet((uint32_t)cfg->order, n.re, n.im, (uint32_t)cfg->nf, cfg->ome_log, re, im);
    if (rc != 0) return ekore_failure(rc, dim == 2 ? "ekore_ome_ns" : "ekore_ome_singlet", n);
    for (i = 0; i < sz * cfg->order; ++i) tower[i] = c_make(re[i], im[i]);
  }
  if (!ekoc_nspace_matching(cfg, tower, out))
    return ekoc_error(EKOC_ERR_NUMERICAL, "matching matrix at N=(%g,%g) is singular (backward exact inversion)", n.re,
                      n.im);
  return EKOC_OK;
}

int ekoc_nspace_eval(const ekoc_nspace_cfg *cfg, ekoc_complex n, ekoc_complex *out) {
  if (cfg->kind == EKOC_KIND_EVOLUTION)
    return cfg->family == EKOC_FAMILY_NS ? eval_evolution_ns(cfg, n, out) : eval_evolution_singlet(cfg, n, out);
  return eval_matching(cfg, n, out);
}

int ekoc_nspace_cfg_check(const ekoc_nspace_cfg *cfg) {
  int i;
  if (!cfg) return ekoc_error(EKOC_ERR_NULL_POINTER, "nspace config is NULL");
  if (cfg->kind != EKOC_KIND_EVOLUTION && cfg->kind != EKOC_KIND_MATCHING)
    return ekoc_error(EKOC_ERR_INVALID_MODE, "kind=%d is neither evolution (0) nor matching (1)", (int)cfg->kind);
  if (cfg->family != EKOC_FAMILY_NS && cfg->family != EKOC_FAMILY_SINGLET)
    return ekoc_error(EKOC_ERR_INVALID_MODE, "family=%d is neither non-singlet (0) nor singlet (1)", (int)cfg->family);
  if (cfg->nf < 3 || cfg->nf > 6) return ekoc_error(EKOC_ERR_INVALID_NF, "nf=%d outside 3..6", (int)cfg->nf);
  if (cfg->kind == EKOC_KIND_EVOLUTION) {
    if (cfg->order < 1 || cfg->order > EKOC_MAX_ORDER)
      return ekoc_error(EKOC_ERR_INVALID_ORDER, "order=%d outside 1..%d", (int)cfg->order, EKOC_MAX_ORDER);
    if (cfg->order > EKOC_IMPLEMENTED_ORDER)
      return ekoc_error(EKOC_ERR_UNSUPPORTED, "order=%d (N3LO) is not implemented yet (1..%d)", (int)cfg->order,
                        EKOC_IMPLEMENTED_ORDER);
    if (cfg->method < 0 || cfg->method >= EKOC_METHOD_COUNT)
      return ekoc_error(EKOC_ERR_INVALID_METHOD, "method=%d is not an EKOC_METHOD_*", (int)cfg->method);
    if (cfg->ev_op_iterations < 1 || cfg->ev_op_iterations > EKOC_MAX_EV_OP_ITERATIONS)
      return ekoc_error(EKOC_ERR_INVALID_ITERATIONS, "ev_op_iterations=%d outside 1..%d", (int)cfg->ev_op_iterations,
                        EKOC_MAX_EV_OP_ITERATIONS);
    if (cfg->ev_op_max_order < 1 || cfg->ev_op_max_order > EKOC_MAX_EV_OP_MAX_ORDER)
      return ekoc_error(EKOC_ERR_INVALID_ITERATIONS, "ev_op_max_order=%d outside 1..%d", (int)cfg->ev_op_max_order,
                        EKOC_MAX_EV_OP_MAX_ORDER);
  } else {
    if (cfg->order < 0 || cfg->order > EKOC_MAX_MATCHING_ORDER)
      return ekoc_error(EKOC_ERR_INVALID_ORDER, "matching order=%d outside 0..%d", (int)cfg->order,
                        EKOC_MAX_MATCHING_ORDER);
    if (cfg->matching_method < EKOC_MATCHING_FORWARD || cfg->matching_method > EKOC_MATCHING_BACKWARD_EXPANDED)
      return ekoc_error(EKOC_ERR_INVALID_METHOD, "matching_method=%d unknown", (int)cfg->matching_method);
  }
  if ((cfg->polarized != 0 && cfg->polarized != 1) || (cfg->time_like != 0 && cfg->time_like != 1))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "polarized=%d / time_like=%d must be 0 or 1", (int)cfg->polarized,
                      (int)cfg->time_like);
  if (cfg->polarized > EKOC_IMPLEMENTED_POLARIZED)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "polarized=1: polarized anomalous dimensions are not implemented yet");
  if (cfg->time_like > EKOC_IMPLEMENTED_TIME_LIKE)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "time_like=1: time-like anomalous dimensions are not implemented yet");
  if (cfg->sv_mode < EKOC_SV_NONE || cfg->sv_mode > EKOC_SV_EXPANDED)
    return ekoc_error(EKOC_ERR_INVALID_MODE, "sv_mode=%d is not an EKOC_SV_*", (int)cfg->sv_mode);
  if (!isfinite(cfg->sv_log) || !isfinite(cfg->a0) || !isfinite(cfg->a1) || !isfinite(cfg->ome_log))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "non-finite number in nspace config (sv_log=%g a0=%g a1=%g L=%g)",
                      cfg->sv_log, cfg->a0, cfg->a1, cfg->ome_log);
  if (cfg->a0 < 0.0 || cfg->a1 < 0.0)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "negative coupling (a0=%g a1=%g)", cfg->a0, cfg->a1);
  for (i = 0; i < 4; ++i)
    if (!isfinite(cfg->beta[i]))
      return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "beta[%d]=%g is not finite", i, cfg->beta[i]);
  return EKOC_OK;
}

int ekoc_beta(int32_t nf, double *beta_out4) {
  if (!beta_out4) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_beta: beta_out4 is NULL");
  if (nf < 3 || nf > 6) return ekoc_error(EKOC_ERR_INVALID_NF, "ekoc_beta: nf=%d outside 3..6", (int)nf);
  ekoc_beta_coefficients(nf, beta_out4);
  return EKOC_OK;
}
