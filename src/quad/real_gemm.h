/* real_gemm.h: the dense real product C = A B of the N-space engine's sums
 * over path nodes (quad/band_invert.c): A rows x inner, B inner x cols,
 * C rows x cols, row-major with leading dimensions lda, ldb, ldc.
 *
 * Register tiles of 4 rows by 8 (16 with AVX-512, then 8 for a last 8) and
 * a last 4 columns; every c_ij is the sum of a_ik b_kj in increasing k,
 * multiplied and added without fused multiply-adds, so the bits are those of
 * the plain loop on every x86-64 CPU (baseline, AVX2 and AVX-512 builds,
 * chosen at run time) whatever the tile. Requirements: rows a multiple of 4
 * and cols a multiple of 4 (callers pad with zeros), ldb and ldc >= cols.
 * The rows of the band products are short (a row's own columns: the degree
 * + 1 basis functions reaching below it): padded to 4, the products do 1.14x
 * their useful work on vs_hoppet's grid and 1.08x on NNPDF's fit grid (1.36x
 * and 1.23x padded to 8, 1.8x to 16). */
#ifndef EKOC_QUAD_REAL_GEMM_H
#define EKOC_QUAD_REAL_GEMM_H

#include <stddef.h>

typedef void (*ekoc_real_gemm_fn)(size_t rows, size_t cols, size_t inner, const double *a, size_t lda,
                                  const double *b, size_t ldb, double *c, size_t ldc);

/* The fastest build this CPU runs (the same bits whichever). */
ekoc_real_gemm_fn ekoc_real_gemm_for_cpu(void);

/* Columns are padded to a multiple of this. */
#define EKOC_REAL_GEMM_COLS 4
#define EKOC_REAL_GEMM_ROWS 4

#endif /* EKOC_QUAD_REAL_GEMM_H */
