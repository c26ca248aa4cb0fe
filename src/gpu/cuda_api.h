/* cuda_api.h (private): the interface between libekoc (src/gpu/gpu_loader.c)
 * and libekoc_cuda.so (src/gpu/ekoc_cuda.cu), which libekoc loads at run
 * time with dlopen. Plain C structs of numbers and pointers, no CUDA types,
 * so libekoc builds without the CUDA toolkit. libekoc_cuda.so exports one
 * symbol, ekoc_cuda_entry, returning the function table below; the loader
 * refuses a table whose abi_version differs from EKOC_CUDA_ABI_VERSION.
 *
 * Division of work (batch driver on a device, same math as src/quad/batch.c):
 * the host fetches the anomalous-dimension / OME towers from ekore for every
 * (row k, node m) and hands them over; the device evaluates the family
 * elements E(N) and the node weights, the basis transforms P_j(N) and the
 * reductions O_kj = sum_m Im(P_j W_m) of every element, and writes the
 * complete nx x nx value and error matrices with eko's conventions (x = 1
 * row, corner), as ekoc_quad_run_batch does.
 */
#ifndef EKOC_GPU_CUDA_API_H
#define EKOC_GPU_CUDA_API_H

#include <stddef.h>
#include <stdint.h>

#include "ekoc.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EKOC_CUDA_ABI_VERSION 4 /* 4: ekoc_nspace_config (in the jobs) grew physics */
#define EKOC_CUDA_MSG_LEN 256

/* One family of a job. */
typedef struct ekoc_cuda_family {
  ekoc_nspace_config cfg;
  int32_t tower_len;           /* ekoc_nspace_tower_len(&cfg) */
  int32_t n_el;                /* elements to invert, 0..9 */
  int32_t element[9];          /* index inside the family */
  int32_t diagonal[9];         /* value 1 at the (x=1, x=1) corner */
  double subtract[9];          /* constant removed before inversion, added back on the diagonal */
  const ekoc_complex *tower;   /* host, [k][m][tower_len]; rows that are not computed may hold anything */
  const uint8_t *row_active;   /* host, [k]: 1 if row k is inverted (x_k < 1 and some basis reaches it) */
  const double *radius;        /* host, [k]: the Talbot radius of row k's path (quad/path_radius.h) */
  double *value[9], *error[9]; /* host outputs, nx*nx row-major [k][j], written completely */
} ekoc_cuda_family;

/* Signature of the profile callbacks (ekoc_profile_store / ekoc_profile_now_ns). */
typedef int (*ekoc_cuda_store_fn)(void *profile, const char *name, uint64_t start_ns, uint64_t end_ns);
typedef uint64_t (*ekoc_cuda_now_fn)(const void *profile);

typedef struct ekoc_cuda_job {
  /* interpolation basis (fields of struct ekoc_interp) */
  size_t nx;
  int32_t degree;
  const double *logx;         /* nx */
  const double *table;        /* EKOC_BATCH_TABLE_LEN(nx, degree): area-major coefficients (ekoc_batch_area_table) */
  /* the rule (quad/batch_rule.h) */
  int32_t n_nodes;
  const double *w, *wg, *theta, *tc, *dj; /* n_nodes each */
  int32_t n_families;
  ekoc_cuda_family family[2];
  /* the computation's node timer: device stages are stored on its timeline */
  void *profile;
  ekoc_cuda_store_fn profile_store;
  ekoc_cuda_now_fn profile_now;
  const char *label;          /* prefix of the stage names, e.g. "gpu" */
} ekoc_cuda_job;

/* Result of the E(N) throughput benchmark. */
typedef struct ekoc_cuda_bench {
  double kernel_ms;      /* device time of the E(N) kernel (CUDA events) */
  double h2d_ms;         /* device time of the tower upload */
  double checksum;       /* sum of Re E_0 over all points (keeps the work alive) */
} ekoc_cuda_bench;

typedef struct ekoc_cuda_api {
  int32_t abi_version;
  /* Number of usable CUDA devices and the first one's name; 0 with a reason
   * in msg when there is none (no driver, no device). Returns EKOC_OK. */
  int (*device_info)(int *count, char *name, size_t name_len, char *msg, size_t msg_len);
  /* A device context (stream, events, device buffers grown on demand and
   * kept until ctx_free). One per thread. */
  int (*ctx_new)(void **ctx, char *msg, size_t msg_len);
  void (*ctx_free)(void *ctx);
  /* Runs a job; EKOC_OK, or an ekoc status with msg set (EKOC_ERR_NO_DEVICE
   * for CUDA failures, EKOC_ERR_NUMERICAL for a singular matching matrix). */
  int (*run)(void *ctx, const ekoc_cuda_job *job, char *msg, size_t msg_len);
  /* E(N) of family cfg at n_points points, point p using tower p % n_towers
   * (n_towers x tower_len complex, host); out (may be NULL) receives the
   * first min(n_out, n_points) points' family values (9 complex each). */
  int (*bench_family)(void *ctx, const ekoc_nspace_config *cfg, const ekoc_complex *towers, size_t n_towers,
                      size_t n_points, ekoc_complex *out, size_t n_out, ekoc_cuda_bench *res, char *msg,
                      size_t msg_len);
} ekoc_cuda_api;

/* The one symbol of libekoc_cuda.so. */
const ekoc_cuda_api *ekoc_cuda_entry(void);
typedef const ekoc_cuda_api *(*ekoc_cuda_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
