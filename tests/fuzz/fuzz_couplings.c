/* fuzz_couplings.c: libFuzzer harness for the running coupling
 * (ekoc_couplings_new, _a_s, _nf_at, _matching_scales) with every field of
 * the configuration and every query drawn from the input.
 * Checks: no crash or sanitizer report; on failure outputs untouched and a
 * message set; on success a_s finite and > 0, nf in 3..max_nf, matching
 * scales non-decreasing.
 */
#include <stddef.h>
#include <stdint.h>

#include "ekoc.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  ekoc_couplings_config cfg;
  ekoc_couplings *sentinel = (ekoc_couplings *)(uintptr_t)0x5a5a5a5a, *c = sentinel;
  double thr[3];
  int rc, h, q;

  ekoc_couplings_config_default(&cfg);
  cfg.order = fz_int(&f, 1, 3);
  cfg.mode = fz_int(&f, 0, 1);
  cfg.alphas_ref = fz_num(&f, 0.01, 2.0, 1);
  cfg.mu2_ref = fz_num(&f, 0.5, 1e8, 1);
  cfg.nf_ref = fz_int(&f, 3, 6);
  for (h = 0; h < 3; ++h) cfg.masses2[h] = fz_num(&f, 1.0, 4e4, 1);
  if (fz_u8(&f) < 200) { /* mostly ascending masses, so that the rest is reached */
    double m[3] = {cfg.masses2[0], cfg.masses2[1], cfg.masses2[2]}, t;
    if (m[0] > m[1]) t = m[0], m[0] = m[1], m[1] = t;
    if (m[1] > m[2]) t = m[1], m[1] = m[2], m[2] = t;
    if (m[0] > m[1]) t = m[0], m[0] = m[1], m[1] = t;
    for (h = 0; h < 3; ++h) cfg.masses2[h] = m[h];
  }
  for (h = 0; h < 3; ++h) {
    uint8_t k = fz_u8(&f);
    cfg.thresholds_ratio2[h] = k < 150 ? 1.0 : k < 180 ? INFINITY : k < 190 ? 0.0 : fz_num(&f, 0.06, 16.0, 1);
  }
  cfg.threshold_shift = fz_u8(&f) < 180 ? 1.0 : fz_num(&f, 0.25, 4.0, 1);
  cfg.max_nf = fz_int(&f, 3, 6);

  rc = ekoc_couplings_new(&cfg, &c);
  if (rc != EKOC_OK) {
    FUZZ_REQUIRE(c == sentinel, "*out written on failure %s", ekoc_status_str(rc));
    FUZZ_REQUIRE(ekoc_last_error()[0] != '\0', "no message for %s", ekoc_status_str(rc));
    return 0;
  }
  FUZZ_REQUIRE(ekoc_couplings_matching_scales(c, thr) == EKOC_OK, "matching scales");
  FUZZ_REQUIRE(!(thr[0] > thr[1]) && !(thr[1] > thr[2]), "matching scales %g %g %g not ascending", thr[0], thr[1], thr[2]);
  for (q = 0; q < 6 && f.n > 0; ++q) {
    double mu2 = fz_num(&f, 0.1, 1e10, 1), a = 12345.0;
    int32_t nf_to = fz_u8(&f) < 128 ? -1 : fz_int(&f, 3, 6), nf = 99;
    rc = ekoc_couplings_a_s(c, mu2, nf_to, &a);
    if (rc == EKOC_OK)
      FUZZ_REQUIRE(isfinite(a) && a > 0.0, "a_s(%g, %d) = %g", mu2, (int)nf_to, a);
    else
      FUZZ_REQUIRE(a == 12345.0 && ekoc_last_error()[0] != '\0', "a_s failure %s wrote %g", ekoc_status_str(rc), a);
    rc = ekoc_couplings_nf_at(c, mu2, &nf);
    if (rc == EKOC_OK)
      FUZZ_REQUIRE(nf >= 3 && nf <= cfg.max_nf, "nf_at(%g) = %d", mu2, (int)nf);
    else
      FUZZ_REQUIRE(nf == 99, "nf_at failure wrote %d", (int)nf);
  }
  ekoc_couplings_free(c);
  return 0;
}
