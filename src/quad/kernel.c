/* kernel.c: the per-point Mellin-inversion integrand and its per-thread
 * workspace (GSL workspace + N-space cache), and the single-element adaptive
 * integration (GSL QAGS) built on them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>

#include "ad/nspace.h"
#include "quad/driver.h"
#include "quad/interp.h"
#include "quad/talbot.h"
#include "quad/workspace.h"
#include "status.h"

_Static_assert(sizeof(ekoc_nspace_config) == 26 * sizeof(int32_t) + 9 * sizeof(double) + sizeof(const double *),
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
  free(ws->basis);
  free(ws->known);
  free(ws);
}

/* Bytes of one slot's bitmap of basis transforms computed alone. */
#define KNOWN_BYTES(nx) (((nx) + 7) / 8)

int ekoc_quad_workspace_reserve_basis(ekoc_quad_workspace *ws, size_t nx) {
  ekoc_complex *b;
  uint8_t *known;
  size_t i;
  if (!ws) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_quad_workspace_reserve_basis: ws is NULL");
  if (nx < 1 || nx > 100000)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_quad_workspace_reserve_basis: nx=%zu outside 1..100000", nx);
  if (nx <= ws->basis_nx) return EKOC_OK;
  b = malloc((size_t)EKOC_NSPACE_CACHE_SIZE * nx * sizeof *b);
  known = calloc((size_t)EKOC_NSPACE_CACHE_SIZE, KNOWN_BYTES(nx));
  if (!b || !known) {
    free(b);
    free(known);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_quad_workspace_reserve_basis: out of memory for nx=%zu", nx);
  }
  free(ws->basis);
  free(ws->known);
  ws->basis = b;
  ws->known = known;
  ws->basis_nx = nx;
  for (i = 0; i < EKOC_NSPACE_CACHE_SIZE; ++i) ws->cache[i].has_basis = ws->cache[i].n_single = 0;
  return EKOC_OK;
}

void ekoc_quad_workspace_stats(const ekoc_quad_workspace *ws, uint64_t *hits, uint64_t *misses) {
  if (hits) *hits = ws ? ws->hits : 0;
  if (misses) *misses = ws ? ws->misses : 0;
}

/* The radius at which the args' path crosses the real axis: path_radius, or
 * eko's Talbot radius of ln x when 0. A path_radius other than eko's moves
 * the path near the axis only: away from it the path returns to eko's
 * (ekoc_talbot_point_moved, quad/talbot.h), so the integral over eko's
 * range stays eko's while no singularity lies between the two crossings. */
static double path_radius(const ekoc_kernel_args *args) {
  return args->path_radius > 0.0 ? args->path_radius : ekoc_talbot_radius(args->logx);
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

/* The N-space family at n, its configuration validated first: the kernel may
 * be called directly (scipy, the user's own integrator) with a configuration
 * ekoc_quad_integrate never saw, whose fields size the reads (ev_op_iterations
 * the QED step couplings, order the towers). Only on an evaluation (a cache
 * miss), where the check costs little beside the crate's sums. */
static int checked_eval(const ekoc_nspace_cfg *cfg, ekoc_complex n, ekoc_complex *out) {
  int rc = ekoc_nspace_cfg_check(cfg);
  return rc != EKOC_OK ? rc : ekoc_nspace_eval(cfg, n, out);
}

/* The cache slot for node u: path point, family values (evaluated on a
 * miss). NULL on failure with args->status set. */
static ekoc_nspace_cache_entry *cached_family(ekoc_kernel_args *args, ekoc_quad_workspace *ws, double u) {
  ekoc_nspace_cache_entry *e = &ws->cache[cache_slot(u, args->logx)];
  double r = path_radius(args);
  int rc;
  if (e->valid && e->u == u && e->logx == args->logx && e->radius == r &&
      memcmp(&e->cfg, &args->nspace, sizeof e->cfg) == 0) {
    ws->hits++;
    return e;
  }
  ws->misses++;
  if (ws->known && e->n_single > 0) memset(ws->known + (size_t)(e - ws->cache) * KNOWN_BYTES(ws->basis_nx), 0,
                                             KNOWN_BYTES(ws->basis_nx));
  e->has_basis = 0;
  e->n_single = 0;
  ekoc_talbot_point_moved(u, args->logx, r, ekoc_nspace_singlet_like(&args->nspace), &e->n, &e->dn);
  rc = checked_eval(&args->nspace, e->n, e->values);
  if (rc != EKOC_OK) {
    e->valid = 0;
    args->status = rc;
    return NULL;
  }
  e->valid = 1;
  e->u = u;
  e->logx = args->logx;
  e->radius = r;
  e->cfg = args->nspace;
  return e;
}

/* P_j at the slot's node, in the stable local form. The transforms of all
 * basis functions at once cost one exponential per grid node
 * (ekoc_interp_mellin_all), those of one at most degree+3
 * (ekoc_interp_basis_mellin): a node that many basis functions share (the
 * first rule of every QAGS integral of a row) gets all of them, a node only a
 * few ask for (the subdivisions of one integral) only theirs, so an integrand
 * evaluation costs O(degree) and not O(nx). Bitwise the same either way. */
static ekoc_complex cached_basis(const ekoc_kernel_args *args, ekoc_quad_workspace *ws, ekoc_nspace_cache_entry *e,
                                 ekoc_complex *basis) {
  const struct ekoc_interp *in = args->interp;
  size_t j = (size_t)args->basis_index, slot = (size_t)(e - ws->cache);
  uint8_t *known = ws->known + slot * KNOWN_BYTES(ws->basis_nx);
  uint8_t bit = (uint8_t)(1u << (j % 8));
  if (e->has_basis || (known[j / 8] & bit)) return basis[j];
  if (e->n_single < 2 * (in->degree + 1)) {
    basis[j] = ekoc_interp_basis_mellin(in, j, e->n, args->logx);
    known[j / 8] |= bit;
    e->n_single++;
    return basis[j];
  }
  ekoc_interp_mellin_all(in, e->n, args->logx, basis);
  e->has_basis = 1;
  return basis[j];
}

/* The memory-safety checks of the kernel's own arguments (a few integer
 * compares, so the integrand can afford them on every call): the element
 * inside its family, basis_index inside the basis, the records' degree inside
 * the fixed-size buffers of ekoc_basis_mellin. EKOC_OK or an error code with
 * the message set. */
static int kernel_args_check(const ekoc_kernel_args *args) {
  int size = ekoc_nspace_family_size(&args->nspace);
  if (args->element < 0 || args->element >= size)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "kernel args: element=%d outside 0..%d of the family", (int)args->element,
                      size - 1);
  if (args->interp) {
    if (args->basis_index < 0 || (size_t)args->basis_index >= args->interp->n)
      return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "kernel args: basis_index=%d outside 0..%zu",
                        (int)args->basis_index, args->interp->n - 1);
    return EKOC_OK;
  }
  if (!args->areas) return ekoc_error(EKOC_ERR_NULL_POINTER, "kernel args: areas and interp are both NULL");
  if (args->degree < 1 || args->degree > EKOC_INTERP_MAX_DEGREE)
    return ekoc_error(EKOC_ERR_INVALID_DEGREE, "kernel args: degree=%d outside 1..%d", (int)args->degree,
                      EKOC_INTERP_MAX_DEGREE);
  return EKOC_OK;
}

double ekoc_quad_kernel(double u, void *vargs) {
  ekoc_kernel_args *args = (ekoc_kernel_args *)vargs;
  ekoc_quad_workspace *ws;
  ekoc_complex n, dn, pj, value, scratch[EKOC_NSPACE_MAX_ELEMENTS];
  const struct ekoc_interp *in;
  int rc;
  if (!args) {
    ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_quad_kernel: args is NULL");
    return NAN;
  }
  rc = kernel_args_check(args);
  if (rc != EKOC_OK) {
    args->status = rc;
    return NAN;
  }
  ws = args->workspace;
  in = args->interp;
  if (args->logx == 0.0) return 0.0; /* x = 1: eko's integrand vanishes identically */
  if (ws && in && ws->basis_nx >= in->n) {
    /* fast path: the node's path point, family values and all basis
     * transforms are shared by every basis function and element integrated
     * at this target point */
    ekoc_nspace_cache_entry *e = cached_family(args, ws, u);
    ekoc_complex *basis;
    if (!e) return NAN;
    basis = ws->basis + (size_t)(e - ws->cache) * ws->basis_nx;
    pj = cached_basis(args, ws, e, basis);
    if (pj.re == 0.0 && pj.im == 0.0) return 0.0;
    value = e->values[args->element];
    dn = e->dn;
  } else {
    /* without a reserved cache, one basis function: basis_index of interp
     * (which takes precedence) in the stable local form, or the records
     * given, in their monomial form (docs/physics.md §4.3) */
    ekoc_talbot_point_moved(u, args->logx, path_radius(args), ekoc_nspace_singlet_like(&args->nspace), &n, &dn);
    if (in)
      pj = ekoc_interp_basis_mellin(in, (size_t)args->basis_index, n, args->logx);
    else
      pj = ekoc_basis_mellin(args->areas, args->n_areas, args->degree, n, args->logx);
    if (pj.re == 0.0 && pj.im == 0.0) return 0.0;
    if (ws) {
      ekoc_nspace_cache_entry *e = cached_family(args, ws, u);
      if (!e) return NAN;
      value = e->values[args->element];
    } else {
      rc = checked_eval(&args->nspace, n, scratch);
      if (rc != EKOC_OK) {
        args->status = rc;
        return NAN;
      }
      value = scratch[args->element];
    }
  }
  return ekoc_talbot_weight_re(c_mul(c_mul(pj, c_add_real(value, -args->subtract)), dn));
}

int ekoc_quad_integrate(ekoc_kernel_args *args, double cut, double epsabs, double epsrel, size_t limit,
                        double *value, double *error) {
  gsl_function f;
  double v = 0.0, e = 0.0;
  int gsl_rc, rc;
  if (!args || !value || !error) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_quad_integrate: NULL argument");
  if (!args->areas && !args->interp)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_quad_integrate: args->areas and args->interp are both NULL");
  if (args->interp && (args->basis_index < 0 || (size_t)args->basis_index >= args->interp->n))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_quad_integrate: basis_index=%d outside 0..%zu",
                      (int)args->basis_index, args->interp->n - 1);
  if (!args->workspace)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_quad_integrate: args->workspace is NULL (holds the GSL workspace)");
  rc = ekoc_nspace_cfg_check(&args->nspace);
  if (rc != EKOC_OK) return rc;
  rc = kernel_args_check(args);
  if (rc != EKOC_OK) return rc;
  if (!isfinite(args->logx) || args->logx > 0.0)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_quad_integrate: logx=%g must be finite and <= 0", args->logx);
  if (!isfinite(args->subtract))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_quad_integrate: subtract=%g is not finite", args->subtract);
  if (!(args->path_radius >= 0.0) || !isfinite(args->path_radius))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_quad_integrate: path_radius=%g must be finite and >= 0 (0: eko's)",
                      args->path_radius);
  if (!(cut >= 0.0 && cut < 0.5))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_quad_integrate: cut=%g outside [0, 0.5)", cut);
  if (!(epsabs >= 0.0) || !(epsrel >= 0.0) || !isfinite(epsabs) || !isfinite(epsrel) ||
      (epsabs == 0.0 && epsrel == 0.0))
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
  if (args->status == EKOC_ERR_ANOMALOUS_DIMENSION) { /* a node beyond the crate's |N|: a cut too close to 1? */
    ekoc_complex n_end, dn_end;
    ekoc_talbot_point_moved(1.0 - cut, args->logx, path_radius(args), ekoc_nspace_singlet_like(&args->nspace), &n_end,
                            &dn_end);
    if (!(n_end.re * n_end.re + n_end.im * n_end.im <= EKOC_QUAD_N_MAX * EKOC_QUAD_N_MAX))
      args->status = ekoc_quad_cut_error(cut, args->logx, n_end.re, n_end.im);
  }
  if (args->status != EKOC_OK) return args->status; /* the kernel's own message is in place */
  /* a non-finite estimate is an error whatever GSL says: a failed
   * integration's estimate is still used by the drivers */
  if (!isfinite(v) || !isfinite(e))
    return ekoc_error(EKOC_ERR_NUMERICAL, "non-finite integral %g +- %g at ln x=%g element %d (GSL code %d)", v, e,
                      args->logx, (int)args->element, gsl_rc);
  if (gsl_rc != GSL_SUCCESS) {
    rc = ekoc_error(EKOC_ERR_INTEGRATION, "GSL QAGS failed at ln x=%g element %d: %s (GSL code %d), estimate %g +- %g",
                    args->logx, (int)args->element, gsl_strerror(gsl_rc), gsl_rc, v, e);
    return rc;
  }
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
  for (i = 0; i < size; ++i)
    if (!isfinite(vals[i].re) || !isfinite(vals[i].im))
      return ekoc_error(EKOC_ERR_NUMERICAL, "ekoc_nspace_evaluate: element %d at N=(%g,%g) is (%g,%g), not finite", i,
                        n_re, n_im, vals[i].re, vals[i].im);
  for (i = 0; i < size; ++i) {
    out_re[i] = vals[i].re;
    out_im[i] = vals[i].im;
  }
  return EKOC_OK;
}

size_t ekoc_nspace_config_sizeof(void) { return sizeof(ekoc_nspace_config); }
size_t ekoc_kernel_args_sizeof(void) { return sizeof(ekoc_kernel_args); }
