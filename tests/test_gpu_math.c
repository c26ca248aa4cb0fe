/* test_gpu_math.c: the device math of the gpu backend, compiled for the host
 * (src/ad/nspace.h, src/quad/batch_math.h, src/quad/batch_kernels.h): the
 * towers of every N-space family against the single-point ekore calls and
 * the one-point evaluator ekoc_nspace_eval, the CUDA kernels' per-thread
 * bodies run in plain loops (with libekoc_cuda.so's buffer layouts and row
 * chunks) against the CPU batch driver, and the gpu backend itself, which
 * skips with its reason where no device is present. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/beta.h"
#include "ekoc.h"
#include "ad/nspace.h"
#include "ekore.h"
#include "quad/batch_host.h"
#include "quad/batch_kernels.h"
#include "quad/batch_math.h"
#include "quad/batch_plan.h"
#include "quad/batch_rule.h"
#include "quad/interp.h"
#include "quad/job.h"
#include "quad/path_radius.h"
#include "test_util.h"

static void cfg_make(ekoc_nspace_config *c, int kind, int family, int order, int nf, int method, int sv_mode,
                     int matching_method) {
  memset(c, 0, sizeof *c);
  c->kind = kind;
  c->family = family;
  c->order = order;
  c->nf = nf;
  c->method = method;
  c->ev_op_iterations = 7;
  c->ev_op_max_order = 6;
  c->sv_mode = sv_mode;
  c->sv_log = sv_mode ? log(2.0) : 0.0;
  c->a0 = 0.0279;
  c->a1 = kind == EKOC_KIND_EVOLUTION ? 0.0121 : 0.0168;
  c->ome_log = kind == EKOC_KIND_MATCHING ? -0.4 : 0.0;
  c->matching_method = matching_method;
  ekoc_beta_coefficients(nf, c->beta);
}

enum { NP = 44 };

/* 40 points of two Talbot paths (offsets 0 and 1) plus a few off them. */
static void test_points(double *nre, double *nim) {
  int p;
  for (p = 0; p < 40; ++p) {
    double u = 0.5 + 0.44 * p / 39.0, logx = p < 20 ? -9.2 : -0.3;
    ekoc_complex n, dn;
    ekoc_talbot_point(u, logx, p % 2, &n, &dn);
    nre[p] = n.re;
    nim[p] = n.im;
  }
  nre[40] = 2.5, nim[40] = 1.5;
  nre[41] = 0.7, nim[41] = -3.2;
  nre[42] = 17.0, nim[42] = 40.0;
  nre[43] = 1.9, nim[43] = 0.0;
}

/* The towers of ekoc_nspace_towers (ekore's batch calls for evolution) hold
 * bitwise what the single-point ekore calls give at each point: every
 * family, order and nf, the OMEs at two ln(mu_h^2/m_h^2). */
static void test_towers_equal_single_point_ekore(void **state) {
  double nre[NP], nim[NP], scratch[EKOC_NSPACE_TOWER_SCRATCH(NP)], re[EKOC_NSPACE_MAX_TOWER], im[EKOC_NSPACE_MAX_TOWER];
  ekoc_complex tower[NP * EKOC_NSPACE_MAX_TOWER];
  static const uint32_t modes[3] = {EKORE_MODE_NS_PLUS, EKORE_MODE_NS_MINUS, EKORE_MODE_NS_V};
  int kind, fam, order, nf, lg, p, m, i, checked = 0;
  (void)state;
  test_points(nre, nim);
  for (kind = 0; kind < 2; ++kind)
    for (fam = 0; fam < 2; ++fam)
      for (order = 1; order <= (kind ? 2 : 3); ++order)
        for (nf = 3; nf <= 6; ++nf)
          for (lg = 0; lg < (kind ? 2 : 1); ++lg) {
            ekoc_nspace_config c;
            int len;
            cfg_make(&c, kind, fam, order, nf, 0, 0, 0);
            c.ome_log = kind ? (lg ? 0.8 : -0.4) : 0.0;
            len = ekoc_nspace_tower_len(&c);
            assert_int_equal(ekoc_nspace_towers(&c, NP, nre, nim, scratch, tower), EKOC_OK);
            for (p = 0; p < NP; ++p) {
              const ekoc_complex *t = tower + (size_t)p * len;
              for (m = 0; m < (kind == 0 && fam == 0 ? 3 : 1); ++m) {
                int32_t rc, w = kind == 0 && fam == 0 ? order : len;
                if (kind == 0)
                  rc = fam == 0 ? ekore_gamma_ns(order, modes[m], nre[p], nim[p], nf, re, im)
                                : ekore_gamma_singlet(order, nre[p], nim[p], nf, re, im);
                else
                  rc = fam == 0 ? ekore_ome_ns(order, nre[p], nim[p], nf, c.ome_log, re, im)
                                : ekore_ome_singlet(order, nre[p], nim[p], nf, c.ome_log, re, im);
                assert_int_equal(rc, 0);
                for (i = 0; i < w; ++i, ++checked)
                  if (memcmp(&t[m * w + i].re, &re[i], sizeof re[i]) || memcmp(&t[m * w + i].im, &im[i], sizeof im[i]))
                    fail_msg("kind %d family %d order %d nf %d point %d mode %d entry %d: (%.17g,%.17g) vs "
                             "(%.17g,%.17g)",
                             kind, fam, order, nf, p, m, i, t[m * w + i].re, t[m * w + i].im, re[i], im[i]);
              }
            }
          }
  assert_true(checked > 20000);
}

/* Towers for many points then ekoc_nspace_from_tower equal the one-point
 * evaluator ekoc_nspace_eval bitwise: every method, order, scale-variation
 * mode and matching method, both families. */
static void test_towers_equal_cpu_evaluator(void **state) {
  double nre[NP], nim[NP], scratch[EKOC_NSPACE_TOWER_SCRATCH(NP)];
  ekoc_complex tower[NP * EKOC_NSPACE_MAX_TOWER];
  int kind, fam, order, method, sv, mm, p, e, checked = 0;
  (void)state;
  test_points(nre, nim);
  for (kind = 0; kind < 2; ++kind)
    for (fam = 0; fam < 2; ++fam)
      for (order = kind ? 1 : 1; order <= (kind ? 2 : 3); ++order)
        for (method = 0; method < (kind ? 1 : EKOC_METHOD_COUNT); ++method)
          for (sv = 0; sv <= 2; ++sv)
            for (mm = 0; mm < (kind ? 3 : 1); ++mm) {
              ekoc_nspace_config c;
              if (kind && sv == 2) continue; /* matchings know no expanded mode */
              cfg_make(&c, kind, fam, order, 3 + (method + order) % 4, method, sv, mm);
              assert_int_equal(ekoc_nspace_cfg_check(&c), EKOC_OK);
              assert_int_equal(ekoc_nspace_towers(&c, NP, nre, nim, scratch, tower), EKOC_OK);
              for (p = 0; p < NP; ++p) {
                ekoc_complex a[EKOC_NSPACE_MAX_ELEMENTS], b[EKOC_NSPACE_MAX_ELEMENTS];
                int rc = ekoc_nspace_eval(&c, c_make(nre[p], nim[p]), a);
                int ok = ekoc_nspace_from_tower(&c, tower + (size_t)p * ekoc_nspace_tower_len(&c), b);
                assert_int_equal(rc == EKOC_OK, ok);
                if (!ok) continue;
                for (e = 0; e < ekoc_nspace_family_size(&c); ++e) {
                  if (memcmp(&a[e], &b[e], sizeof a[e]) != 0)
                    fail_msg("kind %d family %d order %d method %d sv %d mm %d point %d element %d: (%.17g,%.17g) vs "
                             "(%.17g,%.17g)",
                             kind, fam, order, method, sv, mm, p, e, a[e].re, a[e].im, b[e].re, b[e].im);
                  ++checked;
                }
              }
            }
  assert_true(checked > 10000);
}

/* ekoc_nspace_from_towers (the batch driver's: the ordered-exact singlet
 * kernel for groups of points at once) equals ekoc_nspace_from_tower point by
 * point bitwise: every method (ordered-exact takes the grouped path), order
 * and scale-variation mode, both families, a count that leaves a short last
 * group, and strided towers and outputs. */
static void test_from_towers_equal_per_point(void **state) {
  double nre[NP], nim[NP], scratch[EKOC_NSPACE_TOWER_SCRATCH(NP)];
  ekoc_complex tower[NP * EKOC_NSPACE_MAX_TOWER], many[NP * (EKOC_NSPACE_MAX_ELEMENTS + 1)];
  int fam, order, method, sv, p, e, checked = 0;
  const size_t count = NP - 3, out_stride = EKOC_NSPACE_MAX_ELEMENTS + 1;
  (void)state;
  test_points(nre, nim);
  for (fam = 0; fam < 2; ++fam)
    for (order = 1; order <= 3; ++order)
      for (method = 0; method < EKOC_METHOD_COUNT; ++method)
        for (sv = 0; sv <= 2; ++sv) {
          ekoc_nspace_config c;
          size_t len;
          cfg_make(&c, EKOC_KIND_EVOLUTION, fam, order, 3 + (method + order) % 4, method, sv, 0);
          len = (size_t)ekoc_nspace_tower_len(&c);
          assert_int_equal(ekoc_nspace_towers(&c, NP, nre, nim, scratch, tower), EKOC_OK);
          assert_int_equal(ekoc_nspace_from_towers(&c, count, tower, len, many, out_stride), count);
          for (p = 0; p < (int)count; ++p) {
            ekoc_complex one[EKOC_NSPACE_MAX_ELEMENTS];
            assert_true(ekoc_nspace_from_tower(&c, tower + (size_t)p * len, one));
            for (e = 0; e < ekoc_nspace_family_size(&c); ++e, ++checked)
              if (memcmp(&one[e], &many[(size_t)p * out_stride + e], sizeof one[e]) != 0)
                fail_msg("family %d order %d method %d sv %d point %d element %d: (%.17g,%.17g) vs (%.17g,%.17g)", fam,
                         order, method, sv, p, e, one[e].re, one[e].im, many[(size_t)p * out_stride + e].re,
                         many[(size_t)p * out_stride + e].im);
          }
        }
  assert_true(checked > 5000);
}

/* A bad N reaches ekore's domain check through the batch call; for one point
 * the message names N. */
static void test_towers_bad_point(void **state) {
  double nre[2] = {2.0, 1.0}, nim[2] = {0.0, 0.0}, scratch[EKOC_NSPACE_TOWER_SCRATCH(2)];
  ekoc_complex tower[2 * EKOC_NSPACE_MAX_TOWER];
  ekoc_nspace_config c;
  (void)state;
  cfg_make(&c, EKOC_KIND_EVOLUTION, EKOC_FAMILY_SINGLET, 3, 4, 0, 0, 0);
  assert_int_equal(ekoc_nspace_towers(&c, 2, nre, nim, scratch, tower), EKOC_ERR_ANOMALOUS_DIMENSION);
  assert_non_null(strstr(ekoc_last_error(), "ekore_gamma_singlet_batch"));
  /* one point: the message names N */
  assert_int_equal(ekoc_nspace_eval(&c, c_make(1.0, 0.0), tower), EKOC_ERR_ANOMALOUS_DIMENSION);
  assert_non_null(strstr(ekoc_last_error(), "N=(1,0)"));
  cfg_make(&c, EKOC_KIND_MATCHING, EKOC_FAMILY_NS, 2, 4, 0, 0, 0);
  assert_int_equal(ekoc_nspace_eval(&c, c_make(0.0, 0.0), tower), EKOC_ERR_ANOMALOUS_DIMENSION);
  assert_non_null(strstr(ekoc_last_error(), "ekore_ome_ns"));
  assert_non_null(strstr(ekoc_last_error(), " at N=(0,0)"));
}

/* The towers from packed harmonic sums (the N-space cache's path,
 * quad/nspace_cache.h) are bitwise those from N for the families that take
 * them (unpolarized QCD evolution, orders 1..4, nf 3..6, two N3LO choices;
 * the unpolarized OMEs, orders 1..2); the others (polarized, time-like)
 * ignore the sums and give the N path's towers; a pole is refused through
 * the sums too. */
static void test_towers_from_sums_bitwise(void **state) {
  double nre[NP], nim[NP], scratch[EKOC_NSPACE_TOWER_SCRATCH(NP)], sums[NP * EKOC_NSPACE_SUMS_LEN];
  ekoc_complex a[NP * EKOC_NSPACE_MAX_TOWER], b[NP * EKOC_NSPACE_MAX_TOWER];
  int kind, fam, order, nf, axis, v, taking = 0, other = 0;
  (void)state;
  test_points(nre, nim);
  assert_int_equal(ekoc_nspace_sums(NP, nre, nim, sums), EKOC_OK);
  for (kind = 0; kind < 2; ++kind)
    for (fam = 0; fam < 2; ++fam)
      for (order = 1; order <= (kind ? 2 : 4); ++order)
        for (nf = 3; nf <= 6; ++nf)
          for (axis = 0; axis < 3; ++axis)
            for (v = 0; v < (order == 4 ? 2 : 1); ++v) {
              ekoc_nspace_config c;
              size_t len;
              cfg_make(&c, kind, fam, order, nf, 0, 0, 0);
              c.polarized = axis == 1;
              c.time_like = axis == 2;
              if (axis && (order > 3 || kind)) continue; /* outside the axes' orders; their OMEs per point */
              if (order == 4 && (nf == 6 || axis)) continue;
              if (v) c.n3lo_ad_variation[0] = 2, c.use_fhmruvv = 0;
              else if (order == 4) c.use_fhmruvv = 1;
              len = (size_t)ekoc_nspace_tower_len(&c) * NP;
              memset(a, 0, sizeof a);
              memset(b, 0xff, sizeof b);
              assert_int_equal(ekoc_nspace_towers(&c, NP, nre, nim, scratch, a), EKOC_OK);
              assert_int_equal(ekoc_nspace_towers_from_sums(&c, NP, nre, nim, sums, scratch, b), EKOC_OK);
              assert_memory_equal(a, b, len * sizeof(ekoc_complex));
              assert_int_equal(ekoc_nspace_takes_sums(&c), axis == 0);
              if (ekoc_nspace_takes_sums(&c)) ++taking;
              else ++other;
            }
  assert_int_equal(taking, 2 * (3 * 4 + 2 * 3) + 2 * 2 * 4); /* evolution, then the OMEs */
  assert_true(other > 0);
  { /* a pole: refused by the sums, and by the singlet's towers through them */
    double pre[2] = {2.0, -1.0}, pim[2] = {0.0, 0.0}, one_re[2] = {2.0, 1.0};
    ekoc_nspace_config c;
    assert_int_equal(ekoc_nspace_sums(2, pre, pim, sums), EKOC_ERR_ANOMALOUS_DIMENSION);
    assert_non_null(strstr(ekoc_last_error(), "ekore_sums_batch"));
    assert_int_equal(ekoc_nspace_sums(2, one_re, pim, sums), EKOC_OK);
    cfg_make(&c, EKOC_KIND_EVOLUTION, EKOC_FAMILY_SINGLET, 3, 4, 0, 0, 0);
    assert_int_equal(ekoc_nspace_towers_from_sums(&c, 2, one_re, pim, sums, scratch, a), EKOC_ERR_ANOMALOUS_DIMENSION);
    assert_non_null(strstr(ekoc_last_error(), "ekore_gamma_singlet_batch_sums"));
  }
}

/* ---- the kernels' bodies, emulated on the host ------------------------------------ */

#define NX 16

typedef struct job_data {
  ekoc_interp *interp;
  ekoc_quad_job job;
  double *val[EKOC_JOB_MAX_ELEMENTS], *err[EKOC_JOB_MAX_ELEMENTS];
} job_data;

static void job_make(job_data *d, int matching, int grid_to_one) {
  double grid[NX];
  int e, n = 0, f;
  memset(d, 0, sizeof *d);
  assert_int_equal(ekoc_grid_lambert(NX, 1e-6, grid), EKOC_OK);
  if (!grid_to_one) grid[NX - 1] = 0.97; /* a grid that stops below x = 1: the corner row is inverted */
  assert_int_equal(ekoc_interp_alloc(grid, NX, 4, &d->interp), EKOC_OK);
  d->job.interp = d->interp;
  d->job.n_families = 2;
  for (f = 0; f < 2; ++f)
    cfg_make(&d->job.family[f], matching, f, matching ? 2 : 3, 5, EKOC_METHOD_ITERATE_EXACT, 1,
             EKOC_MATCHING_BACKWARD_EXACT);
  for (f = 0; f < 2; ++f) {
    int size = ekoc_nspace_family_size(&d->job.family[f]);
    for (e = 0; e < size; ++e, ++n) {
      int diag = f == 0 ? 1 : matching ? (e == 0 || e == 4 || e == 8) : (e == 0 || e == 3);
      d->job.elements[n].family = f;
      d->job.elements[n].element = e;
      d->job.elements[n].diagonal = diag;
      d->job.elements[n].subtract = matching && diag ? 1.0 : 0.0;
    }
  }
  d->job.n_elements = n;
  for (e = 0; e < n; ++e) {
    int i;
    d->val[e] = malloc(NX * NX * sizeof(double));
    d->err[e] = malloc(NX * NX * sizeof(double));
    assert_non_null(d->val[e]);
    assert_non_null(d->err[e]);
    for (i = 0; i < NX * NX; ++i) d->val[e][i] = d->err[e][i] = NAN;
    d->job.elements[e].value = d->val[e];
    d->job.elements[e].error = d->err[e];
  }
}

static void job_free(job_data *d) {
  int e;
  for (e = 0; e < d->job.n_elements; ++e) {
    free(d->val[e]);
    free(d->err[e]);
  }
  ekoc_interp_free(d->interp);
}

/* What libekoc_cuda.so's run does, with its buffers as host arrays and its
 * kernels as loops over the thread index; rows in chunks of `chunk`. */
static void emulate_gpu(const ekoc_quad_job *job, const ekoc_batch_rule *rule, size_t chunk) {
  const ekoc_interp *in = job->interp;
  size_t nx = in->n, nodes = (size_t)rule->n_nodes, k, idx, k0;
  ekoc_batch_family plans[2];
  double *rulebuf = malloc(5 * nodes * sizeof(double));
  double *table = malloc(EKOC_BATCH_TABLE_LEN(in->n, in->degree) * sizeof(double));
  int f, e;
  assert_int_equal(ekoc_batch_plan(job, plans), EKOC_OK);
  assert_non_null(rulebuf);
  assert_non_null(table);
  ekoc_batch_area_table(in->area_offset, in->area, in->n, in->degree, table);
  memcpy(rulebuf, rule->w, nodes * sizeof(double));
  memcpy(rulebuf + nodes, rule->wg, nodes * sizeof(double));
  memcpy(rulebuf + 2 * nodes, rule->theta, nodes * sizeof(double));
  memcpy(rulebuf + 3 * nodes, rule->tc, nodes * sizeof(double));
  memcpy(rulebuf + 4 * nodes, rule->dj, nodes * sizeof(double));
  for (f = 0; f < job->n_families; ++f) {
    const ekoc_batch_family *fp = &plans[f];
    ekoc_batch_family_args fa;
    ekoc_complex *tower = calloc(nx * nodes * EKOC_NSPACE_MAX_TOWER, sizeof(ekoc_complex));
    ekoc_complex *wbuf = calloc(nx * nodes * 2 * EKOC_NSPACE_MAX_ELEMENTS, sizeof(ekoc_complex));
    ekoc_complex *p = calloc(chunk * nodes * nx, sizeof(ekoc_complex));
    double *out = malloc(2 * (size_t)fp->n_el * nx * nx * sizeof(double));
    double *nre = malloc(2 * nodes * sizeof(double)),
           *scratch = malloc(EKOC_NSPACE_TOWER_SCRATCH(nodes) * sizeof(double));
    uint8_t *active = malloc(nx);
    int *status = malloc(nx * nodes * sizeof(int));
    double *radius = malloc(nx * sizeof(double));
    assert_true(tower && wbuf && p && out && nre && scratch && active && status && radius);
    memset(&fa, 0, sizeof fa);
    fa.cfg = *fp->cfg;
    fa.singlet_like = fp->singlet_like;
    fa.len = fp->len;
    fa.n_el = fp->n_el;
    for (e = 0; e < fp->n_el; ++e) {
      fa.element[e] = fp->element[e];
      fa.diagonal[e] = job->elements[fp->job_el[e]].diagonal;
      fa.subtract[e] = fp->subtract[e];
    }
    for (k = 0; k < nx; ++k) { /* host staging, as gpu_loader.c */
      size_t m;
      active[k] = in->logx[k] != 0.0 && ekoc_batch_first_basis(in->logx, nx, in->degree, in->logx[k]) < nx;
      radius[k] = ekoc_talbot_radius(in->logx[k]);
      if (!active[k]) continue;
      {
        ekoc_path_status path;
        assert_int_equal(ekoc_path_radius(fp->cfg, in->logx[k], &radius[k], &path), EKOC_OK);
      }
      for (m = 0; m < nodes; ++m) {
        ekoc_complex n, dn;
        ekoc_batch_path(rule->theta[m], rule->tc[m], rule->dj[m], ekoc_talbot_radius(in->logx[k]), radius[k],
                        fp->singlet_like, &n, &dn);
        nre[m] = n.re;
        nre[nodes + m] = n.im;
      }
      assert_int_equal(ekoc_nspace_towers(fp->cfg, nodes, nre, nre + nodes, scratch, tower + k * nodes * fp->len),
                       EKOC_OK);
    }
    for (idx = 0; idx < nx * nodes; ++idx)
      ekoc_batch_thread_family(&fa, idx, (int32_t)nodes, in->logx, radius, rulebuf, tower, active, wbuf, status);
    for (idx = 0; idx < nx * nodes; ++idx) assert_int_equal(status[idx], 0);
    for (k0 = 0; k0 < nx; k0 += chunk) {
      size_t rows = nx - k0 < chunk ? nx - k0 : chunk;
      for (idx = 0; idx < rows * nodes; ++idx)
        ekoc_batch_thread_basis(idx, k0, nx, in->degree, (int32_t)nodes, fa.singlet_like, in->logx, radius, table, rulebuf,
                                active, p);
      for (idx = 0; idx < rows * nx; ++idx)
        ekoc_batch_thread_reduce(&fa, idx, k0, nx, in->degree, (int32_t)nodes, in->logx, rulebuf, active, wbuf, p, out);
    }
    for (e = 0; e < fp->n_el; ++e) {
      memcpy(job->elements[fp->job_el[e]].value, out + (size_t)e * nx * nx, nx * nx * sizeof(double));
      memcpy(job->elements[fp->job_el[e]].error, out + ((size_t)fp->n_el + e) * nx * nx, nx * nx * sizeof(double));
    }
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
}

/* The kernel bodies in the device's order give the CPU's base-rule bits
 * (ekoc_batch_host_base), and with the host's error control
 * (ekoc_batch_host_finish, as gpu_loader.c runs it) the CPU batch driver's
 * values, errors and flags, for evolution and backward-exact matching jobs,
 * grids ending at and below 1, row chunks of 1, 5 and all. */
static void test_kernels_equal_cpu_batch(void **state) {
  int matching, to_one;
  size_t chunks[3] = {1, 5, NX}, c;
  (void)state;
  for (matching = 0; matching < 2; ++matching)
    for (to_one = 0; to_one < 2; ++to_one)
      for (c = 0; c < 3; ++c) {
        job_data a, b;
        ekoc_quad_settings s;
        ekoc_batch_rule *rule = NULL;
        size_t nf = 0;
        int e;
        memset(&s, 0, sizeof s);
        s.epsabs = 1e-12;
        s.epsrel = 1e-5;
        s.limit = 100;
        s.cut = 0.05;
        s.batch_panels = 2;
        s.batch_points = 9;
        s.n_threads = 2;
        job_make(&a, matching, to_one);
        job_make(&b, matching, to_one);
        size_t nf_gpu = 0;
        assert_int_equal(ekoc_batch_rule_alloc(s.batch_panels, s.batch_points, s.cut, &rule), EKOC_OK);
        assert_int_equal(ekoc_batch_host_base(&a.job, &s, rule), EKOC_OK);
        emulate_gpu(&b.job, rule, chunks[c]);
        for (e = 0; e < a.job.n_elements; ++e) {
          assert_memory_equal(a.val[e], b.val[e], NX * NX * sizeof(double));
          assert_memory_equal(a.err[e], b.err[e], NX * NX * sizeof(double));
        }
        assert_int_equal(ekoc_quad_run_batch(&a.job, &s, &nf), EKOC_OK);
        assert_int_equal(ekoc_batch_host_finish(&b.job, &s, rule, NULL, &nf_gpu), EKOC_OK);
        assert_int_equal(nf, nf_gpu);
        for (e = 0; e < a.job.n_elements; ++e) {
          assert_memory_equal(a.val[e], b.val[e], NX * NX * sizeof(double));
          assert_memory_equal(a.err[e], b.err[e], NX * NX * sizeof(double));
        }
        /* not trivially zero: the rows below x = 1 carry the evolution */
        assert_true(fabs(a.val[0][3 * NX + 5]) > 1e-6);
        ekoc_batch_rule_free(rule);
        job_free(&a);
        job_free(&b);
      }
}

/* ---- the backend ---------------------------------------------------------------------- */

/* With a device: gpu within 1e-10 relative of the CPU batch driver on most
 * entries and within the rounding bound everywhere (perf/gpu_check.sh does
 * the full check). Without one: EKOC_ERR_NO_DEVICE and a message saying why,
 * then the test is skipped. */
static void test_gpu_backend_or_skip(void **state) {
  job_data a, b;
  ekoc_quad_settings s;
  size_t nf = 0, i;
  int rc, e;
  (void)state;
  memset(&s, 0, sizeof s);
  s.cut = 0.05;
  s.batch_panels = 1;
  s.batch_points = 36;
  job_make(&a, 0, 1);
  job_make(&b, 0, 1);
  rc = ekoc_quad_run_gpu(&b.job, &s, &nf);
  if (rc == EKOC_ERR_NO_DEVICE) {
    const char *why = ekoc_last_error();
    assert_non_null(strstr(why, "backend gpu unavailable"));
    printf("[  SKIP    ] gpu backend: %s\n", why);
    job_free(&a);
    job_free(&b);
    skip();
  }
  assert_int_equal(rc, EKOC_OK);
  assert_int_equal(ekoc_quad_run_batch(&a.job, &s, &nf), EKOC_OK);
  for (e = 0; e < a.job.n_elements; ++e)
    for (i = 0; i < NX * NX; ++i) assert_close(b.val[e][i], a.val[e][i], 1e-8, 1e-12);
  job_free(&a);
  job_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_towers_equal_single_point_ekore),
      cmocka_unit_test(test_towers_equal_cpu_evaluator),
      cmocka_unit_test(test_from_towers_equal_per_point),
      cmocka_unit_test(test_towers_bad_point),
      cmocka_unit_test(test_towers_from_sums_bitwise),
      cmocka_unit_test(test_kernels_equal_cpu_batch),
      cmocka_unit_test(test_gpu_backend_or_skip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
