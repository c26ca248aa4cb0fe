/* band_transforms.h: the transforms P_j(N_i) of a range of basis functions
 * at every node of a band path (quad/band_plan.h), for the N-space
 * backend's products (quad/band_invert.h).
 *
 * The transforms of ekoc_basis_mellin_all (quad/interp.h: the stable local
 * form of docs/physics.md §4.3, eko's skip and drop rules) for a range of
 * functions, the rules at one ln x and the node exponentials relative to
 * another, computed node-major:
 * first the moments I_{a,r}(N_i) of every area of the range at every node
 * (one exponential per grid point and node), then each function's sum
 * sum_{a,r} q_{j,a,r} I_{a,r} as loops over the nodes, which the CPU runs
 * 4 or 8 nodes at a time (baseline, AVX2 and AVX-512 builds; no fused
 * multiply-adds, so the same bits on every x86-64 CPU). The sums are taken
 * area by area, term by term: not the bits of ekoc_basis_mellin_all, the
 * same values to rounding. */
#ifndef EKOC_QUAD_BAND_TRANSFORMS_H
#define EKOC_QUAD_BAND_TRANSFORMS_H

#include <stddef.h>

#include "ad/ad_math.h"
#include "quad/interp.h"

/* Scratch for the moments and the sums of up to `columns` functions at up
 * to `nodes` nodes. */
typedef struct ekoc_band_transform_scratch {
  size_t columns, nodes, areas;
  double *mom_re, *mom_im; /* [area][r][node] */
} ekoc_band_transform_scratch;

/* Returns 0 when out of memory (then *s holds nothing). */
int ekoc_band_transform_scratch_alloc(ekoc_band_transform_scratch *s, size_t columns, size_t nodes, int32_t degree);
void ekoc_band_transform_scratch_free(ekoc_band_transform_scratch *s);

/* re[c * count + i], im[...]: the transform of basis function j0 + c
 * (c < j1 - j0 <= s->columns) at node n[i] (i < count <= s->nodes), with the
 * skip and drop rules at logx_rule (-INFINITY: neither) and the node
 * exponentials relative to logx_ref. No allocation, no failure. */
void ekoc_band_transforms(const ekoc_interp *ip, size_t j0, size_t j1, const ekoc_complex *n, size_t count,
                          double logx_rule, double logx_ref, ekoc_band_transform_scratch *s, double *re, double *im);

#endif /* EKOC_QUAD_BAND_TRANSFORMS_H */
