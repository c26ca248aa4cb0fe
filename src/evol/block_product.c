/* block_product.c: c += op(a) op(b) of two n x n blocks (evol/block_product.h).
 *
 * c is updated in tiles of 4 rows x 8 columns held in registers (GNU C
 * vectors of 4 doubles) while k runs over the tile's range: per k two loads
 * of b, four of a and 32 multiply-adds, against the 9 loads and stores per 16
 * multiply-adds of updating rows of c in memory (the former kernel, ~0.8
 * multiply-adds per cycle; the composition was ~10 % of the converged LHA
 * run). Every c_ij still receives its terms in increasing k and is read and
 * written once per product, so the result has the bits of the plain i-k-j
 * product: a tile also adds the terms a_ik b_kj that are 0 (k outside row i's
 * non-zero range, or j outside row k's), and c + (+-0) = c because c starts
 * at +0 and never holds -0 (x + (-x) is +0; a product that underflows to -0
 * added to +0 gives +0). The k range of a tile is the union of its rows'
 * non-zero ranges in a, less the rows of b whose non-zero span misses the
 * tile's columns: x-space operators are nearly triangular (no basis
 * function below x_k reaches x_k), so a product costs ~n^3/6. Compiled twice,
 * baseline and AVX2 (no FMA: the same bits on every x86-64 CPU). */
#include "evol/block_product.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#pragma GCC diagnostic ignored "-Wpsabi" /* vectors by value, inlined only */

typedef double v4 __attribute__((vector_size(4 * sizeof(double))));
typedef uint64_t v4u __attribute__((vector_size(4 * sizeof(uint64_t))));

#define SPAN_MAX 2048 /* n up to which the spans live on the stack (4 x 8 KiB) */

static inline __attribute__((always_inline)) v4 load4(const double *x) {
  v4 v;
  memcpy(&v, x, sizeof v);
  return v;
}
static inline __attribute__((always_inline)) void store4(double *x, v4 v) { memcpy(x, &v, sizeof v); }
static inline __attribute__((always_inline)) v4 abs4(v4 v) {
  return (v4)((v4u)v & ((v4u){0} + 0x7fffffffffffffffULL));
}

/* Whether x[0..7] are all zero (+0 or -0). */
static inline __attribute__((always_inline)) int all_zero8(const double *x) {
  v4 a = abs4(load4(x)), b = abs4(load4(x + 4));
  v4u bits = (v4u)a | (v4u)b;
  return (bits[0] | bits[1] | bits[2] | bits[3]) == 0;
}

/* The non-zero range [lo[r], hi[r]) of each of the n rows of m (lo = hi = 0
 * for a zero row). */
static void row_spans(size_t n, const double *m, uint32_t *lo, uint32_t *hi) {
  size_t r;
  for (r = 0; r < n; ++r) {
    const double *row = m + r * n;
    size_t j0 = 0, j1 = n;
    while (j0 + 8 <= j1 && all_zero8(row + j0)) j0 += 8; /* eight at a time, then one by one */
    while (j0 < j1 && row[j0] == 0.0) ++j0;
    while (j1 >= j0 + 8 && all_zero8(row + j1 - 8)) j1 -= 8;
    while (j1 > j0 && row[j1 - 1] == 0.0) --j1;
    lo[r] = (uint32_t)(j0 == j1 ? 0 : j0);
    hi[r] = (uint32_t)(j0 == j1 ? 0 : j1);
  }
}

/* op(a)_ik, op(b)_kj */
static inline __attribute__((always_inline)) double op_a(int kind, double v) {
  return kind == EKOC_PRODUCT_ABS_LEFT ? fabs(v) : v;
}
static inline __attribute__((always_inline)) double op_b(int kind, double v) {
  return kind == EKOC_PRODUCT_ABS_RIGHT ? fabs(v) : v;
}

/* Whether row k of b has non-zeros among columns [j0, j1). */
static inline __attribute__((always_inline)) int b_reaches(const uint32_t *b_lo, const uint32_t *b_hi, size_t k,
                                                          size_t j0, size_t j1) {
  return b_hi[k] > j0 && b_lo[k] < j1 && b_hi[k] > b_lo[k];
}

/* Rows i0..i0+3, columns j0..j0+4*W-1 (W = 1 or 2 vectors), k in [k0, k1). */
static inline __attribute__((always_inline)) void tile(int kind, int w, size_t n, const double *a, const double *b,
                                                      double *c, size_t i0, size_t j0, size_t k0, size_t k1,
                                                      const uint32_t *b_lo, const uint32_t *b_hi) {
  v4 c00 = load4(c + i0 * n + j0), c10 = load4(c + (i0 + 1) * n + j0);
  v4 c20 = load4(c + (i0 + 2) * n + j0), c30 = load4(c + (i0 + 3) * n + j0);
  v4 c01 = c00, c11 = c00, c21 = c00, c31 = c00;
  size_t k, jw = j0 + 4 * (size_t)w;
  if (w == 2) {
    c01 = load4(c + i0 * n + j0 + 4);
    c11 = load4(c + (i0 + 1) * n + j0 + 4);
    c21 = load4(c + (i0 + 2) * n + j0 + 4);
    c31 = load4(c + (i0 + 3) * n + j0 + 4);
  }
  for (k = k0; k < k1; ++k) {
    const double *bk = b + k * n + j0;
    double a0, a1, a2, a3;
    v4 b0, b1 = {0};
    if (!b_reaches(b_lo, b_hi, k, j0, jw)) continue; /* its terms are all 0 */
    a0 = op_a(kind, a[i0 * n + k]);
    a1 = op_a(kind, a[(i0 + 1) * n + k]);
    a2 = op_a(kind, a[(i0 + 2) * n + k]);
    a3 = op_a(kind, a[(i0 + 3) * n + k]);
    b0 = load4(bk);
    if (w == 2) b1 = load4(bk + 4);
    if (kind == EKOC_PRODUCT_ABS_RIGHT) {
      b0 = abs4(b0);
      b1 = abs4(b1);
    }
    c00 = c00 + a0 * b0;
    c10 = c10 + a1 * b0;
    c20 = c20 + a2 * b0;
    c30 = c30 + a3 * b0;
    if (w == 2) {
      c01 = c01 + a0 * b1;
      c11 = c11 + a1 * b1;
      c21 = c21 + a2 * b1;
      c31 = c31 + a3 * b1;
    }
  }
  store4(c + i0 * n + j0, c00);
  store4(c + (i0 + 1) * n + j0, c10);
  store4(c + (i0 + 2) * n + j0, c20);
  store4(c + (i0 + 3) * n + j0, c30);
  if (w == 2) {
    store4(c + i0 * n + j0 + 4, c01);
    store4(c + (i0 + 1) * n + j0 + 4, c11);
    store4(c + (i0 + 2) * n + j0 + 4, c21);
    store4(c + (i0 + 3) * n + j0 + 4, c31);
  }
}

/* c_ij for one entry outside the tiles, k over row i's range of a. */
static inline __attribute__((always_inline)) void entry(int kind, size_t n, const double *a, const double *b,
                                                       double *c, size_t i, size_t j, size_t k0, size_t k1) {
  double s = c[i * n + j];
  size_t k;
  for (k = k0; k < k1; ++k) s = s + op_a(kind, a[i * n + k]) * op_b(kind, b[k * n + j]);
  c[i * n + j] = s;
}

/* The plain row-by-row product (n above SPAN_MAX): the same terms in the same
 * order, c rows updated in memory. */
static inline __attribute__((always_inline)) void product_rows(int kind, size_t n, const double *a, const double *b,
                                                              double *c) {
  size_t i, k, j;
  for (i = 0; i < n; ++i)
    for (k = 0; k < n; ++k) {
      double aik = op_a(kind, a[i * n + k]);
      if (aik == 0.0) continue;
      for (j = 0; j < n; ++j) c[i * n + j] += aik * op_b(kind, b[k * n + j]);
    }
}

static inline __attribute__((always_inline)) void product_body(int kind, size_t n, const double *a, const double *b,
                                                              double *c) {
  uint32_t a_lo[SPAN_MAX], a_hi[SPAN_MAX], b_lo[SPAN_MAX], b_hi[SPAN_MAX];
  size_t i0, j0, i, j;
  if (n > SPAN_MAX) {
    product_rows(kind, n, a, b, c);
    return;
  }
  row_spans(n, a, a_lo, a_hi);
  row_spans(n, b, b_lo, b_hi);
  for (i0 = 0; i0 + 4 <= n; i0 += 4) {
    size_t k0 = n, k1 = 0, r;
    for (r = i0; r < i0 + 4; ++r)
      if (a_hi[r] > a_lo[r]) {
        if (a_lo[r] < k0) k0 = a_lo[r];
        if (a_hi[r] > k1) k1 = a_hi[r];
      }
    if (k1 <= k0) continue; /* four zero rows of a */
    for (j0 = 0; j0 + 8 <= n; j0 += 8) tile(kind, 2, n, a, b, c, i0, j0, k0, k1, b_lo, b_hi);
    if (j0 + 4 <= n) {
      tile(kind, 1, n, a, b, c, i0, j0, k0, k1, b_lo, b_hi);
      j0 += 4;
    }
    for (i = i0; i < i0 + 4; ++i)
      for (j = j0; j < n; ++j) entry(kind, n, a, b, c, i, j, a_lo[i], a_hi[i]);
  }
  for (i = i0; i < n; ++i)
    for (j = 0; j < n; ++j) entry(kind, n, a, b, c, i, j, a_lo[i], a_hi[i]);
}

/* kind a compile-time constant in each branch */
static inline __attribute__((always_inline)) void product_by_kind(int kind, size_t n, const double *a,
                                                                 const double *b, double *c) {
  if (kind == EKOC_PRODUCT_PLAIN)
    product_body(EKOC_PRODUCT_PLAIN, n, a, b, c);
  else if (kind == EKOC_PRODUCT_ABS_LEFT)
    product_body(EKOC_PRODUCT_ABS_LEFT, n, a, b, c);
  else
    product_body(EKOC_PRODUCT_ABS_RIGHT, n, a, b, c);
}

static void product_base(int kind, size_t n, const double *a, const double *b, double *c) {
  product_by_kind(kind, n, a, b, c);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EKOC_BLOCK_PRODUCT_AVX2 1
/* AVX2 without FMA: the same multiplications and additions, four lanes per instruction */
__attribute__((target("avx2"))) static void product_avx2(int kind, size_t n, const double *a, const double *b,
                                                         double *c) {
  product_by_kind(kind, n, a, b, c);
}
#endif

ekoc_block_product_fn ekoc_block_product_for_cpu(void) {
#ifdef EKOC_BLOCK_PRODUCT_AVX2
  if (__builtin_cpu_supports("avx2")) return product_avx2;
#endif
  return product_base;
}
