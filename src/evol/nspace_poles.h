/* nspace_poles.h (private): the truncated and perturbative singlet
 * solutions, ordered-truncated and backward-exact matchings on the N-space
 * backend (docs/physics.md §3.3).
 *
 * Those kernels (built from the U_k matrices, ad/kernel_singlet.h) have
 * spurious poles where |r_+ - r_-| = k (quad/path_radius.h): on the real
 * axis right of N = 1, and in complex pairs near N = 0. eko inverts each row
 * x_k on its own Talbot path (radius 6.4/(0.1 - ln x_k), offset 1), which
 * encloses the poles left of its crossing 1 + r_k and not the others; the
 * band paths of the N-space backend cross elsewhere. So each target block F
 * with such a pole p is split, F = (F - P_p) + P_p, P_p its principal part
 * sum_l c_l (N - p)^-(l+1) (the poles are double where U_1 appears twice):
 * the band paths invert the regular part F - P_p, which has no pole there
 * (and no spike where a path passes near one), and the residue of P_p times
 * the row's transform P_kj (x_k^-N included),
 *
 *   C_p(k, j) = sum_l a_l(k, j) c_l,   a_l the Taylor coefficients of P_kj at p,
 *
 * is added to the entries of the rows whose eko path encloses p: what eko's
 * per-row integral holds. The c_l and a_l are trapezoidal sums on a small
 * circle around p (the rule on half its nodes gives the error). Where eko's
 * crossing lies on a pole, the side it lies on decides (the one-sided
 * value). A complex pole stands for its conjugate pair (2 Re).
 *
 * A backward-exact matching's exact inverse has real poles too (where the
 * forward matrix's determinant vanishes, N ~ 12 .. 23 at NNPDF's couplings):
 * the same residues, with eko's offset 0 for the non-singlet-like blocks.
 *
 * The ordered-truncated non-singlet solution E_0 (sum_i U_i a1^i) /
 * (sum_i U_i a0^i) has poles where its denominator vanishes: above LO real
 * ones between N = 0 and 1 (0.13 and 0.27 for ns+, 0.39 for nsV at nf 4,
 * a0 = 0.025) and complex ones left of them. eko inverts the non-singlet
 * segment on its offset-0 path, which leaves such a pole out at the
 * smallest x (radius 6.4/(1 - ln x) = 0.37 at x = 1e-7): the same residues,
 * with eko's offset-0 path for every block the segment reaches.
 * Where the poles lie: nspace_pole_find.c; the rest: nspace_poles.c. */
#ifndef EKOC_EVOL_NSPACE_POLES_H
#define EKOC_EVOL_NSPACE_POLES_H

#include <stddef.h>
#include <stdint.h>

#include "evol/nspace_state.h"
#include "quad/band_plan.h"

/* The band inversions of the blocks with pole residues meet this share of
 * the request's tolerance: the residues taken off afterwards can leave an
 * entry several times smaller than the band's value (NNPDF TRN theories on a
 * 20-point grid: 9 entries flagged of 385 cards at 1, none at 0.3). */
#ifndef EKOC_POLES_BAND_TOLERANCE
#define EKOC_POLES_BAND_TOLERANCE 0.3
#endif

/* One pole (a complex one stands for itself and its conjugate). */
typedef struct ekoc_pole {
  double re, im; /* im >= 0 */
  double rho;    /* radius of the circle its residue is taken on */
  int32_t nf;    /* the segments whose singlet kernels have it */
  int32_t job;   /* -1, or the backward-exact matching whose inverse has it / the ordered-truncated
                    segment whose non-singlet denominator vanishes there */
  int32_t eko_offset; /* the offset of eko's path that encloses it or not: 1 (the singlet kernels), 0
                         (a non-singlet denominator), -1 (the block's: offset 0 for the non-singlet-like
                         blocks of a matching's inverse, 1 for the others) */
} ekoc_pole;

/* The blocks with pole q and their Laurent coefficients. */
typedef struct ekoc_pole_laurent {
  size_t n_blocks, *block; /* (t NB + a) NB + b */
  ekoc_complex *c;         /* [block][2 MAX_ORDER]: c_l from all nodes, then from the even ones */
  double *c_abs;           /* [block][MAX_ORDER]: |c_l| */
  int *top;                /* [block]: the coefficients that count in it */
  int orders;              /* the most of any block (1: simple poles) */
} ekoc_pole_laurent;

typedef struct ekoc_pole_set {
  size_t n, cap;
  ekoc_pole *pole;
  ekoc_pole_laurent *laurent;  /* [pole] (ekoc_poles_prepare) */
  unsigned char *block_has;    /* [target][a][b]: some pole's residue counts in the block */
  /* the rows' Taylor coefficients at each pole (nspace_poles.c), made by the tolerance pass of
   * ekoc_poles_correct and read by the final one: [pole] -> row k's from taylor_at[pole][k]
   * (NULL: not kept, recomputed) */
  double **taylor;
  size_t **taylor_at;
  unsigned char *taylor_ready; /* [pole]: taken from the engine's cache (quad/path_cache.h): both passes read them */
} ekoc_pole_set;

/* Whether the path N(theta) = offset + r (theta cot theta + i height theta)
 * encloses the pole re + i im (im >= 0). */
int ekoc_pole_inside(double re, double im, double offset, double radius, double height);

/* The poles of the singlet kernels of every segment of the plan, whichever
 * targets the run computes (none for methods without U_k, or LO): the real ones in (1, n_max], and,
 * when some eko or band path is narrow enough to leave one out, the complex
 * ones near N = 0; those of the backward-exact matchings' inverses and of
 * the ordered-truncated non-singlet denominators.
 * Errors: EKOC_ERR_NO_MEMORY, the crate's. */
int ekoc_poles_find(const ekoc_nspace_state *g, ekoc_pole_set *out);
/* The poles of one evolution family cfg (none unless ekoc_path_pole_orders
 * > 1) appended to *out: the real ones in (1, n_max], with_complex the
 * complex ones near N = 0 too (no circle radii: ekoc_poles_find sets them). */
int ekoc_poles_of_family(const ekoc_nspace_cfg *cfg, double n_max, int with_complex, ekoc_pole_set *out);
void ekoc_poles_free(ekoc_pole_set *s);

/* The band radii with poles (ekoc_poles_place_bands): a band path
 * encloses a real pole p only where its entries magnify the residue by at
 * most e^{(p - 1) tau_hi} <= EKOC_POLES_MAX_GROWTH against x_k^-1 (else the
 * residue that comes off would leave a small difference of large numbers:
 * at x = 1e-7, p = 1.8, a factor 4e5); otherwise its radius is lowered to
 * cross left of p, EKOC_POLES_CROSSING_SHARE of the way from 1: closer, the
 * pole's spike next to the crossing needs the bands' finest rule (theory
 * 40000000 on the fit grid: 513 nodes and 129 flagged entries at 0.9, 129
 * nodes and 2 at 0.6, 513 and 506 at 0.4, where the decay along the path is
 * slow) - but not nearer 1 than EKOC_POLES_MIN_DECAY / tau_lo, where the
 * band's slowest entries still decay by e along the path (the perturbative
 * methods' poles crowd towards N = 1.14: 298 flagged entries on a 30-point
 * card at 0.6), nor below EKOC_POLES_MIN_RADIUS. Then each crossing is
 * moved (by at most 20 % down or 10 % up) to keep EKOC_PATH_POLE_GUARD radii
 * from every real pole, where such a radius exists. */
#define EKOC_POLES_MAX_GROWTH 64.0
#define EKOC_POLES_MIN_RADIUS 0.1
#define EKOC_POLES_CROSSING_SHARE 0.6
#define EKOC_POLES_MIN_DECAY 1.0
void ekoc_poles_place_bands(const ekoc_pole_set *s, ekoc_band_plan *bp);

/* The Laurent coefficients of every target block at every pole, from the
 * targets' operators on the pole's circle (uses the state's node arrays and
 * g->tops, before the bands), and s->block_has (NULL when no pole's residue
 * counts anywhere). Errors: EKOC_ERR_NO_MEMORY, the N-space evaluation's. */
int ekoc_poles_prepare(ekoc_nspace_state *g, ekoc_pole_set *s);

/* The residue corrections above: apply = 0, to single precision into
 * g->corr (allocated for the blocks that take some), before the bands (it
 * needs the blocks' roles, g->role), so that a band's entries meet the
 * tolerance of their final values (4 bytes an entry of a pole block
 * instead of 16); apply = 1, added to the outputs (g->val, g->err) after
 * the bands. Rows on the request's threads, each row's entries written by
 * one thread (the same bits for any number). Errors: EKOC_ERR_NO_MEMORY. */
int ekoc_poles_correct(ekoc_nspace_state *g, ekoc_pole_set *s, int apply);

#endif /* EKOC_EVOL_NSPACE_POLES_H */
