/* kernel_magnus_batch.h (private, host only): the ordered-exact singlet
 * kernel (ekoc_kernel_singlet_magnus, ad/kernel_singlet.h) of many points N
 * at once, for the CPU batch driver (kernel_magnus_batch.c).
 *
 * The Magnus steps are the same for every N but for the gamma^(i) they
 * combine: the couplings and weights of a step are computed once for a
 * group of points, and the matrix arithmetic runs over the group's points
 * side by side (structure of arrays), which the compiler vectorises; the
 * libm functions (exp, cos, sin) are called per point as in the scalar
 * kernel. Every point gets the operations of ekoc_kernel_singlet_magnus in
 * their order, so the result has its bits (tests/test_magnus_step.c); the
 * rare points the scalar kernel treats apart (nearly equal eigenvalues, an
 * eigenvalue gap above 300, |z^2| outside the range of the fast modulus)
 * are recomputed with its own functions. */
#ifndef EKOC_AD_KERNEL_MAGNUS_BATCH_H
#define EKOC_AD_KERNEL_MAGNUS_BATCH_H

#include <stddef.h>

#include "ad/kernel_singlet.h"

/* out[p] = ekoc_kernel_singlet_magnus(cfg, gamma + p * stride) for p < count,
 * bit for bit (cfg valid: ekoc_kernel_cfg_valid; gamma[p * stride + i],
 * i < cfg->order). No allocation. */
void ekoc_kernel_magnus_batch(const ekoc_kernel_cfg *cfg, size_t count, const ekoc_cmat2 *gamma, size_t stride,
                              ekoc_cmat2 *out);

#endif
