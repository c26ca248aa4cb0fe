/* blockop.h (private): an operator on (14 basis elements) x (nx grid points)
 * stored as 14 x 14 blocks of nx x nx matrices, with NULL for zero blocks,
 * together with its error estimate. Segment, matching and composed operators
 * are block-sparse in the evolution bases, so products skip most blocks.
 * Block (a, b) maps basis element b (input) to a (output); within a block,
 * [k][j] = (output x_k, input x_j), row-major. */
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
} ekoc_blockop;

/* An all-zero operator (no blocks). */
void ekoc_blockop_init(ekoc_blockop *op, size_t nx);
/* Frees every block and leaves op all-zero. */
void ekoc_blockop_clear(ekoc_blockop *op);
/* Block (a, b), allocated (zeroed) if absent; NULL when out of memory. */
double *ekoc_blockop_block(ekoc_blockop *op, int a, int b);
/* Sets block (a, b) to a copy of val/err (err may be NULL: zero error). Returns 0 on no memory. */
int ekoc_blockop_set(ekoc_blockop *op, int a, int b, const double *val, const double *err);
/* Block (a, b), absent so far, becomes the nx x nx arrays val/err themselves
 * (malloc'd; the operator frees them from now on), as ekoc_blockop_set would
 * copy them. Returns 0 (nothing taken) when the block exists or an array is NULL. */
int ekoc_blockop_adopt(ekoc_blockop *op, int a, int b, double *val, double *err);
/* Sets block (a, b) to the identity (zero error). Returns 0 on no memory. */
int ekoc_blockop_set_identity(ekoc_blockop *op, int a, int b);
/* out = A * B with error |A| errB + errA |B| (eko's propagation). out must be
 * initialised and distinct from A and B; its previous blocks are freed.
 * n_threads (0: OpenMP's default) work on separate output blocks; the bits do
 * not depend on it. Returns 0 on no memory. */
int ekoc_blockop_mul(const ekoc_blockop *a, const ekoc_blockop *b, ekoc_blockop *out, int n_threads);
/* out = M * A (M a constant 14x14 matrix acting on basis elements), and
 * out = A * M. Errors are rotated with |M|. n_threads (0: OpenMP's default)
 * work on separate output blocks; the bits do not depend on it. Returns 0 on
 * no memory (out is then empty). */
int ekoc_blockop_rotate_left(const double m[EKOC_NB][EKOC_NB], const ekoc_blockop *a, ekoc_blockop *out,
                             int n_threads);
int ekoc_blockop_rotate_right(const ekoc_blockop *a, const double m[EKOC_NB][EKOC_NB], ekoc_blockop *out,
                              int n_threads);
/* dst = a deep copy of src (dst's blocks are freed first). Returns 0 on no memory. */
int ekoc_blockop_copy(ekoc_blockop *dst, const ekoc_blockop *src);
/* Moves src into dst (dst's blocks are freed, src becomes empty). */
void ekoc_blockop_move(ekoc_blockop *dst, ekoc_blockop *src);
/* Number of allocated blocks. */
int ekoc_blockop_count(const ekoc_blockop *op);

#endif
