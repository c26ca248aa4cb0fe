/* axes.h: how much of the physics axes described by the public API
 * (include/ekoc.h: EKOC_MAX_ORDER, EKOC_MAX_QED_ORDER; ekoc_theory's
 * polarized and time_like) the library computes today. Every check that
 * refuses an axis not computed yet reads these, so landing new physics
 * changes them here and nowhere else. */
#ifndef EKOC_AD_AXES_H
#define EKOC_AD_AXES_H

/* QCD orders with anomalous dimensions in the ekore crate: LO..N3LO (N3LO
 * as eko's two approximations, docs/physics.md §5.6). */
#define EKOC_IMPLEMENTED_ORDER 4
/* OME orders (matching) the ekore crate computes: up to O(a_s^3)
 * (docs/physics.md §8.6), all of EKOC_MAX_MATCHING_ORDER (ad/matching.h). */
#define EKOC_IMPLEMENTED_MATCHING_ORDER 3
/* QED orders computed: O(a_em) and O(a_em^2) with the mixed O(a_s a_em)
 * (eko's order[1] = 1, 2; docs/physics.md §13), with iterate-exact only. */
#define EKOC_IMPLEMENTED_QED_ORDER 2
/* Polarized (helicity-difference) and time-like evolution, as eko 0.15.7
 * has them (docs/physics.md §16): LO..NNLO anomalous dimensions, polarized
 * OMEs to O(a_s^2), time-like ones at O(a_s) (eko takes the time-like
 * O(a_s^2) matching as zero, and so does ekoc); neither with QED, and not
 * both at once. */
#define EKOC_IMPLEMENTED_POLARIZED 1
#define EKOC_IMPLEMENTED_TIME_LIKE 1
#define EKOC_IMPLEMENTED_AXIS_ORDER 3             /* QCD orders with polarized or time-like */
#define EKOC_IMPLEMENTED_POLARIZED_MATCHING_ORDER 2
#define EKOC_TIME_LIKE_OME_ORDER 1                /* known; higher orders are zero (eko) */

#endif /* EKOC_AD_AXES_H */
