/* ekoc_cuda.cu: libekoc_cuda.so, the batch inversion on a CUDA device.
 *
 * Loaded at run time by libekoc (src/gpu/gpu_loader.c) through the one
 * exported symbol ekoc_cuda_entry (interface: src/gpu/cuda_api.h). The math is
 * the host+device code of src/ad/nspace.h (E(N) from a tower),
 * src/quad/batch_math.h and src/quad/interp.h, i.e. exactly what the CPU
 * batch driver runs, called through the per-thread bodies of
 * src/quad/batch_kernels.h; only the launch code below is GPU-only. Compiled with --fmad=false so that the
 * device does the host's operation sequence; results then differ from the CPU
 * batch driver only through the device's libm (exp, sin, cos, log, atan2,
 * hypot: <= 2 ulp), see perf/gpu_check.sh for how that is bounded.
 *
 * Per family of a job (rows k = target points, nodes m of the rule):
 *   k_family  (k, m): path point, E(N) from the staged tower, weights W, W_gauss;
 *   k_basis   (k, m): all basis transforms P_j(N_m; x_k) into a buffer;
 *   k_reduce  (k, j): O_kj = sum_m Im(P_j W_m) for every element, in node
 *                     order (as the CPU), and the Gauss sum for the error.
 * Rows are processed in chunks so that the P buffer stays below 256 MiB.
 * Device buffers live in the context and grow on demand (stream-ordered
 * allocator, pool kept): no allocation per row or node.
 */
#include <cuda_runtime.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ad/nspace.h"
#include "gpu/cuda_api.h"
#include "quad/batch_kernels.h"
#include "quad/batch_math.h"

namespace {

enum { B_LOGX, B_TABLE, B_RULE, B_TOWER, B_ACTIVE, B_RADIUS, B_W, B_STATUS, B_P, B_OUT, B_BENCH, B_SUM, N_BUF };
enum { N_EVENTS = 12 };
const size_t P_BUDGET = (size_t)256 << 20;

struct ctx_t {
  int device;
  cudaStream_t stream;
  cudaEvent_t ev[N_EVENTS];
  void *buf[N_BUF];
  size_t cap[N_BUF];
};

typedef ekoc_batch_family_args family_args;

int fail(int status, char *msg, size_t len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (msg && len) vsnprintf(msg, len, fmt, ap);
  va_end(ap);
  return status;
}

int cuda_fail(cudaError_t err, const char *what, char *msg, size_t len) {
  return fail(err == cudaErrorMemoryAllocation ? EKOC_ERR_NO_MEMORY : EKOC_ERR_NO_DEVICE, msg, len,
              "CUDA: %s failed: %s (%s)", what, cudaGetErrorName(err), cudaGetErrorString(err));
}

#define CK(call)                                                \
  do {                                                          \
    cudaError_t err_ = (call);                                  \
    if (err_ != cudaSuccess) return cuda_fail(err_, #call, msg, msg_len); \
  } while (0)

/* Makes buffer i hold at least `bytes` (stream-ordered, outside any loop). */
int ensure(ctx_t *c, int i, size_t bytes, char *msg, size_t msg_len) {
  if (bytes <= c->cap[i]) return EKOC_OK;
  if (c->buf[i]) CK(cudaFreeAsync(c->buf[i], c->stream));
  c->buf[i] = NULL;
  c->cap[i] = 0;
  CK(cudaMallocAsync(&c->buf[i], bytes, c->stream));
  c->cap[i] = bytes;
  return EKOC_OK;
}

__global__ void k_family(family_args fa, size_t nx, int32_t nodes, const double *logx, const double *radius,
                         const double *rule, const ekoc_complex *tower, const uint8_t *active, ekoc_complex *wbuf,
                         int *status) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < nx * (size_t)nodes)
    ekoc_batch_thread_family(&fa, idx, nodes, logx, radius, rule, tower, active, wbuf, status);
}

__global__ void k_basis(size_t k0, size_t rows, size_t nx, int32_t degree, int32_t nodes, int singlet_like,
                        const double *logx, const double *radius, const double *table, const double *rule,
                        const uint8_t *active, ekoc_complex *p) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < rows * (size_t)nodes)
    ekoc_batch_thread_basis(idx, k0, nx, degree, nodes, singlet_like, logx, radius, table, rule, active, p);
}

__global__ void k_reduce(family_args fa, size_t k0, size_t rows, size_t nx, int32_t degree, int32_t nodes,
                         const double *logx,
                         const double *rule, const uint8_t *active, const ekoc_complex *wbuf, const ekoc_complex *p,
                         double *out) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < rows * nx) ekoc_batch_thread_reduce(&fa, idx, k0, nx, degree, nodes, logx, rule, active, wbuf, p, out);
}

__global__ void k_bench(ekoc_nspace_config cfg, int32_t len, const ekoc_complex *towers, size_t n_towers,
                        size_t n_points, ekoc_complex *out, size_t n_out, double *sum) {
  size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  ekoc_complex vals[EKOC_NSPACE_MAX_ELEMENTS];
  int e, size;
  double s = 0.0;
  if (p < n_points) {
    size = ekoc_nspace_family_size(&cfg);
    if (ekoc_nspace_from_tower(&cfg, towers + (p % n_towers) * (size_t)len, vals)) {
      s = vals[0].re;
      if (p < n_out)
        for (e = 0; e < size; ++e) out[p * EKOC_NSPACE_MAX_ELEMENTS + e] = vals[e];
    } else {
      s = NAN;
    }
  }
  /* block sum, then one atomic per block (a checksum only: order does not matter) */
  for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, s);
}

unsigned blocks_for(size_t n, unsigned threads) { return (unsigned)((n + threads - 1) / threads); }

/* ---- the exported table ---------------------------------------------------------- */

int api_device_info(int *count, char *name, size_t name_len, char *msg, size_t msg_len) {
  int n = 0;
  cudaError_t err = cudaGetDeviceCount(&n);
  if (name && name_len) name[0] = '\0';
  if (err != cudaSuccess) {
    *count = 0;
    fail(EKOC_OK, msg, msg_len, "cudaGetDeviceCount: %s (%s)", cudaGetErrorName(err), cudaGetErrorString(err));
    return EKOC_OK;
  }
  *count = n;
  if (n == 0) {
    fail(EKOC_OK, msg, msg_len, "cudaGetDeviceCount reports 0 devices");
    return EKOC_OK;
  }
  if (name && name_len) {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
      snprintf(name, name_len, "%s (sm_%d%d, %.0f GiB)", prop.name, prop.major, prop.minor,
               prop.totalGlobalMem / 1073741824.0);
  }
  return EKOC_OK;
}

void api_ctx_free(void *vc) {
  ctx_t *c = (ctx_t *)vc;
  int i;
  if (!c) return;
  for (i = 0; i < N_BUF; ++i)
    if (c->buf[i]) cudaFreeAsync(c->buf[i], c->stream);
  if (c->stream) cudaStreamSynchronize(c->stream);
  for (i = 0; i < N_EVENTS; ++i)
    if (c->ev[i]) cudaEventDestroy(c->ev[i]);
  if (c->stream) cudaStreamDestroy(c->stream);
  free(c);
}

int api_ctx_new(void **out, char *msg, size_t msg_len) {
  ctx_t *c = (ctx_t *)calloc(1, sizeof(ctx_t));
  cudaMemPool_t pool;
  uint64_t keep = UINT64_MAX;
  int i, rc = EKOC_OK;
  cudaError_t err;
  if (!c) return fail(EKOC_ERR_NO_MEMORY, msg, msg_len, "ekoc_cuda: out of host memory for a context");
  c->device = 0;
  err = cudaSetDevice(0);
  if (err == cudaSuccess) err = cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking);
  for (i = 0; err == cudaSuccess && i < N_EVENTS; ++i) err = cudaEventCreate(&c->ev[i]);
  /* keep freed blocks in the device's default pool: later jobs reuse them */
  if (err == cudaSuccess && cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess)
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  if (err != cudaSuccess) {
    rc = cuda_fail(err, "context setup (cudaSetDevice/cudaStreamCreate/cudaEventCreate)", msg, msg_len);
    api_ctx_free(c);
    return rc;
  }
  *out = c;
  return EKOC_OK;
}

/* Device stage (ev[a] -> ev[b]) stored on the host timeline anchored at ev[0]. */
void store_stage(const ekoc_cuda_job *job, ctx_t *c, uint64_t anchor, int a, int b, const char *what, int fam) {
  float ms_a = 0.0f, ms_b = 0.0f;
  char name[64];
  if (!job->profile || !job->profile_store) return;
  if (a > 0 && cudaEventElapsedTime(&ms_a, c->ev[0], c->ev[a]) != cudaSuccess) return;
  if (cudaEventElapsedTime(&ms_b, c->ev[0], c->ev[b]) != cudaSuccess) return;
  if (ms_b < ms_a) ms_b = ms_a;
  snprintf(name, sizeof name, "%s f%d %s", job->label ? job->label : "gpu", fam, what);
  job->profile_store(job->profile, name, anchor + (uint64_t)(ms_a * 1e6), anchor + (uint64_t)(ms_b * 1e6));
}

int api_run(void *vc, const ekoc_cuda_job *job, char *msg, size_t msg_len) {
  ctx_t *c = (ctx_t *)vc;
  size_t nx = job->nx, nodes = (size_t)job->n_nodes, n_tab, chunk, k0, e;
  int f, rc, max_len = 0, max_el = 0;
  uint64_t anchor;
  double *rule_h;
  if (!c || !job) return fail(EKOC_ERR_NULL_POINTER, msg, msg_len, "ekoc_cuda run: NULL context or job");
  CK(cudaSetDevice(c->device));
  n_tab = EKOC_BATCH_TABLE_LEN(nx, job->degree);
  for (f = 0; f < job->n_families; ++f) {
    if (job->family[f].tower_len > max_len) max_len = job->family[f].tower_len;
    if (job->family[f].n_el > max_el) max_el = job->family[f].n_el;
  }
  chunk = P_BUDGET / (nodes * nx * sizeof(ekoc_complex));
  if (chunk < 1) chunk = 1;
  if (chunk > nx) chunk = nx;
  if ((rc = ensure(c, B_LOGX, nx * sizeof(double), msg, msg_len)) ||
      (rc = ensure(c, B_TABLE, n_tab * sizeof(double), msg, msg_len)) ||
      (rc = ensure(c, B_RULE, 5 * nodes * sizeof(double), msg, msg_len)) ||
      (rc = ensure(c, B_TOWER, nx * nodes * (size_t)(max_len ? max_len : 1) * sizeof(ekoc_complex), msg, msg_len)) ||
      (rc = ensure(c, B_ACTIVE, nx, msg, msg_len)) ||
      (rc = ensure(c, B_RADIUS, nx * sizeof(double), msg, msg_len)) ||
      (rc = ensure(c, B_W, nx * nodes * 2 * (size_t)(max_el ? max_el : 1) * sizeof(ekoc_complex), msg, msg_len)) ||
      (rc = ensure(c, B_STATUS, nx * nodes * sizeof(int), msg, msg_len)) ||
      (rc = ensure(c, B_P, chunk * nodes * nx * sizeof(ekoc_complex), msg, msg_len)) ||
      (rc = ensure(c, B_OUT, 2 * (size_t)(max_el ? max_el : 1) * nx * nx * sizeof(double), msg, msg_len)))
    return rc;
  rule_h = (double *)malloc(5 * nodes * sizeof(double));
  if (!rule_h) return fail(EKOC_ERR_NO_MEMORY, msg, msg_len, "ekoc_cuda: out of host memory");
  memcpy(rule_h, job->w, nodes * sizeof(double));
  memcpy(rule_h + nodes, job->wg, nodes * sizeof(double));
  memcpy(rule_h + 2 * nodes, job->theta, nodes * sizeof(double));
  memcpy(rule_h + 3 * nodes, job->tc, nodes * sizeof(double));
  memcpy(rule_h + 4 * nodes, job->dj, nodes * sizeof(double));
  anchor = job->profile_now ? job->profile_now(job->profile) : 0;
  CK(cudaEventRecord(c->ev[0], c->stream));
  CK(cudaMemcpyAsync(c->buf[B_LOGX], job->logx, nx * sizeof(double), cudaMemcpyHostToDevice, c->stream));
  CK(cudaMemcpyAsync(c->buf[B_TABLE], job->table, n_tab * sizeof(double), cudaMemcpyHostToDevice, c->stream));
  CK(cudaMemcpyAsync(c->buf[B_RULE], rule_h, 5 * nodes * sizeof(double), cudaMemcpyHostToDevice, c->stream));
  CK(cudaStreamSynchronize(c->stream)); /* rule_h is pageable host memory: wait before freeing */
  free(rule_h);
  for (f = 0; f < job->n_families; ++f) {
    const ekoc_cuda_family *fam = &job->family[f];
    family_args fa;
    int *status_h;
    size_t i;
    if (fam->n_el == 0) continue;
    memset(&fa, 0, sizeof fa);
    fa.cfg = fam->cfg;
    fa.singlet_like = ekoc_nspace_singlet_like(&fam->cfg);
    fa.len = fam->tower_len;
    fa.n_el = fam->n_el;
    for (i = 0; i < (size_t)fam->n_el; ++i) {
      fa.element[i] = fam->element[i];
      fa.diagonal[i] = fam->diagonal[i];
      fa.subtract[i] = fam->subtract[i];
    }
    CK(cudaEventRecord(c->ev[1], c->stream));
    if (fa.len > 0)
      CK(cudaMemcpyAsync(c->buf[B_TOWER], fam->tower, nx * nodes * (size_t)fa.len * sizeof(ekoc_complex),
                         cudaMemcpyHostToDevice, c->stream));
    CK(cudaMemcpyAsync(c->buf[B_ACTIVE], fam->row_active, nx, cudaMemcpyHostToDevice, c->stream));
    CK(cudaMemcpyAsync(c->buf[B_RADIUS], fam->radius, nx * sizeof(double), cudaMemcpyHostToDevice, c->stream));
    CK(cudaEventRecord(c->ev[2], c->stream));
    k_family<<<blocks_for(nx * nodes, 128), 128, 0, c->stream>>>(
        fa, nx, (int32_t)nodes, (const double *)c->buf[B_LOGX], (const double *)c->buf[B_RADIUS],
        (const double *)c->buf[B_RULE],
        (const ekoc_complex *)c->buf[B_TOWER], (const uint8_t *)c->buf[B_ACTIVE], (ekoc_complex *)c->buf[B_W],
        (int *)c->buf[B_STATUS]);
    CK(cudaGetLastError());
    CK(cudaEventRecord(c->ev[3], c->stream));
    for (k0 = 0; k0 < nx; k0 += chunk) {
      size_t rows = nx - k0 < chunk ? nx - k0 : chunk;
      k_basis<<<blocks_for(rows * nodes, 64), 64, 0, c->stream>>>(
          k0, rows, nx, job->degree, (int32_t)nodes, fa.singlet_like, (const double *)c->buf[B_LOGX],
          (const double *)c->buf[B_RADIUS], (const double *)c->buf[B_TABLE], (const double *)c->buf[B_RULE], (const uint8_t *)c->buf[B_ACTIVE],
          (ekoc_complex *)c->buf[B_P]);
      CK(cudaGetLastError());
      k_reduce<<<blocks_for(rows * nx, 128), 128, 0, c->stream>>>(
          fa, k0, rows, nx, job->degree, (int32_t)nodes, (const double *)c->buf[B_LOGX], (const double *)c->buf[B_RULE],
          (const uint8_t *)c->buf[B_ACTIVE], (const ekoc_complex *)c->buf[B_W], (const ekoc_complex *)c->buf[B_P],
          (double *)c->buf[B_OUT]);
      CK(cudaGetLastError());
    }
    CK(cudaEventRecord(c->ev[4], c->stream));
    for (e = 0; e < (size_t)fa.n_el; ++e) {
      CK(cudaMemcpyAsync(fam->value[e], (double *)c->buf[B_OUT] + e * nx * nx, nx * nx * sizeof(double),
                         cudaMemcpyDeviceToHost, c->stream));
      CK(cudaMemcpyAsync(fam->error[e], (double *)c->buf[B_OUT] + ((size_t)fa.n_el + e) * nx * nx,
                         nx * nx * sizeof(double), cudaMemcpyDeviceToHost, c->stream));
    }
    status_h = (int *)malloc(nx * nodes * sizeof(int));
    if (!status_h) return fail(EKOC_ERR_NO_MEMORY, msg, msg_len, "ekoc_cuda: out of host memory");
    if (cudaMemcpyAsync(status_h, c->buf[B_STATUS], nx * nodes * sizeof(int), cudaMemcpyDeviceToHost, c->stream) !=
            cudaSuccess ||
        cudaEventRecord(c->ev[5], c->stream) != cudaSuccess || cudaStreamSynchronize(c->stream) != cudaSuccess) {
      free(status_h);
      CK(cudaStreamSynchronize(c->stream));
      return fail(EKOC_ERR_NO_DEVICE, msg, msg_len, "CUDA: copying the results back failed");
    }
    for (i = 0; i < nx * nodes; ++i)
      if (status_h[i]) {
        size_t k = i / nodes;
        free(status_h);
        return fail(EKOC_ERR_NUMERICAL, msg, msg_len,
                    "gpu: matching matrix singular (backward exact inversion) at row %zu (ln x=%g) node %zu", k,
                    job->logx[k], i % nodes);
      }
    free(status_h);
    store_stage(job, c, anchor, 1, 2, "H2D towers", f);
    store_stage(job, c, anchor, 2, 3, "E(N)+weights", f);
    store_stage(job, c, anchor, 3, 4, "basis+reduce", f);
    store_stage(job, c, anchor, 4, 5, "D2H", f);
  }
  return EKOC_OK;
}

int api_bench_family(void *vc, const ekoc_nspace_config *cfg, const ekoc_complex *towers, size_t n_towers,
                     size_t n_points, ekoc_complex *out, size_t n_out, ekoc_cuda_bench *res, char *msg,
                     size_t msg_len) {
  ctx_t *c = (ctx_t *)vc;
  int32_t len = ekoc_nspace_tower_len(cfg);
  float ms = 0.0f;
  double zero = 0.0;
  int rc;
  if (!c || !cfg || !towers || !res || n_towers == 0)
    return fail(EKOC_ERR_NULL_POINTER, msg, msg_len, "ekoc_cuda bench: NULL argument or no towers");
  if (n_out > n_points) n_out = n_points;
  CK(cudaSetDevice(c->device));
  if ((rc = ensure(c, B_TOWER, n_towers * (size_t)(len ? len : 1) * sizeof(ekoc_complex), msg, msg_len)) ||
      (rc = ensure(c, B_BENCH, (n_out ? n_out : 1) * EKOC_NSPACE_MAX_ELEMENTS * sizeof(ekoc_complex), msg, msg_len)) ||
      (rc = ensure(c, B_SUM, sizeof(double), msg, msg_len)))
    return rc;
  CK(cudaEventRecord(c->ev[0], c->stream));
  if (len > 0)
    CK(cudaMemcpyAsync(c->buf[B_TOWER], towers, n_towers * (size_t)len * sizeof(ekoc_complex), cudaMemcpyHostToDevice,
                       c->stream));
  CK(cudaMemcpyAsync(c->buf[B_SUM], &zero, sizeof(double), cudaMemcpyHostToDevice, c->stream));
  CK(cudaEventRecord(c->ev[1], c->stream));
  k_bench<<<blocks_for(n_points, 128), 128, 0, c->stream>>>(*cfg, len, (const ekoc_complex *)c->buf[B_TOWER], n_towers,
                                                            n_points, (ekoc_complex *)c->buf[B_BENCH], n_out,
                                                            (double *)c->buf[B_SUM]);
  CK(cudaGetLastError());
  CK(cudaEventRecord(c->ev[2], c->stream));
  CK(cudaMemcpyAsync(&res->checksum, c->buf[B_SUM], sizeof(double), cudaMemcpyDeviceToHost, c->stream));
  if (out && n_out)
    CK(cudaMemcpyAsync(out, c->buf[B_BENCH], n_out * EKOC_NSPACE_MAX_ELEMENTS * sizeof(ekoc_complex),
                       cudaMemcpyDeviceToHost, c->stream));
  CK(cudaStreamSynchronize(c->stream));
  CK(cudaEventElapsedTime(&ms, c->ev[0], c->ev[1]));
  res->h2d_ms = ms;
  CK(cudaEventElapsedTime(&ms, c->ev[1], c->ev[2]));
  res->kernel_ms = ms;
  return EKOC_OK;
}

const ekoc_cuda_api api_table = {EKOC_CUDA_ABI_VERSION, api_device_info, api_ctx_new, api_ctx_free, api_run,
                                 api_bench_family};

} // namespace

extern "C" __attribute__((visibility("default"))) const ekoc_cuda_api *ekoc_cuda_entry(void) { return &api_table; }
