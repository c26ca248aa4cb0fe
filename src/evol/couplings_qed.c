/* couplings_qed.c: one fixed-nf, fixed-n_l segment of the joint running of
 * a_s and a_em = alpha_em/(4 pi), as eko's Couplings.compute with order[1] > 0
 * (docs/physics.md §15.2; eko module eko.couplings, the check of every number).
 * The walk over thresholds and m_tau is in couplings.c. Written from the
 * formulas; the exact modes are integrated to ~1e-13 where eko uses scipy
 * Radau with rtol 1e-6. */
#include <math.h>

#include "ad/beta.h"
#include "ad/beta_qed.h"
#include "evol/couplings.h"
#include "status.h"

/* The coupled RGE in y = (1/a_s, 1/a_em) and t = ln(mu2/mu2_from):
 *   dy_s/dt  = beta_0 + beta_1/y_s + beta_2/y_s^2 + beta_3/y_s^3 + beta_qcd(2,1)/y_em,
 *   dy_em/dt = beta_qed(0,2) + beta_qed(0,3)/y_em + beta_qed(1,2)/y_s,
 * i.e. da/dt = -a^2 (...) for each coupling; the unused coefficients are 0. */
typedef struct coupled_rge {
  double qcd[4];     /* beta_0..beta_3 (0 above the QCD order) */
  double qcd_mix;    /* beta_qcd(2,1) */
  double qed[2];     /* beta_qed(0,2), beta_qed(0,3) (0 at qed_order 1) */
  double qed_mix;    /* beta_qed(1,2) */
} coupled_rge;

static void coupled_rhs(const void *ctx, const double *y, double *dydt) {
  const coupled_rge *r = (const coupled_rge *)ctx;
  const double a_s = 1.0 / y[0], a_em = 1.0 / y[1];
  dydt[0] = r->qcd[0] + a_s * (r->qcd[1] + a_s * (r->qcd[2] + a_s * r->qcd[3])) + a_em * r->qcd_mix;
  dydt[1] = r->qed[0] + a_em * r->qed[1] + a_s * r->qed_mix;
}

/* eko's compute_exact_alphaem_running: both couplings run together (at QCD
 * LO too: only pure QCD has a closed form). */
static void exact_alphaem_running(const ekoc_qed_running *q, int32_t nf, int32_t nl, const double a[2], double lmu,
                                  double out[2]) {
  coupled_rge r;
  double beta[4];
  ekoc_beta_coefficients(nf, beta);
  for (int k = 0; k < 4; ++k) r.qcd[k] = (k < q->order) ? beta[k] : 0.0;
  r.qcd_mix = q->qed_order >= 1 ? ekoc_beta_qcd_as2aem1(nf) : 0.0;
  r.qed[0] = q->qed_order >= 1 ? ekoc_beta_qed_aem2(nf, nl) : 0.0;
  r.qed[1] = q->qed_order >= 2 ? ekoc_beta_qed_aem3(nf, nl) : 0.0;
  r.qed_mix = q->qed_order >= 1 ? ekoc_beta_qed_aem2as1(nf) : 0.0;
  double y0[2] = {1.0 / a[0], 1.0 / a[1]}, y[2];
  if (ekoc_rge_integrate(2, coupled_rhs, &r, y0, lmu, y) == 0) {
    out[0] = 1.0 / y[0];
    out[1] = 1.0 / y[1];
  } else {
    out[0] = out[1] = NAN;
  }
}

/* beta_0..beta_3 of nf with eko's fixed-a_em shift beta_0 -> beta_0 + a_em
 * beta_qcd(2,1) (qed_order > 0); the b_k of the solution are then taken
 * relative to the shifted beta_0, as eko does. */
static void shifted_qcd_beta(const ekoc_qed_running *q, int32_t nf, double a_em, double beta[4]) {
  ekoc_beta_coefficients(nf, beta);
  if (q->qed_order >= 1) beta[0] += a_em * ekoc_beta_qcd_as2aem1(nf);
}

/* eko's couplings_expanded_alphaem_running: the pure-QCD and pure-QED
 * expanded solutions plus eko's mixed terms
 *   a_s  += -a_s0^2  b_qcd(2,1) ln(1 + beta_0 a_em0 L),  b_qcd(2,1) = beta_qcd(2,1)/beta_0,
 *   a_em += -a_em0^2 b_qed(1,2) ln(1 + beta_qed(0,2) a_s0 L),  b_qed(1,2) = beta_qed(1,2)/beta_qed(0,2)
 * (each log carries the other coupling with the own beta_0, as eko writes it). */
static void expanded_alphaem_running(const ekoc_qed_running *q, int32_t nf, int32_t nl, const double a[2],
                                     double lmu, double out[2]) {
  double beta[4];
  ekoc_beta_coefficients(nf, beta);
  out[0] = ekoc_couplings_solve(q->order, EKOC_COUPLING_EXPANDED, beta, a[0], lmu);
  out[1] = a[1];
  if (q->qed_order < 1) return;
  const double beta_qed[4] = {ekoc_beta_qed_aem2(nf, nl), q->qed_order >= 2 ? ekoc_beta_qed_aem3(nf, nl) : 0.0,
                              0.0, 0.0};
  out[1] = ekoc_couplings_solve(q->qed_order, EKOC_COUPLING_EXPANDED, beta_qed, a[1], lmu);
  const double b_qcd_mix = ekoc_beta_qcd_as2aem1(nf) / beta[0];
  const double b_qed_mix = ekoc_beta_qed_aem2as1(nf) / beta_qed[0];
  out[0] += -(a[0] * a[0]) * b_qcd_mix * log(1.0 + beta[0] * a[1] * lmu);
  out[1] += -(a[1] * a[1]) * b_qed_mix * log(1.0 + beta_qed[0] * a[0] * lmu);
}

int ekoc_couplings_run_qed(const ekoc_qed_running *q, int32_t nf, int32_t nl, const double a[2], double mu2_from,
                           double mu2_to, double out[2]) {
  const double lmu = log(mu2_to / mu2_from);
  double res[2] = {NAN, a[1]};
  if (q->mode == EKOC_COUPLING_EXACT && q->em_running) {
    exact_alphaem_running(q, nf, nl, a, lmu, res);
  } else if (q->em_running) {
    expanded_alphaem_running(q, nf, nl, a, lmu, res);
  } else {
    /* eko's compute_exact_fixed_alphaem / couplings_expanded_fixed_alphaem:
     * QCD running with the shifted beta_0 (closed form at LO), a_em kept */
    double beta[4];
    shifted_qcd_beta(q, nf, a[1], beta);
    res[0] = ekoc_couplings_solve(q->order, q->mode, beta, a[0], lmu);
  }
  if (!(isfinite(res[0]) && res[0] > 0.0 && isfinite(res[1]) && res[1] > 0.0))
    return ekoc_error(EKOC_ERR_NUMERICAL,
                      "ekoc_couplings_run_qed: (a_s, a_em)^(nf=%d, nl=%d) from (%g, %g) at mu2 = %g to mu2 = %g gives "
                      "(%g, %g): Landau pole (order (%d, %d), %s, em_running %d)",
                      (int)nf, (int)nl, a[0], a[1], mu2_from, mu2_to, res[0], res[1], (int)q->order,
                      (int)q->qed_order, q->mode == EKOC_COUPLING_EXACT ? "exact" : "expanded",
                      (int)q->em_running);
  out[0] = res[0];
  out[1] = res[1];
  return EKOC_OK;
}
