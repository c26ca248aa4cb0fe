/* lha_polarized.c: the polarized parts of the Les Houches PDF-evolution
 * benchmark (`make lha`, after the unpolarised parts of perf/lha.c).
 *
 * Evolves the polarized LHA toy PDFs (helicity differences, hep-ph/0511119
 * section 4) from mu_0^2 = 2 GeV^2 to mu_F^2 = 1e4 GeV^2 with
 * theory.polarized = 1 for the 8 parts of the published tables 16-18 (LO
 * FFNS and ZM-VFNS; NLO FFNS and ZM-VFNS at mu_R^2/mu_F^2 = 1, 2, 1/2) and
 * compares with them (perf/lha_polarized_tables.h, from eko's transcription).
 * The settings, the scale variations (xif = sqrt(mu_R^2/mu_F^2),
 * exponentiated), the printed combinations and the within-digit rule are
 * those of perf/lha.c:
 *  - eko (default): 60-point lambertgrid, degree-4 log interpolation,
 *    iterate-exact with 10 iterations (eko's FFNS_polarized benchmark);
 *  - converged: perf/lha.c's converged settings (perf/lha_common.h: the
 *    100-point grid, degree 6, ordered-exact with 8 steps, Mellin cut 0.01);
 *    the polarized sea at x >= 0.5 is 1e-4 of the valence and changes sign
 *    there, so its entries carry the operators' errors times 1e4: degree 5
 *    and 8 steps left 8 of them off the digit (perf/STATS.md).
 * Exceptions (entries off the digit that a documented reason covers):
 *  - L_m = x(dbar - ubar): the toy has ubar = dbar, so L_m vanishes at LO at
 *    every scale (at NLO only gamma_ns+ - gamma_ns- acting on u_v - d_v makes
 *    it); the tables print a non-zero column (an erratum eko documents): they
 *    evolved x L_m = L_p/20 at mu_0 (table 16 part 1). Evolving that input
 *    instead reproduces 74 of the 88 L_m entries to the digit (perf/STATS.md).
 *    At LO the entry is an exception only if ekoc's L_m is zero (< 1e-14);
 *    these entries stay out of max/median_rel_dev (the printed value is wrong).
 *  - |table value| < 1e-8 (x = 0.9) and ekoc within 1e-10 of it: one unit of
 *    the fifth digit is below 1e-12 there (1e-11..1e-6 of the column's
 *    largest entry), beyond what the tables' codes resolved.
 *  - NLO L_p at x = 0.7: eko's 7-term fit of g3(N) in the NLO non-singlet
 *    (docs/physics.md §16.5) enters gamma_ns+ - gamma_ns-, which acts on the
 *    valence, 1e4 times L_p there; with the exact g3 (--physics exact) all
 *    five entries are within the digit, and the rule is off there.
 *
 * usage: lha_polarized [--settings eko|converged] [--backend auto|nspace|batch|adaptive|gpu] [--threads N]
 *                      [--physics eko|exact] (theory.physics, docs/physics.md §12.9)
 *                      [--parts 17/2,18/3] [--quiet]
 * Prints one comparison table per part, the exceptions, then one summary line
 * in perf/lha.c's format with `polarized=1` appended:
 *   LHA summary: parts=8 entries=E within_digit=K/E exceptions=X failures=F max_rel_dev=..
 *   median_rel_dev=.. worst=.. wall_s=W backend=B settings=eko|converged polarized=1
 * Exit status: 0 if every part computed, 1 if a part failed, 2 on bad usage.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ekoc.h"
#include "lha_common.h"
#include "lha_polarized_tables.h"

#define NGRID_MAX 400
#define NB 14

typedef struct pol_run {
  int table, part, order, vfns;
  double rho; /* mu_R^2 / mu_F^2 */
} pol_run;

static const pol_run runs[] = {
    {16, 2, 1, 0, 1.0}, {16, 3, 1, 1, 1.0}, {17, 1, 2, 0, 1.0}, {17, 2, 2, 0, 2.0},
    {17, 3, 2, 0, 0.5}, {18, 1, 2, 1, 1.0}, {18, 2, 2, 1, 2.0}, {18, 3, 2, 1, 0.5},
};
#define N_RUNS ((int)(sizeof runs / sizeof runs[0]))

/* flavour-basis indices (eko's order 22, -6..-1, 21, 1..6) */
enum { F_PH = 0, F_TB, F_BB, F_CB, F_SB, F_UB, F_DB, F_G, F_D, F_U, F_S, F_C, F_B, F_T };

/* The polarized LHA toy PDFs at mu_0^2 (hep-ph/0511119 section 4; they
 * reproduce table 16 part 1 but for its L_m column), as values Delta f(x). */
static void toy_pdf_polarized(double x, double f[NB]) {
  double xuv = 1.3 * pow(x, 0.7) * pow(1.0 - x, 3.0) * (1.0 + 3.0 * x);
  double xdv = -0.5 * pow(x, 0.7) * pow(1.0 - x, 4.0) * (1.0 + 4.0 * x);
  double xg = 1.5 * pow(x, 0.5) * pow(1.0 - x, 5.0);
  double xsea = -0.05 * pow(x, 0.3) * pow(1.0 - x, 7.0); /* x Delta ubar = x Delta dbar */
  memset(f, 0, NB * sizeof(double));
  f[F_U] = (xuv + xsea) / x;
  f[F_D] = (xdv + xsea) / x;
  f[F_UB] = f[F_DB] = xsea / x;
  f[F_S] = f[F_SB] = 0.5 * xsea / x;
  f[F_G] = xg / x;
}

/* x * (combination printed in the tables) from flavour values at x (as perf/lha.c) */
static int combination(const char *label, const double f[NB], double x, double *out) {
  double v;
  if (!strcmp(label, "u_v"))
    v = f[F_U] - f[F_UB];
  else if (!strcmp(label, "d_v"))
    v = f[F_D] - f[F_DB];
  else if (!strcmp(label, "L_m"))
    v = f[F_DB] - f[F_UB];
  else if (!strcmp(label, "L_p"))
    v = 2.0 * (f[F_UB] + f[F_DB]);
  else if (!strcmp(label, "s_p"))
    v = f[F_S] + f[F_SB];
  else if (!strcmp(label, "c_p"))
    v = f[F_C] + f[F_CB];
  else if (!strcmp(label, "b_p"))
    v = f[F_B] + f[F_BB];
  else if (!strcmp(label, "g"))
    v = f[F_G];
  else
    return 0;
  *out = x * v;
  return 1;
}

static const lha_pol_part *find_part(int table, int part) {
  int i;
  for (i = 0; i < LHA_POL_N_PARTS; ++i)
    if (lha_pol_parts[i].table == table && lha_pol_parts[i].part == part) return &lha_pol_parts[i];
  return NULL;
}

/* The documented reason why (label, table value, ekoc value) at perturbative
 * order `order` may miss the digit with `physics` (EKOC_PHYSICS_*), or NULL
 * (see the header comment). */
static const char *exception_reason(const char *label, int order, double x, double refv, double val, int physics) {
  if (!strcmp(label, "L_m") && (order > 1 || fabs(val) < 1e-14))
    return "table erratum: the tables evolved x L_m = L_p/20 at mu_0, the toy has ubar = dbar";
  if (!strcmp(label, "L_p") && order > 1 && x == 0.7 && physics == EKOC_PHYSICS_EKO)
    return "NLO g3(N): eko's 7-term fit, amplified in L_p at x = 0.7 by u_v/L_p ~ 1e4 (--physics exact: within)";
  if (fabs(refv) < 1e-8 && fabs(val - refv) < 1e-10) return "below 1e-8: within 1e-10, a unit of the fifth digit < 1e-12";
  return NULL;
}

typedef struct options {
  int backend, threads, quiet, ngrid, iterations, degree, method, converged;
  double mellin_cut; /* 0: the library's default (eko's 0.05) */
  int physics;       /* theory.physics (--physics) */
} options;

/* Compares the evolved PDFs of one part with its table; returns nothing, adds to st. */
static void compare_part(const pol_run *r, const options *o, const double *pdf_out, ekoc_interp *interp,
                         stats *st) {
  const lha_pol_part *ref = find_part(r->table, r->part);
  const int NGRID = o->ngrid;
  int c, xi, j;
  if (!o->quiet) printf("%-5s %-8s %14s %14s %10s %s\n", "label", "x", "ekoc", "reference", "rel.dev", "digits");
  for (c = 0; c < ref->n_columns; ++c) {
    const lha_pol_column *col = &ref->columns[c];
    const int erratum_column = !strcmp(col->label, "L_m");
    double colmax = 0.0;
    for (xi = 0; xi < LHA_POL_NX; ++xi) colmax = fmax(colmax, fabs(col->value[xi]));
    for (xi = 0; xi < LHA_POL_NX; ++xi) {
      double x = lha_pol_print_x[xi], w[NGRID_MAX], f[NB], val, refv = col->value[xi], dev, diff;
      int counted, within, i;
      ekoc_interp_eval(interp, x, w, NGRID);
      for (i = 0; i < NB; ++i) {
        f[i] = 0.0;
        for (j = 0; j < NGRID; ++j) f[i] += w[j] * pdf_out[i * NGRID + j];
      }
      if (!combination(col->label, f, x, &val)) continue;
      diff = fabs(val - refv);
      counted = !erratum_column && refv != 0.0 && fabs(refv) >= 1e-6 * colmax;
      dev = refv != 0.0 ? diff / fabs(refv) : diff;
      within = diff <= col->unit[xi] * (1.0 + 1e-9) || (refv == 0.0 && diff < 1e-12);
      st->compared++;
      st->within_unit += within;
      if (!within) {
        const char *why = exception_reason(col->label, r->order, x, refv, val, o->physics);
        if (why) {
          st->exceptions++;
          printf("exception %d/%d %s x=%g: ekoc % .5e table % .5e: %s\n", r->table, r->part, col->label, x, val, refv,
                 why);
        }
      }
      if (counted) {
        char where[96];
        snprintf(where, sizeof where, "%d/%d/%s/%g", r->table, r->part, col->label, x);
        stats_add(st, dev, where);
      }
      if (!o->quiet || !within)
        printf("%-5s %-8g % 14.5e % 14.5e %10.2e %s%s\n", col->label, x, val, refv, dev, within ? "ok" : "OFF",
               counted ? "" : " (not counted)");
    }
  }
}

static int run_part(const pol_run *r, const options *o, const double *grid, ekoc_interp *interp, stats *st) {
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = NULL;
  double mu2 = 1e4, *pdf_in, *pdf_out;
  const int NGRID = o->ngrid;
  int32_t nf_target;
  int rc, j, c;

  lha_part_setup(r->order, r->vfns, r->rho, grid, (size_t)NGRID, &mu2, &nf_target, &th, &rq);
  th.polarized = 1;
  th.physics = o->physics;
  rq.degree = o->degree;
  rq.method = o->method;
  rq.ev_op_iterations = o->iterations;
  if (o->mellin_cut > 0.0) rq.mellin_cut = o->mellin_cut;
  rq.backend = o->backend;
  rq.n_threads = o->threads;
  pdf_in = malloc(2 * NB * NGRID * sizeof(double));
  if (!pdf_in) return 0;
  pdf_out = pdf_in + NB * NGRID;

  rc = ekoc_compute(&th, &rq, NULL, &op);
  if (rc == EKOC_OK) lha_note_engine(op);
  if (rc != EKOC_OK) {
    printf("table %d part %d: FAILED: %s: %s\n", r->table, r->part, ekoc_status_str(rc), ekoc_last_error());
    free(pdf_in);
    return 0;
  }
  for (j = 0; j < NGRID; ++j) {
    double f[NB];
    toy_pdf_polarized(grid[j], f);
    for (c = 0; c < NB; ++c) pdf_in[c * NGRID + j] = grid[j] < 1.0 ? f[c] : 0.0;
  }
  rc = ekoc_operator_apply(op, 0, pdf_in, pdf_out, NB * NGRID, NULL);
  if (rc != EKOC_OK) {
    printf("table %d part %d: apply FAILED: %s\n", r->table, r->part, ekoc_last_error());
    ekoc_operator_free(op);
    free(pdf_in);
    return 0;
  }
  st->failures += ekoc_operator_failures(op);
  printf("\n== polarized table %d part %d: %s %s, mu_R^2/mu_F^2 = %g, grid %d, degree %d, %s %d, integration "
         "failures %zu\n",
         r->table, r->part, r->order == 1 ? "LO" : "NLO", r->vfns ? "VFNS" : "FFNS", r->rho, o->ngrid, o->degree,
         o->method == EKOC_METHOD_ORDERED_EXACT ? "ordered-exact" : "iterate-exact", o->iterations,
         ekoc_operator_failures(op));
  compare_part(r, o, pdf_out, interp, st);
  ekoc_operator_free(op);
  free(pdf_in);
  return 1;
}

static int usage(const char *argv0, FILE *to, int status) {
  fprintf(to,
          "usage: %s [--settings eko|converged] [--backend auto|nspace|batch|adaptive|gpu] [--threads N] [--parts T/P,...] "
          "[--quiet] [--physics eko|exact]\n  parts are table/part of hep-ph/0511119 tables 16-18, e.g. 17/2\n",
          argv0);
  return status;
}

int main(int argc, char **argv) {
  lha_cli cli = lha_cli_default();
  options o = {EKOC_BACKEND_ADAPTIVE, 0, 0, 60, 10, 4, EKOC_METHOD_ITERATE_EXACT, 0, 0.0, EKOC_PHYSICS_EKO};
  int i, n_parts = 0, failed = 0;
  double grid[NGRID_MAX], t0, wall, median = 0.0;
  ekoc_interp *interp = NULL;
  stats st;
  memset(&st, 0, sizeof st);
  for (i = 1; i < argc; ++i) {
    if (lha_cli_arg(&cli, argc, argv, &i)) continue;
    if (!strcmp(argv[i], "--help")) return usage(argv[0], stdout, 0);
    return usage(argv[0], stderr, 2);
  }
  if (!lha_cli_check(&cli, "lha_polarized", &o.converged, &o.backend)) return 2;
  o.threads = cli.threads;
  o.quiet = cli.quiet;
  o.physics = cli.physics;
  if (o.converged) {
    o.method = EKOC_METHOD_ORDERED_EXACT;
    o.iterations = LHA_CONVERGED_STEPS;
    o.degree = LHA_CONVERGED_DEGREE;
    o.mellin_cut = LHA_CONVERGED_MELLIN_CUT;
  }
  if (!lha_grid(o.converged, &o.ngrid, o.degree, grid, &interp)) {
    fprintf(stderr, "lha_polarized: grid setup failed: %s\n", ekoc_last_error());
    return 1;
  }
  t0 = now_s();
  for (i = 0; i < N_RUNS; ++i) {
    if (!part_selected(cli.parts, runs[i].table, runs[i].part)) continue;
    ++n_parts;
    if (!run_part(&runs[i], &o, grid, interp, &st)) ++failed;
  }
  wall = now_s() - t0;
  ekoc_interp_free(interp);
  median = stats_median(&st);
  lha_print_summary("LHA polarized", n_parts - failed, &st, median, wall, cli.backend_name, o.converged, " polarized=1",
                    o.physics);
  free(st.dev);
  return failed ? 1 : 0;
}
