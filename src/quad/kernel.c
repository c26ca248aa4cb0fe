/* kernel.c: the per-point Mellin-inversion integrand and its per-thread
 * workspace (GSL workspace + N-space cache), and the single-element adaptive
 * integration (GSL QAGS) built on them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>

#include "ad/nspace.h"
#include "quad/interp.h"
#include "quad/talbot.h"
#include "quad/workspace.h"
#include "status.h"

_Static_assert(sizeof(ekoc_nspace_config) == 10 * sizeof(int32_t) + 8 * sizeof(double),
               "ekoc_nspace_config must have no padding: the cache compares it bytewise");

int ekoc_quad_workspace_alloc(size_t limit, ekoc_quad_workspace **out) {
  ekoc_quad_workspace *ws;
  if (!out) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_quad_workspace_alloc: out is NULL");
  if (limit < 1 || limit > 100000)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_quad_workspace_alloc: limit=%zu outside 1..100000", limit);
  ekoc_init();
  ws = calloc(1, sizeof *ws);
  if (!ws) return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_quad_workspace_alloc: out of memory");
  ws->gsl = gsl_integration_workspace_alloc(limit);
  if (!ws->gsl) {
    free(ws);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_quad_workspace_alloc: GSL workspace of %zu intervals failed", limit);
  }
  ws->limit = limit;
  *out = ws;
  return EKOC_OK;
}

void ekoc_quad_workspace_free(ekoc_quad_workspace *ws) {
  if (!ws) return;
  gsl_integration_workspace_free(ws->gsl);
  free(ws);
}

void ekoc_quad_workspace_stats(const ekoc_quad_workspace *ws, uint64_t *hits, uint64_t *misses) {
  if (hits) *hits = ws ? ws->hits : 0;
  if (misses) *misses = ws ? ws->misses : 0;
}

/* Slot of the direct-mapped cache for (u, logx): a mix of the bit patterns. */
static size_t cache_slot(double u, double logx) {
  uint64_t a, b;
  memcpy(&a, &u, sizeof a);
  memcpy(&b, &logx, sizeof b);
  a ^= b * 0x9E3779B97F4A7C15ull;
  a ^= a >> 29;
  a *= 0xBF58476D1CE4E5B9ull;
  a ^= a >> 32;
  return (size_t)(a & (EKOC_NSPACE_CACHE_SIZE - 1));
}

/* The family values at node u (cached when a workspace is given). Returns
 * NULL on failure with args->status set. */
static const ekoc_complex *family_values(ekoc_kernel_args *args, double u, ekoc_complex n,
                                         ekoc_complex *scratch) {
  ekoc_quad_workspace *ws = args->workspace;
  ekoc_nspace_cache_entry *e;
  int rc;
  if (!ws) {
    rc = ekoc_nspace_eval(&args->nspace, n, scratch);
    if (rc != EKOC_OK) {
      args->status = rc;
      return NULL;
    }
    return scratch;
  }
  e = &ws->cache[cache_slot(u, args->logx)];
  if (e->valid && e->u == u && e->logx == args->logx && memcmp(&e->cfg, &args->nspace, sizeof e->cfg) == 0) {
    ws->hits++;
    return e->values;
  }
  ws->misses++;
  rc = ekoc_nspace_eval(&args->nspace, n, e->values);
  if (rc != EKOC_OK) {
    e->valid = 0;
    args->status = rc;
    return NULL;
  }
  e->valid = 1;
  e->u = u;
  e->logx = args->logx;
  e->cfg = args->nspace;
  return e->values;
}

double ekoc_quad_kernel(double u, void *vargs) {
  ekoc_kernel_args *args = (ekoc_kernel_args *)vargs;
  ekoc_complex n, dn, pj, scratch[EKOC_NSPACE_MAX_ELEMENTS];
  const ekoc_complex *values;
  if (args->logx == 0.0) return 0.0; /* x = 1: eko's integrand vanishes identically */
  ekoc_talbot_point(u, args->logx, ekoc_nspace_singlet_like(&args->nspace), &n, &dn);
  pj = ekoc_basis_mellin(args->areas, args->n_areas, args->degree, n, args->logx);
  if (pj.re == 0.0 && pj.im == 0.0) return 0.0;
  values = family_values(args, u, n, scratch);
  if (!values) return NAN;
  return ekoc_talbot_weight_re(c_mul(c_mul(pj, values[args->element]), dn));
}

int ekoc_quad_integrate(ekoc_kernel_args *args, double cut, double epsabs, double epsrel, size_t limit,
                        double *value, double *error) {
  gsl_function f;
  double v = 0.0, e = 0.0;
  int gsl_rc, rc;
  if (!args || !value || !error) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_quad_integrate: NULL argument");
  if (!args->workspace)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_quad_integrate: args->workspace is NULL (holds the GSL workspace)");
  if (!(cut >= 0.0 && cut < 0.5))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_quad_integrate: cut=%g outside [0, 0.5)", cut);
  if (!(epsabs >= 0.0) || !(epsrel >= 0.0) || (epsabs == 0.0 && epsrel == 0.0))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_quad_integrate: tolerances epsabs=%g epsrel=%g invalid",
                      epsabs, epsrel);
  if (limit < 1 || limit > args->workspace->limit)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_quad_integrate: limit=%zu outside 1..%zu (workspace size)",
                      limit, args->workspace->limit);
  ekoc_init();
  args->status = EKOC_OK;
  f.function = ekoc_quad_kernel;
  f.params = args;
  gsl_rc = gsl_integration_qags(&f, 0.5, 1.0 - cut, epsabs, epsrel, limit, args->workspace->gsl, &v, &e);
  *value = v;
  *error = e;
  if (args->status != EKOC_OK) return args->status; /* the kernel's own message is in place */
  if (gsl_rc != GSL_SUCCESS) {
    rc = ekoc_error(EKOC_ERR_INTEGRATION, "GSL QAGS failed at ln x=%g element %d: %s (GSL code %d), estimate %g +- %g",
                    args->logx, (int)args->element, gsl_strerror(gsl_rc), gsl_rc, v, e);
    return rc;
  }
  if (!isfinite(v) || !isfinite(e))
    return ekoc_error(EKOC_ERR_NUMERICAL, "non-finite integral at ln x=%g element %d", args->logx, (int)args->element);
  return EKOC_OK;
}

int ekoc_nspace_evaluate(const ekoc_nspace_config *cfg, double n_re, double n_im, double *out_re, double *out_im,
                         size_t out_len) {
  ekoc_complex vals[EKOC_NSPACE_MAX_ELEMENTS];
  int rc, i, size;
  if (!cfg || !out_re || !out_im) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_nspace_evaluate: NULL argument");
  rc = ekoc_nspace_cfg_check(cfg);
  if (rc != EKOC_OK) return rc;
  if (!isfinite(n_re) || !isfinite(n_im))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_nspace_evaluate: N=(%g,%g) is not finite", n_re, n_im);
  size = ekoc_nspace_family_size(cfg);
  if (out_len < (size_t)size)
    return ekoc_error(EKOC_ERR_BUFFER_TOO_SMALL, "ekoc_nspace_evaluate: out_len=%zu < %d elements", out_len, size);
  rc = ekoc_nspace_eval(cfg, c_make(n_re, n_im), vals);
  if (rc != EKOC_OK) return rc;
  for (i = 0; i < size; ++i) {
    out_re[i] = vals[i].re;
    out_im[i] = vals[i].im;
  }
  return EKOC_OK;
}
