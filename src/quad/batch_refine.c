/* batch_refine.c: error estimate, adaptive refinement and outputs of one row
 * of the batch engine (quad/batch_refine.h). */
#include "quad/batch_refine.h"

#include <stdlib.h>
#include <string.h>

#include "ad/ad_math.h" /* EKOC_PI */
#include "quad/batch_math.h"
#include "quad/batch_plan.h"
#include "quad/batch_rule.h"
#include "quad/driver.h"
#include "quad/interp.h"
#include "quad/nspace_cache.h"
#include "quad/path_radius.h"
#include "quad/talbot.h"
#include "status.h"

static int32_t refine_points(const ekoc_quad_settings *s) {
  int32_t n = s->batch_points > EKOC_BATCH_REFINE_MIN_POINTS ? s->batch_points : EKOC_BATCH_REFINE_MIN_POINTS;
  return n > EKOC_BATCH_MAX_POINTS ? EKOC_BATCH_MAX_POINTS : n;
}

/* The refinement rule (x, wk, wg), then the tail rule's. */
static size_t engine_rule_len(const ekoc_quad_settings *s) {
  return 3 * (2 * (size_t)refine_points(s) + 1) + 3 * (2 * (size_t)EKOC_BATCH_TAIL_POINTS + 1);
}

static int engine_init(ekoc_batch_engine *e, const ekoc_quad_settings *s, const double *ref_rule, double *rule_buf) {
  int32_t n = refine_points(s), nk = 2 * n + 1;
  size_t limit = s->limit;
  int rc;
  memset(e, 0, sizeof *e);
  if (ref_rule) { /* built once for the computation (the N-space cache) or the group of jobs */
    memcpy(rule_buf, ref_rule, 3 * (size_t)nk * sizeof(double));
  } else {
    rc = ekoc_batch_kronrod(n, rule_buf, rule_buf + nk, rule_buf + 2 * nk);
    if (rc != EKOC_OK) return rc;
  }
  e->epsabs = s->epsabs;
  e->epsrel = s->epsrel;
  e->max_panels = limit < 1 ? 1 : limit > EKOC_BATCH_MAX_PANELS ? EKOC_BATCH_MAX_PANELS : (int32_t)limit;
  e->ref_nodes = nk;
  e->ref_x = rule_buf;
  e->ref_wk = rule_buf + nk;
  e->ref_wg = rule_buf + 2 * nk;
  e->s_lo = -log(1.0 - EKOC_TALBOT_T_MIN + EKOC_BATCH_TAIL_SHIFT);
  e->s_hi = -log(s->cut + EKOC_BATCH_TAIL_SHIFT);
  e->progress = s->progress;
  e->cut = s->cut;
  {
    int32_t nt = 2 * EKOC_BATCH_TAIL_POINTS + 1;
    double *t = rule_buf + 3 * (size_t)nk;
    rc = ekoc_batch_kronrod(EKOC_BATCH_TAIL_POINTS, t, t + nt, t + 2 * nt);
    if (rc != EKOC_OK) return rc;
    e->tail_nodes = s->skip_cut_remainder ? 0 : nt;
    e->tail_x = t;
    e->tail_wk = t + nt;
    e->tail_wg = t + 2 * nt;
  }
  return EKOC_OK;
}

void ekoc_batch_refine_scratch_free(ekoc_batch_refine_scratch *sc) {
  if (!sc) return;
  free(sc->lo);
  free(sc->k);
  free(sc->qt);
  free(sc->state);
  free(sc->node_tables);
  free(sc->tail_table);
  memset(sc, 0, sizeof *sc);
}

int ekoc_batch_refine_scratch_alloc(ekoc_batch_refine_scratch *sc, const ekoc_batch_engine *e, size_t nx) {
  size_t len = (size_t)EKOC_NSPACE_MAX_ELEMENTS * nx, np = (size_t)e->max_panels;
  memset(sc, 0, sizeof *sc);
  sc->lo = malloc(2 * np * sizeof(double));
  sc->k = malloc(3 * np * len * sizeof(double));
  sc->qt = malloc(8 * len * sizeof(double)); /* qt, ft, vt, tol and the four sums of one panel */
  sc->state = malloc(len);
  sc->node_tables = malloc(EKOC_BATCH_PANEL_TABLES * 5 * (size_t)e->ref_nodes * sizeof(double));
  sc->tail_table = malloc(5 * (size_t)(e->tail_nodes > 0 ? e->tail_nodes : 1) * sizeof(double));
  if (!sc->lo || !sc->k || !sc->qt || !sc->state || !sc->node_tables || !sc->tail_table) {
    ekoc_batch_refine_scratch_free(sc);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "batch: out of memory for the refinement scratch (%zu panels, nx=%zu)", np,
                      nx);
  }
  sc->len = len;
  sc->max_panels = e->max_panels;
  sc->ref_nodes = e->ref_nodes;
  sc->hi = sc->lo + np;
  sc->q = sc->k + np * len;
  sc->f = sc->q + np * len;
  sc->ft = sc->qt + len;
  sc->vt = sc->ft + len;
  sc->tol = sc->vt + len;
  sc->half.k = sc->tol + len;
  sc->half.g = sc->half.k + len;
  sc->half.ra = sc->half.g + len;
  sc->half.nz = sc->half.ra + len;
  sc->last_poll = ekoc_quad_clock_s();
  return EKOC_OK;
}

void ekoc_batch_thread_free(ekoc_batch_thread *t) {
  ekoc_batch_eval_scratch_free(&t->eval);
  ekoc_batch_refine_scratch_free(&t->refine);
  free(t->sums.k);
  memset(&t->sums, 0, sizeof t->sums);
}

int ekoc_batch_thread_alloc(ekoc_batch_thread *t, const ekoc_batch_engine *eng, size_t base_nodes, size_t nx) {
  size_t asize = nx * EKOC_NSPACE_MAX_ELEMENTS;
  size_t max_nodes = base_nodes > (size_t)eng->ref_nodes ? base_nodes : (size_t)eng->ref_nodes;
  if ((size_t)eng->tail_nodes > max_nodes) max_nodes = (size_t)eng->tail_nodes;
  int rc;
  memset(t, 0, sizeof *t);
  rc = ekoc_batch_eval_scratch_alloc(&t->eval, max_nodes, nx);
  if (rc == EKOC_OK) rc = ekoc_batch_refine_scratch_alloc(&t->refine, eng, nx);
  if (rc == EKOC_OK) {
    t->sums.k = malloc(4 * asize * sizeof(double));
    if (!t->sums.k) rc = ekoc_error(EKOC_ERR_NO_MEMORY, "batch: out of memory for the row sums (nx=%zu)", nx);
  }
  if (rc != EKOC_OK) {
    ekoc_batch_thread_free(t);
    return rc;
  }
  t->sums.g = t->sums.k + asize;
  t->sums.ra = t->sums.g + asize;
  t->sums.nz = t->sums.ra + asize;
  return EKOC_OK;
}

int32_t ekoc_batch_refine_points(const ekoc_quad_settings *s) { return refine_points(s); }

int ekoc_batch_job_setup(const ekoc_quad_job *job, const ekoc_quad_settings *s, const double *ref_rule,
                         ekoc_batch_family plans[2], ekoc_batch_engine *eng, double **buf) {
  size_t nx = job->interp->n, tlen = EKOC_BATCH_TABLE_LEN(nx, job->interp->degree);
  int rc = ekoc_batch_plan(job, plans);
  *buf = NULL;
  if (rc != EKOC_OK) return rc;
  *buf = malloc((tlen + engine_rule_len(s)) * sizeof(double));
  if (!*buf) return ekoc_error(EKOC_ERR_NO_MEMORY, "batch: out of memory for the coefficient table (nx=%zu)", nx);
  rc = engine_init(eng, s, ref_rule, *buf + tlen);
  if (rc != EKOC_OK) {
    free(*buf);
    *buf = NULL;
    return rc;
  }
  ekoc_batch_area_table(job->interp->area_offset, job->interp->area, nx, job->interp->degree, *buf);
  return EKOC_OK;
}

/* Entry (e, j) of the row: the constant put back on the diagonal. */
static double diagonal_constant(const ekoc_batch_row *row, int32_t e, size_t j) {
  return j == row->k ? row->fp->subtract[e] : 0.0;
}

/* The state of an entry from its totals: it passes, or could pass, or
 * cannot: |K - G| does not fall below the rounding noise, so Q + F stays
 * above ~2 F whatever the panels (quad/batch_refine.h). */
static uint8_t entry_state(double q, double f, double tol) {
  if (q + f <= tol) return 0;
  return 2.0 * f > tol ? 2 : 1;
}

/* The path table (theta, tc, dj, w, wg: 5 blocks of nk) of panel [lo, hi]
 * of the tail variable s (u = 1 + c - e^-s, du = e^-s ds, c =
 * EKOC_BATCH_TAIL_SHIFT; quad/batch_refine.h) for the rule of nodes x and
 * Kronrod / Gauss weights wk, wg on [-1, 1], into table. */
static void s_panel_fill(double lo, double hi, int32_t nk, const double *x, const double *wk, const double *wgr,
                         double *table) {
  double *theta = table, *tc = theta + nk, *dj = tc + nk, *w = dj + nk, *wg = w + nk;
  double mid = 0.5 * (lo + hi), half = 0.5 * (hi - lo);
  int32_t q;
  for (q = 0; q < nk; ++q) {
    double sq = mid + half * x[q], du = exp(-sq), u = (1.0 + EKOC_BATCH_TAIL_SHIFT) - du;
    theta[q] = EKOC_PI * (2.0 * u - 1.0);
    tc[q] = ekoc_talbot_theta_cot_(theta[q]);
    dj[q] = ekoc_talbot_djac_re_(theta[q]);
    w[q] = half * du * wk[q];
    wg[q] = half * du * wgr[q];
  }
}

/* The nodes of a table of s_panel_fill. */
static ekoc_batch_nodes s_panel_nodes(const double *table, int32_t nk) {
  ekoc_batch_nodes nodes;
  nodes.n = nk;
  nodes.theta = table;
  nodes.tc = table + nk;
  nodes.dj = table + 2 * (size_t)nk;
  nodes.w = table + 3 * (size_t)nk;
  nodes.wg = table + 4 * (size_t)nk;
  return nodes;
}

/* The path table of panel [lo, hi] with the refinement rule: one the thread
 * kept, or built in the oldest slot. The same numbers either way. */
static const double *panel_table(const ekoc_batch_engine *eng, ekoc_batch_refine_scratch *rs, double lo, double hi) {
  int32_t t, nk = eng->ref_nodes;
  double *table;
  for (t = 0; t < rs->n_tables; ++t)
    if (rs->table_lo[t] == lo && rs->table_hi[t] == hi) return rs->node_tables + (size_t)t * 5 * (size_t)nk;
  t = rs->next_table;
  rs->next_table = (t + 1) % EKOC_BATCH_PANEL_TABLES;
  if (rs->n_tables < EKOC_BATCH_PANEL_TABLES) ++rs->n_tables;
  rs->table_lo[t] = lo;
  rs->table_hi[t] = hi;
  table = rs->node_tables + (size_t)t * 5 * (size_t)nk;
  s_panel_fill(lo, hi, nk, eng->ref_x, eng->ref_wk, eng->ref_wg, table);
  return table;
}

/* Evaluates panel slot `slot` = [lo, hi] of the tail variable s with the
 * refinement rule: its Kronrod sums, Q and F per entry. */
static int eval_panel(const ekoc_batch_engine *eng, const ekoc_batch_row *row, ekoc_batch_eval_scratch *es,
                      ekoc_batch_refine_scratch *rs, int32_t slot, double lo, double hi) {
  size_t nx = row->interp->n, len = rs->len, o = (size_t)slot * len, j;
  int32_t e;
  ekoc_batch_nodes nodes = s_panel_nodes(panel_table(eng, rs, lo, hi), eng->ref_nodes);
  ekoc_batch_row_cache cache;
  int rc;
  ekoc_nspace_panel_get(row->panels, row->k, lo, hi, row->radius, &cache); /* all NULL without a cache */
  rc = ekoc_batch_eval(row, &nodes, &cache, NULL, 0, es, &rs->half);
  if (rc != EKOC_OK) return rc;
  rs->lo[slot] = lo;
  rs->hi[slot] = hi;
  for (e = 0; e < row->fp->n_el; ++e)
    for (j = row->jmin; j < nx; ++j) {
      size_t i = (size_t)e * nx + j;
      double k = rs->half.k[i];
      rs->k[o + i] = k;
      rs->q[o + i] = ekoc_batch_quad_error(fabs(k - rs->half.g[i]), rs->half.ra[i]);
      rs->f[o + i] = ekoc_batch_round_error(rs->half.ra[i], rs->half.nz[i]);
    }
  return EKOC_OK;
}

/* The panel with the largest sum of Q / tolerance over the failing entries
 * (the first one on ties), and that sum over all panels in *total. */
static int32_t worst_panel(const ekoc_batch_row *row, const ekoc_batch_refine_scratch *rs, int32_t n_panels,
                           double *total) {
  size_t nx = row->interp->n, j;
  int32_t p, e, best = 0;
  double best_score = -1.0, sum = 0.0;
  for (p = 0; p < n_panels; ++p) {
    const double *q = rs->q + (size_t)p * rs->len;
    double score = 0.0;
    for (e = 0; e < row->fp->n_el; ++e)
      for (j = row->jmin; j < nx; ++j) {
        size_t i = (size_t)e * nx + j;
        if (rs->state[i] == 1) score += q[i] / rs->tol[i];
      }
    sum += score;
    if (score > best_score) {
      best_score = score;
      best = p;
    }
  }
  *total = sum;
  return best;
}

/* Splits until no entry fails that could pass, or the budget or progress
 * runs out (quad/batch_refine.h); panel 0 holds the base rule on entry, or,
 * with no_base, nothing yet: its first split then only evaluates the two
 * halves (the totals start at 0, as the base path's do once panel 0 is taken
 * out of them, so both paths give the same halves the same totals).
 * Returns the number of panels, or a negative status. */
static int refine(const ekoc_batch_engine *eng, const ekoc_batch_row *row, ekoc_batch_eval_scratch *es,
                  ekoc_batch_refine_scratch *rs, int no_base, int *status) {
  size_t nx = row->interp->n, len = rs->len, j;
  int32_t n_panels = 1, e, stall = 0;
  double best = INFINITY;
  *status = EKOC_OK;
  while (n_panels < eng->max_panels) {
    double total = INFINITY, lo, hi, mid;
    int32_t p = no_base ? 0 : worst_panel(row, rs, n_panels, &total), r = n_panels, any = 0;
    size_t op = (size_t)p * len, or_ = (size_t)r * len;
    if (no_base) {
      no_base = 0; /* the first split: no panel to score yet */
    } else if (total < 0.9 * best) {
      best = total;
      stall = 0;
    } else if (++stall >= EKOC_BATCH_STALL_SPLITS) {
      break;
    }
    *status = ekoc_quad_progress_poll(eng->progress, &rs->last_poll);
    if (*status != EKOC_OK) return -1;
    lo = rs->lo[p];
    hi = rs->hi[p];
    mid = 0.5 * (lo + hi);
    /* the totals lose panel p, then gain its halves: left in slot p, right in slot r */
    for (e = 0; e < row->fp->n_el; ++e)
      for (j = row->jmin; j < nx; ++j) {
        size_t i = (size_t)e * nx + j;
        rs->qt[i] -= rs->q[op + i];
        rs->ft[i] -= rs->f[op + i];
        rs->vt[i] -= rs->k[op + i];
      }
    *status = eval_panel(eng, row, es, rs, p, lo, mid);
    if (*status == EKOC_OK) *status = eval_panel(eng, row, es, rs, r, mid, hi);
    if (*status != EKOC_OK) return -1;
    ++n_panels;
    for (e = 0; e < row->fp->n_el; ++e)
      for (j = row->jmin; j < nx; ++j) {
        size_t i = (size_t)e * nx + j;
        rs->qt[i] = fmax(0.0, rs->qt[i] + rs->q[op + i] + rs->q[or_ + i]);
        rs->ft[i] = fmax(0.0, rs->ft[i] + rs->f[op + i] + rs->f[or_ + i]);
        rs->vt[i] += rs->k[op + i] + rs->k[or_ + i];
        rs->tol[i] = ekoc_quad_tolerance(eng->epsabs, eng->epsrel, rs->vt[i]);
        rs->state[i] = entry_state(rs->qt[i], rs->ft[i], rs->tol[i]);
        any |= rs->state[i] == 1;
      }
    if (!any) break;
  }
  return n_panels;
}

/* The remainder beyond the Mellin cut of every entry of the row
 * (quad/driver.h): the tail u in [1 - cut, 1 - cut_t] as one panel
 * [s(1 - cut), s(1 - cut_t)] of the tail variable s with the tail rule, its
 * Kronrod and Gauss sums left in rs->half (entries j >= jmin). *done is 0
 * when there is no tail (the cut already that close to 1). */
static int tail_panel(const ekoc_batch_engine *eng, const ekoc_batch_row *row, ekoc_batch_eval_scratch *es,
                      ekoc_batch_refine_scratch *rs, int *done) {
  int32_t nk = eng->tail_nodes;
  double cut_t = ekoc_quad_tail_cut(eng->cut, row->logx);
  double lo = eng->s_hi, hi;
  ekoc_batch_nodes nodes;
  ekoc_batch_row_cache cache;
  *done = 0;
  if (nk <= 0 || !(cut_t < eng->cut)) return EKOC_OK;
  hi = -log(cut_t + EKOC_BATCH_TAIL_SHIFT);
  s_panel_fill(lo, hi, nk, eng->tail_x, eng->tail_wk, eng->tail_wg, rs->tail_table);
  nodes = s_panel_nodes(rs->tail_table, nk);
  /* kept with the refined panels of the row (quad/nspace_cache.h; all NULL
   * without a cache): the tail's nodes depend on the row's path and the cut
   * only, so the parts of a computation share its transforms and towers (a
   * panel [s(1 - cut), s(1 - cut_t)] lies beyond every refined panel) */
  ekoc_nspace_panel_get(row->panels, row->k, lo, hi, row->radius, &cache);
  {
    int rc = ekoc_batch_eval(row, &nodes, &cache, NULL, 0, es, &rs->half);
    if (rc != EKOC_OK) return rc;
  }
  *done = 1;
  return EKOC_OK;
}

int ekoc_batch_finish_row(const ekoc_batch_engine *eng, const ekoc_quad_job *job, const ekoc_batch_row *row,
                          const ekoc_batch_base *base, ekoc_batch_eval_scratch *es, ekoc_batch_refine_scratch *rs,
                          size_t *n_failed, int *refined) {
  const ekoc_batch_family *fp = row->fp;
  size_t nx = row->interp->n, k = row->k, j;
  int32_t e, p, n_panels = 1;
  int any = 0, status = EKOC_OK, tail = 0;
  if (!base && eng->max_panels < 2)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "batch: a row without its base rule needs refinement (limit >= 2)");
  /* the base rule as panel 0, or an empty panel 0 that refine() splits first */
  for (e = 0; e < fp->n_el; ++e)
    for (j = row->jmin; j < nx; ++j) {
      size_t i = (size_t)e * nx + j;
      double v;
      if (!base) {
        rs->k[i] = rs->vt[i] = rs->q[i] = rs->qt[i] = rs->f[i] = rs->ft[i] = 0.0;
        continue;
      }
      v = base->stored[e][j] - diagonal_constant(row, e, j);
      rs->k[i] = rs->vt[i] = v;
      rs->q[i] = rs->qt[i] = ekoc_batch_quad_error(base->diff[e][j], base->ra[i]);
      rs->f[i] = rs->ft[i] = ekoc_batch_round_error(base->ra[i], base->nz[i]);
      rs->tol[i] = ekoc_quad_tolerance(eng->epsabs, eng->epsrel, v);
      rs->state[i] = entry_state(rs->qt[i], rs->ft[i], rs->tol[i]);
      if (k == nx - 1 && j == nx - 1) rs->state[i] = 0; /* eko's corner keeps its initial value */
      any |= rs->state[i] == 1;
    }
  rs->lo[0] = eng->s_lo;
  rs->hi[0] = eng->s_hi;
  if (!base || (any && eng->max_panels > 1)) {
    n_panels = refine(eng, row, es, rs, !base, &status);
    if (n_panels < 0) return status;
  }
  if (refined) *refined = n_panels > 1;
  status = tail_panel(eng, row, es, rs, &tail);
  if (status != EKOC_OK) return status;
  for (e = 0; e < fp->n_el; ++e) {
    const ekoc_quad_element *el = &job->elements[fp->job_el[e]];
    for (j = row->jmin; j < nx; ++j) {
      size_t i = (size_t)e * nx + j;
      double v, err;
      if (k == nx - 1 && j == nx - 1) continue; /* eko's corner keeps its initial value */
      if (n_panels == 1) {
        v = base->stored[e][j];
        err = rs->q[i] + rs->f[i];
      } else { /* fresh sums over the panels, in slot order */
        double sum = 0.0;
        err = 0.0;
        for (p = 0; p < n_panels; ++p) {
          size_t o = (size_t)p * rs->len + i;
          sum += rs->k[o];
          err += rs->q[o] + rs->f[o];
        }
        rs->vt[i] = sum;
        v = sum + diagonal_constant(row, e, j);
      }
      if (tail) /* the remainder beyond the cut: the tail's integral and that integral's own error */
        err += fabs(rs->half.k[i]) + fabs(rs->half.k[i] - rs->half.g[i]);
      if (!isfinite(v) || !isfinite(err))
        return ekoc_error(EKOC_ERR_NUMERICAL, "batch: non-finite entry at ln x=%g basis %zu element %d", row->logx, j,
                          (int)el->element);
      el->value[k * nx + j] = v;
      el->error[k * nx + j] = err;
      if (err > ekoc_quad_tolerance(eng->epsabs, eng->epsrel, rs->vt[i]) || row->path_status == EKOC_PATH_UNRESOLVED) {
        if (el->failed) el->failed[k * nx + j] = 1;
        ++*n_failed;
      }
    }
  }
  return EKOC_OK;
}
