/* test_util.h: helpers shared by the CMocka tests.
 *
 * Include after <stdarg.h>, <stddef.h>, <setjmp.h>, <stdint.h> and <cmocka.h>
 * (cmocka's own requirement). cmocka 1.1.5 has no assert_double_equal, so
 * assert_close compares doubles and prints both values with %.17g. */
#ifndef EKOC_TEST_UTIL_H
#define EKOC_TEST_UTIL_H

#include <math.h>

/* Passes when |got - want| <= atol + rtol*|want|; fails (with both values,
 * the difference and the call site) otherwise, also when either is NaN. */
#define assert_close(got, want, rtol, atol)                                               \
  ekoc_test_assert_close((double)(got), (double)(want), (double)(rtol), (double)(atol), \
                         #got, __FILE__, __LINE__)

static inline void ekoc_test_assert_close(double got, double want, double rtol, double atol,
                                          const char *expr, const char *file, int line) {
  double diff = fabs(got - want);
  if (!(diff <= atol + rtol * fabs(want))) {
    fail_msg("%s:%d: %s = %.17g, want %.17g (|diff| %.3g, rtol %.3g, atol %.3g)", file, line,
             expr, got, want, diff, rtol, atol);
  }
}

#endif /* EKOC_TEST_UTIL_H */
