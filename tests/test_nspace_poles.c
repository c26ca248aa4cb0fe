/* test_nspace_poles.c: the spurious poles of the truncated and perturbative
 * singlet solutions on the N-space backend (src/evol/nspace_poles.h,
 * docs/physics.md §3.1, §3.3): where they are, which paths enclose them,
 * where the band paths go. The operators themselves are checked against
 * batch in ffi/tests/test_nspace_backend.py. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ad/nspace.h"
#include "ekoc.h"
#include "evol/nspace_poles.h"
#include "quad/talbot.h"
#include "singlet_cfg.h"

static ekoc_nspace_config singlet_cfg(int nf, int order, int method, int max_order) {
  ekoc_nspace_config c = test_singlet_cfg(nf, order, method, max_order);
  assert_int_equal(c.nf, nf);
  return c;
}

/* The pole of s nearest to (re, im), and its distance. */
static double nearest(const ekoc_pole_set *s, double re, double im) {
  double best = INFINITY;
  size_t i;
  for (i = 0; i < s->n; ++i) best = fmin(best, hypot(s->pole[i].re - re, s->pole[i].im - im));
  return best;
}

/* NNLO truncated, nf = 5 (K = 3: k = 1, 2): the real poles docs/physics.md
 * §3.1 lists (k = 1 at 1.900 and 3.180, k = 2 at 1.535 and 9.476, from an
 * independent Newton search) and the complex k = 1 pair at -0.050 +- 0.884i;
 * no real pole is missed or doubled. */
static void test_nnlo_nf5_poles(void **state) {
  ekoc_nspace_config c = singlet_cfg(5, 3, EKOC_METHOD_TRUNCATED, 10);
  ekoc_pole_set s;
  size_t i, n_real = 0;
  (void)state;
  memset(&s, 0, sizeof s);
  assert_int_equal(ekoc_poles_of_family(&c, 100.0, 1, &s), EKOC_OK);
  assert_true(nearest(&s, 1.900, 0.0) < 2e-3);
  assert_true(nearest(&s, 3.180, 0.0) < 2e-3);
  assert_true(nearest(&s, 1.535, 0.0) < 1e-3);
  assert_true(nearest(&s, 9.476, 0.0) < 2e-3);
  assert_true(nearest(&s, -0.050, 0.884) < 2e-3);
  for (i = 0; i < s.n; ++i) {
    assert_true(s.pole[i].im >= 0.0);
    assert_int_equal(s.pole[i].nf, 5);
    n_real += s.pole[i].im == 0.0;
  }
  assert_int_equal(n_real, 4);
  ekoc_poles_free(&s);
}

/* Methods without U_k poles (and LO) have none; the perturbative ones have
 * poles for every k < ev_op_max_order, crowding towards N = 1. */
static void test_which_methods(void **state) {
  ekoc_nspace_config c = singlet_cfg(5, 3, EKOC_METHOD_ITERATE_EXACT, 10);
  ekoc_pole_set s;
  (void)state;
  memset(&s, 0, sizeof s);
  assert_int_equal(ekoc_poles_of_family(&c, 100.0, 1, &s), EKOC_OK);
  assert_int_equal(s.n, 0);
  c = singlet_cfg(5, 1, EKOC_METHOD_TRUNCATED, 10);
  assert_int_equal(ekoc_poles_of_family(&c, 100.0, 1, &s), EKOC_OK);
  assert_int_equal(s.n, 0);
  c = singlet_cfg(5, 3, EKOC_METHOD_PERTURBATIVE_EXACT, 10);
  assert_int_equal(ekoc_poles_of_family(&c, 100.0, 0, &s), EKOC_OK);
  assert_true(s.n > 4);
  assert_true(nearest(&s, 1.313, 0.0) < 5e-3); /* k = 4 (docs/physics.md §3.1) */
  ekoc_poles_free(&s);
}

/* Enclosure by a path o + r (theta cot theta + i h theta): a real pole is
 * inside when left of the crossing o + r; a complex one when the path at its
 * height passes right of it; eko's paths (h = 1) enclose -0.050 + 0.884i
 * from r* = 0.362 up, the taller band paths (h = 1.5) from a smaller r. */
static void test_inside(void **state) {
  (void)state;
  assert_true(ekoc_pole_inside(1.5, 0.0, 1.0, 0.6, 1.0));
  assert_false(ekoc_pole_inside(1.5, 0.0, 1.0, 0.4, 1.0));
  assert_false(ekoc_pole_inside(1.5, 0.0, 0.0, 1.4, 1.5));
  assert_true(ekoc_pole_inside(-0.050, 0.884, 1.0, 0.37, 1.0));
  assert_false(ekoc_pole_inside(-0.050, 0.884, 1.0, 0.35, 1.0));
  assert_true(ekoc_pole_inside(-0.050, 0.884, 1.0, 0.30, 1.5));
  assert_false(ekoc_pole_inside(-0.050, 0.884, 1.0, 0.18, 1.0)); /* above the path's height pi r */
}

/* Band radii: a band of large tau crosses left of the first real pole it
 * would magnify too much (0.6 of the way from 1), one of small tau keeps its
 * radius but off the poles by the guard; a band whose slowest entries would
 * not decay there stays nearer the pole (at the guard). */
static void test_place_bands(void **state) {
  ekoc_pole_set s;
  ekoc_band band[2];
  ekoc_band_plan bp;
  ekoc_pole poles[2] = {{1.535, 0.0, 0.1, 5, -1, 1}, {9.476, 0.0, 0.2, 5, -1, 1}};
  (void)state;
  memset(band, 0, sizeof band);
  band[0].height = band[1].height = EKOC_BAND_HEIGHT;
  memset(&s, 0, sizeof s);
  s.n = 2;
  s.pole = poles;
  band[0].tau_hi = 15.0;
  band[0].tau_lo = 15.0 / 4.0; /* its slowest entries still decay by e at r = 0.27 */
  band[0].radius = 12.8 / 15.0;
  band[1].tau_hi = 0.25;
  band[1].tau_lo = 0.25 / 4.0;
  band[1].radius = 8.5; /* crossing 9.5, next to 9.476 */
  bp.nx = 0;
  bp.n_bands = 2;
  bp.band = band;
  ekoc_poles_place_bands(&s, &bp);
  assert_true(fabs(band[0].radius - 0.6 * 0.535) < 0.03 * 0.535);
  assert_true(fabs(1.0 + band[1].radius - 9.476) >= 0.1 * band[1].radius);
  assert_true(band[1].radius >= 0.8 * 8.5 && band[1].radius <= 1.1 * 8.5);
  band[0].tau_lo = 1.0; /* 0.6 of the way (r = 0.32) would leave its tau = 1 entries without decay */
  band[0].radius = 12.8 / 15.0;
  ekoc_poles_place_bands(&s, &bp);
  assert_true(fabs(band[0].radius - 0.535 / 1.1) < 0.03 * 0.535);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nnlo_nf5_poles),
      cmocka_unit_test(test_which_methods),
      cmocka_unit_test(test_inside),
      cmocka_unit_test(test_place_bands),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
