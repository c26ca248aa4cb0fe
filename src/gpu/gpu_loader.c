/* gpu_loader.c: the gpu backend entry point of libekoc.
 *
 * The CUDA code lives in libekoc_cuda.so (src/gpu/ekoc_cuda.cu, `make cuda`),
 * loaded here at run time with dlopen, so libekoc builds and runs without the
 * CUDA toolkit, a driver or a device; asking for the gpu backend there returns
 * EKOC_ERR_NO_DEVICE with a message saying what is missing.
 *
 * Library search order: $EKOC_CUDA_LIBRARY (a path), then libekoc_cuda.so
 * next to the object holding this code (libekoc.so, or the executable when
 * libekoc.a is linked in) and in its parent folder, then the dynamic loader's
 * own search (LD_LIBRARY_PATH, rpath). The library is never unloaded (the
 * CUDA runtime inside it keeps the device context for the process); the
 * loader's reference count, not ekoc, holds that state.
 *
 * Work split: the host fetches every tower (anomalous dimensions / OMEs at
 * all (row, node) points) from ekore, threads over rows; the device does
 * E(N), the basis transforms and the reductions of the base rule
 * (cuda_api.h); the host then runs the batch engine's error control on
 * them (quad/batch_host.h: probe nodes, estimate, refinement of the rows that
 * miss the tolerance, flags), the same code as the CPU batch driver.
 */
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/nspace.h"
#include "gpu/cuda_api.h"
#include "quad/batch_host.h"
#include "quad/batch_math.h"
#include "quad/batch_plan.h"
#include "quad/batch_rule.h"
#include "quad/driver.h"
#include "quad/interp.h"
#include "quad/job.h"
#include "quad/path_radius.h"
#include "status.h"

/* Tries one path; on failure keeps dlerror's text in why (the first failure
 * that is not "file not found" wins: it says more). */
static void *try_open(const char *path, char *why, size_t len) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *err = dlerror();
    if (!err) err = path;
    if (why[0] == '\0' || (strstr(why, "No such file") && !strstr(err, "No such file"))) snprintf(why, len, "%s", err);
  }
  return h;
}

/* The function table of libekoc_cuda.so, or NULL with the reasons in why. */
static const ekoc_cuda_api *load_api(char *why, size_t len) {
  const char *env = getenv("EKOC_CUDA_LIBRARY");
  void *h = NULL;
  Dl_info info;
  ekoc_cuda_entry_fn entry;
  const ekoc_cuda_api *api;
  why[0] = '\0';
  if (env && *env) h = try_open(env, why, len);
  if (!h && dladdr((void *)&ekoc_quad_run_gpu, &info) && info.dli_fname) {
    char dir[PATH_MAX], path[PATH_MAX + 32];
    char *slash;
    snprintf(dir, sizeof dir, "%s", info.dli_fname);
    slash = strrchr(dir, '/');
    if (slash) {
      *slash = '\0';
      snprintf(path, sizeof path, "%s/libekoc_cuda.so", dir);
      h = try_open(path, why, len);
      if (!h) {
        snprintf(path, sizeof path, "%s/../libekoc_cuda.so", dir);
        h = try_open(path, why, len);
      }
    }
  }
  if (!h) h = try_open("libekoc_cuda.so", why, len);
  if (!h) return NULL;
  *(void **)(&entry) = dlsym(h, "ekoc_cuda_entry");
  if (!entry) {
    snprintf(why, len, "libekoc_cuda.so has no symbol ekoc_cuda_entry");
    return NULL;
  }
  api = entry();
  if (!api || api->abi_version != EKOC_CUDA_ABI_VERSION) {
    snprintf(why, len, "libekoc_cuda.so speaks ABI %d, libekoc needs %d (rebuild with `make cuda`)",
             api ? (int)api->abi_version : -1, EKOC_CUDA_ABI_VERSION);
    return NULL;
  }
  return api;
}

static int store_cb(void *p, const char *name, uint64_t a, uint64_t b) {
  return ekoc_profile_store((ekoc_profile *)p, name, a, b);
}
static uint64_t now_cb(const void *p) { return ekoc_profile_now_ns((const ekoc_profile *)p); }

/* Fills towers, row flags and path radii of one family for all rows (threads
 * over rows). */
static int stage_family(const ekoc_quad_job *job, const ekoc_batch_rule *rule, const ekoc_batch_family *fp,
                        int n_threads, ekoc_complex *tower, uint8_t *active, double *radius) {
  const ekoc_interp *in = job->interp;
  long nx = (long)in->n;
  int status = EKOC_OK;
  char message[256] = "";
  (void)n_threads; /* used by the OpenMP pragma only */
#pragma omp parallel num_threads(n_threads)
  {
    size_t nodes = (size_t)rule->n_nodes;
    double *nre = malloc(2 * nodes * sizeof(double)),
           *scratch = malloc(EKOC_NSPACE_TOWER_SCRATCH(nodes) * sizeof(double));
    long k;
    int ok = nre && scratch;
#pragma omp for schedule(dynamic, 1)
    for (k = 0; k < nx; ++k) {
      double logx = in->logx[k];
      int32_t m;
      int rc, stop;
      ekoc_path_status path;
#pragma omp atomic read
      stop = status;
      active[k] = logx != 0.0 && ekoc_batch_first_basis(in->logx, in->n, in->degree, logx) < in->n;
      radius[k] = ekoc_talbot_radius(logx);
      if (!active[k] || stop != EKOC_OK) continue;
      /* the path the host's error control uses too (ekoc_batch_row_init) */
      rc = ekoc_path_radius(fp->cfg, logx, &radius[k], &path);
      if (rc == EKOC_OK && !ok) {
        rc = ekoc_error(EKOC_ERR_NO_MEMORY, "gpu: out of host memory for the tower scratch");
      } else if (rc == EKOC_OK) {
        for (m = 0; m < rule->n_nodes; ++m) {
          ekoc_complex n, dn;
          ekoc_batch_path(rule->theta[m], rule->tc[m], rule->dj[m], ekoc_talbot_radius(logx), radius[k], fp->singlet_like,
                          &n, &dn);
          nre[m] = n.re;
          nre[nodes + (size_t)m] = n.im;
        }
        rc = ekoc_nspace_towers(fp->cfg, nodes, nre, nre + nodes, scratch, tower + (size_t)k * nodes * (size_t)fp->len);
      }
      if (rc != EKOC_OK) {
#pragma omp critical(ekoc_gpu_stage)
        if (status == EKOC_OK) {
          status = rc;
          snprintf(message, sizeof message, "%s", ekoc_last_error());
        }
      }
    }
    free(nre);
    free(scratch);
  }
  if (status != EKOC_OK) return ekoc_error(status, "%s", message);
  return EKOC_OK;
}

int ekoc_quad_run_gpu(const ekoc_quad_job *job, const ekoc_quad_settings *s, size_t *n_failed) {
  char why[EKOC_CUDA_MSG_LEN * 2], msg[EKOC_CUDA_MSG_LEN], name[128];
  const ekoc_cuda_api *api;
  ekoc_batch_family plans[2];
  ekoc_batch_rule *rule = NULL;
  ekoc_cuda_job cj;
  ekoc_complex *towers[2] = {NULL, NULL};
  uint8_t *active[2] = {NULL, NULL};
  double *radius[2] = {NULL, NULL};
  void *ctx = NULL;
  double *table = NULL;
  size_t nx, i, failed_total = 0;
  int rc, count = 0, f, e, n_threads;
  uint64_t t0;
  if (!job || !s || !n_failed || !job->interp)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_quad_run_gpu: job, settings, n_failed and job->interp are required");
  rc = ekoc_batch_plan(job, plans);
  if (rc != EKOC_OK) return rc;
  api = load_api(why, sizeof why);
  if (!api)
    return ekoc_error(EKOC_ERR_NO_DEVICE,
                      "backend gpu unavailable: libekoc_cuda.so not loadable (`make cuda` builds it, "
                      "EKOC_CUDA_LIBRARY names it): %s",
                      why);
  msg[0] = '\0';
  api->device_info(&count, name, sizeof name, msg, sizeof msg);
  if (count < 1) return ekoc_error(EKOC_ERR_NO_DEVICE, "backend gpu unavailable: no CUDA device (%s)", msg);
  rc = ekoc_batch_rule_alloc(s->batch_panels, s->batch_points, s->cut, &rule);
  if (rc != EKOC_OK) return rc;
  nx = job->interp->n;
  n_threads = s->n_threads > 0 ? s->n_threads : omp_get_max_threads();
  memset(&cj, 0, sizeof cj);
  cj.nx = nx;
  cj.degree = job->interp->degree;
  cj.logx = job->interp->logx;
  table = malloc(EKOC_BATCH_TABLE_LEN(nx, job->interp->degree) * sizeof(double));
  if (!table) {
    ekoc_batch_rule_free(rule);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "gpu: out of host memory for the coefficient table (nx=%zu)", nx);
  }
  ekoc_batch_area_table(job->interp->area_offset, job->interp->area, nx, job->interp->degree, table);
  cj.table = table;
  cj.n_nodes = rule->n_nodes;
  cj.w = rule->w;
  cj.wg = rule->wg;
  cj.theta = rule->theta;
  cj.tc = rule->tc;
  cj.dj = rule->dj;
  cj.n_families = job->n_families;
  cj.profile = s->profile;
  cj.profile_store = s->profile ? store_cb : NULL;
  cj.profile_now = s->profile ? now_cb : NULL;
  cj.label = "gpu";
  t0 = ekoc_profile_now_ns(s->profile);
  for (f = 0; f < job->n_families && rc == EKOC_OK; ++f) {
    const ekoc_batch_family *fp = &plans[f];
    ekoc_cuda_family *cf = &cj.family[f];
    cf->cfg = job->family[f];
    cf->tower_len = fp->len;
    cf->n_el = fp->n_el;
    for (e = 0; e < fp->n_el; ++e) {
      const ekoc_quad_element *el = &job->elements[fp->job_el[e]];
      cf->element[e] = fp->element[e];
      cf->diagonal[e] = el->diagonal;
      cf->subtract[e] = fp->subtract[e];
      cf->value[e] = el->value;
      cf->error[e] = el->error;
    }
    if (fp->n_el == 0) continue;
    towers[f] = malloc(nx * (size_t)rule->n_nodes * (size_t)(fp->len ? fp->len : 1) * sizeof(ekoc_complex));
    active[f] = malloc(nx);
    radius[f] = malloc(nx * sizeof(double));
    if (!towers[f] || !active[f] || !radius[f]) {
      rc = ekoc_error(EKOC_ERR_NO_MEMORY, "gpu: out of host memory for %zu x %d towers", nx, (int)rule->n_nodes);
      break;
    }
    rc = stage_family(job, rule, fp, n_threads, towers[f], active[f], radius[f]);
    cf->tower = towers[f];
    cf->row_active = active[f];
    cf->radius = radius[f];
  }
  ekoc_profile_store(s->profile, "gpu towers (host, ekore)", t0, ekoc_profile_now_ns(s->profile));
  if (rc == EKOC_OK) {
    msg[0] = '\0';
    rc = api->ctx_new(&ctx, msg, sizeof msg);
    if (rc == EKOC_OK) rc = api->run(ctx, &cj, msg, sizeof msg);
    api->ctx_free(ctx);
    if (rc != EKOC_OK) rc = ekoc_error(rc, "backend gpu: %s", msg);
  }
  /* the engine's error control on the host (quad/batch_host.h): probes,
   * estimate, refinement of the rows that need it and flags, the CPU batch
   * driver's code, so flags and refined values are the CPU's */
  if (rc == EKOC_OK) {
    const ekoc_complex *tw[2] = {towers[0], towers[1]};
    t0 = ekoc_profile_now_ns(s->profile);
    rc = ekoc_batch_host_finish(job, s, rule, tw, &failed_total);
    ekoc_profile_store(s->profile, "gpu error control (host)", t0, ekoc_profile_now_ns(s->profile));
  }
  for (e = 0; rc == EKOC_OK && e < job->n_elements; ++e) {
    const ekoc_quad_element *el = &job->elements[e];
    for (i = 0; i < nx * nx; ++i)
      if (!isfinite(el->value[i]) || !isfinite(el->error[i])) {
        rc = ekoc_error(EKOC_ERR_NUMERICAL, "gpu: non-finite entry at ln x=%g basis %zu element %d",
                        job->interp->logx[i / nx], i % nx, (int)el->element);
        break;
      }
  }
  for (i = 0; rc == EKOC_OK && i < nx; ++i) rc = ekoc_quad_progress_row(s->progress);
  for (f = 0; f < 2; ++f) {
    free(towers[f]);
    free(active[f]);
    free(radius[f]);
  }
  ekoc_batch_rule_free(rule);
  free(table);
  if (rc == EKOC_OK) *n_failed = failed_total;
  return rc;
}
