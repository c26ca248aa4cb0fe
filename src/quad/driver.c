/* driver.c: the helpers the quadrature drivers share (quad/driver.h). */
#include "quad/driver.h"

#include <stdio.h>

#include "quad/interp.h"
#include "status.h"

void ekoc_quad_fatal_record(ekoc_quad_fatal *f, int status) {
#pragma omp critical(ekoc_quad_fatal)
  {
    if (f->status == EKOC_OK) {
      f->status = status;
      snprintf(f->message, sizeof f->message, "%s", ekoc_last_error());
    }
  }
}

int ekoc_quad_fatal_status(const ekoc_quad_fatal *f) {
  int status;
#pragma omp atomic read
  status = f->status;
  return status;
}

void ekoc_quad_row_init(const ekoc_quad_job *job, size_t k) {
  size_t nx = job->interp->n, j;
  int32_t e;
  for (e = 0; e < job->n_elements; ++e) {
    const ekoc_quad_element *el = &job->elements[e];
    for (j = 0; j < nx; ++j) {
      el->value[k * nx + j] = 0.0;
      el->error[k * nx + j] = 0.0;
      if (el->failed) el->failed[k * nx + j] = 0;
    }
    if (k == nx - 1) el->value[k * nx + k] = el->diagonal ? 1.0 : 0.0;
  }
}

int ekoc_quad_progress_row(ekoc_quad_progress *p) {
  int rc = EKOC_OK;
  if (!p) return EKOC_OK;
#pragma omp critical(ekoc_progress)
  {
    p->done++;
    if (!p->cancelled && p->fn && p->fn(p->data, p->done, p->total) != 0) p->cancelled = 1;
    if (p->cancelled) rc = EKOC_ERR_CANCELLED;
  }
  if (rc != EKOC_OK) return ekoc_error(rc, "computation cancelled by the progress callback after %llu of %llu rows",
                                       (unsigned long long)p->done, (unsigned long long)p->total);
  return EKOC_OK;
}
