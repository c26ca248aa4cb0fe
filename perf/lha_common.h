/* lha_common.h: what perf/lha.c (the unpolarised LHA parts) and
 * perf/lha_polarized.c (the polarized ones) share: the wall clock, the
 * --parts filter, the deviation statistics and the summary line, the
 * backend names and the x grids of both settings (README, `make lha`). Header-only: each
 * benchmark is one translation unit. */
#ifndef EKOC_PERF_LHA_COMMON_H
#define EKOC_PERF_LHA_COMMON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ekoc.h"

/* Wall-clock seconds (monotonic). */
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* qsort order of doubles. */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Whether part table/part is in the comma-separated --parts list ("3/1,15/2";
 * NULL: every part). */
static int part_selected(const char *parts, int table, int part) {
  char key[16];
  const char *p;
  size_t n;
  if (!parts) return 1;
  n = (size_t)snprintf(key, sizeof key, "%d/%d", table, part);
  for (p = parts; (p = strstr(p, key)) != NULL; p += n)
    if ((p == parts || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
  return 0;
}

/* The deviations of one run, for the summary line. */
typedef struct stats {
  double *dev; /* relative deviations */
  size_t n, cap;
  size_t within_unit, compared, exceptions, failures;
  double worst;
  char worst_where[96];
} stats;

/* Records one relative deviation; `where` names the entry (for worst=). */
static void stats_add(stats *s, double dev, const char *where) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 256;
    s->dev = realloc(s->dev, s->cap * sizeof *s->dev);
    if (!s->dev) exit(1);
  }
  s->dev[s->n++] = dev;
  if (dev > s->worst || s->n == 1) {
    s->worst = dev;
    snprintf(s->worst_where, sizeof s->worst_where, "%s", where);
  }
}

/* The converged settings (README; perf/STATS.md "LHA converged: every entry
 * explained"): degree 6 on the grid below, ordered-exact with 8 steps of the
 * sixth-order Magnus formula (the x = 0.9 sea entries, 1e-5 of the valence
 * there, set the count: 5 steps leave one unexplained, 6 every entry within
 * 4e-6 of the many-step limit, 8 all but one printed digit on it, 10 all;
 * 8 keeps a margin for 5 % more time; perf/STATS.md "ordered-exact:
 * sixth-order Magnus steps"), Mellin cut 0.01 (degree 6 flags integrals at
 * eko's 0.05). */
#define LHA_CONVERGED_DEGREE 6
#define LHA_CONVERGED_STEPS 8
#define LHA_CONVERGED_MELLIN_CUT 0.01

/* The converged settings' grid (README): the knots and, between them, equal
 * steps of at most 0.25 in ln(x/(1-x)) (0.15 above x = 0.3), then 1; returns
 * the number of points. */
static int converged_grid(double *grid) {
  static const double knots[] = {1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99};
  const int n_knots = (int)(sizeof knots / sizeof knots[0]);
  int k, m = 0;
  for (k = 0; k + 1 < n_knots; ++k) {
    const double dz = knots[k] < 0.3 ? 0.25 : 0.15; /* finer where the PDFs fall like (1-x)^3..6 */
    double za = log(knots[k] / (1 - knots[k])), zb = log(knots[k + 1] / (1 - knots[k + 1]));
    int steps = (int)ceil((zb - za) / dz - 0.3), q;
    grid[m++] = knots[k];
    for (q = 1; q < steps; ++q) grid[m++] = 1.0 / (1.0 + exp(-(za + (zb - za) * q / steps)));
  }
  grid[m++] = knots[n_knots - 1];
  grid[m++] = 1.0;
  return m;
}

/* Sorts s->dev and returns its median (0 when empty). */
static double stats_median(stats *s) {
  if (!s->n) return 0.0;
  qsort(s->dev, s->n, sizeof *s->dev, cmp_double);
  return s->n % 2 ? s->dev[s->n / 2] : 0.5 * (s->dev[s->n / 2 - 1] + s->dev[s->n / 2]);
}

/* The --backend names, indexed by EKOC_BACKEND_*. */
static const char *const lha_backend_names[] = {
    [EKOC_BACKEND_ADAPTIVE] = "adaptive",
    [EKOC_BACKEND_BATCH] = "batch",
    [EKOC_BACKEND_GPU] = "gpu",
    [EKOC_BACKEND_NSPACE] = "nspace",
    [EKOC_BACKEND_AUTO] = "auto",
};

/* The engine the last computation ran (ekoc_operator_backend), -1 before any:
 * with --backend auto the summary line names it. */
static int lha_engine_ran = -1;
static void lha_note_engine(const ekoc_operator *op) { lha_engine_ran = ekoc_operator_backend(op); }
#define LHA_N_BACKENDS ((int)(sizeof lha_backend_names / sizeof *lha_backend_names))

/* The backend of --backend `name` into *out; 0 for an unknown name. */
static int lha_backend(const char *name, int *out) {
  int b;
  for (b = 0; b < LHA_N_BACKENDS; ++b)
    if (!strcmp(name, lha_backend_names[b])) {
      *out = b;
      return 1;
    }
  return 0;
}

/* The --backend name of an EKOC_BACKEND_*. */
static const char *lha_backend_name(int backend) {
  return backend >= 0 && backend < LHA_N_BACKENDS ? lha_backend_names[backend] : "?";
}

/* The x grid of a run (the converged one, setting *ngrid, or eko's lambertgrid
 * of *ngrid points from 1e-7) and its basis of `degree`; 0 on failure. */
static int lha_grid(int converged, int *ngrid, int degree, double *grid, ekoc_interp **interp) {
  if (converged) *ngrid = converged_grid(grid);
  return (converged || ekoc_grid_lambert((size_t)*ngrid, 1e-7, grid) == EKOC_OK) &&
         ekoc_interp_alloc(grid, (size_t)*ngrid, degree, interp) == EKOC_OK;
}

/* Theory and request of one LHA part (hep-ph/0511119 section 4, eko's
 * benchmark setup): perturbative order `order`, alpha_s = 0.35 at mu^2 = 2
 * GeV^2, mu_R^2 = rho mu_F^2 (exponentiated scale variation when rho != 1),
 * the ZM-VFNS from 3 flavours or eko's FFNS (4 flavours: charm threshold at 0,
 * bottom and top at infinity), from mu_0^2 = 2 GeV^2 to *mu2 with *nf_target
 * flavours (set here: 5 in the VFNS, 4 in the FFNS), on grid[0..nx-1]. The
 * rest (degree, method, backend, axes, ...) is the caller's. */
static void lha_part_setup(int order, int vfns, double rho, const double *grid, size_t nx, const double *mu2,
                           int32_t *nf_target, ekoc_theory *th, ekoc_request *rq) {
  ekoc_theory_default(th);
  ekoc_request_default(rq);
  th->order = order;
  th->alphas = 0.35;
  th->mu2_ref = 2.0;
  th->xif = sqrt(rho);
  if (vfns) {
    th->nf_ref = 3;
    rq->nf0 = 3;
    *nf_target = 5;
  } else {
    th->nf_ref = 4;
    th->matching_ratios[0] = 0.0;
    th->matching_ratios[1] = th->matching_ratios[2] = INFINITY;
    rq->nf0 = 4;
    *nf_target = 4;
  }
  rq->mu2_0 = 2.0;
  rq->mu2 = mu2;
  rq->nf = nf_target;
  rq->n_targets = 1;
  rq->xgrid = grid;
  rq->nx = nx;
  rq->sv_mode = rho == 1.0 ? EKOC_SV_NONE : EKOC_SV_EXPONENTIATED;
}

/* The options every LHA program takes (README): --backend, --threads,
 * --parts, --settings, --quiet, --physics (eko or exact: theory.physics,
 * docs/physics.md §12.9; exact is the physics of the codes that made the tables). */
typedef struct lha_cli {
  const char *backend_name, *parts, *settings, *physics_name;
  int threads, quiet;
  int physics; /* EKOC_PHYSICS_* of --physics (set by lha_cli_check) */
} lha_cli;

static lha_cli lha_cli_default(void) {
  lha_cli c = {"auto", NULL, "eko", "eko", 0, 0, EKOC_PHYSICS_EKO};
  return c;
}

/* Consumes argv[*i] (and its value) if it is one of lha_cli's options:
 * returns 1 then, with *i on the last word consumed; 0 otherwise. */
static int lha_cli_arg(lha_cli *c, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  int has_value = *i + 1 < argc;
  if (!strcmp(a, "--quiet")) {
    c->quiet = 1;
    return 1;
  }
  if (!has_value) return 0;
  if (!strcmp(a, "--backend"))
    c->backend_name = argv[++*i];
  else if (!strcmp(a, "--threads"))
    c->threads = atoi(argv[++*i]);
  else if (!strcmp(a, "--parts"))
    c->parts = argv[++*i];
  else if (!strcmp(a, "--settings"))
    c->settings = argv[++*i];
  else if (!strcmp(a, "--physics"))
    c->physics_name = argv[++*i];
  else
    return 0;
  return 1;
}

/* --settings into *converged, --backend into *backend and --physics into
 * c->physics; on a bad value prints it, naming program `prog`, and returns 0. */
static int lha_cli_check(lha_cli *c, const char *prog, int *converged, int *backend) {
  if (strcmp(c->physics_name, "eko") && strcmp(c->physics_name, "exact")) {
    fprintf(stderr, "%s: unknown --physics '%s' (eko or exact)\n", prog, c->physics_name);
    return 0;
  }
  c->physics = !strcmp(c->physics_name, "exact") ? EKOC_PHYSICS_EXACT : EKOC_PHYSICS_EKO;
  if (strcmp(c->settings, "converged") && strcmp(c->settings, "eko")) {
    fprintf(stderr, "%s: unknown --settings '%s' (eko or converged)\n", prog, c->settings);
    return 0;
  }
  *converged = !strcmp(c->settings, "converged");
  if (!lha_backend(c->backend_name, backend)) {
    fprintf(stderr, "%s: unknown backend '%s'\n", prog, c->backend_name);
    return 0;
  }
  return 1;
}

/* The two closing lines of a run (README: tools parse the second); `what`
 * names the digits line ("LHA" / "LHA polarized"), `suffix` is appended to
 * the summary line ("" or " polarized=1"), then " physics=exact" for
 * EKOC_PHYSICS_EXACT (eko's physics adds nothing: the default line is as
 * before). The statistics must be sorted (stats_median). */
static void lha_print_summary(const char *what, int parts, const stats *st, double median, double wall,
                              const char *backend, int converged, const char *suffix, int physics) {
  if (!strcmp(backend, "auto") && lha_engine_ran >= 0 && lha_engine_ran < LHA_N_BACKENDS)
    backend = lha_backend_names[lha_engine_ran]; /* the engine auto ran */
  printf("\n%s digits: %zu of %zu entries within one unit of the last printed digit, %zu documented exceptions\n",
         what, st->within_unit, st->compared, st->exceptions);
  printf("LHA summary: parts=%d entries=%zu within_digit=%zu/%zu exceptions=%zu failures=%zu max_rel_dev=%.3e "
         "median_rel_dev=%.3e worst=%s wall_s=%.3f backend=%s settings=%s%s%s\n",
         parts, st->compared, st->within_unit, st->compared, st->exceptions, st->failures,
         st->n ? st->dev[st->n - 1] : 0.0, median, st->n ? st->worst_where : "-", wall, backend,
         converged ? "converged" : "eko", suffix, physics == EKOC_PHYSICS_EXACT ? " physics=exact" : "");
}

#endif /* EKOC_PERF_LHA_COMMON_H */
