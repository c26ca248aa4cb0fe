/* test_msbar.c: MSbar heavy-quark masses in the C API (src/evol/msbar.c,
 * docs/physics.md §17): ekoc_theory_masses against eko 0.15.7's
 * msbar_masses.compute (expanded coupling: to rounding; exact: within eko's
 * a_s tolerance), the pole masses passed through, the refusals naming the
 * field, and the N-space configuration's mass_scheme (the OMEs' MSbar
 * terms move the gluon column only; bad values refused). The wide comparisons against eko are ffi/tests/test_msbar.py and
 * test_solve_vs_eko.py. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "ekoc.h"
#include "test_util.h"

/* eko's MSbar example card of ffi/tests/cards.py: alpha_s(91.2) = 0.118
 * (nf 5), m_c(10) = 0.95, m_b(10) = 3.6, m_t(100) = 165, NNLO */
static void msbar_theory(ekoc_theory *th) {
  ekoc_theory_default(th);
  th->order = 3;
  th->alphas = 0.118;
  th->mu2_ref = 91.2 * 91.2;
  th->nf_ref = 5;
  th->masses[0] = 0.95;
  th->masses[1] = 3.6;
  th->masses[2] = 165.0;
  th->mass_scales[0] = 10.0;
  th->mass_scales[1] = 10.0;
  th->mass_scales[2] = 100.0;
  th->masses_scheme = EKOC_MASSES_MSBAR;
}

static void test_vs_eko(void **state) {
  (void)state;
  /* eko 0.15.7 msbar_masses.compute(..., (3, 0), EXPANDED / EXACT, [1, 1, 1]): m(m)^2 */
  static const double expanded[3] = {2.0411421899895954, 17.15523563389541, 25248.89529083876};
  static const double exact[3] = {2.0464110417440136, 17.165689583600994, 25248.94357295393};
  ekoc_theory th;
  double m[3];
  msbar_theory(&th);
  assert_int_equal(ekoc_theory_masses(&th, EKOC_METHOD_TRUNCATED, m), EKOC_OK);
  for (int h = 0; h < 3; ++h) assert_true(fabs(m[h] * m[h] / expanded[h] - 1.0) < 1e-12);
  assert_int_equal(ekoc_theory_masses(&th, EKOC_METHOD_ITERATE_EXACT, m), EKOC_OK);
  for (int h = 0; h < 3; ++h) assert_true(fabs(m[h] * m[h] / exact[h] - 1.0) < 1e-6); /* eko's a_s: rtol 1e-6 */
  /* pole masses pass through */
  ekoc_theory_default(&th);
  assert_int_equal(ekoc_theory_masses(&th, EKOC_METHOD_ITERATE_EXACT, m), EKOC_OK);
  assert_true(m[0] == sqrt(2.0) && m[1] == 4.5 && m[2] == 175.0);
}

static void test_refusals(void **state) {
  (void)state;
  ekoc_theory th;
  double m[3] = {-1.0, -1.0, -1.0};
  assert_int_equal(ekoc_theory_masses(NULL, 0, m), EKOC_ERR_NULL_POINTER);
  msbar_theory(&th);
  assert_int_equal(ekoc_theory_masses(&th, 0, NULL), EKOC_ERR_NULL_POINTER);
  assert_int_equal(ekoc_theory_masses(&th, 99, m), EKOC_ERR_INVALID_METHOD);
  th.masses_scheme = 2;
  assert_int_equal(ekoc_theory_masses(&th, 0, m), EKOC_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(ekoc_last_error(), "theory.masses_scheme=2"));
  msbar_theory(&th);
  th.mass_scales[1] = NAN;
  assert_int_equal(ekoc_theory_masses(&th, 0, m), EKOC_ERR_INVALID_THRESHOLDS);
  assert_non_null(strstr(ekoc_last_error(), "theory.mass_scales[1]"));
  msbar_theory(&th);
  th.mass_scales[1] = 95.0; /* b above the reference scale with nf_ref = 5: eko's rule */
  assert_int_equal(ekoc_theory_masses(&th, 0, m), EKOC_ERR_INVALID_THRESHOLDS);
  assert_non_null(strstr(ekoc_last_error(), "theory.masses[1] (bottom, MSbar)"));
  msbar_theory(&th);
  th.masses[0] = 5.0; /* m_c(m_c) above m_b(m_b) */
  assert_int_equal(ekoc_theory_masses(&th, 0, m), EKOC_ERR_INVALID_THRESHOLDS);
  assert_non_null(strstr(ekoc_last_error(), "not ascending"));
  assert_true(m[0] == -1.0); /* untouched */
}

static void test_nspace_mass_scheme(void **state) {
  (void)state;
  ekoc_nspace_config c;
  double re[27], im[27], re1[27], im1[27];
  memset(&c, 0, sizeof c);
  c.kind = EKOC_KIND_MATCHING;
  c.family = EKOC_FAMILY_SINGLET;
  c.order = 2;
  c.nf = 4;
  c.a1 = 0.02;
  c.ome_log = 0.3;
  assert_int_equal(ekoc_beta(5, c.beta), EKOC_OK);
  assert_int_equal(ekoc_nspace_evaluate(&c, 2.5, 1.0, re, im, 9), EKOC_OK);
  c.mass_scheme = EKOC_MASSES_MSBAR;
  assert_int_equal(ekoc_nspace_evaluate(&c, 2.5, 1.0, re1, im1, 9), EKOC_OK);
  /* the matching matrix moves in the gluon column (A_gg, A_Hg) only */
  for (int i = 0; i < 9; ++i) {
    if (i == 0 || i == 6)
      assert_true(re1[i] != re[i]);
    else
      assert_true(re1[i] == re[i] && im1[i] == im[i]);
  }
  c.mass_scheme = 2;
  assert_int_equal(ekoc_nspace_evaluate(&c, 2.5, 1.0, re1, im1, 9), EKOC_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(ekoc_last_error(), "mass_scheme=2"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vs_eko),
      cmocka_unit_test(test_refusals),
      cmocka_unit_test(test_nspace_mass_scheme),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
