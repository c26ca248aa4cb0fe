/* test_qed_photon.c: the photon-photon element of a QED singlet kernel does
 * not decay along the Mellin contour (it tends to a constant c, ad/nspace.h
 * ekoc_nspace_qed_photon_limit), so ekoc inverts E - c and adds c delta_kj
 * exactly (docs/physics.md §15.3). Checked here, with eko's quadrature
 * settings (QAGS, epsabs 1e-12, epsrel 1e-5): E(N) -> c at large N; the
 * subtracted inversion at eko's cut 0.05 equals the plain inversion as the
 * cut goes to 0; and the plain inversion at cut 0.05 (what eko computes)
 * misses that limit by more than its own tolerance -- the difference of
 * ekoc's photon entries to eko's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ekoc.h"

#include "ad/beta.h"
#include "ad/nspace.h"

#define STEPS 8

static double couplings[3 * STEPS + 1];

/* A QED singlet family for one segment, 2.72 -> 1e4 GeV^2 at nf = 4 style
 * couplings (a_s falling 0.0226 -> 0.0093, a_em about 6e-4). */
static ekoc_nspace_config qed_singlet(int order, int qed_order) {
  ekoc_nspace_config c;
  int i;
  memset(&c, 0, sizeof c);
  for (i = 0; i <= STEPS; ++i) couplings[i] = 0.0226 / (1.0 + 0.1798 * i);
  for (i = 0; i < STEPS; ++i) {
    couplings[STEPS + 1 + i] = 0.5 * (couplings[i] + couplings[i + 1]);
    couplings[2 * STEPS + 1 + i] = 5.9e-4 + 1e-5 * i;
  }
  c.kind = EKOC_KIND_EVOLUTION;
  c.family = EKOC_FAMILY_QED_SINGLET;
  c.order = order;
  c.nf = 4;
  c.method = EKOC_METHOD_ITERATE_EXACT;
  c.ev_op_iterations = STEPS;
  c.ev_op_max_order = 10;
  c.qed_order = qed_order;
  c.em_running = 1;
  c.lepton_number = 3;
  c.qed_log_step = log(2.72 / 1e4) / STEPS;
  c.qed_couplings = couplings;
  c.a0 = couplings[0];
  c.a1 = couplings[STEPS];
  ekoc_beta_coefficients(4, c.beta);
  return c;
}

static void test_photon_tends_to_the_limit(void **state) {
  ekoc_nspace_config c = qed_singlet(3, 2);
  double limit = ekoc_nspace_qed_photon_limit(&c), re[16], im[16], prev = INFINITY;
  double n;
  (void)state;
  for (n = 1e2; n <= 1e5; n *= 10.0) { /* the crate takes |N| <= 1e5 */
    double dev;
    int rc = ekoc_nspace_evaluate(&c, n, 0.0, re, im, 16);
    if (rc != EKOC_OK) fail_msg("N=%g: %s", n, ekoc_last_error());
    dev = hypot(re[5] - limit, im[5]);
    assert_true(dev < prev); /* closer and closer */
    prev = dev;
  }
  assert_true(prev < 1e-7 * limit);
  assert_true(fabs(limit - 1.0) > 1e-4); /* the photon does evolve */
}

/* Value of entry (x_k, basis j) of the photon element with GSL QAGS. */
static double entry(ekoc_nspace_config *c, const ekoc_interp *interp, const double *x, int k, int j,
                    double subtract, double cut, ekoc_quad_workspace *ws) {
  ekoc_kernel_args a;
  double v = 0.0, err = 0.0;
  memset(&a, 0, sizeof a);
  a.nspace = *c;
  a.element = 5;
  a.degree = 4;
  a.logx = log(x[k]);
  a.interp = interp;
  a.basis_index = j;
  a.subtract = subtract;
  a.workspace = ws;
  assert_int_equal(ekoc_quad_integrate(&a, cut, 1e-12, 1e-5, 1000, &v, &err), EKOC_OK);
  return v + (k == j ? subtract : 0.0);
}

static void test_subtraction_is_the_converged_inversion(void **state) {
  ekoc_nspace_config c = qed_singlet(2, 2);
  double x[12], limit = ekoc_nspace_qed_photon_limit(&c), worst_eko = 0.0;
  ekoc_interp *interp = NULL;
  ekoc_quad_workspace *ws = NULL;
  int k, j;
  (void)state;
  assert_int_equal(ekoc_grid_lambert(12, 1e-4, x), EKOC_OK);
  assert_int_equal(ekoc_interp_alloc(x, 12, 4, &interp), EKOC_OK);
  assert_int_equal(ekoc_quad_workspace_alloc(1000, &ws), EKOC_OK);
  assert_int_equal(ekoc_quad_workspace_reserve_basis(ws, 12), EKOC_OK);
  for (k = 0; k < 11; ++k)
    for (j = 0; j < 12; j += 3) {
      double sub = entry(&c, interp, x, k, j, limit, 0.05, ws);      /* ekoc */
      double plain = entry(&c, interp, x, k, j, 0.0, 0.05, ws);      /* eko */
      double converged = entry(&c, interp, x, k, j, 0.0, 1e-3, ws);  /* the cut to 0 */
      assert_true(fabs(sub - converged) <= 2e-5 * fmax(fabs(converged), 1e-3));
      /* in units of QAGS's tolerance max(epsabs, epsrel |I|) */
      worst_eko = fmax(worst_eko, fabs(plain - converged) / fmax(1e-12, 1e-5 * fabs(converged)));
    }
  printf("photon-photon entries: eko's cut 0.05 misses the converged inversion by up to %.3g tolerances\n",
         worst_eko);
  assert_true(worst_eko > 1.0);
  ekoc_quad_workspace_free(ws);
  ekoc_interp_free(interp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_photon_tends_to_the_limit),
      cmocka_unit_test(test_subtraction_is_the_converged_inversion),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
