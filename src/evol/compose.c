/* compose.c: the operator of every target from the parts of the plan
 * (compose.h). Paths start at nf0; each matching is followed (forward) or
 * preceded (backward) by the rotation between the evolution bases of its two
 * nf. Products are taken in the order of the path, so the bits depend only
 * on the parts. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "evol/basis.h"
#include "evol/compose.h"
#include "evol/operator_internal.h"
#include "evol/profile_stage.h"
#include "status.h"

/* ---- the memo of shared path prefixes ------------------------------------------------ */

/* The states of the last target composed after each of its steps but the
 * last: targets above the same thresholds share their path up to the final
 * segment (a scan of 50 scales above m_b: segment, matching, then one
 * segment each), so a target whose path starts with the same steps (same
 * parts, same kinds) resumes from the stored state. The same products in the
 * same order: the same bits as composing from the start. */
typedef struct compose_memo {
  size_t t;                        /* the target the states belong to */
  int n;                           /* states held: after steps 0..n-1 */
  ekoc_blockop state[EKOC_PLAN_MAX_STEPS];
} compose_memo;

static void compose_memo_init(compose_memo *m, size_t nx) {
  int s;
  m->t = 0;
  m->n = 0;
  for (s = 0; s < EKOC_PLAN_MAX_STEPS; ++s) ekoc_blockop_init(&m->state[s], nx);
}

static void compose_memo_clear(compose_memo *m) {
  int s;
  for (s = 0; s < EKOC_PLAN_MAX_STEPS; ++s) ekoc_blockop_clear(&m->state[s]);
  m->n = 0;
}

/* Leading steps of target t's path equal to the memo's target's, at most
 * n_steps[t] - 1 (the last step is always computed). */
static int compose_memo_common(const ekoc_plan *p, const compose_memo *m, size_t t) {
  int s, limit = p->n_steps[t] - 1;
  if (!m) return 0;
  if (limit > m->n) limit = m->n;
  for (s = 0; s < limit; ++s) {
    const ekoc_plan_step *a = &p->steps[t][s], *b = &p->steps[m->t][s];
    if (a->job != b->job || a->kind != b->kind || a->nf != b->nf) break;
  }
  return s;
}

/* ---- one target ---------------------------------------------------------------------- */

/* The rotation of a matching step (compose.h). */
void ekoc_compose_matching_rotation(const ekoc_plan_step *st, double m[EKOC_NB][EKOC_NB]) {
  double left[EKOC_NB][EKOC_NB], right_inv[EKOC_NB][EKOC_NB];
  int i, j, k, lo = st->nf, hi = st->nf + 1, forward = st->kind == EKOC_STEP_FORWARD;
  ekoc_basis_rotation_of(forward ? hi : lo, st->unified, left);
  ekoc_basis_rotation_inverse_of(forward ? lo : hi, st->unified, right_inv);
  for (i = 0; i < EKOC_NB; ++i)
    for (j = 0; j < EKOC_NB; ++j) {
      double acc = 0.0;
      for (k = 0; k < EKOC_NB; ++k) acc += left[i][k] * right_inv[k][j];
      m[i][j] = fabs(acc) < 1e-14 ? 0.0 : acc;
    }
}

/* *cur = part * *cur for a segment; *tmp is scratch. Returns 0 on no memory. */
static int apply_segment(const ekoc_blockop *part, ekoc_blockop *cur, ekoc_blockop *tmp, int n_threads) {
  int ok = ekoc_blockop_mul(part, cur, tmp, n_threads);
  ekoc_blockop_move(cur, tmp);
  return ok;
}

/* *cur = R * part * *cur (forward) or part * R * *cur (backward), R the
 * matching rotation; *tmp, *tmp2 are scratch. Returns 0 on no memory. */
static int apply_matching(const ekoc_plan_step *st, const ekoc_blockop *part, ekoc_blockop *cur, ekoc_blockop *tmp,
                          ekoc_blockop *tmp2, int n_threads) {
  double m[EKOC_NB][EKOC_NB];
  int ok = 1;
  ekoc_compose_matching_rotation(st, m);
  if (st->kind == EKOC_STEP_FORWARD) { /* B_lo -> (OME) -> B_lo -> rotate -> B_hi */
    ok &= ekoc_blockop_mul(part, cur, tmp, n_threads);
    ok &= ekoc_blockop_rotate_left(m, tmp, tmp2, n_threads);
  } else { /* B_hi -> rotate -> B_lo -> (inverse OME) */
    ok &= ekoc_blockop_rotate_left(m, cur, tmp, n_threads);
    ok &= ekoc_blockop_mul(part, tmp, tmp2, n_threads);
  }
  ekoc_blockop_move(cur, tmp2);
  return ok;
}

/* Applies step *st with its part to *cur; the first step of a path (first)
 * starts from the identity, and a first segment is taken as is instead of
 * multiplying the identity. Returns 0 on no memory. */
static int compose_step(const ekoc_plan_step *st, const ekoc_blockop *part, int first, ekoc_blockop *cur,
                        ekoc_blockop *tmp, ekoc_blockop *tmp2, int n_threads) {
  int a, ok = 1;
  if (first && st->kind == EKOC_STEP_SEGMENT) return ekoc_blockop_copy(cur, part);
  if (first)
    for (a = 0; a < EKOC_NB; ++a) ok &= ekoc_blockop_set_identity(cur, a, a);
  if (st->kind == EKOC_STEP_SEGMENT)
    ok &= apply_segment(part, cur, tmp, n_threads);
  else
    ok &= apply_matching(st, part, cur, tmp, tmp2, n_threads);
  return ok;
}

/* The operator of plan target t (the request's target `index`, for the
 * message): its parts' op (taint = 0) or taint (taint = 1) multiplied along
 * its path. memo (may be NULL) holds the previous target's intermediate
 * states and receives this target's. */
static int compose_target(const ekoc_plan *p, size_t t, size_t index, size_t nx, int taint, int n_threads,
                          compose_memo *memo, ekoc_blockop *out) {
  ekoc_blockop cur, tmp, tmp2;
  int s, ok = 1, s0 = compose_memo_common(p, memo, t);
  ekoc_blockop_init(&cur, nx);
  ekoc_blockop_init(&tmp, nx);
  ekoc_blockop_init(&tmp2, nx);
  if (s0 > 0 && s0 == p->n_steps[t] - 1 && p->steps[t][s0].kind == EKOC_STEP_SEGMENT) {
    /* only the last segment is new (a scan of scales above the thresholds):
     * its product straight from the stored state, without copying it first
     * (the same product: the same bits) */
    const ekoc_plan_step *st = &p->steps[t][s0];
    ok &= ekoc_blockop_mul(taint ? &p->jobs[st->job].taint : &p->jobs[st->job].op, &memo->state[s0 - 1], &cur,
                           n_threads);
    memo->n = s0;
    s0 = p->n_steps[t];
  } else if (s0 > 0) {
    ok &= ekoc_blockop_copy(&cur, &memo->state[s0 - 1]);
  }
  if (memo && s0 < p->n_steps[t]) memo->n = s0; /* states beyond the shared steps are replaced by this target's */
  for (s = s0; ok && s < p->n_steps[t]; ++s) {
    const ekoc_plan_step *st = &p->steps[t][s];
    const ekoc_blockop *part = taint ? &p->jobs[st->job].taint : &p->jobs[st->job].op;
    ok &= compose_step(st, part, s == 0, &cur, &tmp, &tmp2, n_threads);
    if (memo && ok && s + 1 < p->n_steps[t]) {
      ok &= ekoc_blockop_copy(&memo->state[s], &cur);
      memo->n = s + 1;
    }
  }
  if (memo) memo->t = t;
  ekoc_blockop_clear(&tmp);
  ekoc_blockop_clear(&tmp2);
  if (!ok) {
    ekoc_blockop_clear(&cur);
    if (memo) compose_memo_clear(memo);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "out of memory composing the operator of target %zu", index);
  }
  *out = cur;
  return EKOC_OK;
}

/* EKOC_ERR_NUMERICAL if a value or error of a composed operator is not
 * finite: products of finite parts can still overflow (e.g. the estimates of
 * failed integrations on extreme grids), and a NaN must never be handed out.
 * Threads scan separate blocks (n_threads, 0: OpenMP's default); the first
 * bad entry in block order is named, whatever the thread count. */
static int check_finite(const ekoc_blockop *op, size_t t, double mu2, int n_threads) {
  size_t n = op->nx * op->nx;
  long first[EKOC_NB * EKOC_NB];
  int ab;
  (void)n_threads; /* used by the OpenMP pragma only (unused where OpenMP is off: the fuzz build) */
#pragma omp parallel for schedule(dynamic, 1) num_threads(n_threads > 0 ? n_threads : omp_get_max_threads())
  for (ab = 0; ab < EKOC_NB * EKOC_NB; ++ab) {
    const double *v = op->val[ab / EKOC_NB][ab % EKOC_NB], *er = op->err[ab / EKOC_NB][ab % EKOC_NB];
    size_t e;
    first[ab] = -1;
    if (!v) continue;
    for (e = 0; e < n; ++e)
      if (!isfinite(v[e]) || !isfinite(er[e])) {
        first[ab] = (long)e;
        break;
      }
  }
  for (ab = 0; ab < EKOC_NB * EKOC_NB; ++ab)
    if (first[ab] >= 0) {
      int a = ab / EKOC_NB, b = ab % EKOC_NB;
      size_t e = (size_t)first[ab];
      return ekoc_error(EKOC_ERR_NUMERICAL,
                        "the operator of target %zu (mu2=%g) has a non-finite entry %g +- %g (block %d,%d, x index "
                        "%zu,%zu): overflow in the composition of its parts",
                        t, mu2, op->val[a][b][e], op->err[a][b][e], a, b, e / op->nx, e % op->nx);
    }
  return EKOC_OK;
}

/* ---- all the targets ----------------------------------------------------------------- */

/* The taint of a part without failures: its values, zero errors. Returns 0
 * on no memory. */
static int taint_clean(ekoc_plan_job *j) {
  int a, b, ok = 1;
  ekoc_blockop_init(&j->taint, j->op.nx);
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b)
      if (j->op.val[a][b]) ok &= ekoc_blockop_set(&j->taint, a, b, j->op.val[a][b], NULL);
  return ok;
}

/* An operator for the request's targets (tg->n, their scales from mu2)
 * holding tg->n_distinct operators, none composed yet. */
static int operator_new(const ekoc_targets *tg, const double *mu2, size_t nx, int32_t nf0, ekoc_operator **out) {
  ekoc_operator *op = calloc(1, sizeof *op);
  size_t i;
  if (!op) return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_compute: out of memory");
  op->nx = nx;
  op->n_targets = tg->n;
  op->n_distinct = tg->n_distinct;
  op->nf0 = nf0;
  op->mu2 = malloc(tg->n * sizeof *op->mu2);
  op->nf = malloc(tg->n * sizeof *op->nf);
  op->distinct = malloc(tg->n * sizeof *op->distinct);
  op->ops = calloc(tg->n_distinct, sizeof *op->ops);
  *out = op;
  if (!op->mu2 || !op->nf || !op->distinct || !op->ops)
    return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_compute: out of memory");
  for (i = 0; i < tg->n; ++i) {
    op->mu2[i] = mu2[i];
    op->nf[i] = tg->nf[tg->distinct[i]];
    op->distinct[i] = tg->distinct[i];
  }
  return EKOC_OK;
}

/* op->ops, one per distinct target (the plan's targets), checked finite. */
static int compose_values(const ekoc_plan *p, const ekoc_request *rq, const ekoc_targets *tg, compose_memo *memo,
                          ekoc_operator *op) {
  size_t t;
  int rc;
  for (t = 0; t < tg->n_distinct; ++t) {
    rc = compose_target(p, t, tg->first[t], rq->nx, 0, rq->n_threads, memo, &op->ops[t]);
    if (rc == EKOC_OK) rc = check_finite(&op->ops[t], tg->first[t], tg->mu2[t], rq->n_threads);
    if (rc != EKOC_OK) return rc;
  }
  return EKOC_OK;
}

/* op->taint: which entries of each distinct target a failed integral reaches. */
static int compose_taints(ekoc_plan *p, const ekoc_request *rq, const ekoc_targets *tg, compose_memo *memo,
                          ekoc_operator *op) {
  size_t i, t;
  int rc;
  for (i = 0; i < p->n_jobs; ++i)
    if (p->jobs[i].n_failed == 0 && !taint_clean(&p->jobs[i]))
      return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_compute: out of memory marking failed entries");
  op->taint = calloc(tg->n_distinct, sizeof *op->taint);
  if (!op->taint) return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_compute: out of memory marking failed entries");
  for (t = 0; t < tg->n_distinct; ++t) ekoc_blockop_init(&op->taint[t], rq->nx);
  for (t = 0; t < tg->n_distinct; ++t) {
    rc = compose_target(p, t, tg->first[t], rq->nx, 1, rq->n_threads, memo, &op->taint[t]);
    if (rc != EKOC_OK) return rc;
  }
  return EKOC_OK;
}

int ekoc_compose_operator(ekoc_plan *p, const ekoc_request *rq, const ekoc_targets *tg, const double *mu2,
                          size_t n_failed, ekoc_profile *prof, ekoc_operator **out) {
  compose_memo memo;
  compose_memo *shared = tg->n_distinct > 1 ? &memo : NULL; /* a single target has nothing to share */
  ekoc_operator *op = NULL;
  uint64_t ts = 0;
  int rc;
  compose_memo_init(&memo, rq->nx);
  rc = operator_new(tg, mu2, rq->nx, rq->nf0, &op);
  if (op) op->unified = p->unified;
  if (rc == EKOC_OK) {
    ts = ekoc_profile_now_ns(prof);
    rc = compose_values(p, rq, tg, shared, op);
  }
  compose_memo_clear(&memo); /* the taints are other products: none of these states */
  if (rc == EKOC_OK && n_failed > 0) rc = compose_taints(p, rq, tg, shared, op);
  compose_memo_clear(&memo);
  if (rc != EKOC_OK) {
    ekoc_operator_free(op);
    return rc;
  }
  ekoc_profile_stage(prof, "composition", ts);
  op->n_failed = n_failed;
  *out = op;
  return EKOC_OK;
}

int ekoc_compose_adopt(const ekoc_targets *tg, const double *mu2, size_t nx, int32_t nf0, int32_t unified,
                       ekoc_blockop *ops, ekoc_blockop *taints, size_t n_failed, ekoc_operator **out) {
  ekoc_operator *op = NULL;
  size_t t;
  int rc = operator_new(tg, mu2, nx, nf0, &op);
  if (rc == EKOC_OK && n_failed > 0) {
    op->taint = calloc(tg->n_distinct, sizeof *op->taint);
    if (!op->taint) rc = ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_compute: out of memory marking failed entries");
  }
  if (rc != EKOC_OK) {
    ekoc_operator_free(op);
    return rc;
  }
  op->unified = unified;
  op->n_failed = n_failed;
  for (t = 0; t < tg->n_distinct; ++t) {
    op->ops[t] = ops[t];
    ekoc_blockop_init(&ops[t], nx);
    if (n_failed > 0) {
      op->taint[t] = taints[t];
      ekoc_blockop_init(&taints[t], nx);
    }
  }
  *out = op;
  return EKOC_OK;
}

/* ---- streaming: one target at a time --------------------------------------------- */

/* The parts' clean taints (taint_clean) for the parts without failures. */
static int taints_prepare(ekoc_plan *p) {
  size_t i;
  for (i = 0; i < p->n_jobs; ++i)
    if (p->jobs[i].n_failed == 0 && !taint_clean(&p->jobs[i]))
      return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_compute_stream: out of memory marking failed entries");
  return EKOC_OK;
}

/* (compose.h) Through a one-target view of struct ekoc_operator on the
 * stack, for the request indices from tg->first[t] on that ask for t. */
int ekoc_compose_hand_out(const ekoc_targets *tg, const double *mu2, size_t t, int32_t nf0, int32_t unified,
                          int32_t backend, size_t n_failed, ekoc_blockop *value, ekoc_blockop *taint,
                          ekoc_target_fn fn, void *data) {
  ekoc_operator view;
  size_t zero = 0, i;
  double mu2_i;
  int32_t nf = tg->nf[t];
  memset(&view, 0, sizeof view);
  view.nx = value->nx;
  view.n_targets = 1;
  view.n_distinct = 1;
  view.nf0 = nf0;
  view.unified = unified;
  view.backend = backend;
  view.mu2 = &mu2_i;
  view.nf = &nf;
  view.distinct = &zero;
  view.ops = value;
  view.taint = n_failed > 0 ? taint : NULL;
  view.n_failed = n_failed;
  for (i = tg->first[t]; i < tg->n; ++i) {
    int r;
    if (tg->distinct[i] != t) continue;
    mu2_i = mu2[i];
    r = fn(data, i, &view);
    if (r != 0)
      return ekoc_error(EKOC_ERR_CANCELLED, "ekoc_compute_stream: the target callback returned %d at index %zu", r, i);
  }
  return EKOC_OK;
}

int ekoc_compose_stream(ekoc_plan *p, const ekoc_request *rq, const ekoc_targets *tg, const double *mu2,
                        size_t n_failed, ekoc_profile *prof, ekoc_target_fn fn, void *data) {
  /* values and taints each keep their own shared prefixes: they are other products */
  compose_memo memo_value, memo_taint;
  compose_memo *shared_value = tg->n_distinct > 1 ? &memo_value : NULL;
  compose_memo *shared_taint = tg->n_distinct > 1 ? &memo_taint : NULL;
  ekoc_blockop value, taint;
  size_t t;
  uint64_t ts = ekoc_profile_now_ns(prof);
  int rc = EKOC_OK;
  compose_memo_init(&memo_value, rq->nx);
  compose_memo_init(&memo_taint, rq->nx);
  ekoc_blockop_init(&value, rq->nx);
  ekoc_blockop_init(&taint, rq->nx);
  if (n_failed > 0) rc = taints_prepare(p);
  for (t = 0; rc == EKOC_OK && t < tg->n_distinct; ++t) {
    rc = compose_target(p, t, tg->first[t], rq->nx, 0, rq->n_threads, shared_value, &value);
    if (rc == EKOC_OK) rc = check_finite(&value, tg->first[t], tg->mu2[t], rq->n_threads);
    if (rc == EKOC_OK && n_failed > 0)
      rc = compose_target(p, t, tg->first[t], rq->nx, 1, rq->n_threads, shared_taint, &taint);
    if (rc == EKOC_OK)
      rc = ekoc_compose_hand_out(tg, mu2, t, rq->nf0, p->unified, rq->backend, n_failed, &value, &taint, fn, data);
    ekoc_blockop_clear(&value); /* this target's blocks go before the next is composed */
    ekoc_blockop_clear(&taint);
  }
  compose_memo_clear(&memo_value);
  compose_memo_clear(&memo_taint);
  if (rc == EKOC_OK) ekoc_profile_stage(prof, "composition", ts);
  return rc;
}
