/* test_batch_engine.c: the batch engine's error control (src/quad/batch.c,
 * batch_eval.h, batch_refine.h, batch_host.h) on random small jobs
 * (tests/engine_jobs.h):
 *  - a 3-node base rule (batch_points = 1): refined to tolerance or flagged,
 *    every entry flagged or within 10 x its stated error (+ 1e-12) of the
 *    64 x 61-node composite reference;
 *  - the same bits for 1 and 4 threads and with or without the N-space cache;
 *  - rows that pass on the base rule keep its sums bit for bit (unless the
 *    row's earlier family was refined: then the later one is refined without
 *    its base rule, with the bits of refining it after its base rule, or
 *    within the stated errors of its base sums where those passed);
 *  - the budget: without refinement (limit 1) more entries are flagged;
 *  - the small-x rows of NNPDF's fit grid: flagged or within their error of QAGS.
 * The property itself (every entry flagged or within K x its stated error of
 * a converged reference, degrees 1..8, log and linear bases, grids up to 300
 * points, both backends) is tests/test_engine_property.c.
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
#include "quad/nspace_cache.h"
#include "quad/path_radius.h"

static int verbose(void) { return getenv("EKOC_TEST_VERBOSE") != NULL; }

typedef struct tally {
  size_t entries, flagged, checked, silent;
  double worst; /* largest |v - ref| / err among the unflagged entries off by more than 1e-12 */
} tally;

/* Entry by entry: flagged, or within 10 err + 1e-12 of the reference
 * (skipped where the reference is not converged to 1e-3 of the tolerance);
 * the flags counted in n_failed. */
static void check_entries(const card *c, const job_data *b, const job_data *t, size_t n_failed, tally *tl) {
  size_t i, nn = (size_t)c->nx * (size_t)c->nx, flagged = 0;
  int e;
  for (e = 0; e < b->job.n_elements; ++e)
    for (i = 0; i < nn; ++i) {
      double v = b->val[e][i], ref = t->val[e][i], d = fabs(v - ref), tol = fmax(1e-12, 1e-5 * fabs(ref));
      assert_true(isfinite(v) && isfinite(b->err[e][i]) && b->err[e][i] >= 0.0);
      assert_true(b->failed[e][i] <= 1);
      ++tl->entries;
      if (b->failed[e][i]) {
        ++flagged;
        continue;
      }
      if (t->err[e][i] > 1e-3 * tol) continue;
      ++tl->checked;
      if (d > tol) ++tl->silent;
      if (d > 1e-12) tl->worst = fmax(tl->worst, d / b->err[e][i]);
      if (!(d <= 10.0 * b->err[e][i] + 1e-12))
        fail_msg("%s: element %d entry (%zu, %zu) = %.15g, reference %.15g, stated error %.3g", c->text, e, i / c->nx,
                 i % c->nx, v, ref, b->err[e][i]);
    }
  assert_int_equal(flagged, n_failed);
  tl->flagged += flagged;
}

/* ---- the tests --------------------------------------------------------------------- */

/* A 3-node base rule (1 Gauss point): every entry refined to the tolerance or
 * flagged, none silently off; and far fewer flags than without refinement. */
static void test_points_one(void **state) {
  rnd r = {0xb0b1u};
  tally tl;
  int n;
  (void)state;
  memset(&tl, 0, sizeof tl);
  for (n = 0; n < 6; ++n) {
    card c;
    job_data b, t;
    ekoc_quad_settings s = engine_settings(2);
    size_t nf = 0, nf_base = 0;
    card_random(&r, &c, 6, 30, 8);
    job_make(&b, &c);
    job_make(&t, &c);
    s.batch_points = 1;
    s.limit = 1;
    assert_int_equal(ekoc_quad_run_batch(&b.job, &s, &nf_base), EKOC_OK);
    s.limit = 100;
    assert_int_equal(ekoc_quad_run_batch(&b.job, &s, &nf), EKOC_OK);
    reference_batch(&t);
    check_entries(&c, &b, &t, nf, &tl);
    assert_true(nf < nf_base || nf_base == 0);
    if (verbose()) printf("points=1: %s: %zu flagged unrefined, %zu refined\n", c.text, nf_base, nf);
    job_free(&b);
    job_free(&t);
  }
  assert_int_equal(tl.silent, 0);
}

/* The same bits for 1 and 4 threads, and with the N-space cache (twice: cold
 * and warm) as without it. */
static void test_threads_and_cache_bitwise(void **state) {
  rnd r = {0x7ea5u};
  int n;
  (void)state;
  for (n = 0; n < 3; ++n) {
    card c;
    job_data x, y;
    ekoc_quad_settings s1 = engine_settings(1), s4 = engine_settings(4);
    ekoc_nspace_cache *cache = NULL;
    size_t nf1 = 0, nf4 = 0, nfc = 0;
    int e, pass;
    card_random(&r, &c, 6, 40, 8);
    c.xmin = 1e-8; /* small x: some rows refine */
    card_describe(&c);
    job_make(&x, &c);
    job_make(&y, &c);
    assert_int_equal(ekoc_quad_run_batch(&x.job, &s1, &nf1), EKOC_OK);
    assert_int_equal(ekoc_quad_run_batch(&y.job, &s4, &nf4), EKOC_OK);
    assert_int_equal(nf1, nf4);
    for (e = 0; e < x.job.n_elements; ++e) {
      assert_memory_equal(x.val[e], y.val[e], (size_t)c.nx * c.nx * sizeof(double));
      assert_memory_equal(x.err[e], y.err[e], (size_t)c.nx * c.nx * sizeof(double));
      assert_memory_equal(x.failed[e], y.failed[e], (size_t)c.nx * c.nx);
    }
    assert_int_equal(ekoc_nspace_cache_new(0, &cache), EKOC_OK);
    assert_true(ekoc_nspace_cache_bind(cache, x.interp->logx, x.interp->n, c.degree, s4.batch_panels,
                                       s4.batch_points, s4.cut));
    s4.nspace_cache = cache;
    for (pass = 0; pass < 2; ++pass) {
      assert_int_equal(ekoc_quad_run_batch(&y.job, &s4, &nfc), EKOC_OK);
      assert_int_equal(nf1, nfc);
      for (e = 0; e < x.job.n_elements; ++e) {
        assert_memory_equal(x.val[e], y.val[e], (size_t)c.nx * c.nx * sizeof(double));
        assert_memory_equal(x.err[e], y.err[e], (size_t)c.nx * c.nx * sizeof(double));
      }
    }
    ekoc_nspace_cache_release(cache);
    ekoc_nspace_cache_free(cache);
    job_free(&x);
    job_free(&y);
  }
}

/* Rows whose entries all pass on the base rule keep its sums bit for bit
 * (limit 1: the base rule alone), and some rows do refine. */
static void test_unrefined_rows_keep_base_bits(void **state) {
  rnd r = {0x0b175u};
  card c;
  job_data a, b;
  ekoc_quad_settings s = engine_settings(2);
  size_t nf_base = 0, nf = 0, k, j, kept = 0, changed = 0;
  int e, f;
  (void)state;
  card_random(&r, &c, 6, 40, 8);
  c.nx = 30; /* NNLO iterate-exact evolution on a lambertgrid from 1e-7, degree 4: small-x singlet rows refine */
  c.degree = 4;
  c.is_log = 1;
  c.grid_kind = GRID_LAMBERT;
  c.kind = EKOC_KIND_EVOLUTION;
  c.order = 3;
  c.method = EKOC_METHOD_ITERATE_EXACT;
  c.iters = 10;
  c.sv = 0;
  c.sv_log = 0.0;
  c.xmin = 1e-7;
  card_describe(&c);
  job_make(&a, &c);
  job_make(&b, &c);
  s.limit = 1;
  assert_int_equal(ekoc_quad_run_batch(&a.job, &s, &nf_base), EKOC_OK);
  s.limit = 100;
  assert_int_equal(ekoc_quad_run_batch(&b.job, &s, &nf), EKOC_OK);
  for (k = 0; k < (size_t)c.nx; ++k) {
    int earlier_refined = 0; /* family 0's row was refined: family 1's skips its base rule (test below) */
    for (f = 0; f < 2; ++f) {
      int row_failed = 0, same = 1;
      for (e = 0; e < a.job.n_elements; ++e) {
        if (a.job.elements[e].family != f) continue;
        for (j = 0; j < (size_t)c.nx; ++j) {
          row_failed |= a.failed[e][k * c.nx + j];
          same &= memcmp(&a.val[e][k * c.nx + j], &b.val[e][k * c.nx + j], sizeof(double)) == 0;
        }
      }
      if (!row_failed && !earlier_refined) assert_true(same);
      if (!row_failed && !earlier_refined) ++kept;
      if (row_failed && !same) ++changed;
      earlier_refined |= !same;
    }
  }
  assert_true(kept > 0);
  assert_true(changed > 0);
  if (verbose()) printf("%s: %zu rows kept, %zu refined, flags %zu -> %zu\n", c.text, kept, changed, nf_base, nf);
  job_free(&a);
  job_free(&b);
}

/* The singlet family of d's job alone (family 0 of the copy *one), on the
 * same element arrays: its rows never skip their base rule. */
static int singlet_alone(const job_data *d, ekoc_quad_job *one) {
  int e, n_ns = 0;
  *one = d->job;
  while (n_ns < d->job.n_elements && d->job.elements[n_ns].family == 0) ++n_ns;
  one->n_families = 1;
  one->family[0] = d->job.family[1];
  one->n_elements = d->job.n_elements - n_ns;
  for (e = 0; e < one->n_elements; ++e) {
    one->elements[e] = d->job.elements[n_ns + e];
    one->elements[e].family = 0;
  }
  return n_ns;
}

/* A row whose non-singlet family was refined has its singlet family refined
 * without the base rule (quad/batch.c): against the singlet family run alone,
 * such a row has the same bits where it is refined there too, and is within
 * the two stated errors (+ 1e-12) where it passed on its base rule there.
 * NNLO iterate-exact evolution and a truncated matching on a lambertgrid from
 * 1e-7, where the small-x rows of both families refine. */
static void test_skipped_base_rows(void **state) {
  rnd r = {0x5c1bu};
  int g;
  (void)state;
  for (g = 0; g < 2; ++g) {
    card c;
    job_data both, alone, base;
    ekoc_quad_job one, one_base;
    ekoc_quad_settings s = engine_settings(2);
    size_t nf = 0, k, j, nx, skipped = 0, same_bits = 0, within = 0;
    int e, n_ns;
    card_random(&r, &c, 6, 40, 8);
    c.nx = 60;
    c.degree = 6;
    c.is_log = 1;
    c.grid_kind = GRID_LAMBERT;
    c.xmin = 1e-7;
    c.kind = g == 0 ? EKOC_KIND_EVOLUTION : EKOC_KIND_MATCHING;
    c.order = g == 0 ? 3 : 2;
    c.method = EKOC_METHOD_ITERATE_EXACT;
    c.iters = 10;
    c.sv = 0;
    c.sv_log = 0.0;
    c.a0 = 0.0279; /* a_s/(4 pi) of the LHA runs: mu^2 = 2 -> 1e4, and 0.02 at a threshold */
    c.a1 = g == 0 ? 0.0093 : 0.02;
    if (g == 1) c.a0 = 0.02;
    card_describe(&c);
    nx = (size_t)c.nx;
    job_make(&both, &c);
    job_make(&alone, &c);
    job_make(&base, &c);
    assert_int_equal(ekoc_quad_run_batch(&both.job, &s, &nf), EKOC_OK);
    n_ns = singlet_alone(&alone, &one);
    assert_int_equal(ekoc_quad_run_batch(&one, &s, &nf), EKOC_OK);
    s.limit = 1; /* the base rule alone: which rows refine */
    assert_int_equal(ekoc_quad_run_batch(&base.job, &s, &nf), EKOC_OK);
    singlet_alone(&base, &one_base);
    assert_int_equal(ekoc_quad_run_batch(&one_base, &s, &nf), EKOC_OK);
    for (k = 0; k < nx; ++k) {
      int ns_refined = 0, singlet_refined = 0, same = 1;
      for (e = 0; e < both.job.n_elements; ++e)
        for (j = 0; j < nx; ++j) {
          size_t i = k * nx + j;
          int differs = memcmp(&both.val[e][i], &base.val[e][i], sizeof(double)) != 0;
          if (e < n_ns) ns_refined |= differs;
          if (e >= n_ns) { /* the singlet alone, refined or not, and with the skip */
            singlet_refined |= memcmp(&alone.val[e][i], &base.val[e][i], sizeof(double)) != 0;
            same &= memcmp(&both.val[e][i], &alone.val[e][i], sizeof(double)) == 0;
          }
        }
      if (!ns_refined) {
        assert_true(same); /* no skip: the singlet's rows as alone */
        continue;
      }
      ++skipped;
      if (singlet_refined) {
        assert_true(same);
        ++same_bits;
        continue;
      }
      ++within;
      for (e = n_ns; e < both.job.n_elements; ++e)
        for (j = 0; j < nx; ++j) {
          size_t i = k * nx + j;
          double d = fabs(both.val[e][i] - alone.val[e][i]);
          if (!(d <= both.err[e][i] + alone.err[e][i] + 1e-12))
            fail_msg("%s: row %zu element %d basis %zu: %.15g skipped, %.15g on the base rule (errors %.2g, %.2g)",
                     c.text, k, e, j, both.val[e][i], alone.val[e][i], both.err[e][i], alone.err[e][i]);
        }
    }
    if (verbose())
      printf("%s: %zu rows skipped the base rule (%zu same bits, %zu within the errors)\n", c.text, skipped, same_bits,
             within);
    assert_true(same_bits > 0); /* the skip was taken where it pays */
    job_free(&both);
    job_free(&alone);
    job_free(&base);
  }
}

/* The entry (row k, basis j) of job element e by GSL QAGS through the public
 * integrand (ekoc_quad_integrate) at epsrel 1e-12: the independent reference
 * of the adaptive driver. A composite Gauss-Legendre rule of 64 equal panels
 * is not converged on these rows (the integrand peaks 80x above the value
 * within 1e-3 of t = 1/2) while its 30/40-point difference says it is. */
static double qags_entry(const job_data *t, ekoc_quad_workspace *ws, int e, size_t k, size_t j, double cut,
                         double *err) {
  const ekoc_quad_element *el = &t->job.elements[e];
  ekoc_kernel_args args;
  double v = NAN;
  int rc;
  double radius;
  ekoc_path_status path;
  memset(&args, 0, sizeof args);
  args.nspace = t->job.family[el->family];
  /* on the drivers' path (moved off a pole of the truncated solution, quad/path_radius.h) */
  assert_int_equal(ekoc_path_radius(&args.nspace, t->interp->logx[k], &radius, &path), EKOC_OK);
  args.path_radius = path == EKOC_PATH_MOVED ? radius : 0.0;
  args.element = el->element;
  args.logx = t->interp->logx[k];
  args.interp = t->interp;
  args.subtract = el->subtract;
  args.workspace = ws;
  args.basis_index = (int32_t)j;
  rc = ekoc_quad_integrate(&args, cut, 1e-14, 1e-12, 1000, &v, err);
  assert_true(rc == EKOC_OK || rc == EKOC_ERR_INTEGRATION); /* short of 1e-12: the estimate, with its error */
  return v;
}

/* NNPDF's fit-grid shape (196 points, two thirds log-uniform from 1e-9 up to
 * 0.1, a third linear above; degree 4; NNLO truncated, as NNPDF 40000000;
 * its two segments): rows 12, 20 and 63 (x ~ 5e-9, 2e-8, 7.04e-6; every 5th
 * basis function) flagged or within 10 x their stated error (+ 1e-10
 * relative) of QAGS at epsrel 1e-12 on the same path. The small-x rows next
 * to the diagonal converge (no flags in rows x < 3e-8: they stalled at 4
 * splits, quad/batch_refine.h); row 63's path, 1e-5 from a pole of the
 * truncated solution in the nf = 5 segment, is moved off it
 * (quad/path_radius.h) and converges unflagged too. */
static void test_fit_grid_small_x_rows(void **state) {
  static const double segments[2][3] = {{4, 0.0265, 0.0172}, {5, 0.0172, 0.0093}}; /* nf, a0, a1 */
  static const size_t rows[] = {12, 20, 63};
  rnd r = {0xf196u};
  ekoc_quad_settings s = engine_settings(2);
  int g;
  (void)state;
  /* the quadrature of eko's range itself: the remainder beyond the cut flags
   * the entries next to the diagonal of these rows (4423 of the nf = 4
   * segment; tests/test_batch.c checks the remainder) */
  s.skip_cut_remainder = 1;
  for (g = 0; g < 2; ++g) {
    card c;
    job_data b;
    ekoc_quad_workspace *ws = NULL; /* QAGS's intervals and the basis cache of the reference entries */
    size_t nf = 0, k, j, small_x_flags = 0, nn, compared = 0;
    int e;
    card_random(&r, &c, 6, 40, 8);
    c.nx = 196;
    c.degree = 4;
    c.is_log = 1;
    c.xmin = 1e-9;
    c.grid_kind = GRID_MIXED;
    c.kind = EKOC_KIND_EVOLUTION;
    c.order = 3;
    c.nf = (int)segments[g][0];
    c.method = EKOC_METHOD_TRUNCATED;
    c.iters = 1;
    c.sv = 0;
    c.sv_log = 0.0;
    c.a0 = segments[g][1];
    c.a1 = segments[g][2];
    card_describe(&c);
    job_make(&b, &c);
    assert_int_equal(ekoc_quad_run_batch(&b.job, &s, &nf), EKOC_OK);
    assert_int_equal(ekoc_quad_workspace_alloc(1000, &ws), EKOC_OK);
    assert_int_equal(ekoc_quad_workspace_reserve_basis(ws, (size_t)c.nx), EKOC_OK);
    nn = (size_t)c.nx;
    for (e = 0; e < b.job.n_elements; ++e)
      for (k = 0; k < 26; ++k)
        for (j = 0; j < nn; ++j) small_x_flags += b.failed[e][k * nn + j];
    for (e = 0; e < b.job.n_elements; ++e)
      for (k = 0; k < sizeof rows / sizeof rows[0]; ++k)
        for (j = 0; j < nn; j += 5) {
          size_t i = rows[k] * nn + j;
          double ref_err, ref, v = b.val[e][i];
          if (b.failed[e][i]) continue;
          ref = qags_entry(&b, ws, e, rows[k], j, s.cut, &ref_err);
          ++compared;
          /* + 1e-10 |ref|: the rounding of entries up to ~5e6 (1e5 below epsrel) */
          if (!(fabs(v - ref) <= 10.0 * b.err[e][i] + 2.0 * ref_err + 1e-12 + 1e-10 * fabs(ref)))
            fail_msg("%s: element %d entry (%zu, %zu) = %.15g, QAGS %.15g (+-%.2g), stated error %.3g", c.text, e,
                     rows[k], j, v, ref, ref_err, b.err[e][i]);
        }
    assert_true(compared > 0);
    assert_int_equal(small_x_flags, 0);
    if (c.nf == 5) { /* row 63: moved off the pole, every entry converged */
      double radius;
      ekoc_path_status path;
      assert_int_equal(ekoc_path_radius(&b.job.family[1], b.interp->logx[63], &radius, &path), EKOC_OK);
      assert_int_equal(path, EKOC_PATH_MOVED);
      for (e = 0; e < b.job.n_elements; ++e)
        for (j = 0; j < nn; ++j) assert_int_equal(b.failed[e][63 * nn + j], 0);
    }
    if (verbose()) printf("%s: %zu flags, %zu in rows x < 3e-8; %zu entries against QAGS\n", c.text, nf, small_x_flags,
                          compared);
    ekoc_quad_workspace_free(ws);
    job_free(&b);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_points_one),
      cmocka_unit_test(test_threads_and_cache_bitwise),
      cmocka_unit_test(test_unrefined_rows_keep_base_bits),
      cmocka_unit_test(test_skipped_base_rows),
      cmocka_unit_test(test_fit_grid_small_x_rows),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
