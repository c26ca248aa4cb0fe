/* batch_rule.h (private): the fixed quadrature rule of the batch and GPU
 * drivers (batch_rule.c).
 *
 * The upper half of the Talbot path, u in [0.5, 1-cut], is split into
 * `panels` equal panels, each integrated with the (2n+1)-point Gauss-Kronrod
 * rule, n = `points` (D. P. Laurie, Math. Comp. 66 (1997) 1133, for the
 * Kronrod extension of the Legendre Jacobi matrix; nodes and weights by
 * Golub-Welsch, G. H. Golub, J. H. Welsch, Math. Comp. 23 (1969) 221). The
 * Kronrod weights give the value; the embedded n-point Gauss rule, on every
 * other node, gives |K - G| at no extra evaluation, the main part of the
 * engine's error estimate (quad/batch_refine.h). The same pair on [-1, 1]
 * (ekoc_batch_kronrod) integrates the panels the refinement adds.
 *
 * Node count choice (perf/STATS.md, tests/test_batch.c): 1 panel, n = 36
 * (73 nodes) agrees with the adaptive driver on every element of the 14
 * LHA parts within eko's tolerance and is converged far below it, except
 * where both are limited by eko's rounding noise; rows where |K - G| cannot
 * show that (small-x singlet and matching rows) are refined.
 *
 * The Talbot pieces that do not depend on the inversion point x (theta,
 * theta cot theta, cot theta - theta / sin^2 theta) are tabulated once per
 * node, so the path point of any x costs a few multiplications
 * (ekoc_batch_path in quad/batch_math.h, bitwise equal to ekoc_talbot_point).
 */
#ifndef EKOC_QUAD_BATCH_RULE_H
#define EKOC_QUAD_BATCH_RULE_H

#include <stdint.h>

/* Largest Gauss order n per panel (2n+1 Kronrod nodes). */
#define EKOC_BATCH_MAX_POINTS 512

typedef struct ekoc_batch_rule {
  int32_t n_nodes; /* panels * (2 points + 1) */
  int32_t panels, points;
  double *u;       /* nodes in [0.5, 1-cut], ascending */
  double *w;       /* Gauss-Kronrod weights */
  double *wg;      /* weights of the embedded Gauss rule, 0 at Kronrod-only nodes */
  double *theta;   /* pi (2u - 1) */
  double *tc;      /* theta cot theta (ekoc_talbot_theta_cot_) */
  double *dj;      /* cot theta - theta / sin^2 theta (ekoc_talbot_djac_re_) */
} ekoc_batch_rule;

/* The (2n+1)-point Gauss-Kronrod rule on [-1, 1], nodes ascending: x, Kronrod
 * weights wk and the embedded n-point Gauss weights wg (0 at the n+1
 * Kronrod-only nodes, i.e. at even indices). n in 1..EKOC_BATCH_MAX_POINTS.
 * Cost O(n^2), no allocation beyond a scratch of 4(2n+1) doubles. Returns
 * EKOC_OK, EKOC_ERR_INVALID_ARGUMENT (bad n), EKOC_ERR_NO_MEMORY or
 * EKOC_ERR_NUMERICAL (the eigenvalue iteration did not converge or the
 * extension is not real); outputs are written only on success. */
int ekoc_batch_kronrod(int32_t n, double *x, double *wk, double *wg);

/* Allocates the rule of `panels` x (2 points + 1) nodes on [0.5, 1 - cut]
 * (panels >= 1, points in 1..EKOC_BATCH_MAX_POINTS, cut in [0, 0.5)).
 * On failure *out is untouched and a message is recorded. */
int ekoc_batch_rule_alloc(int32_t panels, int32_t points, double cut, ekoc_batch_rule **out);
void ekoc_batch_rule_free(ekoc_batch_rule *rule); /* NULL is fine */

#endif
