/* bench_ekore.c: cost of the ekore C ABI per evaluation.
 *
 * Usage: bench_ekore [reps]   (default reps = 200000)
 *
 * Measures, as the best of 7 timed runs (the first doubles as warm-up), the calling thread's
 * CPU time (CLOCK_THREAD_CPUTIME_ID, so that other processes on a shared
 * machine do not inflate the figures; on a quiet machine it equals wall time):
 *  - ekore_gamma_singlet(order 3) at one N = 2.5+1.5i (all three orders);
 *  - the same over P = 1000 points of eko's Talbot path for x = 1e-3 (singlet
 *    offset o = 1, t in [0.5, 0.95]): single calls, and ekore_gamma_singlet_batch;
 *  - ekore_gamma_all(order 3) and ekore_gamma_ns(order 3, nsV) on those points.
 * The points are documented in perf/bench_ekore_eko.py, which times eko on the
 * same N values. Output: one "name ns_per_eval" line per measurement. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ekore.h"

#define P 1000
#define RUNS 7

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* eko's Talbot path (docs/physics.md §3): N(t) = o + r (theta cot theta + i theta),
 * theta = pi (2t - 1), r = 0.4*16/(0.1 - ln x); t = 0.5 + 0.45 (p + 0.5)/P. */
static void talbot_points(double x, double o, double *re, double *im) {
  const double pi = 3.14159265358979323846;
  double r = 6.4 / (0.1 - log(x));
  for (int p = 0; p < P; p++) {
    double t = 0.5 + 0.45 * (p + 0.5) / P;
    double th = pi * (2.0 * t - 1.0);
    re[p] = o + r * th / tan(th);
    im[p] = r * th;
  }
}

static double sink; /* keeps results observable */

int main(int argc, char **argv) {
  long reps = argc > 1 ? atol(argv[1]) : 200000;
  if (reps < 1) reps = 1;
  static double nre[P], nim[P], ore[4 * 3 * P], oim[4 * 3 * P];
  double re[12], im[12], nsr[9], nsi[9];
  talbot_points(1e-3, 1.0, nre, nim);

  /* 1. one N, NNLO singlet (3 orders) */
  double best = INFINITY;
  for (int run = 0; run < RUNS; run++) {
    double t0 = now_ns();
    for (long k = 0; k < reps; k++) {
      if (ekore_gamma_singlet(3, 2.5, 1.5, 4, re, im) != EKORE_OK) return 1;
      sink += re[11];
    }
    double dt = (now_ns() - t0) / (double)reps;
    if (dt < best) best = dt;
  }
  printf("gamma_singlet_nnlo_one_N %.1f\n", best);

  /* 2. Talbot points, single calls */
  long loops = reps / P > 0 ? reps / P : 1;
  best = INFINITY;
  for (int run = 0; run < RUNS; run++) {
    double t0 = now_ns();
    for (long l = 0; l < loops; l++)
      for (int p = 0; p < P; p++) {
        if (ekore_gamma_singlet(3, nre[p], nim[p], 4, re, im) != EKORE_OK) return 1;
        sink += re[11];
      }
    double dt = (now_ns() - t0) / (double)(loops * P);
    if (dt < best) best = dt;
  }
  printf("gamma_singlet_nnlo_path_single %.1f\n", best);

  /* 3. Talbot points, batch call */
  best = INFINITY;
  for (int run = 0; run < RUNS; run++) {
    double t0 = now_ns();
    for (long l = 0; l < loops; l++) {
      if (ekore_gamma_singlet_batch(3, nre, nim, P, 4, ore, oim) != EKORE_OK) return 1;
      sink += ore[4 * 3 * P - 1];
    }
    double dt = (now_ns() - t0) / (double)(loops * P);
    if (dt < best) best = dt;
  }
  printf("gamma_singlet_nnlo_path_batch_per_point %.1f\n", best);

  /* 4. everything the kernel needs at one point (3 ns towers + singlet) */
  best = INFINITY;
  for (int run = 0; run < RUNS; run++) {
    double t0 = now_ns();
    for (long l = 0; l < loops; l++)
      for (int p = 0; p < P; p++) {
        if (ekore_gamma_all(3, nre[p], nim[p], 4, nsr, nsi, re, im) != EKORE_OK) return 1;
        sink += re[11] + nsr[8];
      }
    double dt = (now_ns() - t0) / (double)(loops * P);
    if (dt < best) best = dt;
  }
  printf("gamma_all_nnlo_path %.1f\n", best);

  /* 5. one non-singlet tower */
  best = INFINITY;
  for (int run = 0; run < RUNS; run++) {
    double t0 = now_ns();
    for (long l = 0; l < loops; l++)
      for (int p = 0; p < P; p++) {
        if (ekore_gamma_ns(3, EKORE_MODE_NS_V, nre[p], nim[p], 4, nsr, nsi) != EKORE_OK) return 1;
        sink += nsr[2];
      }
    double dt = (now_ns() - t0) / (double)(loops * P);
    if (dt < best) best = dt;
  }
  printf("gamma_ns_v_nnlo_path %.1f\n", best);
  fprintf(stderr, "(reps %ld, points %d, checksum %g)\n", reps, P, sink);
  return 0;
}
