/* driver.h (private): what the quadrature drivers (adaptive, batch, gpu)
 * share around their row loops (driver.c): the reset of a row to eko's
 * conventions, the first fatal error of a parallel region, and the progress
 * count. */
#ifndef EKOC_QUAD_DRIVER_H
#define EKOC_QUAD_DRIVER_H

#include <math.h>
#include <stddef.h>

#include "quad/job.h"

/* Row k of every element reset with eko's conventions: zero values, errors
 * and flags, and the (x=1, x=1) corner at its initial value. */
void ekoc_quad_row_init(const ekoc_quad_job *job, size_t k);

/* The first fatal error of a parallel region, carried back to the calling
 * thread (ekoc_last_error is thread-local): ekoc_quad_fatal_record copies the
 * recording thread's message once, ekoc_quad_fatal_status reads the status
 * (drivers stop early once it is set). */
typedef struct ekoc_quad_fatal {
  int status;
  char message[256];
} ekoc_quad_fatal;
void ekoc_quad_fatal_record(ekoc_quad_fatal *f, int status);
int ekoc_quad_fatal_status(const ekoc_quad_fatal *f);

/* A computation's progress count (quad/job.h): fn (may be NULL) and data as
 * the request's, `total` rows; destroy releases its lock. */
void ekoc_quad_progress_init(ekoc_quad_progress *p, int (*fn)(void *, uint64_t, uint64_t), void *data,
                             uint64_t total);
void ekoc_quad_progress_destroy(ekoc_quad_progress *p);

/* Counts one finished row; returns EKOC_ERR_CANCELLED (with a message) when
 * the callback asks to stop. Thread-safe: with a callback the count and the
 * call are serialised by the computation's own lock, without one the count is
 * atomic and nothing waits. */
int ekoc_quad_progress_row(ekoc_quad_progress *p);

/* The tolerance an entry of value v must meet, as GSL's QAGS defines it:
 * max(epsabs, epsrel |v|). The drivers flag an entry whose error is above it. */
static inline double ekoc_quad_tolerance(double epsabs, double epsrel, double v) {
  return fmax(epsabs, epsrel * fabs(v));
}

/* Seconds between two polls of the callback inside one long row. */
#define EKOC_PROGRESS_POLL_S 0.2

/* Inside a row: when a callback is set and EKOC_PROGRESS_POLL_S have passed
 * since *last_s (the caller's monotonic clock mark, updated), calls it with
 * the unchanged count so that a cancellation (Ctrl-C from Python) is seen
 * within a fraction of a second however long a row takes. Returns
 * EKOC_ERR_CANCELLED once the computation is cancelled, else EKOC_OK. */
int ekoc_quad_progress_poll(ekoc_quad_progress *p, double *last_s);

/* The monotonic clock in seconds (for ekoc_quad_progress_poll's mark). */
double ekoc_quad_clock_s(void);

#endif
