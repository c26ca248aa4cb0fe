/* block_product.h: the product kernel of the block-sparse operators
 * (evol/blockop.h): c += op(a) op(b) for n x n row-major blocks, op the
 * identity or |.| on one side (a product's value and its two error terms).
 * The result has the bits of the plain i-k-j product on every x86-64 CPU
 * (evol/block_product.c); tests/test_block_product.c compares them. */
#ifndef EKOC_EVOL_BLOCK_PRODUCT_H
#define EKOC_EVOL_BLOCK_PRODUCT_H

#include <stddef.h>

/* kind: a b, |a| b, a |b| */
enum { EKOC_PRODUCT_PLAIN = 0, EKOC_PRODUCT_ABS_LEFT = 1, EKOC_PRODUCT_ABS_RIGHT = 2 };

typedef void (*ekoc_block_product_fn)(int kind, size_t n, const double *a, const double *b, double *c);

/* The kernel for this CPU (AVX2 where it has it, else the baseline build). */
ekoc_block_product_fn ekoc_block_product_for_cpu(void);

#endif /* EKOC_EVOL_BLOCK_PRODUCT_H */
