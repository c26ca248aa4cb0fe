/* gemm_peak.c: how close the N-space engine's dense products come to this
 * machine's peak (issue 34 item 3).
 *
 *   build/perf/gemm_peak [seconds_per_case [peak_gflops]]
 *
 * Prints, for one thread, the rate (GFLOP/s, a multiply-add counted as 2)
 * of ekoc's product (ekoc_real_gemm_for_cpu: multiplies and adds without
 * fused multiply-adds, so that its bits are those of the plain loop on every
 * x86-64 CPU) on the shapes the band inversions give it
 * (quad/band_invert.c, row_entries: per row of a band, functions x (half the
 * path's nodes, as real and imaginary parts) times that by the band's
 * columns), and the share of `peak` when given (GFLOP/s: a BLAS dgemm's on
 * this machine, e.g. numpy's at the same shapes, perf/STATS.md). The rate of
 * the whole engine (its other kernels: the left factors, the entries' error
 * bounds) is in perf/STATS.md, from `perf record`. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ekoc_whitebox.h" /* quad/real_gemm.h */

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* GFLOP/s of ekoc's product C (rows x cols) = A (rows x inner) B (inner x cols). */
static double product_rate(ekoc_real_gemm_fn gemm, size_t rows, size_t inner, size_t cols, double seconds,
                           double *sink) {
  double *a = malloc(rows * inner * sizeof *a), *b = malloc(inner * cols * sizeof *b), *c = malloc(rows * cols * sizeof *c);
  double t0, t = 0.0, rate = 0.0;
  long reps = 1, r;
  size_t i;
  if (!a || !b || !c) {
    free(a), free(b), free(c);
    return 0.0;
  }
  for (i = 0; i < rows * inner; ++i) a[i] = 1.0 / (double)(i % 97 + 1);
  for (i = 0; i < inner * cols; ++i) b[i] = 1.0 / (double)(i % 89 + 2);
  for (;;) {
    t0 = now();
    for (r = 0; r < reps; ++r) gemm(rows, cols, inner, a, inner, b, cols, c, cols);
    t = now() - t0;
    if (t > seconds) break;
    reps *= 2;
  }
  rate = 2.0 * (double)rows * (double)inner * (double)cols * (double)reps / t * 1e-9;
  *sink += c[0];
  free(a), free(b), free(c);
  return rate;
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 0.3, peak = argc > 2 ? atof(argv[2]) : 0.0, sink = 0.0;
  /* functions: a pineko target's ~16 blocks to the fit grid's 49 targets x 16;
   * inner: 2 x (m/2 + 1) for the rules of 64..512 intervals; cols: one row's band columns */
  static const size_t rows[] = {16, 64, 784}, inner[] = {66, 130, 258, 514}, cols[] = {8, 16, 24, 64, 208};
  ekoc_real_gemm_fn gemm = ekoc_real_gemm_for_cpu();
  size_t i, j, k;
  if (!(seconds > 0.0)) seconds = 0.3;
  printf("%6s %6s %6s %10s %8s\n", "rows", "inner", "cols", "GFLOP/s", "of peak");
  for (i = 0; i < sizeof rows / sizeof *rows; ++i)
    for (j = 0; j < sizeof inner / sizeof *inner; ++j)
      for (k = 0; k < sizeof cols / sizeof *cols; ++k) {
        double r = product_rate(gemm, rows[i], inner[j], cols[k], seconds, &sink);
        if (peak > 0.0)
          printf("%6zu %6zu %6zu %10.2f %7.0f%%\n", rows[i], inner[j], cols[k], r, 100.0 * r / peak);
        else
          printf("%6zu %6zu %6zu %10.2f %8s\n", rows[i], inner[j], cols[k], r, "-");
      }
  return sink == 12345.678 ? 1 : 0; /* uses the sink */
}
