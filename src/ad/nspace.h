/* nspace.h: the N-space evaluator, everything the Mellin inversion needs at
 * complex N for one "family" of operator elements that share the inversion
 * path. The one place that knows the families, their towers and how ekore
 * fills them: the CPU evaluator (ekoc_nspace_eval), the batch drivers and the
 * CUDA kernels all go through the functions below, so a new order or axis is
 * added here.
 *
 * A family is the set of elements evaluated together at the same N:
 *  - evolution, non-singlet (path offset 0): ns+, ns-, nsV          (3 elements)
 *  - evolution, singlet     (path offset 1): qq, qg, gq, gg          (4, (Sigma, g) order)
 *  - matching, non-singlet  (offset 0): (200,200), (91,91)           (2: (q,q) and (H,H) of the (q,H) block)
 *  - matching, singlet      (offset 1): 3x3 row-major in (g, q, H)    (9)
 *  - evolution with QED, non-singlet (offset 0): ns+u, ns+d, ns-u, ns-d and the
 *    valence 2x2 in (V, V_Delta)                                         (8)
 *  - evolution with QED, singlet (offset 1): 4x4 in (g, ph, Sigma, Sigma_Delta) (16)
 *
 * Evaluation at N goes in two steps:
 *  1. the family's tower at N (the anomalous dimensions gamma^(i)(N) or the
 *     OMEs of every order, ekoc_nspace_tower_len complex numbers), fetched
 *     from the ekore crate for many points at once (ekoc_nspace_towers,
 *     nspace.c, host only);
 *  2. the family's elements from the tower (ekoc_nspace_from_tower), which
 *     is host+device: the GPU path runs the very same code.
 * ekoc_nspace_eval is these two steps for one point.
 */
#ifndef EKOC_AD_NSPACE_H
#define EKOC_AD_NSPACE_H

#include <stddef.h>

#include "ad/ad_math.h"
#include "ad/kernel_ns.h"
#include "ad/kernel_qed.h"
#include "ad/kernel_singlet.h"
#include "ad/matching.h"
#include "ad/scale_variation.h"
#include "ad/scale_variation_qed.h"

#include "ekoc/kernel.h" /* ekoc_nspace_config, kinds, families */

typedef ekoc_nspace_config ekoc_nspace_cfg;

#define EKOC_NSPACE_MAX_ELEMENTS 16

/* Number of elements the family writes. */
EKOC_HD int ekoc_nspace_family_size(const ekoc_nspace_cfg *cfg) {
  if (cfg->family == EKOC_FAMILY_QED_NS) return 8;
  if (cfg->family == EKOC_FAMILY_QED_SINGLET) return 16;
  if (cfg->kind == EKOC_KIND_EVOLUTION) return cfg->family == EKOC_FAMILY_NS ? 3 : 4;
  return cfg->family == EKOC_FAMILY_NS ? 2 : 9;
}

/* Whether the family's path uses the singlet offset (o = 1). */
EKOC_HD int ekoc_nspace_singlet_like(const ekoc_nspace_cfg *cfg) {
  return cfg->family == EKOC_FAMILY_SINGLET || cfg->family == EKOC_FAMILY_QED_SINGLET;
}

/* Whether cfg is one of the QED families. */
EKOC_HD int ekoc_nspace_is_qed(const ekoc_nspace_cfg *cfg) {
  return cfg->family == EKOC_FAMILY_QED_NS || cfg->family == EKOC_FAMILY_QED_SINGLET;
}

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

/* gamma[m][i] = gamma^(i) of non-singlet mode m from the packed tower. */
EKOC_HD void ekoc_nspace_ns_gamma(const ekoc_nspace_cfg *cfg, const ekoc_complex *tower,
                                  ekoc_complex gamma[3][EKOC_MAX_ORDER]) {
  int m, i;
  for (m = 0; m < 3; ++m)
    for (i = 0; i < cfg->order; ++i) gamma[m][i] = tower[m * cfg->order + i];
}

/* Evolution, non-singlet: gamma[m][i] is gamma^(i) of mode m (0 ns+, 1 ns-, 2 nsV).
 * Writes E_ns+, E_ns-, E_nsV (with the scale-variation treatment of cfg). */
/* ... with the kernel configuration k and its evolution integrals j (the same
 * for every N: ekoc_nspace_from_towers takes them once for all its points) */
EKOC_HD void ekoc_nspace_evolution_ns_with(const ekoc_nspace_cfg *cfg, const ekoc_kernel_cfg *k,
                                           const double j[EKOC_MAX_ORDER], ekoc_complex gamma[3][EKOC_MAX_ORDER],
                                           ekoc_complex *out) {
  int m;
  for (m = 0; m < 3; ++m) {
    ekoc_complex *g = gamma[m];
    ekoc_complex e;
    if (cfg->sv_mode == EKOC_SV_EXPONENTIATED) ekoc_sv_exponentiated_ns(cfg->order, cfg->sv_log, cfg->beta, g);
    e = ekoc_kernel_ns_with(k, j, g);
    if (cfg->sv_mode == EKOC_SV_EXPANDED && !cfg->is_threshold)
      e = c_mul(ekoc_sv_expanded_ns(cfg->order, cfg->sv_log, cfg->a1, cfg->beta, g), e);
    out[m] = e;
  }
}
EKOC_HD void ekoc_nspace_evolution_ns(const ekoc_nspace_cfg *cfg, ekoc_complex gamma[3][EKOC_MAX_ORDER],
                                      ekoc_complex *out) {
  ekoc_kernel_cfg k = ekoc_nspace_kernel_cfg(cfg);
  double j[EKOC_MAX_ORDER];
  ekoc_kernel_ns_evolution_integrals(&k, j); /* the same for the three sectors */
  ekoc_nspace_evolution_ns_with(cfg, &k, j, gamma, out);
}

/* Evolution, singlet, in the two steps around the kernel (shared by the
 * point-by-point path and the grouped one, ekoc_nspace_from_towers):
 * gamma[i] = the 2x2 gamma^(i) in (Sigma, g) order from the packed tower,
 * shifted by the exponentiated scale variation when cfg asks for it; then
 * from the kernel's E_S the expanded scale-variation factor when due, and
 * E_qq, E_qg, E_gq, E_gg into out. */
EKOC_HD void ekoc_nspace_singlet_gamma(const ekoc_nspace_cfg *cfg, const ekoc_complex *tower, ekoc_cmat2 *gamma) {
  int i, m;
  for (i = 0; i < cfg->order; ++i)
    for (m = 0; m < 4; ++m) gamma[i].m[m] = tower[4 * i + m];
  if (cfg->sv_mode == EKOC_SV_EXPONENTIATED) ekoc_sv_exponentiated_singlet(cfg->order, cfg->sv_log, cfg->beta, gamma);
}
EKOC_HD void ekoc_nspace_singlet_out(const ekoc_nspace_cfg *cfg, const ekoc_cmat2 *gamma, ekoc_cmat2 e,
                                     ekoc_complex *out) {
  int i;
  if (cfg->sv_mode == EKOC_SV_EXPANDED && !cfg->is_threshold)
    e = m2_mul(ekoc_sv_expanded_singlet(cfg->order, cfg->sv_log, cfg->a1, cfg->beta, gamma), e);
  for (i = 0; i < 4; ++i) out[i] = e.m[i];
}

/* The exponentiated scale-variation shift of a QED tower, in place (none
 * without that mode): the first step of ekoc_nspace_evolution_qed. */
EKOC_HD void ekoc_nspace_qed_shift(const ekoc_nspace_cfg *cfg, ekoc_complex *tower) {
  if (cfg->sv_mode == EKOC_SV_EXPONENTIATED)
    ekoc_sv_exponentiated_qed_tower(cfg->order, cfg->qed_order, cfg->em_running, cfg->nf, cfg->lepton_number,
                                    cfg->sv_log, cfg->beta, ekoc_nspace_family_size(cfg), tower);
}

/* The rest of ekoc_nspace_evolution_qed from the shifted tower: `matrix`,
 * when not NULL, is the family's matrix kernel (ekoc_kernel_qed_matrix of
 * the valence 2x2 or the singlet 4x4: ad/kernel_qed_batch.h makes it for
 * many points at once), else it is computed here; likewise ns_step_j, the
 * non-singlet family's step integrals (ekoc_kernel_qed_ns_with). */
EKOC_HD void ekoc_nspace_qed_finish(const ekoc_nspace_cfg *cfg, const ekoc_complex *tower, const ekoc_complex *matrix,
                                    const double *ns_step_j, ekoc_complex *out) {
  ekoc_qed_steps st = ekoc_qed_steps_of(cfg->ev_op_iterations, cfg->qed_couplings);
  double beta_mix = ekoc_beta_qcd_as2aem1(cfg->nf), a_s = st.as_ends[st.n], a_em = st.aem_half[st.n - 1];
  int np = ekoc_qed_pairs(cfg->order, cfg->qed_order), expanded, e, p;
  ekoc_complex k[EKOC_QED_MAX_DIM2], tmp[EKOC_QED_MAX_DIM2];
  expanded = cfg->sv_mode == EKOC_SV_EXPANDED && !cfg->is_threshold;
  if (cfg->family == EKOC_FAMILY_QED_NS) {
    ekoc_complex valence[4 * (EKOC_MAX_ORDER + 3)];
    ekoc_kernel_qed_ns_with(cfg->order, cfg->qed_order, cfg->beta, beta_mix, cfg->qed_log_step, st, ns_step_j, tower,
                            8, 4, out);
    for (p = 0; p < np; ++p) /* the valence 2x2 of every pair, contiguous */
      for (e = 0; e < 4; ++e) valence[p * 4 + e] = tower[p * 8 + 4 + e];
    if (matrix)
      for (e = 0; e < 4; ++e) out[4 + e] = matrix[e];
    else
      ekoc_kernel_qed_matrix(cfg->order, cfg->qed_order, 2, cfg->beta, beta_mix, st, valence, out + 4);
    if (expanded) {
      for (e = 0; e < 4; ++e) {
        ekoc_sv_expanded_qed_factor(cfg->order, cfg->qed_order, cfg->em_running, cfg->sv_log, a_s, a_em, cfg->beta,
                                    1, tower, 8, e, k);
        out[e] = c_mul(k[0], out[e]);
      }
      ekoc_sv_expanded_qed_factor(cfg->order, cfg->qed_order, cfg->em_running, cfg->sv_log, a_s, a_em, cfg->beta, 2,
                                  valence, 4, 0, k);
      ekoc_qed_mat_mul(2, k, out + 4, tmp);
      for (e = 0; e < 4; ++e) out[4 + e] = tmp[e];
    }
  } else {
    if (matrix)
      for (e = 0; e < 16; ++e) out[e] = matrix[e];
    else
      ekoc_kernel_qed_matrix(cfg->order, cfg->qed_order, 4, cfg->beta, beta_mix, st, tower, out);
    if (expanded) {
      ekoc_sv_expanded_qed_factor(cfg->order, cfg->qed_order, cfg->em_running, cfg->sv_log, a_s, a_em, cfg->beta, 4,
                                  tower, 16, 0, k);
      ekoc_qed_mat_mul(4, k, out, tmp);
      for (e = 0; e < 16; ++e) out[e] = tmp[e];
    }
  }
}

/* Evolution with QED, from the packed tower (layout of ekoc_nspace_tower_len;
 * modified in place by the exponentiated scale-variation shift). Writes the
 * family's elements (docs/physics.md §15.3-15.4). */
EKOC_HD void ekoc_nspace_evolution_qed(const ekoc_nspace_cfg *cfg, ekoc_complex *tower, ekoc_complex *out) {
  ekoc_nspace_qed_shift(cfg, tower);
  ekoc_nspace_qed_finish(cfg, tower, NULL, NULL, out);
}

/* The photon-photon element of the QED singlet kernel as N -> infinity:
 * the photon's own anomalous dimensions are N-independent (eko's aem1 and
 * as1aem1 gamma_phph: 4/3 N_C sum e_q^2 and 4 C_F C_A sum e_q^2) or tend to
 * a constant (aem2: N_C sum e_q^4 (gamma_gph(N)/(C_F C_A) + 4) -> 4 N_C sum
 * e_q^4), and its mixing with quarks and gluons vanishes, so E_(ph,ph) ->
 * this constant c. The quadrature inverts E - c and adds c delta_kj exactly
 * (the inverse of a constant), as for the identity part of a matching:
 * E itself does not decay along the contour (docs/physics.md §15.3). */
EKOC_HD double ekoc_nspace_qed_photon_limit(const ekoc_nspace_cfg *cfg) {
  ekoc_qed_steps st = ekoc_qed_steps_of(cfg->ev_op_iterations, cfg->qed_couplings);
  double e2 = ekoc_quark_charge2_sum(cfg->nf), e4 = ekoc_quark_charge4_sum(cfg->nf);
  double g01 = 4.0 / 3.0 * EKOC_NC * e2, g11 = 4.0 * EKOC_CF * EKOC_CA * e2, g02 = 4.0 * EKOC_NC * e4;
  double expo = 0.0, beta_mix = ekoc_beta_qcd_as2aem1(cfg->nf), c;
  int s;
  if (cfg->sv_mode == EKOC_SV_EXPONENTIATED && cfg->em_running && cfg->qed_order >= 2)
    g02 += ekoc_beta_qed_aem2(cfg->nf, cfg->lepton_number) * cfg->sv_log * g01;
  for (s = 0; s < st.n; ++s) { /* the steps of ekoc_kernel_qed_matrix, photon entry only */
    double as = st.as_half[s], aem = st.aem_half[s];
    expo += (g01 * aem + g11 * as * aem + (cfg->qed_order >= 2 ? g02 * aem * aem : 0.0)) *
            (st.as_ends[s + 1] - st.as_ends[s]) / ekoc_qed_step_beta(cfg->order, cfg->beta, beta_mix, as, aem);
  }
  c = exp(expo);
  if (cfg->sv_mode == EKOC_SV_EXPANDED && !cfg->is_threshold && cfg->em_running && cfg->qed_order >= 2)
    c *= 1.0 + st.aem_half[st.n - 1] * cfg->sv_log * g01; /* the photon entry of the K factor */
  return c;
}

/* Matching, from the OME tower (cfg->order matrices of dim x dim, dim = 2 for
 * the non-singlet family, 3 for the singlet one). Writes the family's elements;
 * returns 0 if a backward-exact inverse is singular. */
EKOC_HD int ekoc_nspace_matching(const ekoc_nspace_cfg *cfg, ekoc_complex *tower, ekoc_complex *out) {
  int dim = cfg->family == EKOC_FAMILY_NS ? 2 : 3;
  ekoc_complex m[9];
  int i;
  if (cfg->sv_mode == EKOC_SV_EXPONENTIATED) ekoc_matching_sv_shift(dim, cfg->order, cfg->beta, cfg->sv_log, tower);
  if (!ekoc_matching_build(dim, cfg->order, tower, cfg->a1, cfg->matching_method, m)) return 0;
  if (dim == 2) {
    out[0] = m[0]; /* (200,200) */
    out[1] = m[3]; /* (91,91) */
  } else {
    for (i = 0; i < 9; ++i) out[i] = m[i];
  }
  return 1;
}

/* ---- towers: the per-N input of a family, as ekore gives it ---------------------- */

/* Largest tower: the QED singlet, 4x4 per (a_s, a_em) pair at N3LO x O(a_em^2). */
#define EKOC_NSPACE_MAX_TOWER (16 * (EKOC_MAX_ORDER + 3))
/* every other tower fits as well (compile-time check, C and C++) */
typedef char ekoc_nspace_matching_tower_fits_[9 * EKOC_MAX_MATCHING_ORDER <= EKOC_NSPACE_MAX_TOWER ? 1 : -1];
/* Numbers per point the crate returns for the QED towers (eko's full (order+1) x
 * (qed+1) arrays, non-singlet and valence together), before they are packed. */
#define EKOC_NSPACE_MAX_RAW (16 * (EKOC_MAX_ORDER + 1) * (EKOC_MAX_QED_ORDER + 1))

/* Complex numbers per point of a family's tower:
 *   evolution ns      3 order   [mode m (ns+, ns-, nsV)][order i]
 *   evolution singlet 4 order   [order i][qq, qg, gq, gg]
 *   matching ns       4 order   [order i][2x2 row-major in (q, H)]
 *   matching singlet  9 order   [order i][3x3 row-major in (g, q, H)]
 *   QED non-singlet   8 pairs   [pair p][ns+u, ns+d, ns-u, ns-d, valence 2x2]
 *   QED singlet      16 pairs   [pair p][4x4 in (g, ph, Sigma, Sigma_Delta)]
 * (pairs: the (a_s, a_em) powers of ad/kernel_qed.h). */
EKOC_HD int ekoc_nspace_tower_len(const ekoc_nspace_cfg *cfg) {
  if (ekoc_nspace_is_qed(cfg)) return ekoc_nspace_family_size(cfg) * ekoc_qed_pairs(cfg->order, cfg->qed_order);
  if (cfg->kind == EKOC_KIND_EVOLUTION) return (cfg->family == EKOC_FAMILY_NS ? 3 : 4) * cfg->order;
  return (cfg->family == EKOC_FAMILY_NS ? 4 : 9) * cfg->order;
}

/* The family's elements (ekoc_nspace_family_size of them) at one N from its
 * tower (layout of ekoc_nspace_tower_len). The tower is read, not modified.
 * Returns 1, or 0 when a backward-exact matching matrix is singular. */
EKOC_HD int ekoc_nspace_from_tower(const ekoc_nspace_cfg *cfg, const ekoc_complex *tower, ekoc_complex *out) {
  int i;
  if (ekoc_nspace_is_qed(cfg)) {
    ekoc_complex t[EKOC_NSPACE_MAX_TOWER]; /* the scale-variation shift works in place */
    int len;
    /* the per-point kernel hands its configuration over unchecked: what the
     * QED kernels index with must be sane (NaN out otherwise) */
    if (!cfg->qed_couplings || cfg->ev_op_iterations < 1 || cfg->ev_op_iterations > EKOC_MAX_EV_OP_ITERATIONS ||
        cfg->qed_order < 1 || cfg->qed_order > EKOC_MAX_QED_ORDER || cfg->order < 1 || cfg->order > EKOC_MAX_ORDER) {
      for (i = 0; i < ekoc_nspace_family_size(cfg); ++i) out[i] = c_make(NAN, NAN);
      return 1;
    }
    len = ekoc_nspace_tower_len(cfg);
    for (i = 0; i < len; ++i) t[i] = tower[i];
    ekoc_nspace_evolution_qed(cfg, t, out);
    return 1;
  }
  if (cfg->kind == EKOC_KIND_EVOLUTION) {
    if (cfg->family == EKOC_FAMILY_NS) {
      ekoc_complex gamma[3][EKOC_MAX_ORDER];
      ekoc_nspace_ns_gamma(cfg, tower, gamma);
      ekoc_nspace_evolution_ns(cfg, gamma, out);
    } else {
      ekoc_cmat2 gamma[EKOC_MAX_ORDER];
      ekoc_kernel_cfg k = ekoc_nspace_kernel_cfg(cfg);
      ekoc_nspace_singlet_gamma(cfg, tower, gamma);
      ekoc_nspace_singlet_out(cfg, gamma, ekoc_kernel_singlet(&k, gamma), out);
    }
    return 1;
  } else {
    ekoc_complex t[9 * EKOC_MAX_MATCHING_ORDER]; /* the scale-variation shift works in place */
    int len = ekoc_nspace_tower_len(cfg);
    for (i = 0; i < 9 * EKOC_MAX_MATCHING_ORDER; ++i) t[i] = i < len ? tower[i] : c_real(0.0);
    return ekoc_nspace_matching(cfg, t, out);
  }
}

/* ---- host only (nspace.c): the ekore crate -------------------------------------- */

/* Doubles of scratch ekoc_nspace_towers needs for `count` points. */
#define EKOC_NSPACE_TOWER_SCRATCH(count) (2 * (size_t)(count) * EKOC_NSPACE_MAX_RAW)

/* Fills tower[p * len + t] (len = ekoc_nspace_tower_len(cfg)) for the `count`
 * points N_p = n_re[p] + i n_im[p] of family cfg from the ekore crate: one
 * batch call for the three non-singlet sectors (sharing each point's
 * harmonic sums; modes equal at the order, docs/physics.md §1.3, come out equal),
 * one for the singlet, one OME call per point for matchings. `scratch` holds
 * EKOC_NSPACE_TOWER_SCRATCH(count) doubles. No allocation. Returns EKOC_OK or
 * EKOC_ERR_ANOMALOUS_DIMENSION with ekore's message (naming the point; N
 * itself when count is 1), the tower then undefined. */
int ekoc_nspace_towers(const ekoc_nspace_cfg *cfg, size_t count, const double *n_re, const double *n_im,
                       double *scratch, ekoc_complex *tower);

/* Doubles per point of the crate's packed harmonic sums (EKORE_SUMS_LEN). */
#define EKOC_NSPACE_SUMS_LEN 38

/* Whether family cfg's towers can come from packed harmonic sums (the
 * unpolarized QCD evolution towers and OMEs: ekore's *_batch_sums entry
 * points). */
int ekoc_nspace_takes_sums(const ekoc_nspace_cfg *cfg);

/* The packed harmonic sums of the `count` points (EKOC_NSPACE_SUMS_LEN
 * doubles each, ekore_sums_batch), computed once for the towers of every
 * order and nf at those points. Returns EKOC_OK or
 * EKOC_ERR_ANOMALOUS_DIMENSION with ekore's message. */
int ekoc_nspace_sums(size_t count, const double *n_re, const double *n_im, double *sums);

/* ekoc_nspace_towers, bit for bit, from the points' packed sums where the
 * family takes them (ekoc_nspace_takes_sums; sums not NULL), else from N. */
int ekoc_nspace_towers_from_sums(const ekoc_nspace_cfg *cfg, size_t count, const double *n_re, const double *n_im,
                                 const double *sums, double *scratch, ekoc_complex *tower);

/* The CPU evaluator: the tower at N (ekoc_nspace_towers for one point) and
 * the family's elements from it (ekoc_nspace_from_tower) into `out`
 * (EKOC_NSPACE_MAX_ELEMENTS slots). Returns EKOC_OK, or an error code with
 * ekoc_last_error() set naming N (then `out` holds no meaningful value). No
 * allocation. */
int ekoc_nspace_eval(const ekoc_nspace_cfg *cfg, ekoc_complex n, ekoc_complex *out);

/* ekoc_nspace_from_tower for `count` points: out[p * out_stride + e] from
 * tower[p * tower_stride + t], with the same bits. The ordered-exact singlet
 * evolution takes its Magnus steps for groups of points at once
 * (ad/kernel_magnus_batch.h); every other family point by point. Returns the
 * number of points done: count, or the index of a point whose backward-exact
 * matching matrix is singular (then points from there on are not written). */
size_t ekoc_nspace_from_towers(const ekoc_nspace_cfg *cfg, size_t count, const ekoc_complex *tower,
                               size_t tower_stride, ekoc_complex *out, size_t out_stride);

/* Validates an N3LO anomalous-dimension choice (eko's n3lo_ad_variation and
 * use_fhmruvv): EKOC_OK, or EKOC_ERR_INVALID_ARGUMENT naming `field` and the
 * entry out of its range (the ranges are the crate's, as eko's). */
int ekoc_nspace_check_n3lo(const int32_t variation[7], int32_t use_fhmruvv, const char *field);

/* Validates a family configuration (orders, nf, method, finite numbers).
 * Returns EKOC_OK or an error code naming the bad field. */
int ekoc_nspace_cfg_check(const ekoc_nspace_cfg *cfg);

#endif /* EKOC_AD_NSPACE_H */
