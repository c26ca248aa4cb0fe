/* test_path_radius.c: the row's Talbot radius off the poles of the U_k
 * singlet kernels (src/quad/path_radius.h, docs/physics.md §3.1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/nspace.h"
#include "ekoc.h"
#include "quad/path_radius.h"
#include "quad/talbot.h"
#include "singlet_cfg.h"
#include "test_util.h"

static int verbose(void) { return getenv("EKOC_TEST_VERBOSE") != NULL; }

/* NNLO evolution singlet, nf flavours, with method `method` (tests/singlet_cfg.h). */
static ekoc_nspace_config singlet_cfg(int nf, int method) {
  ekoc_nspace_config c = test_singlet_cfg(nf, 3, method, 10);
  assert_int_equal(c.nf, nf);
  return c;
}

/* |r_+ - r_-| at real N from the crate's gamma^(0), independently of the module. */
static double eigen_gap(const ekoc_nspace_config *cfg, double n) {
  double scratch[EKOC_NSPACE_TOWER_SCRATCH(1)], nim = 0.0, d;
  ekoc_nspace_config lo = *cfg;
  ekoc_complex t[4]; /* gamma^(0): qq, qg, gq, gg */
  lo.order = 1;
  assert_int_equal(ekoc_nspace_towers(&lo, 1, &n, &nim, scratch, t), EKOC_OK);
  d = t[0].re - t[3].re;
  return sqrt(d * d + 4.0 * t[1].re * t[2].re) / cfg->beta[0];
}

/* ln x whose Talbot crossing 1 + r(x) is n. */
static double logx_crossing(double n) { return 0.1 - 6.4 / (n - 1.0); }

/* The per-point kernel's arguments for element `element` of family c, row
 * ln x = logx, basis function `basis`, on the path of radius `radius`
 * (0: eko's Talbot radius). */
static ekoc_kernel_args path_args(const ekoc_nspace_config *c, int element, double logx, ekoc_interp *in, int basis,
                                  ekoc_quad_workspace *ws, double radius) {
  ekoc_kernel_args args;
  memset(&args, 0, sizeof args);
  args.nspace = *c;
  args.element = element;
  args.logx = logx;
  args.interp = in;
  args.basis_index = basis;
  args.workspace = ws;
  args.path_radius = radius;
  return args;
}

/* Families without U_k poles keep eko's radius, whatever the crossing. */
static void test_no_poles_keep_talbot(void **state) {
  static const int methods[] = {EKOC_METHOD_ITERATE_EXACT, EKOC_METHOD_ORDERED_EXACT, EKOC_METHOD_DECOMPOSE_EXACT};
  double logx = logx_crossing(1.534931);
  size_t i;
  (void)state;
  for (i = 0; i < sizeof methods / sizeof methods[0]; ++i) {
    ekoc_nspace_config c = singlet_cfg(5, methods[i]);
    double r = -1.0;
    ekoc_path_status st = EKOC_PATH_MOVED;
    assert_int_equal(ekoc_path_pole_orders(&c), 0);
    assert_int_equal(ekoc_path_radius(&c, logx, &r, &st), EKOC_OK);
    assert_int_equal(st, EKOC_PATH_TALBOT);
    assert_true(r == ekoc_talbot_radius(logx));
  }
  {
    ekoc_nspace_config c = singlet_cfg(5, EKOC_METHOD_TRUNCATED);
    c.family = EKOC_FAMILY_NS; /* scalar kernels: no eigenvalue gap */
    assert_int_equal(ekoc_path_pole_orders(&c), 0);
    c = singlet_cfg(5, EKOC_METHOD_TRUNCATED);
    c.order = 1;
    assert_int_equal(ekoc_path_pole_orders(&c), 0);
    c.order = 3;
    assert_int_equal(ekoc_path_pole_orders(&c), 3);
    c.method = EKOC_METHOD_PERTURBATIVE_EXACT;
    assert_int_equal(ekoc_path_pole_orders(&c), 10);
  }
}

/* NNPDF's fit-grid row x = 7.04e-6 in the nf = 5 segment: eko's crossing
 * lies 1e-5 above the pole |r_+ - r_-| = 2 (N = 1.534931, found independently
 * with ekore in Python); the radius moves up to the guard distance, on the
 * same side, and the new crossing is no nearer to any other pole. */
static void test_fit_grid_row_moves_off_the_pole(void **state) {
  ekoc_nspace_config c = singlet_cfg(5, EKOC_METHOD_TRUNCATED);
  double logx = log(7.04e-6), r0 = ekoc_talbot_radius(logx), r = 0.0, c0 = 1.0 + r0, c1, g;
  ekoc_path_status st = EKOC_PATH_TALBOT;
  (void)state;
  assert_true(fabs(c0 - 1.534931) < 1e-4);
  assert_int_equal(ekoc_path_radius(&c, logx, &r, &st), EKOC_OK);
  assert_int_equal(st, EKOC_PATH_MOVED);
  c1 = 1.0 + r;
  /* the pole sits a guard below the new crossing: |r_+ - r_-| = 2 there */
  g = eigen_gap(&c, c1 - EKOC_PATH_POLE_GUARD * r0);
  assert_close(g, 2.0, 1e-9, 0.0);
  assert_close(c1 - EKOC_PATH_POLE_GUARD * r0, 1.534931, 0.0, 2e-6);
  assert_true(c1 > c0); /* the side of eko's crossing */
  /* between the crossings the gap stays on one side of 2 (no pole swept) */
  assert_true((eigen_gap(&c, c0) - 2.0) * (eigen_gap(&c, c1) - 2.0) > 0.0);
  /* the same pole approached from below moves the crossing down */
  logx = logx_crossing(1.534931 - 0.2 * EKOC_PATH_POLE_GUARD * 0.5349);
  assert_int_equal(ekoc_path_radius(&c, logx, &r, &st), EKOC_OK);
  assert_int_equal(st, EKOC_PATH_MOVED);
  assert_true(1.0 + r < 1.534931 && 1.0 + r < 1.0 + ekoc_talbot_radius(logx));
}

/* Every row of a fine log grid: a moved crossing is at least (nearly) the
 * guard away from every pole |r_+ - r_-| = k, k < K, and between eko's
 * crossing and the moved one no pole lies; rows far from poles keep eko's
 * radius. Both pole families (truncated K = 3, perturbative K = 10), nf 3..6. */
static void test_moved_crossings_clear_every_pole(void **state) {
  static const int methods[] = {EKOC_METHOD_TRUNCATED, EKOC_METHOD_PERTURBATIVE_EXACT};
  size_t moved = 0, kept = 0, unresolved = 0;
  int nf, mi, i;
  (void)state;
  for (nf = 3; nf <= 6; ++nf)
    for (mi = 0; mi < 2; ++mi) {
      ekoc_nspace_config c = singlet_cfg(nf, methods[mi]);
      int kmax = ekoc_path_pole_orders(&c);
      size_t unresolved0 = unresolved, moved0 = moved;
      for (i = 0; i < 400; ++i) {
        double logx = log(1e-9) * (1.0 - i / 400.0), r0 = ekoc_talbot_radius(logx), r, c0 = 1.0 + r0, c1, g0, g1;
        ekoc_path_status st;
        int k;
        assert_int_equal(ekoc_path_radius(&c, logx, &r, &st), EKOC_OK);
        c1 = 1.0 + r;
        if (st == EKOC_PATH_UNRESOLVED) {
          ++unresolved;
          continue;
        }
        g0 = eigen_gap(&c, c0);
        g1 = eigen_gap(&c, c1);
        for (k = 1; k < kmax; ++k) assert_true((g0 - k) * (g1 - k) > 0.0); /* no pole swept */
        if (st == EKOC_PATH_TALBOT) {
          assert_true(r == r0);
          ++kept;
        } else { /* both radii above every complex pole's: none of those swept */
          assert_true(r0 > EKOC_PATH_COMPLEX_POLE_RADIUS && r > EKOC_PATH_COMPLEX_POLE_RADIUS);
          ++moved;
        }
        /* no pole within 0.9 guards of the crossing used (sampled in steps of 0.1) */
        {
          int q;
          double gq = eigen_gap(&c, c1 - 0.9 * EKOC_PATH_POLE_GUARD * r0);
          for (q = -8; q <= 9; ++q) {
            double gnext = eigen_gap(&c, c1 + 0.1 * q * EKOC_PATH_POLE_GUARD * r0);
            for (k = 1; k < kmax; ++k) assert_true((gq - k) * (gnext - k) > 0.0);
            gq = gnext;
          }
        }
      }
      if (verbose())
        printf("nf=%d K=%d: %zu moved, %zu unresolved of 400\n", nf, kmax, moved - moved0, unresolved - unresolved0);
      if (kmax == 3) assert_int_equal(unresolved, unresolved0); /* the truncated poles never crowd */
    }
  assert_true(moved > 0 && kept > moved);
  if (verbose()) printf("crossings: %zu kept, %zu moved, %zu unresolved\n", kept, moved, unresolved);
}

/* Whether moving the crossing from c0 to c1 sweeps over a pole |r_+ - r_-| = k, k < kmax. */
static int sweeps_pole(const ekoc_nspace_config *c, double c0, double c1) {
  double g0 = eigen_gap(c, c0), g1 = eigen_gap(c, c1);
  int k;
  for (k = 1; k < ekoc_path_pole_orders(c); ++k)
    if ((g0 - k) * (g1 - k) <= 0.0) return 1;
  return 0;
}

/* The integral does not depend on the radius while no pole is swept: the
 * entries of smooth rows (x = 1e-4 and 0.5, basis functions below, at and
 * above them) on eko's path and on ones 20% narrower and wider, as far as a
 * crossing moves (twice the guard), agree to 1e-9 (QAGS at 1e-11 through
 * the public integrand's path_radius): the part of the path beyond the
 * Mellin cut stays negligible. Where the move sweeps over a pole (x = 0.5,
 * 20% wider: the crossing passes N = 9.4755, k = 2) the entries change by
 * the pole's residue, which is why a path is moved on its own side only. */
static void test_integral_independent_of_radius(void **state) {
  ekoc_nspace_config c = singlet_cfg(5, EKOC_METHOD_TRUNCATED);
  static const double xs[] = {1e-6, 1e-4, 1e-2, 0.1, 0.5, 1.0};
  static const double scale[3] = {0.0, 0.8, 1.2};
  ekoc_interp *in = NULL;
  ekoc_quad_workspace *ws = NULL;
  ekoc_kernel_args args;
  double v[3], e[3], logx, r0, moved = 0.0;
  int pass, el, row, basis, same = 0, swept = 0;
  (void)state;
  assert_int_equal(ekoc_interp_alloc(xs, 6, 3, &in), EKOC_OK);
  assert_int_equal(ekoc_quad_workspace_alloc(1000, &ws), EKOC_OK);
  for (row = 1; row <= 4; row += 3)
    for (basis = row - 1; basis <= row + 1; ++basis)
      for (el = 0; el < 4; ++el) {
        logx = log(xs[row]);
        r0 = ekoc_talbot_radius(logx);
        for (pass = 0; pass < 3; ++pass) {
          args = path_args(&c, el, logx, in, basis, ws, scale[pass] * r0);
          assert_int_equal(ekoc_quad_integrate(&args, 0.05, 1e-15, 1e-11, 1000, &v[pass], &e[pass]), EKOC_OK);
        }
        for (pass = 1; pass < 3; ++pass) {
          if (sweeps_pole(&c, 1.0 + r0, 1.0 + scale[pass] * r0)) {
            ++swept;
            if (fabs(v[pass] - v[0]) > moved) moved = fabs(v[pass] - v[0]);
            continue;
          }
          assert_close(v[pass], v[0], 1e-9, 1e-13);
          ++same;
        }
      }
  assert_true(same > 0 && swept > 0);
  assert_true(moved > 1e-5); /* a residue, not rounding */
  /* a bad radius is refused, naming the field */
  args.path_radius = -1.0;
  assert_int_equal(ekoc_quad_integrate(&args, 0.05, 1e-12, 1e-5, 100, &v[0], &e[0]), EKOC_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(ekoc_last_error(), "path_radius"));
  ekoc_quad_workspace_free(ws);
  ekoc_interp_free(in);
}

/* A moved row keeps eko's entries where the part of the path beyond the
 * Mellin cut is not negligible: next to the diagonal the basis transforms
 * cancel x^{-N} and decay only algebraically, and evolving down (a_s rising)
 * E(N) grows along the path, so a whole Talbot path of the moved radius
 * changed eko's integral over [1/2, 0.95] by the difference of the two tails
 * (regression card 1 of this fix, eko-style: NNLO truncated, nf = 5, mu
 * 7.9962 -> 3.8015 GeV, xif = 0.5, row x_1 = 7.03e-4 crossing 0.03 below the
 * k = 1 pole N = 1.900: entry (g, x_1; g, x_3) -0.650320 against eko's
 * -0.650356). The moved path returns to eko's radius away from the axis
 * (quad/talbot.h), so with the same ends on eko's range its entries are eko's:
 * every element, basis functions around the diagonal, within 1e-9 of eko's
 * path (QAGS at 1e-11, the spike of the pole resolved by brute force there). */
static void test_moved_path_keeps_eko_integral(void **state) {
  static const double xs[] = {3.4017264469536233e-4, 7.030714169587164e-4, 1.453113367734229e-3,
                              3.0033057930612785e-3, 6.20725532289311e-3,  1.2829202651492597e-2,
                              2.6515493903729516e-2, 5.480242506551401e-2, 0.11326607016884008,
                              0.23409917784032053,   0.4838379665139152,   1.0};
  ekoc_nspace_config c = singlet_cfg(5, EKOC_METHOD_TRUNCATED);
  ekoc_interp *in = NULL;
  ekoc_quad_workspace *ws = NULL;
  ekoc_kernel_args args;
  double logx = log(xs[1]), r0 = ekoc_talbot_radius(logx), r, v[2], e[2];
  ekoc_path_status st;
  int pass, el, basis, compared = 0;
  (void)state;
  c.a0 = 0.0155; /* a_s/(4 pi) rising: evolving down */
  c.a1 = 0.0190;
  assert_int_equal(ekoc_path_radius(&c, logx, &r, &st), EKOC_OK);
  assert_int_equal(st, EKOC_PATH_MOVED);
  assert_true(1.0 + r0 < 1.900 && 1.0 + r < 1.0 + r0); /* below the pole, moved away from it */
  assert_int_equal(ekoc_interp_alloc(xs, 12, 2, &in), EKOC_OK);
  assert_int_equal(ekoc_quad_workspace_alloc(1000, &ws), EKOC_OK);
  for (basis = 0; basis <= 5; ++basis)
    for (el = 0; el < 4; ++el) {
      for (pass = 0; pass < 2; ++pass) {
        args = path_args(&c, el, logx, in, basis, ws, pass ? r : 0.0);
        assert_int_equal(ekoc_quad_integrate(&args, 0.05, 1e-15, 1e-11, 1000, &v[pass], &e[pass]), EKOC_OK);
      }
      if (verbose()) printf("basis %d element %d: eko's path %.12g, moved %.12g\n", basis, el, v[0], v[1]);
      assert_close(v[1], v[0], 1e-9, 1e-13);
      compared += v[0] != 0.0;
    }
  assert_true(compared >= 16);
  ekoc_quad_workspace_free(ws);
  ekoc_interp_free(in);
}

/* Poles off the real axis: the truncated NNLO Talbot path of x = 1e-8
 * (r = 0.3456, nf = 5) and a whole Talbot path 10 % wider enclose different
 * sets of them (k = 1 at N = -0.050 +- 0.884 i has r* = 0.362) though no real
 * pole lies between their crossings, and an entry changed by 0.36 %. A moved
 * path returns to eko's radius away from the real axis (quad/talbot.h), long
 * before it reaches those poles: the entry on the path crossing 10 % wider is
 * eko's to 1e-9 (rows are still moved only above EKOC_PATH_COMPLEX_POLE_RADIUS,
 * quad/path_radius.h). A perturbative row next to its real pole k = 4
 * (N = 1.3131, r = 0.313) is flagged, not moved. */
static void test_complex_poles(void **state) {
  ekoc_nspace_config c = singlet_cfg(5, EKOC_METHOD_TRUNCATED);
  static const double xs[] = {1e-9, 1e-8, 1e-7, 1e-6, 1e-4, 1e-2, 0.3, 1.0};
  ekoc_interp *in = NULL;
  ekoc_quad_workspace *ws = NULL;
  ekoc_kernel_args args;
  double v[2], e[2], logx = log(1e-8), r0 = ekoc_talbot_radius(logx), r;
  ekoc_path_status st;
  int pass;
  (void)state;
  assert_int_equal(ekoc_interp_alloc(xs, 8, 3, &in), EKOC_OK);
  assert_int_equal(ekoc_quad_workspace_alloc(2000, &ws), EKOC_OK);
  assert_int_equal(sweeps_pole(&c, 1.0 + r0, 1.0 + 1.1 * r0), 0);
  for (pass = 0; pass < 2; ++pass) {
    args = path_args(&c, 0, logx, in, 1, ws, pass ? 1.1 * r0 : 0.0);
    assert_int_equal(ekoc_quad_integrate(&args, 0.05, 1e-15, 1e-11, 2000, &v[pass], &e[pass]), EKOC_OK);
  }
  assert_close(v[1], v[0], 1e-9, 1e-13);
  c = singlet_cfg(5, EKOC_METHOD_PERTURBATIVE_EXACT);
  logx = logx_crossing(1.3131 + 0.001);
  assert_int_equal(ekoc_path_radius(&c, logx, &r, &st), EKOC_OK);
  assert_int_equal(st, EKOC_PATH_UNRESOLVED);
  assert_true(r == ekoc_talbot_radius(logx));
  ekoc_quad_workspace_free(ws);
  ekoc_interp_free(in);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_no_poles_keep_talbot),
      cmocka_unit_test(test_fit_grid_row_moves_off_the_pole),
      cmocka_unit_test(test_moved_crossings_clear_every_pole),
      cmocka_unit_test(test_integral_independent_of_radius),
      cmocka_unit_test(test_moved_path_keeps_eko_integral),
      cmocka_unit_test(test_complex_poles),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
