/* batch_plan.c: a job's elements grouped by N-space family for the
 * fixed-node drivers (quad/batch_plan.h). */
#include "quad/batch_plan.h"

#include <string.h>

#include "quad/job.h"
#include "status.h"

int ekoc_batch_plan(const ekoc_quad_job *job, ekoc_batch_family plans[2]) {
  ekoc_batch_family p[2];
  int32_t f, e;
  if (!job || !plans) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_batch_plan: NULL argument");
  memset(p, 0, sizeof p);
  if (job->n_families < 1 || job->n_families > 2)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "batch: n_families=%d outside 1..2", (int)job->n_families);
  if (job->n_elements < 0 || job->n_elements > EKOC_JOB_MAX_ELEMENTS)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "batch: n_elements=%d outside 0..%d", (int)job->n_elements,
                      EKOC_JOB_MAX_ELEMENTS);
  for (f = 0; f < job->n_families; ++f) {
    int rc = ekoc_nspace_cfg_check(&job->family[f]);
    if (rc != EKOC_OK) return rc;
    p[f].cfg = &job->family[f];
    p[f].singlet_like = ekoc_nspace_singlet_like(&job->family[f]);
    p[f].len = ekoc_nspace_tower_len(&job->family[f]);
  }
  for (e = 0; e < job->n_elements; ++e) {
    const ekoc_quad_element *el = &job->elements[e];
    ekoc_batch_family *fp;
    if (el->family < 0 || el->family >= job->n_families)
      return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "batch: element %d has family %d outside 0..%d", (int)e,
                        (int)el->family, (int)job->n_families - 1);
    fp = &p[el->family];
    if (el->element < 0 || el->element >= ekoc_nspace_family_size(fp->cfg))
      return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "batch: element %d index %d outside the family's 0..%d", (int)e,
                        (int)el->element, ekoc_nspace_family_size(fp->cfg) - 1);
    if (!el->value || !el->error)
      return ekoc_error(EKOC_ERR_NULL_POINTER, "batch: element %d has no value/error matrix", (int)e);
    fp->element[fp->n_el] = el->element;
    fp->job_el[fp->n_el] = e;
    fp->subtract[fp->n_el] = el->subtract;
    fp->n_el++;
  }
  plans[0] = p[0];
  plans[1] = p[1];
  return EKOC_OK;
}
