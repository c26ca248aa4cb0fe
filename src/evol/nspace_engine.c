/* nspace_engine.c: the N-space backend (nspace_engine.h).
 *
 * For every band of the grid (quad/band_plan.h) and both path offsets
 * (singlet-like first, then non-singlet-like; the bands of small tau the
 * singlet-like one only): the path's nodes, the parts' values there and the
 * targets' operators (evol/nspace_state.h); then the band's entries of
 * every block whose products run through an element singular at N = 1
 * (offset 1: that pole lies inside) or through regular ones only (offset 0:
 * no factor grows like x^-1, and the path crosses the real axis below 1,
 * which keeps the integrand small against the entries). The functions and
 * rows whose entries miss the tolerance are recomputed with twice the
 * nodes. Last, each block gets its large-N limit back as lim delta_kj and
 * eko's x = 1 row, and its entries are checked against the tolerance. */
#include "evol/nspace_engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evol/nspace_poles.h"
#include "evol/nspace_state.h"
#include "evol/profile_stage.h"
#include "evol/threads.h"
#include "quad/band_invert.h"
#include "quad/band_plan.h"
#include "quad/driver.h"
#include "quad/interp.h"
#include "quad/nspace_cache.h"
#include "status.h"

/* The output arrays before the bands write them. A block inverted on a band
 * path (ROLE_S, ROLE_NS) has every entry of its bands' columns written by
 * each band's first pass (every row, every output of its function), so only
 * the entries of its row ranges that no band takes are zeroed here (none on
 * the grids seen: a row's range starts at its first band column or the
 * diagonal); the constant blocks, which no band writes, are zeroed whole.
 * Zeroing every array (~390 MB on NNPDF's fit grid) was ~5 % of a one-thread
 * solve. Per array on the request's threads. (Filled with NaN instead where
 * a test asks, opt.poison: all of NNPDF's database and the engine's tests
 * left none.) */
static int zero_outputs(ekoc_nspace_state *g) {
  size_t nx = g->nx, k, j, n_gaps = 0, *gaps = malloc((g->row_len ? g->row_len : 1) * sizeof *gaps);
  unsigned char *covered = malloc(nx ? nx : 1);
  long i, n = (long)(g->nt * EKOC_NB * EKOC_NB);
  int nt = ekoc_threads_effective(g->rq->n_threads), b;
  (void)nt; /* used by the OpenMP pragma only (unused where OpenMP is off: the fuzz build) */
  if (!gaps || !covered) {
    free(gaps), free(covered);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the operators");
  }
  for (k = 0; k < nx; ++k) { /* the entries of row k's range in no band */
    memset(covered, 0, nx);
    for (b = 0; b < g->bp->n_bands; ++b)
      for (j = (size_t)g->bp->band[b].j_lo[k]; j < (size_t)g->bp->band[b].j_hi[k]; ++j) covered[j] = 1;
    for (j = g->row_lo[k]; j < nx; ++j)
      if (!covered[j]) gaps[n_gaps++] = g->row_base[k] + j;
  }
#pragma omp parallel for schedule(dynamic, 4) num_threads(nt) if (nt > 1)
  for (i = 0; i < n; ++i) {
    size_t t = (size_t)i / (EKOC_NB * EKOC_NB), q;
    int a = (int)((size_t)i / EKOC_NB % EKOC_NB), c = (int)((size_t)i % EKOC_NB);
    if (!g->val[i] || !g->err[i]) continue;
    if (g->role[t][a][c] == ROLE_CONST) {
      memset(g->val[i], 0, g->row_len * sizeof(double));
      memset(g->err[i], 0, g->row_len * sizeof(double));
      continue;
    }
    if (g->opt.poison)
      for (q = 0; q < g->row_len; ++q) g->val[i][q] = g->err[i][q] = NAN;
    for (q = 0; q < n_gaps; ++q) g->val[i][gaps[q]] = g->err[i][gaps[q]] = 0.0;
  }
  free(gaps), free(covered);
  return EKOC_OK;
}

/* Which blocks of each target are inverted on which path, from the full
 * operators (g->tops) and the ones without the elements singular at N = 1,
 * both at the first singlet-like path's nodes: a block that the elements
 * regular at N = 1 alone give (equal at every node) on the
 * non-singlet-like path, every other one (some product through a singular
 * element: (Sigma, g) and what the matchings mix into them) whole on the
 * singlet-like path; their constants; the output arrays. */
static int engine_roles(ekoc_nspace_state *g, size_t count) {
  ekoc_nsop *ns = calloc(g->nt, sizeof *ns);
  size_t t, nn = g->row_len;
  int a, b, rc = EKOC_OK;
  if (!ns) return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
  for (t = 0; t < g->nt; ++t) ekoc_nsop_init(&ns[t], count);
  rc = ekoc_nspace_path_compose(g, count, 1, ns);
  for (t = 0; rc == EKOC_OK && t < g->nt; ++t)
    for (a = 0; rc == EKOC_OK && a < EKOC_NB; ++a)
      for (b = 0; rc == EKOC_OK && b < EKOC_NB; ++b) {
        const ekoc_nsop *full = &g->tops[t], *part = &ns[t];
        int in_full = full->v[a][b] || full->k[a][b] != 0.0, in_ns = part->v[a][b] || part->k[a][b] != 0.0;
        size_t at = (t * EKOC_NB + (size_t)a) * EKOC_NB + (size_t)b;
        if (!in_full) continue;
        g->corner[t][a][b] = full->corner[a][b];
        g->delta[t][a][b] = full->v[a][b] ? full->lim[a][b] : full->k[a][b];
        if (!full->v[a][b])
          g->role[t][a][b] = ROLE_CONST;
        else if (in_ns && part->v[a][b] && !memcmp(part->v[a][b], full->v[a][b], count * sizeof(ekoc_complex)))
          g->role[t][a][b] = ROLE_NS;
        else
          g->role[t][a][b] = ROLE_S;
        g->val[at] = malloc(nn * sizeof(double)); /* zeroed by zero_outputs */
        g->err[at] = malloc(nn * sizeof(double));
        if (rc == EKOC_OK && (!g->val[at] || !g->err[at]))
          rc = ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the operators");
      }
  for (t = 0; t < g->nt; ++t) ekoc_nsop_clear(&ns[t]);
  free(ns);
  if (rc == EKOC_OK) rc = zero_outputs(g);
  if (rc == EKOC_OK) { /* room for the functions of one path: at most every block with values */
    size_t n_fun = 0, i;
    for (i = 0; i < g->nt * EKOC_NB * EKOC_NB; ++i) n_fun += g->val[i] != NULL;
    g->f = malloc((n_fun ? n_fun : 1) * g->cap * sizeof *g->f);
    g->f_size = malloc((n_fun ? n_fun : 1) * g->cap * sizeof *g->f_size);
    g->src = malloc((n_fun ? n_fun : 1) * sizeof *g->src);
    g->src_lim = malloc((n_fun ? n_fun : 1) * sizeof *g->src_lim);
    g->out_start = malloc((n_fun + 1) * sizeof *g->out_start);
    g->out_fun = malloc((n_fun ? n_fun : 1) * sizeof *g->out_fun);
    g->out_val = malloc((n_fun ? n_fun : 1) * sizeof *g->out_val);
    g->out_err = malloc((n_fun ? n_fun : 1) * sizeof *g->out_err);
    g->out_corr = malloc((n_fun ? n_fun : 1) * sizeof *g->out_corr);
    g->out_id = malloc((n_fun ? n_fun : 1) * sizeof *g->out_id);
    g->fun_over = calloc(n_fun ? n_fun : 1, 1);
    g->fun_tolerance = malloc((n_fun ? n_fun : 1) * sizeof *g->fun_tolerance);
    g->block_rows[0] = malloc(g->nt * EKOC_NB * EKOC_NB * g->nx);
    g->block_rows[1] = malloc(g->nt * EKOC_NB * EKOC_NB * g->nx);
    g->rows_in = malloc((n_fun ? n_fun : 1) * sizeof *g->rows_in);
    g->rows_out = malloc((n_fun ? n_fun : 1) * sizeof *g->rows_out);
    if (!g->f || !g->f_size || !g->out_id || !g->fun_over || !g->fun_tolerance || !g->block_rows[0] ||
        !g->block_rows[1] || !g->rows_in || !g->rows_out || !g->src || !g->src_lim ||
        !g->out_start ||        !g->out_fun || !g->out_val || !g->out_err || !g->out_corr)
      rc = ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
  }
  return rc;
}

/* The functions of one path (blocks of role or role2, -1: none; with
 * `only`, the blocks g->only marks), w_i (F(N_i) - lim), one per distinct
 * block (equal values and limit at every node: one inversion, several
 * outputs), their outputs grouped per function, *n_fun of them.
 * Errors: EKOC_ERR_NUMERICAL (a value that is not finite), EKOC_ERR_NO_MEMORY. */
static int path_functions(ekoc_nspace_state *g, int role, int role2, int only, size_t count, size_t *n_fun_out) {
  size_t t, e, n_fun = 0, n_out = 0, i, *next, *order;
  int a, b;
  for (t = 0; t < g->nt; ++t)
    for (a = 0; a < EKOC_NB; ++a)
      for (b = 0; b < EKOC_NB; ++b) {
        const ekoc_complex *v = g->tops[t].v[a][b];
        const double *size = g->tops[t].size[a][b];
        double lim = g->tops[t].lim[a][b];
        size_t at = (t * EKOC_NB + (size_t)a) * EKOC_NB + (size_t)b;
        if (g->role[t][a][b] != role && g->role[t][a][b] != role2) continue;
        if (only && !g->only[at]) continue;
        for (e = 0; e < n_fun; ++e)
          if (g->src_lim[e] == lim && !memcmp(g->src[e], v, count * sizeof *v)) break;
        if (e == n_fun) {
          ekoc_complex *f = g->f + n_fun * count;
          for (i = 0; i < count; ++i)
            if (!isfinite(v[i].re) || !isfinite(v[i].im))
              return ekoc_error(EKOC_ERR_NUMERICAL, "N-space backend: block (%d,%d) of target %zu is not finite at "
                                                    "N=(%g,%g)", a, b, g->t0 + t, g->n[i].re, g->n[i].im);
          for (i = 0; i < count; ++i) f[i] = c_mul(g->w[i], c_add_real(v[i], -lim));
          for (i = 0; i < count; ++i) g->f_size[n_fun * count + i] = 0.0;
          g->src[n_fun] = v;
          g->fun_tolerance[n_fun] = 1.0;
          g->src_lim[n_fun++] = lim;
        }
        /* a block whose pole residues change it afterwards (evol/nspace_poles.h) meets a tighter tolerance here */
        if (g->pole_block && g->pole_block[at]) g->fun_tolerance[e] = EKOC_POLES_BAND_TOLERANCE;
        for (i = 0; i < count; ++i) /* the largest of the blocks sharing the function */
          g->f_size[e * count + i] = fmax(g->f_size[e * count + i], c_abs(g->w[i]) * (size[i] + fabs(lim)));
        g->out_fun[n_out] = e;
        g->out_id[n_out++] = at;
      }
  /* the outputs grouped by function (counting sort): out_start[e] .. out_start[e+1] */
  next = malloc((n_fun + 1) * sizeof *next);
  order = malloc((n_out ? n_out : 1) * sizeof *order);
  if (!next || !order) {
    free(next), free(order);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
  }
  for (e = 0; e <= n_fun; ++e) g->out_start[e] = 0;
  for (i = 0; i < n_out; ++i) g->out_start[g->out_fun[i] + 1]++;
  for (e = 0; e < n_fun; ++e) g->out_start[e + 1] += g->out_start[e];
  for (e = 0; e < n_fun; ++e) next[e] = g->out_start[e];
  for (i = 0; i < n_out; ++i) order[next[g->out_fun[i]]++] = g->out_id[i];
  for (i = 0; i < n_out; ++i) {
    g->out_id[i] = order[i];
    g->out_val[i] = g->val[order[i]];
    g->out_err[i] = g->err[order[i]];
    g->out_corr[i] = g->corr[order[i]];
  }
  free(next), free(order);
  g->n_out = n_out;
  *n_fun_out = n_fun;
  return EKOC_OK;
}

/* After a pass whose entries missed the tolerance somewhere: the blocks of
 * the functions that did (g->only), the targets they belong to and the
 * parts on those targets' paths (active), the rows to recompute (g->rows). */
static void refine_only(ekoc_nspace_state *g, size_t n_fun) {
  const ekoc_plan *p = g->p;
  size_t e, o, t;
  int s;
  memset(g->only, 0, g->nt * EKOC_NB * EKOC_NB);
  memset(g->target_active, 0, g->nt);
  memset(g->active, 0, p->n_jobs);
  for (e = 0; e < n_fun; ++e)
    for (o = g->out_start[e]; g->fun_over[e] && o < g->out_start[e + 1]; ++o) {
      g->only[g->out_id[o]] = 1;
      g->target_active[g->out_id[o] / (EKOC_NB * EKOC_NB)] = 1;
    }
  for (t = 0; t < g->nt; ++t)
    for (s = 0; g->target_active[t] && s < p->n_steps[g->t0 + t]; ++s) g->active[p->steps[g->t0 + t][s].job] = 1;
  memcpy(g->rows, g->row_over, g->nx);
}

/* A band's first pass on m intervals starts on PROBE_ROWS of its rows
 * (spread over it); where more than half of the (output, row) pairs there
 * miss the tolerance, the pass is dropped for one on 2m (values at the new
 * nodes only): refining those pairs would cost more than the whole band on
 * 2m. Otherwise the pass goes on with the other rows, the probe's entries
 * kept. The truncated solutions' bands lowered off their poles (theory
 * 40000000 on NNPDF's fit grid: first bands needing 129 and 257 nodes for
 * 75-90 % of their functions) skip passes whose results were mostly thrown
 * away; a band that converges probes 3 rows of its ~100 and loses nothing.
 * Bands of fewer than PROBE_MIN_ROWS rows are not probed. */
#define PROBE_ROWS 3
#define PROBE_MIN_ROWS 12

/* The band's rows split into probe_rows and rest_rows; 0 when the band is
 * too small to probe. */
static int probe_split(ekoc_nspace_state *g, const ekoc_band *bd) {
  size_t k, n_rows = 0, seen = 0, next = 0, taken = 0;
  memset(g->probe_rows, 0, g->nx);
  memset(g->rest_rows, 0, g->nx);
  for (k = 0; k < g->nx; ++k) n_rows += bd->j_hi[k] > bd->j_lo[k];
  if (n_rows < PROBE_MIN_ROWS) return 0;
  for (k = 0; k < g->nx; ++k) {
    if (bd->j_hi[k] <= bd->j_lo[k]) continue;
    /* rows 0, (n-1)/2, n-1 of the band's n (PROBE_ROWS = 3), evenly spread in general */
    next = taken < PROBE_ROWS ? taken * (n_rows - 1) / (PROBE_ROWS - 1) : n_rows;
    if (seen++ == next) {
      g->probe_rows[k] = 1;
      ++taken;
    } else {
      g->rest_rows[k] = 1;
    }
  }
  return 1;
}

/* Whether more than half of the (output, probe row) pairs missed the
 * tolerance in the probe (rows_out). */
static int probe_says_double(const ekoc_nspace_state *g) {
  size_t o, k, pairs = 0, over = 0;
  for (k = 0; k < g->nx; ++k) {
    if (!g->probe_rows[k]) continue;
    for (o = 0; o < g->n_out; ++o) over += g->rows_out[o][k] != 0;
    pairs += g->n_out;
  }
  return 2 * over > pairs;
}

/* Band b on one path: its entries, then those of the functions and rows
 * that missed the tolerance again with twice the nodes, while some do (up to
 * EKOC_NSPACE_NODES_MAX intervals); the others keep the first rule's. The
 * first pass may move to twice the nodes after its probe (PROBE_ROWS). */
static int band_path(ekoc_nspace_state *g, int b, int singlet_path, int *roles_done, ekoc_quad_progress *progress) {
  const ekoc_band *bd = &g->bp->band[b];
  int m = g->opt.first_nodes, rc, fresh = 1, whole = 1, probe = g->opt.probe && probe_split(g, bd);
  uint64_t ts = ekoc_profile_now_ns(g->prof);
  memcpy(g->active, g->need, g->p->n_jobs);
  memset(g->target_active, 1, g->nt);
  for (;;) {
    ekoc_band_invert_args args;
    size_t count = (size_t)m + 1, n_fun = 0, over = 0;
    if (fresh && g->tops_path == 2 * b + singlet_path) { /* the residues' pass left this path's values */
      g->tops_path = -1;
    } else if (fresh) {
      rc = ekoc_nspace_path_values(g, bd, singlet_path, m);
      if (rc == EKOC_OK) rc = ekoc_nspace_path_compose(g, count, !singlet_path, g->tops);
    } else { /* the last pass's nodes are this one's even ones: values at the new nodes only */
      rc = ekoc_nspace_path_refine(g, bd, singlet_path, m);
    }
    if (rc == EKOC_OK && !*roles_done) {
      rc = engine_roles(g, count);
      *roles_done = 1;
    }
    if (rc != EKOC_OK) return rc;
    rc = path_functions(g, singlet_path ? ROLE_S : ROLE_NS, singlet_path && ekoc_nspace_one_path(bd) ? ROLE_NS : -1,
                        !whole, count, &n_fun);
    if (rc != EKOC_OK) return rc;
    if (n_fun == 0 || bd->n_entries == 0) return EKOC_OK;
    memset(&args, 0, sizeof args);
    args.ip = g->ip;
    args.band = bd;
    args.m = m;
    args.n = g->n;
    args.tail = g->tail;
    args.n_functions = n_fun;
    args.f = g->f;
    args.f_size = g->f_size;
    args.out_start = g->out_start;
    args.val = g->out_val;
    args.err = g->out_err;
    args.row_base = g->row_base;
    args.corr = g->out_corr;
    args.epsabs = g->rq->epsabs;
    args.epsrel = g->rq->epsrel;
    args.fun_tolerance = g->fun_tolerance;
    args.n_threads = g->rq->n_threads;
    args.rows = whole ? NULL : g->rows;
    args.row_over = g->row_over;
    args.fun_over = g->fun_over;
    { /* each output's rows: written where its block was over in the last pass (every row at first) */
      size_t o, bytes = g->nt * EKOC_NB * EKOC_NB * g->nx;
      if (!whole) memcpy(g->block_rows[1], g->block_rows[0], bytes);
      memset(g->block_rows[0], 0, bytes);
      for (o = 0; o < g->n_out; ++o) {
        g->rows_in[o] = g->block_rows[1] + g->out_id[o] * g->nx;
        g->rows_out[o] = g->block_rows[0] + g->out_id[o] * g->nx;
      }
      args.rows_in = whole ? NULL : g->rows_in;
      args.rows_out = g->rows_out;
    }
    args.progress = progress;
    args.store = ekoc_band_invert_store(g->paths, bd, m, g->n);
    memset(g->row_over, 0, g->nx);
    memset(g->fun_over, 0, n_fun);
    if (whole && probe && m < EKOC_NSPACE_NODES_MAX) {
      size_t probe_over = 0;
      args.rows = g->probe_rows;
      rc = ekoc_band_invert(&args, &probe_over);
      if (rc == EKOC_OK && probe_says_double(g)) { /* the whole band on twice the nodes instead */
        fresh = 0;
        m *= 2;
        continue;
      }
      args.rows = g->rest_rows; /* the flags of the probe's rows stay */
      if (rc == EKOC_OK) rc = ekoc_band_invert(&args, &over);
      over += probe_over;
    } else {
      rc = ekoc_band_invert(&args, &over);
    }
    if (rc == EKOC_OK && (over == 0 || m >= EKOC_NSPACE_NODES_MAX)) {
      char name[2 * EKOC_PROFILE_NAME_LEN]; /* the profile keeps EKOC_PROFILE_NAME_LEN - 1 bytes of it */
      snprintf(name, sizeof name, "band %d/%d offset %d: %d nodes, %zu over", b + 1, g->bp->n_bands, singlet_path,
               m + 1, over);
      ekoc_profile_stage(g->prof, name, ts);
    }
    if (rc != EKOC_OK || over == 0 || m >= EKOC_NSPACE_NODES_MAX) return rc;
    refine_only(g, n_fun);
    fresh = 0;
    whole = 0;
    m *= 2;
  }
}

/* Where a target's finish stopped: nothing (0), out of memory (1), or a
 * non-finite entry (2) of block (a, b) at index k of its rows. */
typedef struct finish_stop {
  int kind, a, b;
  size_t k;
} finish_stop;

/* Target t's operator from the outputs: constants back, eko's x = 1 row, the
 * entries that miss the tolerance flagged; stops at its first non-finite
 * entry. Touches target t's arrays only. */
static finish_stop finish_target(ekoc_nspace_state *g, size_t t, ekoc_blockop *op, ekoc_blockop *taint,
                                 size_t *n_failed) {
  size_t nx = g->nx, k, *rb = g->row_base, last = nx - 1;
  finish_stop stop = {0, 0, 0, 0};
  int a, b;
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) {
      size_t at = (t * EKOC_NB + (size_t)a) * EKOC_NB + (size_t)b, failed = 0;
      double *v = g->val[at], *er = g->err[at], *flags = NULL;
      if (!v) continue;
      for (k = 0; k < last; ++k) v[rb[k] + k] += g->delta[t][a][b];
      for (k = g->row_lo[last]; k < nx; ++k) v[rb[last] + k] = er[rb[last] + k] = 0.0;
      v[rb[last] + last] = g->corner[t][a][b];
      for (k = 0; k < g->row_len; ++k) {
        if (!isfinite(v[k]) || !isfinite(er[k])) { /* a NaN is never handed out */
          stop.kind = 2, stop.a = a, stop.b = b, stop.k = k;
          return stop;
        }
        if (er[k] > ekoc_quad_tolerance(g->rq->epsabs, g->rq->epsrel, v[k])) {
          if (!flags && !(flags = ekoc_blockop_block(taint, a, b))) {
            stop.kind = 1;
            return stop;
          }
          taint->err[a][b][k] = 1.0;
          ++failed;
        }
      }
      if (flags) taint->exact[a][b] = 0;
      *n_failed += failed;
      if (!ekoc_blockop_adopt(op, a, b, v, er)) {
        stop.kind = 1;
        return stop;
      }
      g->val[at] = g->err[at] = NULL;
    }
  return stop;
}

/* The targets' operators from the outputs (finish_target), the targets on
 * the request's threads (the pass reads every entry: ~7 % of a warm solve);
 * the error is that of the first target that stopped, as one thread finds
 * (the targets after it are finished too: the caller frees them all). */
static int engine_finish(ekoc_nspace_state *g, ekoc_blockop *ops, ekoc_blockop *taints, size_t *n_failed) {
  size_t nx = g->nx, t, failed = 0, *rb = g->row_base;
  long tt, first_stop = (long)g->nt;
  finish_stop stop = {0, 0, 0, 0};
  int nt = ekoc_threads_effective(g->rq->n_threads);
  (void)nt; /* used by the OpenMP pragma only (unused where OpenMP is off: the fuzz build) */
  for (t = 0; t < g->nt; ++t) /* the outputs' row ranges, for the values and the flags */
    if (!ekoc_blockop_set_rows(&ops[t], g->row_lo) || !ekoc_blockop_set_rows(&taints[t], g->row_lo))
      return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) reduction(+ : failed) if (nt > 1)
  for (tt = 0; tt < (long)g->nt; ++tt) {
    size_t target_failed = 0;
    finish_stop s = finish_target(g, (size_t)tt, &ops[tt], &taints[tt], &target_failed);
    failed += target_failed;
    if (s.kind)
#pragma omp critical(ekoc_nspace_finish_stop)
      if (tt < first_stop) {
        first_stop = tt;
        stop = s;
      }
  }
  t = (size_t)first_stop;
  if (stop.kind == 1) return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
  if (stop.kind == 2) {
    size_t row = 0;
    double *v = g->val[(t * EKOC_NB + (size_t)stop.a) * EKOC_NB + (size_t)stop.b];
    double *er = g->err[(t * EKOC_NB + (size_t)stop.a) * EKOC_NB + (size_t)stop.b];
    while (row + 1 < nx && rb[row + 1] + g->row_lo[row + 1] <= stop.k) ++row;
    return ekoc_error(EKOC_ERR_NUMERICAL,
                      "the operator of target %zu (mu2=%g) has a non-finite entry %g +- %g (block %d,%d, x "
                      "index %zu,%zu)",
                      g->t0 + t, g->rq->mu2[g->t0 + t], v[stop.k], er[stop.k], stop.a, stop.b, row,
                      stop.k - rb[row]);
  }
  *n_failed += failed;
  return EKOC_OK;
}

void ekoc_nspace_engine_options_default(ekoc_nspace_engine_options *o) {
  o->magnification = EKOC_BAND_MAGNIFICATION;
  o->ratio = EKOC_BAND_RATIO;
  o->first_nodes = EKOC_NSPACE_NODES_FIRST;
  o->probe = 1;
  o->poison = 0;
}

int ekoc_nspace_engine_run(const ekoc_plan *p, const ekoc_interp *ip, const ekoc_request *rq, size_t t0, size_t n,
                           const ekoc_nspace_engine_options *opt, ekoc_profile *prof, ekoc_blockop *ops,
                           ekoc_blockop *taints, size_t *n_failed) {
  ekoc_nspace_state g;
  ekoc_pole_set poles;
  ekoc_quad_progress progress;
  uint64_t ts = ekoc_profile_now_ns(prof), n_paths = 0; /* progress: one step per band and path */
  int rc, b, path, roles_done = 0;
  memset(&g, 0, sizeof g);
  g.tops_path = -1;
  g.p = p;
  g.ip = ip;
  g.rq = rq;
  g.prof = prof;
  if (opt)
    g.opt = *opt;
  else
    ekoc_nspace_engine_options_default(&g.opt);
  /* QED (the unified bases): its kernels' rounding, magnified e^12.8 (then the default) at the
   * crossings, flagged ~50 entries per target on pineko's grid; at e^9 none */
  if (!opt && p->unified) g.opt.magnification = EKOC_NSPACE_QED_MAGNIFICATION;
  g.t0 = t0;
  g.nt = n;
  g.nx = ip->n;
  if (g.opt.first_nodes < 2 || g.opt.first_nodes % 2 || g.opt.first_nodes > EKOC_NSPACE_NODES_MAX)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "N-space backend: first_nodes=%d is not even in 2..%d",
                      g.opt.first_nodes, EKOC_NSPACE_NODES_MAX);
  memset(&poles, 0, sizeof poles);
  rc = ekoc_band_plan_new(ip, g.opt.magnification, g.opt.ratio, &g.bp);
  /* the caller's cache: the values of earlier computations on this grid (quad/path_cache.h) */
  if (rc == EKOC_OK && rq->nspace_cache) g.paths = ekoc_nspace_cache_bind_paths(rq->nspace_cache, ip);
  if (rc == EKOC_OK) rc = ekoc_nspace_state_alloc(&g);
  /* the truncated and perturbative singlet solutions: their poles, the band
   * paths' crossings off them (evol/nspace_poles.h) */
  if (rc == EKOC_OK) {
    uint64_t tp = ekoc_profile_now_ns(prof);
    rc = ekoc_poles_find(&g, &poles);
    if (rc == EKOC_OK && poles.n) ekoc_profile_stage(prof, "poles", tp);
  }
  if (rc == EKOC_OK) ekoc_poles_place_bands(&poles, g.bp);
  if (rc == EKOC_OK) rc = ekoc_poles_prepare(&g, &poles);
  g.pole_block = poles.block_has;
  for (b = 0; rc == EKOC_OK && b < g.bp->n_bands; ++b) n_paths += ekoc_nspace_one_path(&g.bp->band[b]) ? 1 : 2;
  ekoc_quad_progress_init(&progress, rq->progress, rq->progress_data, n_paths ? n_paths : 1);
  if (rc == EKOC_OK && g.pole_block) {
    /* the residues of the poles eko's and the band paths enclose differently, before the bands: an
     * entry's tolerance is that of its final value, which the residues can leave far smaller than the
     * band's (theory 40000000 on the fit grid: a band value 27.2 and a final -0.136); they need the
     * blocks' roles, which the first band's singlet-like nodes give */
    uint64_t tp = ekoc_profile_now_ns(prof);
    memcpy(g.active, g.need, p->n_jobs);
    memset(g.target_active, 1, g.nt);
    rc = ekoc_nspace_path_values(&g, &g.bp->band[0], 1, g.opt.first_nodes);
    if (rc == EKOC_OK) rc = ekoc_nspace_path_compose(&g, (size_t)g.opt.first_nodes + 1, 0, g.tops);
    if (rc == EKOC_OK) rc = engine_roles(&g, (size_t)g.opt.first_nodes + 1);
    roles_done = 1;
    g.tops_path = 1; /* band 0's singlet-like first pass: band_path takes these values */
    if (rc == EKOC_OK) rc = ekoc_poles_correct(&g, &poles, 0);
    if (rc == EKOC_OK) ekoc_profile_stage(prof, "pole residues (tolerance)", tp);
  }
  for (b = 0; rc == EKOC_OK && b < g.bp->n_bands; ++b)
    /* singlet-like first: it fixes the roles */
    for (path = 1; rc == EKOC_OK && path >= (ekoc_nspace_one_path(&g.bp->band[b]) ? 1 : 0); --path) {
      rc = band_path(&g, b, path, &roles_done, &progress);
      if (rc == EKOC_OK) rc = ekoc_quad_progress_row(&progress);
    }
  if (rc == EKOC_OK && g.pole_block) { /* the residues themselves, in double precision */
    uint64_t tp = ekoc_profile_now_ns(prof);
    rc = ekoc_poles_correct(&g, &poles, 1);
    if (rc == EKOC_OK) ekoc_profile_stage(prof, "pole residues", tp);
  }
  if (rc == EKOC_OK) rc = engine_finish(&g, ops, taints, n_failed);
  ekoc_poles_free(&poles);
  ekoc_quad_progress_destroy(&progress);
  ekoc_nspace_state_free(&g);
  if (g.paths) ekoc_nspace_cache_release(rq->nspace_cache);
  if (rc == EKOC_OK) ekoc_profile_stage(prof, "N-space backend", ts);
  return rc;
}
