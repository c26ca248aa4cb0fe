/* test_magnus_step.c: the pieces of the ordered-exact step
 * (ad/kernel_singlet.h) against their plain forms: the six-product
 * commutator against x y - y x, and the exponential of a traceless matrix
 * (one complex exponential) against m2_exp of the same matrix, on random
 * matrices of every size the Magnus steps meet, the series branch near
 * coinciding eigenvalues, and the refusal above |Re z| = 300; and the
 * grouped kernel (ad/kernel_magnus_batch.h) against the scalar one, bit for
 * bit, with the scalar kernel's special branches mixed into one group. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include <string.h>

#include "ad/kernel_magnus_batch.h"
#include "ad/kernel_singlet.h"
#include "kernel_test_math.h"

/* a uniform number in [-1, 1) from a fixed 64-bit LCG (reproducible) */
static double uniform(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) / 4503599627370496.0 - 1.0;
}

static ekoc_cmat2 random_m2(uint64_t *s, double scale) {
  ekoc_cmat2 m;
  int i;
  for (i = 0; i < 4; ++i) m.m[i] = c_make(scale * uniform(s), scale * uniform(s));
  return m;
}

static ekoc_cmat2 traceless(ekoc_cmat2 m) {
  ekoc_complex t = c_scale(c_add(m.m[0], m.m[3]), 0.5);
  m.m[0] = c_sub(m.m[0], t);
  m.m[3] = c_sub(m.m[3], t);
  return m;
}

static void test_commutator_six_products(void **state) {
  uint64_t s = 1;
  int n;
  (void)state;
  for (n = 0; n < 2000; ++n) {
    double scale = pow(10.0, 4.0 * uniform(&s));
    ekoc_cmat2 x = random_m2(&s, scale), y = random_m2(&s, scale);
    ekoc_cmat2 plain = m2_sub(m2_mul(x, y), m2_mul(y, x)), fast = ekoc_kernel_m2_comm(x, y);
    double size = m2_maxabs(x) * m2_maxabs(y);
    assert_true(m2_maxabs(m2_sub(fast, plain)) <= 1e-14 * size);
    assert_true(c_abs(c_add(fast.m[0], fast.m[3])) == 0.0); /* traceless by construction */
  }
}

static void test_traceless_exp(void **state) {
  uint64_t s = 7;
  int n;
  (void)state;
  for (n = 0; n < 4000; ++n) {
    /* |z| from 1e-5 (series branch) to ~100 */
    double scale = pow(10.0, -5.0 + 7.0 * (0.5 + 0.5 * uniform(&s)));
    ekoc_cmat2 d = traceless(random_m2(&s, scale)), fast;
    ekoc_cmat2 plain = m2_exp(d);
    double z = sqrt(c_abs(c_add(c_mul(d.m[0], d.m[0]), c_mul(d.m[1], d.m[2]))));
    if (z > 250.0) continue;
    assert_int_equal(ekoc_kernel_m2_exp_traceless(d, &fast), 1);
    /* both are exp(D): the rounding of e^{+-z} relative to the largest entry */
    assert_true(m2_reldiff(fast, plain) < 1e-13 * (1.0 + z));
  }
}

static void test_traceless_exp_refuses_huge_gap(void **state) {
  ekoc_cmat2 d = m2_zero(), out = m2_identity();
  (void)state;
  d.m[0] = c_make(400.0, 1.0);
  d.m[3] = c_make(-400.0, -1.0);
  assert_int_equal(ekoc_kernel_m2_exp_traceless(d, &out), 0);
  assert_true(m2_reldiff(out, m2_identity()) == 0.0); /* untouched */
  d.m[0] = c_make(299.0, 0.0);
  d.m[3] = c_make(-299.0, 0.0);
  assert_int_equal(ekoc_kernel_m2_exp_traceless(d, &out), 1);
  assert_true(fabs(out.m[0].re / exp(299.0) - 1.0) < 1e-13);
}

/* ekoc_kernel_magnus_batch equals ekoc_kernel_singlet_magnus bitwise: orders
 * 2..4, 1..12 steps, rising and falling couplings, counts that leave short
 * groups, and in the same groups points of ordinary size, tiny ones (the
 * series branch of the step exponential) and huge ones (an eigenvalue gap
 * above 300: the full m2_exp). */
static void test_batch_equals_scalar(void **state) {
  enum { MAXP = 29 };
  uint64_t s = 11;
  int trial, checked = 0, special = 0;
  (void)state;
  for (trial = 0; trial < 60; ++trial) {
    ekoc_kernel_cfg c;
    ekoc_cmat2 gamma[MAXP][EKOC_MAX_ORDER], out[MAXP];
    size_t count = 1 + (size_t)(trial % MAXP), p;
    int i;
    memset(&c, 0, sizeof c);
    c.order = 2 + trial % 3;
    c.method = EKOC_METHOD_ORDERED_EXACT;
    c.ev_op_iterations = 1 + trial % 12;
    c.ev_op_max_order = 10;
    c.beta[0] = 8.0 + uniform(&s);
    c.beta[1] = 60.0 + 10.0 * uniform(&s);
    c.beta[2] = 400.0 * (1.0 + uniform(&s));
    c.beta[3] = 3000.0 * (1.0 + uniform(&s));
    c.a0 = trial % 2 ? 0.028 : 0.009;
    c.a1 = trial % 2 ? 0.009 : 0.028;
    for (p = 0; p < count; ++p) {
      double scale = p % 5 == 3 ? 1e-10 : p % 7 == 4 ? 3e5 : 10.0;
      for (i = 0; i < c.order; ++i) gamma[p][i] = random_m2(&s, scale * pow(3.0, i));
    }
    ekoc_kernel_magnus_batch(&c, count, &gamma[0][0], EKOC_MAX_ORDER, out);
    for (p = 0; p < count; ++p, ++checked) {
      ekoc_cmat2 one = ekoc_kernel_singlet_magnus(&c, gamma[p]);
      if (memcmp(&one, &out[p], sizeof one) != 0)
        fail_msg("trial %d point %zu: (%.17g,%.17g) vs (%.17g,%.17g)", trial, p, one.m[0].re, one.m[0].im,
                 out[p].m[0].re, out[p].m[0].im);
      special += p % 5 == 3 || p % 7 == 4;
    }
  }
  assert_true(checked > 800 && special > 200);
}

/* Steps whose eigenvalue gaps stay below the fallback's 300 but add up far
 * beyond exp's range: the true kernel is finite (its trace compensates),
 * and so is ekoc's, which applies the held-back traces once the product of
 * the traceless exponentials grows large; equal to the product of plain
 * m2_exp steps, and the grouped kernel to the scalar one bitwise. */
static void test_large_gaps_stay_finite(void **state) {
  ekoc_kernel_cfg c;
  ekoc_cmat2 gamma[8][EKOC_MAX_ORDER], out[8], one;
  int p;
  (void)state;
  memset(&c, 0, sizeof c);
  c.order = 2;
  c.method = EKOC_METHOD_ORDERED_EXACT;
  c.ev_op_iterations = 16;
  c.ev_op_max_order = 10;
  c.beta[0] = 8.0;
  c.beta[1] = 60.0;
  c.beta[2] = 400.0;
  c.a0 = 0.028;
  c.a1 = 0.009;
  for (p = 0; p < 8; ++p) { /* gamma^(0) = diag(0, L): per step |z| ~ 150 for L = 3.4e4, 16 steps */
    gamma[p][0] = m2_zero();
    gamma[p][0].m[3] = c_make(3.4e4 * (1.0 + 0.01 * p), 10.0 * p);
    gamma[p][1] = m2_zero();
  }
  ekoc_kernel_magnus_batch(&c, 8, &gamma[0][0], EKOC_MAX_ORDER, out);
  for (p = 0; p < 8; ++p) {
    one = ekoc_kernel_singlet_magnus(&c, gamma[p]);
    assert_memory_equal(&one, &out[p], sizeof one);
    /* E = diag(1, ~0): the (0,0) entry's exponent is exactly 0 */
    assert_true(fabs(one.m[0].re - 1.0) < 1e-12 && fabs(one.m[0].im) < 1e-12);
    assert_true(c_abs(one.m[1]) == 0.0 && c_abs(one.m[2]) == 0.0 && c_abs(one.m[3]) < 1e-300);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_commutator_six_products),
      cmocka_unit_test(test_traceless_exp),
      cmocka_unit_test(test_traceless_exp_refuses_huge_gap),
      cmocka_unit_test(test_batch_equals_scalar),
      cmocka_unit_test(test_large_gaps_stay_finite),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
