/* estimate.c: the bytes a computation will hold (estimate.h). Operators are
 * blocks of nx x nx values plus as many errors; which blocks a target's
 * operator holds follows from its path alone, so the block patterns of the
 * parts (as evol/run.c assembles them) are composed here like the operators
 * themselves (evol/compose.c), on booleans. */
#include <stdint.h>
#include <stdio.h> /* snprintf */
#include <string.h>
#include <unistd.h>

#include "ad/nspace.h" /* EKOC_NSPACE_MAX_ELEMENTS, EKOC_MAX_MATCHING_ORDER */
#include "evol/compose.h"
#include "evol/estimate.h"
#include "evol/nspace_engine.h"
#include "evol/run.h"
#include "evol/threads.h"
#include "quad/job.h"       /* EKOC_JOB_MAX_ELEMENTS */
#include "quad/workspace.h" /* the adaptive driver's per-thread workspace */
#include "status.h"

/* ---- saturating arithmetic: estimates of absurd requests must not wrap ------------ */

static size_t sat_add(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }
static size_t sat_mul(size_t a, size_t b) { return (a != 0 && b > SIZE_MAX / a) ? SIZE_MAX : a * b; }
static size_t sat_mul3(size_t a, size_t b, size_t c) { return sat_mul(sat_mul(a, b), c); }

/* ---- block patterns ---------------------------------------------------------------- */

typedef unsigned char pattern[EKOC_NB][EKOC_NB];

static int pattern_count(const pattern p) {
  int a, b, n = 0;
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) n += p[a][b];
  return n;
}

/* A part holds the diagonal of every basis element but the photon, and the
 * square of its singlet-like elements: (Sigma, g) for a segment, (g, Sigma,
 * T_hq) for the matching nf -> nf+1 (run.c's assemble_segment /
 * assemble_matching). */
static void part_pattern(int is_matching, int nf, int unified, pattern p) {
  int singlet[3] = {EKOC_SLOT_SIGMA, EKOC_SLOT_G, is_matching ? ekoc_slot_t(nf + 1) : -1}, a, b;
  memset(p, 0, sizeof(pattern));
  if (unified) { /* QED (run.c's assemble_*_qed): (g, ph, Sigma, Sigma_Delta) and (V, V_Delta) squares */
    for (a = 0; a < EKOC_NB; ++a) p[a][a] = 1;
    if (is_matching) {
      int m[3] = {EKOC_USLOT_G, EKOC_USLOT_SIGMA, ekoc_uslot_t(nf + 1)};
      for (a = 0; a < 3; ++a)
        for (b = 0; b < 3; ++b) p[m[a]][m[b]] = 1;
    } else {
      for (a = 0; a < 4; ++a)
        for (b = 0; b < 4; ++b) p[EKOC_USLOT_G + a][EKOC_USLOT_G + b] = 1;
      for (a = 0; a < 2; ++a)
        for (b = 0; b < 2; ++b) p[EKOC_USLOT_V + a][EKOC_USLOT_V + b] = 1;
    }
    return;
  }
  for (a = 1; a < EKOC_NB; ++a) p[a][a] = 1;
  for (a = 0; a < 3; ++a)
    for (b = 0; b < 3; ++b)
      if (singlet[a] >= 0 && singlet[b] >= 0) p[singlet[a]][singlet[b]] = 1;
}

/* out = a * b: block (i, j) exists when some (i, k) of a and (k, j) of b do
 * (ekoc_blockop_mul); out distinct from a and b. */
static void pattern_mul(const pattern a, const pattern b, pattern out) {
  int i, j, k;
  for (i = 0; i < EKOC_NB; ++i)
    for (j = 0; j < EKOC_NB; ++j) {
      out[i][j] = 0;
      for (k = 0; k < EKOC_NB && !out[i][j]; ++k) out[i][j] = a[i][k] && b[k][j];
    }
}

/* out = R * a for the rotation of the matching step *st (ekoc_blockop_rotate_left). */
static void pattern_rotate(const ekoc_plan_step *st, const pattern a, pattern out) {
  double m[EKOC_NB][EKOC_NB];
  int i, j, k;
  ekoc_compose_matching_rotation(st, m);
  for (i = 0; i < EKOC_NB; ++i)
    for (j = 0; j < EKOC_NB; ++j) {
      out[i][j] = 0;
      for (k = 0; k < EKOC_NB && !out[i][j]; ++k) out[i][j] = m[i][k] != 0.0 && a[k][j];
    }
}

static void track(const pattern p, int *max_blocks) {
  int n = pattern_count(p);
  if (n > *max_blocks) *max_blocks = n;
}

int ekoc_estimate_target_blocks(int nf0, int nf, int *max_blocks) {
  return ekoc_estimate_target_blocks_of(nf0, nf, 0, max_blocks);
}

int ekoc_estimate_target_blocks_of(int nf0, int nf, int unified, int *max_blocks) {
  pattern cur, part, tmp;
  ekoc_plan_step st;
  int most, step = nf >= nf0 ? 1 : -1, k;
  part_pattern(0, nf0, unified, cur); /* paths start with a segment at nf0, taken as is */
  most = pattern_count(cur);
  for (k = nf0; k != nf; k += step) {
    memset(&st, 0, sizeof st);
    st.nf = step > 0 ? k : k - 1; /* the lower nf of the matching */
    st.kind = step > 0 ? EKOC_STEP_FORWARD : EKOC_STEP_BACKWARD;
    st.unified = unified;
    part_pattern(1, st.nf, unified, part);
    if (step > 0) { /* R * (OME * cur) */
      pattern_mul(part, cur, tmp);
      track(tmp, &most);
      pattern_rotate(&st, tmp, cur);
    } else { /* inverse OME * (R * cur) */
      pattern_rotate(&st, cur, tmp);
      track(tmp, &most);
      pattern_mul(part, tmp, cur);
    }
    track(cur, &most);
    part_pattern(0, k + step, unified, part);
    pattern_mul(part, cur, tmp);
    memcpy(cur, tmp, sizeof cur);
    track(cur, &most);
  }
  if (max_blocks) *max_blocks = most;
  return pattern_count(cur);
}

/* ---- the terms ----------------------------------------------------------------------- */

/* values per node of a family's tower: the QCD ones, and the QED ones (ad/nspace.h) */
#define QCD_MAX_TOWER (9 * EKOC_MAX_MATCHING_ORDER)

/* Targets held at once when streamed: the N-space backend inverts
 * EKOC_NSPACE_STREAM_TARGETS together, the others compose one at a time. */
static size_t streamed_targets(const ekoc_request *rq, const ekoc_targets *tg) {
  size_t k = rq->backend == EKOC_BACKEND_NSPACE ? EKOC_NSPACE_STREAM_TARGETS : 1;
  return tg->n_distinct < k ? tg->n_distinct : k;
}

/* The distinct targets' operators, their failure masks (as large: composed
 * only when an integral misses its tolerance) and the bookkeeping. */
static size_t operators_bytes(const ekoc_request *rq, const ekoc_targets *tg, size_t block, int streamed, int unified,
                              int *max_blocks) {
  int blocks[7] = {0}, most[7] = {0}, nf;
  size_t d, sum = 0, bytes;
  *max_blocks = 0;
  for (nf = 3; nf <= 6; ++nf) {
    blocks[nf] = ekoc_estimate_target_blocks_of(rq->nf0, nf, unified, &most[nf]);
  }
  for (d = 0; d < tg->n_distinct; ++d) {
    if (!streamed)
      sum = sat_add(sum, (size_t)blocks[tg->nf[d]]);
    else if ((size_t)blocks[tg->nf[d]] > sum) /* streamed: the largest target, times those held at once */
      sum = (size_t)blocks[tg->nf[d]];
    if (most[tg->nf[d]] > *max_blocks) *max_blocks = most[tg->nf[d]];
  }
  if (streamed) sum = sat_mul(sum, streamed_targets(rq, tg)); /* that many of the largest */
  bytes = sat_mul3(sum, block, 2);
  bytes = sat_add(bytes, sat_mul3(streamed ? streamed_targets(rq, tg) : tg->n_distinct, 2, sizeof(ekoc_blockop)));
  bytes = sat_add(bytes, sat_mul(tg->n_distinct, sizeof(ekoc_plan_step[EKOC_PLAN_MAX_STEPS]) + 2 * sizeof(int32_t)));
  /* the operator's and the targets' per-index arrays */
  bytes = sat_add(bytes, sat_mul(tg->n, 2 * (sizeof(double) + sizeof(int32_t) + 2 * sizeof(size_t))));
  return bytes;
}

/* The parts: one final segment per distinct target, and the segments and
 * matchings below the highest (above the lowest) target nf, shared by the
 * paths; each with its failure mask; plus the element matrices (values,
 * errors, flags) of the part being integrated. */
static size_t parts_bytes(const ekoc_request *rq, const ekoc_targets *tg, size_t block, int unified) {
  size_t d, nx2 = sat_mul(rq->nx, rq->nx), segments, matchings, bytes;
  int up = 0, down = 0, segment_blocks, matching_blocks;
  pattern p;
  part_pattern(0, rq->nf0, unified, p);
  segment_blocks = pattern_count(p); /* 15 (QED 32) */
  part_pattern(1, 3, unified, p);
  matching_blocks = pattern_count(p); /* 19 (QED 20), the same for every nf */
  for (d = 0; d < tg->n_distinct; ++d) {
    int k = tg->nf[d] - rq->nf0;
    if (k > up) up = k;
    if (-k > down) down = -k;
  }
  segments = sat_add(tg->n_distinct, (size_t)(up + down));
  matchings = (size_t)(up + down);
  bytes = sat_mul3(sat_add(sat_mul(segments, (size_t)segment_blocks), sat_mul(matchings, (size_t)matching_blocks)), block, 2);
  bytes = sat_add(bytes, sat_mul(sat_add(segments, matchings), sizeof(ekoc_plan_job)));
  /* the element matrices of the parts integrated at once (13 per part for QCD,
   * 24 with QED): one, or with the batch backend a group (evol/run.h) */
  {
    size_t one = sat_mul3(unified ? EKOC_JOB_MAX_ELEMENTS : 13, nx2, 2 * sizeof(double) + 1), group = one;
    if (rq->backend == EKOC_BACKEND_BATCH) {
      size_t parts = sat_add(segments, matchings), n = parts < EKOC_RUN_GROUP_JOBS ? parts : EKOC_RUN_GROUP_JOBS;
      group = sat_mul(n ? n : 1, one);
      if (group > EKOC_RUN_GROUP_BYTES) group = one > EKOC_RUN_GROUP_BYTES ? one : EKOC_RUN_GROUP_BYTES;
    }
    return sat_add(bytes, group);
  }
}

/* The quadrature driver of the request's backend with `threads` workers. */
static size_t driver_bytes(const ekoc_request *rq, int threads, int unified) {
  const size_t MAX_TOWER = unified ? EKOC_NSPACE_MAX_TOWER : QCD_MAX_TOWER;
  size_t nx = rq->nx, nodes = sat_mul((size_t)rq->batch_panels, 2 * (size_t)rq->batch_points + 1);
  size_t deg1 = (size_t)rq->degree + 1, shared, per_thread, cache;
  if (rq->backend == EKOC_BACKEND_ADAPTIVE) {
    /* the workspace with its N-space cache and basis values, GSL's workspace */
    per_thread = sat_add(sizeof(ekoc_quad_workspace),
                         sat_mul3(EKOC_NSPACE_CACHE_SIZE, nx, sizeof(ekoc_complex)));
    per_thread = sat_add(per_thread, sat_mul((size_t)rq->limit, 4 * sizeof(double) + 2 * sizeof(size_t)));
    return sat_mul((size_t)threads, per_thread);
  }
  /* the node rule and the coefficient table, shared */
  shared = sat_add(sat_mul(nodes, 6 * sizeof(double)), sat_mul3(nx, deg1 * deg1, sizeof(double)));
  if (rq->backend == EKOC_BACKEND_GPU) {
    /* the towers of both families on the host, and a row's nodes per thread */
    shared = sat_add(shared, sat_mul3(2 * nx, nodes, MAX_TOWER * sizeof(ekoc_complex)));
    per_thread = sat_mul(nodes, 2 * sizeof(double) + 2 * MAX_TOWER * sizeof(double));
    return sat_add(shared, sat_mul((size_t)threads, per_thread));
  }
  /* batch: the row scratch of quad/batch.c per thread, and the N-space cache
   * (basis transforms 2 x nx^2 x nodes, towers of up to 16 families) within
   * its default budget */
  per_thread = sat_mul(nodes, 2 * sizeof(double) + sizeof(ekoc_complex) + 2 * EKOC_NSPACE_MAX_RAW * sizeof(double) +
                                  EKOC_NSPACE_MAX_TOWER * sizeof(ekoc_complex) +
                                  3 * EKOC_NSPACE_MAX_ELEMENTS * sizeof(ekoc_complex)); /* elements, wk, wg */
  per_thread = sat_add(per_thread, sat_mul(nx, 2 * EKOC_NSPACE_MAX_ELEMENTS * sizeof(double) + sizeof(ekoc_complex)));
  cache = sat_add(sat_mul3(sat_mul(nx, nx), nodes, 2 * sizeof(ekoc_complex)),
                  sat_mul3(sat_mul(nx, nodes), 16 * MAX_TOWER, sizeof(ekoc_complex)));
  if (cache > EKOC_NSPACE_CACHE_DEFAULT_BYTES) cache = EKOC_NSPACE_CACHE_DEFAULT_BYTES;
  return sat_add(sat_add(shared, cache), sat_mul((size_t)threads, per_thread));
}

/* The N-space backend (evol/nspace_engine.h) instead of the parts and the
 * composition: the N-space matrices of the parts, the targets and two
 * products at up to EKOC_NSPACE_NODES_MAX + 1 nodes per block, the functions
 * of a path, each part's towers and values, and per thread the band
 * products' scratch (functions x 2 nodes, 2 nodes x nx, functions x nx).
 * The held operators are counted in full rows (operators_bytes): the engine
 * keeps row ranges (evol/blockop.h), about half of that on log grids, so the
 * estimate is an upper bound there. */
static size_t nspace_bytes(const ekoc_request *rq, const ekoc_targets *tg, int streamed, int threads, int max_blocks) {
  size_t cap = EKOC_NSPACE_NODES_MAX + 1, targets = streamed ? streamed_targets(rq, tg) : tg->n_distinct, blocks = (size_t)max_blocks;
  size_t parts = sat_add(tg->n_distinct, 6), block = sat_mul(cap, sizeof(ekoc_complex));
  size_t functions = sat_mul(targets, blocks), ld = sat_add(rq->nx, 48), bytes, per_thread;
  bytes = sat_mul3(sat_add(sat_add(parts, targets), 2 + targets), blocks, block);
  bytes = sat_add(bytes, sat_mul3(parts, 2 * block, QCD_MAX_TOWER + EKOC_NSPACE_MAX_ELEMENTS));
  per_thread = sat_mul3(functions, 2 * cap + 2 * ld, sizeof(double));
  per_thread = sat_add(per_thread, sat_mul3(4 * cap, ld, sizeof(double)));
  return sat_add(bytes, sat_mul((size_t)threads, per_thread));
}

void ekoc_estimate_request(const ekoc_request *rq, const ekoc_targets *tg, int streamed, ekoc_estimate *e) {
  ekoc_estimate_request_of(rq, tg, streamed, 0, e);
}

void ekoc_estimate_request_of(const ekoc_request *rq, const ekoc_targets *tg, int streamed, int unified,
                              ekoc_estimate *e) {
  size_t block = sat_mul3(rq->nx, rq->nx, 2 * sizeof(double)); /* values and errors */
  memset(e, 0, sizeof *e);
  e->threads = ekoc_threads_effective(rq->n_threads);
  e->operators = operators_bytes(rq, tg, block, streamed, unified, &e->max_blocks);
  if (rq->backend == EKOC_BACKEND_NSPACE) {
    e->driver = nspace_bytes(rq, tg, streamed, e->threads, e->max_blocks);
    e->total = sat_add(e->operators, e->driver);
    return;
  }
  e->parts = parts_bytes(rq, tg, block, unified);
  /* cur, two products and the states after every step but the last (streamed:
   * the values' and the taints' states, kept side by side) */
  e->composition = sat_mul3(2 + (streamed ? 2 : 1) * EKOC_PLAN_MAX_STEPS, (size_t)e->max_blocks, block);
  e->driver = driver_bytes(rq, e->threads, unified);
  e->total = sat_add(sat_add(e->operators, e->parts), sat_add(e->composition, e->driver));
}

size_t ekoc_estimate_budget(const ekoc_request *rq) {
  long pages, page_size;
  if (rq->memory_budget > 0) return rq->memory_budget;
  pages = sysconf(_SC_PHYS_PAGES);
  page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return SIZE_MAX;
  return sat_mul((size_t)pages, (size_t)page_size) / 4 * 3;
}

/* bytes with three significant digits and a decimal unit ("1 B", "12.3 kB",
 * "1.07 GB"): a budget of 1 byte must not read "0.0 MB" */
static const char *human_bytes(size_t bytes, char *buf, size_t len) {
  static const char *const units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
  double v = (double)bytes;
  int k = 0;
  if (bytes < 1000) {
    snprintf(buf, len, "%zu B", bytes);
    return buf;
  }
  while (v >= 999.5 && k < 6) {
    v /= 1000.0;
    ++k;
  }
  snprintf(buf, len, v >= 99.95 ? "%.0f %s" : v >= 9.995 ? "%.1f %s" : "%.2f %s", v, units[k]);
  return buf;
}

int ekoc_estimate_check(const ekoc_estimate *e, const ekoc_targets *tg, const ekoc_request *rq, size_t budget,
                        const char *entry) {
  char total[24], limit[24], ops[24], parts[24], comp[24], scratch[24];
  if (e->total <= budget) return EKOC_OK;
  /* at most EKOC_ERROR_LEN (256) characters: the estimate and the budget first; the
   * budget as the caller gave it (request.memory_budget=<bytes>) */
  return ekoc_error(EKOC_ERR_NO_MEMORY,
                    "%s: about %s needed, above the memory budget of %s (request.memory_budget=%zu%s; nx=%zu, "
                    "%zu distinct targets: operators %s, parts %s, composition %s, scratch of %d threads %s)",
                    entry, human_bytes(e->total, total, sizeof total), human_bytes(budget, limit, sizeof limit),
                    rq->memory_budget, rq->memory_budget ? "" : ": 3/4 of physical memory", rq->nx, tg->n_distinct,
                    human_bytes(e->operators, ops, sizeof ops), human_bytes(e->parts, parts, sizeof parts),
                    human_bytes(e->composition, comp, sizeof comp), e->threads,
                    human_bytes(e->driver, scratch, sizeof scratch));
}
