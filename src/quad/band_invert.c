/* band_invert.c: one band's entries on one path (band_invert.h).
 *
 * Per block of rows: the shared transforms of the block's columns, then per
 * row its own transforms and two real products per half rule (even and odd
 * nodes): A (functions x 2 nodes: Re, Im of f X) times B (2 nodes x
 * columns: Im, Re of P) gives Im(f X P) summed over the half's nodes. */
#include "quad/band_invert.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "quad/band_transforms.h"
#include "quad/driver.h"
#include "quad/path_cache.h"
#include "quad/real_gemm.h"
#include "status.h"

/* The rounding of the sum against the root of the sum of its terms' squared
 * sizes, (sum_i (s_e,i |X_k,i P_j(N_i)|)^2)^(1/2), s the sizes of what f was
 * made of: each term carries a few units of rounding of its factors, with
 * signs of their own, so the sum's rounding grows like that root (the sum
 * of the sizes, 64 x Cauchy-Schwarz's, flagged entries whose two half sums
 * agreed to 1/30 of it on NNPDF's EXA cards). The sums over the even and
 * the odd nodes round independently, so |odd - even| shows the rounding
 * too, and this floor keeps an accidental agreement from hiding it:
 * against a reference on other paths with 512 intervals no entry is more
 * than 10x its stated error off where that reference's own error is below
 * a tenth of the difference (tests/test_nspace_engine.c). */
#define NOISE_EPS (16.0 * 2.220446049250313e-16)
/* The sum of the squared sizes is bounded by sum_c max_{i in c} (s X)_i^2
 * sum_{i in c} |P_j(N_i)|^2 over this many chunks of consecutive nodes (a
 * product with inner dimension CHUNKS, not m + 1: the sizes of both factors
 * vary smoothly along the path). 16 chunks overstated it ~100x where the
 * two factors peak at different nodes of a chunk (the x = 1 column of a
 * backward-exact matching on a mixed grid: 8 entries flagged whose error was
 * 1e-3 of the tolerance); 64 flag none there and leave the property tests'
 * figures (tests/test_nspace_engine.c) as they were. */
#define CHUNKS 64

static size_t round_up(size_t v, size_t q) { return (v + q - 1) / q * q; }

/* Where node i goes in a product's inner dimension (2 entries each: Re/Im of
 * the left factor, Im/Re of the right): the nodes of the rule with m/2
 * intervals (the even ones) first, then the odd ones. */
static size_t inner_row(int m, int i) { return i % 2 == 0 ? (size_t)i : (size_t)(m + 1 + i); }

/* The chunk of node i of m + 1. */
static size_t chunk_of(int m, int i) { return (size_t)i * CHUNKS / (size_t)(m + 1); }

/* A thread's scratch. */
typedef struct band_scratch {
  size_t ld_sh, ld_own, rows; /* padded columns of the two B matrices; padded functions */
  double *b_sh, *b_own;       /* (2 (m + 1)) x ld */
  double *sum_sh, *sum_own;   /* [chunk][column]: sum over the chunk's nodes of |P_j(N_i)|^2 */
  double *a[2];               /* rows x 2 (m + 1): the left factor of the rows' own columns (node factors
                                 1: the same for every row, made once, unscaled_ready), and of one row's
                                 block columns */
  double *max_a[2];           /* [function][chunk]: max over the chunk's nodes of (s_e,i |X_k,i|)^2 */
  int unscaled_ready;
  double *c_even, *c_odd;     /* rows x ld_c: the sums over the even and over the odd nodes */
  double *c_size;             /* rows x ld_c: the bound on the sum of the terms' squared sizes */
  size_t ld_c;
  double *p_re, *p_im;        /* [column][node]: transforms of one range */
  ekoc_complex *x_node;       /* [node]: the row's factor e^{N (ref - ln x_k)} */
  double *x_size2;            /* [node]: its squared size */
  size_t *chunk_start;        /* [chunk]: its first node (chunk_of is ascending), then m + 1 */
  double *node_size;          /* [node]: one function's squared sizes of its terms */
  ekoc_band_transform_scratch ts;
  unsigned char *fun_over;    /* the thread's share of ekoc_band_invert_args.fun_over */
} band_scratch;

static void scratch_free(band_scratch *s) {
  free(s->b_sh), free(s->b_own), free(s->sum_sh), free(s->sum_own), free(s->a[0]), free(s->a[1]);
  free(s->max_a[0]), free(s->max_a[1]), free(s->c_even), free(s->c_odd), free(s->c_size), free(s->p_re), free(s->p_im);
  free(s->x_node), free(s->x_size2), free(s->chunk_start), free(s->node_size);
  free(s->fun_over);
  ekoc_band_transform_scratch_free(&s->ts);
}

/* Scratch for products with m + 1 nodes, E functions and the columns of
 * band bd. Returns 0 when out of memory. */
static int scratch_alloc(band_scratch *s, const ekoc_band *bd, int32_t bd_degree, int m, size_t n_functions) {
  size_t inner = 2 * (size_t)(m + 1);
  memset(s, 0, sizeof *s);
  s->rows = round_up(n_functions, EKOC_REAL_GEMM_ROWS);
  s->ld_sh = round_up(bd->max_shared, EKOC_REAL_GEMM_COLS) + EKOC_REAL_GEMM_COLS;
  s->ld_own = round_up(bd->max_cols, EKOC_REAL_GEMM_COLS) + EKOC_REAL_GEMM_COLS;
  s->ld_c = s->ld_sh > s->ld_own ? s->ld_sh : s->ld_own;
  s->b_sh = calloc(inner * s->ld_sh, sizeof(double));
  s->b_own = calloc(inner * s->ld_own, sizeof(double));
  s->sum_sh = calloc(CHUNKS * s->ld_sh, sizeof(double));
  s->sum_own = calloc(CHUNKS * s->ld_own, sizeof(double));
  s->a[0] = calloc(s->rows * inner, sizeof(double));
  s->a[1] = calloc(s->rows * inner, sizeof(double));
  s->max_a[0] = calloc(s->rows * CHUNKS, sizeof(double));
  s->max_a[1] = calloc(s->rows * CHUNKS, sizeof(double));
  s->c_even = calloc(s->rows * s->ld_c, sizeof(double));
  s->c_odd = calloc(s->rows * s->ld_c, sizeof(double));
  s->c_size = calloc(s->rows * s->ld_c, sizeof(double));
  s->p_re = calloc(s->ld_c * (size_t)(m + 1), sizeof(double));
  s->p_im = calloc(s->ld_c * (size_t)(m + 1), sizeof(double));
  s->fun_over = calloc(s->rows, 1);
  s->x_node = malloc(((size_t)m + 1) * sizeof *s->x_node);
  s->x_size2 = malloc(((size_t)m + 1) * sizeof *s->x_size2);
  s->chunk_start = malloc((CHUNKS + 1) * sizeof *s->chunk_start);
  s->node_size = malloc(((size_t)m + 1) * sizeof *s->node_size);
  if (s->chunk_start) {
    size_t q, i = 0;
    for (q = 0; q <= CHUNKS; ++q) {
      while (i <= (size_t)m && chunk_of(m, (int)i) < q) ++i;
      s->chunk_start[q] = i;
    }
  }
  return s->chunk_start && s->node_size && s->x_node && s->x_size2 && s->fun_over && s->b_sh && s->b_own && s->sum_sh && s->sum_own && s->a[0] && s->a[1] && s->max_a[0] && s->max_a[1] && s->c_even && s->c_odd &&
         s->c_size && s->p_re && s->p_im &&
         ekoc_band_transform_scratch_alloc(&s->ts, s->ld_c, (size_t)m + 1, bd_degree);
}


/* The transforms of columns [j0, j1) at every node into b (ld columns,
 * zero beyond j1 - j0 up to `pad`) and their squared sizes summed per chunk
 * into sum (ld columns per chunk). */
static void fill_transforms(const ekoc_band_invert_args *a, band_scratch *s, size_t j0, size_t j1, double rule,
                            double ref, double *b, size_t ld, size_t pad, double *sum) {
  size_t cols = j1 - j0, count = (size_t)a->m + 1, c, q;
  int i;
  for (q = 0; q < CHUNKS; ++q)
    for (c = 0; c < pad; ++c) sum[q * ld + c] = 0.0;
  ekoc_band_transforms(a->ip, j0, j1, a->n, count, rule, ref, &s->ts, s->p_re, s->p_im);
  for (i = 0; i <= a->m; ++i) {
    double *im = b + inner_row(a->m, i) * ld, *re = im + ld, *sz = sum + chunk_of(a->m, i) * ld;
    for (c = 0; c < cols; ++c) {
      double pr = s->p_re[c * count + (size_t)i], pi = s->p_im[c * count + (size_t)i];
      im[c] = pi;
      re[c] = pr;
      sz[c] += pr * pr + pi * pi;
    }
    for (; c < pad; ++c) im[c] = re[c] = 0.0;
  }
}

/* The node factors of a row: e^{N_i (ref - ln x_k)} (scaled = 0: 1) and
 * their squared sizes, one exponential per node. */
static void node_factors(const ekoc_band_invert_args *a, double logx_k, double ref, int scaled, ekoc_complex *x,
                         double *x_size2) {
  int i;
  for (i = 0; i <= a->m; ++i) {
    x[i] = scaled ? ekoc_node_exp(a->n[i], ref, logx_k) : c_real(1.0);
    x_size2[i] = x[i].re * x[i].re + x[i].im * x[i].im;
  }
}

/* The left factor of row k: f_e,i times the row's node factors x (and their
 * squared sizes x_size2), and the largest squared size of its terms per
 * function and chunk; function by function, the even nodes' then the odd
 * nodes' products in their places of the inner dimension (inner_row), then
 * the sizes and their maxima over each chunk's consecutive nodes. */
static void fill_left(const ekoc_band_invert_args *a, band_scratch *s, const ekoc_complex *x, const double *x_size2,
                      double *left, double *left_max) {
  size_t e, inner = 2 * (size_t)(a->m + 1), count = (size_t)a->m + 1, m = (size_t)a->m, i, q;
  double *size = s->node_size;
  for (e = 0; e < a->n_functions; ++e) {
    const ekoc_complex *f = a->f + e * count;
    const double *f_size = a->f_size + e * count;
    double *row = left + e * inner, *max_a = left_max + e * CHUNKS;
    for (i = 0; i <= m; i += 2) {
      ekoc_complex v = c_mul(f[i], x[i]);
      row[i] = v.re;
      row[i + 1] = v.im;
    }
    for (i = 1; i <= m; i += 2) {
      ekoc_complex v = c_mul(f[i], x[i]);
      row[m + 1 + i] = v.re;
      row[m + 2 + i] = v.im;
    }
    for (i = 0; i <= m; ++i) size[i] = f_size[i] * f_size[i] * x_size2[i];
    for (q = 0; q < CHUNKS; ++q) {
      double largest = 0.0;
      for (i = s->chunk_start[q]; i < s->chunk_start[q + 1]; ++i)
        if (size[i] > largest) largest = size[i];
      max_a[q] = largest;
    }
  }
}

/* The two half-rule sums of columns [0, cols) of b, then the entries of row k,
 * columns j0.. added to the outputs; returns the entries over tolerance. */
static size_t row_entries(const ekoc_band_invert_args *a, band_scratch *s, ekoc_real_gemm_fn gemm, size_t k,
                          size_t j0, size_t cols, const double *left, const double *left_max, const double *b,
                          size_t ldb, const double *sum) {
  size_t nx = a->ip->n, inner = 2 * (size_t)(a->m + 1), even = (size_t)a->m + 2, pad, e, c, over = 0;
  /* the row's own tail where the band's (that of its slowest row) is above the rounding floor: a close
   * pair of grid points makes it ~1 for every row of the bands it is in; below the floor the band's is
   * kept (the same bits as before rows had their own) */
  double tail = a->tail > NOISE_EPS ? fmin(a->tail, exp(a->band->row_tau_min[k] * a->n[a->m].re)) : a->tail;
  pad = round_up(cols, EKOC_REAL_GEMM_COLS);
  gemm(s->rows, pad, even, left, inner, b, ldb, s->c_even, s->ld_c);
  gemm(s->rows, pad, inner - even, left + even, inner, b + even * ldb, ldb, s->c_odd, s->ld_c);
  gemm(s->rows, pad, CHUNKS, left_max, CHUNKS, sum, ldb, s->c_size, s->ld_c);
  for (e = 0; e < a->n_functions; ++e) {
    const double *ce = s->c_even + e * s->ld_c, *co = s->c_odd + e * s->ld_c, *cs = s->c_size + e * s->ld_c;
    double scale = a->fun_tolerance ? a->fun_tolerance[e] : 1.0;
    size_t o;
    int wanted = !a->rows_in;
    for (o = a->out_start[e]; !wanted && o < a->out_start[e + 1]; ++o) wanted = a->rows_in[o][k] != 0;
    if (!wanted) continue; /* none of the function's outputs takes this row */
    for (c = 0; c < cols; ++c) {
      double v = ce[c] + co[c], bound = sqrt(cs[c]);
      double err = fabs(co[c] - ce[c]) + (NOISE_EPS + tail) * bound; /* |T_m - T_m/2| + floors */
      size_t at = (a->row_base ? a->row_base[k] : k * nx) + j0 + c;
      int any_over = 0;
      for (o = a->out_start[e]; o < a->out_start[e + 1]; ++o) {
        double final;
        int is_over;
        if (a->rows_in && !a->rows_in[o][k]) continue;
        final = a->corr && a->corr[o] ? v + (double)a->corr[o][at] : v;
        is_over = err > ekoc_quad_tolerance(a->epsabs * scale, a->epsrel * scale, final);
        a->val[o][at] = v;
        a->err[o][at] = err;
        any_over |= is_over;
        if (is_over && a->rows_out) a->rows_out[o][k] = 1;
      }
      if (any_over) {
        ++over;
        s->fun_over[e] = 1;
      }
    }
  }
  return over;
}

/* One block of rows (block q of the band). The right factors and the rows'
 * node factors come from the store where an earlier call left them, are
 * made there where it has room for them, and in the scratch otherwise. */
static size_t block_entries(const ekoc_band_invert_args *a, band_scratch *s, ekoc_real_gemm_fn gemm, size_t q) {
  const ekoc_band *bd = a->band;
  const ekoc_band_block *blk = &bd->block[q];
  ekoc_path_store *st = a->store;
  const double *lg = a->ip->logx;
  double ref = lg[blk->k1], *b_sh = s->b_sh, *sum_sh = s->sum_sh;
  size_t over = 0, shared = (size_t)(blk->s_hi - blk->s_lo), ld_sh = s->ld_sh;
  int32_t k;
  if (a->rows) { /* a block with none of the rows asked for is skipped whole */
    for (k = blk->k0; k <= blk->k1 && !a->rows[k]; ++k) {
    }
    if (k > blk->k1) return 0;
  }
  if (st && st->b_blk[q]) {
    b_sh = st->b_blk[q];
    sum_sh = st->size_blk[q];
    ld_sh = st->ld_blk[q];
  }
  if (shared > 0 && !(st && st->b_blk[q] && st->blk_ready[q])) {
    fill_transforms(a, s, (size_t)blk->s_lo, (size_t)blk->s_hi, -INFINITY, ref, b_sh, ld_sh, ld_sh, sum_sh);
    if (st && st->b_blk[q]) st->blk_ready[q] = 1;
  }
  for (k = blk->k0; k <= blk->k1; ++k) {
    size_t own = (size_t)(bd->j_own[k] - bd->j_lo[k]), rest = (size_t)(bd->j_hi[k] - bd->j_own[k]), before = over;
    if (a->rows && !a->rows[k]) continue;
    if (own > 0) {
      double *b_own = s->b_own, *sum_own = s->sum_own;
      size_t ld_own = s->ld_own, pad = round_up(own, EKOC_REAL_GEMM_COLS);
      int kept = st && st->b_row[k];
      if (kept) b_own = st->b_row[k], sum_own = st->size_row[k], ld_own = st->ld_row[k];
      if (!(kept && (st->row_ready[k] & 1))) {
        fill_transforms(a, s, (size_t)bd->j_lo[k], (size_t)bd->j_own[k], lg[k], lg[k], b_own, ld_own, pad, sum_own);
        if (kept) st->row_ready[k] |= 1;
      }
      if (!s->unscaled_ready) {
        node_factors(a, lg[k], lg[k], 0, s->x_node, s->x_size2);
        fill_left(a, s, s->x_node, s->x_size2, s->a[0], s->max_a[0]);
        s->unscaled_ready = 1;
      }
      over += row_entries(a, s, gemm, (size_t)k, (size_t)bd->j_lo[k], own, s->a[0], s->max_a[0], b_own, ld_own,
                          sum_own);
    }
    if (rest > 0) {
      size_t c0 = (size_t)(bd->j_own[k] - blk->s_lo), count = (size_t)a->m + 1;
      ekoc_complex *x = s->x_node;
      double *x_size2 = s->x_size2;
      int kept = st && st->x_row[k];
      if (kept) x = (ekoc_complex *)st->x_row[k], x_size2 = st->x_row[k] + 2 * count;
      if (!(kept && (st->row_ready[k] & 2))) {
        node_factors(a, lg[k], ref, 1, x, x_size2);
        if (kept) st->row_ready[k] |= 2;
      }
      fill_left(a, s, x, x_size2, s->a[1], s->max_a[1]);
      over += row_entries(a, s, gemm, (size_t)k, (size_t)bd->j_own[k], rest, s->a[1], s->max_a[1], b_sh + c0, ld_sh,
                          sum_sh + c0);
    }
    if (over > before && a->row_over) a->row_over[k] = 1; /* rows of a block are one thread's */
  }
  return over;
}

ekoc_path_store *ekoc_band_invert_store(struct ekoc_path_cache *pc, const ekoc_band *bd, int m,
                                        const ekoc_complex *n) {
  return pc ? ekoc_path_cache_store(pc, bd, m, n, CHUNKS, EKOC_REAL_GEMM_COLS) : NULL;
}

int ekoc_band_invert(const ekoc_band_invert_args *a, size_t *n_over) {
  ekoc_real_gemm_fn gemm = ekoc_real_gemm_for_cpu();
  size_t over = 0;
  long nb = (long)a->band->n_blocks, q;
  int failed = 0, cancelled = 0, nt = a->n_threads > 0 ? a->n_threads : omp_get_max_threads();
  if (nt > nb) nt = nb > 0 ? (int)nb : 1;
#pragma omp parallel num_threads(nt) reduction(+ : over) reduction(| : failed, cancelled)
  {
    band_scratch s;
    double mark = ekoc_quad_clock_s();
    int ok = scratch_alloc(&s, a->band, a->ip->degree, a->m, a->n_functions);
    if (!ok) failed = 1;
#pragma omp for schedule(dynamic, 1)
    for (q = 0; q < nb; ++q) {
      if (ok && !cancelled && a->progress && ekoc_quad_progress_poll(a->progress, &mark) != EKOC_OK) cancelled = 1;
      if (ok && !cancelled) over += block_entries(a, &s, gemm, (size_t)q);
    }
    if (ok && a->fun_over)
#pragma omp critical(ekoc_band_fun_over)
    {
      size_t e;
      for (e = 0; e < a->n_functions; ++e) a->fun_over[e] |= s.fun_over[e];
    }
    scratch_free(&s);
  }
  *n_over = over;
  if (failed) return ekoc_error(EKOC_ERR_NO_MEMORY, "out of memory for the band inversion scratch");
  if (cancelled) return EKOC_ERR_CANCELLED; /* the message is the poll's */
  return EKOC_OK;
}
