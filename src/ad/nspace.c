/* nspace.c: the host side of the N-space evaluator (ad/nspace.h): towers of
 * anomalous dimensions and OMEs for many N from the ekore crate through its C
 * ABI (include/ekore.h), the one-point evaluator on top of them, and the
 * family configuration check. */
#include "ad/nspace.h"

#include "ad/axes.h"
#include "ad/beta.h"
#include "ad/kernel_magnus_batch.h"
#include "ad/kernel_qed_batch.h"

#include <math.h>

#include "ekore.h"
#include "status.h"

_Static_assert(EKOC_NSPACE_SUMS_LEN == EKORE_SUMS_LEN, "the packed sums of ekore_sums_batch");

/* Turns an ekore failure into an ekoc status with the crate's message (which
 * names the failing point); a single point's N is named here as well. */
static int ekore_failure(int32_t rc, const char *what, size_t count, const double *n_re, const double *n_im) {
  if (count == 1)
    return ekoc_error(EKOC_ERR_ANOMALOUS_DIMENSION, "%s at N=(%g,%g) failed (ekore code %d): %s", what, n_re[0],
                      n_im[0], (int)rc, ekore_last_error());
  return ekoc_error(EKOC_ERR_ANOMALOUS_DIMENSION, "%s failed (ekore code %d): %s", what, (int)rc, ekore_last_error());
}

/* The crate's form of the N3LO anomalous-dimension choice of cfg (read by
 * the crate at order 4 only). */
static ekore_n3lo n3lo_choice(const ekoc_nspace_cfg *cfg) {
  ekore_n3lo c;
  int i;
  for (i = 0; i < 7; ++i) c.variation[i] = (uint32_t)cfg->n3lo_ad_variation[i];
  c.use_fhmruvv = (uint32_t)cfg->use_fhmruvv;
  return c;
}

int ekoc_nspace_check_n3lo(const int32_t variation[7], int32_t use_fhmruvv, const char *field) {
  static const char *const entry[7] = {"gg", "gq", "qg", "qq", "ns+", "ns-", "nsV"};
  ekore_n3lo c;
  int i;
  if (use_fhmruvv < 0 || use_fhmruvv > 2)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT,
                      "use_fhmruvv=%d is not 0 (eko's own), 1 (FHMRUVV 2024) or 2 (the 2512 set)", (int)use_fhmruvv);
  for (i = 0; i < 7; ++i) {
    if (variation[i] < 0)
      return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "%s[%d] (%s) = %d is negative", field, i, entry[i],
                        (int)variation[i]);
    c.variation[i] = (uint32_t)variation[i];
  }
  c.use_fhmruvv = (uint32_t)use_fhmruvv;
  if (ekore_n3lo_check(&c) != EKORE_OK)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "%s: %s", field, ekore_last_error());
  return EKOC_OK;
}

/* Packs sector `sector` of the crate's QED towers (eko's full arrays, per
 * point [mode][i][j] for the non-singlet sector 0, [i][j][entry] for the
 * matrices) into the family's pair layout at entry offset `first`. */
static int qed_sector(const ekoc_nspace_cfg *cfg, uint32_t sector, int first, size_t count, const double *n_re,
                      const double *n_im, double *re, double *im, ekoc_complex *tower) {
  ekore_n3lo n3lo = n3lo_choice(cfg);
  int o = cfg->order, q = cfg->qed_order, width = (o + 1) * (q + 1), np = ekoc_qed_pairs(o, q);
  int entries = sector == 2 ? 16 : 4, size = ekoc_nspace_family_size(cfg), len = size * np, pp, e;
  size_t raw = (size_t)entries * (size_t)width, pt;
  uint32_t physics = (uint32_t)cfg->physics;
  int32_t rc = ekore_gamma_qed_batch_physics(sector, (uint32_t)o, (uint32_t)q, &n3lo, physics, n_re, n_im, count,
                                             (uint32_t)cfg->nf, re, im);
  if (rc != 0) return ekore_failure(rc, "ekore_gamma_qed_batch_physics", count, n_re, n_im);
  for (pt = 0; pt < count; ++pt)
    for (pp = 0; pp < np; ++pp) {
      int i, j;
      ekoc_qed_pair(o, pp, &i, &j);
      for (e = 0; e < entries; ++e) {
        size_t at = pt * raw + (sector == 0 ? (size_t)e * width + (size_t)(i * (q + 1) + j)
                                            : (size_t)(i * (q + 1) + j) * entries + (size_t)e);
        tower[pt * (size_t)len + (size_t)(pp * size + first + e)] = c_make(re[at], im[at]);
      }
    }
  return EKOC_OK;
}

/* The polarized or time-like evolution towers (the crate's _pol / _tl
 * entry points, the layouts of the unpolarized ones). */
static int axis_evolution_towers(const ekoc_nspace_cfg *cfg, size_t count, const double *n_re, const double *n_im,
                                 double *re, double *im, ekoc_complex *tower) {
  uint32_t order = (uint32_t)cfg->order, nf = (uint32_t)cfg->nf, physics = (uint32_t)cfg->physics;
  size_t len = (size_t)ekoc_nspace_tower_len(cfg), p;
  int32_t rc;
  const char *what;
  if (cfg->family == EKOC_FAMILY_NS) {
    what = cfg->polarized ? "ekore_gamma_ns_all_batch_pol_physics" : "ekore_gamma_ns_all_batch_tl_physics";
    rc = cfg->polarized ? ekore_gamma_ns_all_batch_pol_physics(order, physics, n_re, n_im, count, nf, re, im)
                        : ekore_gamma_ns_all_batch_tl_physics(order, physics, n_re, n_im, count, nf, re, im);
  } else {
    what = cfg->polarized ? "ekore_gamma_singlet_batch_pol_physics" : "ekore_gamma_singlet_batch_tl_physics";
    rc = cfg->polarized ? ekore_gamma_singlet_batch_pol_physics(order, physics, n_re, n_im, count, nf, re, im)
                        : ekore_gamma_singlet_batch_tl_physics(order, physics, n_re, n_im, count, nf, re, im);
  }
  if (rc != 0) return ekore_failure(rc, what, count, n_re, n_im);
  for (p = 0; p < count * len; ++p) tower[p] = c_make(re[p], im[p]);
  return EKOC_OK;
}

/* The polarized or time-like matching towers, one point at a time; the
 * time-like OMEs are known at O(a_s) only: eko's higher orders are zero (and
 * no physics choice reaches them). */
static int axis_matching_towers(const ekoc_nspace_cfg *cfg, size_t count, const double *n_re, const double *n_im,
                                double *re, double *im, ekoc_complex *tower) {
  int ns = cfg->family == EKOC_FAMILY_NS, width = ns ? 4 : 9;
  uint32_t known = (uint32_t)cfg->order, nf = (uint32_t)cfg->nf, physics = (uint32_t)cfg->physics;
  size_t len = (size_t)ekoc_nspace_tower_len(cfg), p, i;
  int32_t rc;
  if (cfg->time_like && known > EKOC_TIME_LIKE_OME_ORDER) known = EKOC_TIME_LIKE_OME_ORDER;
  for (p = 0; p < count; ++p) {
    if (cfg->polarized)
      rc = ns ? ekore_ome_ns_pol_physics(known, physics, n_re[p], n_im[p], nf, cfg->ome_log, re, im)
              : ekore_ome_singlet_pol_physics(known, physics, n_re[p], n_im[p], nf, cfg->ome_log, re, im);
    else
      rc = ns ? ekore_ome_ns_tl(known, n_re[p], n_im[p], nf, cfg->ome_log, re, im)
              : ekore_ome_singlet_tl(known, n_re[p], n_im[p], nf, cfg->ome_log, re, im);
    if (rc != 0)
      return ekore_failure(rc, cfg->polarized ? (ns ? "ekore_ome_ns_pol_physics" : "ekore_ome_singlet_pol_physics")
                                              : (ns ? "ekore_ome_ns_tl" : "ekore_ome_singlet_tl"),
                           1, n_re + p, n_im + p);
    for (i = 0; i < len; ++i)
      tower[p * len + i] = i < (size_t)width * known ? c_make(re[i], im[i]) : c_real(0.0);
  }
  return EKOC_OK;
}

/* The unpolarized QCD evolution towers, from N or, when sums is not NULL,
 * from the points' packed harmonic sums (ekore's *_batch_sums entry points:
 * the same bits). */
static int evolution_towers(const ekoc_nspace_cfg *cfg, size_t count, const double *n_re, const double *n_im,
                            const double *sums, double *re, double *im, ekoc_complex *tower) {
  uint32_t order = (uint32_t)cfg->order, nf = (uint32_t)cfg->nf, physics = (uint32_t)cfg->physics;
  size_t len = (size_t)ekoc_nspace_tower_len(cfg), p;
  ekore_n3lo n3lo = n3lo_choice(cfg);
  int32_t rc;
  const char *what;
  if (cfg->family == EKOC_FAMILY_NS) {
    /* the three sectors in one call sharing each point's harmonic sums (below
     * NNLO the crate gives nsV = ns-, below NLO all three = ns+, docs/physics.md
     * §1.3); its layout (3p + m)*order + i is the tower's: len = 3*order */
    what = sums ? "ekore_gamma_ns_all_batch_sums_physics" : "ekore_gamma_ns_all_batch_physics";
    rc = sums ? ekore_gamma_ns_all_batch_sums_physics(order, &n3lo, physics, sums, count, nf, re, im)
              : ekore_gamma_ns_all_batch_physics(order, &n3lo, physics, n_re, n_im, count, nf, re, im);
  } else { /* each point bitwise ekore_gamma_singlet's (the crate's contract) */
    what = sums ? "ekore_gamma_singlet_batch_sums_physics" : "ekore_gamma_singlet_batch_physics";
    rc = sums ? ekore_gamma_singlet_batch_sums_physics(order, &n3lo, physics, sums, count, nf, re, im)
              : ekore_gamma_singlet_batch_physics(order, &n3lo, physics, n_re, n_im, count, nf, re, im);
  }
  if (rc != 0) return ekore_failure(rc, what, count, n_re, n_im);
  for (p = 0; p < count * len; ++p) tower[p] = c_make(re[p], im[p]);
  return EKOC_OK;
}

/* The unpolarized matching towers (OMEs) of all points from their packed
 * harmonic sums: one crate call (ekore_ome_*_batch_sums), each point's values
 * bitwise those of ekore_ome_ns / ekore_ome_singlet. */
static int matching_towers_from_sums(const ekoc_nspace_cfg *cfg, size_t count, const double *n_re,
                                     const double *n_im, const double *sums, double *re, double *im,
                                     ekoc_complex *tower) {
  int ns = cfg->family == EKOC_FAMILY_NS;
  uint32_t order = (uint32_t)cfg->order, nf = (uint32_t)cfg->nf, physics = (uint32_t)cfg->physics;
  uint32_t msbar = (uint32_t)cfg->mass_scheme;
  size_t len = (size_t)ekoc_nspace_tower_len(cfg), p;
  int32_t rc = ns ? ekore_ome_ns_batch_sums_physics(order, physics, sums, count, nf, cfg->ome_log, re, im)
                  : ekore_ome_singlet_batch_sums_msbar(order, physics, msbar, sums, count, nf, cfg->ome_log, re, im);
  if (rc != 0)
    return ekore_failure(rc, ns ? "ekore_ome_ns_batch_sums_physics" : "ekore_ome_singlet_batch_sums_msbar", count,
                         n_re, n_im);
  for (p = 0; p < count * len; ++p) tower[p] = c_make(re[p], im[p]);
  return EKOC_OK;
}

int ekoc_nspace_takes_sums(const ekoc_nspace_cfg *cfg) {
  return !ekoc_nspace_is_qed(cfg) && !cfg->polarized && !cfg->time_like &&
         (cfg->kind == EKOC_KIND_EVOLUTION || cfg->kind == EKOC_KIND_MATCHING) &&
         (cfg->family == EKOC_FAMILY_NS || cfg->family == EKOC_FAMILY_SINGLET);
}

int ekoc_nspace_sums(size_t count, const double *n_re, const double *n_im, double *sums) {
  int32_t rc = ekore_sums_batch(n_re, n_im, count, sums);
  return rc != 0 ? ekore_failure(rc, "ekore_sums_batch", count, n_re, n_im) : EKOC_OK;
}

int ekoc_nspace_towers_from_sums(const ekoc_nspace_cfg *cfg, size_t count, const double *n_re, const double *n_im,
                                 const double *sums, double *scratch, ekoc_complex *tower) {
  int evolution = cfg->kind == EKOC_KIND_EVOLUTION;
  if (!sums || !ekoc_nspace_takes_sums(cfg) || cfg->order < 1 ||
      cfg->order > (evolution ? EKOC_MAX_ORDER : EKOC_MAX_MATCHING_ORDER))
    return ekoc_nspace_towers(cfg, count, n_re, n_im, scratch, tower);
  if (count == 0) return EKOC_OK;
  if (!evolution)
    return matching_towers_from_sums(cfg, count, n_re, n_im, sums, scratch, scratch + count * EKOC_NSPACE_MAX_RAW,
                                     tower);
  return evolution_towers(cfg, count, n_re, n_im, sums, scratch, scratch + count * EKOC_NSPACE_MAX_RAW, tower);
}

int ekoc_nspace_towers(const ekoc_nspace_cfg *cfg, size_t count, const double *n_re, const double *n_im,
                       double *scratch, ekoc_complex *tower) {
  size_t len, p, order, i;
  double *re = scratch, *im = scratch + count * EKOC_NSPACE_MAX_RAW;
  int32_t rc;
  /* the per-point kernel hands its configuration over unchecked: bound the
   * order before any length is formed, so the tower always fits */
  if (cfg->order < 0 || cfg->order > (cfg->kind == EKOC_KIND_EVOLUTION ? EKOC_MAX_ORDER : EKOC_MAX_MATCHING_ORDER))
    return ekoc_error(EKOC_ERR_INVALID_ORDER, "order=%d outside 0..%d", (int)cfg->order,
                      cfg->kind == EKOC_KIND_EVOLUTION ? EKOC_MAX_ORDER : EKOC_MAX_MATCHING_ORDER);
  len = (size_t)ekoc_nspace_tower_len(cfg);
  order = (size_t)cfg->order;
  if (count == 0 || len == 0) return EKOC_OK;
  if (ekoc_nspace_is_qed(cfg)) {
    if (cfg->qed_order < 1 || cfg->qed_order > EKOC_MAX_QED_ORDER || cfg->order < 1)
      return ekoc_error(EKOC_ERR_INVALID_ORDER, "qed_order=%d outside 1..%d", (int)cfg->qed_order, EKOC_MAX_QED_ORDER);
    if (cfg->family == EKOC_FAMILY_QED_SINGLET) return qed_sector(cfg, 2, 0, count, n_re, n_im, re, im, tower);
    rc = qed_sector(cfg, 0, 0, count, n_re, n_im, re, im, tower);
    return rc != EKOC_OK ? rc : qed_sector(cfg, 1, 4, count, n_re, n_im, re, im, tower);
  }
  if (cfg->kind == EKOC_KIND_EVOLUTION && (cfg->polarized || cfg->time_like))
    return axis_evolution_towers(cfg, count, n_re, n_im, re, im, tower);
  if (cfg->kind == EKOC_KIND_MATCHING && (cfg->polarized || cfg->time_like))
    return axis_matching_towers(cfg, count, n_re, n_im, re, im, tower);
  if (cfg->kind == EKOC_KIND_EVOLUTION) {
    return evolution_towers(cfg, count, n_re, n_im, NULL, re, im, tower);
  } else {
    uint32_t physics = (uint32_t)cfg->physics, nf = (uint32_t)cfg->nf, msbar = (uint32_t)cfg->mass_scheme;
    int ns = cfg->family == EKOC_FAMILY_NS;
    for (p = 0; p < count; ++p) {
      rc = ns ? ekore_ome_ns_physics((uint32_t)order, physics, n_re[p], n_im[p], nf, cfg->ome_log, re, im)
              : ekore_ome_singlet_msbar((uint32_t)order, physics, msbar, n_re[p], n_im[p], nf, cfg->ome_log, re, im);
      if (rc != 0)
        return ekore_failure(rc, ns ? "ekore_ome_ns_physics" : "ekore_ome_singlet_msbar", 1, n_re + p, n_im + p);
      for (i = 0; i < len; ++i) tower[p * len + i] = c_make(re[i], im[i]);
    }
  }
  return EKOC_OK;
}

/* Points per group of the batched singlet kernel (a stack buffer of their gammas). */
#define FROM_TOWERS_GROUP 64
/* points of a QED family whose towers are copied and shifted at a time (stack: ~2 KB each) */
#define QED_GROUP 16

/* ekoc_nspace_from_tower of a QED family for a group of points at a time:
 * each tower shifted (a copy), the matrix kernels of the group at once
 * (ad/kernel_qed_batch.h: the same bits), the non-singlet step integrals
 * once for all points, the rest point by point. The
 * configuration passed ekoc_nspace_from_tower's sanity checks. */
static void qed_from_towers(const ekoc_nspace_cfg *cfg, size_t count, const ekoc_complex *tower, size_t tower_stride,
                            ekoc_complex *out, size_t out_stride) {
  ekoc_qed_steps st = ekoc_qed_steps_of(cfg->ev_op_iterations, cfg->qed_couplings);
  int len = ekoc_nspace_tower_len(cfg), ns = cfg->family == EKOC_FAMILY_QED_NS, dim = ns ? 2 : 4, i;
  double step_j[EKOC_MAX_EV_OP_ITERATIONS * EKOC_MAX_ORDER]; /* the non-singlet kernel's, the same at every N */
  size_t p, p0;
  if (ns)
    for (i = 0; i < st.n; ++i)
      ekoc_kernel_qed_ns_step_integrals(cfg->order, cfg->beta, ekoc_beta_qcd_as2aem1(cfg->nf), st, i,
                                        step_j + (size_t)i * EKOC_MAX_ORDER);
  for (p0 = 0; p0 < count; p0 += QED_GROUP) {
    ekoc_complex t[QED_GROUP][EKOC_NSPACE_MAX_TOWER], matrix[QED_GROUP][EKOC_QED_MAX_DIM2];
    size_t n = count - p0 < QED_GROUP ? count - p0 : QED_GROUP;
    for (p = 0; p < n; ++p) { /* the scale-variation shift works in place */
      for (i = 0; i < len; ++i) t[p][i] = tower[(p0 + p) * tower_stride + (size_t)i];
      ekoc_nspace_qed_shift(cfg, t[p]);
    }
    ekoc_kernel_qed_matrix_batch(cfg->order, cfg->qed_order, dim, cfg->beta, ekoc_beta_qcd_as2aem1(cfg->nf), st, n,
                                 &t[0][ns ? 4 : 0], EKOC_NSPACE_MAX_TOWER, ns ? 8 : 16, &matrix[0][0],
                                 EKOC_QED_MAX_DIM2);
    for (p = 0; p < n; ++p) ekoc_nspace_qed_finish(cfg, t[p], matrix[p], step_j, out + (p0 + p) * out_stride);
  }
}

size_t ekoc_nspace_from_towers(const ekoc_nspace_cfg *cfg, size_t count, const ekoc_complex *tower,
                               size_t tower_stride, ekoc_complex *out, size_t out_stride) {
  ekoc_kernel_cfg k = ekoc_nspace_kernel_cfg(cfg);
  size_t p, p0;
  if (ekoc_nspace_is_qed(cfg) && cfg->qed_couplings && cfg->ev_op_iterations >= 1 &&
      cfg->ev_op_iterations <= EKOC_MAX_EV_OP_ITERATIONS && cfg->qed_order >= 1 &&
      cfg->qed_order <= EKOC_MAX_QED_ORDER && cfg->order >= 1 &&
      cfg->order <= EKOC_MAX_ORDER) { /* else ekoc_nspace_from_tower's NaN, point by point */
    qed_from_towers(cfg, count, tower, tower_stride, out, out_stride);
    return count;
  }
  if (!ekoc_nspace_is_qed(cfg) && cfg->kind == EKOC_KIND_EVOLUTION && cfg->family == EKOC_FAMILY_NS) {
    /* ekoc_nspace_from_tower's non-singlet steps, the evolution integrals once */
    double j[EKOC_MAX_ORDER];
    ekoc_kernel_ns_evolution_integrals(&k, j);
    for (p = 0; p < count; ++p) {
      ekoc_complex gamma[3][EKOC_MAX_ORDER];
      ekoc_nspace_ns_gamma(cfg, tower + p * tower_stride, gamma);
      ekoc_nspace_evolution_ns_with(cfg, &k, j, gamma, out + p * out_stride);
    }
    return count;
  }
  if (ekoc_nspace_is_qed(cfg) || cfg->kind != EKOC_KIND_EVOLUTION || cfg->family == EKOC_FAMILY_NS ||
      cfg->method != EKOC_METHOD_ORDERED_EXACT || !ekoc_kernel_cfg_valid(&k) || k.a1 == k.a0 || k.order == 1) {
    for (p = 0; p < count; ++p)
      if (!ekoc_nspace_from_tower(cfg, tower + p * tower_stride, out + p * out_stride)) return p;
    return count;
  }
  /* ekoc_nspace_from_tower's singlet steps with the kernel of a group at once */
  for (p0 = 0; p0 < count; p0 += FROM_TOWERS_GROUP) {
    ekoc_cmat2 gamma[FROM_TOWERS_GROUP][EKOC_MAX_ORDER], e[FROM_TOWERS_GROUP];
    size_t n = count - p0 < FROM_TOWERS_GROUP ? count - p0 : FROM_TOWERS_GROUP;
    for (p = 0; p < n; ++p) ekoc_nspace_singlet_gamma(cfg, tower + (p0 + p) * tower_stride, gamma[p]);
    ekoc_kernel_magnus_batch(&k, n, &gamma[0][0], EKOC_MAX_ORDER, e);
    for (p = 0; p < n; ++p) ekoc_nspace_singlet_out(cfg, gamma[p], e[p], out + (p0 + p) * out_stride);
  }
  return count;
}

int ekoc_nspace_eval(const ekoc_nspace_cfg *cfg, ekoc_complex n, ekoc_complex *out) {
  double scratch[EKOC_NSPACE_TOWER_SCRATCH(1)];
  ekoc_complex tower[EKOC_NSPACE_MAX_TOWER];
  int rc = ekoc_nspace_towers(cfg, 1, &n.re, &n.im, scratch, tower);
  if (rc != EKOC_OK) return rc;
  if (!ekoc_nspace_from_tower(cfg, tower, out))
    return ekoc_error(EKOC_ERR_NUMERICAL, "matching matrix at N=(%g,%g) is singular (backward exact inversion)", n.re,
                      n.im);
  return EKOC_OK;
}

/* The QED fields of a qed_* family (docs/physics.md §15.3): eko computes QED
 * only with iterate-exact, and its exponentiated scale variation only with a
 * running a_em. */
static int qed_cfg_check(const ekoc_nspace_cfg *cfg) {
  int i, n;
  if (cfg->kind != EKOC_KIND_EVOLUTION)
    return ekoc_error(EKOC_ERR_INVALID_MODE, "family=%d (QED) is an evolution family, kind=%d", (int)cfg->family,
                      (int)cfg->kind);
  if (cfg->qed_order < 1 || cfg->qed_order > EKOC_MAX_QED_ORDER)
    return ekoc_error(EKOC_ERR_INVALID_ORDER, "qed_order=%d outside 1..%d for a QED family", (int)cfg->qed_order,
                      EKOC_MAX_QED_ORDER);
  if (cfg->qed_order > EKOC_IMPLEMENTED_QED_ORDER)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "qed_order=%d is not implemented (1..%d)", (int)cfg->qed_order,
                      EKOC_IMPLEMENTED_QED_ORDER);
  if (cfg->method != EKOC_METHOD_ITERATE_EXACT)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "method=%d: with QED only iterate-exact is available (as in eko)",
                      (int)cfg->method);
  if (cfg->em_running != 0 && cfg->em_running != 1)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "em_running=%d is neither 0 nor 1", (int)cfg->em_running);
  if (cfg->sv_mode == EKOC_SV_EXPONENTIATED && !cfg->em_running)
    return ekoc_error(EKOC_ERR_UNSUPPORTED,
                      "sv_mode=exponentiated with a fixed a_em (em_running=0) is not available with QED (eko fails)");
  if (cfg->lepton_number != 2 && cfg->lepton_number != 3)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "lepton_number=%d is neither 2 nor 3", (int)cfg->lepton_number);
  if (!isfinite(cfg->qed_log_step))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "qed_log_step=%g is not finite", cfg->qed_log_step);
  if (!cfg->qed_couplings) return ekoc_error(EKOC_ERR_NULL_POINTER, "qed_couplings is NULL for a QED family");
  if (cfg->ev_op_iterations < 1 || cfg->ev_op_iterations > EKOC_MAX_EV_OP_ITERATIONS)
    return ekoc_error(EKOC_ERR_INVALID_ITERATIONS, "ev_op_iterations=%d outside 1..%d", (int)cfg->ev_op_iterations,
                      EKOC_MAX_EV_OP_ITERATIONS);
  n = 3 * cfg->ev_op_iterations + 1;
  for (i = 0; i < n; ++i)
    if (!isfinite(cfg->qed_couplings[i]) || cfg->qed_couplings[i] <= 0.0)
      return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "qed_couplings[%d]=%g is not a positive finite coupling", i,
                        cfg->qed_couplings[i]);
  return EKOC_OK;
}

/* Polarized or time-like (docs/physics.md §16): what eko has of them. */
static int axis_cfg_check(const ekoc_nspace_cfg *cfg) {
  if (cfg->polarized && cfg->time_like)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "polarized=1 with time_like=1: eko has no polarized time-like evolution");
  if (ekoc_nspace_is_qed(cfg))
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "%s=1 with a QED family: eko's QED ignores the axis",
                      cfg->polarized ? "polarized" : "time_like");
  if (cfg->kind == EKOC_KIND_EVOLUTION && cfg->order > EKOC_IMPLEMENTED_AXIS_ORDER)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "order=%d with %s=1: eko has LO..NNLO (1..%d)", (int)cfg->order,
                      cfg->polarized ? "polarized" : "time_like", EKOC_IMPLEMENTED_AXIS_ORDER);
  if (cfg->kind == EKOC_KIND_MATCHING && cfg->polarized && cfg->order > EKOC_IMPLEMENTED_POLARIZED_MATCHING_ORDER)
    return ekoc_error(EKOC_ERR_UNSUPPORTED, "matching order=%d with polarized=1: eko's polarized OMEs go to O(a_s^%d)",
                      (int)cfg->order, EKOC_IMPLEMENTED_POLARIZED_MATCHING_ORDER);
  return EKOC_OK;
}

int ekoc_nspace_cfg_check(const ekoc_nspace_cfg *cfg) {
  int i;
  if (!cfg) return ekoc_error(EKOC_ERR_NULL_POINTER, "nspace config is NULL");
  if (cfg->kind != EKOC_KIND_EVOLUTION && cfg->kind != EKOC_KIND_MATCHING)
    return ekoc_error(EKOC_ERR_INVALID_MODE, "kind=%d is neither evolution (0) nor matching (1)", (int)cfg->kind);
  if (cfg->family < EKOC_FAMILY_NS || cfg->family > EKOC_FAMILY_QED_SINGLET)
    return ekoc_error(EKOC_ERR_INVALID_MODE, "family=%d is not an EKOC_FAMILY_* (0..3)", (int)cfg->family);
  if (ekoc_nspace_is_qed(cfg)) {
    int rc = qed_cfg_check(cfg);
    if (rc != EKOC_OK) return rc;
  }
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
    if (cfg->order == 4) {
      int rc = ekoc_nspace_check_n3lo(cfg->n3lo_ad_variation, cfg->use_fhmruvv, "n3lo_ad_variation");
      if (rc != EKOC_OK) return rc;
    }
  } else {
    if (cfg->order < 0 || cfg->order > EKOC_MAX_MATCHING_ORDER)
      return ekoc_error(EKOC_ERR_INVALID_ORDER, "matching order=%d outside 0..%d", (int)cfg->order,
                        EKOC_MAX_MATCHING_ORDER);
    if (cfg->order > EKOC_IMPLEMENTED_MATCHING_ORDER)
      return ekoc_error(EKOC_ERR_UNSUPPORTED, "matching order=%d (O(a_s^3) OMEs) is not implemented yet (0..%d)",
                        (int)cfg->order, EKOC_IMPLEMENTED_MATCHING_ORDER);
    if (cfg->matching_method < EKOC_MATCHING_FORWARD || cfg->matching_method > EKOC_MATCHING_BACKWARD_EXPANDED)
      return ekoc_error(EKOC_ERR_INVALID_METHOD, "matching_method=%d unknown", (int)cfg->matching_method);
  }
  if ((cfg->polarized != 0 && cfg->polarized != 1) || (cfg->time_like != 0 && cfg->time_like != 1))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "polarized=%d / time_like=%d must be 0 or 1", (int)cfg->polarized,
                      (int)cfg->time_like);
  if (cfg->polarized || cfg->time_like) {
    int rc = axis_cfg_check(cfg);
    if (rc != EKOC_OK) return rc;
  }
  if (cfg->physics != EKOC_PHYSICS_EKO && cfg->physics != EKOC_PHYSICS_EXACT)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT,
                      "physics=%d is neither EKOC_PHYSICS_EKO (0) nor EKOC_PHYSICS_EXACT (1)", (int)cfg->physics);
  if (cfg->mass_scheme != EKOC_MASSES_POLE && cfg->mass_scheme != EKOC_MASSES_MSBAR)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT,
                      "mass_scheme=%d is neither EKOC_MASSES_POLE (0) nor EKOC_MASSES_MSBAR (1)", (int)cfg->mass_scheme);
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
