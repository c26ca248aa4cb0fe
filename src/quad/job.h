/* job.h (private): a set of operator elements inverted on one x grid, the
 * unit of work of the quadrature drivers (adaptive GSL and fixed-node batch).
 *
 * A job holds one or two N-space families (non-singlet and singlet, which use
 * different inversion paths) and the elements to integrate. For every element
 * the driver fills an nx*nx matrix, row-major [k][j] = (target x_k, basis j),
 * with eko's conventions: the row of x_k = 1 vanishes, and its corner
 * (k = j = nx-1) keeps the initial value (1 on diagonal elements, else 0).
 */
#ifndef EKOC_QUAD_JOB_H
#define EKOC_QUAD_JOB_H

#include <stddef.h>
#include <stdint.h>

#include <pthread.h>

#include "ekoc.h"

struct ekoc_interp;

#define EKOC_JOB_MAX_ELEMENTS 24 /* a QED segment: 8 non-singlet + 16 singlet */

typedef struct ekoc_quad_element {
  int32_t family;  /* index into ekoc_quad_job.family */
  int32_t element; /* index inside the family */
  int32_t diagonal; /* initial value 1 at the (x=1, x=1) corner */
  double subtract;  /* constant taken out of the N-space element before the inversion and
                       added back exactly as subtract * delta_kj (identity part of a matching) */
  double *value;   /* nx*nx, written by the driver */
  double *error;   /* nx*nx, written by the driver */
  uint8_t *failed; /* nx*nx flags set where the quadrature missed its tolerance, or NULL */
} ekoc_quad_element;

typedef struct ekoc_quad_job {
  const struct ekoc_interp *interp;
  int32_t n_families;
  ekoc_nspace_config family[2];
  int32_t n_elements;
  ekoc_quad_element elements[EKOC_JOB_MAX_ELEMENTS];
} ekoc_quad_job;

/* Progress of a computation over all its parts (rows done / total); the
 * drivers count rows with ekoc_quad_progress_row (quad/driver.h). The lock
 * belongs to this computation alone: its callback is serialised against its
 * own rows only, so no computation ever waits on another's callback, and a
 * callback may itself start a computation. Set up with
 * ekoc_quad_progress_init, released with ekoc_quad_progress_destroy. */
typedef struct ekoc_quad_progress {
  int (*fn)(void *data, uint64_t done, uint64_t total); /* may be NULL */
  void *data;
  uint64_t done, total;
  int32_t cancelled;
  int32_t lock_ready;
  pthread_mutex_t lock; /* serialises fn and the count when fn is set */
} ekoc_quad_progress;

/* Driver settings (eko's defaults: epsabs 1e-12, epsrel 1e-5, limit 100, cut 0.05). */
typedef struct ekoc_quad_settings {
  double epsabs, epsrel, cut;
  size_t limit;
  int32_t n_threads;     /* 0: OpenMP's default */
  int32_t batch_panels;  /* batch driver: equal panels on [0.5, 1-cut] */
  int32_t batch_points;  /* batch driver: n Gauss points per panel (2n+1 Gauss-Kronrod nodes) */
  ekoc_quad_progress *progress; /* may be NULL */
  ekoc_profile *profile;        /* the computation's node timer, may be NULL (GPU stages record here) */
  ekoc_nspace_cache *nspace_cache; /* batch driver: N-space values kept between parts, may be NULL;
                                     bound by the caller (quad/nspace_cache.h) */
  int32_t skip_cut_remainder; /* 1: the stated errors leave out the remainder beyond the cut (quad/driver.h);
                                 only for tests of the quadrature of [0.5, 1 - cut] itself */
} ekoc_quad_settings;

/* The adaptive driver: one GSL QAGS integral per (k, j, element), threads over
 * k with one workspace each. Elements whose integral misses the tolerance are
 * flagged and counted in *n_failed (their estimate is still stored). Returns
 * EKOC_OK, or the first fatal error (bad N-space evaluation, no memory). */
int ekoc_quad_run_adaptive(const ekoc_quad_job *job, const ekoc_quad_settings *s, size_t *n_failed);

/* The batch driver: fixed Gauss-Legendre nodes per target point, every family
 * evaluated once per node and reused for all basis functions and elements. */
int ekoc_quad_run_batch(const ekoc_quad_job *job, const ekoc_quad_settings *s, size_t *n_failed);
/* The same for n_jobs jobs on one grid at once, n_failed[i] per job: threads
 * take whole rows and run every job's row k in turn, so that the row's basis
 * transforms (the largest values the integrals read, quad/nspace_cache.h)
 * are read while they are in cache. Each entry has the bits it gets alone. */
int ekoc_quad_run_batch_jobs(const ekoc_quad_job *const *jobs, size_t n_jobs, const ekoc_quad_settings *s,
                             size_t *n_failed);

/* The batch work on a CUDA device through libekoc_cuda.so (src/gpu). Returns
 * EKOC_ERR_NO_DEVICE with a message saying why when the library or a device
 * is missing. */
int ekoc_quad_run_gpu(const ekoc_quad_job *job, const ekoc_quad_settings *s, size_t *n_failed);

#endif
