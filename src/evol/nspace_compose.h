/* nspace_compose.h (private): a target's operator at the nodes of one
 * inversion path, in N-space: its parts' matrices (evol/part_layout.h)
 * multiplied along its path, later parts on the left, with the basis
 * rotation after each forward matching and before each backward one — the
 * products evol/compose.c takes of the x-space parts, taken here node by
 * node before a single inversion (docs/physics.md §3.2). Besides the values
 * every block carries two constants composed the same way: its limit at
 * large N (inverted apart, added back as lim delta_kj) and its value at the
 * (x = 1, x = 1) corner (eko's initial values). */
#ifndef EKOC_EVOL_NSPACE_COMPOSE_H
#define EKOC_EVOL_NSPACE_COMPOSE_H

#include <stddef.h>

#include "ad/ad_math.h"
#include "evol/basis.h"
#include "evol/plan.h"

/* An operator at `count` nodes: block (a, b) is the array v[a][b] of count
 * values, or, where v[a][b] is NULL, the constant k[a][b] at every node (0:
 * the block is absent). An array block also carries the sizes of its terms,
 * size[a][b][i] >= |v[a][b][i]|: the parts' |values| composed with |.| at
 * every product and rotation, so that a value that cancels in the
 * composition still has the scale of its rounding. */
typedef struct ekoc_nsop {
  size_t count;
  ekoc_complex *v[EKOC_NB][EKOC_NB]; /* owned, with size[a][b] in the same allocation */
  double *size[EKOC_NB][EKOC_NB];
  double k[EKOC_NB][EKOC_NB];
  double lim[EKOC_NB][EKOC_NB];
  double corner[EKOC_NB][EKOC_NB];
} ekoc_nsop;

/* An all-zero operator at count nodes. */
void ekoc_nsop_init(ekoc_nsop *op, size_t count);
void ekoc_nsop_clear(ekoc_nsop *op);

/* Part j's operator from its families' values at the nodes: values[f] holds
 * [count][ekoc_nspace_family_size(&j->family[f])] elements of family f (NULL
 * for a family left out), lim_e[e] the large-N limit of element e of the
 * part's list (ekoc_part_elements), and where constant_e[e] (may be NULL)
 * the element's value at every N: it becomes a constant block. The elements
 * with skip_e[e] != 0 are left out (skip_e NULL: none), e.g. those singular
 * at N = 1 for the paths that do not enclose that pole. A unity part
 * (j->unity) takes no values. Returns 0 when out of memory. */
int ekoc_nsop_part(const ekoc_plan_job *j, int unified, const ekoc_complex *const values[2], const double *lim_e,
                   const unsigned char *constant_e, const unsigned char *skip_e, ekoc_nsop *out);

/* *cur = the operator of target t of plan p: parts[job] are the parts'
 * operators (from ekoc_nsop_part), composed along the target's steps. *cur
 * must be initialised; its blocks are replaced. Returns 0 when out of memory. */
int ekoc_nsop_target(const ekoc_plan *p, size_t t, const ekoc_nsop *parts, ekoc_nsop *cur);

/* How many first steps targets t and u of plan p share (the same parts in
 * the same order): their products up to there are the same. */
int ekoc_plan_common_steps(const ekoc_plan *p, size_t t, size_t u);

/* ekoc_nsop_target resumed after `done` steps: *cur holds the product of
 * target t's first `done` steps (another target's with those steps in
 * common, ekoc_plan_common_steps), and the remaining ones are applied the
 * same way, so the result has the same bits as ekoc_nsop_target's. With
 * keep_after in [done, n_steps], *kept (initialised) receives a copy of
 * the product after keep_after steps: the start of a target sharing them
 * (0: nothing kept). Returns 0 when out of memory. */
int ekoc_nsop_target_resume(const ekoc_plan *p, size_t t, const ekoc_nsop *parts, int done, int keep_after,
                            ekoc_nsop *kept, ekoc_nsop *cur);

/* tops[t] = the operator of target t0 + t of plan p for every t < nt with
 * active[t] (the others left as they are; tops initialised), as
 * ekoc_nsop_target makes it and with its bits, each from the product of the
 * steps it shares with the previous active target (targets ordered by scale
 * share their path below the last threshold): fewer products. Returns 0
 * when out of memory. */
int ekoc_nsop_targets(const ekoc_plan *p, size_t t0, size_t nt, const unsigned char *active, const ekoc_nsop *parts,
                      size_t count, ekoc_nsop *tops);

/* *out = the operator at the nodes of a rule with twice the intervals: node
 * 2i from even's node i, node 2i + 1 from odd's node i (even->count ==
 * odd->count + 1; both of one target, so their constants, limits and
 * corners are the same). *out must be initialised; its blocks are replaced.
 * Returns 0 when out of memory. */
int ekoc_nsop_interleave(const ekoc_nsop *even, const ekoc_nsop *odd, ekoc_nsop *out);

#endif /* EKOC_EVOL_NSPACE_COMPOSE_H */
