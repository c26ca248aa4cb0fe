/* band_invert.h: the entries of one band (quad/band_plan.h) of several
 * N-space functions on one path: for each function F_e, given at the band's
 * nodes with the weights folded in (f_e,i = w_i F_e(N_i), ekoc_band_nodes),
 * and each entry (k, j) of the band,
 *
 *   value = Im sum_i f_e,i e^{N_i (ln x_ref - ln x_k)} P_j(N_i; ln x_ref),
 *
 * P_j the transform of p_j above x_k relative to x_ref (the row's block,
 * or x_k itself for the functions transformed per row). The sums over the
 * even and the odd nodes are formed apart, as real matrix products
 * (quad/real_gemm.h): the value is their sum (the trapezoidal rule with m
 * intervals), |odd - even| is the difference to the rule with m/2 intervals
 * (its nodes are the even ones, with twice the weight), which bounds the
 * error of the finer rule where the rule converges geometrically (a
 * rescaled d1^2/d2 with the m/4 rule was tried: at m = 32 it understated
 * NNLO VFNS errors up to 4000x, perf/STATS.md). The stated
 * error adds a floor for the rounding of the sum (16 eps times a bound on
 * (sum_i (s_e,i |X_k,i P_j(N_i)|)^2)^(1/2), s >= |f| the size of what f was
 * made of, f_size: the partial sums round independently, so their difference
 * shows the rounding too) and the share the path's end leaves out (the
 * same bound times the band's tail). Values and errors are written to the
 * outputs (a second call for the same band, with more nodes, replaces
 * them). Threads work on separate blocks of rows; the bits do not depend on
 * their number. */
#ifndef EKOC_QUAD_BAND_INVERT_H
#define EKOC_QUAD_BAND_INVERT_H

#include <stddef.h>
#include <stdint.h>

#include "ad/ad_math.h"
#include "quad/band_plan.h"
#include "quad/interp.h"

typedef struct ekoc_band_invert_args {
  const ekoc_interp *ip;
  const ekoc_band *band;
  int m;                  /* intervals of the rule (even): m + 1 nodes */
  const ekoc_complex *n;  /* the m + 1 nodes */
  double tail;            /* ekoc_band_nodes' tail */
  size_t n_functions;     /* E */
  const ekoc_complex *f;  /* [E][m + 1]: weights times values */
  const double *f_size;   /* [E][m + 1]: >= |f|, the size of the terms that made it (its rounding's scale) */
  /* function e's outputs are out[out_start[e] .. out_start[e+1]): nx x nx
   * arrays [k][j] of values and errors (functions equal at every node share
   * one inversion) */
  const size_t *out_start;
  double *const *val, *const *err;
  /* entry (k, j) of the outputs (and of corr) is at row_base[k] + j: rows stored from their first
   * column on (evol/blockop.h's row ranges; NULL: full rows, k nx + j) */
  const size_t *row_base;
  /* per output, what is added to its entries afterwards (nx x nx, NULL: nothing; the pole residues,
   * evol/nspace_poles.h, to single precision): the tolerance is that of the entry's final value */
  const float *const *corr;
  double epsabs, epsrel; /* an entry is over when its error exceeds max(epsabs, epsrel |final value|) */
  const double *fun_tolerance; /* E factors on epsabs, epsrel per function (NULL: 1) */
  /* per output (out_start's indices), nx flags each: the rows whose entries
   * this call writes to it (NULL: every row asked for), and the rows where
   * one of its entries is over (set; may be NULL). A refinement that writes
   * an output only where that output was over keeps every other entry's
   * bits whatever else shares the rows (a streamed target: its held bits) */
  const unsigned char *const *rows_in;
  unsigned char *const *rows_out;
  int n_threads;         /* 0: OpenMP's default */
  const unsigned char *rows; /* nx flags: only these rows (NULL: every row of the band) */
  unsigned char *row_over;   /* nx flags set where a row has an entry over (may be NULL) */
  unsigned char *fun_over;   /* E flags set where a function has an entry over (may be NULL) */
  /* polled between blocks of rows (ekoc_quad_progress_poll), so that the
   * caller's callback runs at least every EKOC_PROGRESS_POLL_S and a
   * cancellation stops the band (may be NULL) */
  struct ekoc_quad_progress *progress;
  /* the band path's right factors and node factors kept between calls
   * (ekoc_band_invert_store; NULL: made in the scratch for this call only) */
  struct ekoc_path_store *store;
} ekoc_band_invert_args;

/* The store of band bd's products on the m + 1 nodes n in pc (quad/path_cache.h), in this file's
 * layout, or NULL (no cache, or no room). Call outside the parallel loop. */
struct ekoc_path_cache;
struct ekoc_path_store *ekoc_band_invert_store(struct ekoc_path_cache *pc, const ekoc_band *bd, int m,
                                               const ekoc_complex *n);

/* Writes the band's entries of every function to its outputs (in the rows
 * asked for); *n_over counts the entries (of this contribution) whose stated
 * error exceeds the tolerance, and row_over / fun_over mark where they are.
 * Errors: EKOC_ERR_NO_MEMORY (scratch), EKOC_ERR_CANCELLED (progress);
 * then the outputs hold a part of the band. */
int ekoc_band_invert(const ekoc_band_invert_args *a, size_t *n_over);

#endif /* EKOC_QUAD_BAND_INVERT_H */
