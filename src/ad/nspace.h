/* nspace.h: everything the Mellin inversion needs at one complex N, for one
 * "family" of operator elements that share the inversion path.
 *
 * A family is the set of elements evaluated together at the same N:
 *  - evolution, non-singlet (path offset 0): ns+, ns-, nsV          (3 elements)
 *  - evolution, singlet     (path offset 1): qq, qg, gq, gg          (4, (Sigma, g) order)
 *  - matching, non-singlet  (offset 0): (200,200), (91,91)           (2: (q,q) and (H,H) of the (q,H) block)
 *  - matching, singlet      (offset 1): 3x3 row-major in (g, q, H)    (9)
 * The functions in this header take the anomalous dimensions / OMEs as input
 * and are host+device (the GPU path runs the very same code); nspace.c adds
 * the CPU evaluator that fetches them from the ekore crate.
 */
#ifndef EKOC_AD_NSPACE_H
#define EKOC_AD_NSPACE_H

#include "ad/ad_math.h"
#include "ad/kernel_ns.h"
#include "ad/kernel_singlet.h"
#include "ad/matching.h"
#include "ad/scale_variation.h"

#include "ekoc/kernel.h" /* ekoc_nspace_config, kinds, families */

typedef ekoc_nspace_config ekoc_nspace_cfg;

#define EKOC_NSPACE_MAX_ELEMENTS 9

/* Number of elements the family writes. */
EKOC_HD int ekoc_nspace_family_size(const ekoc_nspace_cfg *cfg) {
  if (cfg->kind == EKOC_KIND_EVOLUTION) return cfg->family == EKOC_FAMILY_NS ? 3 : 4;
  return cfg->family == EKOC_FAMILY_NS ? 2 : 9;
}

/* Whether the family's path uses the singlet offset (o = 1). */
EKOC_HD int ekoc_nspace_singlet_like(const ekoc_nspace_cfg *cfg) { return cfg->family == EKOC_FAMILY_SINGLET; }

/* Kernel config of an evolution family. */
EKOC_HD ekoc_kernel_cfg ekoc_nspace_kernel_cfg(const ekoc_nspace_cfg *cfg) {
  ekoc_kernel_cfg k;
  int i;
  k.order = cfg->order;
  k.method = cfg->method;
  k.ev_op_iterations = cfg->ev_op_iterations;
  k.ev_op_max_order = cfg->ev_op_max_order;
  for (i = 0; i < 4; ++i) k.beta[i] = cfg->beta[i];
  k.a0 = cfg->a0;
  k.a1 = cfg->a1;
  return k;
}

/* Evolution, non-singlet: gamma[m][i] is gamma^(i) of mode m (0 ns+, 1 ns-, 2 nsV).
 * Writes E_ns+, E_ns-, E_nsV (with the scale-variation treatment of cfg). */
EKOC_HD void ekoc_nspace_evolution_ns(const ekoc_nspace_cfg *cfg, ekoc_complex gamma[3][EKOC_MAX_ORDER],
                                      ekoc_complex *out) {
  ekoc_kernel_cfg k = ekoc_nspace_kernel_cfg(cfg);
  double j[3];
  int m;
  ekoc_kernel_ns_evolution_integrals(&k, j); /* the same for the three sectors */
  for (m = 0; m < 3; ++m) {
    ekoc_complex *g = gamma[m];
    ekoc_complex e;
    if (cfg->sv_mode == EKOC_SV_EXPONENTIATED) ekoc_sv_exponentiated_ns(cfg->order, cfg->sv_log, cfg->beta, g);
    e = ekoc_kernel_ns_with(&k, j, g);
    if (cfg->sv_mode == EKOC_SV_EXPANDED && !cfg->is_threshold)
      e = c_mul(ekoc_sv_expanded_ns(cfg->order, cfg->sv_log, cfg->a1, cfg->beta, g), e);
    out[m] = e;
  }
}

/* Evolution, singlet: gamma[i] is the 2x2 gamma^(i) in (Sigma, g) order.
 * Writes E_qq, E_qg, E_gq, E_gg. */
EKOC_HD void ekoc_nspace_evolution_singlet(const ekoc_nspace_cfg *cfg, ekoc_cmat2 *gamma, ekoc_complex *out) {
  ekoc_kernel_cfg k = ekoc_nspace_kernel_cfg(cfg);
  ekoc_cmat2 e;
  int i;
  if (cfg->sv_mode == EKOC_SV_EXPONENTIATED) ekoc_sv_exponentiated_singlet(cfg->order, cfg->sv_log, cfg->beta, gamma);
  e = ekoc_kernel_singlet(&k, gamma);
  if (cfg->sv_mode == EKOC_SV_EXPANDED && !cfg->is_threshold)
    e = m2_mul(ekoc_sv_expanded_singlet(cfg->order, cfg->sv_log, cfg->a1, cfg->beta, gamma), e);
  for (i = 0; i < 4; ++i) out[i] = e.m[i];
}

/* Matching, from the OME tower (cfg->order matrices of dim x dim, dim = 2 for
 * the non-singlet family, 3 for the singlet one). Writes the family's elements;
 * returns 0 if a backward-exact inverse is singular. */
EKOC_HD int ekoc_nspace_matching(const ekoc_nspace_cfg *cfg, ekoc_complex *tower, ekoc_complex *out) {
  int dim = cfg->family == EKOC_FAMILY_NS ? 2 : 3;
  ekoc_complex m[9];
  int i;
  if (cfg->sv_mode == EKOC_SV_EXPONENTIATED) ekoc_matching_sv_shift(dim, cfg->order, cfg->beta[0], cfg->sv_log, tower);
  if (!ekoc_matching_build(dim, cfg->order, tower, cfg->a1, cfg->matching_method, m)) return 0;
  if (dim == 2) {
    out[0] = m[0]; /* (200,200) */
    out[1] = m[3]; /* (91,91) */
  } else {
    for (i = 0; i < 9; ++i) out[i] = m[i];
  }
  return 1;
}

/* CPU evaluator (nspace.c): fetches gamma / OMEs from the ekore crate at N and
 * writes the family's elements to `out` (EKOC_NSPACE_MAX_ELEMENTS slots).
 * Returns EKOC_OK, or an error code with ekoc_last_error() set (then `out`
 * holds no meaningful value). No allocation. */
int ekoc_nspace_eval(const ekoc_nspace_cfg *cfg, ekoc_complex n, ekoc_complex *out);

/* Validates a family configuration (orders, nf, method, finite numbers).
 * Returns EKOC_OK or an error code naming the bad field. */
int ekoc_nspace_cfg_check(const ekoc_nspace_cfg *cfg);

#endif /* EKOC_AD_NSPACE_H */
