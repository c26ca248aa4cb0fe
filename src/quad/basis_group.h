/* basis_group.h (private, host only): the basis transforms of
 * ekoc_batch_basis_all (quad/batch_math.h) for a group of path nodes at once
 * (basis_group.c), bit for bit.
 *
 * Filling the N-space cache's transforms is the largest cost of a
 * computation on a new grid (a third of a single converged NNLO VFNS run,
 * perf/STATS.md "basis transforms in groups"). Per area the work is the same
 * for every node of a row: the same skip and drop rules (they depend on x_k
 * only), the same coefficients; only N differs. So the nodes of a group are
 * held as a structure of arrays (each complex number two arrays of
 * EKOC_BASIS_GROUP doubles) and every operation of ekoc_batch_basis_all_,
 * ekoc_moments_log_ and ekoc_area_combine (quad/area_moments.h) is applied
 * lane by lane with the same operands in the same order (no FMA in either
 * build): the moments' two directions are both formed where the lanes of a
 * group take different ones and each lane keeps its own; the series runs for
 * the group's longest, a lane's chain starting (from the same +0) at its own
 * length. The node exponentials stay libm's, node by node. A linear basis
 * (x-space areas) goes node by node through ekoc_batch_basis_all. */
#ifndef EKOC_QUAD_BASIS_GROUP_H
#define EKOC_QUAD_BASIS_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "ad/ad_math.h"

/* Nodes per group. */
#define EKOC_BASIS_GROUP 4

/* Complex numbers of scratch ekoc_batch_basis_group needs for n basis
 * functions, and the alignment of that scratch in bytes (aligned_alloc: the
 * size is a multiple of it). */
#define EKOC_BASIS_GROUP_SCRATCH(n) ((size_t)EKOC_BASIS_GROUP * (size_t)(n))
#define EKOC_BASIS_GROUP_ALIGN 32

/* P_j(N_i; logx), j = 0..n-1, of the count <= EKOC_BASIS_GROUP nodes N_i
 * into out + i * out_stride: bitwise ekoc_batch_basis_all(logx_grid, table,
 * n, degree, nodes[i], logx, out + i * out_stride) for each i. scratch holds
 * EKOC_BASIS_GROUP_SCRATCH(n) complex numbers aligned to EKOC_BASIS_GROUP_ALIGN
 * bytes. No allocation, no failure. */
void ekoc_batch_basis_group(const double *logx_grid, const double *table, size_t n, int32_t degree, size_t count,
                            const ekoc_complex *nodes, double logx, ekoc_complex *out, size_t out_stride,
                            ekoc_complex *scratch);

#endif
