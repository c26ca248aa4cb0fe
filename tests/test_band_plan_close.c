/* test_band_plan_close.c: band paths of grids with two close points
 * (src/quad/band_plan.{h,c}, docs/physics.md §3.2; issue 36 item 5): the
 * radius is capped so the path's crossing stays below the crate's |N| limit,
 * a band with a slowly decaying row runs its path on towards theta = pi
 * (graded nodes) until that row has decayed, each row has its own smallest
 * tau, and points closer than EKOC_BAND_CLOSE_MIN are refused up front with
 * EKOC_ERR_INVALID_GRID naming request.xgrid and both points. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ekoc.h"
#include "quad/band_plan.h"
#include "quad/interp.h"

/* 10 log-spaced points from 1e-4 to 1, plus x_5 (1 + gap) when gap > 0. */
static ekoc_interp *close_grid(double gap, size_t *n_out) {
  double x[11];
  size_t n = 0, i;
  ekoc_interp *ip = NULL;
  for (i = 0; i < 10; ++i) {
    x[n++] = pow(10.0, -4.0 + 4.0 * (double)i / 9.0);
    if (i == 5 && gap > 0.0) x[n++] = x[5] * (1.0 + gap);
  }
  assert_int_equal(ekoc_interp_alloc(x, n, 4, &ip), EKOC_OK);
  *n_out = n;
  return ip;
}

static void test_refused_naming_the_points(void **state) {
  static const double gaps[] = {1e-15, 1e-9, 1e-5, 5e-4};
  size_t g, n;
  (void)state;
  for (g = 0; g < sizeof gaps / sizeof *gaps; ++g) {
    ekoc_interp *ip = close_grid(gaps[g], &n);
    ekoc_band_plan *bp = NULL;
    assert_int_equal(ekoc_band_plan_check_grid(ip), EKOC_ERR_INVALID_GRID);
    assert_non_null(strstr(ekoc_last_error(), "request.xgrid[5]="));
    assert_non_null(strstr(ekoc_last_error(), "request.xgrid[6]="));
    assert_int_equal(ekoc_band_plan_new(ip, EKOC_BAND_MAGNIFICATION, EKOC_BAND_RATIO, &bp), EKOC_ERR_INVALID_GRID);
    assert_null(bp);
    ekoc_interp_free(ip);
  }
}

/* A computable close pair: every band's crossing and nodes below N_MAX, the
 * lower point's row with its own (small) tau, its band's path decayed to the
 * end; a grid without the pair unchanged (Talbot's uniform nodes). */
static void test_close_pair_paths(void **state) {
  static const double gaps[] = {0.0, 1.5e-3, 1e-2};
  static const int ms[] = {64, 512};
  size_t g, n;
  (void)state;
  for (g = 0; g < sizeof gaps / sizeof *gaps; ++g) {
    ekoc_interp *ip = close_grid(gaps[g], &n);
    ekoc_band_plan *bp = NULL;
    int b, q, i, found = gaps[g] == 0.0;
    assert_int_equal(ekoc_band_plan_check_grid(ip), EKOC_OK);
    assert_int_equal(ekoc_band_plan_new(ip, EKOC_BAND_MAGNIFICATION, EKOC_BAND_RATIO, &bp), EKOC_OK);
    for (b = 0; b < bp->n_bands; ++b) {
      const ekoc_band *bd = &bp->band[b];
      assert_true(bd->radius <= EKOC_BAND_RADIUS_MAX);
      if (gaps[g] > 0.0 && fabs(bd->row_tau_min[5] - log1p(gaps[g])) < 1e-12) found = 1;
      for (q = 0; q < 2; ++q) {
        ekoc_complex nodes[513], w[513];
        double tail, prev = -1.0;
        ekoc_band_nodes(bd, 1.0, ms[q], nodes, w, &tail);
        for (i = 0; i <= ms[q]; ++i) {
          assert_true(c_abs(nodes[i]) <= EKOC_BAND_N_MAX * (1.0 + 1e-9));
          assert_true(nodes[i].im > prev); /* theta ascending */
          prev = nodes[i].im;
        }
        if (isfinite(bd->tau_min)) assert_true(tail < 1e-17); /* the slowest row decayed (e^-40) at the end */
      }
    }
    assert_true(found);
    ekoc_band_plan_free(bp);
    ekoc_interp_free(ip);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_refused_naming_the_points),
      cmocka_unit_test(test_close_pair_paths),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
