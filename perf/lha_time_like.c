/* lha_time_like.c: the time-like (fragmentation-function) benchmark of
 * `make lha`, after the unpolarised (perf/lha.c) and polarized
 * (perf/lha_polarized.c) parts.
 *
 * Evolves the HKNS07 NLO pi+ light-parton fragmentation functions
 * (hep-ph/0702250; heavy quarks 0) from mu_0^2 = 2 GeV^2 to mu_F^2 = 1e4 GeV^2
 * with theory.time_like = 1 for 8 parts (LO FFNS and VFNS; NLO FFNS and VFNS
 * at mu_R^2/mu_F^2 = 1, 2, 1/2; alpha_s(2 GeV^2) = 0.35, LHA masses, FFNS
 * nf = 4) and compares with a converged HOPPET reference
 * (perf/lha_time_like_ref.h, from perf/gen_lha_time_like.py; the published
 * tables of arXiv:1501.00494 were not available, docs/physics.md §16.4).
 * Printed: x times u+ = u + ubar, d+, s+, c+, b+, g and u- = u - ubar at
 * x = 1e-5 .. 0.9. Settings and scale variations as perf/lha.c:
 *  - eko (default): 60-point lambertgrid, degree-4 log interpolation,
 *    iterate-exact with 10 iterations;
 *  - converged: perf/lha.c's converged grid adapted to FFs (time_like_grid:
 *    from x = 1e-5, twice as dense below x = 0.1, one more node at 0.999),
 *    degree 5, ordered-exact with 8 steps.
 * Within digit: the reference is not rounded, so an entry is "within" when
 * it is within one unit of the fifth significant digit of the reference
 * (10^(floor(log10|ref|) - 4)), the digit the LHA tables print.
 * Matching: HOPPET's NLO time-like flavour thresholds are continuous, so the
 * NLO VFNS parts run at theory.matching_order = 0; eko's O(a_s) time-like
 * matching (the default, docs/physics.md §16.2) is evolved as well for those
 * parts with --matching-effect and its largest effect printed (not compared:
 * no independent code here has it). NNLO: no reference (HOPPET has no time-like NNLO).
 * Exceptions (entries off the digit that a documented reason covers; the
 * columns span 7 to 9 decades, from |x D| ~ 10..100 at x = 1e-5 to 1e-8 at
 * x = 0.9, so the fifth digit of the smallest entries is far below what the
 * evolution resolves on the column's scale):
 *  - |ref| < 1e-6 of the column's largest entry and ekoc within 1e-10 of that
 *    entry (x = 0.9: s+, c+, b+ and g; they stay out of max/median_rel_dev);
 *  - the column changes sign between the entry's x and a neighbouring printed
 *    x, |ref| < 1e-2 of the column's largest entry and ekoc within 1e-6 of
 *    it: the NLO FFs change sign between x = 1e-4 and 1e-2 (u+ at x = 1e-3 is
 *    0.03 in part 3/2, against -20 at 1e-4 and -70 at 1e-5), so the entry is
 *    a cancellation. These stay in max/median_rel_dev.
 *
 * usage: lha_time_like [--settings eko|converged] [--backend auto|nspace|batch|adaptive|gpu] [--threads N]
 *                      [--parts 2/1,3/2] [--quiet] [--matching-effect] [--physics eko|exact]
 *                      (theory.physics, docs/physics.md §12.9: the exact g3 of the NLO non-singlet)
 * Prints one comparison table per part, the exceptions, then one summary line
 * in perf/lha.c's format with `time_like=1` appended:
 *   LHA summary: parts=8 entries=E within_digit=K/E exceptions=X failures=F max_rel_dev=..
 *   median_rel_dev=.. worst=.. wall_s=W backend=B settings=eko|converged time_like=1
 * Exit status: 0 if every part computed, 1 if a part failed, 2 on bad usage.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ekoc.h"
#include "lha_common.h"
#include "lha_time_like_ref.h"

#define NGRID_MAX 400
#define NB 14

/* flavour-basis indices (eko's order 22, -6..-1, 21, 1..6) */
enum { F_PH = 0, F_TB, F_BB, F_CB, F_SB, F_UB, F_DB, F_G, F_D, F_U, F_S, F_C, F_B, F_T };

/* x D(x) = M x^(a+1) (1-x)^b / B(a+2, b+1) of one HKNS07 parton (M: its momentum fraction) */
static double hkns_term(double x, double m, double a, double b) {
  double log_beta = lgamma(a + 2.0) + lgamma(b + 1.0) - lgamma(a + b + 3.0);
  return m * exp(-log_beta) * pow(x, a + 1.0) * pow(1.0 - x, b);
}

/* The pi+ model at mu_0 (perf/gen_lha_time_like.py has the Python twin), as values D(x). */
static void hkns_pion(double x, double f[NB]) {
  double fav = hkns_term(x, 0.401, -0.963, 1.370); /* u = dbar */
  double unf = hkns_term(x, 0.094, 0.718, 6.266);  /* d = ubar = s = sbar */
  double glue = hkns_term(x, 0.238, 1.943, 8.0);
  memset(f, 0, NB * sizeof(double));
  f[F_U] = f[F_DB] = fav / x;
  f[F_D] = f[F_UB] = f[F_S] = f[F_SB] = unf / x;
  f[F_G] = glue / x;
}

/* x * (printed combination) from flavour values at x */
static int combination(const char *label, const double f[NB], double x, double *out) {
  double v;
  if (!strcmp(label, "u_p"))
    v = f[F_U] + f[F_UB];
  else if (!strcmp(label, "d_p"))
    v = f[F_D] + f[F_DB];
  else if (!strcmp(label, "s_p"))
    v = f[F_S] + f[F_SB];
  else if (!strcmp(label, "c_p"))
    v = f[F_C] + f[F_CB];
  else if (!strcmp(label, "b_p"))
    v = f[F_B] + f[F_BB];
  else if (!strcmp(label, "g"))
    v = f[F_G];
  else if (!strcmp(label, "u_m"))
    v = f[F_U] - f[F_UB];
  else
    return 0;
  *out = x * v;
  return 1;
}

/* one unit of the fifth significant digit of v (0 for v = 0) */
static double fifth_digit_unit(double v) { return v == 0.0 ? 0.0 : pow(10.0, floor(log10(fabs(v))) - 4.0); }

/* The documented reason why an entry (reference refv, deviation diff, the
 * column's largest |entry| colmax; sign_change: the column changes sign
 * between this x and a neighbouring printed x) may miss the digit, or NULL
 * (see the header comment). */
static const char *exception_reason(double refv, double diff, double colmax, int sign_change) {
  if (fabs(refv) < 1e-6 * colmax && diff < 1e-10 * colmax)
    return "below 1e-6 of the column's largest entry and within 1e-10 of it";
  if (sign_change && fabs(refv) < 1e-2 * colmax && diff < 1e-6 * colmax)
    return "next to a sign change, below 1e-2 of the column's largest entry and within 1e-6 of it";
  return NULL;
}

typedef struct options {
  int backend, threads, quiet, ngrid, iterations, degree, method, converged, matching_effect;
  int physics; /* theory.physics (--physics) */
} options;

/* Evolves the model for part r at matching order `matching` (-1: eko's default) into
 * out[NB * ngrid]; 1 on success, adds the integration failures to *failures. */
static int evolve(const lha_tl_part *r, const options *o, const double *grid, int matching, double *out,
                  size_t *failures) {
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = NULL;
  double mu2 = 1e4, *in;
  int32_t nf_target;
  int rc, j, c;

  lha_part_setup(r->order, r->vfns, r->rho, grid, (size_t)o->ngrid, &mu2, &nf_target, &th, &rq);
  th.time_like = 1;
  th.matching_order = matching;
  th.physics = o->physics;
  rq.degree = o->degree;
  rq.method = o->method;
  rq.ev_op_iterations = o->iterations;
  rq.backend = o->backend;
  rq.n_threads = o->threads;
  rc = ekoc_compute(&th, &rq, NULL, &op);
  if (rc == EKOC_OK) lha_note_engine(op);
  if (rc != EKOC_OK) {
    printf("part %d/%d: FAILED: %s: %s\n", r->table, r->part, ekoc_status_str(rc), ekoc_last_error());
    return 0;
  }
  in = malloc(NB * (size_t)o->ngrid * sizeof(double));
  if (!in) {
    ekoc_operator_free(op);
    return 0;
  }
  for (j = 0; j < o->ngrid; ++j) {
    double f[NB];
    hkns_pion(grid[j], f);
    for (c = 0; c < NB; ++c) in[c * o->ngrid + j] = grid[j] < 1.0 ? f[c] : 0.0;
  }
  rc = ekoc_operator_apply(op, 0, in, out, (size_t)(NB * o->ngrid), NULL);
  if (rc != EKOC_OK) printf("part %d/%d: apply FAILED: %s\n", r->table, r->part, ekoc_last_error());
  *failures += ekoc_operator_failures(op);
  ekoc_operator_free(op);
  free(in);
  return rc == EKOC_OK;
}

/* x * combination `label` at x from the evolved grid values */
static double value_at(const double *ff, ekoc_interp *interp, int ngrid, const char *label, double x) {
  double w[NGRID_MAX], f[NB], v = 0.0;
  int i, j;
  ekoc_interp_eval(interp, x, w, (size_t)ngrid);
  for (i = 0; i < NB; ++i) {
    f[i] = 0.0;
    for (j = 0; j < ngrid; ++j) f[i] += w[j] * ff[i * ngrid + j];
  }
  combination(label, f, x, &v);
  return v;
}

/* Compares the evolved FFs of one part with the reference; adds to st. */
static void compare_part(const lha_tl_part *r, const options *o, const double *ff, ekoc_interp *interp, stats *st) {
  int c, xi;
  if (!o->quiet) printf("%-5s %-8s %16s %16s %10s %s\n", "label", "x", "ekoc", "HOPPET", "rel.dev", "digit");
  for (c = 0; c < LHA_TL_NCOL; ++c) {
    const lha_tl_column *col = &r->columns[c];
    double colmax = 0.0;
    for (xi = 0; xi < LHA_TL_NX; ++xi) colmax = fmax(colmax, fabs(col->value[xi]));
    for (xi = 0; xi < LHA_TL_NX; ++xi) {
      double x = lha_tl_x[xi], refv = col->value[xi], val = value_at(ff, interp, o->ngrid, col->label, x);
      double diff = fabs(val - refv), dev = refv != 0.0 ? diff / fabs(refv) : diff;
      int counted = refv != 0.0 && fabs(refv) >= 1e-6 * colmax;
      int within = diff <= fifth_digit_unit(refv) || (refv == 0.0 && diff < 1e-12);
      st->compared++;
      st->within_unit += within;
      if (!within) {
        const int sign_change = (xi > 0 && refv * col->value[xi - 1] < 0.0) ||
                                (xi + 1 < LHA_TL_NX && refv * col->value[xi + 1] < 0.0);
        const char *why = exception_reason(refv, diff, colmax, sign_change);
        if (why) {
          st->exceptions++;
          printf("exception %d/%d %s x=%g: ekoc % .6e HOPPET % .6e: %s\n", r->table, r->part, col->label, x, val,
                 refv, why);
        }
      }
      if (counted) {
        char where[96];
        snprintf(where, sizeof where, "%d/%d/%s/%g", r->table, r->part, col->label, x);
        stats_add(st, dev, where);
      }
      if (!o->quiet || !within)
        printf("%-5s %-8g % 16.8e % 16.8e %10.2e %s%s\n", col->label, x, val, refv, dev, within ? "ok" : "OFF",
               counted ? "" : " (not counted)");
    }
  }
}

/* The effect of eko's O(a_s) time-like matching (ff1: matching order default)
 * against matching order 0 (ff0), per column: the largest change over the
 * printed x relative to the column's largest |entry| (the FFs change sign at
 * small x, so a change relative to the entry itself says little there), and
 * the relative change at x = 0.1. */
static void print_matching_effect(const lha_tl_part *r, const options *o, const double *ff0, const double *ff1,
                                  ekoc_interp *interp) {
  int c, xi;
  printf("eko's O(a_s) time-like matching against matching order 0 (not compared: HOPPET matches "
         "continuously), part %d/%d:\n", r->table, r->part);
  for (c = 0; c < LHA_TL_NCOL; ++c) {
    const lha_tl_column *col = &r->columns[c];
    double colmax = 0.0, worst = 0.0, worst_x = 0.0, at_01 = 0.0;
    for (xi = 0; xi < LHA_TL_NX; ++xi) colmax = fmax(colmax, fabs(col->value[xi]));
    for (xi = 0; xi < LHA_TL_NX; ++xi) {
      double x = lha_tl_x[xi], v0 = value_at(ff0, interp, o->ngrid, col->label, x);
      double v1 = value_at(ff1, interp, o->ngrid, col->label, x);
      if (fabs(v1 - v0) > worst) {
        worst = fabs(v1 - v0);
        worst_x = x;
      }
      if (x == 0.1 && v0 != 0.0) at_01 = (v1 - v0) / fabs(v0);
    }
    printf("  %-4s largest change %.3e of the column's largest entry (x=%g); at x = 0.1 %+.3e relative\n",
           col->label, colmax > 0.0 ? worst / colmax : 0.0, worst_x, at_01);
  }
}

static int run_part(const lha_tl_part *r, const options *o, const double *grid, ekoc_interp *interp, stats *st) {
  const size_t n = NB * (size_t)o->ngrid;
  double *ff = malloc(2 * n * sizeof(double));
  size_t failures = 0, eko_matching_failures = 0;
  int ok;
  if (!ff) return 0;
  ok = evolve(r, o, grid, r->order > 1 && r->vfns ? 0 : -1, ff, &failures);
  if (ok) {
    st->failures += failures;
    printf("\n== time-like part %d/%d: %s %s, mu_R^2/mu_F^2 = %g, matching order %d, grid %d, degree %d, %s %d, "
           "integration failures %zu (HOPPET rel_change %.1e)\n",
           r->table, r->part, r->order == 1 ? "LO" : "NLO", r->vfns ? "VFNS" : "FFNS", r->rho,
           r->order > 1 && r->vfns ? 0 : r->order - 1, o->ngrid, o->degree,
           o->method == EKOC_METHOD_ORDERED_EXACT ? "ordered-exact" : "iterate-exact", o->iterations, failures,
           r->rel_change);
    compare_part(r, o, ff, interp, st);
    /* the failures of this extra run stay out of the summary: it is not compared */
    if (o->matching_effect && r->order > 1 && r->vfns && evolve(r, o, grid, -1, ff + n, &eko_matching_failures))
      print_matching_effect(r, o, ff, ff + n, interp);
  }
  free(ff);
  return ok;
}

/* The x grid of a run: lha_grid's for eko's settings; for the converged ones
 * the shared converged grid (perf/lha_common.h) changed three ways for
 * fragmentation functions (perf/STATS.md has the figures):
 *  - its nodes below x = 1e-5 dropped: D(x) depends on D(y >= x) only and
 *    nothing below 1e-5 is printed;
 *  - a node in the middle (in ln(x/(1-x))) of each interval below x = 0.1:
 *    the NLO FFs change sign between x = 1e-3 and 1e-2 and grow to -100 at
 *    1e-5, which the shared grid resolves to a few 1e-5 only;
 *  - one more node at x = 0.999: u = dbar falls like (1-x)^1.37, not analytic
 *    at x = 1, and the degree-5 basis on the last interval [0.99, 1] misses
 *    it by up to 24% at x = 0.999, which moves u+ and u- at x = 0.9 by 2e-5
 *    at every order (through the 1/(1-z)_+ of the splitting functions). */
static int time_like_grid(int converged, int *ngrid, int degree, double *grid, ekoc_interp **interp) {
  double shared[NGRID_MAX];
  int n_shared, j, m = 0;
  if (!converged) return lha_grid(0, ngrid, degree, grid, interp);
  n_shared = converged_grid(shared);
  if (2 * n_shared + 1 > NGRID_MAX) return 0;
  for (j = 0; j < n_shared; ++j) {
    if (shared[j] < 1e-5 * (1.0 - 1e-12)) continue;
    if (m > 0 && shared[j] <= 0.1 * (1.0 + 1e-12)) {
      double za = log(grid[m - 1] / (1.0 - grid[m - 1])), zb = log(shared[j] / (1.0 - shared[j]));
      grid[m++] = 1.0 / (1.0 + exp(-0.5 * (za + zb)));
    }
    if (shared[j] == 1.0) grid[m++] = 0.999;
    grid[m++] = shared[j];
  }
  *ngrid = m;
  return ekoc_interp_alloc(grid, (size_t)m, degree, interp) == EKOC_OK;
}

static int usage(const char *argv0, FILE *to, int status) {
  fprintf(to,
          "usage: %s [--settings eko|converged] [--backend auto|nspace|batch|adaptive|gpu] [--threads N] [--parts T/P,...] "
          "[--quiet] [--matching-effect] [--physics eko|exact]\n  parts: 1/1 LO FFNS, 1/2 LO VFNS, 2/1-3 NLO FFNS, 3/1-3 NLO VFNS (rho = 1, 2, 1/2)\n",
          argv0);
  return status;
}

int main(int argc, char **argv) {
  lha_cli cli = lha_cli_default();
  options o = {EKOC_BACKEND_ADAPTIVE, 0, 0, 60, 10, 4, EKOC_METHOD_ITERATE_EXACT, 0, 0, EKOC_PHYSICS_EKO};
  int i, n_parts = 0, failed = 0;
  double grid[NGRID_MAX], t0, wall, median;
  ekoc_interp *interp = NULL;
  stats st;
  memset(&st, 0, sizeof st);
  for (i = 1; i < argc; ++i) {
    if (lha_cli_arg(&cli, argc, argv, &i)) continue;
    if (!strcmp(argv[i], "--matching-effect"))
      o.matching_effect = 1;
    else if (!strcmp(argv[i], "--help"))
      return usage(argv[0], stdout, 0);
    else
      return usage(argv[0], stderr, 2);
  }
  if (!lha_cli_check(&cli, "lha_time_like", &o.converged, &o.backend)) return 2;
  o.threads = cli.threads;
  o.quiet = cli.quiet;
  o.physics = cli.physics;
  if (o.converged) {
    o.method = EKOC_METHOD_ORDERED_EXACT;
    o.iterations = 8;
    o.degree = 5;
  }
  if (!time_like_grid(o.converged, &o.ngrid, o.degree, grid, &interp)) {
    fprintf(stderr, "lha_time_like: grid setup failed: %s\n", ekoc_last_error());
    return 1;
  }
  t0 = now_s();
  for (i = 0; i < LHA_TL_N_PARTS; ++i) {
    if (!part_selected(cli.parts, lha_tl_parts[i].table, lha_tl_parts[i].part)) continue;
    ++n_parts;
    if (!run_part(&lha_tl_parts[i], &o, grid, interp, &st)) ++failed;
  }
  wall = now_s() - t0;
  ekoc_interp_free(interp);
  median = stats_median(&st);
  lha_print_summary("LHA time-like", n_parts - failed, &st, median, wall, cli.backend_name, o.converged, " time_like=1",
                    o.physics);
  free(st.dev);
  return failed ? 1 : 0;
}
