/* fuzz_input.h: turning libFuzzer's bytes into API arguments, and the check
 * every harness applies to results.
 *
 * Numbers are drawn so that the fuzzer reaches both the validation paths and
 * the computation behind them: a selector byte picks a special value (0, -0,
 * +-inf, NaN, denormals, extremes), a typical value scaled into a range the
 * harness names, or the raw 8 bytes as a double. Running out of bytes yields
 * zeros, so every input is a valid (if short) program.
 */
#ifndef EKOC_FUZZ_INPUT_H
#define EKOC_FUZZ_INPUT_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fz {
  const uint8_t *p;
  size_t n;
} fz;

static inline uint8_t fz_u8(fz *f) {
  uint8_t v;
  if (f->n == 0) return 0;
  v = f->p[0];
  f->p++;
  f->n--;
  return v;
}

static inline uint32_t fz_u32(fz *f) {
  uint32_t v = 0;
  int i;
  for (i = 0; i < 4; ++i) v = (v << 8) | fz_u8(f);
  return v;
}

static inline uint64_t fz_u64(fz *f) {
  uint64_t v = 0;
  int i;
  for (i = 0; i < 8; ++i) v = (v << 8) | fz_u8(f);
  return v;
}

/* An integer in [lo, hi] (inclusive) most of the time; now and then one of
 * the int32 extremes or a value just outside the range. */
static inline int32_t fz_int(fz *f, int32_t lo, int32_t hi) {
  uint8_t s = fz_u8(f);
  if (s >= 0xF8) {
    switch (s & 7) {
    case 0: return INT32_MIN;
    case 1: return INT32_MAX;
    case 2: return lo - 1;
    case 3: return hi + 1;
    case 4: return -1;
    case 5: return 0;
    default: return (int32_t)fz_u32(f);
    }
  }
  return lo + (int32_t)(s % (uint32_t)(hi - lo + 1));
}

static const double fz_specials[] = {
    0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, DBL_MIN, -DBL_MIN, 4.9406564584124654e-324, DBL_MAX, -DBL_MAX,
    1.0, -1.0, 0.5, 1e-300, 1e300, DBL_EPSILON, 1.0 - DBL_EPSILON / 2, 1.0 + DBL_EPSILON,
};

/* A double: mostly lo * (hi/lo)^t (log-uniform, lo, hi > 0) or lo + t (hi - lo)
 * (if log_scale is 0), t from one byte; sometimes a special value, sometimes
 * the raw bits; `neg` flips the sign now and then. */
static inline double fz_num(fz *f, double lo, double hi, int log_scale) {
  uint8_t s = fz_u8(f);
  if (s < 200) {
    double t = (double)fz_u8(f) / 255.0;
    if (log_scale) return lo * pow(hi / lo, t);
    return lo + t * (hi - lo);
  }
  if (s < 240) return fz_specials[s % (sizeof fz_specials / sizeof fz_specials[0])];
  {
    uint64_t bits = fz_u64(f);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
  }
}

/* Whether EKOC_FUZZ_VERBOSE is set: harnesses then print the arguments they
 * decoded (to reproduce a finding as a plain test). */
static inline int fz_verbose(void) {
  static int v = -1;
  if (v < 0) v = getenv("EKOC_FUZZ_VERBOSE") != NULL;
  return v;
}

/* A value to check a result with: a harness aborts (libFuzzer records a
 * crash) when the library reports success but hands out a non-finite number. */
#define FUZZ_REQUIRE(cond, ...)                                \
  do {                                                         \
    if (!(cond)) {                                             \
      fprintf(stderr, "FUZZ CHECK FAILED: %s: ", #cond);       \
      fprintf(stderr, __VA_ARGS__);                            \
      fprintf(stderr, "\n");                                   \
      abort();                                                 \
    }                                                          \
  } while (0)

#endif
