/* test_nspace_engine.c: the N-space backend (src/evol/nspace_engine.c,
 * docs/physics.md §3.2) on random cards (tests/engine_jobs.h), one part at a
 * time through a one-step plan, so that its operator is the part's own and
 * the converged references of the quadrature tests apply:
 *
 *   every entry is flagged as failed, or within K_STATED x its stated error
 *   (+ 1e-12, + twice the reference's own error) of the reference,
 *
 * against two references: the same backend on other paths with many more
 * nodes (whole operators: the error estimate), and the quadrature of the
 * adaptive and batch tests on eko's paths (independent code: the paths and
 * the composition); for grids of 6..60 points (whole operators) and of
 * 150..300 points (whole operators and three rows), x down to 1e-9, lambert, log-uniform and mixed log/linear grids,
 * bases of degree 1..8 in ln x and in x, evolution (orders 1-3, every method,
 * with the U_k poles of the truncated and perturbative ones and the zeros of
 * the ordered-truncated non-singlet denominators, scale variations) and
 * matching (orders 1-2, every inversion method). The quadrature references
 * integrate up to a Mellin cut of 1e-3 or 1e-5, where the path's remainder
 * is below the tolerances; the N-space backend has no cut.
 *
 * And the composition itself, where the exact answer is known: two LO
 * segments equal the one over both ranges (the LO kernel is the
 * exponential of one matrix), and the basis rotations of a forward and a
 * backward matching cancel. The progress callback reaches its total and
 * cancels.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_jobs.h"
#include "evol/nspace_engine.h"
#include "evol/part_layout.h"
#include "evol/plan.h"

#define K_STATED 10.0
#define REFERENCE_CUT 1e-3

static int verbose(void) { return getenv("EKOC_TEST_VERBOSE") != NULL; }

/* Under memcheck (check-valgrind sets EKOC_TEST_UNDER_VALGRIND=1, ~40x
 * slower) two small cards and the composition tests: every code path of the
 * backend, not the statistics (those run natively and under ASan). */
static int under_valgrind(void) { return getenv("EKOC_TEST_UNDER_VALGRIND") != NULL; }

/* ---- a plan of given parts, the backend on it --------------------------------------------- */

typedef struct one_plan {
  ekoc_plan plan;
  ekoc_plan_job jobs[2];
  ekoc_plan_step steps[1][EKOC_PLAN_MAX_STEPS];
  int32_t n_steps[1], nf_out[1];
} one_plan;

/* A plan of one target whose path is the parts jobs[0..n-1] with step kinds
 * kinds[0..n-1] (configured by the caller). */
static void plan_init(one_plan *o, int n, const int *kinds, int nf) {
  int s;
  memset(o, 0, sizeof *o);
  o->plan.n_jobs = (size_t)n;
  o->plan.jobs = o->jobs;
  o->plan.steps = o->steps;
  o->plan.n_steps = o->n_steps;
  o->plan.nf_out = o->nf_out;
  o->n_steps[0] = n;
  o->nf_out[0] = nf;
  for (s = 0; s < n; ++s) {
    o->steps[0][s].job = s;
    o->steps[0][s].kind = kinds[s];
    o->steps[0][s].nf = nf;
    ekoc_blockop_init(&o->jobs[s].op, 0);
    ekoc_blockop_init(&o->jobs[s].taint, 0);
  }
}

/* The target's operator and taint from the N-space backend (opt NULL: its
 * defaults); returns the entries flagged. */
static size_t run_nspace(const one_plan *o, const ekoc_interp *ip, int threads, const ekoc_nspace_engine_options *opt,
                         ekoc_blockop *op, ekoc_blockop *taint) {
  ekoc_request rq;
  size_t n_failed = 0;
  ekoc_request_default(&rq);
  rq.epsabs = 1e-12;
  rq.epsrel = 1e-5;
  rq.n_threads = threads;
  ekoc_blockop_init(op, ip->n);
  ekoc_blockop_init(taint, ip->n);
  assert_int_equal(ekoc_nspace_engine_run(&o->plan, ip, &rq, 0, 1, opt, NULL, op, taint, &n_failed), EKOC_OK);
  assert_non_null(op->row_lo); /* row ranges: compared entry by entry below in full rows */
  assert_true(ekoc_blockop_to_full_rows(op));
  assert_true(ekoc_blockop_to_full_rows(taint));
  return n_failed;
}

/* A random card of any method (the truncated, ordered-truncated and
 * perturbative ones with their poles, evol/nspace_poles.h). */
static void card_nspace(rnd *r, card *c, int nx_min, int nx_max) {
  static const int methods[9] = {EKOC_METHOD_ITERATE_EXACT,      EKOC_METHOD_ITERATE_EXPANDED,
                                 EKOC_METHOD_DECOMPOSE_EXACT,    EKOC_METHOD_DECOMPOSE_EXPANDED,
                                 EKOC_METHOD_ORDERED_EXACT,      EKOC_METHOD_TRUNCATED,
                                 EKOC_METHOD_PERTURBATIVE_EXACT, EKOC_METHOD_PERTURBATIVE_EXPANDED,
                                 EKOC_METHOD_ORDERED_TRUNCATED};
  card_random(r, c, nx_min, nx_max, 8);
  c->method = methods[rnd_i(r, 0, 8)];
  card_describe(c);
}

/* ---- the property ------------------------------------------------------------------------ */

typedef struct tally {
  size_t entries, flagged, checked, skipped, violations;
  size_t beyond;        /* checked entries more than k_stated x their error off, within the slack, where the
                           reference's own error is below a tenth of the difference */
  double worst_beyond;  /* the largest |v - ref| among them */
  double worst_stated, worst_tol;
  char first_violation[512];
} tally;

/* The reference of layout entry q: the blocks of a second N-space operator
 * (ref_op), or the element of a quadrature job (ref_job). */
typedef struct reference {
  const ekoc_blockop *op;
  const job_data *job;
} reference;

static void reference_arrays(const reference *r, const ekoc_element_map *map, const ekoc_part_layout *pl, int q,
                             const double **val, const double **err) {
  int te;
  if (r->op) {
    *val = r->op->val[pl->a[q]][pl->b[q]];
    *err = r->op->err[pl->a[q]][pl->b[q]];
    return;
  }
  for (te = 0; te < r->job->job.n_elements; ++te) /* the job's element of the same family entry */
    if (r->job->job.elements[te].family == map[pl->e[q]].family &&
        r->job->job.elements[te].element == map[pl->e[q]].element)
      break;
  assert_true(te < r->job->job.n_elements);
  *val = r->job->val[te];
  *err = r->job->err[te];
}

/* Every block of the part's layout in rows k0..k1-1 against the reference:
 * within k_stated x its stated error (k_stated > 0), or within its tolerance
 * (k_stated = 0), plus twice the reference's error and 1e-12; entries whose
 * reference is not converged to 1e-3 of the tolerance are skipped. */
static void tally_part(tally *tl, const card *c, const one_plan *o, const reference *r, double k_stated,
                       const ekoc_blockop *op, const ekoc_blockop *taint, size_t k0, size_t k1) {
  ekoc_element_map map[EKOC_JOB_MAX_ELEMENTS];
  ekoc_part_layout pl;
  size_t nx = (size_t)c->nx, k, j;
  int n = ekoc_part_elements(&o->jobs[0], map), q;
  ekoc_part_layout_of(&o->jobs[0], 0, map, n, &pl);
  for (q = 0; q < pl.n; ++q) {
    const double *v = op->val[pl.a[q]][pl.b[q]], *er = op->err[pl.a[q]][pl.b[q]];
    const double *fl = taint->err[pl.a[q]][pl.b[q]], *rv, *re;
    if (pl.e[q] == EKOC_PART_IDENTITY) { /* exactly the identity */
      assert_non_null(v);
      for (k = 0; k < nx * nx; ++k) assert_true(v[k] == (k % (nx + 1) == 0 ? 1.0 : 0.0));
      continue;
    }
    reference_arrays(r, map, &pl, q, &rv, &re);
    for (k = k0; k < k1; ++k)
      for (j = 0; j < nx; ++j) { /* an absent block: an element that is the constant 0 */
        size_t i = k * nx + j;
        double val = v ? v[i] : 0.0, err = v ? er[i] : 0.0, ref = rv ? rv[i] : 0.0, ref_err = re ? re[i] : 0.0;
        double d = fabs(val - ref), tol = fmax(1e-12, 1e-5 * fabs(ref));
        double allowed = (k_stated > 0.0 ? k_stated * err : tol) + 2.0 * ref_err + 1e-12;
        assert_true(isfinite(val) && isfinite(err) && err >= 0.0);
        ++tl->entries;
        if (fl && fl[i] > 0.0) {
          ++tl->flagged;
          continue;
        }
        if (!isfinite(ref) || ref_err > 1e-3 * tol) {
          ++tl->skipped;
          continue;
        }
        ++tl->checked;
        tl->worst_tol = fmax(tl->worst_tol, d / tol);
        if (d > 1e-12) tl->worst_stated = fmax(tl->worst_stated, err > 0.0 ? d / err : INFINITY);
        if (k_stated > 0.0 && d > k_stated * err && ref_err < 0.1 * d) {
          ++tl->beyond;
          tl->worst_beyond = fmax(tl->worst_beyond, d);
        }
        if (!(d <= allowed) && tl->violations++ == 0)
          snprintf(tl->first_violation, sizeof tl->first_violation,
                   "%s: block (%d,%d) entry (%zu, %zu) = %.15g +- %.3g, reference %.15g +- %.2g (%.3g x the error)",
                   c->text, pl.a[q], pl.b[q], k, j, val, err, ref, ref_err, d / err);
      }
  }
}

static void tally_assert(const char *what, const tally *tl, double max_flagged, double max_skipped) {
  if (verbose())
    printf("%s: %zu entries, %zu flagged, %zu checked, %zu skipped (reference), worst |v - ref| / error %.3g, / "
           "tolerance %.3g; %zu beyond 10 x their error by at most %.2g\n",
           what, tl->entries, tl->flagged, tl->checked, tl->skipped, tl->worst_stated, tl->worst_tol, tl->beyond,
           tl->worst_beyond);
  if (tl->violations) fail_msg("%s: %zu silent entries, the first: %s", what, tl->violations, tl->first_violation);
  assert_true(tl->entries > 0);
  assert_true((double)tl->flagged <= max_flagged * (double)tl->entries);
  assert_true((double)tl->skipped <= max_skipped * (double)tl->entries);
}

/* The card's part as the plan's one job (one segment step: no rotation). */
static void plan_of_card(one_plan *o, const card *c, const job_data *t) {
  int kind = EKOC_STEP_SEGMENT;
  plan_init(o, 1, &kind, c->nf);
  o->jobs[0].is_matching = c->kind == EKOC_KIND_MATCHING;
  o->jobs[0].nf = c->nf;
  o->jobs[0].family[0] = t->job.family[0];
  o->jobs[0].family[1] = t->job.family[1];
}

/* The tight N-space reference: other paths (magnification 9, bands of 3)
 * and rules from 512 intervals. */
static ekoc_nspace_engine_options tight_options(void) {
  ekoc_nspace_engine_options o;
  ekoc_nspace_engine_options_default(&o);
  o.magnification = 9.0;
  o.ratio = 3.0;
  o.first_nodes = EKOC_NSPACE_NODES_MAX;
  return o;
}

/* Random cards of 6..40 points (one in four up to 60), every entry: within
 * 10 x its stated error of the tight N-space reference, and within its
 * tolerance of the quadrature reference (64 x 61 composite Gauss-Kronrod
 * nodes on eko's paths, Mellin cut 1e-3: independent code, whose own error
 * estimate is not tight enough for the first property). */
static void test_property_small_grids(void **state) {
  rnd r = {0x2d5ace17u};
  const ekoc_nspace_engine_options tight = tight_options();
  tally stated, tolerance;
  int n;
  (void)state;
  memset(&stated, 0, sizeof stated);
  memset(&tolerance, 0, sizeof tolerance);
  for (n = 0; n < (under_valgrind() ? 2 : 16); ++n) {
    card c;
    job_data t;
    one_plan o;
    ekoc_blockop op, taint, top, ttaint;
    ekoc_quad_settings s = engine_settings(2);
    reference by_op = {&top, NULL}, by_job = {NULL, &t};
    size_t nf;
    card_nspace(&r, &c, 6, n % 4 == 3 ? 60 : 40);
    job_make(&t, &c);
    s.limit = 1;
    s.batch_panels = 64;
    s.batch_points = 30;
    s.cut = REFERENCE_CUT;
    assert_int_equal(ekoc_quad_run_batch(&t.job, &s, &nf), EKOC_OK);
    plan_of_card(&o, &c, &t);
    run_nspace(&o, t.interp, 2, NULL, &op, &taint);
    run_nspace(&o, t.interp, 2, &tight, &top, &ttaint);
    {
      size_t before = stated.flagged;
      tally_part(&stated, &c, &o, &by_op, K_STATED, &op, &taint, 0, (size_t)c.nx);
      if (verbose()) printf("card %s: %zu flagged\n", c.text, stated.flagged - before);
      if (verbose() && stated.flagged > before) {
        int x, y;
        for (x = 0; x < EKOC_NB; ++x)
          for (y = 0; y < EKOC_NB; ++y)
            if (taint.err[x][y]) {
              size_t i, cnt = 0, nn = (size_t)c.nx * (size_t)c.nx;
              double worst = 0.0;
              for (i = 0; i < nn; ++i)
                if (taint.err[x][y][i] > 0) {
                  ++cnt;
                  worst = fmax(worst, op.err[x][y][i] / fmax(1e-12, 1e-5 * fabs(op.val[x][y][i])));
                }
              printf("  block (%d,%d): %zu flagged, worst error/tolerance %.3g\n", x, y, cnt, worst);
            }
      }
    }
    tally_part(&tolerance, &c, &o, &by_job, 0.0, &op, &taint, 0, (size_t)c.nx);
    ekoc_blockop_clear(&op), ekoc_blockop_clear(&taint), ekoc_blockop_clear(&top), ekoc_blockop_clear(&ttaint);
    job_free(&t);
  }
  tally_assert("small grids, against the tight N-space reference", &stated, 0.01, 0.02);
  tally_assert("small grids, against the quadrature reference", &tolerance, 0.01, 0.05);
}

/* Random cards of 150..300 points (the first 300 points, mixed, from 1e-9):
 * every entry within 10 x its stated error of the tight N-space reference,
 * and the first three rows (every basis function active there) within their
 * tolerance of Gauss-Legendre 30/40 on 512 panels of eko's paths, Mellin cut
 * 1e-5 (independent code; its own error, ~1e-8 of these rows' entries with
 * more panels, is not tight enough for the stated errors). */
static void test_property_large_grids(void **state) {
  rnd r = {0x1a29e5u};
  const size_t rows[3] = {0, 1, 2};
  const ekoc_nspace_engine_options tight = tight_options();
  tally first_rows, stated;
  int n;
  (void)state;
  if (under_valgrind()) skip();
  memset(&first_rows, 0, sizeof first_rows);
  memset(&stated, 0, sizeof stated);
  for (n = 0; n < 3; ++n) {
    card c;
    job_data t;
    one_plan o;
    ekoc_blockop op, taint, top, ttaint;
    reference by_op = {&top, NULL}, by_job = {NULL, &t};
    card_nspace(&r, &c, 150, 300);
    if (n == 0) card_fit300(&c);
    job_make(&t, &c);
    reference_rows(&t, rows, 3, 512, 1e-5);
    plan_of_card(&o, &c, &t);
    run_nspace(&o, t.interp, 2, NULL, &op, &taint);
    run_nspace(&o, t.interp, 2, &tight, &top, &ttaint);
    tally_part(&first_rows, &c, &o, &by_job, 0.0, &op, &taint, 0, 3);
    tally_part(&stated, &c, &o, &by_op, K_STATED, &op, &taint, 0, (size_t)c.nx);
    if (verbose()) printf("large grid: %s\n", c.text);
    ekoc_blockop_clear(&op), ekoc_blockop_clear(&taint), ekoc_blockop_clear(&top), ekoc_blockop_clear(&ttaint);
    job_free(&t);
  }
  tally_assert("large grids, first rows against Gauss-Legendre", &first_rows, 0.01, 0.05);
  tally_assert("large grids, against the tight N-space reference", &stated, 0.01, 0.02);
}

/* ---- the composition, where the answer is known ---------------------------------------- */

/* An LO evolution segment a0 -> a1 at nf 4 in o's job slot s. */
static void lo_segment(one_plan *o, int s, double a0, double a1) {
  ekoc_nspace_config *f = o->jobs[s].family;
  int q;
  for (q = 0; q < 2; ++q) {
    memset(&f[q], 0, sizeof f[q]);
    f[q].kind = EKOC_KIND_EVOLUTION;
    f[q].family = q;
    f[q].order = 1;
    f[q].nf = 4;
    f[q].method = EKOC_METHOD_ITERATE_EXACT;
    f[q].ev_op_iterations = 1;
    f[q].ev_op_max_order = 10;
    ekoc_beta_coefficients(4, f[q].beta);
    f[q].a0 = a0;
    f[q].a1 = a1;
  }
  o->jobs[s].nf = 4;
}

/* max |a - b| over the blocks of a, relative to the largest |b| of its block;
 * both hold the same blocks. */
static double blocks_rel_diff(const ekoc_blockop *a, const ekoc_blockop *b) {
  size_t n = a->nx * a->nx, i;
  double worst = 0.0;
  int x, y;
  for (x = 0; x < EKOC_NB; ++x)
    for (y = 0; y < EKOC_NB; ++y) {
      double big = 0.0;
      assert_true((a->val[x][y] == NULL) == (b->val[x][y] == NULL));
      if (!a->val[x][y]) continue;
      for (i = 0; i < n; ++i) big = fmax(big, fabs(b->val[x][y][i]));
      for (i = 0; i < n; ++i) worst = fmax(worst, fabs(a->val[x][y][i] - b->val[x][y][i]) / (big > 0 ? big : 1.0));
    }
  return worst;
}

static ekoc_interp *grid_basis(size_t nx, int degree) {
  double g[64];
  ekoc_interp *ip = NULL;
  assert_true(nx <= 64);
  assert_int_equal(ekoc_grid_lambert(nx, 1e-7, g), EKOC_OK);
  assert_int_equal(ekoc_interp_alloc(g, nx, degree, &ip), EKOC_OK);
  return ip;
}

/* ---- the bands' passes: the first pass's probe (PROBE_ROWS), every entry written ---------- */

/* Whether two operators hold the same blocks with the same bits. */
static int blocks_identical(const ekoc_blockop *a, const ekoc_blockop *b) {
  size_t n = a->nx * a->nx;
  int x, y;
  for (x = 0; x < EKOC_NB; ++x)
    for (y = 0; y < EKOC_NB; ++y) {
      if ((a->val[x][y] == NULL) != (b->val[x][y] == NULL)) return 0;
      if (a->val[x][y] && (memcmp(a->val[x][y], b->val[x][y], n * sizeof(double)) != 0 ||
                           memcmp(a->err[x][y], b->err[x][y], n * sizeof(double)) != 0))
        return 0;
    }
  return 1;
}

/* Where every band converges on its first rule (an LO segment), the probe's
 * rows and then the others give the bits of the whole band at once. */
static void test_probe_keeps_converged_bits(void **state) {
  const int kind = EKOC_STEP_SEGMENT;
  ekoc_interp *ip = grid_basis(60, 4);
  ekoc_nspace_engine_options off;
  one_plan o;
  ekoc_blockop op, taint, op_off, taint_off;
  (void)state;
  ekoc_nspace_engine_options_default(&off);
  off.probe = 0;
  plan_init(&o, 1, &kind, 4);
  lo_segment(&o, 0, 0.028, 0.012);
  assert_int_equal(run_nspace(&o, ip, 2, NULL, &op, &taint), 0);
  assert_int_equal(run_nspace(&o, ip, 2, &off, &op_off, &taint_off), 0);
  assert_true(blocks_identical(&op, &op_off));
  ekoc_blockop_clear(&op), ekoc_blockop_clear(&taint), ekoc_blockop_clear(&op_off), ekoc_blockop_clear(&taint_off);
  ekoc_interp_free(ip);
}

/* Every entry of the blocks the bands invert is written by them (the engine
 * zeroes only what no band takes): with those arrays filled with NaN first
 * (opt.poison) the operators are the same bits, on random cards of every
 * kind and method. */
static void test_bands_write_every_entry(void **state) {
  rnd r = {0x5eed0b5u};
  ekoc_nspace_engine_options poison;
  int n;
  (void)state;
  ekoc_nspace_engine_options_default(&poison);
  poison.poison = 1;
  for (n = 0; n < (under_valgrind() ? 2 : 12); ++n) {
    card c;
    job_data t;
    one_plan o;
    ekoc_blockop op, taint, pop, ptaint;
    card_nspace(&r, &c, 6, 40);
    job_make(&t, &c);
    plan_of_card(&o, &c, &t);
    run_nspace(&o, t.interp, 1 + n % 2, NULL, &op, &taint);
    run_nspace(&o, t.interp, 1 + n % 2, &poison, &pop, &ptaint);
    if (!blocks_identical(&op, &pop)) fail_msg("poisoned outputs differ: %s", c.text);
    ekoc_blockop_clear(&op), ekoc_blockop_clear(&taint), ekoc_blockop_clear(&pop), ekoc_blockop_clear(&ptaint);
    job_free(&t);
  }
}

/* A truncated NNLO segment on NNPDF's fit grid (196 x from 1e-9, degree 4)
 * from a_s(mu0)/4pi = 0.026 to 0.009: its first bands are lowered off the
 * U_k poles and miss the tolerance on 64 intervals nearly everywhere, so the
 * probe starts them on more nodes (the operator differs from refining pass
 * by pass), and every entry still lies within 10 x its stated error of the
 * tight reference. */
static void test_probe_truncated_fit_grid(void **state) {
  const ekoc_nspace_engine_options tight = tight_options();
  ekoc_nspace_engine_options off, poison;
  tally stated;
  card c;
  job_data t;
  one_plan o;
  ekoc_blockop op, taint, op_off, taint_off, top, ttaint;
  reference by_op = {&top, NULL};
  (void)state;
  if (under_valgrind()) skip();
  ekoc_nspace_engine_options_default(&off);
  off.probe = 0;
  poison = off;
  poison.probe = 1;
  poison.poison = 1; /* the probed bands write every entry too */
  memset(&stated, 0, sizeof stated);
  memset(&c, 0, sizeof c);
  c.nx = 196, c.degree = 4, c.is_log = 1, c.xmin = 1e-9, c.grid_kind = GRID_MIXED;
  c.kind = EKOC_KIND_EVOLUTION, c.order = 3, c.nf = 4, c.method = EKOC_METHOD_TRUNCATED, c.iters = 1;
  c.a0 = 0.026, c.a1 = 0.009;
  card_describe(&c);
  job_make(&t, &c);
  plan_of_card(&o, &c, &t);
  run_nspace(&o, t.interp, 2, &poison, &op, &taint);
  run_nspace(&o, t.interp, 2, &off, &op_off, &taint_off);
  run_nspace(&o, t.interp, 2, &tight, &top, &ttaint);
  assert_false(blocks_identical(&op, &op_off));
  tally_part(&stated, &c, &o, &by_op, K_STATED, &op, &taint, 0, (size_t)c.nx);
  ekoc_blockop_clear(&op), ekoc_blockop_clear(&taint), ekoc_blockop_clear(&op_off), ekoc_blockop_clear(&taint_off);
  ekoc_blockop_clear(&top), ekoc_blockop_clear(&ttaint);
  job_free(&t);
  tally_assert("a truncated segment on the fit grid with the probe, against the tight N-space reference", &stated,
               0.0, 0.02);
}

/* Two LO segments 0.028 -> 0.02 -> 0.012 against one 0.028 -> 0.012. */
static void test_two_segments_are_one(void **state) {
  const int kinds[2] = {EKOC_STEP_SEGMENT, EKOC_STEP_SEGMENT};
  ekoc_interp *ip = grid_basis(40, 5);
  one_plan two, one;
  ekoc_blockop op2, t2, op1, t1;
  (void)state;
  plan_init(&two, 2, kinds, 4);
  lo_segment(&two, 0, 0.028, 0.02);
  lo_segment(&two, 1, 0.02, 0.012);
  plan_init(&one, 1, kinds, 4);
  lo_segment(&one, 0, 0.028, 0.012);
  assert_int_equal(run_nspace(&two, ip, 2, NULL, &op2, &t2), 0);
  assert_int_equal(run_nspace(&one, ip, 1, NULL, &op1, &t1), 0);
  assert_true(blocks_rel_diff(&op2, &op1) < 1e-9);
  ekoc_blockop_clear(&op2), ekoc_blockop_clear(&t2), ekoc_blockop_clear(&op1), ekoc_blockop_clear(&t1);
  ekoc_interp_free(ip);
}

/* A forward matching 3 -> 4 followed by the backward one 4 -> 3, both at
 * O(a_s^0) (the identity OMEs): the rotations B_3 -> B_4 -> B_3 after and
 * before them cancel, so the target's operator is exactly the identity,
 * every block a constant. (The matchings themselves, every inversion
 * method, are checked on random cards above.) */
static void test_rotations_cancel(void **state) {
  const int kinds[2] = {EKOC_STEP_FORWARD, EKOC_STEP_BACKWARD};
  ekoc_interp *ip = grid_basis(30, 4);
  one_plan o;
  ekoc_blockop op, taint;
  size_t nn = 30 * 30, i;
  int s, q, a, b;
  (void)state;
  plan_init(&o, 2, kinds, 3);
  for (s = 0; s < 2; ++s) {
    o.jobs[s].is_matching = 1;
    o.jobs[s].nf = 3;
    for (q = 0; q < 2; ++q) {
      ekoc_nspace_config *f = &o.jobs[s].family[q];
      memset(f, 0, sizeof *f);
      f->kind = EKOC_KIND_MATCHING;
      f->family = q;
      f->order = 0;
      f->nf = 3;
      f->matching_method = s == 0 ? EKOC_MATCHING_FORWARD : EKOC_MATCHING_BACKWARD_EXPANDED;
      ekoc_beta_coefficients(3, f->beta);
      f->a1 = 0.025;
      f->ome_log = 0.3;
    }
  }
  assert_int_equal(run_nspace(&o, ip, 2, NULL, &op, &taint), 0);
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) {
      const double *v = op.val[a][b];
      if (a == 0 && b == 0) continue; /* the photon: no part places it */
      if (!v) {
        assert_true(a != b);
        continue;
      }
      for (i = 0; i < nn; ++i) {
        double want = a == b && i % 31 == 0 ? 1.0 : 0.0;
        if (!(fabs(v[i] - want) <= 1e-14))
          fail_msg("block (%d,%d) entry %zu: %.17g, identity %g", a, b, i, v[i], want);
        assert_true(op.err[a][b][i] == 0.0);
      }
    }
  ekoc_blockop_clear(&op), ekoc_blockop_clear(&taint);
  ekoc_interp_free(ip);
}

typedef struct progress_log {
  uint64_t calls, last_done, total, cancel_at; /* cancel_at 0: never */
  int monotone;
} progress_log;

static int log_progress(void *data, uint64_t done, uint64_t total) {
  progress_log *l = (progress_log *)data;
  if (done < l->last_done || (l->calls && total != l->total)) l->monotone = 0;
  ++l->calls;
  l->last_done = done;
  l->total = total;
  return l->cancel_at && done >= l->cancel_at;
}

/* The progress callback counts one step per band and path, ends at its
 * total (a band of small tau has one path, not two), and cancels. */
static void test_progress_and_cancel(void **state) {
  const int kinds[1] = {EKOC_STEP_SEGMENT};
  ekoc_interp *ip = grid_basis(40, 4);
  one_plan o;
  ekoc_request rq;
  ekoc_blockop op, taint;
  size_t n_failed = 0;
  progress_log l;
  (void)state;
  plan_init(&o, 1, kinds, 4);
  lo_segment(&o, 0, 0.028, 0.012);
  ekoc_request_default(&rq);
  memset(&l, 0, sizeof l);
  l.monotone = 1;
  rq.progress = log_progress;
  rq.progress_data = &l;
  ekoc_blockop_init(&op, ip->n), ekoc_blockop_init(&taint, ip->n);
  assert_int_equal(ekoc_nspace_engine_run(&o.plan, ip, &rq, 0, 1, NULL, NULL, &op, &taint, &n_failed), EKOC_OK);
  assert_true(l.monotone);
  assert_true(l.total >= 2);
  assert_true(l.last_done == l.total);
  ekoc_blockop_clear(&op), ekoc_blockop_clear(&taint);
  memset(&l, 0, sizeof l);
  l.monotone = 1;
  l.cancel_at = 1;
  ekoc_blockop_init(&op, ip->n), ekoc_blockop_init(&taint, ip->n);
  assert_int_equal(ekoc_nspace_engine_run(&o.plan, ip, &rq, 0, 1, NULL, NULL, &op, &taint, &n_failed),
                   EKOC_ERR_CANCELLED);
  assert_true(l.calls == 1);
  ekoc_blockop_clear(&op), ekoc_blockop_clear(&taint);
  ekoc_interp_free(ip);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_property_small_grids),
      cmocka_unit_test(test_property_large_grids),
      cmocka_unit_test(test_probe_keeps_converged_bits),
      cmocka_unit_test(test_probe_truncated_fit_grid),
      cmocka_unit_test(test_bands_write_every_entry),
      cmocka_unit_test(test_two_segments_are_one),
      cmocka_unit_test(test_rotations_cancel),
      cmocka_unit_test(test_progress_and_cancel),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
