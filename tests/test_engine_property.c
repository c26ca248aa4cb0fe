/* test_engine_property.c: issue 17's property of both quadrature backends,
 * the batch engine (src/quad/batch*.c) and the adaptive driver
 * (src/quad/adaptive.c), on random cards (tests/engine_jobs.h):
 *
 *   every operator entry is flagged as failed, or within
 *   K_STATED x its stated error (+ 1e-12, + twice the reference's own
 *   error) of a converged reference,
 *
 * for grids of 6..60 points (whole operators) and of 150..300 points (their
 * first rows), x down to 1e-9, lambertgrid, log-uniform and mixed log/linear
 * grids (also ending ..., 0.93, 1 as pineko's), bases of degree 1..8 in ln x
 * and in x, evolution (orders 1-3, all methods, scale variations) and
 * matching (orders 1-2, all inversion methods), at eko's tolerances.
 *
 * K_STATED = 10, from measurement (2026-12-01: random cards as here, about
 * 600 cards of 6..60 points, 1.4e6 checked entries): the batch engine's
 * entries are within 6.6x their stated error except three, all
 * perturbative-expanded evolution, whose integrands had a sharp feature the
 * base rule's Gauss/Kronrod pair agreed on by accident (13x, 22x, 56x): a
 * pole of the U_k solutions next to the path, which is now moved off it
 * (src/quad/path_radius.h; kept below as test_pole_rows_estimates); the adaptive driver within
 * 6.7x since it checks QAGS's estimate on bisected intervals (src/quad/
 * adaptive.c; with QAGS's estimate alone up to 2700x, and on the 300-point
 * card below an unflagged entry 4.3x its tolerance off). Every unflagged
 * entry measured was also within its tolerance max(1e-12, 1e-5 |ref|): at
 * most 0.013 of it (batch), 0.5 (adaptive).
 *
 * References (tests/engine_jobs.h): whole operators with the batch rule as a
 * fixed 64 x 61-node composite rule (reference_batch), chosen rows through the
 * public integrand and GSL's Gauss-Legendre tables (reference_rows). Entries
 * whose reference is not converged to 1e-3 of the tolerance are skipped and
 * counted (asserted few); test_reference_is_converged checks the two
 * references against each other (independent rules, the Gauss-Legendre one
 * on 128 panels) wherever both claim convergence.
 *
 * The large grids: the job API has no row range, so the drivers run on one
 * thread with a progress callback that cancels after the first rows (rows go
 * in order on one thread; the test asserts the next row was not written).
 * Those rows have x_k ~ xmin and every basis function active.
 *
 * The stated errors here leave out the remainder beyond the Mellin cut
 * (skip_cut_remainder, quad/driver.h): the references are integrals over
 * eko's range [0.5, 1 - cut], and with the remainder counted the entries
 * next to the diagonal at small x are flagged for it (tests/test_batch.c
 * test_cut_remainder_* check that part).
 *
 * Run time: 25 s of CPU, 35 s wall on 2 cores shared with other jobs (-O2,
 * 2026-12-01); EKOC_TEST_VERBOSE=1 prints the tallies. CI also runs it under
 * ASan (check-asan); check-valgrind skips it (Makefile VALGRIND_SKIP).
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
#include "quad/driver.h"

#define K_STATED 10.0

static int verbose(void) { return getenv("EKOC_TEST_VERBOSE") != NULL; }

typedef enum { BACKEND_BATCH = 0, BACKEND_ADAPTIVE = 1 } backend;
static const char *backend_name[] = {"batch", "adaptive"};

static int run_backend(backend be, job_data *d, const ekoc_quad_settings *s, size_t *n_failed) {
  return be == BACKEND_BATCH ? ekoc_quad_run_batch(&d->job, s, n_failed) : ekoc_quad_run_adaptive(&d->job, s, n_failed);
}

/* ---- the property, entry by entry ------------------------------------------------------ */

typedef struct tally {
  size_t entries, flagged, checked, skipped, violations;
  double worst_stated; /* largest |v - ref| / error among checked entries off by more than 1e-12 */
  double worst_tol;    /* largest |v - ref| / tolerance among checked entries */
  char first_violation[512];
} tally;

/* Entry i of element e: flagged; or skipped (reference not converged); or
 * checked against the property. */
static void tally_entry(tally *tl, const card *c, int e, size_t i, const job_data *b, const job_data *t) {
  double v = b->val[e][i], err = b->err[e][i], ref = t->val[e][i], ref_err = t->err[e][i];
  double d = fabs(v - ref), tol = fmax(1e-12, 1e-5 * fabs(ref));
  assert_true(isfinite(v) && isfinite(err) && err >= 0.0);
  assert_true(b->failed[e][i] <= 1);
  assert_true(isfinite(ref) && isfinite(ref_err));
  ++tl->entries;
  if (b->failed[e][i]) {
    ++tl->flagged;
    return;
  }
  if (ref_err > 1e-3 * tol) {
    ++tl->skipped;
    return;
  }
  ++tl->checked;
  tl->worst_tol = fmax(tl->worst_tol, d / tol);
  if (d > 1e-12) tl->worst_stated = fmax(tl->worst_stated, err > 0.0 ? d / err : INFINITY);
  if (!(d <= K_STATED * err + 2.0 * ref_err + 1e-12)) {
    if (tl->violations++ == 0)
      snprintf(tl->first_violation, sizeof tl->first_violation,
               "%s: element %d entry (%zu, %zu) = %.15g, reference %.15g (+- %.2g), stated error %.3g (%.3g x)", c->text,
               e, i / (size_t)c->nx, i % (size_t)c->nx, v, ref, ref_err, err, d / err);
  }
}

static void tally_rows(tally *tl, const card *c, const job_data *b, const job_data *t, size_t k0, size_t k1) {
  size_t k, j, nx = (size_t)c->nx;
  int e;
  for (e = 0; e < b->job.n_elements; ++e)
    for (k = k0; k < k1; ++k)
      for (j = 0; j < nx; ++j) tally_entry(tl, c, e, k * nx + j, b, t);
}

static void tally_print(const char *what, backend be, const tally *tl) {
  if (!verbose()) return;
  printf("%s, %s: %zu entries, %zu flagged, %zu checked, %zu skipped (reference), worst |v - ref| / error %.3g, "
         "/ tolerance %.3g\n",
         what, backend_name[be], tl->entries, tl->flagged, tl->checked, tl->skipped, tl->worst_stated, tl->worst_tol);
}

/* No violation; few entries flagged and few skipped. */
static void tally_assert(const tally *tl, double max_flagged_share) {
  if (tl->violations) fail_msg("%zu silent entries, the first: %s", tl->violations, tl->first_violation);
  assert_true(tl->entries > 0);
  assert_true((double)tl->flagged <= max_flagged_share * (double)tl->entries);
  assert_true((double)tl->skipped <= 0.02 * (double)tl->entries);
}

/* ---- whole operators on small grids ------------------------------------------------------ */

/* Random cards (nx 6..40, one in four up to 60, degree 1..8): both backends,
 * every entry. */
static void test_property_small_grids(void **state) {
  rnd r = {0x5eed2026u};
  tally tl[2];
  int n, be;
  (void)state;
  memset(tl, 0, sizeof tl);
  for (n = 0; n < 14; ++n) {
    card c;
    job_data t;
    card_random(&r, &c, 6, n % 4 == 3 ? 60 : 40, 8);
    job_make(&t, &c);
    reference_batch(&t);
    for (be = 0; be < 2; ++be) {
      job_data b;
      ekoc_quad_settings s = engine_settings(2);
    s.skip_cut_remainder = 1; /* the property is the quadrature's of eko's range (top) */
      size_t nf = 0, flagged_before = tl[be].flagged;
      job_make(&b, &c);
      assert_int_equal(run_backend((backend)be, &b, &s, &nf), EKOC_OK);
      tally_rows(&tl[be], &c, &b, &t, 0, (size_t)c.nx);
      assert_int_equal(tl[be].flagged - flagged_before, nf); /* every flag counted, none more */
      job_free(&b);
    }
    job_free(&t);
  }
  for (be = 0; be < 2; ++be) {
    tally_print("small grids", (backend)be, &tl[be]);
    tally_assert(&tl[be], 0.03);
  }
}

/* The two references agree wherever both claim convergence: the 64 x 61-node
 * composite Gauss-Kronrod rule of the batch engine and GSL's Gauss-Legendre
 * 30/40 points on 128 panels through the public integrand, on three rows of
 * random cards; few entries of either are unconverged. */
static void test_reference_is_converged(void **state) {
  rnd r = {0xc0417e5u};
  size_t both = 0, unconverged = 0, entries = 0;
  double worst = 0.0;
  int n;
  (void)state;
  for (n = 0; n < 4; ++n) {
    card c;
    job_data a, g;
    size_t rows[3], nr, q, j, nx;
    int e;
    card_random(&r, &c, 8, 30, 8);
    nx = (size_t)c.nx;
    rows[0] = 0;
    rows[1] = nx / 2;
    rows[2] = nx - 2;
    nr = 3;
    job_make(&a, &c);
    job_make(&g, &c);
    reference_batch(&a);
    reference_rows(&g, rows, nr, 128, 0.05);
    for (e = 0; e < a.job.n_elements; ++e)
      for (q = 0; q < nr; ++q)
        for (j = 0; j < nx; ++j) {
          size_t i = rows[q] * nx + j;
          double va = a.val[e][i], vg = g.val[e][i], tol = fmax(1e-12, 1e-5 * fabs(vg));
          double ea = a.err[e][i], eg = g.err[e][i], d = fabs(va - vg);
          ++entries;
          if (ea > 1e-3 * tol || eg > 1e-3 * tol) {
            ++unconverged;
            continue;
          }
          ++both;
          if (d > 1e-13) worst = fmax(worst, d / (ea + eg + 1e-300));
          if (!(d <= 3.0 * (ea + eg) + 1e-13))
            fail_msg("%s: element %d entry (%zu, %zu): 64 x 61 Gauss-Kronrod %.15g +- %.2g, 128 x 40 Gauss-Legendre "
                     "%.15g +- %.2g",
                     c.text, e, rows[q], j, va, ea, vg, eg);
        }
    job_free(&a);
    job_free(&g);
  }
  assert_true((double)unconverged <= 0.02 * (double)entries);
  if (verbose())
    printf("references: %zu entries, %zu converged in both, %zu not, worst |a - b| / (err_a + err_b) %.3g\n", entries,
           both, unconverged, worst);
}

/* ---- the first rows of large grids ------------------------------------------------------ */

typedef struct row_stop {
  uint64_t rows;
} row_stop;

/* Cancels once `rows` rows are done. */
static int stop_after_rows(void *data, uint64_t done, uint64_t total) {
  (void)total;
  return done >= ((row_stop *)data)->rows;
}

/* The backend on the first n_rows rows only (one thread: rows in order). */
static void run_first_rows(backend be, job_data *b, size_t n_rows) {
  ekoc_quad_settings s = engine_settings(1);
  s.skip_cut_remainder = 1; /* the property is the quadrature's of eko's range (top) */
  ekoc_quad_progress p;
  row_stop stop;
  size_t nf = 0, nx = b->interp->n;
  int e;
  stop.rows = n_rows;
  ekoc_quad_progress_init(&p, stop_after_rows, &stop, nx);
  s.progress = &p;
  assert_int_equal(run_backend(be, b, &s, &nf), EKOC_ERR_CANCELLED);
  ekoc_quad_progress_destroy(&p);
  for (e = 0; e < b->job.n_elements; ++e) /* the row after them was never started (poisoned as job_make left it) */
    assert_true(isnan(b->val[e][n_rows * nx]));
}

/* Random cards on 150..300 points (the first one 300 points, mixed grid, x
 * from 1e-9), the first three rows: both backends against the Gauss-Legendre
 * reference on 64 panels. */
static void test_property_large_grids(void **state) {
  rnd r = {0x300b16u};
  tally tl[2];
  const size_t n_rows = 3, rows[3] = {0, 1, 2};
  int n, be;
  (void)state;
  memset(tl, 0, sizeof tl);
  for (n = 0; n < 4; ++n) {
    card c;
    job_data t;
    card_random(&r, &c, 150, 300, 8);
    if (n == 0) card_fit300(&c);
    job_make(&t, &c);
    reference_rows(&t, rows, n_rows, 64, 0.05);
    for (be = 0; be < 2; ++be) {
      job_data b;
      job_make(&b, &c);
      run_first_rows((backend)be, &b, n_rows);
      tally_rows(&tl[be], &c, &b, &t, 0, n_rows);
      job_free(&b);
    }
    if (verbose()) printf("large grid: %s\n", c.text);
    job_free(&t);
  }
  for (be = 0; be < 2; ++be) {
    tally_print("large grids, first rows", (backend)be, &tl[be]);
    tally_assert(&tl[be], 0.05);
  }
}

/* ---- rows next to a pole of the U_k solutions --------------------------------------------- */

/* Three perturbative-expanded evolution cards (found by random cards as
 * above) where an unflagged batch entry was 13x, 22x and 56x its stated
 * error off the reference (within its tolerance): rows crossing the real
 * axis near a pole |r_+ - r_-| = k (K = 10 crowds them towards N = 1; the
 * first card's row x = 2.2e-8 crosses at N = 1.3605, 0.093 r below k = 3 at
 * 1.3939, nf = 5), whose spike the base rule's Gauss and Kronrod sums agreed
 * on by accident. With the guard at 0.1 r (src/quad/path_radius.h; at 0.05 r
 * two entries were still 21x off) the paths are moved off the poles, or the
 * rows flagged (those below EKOC_PATH_COMPLEX_POLE_RADIUS: 9.5 % of the
 * entries here), and every entry is within 10x its stated error or flagged. */
static void test_pole_rows_estimates(void **state) {
  static const struct {
    int nx, degree, grid_kind, order, nf, iters, sv;
    double xmin, sv_log, a0, a1;
  } cases[3] = {
      {12, 7, GRID_LOG, 2, 4, 9, 1, 2.2230942644892196e-09, 1.3862943611198906, 0.024797340023284521,
       0.02912849167604814},
      {24, 1, GRID_LOG, 2, 5, 6, 2, 1.5218472739320964e-09, -1.3862943611198906, 0.020848963720499932,
       0.015694511690793677},
      {20, 5, GRID_MIXED, 3, 5, 8, 2, 1.0730703786492032e-08, 1.3862943611198906, 0.015485860545576869,
       0.027593734931041732},
  };
  tally tl;
  size_t q;
  (void)state;
  memset(&tl, 0, sizeof tl);
  for (q = 0; q < 3; ++q) {
    card c;
    job_data b, t;
    ekoc_quad_settings s = engine_settings(2);
    s.skip_cut_remainder = 1; /* the property is the quadrature's of eko's range (top) */
    size_t nf = 0;
    memset(&c, 0, sizeof c);
    c.nx = cases[q].nx;
    c.degree = cases[q].degree;
    c.is_log = 1;
    c.grid_kind = cases[q].grid_kind;
    c.kind = EKOC_KIND_EVOLUTION;
    c.order = cases[q].order;
    c.nf = cases[q].nf;
    c.method = EKOC_METHOD_PERTURBATIVE_EXPANDED;
    c.iters = cases[q].iters;
    c.sv = cases[q].sv;
    c.sv_log = cases[q].sv_log;
    c.xmin = cases[q].xmin;
    c.a0 = cases[q].a0;
    c.a1 = cases[q].a1;
    card_describe(&c);
    job_make(&b, &c);
    job_make(&t, &c);
    assert_int_equal(ekoc_quad_run_batch(&b.job, &s, &nf), EKOC_OK);
    reference_batch(&t);
    tally_rows(&tl, &c, &b, &t, 0, (size_t)c.nx);
    job_free(&b);
    job_free(&t);
  }
  assert_true(tl.worst_tol <= 1.0); /* within the tolerance */
  if (verbose()) printf("pole rows: %zu of %zu entries flagged\n", tl.flagged, tl.entries);
  tally_assert(&tl, 0.15); /* 9.5 %: their small-x rows near a pole cannot move (below the complex poles' radii) */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_property_small_grids),
      cmocka_unit_test(test_reference_is_converged),
      cmocka_unit_test(test_property_large_grids),
      cmocka_unit_test(test_pole_rows_estimates),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
