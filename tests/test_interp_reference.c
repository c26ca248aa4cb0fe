/* test_interp_reference.c: the stable basis transforms (quad/interp.h,
 * quad/area_moments.h, quad/batch_math.h) against high-precision references,
 * and the basis linear in x (ekoc_interp_alloc_ex) against eko
 * (docs/physics.md §4.2-4.3).
 *
 * tests/basis_reference.h (tests/gen_basis_reference.py, mpmath at 80
 * digits): lambert 60/200/500 grids down to 1e-9, a linear-spaced, a mixed
 * log+linear and a coarse grid, both kinds of basis, degrees 1..8, Talbot
 * points of both offsets at on-grid and off-grid inversion points, including
 * the path's end (t = 0.95). The scale of a case is the largest term that
 * enters any P_j at its N and inversion point, one basis function's share of
 * one area (term_scale): every transform that integrates area by area (eko's
 * and this one) adds such terms, so none can do better than rounding times
 * it. It equals max_j |P_j| within a factor of a few except near the end of
 * the path, where e^{N u} falls by many orders across an area and areas that
 * share one polynomial cancel down to the last node (up to ~1e11 on the
 * coarse grid); there the integrand is exponentially small. EKOC_TEST_VERBOSE=1
 * prints per grid, kind and degree the worst deviation over term_scale, over
 * max_j |P_j|, and that of the monomial closed form of the records (what every
 * transform used before; log kind only) over term_scale. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>

#include "basis_reference.h"
#include "ekoc.h"
#include "linear_eko_reference.h"
#include "quad/batch_math.h"
#include "quad/interp.h"
#include "quad/talbot.h"
#include "test_util.h"

static int verbose(void) { return getenv("EKOC_TEST_VERBOSE") != NULL; }

/* Required accuracy of the stable transforms, relative to max_j |P_j|.
 * The local coefficients are computed in long double; valgrind's memcheck
 * emulates long double with double precision, which costs the coarse
 * 10-point linear grid at degree 7-8 about 4e-12 (natively 3.6e-13), so
 * check-valgrind (EKOC_TEST_UNDER_VALGRIND=1, set by the Makefile) checks
 * memory safety there at 1e-11. */
#define REF_TOL_NATIVE 1e-12
#define REF_TOL (getenv("EKOC_TEST_UNDER_VALGRIND") ? 1e-11 : REF_TOL_NATIVE)

static ekoc_interp *make(const double *x, size_t n, int32_t degree, int32_t is_log) {
  ekoc_interp *ip = NULL;
  int st = ekoc_interp_alloc_ex(x, n, degree, is_log, &ip);
  if (st != EKOC_OK) fail_msg("ekoc_interp_alloc_ex: %s: %s", ekoc_status_str(st), ekoc_last_error());
  return ip;
}

static int same_bits(ekoc_complex a, ekoc_complex b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Every reference case: ekoc_interp_mellin_all within REF_TOL of the
 * reference, ekoc_interp_basis_mellin and the batch transform
 * (ekoc_batch_basis_all on ekoc_batch_area_table) bitwise equal to it. */
static void test_transforms_vs_reference(void **state) {
  size_t c = 0, nref = sizeof REF_CASES / sizeof REF_CASES[0], n_bad = 0;
  (void)state;
  assert_true(nref > 500);
  if (verbose())
    print_message("%-11s %-4s %3s %6s %12s %12s %12s\n", "grid", "kind", "deg", "cases", "stable", "stable/maxP",
                  "monomial");
  while (c < nref) {
    const ref_case *first = &REF_CASES[c];
    size_t nx = REF_GRIDS[first->grid].n, end = c, k;
    ekoc_interp *ip = make(REF_GRIDS[first->grid].x, nx, first->degree, first->is_log);
    ekoc_complex *all = malloc(nx * sizeof *all), *bat = malloc(nx * sizeof *bat);
    double *table = malloc(EKOC_BATCH_TABLE_LEN(nx, first->degree) * sizeof *table), worst = 0.0, worst_mono = 0.0,
           worst_p = 0.0;
    assert_non_null(all);
    assert_non_null(bat);
    assert_non_null(table);
    ekoc_batch_area_table(ip->area_offset, ip->area, nx, ip->degree, table);
    while (end < nref && REF_CASES[end].grid == first->grid && REF_CASES[end].is_log == first->is_log &&
           REF_CASES[end].degree == first->degree)
      ++end;
    for (; c < end; ++c) {
      const ref_case *rc = &REF_CASES[c];
      ekoc_complex n = c_make(rc->n_re, rc->n_im);
      int i;
      ekoc_interp_mellin_all(ip, n, rc->logx, all);
      ekoc_batch_basis_all(ip->logx, table, nx, ip->degree, n, rc->logx, bat);
      for (k = 0; k < nx; ++k) {
        if (!same_bits(all[k], bat[k])) fail_msg("case %zu: batch P_%zu not bitwise mellin_all", c, k);
        if (!same_bits(all[k], ekoc_interp_basis_mellin(ip, k, n, rc->logx)))
          fail_msg("case %zu: single P_%zu not bitwise mellin_all", c, k);
      }
      for (i = 0; i < rc->n_j; ++i) {
        size_t j = (size_t)rc->j[i];
        double dev = hypot(all[j].re - rc->p[i][0], all[j].im - rc->p[i][1]) / rc->term_scale;
        if (dev > worst) worst = dev;
        if (dev * rc->term_scale / rc->scale > worst_p) worst_p = dev * rc->term_scale / rc->scale;
        if (dev > REF_TOL && ++n_bad <= 20)
          print_message("%s log=%d degree %d logx %.17g N (%.17g, %.17g): P_%zu = (%.17g, %.17g), want (%.17g, %.17g), "
                   "dev/term_scale %.3g\n",
                   REF_GRIDS[rc->grid].name, rc->is_log, rc->degree, rc->logx, rc->n_re, rc->n_im, j, all[j].re,
                   all[j].im, rc->p[i][0], rc->p[i][1], dev);

        if (rc->is_log) {
          size_t na;
          const double *areas = ekoc_interp_areas(ip, j, &na);
          ekoc_complex mono = ekoc_basis_mellin(areas, na, ip->degree, n, rc->logx);
          double dm = hypot(mono.re - rc->p[i][0], mono.im - rc->p[i][1]) / rc->term_scale;
          if (!(dm <= worst_mono)) worst_mono = isnan(dm) ? INFINITY : dm;
        }
      }
    }
    if (verbose()) {
      char mono[32] = "-";
      if (first->is_log) snprintf(mono, sizeof mono, "%.2e", worst_mono);
      print_message("%-11s %-4s %3d %6zu %12.2e %12.2e %12s\n", REF_GRIDS[first->grid].name,
                    first->is_log ? "ln x" : "x", first->degree, end - (size_t)(first - REF_CASES), worst, worst_p, mono);
    }
    free(all);
    free(bat);
    free(table);
    ekoc_interp_free(ip);
  }
  if (n_bad) fail_msg("%zu reference values outside %g of their scale", n_bad, REF_TOL);
}

/* Whether eko's drop rule removes the lower bound of one of j's areas at
 * logx (areas not skipped only). */
static int drops_lower(const ekoc_interp *ip, size_t j, double logx) {
  size_t first = ekoc_interp_first_area(j, ip->degree), a;
  for (a = first; a < first + ip->area_offset[j + 1] - ip->area_offset[j]; ++a)
    if (!ekoc_interp_skip_(logx, ip->logx[a + 1]) && ekoc_interp_drop_(logx, ip->logx[a])) return 1;
  return 0;
}

/* The basis linear in x against eko's evaluate_Nx and evaluate_x. evaluate_Nx
 * keeps the lower bound of every area, ekoc drops it where the log basis does
 * (docs/physics.md §4.3), so P_j is compared where no area of j has x_a <= x
 * (the dropped case is in the high-precision reference above), relative to
 * the largest |P_j| of the row at 1e-11 (eko's monomials in x cancel by up
 * to ~1e4 on these grids). */
static void test_linear_vs_eko(void **state) {
  int g, di, in, ix, j;
  size_t compared = 0, dropped = 0;
  double worst_n = 0.0, worst_x = 0.0;
  (void)state;
  for (g = 0; g < EKO_LIN_NG; ++g)
    for (di = 0; di < EKO_LIN_ND; ++di) {
      size_t nx = EKO_LIN_GRID_N[g];
      ekoc_interp *ip = make(EKO_LIN_GRID[g], nx, EKO_LIN_DEGREE[di], 0);
      ekoc_complex p[EKO_LIN_MAXN];
      double w[EKO_LIN_MAXN];
      assert_int_equal(ekoc_interp_is_log(ip), 0);
      for (in = 0; in < EKO_LIN_NN; ++in)
        for (ix = 0; ix < EKO_LIN_NXN; ++ix) {
          const double(*ref)[2] = EKO_LIN_PNX[g][di][in][ix];
          ekoc_complex n = c_make(EKO_LIN_N[in][0], EKO_LIN_N[in][1]);
          double lx = log(EKO_LIN_XN[ix]), scale = 0.0;
          ekoc_interp_mellin_all(ip, n, lx, p);
          for (j = 0; j < (int)nx; ++j) scale = fmax(scale, hypot(ref[j][0], ref[j][1]));
          for (j = 0; j < (int)nx; ++j) {
            double dev = hypot(p[j].re - ref[j][0], p[j].im - ref[j][1]) / scale;
            if (ref[j][0] == 0.0 && ref[j][1] == 0.0) {
              assert_true(p[j].re == 0.0 && p[j].im == 0.0); /* every area skipped */
            } else if (drops_lower(ip, (size_t)j, lx)) {
              ++dropped;
            } else {
              ++compared;
              if (dev > worst_n) worst_n = dev;
              assert_true(dev < 1e-11);
            }
          }
        }
      for (ix = 0; ix < EKO_LIN_NXE; ++ix) {
        assert_int_equal(ekoc_interp_eval(ip, EKO_LIN_XE[ix], w, EKO_LIN_MAXN), EKOC_OK);
        for (j = 0; j < (int)nx; ++j) {
          double want = EKO_LIN_PX[g][di][ix][j];
          if (fabs(w[j] - want) > worst_x) worst_x = fabs(w[j] - want);
          assert_close(w[j], want, 0.0, 1e-12);
        }
      }
      ekoc_interp_free(ip);
    }
  assert_true(compared > 200 && dropped > 50);
  if (verbose())
    print_message("linear vs eko: P_j %.3g of the row scale (%zu compared, %zu with a dropped lower bound), p_j(x) %.3g\n",
                  worst_n, compared, dropped, worst_x);
}

/* Linear basis in x space: delta at the nodes, partition of unity and exact
 * reproduction of polynomials in x of degree <= d on a mixed grid down to
 * 1e-9; polynomials in ln x are not reproduced (it is another basis). */
static void test_linear_eval(void **state) {
  double x[40], w[40];
  int d, e;
  size_t i, j, k, n = 40;
  (void)state;
  for (i = 0; i < 20; ++i) x[i] = pow(10.0, -9.0 + 8.0 * (double)i / 20.0);
  for (i = 20; i < n; ++i) x[i] = 0.1 + 0.9 * (double)(i - 20) / 19.0;
  for (d = 1; d <= 8; ++d) {
    ekoc_interp *ip = make(x, n, d, 0);
    for (k = 0; k < n; ++k) {
      assert_int_equal(ekoc_interp_eval(ip, x[k], w, n), EKOC_OK);
      for (j = 0; j < n; ++j) assert_close(w[j], j == k ? 1.0 : 0.0, 0.0, 1e-13);
    }
    for (i = 0; i <= 400; ++i) {
      double xi = i == 400 ? 1.0 : x[0] + (1.0 - x[0]) * pow((double)i / 400.0, 3.0), sum = 0.0;
      assert_int_equal(ekoc_interp_eval(ip, xi, w, n), EKOC_OK);
      for (j = 0; j < n; ++j) sum += w[j];
      assert_close(sum, 1.0, 0.0, 1e-12);
      for (e = 1; e <= d; ++e) {
        double got = 0.0, want = pow(xi, e);
        for (j = 0; j < n; ++j) got += pow(x[j], e) * w[j];
        assert_close(got, want, 0.0, 1e-12);
      }
    }
    ekoc_interp_free(ip);
  }
}

/* The public switch: alloc_ex(is_log = 1) is ekoc_interp_alloc bit for bit,
 * bad arguments are named, the records of a linear basis are refused. */
static void test_alloc_ex(void **state) {
  double x[12], w0[12], w1[12];
  ekoc_interp *a = NULL, *b = NULL, *lin = NULL;
  const double *areas = NULL;
  size_t na = 0, j;
  (void)state;
  assert_int_equal(ekoc_grid_lambert(12, 1e-5, x), EKOC_OK);
  assert_int_equal(ekoc_interp_alloc(x, 12, 4, &a), EKOC_OK);
  assert_int_equal(ekoc_interp_alloc_ex(x, 12, 4, 1, &b), EKOC_OK);
  assert_int_equal(ekoc_interp_is_log(a), 1);
  assert_int_equal(ekoc_interp_is_log(b), 1);
  assert_int_equal(a->n_areas, b->n_areas);
  assert_memory_equal(a->area, b->area, (a->n_areas * EKOC_AREA_STRIDE(4) + EKOC_LOCAL_LEN(12, a->n_areas, 4)) * sizeof(double));
  assert_int_equal(ekoc_interp_alloc_ex(x, 12, 4, 2, &lin), EKOC_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(ekoc_last_error(), "is_log = 2"));
  assert_null(lin);
  assert_int_equal(ekoc_interp_alloc_ex(NULL, 12, 4, 0, &lin), EKOC_ERR_NULL_POINTER);
  assert_int_equal(ekoc_interp_alloc_ex(x, 12, 12, 0, &lin), EKOC_ERR_INVALID_DEGREE);
  assert_int_equal(ekoc_interp_is_log(NULL), -EKOC_ERR_NULL_POINTER);
  assert_int_equal(ekoc_interp_alloc_ex(x, 12, 4, 0, &lin), EKOC_OK);
  assert_int_equal(ekoc_interp_is_log(lin), 0);
  assert_int_equal(ekoc_interp_size(lin), 12);
  assert_int_equal(ekoc_interp_basis_areas(lin, 3, &areas, &na, NULL), EKOC_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(ekoc_last_error(), "linear"));
  assert_null(areas);
  /* the two kinds agree at the nodes and differ between them */
  assert_int_equal(ekoc_interp_eval(a, 0.5 * (x[3] + x[4]), w0, 12), EKOC_OK);
  assert_int_equal(ekoc_interp_eval(lin, 0.5 * (x[3] + x[4]), w1, 12), EKOC_OK);
  for (j = 0; j < 12 && fabs(w0[j] - w1[j]) < 1e-6; ++j) {
  }
  assert_true(j < 12);
  ekoc_interp_free(a);
  ekoc_interp_free(b);
  ekoc_interp_free(lin);
}

/* ---- inversion with E(N) = 1: p_j(x_k) = delta_jk ---------------------------------- */

struct inv_params {
  const ekoc_interp *ip;
  size_t j;
  double logx;
};

static double inv_integrand(double t, void *params) {
  const struct inv_params *p = (const struct inv_params *)params;
  ekoc_complex n, dn;
  ekoc_talbot_point(t, p->logx, 0, &n, &dn);
  return ekoc_talbot_weight_re(c_mul(ekoc_interp_basis_mellin(p->ip, p->j, n, p->logx), dn));
}

/* docs/physics.md §10 with the stable transforms of both kinds, degrees up to
 * 8, on t in [0.5, 0.999] (where the cut of eko's 0.95 leaves nothing): the
 * inversion gives back delta_jk to 1e-9 (the monomial transform of degree 6
 * and more on such grids misses by orders of magnitude more). */
static void test_inversion_delta(void **state) {
  static const struct {
    size_t n;
    double xmin;
    int d, is_log;
  } cases[] = {{14, 1e-7, 6, 1}, {14, 1e-7, 8, 1}, {25, 1e-9, 8, 1}, {14, 1e-3, 4, 0}, {14, 1e-3, 8, 0}, {25, 1e-7, 6, 0}};
  gsl_integration_workspace *w = gsl_integration_workspace_alloc(200);
  double worst = 0.0;
  size_t c;
  (void)state;
  ekoc_init();
  assert_non_null(w);
  for (c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    double x[25];
    ekoc_interp *ip;
    size_t k, j, n = cases[c].n;
    assert_int_equal(ekoc_grid_lambert(n, cases[c].xmin, x), EKOC_OK);
    ip = make(x, n, cases[c].d, cases[c].is_log);
    for (k = 0; k + 1 < n; ++k)
      for (j = 0; j < n; ++j) {
        struct inv_params p;
        gsl_function f;
        double val = 0.0, err = 0.0, want = j == k ? 1.0 : 0.0;
        int st;
        p.ip = ip;
        p.j = j;
        p.logx = ip->logx[k];
        f.function = inv_integrand;
        f.params = &p;
        st = gsl_integration_qags(&f, EKOC_TALBOT_T_MIN, 0.999, 1e-13, 1e-11, 200, w, &val, &err);
        assert_true(st == GSL_SUCCESS || st == GSL_EROUND);
        if (fabs(val - want) > worst) worst = fabs(val - want);
        assert_close(val, want, 0.0, 1e-9);
      }
    ekoc_interp_free(ip);
  }
  gsl_integration_workspace_free(w);
  if (verbose()) print_message("inversion delta (stable transforms): worst deviation %.3g\n", worst);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_transforms_vs_reference),
      cmocka_unit_test(test_linear_vs_eko),
      cmocka_unit_test(test_linear_eval),
      cmocka_unit_test(test_alloc_ex),
      cmocka_unit_test(test_inversion_delta),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
