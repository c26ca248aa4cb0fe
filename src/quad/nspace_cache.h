/* nspace_cache.h: the batch driver's N-space values kept between parts and
 * between computations (struct ekoc_nspace_cache, include/ekoc/operator.h).
 *
 * What the batch driver computes per row k and node m depends on less than
 * the whole computation:
 *  - the basis transforms P_j(N_m; ln x_k) on the path of offset 0 or 1 only
 *    on the grid, the interpolation degree and the rule (panels, points,
 *    cut);
 *  - the towers (anomalous dimensions gamma_k(N_m), or OMEs) only on those
 *    N_m and on (kind, family, order, nf, and ln(mu_h^2/m_h^2) for OMEs):
 *    not on a_s, the scales, the method or the scale variation, which enter
 *    later (ad/nspace.h);
 *  - the harmonic sums the evolution towers are built from only on the N_m:
 *    kept once per path offset, they serve every order and nf.
 * The same holds on the panels the engine's refinement adds to a row
 * (quad/batch_refine.h): a series of parts on one grid refines mostly the
 * same rows on the same panels, so they are kept too (ekoc_nspace_panel_get).
 * A cache is bound to one such key (ekoc_nspace_cache_bind): another grid or
 * rule empties it. Its base-rule arrays are allocated on the calling thread
 * before the driver's parallel loop, the refined panels' arrays inside it by
 * the thread that owns the row (one allocation per panel, within the byte
 * budget, counted atomically); row k is written by the one thread that owns
 * that row, and its ready flag is set only after the row is complete, so a
 * failed or cancelled row is recomputed next time.
 */
#ifndef EKOC_QUAD_NSPACE_CACHE_H
#define EKOC_QUAD_NSPACE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "ad/nspace.h"
#include "ekoc/operator.h"

/* What a family's towers depend on besides the points (the same for every
 * a_s, scale, method and scale variation): kind, family, order, nf,
 * polarized, time_like, at N3LO evolution the anomalous-dimension choice
 * (n3lo_ad_variation[7], use_fhmruvv), the QED order of a QED family, the
 * physics, a matching's heavy-quark mass scheme and ln(mu_h^2/m_h^2); zero
 * where the tower does not read it. Keys made by ekoc_tower_key_of compare
 * with memcmp. */
#define EKOC_TOWER_CHOICE_LEN 13
typedef struct ekoc_tower_key {
  int32_t kind, family, order, nf;
  int32_t choice[EKOC_TOWER_CHOICE_LEN];
  int32_t reserved; /* 0: no padding before ome_log */
  double ome_log;   /* matching only (0 for evolution) */
} ekoc_tower_key;
void ekoc_tower_key_of(const ekoc_nspace_cfg *cfg, ekoc_tower_key *key);

/* The N-space engine's values kept in c (quad/path_cache.h), bound to basis
 * ip with the budget the batch values leave; NULL when another computation
 * holds c or memory is missing. Release it with ekoc_nspace_cache_release. */
struct ekoc_path_cache;
struct ekoc_interp;
struct ekoc_path_cache *ekoc_nspace_cache_bind_paths(ekoc_nspace_cache *c, const struct ekoc_interp *ip);

/* Binds cache c to a computation on this grid (ln x, nx points), degree and
 * rule, emptying it when the key differs from the last one. Returns 1 when
 * the caller now holds the cache (release it with ekoc_nspace_cache_release),
 * 0 when another computation holds it or memory for the key is missing: the
 * caller then goes on without it. */
int ekoc_nspace_cache_bind(ekoc_nspace_cache *c, const double *logx, size_t nx, int32_t degree, int32_t panels,
                           int32_t points, double cut);
void ekoc_nspace_cache_release(ekoc_nspace_cache *c);

struct ekoc_batch_rule;
/* The batch rule of the bound key (panels, points, cut), built on first use;
 * NULL when that fails (the caller then builds its own and reports). Call
 * outside the parallel loop. */
const struct ekoc_batch_rule *ekoc_nspace_cache_rule(ekoc_nspace_cache *c);

/* The (2 points + 1)-point Gauss-Kronrod pair on [-1, 1] of the engine's
 * refinement (ekoc_batch_kronrod: x, wk, wg, each 2 points + 1 long), built on
 * first use; NULL when that fails (the caller then builds its own). Call
 * outside the parallel loop. */
const double *ekoc_nspace_cache_refine_rule(ekoc_nspace_cache *c, int32_t points);

/* The basis transforms of the path with this offset, [row k][node m][basis j]
 * complex (m < n_nodes of the rule, then its EKOC_BATCH_PROBES(n_nodes) probe
 * noise samples, quad/batch_eval.h), their ready flags [row k] and the radius
 * of the path each ready row was computed on [row k] (a row moved off a pole,
 * quad/path_radius.h, has another: the caller uses a ready row only on its
 * radius); NULL (and *ready, *radius NULL) when they do not fit the cache's
 * byte budget. Allocates on first use: call outside the parallel loop. */
ekoc_complex *ekoc_nspace_cache_basis(ekoc_nspace_cache *c, int singlet_like, unsigned char **ready,
                                      double **radius);

/* The packed harmonic sums of the base rule's nodes on the path with this
 * offset, [row k][node m][EKOC_NSPACE_SUMS_LEN / 2] complex (ad/nspace.h),
 * shared by the towers of every family that takes them, with ready flags and
 * path radii [row k] as for the basis; NULL when they do not fit the budget.
 * Allocates on first use: call outside the parallel loop. */
ekoc_complex *ekoc_nspace_cache_sums(ekoc_nspace_cache *c, int singlet_like, unsigned char **ready, double **radius);

/* The towers of family cfg, [row k][node m][ekoc_nspace_tower_len(cfg)]
 * complex, their ready flags [row k] and path radii [row k] (as for the
 * basis); NULL (and *ready, *radius NULL) when the budget or the slots are
 * used up. Allocates on first use: call outside the parallel loop. */
ekoc_complex *ekoc_nspace_cache_towers(ekoc_nspace_cache *c, const ekoc_nspace_cfg *cfg, unsigned char **ready,
                                       double **radius);

/* The refined panels of the batch engine (quad/batch_refine.h) kept for one
 * family: the basis transforms (and probe noise samples) and the harmonic
 * sums (families that take them) of its path offset and the towers of its
 * configuration on each panel [lo, hi] of each row,
 * with `nodes` nodes per panel. A row holds up to EKOC_NSPACE_CACHE_PANELS
 * panels; their arrays are allocated when first used, inside the parallel
 * loop, by the thread that owns the row, while the byte budget allows. */
#define EKOC_NSPACE_CACHE_PANELS 16
typedef struct ekoc_nspace_panels ekoc_nspace_panels;

/* The panel store of family cfg on the path with this offset, or NULL (no
 * budget or slots left). Call outside the parallel loop. */
ekoc_nspace_panels *ekoc_nspace_cache_panels(ekoc_nspace_cache *c, int singlet_like, const ekoc_nspace_cfg *cfg,
                                             int32_t nodes);

struct ekoc_batch_row_cache;
/* The cached arrays of panel [lo, hi] of row k on the path of this radius
 * (quad/batch_eval.h), or all NULL when the row has no slot left or the
 * budget is spent. Only the thread that owns row k may call it while the
 * driver's loop runs. */
void ekoc_nspace_panel_get(ekoc_nspace_panels *p, size_t k, double lo, double hi, double radius,
                           struct ekoc_batch_row_cache *out);

#endif
