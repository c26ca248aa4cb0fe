/* band_plan.h: the banded Talbot paths of the N-space engine (docs/physics.md
 * §3.2): which path each operator entry is inverted on, and the nodes of
 * those paths.
 *
 * Entry (k, j) (output x_k, basis function j) is the inverse transform at
 * x_k of E(N) times the transform of p_j restricted to x >= x_k. Written out
 * (docs/physics.md §4.3) its integrand is a sum of terms e^{N tau} (polynomial
 * in 1/N) E(N) with tau = ln(x_q / x_k) over the grid points x_q of p_j's
 * areas above x_k: the largest, tau_max(k, j) = ln(x_top / x_k) with x_top the
 * upper end of p_j's last area, sets how much the integrand is magnified at
 * the path's crossing (~e^{r tau_max}), the smallest how fast it decays along
 * the path. eko's path (one radius per row, r = 6.4/(0.1 - ln x_k)) matches
 * the largest tau of the row and leaves the entries next to the diagonal,
 * whose tau are a grid step, decaying slowly. Here every entry gets a path
 * matched to its own tau_max: bands (tau_hi / ratio, tau_hi] of tau_max,
 * tau_hi falling from the largest by `ratio` per band, each inverted on the
 * path of radius r = magnification / tau_hi. One band's path serves every
 * row, so the N-space values at its nodes serve every entry of the band.
 *
 * Rows of a band are grouped in blocks of rows within a width w of ln x
 * (ln x_k1 - ln x_k0 <= w, r w bounded): the transforms of the basis
 * functions that lie wholly above the block's last row x_k1 are computed
 * once for the block, relative to x_k1 (the factor e^{N ln(x_k1/x_k)} is
 * the row's); the functions that reach down to it (p_j with an area at or
 * below x_k1) are transformed per row with eko's skip and drop rules. */
#ifndef EKOC_QUAD_BAND_PLAN_H
#define EKOC_QUAD_BAND_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "ad/ad_math.h"
#include "quad/interp.h"

/* Default magnification c: the radius of a band is c / tau_hi, so that the
 * integrand at the path's crossing is at most ~e^c times its size elsewhere
 * (for singlet-like paths times e^{tau}, the growth of the result itself).
 * 11.5: NNPDF 41000000 on the fit grid (196 x, 49 targets) inverts every
 * band on 65 nodes with no entry flagged; at 12.8 two bands needed 257 and
 * 513 and one entry far below its terms stayed over its tolerance. */
#define EKOC_BAND_MAGNIFICATION 11.5
/* Default ratio of a band's tau_hi to its tau_lo. */
#define EKOC_BAND_RATIO 4.0
/* The band paths are Talbot's with a taller imaginary part,
 *   N(theta) = o + r (theta cot theta + i EKOC_BAND_HEIGHT theta),
 * so that where they run left along the negative real axis, Im N -> 1.5 pi r,
 * they keep farther from the poles of the anomalous dimensions at the
 * negative integers: the kernels oscillate there with an amplitude ~e^{-2 pi
 * Im N} (the cot(pi N) of the reflection formula), which on Talbot's path
 * (height pi r, r ~ 0.8) is ~1e-7 of their size and aliased into the
 * trapezoidal sums of coarse grids' entries by ~1e-12 that neither half rule
 * sees; at 1.5 the same entries converge geometrically from 32 intervals on
 * (perf/STATS.md), at 2 they need twice the nodes. */
#define EKOC_BAND_HEIGHT 1.5
/* ... and a band lowered off the poles of the truncated solutions
 * (evol/nspace_poles.h) at least this high where it runs left (Im N ->
 * height pi r): a taller path. (Bands whose radius is small by their own
 * tau_hi keep 1.5: at 1.73 the first bands of NNPDF's fit grid needed twice
 * the nodes, 15 % of the time, for errors ~1e-12.) At r ~ 0.3
 * and height 1.5 the arms pass at Im N ~ 1.4, where the oscillation is
 * ~1e-4 of the kernels: a truncated NNLO entry's sums on 64 and 128
 * intervals agreed to 5.5e-12 while both were 2.8e-11 off (theory 40000000,
 * pineko's grid, Q^2 = 20; 4.8x its stated error). At Im N = 3 it is
 * ~7e-9: that entry within 0.64x, and the band converges on 129 nodes
 * instead of 257; bands of r >= 0.64 keep height 1.5 (LHA's largest band,
 * x from 1e-7, has r = 0.71). */
#define EKOC_BAND_ARM_IM 3.0
/* ... but no taller than this: the perturbative methods' poles crowd
 * towards N = 1.14 and lower bands to r ~ 0.1, where a height of 10 needed
 * more nodes than the rule has (an entry flagged at 4, none at 3). */
#define EKOC_BAND_HEIGHT_MAX 3.0
/* Bands whose tau_hi is at most this invert the non-singlet-like blocks on
 * the singlet-like path too (evol/nspace_engine.c): its crossing at 1 + r
 * instead of r magnifies their integrands by at most e^4.5 ~ 90 more. */
#define EKOC_BAND_ONE_PATH_TAU 4.5
/* The path ends at theta = pi (1 - EKOC_BAND_THETA_GAP) or where |N| reaches
 * EKOC_BAND_N_MAX (the ekore crate refuses |N| > 1e5). */
#define EKOC_BAND_THETA_GAP 1e-3
#define EKOC_BAND_N_MAX 5e4
/* The largest band radius: a band of tiny tau_hi (two close grid points) keeps its crossing at
 * N_MAX / 5 instead of magnification / tau_hi (which passed the crate's |N| limit); its path then ends
 * at |N| = N_MAX, its nodes graded towards that end (ekoc_band_nodes). No grid of the LHA runs reaches it. */
#define EKOC_BAND_RADIUS_MAX 1e4
/* Two grid points closer than this in ln x are refused (ekoc_band_plan_check_grid): the lower one's row
 * has terms e^{N tau} with tau = their distance, which decay along a path ending at |N| <= N_MAX only as
 * e^{-N_MAX tau}: at 1e-3, e^-50 (0 entries flagged on NNLO and N3LO cards; 5e-4: 3 on NNLO VFNS, 3e-4: hundreds). */
#define EKOC_BAND_CLOSE_MIN 1e-3

/* Rows k0..k1 of a band sharing the transforms of columns [s_lo, s_hi)
 * relative to ln x_k1. */
typedef struct ekoc_band_block {
  int32_t k0, k1, s_lo, s_hi;
} ekoc_band_block;

typedef struct ekoc_band {
  double tau_lo, tau_hi; /* the entries with tau_max in (tau_lo, tau_hi] */
  double radius;         /* magnification / tau_hi */
  double height;         /* of the path (ekoc_band_height): EKOC_BAND_HEIGHT unless moved off poles */
  /* the offset-0 (non-singlet-like) path's radius and height: radius and height, unless the poles of
   * the ordered-truncated non-singlet denominators move it apart (evol/nspace_poles.h) */
  double radius_ns, height_ns;
  double tau_min;        /* the smallest tau of any term of the band's entries (its slowest decay) */
  double *row_tau_min;   /* per row k: the smallest tau of a term of the row's entries (INFINITY: none) */
  size_t n_entries;      /* entries (k, j) in the band */
  size_t max_cols;       /* most columns of one row */
  size_t max_shared;     /* most shared columns of one block */
  size_t n_blocks;
  ekoc_band_block *block;
  /* per row k: columns [j_lo[k], j_hi[k]) in the band; [j_lo, j_own) transformed
   * per row, [j_own, j_hi) taken from the row's block (j_lo = j_hi: none) */
  int32_t *j_lo, *j_own, *j_hi;
} ekoc_band;

typedef struct ekoc_band_plan {
  size_t nx;
  int n_bands;
  ekoc_band *band;   /* n_bands, tau_hi descending */
} ekoc_band_plan;

/* The bands of basis ip with radius magnification / tau_hi and bands of
 * `ratio` (> 1): every entry (k, j) with an area of p_j above x_k lies in
 * exactly one band. Errors: EKOC_ERR_INVALID_ARGUMENT (magnification <= 0,
 * ratio <= 1, a grid without two points below 1), EKOC_ERR_INVALID_GRID (ekoc_band_plan_check_grid),
 * EKOC_ERR_NO_MEMORY. */
int ekoc_band_plan_new(const ekoc_interp *ip, double magnification, double ratio, ekoc_band_plan **out);
void ekoc_band_plan_free(ekoc_band_plan *p);

/* EKOC_OK, or EKOC_ERR_INVALID_GRID (the error set, naming request.xgrid and the two points) where two
 * consecutive grid points are closer than EKOC_BAND_CLOSE_MIN in ln x: the N-space backend cannot
 * invert the lower one's row within the crate's |N| limit (the batch and adaptive backends compute it).
 * ekoc_band_plan_new checks it first; a caller may ask before, to choose another backend. */
int ekoc_band_plan_check_grid(const ekoc_interp *ip);

/* The height a band of radius r lowered off the poles gets: EKOC_BAND_HEIGHT,
 * or taller where that leaves its arms below Im N = EKOC_BAND_ARM_IM. */
static inline double ekoc_band_height_for(double r) {
  double h = EKOC_BAND_ARM_IM / (EKOC_PI * r);
  return h > EKOC_BAND_HEIGHT ? (h < EKOC_BAND_HEIGHT_MAX ? h : EKOC_BAND_HEIGHT_MAX) : EKOC_BAND_HEIGHT;
}

/* The height of band b's path. */
static inline double ekoc_band_height(const ekoc_band *b) { return b->height; }
/* The radius and height of band b's path with offset o (0: radius_ns, height_ns). */
static inline double ekoc_band_radius_at(const ekoc_band *b, double o) { return o == 0.0 ? b->radius_ns : b->radius; }
static inline double ekoc_band_height_at(const ekoc_band *b, double o) { return o == 0.0 ? b->height_ns : b->height; }

/* The nodes of band b's path (ekoc_band_radius_at, ekoc_band_height_at) with offset o (0
 * non-singlet-like, 1 singlet-like): the trapezoidal rule in theta on
 * [0, theta_end] with m
 * intervals (m even; the rule with m/2 intervals is its even nodes), points
 * N_i, i = 0..m, and weights w_i = (trapezoid weight) N'(theta_i) / pi, so
 * that an entry is Im sum_i w_i F(N_i) (docs/physics.md §3.2). *tail is the
 * decay e^{tau_min Re N(theta_end)} left at the path's end (the share of the
 * integral the path leaves out, relative to its largest terms). Where a row of
 * the band would not decay to e^-40 by Talbot's end (a close pair of grid
 * points), the path runs on towards theta = pi until it does (or |N| = N_MAX),
 * the rule taken in s with theta = end (s + 0.95 sin(pi s) / pi): nodes graded
 * towards that end. No checks; never fails. */
void ekoc_band_nodes(const ekoc_band *b, double offset, int m, ekoc_complex *n, ekoc_complex *w, double *tail);

#endif /* EKOC_QUAD_BAND_PLAN_H */
