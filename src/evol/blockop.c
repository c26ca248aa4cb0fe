/* blockop.c: block-sparse operators and their products. */
#include "evol/blockop.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "evol/block_product.h"

void ekoc_blockop_init(ekoc_blockop *op, size_t nx) {
  memset(op, 0, sizeof *op);
  op->nx = nx;
}

void ekoc_blockop_clear(ekoc_blockop *op) {
  int a, b;
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) {
      free(op->val[a][b]);
      free(op->err[a][b]);
      op->val[a][b] = op->err[a][b] = NULL;
      op->identity[a][b] = 0;
      op->exact[a][b] = 0;
    }
  free(op->row_lo);
  op->row_lo = op->row_base = NULL;
  op->ranges_len = 0;
}

size_t ekoc_blockop_row_offsets(size_t nx, const size_t *row_lo, size_t *row_base) {
  size_t k, at = 0;
  for (k = 0; k < nx; ++k) {
    row_base[k] = at - row_lo[k]; /* >= 0: at >= nx >= row_lo[k] from row 1 on, as row_lo[0] = 0 */
    at += nx - row_lo[k];
  }
  return at;
}

/* dst (no blocks) takes src's row ranges (a copy); 0 on no memory. */
static int copy_rows(ekoc_blockop *dst, const ekoc_blockop *src) {
  size_t nx = src->nx;
  dst->nx = nx;
  if (!src->row_lo) return 1;
  dst->row_lo = malloc((nx > 0 ? 2 * nx : 1) * sizeof *dst->row_lo);
  if (!dst->row_lo) return 0;
  dst->row_base = dst->row_lo + nx;
  memcpy(dst->row_lo, src->row_lo, 2 * nx * sizeof *dst->row_lo);
  dst->ranges_len = src->ranges_len;
  return 1;
}

int ekoc_blockop_set_rows(ekoc_blockop *op, const size_t *row_lo) {
  size_t k, nx = op->nx;
  if (ekoc_blockop_count(op) > 0 || op->row_lo) return 0;
  for (k = 0; k < nx; ++k) /* row_lo[0] = 0 then */
    if (row_lo[k] > k) return 0;
  op->row_lo = malloc((nx > 0 ? 2 * nx : 1) * sizeof *op->row_lo);
  if (!op->row_lo) return 0;
  op->row_base = op->row_lo + nx;
  memcpy(op->row_lo, row_lo, nx * sizeof *op->row_lo); /* the caller's nx; the bases computed here */
  op->ranges_len = ekoc_blockop_row_offsets(nx, op->row_lo, op->row_base);
  return 1;
}

int ekoc_blockop_to_full_rows(ekoc_blockop *op) {
  double *full[2][EKOC_NB][EKOC_NB];
  size_t nx = op->nx, k;
  int a, b, h, ok = 1;
  if (!op->row_lo) return 1;
  memset(full, 0, sizeof full);
  for (a = 0; a < EKOC_NB && ok; ++a)
    for (b = 0; b < EKOC_NB && ok; ++b)
      for (h = 0; h < 2 && ok; ++h)
        if (op->val[a][b]) ok = (full[h][a][b] = calloc(nx > 0 ? nx * nx : 1, sizeof(double))) != NULL;
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b)
      for (h = 0; h < 2; ++h) {
        const double *src = h ? op->err[a][b] : op->val[a][b];
        if (!ok) {
          free(full[h][a][b]);
          continue;
        }
        for (k = 0; src && k < nx; ++k)
          memcpy(full[h][a][b] + k * nx + op->row_lo[k], src + op->row_base[k] + op->row_lo[k],
                 (nx - op->row_lo[k]) * sizeof(double));
      }
  if (!ok) return 0;
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) {
      free(op->val[a][b]), free(op->err[a][b]);
      op->val[a][b] = full[0][a][b], op->err[a][b] = full[1][a][b];
    }
  free(op->row_lo);
  op->row_lo = op->row_base = NULL;
  op->ranges_len = 0;
  return 1;
}

static int all_zero(const double *v, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i)
    if (v[i] != 0.0) return 0;
  return 1;
}

/* Recomputes the exact flags of every block after an operation. */
static void refresh_flags(ekoc_blockop *op) {
  int a, b;
  size_t n = ekoc_blockop_len(op);
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) {
      op->identity[a][b] = 0;
      op->exact[a][b] = op->err[a][b] ? (unsigned char)all_zero(op->err[a][b], n) : 0;
    }
}

/* Block (a, b), zeroed when new and `zero` (callers that overwrite it whole
 * pass 0 and skip the clearing). Zeroed by writing, not by calloc: calloc's
 * fresh pages (blocks above ~128 KB come straight from mmap) are first read
 * by the accumulating products, which maps the shared zero page, and then
 * written, a second fault that also flushes the other threads' TLBs; with
 * 200-point grids that was half the composition's time (perf/STATS.md). */
static int alloc_block_(ekoc_blockop *op, int a, int b, int zero) {
  size_t n = ekoc_blockop_len(op);
  if (op->val[a][b]) return 1;
  op->val[a][b] = malloc(n * sizeof(double));
  op->err[a][b] = malloc(n * sizeof(double));
  if (!op->val[a][b] || !op->err[a][b]) {
    free(op->val[a][b]);
    free(op->err[a][b]);
    op->val[a][b] = op->err[a][b] = NULL;
    return 0;
  }
  if (zero) {
    memset(op->val[a][b], 0, n * sizeof(double));
    memset(op->err[a][b], 0, n * sizeof(double));
  }
  return 1;
}

static int alloc_block(ekoc_blockop *op, int a, int b) { return alloc_block_(op, a, b, 1); }

double *ekoc_blockop_block(ekoc_blockop *op, int a, int b) { return alloc_block(op, a, b) ? op->val[a][b] : NULL; }

int ekoc_blockop_set(ekoc_blockop *op, int a, int b, const double *val, const double *err) {
  size_t n = ekoc_blockop_len(op);
  if (!alloc_block_(op, a, b, 0)) return 0; /* both arrays are written whole below */
  memcpy(op->val[a][b], val, n * sizeof(double));
  if (err)
    memcpy(op->err[a][b], err, n * sizeof(double));
  else
    memset(op->err[a][b], 0, n * sizeof(double));
  op->identity[a][b] = 0;
  op->exact[a][b] = (unsigned char)(err == NULL || all_zero(err, n));
  return 1;
}

int ekoc_blockop_adopt(ekoc_blockop *op, int a, int b, double *val, double *err) {
  if (op->val[a][b] || !val || !err) return 0;
  op->val[a][b] = val;
  op->err[a][b] = err;
  op->identity[a][b] = 0;
  op->exact[a][b] = (unsigned char)all_zero(err, ekoc_blockop_len(op));
  return 1;
}

int ekoc_blockop_set_identity(ekoc_blockop *op, int a, int b) {
  size_t i, nx = op->nx, n = ekoc_blockop_len(op);
  if (!alloc_block(op, a, b)) return 0;
  memset(op->val[a][b], 0, n * sizeof(double)); /* an existing block too */
  memset(op->err[a][b], 0, n * sizeof(double));
  for (i = 0; i < nx; ++i) op->val[a][b][ekoc_blockop_at(op, i, i)] = 1.0;
  op->identity[a][b] = 1;
  op->exact[a][b] = 1;
  return 1;
}

/* dst += src (n entries) */
static void add_acc(size_t n, const double *src, double *dst) {
  size_t e;
  for (e = 0; e < n; ++e) dst[e] += src[e];
}

int ekoc_blockop_mul(const ekoc_blockop *a, const ekoc_blockop *b, ekoc_blockop *out, int n_threads) {
  int ij, ok = 1;
  size_t n = a->nx;
  ekoc_block_product_fn product = ekoc_block_product_for_cpu();
  (void)n_threads; /* used by the OpenMP pragma only (unused where OpenMP is off: the fuzz build) */
  ekoc_blockop_clear(out);
  out->nx = n;
  if (a->row_lo || b->row_lo) return 0; /* full rows only (blockop.h) */
  /* output blocks are independent: threads over them; the sum over k runs in
   * a fixed order, so the result has the same bits for any thread count */
#pragma omp parallel for schedule(dynamic, 1) num_threads(n_threads > 0 ? n_threads : omp_get_max_threads()) \
    reduction(&& : ok)
  for (ij = 0; ij < EKOC_NB * EKOC_NB; ++ij) {
    int i = ij / EKOC_NB, j = ij % EKOC_NB, k;
    for (k = 0; k < EKOC_NB; ++k) {
      if (!a->val[i][k] || !b->val[k][j]) continue;
      if (!alloc_block(out, i, j)) {
        ok = 0;
        break;
      }
      if (a->identity[i][k]) { /* 1 * B, error |1| errB */
        add_acc(n * n, b->val[k][j], out->val[i][j]);
        add_acc(n * n, b->err[k][j], out->err[i][j]);
        continue;
      }
      if (b->identity[k][j]) { /* A * 1, error errA |1| */
        add_acc(n * n, a->val[i][k], out->val[i][j]);
        add_acc(n * n, a->err[i][k], out->err[i][j]);
        continue;
      }
      product(EKOC_PRODUCT_PLAIN, n, a->val[i][k], b->val[k][j], out->val[i][j]);
      if (!b->exact[k][j]) product(EKOC_PRODUCT_ABS_LEFT, n, a->val[i][k], b->err[k][j], out->err[i][j]);
      if (!a->exact[i][k]) product(EKOC_PRODUCT_ABS_RIGHT, n, a->err[i][k], b->val[k][j], out->err[i][j]);
    }
  }
  refresh_flags(out);
  return ok;
}

/* out[i][j] = sum_k w_k a_k (values) and sum_k |w_k| err_k (errors) over the
 * n_terms contributing blocks in the given (increasing k) order, in one pass
 * over the block: the first term written as 0 + w a (the bits of summing
 * into a zeroed block, -0 included), the others added to it. */
static void rotate_block(size_t n, int n_terms, const double *w, const double *const *val, const double *const *err,
                         double *restrict out_val, double *restrict out_err) {
  size_t e;
  int t;
  for (e = 0; e < n; ++e) {
    out_val[e] = 0.0 + w[0] * val[0][e];
    out_err[e] = 0.0 + fabs(w[0]) * err[0][e];
  }
  for (t = 1; t < n_terms; ++t) {
    const double wt = w[t], aw = fabs(w[t]), *restrict v = val[t], *restrict er = err[t];
    for (e = 0; e < n; ++e) {
      out_val[e] += wt * v[e];
      out_err[e] += aw * er[e];
    }
  }
}

/* The rotations: out = M A (left) or A M (right). Output blocks are
 * independent and each sums its terms in increasing k, as the former serial
 * loops did: threads over the output blocks (n_threads, 0: OpenMP's
 * default), the same bits for any count. The blocks are allocated first, on
 * the calling thread, so that a failure leaves nothing half-written. */
static int rotate(const double m[EKOC_NB][EKOC_NB], const ekoc_blockop *a, int left, ekoc_blockop *out,
                  int n_threads) {
  int ij, ok = 1;
  size_t n;
  (void)n_threads; /* used by the OpenMP pragma only (unused where OpenMP is off: the fuzz build) */
  ekoc_blockop_clear(out);
  if (!copy_rows(out, a)) return 0; /* a rotation mixes blocks entry by entry: a's layout */
  n = ekoc_blockop_len(out);
  for (ij = 0; ij < EKOC_NB * EKOC_NB && ok; ++ij) {
    int i = ij / EKOC_NB, j = ij % EKOC_NB, k, any = 0;
    for (k = 0; k < EKOC_NB && !any; ++k)
      any = left ? m[i][k] != 0.0 && a->val[k][j] != NULL : a->val[i][k] != NULL && m[k][j] != 0.0;
    if (any) ok = alloc_block_(out, i, j, 0); /* written whole by rotate_block */
  }
  if (!ok) {
    ekoc_blockop_clear(out);
    return 0;
  }
#pragma omp parallel for schedule(dynamic, 1) num_threads(n_threads > 0 ? n_threads : omp_get_max_threads())
  for (ij = 0; ij < EKOC_NB * EKOC_NB; ++ij) {
    int i = ij / EKOC_NB, j = ij % EKOC_NB, k, terms = 0;
    double w[EKOC_NB];
    const double *val[EKOC_NB], *err[EKOC_NB];
    if (!out->val[i][j]) continue;
    for (k = 0; k < EKOC_NB; ++k) {
      const double wk = left ? m[i][k] : m[k][j];
      const int ai = left ? k : i, aj = left ? j : k;
      if (wk == 0.0 || !a->val[ai][aj]) continue;
      w[terms] = wk;
      val[terms] = a->val[ai][aj];
      err[terms++] = a->err[ai][aj];
    }
    rotate_block(n, terms, w, val, err, out->val[i][j], out->err[i][j]);
  }
  refresh_flags(out);
  return 1;
}

int ekoc_blockop_rotate_left(const double m[EKOC_NB][EKOC_NB], const ekoc_blockop *a, ekoc_blockop *out,
                             int n_threads) {
  return rotate(m, a, 1, out, n_threads);
}

int ekoc_blockop_rotate_right(const ekoc_blockop *a, const double m[EKOC_NB][EKOC_NB], ekoc_blockop *out,
                              int n_threads) {
  return rotate(m, a, 0, out, n_threads);
}

int ekoc_blockop_copy(ekoc_blockop *dst, const ekoc_blockop *src) {
  int a, b;
  ekoc_blockop_clear(dst);
  if (!copy_rows(dst, src)) return 0;
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) {
      if (!src->val[a][b]) continue;
      if (!ekoc_blockop_set(dst, a, b, src->val[a][b], src->err[a][b])) return 0;
      dst->identity[a][b] = src->identity[a][b];
      dst->exact[a][b] = src->exact[a][b];
    }
  return 1;
}

void ekoc_blockop_move(ekoc_blockop *dst, ekoc_blockop *src) {
  ekoc_blockop_clear(dst);
  memcpy(dst, src, sizeof *dst);
  ekoc_blockop_init(src, src->nx);
}

int ekoc_blockop_count(const ekoc_blockop *op) {
  int a, b, c = 0;
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) c += op->val[a][b] != NULL;
  return c;
}
