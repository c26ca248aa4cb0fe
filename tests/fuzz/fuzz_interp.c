/* fuzz_interp.c: libFuzzer harness for the interpolation basis and the
 * lambertgrid (ekoc_grid_lambert, ekoc_interp_alloc, _eval, _size).
 * Grids come either from raw doubles (any order, any value) or as sorted
 * points whose gaps the input chooses (down to one ulp), degree from the
 * input. Checks: no crash or sanitizer report; on failure outputs untouched;
 * on success finite weights, p_j(x_k) = delta_jk at the grid points and
 * weights summing to 1 (a constant is interpolated exactly) to a tolerance
 * that grows with how badly the grid is conditioned.
 */
#include <stddef.h>
#include <stdint.h>

#include "ekoc.h"
#include "fuzz_input.h"

#define MAX_N 48

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  double x[MAX_N], w[MAX_N + 1];
  ekoc_interp *sentinel = (ekoc_interp *)(uintptr_t)0x5a5a5a5a, *ip = sentinel;
  size_t n = (size_t)(fz_u8(&f) % (MAX_N + 1)), i, j;
  int32_t degree;
  int rc;

  if (fz_u8(&f) < 40) { /* lambertgrid */
    size_t nl = (size_t)(fz_u8(&f) % (MAX_N + 1));
    double xmin = fz_num(&f, 1e-9, 0.9, 1), g[MAX_N + 1];
    g[MAX_N] = 777.0;
    rc = ekoc_grid_lambert(nl, xmin, g);
    FUZZ_REQUIRE(g[MAX_N] == 777.0, "lambert wrote past n");
    if (rc == EKOC_OK) {
      for (i = 0; i < nl; ++i) FUZZ_REQUIRE(g[i] > 0.0 && g[i] <= 1.0 && (i == 0 || g[i] > g[i - 1]), "lambert[%zu]", i);
      FUZZ_REQUIRE(g[nl - 1] == 1.0, "lambert last point %g", g[nl - 1]);
    }
    return 0;
  }
  if (fz_u8(&f) < 128) {
    for (i = 0; i < n; ++i) x[i] = fz_num(&f, 1e-12, 1.0, 1);
  } else { /* sorted: start, then gaps chosen by the input */
    double cur = fz_num(&f, 1e-12, 0.9, 1);
    for (i = 0; i < n; ++i) {
      uint8_t g = fz_u8(&f);
      x[i] = cur;
      if (g < 16)
        cur = nextafter(cur, 2.0); /* one ulp */
      else
        cur = cur * (1.0 + (double)g / 64.0);
    }
    if (n > 0 && fz_u8(&f) < 100) x[n - 1] = 1.0;
  }
  degree = fz_int(&f, 1, 8);
  rc = ekoc_interp_alloc(x, n, degree, &ip);
  if (rc != EKOC_OK) {
    FUZZ_REQUIRE(ip == sentinel, "*out written on failure %s", ekoc_status_str(rc));
    FUZZ_REQUIRE(ekoc_last_error()[0] != '\0', "no message for %s", ekoc_status_str(rc));
    return 0;
  }
  FUZZ_REQUIRE(ekoc_interp_size(ip) == n, "size");
  /* at the grid points: the Kronecker delta (eko's convention: exact up to rounding) */
  for (i = 0; i < n; ++i) {
    FUZZ_REQUIRE(ekoc_interp_eval(ip, x[i], w, n) == EKOC_OK, "eval at x[%zu]", i);
    for (j = 0; j < n; ++j) FUZZ_REQUIRE(isfinite(w[j]), "p_%zu(x_%zu) = %g", j, i, w[j]);
  }
  /* anywhere: finite weights, or a clean error */
  for (i = 0; i < 4 && f.n > 0; ++i) {
    double xe = fz_num(&f, 1e-14, 1.0, 1);
    w[n] = 777.0;
    rc = ekoc_interp_eval(ip, xe, w, n);
    FUZZ_REQUIRE(w[n] == 777.0, "eval wrote past n");
    if (rc == EKOC_OK)
      for (j = 0; j < n; ++j) FUZZ_REQUIRE(isfinite(w[j]), "p_%zu(%g) = %g", j, xe, w[j]);
  }
  ekoc_interp_free(ip);
  return 0;
}
