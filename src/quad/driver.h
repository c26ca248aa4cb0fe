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
  double rel = epsrel * fabs(v); /* fmax(epsabs, rel) without libm's call (a NaN rel gives epsabs, as fmax) */
  return rel > epsabs ? rel : epsabs;
}

/* The remainder beyond the Mellin cut (docs/physics.md §3, "The remainder
 * beyond the cut"). eko integrates u in [0.5, 1 - cut] and its error
 * estimate knows nothing of the rest of the path, which next to the diagonal
 * at small x is far above the tolerance (the basis transforms of the entries
 * next to the diagonal decay only algebraically along the path). The drivers
 * keep eko's value (the cut integral) and add the tail's integral over
 * u in [1 - cut, 1 - cut_t] (and that integral's own error estimate) to each
 * entry's stated error, so that an entry whose remainder exceeds its
 * tolerance is flagged. The tail is integrated in the variable
 * s = -ln(1 - u + EKOC_QUAD_TAIL_SHIFT) (du = e^-s ds), in which the
 * algebraically decaying integrands vary on a scale of order one.
 *
 * cut_t = EKOC_QUAD_TAIL_CUT_RATIO cut (an integrand decaying like |N|^-2,
 * the slowest, leaves 2 % of its remainder beyond it), but no closer to 1
 * than where |N| ~ r0 / (2 (1 - u)) reaches EKOC_QUAD_TAIL_N_MAX (r0: eko's
 * radius of the row; the ekore crate refuses |N| > 1e5). Returns cut_t; no
 * tail when it is not below cut. */
#define EKOC_QUAD_TAIL_SHIFT 1e-3
#define EKOC_QUAD_TAIL_CUT_RATIO 0.02
#define EKOC_QUAD_TAIL_N_MAX 2e4
static inline double ekoc_quad_tail_cut(double cut, double logx) {
  double cut_t = EKOC_QUAD_TAIL_CUT_RATIO * cut, floor_t = 0.4 * 16.0 / (0.1 - logx) / (2.0 * EKOC_QUAD_TAIL_N_MAX);
  return cut_t > floor_t ? cut_t : floor_t;
}

/* The largest |N| the anomalous dimensions and OMEs are evaluated at (the
 * ekore crate's EKORE_N_MAX), and the error a path point beyond it is
 * reported as: it can only come from a Mellin cut too close to 1 (the path
 * reaches |N| ~ r / (2 cut) at its end), so the message names
 * request.mellin_cut and its value, the row and the smallest cut that row
 * allows. Returns EKOC_ERR_INVALID_ARGUMENT. */
#define EKOC_QUAD_N_MAX 1e5
int ekoc_quad_cut_error(double cut, double logx, double n_re, double n_im);

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
