/* batch_plan.h (private): what each N-space family of a job contributes to
 * the fixed-node drivers (the CPU batch driver, quad/batch.c, and the GPU
 * backend, gpu/gpu_loader.c): its elements, checked and grouped. */
#ifndef EKOC_QUAD_BATCH_PLAN_H
#define EKOC_QUAD_BATCH_PLAN_H

#include <stdint.h>

#include "ad/nspace.h"

struct ekoc_quad_job;

/* What one family of a job contributes: the elements to invert. */
typedef struct ekoc_batch_family {
  const ekoc_nspace_cfg *cfg;
  int32_t singlet_like, len, n_el; /* len: ekoc_nspace_tower_len */
  int32_t element[EKOC_NSPACE_MAX_ELEMENTS]; /* index inside the family */
  int32_t job_el[EKOC_NSPACE_MAX_ELEMENTS];  /* index into job->elements */
  double subtract[EKOC_NSPACE_MAX_ELEMENTS];
} ekoc_batch_family;

/* Checks a job (families, element indices, output matrices) and groups its
 * elements by family into plans[0..n_families-1]. EKOC_OK or an error naming
 * the bad field; plans are written only on success. */
int ekoc_batch_plan(const struct ekoc_quad_job *job, ekoc_batch_family plans[2]);

#endif
