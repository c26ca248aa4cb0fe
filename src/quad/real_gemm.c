/* real_gemm.c: C = A B in register tiles (real_gemm.h). */
#include "quad/real_gemm.h"

#include <string.h>

#pragma GCC diagnostic ignored "-Wpsabi" /* vectors by value, inlined only */

typedef double v4 __attribute__((vector_size(4 * sizeof(double))));
typedef double v8 __attribute__((vector_size(8 * sizeof(double))));

#define LOADV(T, p) ({ T v_; memcpy(&v_, (p), sizeof v_); v_; })
#define STOREV(p, v) memcpy((p), &(v), sizeof(v))

/* Four rows of C: columns 2 LANES at a time as two vectors of type T (4 or 8
 * lanes), then a last LANES, then a last 4. */
#define TILE_BODY(T, LANES)                                                                   \
  do {                                                                                        \
    size_t i, j, k;                                                                           \
    for (i = 0; i < rows; i += 4) {                                                           \
      for (j = 0; j + 2 * (LANES) <= cols; j += 2 * (LANES)) {                                \
        T c00 = {0}, c01 = {0}, c10 = {0}, c11 = {0}, c20 = {0}, c21 = {0}, c30 = {0}, c31 = {0}; \
        const double *a0 = a + i * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;       \
        for (k = 0; k < inner; ++k) {                                                         \
          const double *bk = b + k * ldb + j;                                                 \
          T b0 = LOADV(T, bk), b1 = LOADV(T, bk + (LANES));                                   \
          T x0 = (T){0} + a0[k], x1 = (T){0} + a1[k], x2 = (T){0} + a2[k], x3 = (T){0} + a3[k]; \
          c00 = c00 + x0 * b0;                                                                \
          c01 = c01 + x0 * b1;                                                                \
          c10 = c10 + x1 * b0;                                                                \
          c11 = c11 + x1 * b1;                                                                \
          c20 = c20 + x2 * b0;                                                                \
          c21 = c21 + x2 * b1;                                                                \
          c30 = c30 + x3 * b0;                                                                \
          c31 = c31 + x3 * b1;                                                                \
        }                                                                                     \
        STOREV(c + i * ldc + j, c00);                                                         \
        STOREV(c + i * ldc + j + (LANES), c01);                                               \
        STOREV(c + (i + 1) * ldc + j, c10);                                                   \
        STOREV(c + (i + 1) * ldc + j + (LANES), c11);                                         \
        STOREV(c + (i + 2) * ldc + j, c20);                                                   \
        STOREV(c + (i + 2) * ldc + j + (LANES), c21);                                         \
        STOREV(c + (i + 3) * ldc + j, c30);                                                   \
        STOREV(c + (i + 3) * ldc + j + (LANES), c31);                                         \
      }                                                                                       \
      if (j + (LANES) <= cols) { /* a last LANES columns: one vector per row */              \
        ONE_VECTOR(T);                                                                        \
        j += (LANES);                                                                         \
      }                                                                                       \
      if (j < cols) { /* a last 4 of them (cols a multiple of 4, LANES 8): a half vector */   \
        ONE_VECTOR(v4);                                                                       \
      }                                                                                       \
    }                                                                                         \
  } while (0)

/* Columns [j, j + lanes of V) of the four rows i.. as one vector of type V each. */
#define ONE_VECTOR(V)                                                                         \
  do {                                                                                        \
    V c00 = {0}, c10 = {0}, c20 = {0}, c30 = {0};                                             \
    const double *a0 = a + i * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;           \
    for (k = 0; k < inner; ++k) {                                                             \
      V b0 = LOADV(V, b + k * ldb + j);                                                       \
      c00 = c00 + ((V){0} + a0[k]) * b0;                                                      \
      c10 = c10 + ((V){0} + a1[k]) * b0;                                                      \
      c20 = c20 + ((V){0} + a2[k]) * b0;                                                      \
      c30 = c30 + ((V){0} + a3[k]) * b0;                                                      \
    }                                                                                         \
    STOREV(c + i * ldc + j, c00);                                                             \
    STOREV(c + (i + 1) * ldc + j, c10);                                                       \
    STOREV(c + (i + 2) * ldc + j, c20);                                                       \
    STOREV(c + (i + 3) * ldc + j, c30);                                                       \
  } while (0)

static void gemm_base(size_t rows, size_t cols, size_t inner, const double *a, size_t lda, const double *b,
                      size_t ldb, double *c, size_t ldc) {
  TILE_BODY(v4, 4);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EKOC_REAL_GEMM_X86 1
/* AVX2 and AVX-512 without fused multiply-adds: the same products and sums */
__attribute__((target("avx2"))) static void gemm_avx2(size_t rows, size_t cols, size_t inner, const double *a,
                                                      size_t lda, const double *b, size_t ldb, double *c,
                                                      size_t ldc) {
  TILE_BODY(v4, 4);
}
__attribute__((target("avx512f"))) static void gemm_avx512(size_t rows, size_t cols, size_t inner,
                                                           const double *a, size_t lda, const double *b,
                                                           size_t ldb, double *c, size_t ldc) {
  TILE_BODY(v8, 8);
}
#endif

ekoc_real_gemm_fn ekoc_real_gemm_for_cpu(void) {
#ifdef EKOC_REAL_GEMM_X86
  if (__builtin_cpu_supports("avx512f")) return gemm_avx512;
  if (__builtin_cpu_supports("avx2")) return gemm_avx2;
#endif
  return gemm_base;
}
