/* bench_batch.c: accuracy and speed of the batch (and gpu) backends on the
 * 14 LHA parts of `make lha` (same theory and request as perf/lha.c:
 * 60-point lambertgrid down to 1e-7, degree 4, iterate-exact with 10
 * iterations, exponentiated scale variation, mu^2 = 1e4).
 *
 * usage:
 *   bench_batch compare [--backend B] [--panels P --points Q] [--ref adaptive|tight|P,Q] [--parts 3/1,...]
 *       every element of every nonzero block of every part's operator (evolution
 *       basis, as stored) against a reference: by default the batch backend with
 *       64 panels x 16 points ("exact" to ~1e-15); `adaptive` is the adaptive
 *       driver with eko's tolerances, `tight` the adaptive driver at
 *       epsrel 1e-10. Prints per part the largest deviation in units of eko's
 *       tolerance, |d| / (1e-12 + 1e-5 |ref|), the largest relative deviation
 *       among elements above 1e-6 of their block's largest entry, and the
 *       largest absolute deviation; the last line summarises.
 *   bench_batch time [--backend B] [--panels P --points Q] [--repeat R] [--threads T]
 *       wall time of all 14 parts (best of R), and the summed wall time of
 *       the integration stages from the profile.
 *   bench_batch pieces [--repeat R]
 *       thread CPU time per N of the batch driver's pieces on the LHA grid
 *       with the 1x36 rule: ekore towers (one batch call per row) and E(N)
 *       from them for the four family kinds at NNLO / O(a_s^2), and the
 *       basis transform of all 60 basis functions at rows k = 0, 14, .., 56.
 *   bench_batch big [--backend B] [--nx 200] [--targets 50]
 *       one NNLO VFNS request: nx-point lambertgrid x `targets` scales
 *       between 10 and 1e4 GeV^2; prints its wall time.
 * BB_DEBUG=1 prints, during compare, each new worst element (block, k, j, values).
 * Exit status 0, or 1 when a computation fails, 2 on bad usage.
 */
/* the driver's translation unit is built with -O3 (Makefile); the inline
 * basis transform timed by `pieces` gets the same here */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ekoc.h"
#include "ekoc_whitebox.h" /* compare reads operators as stored; pieces times the batch driver's parts */
#include "lha_common.h"     /* now_s, part_selected, lha_backend, lha_part_setup */

#define NGRID 60

typedef struct run {
  int table, part, order, vfns;
  double rho;
} run;

static const run runs[] = {
    {2, 2, 1, 0, 1.0},  {2, 3, 1, 1, 1.0},  {3, 1, 2, 0, 1.0},  {3, 2, 2, 0, 2.0},  {3, 3, 2, 0, 0.5},
    {4, 1, 2, 1, 1.0},  {4, 2, 2, 1, 2.0},  {4, 3, 2, 1, 0.5},  {14, 1, 3, 0, 1.0}, {14, 2, 3, 0, 2.0},
    {14, 3, 3, 0, 0.5}, {15, 1, 3, 1, 1.0}, {15, 2, 3, 1, 2.0}, {15, 3, 3, 1, 0.5},
};
#define N_RUNS ((int)(sizeof runs / sizeof runs[0]))

typedef struct opts {
  int backend, panels, points, threads, repeat, nx, targets;
  int ref_kind; /* 0 batch(ref_panels, ref_points), 1 adaptive, 2 tight adaptive */
  int ref_panels, ref_points;
  const char *parts, *rules;
} opts;

static int compute(const run *r, const double *grid, int backend, int panels, int points, double epsrel, int threads,
                   ekoc_profile *prof, ekoc_operator **op) {
  ekoc_theory th;
  ekoc_request rq;
  double mu2 = 1e4;
  int32_t nf;
  int rc;
  lha_part_setup(r->order, r->vfns, r->rho, grid, NGRID, &mu2, &nf, &th, &rq); /* eko's LHA settings: */
  rq.degree = 4;
  rq.method = EKOC_METHOD_ITERATE_EXACT;
  rq.ev_op_iterations = 10;
  rq.backend = backend;
  if (panels > 0) rq.batch_panels = panels;
  if (points > 0) rq.batch_points = points;
  if (epsrel > 0) rq.epsrel = epsrel;
  rq.n_threads = threads;
  rc = ekoc_compute(&th, &rq, prof, op);
  if (rc != EKOC_OK)
    fprintf(stderr, "table %d part %d: %s: %s\n", r->table, r->part, ekoc_status_str(rc), ekoc_last_error());
  return rc;
}

typedef struct dev {
  double units, rel, abs;
  size_t n;
} dev;

/* Deviations of every element of every block present in either operator. */
static dev compare_ops(const ekoc_operator *a, const ekoc_operator *ref) {
  const ekoc_blockop *x = &a->ops[0], *y = &ref->ops[0];
  size_t nx = x->nx, i;
  int p, q;
  dev d = {0, 0, 0, 0};
  for (p = 0; p < EKOC_NB; ++p)
    for (q = 0; q < EKOC_NB; ++q) {
      const double *u = x->val[p][q], *v = y->val[p][q];
      double scale = 0.0;
      if (!u && !v) continue;
      for (i = 0; i < nx * nx; ++i) scale = fmax(scale, fabs(v ? v[i] : 0.0));
      for (i = 0; i < nx * nx; ++i) {
        double g = u ? u[i] : 0.0, w = v ? v[i] : 0.0, diff = fabs(g - w);
        if (getenv("BB_DEBUG") && diff / (1e-12 + 1e-5 * fabs(w)) > d.units)
          fprintf(stderr, "  worst so far: block (%d,%d) k=%zu j=%zu got %.17g ref %.17g\n", p, q, i / nx, i % nx, g, w);
        d.units = fmax(d.units, diff / (1e-12 + 1e-5 * fabs(w)));
        d.abs = fmax(d.abs, diff);
        if (fabs(w) > 1e-6 * scale) d.rel = fmax(d.rel, diff / fabs(w));
        d.n++;
      }
    }
  return d;
}

static double stage_sum(const ekoc_profile *prof) {
  size_t i;
  double s = 0.0;
  for (i = 0; i < ekoc_profile_count(prof); ++i) {
    const char *name;
    uint64_t a, b;
    if (ekoc_profile_get(prof, i, &name, &a, &b) != EKOC_OK) continue;
    if (!strncmp(name, "evolution", 9) || !strncmp(name, "matching", 8)) s += (b - a) * 1e-9;
  }
  return s;
}

/* Candidate rules "PxQ,PxQ,..." (or the single --panels/--points one). */
static int parse_rules(const opts *o, int rules[][2], int max) {
  const char *p = o->rules;
  int n = 0;
  if (!p) {
    rules[0][0] = o->panels;
    rules[0][1] = o->points;
    return 1;
  }
  while (*p && n < max) {
    if (sscanf(p, "%dx%d", &rules[n][0], &rules[n][1]) != 2) return 0;
    ++n;
    p = strchr(p, ',');
    if (!p) break;
    ++p;
  }
  return n;
}

static int cmd_compare(const opts *o, const double *grid) {
  int i, r, failed = 0, rules[32][2], n_rules = parse_rules(o, rules, 32);
  dev worst[32];
  const char *refname = o->ref_kind == 1 ? "adaptive" : o->ref_kind == 2 ? "adaptive epsrel 1e-10" : "batch";
  if (n_rules == 0) return 2;
  memset(worst, 0, sizeof worst);
  printf("compare backend %d against %s", o->backend, refname);
  if (o->ref_kind == 0) printf(" %d x %d", o->ref_panels, o->ref_points);
  printf("\n%-8s %-8s %12s %12s %12s %10s\n", "part", "rule", "max units", "max rel", "max abs", "elements");
  for (i = 0; i < N_RUNS; ++i) {
    ekoc_operator *b = NULL;
    if (!part_selected(o->parts, runs[i].table, runs[i].part)) continue;
    if (compute(&runs[i], grid, o->ref_kind == 0 ? EKOC_BACKEND_BATCH : EKOC_BACKEND_ADAPTIVE, o->ref_panels,
                o->ref_points, o->ref_kind == 2 ? 1e-10 : 0, o->threads, NULL, &b) != EKOC_OK) {
      failed = 1;
      continue;
    }
    for (r = 0; r < n_rules; ++r) {
      ekoc_operator *a = NULL;
      dev d;
      if (compute(&runs[i], grid, o->backend, rules[r][0], rules[r][1], 0, o->threads, NULL, &a) != EKOC_OK) {
        failed = 1;
        continue;
      }
      d = compare_ops(a, b);
      printf("%2d/%-5d %3dx%-4d %12.3e %12.3e %12.3e %10zu\n", runs[i].table, runs[i].part, rules[r][0], rules[r][1],
             d.units, d.rel, d.abs, d.n);
      fflush(stdout);
      worst[r].units = fmax(worst[r].units, d.units);
      worst[r].rel = fmax(worst[r].rel, d.rel);
      worst[r].abs = fmax(worst[r].abs, d.abs);
      worst[r].n += d.n;
      ekoc_operator_free(a);
    }
    ekoc_operator_free(b);
  }
  for (r = 0; r < n_rules; ++r)
    printf("summary: nodes=%dx%d max_units=%.3e max_rel=%.3e max_abs=%.3e elements=%zu\n", rules[r][0], rules[r][1],
           worst[r].units, worst[r].rel, worst[r].abs, worst[r].n);
  return failed;
}

static int cmd_time(const opts *o, const double *grid) {
  int rep, i;
  double best = INFINITY, best_stages = 0.0;
  ekoc_profile *prof = NULL;
  if (ekoc_profile_new(4096, &prof) != EKOC_OK) return 1;
  for (rep = 0; rep < o->repeat; ++rep) {
    double t0 = now_s(), stages = 0.0, wall;
    for (i = 0; i < N_RUNS; ++i) {
      ekoc_operator *op = NULL;
      if (!part_selected(o->parts, runs[i].table, runs[i].part)) continue;
      if (compute(&runs[i], grid, o->backend, o->panels, o->points, 0, o->threads, prof, &op) != EKOC_OK) {
        ekoc_profile_free(prof);
        return 1;
      }
      stages += stage_sum(prof);
      ekoc_operator_free(op);
    }
    wall = now_s() - t0;
    if (wall < best) {
      best = wall;
      best_stages = stages;
    }
  }
  printf("time: backend=%d nodes=%dx%d parts=14 best_of=%d wall_s=%.4f integration_stages_s=%.4f\n", o->backend,
         o->panels, o->points, o->repeat, best, best_stages);
  ekoc_profile_free(prof);
  return 0;
}

static int cmd_big(const opts *o) {
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = NULL;
  double *grid = malloc((size_t)o->nx * sizeof *grid), *mu2 = malloc((size_t)o->targets * sizeof *mu2), t0, wall;
  int i, rc;
  if (!grid || !mu2 || ekoc_grid_lambert((size_t)o->nx, 1e-7, grid) != EKOC_OK) {
    free(grid);
    free(mu2);
    return 1;
  }
  for (i = 0; i < o->targets; ++i) mu2[i] = 10.0 * pow(1e3, o->targets > 1 ? (double)i / (o->targets - 1) : 0.0);
  ekoc_theory_default(&th);
  th.order = 3;
  th.nf_ref = 3;
  ekoc_request_default(&rq);
  rq.nf0 = 3;
  rq.mu2_0 = 2.0;
  rq.mu2 = mu2;
  rq.n_targets = (size_t)o->targets;
  rq.xgrid = grid;
  rq.nx = (size_t)o->nx;
  rq.backend = o->backend;
  rq.n_threads = o->threads;
  if (o->panels > 0) rq.batch_panels = o->panels;
  if (o->points > 0) rq.batch_points = o->points;
  { /* warm-up: one small request first, so one-time set-up (CUDA context, page faults) is not timed */
    ekoc_request w = rq;
    double t1 = now_s();
    w.n_targets = 1;
    w.nx = 12;
    if (ekoc_grid_lambert(12, 1e-3, grid) == EKOC_OK) w.xgrid = grid;
    if (ekoc_compute(&th, &w, NULL, &op) == EKOC_OK) ekoc_operator_free(op);
    op = NULL;
    printf("big: warm-up (1 target, 12 points) %.4f s\n", now_s() - t1);
    if (ekoc_grid_lambert((size_t)o->nx, 1e-7, grid) != EKOC_OK) {
      free(grid);
      free(mu2);
      return 1;
    }
  }
  t0 = now_s();
  rc = ekoc_compute(&th, &rq, NULL, &op);
  wall = now_s() - t0;
  if (rc != EKOC_OK) fprintf(stderr, "big: %s: %s\n", ekoc_status_str(rc), ekoc_last_error());
  else
    printf("big: backend=%d nx=%d targets=%d NNLO VFNS wall_s=%.4f\n", o->backend, o->nx, o->targets, wall);
  ekoc_operator_free(op);
  free(grid);
  free(mu2);
  return rc != EKOC_OK;
}

static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmd_pieces(const opts *o, const double *grid) {
  static const char *names[4] = {"evolution ns NNLO", "evolution singlet NNLO", "matching ns O(as^2)",
                                 "matching singlet O(as^2)"};
  ekoc_interp *in = NULL;
  ekoc_batch_rule *rule = NULL;
  double *nre, *scratch, *table;
  ekoc_complex *tower, p[NGRID];
  int f, r, k, m, reps = o->repeat > 3 ? o->repeat : 100, M;
  double sink = 0.0;
  if (ekoc_interp_alloc(grid, NGRID, 4, &in) != EKOC_OK || ekoc_batch_rule_alloc(1, 36, 0.05, &rule) != EKOC_OK) return 1;
  M = rule->n_nodes;
  nre = malloc(2 * (size_t)M * sizeof *nre);
  scratch = malloc(EKOC_NSPACE_TOWER_SCRATCH(M) * sizeof *scratch);
  tower = malloc((size_t)M * EKOC_NSPACE_MAX_TOWER * sizeof *tower);
  table = malloc(EKOC_BATCH_TABLE_LEN(NGRID, 4) * sizeof *table);
  if (!nre || !scratch || !tower || !table) return 1;
  ekoc_batch_area_table(in->area_offset, in->area, NGRID, 4, table);
  printf("pieces (thread CPU time, 1x36 rule = %d nodes, LHA grid):\n", M);
  for (f = 0; f < 4; ++f) {
    ekoc_nspace_config c;
    double t0, t1, t2;
    memset(&c, 0, sizeof c);
    c.kind = f / 2;
    c.family = f % 2;
    c.order = f < 2 ? 3 : 2;
    c.nf = 4;
    c.method = EKOC_METHOD_ITERATE_EXACT;
    c.ev_op_iterations = 10;
    c.ev_op_max_order = 10;
    c.a0 = 0.0279;
    c.a1 = f < 2 ? 0.0093 : 0.0180;
    if (ekoc_beta(4, c.beta) != EKOC_OK) return 1;
    t0 = cpu_s();
    for (r = 0; r < reps; ++r) {
      k = r % (NGRID - 1);
      for (m = 0; m < M; ++m) {
        ekoc_complex n, dn;
        ekoc_batch_path(rule->theta[m], rule->tc[m], rule->dj[m], ekoc_talbot_radius(in->logx[k]), ekoc_talbot_radius(in->logx[k]),
                        c.family, &n, &dn);
        nre[m] = n.re;
        nre[M + m] = n.im;
      }
      if (ekoc_nspace_towers(&c, (size_t)M, nre, nre + M, scratch, tower) != EKOC_OK) return 1;
    }
    t1 = cpu_s();
    for (r = 0; r < reps; ++r)
      for (m = 0; m < M; ++m) {
        ekoc_complex v[EKOC_NSPACE_MAX_ELEMENTS];
        ekoc_nspace_from_tower(&c, tower + (size_t)m * ekoc_nspace_tower_len(&c), v);
        sink += v[0].re;
      }
    t2 = cpu_s();
    printf("  %-26s tower %6.0f ns/N   E(N) from tower %6.0f ns/N\n", names[f], (t1 - t0) / reps / M * 1e9,
           (t2 - t1) / reps / M * 1e9);
  }
  for (k = 0; k < NGRID - 1; k += 14) {
    double t0 = cpu_s();
    for (r = 0; r < reps; ++r)
      for (m = 0; m < M; ++m) {
        ekoc_complex n, dn;
        ekoc_batch_path(rule->theta[m], rule->tc[m], rule->dj[m], ekoc_talbot_radius(in->logx[k]), ekoc_talbot_radius(in->logx[k]),
                        1, &n, &dn);
        ekoc_batch_basis_all(in->logx, table, NGRID, 4, n, in->logx[k], p);
        sink += p[NGRID - 2].re;
      }
    printf("  basis transform, row k=%2d  %6.0f ns/N (%d areas above x_k)\n", k, (cpu_s() - t0) / reps / M * 1e9,
           NGRID - 1 - k);
  }
  if (sink == 12345.678) printf("%g\n", sink);
  free(nre);
  free(scratch);
  free(tower);
  free(table);
  ekoc_batch_rule_free(rule);
  ekoc_interp_free(in);
  return 0;
}

int main(int argc, char **argv) {
  opts o;
  double grid[NGRID];
  const char *cmd;
  int i;
  if (argc < 2) goto usage;
  cmd = argv[1];
  memset(&o, 0, sizeof o);
  o.backend = EKOC_BACKEND_BATCH;
  o.repeat = 3;
  o.ref_panels = 64;
  o.ref_points = 16;
  o.nx = 200;
  o.targets = 50;
  for (i = 2; i < argc; ++i) {
    if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
      if (!lha_backend(argv[++i], &o.backend)) goto usage;
    } else if (!strcmp(argv[i], "--panels") && i + 1 < argc)
      o.panels = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--points") && i + 1 < argc)
      o.points = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      o.threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
      o.repeat = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--nx") && i + 1 < argc)
      o.nx = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--targets") && i + 1 < argc)
      o.targets = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--rules") && i + 1 < argc)
      o.rules = argv[++i];
    else if (!strcmp(argv[i], "--parts") && i + 1 < argc)
      o.parts = argv[++i];
    else if (!strcmp(argv[i], "--ref") && i + 1 < argc) {
      const char *r = argv[++i];
      if (!strcmp(r, "adaptive"))
        o.ref_kind = 1;
      else if (!strcmp(r, "tight"))
        o.ref_kind = 2;
      else if (sscanf(r, "%d,%d", &o.ref_panels, &o.ref_points) != 2)
        goto usage;
    } else
      goto usage;
  }
  if (!strcmp(cmd, "big")) return cmd_big(&o);
  if (ekoc_grid_lambert(NGRID, 1e-7, grid) != EKOC_OK) {
    fprintf(stderr, "grid: %s\n", ekoc_last_error());
    return 1;
  }
  if (!strcmp(cmd, "compare")) return cmd_compare(&o, grid);
  if (!strcmp(cmd, "time")) return cmd_time(&o, grid);
  if (!strcmp(cmd, "pieces")) return cmd_pieces(&o, grid);
usage:
  fprintf(stderr,
          "usage: bench_batch compare|time|pieces|big [--backend adaptive|batch|gpu] [--panels P] [--points Q]\n"
          "       [--ref adaptive|tight|P,Q] [--parts T/P,...] [--threads N] [--repeat R] [--nx N] [--targets T]\n");
  return 2;
}
