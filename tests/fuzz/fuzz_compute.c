/* fuzz_compute.c: libFuzzer harness for ekoc_compute and the operator
 * accessors, with a fuzzed theory and request.
 *
 * Every field of ekoc_theory / ekoc_request is drawn from the input, valid
 * and invalid ranges alike, except where a valid value would only make an
 * execution slow without reaching new code: the grid has at most 5 points,
 * at most 3 targets, ev_op_iterations and ev_op_max_order are 1..6 when in
 * range, limit <= 8, epsrel >= 1e-3 when in range, one thread. Checks: no crash or
 * sanitizer report; on failure *out untouched and a message set; on success
 * every operator entry, error and applied PDF finite and the accessors
 * consistent. For a quarter of the successful batch executions also the
 * N-space cache (ekoc_nspace_cache, a fresh one with a drawn byte budget):
 * the same request computed twice through it, filling it and then reading
 * from it, must give the bits of the computation without it.
 */
#include <stddef.h>
#include <stdint.h>

#include "ekoc.h"
#include "fuzz_input.h"

static int progress_stop_at(void *data, uint64_t done, uint64_t total) {
  (void)total;
  return done >= *(uint64_t *)data;
}

/* The request through a fresh N-space cache, twice (filling it, then reading
 * it): every target's flavour values and errors equal to ref's, bit for bit. */
static void check_with_cache(const ekoc_theory *th, const ekoc_request *rq0, const ekoc_operator *ref,
                             size_t budget) {
  ekoc_request rq = *rq0;
  ekoc_nspace_cache *cache = NULL;
  size_t nx = rq.nx, len = 196 * nx * nx, t, k;
  double *want = malloc(2 * len * sizeof *want), *got = malloc(2 * len * sizeof *got);
  int pass;
  FUZZ_REQUIRE(want && got, "out of memory");
  FUZZ_REQUIRE(ekoc_nspace_cache_new(budget, &cache) == EKOC_OK, "cache_new: %s", ekoc_last_error());
  rq.nspace_cache = cache;
  for (pass = 0; pass < 2; ++pass) {
    ekoc_operator *op = NULL;
    int rc = ekoc_compute(th, &rq, NULL, &op);
    FUZZ_REQUIRE(rc == EKOC_OK, "with the cache (pass %d): %s %s", pass, ekoc_status_str(rc), ekoc_last_error());
    FUZZ_REQUIRE(ekoc_nspace_cache_bytes(cache) <= (budget ? budget : EKOC_NSPACE_CACHE_DEFAULT_BYTES),
                 "cache holds %zu bytes over its budget %zu", ekoc_nspace_cache_bytes(cache), budget);
    for (t = 0; t < rq.n_targets; ++t) {
      FUZZ_REQUIRE(ekoc_operator_flavor(ref, t, want, want + len, len) == EKOC_OK, "flavor");
      FUZZ_REQUIRE(ekoc_operator_flavor(op, t, got, got + len, len) == EKOC_OK, "flavor");
      for (k = 0; k < 2 * len; ++k)
        FUZZ_REQUIRE(memcmp(&want[k], &got[k], sizeof(double)) == 0, "pass %d target %zu entry %zu: %.17g with the cache, %.17g without",
                     pass, t, k, got[k], want[k]);
    }
    ekoc_operator_free(op);
  }
  ekoc_nspace_cache_free(cache);
  free(want);
  free(got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *sentinel = (ekoc_operator *)(uintptr_t)0x5a5a5a5a, *op = sentinel;
  double mu2[3], xgrid[5];
  int32_t nf[3];
  uint64_t stop_at = 0;
  size_t i, nt, nx;
  int rc, h, with_cache;
  size_t cache_budget;

  ekoc_theory_default(&th);
  ekoc_request_default(&rq);
  /* theory */
  th.order = fz_int(&f, 1, 3);
  th.alphas = fz_num(&f, 0.05, 0.5, 1);
  th.mu2_ref = fz_num(&f, 1.0, 1e4, 1);
  th.nf_ref = fz_int(&f, 3, 6);
  {
    uint8_t mode = fz_u8(&f);
    if (mode < 200) { /* ascending masses around the physical ones */
      th.masses[0] = fz_num(&f, 1.0, 2.0, 0);
      th.masses[1] = fz_num(&f, 3.0, 6.0, 0);
      th.masses[2] = fz_num(&f, 100.0, 200.0, 0);
    } else {
      for (h = 0; h < 3; ++h) th.masses[h] = fz_num(&f, 0.1, 300.0, 1);
    }
    for (h = 0; h < 3; ++h) {
      uint8_t k = fz_u8(&f);
      th.matching_ratios[h] = k < 150 ? 1.0 : k < 180 ? INFINITY : k < 190 ? 0.0 : fz_num(&f, 0.25, 4.0, 1);
    }
  }
  th.xif = fz_u8(&f) < 180 ? 1.0 : fz_num(&f, 0.5, 2.0, 1);
  th.matching_order = fz_int(&f, -1, 2);
  /* request */
  rq.mu2_0 = fz_num(&f, 1.0, 1e3, 1);
  rq.nf0 = fz_int(&f, 3, 6);
  nt = (size_t)(fz_u8(&f) % 4);
  for (i = 0; i < 3; ++i) {
    mu2[i] = fz_num(&f, 1.0, 1e6, 1);
    nf[i] = fz_u8(&f) < 200 ? -1 : fz_int(&f, 3, 6);
  }
  rq.mu2 = fz_u8(&f) < 250 ? mu2 : NULL;
  rq.nf = fz_u8(&f) < 128 ? NULL : nf;
  rq.n_targets = nt;
  nx = (size_t)(fz_u8(&f) % 6);
  {
    uint8_t mode = fz_u8(&f);
    if (mode < 200) { /* ascending grid from fractions of a log-range, last point maybe 1 */
      double lo = fz_num(&f, 1e-7, 0.5, 1), l = log(lo);
      for (i = 0; i < nx; ++i) {
        double t = nx > 1 ? (double)i / (double)(nx - 1) : 0.0;
        xgrid[i] = exp(l * (1.0 - t));
      }
      if (nx > 0 && fz_u8(&f) < 128) xgrid[nx - 1] = 1.0;
    } else {
      for (i = 0; i < nx; ++i) xgrid[i] = fz_num(&f, 1e-6, 1.0, 1);
    }
  }
  rq.xgrid = fz_u8(&f) < 250 ? xgrid : NULL;
  rq.nx = nx;
  rq.degree = fz_int(&f, 1, 5);
  rq.method = fz_int(&f, 0, EKOC_METHOD_COUNT - 1);
  rq.ev_op_iterations = fz_int(&f, 1, 6);
  rq.ev_op_max_order = fz_int(&f, 1, 6);
  rq.sv_mode = fz_int(&f, 0, 2);
  rq.inversion_method = fz_int(&f, 1, 2);
  rq.backend = fz_int(&f, 0, 1);
  {
    uint8_t k = fz_u8(&f);
    rq.epsabs = k < 200 ? 1e-8 : fz_num(&f, 1e-12, 1.0, 1);
    rq.epsrel = k < 200 ? fz_num(&f, 1e-3, 1e-1, 1) : fz_num(&f, 1e-3, 1.0, 1);
  }
  rq.limit = fz_int(&f, 1, 8);
  rq.mellin_cut = fz_u8(&f) < 200 ? 0.05 : fz_num(&f, 0.0, 0.49, 0);
  rq.n_threads = 1;
  rq.batch_panels = fz_int(&f, 1, 4);
  rq.batch_points = fz_int(&f, 1, 8);
  {
    uint8_t k = fz_u8(&f);
    with_cache = k >= 192;
    cache_budget = k >= 224 ? 0 : (size_t)1 << (k % 24); /* 0: the default budget; else 1 B .. 8 MiB */
  }
  if (fz_u8(&f) >= 240) {
    stop_at = fz_u8(&f) % 8;
    rq.progress = progress_stop_at;
    rq.progress_data = &stop_at;
  }
  /* keep valid executions fast: no thousand-step iterations or huge limits */
  if (rq.ev_op_iterations > 6 && rq.ev_op_iterations <= EKOC_MAX_EV_OP_ITERATIONS) rq.ev_op_iterations = 6;
  if (rq.ev_op_max_order > 6 && rq.ev_op_max_order <= EKOC_MAX_EV_OP_MAX_ORDER) rq.ev_op_max_order = 6;
  if (rq.limit > 8 && rq.limit <= 100000) rq.limit = 8;
  if (rq.epsrel < 1e-3 && rq.epsrel >= 0.0 && rq.epsabs < 1e-3) rq.epsrel = 1e-3;

  if (fz_verbose()) {
    fprintf(stderr,
            "theory: order %d alphas %.17g mu2_ref %.17g nf_ref %d masses %.17g %.17g %.17g ratios %.17g %.17g %.17g "
            "xif %.17g matching_order %d\n",
            (int)th.order, th.alphas, th.mu2_ref, (int)th.nf_ref, th.masses[0], th.masses[1], th.masses[2],
            th.matching_ratios[0], th.matching_ratios[1], th.matching_ratios[2], th.xif, (int)th.matching_order);
    fprintf(stderr, "request: mu2_0 %.17g nf0 %d n_targets %zu mu2%s nf%s nx %zu xgrid%s degree %d method %d iter %d "
            "maxord %d sv %d inv %d backend %d epsabs %g epsrel %g limit %d cut %g panels %d points %d progress %s\n",
            rq.mu2_0, (int)rq.nf0, nt, rq.mu2 ? "" : " NULL", rq.nf ? "" : " NULL", nx, rq.xgrid ? "" : " NULL",
            (int)rq.degree, (int)rq.method, (int)rq.ev_op_iterations, (int)rq.ev_op_max_order, (int)rq.sv_mode,
            (int)rq.inversion_method, (int)rq.backend, rq.epsabs, rq.epsrel, (int)rq.limit, rq.mellin_cut,
            (int)rq.batch_panels, (int)rq.batch_points, rq.progress ? "stop" : "none");
    for (i = 0; i < nt; ++i) fprintf(stderr, "  target %zu: mu2 %.17g nf %d\n", i, mu2[i], (int)nf[i]);
    for (i = 0; i < nx; ++i) fprintf(stderr, "  x[%zu] = %.17g\n", i, xgrid[i]);
  }
  rc = ekoc_compute(&th, &rq, NULL, &op);
  if (fz_verbose()) fprintf(stderr, "-> %s %s\n", ekoc_status_str(rc), ekoc_last_error());
  if (rc != EKOC_OK) {
    FUZZ_REQUIRE(op == sentinel, "*out written on failure %s", ekoc_status_str(rc));
    FUZZ_REQUIRE(ekoc_last_error()[0] != '\0', "no message for %s", ekoc_status_str(rc));
    return 0;
  }
  FUZZ_REQUIRE(op != sentinel && op != NULL, "no operator on success");
  FUZZ_REQUIRE(ekoc_operator_n_targets(op) == nt && ekoc_operator_nx(op) == nx, "shape");
  {
    size_t len = 196 * nx * nx, k;
    double *v = malloc(len * sizeof *v), *e = malloc(len * sizeof *e);
    double *pin = malloc(14 * nx * sizeof *pin), *pout = malloc(14 * nx * sizeof *pout);
    for (k = 0; k < 14 * nx; ++k) pin[k] = 1.0 / (1.0 + (double)k);
    for (i = 0; i < nt; ++i) {
      double m2;
      int32_t nfi;
      FUZZ_REQUIRE(ekoc_operator_target(op, i, &m2, &nfi) == EKOC_OK, "target %zu", i);
      FUZZ_REQUIRE(m2 == mu2[i] && nfi >= 3 && nfi <= 6, "target %zu: mu2 %g nf %d", i, m2, (int)nfi);
      FUZZ_REQUIRE(ekoc_operator_flavor(op, i, v, e, len) == EKOC_OK, "flavor %zu", i);
      for (k = 0; k < len; ++k)
        FUZZ_REQUIRE(isfinite(v[k]) && isfinite(e[k]) && e[k] >= 0.0, "flavor target %zu entry %zu: %g +- %g", i, k, v[k],
                     e[k]);
      FUZZ_REQUIRE(ekoc_operator_evolution(op, i, v, NULL, len) == EKOC_OK, "evolution %zu", i);
      for (k = 0; k < len; ++k) FUZZ_REQUIRE(isfinite(v[k]), "evolution target %zu entry %zu: %g", i, k, v[k]);
      {
        size_t n_flagged = 0, failures = ekoc_operator_failures(op);
        uint8_t *flags = malloc(len);
        FUZZ_REQUIRE(ekoc_operator_failed_flavor(op, i, flags, len, &n_flagged) == EKOC_OK, "failed_flavor %zu", i);
        FUZZ_REQUIRE(n_flagged <= len && (failures > 0 || n_flagged == 0), "%zu flagged with %zu failures", n_flagged,
                     failures);
        for (k = 0; k < len; ++k) FUZZ_REQUIRE(flags[k] <= 1, "flag %zu = %d", k, (int)flags[k]);
        free(flags);
      }
      FUZZ_REQUIRE(ekoc_operator_apply(op, i, pin, pout, 14 * nx, NULL) == EKOC_OK, "apply %zu", i);
      for (k = 0; k < 14 * nx; ++k) FUZZ_REQUIRE(isfinite(pout[k]), "apply target %zu: pdf_out[%zu] = %g", i, k, pout[k]);
    }
    free(v);
    free(e);
    free(pin);
    free(pout);
  }
  if (with_cache && rq.backend == EKOC_BACKEND_BATCH && !rq.progress)
    check_with_cache(&th, &rq, op, cache_budget);
  ekoc_operator_free(op);
  return 0;
}
