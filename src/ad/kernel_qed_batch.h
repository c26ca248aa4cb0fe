/* kernel_qed_batch.h (private, host only): the QED valence and singlet
 * kernels (ekoc_kernel_qed_matrix, ad/kernel_qed.h) of many points N at
 * once, for the N-space engine's values at a path's nodes
 * (ekoc_nspace_from_towers).
 *
 * A QED segment is a product of ev_op_iterations matrix exponentials (60
 * on NNPDF's cards), which took about half of a QED theory's N-space solve
 * point by point. The steps' couplings are the same for every N: here a
 * group of points runs side by side (structure of arrays, which the
 * compiler vectorises), each point getting the operations of
 * ekoc_kernel_qed_matrix in their order, with its own scaling, Taylor
 * degree and squarings (a point of the group that needs fewer waits for
 * the others): the result has the scalar kernel's bits
 * (tests/test_qed_batch.c). */
#ifndef EKOC_AD_KERNEL_QED_BATCH_H
#define EKOC_AD_KERNEL_QED_BATCH_H

#include <stddef.h>

#include "ad/kernel_qed.h"

/* For p < count: out + p * out_stride (dim * dim, row-major) =
 * ekoc_kernel_qed_matrix(order, qed_order, dim, beta, beta_mix, st, g_p)
 * bit for bit, where pair q's matrix of point p is the dim * dim numbers
 * at g + p * g_stride + q * pair_stride (the scalar kernel's g_p[q * dim *
 * dim + i] is g[p * g_stride + q * pair_stride + i]). dim 2 or 4. No
 * allocation. */
void ekoc_kernel_qed_matrix_batch(int32_t order, int32_t qed_order, int dim, const double beta[4], double beta_mix,
                                  ekoc_qed_steps st, size_t count, const ekoc_complex *g, size_t g_stride,
                                  size_t pair_stride, ekoc_complex *out, size_t out_stride);

#endif
