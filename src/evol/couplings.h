/* couplings.h (private): the pieces of ekoc_couplings_a_s, exposed for the
 * plan and the tests. docs/physics.md §2; eko module eko.couplings. */
#ifndef EKOC_EVOL_COUPLINGS_H
#define EKOC_EVOL_COUPLINGS_H

#include <stdint.h>

#include "ekoc.h"

/* a_s^(nf)(mu2_to) from a_s^(nf)(mu2_from) = a0 at fixed nf, no thresholds
 * and no eko short-segment skip (docs/physics.md §2.2): EXACT integrates
 * da/dt = -a^2 (1 + b_1 a + b_2 a^2 + b_3 a^3) (truncated at `order` terms,
 * 1..EKOC_MAX_ORDER) in t = beta_0 ln(mu2_to/mu2_from) to ~3e-14 relative
 * (closed form at LO); EXPANDED uses eko's expanded_{lo,nlo,nnlo,n3lo}. No allocation, thread-safe.
 * Errors (*a_out untouched): EKOC_ERR_NULL_POINTER, EKOC_ERR_INVALID_ORDER,
 * EKOC_ERR_INVALID_MODE, EKOC_ERR_INVALID_NF (outside 3..6),
 * EKOC_ERR_INVALID_ARGUMENT (a0 not finite and > 0), EKOC_ERR_INVALID_SCALE,
 * EKOC_ERR_NUMERICAL (Landau pole, non-finite or non-positive result). */
int ekoc_couplings_run(int32_t order, int32_t mode, int32_t nf, double a0, double mu2_from,
                       double mu2_to, double *a_out);

/* The fixed-nf solution behind ekoc_couplings_run for given coefficients
 * beta[0..3] of da/dlnmu^2 = -a^2 sum_k beta[k] a^k (truncated at `order`
 * terms; b_k = beta[k]/beta[0]; beta[0] may be shifted, as eko's fixed-a_em
 * QED running does, or be a QED one), lmu = ln(mu2_to/mu2_from). NAN past the
 * Landau pole; no checks, no error state. */
double ekoc_couplings_solve(int32_t order, int32_t mode, const double beta[4], double a0, double lmu);

/* dydt = f(y) of an autonomous system for ekoc_rge_integrate. */
typedef void (*ekoc_rge_rhs)(const void *ctx, const double *y, double *dydt);

/* Integrates dy/dt = rhs(y), dim 1 or 2 components, from y(0) = y0 to
 * t_end (either sign) with an adaptive Dormand-Prince 5(4), per-step relative
 * error 1e-14 in every component (meant for y = 1/a, nearly linear in t).
 * Returns 0 and writes y_out[0..dim), or -1 when a component leaves (0, inf)
 * or the steps run out (y_out untouched). */
int ekoc_rge_integrate(int dim, ekoc_rge_rhs rhs, const void *ctx, const double *y0, double t_end,
                       double *y_out);

/* eko's constants.MTAU (GeV): the tau lepton mass where n_l changes 2 -> 3. */
#define EKOC_MTAU 1.777

/* eko's lepton_number: 3 charged leptons above m_tau^2, 2 at or below. */
static inline int32_t ekoc_lepton_number(double mu2) { return mu2 > EKOC_MTAU * EKOC_MTAU ? 3 : 2; }

/* How one fixed-nf, fixed-n_l segment of the joint (a_s, a_em) running is
 * solved (docs/physics.md §15.2). */
typedef struct ekoc_qed_running {
  int32_t order;      /* QCD, 1..4 */
  int32_t qed_order;  /* 0..2 */
  int32_t mode;       /* EKOC_COUPLING_EXACT or EKOC_COUPLING_EXPANDED */
  int32_t em_running; /* 0/1 */
} ekoc_qed_running;

/* (a_s, a_em) at mu2_to from (a[0], a[1]) at mu2_from with nf flavours and nl
 * charged leptons, as eko's Couplings.compute (exact: compute_exact_alphaem_running
 * or compute_exact_fixed_alphaem, with ekoc's tight integrator; expanded:
 * couplings_expanded_alphaem_running or couplings_expanded_fixed_alphaem).
 * No eko short-segment skip (the caller's). Inputs are trusted (the object
 * validated them). Returns EKOC_OK and writes out[0..1], or EKOC_ERR_NUMERICAL
 * (error state set) when either coupling comes out non-finite or <= 0. */
int ekoc_couplings_run_qed(const ekoc_qed_running *q, int32_t nf, int32_t nl, const double a[2], double mu2_from,
                           double mu2_to, double out[2]);

/* The factor multiplying a_s at a threshold crossing (eko's Couplings.a):
 * upward (up != 0, a = a_s^(nf)) 1 + sum_{n=1}^{order-1} a^n sum_{l<=n} c_{n,l} L^l
 * with c_{1,1} = 2/3, c_{2,0} = 14/3, c_{2,1} = 38/3, c_{2,2} = 4/9 ([PEG] eq.
 * 2.43, pole masses; c_{1,0} = 0) and at N3LO c_{3,0} = 340.729 - 16.7981 n_f,
 * c_{3,1} = 8941/27 - 409/27 n_f, c_{3,2} = 511/9, c_{3,3} = 8/27 (eko's
 * numbers), n_f = nf_light the flavours below the threshold; downward
 * (a = a_s^(nf+1)) the same with eko's invert_matching_coeffs:
 * d_{1,1} = -c_{1,1}, d_{2,l} = -c_{2,l} for l < 2, d_{2,2} = 2 c_{1,1}^2 - c_{2,2},
 * d_{3,0} = -c_{3,0}, d_{3,1} = 5 c_{1,1} c_{2,0} - c_{3,1},
 * d_{3,2} = 5 c_{1,1} c_{2,1} - c_{3,2}, d_{3,3} = -5 c_{1,1}^3 + 5 c_{1,1} c_{2,2} - c_{3,3}.
 * L = ln(rho k_h^2). order outside 1..4 is treated as 4 (callers validate). */
double ekoc_couplings_matching_factor(int32_t order, int up, int32_t nf_light, double a, double L);

/* 1 + sum_{n=1}^{n_max} a^n sum_{l<=n} c[n][l] L^l (n_max <= 3), c the
 * upward coefficients (c[1][0] = 0), replaced in place by those of the
 * inverse when !up (eko's invert_matching_coeffs, as above): the decoupling
 * factor of a_s and of the MSbar masses (evol/msbar.c), summed in eko's order
 * so that the rounding agrees. */
double ekoc_matching_factor_of(double c[4][4], int up, int n_max, double a, double L);

/* The same factor in the heavy-quark mass scheme masses_scheme
 * (EKOC_MASSES_POLE: bitwise the one above; EKOC_MASSES_MSBAR: eko's MSBAR
 * coefficients c_{2,0} = -22/9, c_{2,1} = 22/3, c_{3,0} = -62.2116 + 5.4177 n_f,
 * c_{3,1} = 365/3 - 67/9 n_f, c_{3,2} = 109/3 + 16/9 n_f, the others and the
 * inversion as above; eko couplings.compute_matching_coeffs_up). */
double ekoc_couplings_matching_factor_scheme(int32_t order, int up, int32_t nf_light, double a, double L,
                                             int32_t masses_scheme);

/* The validated configuration of a coupling object (c not NULL). */
const ekoc_couplings_config *ekoc_couplings_cfg(const ekoc_couplings *c);

#endif /* EKOC_EVOL_COUPLINGS_H */
