/* blockop.h (private): an operator on (14 basis elements) x (nx grid points)
 * stored as 14 x 14 blocks of nx x nx matrices, with NULL for zero blocks,
 * together with its error estimate. Segment, matching and composed operators
 * are block-sparse in the evolution bases, so products skip most blocks.
 * Block (a, b) maps basis element b (input) to a (output); within a block,
 * [k][j] = (output x_k, input x_j), row-major.
 *
 * Row ranges: an operator inverted once per target (the N-space engine) is
 * exactly zero left of a column that depends on the row only (the input
 * basis functions that vanish above x_k, which eko does not integrate), about
 * half of a block on a log grid. Such an operator stores each row k from
 * column row_lo[k] on (ekoc_blockop_set_rows): entry (k, j >= row_lo[k]) of a
 * block is at row_base[k] + j, the block holds ekoc_blockop_len entries. The
 * default (row_lo NULL) is full rows, row_base[k] = k nx. The products
 * (ekoc_blockop_mul) take full-row operators only; the rotations and copies
 * keep the layout of their input. */
#ifndef EKOC_EVOL_BLOCKOP_H
#define EKOC_EVOL_BLOCKOP_H

#include <stddef.h>

#include "evol/basis.h"

typedef struct ekoc_blockop {
  size_t nx;
  double *val[EKOC_NB][EKOC_NB];
  double *err[EKOC_NB][EKOC_NB];
  /* shortcuts for the products: the block is exactly the identity with zero
   * error / its error block is all zero (kept up to date by every function here) */
  unsigned char identity[EKOC_NB][EKOC_NB];
  unsigned char exact[EKOC_NB][EKOC_NB];
  /* row ranges (NULL: full rows): one allocation, row_lo[nx] then row_base[nx] */
  size_t *row_lo, *row_base;
  size_t ranges_len; /* entries of a block with row ranges */
} ekoc_blockop;

/* Entries of each block's arrays. */
static inline size_t ekoc_blockop_len(const ekoc_blockop *op) {
  return op->row_lo ? op->ranges_len : op->nx * op->nx;
}

/* Entry (k, j) of a block's arrays, j >= ekoc_blockop_row_lo(op, k). */
static inline size_t ekoc_blockop_at(const ekoc_blockop *op, size_t k, size_t j) {
  return op->row_base ? op->row_base[k] + j : k * op->nx + j;
}
/* The first column row k stores (0: full rows). */
static inline size_t ekoc_blockop_row_lo(const ekoc_blockop *op, size_t k) { return op->row_lo ? op->row_lo[k] : 0; }

/* The offsets of row ranges [row_lo[k], nx) stored one after the other:
 * row_base[k] (entry (k, j) at row_base[k] + j); returns the entries in all.
 * row_lo[0] must be 0 (then every row_base is >= 0). */
size_t ekoc_blockop_row_offsets(size_t nx, const size_t *row_lo, size_t *row_base);
/* An operator without blocks takes the row ranges [row_lo[k], nx) (copied),
 * each holding its diagonal entry (row_lo[k] <= k). Returns 0 on no memory,
 * when op has blocks or row ranges already, or a range misses its diagonal. */
int ekoc_blockop_set_rows(ekoc_blockop *op, const size_t *row_lo);
/* The operator in full rows (zeros left of the ranges); nothing to do for a
 * full-row one. Returns 0 on no memory (op unchanged). */
int ekoc_blockop_to_full_rows(ekoc_blockop *op);

/* An all-zero operator (no blocks, full rows). */
void ekoc_blockop_init(ekoc_blockop *op, size_t nx);
/* Frees every block and the row ranges: op is all-zero in full rows. */
void ekoc_blockop_clear(ekoc_blockop *op);
/* Block (a, b), allocated (zeroed) if absent; NULL when out of memory. */
double *ekoc_blockop_block(ekoc_blockop *op, int a, int b);
/* Sets block (a, b) to a copy of val/err, ekoc_blockop_len entries each in the
 * operator's layout (err may be NULL: zero error). Returns 0 on no memory. */
int ekoc_blockop_set(ekoc_blockop *op, int a, int b, const double *val, const double *err);
/* Block (a, b), absent so far, becomes the arrays val/err (ekoc_blockop_len entries) themselves
 * (malloc'd; the operator frees them from now on), as ekoc_blockop_set would
 * copy them. Returns 0 (nothing taken) when the block exists or an array is NULL. */
int ekoc_blockop_adopt(ekoc_blockop *op, int a, int b, double *val, double *err);
/* Sets block (a, b) to the identity (zero error). Returns 0 on no memory. */
int ekoc_blockop_set_identity(ekoc_blockop *op, int a, int b);
/* out = A * B with error |A| errB + errA |B| (eko's propagation). out must be
 * initialised and distinct from A and B; its previous blocks are freed. A and
 * B in full rows (0 otherwise, out empty); out is in full rows.
 * n_threads (0: OpenMP's default) work on separate output blocks; the bits do
 * not depend on it. Returns 0 on no memory. */
int ekoc_blockop_mul(const ekoc_blockop *a, const ekoc_blockop *b, ekoc_blockop *out, int n_threads);
/* out = M * A (M a constant 14x14 matrix acting on basis elements), and
 * out = A * M, in A's layout. Errors are rotated with |M|. n_threads (0: OpenMP's default)
 * work on separate output blocks; the bits do not depend on it. Returns 0 on
 * no memory (out is then empty). */
int ekoc_blockop_rotate_left(const double m[EKOC_NB][EKOC_NB], const ekoc_blockop *a, ekoc_blockop *out,
                             int n_threads);
int ekoc_blockop_rotate_right(const ekoc_blockop *a, const double m[EKOC_NB][EKOC_NB], ekoc_blockop *out,
                              int n_threads);
/* dst = a deep copy of src, its layout too (dst's blocks are freed first). Returns 0 on no memory. */
int ekoc_blockop_copy(ekoc_blockop *dst, const ekoc_blockop *src);
/* Moves src into dst (dst's blocks are freed, src becomes empty). */
void ekoc_blockop_move(ekoc_blockop *dst, ekoc_blockop *src);
/* Number of allocated blocks. */
int ekoc_blockop_count(const ekoc_blockop *op);

#endif
