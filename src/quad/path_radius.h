/* path_radius.h (private, host only): the Talbot radius of one row's
 * inversion path, moved off the poles of the truncated singlet solutions.
 *
 * The singlet kernels built from the U_k matrices (truncated, ordered-
 * truncated, perturbative-exact and -expanded; ad/kernel_singlet.h) divide by
 * k + r_- - r_+ and k + r_+ - r_- (k = 1..K-1; K = the QCD order for the
 * truncated kernels, ev_op_max_order for the perturbative ones), r_+- the
 * eigenvalues of gamma^(0)/beta_0. Where |r_+ - r_-| = k the kernel has a
 * pole of small residue (the pole of U_k almost cancels against E_0; NNLO,
 * nf = 5, k = 2: N = 1.5349, residue 2.8e-4 on |E| ~ 2). Right of N = 1
 * these poles lie on the real axis (docs/physics.md §3.1), so eko's Talbot
 * path, which meets the real axis only at N = 1 + r(x), passes close to one
 * there only when that crossing does: on NNPDF's fit grid the row at x =
 * 7.04e-6 crosses 1e-5 from the pole above, and no quadrature rule resolves
 * the spike that leaves. Others lie off the axis near N = 0 and the negative
 * integers (below).
 *
 * Where the crossing lies within EKOC_PATH_POLE_GUARD r of a pole, the
 * crossing radius is moved until it lies that far from it, on the same side,
 * and kept only when no pole was swept on the way, on the axis or off it.
 * Only the path next to the axis moves: away from it the moved path returns
 * to eko's radius (ekoc_talbot_point_moved, quad/talbot.h), so both ends of
 * eko's range [1/2, 1 - cut] are eko's points and, no singularity lying
 * between the two paths, the entries are eko's integral on eko's path,
 * computed where the integrand is smooth. (A whole Talbot path of the new
 * radius is not: next to the diagonal the part beyond the Mellin cut is far
 * from negligible, and such a path changed eko's entries by up to 40 %;
 * docs/physics.md §3.1.) When no such radius exists (poles closer than twice
 * the guard, or a move among the radii of the complex poles), the row keeps
 * eko's radius and the drivers flag its entries.
 */
#ifndef EKOC_QUAD_PATH_RADIUS_H
#define EKOC_QUAD_PATH_RADIUS_H

#include "ad/nspace.h"

/* The poles |r_+ - r_-| = k off the real axis (near N = 0, -1.8, -2.5, ...;
 * e.g. k = 1, nf = 5 at N = -0.050 +- 0.884 i) are enclosed by the paths of
 * radius above their r* (the radius whose path passes through them): at most
 * 0.3772 (nf = 6, k = 1; a Newton scan of nf 3..6, k 1..9, the unpolarised,
 * polarised and time-like LO singlet over -9 < Re N < 3, 0 < Im N < 4, r*
 * falling with k; a scan of 1 < Re N < 12, Im N < 30 found real roots only;
 * docs/physics.md §3.1). A move between radii above this bound
 * sweeps none of them; a row that would move below it is flagged instead
 * (moving there changed entries by up to 12 %). */
#define EKOC_PATH_COMPLEX_POLE_RADIUS 0.40

/* Distance, in units of r, that a path crossing keeps from a pole: at 0.05
 * the batch engine's estimate still missed a row 0.093 r from one by 21x
 * (perturbative, K = 10; tests/test_engine_property.c). */
#define EKOC_PATH_POLE_GUARD 0.1

typedef enum ekoc_path_status {
  EKOC_PATH_TALBOT = 0,    /* eko's radius: no pole near the crossing (or none in this kernel) */
  EKOC_PATH_MOVED = 1,     /* radius moved off a pole */
  EKOC_PATH_UNRESOLVED = 2 /* a pole within the guard and no room to move: flag the row */
} ekoc_path_status;

/* Whether family cfg's kernel has the U_k poles (evolution singlet, order >= 2,
 * a U-based method): the largest k + 1 (K), or 0 when it has none. */
int ekoc_path_pole_orders(const ekoc_nspace_cfg *cfg);

/* The discriminant (gamma_qq - gamma_gg)^2 + 4 gamma_qg gamma_gq of the LO
 * singlet family lo (order 1) at the count points n_re + i n_im: (r_+ -
 * r_-)^2 beta_0^2, whose values k^2 beta_0^2 are the U_k poles (also
 * evol/nspace_poles.c, off the real axis). tower holds 4 count values,
 * scratch EKOC_NSPACE_TOWER_SCRATCH(count) doubles. Returns EKOC_OK or the
 * crate's error. */
int ekoc_path_discriminant(const ekoc_nspace_cfg *lo, size_t count, const double *n_re, const double *n_im,
                           double *scratch, ekoc_complex *tower, ekoc_complex *disc);

/* The radius of row ln x = logx for family cfg (where its path crosses the
 * real axis, quad/talbot.h) into *radius and what was done
 * into *status. Families without the poles get ekoc_talbot_radius(logx) at no
 * cost. Evaluates gamma^(0) at a few real N through the ekore crate (no
 * allocation). Returns EKOC_OK or the crate's error. */
int ekoc_path_radius(const ekoc_nspace_cfg *cfg, double logx, double *radius, ekoc_path_status *status);

#endif
