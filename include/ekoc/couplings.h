/* ekoc/couplings.h: the strong coupling a_s = alpha_s / (4 pi) with
 * heavy-quark thresholds, and optionally a_em = alpha_em / (4 pi) running with
 * it, as eko's `eko.couplings.Couplings` computes them (docs/physics.md §2,
 * §15.2; eko module eko.couplings, eko.matchings).
 *
 * Included by ekoc.h; plain C, usable from C++.
 */
#ifndef EKOC_COUPLINGS_H
#define EKOC_COUPLINGS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How the renormalisation-group equation is solved (docs/physics.md §2.2). eko uses
 * EXACT for the *-exact methods and EXPANDED for every other method. */
enum {
  EKOC_COUPLING_EXACT = 0,   /* da/dt = -a^2 sum_k b_k a^k integrated numerically (closed form at LO) */
  EKOC_COUPLING_EXPANDED = 1 /* eko's truncated closed formulas (APFEL's NNLO) */
};

/* A running coupling with its thresholds. Opaque and immutable after
 * ekoc_couplings_new, so one object may be shared by any number of threads. */
typedef struct ekoc_couplings ekoc_couplings;

/* What defines a running coupling (eko's TheoryCard couplings/heavy parts,
 * with the masses and the threshold ratios already squared). */
typedef struct ekoc_couplings_config {
  int32_t order;               /* 1..4 (LO..N3LO): beta_0..beta_{order-1}; decoupling to a_s^{order-1} */
  int32_t mode;                /* EKOC_COUPLING_EXACT or EKOC_COUPLING_EXPANDED */
  double alphas_ref;           /* alpha_s(mu2_ref) with nf_ref flavours (not divided by 4 pi) */
  double mu2_ref;              /* reference scale mu_ref^2 in GeV^2 */
  int32_t nf_ref;              /* flavours at the reference scale, 3..max_nf */
  double masses2[3];           /* m_c^2, m_b^2, m_t^2: pole masses squared, finite, > 0, non-decreasing */
  double thresholds_ratio2[3]; /* k_h^2 >= 0: matching at mu_h^2 = k_h^2 m_h^2 (0 and INFINITY allowed:
                                  eko's FFNS uses k_c = 0, k_b = k_t = inf) */
  double threshold_shift;      /* rho > 0 multiplying every matching scale (xif^2 in exponentiated scale
                                  variation, 1 otherwise); the decoupling log is L_h = ln(rho k_h^2) */
  int32_t max_nf;              /* highest nf reachable, 3..6: thresholds whose upper nf exceeds it sit at
                                  +infinity (never crossed) */
  /* QED (docs/physics.md §15.2; appended, ABI: append only) */
  int32_t qed_order;           /* 0..2: loops of the QED beta function (eko's order[1]); 0 = pure QCD */
  double alphaem_ref;          /* alpha_em(mu2_ref) (not divided by 4 pi), in (0, 4 pi); enters when
                                  qed_order > 0 */
  int32_t em_running;          /* 1: a_em runs jointly with a_s; 0: a_em stays alphaem_ref / (4 pi) */
} ekoc_couplings_config;

/* Fills *cfg with the LHA VFNS setup of docs/physics.md §2.4: NNLO, exact,
 * alpha_s = 0.35 at mu2_ref = 2 GeV^2 with nf_ref = 3, masses^2 2, 20.25,
 * 30625, k_h = 1, rho = 1, max_nf = 6. (nf_ref = 3 is eko's LHA VFNS choice:
 * 0.35 is alpha_s^(3)(2).) No QED: qed_order = 0, alphaem_ref = 0.007496252
 * (eko's default), em_running = 0. NULL is ignored. */
void ekoc_couplings_config_default(ekoc_couplings_config *cfg);

/* sizeof(ekoc_couplings_config), for bindings that mirror the struct. */
size_t ekoc_couplings_config_sizeof(void);

/* Validates *cfg and builds the coupling object (one allocation; later calls
 * never allocate). Errors (message names the field and value; *out untouched):
 * EKOC_ERR_NULL_POINTER (cfg, out), EKOC_ERR_INVALID_ORDER (order),
 * EKOC_ERR_INVALID_MODE (mode), EKOC_ERR_INVALID_ARGUMENT (alphas_ref not
 * finite and > 0, threshold_shift not finite and > 0, alphaem_ref not finite
 * or not in (0, 4 pi), em_running not 0 or 1), EKOC_ERR_INVALID_ORDER
 * (qed_order outside 0..2), EKOC_ERR_INVALID_SCALE
 * (mu2_ref), EKOC_ERR_INVALID_NF (nf_ref, max_nf, nf_ref > max_nf),
 * EKOC_ERR_INVALID_THRESHOLDS (masses2 not finite/positive/non-decreasing,
 * thresholds_ratio2 negative or NaN, matching scales not non-decreasing),
 * EKOC_ERR_NO_MEMORY. On success *out owns the object (ekoc_couplings_free). */
int ekoc_couplings_new(const ekoc_couplings_config *cfg, ekoc_couplings **out);

/* Releases a coupling object; NULL is fine. */
void ekoc_couplings_free(ekoc_couplings *c);

/* a_s^(nf_to)(mu2) as eko's Couplings.a_s(mu2, nf_to): walks from
 * (mu2_ref, nf_ref) crossing exactly the thresholds needed to reach nf_to, in
 * order, whatever the natural nf of mu2 (eko's Atlas.path), runs each segment
 * at fixed nf and applies the decoupling at each crossing (upward: [PEG] eq.
 * 2.43, pole masses; downward: its perturbative inverse), truncated at
 * a_s^{order-1}. nf_to < 0 means the natural nf at mu2 (ekoc_couplings_nf_at).
 * Like eko, a segment whose ends are np.isclose (|d| <= 1e-8 + 1e-5 |end|) is
 * not run. Thread-safe, no allocation. Errors (*a_s_out untouched):
 * EKOC_ERR_NULL_POINTER, EKOC_ERR_INVALID_SCALE (mu2 not finite and > 0),
 * EKOC_ERR_INVALID_NF (nf_to outside 3..max_nf, or a threshold on the way
 * sits at 0 or infinity), EKOC_ERR_NUMERICAL (the running hits the Landau
 * pole or gives a non-finite or non-positive a_s). With qed_order > 0 it is
 * the a_s component of ekoc_couplings_a. */
int ekoc_couplings_a_s(const ekoc_couplings *c, double mu2, int32_t nf_to, double *a_s_out);

/* a_s^(nf_to)(mu2) and a_em(mu2) = alpha_em/(4 pi) together, as eko's
 * Couplings.a(mu2, nf_to) (docs/physics.md §15.2). The walk, nf_to and the
 * errors are those of ekoc_couplings_a_s, whose a_s this is (bitwise). With
 * qed_order = 0, a_s is the pure-QCD one and a_em = alphaem_ref / (4 pi).
 * With qed_order > 0 a segment (not skipped as short) whose ends lie on
 * different sides of m_tau^2 (m_tau = 1.777 GeV) is split there, n_l = 3
 * charged leptons above m_tau^2 and 2 at or below it; thresholds match a_s
 * only (a_em is continuous). Per segment: EXACT with em_running integrates
 * the coupled RGE (a_s: beta_0..beta_{order-1} and beta_qcd(2,1) a_em;
 * a_em: beta_qed(0,2) [+ beta_qed(0,3) a_em at qed_order 2] + beta_qed(1,2) a_s)
 * to ~1e-13 relative; EXACT without it runs a_s with beta_0 -> beta_0 +
 * a_em beta_qcd(2,1) and keeps a_em; EXPANDED uses eko's closed formulas
 * (couplings_expanded_alphaem_running / couplings_expanded_fixed_alphaem).
 * Either out pointer may be NULL (not both). Errors (outputs untouched): as
 * ekoc_couplings_a_s, EKOC_ERR_NUMERICAL also for a non-finite or
 * non-positive a_em. */
int ekoc_couplings_a(const ekoc_couplings *c, double mu2, int32_t nf_to, double *a_s_out, double *a_em_out);

/* The natural number of flavours at mu2 (eko's nf_default): 3 plus the number
 * of matching scales mu_h^2 <= mu2 among those reachable (upper nf <= max_nf);
 * at a matching scale itself the upper nf. Errors (*nf_out untouched):
 * EKOC_ERR_NULL_POINTER, EKOC_ERR_INVALID_SCALE (mu2 not finite and > 0). */
int ekoc_couplings_nf_at(const ekoc_couplings *c, double mu2, int32_t *nf_out);

/* The matching scales rho k_h^2 m_h^2 the coupling uses for c, b, t (+inf for
 * thresholds above max_nf), e.g. to build an evolution path consistent with
 * it. Errors: EKOC_ERR_NULL_POINTER (mu2_thr untouched). */
int ekoc_couplings_matching_scales(const ekoc_couplings *c, double mu2_thr[3]);

#ifdef __cplusplus
}
#endif

#endif /* EKOC_COUPLINGS_H */
