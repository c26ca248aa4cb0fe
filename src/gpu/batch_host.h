/* batch_host.h (private): host side of the batch inversion shared by the CPU
 * batch driver and the GPU loader: the per-N inputs (anomalous-dimension and
 * OME towers) fetched from the ekore crate in batches. */
#ifndef EKOC_GPU_BATCH_HOST_H
#define EKOC_GPU_BATCH_HOST_H

#include <stddef.h>

#include "gpu/batch_device.h"

/* Doubles of scratch ekoc_batch_towers needs for `count` points. */
#define EKOC_BATCH_TOWER_SCRATCH(count) (2 * (size_t)(count) * EKOC_BD_MAX_TOWER)

/* Fills tower[p * len + t] (len = ekoc_bd_tower_len(cfg)) for the `count`
 * points N_p = n_re[p] + i n_im[p] of family cfg, the layout ekoc_bd_family
 * reads: one ekore batch call per non-singlet mode (modes equal at the
 * order, PHYSICS.md §1.3, are copied as in ekoc_nspace_eval), one for the
 * singlet, one OME call per point for matchings. `scratch` holds
 * EKOC_BATCH_TOWER_SCRATCH(count) doubles. No allocation. Returns EKOC_OK or
 * EKOC_ERR_ANOMALOUS_DIMENSION with ekore's message (tower then undefined). */
int ekoc_batch_towers(const ekoc_nspace_cfg *cfg, size_t count, const double *n_re, const double *n_im,
                      double *scratch, ekoc_complex *tower);

#endif
