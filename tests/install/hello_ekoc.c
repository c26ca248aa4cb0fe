/* hello_ekoc.c: the smallest client of an installed ekoc, built by
 * tests/install/check_install.sh with nothing but what `pkg-config ekoc`
 * gives (headers from the prefix, libekoc.so or libekoc.a from the prefix).
 *
 * It checks two things a real client relies on and prints them:
 *  - the Rust anomalous dimensions linked into the library: the LO
 *    non-singlet gamma_ns^(0)(N = 2) = 32/9 (docs/physics.md §10);
 *  - a small computation: an LO operator from mu_0^2 = 2 to mu^2 = 10 GeV^2
 *    on a 10-point grid, whose target is (10, nf = 4) and whose entries are
 *    all finite.
 * The first output line is the version of the header it was compiled with,
 * which the test compares with `pkg-config --modversion ekoc`.
 * Exit status 0 when everything holds, 1 otherwise (with the reason).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <ekoc.h>
#include <ekore.h>

#define NX 10

static int fail(const char *what, int status) {
  fprintf(stderr, "hello_ekoc: %s failed: %s (%s)\n", what, ekoc_status_str(status), ekoc_last_error());
  return 1;
}

int main(void) {
  printf("ekoc %d.%d.%d\n", EKOC_VERSION_MAJOR, EKOC_VERSION_MINOR, EKOC_VERSION_PATCH);

  double g_re = 0.0, g_im = 0.0;
  int32_t st = ekore_gamma_ns(1, EKOC_SECTOR_NS_PLUS, 2.0, 0.0, 4, &g_re, &g_im);
  if (st != 0 || fabs(g_re - 32.0 / 9.0) > 1e-13 || g_im != 0.0) {
    fprintf(stderr, "hello_ekoc: gamma_ns^(0)(2) = %.17g%+.17gi (status %d), expected 32/9\n", g_re, g_im, (int)st);
    return 1;
  }
  printf("gamma_ns0(N=2) = %.15f\n", g_re);

  ekoc_theory theory;
  ekoc_request request;
  double x[NX], mu2 = 10.0;
  int status = ekoc_theory_default(&theory);
  if (status != EKOC_OK) return fail("ekoc_theory_default", status);
  status = ekoc_request_default(&request);
  if (status != EKOC_OK) return fail("ekoc_request_default", status);
  status = ekoc_grid_lambert(NX, 1e-3, x);
  if (status != EKOC_OK) return fail("ekoc_grid_lambert", status);
  theory.order = 1;
  request.xgrid = x;
  request.nx = NX;
  request.mu2 = &mu2;
  request.n_targets = 1;

  ekoc_operator *op = NULL;
  status = ekoc_compute(&theory, &request, NULL, &op);
  if (status != EKOC_OK) return fail("ekoc_compute", status);
  double target_mu2 = 0.0;
  int32_t target_nf = 0;
  status = ekoc_operator_target(op, 0, &target_mu2, &target_nf);
  if (status != EKOC_OK) return fail("ekoc_operator_target", status);
  size_t len = 196 * NX * NX;
  double *values = malloc(len * sizeof *values);
  if (!values) return fail("malloc", EKOC_ERR_NO_MEMORY);
  status = ekoc_operator_flavor(op, 0, values, NULL, len);
  if (status != EKOC_OK) return fail("ekoc_operator_flavor", status);
  size_t n_finite = 0;
  for (size_t k = 0; k < len; k++) n_finite += isfinite(values[k]) ? 1 : 0;
  /* [out flavour 7 = gluon][out x = NX/2][in flavour 7][in x = NX/2] */
  size_t gg = ((7 * NX + NX / 2) * 14 + 7) * NX + NX / 2;
  double gluon_diagonal = values[gg];
  free(values);
  ekoc_operator_free(op);
  if (target_mu2 != mu2 || target_nf != 4 || n_finite != len) {
    fprintf(stderr, "hello_ekoc: target (%g, %d), %zu of %zu entries finite; expected (10, 4), all\n", target_mu2,
            (int)target_nf, n_finite, len);
    return 1;
  }
  printf("operator gg[x5][x5] (LO, 2 -> 10 GeV^2) = %.6f\n", gluon_diagonal);
  return 0;
}
