/* test_interp_access.c: the binding helpers of src/quad/interp_access.c,
 * ekoc_interp_basis_areas (include/ekoc/interp_access.h) and
 * ekoc_nspace_evaluate_batch / ekoc_nspace_family_len (include/ekoc/bindings.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "ekoc.h"
#include "test_util.h"

#define NX 9

/* The records of basis j, evaluated as the polynomials they hold, reproduce
 * ekoc_interp_eval (eko's evaluate_x) inside every area: an independent
 * reading of the same basis. */
static void test_areas_reproduce_eval(void **state) {
  double x[NX], w[NX];
  ekoc_interp *in = NULL;
  int32_t degree = -1;
  size_t j;
  (void)state;
  assert_int_equal(ekoc_grid_lambert(NX, 1e-3, x), EKOC_OK);
  assert_int_equal(ekoc_interp_alloc(x, NX, 3, &in), EKOC_OK);
  for (j = 0; j < NX; ++j) {
    const double *areas = NULL;
    size_t n_areas = 0, a;
    assert_int_equal(ekoc_interp_basis_areas(in, j, &areas, &n_areas, &degree), EKOC_OK);
    assert_int_equal(degree, 3);
    assert_true(n_areas >= 1 && n_areas <= NX - 1);
    for (a = 0; a < n_areas; ++a) {
      const double *rec = areas + a * (size_t)(degree + 3);
      double lmin = rec[0], lmax = rec[1];
      int t;
      assert_true(lmin < lmax);
      if (a > 0) assert_close(lmin, areas[(a - 1) * (size_t)(degree + 3) + 1], 0, 0); /* consecutive areas */
      for (t = 1; t <= 3; ++t) {
        double l = lmin + (lmax - lmin) * t / 4.0, p = 0.0, lp = 1.0;
        int i;
        for (i = 0; i <= degree; ++i, lp *= l) p += rec[2 + i] * lp;
        assert_int_equal(ekoc_interp_eval(in, exp(l), w, NX), EKOC_OK);
        assert_close(p, w[j], 1e-9, 1e-11);
      }
    }
  }
  ekoc_interp_free(in);
}

static void test_areas_bad_input(void **state) {
  double x[NX];
  ekoc_interp *in = NULL;
  const double *areas = (const double *)&x; /* sentinel: must stay untouched */
  size_t n_areas = 77;
  (void)state;
  assert_int_equal(ekoc_grid_lambert(NX, 1e-3, x), EKOC_OK);
  assert_int_equal(ekoc_interp_alloc(x, NX, 2, &in), EKOC_OK);
  assert_int_equal(ekoc_interp_basis_areas(in, NX, &areas, &n_areas, NULL), EKOC_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(ekoc_last_error(), "j=9"));
  assert_ptr_equal(areas, (const double *)&x);
  assert_int_equal(n_areas, 77);
  assert_int_equal(ekoc_interp_basis_areas(NULL, 0, &areas, &n_areas, NULL), EKOC_ERR_NULL_POINTER);
  assert_int_equal(ekoc_interp_basis_areas(in, 0, NULL, &n_areas, NULL), EKOC_ERR_NULL_POINTER);
  assert_int_equal(ekoc_interp_basis_areas(in, 0, &areas, NULL, NULL), EKOC_ERR_NULL_POINTER);
  ekoc_interp_free(in);
}

static void make_cfg(ekoc_nspace_config *cfg, int kind, int family, int order) {
  memset(cfg, 0, sizeof *cfg);
  cfg->kind = kind;
  cfg->family = family;
  cfg->order = order;
  cfg->nf = 4;
  cfg->method = EKOC_METHOD_ITERATE_EXACT;
  cfg->ev_op_iterations = 10;
  cfg->ev_op_max_order = 10;
  cfg->a0 = 0.02;
  cfg->a1 = 0.012;
  cfg->ome_log = 0.3;
  assert_int_equal(ekoc_beta(4, cfg->beta), EKOC_OK);
}

/* Every family: the batch equals ekoc_nspace_evaluate point by point, bitwise. */
static void test_batch_equals_single(void **state) {
  static const double re[5] = {1.7, 2.5, 4.0, 0.6, 9.1}, im[5] = {0.3, -4.0, 11.0, 2.2, -0.5};
  static const int kinds[4][3] = {{EKOC_KIND_EVOLUTION, EKOC_FAMILY_NS, 3},
                                  {EKOC_KIND_EVOLUTION, EKOC_FAMILY_SINGLET, 3},
                                  {EKOC_KIND_MATCHING, EKOC_FAMILY_NS, 2},
                                  {EKOC_KIND_MATCHING, EKOC_FAMILY_SINGLET, 2}};
  static const size_t sizes[4] = {3, 4, 2, 9};
  int f;
  (void)state;
  for (f = 0; f < 4; ++f) {
    ekoc_nspace_config cfg;
    double out_re[5 * 9], out_im[5 * 9], one_re[9], one_im[9];
    size_t p, e;
    make_cfg(&cfg, kinds[f][0], kinds[f][1], kinds[f][2]);
    assert_int_equal(ekoc_nspace_family_len(&cfg), sizes[f]);
    assert_int_equal(ekoc_nspace_evaluate_batch(&cfg, re, im, 5, out_re, out_im, 5 * sizes[f]), EKOC_OK);
    for (p = 0; p < 5; ++p) {
      assert_int_equal(ekoc_nspace_evaluate(&cfg, re[p], im[p], one_re, one_im, 9), EKOC_OK);
      for (e = 0; e < sizes[f]; ++e) {
        assert_memory_equal(&out_re[p * sizes[f] + e], &one_re[e], sizeof(double));
        assert_memory_equal(&out_im[p * sizes[f] + e], &one_im[e], sizeof(double));
      }
    }
  }
}

/* Failures name the cause and leave the outputs untouched. */
static void test_batch_bad_input(void **state) {
  ekoc_nspace_config cfg;
  double re[3] = {2.0, 3.0, 4.0}, im[3] = {0.0, 1.0, 2.0}, out_re[12], out_im[12];
  size_t i;
  (void)state;
  make_cfg(&cfg, EKOC_KIND_EVOLUTION, EKOC_FAMILY_SINGLET, 2);
  for (i = 0; i < 12; ++i) out_re[i] = out_im[i] = -7.0;
  /* a pole of the singlet anomalous dimensions at the last point: nothing written */
  re[2] = 1.0;
  im[2] = 0.0;
  assert_int_not_equal(ekoc_nspace_evaluate_batch(&cfg, re, im, 3, out_re, out_im, 12), EKOC_OK);
  assert_non_null(strstr(ekoc_last_error(), "point 2"));
  for (i = 0; i < 12; ++i) assert_true(out_re[i] == -7.0 && out_im[i] == -7.0);
  re[2] = 4.0;
  im[1] = NAN;
  assert_int_equal(ekoc_nspace_evaluate_batch(&cfg, re, im, 3, out_re, out_im, 12), EKOC_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(ekoc_last_error(), "N[1]"));
  im[1] = 1.0;
  assert_int_equal(ekoc_nspace_evaluate_batch(&cfg, re, im, 3, out_re, out_im, 11), EKOC_ERR_BUFFER_TOO_SMALL);
  assert_int_equal(ekoc_nspace_evaluate_batch(NULL, re, im, 3, out_re, out_im, 12), EKOC_ERR_NULL_POINTER);
  assert_int_equal(ekoc_nspace_evaluate_batch(&cfg, re, NULL, 3, out_re, out_im, 12), EKOC_ERR_NULL_POINTER);
  cfg.nf = 8;
  assert_int_equal(ekoc_nspace_evaluate_batch(&cfg, re, im, 3, out_re, out_im, 12), EKOC_ERR_INVALID_NF);
  for (i = 0; i < 12; ++i) assert_true(out_re[i] == -7.0 && out_im[i] == -7.0);
  assert_int_equal(ekoc_nspace_family_len(NULL), 0);
  cfg.kind = 5;
  assert_int_equal(ekoc_nspace_family_len(&cfg), 0);
  /* count 0 succeeds without writing */
  cfg.kind = EKOC_KIND_EVOLUTION;
  cfg.nf = 4;
  assert_int_equal(ekoc_nspace_evaluate_batch(&cfg, re, im, 0, out_re, out_im, 0), EKOC_OK);
  for (i = 0; i < 12; ++i) assert_true(out_re[i] == -7.0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_areas_reproduce_eval),
      cmocka_unit_test(test_areas_bad_input),
      cmocka_unit_test(test_batch_equals_single),
      cmocka_unit_test(test_batch_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
