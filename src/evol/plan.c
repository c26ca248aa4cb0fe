/* plan.c: eko's matched path of every target, its parts as shared jobs, and
 * the couplings at their ends (plan.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ad/beta.h"
#include "ad/nspace.h"
#include "evol/cards.h"
#include "evol/couplings.h"
#include "evol/plan.h"
#include "status.h"

/* ---- setup ---------------------------------------------------------------------- */

/* The settings the plan reads from the cards: the effective scale-variation
 * mode, the coupling mode, the matching order, and the walls on mu2 where nf
 * changes. */
static void setup_fill(ekoc_plan_setup *s, const ekoc_theory *th, const ekoc_request *rq) {
  memset(s, 0, sizeof *s);
  s->th = th;
  s->rq = rq;
  s->xif2 = th->xif * th->xif;
  s->sv_mode = th->xif == 1.0 ? EKOC_SV_NONE : rq->sv_mode;
  s->coupling_exact = rq->method == EKOC_METHOD_ITERATE_EXACT || rq->method == EKOC_METHOD_DECOMPOSE_EXACT ||
                      rq->method == EKOC_METHOD_PERTURBATIVE_EXACT || rq->method == EKOC_METHOD_ORDERED_EXACT;
  s->matching_order = th->matching_order < 0 ? th->order - 1 : th->matching_order;
}

/* The coupling configuration of the theory (masses2 the pole masses as given). */
static void theory_couplings(const ekoc_theory *th, int coupling_exact, ekoc_couplings_config *cc) {
  int h;
  ekoc_couplings_config_default(cc);
  cc->order = th->order;
  cc->mode = coupling_exact ? EKOC_COUPLING_EXACT : EKOC_COUPLING_EXPANDED;
  cc->alphas_ref = th->alphas;
  cc->mu2_ref = th->mu2_ref;
  cc->nf_ref = th->nf_ref;
  for (h = 0; h < 3; ++h) {
    cc->masses2[h] = th->masses[h] * th->masses[h];
    cc->thresholds_ratio2[h] = th->matching_ratios[h] * th->matching_ratios[h];
  }
  cc->max_nf = 6;
  cc->qed_order = th->qed_order;
  cc->alphaem_ref = th->alphaem;
  cc->em_running = th->em_running;
  cc->masses_scheme = th->masses_scheme;
}

/* The squared threshold masses: pole masses as given, or eko's MSbar m(m)
 * (runcards.masses: msbar_masses.compute with xif^2 whatever the scale
 * variation). */
static int threshold_masses2(const ekoc_theory *th, int coupling_exact, double masses2[3]) {
  ekoc_couplings_config cc;
  int h;
  theory_couplings(th, coupling_exact, &cc);
  if (th->masses_scheme == EKOC_MASSES_MSBAR)
    return ekoc_msbar_masses(&cc, th->masses, th->mass_scales, th->xif * th->xif, masses2);
  for (h = 0; h < 3; ++h) masses2[h] = cc.masses2[h];
  return EKOC_OK;
}

int ekoc_plan_setup_new(ekoc_plan_setup *s, const ekoc_theory *th, const ekoc_request *rq) {
  ekoc_couplings_config cc;
  int h, rc;
  setup_fill(s, th, rq);
  theory_couplings(th, s->coupling_exact, &cc);
  rc = threshold_masses2(th, s->coupling_exact, cc.masses2);
  if (rc != EKOC_OK) return rc;
  s->walls[0] = 0.0;
  for (h = 0; h < 3; ++h) {
    double k = th->matching_ratios[h];
    s->walls[h + 1] = isinf(k) ? INFINITY : k * k * cc.masses2[h];
  }
  s->walls[4] = INFINITY;
  /* couplings: thresholds shifted by xif^2 in exponentiated mode (eko's commons.couplings) */
  cc.threshold_shift = s->sv_mode == EKOC_SV_EXPONENTIATED ? s->xif2 : 1.0;
  return ekoc_couplings_new(&cc, &s->couplings);
}

int ekoc_theory_masses(const ekoc_theory *theory, int32_t method, double masses_out[3]) {
  ekoc_theory th;
  double m2[3];
  int h, rc;
  if (!theory) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_theory_masses: theory is NULL");
  if (!masses_out) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_theory_masses: masses_out is NULL");
  rc = ekoc_cards_upgrade_theory(theory, &th);
  if (rc == EKOC_OK) rc = ekoc_cards_check_theory(&th);
  if (rc != EKOC_OK) return rc;
  if (method < EKOC_METHOD_ITERATE_EXACT || method > EKOC_METHOD_ORDERED_EXACT)
    return ekoc_error(EKOC_ERR_INVALID_METHOD, "ekoc_theory_masses: method=%d is not an EKOC_METHOD_*", (int)method);
  rc = threshold_masses2(&th, method == EKOC_METHOD_ITERATE_EXACT || method == EKOC_METHOD_DECOMPOSE_EXACT ||
                                  method == EKOC_METHOD_PERTURBATIVE_EXACT || method == EKOC_METHOD_ORDERED_EXACT,
                         m2);
  if (rc != EKOC_OK) return rc;
  for (h = 0; h < 3; ++h) masses_out[h] = sqrt(m2[h]);
  return EKOC_OK;
}

void ekoc_plan_setup_free(ekoc_plan_setup *s) {
  ekoc_couplings_free(s->couplings);
  s->couplings = NULL;
}

/* ---- parts and paths ------------------------------------------------------------ */

static int isclose(double a, double b) { return fabs(a - b) <= 1e-8 + 1e-5 * fabs(b); }

/* eko's default nf at mu2: 2 + (number of walls <= mu2), walls = (0, thresholds, inf). */
static int nf_default(const double walls[5], double mu2) {
  int i = 0;
  while (i < 5 && walls[i] <= mu2) ++i;
  return 2 + i;
}

int ekoc_plan_default_nf(const ekoc_plan_setup *s, double mu2) { return nf_default(s->walls, mu2); }

/* Whether two jobs have the same N-space configurations, a QED segment's
 * step couplings compared by value (each job owns its array). */
static int same_families(const ekoc_plan_job *a, const ekoc_plan_job *b) {
  ekoc_nspace_config fa[2], fb[2];
  int f, n;
  memcpy(fa, a->family, sizeof fa);
  memcpy(fb, b->family, sizeof fb);
  for (f = 0; f < 2; ++f) fa[f].qed_couplings = fb[f].qed_couplings = NULL; /* compared by value below */
  if (memcmp(fa, fb, sizeof fa) != 0) return 0;
  if (!a->qed_couplings || !b->qed_couplings) return a->qed_couplings == b->qed_couplings;
  n = 3 * a->family[0].ev_op_iterations + 1;
  return memcmp(a->qed_couplings, b->qed_couplings, (size_t)n * sizeof(double)) == 0;
}

/* The index of a job equal to *j (same kind, nf and N-space configurations;
 * identity parts also at the same scale), appending a copy of *j when there
 * is none; -1 when out of memory. */
static int find_or_add_job(ekoc_plan *p, const ekoc_plan_job *j) {
  size_t i;
  for (i = 0; i < p->n_jobs; ++i) {
    const ekoc_plan_job *o = &p->jobs[i];
    if (o->is_matching == j->is_matching && o->unity == j->unity && o->nf == j->nf && same_families(o, j) &&
        (!j->unity || (o->mu2_from == j->mu2_from)))
      return (int)i;
  }
  if (p->n_jobs == p->cap_jobs) {
    size_t cap = p->cap_jobs ? 2 * p->cap_jobs : 8;
    ekoc_plan_job *nj = realloc(p->jobs, cap * sizeof *nj);
    if (!nj) return -1;
    p->jobs = nj;
    p->cap_jobs = cap;
  }
  p->jobs[p->n_jobs] = *j;
  ekoc_blockop_init(&p->jobs[p->n_jobs].op, 0);
  ekoc_blockop_init(&p->jobs[p->n_jobs].taint, 0);
  return (int)p->n_jobs++;
}

/* a_s^(nf)(mu2), refused unless positive and finite. */
static int coupling_at(const ekoc_plan_setup *s, double mu2, int nf, double *a) {
  int rc = ekoc_couplings_a_s(s->couplings, mu2, nf, a);
  if (rc != EKOC_OK) return rc;
  if (!isfinite(*a) || *a <= 0.0)
    return ekoc_error(EKOC_ERR_NUMERICAL, "a_s(mu2=%g, nf=%d)=%g is not a positive finite number (Landau pole?)", mu2,
                      nf, *a);
  return EKOC_OK;
}

/* The N-space configuration of one family (non-singlet / singlet) of a part,
 * with the fields common to segments and matchings. */
static void base_family(const ekoc_plan_setup *s, ekoc_nspace_config *f, int kind, int family, int nf) {
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
  memcpy(f->n3lo_ad_variation, s->th->n3lo_ad_variation, sizeof f->n3lo_ad_variation);
  f->use_fhmruvv = s->th->use_fhmruvv;
  f->physics = s->th->physics;
  ekoc_beta_coefficients(nf, f->beta);
}

/* The QED families of segment from -> to (eko's Operator.compute_aem_list):
 * a_s^(nf) at the ev_op_iterations + 1 scales geometric between the ends
 * (not shifted by scale variations, as in eko) and (a_s, a_em) at the
 * arithmetic midpoints of the steps, into a new array *out (3 it + 1). */
static int qed_step_couplings(const ekoc_plan_setup *s, double from, double to, int nf, double **out) {
  int it = s->rq->ev_op_iterations, k, rc = EKOC_OK;
  double *c = malloc((size_t)(3 * it + 1) * sizeof *c), lf = log(from), lt = log(to), prev = from;
  if (!c) return ekoc_error(EKOC_ERR_NO_MEMORY, "out of memory while planning");
  for (k = 0; k <= it && rc == EKOC_OK; ++k) {
    double mu2 = k == 0 ? from : k == it ? to : exp(lf + (lt - lf) * k / it), aem;
    rc = ekoc_couplings_a(s->couplings, mu2, nf, &c[k], &aem);
    if (rc == EKOC_OK && k > 0)
      rc = ekoc_couplings_a(s->couplings, 0.5 * (prev + mu2), nf, &c[it + k], &c[2 * it + k]);
    prev = mu2;
  }
  for (k = 0; k < 3 * it + 1 && rc == EKOC_OK; ++k)
    if (!isfinite(c[k]) || c[k] <= 0.0)
      rc = ekoc_error(EKOC_ERR_NUMERICAL, "a coupling of the QED segment mu2 %g -> %g (nf=%d) is %g (Landau pole?)",
                      from, to, nf, c[k]);
  if (rc != EKOC_OK) {
    free(c);
    return rc;
  }
  *out = c;
  return EKOC_OK;
}

/* The evolution segment from -> to at fixed nf, as step *step. */
static int add_segment(const ekoc_plan_setup *s, ekoc_plan *p, double from, double to, int nf, ekoc_plan_step *step) {
  ekoc_plan_job j;
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
  if (s->th->qed_order > 0 && !j.unity) {
    rc = qed_step_couplings(s, from, to, nf, &j.qed_couplings);
    if (rc != EKOC_OK) return rc;
  }
  for (fam = 0; fam < 2; ++fam) {
    ekoc_nspace_config *f = &j.family[fam];
    base_family(s, f, EKOC_KIND_EVOLUTION, s->th->qed_order > 0 ? fam + EKOC_FAMILY_QED_NS : fam, nf);
    f->order = s->th->order;
    f->is_threshold = cliff;
    f->a0 = a0;
    f->a1 = a1;
    if (s->th->qed_order > 0) {
      f->qed_order = s->th->qed_order;
      f->em_running = s->th->em_running;
      f->lepton_number = ekoc_lepton_number(to); /* eko's lepton_number(mu2_to) */
      f->qed_log_step = log(from / to) / s->rq->ev_op_iterations;
      f->qed_couplings = j.qed_couplings;
    }
  }
  idx = find_or_add_job(p, &j);
  if (idx < 0 || p->jobs[idx].qed_couplings != j.qed_couplings) free(j.qed_couplings); /* not taken */
  if (idx < 0) return ekoc_error(EKOC_ERR_NO_MEMORY, "out of memory while planning");
  step->job = idx;
  step->kind = EKOC_STEP_SEGMENT;
  step->nf = nf;
  step->unified = s->th->qed_order > 0;
  return EKOC_OK;
}

/* The matching at scale for heavy quark hq (nf hq-1 <-> hq), forward or
 * backward, as step *step. */
static int add_matching(const ekoc_plan_setup *s, ekoc_plan *p, double scale, int hq, int backward,
                        ekoc_plan_step *step) {
  ekoc_plan_job j;
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
    j.family[fam].mass_scheme = s->th->masses_scheme;
    j.family[fam].matching_method = backward ? s->rq->inversion_method : EKOC_MATCHING_FORWARD;
  }
  idx = find_or_add_job(p, &j);
  if (idx < 0) return ekoc_error(EKOC_ERR_NO_MEMORY, "out of memory while planning");
  step->job = idx;
  step->kind = backward ? EKOC_STEP_BACKWARD : EKOC_STEP_FORWARD;
  step->nf = hq - 1;
  step->unified = s->th->qed_order > 0;
  return EKOC_OK;
}

/* eko's Atlas.path + matched_path for one target. */
static int plan_target(const ekoc_plan_setup *s, ekoc_plan *p, size_t t) {
  const ekoc_request *rq = s->rq;
  double mu2f = rq->mu2[t], bounds[6];
  int nf0 = rq->nf0, nff = (rq->nf && rq->nf[t] >= 0) ? rq->nf[t] : nf_default(s->walls, rq->mu2[t]);
  int down = nff < nf0, rc_step = down ? -1 : 1, nb = 0, i, ns = 0, rc;
  int nseg;
  ekoc_plan_step *steps = p->steps[t];
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

int ekoc_plan_build(const ekoc_plan_setup *s, ekoc_plan *p) {
  const ekoc_request *rq = s->rq;
  size_t t;
  int rc;
  p->steps = calloc(rq->n_targets, sizeof *p->steps);
  p->n_steps = calloc(rq->n_targets, sizeof *p->n_steps);
  p->nf_out = calloc(rq->n_targets, sizeof *p->nf_out);
  if (!p->steps || !p->n_steps || !p->nf_out)
    return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_compute: out of memory for %zu targets", rq->n_targets);
  p->unified = s->th->qed_order > 0;
  for (t = 0; t < rq->n_targets; ++t) {
    rc = plan_target(s, p, t);
    if (rc != EKOC_OK) return rc;
  }
  return EKOC_OK;
}

void ekoc_plan_free(ekoc_plan *p) {
  size_t i;
  for (i = 0; i < p->n_jobs; ++i) {
    ekoc_blockop_clear(&p->jobs[i].op);
    ekoc_blockop_clear(&p->jobs[i].taint);
    free(p->jobs[i].qed_couplings);
  }
  free(p->jobs);
  free(p->steps);
  free(p->n_steps);
  free(p->nf_out);
}
