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

/* Heavy-quark mass schemes (eko's heavy.masses_scheme): which decoupling
 * coefficients a_s takes at a threshold, and (ekoc_theory) how the masses of
 * the card are read (docs/physics.md §17). */
enum {
  EKOC_MASSES_POLE = 0, /* pole masses (eko's "pole") */
  EKOC_MASSES_MSBAR = 1 /* MSbar masses m(m) (eko's "msbar") */
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
  /* appended after 0.3 (in what was the struct's tail padding: fill the
   * struct with ekoc_couplings_config_default first) */
  int32_t masses_scheme;       /* EKOC_MASSES_POLE (default) or EKOC_MASSES_MSBAR: the decoupling
                                  coefficients of a_s at the thresholds (eko's hqm_scheme); masses2
                                  are the threshold masses either way (MSbar: m(m)^2) */
} ekoc_couplings_config;

/* Fills *cfg with the LHA VFNS setup of docs/physics.md §2.4: NNLO, exact,
 * alpha_s = 0.35 at mu2_ref = 2 GeV^2 with nf_ref = 3, masses^2 2, 20.25,
 * 30625, k_h = 1, rho = 1, max_nf = 6, pole masses. (nf_ref = 3 is eko's LHA VFNS choice:
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
 * or not in (0, 4 pi), em_running not 0 or 1, masses_scheme not 0 or 1), EKOC_ERR_INVALID_ORDER
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
 * 2.43 with pole masses, eko's MSbar coefficients with MSbar masses;
 * downward: its perturbative inverse), truncated at
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

/* ---- MSbar heavy-quark masses (eko's eko.msbar_masses; docs/physics.md §17) ---- */

/* m(mu_1)/m(mu_0) at fixed nf from a_s at both ends, a0 = a_s(mu_0^2) and
 * a1 = a_s(mu_1^2), with the gamma_m and beta coefficients of the QCD order
 * `order` (1..4): EXACT is eko's ker_exact, exp of the integral of
 * gamma_m(a)/(a beta(a)) from a0 to a1 (here to ~1e-15; eko's quad asks
 * 1e-5 relative and gets far better on this smooth integrand), EXPANDED
 * eko's ker_expanded. Errors (*ker_out untouched): EKOC_ERR_NULL_POINTER,
 * EKOC_ERR_INVALID_ORDER, EKOC_ERR_INVALID_MODE, EKOC_ERR_INVALID_NF (outside
 * 3..6), EKOC_ERR_INVALID_ARGUMENT (a0, a1 not finite and > 0), EKOC_ERR_NUMERICAL. */
int ekoc_msbar_kernel(int32_t order, int32_t mode, int32_t nf, double a0, double a1, double *ker_out);

/* m(q2_to)^2 with nf_to flavours from m(q2m_ref)^2 = m2_ref with nf_ref, as
 * eko's msbar_masses.evolve with the strong coupling c (its order, mode and
 * thresholds): fixed-nf segments (a_s at q2 * xif2; ekoc_msbar_kernel; eko's
 * np.isclose short segments skipped) and at each threshold crossed the mass
 * decoupling of [Liu:2015fxa] in a_s of the upper nf with L = ln k_h^2.
 * Like eko, the thresholds of the path are c's matching scales times k_h^2
 * (k_h^2 twice; the same with k_h = 1). Errors (*m2_out untouched):
 * EKOC_ERR_NULL_POINTER, EKOC_ERR_INVALID_ARGUMENT (xif2, m2_ref),
 * EKOC_ERR_INVALID_SCALE, EKOC_ERR_INVALID_NF, those of ekoc_couplings_a_s. */
int ekoc_msbar_evolve(const ekoc_couplings *c, double xif2, double m2_ref, double q2m_ref, int32_t nf_ref,
                      double q2_to, int32_t nf_to, double *m2_out);

/* The threshold masses m_h(m_h)^2 of c, b, t from MSbar masses m_h(mu_h)
 * given at mu_h (GeV; eko's [m, mu] pairs), as eko's msbar_masses.compute:
 * c, b, t in turn (t, b, c when nf_ref > 4), each solved in the patch eko
 * assigns it, with a_s from a coupling whose thresholds not yet known sit at
 * 0 or infinity and whose known ones at the m(m) found, in cfg's order, mode,
 * reference, QED setup and k_h^2 (thresholds_ratio2), shifted by xif2 (eko
 * always does here, whatever the scale-variation method), MSbar decoupling;
 * cfg's masses2, threshold_shift, max_nf and masses_scheme are not read. A
 * mass given at its own value (mu_h = m_h) is kept. m(m) is solved to 1e-15
 * (eko: scipy's fsolve, xtol 1.5e-8). Errors (masses2_out untouched):
 * EKOC_ERR_NULL_POINTER, EKOC_ERR_INVALID_ARGUMENT (xif2), EKOC_ERR_INVALID_NF,
 * EKOC_ERR_INVALID_THRESHOLDS (a mass or scale not finite and > 0; eko's rules
 * on where mu_h may lie against the reference scale and m_h; the m(m) not
 * ascending), EKOC_ERR_NUMERICAL (no m(m) found, the running failing), each
 * naming theory.masses[h] where it concerns one quark. */
int ekoc_msbar_masses(const ekoc_couplings_config *cfg, const double m_ref[3], const double mu_ref[3], double xif2,
                      double masses2_out[3]);

#ifdef __cplusplus
}
#endif

#endif /* EKOC_COUPLINGS_H */
