/* batch_eval.h (private): one target row x_k of one N-space family on a set
 * of Talbot path nodes, for every basis function and element at once
 * (batch_eval.c). The work unit of the batch engine: the base rule of every
 * row (quad/batch.c) and each panel its refinement adds (quad/batch_refine.h)
 * go through ekoc_batch_eval, the GPU backend's host side through its
 * probe-only mode (gpu/gpu_loader.c).
 *
 * Per node m: the path point N_m and dN/du (ekoc_batch_path), the family's
 * tower from ekore (ekoc_nspace_towers, one batch call for all nodes), the
 * elements from it (ekoc_nspace_from_tower), the weighted elements W_m
 * (ekoc_batch_weight), all basis transforms P_j(N_m) (ekoc_batch_basis_all)
 * and the sums
 *   K_ej = sum_m Im(P_j W_m)  (Kronrod weights),  G_ej likewise with the Gauss weights.
 *
 * Probe nodes (every EKOC_BATCH_PROBE_STRIDE-th node, from the middle of the
 * first stride) add two numbers per entry that the error estimate needs
 * (quad/batch_refine.h), both integrals estimated from the probes with the
 * Kronrod weights rescaled to the whole node set:
 *  - ra_ej: the integral of |integrand| (QUADPACK's resabs), the scale of the
 *    quadrature-error rescaling and of the rounding floor;
 *  - nz_ej: a sample of the integrand's rounding noise. P_j(N; l) equals
 *    e^{N delta} P_j(N; l + delta) exactly whenever l + delta crosses no grid
 *    point (the skip/drop rules of docs/physics.md §4.3 then pick the same
 *    terms), but the two are computed with different roundings; their
 *    difference is a sample of the transform's rounding error (the monomial
 *    basis cancels by up to ~1e7 at degree 4 and small x), whatever the
 *    transform's algorithm. nz_ej integrates |Im((P_j - P'_j) W_m)|.
 * Measured on NNLO evolution and O(a_s^2) matching rows (nx 20..60, degree
 * 1..4, x down to 1e-9): the deviation of the Kronrod sum from a converged
 * reference stays below |K - G| + nz (max ratio 0.7..2 where rounding
 * dominates), while |K - G| alone misses it by up to 60x (perf/STATS.md,
 * 2026-12-01).
 */
#ifndef EKOC_QUAD_BATCH_EVAL_H
#define EKOC_QUAD_BATCH_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "ad/nspace.h"
#include "quad/batch_plan.h"

struct ekoc_interp;
struct ekoc_nspace_panels;

/* Probe nodes: m = EKOC_BATCH_PROBE_STRIDE/2 + i * EKOC_BATCH_PROBE_STRIDE
 * (9 of the default 73; every 4th node measured the noise no better, within
 * a factor 2, perf/STATS.md 2026-12-01), and their number among n nodes. */
#define EKOC_BATCH_PROBE_STRIDE 8
#define EKOC_BATCH_PROBES(n) \
  ((n) > EKOC_BATCH_PROBE_STRIDE / 2 ? ((size_t)(n) - EKOC_BATCH_PROBE_STRIDE / 2 - 1) / EKOC_BATCH_PROBE_STRIDE + 1 : 0)

/* A set of path nodes: the tabulated Talbot pieces (quad/batch_rule.h) and
 * the weights of the value (Kronrod) and of the embedded Gauss rule (0 at
 * Kronrod-only nodes). */
typedef struct ekoc_batch_nodes {
  int32_t n;
  const double *theta, *tc, *dj;
  const double *w, *wg;
} ekoc_batch_nodes;

/* The row being inverted: target point k of the basis, its family and the
 * first basis function that reaches it (ekoc_batch_first_basis, < nx). */
typedef struct ekoc_batch_row {
  const struct ekoc_interp *interp;
  const double *table; /* ekoc_batch_area_table of the basis */
  const ekoc_batch_family *fp;
  size_t k, jmin;
  double logx;  /* ln x_k */
  double radius; /* of the row's Talbot path (quad/path_radius.h) */
  int32_t path_status; /* ekoc_path_status: EKOC_PATH_UNRESOLVED flags every entry of the row */
  double shift; /* delta of the noise probe: a quarter of the way to the next grid point */
  double cut;   /* the Mellin cut, for the message of a node beyond the crate's |N| (set by the caller, 0 by init) */
  struct ekoc_nspace_panels *panels; /* the refined panels kept in the N-space cache, or NULL */
} ekoc_batch_row;

/* Fills row for target point k of family fp (no panel cache), with its path
 * radius off the poles of its kernel (row->radius, row->path_status;
 * quad/path_radius.h), so that every driver computes a row on the same path.
 * *active is 0 (row untouched beyond its first fields) when the row is
 * identically 0: x_k = 1 (eko) or no basis function reaches x_k. Returns
 * EKOC_OK or the crate's error (then *active is 0). */
int ekoc_batch_row_init(ekoc_batch_row *row, const struct ekoc_interp *interp, const double *table,
                        const ekoc_batch_family *fp, size_t k, int *active);

/* Values of this row on a node set kept between parts (quad/nspace_cache.h),
 * or NULLs: basis [n + EKOC_BATCH_PROBES(n)][j], the transforms P_j at the n
 * nodes followed by the probes' noise samples P_j - P'_j, towers [m][len]
 * and the harmonic sums the towers are built from (ad/nspace.h), each with
 * its ready flag (written here, set only when the row is complete). */
typedef struct ekoc_batch_row_cache {
  ekoc_complex *basis, *tower;
  unsigned char *basis_ready, *tower_ready;
  ekoc_complex *sums; /* [m][EKOC_NSPACE_SUMS_LEN / 2]: the nodes' harmonic sums, shared by families */
  unsigned char *sums_ready;
} ekoc_batch_row_cache;

/* Per-entry sums, [e][j] element-major with stride nx (e < n_el); k and g
 * are the Kronrod and Gauss sums, ra and nz the probe integrals above. */
typedef struct ekoc_batch_sums {
  double *k, *g, *ra, *nz;
} ekoc_batch_sums;

/* The probes' noise sums of one node (quad/batch_eval.c). */
typedef void (*ekoc_batch_probe_fn)(const ekoc_complex *p, const ekoc_complex *p2, size_t j0, size_t nx,
                                    const ekoc_complex *wk, int32_t n_el, double *ra, double *nz);
typedef void (*ekoc_batch_accumulate_fn)(const ekoc_complex *p, size_t j0, size_t nx, const ekoc_complex *wk,
                                         const ekoc_complex *wg, int32_t n_el, double *acc, double *accg);

/* Per-thread scratch for up to max_nodes nodes and nx basis functions. */
typedef struct ekoc_batch_eval_scratch {
  size_t max_nodes, nx;
  double *n_re, *n_im;      /* [node] */
  ekoc_complex *dn;         /* [node] */
  double *tscratch;         /* EKOC_NSPACE_TOWER_SCRATCH(max_nodes) */
  ekoc_complex *tower;      /* [node][EKOC_NSPACE_MAX_TOWER] */
  ekoc_complex *vals;       /* [node][EKOC_NSPACE_MAX_ELEMENTS]: the family's elements */
  ekoc_complex *wk, *wgs;   /* [node][element]: Kronrod and Gauss weighted elements */
  ekoc_complex *p, *p2;     /* [j]: basis transforms at one node, and the probe's shifted ones */
  ekoc_complex *group;      /* EKOC_BASIS_GROUP_SCRATCH(nx): the transforms of a group of nodes */
  ekoc_batch_accumulate_fn accumulate; /* baseline or AVX2 build of the same sums */
  ekoc_batch_probe_fn accumulate_probe; /* the probes' sums, the same way */
} ekoc_batch_eval_scratch;

/* Allocates sc (all of it, or nothing: EKOC_ERR_NO_MEMORY with a message). */
int ekoc_batch_eval_scratch_alloc(ekoc_batch_eval_scratch *sc, size_t max_nodes, size_t nx);
void ekoc_batch_eval_scratch_free(ekoc_batch_eval_scratch *sc);

/* The sums of row `row` on `nodes` (n <= sc->max_nodes) into out (entries
 * j >= jmin of the family's n_el elements are written, the rest untouched).
 * probes_only: only the probe nodes are evaluated and only out->ra / out->nz
 * written (bitwise what the full evaluation writes there); `towers`, when
 * not NULL, holds this row's towers of all nodes [m][len] (computed
 * elsewhere with the same call shape, the GPU backend's staging). cache may
 * be NULL. Returns EKOC_OK, or the ekore / singular-matching error. */
int ekoc_batch_eval(const ekoc_batch_row *row, const ekoc_batch_nodes *nodes, const ekoc_batch_row_cache *cache,
                    const ekoc_complex *towers, int probes_only, ekoc_batch_eval_scratch *sc,
                    const ekoc_batch_sums *out);

#endif
