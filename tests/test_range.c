/* test_range.c: the numerical range of ekoc_compute (issue 7, item 6): x grids
 * down to 1e-9, mu^2 up to 1e8 GeV^2, nf = 6, many target scales at once,
 * every solution method and order, extreme but valid theories. The contract
 * is "finite results or a clean error, never NaN in an output": every
 * success is checked entry by entry (values, errors, the evolution-basis
 * view and an applied PDF), every failure must carry a status and a message.
 * Beyond finiteness: the two independent CPU quadratures (adaptive, batch)
 * agree entry by entry at the edges of the range, and a coupling that does
 * not run gives the identity. Includes the fuzz findings that produced NaN
 * with EKOC_OK.
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

#include "ekoc.h"
#include "test_util.h"

#define NB 14
/* flavour-basis index of the PDG ids (22, -6..-1, 21, 1..6) */
static int fl(int pid) { return pid == 22 ? 0 : pid == 21 ? 7 : pid < 0 ? 7 + pid : 7 + pid; }

/* Every entry of every target finite (values and errors, flavour and
 * evolution views, an applied PDF); returns the number of entries checked. */
static size_t assert_all_finite(const ekoc_operator *op, const char *what) {
  size_t nt = ekoc_operator_n_targets(op), nx = ekoc_operator_nx(op), len = (size_t)NB * NB * nx * nx, i, k, n = 0;
  double *v = malloc(len * sizeof *v), *e = malloc(len * sizeof *e);
  double *pin = malloc(NB * nx * sizeof *pin), *pout = malloc(NB * nx * sizeof *pout);
  assert_non_null(v);
  assert_non_null(e);
  assert_non_null(pin);
  assert_non_null(pout);
  for (k = 0; k < NB * nx; ++k) pin[k] = 1.0 + 0.01 * (double)k;
  for (i = 0; i < nt; ++i) {
    assert_int_equal(ekoc_operator_flavor(op, i, v, e, len), EKOC_OK);
    for (k = 0; k < len; ++k)
      if (!isfinite(v[k]) || !isfinite(e[k]) || e[k] < 0.0)
        fail_msg("%s: target %zu flavour entry %zu = %g +- %g", what, i, k, v[k], e[k]);
    assert_int_equal(ekoc_operator_evolution(op, i, v, e, len), EKOC_OK);
    for (k = 0; k < len; ++k)
      if (!isfinite(v[k]) || !isfinite(e[k])) fail_msg("%s: target %zu evolution entry %zu = %g +- %g", what, i, k, v[k], e[k]);
    assert_int_equal(ekoc_operator_apply(op, i, pin, pout, NB * nx, NULL), EKOC_OK);
    for (k = 0; k < NB * nx; ++k)
      if (!isfinite(pout[k])) fail_msg("%s: target %zu pdf_out[%zu] = %g", what, i, k, pout[k]);
    n += len;
  }
  free(v);
  free(e);
  free(pin);
  free(pout);
  return n;
}

/* Computes; on success checks every entry and returns the operator, on
 * failure checks that the error is clean (status, message) and returns NULL. */
static ekoc_operator *compute_checked(const ekoc_theory *th, const ekoc_request *rq, const char *what) {
  ekoc_operator *op = NULL;
  int rc = ekoc_compute(th, rq, NULL, &op);
  if (rc != EKOC_OK) {
    if (op != NULL) fail_msg("%s: *out written on failure", what);
    if (ekoc_last_error()[0] == '\0') fail_msg("%s: %s without a message", what, ekoc_status_str(rc));
    return NULL;
  }
  assert_non_null(op);
  assert_all_finite(op, what);
  return op;
}

static void lambert(size_t n, double xmin, double *x) { assert_int_equal(ekoc_grid_lambert(n, xmin, x), EKOC_OK); }

/* ---- x down to 1e-9, mu^2 up to 1e8, nf = 6, many targets ---------------------------- */

/* NNLO VFNS from mu_0^2 = 2 to 40 targets log-spaced in [1.5, 1e8] GeV^2 (3..6
 * flavours, so the top threshold is crossed), on a 12-point lambertgrid from
 * 1e-9; every entry finite; the targets get nf 3..6 as eko's default. */
static void test_wide_range_nnlo(void **state) {
  enum { NT = 40, NX = 12 };
  double x[NX], mu2[NT];
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op;
  int seen[7] = {0};
  size_t i;
  (void)state;
  lambert(NX, 1e-9, x);
  for (i = 0; i < NT; ++i) mu2[i] = 1.5 * pow(1e8 / 1.5, (double)i / (NT - 1));
  ekoc_theory_default(&th);
  ekoc_request_default(&rq);
  rq.mu2 = mu2;
  rq.n_targets = NT;
  rq.xgrid = x;
  rq.nx = NX;
  rq.degree = 3;
  op = compute_checked(&th, &rq, "NNLO 1e-9 / 1e8");
  assert_non_null(op);
  assert_int_equal(ekoc_operator_n_targets(op), NT);
  for (i = 0; i < NT; ++i) {
    double m;
    int32_t nf;
    assert_int_equal(ekoc_operator_target(op, i, &m, &nf), EKOC_OK);
    assert_true(m == mu2[i]);
    seen[nf] = 1;
  }
  assert_true(seen[3] && seen[4] && seen[5] && seen[6]);
  ekoc_operator_free(op);
}

/* The two CPU quadratures (adaptive GSL QAGS per entry, fixed-node batch)
 * are independent: at the edges of the range (x = 1e-9, a target above the
 * top threshold at 1e8 GeV^2 and one below the charm threshold) they must
 * still agree to the adaptive tolerance, entry by entry. */
static void test_backends_agree_at_edges(void **state) {
  enum { NX = 12 };
  double x[NX], mu2[2] = {1.5, 1e8};
  size_t len = (size_t)NB * NB * NX * NX, t, k;
  double *v[2];
  int b;
  (void)state;
  lambert(NX, 1e-9, x);
  for (b = 0; b < 2; ++b) {
    ekoc_theory th;
    ekoc_request rq;
    ekoc_operator *op;
    ekoc_theory_default(&th);
    ekoc_request_default(&rq);
    rq.mu2 = mu2;
    rq.n_targets = 2;
    rq.xgrid = x;
    rq.nx = NX;
    rq.degree = 3;
    rq.backend = b == 0 ? EKOC_BACKEND_ADAPTIVE : EKOC_BACKEND_BATCH;
    op = compute_checked(&th, &rq, b == 0 ? "adaptive edges" : "batch edges");
    assert_non_null(op);
    v[b] = malloc(2 * len * sizeof(double));
    assert_non_null(v[b]);
    for (t = 0; t < 2; ++t) assert_int_equal(ekoc_operator_flavor(op, t, v[b] + t * len, NULL, len), EKOC_OK);
    ekoc_operator_free(op);
  }
  for (t = 0; t < 2; ++t) {
    double big = 0.0;
    for (k = 0; k < len; ++k) big = fmax(big, fabs(v[0][t * len + k]));
    assert_true(big > 1.0);
    /* epsrel 1e-5 per part entry; composition and rotations spread it a little */
    for (k = 0; k < len; ++k) assert_close(v[1][t * len + k], v[0][t * len + k], 1e-4, 1e-9 * big);
  }
  free(v[0]);
  free(v[1]);
}

/* Every method and order, x down to 1e-9, a target at 1e8 GeV^2 (through
 * every threshold, nf = 6) and a downward one (nf = 3), on a tiny grid:
 * finite everywhere. */
static void test_all_methods_orders(void **state) {
  enum { NX = 5, NT = 2 };
  double x[NX], mu2[NT] = {1.2, 1e8};
  int order, method, n_ok = 0;
  (void)state;
  lambert(NX, 1e-9, x);
  for (order = 1; order <= 3; ++order)
    for (method = 0; method < EKOC_METHOD_COUNT; ++method) {
      ekoc_theory th;
      ekoc_request rq;
      ekoc_operator *op;
      char what[64];
      ekoc_theory_default(&th);
      th.order = order;
      ekoc_request_default(&rq);
      rq.mu2 = mu2;
      rq.n_targets = NT;
      rq.xgrid = x;
      rq.nx = NX;
      rq.degree = 2;
      rq.method = method;
      rq.ev_op_iterations = 4;
      rq.epsrel = 1e-4;
      rq.n_threads = 2;
      snprintf(what, sizeof what, "order %d method %d", order, method);
      op = compute_checked(&th, &rq, what);
      if (op) ++n_ok;
      ekoc_operator_free(op);
    }
  /* these are all physical setups: every one must actually compute */
  assert_int_equal(n_ok, 3 * EKOC_METHOD_COUNT);
}

/* Scale variations at the edges (xif = 1/2 and 2, both schemes) with targets
 * up to 1e8 and x down to 1e-9. */
static void test_scale_variation_range(void **state) {
  enum { NX = 5, NT = 3 };
  double x[NX], mu2[NT] = {3.0, 1e4, 1e8}, xifs[2] = {0.5, 2.0};
  int sv, k;
  (void)state;
  lambert(NX, 1e-9, x);
  for (sv = EKOC_SV_EXPONENTIATED; sv <= EKOC_SV_EXPANDED; ++sv)
    for (k = 0; k < 2; ++k) {
      ekoc_theory th;
      ekoc_request rq;
      ekoc_operator *op;
      char what[64];
      ekoc_theory_default(&th);
      th.xif = xifs[k];
      ekoc_request_default(&rq);
      rq.mu2 = mu2;
      rq.n_targets = NT;
      rq.xgrid = x;
      rq.nx = NX;
      rq.degree = 2;
      rq.sv_mode = sv;
      rq.epsrel = 1e-4;
      snprintf(what, sizeof what, "sv %d xif %g", sv, xifs[k]);
      op = compute_checked(&th, &rq, what);
      assert_non_null(op);
      ekoc_operator_free(op);
    }
}

/* Near the Landau pole and far beyond the physical range: a clean error
 * (status + message) or finite numbers, never NaN. */
static void test_extremes_clean(void **state) {
  enum { NX = 4 };
  double x[NX] = {1e-9, 1e-5, 0.1, 1.0};
  static const double targets[] = {0.8, 1e-3, 1e30};
  static const double alphas[] = {1e-6, 0.118, 3.0, 12.0};
  size_t i, a;
  (void)state;
  for (a = 0; a < sizeof alphas / sizeof alphas[0]; ++a)
    for (i = 0; i < sizeof targets / sizeof targets[0]; ++i) {
      ekoc_theory th;
      ekoc_request rq;
      char what[64];
      double m[1];
      m[0] = targets[i];
      ekoc_theory_default(&th);
      th.alphas = alphas[a];
      ekoc_request_default(&rq);
      rq.mu2 = m;
      rq.n_targets = 1;
      rq.xgrid = x;
      rq.nx = NX;
      rq.degree = 1;
      rq.epsrel = 1e-3;
      rq.limit = 30;
      snprintf(what, sizeof what, "alphas %g mu2 %g", alphas[a], targets[i]);
      ekoc_operator_free(compute_checked(&th, &rq, what));
    }
}

/* ---- fuzz findings ------------------------------------------------------------------ */

/* fuzz_compute: x grid with a point at DBL_MIN (ln x = -708) and limit 1: the
 * failed QAGS integrals had NaN estimates that were kept (EKOC_OK, NaN
 * entries). Now a clean EKOC_ERR_NUMERICAL; same with the default limit. */
static void test_fuzz_tiny_x(void **state) {
  double x[2] = {2.2250738585072626e-308, 1.0}, mu2[1] = {99.999999999999972};
  ekoc_theory th;
  ekoc_request rq;
  int limits[2] = {1, 100}, l;
  (void)state;
  for (l = 0; l < 2; ++l) {
    ekoc_operator *op;
    ekoc_theory_default(&th);
    th.order = 3;
    th.alphas = 0.5;
    th.mu2_ref = 0.5;
    th.nf_ref = 5;
    th.masses[0] = th.masses[1] = th.masses[2] = 0.5;
    th.matching_order = 0;
    ekoc_request_default(&rq);
    rq.mu2_0 = 9.9999999999999982;
    rq.nf0 = 4;
    rq.mu2 = mu2;
    rq.n_targets = 1;
    rq.xgrid = x;
    rq.nx = 2;
    rq.degree = 1;
    rq.ev_op_iterations = 1;
    rq.ev_op_max_order = 1;
    rq.epsabs = 1e-8;
    rq.epsrel = 1e-4;
    rq.limit = limits[l];
    rq.n_threads = 1;
    op = compute_checked(&th, &rq, "tiny x");
    ekoc_operator_free(op);
  }
}

/* fuzz_compute: alpha_s = 2.2e-16 with all thresholds near 1e-63 GeV^2: the
 * coupling barely runs, a0 and a1 of the nf = 4 segment differ in the 14th
 * digit, the iterate-expanded singlet kernel took exp of an exactly zero
 * matrix step (degenerate eigenvalues: NaN), and the N-independent-element
 * probe took the NaN for a constant: EKOC_OK with NaN entries. Now finite,
 * and the gluon block is the identity (nothing runs). */
static void test_fuzz_frozen_coupling(void **state) {
  double e = 2.2204460492503131e-16;
  double x[4] = {4.7817624989501897e-05, 0.0013174232829124021, 0.036296326024990493, 1.0}, mu2[2] = {e, 1.0};
  int32_t limits[2] = {1, 100};
  int l;
  (void)state;
  for (l = 0; l < 2; ++l) {
    ekoc_theory th;
    ekoc_request rq;
    ekoc_operator *op;
    size_t t;
    ekoc_theory_default(&th);
    th.order = 3;
    th.alphas = e;
    th.mu2_ref = e;
    th.nf_ref = 5;
    th.masses[0] = th.masses[1] = th.masses[2] = e;
    th.matching_ratios[0] = th.matching_ratios[1] = e;
    th.matching_ratios[2] = 1.0;
    ekoc_request_default(&rq);
    rq.mu2_0 = 0.5;
    rq.nf0 = 4;
    rq.mu2 = mu2;
    rq.n_targets = 2;
    rq.xgrid = x;
    rq.nx = 4;
    rq.degree = 1;
    rq.method = EKOC_METHOD_ITERATE_EXPANDED;
    rq.ev_op_iterations = 5;
    rq.ev_op_max_order = 5;
    rq.epsabs = 1e-8;
    rq.epsrel = 1e-4;
    rq.limit = limits[l]; /* the fuzz input had 1 */
    rq.n_threads = 1;
    op = compute_checked(&th, &rq, "frozen coupling");
    assert_non_null(op);
    /* with a_s ~ 1e-17 nothing evolves: the gluon block is the identity up to
     * the quadrature (single 21-point rules with limit 1) */
    for (t = 0; t < 2; ++t) {
      double v[NB * NB * 16];
      size_t k, j;
      assert_int_equal(ekoc_operator_flavor(op, t, v, NULL, sizeof v / sizeof v[0]), EKOC_OK);
      for (k = 0; k < 4; ++k)
        for (j = 0; j < 4; ++j)
          assert_close(v[((fl(21) * 4 + k) * NB + fl(21)) * 4 + j], k == j ? 1.0 : 0.0, 0.0, l == 0 ? 1e-5 : 1e-7);
    }
    ekoc_operator_free(op);
  }
}

/* fuzz_compute: x down to 2.8e-135 with limit 1: the failed integrals' estimates
 * (~1e42 +- 1e45) are finite, but the products of four parts on the way
 * down from nf = 6 to nf = 3 overflowed, so EKOC_OK came with inf and NaN
 * entries. Now a clean EKOC_ERR_NUMERICAL naming the target. */
static void test_fuzz_overflow(void **state) {
  double x[4] = {2.7516420536595327e-135, 1.9636373861190601e-90, 1.4012984643248062e-45, 1.0};
  double mu2[3] = {2.1350682617126955, 1.0, 1.0};
  int32_t nf[3] = {-1, -1, 3};
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = NULL;
  int rc;
  (void)state;
  ekoc_theory_default(&th);
  th.order = 2;
  th.alphas = 0.050000000000000003;
  th.mu2_ref = 26.757835555986315;
  th.nf_ref = 6;
  th.masses[0] = 1.0549019607843138;
  th.masses[1] = 3.0;
  th.masses[2] = 100.0;
  ekoc_request_default(&rq);
  rq.mu2_0 = 11.764899870201861;
  rq.nf0 = 6;
  rq.mu2 = mu2;
  rq.nf = nf;
  rq.n_targets = 3;
  rq.xgrid = x;
  rq.nx = 4;
  rq.degree = 1;
  rq.ev_op_iterations = 1;
  rq.ev_op_max_order = 1;
  rq.epsabs = 1e-8;
  rq.epsrel = 1e-4;
  rq.limit = 1;
  rq.n_threads = 1;
  rc = ekoc_compute(&th, &rq, NULL, &op);
  if (rc == EKOC_OK) {
    assert_all_finite(op, "overflow case");
    ekoc_operator_free(op);
  } else {
    assert_int_equal(rc, EKOC_ERR_NUMERICAL);
    assert_null(op);
    assert_non_null(strstr(ekoc_last_error(), "non-finite"));
  }
}

/* The same kernel directly: a singlet iterate step of zero length. */
static void test_fuzz_frozen_kernel(void **state) {
  ekoc_nspace_config c;
  double re[4], im[4], a = 1.7669748230352514e-17;
  int m;
  (void)state;
  for (m = 0; m < EKOC_METHOD_COUNT; ++m) {
    memset(&c, 0, sizeof c);
    c.kind = EKOC_KIND_EVOLUTION;
    c.family = EKOC_FAMILY_SINGLET;
    c.order = 3;
    c.nf = 4;
    c.method = m;
    c.ev_op_iterations = 5;
    c.ev_op_max_order = 5;
    c.a0 = a;
    c.a1 = 1.7669748230352887e-17;
    assert_int_equal(ekoc_beta(4, c.beta), EKOC_OK);
    if (ekoc_nspace_evaluate(&c, 2.0, 1.0, re, im, 4) != EKOC_OK)
      fail_msg("method %d: %s", m, ekoc_last_error());
    /* E = 1 + O(a1 - a0) */
    assert_close(re[0], 1.0, 0.0, 1e-12);
    assert_close(re[3], 1.0, 0.0, 1e-12);
    assert_close(re[1], 0.0, 0.0, 1e-12);
    assert_close(re[2], 0.0, 0.0, 1e-12);
    assert_close(im[0], 0.0, 0.0, 1e-12);
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fuzz_frozen_kernel),
      cmocka_unit_test(test_fuzz_frozen_coupling),
      cmocka_unit_test(test_fuzz_tiny_x),
      cmocka_unit_test(test_fuzz_overflow),
      cmocka_unit_test(test_extremes_clean),
      cmocka_unit_test(test_scale_variation_range),
      cmocka_unit_test(test_all_methods_orders),
      cmocka_unit_test(test_wide_range_nnlo),
      cmocka_unit_test(test_backends_agree_at_edges),
  };
  if (argc > 1) cmocka_set_test_filter(argv[1]); /* e.g. test_range 'test_fuzz_*' */
  return cmocka_run_group_tests(tests, NULL, NULL);
}
