/* path_cache.h: what the N-space engine (evol/nspace_engine.h) keeps from
 * one computation to the next in an ekoc_nspace_cache (include/ekoc/operator.h).
 *
 * On one x grid and basis, the engine's band paths and their nodes depend on
 * the grid and, where poles move a band (evol/nspace_poles.h), on the
 * theory; at given nodes,
 *  - the towers (anomalous dimensions, OMEs) depend on the family's
 *    configuration without the couplings (ekoc_tower_key);
 *  - the basis transforms of a band's blocks and rows (quad/band_invert.c:
 *    the right factors of its products and their chunked squared sizes) and
 *    the rows' node factors e^{N_i (ln x_ref - ln x_k)} depend on the band's
 *    layout (blocks, columns) and the nodes only.
 * None depends on a_s, the scales, the method or the scale variation, so an
 * alpha_s or scale scan, or NNPDF's theories on one grid, computes them once.
 * Everything is keyed by the exact nodes (and layout): a path moved by other
 * poles is another entry, and a kept value is the one the engine would
 * compute, bit for bit.
 *
 * A cache is bound to a basis (ekoc_path_cache_bind: another grid, degree or
 * interpolation empties it) and holds at most its byte budget: entries not
 * used by the current binding are dropped, oldest first, to make room, and
 * what still does not fit is computed without being kept. The engine asks
 * for towers and band stores between its parallel loops; inside the band
 * inversion's loop each block and row of a store is written by the thread
 * that owns it, and marked ready only once complete. */
#ifndef EKOC_QUAD_PATH_CACHE_H
#define EKOC_QUAD_PATH_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "ad/nspace.h"
#include "quad/band_plan.h"
#include "quad/interp.h"

typedef struct ekoc_path_cache ekoc_path_cache;

/* An empty cache (NULL when out of memory). */
ekoc_path_cache *ekoc_path_cache_new(void);
void ekoc_path_cache_free(ekoc_path_cache *pc); /* NULL is fine */
size_t ekoc_path_cache_bytes(const ekoc_path_cache *pc);

/* Binds pc to basis ip with a budget of max_bytes, emptying it when the grid,
 * degree or interpolation differ from the last binding's. Returns 1, or 0
 * when out of memory (pc is then empty and unbound: use no cache). */
int ekoc_path_cache_bind(ekoc_path_cache *pc, const ekoc_interp *ip, size_t max_bytes);

/* The towers of family cfg at the count points (n_re, n_im) kept from an
 * earlier computation (count x ekoc_nspace_tower_len(cfg) complex), or NULL. */
const ekoc_complex *ekoc_path_cache_tower(ekoc_path_cache *pc, const ekoc_nspace_cfg *cfg, size_t count,
                                          const double *n_re, const double *n_im);
/* Keeps a copy of those towers where the budget allows. */
void ekoc_path_cache_put_tower(ekoc_path_cache *pc, const ekoc_nspace_cfg *cfg, size_t count, const double *n_re,
                               const double *n_im, const ekoc_complex *tower);

/* Other values of the engine that depend on the basis and on what `key`
 * (key_len bytes, compared bytewise) holds only, kept as `len` bytes: the
 * rows' Taylor coefficients at a pole of the truncated solutions
 * (evol/nspace_poles.c), which does not move with a_s. ekoc_path_cache_blob
 * gives the kept bytes (*len set) or NULL; ekoc_path_cache_put_blob keeps a
 * copy where the budget allows. */
const void *ekoc_path_cache_blob(ekoc_path_cache *pc, const void *key, size_t key_len, size_t *len);
void ekoc_path_cache_put_blob(ekoc_path_cache *pc, const void *key, size_t key_len, const void *data, size_t len);

/* The store of band bd's products on the m + 1 nodes n (quad/band_invert.c):
 * per block, the shared columns' right factor (2 (m + 1) rows, ld_blk[q]
 * columns, zero beyond the block's) and its squared sizes per chunk
 * (`chunks` rows); per row, its own columns' (ld_row[k] columns) and the
 * node factors x_row[k] (m + 1 complex, then their m + 1 squared sizes) of
 * its block's shared columns. A block's (a row's) arrays are NULL where it
 * has no such columns; ready flags say what an earlier call completed. */
typedef struct ekoc_path_store {
  size_t n_blocks, nx;
  double **b_blk, **size_blk; /* [block] */
  size_t *ld_blk;             /* [block] */
  double **b_row, **size_row; /* [row] */
  size_t *ld_row;             /* [row] */
  double **x_row;             /* [row] */
  unsigned char *blk_ready, *row_ready;
} ekoc_path_store;

/* The store of band bd on the m + 1 nodes n with `chunks` size chunks and
 * columns padded to multiples of col_pad, found or made within the budget;
 * NULL when it does not fit (the caller then works without it). Call outside
 * the parallel loop. */
ekoc_path_store *ekoc_path_cache_store(ekoc_path_cache *pc, const ekoc_band *bd, int m, const ekoc_complex *n,
                                       size_t chunks, size_t col_pad);

#endif /* EKOC_QUAD_PATH_CACHE_H */
