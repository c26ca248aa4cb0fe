/* driver.c: the helpers the quadrature drivers share (quad/driver.h). */
#include "quad/driver.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

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

void ekoc_quad_progress_init(ekoc_quad_progress *p, int (*fn)(void *, uint64_t, uint64_t), void *data,
                             uint64_t total) {
  memset(p, 0, sizeof *p);
  p->fn = fn;
  p->data = data;
  p->total = total;
  p->lock_ready = pthread_mutex_init(&p->lock, NULL) == 0;
}

void ekoc_quad_progress_destroy(ekoc_quad_progress *p) {
  if (!p || !p->lock_ready) return;
  pthread_mutex_destroy(&p->lock);
  p->lock_ready = 0;
}

int ekoc_quad_progress_row(ekoc_quad_progress *p) {
  int cancelled;
  uint64_t done;
  if (!p) return EKOC_OK;
  if (!p->fn) {
#pragma omp atomic capture
    done = ++p->done;
    (void)done;
    return EKOC_OK;
  }
  if (!p->lock_ready) /* pthread_mutex_init failed (it never does on Linux): no callback rather than a race */
    return ekoc_error(EKOC_ERR_NO_MEMORY, "progress: could not create the computation's lock");
  pthread_mutex_lock(&p->lock);
  done = ++p->done;
  if (!p->cancelled && p->fn(p->data, done, p->total) != 0) p->cancelled = 1;
  cancelled = p->cancelled;
  pthread_mutex_unlock(&p->lock);
  if (cancelled)
    return ekoc_error(EKOC_ERR_CANCELLED, "computation cancelled by the progress callback after %llu of %llu rows",
                      (unsigned long long)done, (unsigned long long)p->total);
  return EKOC_OK;
}

double ekoc_quad_clock_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int ekoc_quad_progress_poll(ekoc_quad_progress *p, double *last_s) {
  double now;
  int cancelled;
  uint64_t done;
  if (!p || !p->fn || !p->lock_ready) return EKOC_OK;
  now = ekoc_quad_clock_s();
  if (now - *last_s < EKOC_PROGRESS_POLL_S) return EKOC_OK;
  *last_s = now;
  pthread_mutex_lock(&p->lock);
  done = p->done;
  if (!p->cancelled && p->fn(p->data, done, p->total) != 0) p->cancelled = 1;
  cancelled = p->cancelled;
  pthread_mutex_unlock(&p->lock);
  if (cancelled)
    return ekoc_error(EKOC_ERR_CANCELLED, "computation cancelled by the progress callback after %llu of %llu rows",
                      (unsigned long long)done, (unsigned long long)p->total);
  return EKOC_OK;
}

int ekoc_quad_cut_error(double cut, double logx, double n_re, double n_im) {
  /* |N| ~ r / (2 (1 - u)) at the end of the path: r / (2 EKOC_QUAD_N_MAX) is
   * where it reaches the limit, and the nodes approach the end closely */
  double r = 0.4 * 16.0 / (0.1 - logx), need = r / (2.0 * EKOC_QUAD_N_MAX);
  return ekoc_error(EKOC_ERR_INVALID_ARGUMENT,
                    "request.mellin_cut=%g is too close to 0: the inversion path of x=%g reaches N=(%g, %g), "
                    "|N| above the %g up to which the anomalous dimensions are evaluated; that row needs "
                    "mellin_cut above about %.2g (eko's default: 0.05)",
                    cut, exp(logx), n_re, n_im, EKOC_QUAD_N_MAX, 2.0 * need);
}
