/* batch_host.h (private): the batch engine's error control for base-rule
 * values computed elsewhere (batch_host.c): the GPU backend computes the
 * base rule on the device (gpu/ekoc_cuda.cu), then runs here, on the host,
 * the same probes, estimate, refinement and flags as the CPU batch driver
 * (quad/batch_refine.h). With base values equal to the CPU's (the device
 * code is compiled with --fmad=false for that), values, errors and flags
 * equal the CPU batch driver's bit for bit (tests/test_batch_engine.c).
 */
#ifndef EKOC_QUAD_BATCH_HOST_H
#define EKOC_QUAD_BATCH_HOST_H

#include <stddef.h>

#include "ad/nspace.h"
#include "quad/batch_rule.h"
#include "quad/job.h"

/* The element matrices of job hold what the device writes (cuda_api.h):
 * every entry, the base rule's Kronrod value with the subtracted constant
 * back on the diagonal, and |K - G| as the error. Replaces them, row by row
 * (threads over rows), with the engine's values and errors, sets the failure
 * flags and counts the failed entries into *n_failed. rule is the base rule
 * the values came from, towers[f] (may be NULL) family f's towers at its
 * nodes, [k][m][len], as staged for the device. Returns EKOC_OK or the first
 * error (memory, ekore, a non-finite entry, cancellation). */
int ekoc_batch_host_finish(const ekoc_quad_job *job, const ekoc_quad_settings *s, const ekoc_batch_rule *rule,
                           const ekoc_complex *const towers[2], size_t *n_failed);

/* What the device writes for job, computed on the CPU with the same
 * functions (the tests' stand-in for a device): values and |K - G| of the
 * base rule, eko's x = 1 row and corner. */
int ekoc_batch_host_base(const ekoc_quad_job *job, const ekoc_quad_settings *s, const ekoc_batch_rule *rule);

#endif
