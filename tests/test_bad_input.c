/* test_bad_input.c: bad input through every public C entry point of ekoc
 * (include/ekoc.h and the module headers under include/ekoc) and the ekore C ABI (include/ekore.h).
 *
 * Every case checks three things (issue 7, item 1; docs/architecture.md "Errors"):
 *  - the specific status code;
 *  - a message (ekoc_last_error / ekore_last_error) naming the argument and
 *    its value;
 *  - outputs untouched: out-pointers and buffers are poisoned before the call
 *    and compared bytewise after it.
 * Leaks on the error paths are caught by running this binary under ASan
 * (`make check-asan`) and valgrind (`make check-valgrind`).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ekoc.h"
#include "ekore.h"
#include "test_util.h"

/* ---- helpers ------------------------------------------------------------------ */

#define POISON_BYTE 0xA5

/* A poisoned output buffer of n doubles and a pristine copy to compare with. */
typedef struct poisoned {
  double *buf, *ref;
  size_t n;
} poisoned;

static poisoned poison_new(size_t n) {
  poisoned p;
  p.n = n;
  p.buf = malloc(n * sizeof(double) + 1);
  p.ref = malloc(n * sizeof(double) + 1);
  assert_non_null(p.buf);
  assert_non_null(p.ref);
  memset(p.buf, POISON_BYTE, n * sizeof(double));
  memset(p.ref, POISON_BYTE, n * sizeof(double));
  return p;
}

static void poison_check(const poisoned *p, const char *what, int line) {
  if (memcmp(p->buf, p->ref, p->n * sizeof(double)) != 0) fail_msg("line %d: %s: output buffer was written", line, what);
}

static void poison_free(poisoned *p) {
  free(p->buf);
  free(p->ref);
}

/* rc must be `want`, and ekoc_last_error() must contain every non-NULL needle. */
static void expect_status(int rc, int want, const char *n1, const char *n2, const char *what, int line) {
  const char *msg = ekoc_last_error();
  if (rc != want)
    fail_msg("line %d: %s returned %s, want %s (message: \"%s\")", line, what, ekoc_status_str(rc),
             ekoc_status_str(want), msg);
  if (n1 && !strstr(msg, n1)) fail_msg("line %d: %s: message \"%s\" does not name \"%s\"", line, what, msg, n1);
  if (n2 && !strstr(msg, n2)) fail_msg("line %d: %s: message \"%s\" does not name \"%s\"", line, what, msg, n2);
}
#define EXPECT(call, want, n1, n2) expect_status((call), (want), (n1), (n2), #call, __LINE__)

/* %g of a double, as the library prints values ("nan", "inf", "-1", "1e+300"). */
static const char *gstr(double v) {
  static char buf[8][64];
  static int next;
  char *b = buf[next++ % 8];
  snprintf(b, 64, "%g", v);
  return b;
}
static const char *dstr(long long v) {
  static char buf[8][64];
  static int next;
  char *b = buf[next++ % 8];
  snprintf(b, 64, "%lld", v);
  return b;
}

/* the non-finite numbers every floating-point argument is tried with */
static const double non_finite[3] = {NAN, INFINITY, -INFINITY};

/* ---- status strings ----------------------------------------------------------- */

static void test_status_str(void **state) {
  (void)state;
  assert_string_equal(ekoc_status_str(EKOC_OK), "EKOC_OK");
  assert_string_equal(ekoc_status_str(EKOC_ERR_INVALID_GRID), "EKOC_ERR_INVALID_GRID");
  assert_string_equal(ekoc_status_str(EKOC_ERR_CANCELLED), "EKOC_ERR_CANCELLED");
  assert_string_equal(ekoc_status_str(-1), "EKOC_ERR_UNKNOWN");
  assert_string_equal(ekoc_status_str(20), "EKOC_ERR_UNKNOWN");
  assert_string_equal(ekoc_status_str(INT_MIN), "EKOC_ERR_UNKNOWN");
  assert_string_equal(ekoc_status_str(INT_MAX), "EKOC_ERR_UNKNOWN");
  assert_non_null(ekoc_last_error());
  /* the default fillers accept NULL */
  assert_int_equal(ekoc_theory_default(NULL), EKOC_ERR_NULL_POINTER);
  assert_int_equal(ekoc_request_default(NULL), EKOC_ERR_NULL_POINTER);
  {
    /* a caller compiled against the first versioned layout (up to time_like)
     * is accepted; sizes the library does not know are refused, nothing written */
    ekoc_theory th;
    ekoc_request rq;
    size_t v1 = offsetof(ekoc_theory, time_like) + sizeof(int32_t);
    memset(&th, 0x5a, sizeof th);
    assert_int_equal(ekoc_theory_init(&th, v1), EKOC_OK);
    assert_int_equal(th.struct_size, v1);
    assert_int_equal(th.order, 3);
    memset(&th, 0x5a, sizeof th);
    expect_status(ekoc_theory_init(&th, v1 - 1), EKOC_ERR_INVALID_ARGUMENT, "ekoc_theory.struct_size=", NULL,
                  "ekoc_theory_init", __LINE__);
    expect_status(ekoc_theory_init(&th, sizeof th + 1), EKOC_ERR_INVALID_ARGUMENT, "ekoc_theory.struct_size=", NULL,
                  "ekoc_theory_init", __LINE__);
    assert_int_equal(th.order, 0x5a5a5a5a);
    expect_status(ekoc_request_init(&rq, 0), EKOC_ERR_INVALID_ARGUMENT, "ekoc_request.struct_size=0", NULL,
                  "ekoc_request_init", __LINE__);
  }
  ekoc_couplings_config_default(NULL);
  ekoc_init();
  ekoc_init();
}

/* ---- lambertgrid ----------------------------------------------------------------- */

static void test_grid_lambert(void **state) {
  poisoned p = poison_new(64);
  static const double bad_xmin[] = {0.0, -1e-3, 1.0, 2.0, -0.0};
  size_t k;
  (void)state;
  EXPECT(ekoc_grid_lambert(10, 1e-3, NULL), EKOC_ERR_NULL_POINTER, "x_out", NULL);
  EXPECT(ekoc_grid_lambert(0, 1e-3, p.buf), EKOC_ERR_INVALID_ARGUMENT, "n = 0", NULL);
  EXPECT(ekoc_grid_lambert(1, 1e-3, p.buf), EKOC_ERR_INVALID_ARGUMENT, "n = 1", NULL);
  for (k = 0; k < 3; ++k) EXPECT(ekoc_grid_lambert(10, non_finite[k], p.buf), EKOC_ERR_INVALID_ARGUMENT, "xmin", gstr(non_finite[k]));
  for (k = 0; k < sizeof bad_xmin / sizeof bad_xmin[0]; ++k)
    EXPECT(ekoc_grid_lambert(10, bad_xmin[k], p.buf), EKOC_ERR_INVALID_ARGUMENT, "xmin", gstr(bad_xmin[k]));
  /* a grid too dense to be strictly ascending in double precision */
  {
    poisoned big = poison_new(100000);
    EXPECT(ekoc_grid_lambert(100000, 1.0 - 1e-12, big.buf), EKOC_ERR_INVALID_ARGUMENT, "n = 100000", "ascending");
    poison_check(&big, "ekoc_grid_lambert dense", __LINE__);
    poison_free(&big);
  }
  poison_check(&p, "ekoc_grid_lambert", __LINE__);
  poison_free(&p);
}

/* ---- interpolation basis ------------------------------------------------------------ */

static const double grid5[5] = {1e-3, 1e-2, 0.1, 0.5, 1.0};

static void expect_interp_fails(const double *x, size_t n, int32_t degree, int want, const char *n1, const char *n2,
                                int line) {
  ekoc_interp *sentinel = (ekoc_interp *)(uintptr_t)0x5a5a5a5a, *ip = sentinel;
  expect_status(ekoc_interp_alloc(x, n, degree, &ip), want, n1, n2, "ekoc_interp_alloc", line);
  if (ip != sentinel) fail_msg("line %d: ekoc_interp_alloc wrote *out on failure", line);
}
#define INTERP_FAILS(x, n, d, want, n1, n2) expect_interp_fails((x), (n), (d), (want), (n1), (n2), __LINE__)

static void test_interp_alloc(void **state) {
  double g[5];
  ekoc_interp *ip = NULL;
  size_t k;
  (void)state;
  EXPECT(ekoc_interp_alloc(NULL, 5, 2, &ip), EKOC_ERR_NULL_POINTER, "x is NULL", NULL);
  EXPECT(ekoc_interp_alloc(grid5, 5, 2, NULL), EKOC_ERR_NULL_POINTER, "out is NULL", NULL);
  assert_null(ip);
  /* empty and single-point grids */
  INTERP_FAILS(grid5, 0, 1, EKOC_ERR_INVALID_GRID, "n = 0", NULL);
  INTERP_FAILS(grid5, 1, 1, EKOC_ERR_INVALID_GRID, "n = 1", NULL);
  /* NaN / inf anywhere, x <= 0, x > 1 */
  for (k = 0; k < 3; ++k) {
    memcpy(g, grid5, sizeof g);
    g[2] = non_finite[k];
    INTERP_FAILS(g, 5, 2, EKOC_ERR_INVALID_GRID, "x[2]", gstr(non_finite[k]));
  }
  memcpy(g, grid5, sizeof g);
  g[0] = 0.0;
  INTERP_FAILS(g, 5, 2, EKOC_ERR_INVALID_GRID, "x[0]", "= 0,");
  g[0] = -1e-3;
  INTERP_FAILS(g, 5, 2, EKOC_ERR_INVALID_GRID, "x[0]", "-0.001");
  memcpy(g, grid5, sizeof g);
  g[4] = 1.0000000000000002;
  INTERP_FAILS(g, 5, 2, EKOC_ERR_INVALID_GRID, "x[4]", "1.0000000000000002");
  g[4] = 2.0;
  INTERP_FAILS(g, 5, 2, EKOC_ERR_INVALID_GRID, "x[4]", "= 2,");
  /* unsorted and duplicate */
  memcpy(g, grid5, sizeof g);
  g[1] = 0.2;
  INTERP_FAILS(g, 5, 2, EKOC_ERR_INVALID_GRID, "x[2]", "0.20000000000000001");
  memcpy(g, grid5, sizeof g);
  g[3] = g[2];
  INTERP_FAILS(g, 5, 2, EKOC_ERR_INVALID_GRID, "x[3]", "ascending");
  /* degree out of range: < 1, >= n, > EKOC_INTERP_MAX_DEGREE */
  INTERP_FAILS(grid5, 5, 0, EKOC_ERR_INVALID_DEGREE, "degree = 0", NULL);
  INTERP_FAILS(grid5, 5, -3, EKOC_ERR_INVALID_DEGREE, "degree = -3", NULL);
  INTERP_FAILS(grid5, 5, 5, EKOC_ERR_INVALID_DEGREE, "degree = 5", "n = 5");
  INTERP_FAILS(grid5, 5, 99, EKOC_ERR_INVALID_DEGREE, "degree = 99", NULL);
  INTERP_FAILS(grid5, 5, INT32_MIN, EKOC_ERR_INVALID_DEGREE, "degree = -2147483648", NULL);
  {
    double big[EKOC_INTERP_MAX_DEGREE + 5];
    for (k = 0; k < EKOC_INTERP_MAX_DEGREE + 5; ++k) big[k] = pow(10.0, -5.0 + 5.0 * (double)k / (EKOC_INTERP_MAX_DEGREE + 4));
    INTERP_FAILS(big, EKOC_INTERP_MAX_DEGREE + 5, EKOC_INTERP_MAX_DEGREE + 1, EKOC_ERR_INVALID_DEGREE, "degree = 16", NULL);
  }
  /* fuzz_interp finding: points one ulp apart share ln x (or give Lagrange
   * coefficients that overflow); the basis used to come back with NaN weights */
  {
    double u[5] = {1e-5, 1e-4, 1e-3, 0.0, 0.5};
    u[3] = nextafter(1e-3, 1.0);
    assert_true(log(u[3]) == log(u[2]));
    INTERP_FAILS(u, 5, 1, EKOC_ERR_INVALID_GRID, "x[2] = 0.001", "same ln x");
    /* near x = 1 ln x is x - 1 and keeps distinct values: accepted */
    u[2] = 0.1;
    u[3] = 1.0 - 4.0 * DBL_EPSILON;
    u[4] = nextafter(u[3], 1.0);
    assert_int_equal(ekoc_interp_alloc(u, 5, 1, &ip), EKOC_OK);
    ekoc_interp_free(ip);
  }
  assert_int_equal(ekoc_interp_size(NULL), 0);
  ekoc_interp_free(NULL);
}

static void test_interp_eval(void **state) {
  ekoc_interp *ip = NULL;
  poisoned p = poison_new(5);
  static const double bad_x[] = {0.0, -0.5, 1.0000000000000002, 3.0};
  size_t k;
  (void)state;
  assert_int_equal(ekoc_interp_alloc(grid5, 5, 2, &ip), EKOC_OK);
  EXPECT(ekoc_interp_eval(NULL, 0.5, p.buf, 5), EKOC_ERR_NULL_POINTER, "interp", NULL);
  EXPECT(ekoc_interp_eval(ip, 0.5, NULL, 5), EKOC_ERR_NULL_POINTER, "weights_out", NULL);
  for (k = 0; k < 3; ++k) EXPECT(ekoc_interp_eval(ip, non_finite[k], p.buf, 5), EKOC_ERR_INVALID_ARGUMENT, "x = ", gstr(non_finite[k]));
  for (k = 0; k < sizeof bad_x / sizeof bad_x[0]; ++k) {
    char want[64];
    snprintf(want, sizeof want, "x = %.17g", bad_x[k]);
    EXPECT(ekoc_interp_eval(ip, bad_x[k], p.buf, 5), EKOC_ERR_INVALID_ARGUMENT, want, NULL);
  }
  EXPECT(ekoc_interp_eval(ip, 0.5, p.buf, 4), EKOC_ERR_BUFFER_TOO_SMALL, "n_out = 4", NULL);
  EXPECT(ekoc_interp_eval(ip, 0.5, p.buf, 0), EKOC_ERR_BUFFER_TOO_SMALL, "n_out = 0", NULL);
  poison_check(&p, "ekoc_interp_eval", __LINE__);
  poison_free(&p);
  ekoc_interp_free(ip);
}

/* ---- beta, N-space families ------------------------------------------------------------ */

static void test_beta(void **state) {
  poisoned p = poison_new(4);
  static const int32_t bad_nf[] = {-1, 0, 2, 7, 100, INT32_MIN, INT32_MAX};
  size_t k;
  (void)state;
  EXPECT(ekoc_beta(4, NULL), EKOC_ERR_NULL_POINTER, "beta_out4", NULL);
  for (k = 0; k < sizeof bad_nf / sizeof bad_nf[0]; ++k)
    EXPECT(ekoc_beta(bad_nf[k], p.buf), EKOC_ERR_INVALID_NF, "nf=", dstr(bad_nf[k]));
  poison_check(&p, "ekoc_beta", __LINE__);
  poison_free(&p);
}

/* A valid NLO evolution configuration (singlet family). */
static ekoc_nspace_config good_cfg(void) {
  ekoc_nspace_config c;
  memset(&c, 0, sizeof c);
  c.kind = EKOC_KIND_EVOLUTION;
  c.family = EKOC_FAMILY_SINGLET;
  c.order = 2;
  c.nf = 4;
  c.method = EKOC_METHOD_ITERATE_EXACT;
  c.ev_op_iterations = 10;
  c.ev_op_max_order = 10;
  c.sv_mode = EKOC_SV_NONE;
  c.matching_method = EKOC_MATCHING_FORWARD;
  c.a0 = 0.028;
  c.a1 = 0.012;
  assert_int_equal(ekoc_beta(4, c.beta), EKOC_OK);
  return c;
}

static ekoc_nspace_config good_matching_cfg(void) {
  ekoc_nspace_config c = good_cfg();
  c.kind = EKOC_KIND_MATCHING;
  c.order = 2;
  c.nf = 3;
  c.matching_method = EKOC_MATCHING_BACKWARD_EXACT;
  c.ome_log = 0.3;
  return c;
}

static void expect_nspace_fails(const ekoc_nspace_config *c, double nre, double nim, size_t len, int want,
                                const char *n1, const char *n2, int line) {
  poisoned re = poison_new(16), im = poison_new(16);
  expect_status(ekoc_nspace_evaluate(c, nre, nim, re.buf, im.buf, len), want, n1, n2, "ekoc_nspace_evaluate", line);
  poison_check(&re, "ekoc_nspace_evaluate out_re", line);
  poison_check(&im, "ekoc_nspace_evaluate out_im", line);
  poison_free(&re);
  poison_free(&im);
}
#define NSPACE_FAILS(c, nre, nim, len, want, n1, n2) expect_nspace_fails(&(c), (nre), (nim), (len), (want), (n1), (n2), __LINE__)

static void test_nspace_evaluate(void **state) {
  ekoc_nspace_config c;
  double re[9], im[9];
  size_t k;
  (void)state;
  c = good_cfg();
  assert_int_equal(ekoc_nspace_evaluate(&c, 2.5, 1.0, re, im, 9), EKOC_OK);
  EXPECT(ekoc_nspace_evaluate(NULL, 2.5, 1.0, re, im, 9), EKOC_ERR_NULL_POINTER, "ekoc_nspace_evaluate", NULL);
  EXPECT(ekoc_nspace_evaluate(&c, 2.5, 1.0, NULL, im, 9), EKOC_ERR_NULL_POINTER, "ekoc_nspace_evaluate", NULL);
  EXPECT(ekoc_nspace_evaluate(&c, 2.5, 1.0, re, NULL, 9), EKOC_ERR_NULL_POINTER, "ekoc_nspace_evaluate", NULL);
  /* N not finite, and N on a pole of the anomalous dimensions */
  for (k = 0; k < 3; ++k) {
    NSPACE_FAILS(c, non_finite[k], 1.0, 9, EKOC_ERR_INVALID_ARGUMENT, "N=", gstr(non_finite[k]));
    NSPACE_FAILS(c, 2.0, non_finite[k], 9, EKOC_ERR_INVALID_ARGUMENT, "N=", gstr(non_finite[k]));
  }
  NSPACE_FAILS(c, 1.0, 0.0, 9, EKOC_ERR_ANOMALOUS_DIMENSION, "N=(1,0)", "ekore");
  NSPACE_FAILS(c, -2.0, 0.0, 9, EKOC_ERR_ANOMALOUS_DIMENSION, "N=(-2,0)", NULL);
  NSPACE_FAILS(c, 1e300, 0.0, 9, EKOC_ERR_ANOMALOUS_DIMENSION, "N=(1e+300,0)", NULL);
  /* too short an output */
  NSPACE_FAILS(c, 2.5, 1.0, 3, EKOC_ERR_BUFFER_TOO_SMALL, "out_len=3", "4");
  c = good_matching_cfg();
  NSPACE_FAILS(c, 2.5, 1.0, 8, EKOC_ERR_BUFFER_TOO_SMALL, "out_len=8", "9");
  /* every field of the configuration */
  c = good_cfg(); c.kind = 2;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_MODE, "kind=2", NULL);
  c = good_cfg(); c.kind = -1;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_MODE, "kind=-1", NULL);
  c = good_cfg(); c.family = 4;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_MODE, "family=4", NULL);
  /* the QED families: their own fields (docs/physics.md §15.3) */
  c = good_cfg(); c.family = EKOC_FAMILY_QED_NS;
  NSPACE_FAILS(c, 2.5, 1.0, 16, EKOC_ERR_INVALID_ORDER, "qed_order=0", NULL);
  c = good_cfg(); c.family = EKOC_FAMILY_QED_SINGLET; c.qed_order = 1; c.lepton_number = 3;
  NSPACE_FAILS(c, 2.5, 1.0, 16, EKOC_ERR_NULL_POINTER, "qed_couplings", NULL);
  c = good_cfg(); c.family = EKOC_FAMILY_QED_SINGLET; c.qed_order = 1; c.lepton_number = 3; c.kind = 1;
  NSPACE_FAILS(c, 2.5, 1.0, 16, EKOC_ERR_INVALID_MODE, "QED", "evolution");
  c = good_cfg(); c.family = EKOC_FAMILY_QED_NS; c.qed_order = 2; c.lepton_number = 3;
  c.method = EKOC_METHOD_TRUNCATED;
  NSPACE_FAILS(c, 2.5, 1.0, 16, EKOC_ERR_UNSUPPORTED, "method=", "iterate-exact");
  c = good_cfg(); c.nf = 2;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_NF, "nf=2", NULL);
  c = good_cfg(); c.nf = 7;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_NF, "nf=7", NULL);
  c = good_cfg(); c.order = 0;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ORDER, "order=0", NULL);
  c = good_cfg(); c.order = EKOC_MAX_ORDER; c.n3lo_ad_variation[2] = -1; /* N3LO: the choice is checked */
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ARGUMENT, "n3lo_ad_variation[2] (qg) = -1", NULL);
  c = good_cfg(); c.order = EKOC_MAX_ORDER; c.use_fhmruvv = 3;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ARGUMENT, "use_fhmruvv=3", NULL);
  c = good_cfg(); c.order = EKOC_MAX_ORDER + 1;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ORDER, "order=5", NULL);
  c = good_cfg(); c.physics = 2; /* where eko approximates: EKOC_PHYSICS_EKO or _EXACT only */
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ARGUMENT, "physics=2", "EKOC_PHYSICS_EXACT");
  c = good_cfg(); c.physics = -1;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ARGUMENT, "physics=-1", NULL);
  /* polarized / time-like: what eko has of them (docs/physics.md §16) */
  c = good_cfg(); c.polarized = 1; c.time_like = 1;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_UNSUPPORTED, "polarized=1 with time_like=1", NULL);
  c = good_cfg(); c.time_like = 1; c.order = 4;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_UNSUPPORTED, "order=4 with time_like=1", NULL);
  c = good_matching_cfg(); c.polarized = 1; c.order = 3;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_UNSUPPORTED, "matching order=3 with polarized=1", NULL);
  c = good_cfg(); c.polarized = 2;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ARGUMENT, "polarized=2", NULL);
  c = good_cfg(); c.method = EKOC_METHOD_COUNT;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_METHOD, "method=9", NULL);
  c = good_cfg(); c.method = -1;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_METHOD, "method=-1", NULL);
  c = good_cfg(); c.ev_op_iterations = 0;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ITERATIONS, "ev_op_iterations=0", NULL);
  c = good_cfg(); c.ev_op_iterations = INT32_MAX;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ITERATIONS, "ev_op_iterations=2147483647", NULL);
  c = good_cfg(); c.ev_op_max_order = 0;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ITERATIONS, "ev_op_max_order=0", NULL);
  c = good_cfg(); c.ev_op_max_order = EKOC_MAX_EV_OP_MAX_ORDER + 1;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ITERATIONS, "ev_op_max_order=31", NULL);
  c = good_cfg(); c.sv_mode = 3;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_MODE, "sv_mode=3", NULL);
  c = good_matching_cfg(); c.order = 4; /* above the largest OME order the API describes (3) */
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ORDER, "matching order=4", NULL);
  c = good_matching_cfg(); c.order = -1;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ORDER, "matching order=-1", NULL);
  c = good_matching_cfg(); c.matching_method = 3;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_METHOD, "matching_method=3", NULL);
  for (k = 0; k < 3; ++k) {
    const char *v = gstr(non_finite[k]);
    int b;
    c = good_cfg(); c.a0 = non_finite[k];
    NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ARGUMENT, "a0=", v);
    c = good_cfg(); c.a1 = non_finite[k];
    NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ARGUMENT, "a1=", v);
    c = good_cfg(); c.sv_log = non_finite[k];
    NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ARGUMENT, "sv_log=", v);
    c = good_matching_cfg(); c.ome_log = non_finite[k];
    NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ARGUMENT, "L=", v);
    for (b = 0; b < 4; ++b) {
      char name[16];
      snprintf(name, sizeof name, "beta[%d]=", b);
      c = good_cfg(); c.beta[b] = non_finite[k];
      NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ARGUMENT, name, v);
    }
  }
  c = good_cfg(); c.a0 = -0.01;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ARGUMENT, "a0=-0.01", NULL);
  c = good_matching_cfg(); c.a1 = -0.01;
  NSPACE_FAILS(c, 2.5, 1.0, 9, EKOC_ERR_INVALID_ARGUMENT, "a1=-0.01", NULL);
}

/* A valid configuration whose values overflow: a0 = 1e-300 and a1 = 0.1
 * give (a1/a0)^(-gamma/beta0) = inf at large N. Both evaluators used to
 * return EKOC_OK with inf/NaN. */
static void test_nspace_overflow(void **state) {
  ekoc_nspace_config c;
  double nre[3] = {0.5, 2.0, 50.0}, nim[3] = {0.0, 0.0, 0.0};
  poisoned re = poison_new(27), im = poison_new(27);
  (void)state;
  c = good_cfg();
  c.family = EKOC_FAMILY_NS;
  c.order = 1;
  c.a0 = 1e-300;
  c.a1 = 0.1;
  assert_int_equal(ekoc_nspace_evaluate(&c, 2.0, 0.0, re.buf, im.buf, 3), EKOC_OK);
  assert_true(isfinite(re.buf[0]) && re.buf[0] > 1e100); /* large but finite: fine */
  memset(re.buf, POISON_BYTE, 27 * sizeof(double));
  memset(im.buf, POISON_BYTE, 27 * sizeof(double));
  NSPACE_FAILS(c, 50.0, 0.0, 9, EKOC_ERR_NUMERICAL, "element 0 at N=(50,0)", "not finite");
  EXPECT(ekoc_nspace_evaluate_batch(&c, nre, nim, 3, re.buf, im.buf, 27), EKOC_ERR_NUMERICAL, "point 2", "not finite");
  poison_check(&re, "ekoc_nspace_evaluate_batch out_re", __LINE__);
  poison_check(&im, "ekoc_nspace_evaluate_batch out_im", __LINE__);
  poison_free(&re);
  poison_free(&im);
}

/* Helpers for bindings (include/ekoc/bindings.h, interp_access.h). */
static void test_bindings_helpers(void **state) {
  ekoc_nspace_config c = good_cfg();
  ekoc_interp *ip = NULL;
  const double *areas = (const double *)(uintptr_t)0x77;
  size_t n_areas = 77, k;
  int32_t deg = 77;
  double nre[2] = {2.0, 3.0}, nim[2] = {0.5, 0.5};
  poisoned re = poison_new(8), im = poison_new(8);
  (void)state;
  assert_int_equal(ekoc_nspace_config_sizeof(), sizeof(ekoc_nspace_config));
  assert_int_equal(ekoc_kernel_args_sizeof(), sizeof(ekoc_kernel_args));
  assert_int_equal(ekoc_nspace_family_len(NULL), 0);
  assert_int_equal(ekoc_nspace_family_len(&c), 4);
  c.kind = 5;
  assert_int_equal(ekoc_nspace_family_len(&c), 0);
  c = good_cfg();
  c.family = -1;
  assert_int_equal(ekoc_nspace_family_len(&c), 0);
  /* evaluate_batch: NULLs, bad config, non-finite N anywhere, short output */
  c = good_cfg();
  EXPECT(ekoc_nspace_evaluate_batch(NULL, nre, nim, 2, re.buf, im.buf, 8), EKOC_ERR_NULL_POINTER, "must not be NULL", NULL);
  EXPECT(ekoc_nspace_evaluate_batch(&c, NULL, nim, 2, re.buf, im.buf, 8), EKOC_ERR_NULL_POINTER, "must not be NULL", NULL);
  EXPECT(ekoc_nspace_evaluate_batch(&c, nre, nim, 2, re.buf, NULL, 8), EKOC_ERR_NULL_POINTER, "must not be NULL", NULL);
  EXPECT(ekoc_nspace_evaluate_batch(&c, nre, nim, 2, re.buf, im.buf, 7), EKOC_ERR_BUFFER_TOO_SMALL, "out_len=7", "8");
  EXPECT(ekoc_nspace_evaluate_batch(&c, nre, nim, SIZE_MAX, re.buf, im.buf, 8), EKOC_ERR_INVALID_ARGUMENT, "count", NULL);
  for (k = 0; k < 3; ++k) {
    nim[1] = non_finite[k];
    EXPECT(ekoc_nspace_evaluate_batch(&c, nre, nim, 2, re.buf, im.buf, 8), EKOC_ERR_INVALID_ARGUMENT, "N[1]=",
           gstr(non_finite[k]));
  }
  nim[1] = 0.0;
  nre[1] = 1.0; /* singlet pole N = 1 */
  EXPECT(ekoc_nspace_evaluate_batch(&c, nre, nim, 2, re.buf, im.buf, 8), EKOC_ERR_ANOMALOUS_DIMENSION, "point 1", NULL);
  nre[1] = 3.0;
  nim[1] = 0.5;
  c.nf = 8;
  EXPECT(ekoc_nspace_evaluate_batch(&c, nre, nim, 2, re.buf, im.buf, 8), EKOC_ERR_INVALID_NF, "nf=8", NULL);
  poison_check(&re, "ekoc_nspace_evaluate_batch out_re", __LINE__);
  poison_check(&im, "ekoc_nspace_evaluate_batch out_im", __LINE__);
  /* basis areas */
  assert_int_equal(ekoc_interp_alloc(grid5, 5, 2, &ip), EKOC_OK);
  EXPECT(ekoc_interp_basis_areas(NULL, 0, &areas, &n_areas, &deg), EKOC_ERR_NULL_POINTER, "must not be NULL", NULL);
  EXPECT(ekoc_interp_basis_areas(ip, 0, NULL, &n_areas, &deg), EKOC_ERR_NULL_POINTER, "must not be NULL", NULL);
  EXPECT(ekoc_interp_basis_areas(ip, 0, &areas, NULL, &deg), EKOC_ERR_NULL_POINTER, "must not be NULL", NULL);
  EXPECT(ekoc_interp_basis_areas(ip, 5, &areas, &n_areas, &deg), EKOC_ERR_INVALID_ARGUMENT, "j=5", "0..4");
  EXPECT(ekoc_interp_basis_areas(ip, SIZE_MAX, &areas, &n_areas, &deg), EKOC_ERR_INVALID_ARGUMENT,
         "j=18446744073709551615", NULL);
  assert_ptr_equal(areas, (const double *)(uintptr_t)0x77);
  assert_int_equal(n_areas, 77);
  assert_int_equal(deg, 77);
  ekoc_interp_free(ip);
  poison_free(&re);
  poison_free(&im);
}

/* ---- quadrature workspace, kernel, single integrals --------------------------------------- */

static void test_workspace(void **state) {
  ekoc_quad_workspace *sentinel = (ekoc_quad_workspace *)(uintptr_t)0x5a5a5a5a, *ws = sentinel;
  uint64_t hits = 7, misses = 9;
  (void)state;
  EXPECT(ekoc_quad_workspace_alloc(100, NULL), EKOC_ERR_NULL_POINTER, "out", NULL);
  EXPECT(ekoc_quad_workspace_alloc(0, &ws), EKOC_ERR_INVALID_ARGUMENT, "limit=0", NULL);
  EXPECT(ekoc_quad_workspace_alloc(100001, &ws), EKOC_ERR_INVALID_ARGUMENT, "limit=100001", NULL);
  EXPECT(ekoc_quad_workspace_alloc(SIZE_MAX, &ws), EKOC_ERR_INVALID_ARGUMENT, "limit=18446744073709551615", NULL);
  assert_ptr_equal(ws, sentinel);
  EXPECT(ekoc_quad_workspace_reserve_basis(NULL, 5), EKOC_ERR_NULL_POINTER, "ws", NULL);
  assert_int_equal(ekoc_quad_workspace_alloc(10, &ws), EKOC_OK);
  EXPECT(ekoc_quad_workspace_reserve_basis(ws, 0), EKOC_ERR_INVALID_ARGUMENT, "nx=0", NULL);
  EXPECT(ekoc_quad_workspace_reserve_basis(ws, SIZE_MAX), EKOC_ERR_INVALID_ARGUMENT, "nx=18446744073709551615", NULL);
  ekoc_quad_workspace_stats(NULL, &hits, &misses);
  assert_int_equal(hits, 0);
  assert_int_equal(misses, 0);
  ekoc_quad_workspace_stats(ws, NULL, NULL);
  ekoc_quad_workspace_free(ws);
  ekoc_quad_workspace_free(NULL);
}

/* Arguments for the integral of basis function j = 2 of the 5-point grid at x_1 = 0.01. */
typedef struct kernel_setup {
  ekoc_interp *ip;
  ekoc_quad_workspace *ws;
  ekoc_kernel_args args;
} kernel_setup;

static void kernel_setup_make(kernel_setup *k) {
  memset(k, 0, sizeof *k);
  assert_int_equal(ekoc_interp_alloc(grid5, 5, 2, &k->ip), EKOC_OK);
  assert_int_equal(ekoc_quad_workspace_alloc(50, &k->ws), EKOC_OK);
  assert_int_equal(ekoc_quad_workspace_reserve_basis(k->ws, 5), EKOC_OK);
  k->args.nspace = good_cfg();
  k->args.element = 0;
  k->args.degree = 2;
  k->args.logx = log(grid5[1]);
  k->args.interp = k->ip;
  k->args.basis_index = 2;
  k->args.workspace = k->ws;
}

static void kernel_setup_free(kernel_setup *k) {
  ekoc_interp_free(k->ip);
  ekoc_quad_workspace_free(k->ws);
}

static void expect_integrate_fails(ekoc_kernel_args *a, double cut, double epsabs, double epsrel, size_t limit,
                                   int want, const char *n1, const char *n2, int line) {
  double v = 12345.0, e = 54321.0;
  expect_status(ekoc_quad_integrate(a, cut, epsabs, epsrel, limit, &v, &e), want, n1, n2, "ekoc_quad_integrate", line);
  if (v != 12345.0 || e != 54321.0) fail_msg("line %d: ekoc_quad_integrate wrote value/error on a bad argument", line);
}
#define INTEGRATE_FAILS(a, cut, ea, er, lim, want, n1, n2) \
  expect_integrate_fails((a), (cut), (ea), (er), (lim), (want), (n1), (n2), __LINE__)

static void test_quad_integrate(void **state) {
  kernel_setup k;
  ekoc_kernel_args a;
  double v, e;
  (void)state;
  kernel_setup_make(&k);
  a = k.args;
  /* the base arguments are valid: every failure below comes from one change */
  assert_int_equal(ekoc_quad_integrate(&a, 0.05, 1e-12, 1e-5, 50, &v, &e), EKOC_OK);
  assert_true(isfinite(v) && isfinite(e));
  kernel_setup_free(&k);
}

static void test_quad_integrate_bad(void **state) {
  kernel_setup k;
  ekoc_kernel_args a;
  double v = 1.0, e = 1.0;
  size_t i;
  (void)state;
  kernel_setup_make(&k);
  a = k.args;
  EXPECT(ekoc_quad_integrate(NULL, 0.05, 1e-12, 1e-5, 50, &v, &e), EKOC_ERR_NULL_POINTER, "ekoc_quad_integrate", NULL);
  EXPECT(ekoc_quad_integrate(&a, 0.05, 1e-12, 1e-5, 50, NULL, &e), EKOC_ERR_NULL_POINTER, "ekoc_quad_integrate", NULL);
  EXPECT(ekoc_quad_integrate(&a, 0.05, 1e-12, 1e-5, 50, &v, NULL), EKOC_ERR_NULL_POINTER, "ekoc_quad_integrate", NULL);
  a = k.args; a.interp = NULL; a.areas = NULL;
  INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_NULL_POINTER, "areas", "interp");
  a = k.args; a.workspace = NULL;
  INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_NULL_POINTER, "workspace", NULL);
  a = k.args; a.basis_index = 5;
  INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_ARGUMENT, "basis_index=5", NULL);
  a = k.args; a.basis_index = -1;
  INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_ARGUMENT, "basis_index=-1", NULL);
  /* element outside the family (singlet evolution has 4) */
  a = k.args; a.element = 4;
  INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_ARGUMENT, "element=4", NULL);
  a = k.args; a.element = -1;
  INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_ARGUMENT, "element=-1", NULL);
  a = k.args; a.element = 1000000;
  INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_ARGUMENT, "element=1000000", NULL);
  /* degree of explicit records: 1..EKOC_INTERP_MAX_DEGREE (with interp set, the basis' own degree counts) */
  {
    double rec[2 + 1 + 2] = {-2.0, -1.0, 1.0, 0.0, 0.0};
    a = k.args; a.interp = NULL; a.areas = rec; a.n_areas = 1; a.degree = 99;
    INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_DEGREE, "degree=99", NULL);
    a.degree = 0;
    INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_DEGREE, "degree=0", NULL);
    a.degree = -7;
    INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_DEGREE, "degree=-7", NULL);
  }
  /* the inversion point: ln x finite and <= 0 */
  for (i = 0; i < 3; ++i) {
    a = k.args; a.logx = non_finite[i];
    INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_ARGUMENT, "logx=", gstr(non_finite[i]));
  }
  a = k.args; a.logx = 0.5;
  INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_ARGUMENT, "logx=0.5", NULL);
  a = k.args; a.subtract = NAN;
  INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_ARGUMENT, "subtract=nan", NULL);
  /* the N-space configuration is validated as in ekoc_nspace_evaluate */
  a = k.args; a.nspace.ev_op_iterations = INT32_MAX;
  INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_ITERATIONS, "ev_op_iterations=2147483647", NULL);
  a = k.args; a.nspace.nf = 9;
  INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_NF, "nf=9", NULL);
  a = k.args; a.nspace.a1 = NAN;
  INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_ARGUMENT, "a1=nan", NULL);
  /* cut, tolerances, limit */
  a = k.args;
  for (i = 0; i < 3; ++i) {
    const char *s = gstr(non_finite[i]);
    INTEGRATE_FAILS(&a, non_finite[i], 1e-12, 1e-5, 50, EKOC_ERR_INVALID_ARGUMENT, "cut=", s);
    INTEGRATE_FAILS(&a, 0.05, non_finite[i], 1e-5, 50, EKOC_ERR_INVALID_ARGUMENT, "epsabs=", s);
    INTEGRATE_FAILS(&a, 0.05, 1e-12, non_finite[i], 50, EKOC_ERR_INVALID_ARGUMENT, "epsrel=", s);
  }
  INTEGRATE_FAILS(&a, -0.01, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_ARGUMENT, "cut=-0.01", NULL);
  INTEGRATE_FAILS(&a, 0.5, 1e-12, 1e-5, 50, EKOC_ERR_INVALID_ARGUMENT, "cut=0.5", NULL);
  INTEGRATE_FAILS(&a, 0.05, -1.0, 1e-5, 50, EKOC_ERR_INVALID_ARGUMENT, "epsabs=-1", NULL);
  INTEGRATE_FAILS(&a, 0.05, 0.0, 0.0, 50, EKOC_ERR_INVALID_ARGUMENT, "epsabs=0", "epsrel=0");
  INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 0, EKOC_ERR_INVALID_ARGUMENT, "limit=0", NULL);
  INTEGRATE_FAILS(&a, 0.05, 1e-12, 1e-5, 51, EKOC_ERR_INVALID_ARGUMENT, "limit=51", "50");
  kernel_setup_free(&k);
}

/* The bare integrand: bad arguments give NaN and a status, never a wild read. */
static void test_quad_kernel(void **state) {
  kernel_setup k;
  ekoc_kernel_args a;
  double v;
  (void)state;
  kernel_setup_make(&k);
  a = k.args;
  v = ekoc_quad_kernel(0.7, &a);
  assert_true(isfinite(v));
  assert_int_equal(a.status, EKOC_OK);
  assert_true(isnan(ekoc_quad_kernel(0.7, NULL)));
  a = k.args; a.element = 4;
  assert_true(isnan(ekoc_quad_kernel(0.7, &a)));
  assert_int_equal(a.status, EKOC_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(ekoc_last_error(), "element=4"));
  a = k.args; a.element = -5;
  assert_true(isnan(ekoc_quad_kernel(0.7, &a)));
  assert_int_equal(a.status, EKOC_ERR_INVALID_ARGUMENT);
  a = k.args; a.basis_index = 77;
  assert_true(isnan(ekoc_quad_kernel(0.7, &a)));
  assert_int_equal(a.status, EKOC_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(ekoc_last_error(), "basis_index=77"));
  a = k.args; a.interp = NULL; a.areas = NULL; a.workspace = NULL;
  assert_true(isnan(ekoc_quad_kernel(0.7, &a)));
  assert_int_equal(a.status, EKOC_ERR_NULL_POINTER);
  a = k.args; a.interp = NULL; a.degree = 40; {
    double rec[43] = {-2.0, -1.0};
    a.areas = rec;
    a.n_areas = 1;
    assert_true(isnan(ekoc_quad_kernel(0.7, &a)));
    assert_int_equal(a.status, EKOC_ERR_INVALID_DEGREE);
  }
  /* interp without a reserved cache (or with no workspace at all): the kernel
   * takes basis_index's records from interp (it used to read args->areas, NULL) */
  {
    ekoc_quad_workspace *bare = NULL;
    double fast, slow, none;
    a = k.args;
    fast = ekoc_quad_kernel(0.7, &a);
    assert_int_equal(ekoc_quad_workspace_alloc(10, &bare), EKOC_OK);
    a = k.args; a.workspace = bare; a.areas = NULL; a.degree = 0;
    slow = ekoc_quad_kernel(0.7, &a);
    assert_int_equal(a.status, EKOC_OK);
    a = k.args; a.workspace = NULL; a.areas = NULL;
    none = ekoc_quad_kernel(0.7, &a);
    assert_int_equal(a.status, EKOC_OK);
    assert_close(slow, fast, 1e-14, 0.0);
    assert_close(none, fast, 1e-14, 0.0);
    ekoc_quad_workspace_free(bare);
  }
  /* the configuration is checked before the family is evaluated, with and
   * without a workspace (nf outside 3..6 used to reach the crate) */
  a = k.args; a.nspace.nf = 11; a.workspace = NULL;
  assert_true(isnan(ekoc_quad_kernel(0.7, &a)));
  assert_int_equal(a.status, EKOC_ERR_INVALID_NF);
  assert_non_null(strstr(ekoc_last_error(), "nf=11"));
  a = k.args; a.nspace.nf = 11;
  assert_true(isnan(ekoc_quad_kernel(0.7, &a)));
  assert_int_equal(a.status, EKOC_ERR_INVALID_NF);
  /* a QED family: ev_op_iterations sizes the read of qed_couplings, so one out
   * of range is refused before any coupling is read (the fuzzer's find: 21
   * iterations against a 61-value buffer read past it) */
  {
    double steps[3 * 2 + 1] = {0.1, 0.09, 0.08, 0.095, 0.085, 0.0075, 0.0076};
    a = k.args;
    a.element = 0;
    a.nspace.family = EKOC_FAMILY_QED_NS;
    a.nspace.method = EKOC_METHOD_ITERATE_EXACT;
    a.nspace.qed_order = 1;
    a.nspace.em_running = 1;
    a.nspace.lepton_number = 2;
    a.nspace.qed_log_step = -0.5;
    a.nspace.ev_op_iterations = 2;
    a.nspace.qed_couplings = steps;
    v = ekoc_quad_kernel(0.7, &a);
    assert_int_equal(a.status, EKOC_OK);
    assert_true(isfinite(v));
    a.nspace.ev_op_iterations = EKOC_MAX_EV_OP_ITERATIONS + 1;
    assert_true(isnan(ekoc_quad_kernel(0.7, &a)));
    assert_int_equal(a.status, EKOC_ERR_INVALID_ITERATIONS);
    assert_non_null(strstr(ekoc_last_error(), "ev_op_iterations=1001"));
    a.status = 0; a.nspace.ev_op_iterations = 2; a.nspace.qed_couplings = NULL;
    assert_true(isnan(ekoc_quad_kernel(0.7, &a)));
    assert_int_equal(a.status, EKOC_ERR_NULL_POINTER);
  }
  kernel_setup_free(&k);
}

/* ---- profiler -------------------------------------------------------------------------------- */

static void test_profile(void **state) {
  ekoc_profile *sentinel = (ekoc_profile *)(uintptr_t)0x5a5a5a5a, *p = sentinel;
  const char *name = (const char *)(uintptr_t)0x1234;
  uint64_t s = 11, e = 22;
  (void)state;
  EXPECT(ekoc_profile_new(10, NULL), EKOC_ERR_NULL_POINTER, "out", NULL);
  EXPECT(ekoc_profile_new(0, &p), EKOC_ERR_INVALID_ARGUMENT, "capacity=0", NULL);
  EXPECT(ekoc_profile_new(1000001, &p), EKOC_ERR_INVALID_ARGUMENT, "capacity=1000001", NULL);
  EXPECT(ekoc_profile_new(SIZE_MAX, &p), EKOC_ERR_INVALID_ARGUMENT, "capacity=18446744073709551615", NULL);
  assert_ptr_equal(p, sentinel);
  EXPECT(ekoc_profile_reset(NULL), EKOC_ERR_NULL_POINTER, "p is NULL", NULL);
  assert_int_equal(ekoc_profile_now_ns(NULL), 0);
  assert_int_equal(ekoc_profile_count(NULL), 0);
  assert_int_equal(ekoc_profile_dropped(NULL), 0);
  assert_int_equal(ekoc_profile_store(NULL, "x", 0, 1), EKOC_OK);
  EXPECT(ekoc_profile_get(NULL, 0, &name, &s, &e), EKOC_ERR_NULL_POINTER, "ekoc_profile_get", NULL);
  assert_int_equal(ekoc_profile_new(2, &p), EKOC_OK);
  EXPECT(ekoc_profile_store(p, NULL, 0, 1), EKOC_ERR_NULL_POINTER, "name", NULL);
  EXPECT(ekoc_profile_store(p, "x", 5, 4), EKOC_ERR_INVALID_ARGUMENT, "end_ns=4", "start_ns=5");
  assert_int_equal(ekoc_profile_count(p), 0);
  EXPECT(ekoc_profile_get(p, 0, &name, &s, &e), EKOC_ERR_INVALID_ARGUMENT, "record 0", NULL);
  assert_int_equal(ekoc_profile_store(p, "a", 1, 2), EKOC_OK);
  EXPECT(ekoc_profile_get(p, 1, &name, &s, &e), EKOC_ERR_INVALID_ARGUMENT, "record 1", "count 1");
  EXPECT(ekoc_profile_get(p, SIZE_MAX, &name, &s, &e), EKOC_ERR_INVALID_ARGUMENT, "record 18446744073709551615", NULL);
  EXPECT(ekoc_profile_get(p, 0, NULL, &s, &e), EKOC_ERR_NULL_POINTER, "ekoc_profile_get", NULL);
  EXPECT(ekoc_profile_get(p, 0, &name, NULL, &e), EKOC_ERR_NULL_POINTER, "ekoc_profile_get", NULL);
  EXPECT(ekoc_profile_get(p, 0, &name, &s, NULL), EKOC_ERR_NULL_POINTER, "ekoc_profile_get", NULL);
  assert_ptr_equal(name, (const char *)(uintptr_t)0x1234);
  assert_int_equal(s, 11);
  assert_int_equal(e, 22);
  /* past the capacity: dropped, not an error */
  assert_int_equal(ekoc_profile_store(p, "b", 1, 2), EKOC_OK);
  assert_int_equal(ekoc_profile_store(p, "c", 1, 2), EKOC_OK);
  assert_int_equal(ekoc_profile_count(p), 2);
  assert_int_equal(ekoc_profile_dropped(p), 1);
  ekoc_profile_free(p);
  ekoc_profile_free(NULL);
}

/* ---- couplings ------------------------------------------------------------------------------- */

static void expect_couplings_fails(const ekoc_couplings_config *cfg, int want, const char *n1, const char *n2, int line) {
  ekoc_couplings *sentinel = (ekoc_couplings *)(uintptr_t)0x5a5a5a5a, *c = sentinel;
  expect_status(ekoc_couplings_new(cfg, &c), want, n1, n2, "ekoc_couplings_new", line);
  if (c != sentinel) fail_msg("line %d: ekoc_couplings_new wrote *out on failure", line);
}
#define COUPLINGS_FAILS(field_stmt, want, n1, n2)     \
  do {                                                \
    ekoc_couplings_config cfg_;                       \
    ekoc_couplings_config_default(&cfg_);             \
    field_stmt;                                       \
    expect_couplings_fails(&cfg_, want, n1, n2, __LINE__); \
  } while (0)

static void test_couplings_new(void **state) {
  ekoc_couplings *c = NULL;
  ekoc_couplings_config cfg;
  size_t k;
  int h;
  (void)state;
  ekoc_couplings_config_default(&cfg);
  EXPECT(ekoc_couplings_new(NULL, &c), EKOC_ERR_NULL_POINTER, "cfg", NULL);
  EXPECT(ekoc_couplings_new(&cfg, NULL), EKOC_ERR_NULL_POINTER, "out", NULL);
  assert_int_equal(ekoc_couplings_config_sizeof(), sizeof(ekoc_couplings_config));
  COUPLINGS_FAILS(cfg_.order = 0, EKOC_ERR_INVALID_ORDER, "order = 0", NULL);
  COUPLINGS_FAILS(cfg_.order = 5, EKOC_ERR_INVALID_ORDER, "order = 5", NULL);
  COUPLINGS_FAILS(cfg_.mode = 2, EKOC_ERR_INVALID_MODE, "mode = 2", NULL);
  COUPLINGS_FAILS(cfg_.mode = -1, EKOC_ERR_INVALID_MODE, "mode = -1", NULL);
  for (k = 0; k < 3; ++k) {
    const char *s = gstr(non_finite[k]);
    COUPLINGS_FAILS(cfg_.alphas_ref = non_finite[k], EKOC_ERR_INVALID_ARGUMENT, "alphas_ref", s);
    COUPLINGS_FAILS(cfg_.mu2_ref = non_finite[k], EKOC_ERR_INVALID_SCALE, "mu2_ref", s);
    COUPLINGS_FAILS(cfg_.threshold_shift = non_finite[k], EKOC_ERR_INVALID_ARGUMENT, "threshold_shift", s);
    for (h = 0; h < 3; ++h) {
      char name[32];
      snprintf(name, sizeof name, "masses2[%d]", h);
      COUPLINGS_FAILS(cfg_.masses2[h] = non_finite[k], EKOC_ERR_INVALID_THRESHOLDS, name, s);
    }
  }
  COUPLINGS_FAILS(cfg_.alphas_ref = 0.0, EKOC_ERR_INVALID_ARGUMENT, "alphas_ref = 0", NULL);
  COUPLINGS_FAILS(cfg_.alphas_ref = -0.1, EKOC_ERR_INVALID_ARGUMENT, "alphas_ref = -0.1", NULL);
  COUPLINGS_FAILS(cfg_.mu2_ref = 0.0, EKOC_ERR_INVALID_SCALE, "mu2_ref = 0", NULL);
  COUPLINGS_FAILS(cfg_.mu2_ref = -4.0, EKOC_ERR_INVALID_SCALE, "mu2_ref = -4", NULL);
  COUPLINGS_FAILS(cfg_.threshold_shift = 0.0, EKOC_ERR_INVALID_ARGUMENT, "threshold_shift = 0", NULL);
  COUPLINGS_FAILS(cfg_.max_nf = 2, EKOC_ERR_INVALID_NF, "max_nf = 2", NULL);
  COUPLINGS_FAILS(cfg_.max_nf = 7, EKOC_ERR_INVALID_NF, "max_nf = 7", NULL);
  COUPLINGS_FAILS(cfg_.nf_ref = 2, EKOC_ERR_INVALID_NF, "nf_ref = 2", NULL);
  COUPLINGS_FAILS(cfg_.nf_ref = 7, EKOC_ERR_INVALID_NF, "nf_ref = 7", NULL);
  COUPLINGS_FAILS((cfg_.nf_ref = 5, cfg_.max_nf = 4), EKOC_ERR_INVALID_NF, "nf_ref = 5", "max_nf (4)");
  COUPLINGS_FAILS(cfg_.masses2[0] = 0.0, EKOC_ERR_INVALID_THRESHOLDS, "masses2[0]", "= 0,");
  COUPLINGS_FAILS(cfg_.masses2[1] = -1.0, EKOC_ERR_INVALID_THRESHOLDS, "masses2[1]", "-1");
  COUPLINGS_FAILS(cfg_.masses2[2] = 10.0, EKOC_ERR_INVALID_THRESHOLDS, "masses2[2]", "= 10 is below");
  COUPLINGS_FAILS(cfg_.thresholds_ratio2[1] = NAN, EKOC_ERR_INVALID_THRESHOLDS, "thresholds_ratio2[1]", "nan");
  COUPLINGS_FAILS(cfg_.thresholds_ratio2[0] = -1.0, EKOC_ERR_INVALID_THRESHOLDS, "thresholds_ratio2[0]", "-1");
  /* matching scales out of order: charm above bottom */
  COUPLINGS_FAILS(cfg_.thresholds_ratio2[0] = 100.0, EKOC_ERR_INVALID_THRESHOLDS, "bottom matching scale 20.25",
                  "charm one 200");
}

static void test_couplings_use(void **state) {
  ekoc_couplings *c = NULL, *ffns = NULL;
  ekoc_couplings_config cfg;
  double a = 42.0, thr[3] = {1.0, 2.0, 3.0};
  int32_t nf = 42;
  size_t k;
  (void)state;
  ekoc_couplings_config_default(&cfg);
  assert_int_equal(ekoc_couplings_new(&cfg, &c), EKOC_OK);
  EXPECT(ekoc_couplings_a_s(NULL, 10.0, -1, &a), EKOC_ERR_NULL_POINTER, "c is NULL", NULL);
  EXPECT(ekoc_couplings_a_s(c, 10.0, -1, NULL), EKOC_ERR_NULL_POINTER, "a_s_out", NULL);
  for (k = 0; k < 3; ++k) {
    EXPECT(ekoc_couplings_a_s(c, non_finite[k], -1, &a), EKOC_ERR_INVALID_SCALE, "mu2 = ", gstr(non_finite[k]));
    EXPECT(ekoc_couplings_nf_at(c, non_finite[k], &nf), EKOC_ERR_INVALID_SCALE, "mu2 = ", gstr(non_finite[k]));
  }
  EXPECT(ekoc_couplings_a_s(c, 0.0, -1, &a), EKOC_ERR_INVALID_SCALE, "mu2 = 0", NULL);
  EXPECT(ekoc_couplings_a_s(c, -10.0, -1, &a), EKOC_ERR_INVALID_SCALE, "mu2 = -10", NULL);
  EXPECT(ekoc_couplings_a_s(c, 10.0, 2, &a), EKOC_ERR_INVALID_NF, "nf_to = 2", NULL);
  EXPECT(ekoc_couplings_a_s(c, 10.0, 7, &a), EKOC_ERR_INVALID_NF, "nf_to = 7", NULL);
  EXPECT(ekoc_couplings_a_s(c, 10.0, INT32_MAX, &a), EKOC_ERR_INVALID_NF, "nf_to = 2147483647", NULL);
  /* the Landau pole: a clean numerical error, no NaN */
  EXPECT(ekoc_couplings_a_s(c, 1e-3, 3, &a), EKOC_ERR_NUMERICAL, "Landau", NULL);
  assert_true(a == 42.0);
  EXPECT(ekoc_couplings_nf_at(NULL, 10.0, &nf), EKOC_ERR_NULL_POINTER, "c is NULL", NULL);
  EXPECT(ekoc_couplings_nf_at(c, 10.0, NULL), EKOC_ERR_NULL_POINTER, "nf_out", NULL);
  EXPECT(ekoc_couplings_nf_at(c, 0.0, &nf), EKOC_ERR_INVALID_SCALE, "mu2 = 0", NULL);
  assert_int_equal(nf, 42);
  EXPECT(ekoc_couplings_matching_scales(NULL, thr), EKOC_ERR_NULL_POINTER, "c is NULL", NULL);
  EXPECT(ekoc_couplings_matching_scales(c, NULL), EKOC_ERR_NULL_POINTER, "mu2_thr", NULL);
  assert_true(thr[0] == 1.0 && thr[1] == 2.0 && thr[2] == 3.0);
  /* inconsistent thresholds: FFNS (k_b = k_t = inf) cannot reach nf = 5 */
  cfg.nf_ref = 4;
  cfg.thresholds_ratio2[0] = 0.0;
  cfg.thresholds_ratio2[1] = cfg.thresholds_ratio2[2] = INFINITY;
  assert_int_equal(ekoc_couplings_new(&cfg, &ffns), EKOC_OK);
  EXPECT(ekoc_couplings_a_s(ffns, 100.0, 5, &a), EKOC_ERR_INVALID_NF, "nf_to = 5", "bottom matching scale is inf");
  /* and k_c = 0 puts the charm threshold at 0: nf = 3 is unreachable */
  EXPECT(ekoc_couplings_a_s(ffns, 100.0, 3, &a), EKOC_ERR_INVALID_NF, "nf_to = 3", "charm matching scale is 0");
  assert_true(a == 42.0);
  ekoc_couplings_free(ffns);
  ekoc_couplings_free(c);
  ekoc_couplings_free(NULL);
}

/* ---- ekoc_compute ------------------------------------------------------------------------------ */

static double mu2_targets[3] = {10.0, 100.0, 1e4};

/* A small valid setup: LO, 5-point grid, degree 2, one target, one thread. */
static void base_setup(ekoc_theory *t, ekoc_request *r) {
  ekoc_theory_default(t);
  t->order = 1;
  ekoc_request_default(r);
  r->mu2 = mu2_targets;
  r->n_targets = 1;
  r->xgrid = grid5;
  r->nx = 5;
  r->degree = 2;
  r->n_threads = 1;
}

static void expect_compute_fails(const ekoc_theory *t, const ekoc_request *r, int want, const char *n1,
                                 const char *n2, int line) {
  ekoc_operator *sentinel = (ekoc_operator *)(uintptr_t)0x5a5a5a5a, *op = sentinel;
  ekoc_profile *prof = NULL;
  assert_int_equal(ekoc_profile_new(64, &prof), EKOC_OK);
  expect_status(ekoc_compute(t, r, prof, &op), want, n1, n2, "ekoc_compute", line);
  if (op != sentinel) fail_msg("line %d: ekoc_compute wrote *out on failure", line);
  ekoc_profile_free(prof);
}
/* A valid base setup with one change `stmt` (on th / rq) must fail with `want`. */
#define COMPUTE_FAILS(stmt, want, n1, n2)              \
  do {                                                 \
    ekoc_theory th;                                    \
    ekoc_request rq;                                   \
    base_setup(&th, &rq);                              \
    stmt;                                              \
    expect_compute_fails(&th, &rq, want, n1, n2, __LINE__); \
  } while (0)

static void test_compute_base_ok(void **state) {
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = NULL;
  (void)state;
  base_setup(&th, &rq);
  assert_int_equal(ekoc_theory_sizeof(), sizeof(ekoc_theory));
  assert_int_equal(ekoc_request_sizeof(), sizeof(ekoc_request));
  /* the base is valid: every failure below comes from the one changed field */
  if (ekoc_compute(&th, &rq, NULL, &op) != EKOC_OK) fail_msg("base setup failed: %s", ekoc_last_error());
  assert_non_null(op);
  assert_int_equal(ekoc_operator_failures(op), 0);
  ekoc_operator_free(op);
}

static void test_compute_null(void **state) {
  ekoc_theory t0;
  ekoc_request r0;
  ekoc_operator *sentinel = (ekoc_operator *)(uintptr_t)0x5a5a5a5a, *op = sentinel;
  (void)state;
  base_setup(&t0, &r0);
  EXPECT(ekoc_compute(NULL, &r0, NULL, &op), EKOC_ERR_NULL_POINTER, "theory", NULL);
  EXPECT(ekoc_compute(&t0, NULL, NULL, &op), EKOC_ERR_NULL_POINTER, "request", NULL);
  EXPECT(ekoc_compute(&t0, &r0, NULL, NULL), EKOC_ERR_NULL_POINTER, "out", NULL);
  assert_ptr_equal(op, sentinel);
  COMPUTE_FAILS(rq.mu2 = NULL, EKOC_ERR_NULL_POINTER, "request.mu2", NULL);
  COMPUTE_FAILS(rq.xgrid = NULL, EKOC_ERR_NULL_POINTER, "request.xgrid", NULL);
}

static void test_compute_theory(void **state) {
  size_t k;
  int h;
  (void)state;
  COMPUTE_FAILS(th.order = 0, EKOC_ERR_INVALID_ORDER, "theory.order=0", NULL);
  COMPUTE_FAILS((th.order = 4, th.n3lo_ad_variation[1] = -1), EKOC_ERR_INVALID_ARGUMENT,
                "theory.n3lo_ad_variation[1] (gq) = -1", NULL);
  COMPUTE_FAILS(th.use_fhmruvv = 3, EKOC_ERR_INVALID_ARGUMENT, "theory.use_fhmruvv=3", NULL);
  COMPUTE_FAILS(th.physics = 2, EKOC_ERR_INVALID_ARGUMENT, "theory.physics=2", "EKOC_PHYSICS_EKO (0)");
  COMPUTE_FAILS(th.physics = INT32_MIN, EKOC_ERR_INVALID_ARGUMENT, "theory.physics=-2147483648", NULL);
  COMPUTE_FAILS(th.order = 5, EKOC_ERR_INVALID_ORDER, "theory.order=5", NULL);
  /* the physics axes: described by the API, refused until computed */
  /* QED: eko's iterate-exact only, no exponentiated variation with a fixed a_em, no GPU kernels */
  COMPUTE_FAILS((th.qed_order = 1, rq.method = EKOC_METHOD_TRUNCATED), EKOC_ERR_UNSUPPORTED, "request.method=",
                "iterate-exact");
  COMPUTE_FAILS((th.qed_order = 2, th.xif = 2.0, rq.sv_mode = EKOC_SV_EXPONENTIATED, th.em_running = 0),
                EKOC_ERR_UNSUPPORTED, "request.sv_mode=exponentiated", "em_running");
  COMPUTE_FAILS((th.qed_order = 2, rq.backend = EKOC_BACKEND_GPU), EKOC_ERR_UNSUPPORTED, "request.backend=gpu",
                "QED");
  COMPUTE_FAILS(th.qed_order = 3, EKOC_ERR_INVALID_ORDER, "theory.qed_order=3", NULL);
  COMPUTE_FAILS(th.qed_order = -1, EKOC_ERR_INVALID_ORDER, "theory.qed_order=-1", NULL);
  COMPUTE_FAILS((th.polarized = 1, th.time_like = 1), EKOC_ERR_UNSUPPORTED, "theory.polarized=1 with theory.time_like=1",
                NULL);
  COMPUTE_FAILS(th.polarized = 2, EKOC_ERR_INVALID_ARGUMENT, "theory.polarized=2", NULL);
  COMPUTE_FAILS((th.time_like = 1, th.order = 4), EKOC_ERR_UNSUPPORTED, "theory.order=4 with theory.time_like=1", NULL);
  COMPUTE_FAILS((th.polarized = 1, th.qed_order = 2), EKOC_ERR_UNSUPPORTED, "theory.qed_order=2 with theory.polarized=1",
                NULL);
  COMPUTE_FAILS((th.polarized = 1, th.order = 4, th.matching_order = 3), EKOC_ERR_UNSUPPORTED, "theory.order=4", NULL);
  COMPUTE_FAILS(th.time_like = -1, EKOC_ERR_INVALID_ARGUMENT, "theory.time_like=-1", NULL);
  COMPUTE_FAILS(th.em_running = 2, EKOC_ERR_INVALID_ARGUMENT, "theory.em_running=2", NULL);
  COMPUTE_FAILS(th.alphaem = 0.0, EKOC_ERR_INVALID_ARGUMENT, "theory.alphaem=0", NULL);
  /* struct_size: not initialised, or a layout this library does not know */
  COMPUTE_FAILS(th.struct_size = 0, EKOC_ERR_INVALID_ARGUMENT, "ekoc_theory.struct_size=0", NULL);
  COMPUTE_FAILS(th.struct_size = sizeof th + 8, EKOC_ERR_INVALID_ARGUMENT, "ekoc_theory.struct_size=", NULL);
  COMPUTE_FAILS(rq.struct_size = 3, EKOC_ERR_INVALID_ARGUMENT, "ekoc_request.struct_size=3", NULL);
  COMPUTE_FAILS(rq.interpolation_is_log = 2, EKOC_ERR_INVALID_ARGUMENT, "request.interpolation_is_log=2", NULL);
  COMPUTE_FAILS(th.order = -1, EKOC_ERR_INVALID_ORDER, "theory.order=-1", NULL);
  COMPUTE_FAILS(th.order = INT32_MIN, EKOC_ERR_INVALID_ORDER, "theory.order=-2147483648", NULL);
  for (k = 0; k < 3; ++k) {
    double v = non_finite[k];
    const char *s = gstr(v);
    COMPUTE_FAILS(th.alphas = v, EKOC_ERR_INVALID_ARGUMENT, "theory.alphas=", s);
    COMPUTE_FAILS(th.mu2_ref = v, EKOC_ERR_INVALID_SCALE, "theory.mu2_ref=", s);
    COMPUTE_FAILS(th.xif = v, EKOC_ERR_INVALID_ARGUMENT, "theory.xif=", s);
    for (h = 0; h < 3; ++h) {
      char name[32];
      snprintf(name, sizeof name, "theory.masses[%d]=", h);
      COMPUTE_FAILS(th.masses[h] = v, EKOC_ERR_INVALID_THRESHOLDS, name, s);
    }
  }
  COMPUTE_FAILS(th.alphas = 0.0, EKOC_ERR_INVALID_ARGUMENT, "theory.alphas=0", NULL);
  COMPUTE_FAILS(th.alphas = -0.118, EKOC_ERR_INVALID_ARGUMENT, "theory.alphas=-0.118", NULL);
  COMPUTE_FAILS(th.alphas = 100.0, EKOC_ERR_INVALID_ARGUMENT, "theory.alphas=100", NULL);
  COMPUTE_FAILS(th.mu2_ref = 0.0, EKOC_ERR_INVALID_SCALE, "theory.mu2_ref=0", NULL);
  COMPUTE_FAILS(th.mu2_ref = -91.0, EKOC_ERR_INVALID_SCALE, "theory.mu2_ref=-91", NULL);
  COMPUTE_FAILS(th.nf_ref = 2, EKOC_ERR_INVALID_NF, "theory.nf_ref=2", NULL);
  COMPUTE_FAILS(th.nf_ref = 7, EKOC_ERR_INVALID_NF, "theory.nf_ref=7", NULL);
  COMPUTE_FAILS(th.masses[0] = 0.0, EKOC_ERR_INVALID_THRESHOLDS, "theory.masses[0]=0", NULL);
  COMPUTE_FAILS(th.masses[1] = -4.5, EKOC_ERR_INVALID_THRESHOLDS, "theory.masses[1]=-4.5", NULL);
  COMPUTE_FAILS(th.masses[2] = 1.0, EKOC_ERR_INVALID_THRESHOLDS, "theory.masses=", "not ascending");
  COMPUTE_FAILS(th.matching_ratios[1] = NAN, EKOC_ERR_INVALID_THRESHOLDS, "theory.matching_ratios[1]=nan", NULL);
  COMPUTE_FAILS(th.matching_ratios[2] = -1.0, EKOC_ERR_INVALID_THRESHOLDS, "theory.matching_ratios[2]=-1", NULL);
  COMPUTE_FAILS(th.matching_ratios[2] = -INFINITY, EKOC_ERR_INVALID_THRESHOLDS, "theory.matching_ratios[2]=-inf", NULL);
  /* inconsistent thresholds: the charm matching scale (k m_c)^2 = 200 above the bottom one 20.25 */
  COMPUTE_FAILS(th.matching_ratios[0] = 10.0, EKOC_ERR_INVALID_THRESHOLDS, "matching scale", "200");
  COMPUTE_FAILS(th.xif = 0.0, EKOC_ERR_INVALID_ARGUMENT, "theory.xif=0", NULL);
  COMPUTE_FAILS(th.xif = -2.0, EKOC_ERR_INVALID_ARGUMENT, "theory.xif=-2", NULL);
  COMPUTE_FAILS(th.matching_order = -2, EKOC_ERR_INVALID_ORDER, "theory.matching_order=-2", NULL);
  COMPUTE_FAILS(th.matching_order = 3, EKOC_ERR_INVALID_ORDER, "theory.matching_order=3", NULL);
  COMPUTE_FAILS(th.matching_order = 1, EKOC_ERR_INVALID_ORDER, "theory.matching_order=1", "order-1=0");
}

static const double bad_scales[] = {0.0, -1.0, -1e300};

static void test_compute_request_scales(void **state) {
  size_t k;
  (void)state;
  for (k = 0; k < 3; ++k) {
    double v = non_finite[k];
    const char *s = gstr(v);
    COMPUTE_FAILS(rq.mu2_0 = v, EKOC_ERR_INVALID_SCALE, "request.mu2_0=", s);
    {
      double m[3] = {10.0, v, 100.0};
      COMPUTE_FAILS((rq.mu2 = m, rq.n_targets = 3), EKOC_ERR_INVALID_SCALE, "request.mu2[1]=", s);
    }
  }
  for (k = 0; k < sizeof bad_scales / sizeof bad_scales[0]; ++k) {
    double v = bad_scales[k], m[2] = {10.0, v};
    const char *s = gstr(v);
    COMPUTE_FAILS(rq.mu2_0 = v, EKOC_ERR_INVALID_SCALE, "request.mu2_0=", s);
    COMPUTE_FAILS((rq.mu2 = m, rq.n_targets = 2), EKOC_ERR_INVALID_SCALE, "request.mu2[1]=", s);
  }
  COMPUTE_FAILS(rq.nf0 = 2, EKOC_ERR_INVALID_NF, "request.nf0=2", NULL);
  COMPUTE_FAILS(rq.nf0 = 7, EKOC_ERR_INVALID_NF, "request.nf0=7", NULL);
  {
    int32_t nf[3] = {4, 7, 4};
    COMPUTE_FAILS((rq.n_targets = 3, rq.nf = nf), EKOC_ERR_INVALID_NF, "request.nf[1]=7", NULL);
    nf[1] = 2;
    COMPUTE_FAILS((rq.n_targets = 3, rq.nf = nf), EKOC_ERR_INVALID_NF, "request.nf[1]=2", NULL);
  }
  COMPUTE_FAILS(rq.n_targets = 0, EKOC_ERR_INVALID_ARGUMENT, "request.n_targets", "0");
  COMPUTE_FAILS(rq.n_targets = SIZE_MAX, EKOC_ERR_INVALID_ARGUMENT, "request.n_targets=18446744073709551615", NULL);
  /* inconsistent thresholds: no top quark (k_t = inf) but nf = 6 asked for */
  {
    int32_t nf[1] = {6};
    COMPUTE_FAILS((th.matching_ratios[2] = INFINITY, rq.mu2 = mu2_targets + 2, rq.nf = nf), EKOC_ERR_INVALID_THRESHOLDS,
                  "threshold", "mu2=inf");
  }
  /* the Landau pole on the way: a clean numerical error */
  COMPUTE_FAILS(rq.mu2_0 = 1e-3, EKOC_ERR_NUMERICAL, "Landau", "0.001");
  {
    double m[1] = {1e-2};
    COMPUTE_FAILS((th.order = 3, rq.mu2 = m), EKOC_ERR_NUMERICAL, "Landau", NULL);
  }
}

static void test_compute_request_grid(void **state) {
  double g[5];
  size_t k;
  (void)state;
  COMPUTE_FAILS(rq.nx = 0, EKOC_ERR_INVALID_GRID, "request.nx=0", NULL);
  COMPUTE_FAILS(rq.nx = 1, EKOC_ERR_INVALID_GRID, "request.nx=1", NULL);
  COMPUTE_FAILS(rq.nx = SIZE_MAX, EKOC_ERR_INVALID_GRID, "request.nx=18446744073709551615", NULL);
  for (k = 0; k < 3; ++k) {
    memcpy(g, grid5, sizeof g);
    g[3] = non_finite[k];
    COMPUTE_FAILS(rq.xgrid = g, EKOC_ERR_INVALID_GRID, "request.xgrid[3]=", gstr(non_finite[k]));
  }
  memcpy(g, grid5, sizeof g);
  g[0] = 0.0;
  COMPUTE_FAILS(rq.xgrid = g, EKOC_ERR_INVALID_GRID, "request.xgrid[0]=0", NULL);
  g[0] = -0.5;
  COMPUTE_FAILS(rq.xgrid = g, EKOC_ERR_INVALID_GRID, "request.xgrid[0]=-0.5", NULL);
  memcpy(g, grid5, sizeof g);
  g[4] = 1.5;
  COMPUTE_FAILS(rq.xgrid = g, EKOC_ERR_INVALID_GRID, "request.xgrid[4]=1.5", NULL);
  memcpy(g, grid5, sizeof g);
  g[2] = 0.005; /* unsorted */
  COMPUTE_FAILS(rq.xgrid = g, EKOC_ERR_INVALID_GRID, "request.xgrid[2]=0.005", "ascending");
  memcpy(g, grid5, sizeof g);
  g[2] = g[1]; /* duplicate */
  COMPUTE_FAILS(rq.xgrid = g, EKOC_ERR_INVALID_GRID, "request.xgrid[2]=0.01", "ascending");
  {
    double desc[5] = {1.0, 0.5, 0.1, 0.01, 0.001};
    COMPUTE_FAILS(rq.xgrid = desc, EKOC_ERR_INVALID_GRID, "request.xgrid[1]=0.5", NULL);
  }
  /* interpolation degree: < 1, >= grid size, > EKOC_INTERP_MAX_DEGREE */
  COMPUTE_FAILS(rq.degree = 0, EKOC_ERR_INVALID_DEGREE, "request.degree=0", NULL);
  COMPUTE_FAILS(rq.degree = -1, EKOC_ERR_INVALID_DEGREE, "request.degree=-1", NULL);
  COMPUTE_FAILS(rq.degree = 5, EKOC_ERR_INVALID_DEGREE, "request.degree=5", "nx-1=4");
  COMPUTE_FAILS(rq.degree = INT32_MAX, EKOC_ERR_INVALID_DEGREE, "request.degree=2147483647", NULL);
  {
    double g20[20];
    for (k = 0; k < 20; ++k) g20[k] = pow(10.0, -4.0 + 4.0 * (double)k / 19.0);
    COMPUTE_FAILS((rq.xgrid = g20, rq.nx = 20, rq.degree = 16), EKOC_ERR_INVALID_DEGREE, "degree = 16", NULL);
  }
}

static void test_compute_request_controls(void **state) {
  size_t k;
  (void)state;
  COMPUTE_FAILS(rq.method = -1, EKOC_ERR_INVALID_METHOD, "request.method=-1", NULL);
  COMPUTE_FAILS(rq.method = EKOC_METHOD_COUNT, EKOC_ERR_INVALID_METHOD, "request.method=9", NULL);
  COMPUTE_FAILS(rq.method = 12345, EKOC_ERR_INVALID_METHOD, "request.method=12345", NULL);
  /* absurd iteration counts */
  COMPUTE_FAILS(rq.ev_op_iterations = 0, EKOC_ERR_INVALID_ITERATIONS, "request.ev_op_iterations=0", NULL);
  COMPUTE_FAILS(rq.ev_op_iterations = -5, EKOC_ERR_INVALID_ITERATIONS, "request.ev_op_iterations=-5", NULL);
  COMPUTE_FAILS(rq.ev_op_iterations = EKOC_MAX_EV_OP_ITERATIONS + 1, EKOC_ERR_INVALID_ITERATIONS,
                "request.ev_op_iterations=1001", NULL);
  COMPUTE_FAILS(rq.ev_op_iterations = INT32_MAX, EKOC_ERR_INVALID_ITERATIONS, "request.ev_op_iterations=2147483647", NULL);
  COMPUTE_FAILS(rq.ev_op_max_order = 0, EKOC_ERR_INVALID_ITERATIONS, "request.ev_op_max_order=0", NULL);
  COMPUTE_FAILS(rq.ev_op_max_order = EKOC_MAX_EV_OP_MAX_ORDER + 1, EKOC_ERR_INVALID_ITERATIONS,
                "request.ev_op_max_order=31", NULL);
  COMPUTE_FAILS(rq.ev_op_max_order = INT32_MIN, EKOC_ERR_INVALID_ITERATIONS, "request.ev_op_max_order=-2147483648", NULL);
  /* unknown modes */
  COMPUTE_FAILS(rq.sv_mode = 3, EKOC_ERR_INVALID_MODE, "request.sv_mode=3", NULL);
  COMPUTE_FAILS(rq.sv_mode = -1, EKOC_ERR_INVALID_MODE, "request.sv_mode=-1", NULL);
  COMPUTE_FAILS(th.xif = 2.0, EKOC_ERR_INVALID_MODE, "theory.xif=2", "sv_mode");
  COMPUTE_FAILS(rq.inversion_method = EKOC_MATCHING_FORWARD, EKOC_ERR_INVALID_METHOD, "request.inversion_method=0", NULL);
  COMPUTE_FAILS(rq.inversion_method = 3, EKOC_ERR_INVALID_METHOD, "request.inversion_method=3", NULL);
  COMPUTE_FAILS(rq.backend = -1, EKOC_ERR_INVALID_MODE, "request.backend=-1", NULL);
  COMPUTE_FAILS(rq.backend = 5, EKOC_ERR_INVALID_MODE, "request.backend=5", NULL);
  /* quadrature controls */
  for (k = 0; k < 3; ++k) {
    double v = non_finite[k];
    const char *s = gstr(v);
    COMPUTE_FAILS(rq.epsabs = v, EKOC_ERR_INVALID_ARGUMENT, "epsabs=", s);
    COMPUTE_FAILS(rq.epsrel = v, EKOC_ERR_INVALID_ARGUMENT, "epsrel=", s);
    COMPUTE_FAILS(rq.mellin_cut = v, EKOC_ERR_INVALID_ARGUMENT, "request.mellin_cut=", s);
  }
  COMPUTE_FAILS(rq.epsabs = -1e-12, EKOC_ERR_INVALID_ARGUMENT, "epsabs=-1e-12", NULL);
  COMPUTE_FAILS(rq.epsrel = -1e-5, EKOC_ERR_INVALID_ARGUMENT, "epsrel=-1e-05", NULL);
  COMPUTE_FAILS((rq.epsabs = 0.0, rq.epsrel = 0.0), EKOC_ERR_INVALID_ARGUMENT, "epsabs=0", "epsrel=0");
  COMPUTE_FAILS(rq.limit = 0, EKOC_ERR_INVALID_ARGUMENT, "request.limit=0", NULL);
  COMPUTE_FAILS(rq.limit = -1, EKOC_ERR_INVALID_ARGUMENT, "request.limit=-1", NULL);
  COMPUTE_FAILS(rq.limit = INT32_MAX, EKOC_ERR_INVALID_ARGUMENT, "request.limit=2147483647", NULL);
  COMPUTE_FAILS(rq.mellin_cut = 0.5, EKOC_ERR_INVALID_ARGUMENT, "request.mellin_cut=0.5", NULL);
  COMPUTE_FAILS(rq.mellin_cut = -0.01, EKOC_ERR_INVALID_ARGUMENT, "request.mellin_cut=-0.01", NULL);
  COMPUTE_FAILS(rq.n_threads = -1, EKOC_ERR_INVALID_ARGUMENT, "request.n_threads=-1", NULL);
  COMPUTE_FAILS(rq.n_threads = 1000000, EKOC_ERR_INVALID_ARGUMENT, "request.n_threads=1000000", NULL);
  COMPUTE_FAILS(rq.batch_panels = 0, EKOC_ERR_INVALID_ARGUMENT, "request.batch_panels=0", NULL);
  COMPUTE_FAILS(rq.batch_points = 0, EKOC_ERR_INVALID_ARGUMENT, "batch_points=0", NULL);
  COMPUTE_FAILS(rq.batch_points = INT32_MAX, EKOC_ERR_INVALID_ARGUMENT, "batch_points=2147483647", NULL);
}

/* The gpu backend without libekoc_cuda.so or a device: EKOC_ERR_NO_DEVICE
 * saying why, nothing written (on a machine with both it computes). */
static void test_compute_gpu_unavailable(void **state) {
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *sentinel = (ekoc_operator *)(uintptr_t)0x5a5a5a5a, *op = sentinel;
  int rc;
  (void)state;
  base_setup(&th, &rq);
  rq.backend = EKOC_BACKEND_GPU;
  rc = ekoc_compute(&th, &rq, NULL, &op);
  if (rc == EKOC_OK) {
    assert_true(op != sentinel && op != NULL);
    ekoc_operator_free(op);
    return;
  }
  assert_int_equal(rc, EKOC_ERR_NO_DEVICE);
  assert_ptr_equal(op, sentinel);
  assert_true(strlen(ekoc_last_error()) > 10);
}

static int cancel_at_once(void *data, uint64_t done, uint64_t total) {
  (void)done;
  (void)total;
  ++*(int *)data;
  return 1;
}

/* A progress callback that stops the work: EKOC_ERR_CANCELLED, nothing written, nothing leaked. */
static void test_compute_cancelled(void **state) {
  int calls = 0;
  (void)state;
  COMPUTE_FAILS((rq.progress = cancel_at_once, rq.progress_data = &calls), EKOC_ERR_CANCELLED, "cancelled", NULL);
  assert_true(calls >= 1);
}

/* ---- operator accessors ------------------------------------------------------------------------- */

static ekoc_operator *small_operator(void) {
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = NULL;
  base_setup(&th, &rq);
  rq.n_targets = 2;
  if (ekoc_compute(&th, &rq, NULL, &op) != EKOC_OK) fail_msg("compute: %s", ekoc_last_error());
  return op;
}

static void test_operator_accessors(void **state) {
  ekoc_operator *op = small_operator();
  size_t nx = 5, full = 196 * nx * nx;
  poisoned v = poison_new(full), e = poison_new(full), pin = poison_new(14 * nx), pout = poison_new(14 * nx);
  double mu2 = 7.0, *good_in;
  int32_t nf = 7;
  size_t k;
  (void)state;
  assert_int_equal(ekoc_operator_n_targets(NULL), 0);
  assert_int_equal(ekoc_operator_nx(NULL), 0);
  assert_int_equal(ekoc_operator_failures(NULL), 0);
  ekoc_operator_free(NULL);
  /* target */
  EXPECT(ekoc_operator_target(NULL, 0, &mu2, &nf), EKOC_ERR_NULL_POINTER, "ekoc_operator_target", NULL);
  EXPECT(ekoc_operator_target(op, 0, NULL, &nf), EKOC_ERR_NULL_POINTER, "ekoc_operator_target", NULL);
  EXPECT(ekoc_operator_target(op, 0, &mu2, NULL), EKOC_ERR_NULL_POINTER, "ekoc_operator_target", NULL);
  EXPECT(ekoc_operator_target(op, 2, &mu2, &nf), EKOC_ERR_INVALID_ARGUMENT, "target 2", "n_targets 2");
  EXPECT(ekoc_operator_target(op, SIZE_MAX, &mu2, &nf), EKOC_ERR_INVALID_ARGUMENT, "target 18446744073709551615", NULL);
  assert_true(mu2 == 7.0 && nf == 7);
  /* dense views */
  EXPECT(ekoc_operator_flavor(NULL, 0, v.buf, e.buf, full), EKOC_ERR_NULL_POINTER, "ekoc_operator_flavor", NULL);
  EXPECT(ekoc_operator_flavor(op, 0, NULL, e.buf, full), EKOC_ERR_NULL_POINTER, "ekoc_operator_flavor", NULL);
  EXPECT(ekoc_operator_flavor(op, 2, v.buf, e.buf, full), EKOC_ERR_INVALID_ARGUMENT, "target 2", NULL);
  EXPECT(ekoc_operator_flavor(op, 0, v.buf, e.buf, full - 1), EKOC_ERR_BUFFER_TOO_SMALL, "len=4899", "4900");
  EXPECT(ekoc_operator_flavor(op, 0, v.buf, e.buf, 0), EKOC_ERR_BUFFER_TOO_SMALL, "len=0", NULL);
  EXPECT(ekoc_operator_evolution(NULL, 0, v.buf, e.buf, full), EKOC_ERR_NULL_POINTER, "ekoc_operator_evolution", NULL);
  EXPECT(ekoc_operator_evolution(op, 0, NULL, NULL, full), EKOC_ERR_NULL_POINTER, "ekoc_operator_evolution", NULL);
  EXPECT(ekoc_operator_evolution(op, SIZE_MAX, v.buf, e.buf, full), EKOC_ERR_INVALID_ARGUMENT, "target", NULL);
  EXPECT(ekoc_operator_evolution(op, 1, v.buf, e.buf, 100), EKOC_ERR_BUFFER_TOO_SMALL, "len=100", NULL);
  /* failure flags (ekoc_operator_failed_flavor; more in test_failures.c) */
  {
    uint8_t *fl = malloc(full), *ref = malloc(full);
    size_t nfl = 99;
    assert_non_null(fl);
    assert_non_null(ref);
    memset(fl, 0xA5, full);
    memset(ref, 0xA5, full);
    EXPECT(ekoc_operator_failed_flavor(NULL, 0, fl, full, &nfl), EKOC_ERR_NULL_POINTER, "ekoc_operator_failed_flavor", NULL);
    EXPECT(ekoc_operator_failed_flavor(op, 0, NULL, full, NULL), EKOC_ERR_NULL_POINTER, "flags and n_flagged", NULL);
    EXPECT(ekoc_operator_failed_flavor(op, 2, fl, full, &nfl), EKOC_ERR_INVALID_ARGUMENT, "target 2", NULL);
    EXPECT(ekoc_operator_failed_flavor(op, 0, fl, full - 1, &nfl), EKOC_ERR_BUFFER_TOO_SMALL, "len=4899", NULL);
    assert_int_equal(memcmp(fl, ref, full), 0);
    assert_int_equal(nfl, 99);
    free(fl);
    free(ref);
  }
  poison_check(&v, "operator view values", __LINE__);
  poison_check(&e, "operator view errors", __LINE__);
  /* apply */
  good_in = calloc(14 * nx, sizeof(double));
  assert_non_null(good_in);
  EXPECT(ekoc_operator_apply(NULL, 0, good_in, pout.buf, 14 * nx, NULL), EKOC_ERR_NULL_POINTER, "ekoc_operator_apply", NULL);
  EXPECT(ekoc_operator_apply(op, 0, NULL, pout.buf, 14 * nx, NULL), EKOC_ERR_NULL_POINTER, "ekoc_operator_apply", NULL);
  EXPECT(ekoc_operator_apply(op, 0, good_in, NULL, 14 * nx, NULL), EKOC_ERR_NULL_POINTER, "ekoc_operator_apply", NULL);
  EXPECT(ekoc_operator_apply(op, 3, good_in, pout.buf, 14 * nx, NULL), EKOC_ERR_INVALID_ARGUMENT, "target 3", NULL);
  EXPECT(ekoc_operator_apply(op, 0, good_in, pout.buf, 14 * nx - 1, NULL), EKOC_ERR_BUFFER_TOO_SMALL, "len=69", "70");
  for (k = 0; k < 3; ++k) {
    good_in[17] = non_finite[k];
    EXPECT(ekoc_operator_apply(op, 0, good_in, pout.buf, 14 * nx, NULL), EKOC_ERR_INVALID_ARGUMENT, "pdf_in[17]=",
           gstr(non_finite[k]));
  }
  poison_check(&pout, "ekoc_operator_apply pdf_out", __LINE__);
  (void)pin;
  free(good_in);
  poison_free(&v);
  poison_free(&e);
  poison_free(&pin);
  poison_free(&pout);
  ekoc_operator_free(op);
}

/* ---- ekore C ABI ----------------------------------------------------------------------------------- */

static void expect_ekore(int32_t rc, int32_t want, const char *needle, const char *what, int line) {
  const char *msg = ekore_last_error();
  if (rc != want) fail_msg("line %d: %s returned %d, want %d (message \"%s\")", line, what, (int)rc, (int)want, msg);
  if (needle && !strstr(msg, needle)) fail_msg("line %d: %s: message \"%s\" does not name \"%s\"", line, what, msg, needle);
}
#define EKORE(call, want, needle) expect_ekore((call), (want), (needle), #call, __LINE__)

static void test_ekore_abi(void **state) {
  poisoned re = poison_new(64), im = poison_new(64), re2 = poison_new(64), im2 = poison_new(64);
  double nre[3] = {2.0, 3.0, 4.0}, nim[3] = {0.5, 0.5, 0.5};
  size_t k;
  (void)state;
  EKORE(ekore_beta(4, NULL), EKORE_ERR_NULL, NULL);
  EKORE(ekore_beta(2, re.buf), EKORE_ERR_NF, "2");
  EKORE(ekore_beta(UINT32_MAX, re.buf), EKORE_ERR_NF, "4294967295");
  EKORE(ekore_gamma_ns(0, EKORE_MODE_NS_PLUS, 2.0, 0.5, 4, re.buf, im.buf), EKORE_ERR_ORDER, "0");
  EKORE(ekore_gamma_ns(5, EKORE_MODE_NS_PLUS, 2.0, 0.5, 4, re.buf, im.buf), EKORE_ERR_ORDER, "5");
  EKORE(ekore_gamma_ns(2, 12345, 2.0, 0.5, 4, re.buf, im.buf), EKORE_ERR_MODE, "12345");
  EKORE(ekore_gamma_ns(2, EKORE_MODE_NS_V, 2.0, 0.5, 7, re.buf, im.buf), EKORE_ERR_NF, "7");
  EKORE(ekore_gamma_singlet(3, 2.0, 0.5, 0, re.buf, im.buf), EKORE_ERR_NF, "0");
  for (k = 0; k < 3; ++k) {
    double v = non_finite[k];
    EKORE(ekore_gamma_ns(3, EKORE_MODE_NS_MINUS, v, 0.5, 4, re.buf, im.buf), EKORE_ERR_DOMAIN, NULL);
    EKORE(ekore_gamma_ns(3, EKORE_MODE_NS_MINUS, 2.0, v, 4, re.buf, im.buf), EKORE_ERR_DOMAIN, NULL);
    EKORE(ekore_gamma_singlet(3, v, 0.5, 4, re.buf, im.buf), EKORE_ERR_DOMAIN, NULL);
    EKORE(ekore_gamma_all(3, 2.0, v, 4, re.buf, im.buf, re2.buf, im2.buf), EKORE_ERR_DOMAIN, NULL);
    EKORE(ekore_ome_ns(2, 2.0, 0.5, 4, v, re.buf, im.buf), EKORE_ERR_DOMAIN, NULL);
    EKORE(ekore_ome_singlet(2, 2.0, 0.5, 4, v, re.buf, im.buf), EKORE_ERR_DOMAIN, NULL);
    EKORE(ekore_ome_singlet(2, v, 0.5, 4, 0.0, re.buf, im.buf), EKORE_ERR_DOMAIN, NULL);
    /* a non-finite point in a batch: nothing written for any point */
    nre[2] = v;
    EKORE(ekore_gamma_singlet_batch(3, nre, nim, 3, 4, re.buf, im.buf), EKORE_ERR_DOMAIN, "2");
    EKORE(ekore_gamma_ns_batch(3, EKORE_MODE_NS_PLUS, nre, nim, 3, 4, re.buf, im.buf), EKORE_ERR_DOMAIN, "2");
    nre[2] = 4.0;
  }
  /* poles, huge |N| */
  EKORE(ekore_gamma_singlet(2, 1.0, 0.0, 4, re.buf, im.buf), EKORE_ERR_DOMAIN, NULL);
  EKORE(ekore_gamma_ns(2, EKORE_MODE_NS_PLUS, 0.0, 0.0, 4, re.buf, im.buf), EKORE_ERR_DOMAIN, NULL);
  EKORE(ekore_gamma_ns(2, EKORE_MODE_NS_PLUS, -3.0, 0.0, 4, re.buf, im.buf), EKORE_ERR_DOMAIN, NULL);
  EKORE(ekore_gamma_ns(1, EKORE_MODE_NS_PLUS, 2.0 * EKORE_N_MAX, 0.0, 4, re.buf, im.buf), EKORE_ERR_DOMAIN, NULL);
  EKORE(ekore_ome_ns(0, 2.0, 0.5, 4, 0.0, re.buf, im.buf), EKORE_ERR_ORDER, "0");
  EKORE(ekore_ome_ns(4, 2.0, 0.5, 4, 0.0, re.buf, im.buf), EKORE_ERR_ORDER, "4");
  EKORE(ekore_gamma_singlet_batch(3, NULL, nim, 3, 4, re.buf, im.buf), EKORE_ERR_NULL, NULL);
  EKORE(ekore_gamma_ns_batch(3, EKORE_MODE_NS_PLUS, nre, nim, 3, 4, re.buf, NULL), EKORE_ERR_NULL, NULL);
  EKORE(ekore_gamma_all(3, 2.0, 0.5, 4, re.buf, im.buf, NULL, im2.buf), EKORE_ERR_NULL, NULL);
  /* the physics choice of the _physics forms: 0 (eko's) or 1 (exact), checked before the points */
  EKORE(ekore_gamma_ns_all_batch_physics(2, NULL, 2, nre, nim, 3, 4, re.buf, im.buf), EKORE_ERR_PHYSICS,
        "ekore_gamma_ns_all_batch_physics: physics = 2");
  EKORE(ekore_ome_singlet_physics(2, UINT32_MAX, 2.0, 0.5, 4, 0.0, re.buf, im.buf), EKORE_ERR_PHYSICS, "4294967295");
  EKORE(ekore_gamma_singlet_batch_pol_physics(2, 5, nre, nim, 3, 4, re.buf, im.buf), EKORE_ERR_PHYSICS, "5");
  /* count 0 with valid pointers: nothing to do, nothing written */
  EKORE(ekore_gamma_singlet_batch(3, nre, nim, 0, 4, re.buf, im.buf), EKORE_OK, NULL);
  poison_check(&re, "ekore out_re", __LINE__);
  poison_check(&im, "ekore out_im", __LINE__);
  poison_check(&re2, "ekore s_re", __LINE__);
  poison_check(&im2, "ekore s_im", __LINE__);
  poison_free(&re);
  poison_free(&im);
  poison_free(&re2);
  poison_free(&im2);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_status_str),
      cmocka_unit_test(test_grid_lambert),
      cmocka_unit_test(test_interp_alloc),
      cmocka_unit_test(test_interp_eval),
      cmocka_unit_test(test_beta),
      cmocka_unit_test(test_nspace_evaluate),
      cmocka_unit_test(test_nspace_overflow),
      cmocka_unit_test(test_bindings_helpers),
      cmocka_unit_test(test_workspace),
      cmocka_unit_test(test_quad_integrate),
      cmocka_unit_test(test_quad_integrate_bad),
      cmocka_unit_test(test_quad_kernel),
      cmocka_unit_test(test_profile),
      cmocka_unit_test(test_couplings_new),
      cmocka_unit_test(test_couplings_use),
      cmocka_unit_test(test_compute_base_ok),
      cmocka_unit_test(test_compute_null),
      cmocka_unit_test(test_compute_theory),
      cmocka_unit_test(test_compute_request_scales),
      cmocka_unit_test(test_compute_request_grid),
      cmocka_unit_test(test_compute_request_controls),
      cmocka_unit_test(test_compute_cancelled),
      cmocka_unit_test(test_compute_gpu_unavailable),
      cmocka_unit_test(test_operator_accessors),
      cmocka_unit_test(test_ekore_abi),
  };
  if (argc > 1) cmocka_set_test_filter(argv[1]);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
