/* gpu_check.c: the device check run by perf/gpu_check.sh on a lent GPU.
 *
 *   gpu_check [--seed S] [--jobs J] [--points P] [--lib PATH] [--emulate]
 *
 * 1. device: name and compute capability (libekoc_cuda.so's device_info);
 * 2. jobs: J random quadrature jobs (random grid, degree, families of every
 *    kind/order/method/scale-variation/matching method, element subsets,
 *    subtractions, rules), outputs poisoned before each run (NaN for the CPU
 *    batch driver, 1e300 for the gpu backend); every entry of every element
 *    compared: pass if |gpu - cpu| <= 1e-10 |cpu| + 1e-12 S, S = sum_m
 *    sum_{a,i} |c_{j,a,i}| (|T_i(hi)| + |T_i(lo)|) (|K_e| + |s_e|) |dN| w_m/pi,
 *    the size of the terms
 *    whose rounding the device's libm (<= 2 ulp in exp/sin/cos/log/atan2)
 *    changes; the report counts the entries that needed the S term;
 * 3. E(N): NNLO singlet, iterate-exact with 10 iterations, P points (default
 *    1e7) on the device from 1e5 distinct towers; throughput from CUDA events,
 *    the first 1e4 values against the host (1e-12 relative);
 * Prints "RESULT key value" lines for the script's table; exit 1 on a failed
 * check, 2 on bad usage, 3 when no device (unless --emulate).
 *
 * --emulate runs the device side as host loops of the kernels' bodies (as
 * tests/test_gpu_math.c), to check this harness without a device; --perturb
 * then moves every ln x of the device side's grid by one ulp, a stand-in for
 * the device's libm, to see the tolerance at work.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ad/beta.h"
#include "ekoc.h"
#include "ad/nspace.h"
#include "gpu/cuda_api.h"
#include "quad/batch_kernels.h"
#include "quad/batch_math.h"
#include "quad/batch_plan.h"
#include "quad/batch_rule.h"
#include "quad/interp.h"
#include "quad/job.h"
#include "quad/path_radius.h"

static uint64_t rng_state = 88172645463325252ull;
static double urand(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (double)((rng_state * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}
static int irand(int lo, int hi) { return lo + (int)(urand() * (hi - lo + 1)) % (hi - lo + 1); }

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* ---- a random job ------------------------------------------------------------------- */

typedef struct job_data {
  ekoc_interp *interp;
  ekoc_quad_job job;
  ekoc_batch_rule *rule;
  ekoc_quad_settings s;
  double *val[EKOC_JOB_MAX_ELEMENTS], *err[EKOC_JOB_MAX_ELEMENTS];
} job_data;

static int job_random(job_data *d) {
  size_t nx = (size_t)irand(6, 90), i;
  double *grid = malloc(nx * sizeof *grid), xmin = pow(10.0, -2.0 - 5.0 * urand());
  int degree = irand(1, 5), kind = urand() < 0.35, f, e, n = 0;
  memset(d, 0, sizeof *d);
  if (degree >= (int)nx) degree = (int)nx - 1;
  if (!grid || ekoc_grid_lambert(nx, xmin, grid) != EKOC_OK) return 0;
  if (urand() < 0.3) grid[nx - 1] = 0.5 * (grid[nx - 1] + grid[nx - 2]);
  if (ekoc_interp_alloc(grid, nx, degree, &d->interp) != EKOC_OK) return 0;
  free(grid);
  d->job.interp = d->interp;
  d->job.n_families = 2;
  for (f = 0; f < 2; ++f) {
    ekoc_nspace_config *c = &d->job.family[f];
    int nf = irand(3, 6);
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->family = f;
    c->nf = kind ? irand(3, 5) : nf;
    c->order = kind ? irand(1, 2) : irand(1, 3);
    c->method = irand(0, EKOC_METHOD_COUNT - 1);
    c->ev_op_iterations = irand(1, 15);
    c->ev_op_max_order = irand(1, 10);
    c->sv_mode = irand(0, kind ? 1 : 2);
    c->sv_log = c->sv_mode ? log(0.5 + 1.5 * urand()) : 0.0;
    c->is_threshold = urand() < 0.3;
    c->a0 = 0.01 + 0.02 * urand();
    c->a1 = kind ? 0.01 + 0.02 * urand() : c->a0 * (0.3 + 0.7 * urand());
    c->ome_log = kind ? 2.0 * urand() - 1.0 : 0.0;
    c->matching_method = kind ? irand(0, 2) : 0;
    ekoc_beta_coefficients(c->nf, c->beta);
  }
  for (f = 0; f < 2; ++f) {
    int size = ekoc_nspace_family_size(&d->job.family[f]);
    for (e = 0; e < size && n < EKOC_JOB_MAX_ELEMENTS; ++e) {
      int diag = f == 0 ? 1 : kind ? (e == 0 || e == 4 || e == 8) : (e == 0 || e == 3);
      if (urand() < 0.25) continue;
      d->job.elements[n].family = f;
      d->job.elements[n].element = e;
      d->job.elements[n].diagonal = diag;
      d->job.elements[n].subtract = kind && diag ? 1.0 : urand() < 0.15 ? urand() : 0.0;
      ++n;
    }
  }
  if (n == 0) { /* at least the first singlet element */
    d->job.elements[0].family = 1;
    d->job.elements[0].element = 0;
    d->job.elements[0].diagonal = 1;
    d->job.elements[0].subtract = kind ? 1.0 : 0.0;
    n = 1;
  }
  d->job.n_elements = n;
  for (e = 0; e < n; ++e) {
    d->val[e] = malloc(nx * nx * sizeof(double));
    d->err[e] = malloc(nx * nx * sizeof(double));
    if (!d->val[e] || !d->err[e]) return 0;
    d->job.elements[e].value = d->val[e];
    d->job.elements[e].error = d->err[e];
  }
  d->s.cut = urand() < 0.8 ? 0.05 : 0.1 * urand();
  d->s.batch_panels = irand(1, 3);
  d->s.batch_points = irand(5, 40);
  d->s.n_threads = 0;
  (void)i;
  return ekoc_batch_rule_alloc(d->s.batch_panels, d->s.batch_points, d->s.cut, &d->rule) == EKOC_OK;
}

static void job_free(job_data *d) {
  int e;
  for (e = 0; e < d->job.n_elements; ++e) {
    free(d->val[e]);
    free(d->err[e]);
  }
  ekoc_interp_free(d->interp);
  ekoc_batch_rule_free(d->rule);
}

static void poison(job_data *d, double v) {
  size_t nx = d->interp->n, i;
  int e;
  for (e = 0; e < d->job.n_elements; ++e)
    for (i = 0; i < nx * nx; ++i) d->val[e][i] = d->err[e][i] = v;
}

/* The rounding scale S[e][k][j] of every entry (see the header). */
static double *rounding_scale(const job_data *d) {
  const ekoc_interp *in = d->interp;
  size_t nx = in->n, nodes = (size_t)d->rule->n_nodes, k, m, j;
  int ne = d->job.n_elements, e;
  double *S = calloc((size_t)ne * nx * nx, sizeof *S), *absp = malloc(nx * sizeof *absp);
  double nre[2], scratch[EKOC_NSPACE_TOWER_SCRATCH(1)];
  ekoc_complex tower[EKOC_NSPACE_MAX_TOWER];
  if (!S || !absp) return NULL;
  for (e = 0; e < ne; ++e) {
    const ekoc_quad_element *el = &d->job.elements[e];
    const ekoc_nspace_config *cfg = &d->job.family[el->family];
    int singlet = ekoc_nspace_singlet_like(cfg);
    for (k = 0; k < nx; ++k) {
      double logx = in->logx[k];
      if (logx == 0.0 || ekoc_batch_first_basis(in->logx, nx, in->degree, logx) >= nx) continue;
      for (m = 0; m < nodes; ++m) {
        ekoc_complex n, dn, vals[EKOC_NSPACE_MAX_ELEMENTS];
        ekoc_complex f[EKOC_INTERP_MAX_DEGREE + 1], t_lo[EKOC_INTERP_MAX_DEGREE + 1], t_hi[EKOC_INTERP_MAX_DEGREE + 1];
        size_t a;
        int have_lo = 0, i;
        double wabs;
        ekoc_batch_path(d->rule->theta[m], d->rule->tc[m], d->rule->dj[m], ekoc_talbot_radius(logx), ekoc_talbot_radius(logx),
                        singlet, &n, &dn);
        nre[0] = n.re;
        nre[1] = n.im;
        if (ekoc_nspace_towers(cfg, 1, &nre[0], &nre[1], scratch, tower) != EKOC_OK ||
            !ekoc_nspace_from_tower(cfg, tower, vals))
          continue;
        /* |W| before the subtraction: the rounding of K - s is eps (|K| + |s|) */
        wabs = (c_abs(vals[el->element]) + fabs(el->subtract)) * c_abs(dn) * (d->rule->w[m] + d->rule->wg[m]) / EKOC_PI;
        for (j = 0; j < nx; ++j) absp[j] = 0.0;
        ekoc_interp_inv_powers_(n, in->degree, f);
        for (a = 0; a + 1 < nx; ++a) {
          int lower;
          size_t kmin = ekoc_interp_block_kmin(a, nx, in->degree);
          if (ekoc_interp_skip_(logx, in->logx[a + 1])) continue;
          lower = !ekoc_interp_drop_(logx, in->logx[a]);
          if (lower && !have_lo) ekoc_batch_node_terms(n, f, in->logx[a], logx, in->degree, t_lo);
          ekoc_batch_node_terms(n, f, in->logx[a + 1], logx, in->degree, t_hi);
          for (j = kmin; j <= kmin + (size_t)in->degree; ++j) {
            const double *coef =
                in->area + (in->area_offset[j] + (a - ekoc_interp_first_area(j, in->degree))) * EKOC_AREA_STRIDE(in->degree) + 2;
            for (i = 0; i <= in->degree; ++i) absp[j] += fabs(coef[i]) * (c_abs(t_hi[i]) + (lower ? c_abs(t_lo[i]) : 0.0));
          }
          for (i = 0; i <= in->degree; ++i) t_lo[i] = t_hi[i];
          have_lo = 1;
        }
        for (j = 0; j < nx; ++j) S[((size_t)e * nx + k) * nx + j] += absp[j] * wabs;
      }
    }
  }
  free(absp);
  return S;
}

/* ---- the device side: libekoc's gpu backend, or its emulation ------------------------- */

static int emulate_run(job_data *d) {
  const ekoc_interp *in = d->interp;
  const ekoc_batch_rule *rule = d->rule;
  size_t nx = in->n, nodes = (size_t)rule->n_nodes, k, idx;
  ekoc_batch_family plans[2];
  double *rulebuf = malloc(5 * nodes * sizeof(double));
  double *table = malloc(EKOC_BATCH_TABLE_LEN(in->n, in->degree) * sizeof(double));
  int f, e, rc = ekoc_batch_plan(&d->job, plans);
  if (rc != EKOC_OK || !rulebuf) return rc ? rc : EKOC_ERR_NO_MEMORY;
  if (!table) return EKOC_ERR_NO_MEMORY;
  ekoc_batch_area_table(in->area_offset, in->area, in->n, in->degree, table);
  memcpy(rulebuf, rule->w, nodes * sizeof(double));
  memcpy(rulebuf + nodes, rule->wg, nodes * sizeof(double));
  memcpy(rulebuf + 2 * nodes, rule->theta, nodes * sizeof(double));
  memcpy(rulebuf + 3 * nodes, rule->tc, nodes * sizeof(double));
  memcpy(rulebuf + 4 * nodes, rule->dj, nodes * sizeof(double));
  for (f = 0; f < 2 && rc == EKOC_OK; ++f) {
    const ekoc_batch_family *fp = &plans[f];
    ekoc_batch_family_args fa;
    ekoc_complex *tower = calloc(nx * nodes * EKOC_NSPACE_MAX_TOWER, sizeof(ekoc_complex));
    ekoc_complex *wbuf = calloc(nx * nodes * 2 * EKOC_NSPACE_MAX_ELEMENTS, sizeof(ekoc_complex));
    ekoc_complex *p = calloc(nx * nodes * nx, sizeof(ekoc_complex));
    double *out = malloc(2 * (size_t)(fp->n_el + 1) * nx * nx * sizeof(double));
    double *nre = malloc(2 * nodes * sizeof(double)),
           *scratch = malloc(EKOC_NSPACE_TOWER_SCRATCH(nodes) * sizeof(double));
    uint8_t *active = malloc(nx);
    int *status = malloc(nx * nodes * sizeof(int));
    double *radius = malloc(nx * sizeof(double));
    if (fp->n_el == 0 || !tower || !wbuf || !p || !out || !nre || !scratch || !active || !status || !radius) goto next;
    memset(&fa, 0, sizeof fa);
    fa.cfg = *fp->cfg;
    fa.singlet_like = fp->singlet_like;
    fa.len = fp->len;
    fa.n_el = fp->n_el;
    for (e = 0; e < fp->n_el; ++e) {
      fa.element[e] = fp->element[e];
      fa.diagonal[e] = d->job.elements[fp->job_el[e]].diagonal;
      fa.subtract[e] = fp->subtract[e];
    }
    for (k = 0; k < nx && rc == EKOC_OK; ++k) {
      size_t m;
      active[k] = in->logx[k] != 0.0 && ekoc_batch_first_basis(in->logx, nx, in->degree, in->logx[k]) < nx;
      radius[k] = ekoc_talbot_radius(in->logx[k]);
      if (!active[k]) continue;
      {
        ekoc_path_status path;
        rc = ekoc_path_radius(fp->cfg, in->logx[k], &radius[k], &path);
        if (rc != EKOC_OK) break;
      }
      for (m = 0; m < nodes; ++m) {
        ekoc_complex n, dn;
        ekoc_batch_path(rule->theta[m], rule->tc[m], rule->dj[m], ekoc_talbot_radius(in->logx[k]), radius[k],
                        fp->singlet_like, &n, &dn);
        nre[m] = n.re;
        nre[nodes + m] = n.im;
      }
      rc = ekoc_nspace_towers(fp->cfg, nodes, nre, nre + nodes, scratch, tower + k * nodes * fp->len);
    }
    if (rc != EKOC_OK) goto next;
    for (idx = 0; idx < nx * nodes; ++idx)
      ekoc_batch_thread_family(&fa, idx, (int32_t)nodes, in->logx, radius, rulebuf, tower, active, wbuf, status);
    for (idx = 0; idx < nx * nodes; ++idx)
      if (status[idx]) rc = EKOC_ERR_NUMERICAL;
    if (rc != EKOC_OK) goto next;
    for (idx = 0; idx < nx * nodes; ++idx)
      ekoc_batch_thread_basis(idx, 0, nx, in->degree, (int32_t)nodes, fa.singlet_like, in->logx, radius, table, rulebuf, active,
                              p);
    for (idx = 0; idx < nx * nx; ++idx)
      ekoc_batch_thread_reduce(&fa, idx, 0, nx, in->degree, (int32_t)nodes, in->logx, rulebuf, active, wbuf, p, out);
    for (e = 0; e < fp->n_el; ++e) {
      memcpy(d->val[fp->job_el[e]], out + (size_t)e * nx * nx, nx * nx * sizeof(double));
      memcpy(d->err[fp->job_el[e]], out + ((size_t)fp->n_el + e) * nx * nx, nx * nx * sizeof(double));
    }
  next:
    free(tower);
    free(wbuf);
    free(p);
    free(out);
    free(nre);
    free(scratch);
    free(active);
    free(status);
    free(radius);
  }
  free(rulebuf);
  free(table);
  return rc;
}

/* ---- checks ------------------------------------------------------------------------- */

typedef struct tally {
  size_t entries, needed_scale, failed, jobs, jobs_error;
  double max_rel;       /* over entries with |cpu| > 0 */
  double max_scaled;    /* max |diff| / (1e-10 |cpu| + 1e-12 S) */
} tally;

static int perturb = 0;

static int check_jobs(int n_jobs, int emulate, tally *t) {
  int jb;
  for (jb = 0; jb < n_jobs; ++jb) {
    job_data c, g;
    uint64_t keep = rng_state;
    size_t nf = 0, nx, i;
    int rc_c, rc_g, e;
    double *S;
    if (!job_random(&c)) return 0;
    rng_state = keep;
    if (!job_random(&g)) return 0;
    nx = c.interp->n;
    if (perturb) /* --perturb: the device side sees every ln x moved by one ulp (a stand-in for libm differences) */
      for (i = 0; i + 1 < nx; ++i) g.interp->logx[i] = nextafter(g.interp->logx[i], 0.0);
    poison(&c, NAN);
    poison(&g, 1e300);
    rc_c = ekoc_quad_run_batch(&c.job, &c.s, &nf);
    rc_g = emulate ? emulate_run(&g) : ekoc_quad_run_gpu(&g.job, &g.s, &nf);
    t->jobs++;
    if (rc_c != EKOC_OK || rc_g != EKOC_OK) {
      t->jobs_error++;
      if (rc_c != rc_g) {
        printf("job %d: cpu status %s, gpu status %s (%s)\n", jb, ekoc_status_str(rc_c), ekoc_status_str(rc_g),
               ekoc_last_error());
        t->failed++;
      }
      job_free(&c);
      job_free(&g);
      continue;
    }
    S = rounding_scale(&c);
    if (!S) return 0;
    for (e = 0; e < c.job.n_elements; ++e)
      for (i = 0; i < nx * nx; ++i) {
        double vc = c.val[e][i], vg = g.val[e][i], diff = fabs(vg - vc), s = S[(size_t)e * nx * nx + i];
        double tol = 1e-10 * fabs(vc) + 1e-12 * s, tol_err = 1e-10 * c.err[e][i] + 1e-12 * s;
        t->entries++;
        if (!(diff <= tol) || !(fabs(g.err[e][i] - c.err[e][i]) <= tol_err) || !isfinite(vg)) {
          if (t->failed == 0) {
            const ekoc_nspace_config *q = &c.job.family[c.job.elements[e].family];
            printf("job %d: nx=%zu degree=%d x=[%g..%g] cut=%g rule %dx%d; family kind=%d fam=%d order=%d nf=%d "
                   "method=%d iter=%d maxo=%d sv=%d svlog=%g thr=%d a0=%g a1=%g L=%g mm=%d\n",
                   jb, nx, (int)c.interp->degree, c.interp->x[0], c.interp->x[nx - 1], c.s.cut, c.s.batch_panels,
                   c.s.batch_points, q->kind, q->family, q->order, q->nf, q->method, q->ev_op_iterations,
                   q->ev_op_max_order, q->sv_mode, q->sv_log, q->is_threshold, q->a0, q->a1, q->ome_log,
                   q->matching_method);
          }
          if (t->failed < 20)
            printf("job %d element %d (family %d/%d) k=%zu j=%zu: gpu %.17g cpu %.17g (S %.3g), err gpu %.3g cpu %.3g\n",
                   jb, e, c.job.elements[e].family, c.job.elements[e].element, i / nx, i % nx, vg, vc, s,
                   g.err[e][i], c.err[e][i]);
          t->failed++;
        }
        if (diff > 1e-10 * fabs(vc)) t->needed_scale++;
        if (vc != 0.0) t->max_rel = fmax(t->max_rel, diff / fabs(vc));
        if (tol > 0) t->max_scaled = fmax(t->max_scaled, diff / tol);
      }
    free(S);
    job_free(&c);
    job_free(&g);
  }
  return 1;
}

/* E(N) throughput: NNLO singlet, iterate-exact, 10 iterations. */
static int bench_kernel(const ekoc_cuda_api *api, size_t n_points) {
  enum { NT = 100000, NCHK = 10000 };
  ekoc_nspace_config c;
  double *nre = malloc(2 * NT * sizeof(double)), *scratch = malloc(EKOC_NSPACE_TOWER_SCRATCH(NT) * sizeof(double));
  ekoc_complex *towers = malloc((size_t)NT * 12 * sizeof(ekoc_complex));
  ekoc_complex *out = malloc((size_t)NCHK * EKOC_NSPACE_MAX_ELEMENTS * sizeof(ekoc_complex));
  ekoc_cuda_bench res;
  char msg[EKOC_CUDA_MSG_LEN] = "";
  void *ctx = NULL;
  double t0, t_tower, worst = 0.0;
  int i, e, rc;
  if (!nre || !scratch || !towers || !out) return 0;
  memset(&c, 0, sizeof c);
  c.kind = EKOC_KIND_EVOLUTION;
  c.family = EKOC_FAMILY_SINGLET;
  c.order = 3;
  c.nf = 4;
  c.method = EKOC_METHOD_ITERATE_EXACT;
  c.ev_op_iterations = 10;
  c.ev_op_max_order = 10;
  c.a0 = 0.0279;
  c.a1 = 0.0093;
  ekoc_beta_coefficients(4, c.beta);
  for (i = 0; i < NT; ++i) { /* Talbot points of x = 1e-7 .. 0.9 */
    ekoc_complex n, dn;
    double logx = log(1e-7) * (1.0 - (double)(i % 997) / 997.0) + log(0.9) * (double)(i % 997) / 997.0;
    ekoc_talbot_point(0.5 + 0.45 * (double)(i / 997) / (NT / 997 + 1), logx, 1, &n, &dn);
    nre[i] = n.re;
    nre[NT + i] = n.im;
  }
  t0 = now_s();
  rc = ekoc_nspace_towers(&c, NT, nre, nre + NT, scratch, towers);
  t_tower = now_s() - t0;
  if (rc != EKOC_OK) {
    printf("bench: towers failed: %s\n", ekoc_last_error());
    return 0;
  }
  rc = api->ctx_new(&ctx, msg, sizeof msg);
  if (rc == EKOC_OK) rc = api->bench_family(ctx, &c, towers, 100, 1000, out, 0, &res, msg, sizeof msg); /* warm-up */
  if (rc == EKOC_OK) rc = api->bench_family(ctx, &c, towers, NT, n_points, out, NCHK, &res, msg, sizeof msg);
  api->ctx_free(ctx);
  if (rc != EKOC_OK) {
    printf("bench: %s\n", msg);
    return 0;
  }
  for (i = 0; i < NCHK; ++i) {
    ekoc_complex h[EKOC_NSPACE_MAX_ELEMENTS];
    ekoc_nspace_from_tower(&c, towers + (size_t)(i % NT) * 12, h);
    for (e = 0; e < 4; ++e) worst = fmax(worst, c_abs(c_sub(h[e], out[(size_t)i * EKOC_NSPACE_MAX_ELEMENTS + e])) / c_abs(h[e]));
  }
  printf("RESULT en_points %zu\n", n_points);
  printf("RESULT en_kernel_ms %.3f\n", res.kernel_ms);
  printf("RESULT en_per_s %.4g\n", n_points / (res.kernel_ms * 1e-3));
  printf("RESULT en_h2d_ms %.3f\n", res.h2d_ms);
  printf("RESULT en_host_tower_ns %.1f\n", t_tower / NT * 1e9);
  printf("RESULT en_max_rel_vs_host %.3g\n", worst);
  printf("RESULT en_checksum %.17g\n", res.checksum);
  free(nre);
  free(scratch);
  free(towers);
  free(out);
  return worst <= 1e-12;
}

static const ekoc_cuda_api *load(const char *lib) {
  void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  ekoc_cuda_entry_fn entry;
  if (!h) {
    printf("cannot load %s: %s\n", lib, dlerror());
    return NULL;
  }
  *(void **)(&entry) = dlsym(h, "ekoc_cuda_entry");
  return entry ? entry() : NULL;
}

int main(int argc, char **argv) {
  const char *lib = getenv("EKOC_CUDA_LIBRARY");
  size_t n_points = 10000000;
  int n_jobs = 40, emulate = 0, i, count = 0, ok = 1;
  char name[128] = "", msg[EKOC_CUDA_MSG_LEN] = "";
  const ekoc_cuda_api *api = NULL;
  tally t;
  double t0;
  for (i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc)
      rng_state ^= strtoull(argv[++i], NULL, 10) * 0x9E3779B97F4A7C15ull + 1;
    else if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
      n_jobs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--points") && i + 1 < argc)
      n_points = (size_t)atof(argv[++i]);
    else if (!strcmp(argv[i], "--lib") && i + 1 < argc)
      lib = argv[++i];
    else if (!strcmp(argv[i], "--emulate"))
      emulate = 1;
    else if (!strcmp(argv[i], "--perturb"))
      perturb = 1;
    else {
      fprintf(stderr, "usage: gpu_check [--seed S] [--jobs J] [--points P] [--lib PATH] [--emulate]\n");
      return 2;
    }
  }
  if (!emulate) {
    if (lib) api = load(lib);
    if (api) api->device_info(&count, name, sizeof name, msg, sizeof msg);
    if (!api || count < 1) {
      printf("RESULT device none (%s)\n", api ? msg : "libekoc_cuda.so not loadable");
      return 3;
    }
    if (lib) setenv("EKOC_CUDA_LIBRARY", lib, 1);
    printf("RESULT device %s\n", name);
  } else {
    printf("RESULT device emulated on the host\n");
  }
  memset(&t, 0, sizeof t);
  t0 = now_s();
  if (!check_jobs(n_jobs, emulate, &t)) {
    printf("job setup failed: %s\n", ekoc_last_error());
    return 1;
  }
  printf("RESULT jobs %zu (%zu with an error status on both sides)\n", t.jobs, t.jobs_error);
  printf("RESULT entries %zu\n", t.entries);
  printf("RESULT entries_beyond_1e-10_rel %zu\n", t.needed_scale);
  printf("RESULT max_rel_diff %.3g\n", t.max_rel);
  printf("RESULT max_diff_over_tol %.3g\n", t.max_scaled);
  printf("RESULT jobs_failed_entries %zu\n", t.failed);
  printf("RESULT jobs_seconds %.2f\n", now_s() - t0);
  if (t.failed) ok = 0;
  if (!emulate && n_points > 0 && !bench_kernel(api, n_points)) ok = 0;
  printf("RESULT check %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
