/* batch_nodes.h (private): the fixed quadrature rule of the batch and GPU
 * drivers: `panels` equal panels on [0.5, 1-cut], each with `points`
 * Gauss-Legendre nodes (GSL's glfixed tables). */
#ifndef EKOC_QUAD_BATCH_NODES_H
#define EKOC_QUAD_BATCH_NODES_H

#include <stdint.h>

/* Writes panels*points nodes u and weights w. Returns EKOC_OK or EKOC_ERR_NO_MEMORY. */
int ekoc_batch_nodes_fill(int32_t panels, int32_t points, double cut, double *u, double *w);

#endif
