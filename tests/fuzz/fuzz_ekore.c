/* fuzz_ekore.c: libFuzzer harness for the ekore C ABI (include/ekore.h):
 * every entry point with order, mode, nf, N, L, batch points and the N3LO
 * choice (ekore_n3lo) drawn from the input. Checks: no crash, no sanitizer report, no caught Rust panic
 * (EKORE_ERR_PANIC is a bug in the crate); on failure nothing written and a
 * message set; on success every value finite.
 */
#include <stddef.h>
#include <stdint.h>

#include "ekore.h"
#include "fuzz_input.h"

#define MAXP 16
#define POISON 0xA5

static int untouched(const double *b, size_t n) {
  const uint8_t *p = (const uint8_t *)b;
  size_t i;
  for (i = 0; i < n * sizeof(double); ++i)
    if (p[i] != POISON) return 0;
  return 1;
}

static void check(int32_t rc, const double *re, const double *im, size_t n, const char *what) {
  size_t i;
  FUZZ_REQUIRE(rc != EKORE_ERR_PANIC, "%s: panic caught: %s", what, ekore_last_error());
  if (rc == EKORE_OK) {
    for (i = 0; i < n; ++i) FUZZ_REQUIRE(isfinite(re[i]) && (!im || isfinite(im[i])), "%s: value %zu not finite", what, i);
  } else {
    FUZZ_REQUIRE(untouched(re, n) && (!im || untouched(im, n)), "%s: output written on error %d", what, (int)rc);
    FUZZ_REQUIRE(ekore_last_error()[0] != '\0', "%s: no message for %d", what, (int)rc);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  /* the largest output: count * EKORE_QED_LEN_MAX QED singlet values at orders (4, 2), guarded by 16 */
  static double re[EKORE_QED_LEN_MAX * MAXP + 16], im[EKORE_QED_LEN_MAX * MAXP + 16], re2[64], im2[64];
  ekore_n3lo n3lo;
  double nre[MAXP], nim[MAXP];
  uint8_t what = fz_u8(&f);
  uint32_t order = (uint32_t)fz_int(&f, 1, 4), nf = (uint32_t)fz_int(&f, 3, 6);
  uint32_t modes[3] = {EKORE_MODE_NS_PLUS, EKORE_MODE_NS_MINUS, EKORE_MODE_NS_V};
  uint32_t mode = fz_u8(&f) < 240 ? modes[fz_u8(&f) % 3] : fz_u32(&f);
  double n_re = fz_num(&f, -5.0, 100.0, 0), n_im = fz_num(&f, -100.0, 100.0, 0), L = fz_num(&f, -5.0, 5.0, 0);
  size_t count = (size_t)(fz_u8(&f) % (MAXP + 1)), p;
  for (p = 0; p < count; ++p) {
    nre[p] = fz_u8(&f) < 240 ? n_re + (double)p : fz_num(&f, -5.0, 100.0, 0);
    nim[p] = n_im;
  }
  for (p = 0; p < 7; ++p) n3lo.variation[p] = fz_u8(&f) < 240 ? (uint32_t)(fz_u8(&f) % 24) : fz_u32(&f);
  n3lo.use_fhmruvv = fz_u8(&f) < 240 ? (uint32_t)(fz_u8(&f) % 3) : fz_u32(&f); /* eko's, FHMRUVV, the 2512 set */
  memset(re, POISON, sizeof re);
  memset(im, POISON, sizeof im);
  memset(re2, POISON, sizeof re2);
  memset(im2, POISON, sizeof im2);
  switch (what % 12) {
  case 0:
    check(ekore_beta(nf, re), re, NULL, 4, "beta");
    break;
  case 1:
    check(ekore_gamma_ns(order, mode, n_re, n_im, nf, re, im), re, im, order <= 4 ? order : 0, "gamma_ns");
    break;
  case 2:
    check(ekore_gamma_singlet(order, n_re, n_im, nf, re, im), re, im, order <= 4 ? 4 * order : 0, "gamma_singlet");
    break;
  case 3: {
    int32_t rc = ekore_gamma_all(order, n_re, n_im, nf, re, im, re2, im2);
    size_t k = order <= 4 ? order : 0;
    check(rc, re, im, 3 * k, "gamma_all ns");
    check(rc, re2, im2, 4 * k, "gamma_all singlet");
    break;
  }
  case 4:
    check(ekore_gamma_singlet_batch(order, nre, nim, count, nf, re, im), re, im, order <= 4 ? count * 4 * order : 0,
          "gamma_singlet_batch");
    break;
  case 5:
    check(ekore_gamma_ns_batch(order, mode, nre, nim, count, nf, re, im), re, im, order <= 4 ? count * order : 0,
          "gamma_ns_batch");
    break;
  case 6: {
    uint32_t o = order == 4 ? 3 : order;
    check(ekore_ome_ns(o, n_re, n_im, nf, L, re, im), re, im, o <= 3 ? 4 * o : 0, "ome_ns");
    break;
  }
  case 7: {
    uint32_t o = order == 4 ? 3 : order;
    check(ekore_ome_singlet(o, n_re, n_im, nf, L, re, im), re, im, o <= 3 ? 9 * o : 0, "ome_singlet");
    break;
  }
  case 8:
    check(ekore_gamma_singlet_batch_n3lo(order, &n3lo, nre, nim, count, nf, re, im), re, im,
          order <= 4 ? count * 4 * order : 0, "gamma_singlet_batch_n3lo");
    break;
  case 9:
    check(ekore_gamma_ns_all_batch_n3lo(order, &n3lo, nre, nim, count, nf, re, im), re, im,
          order <= 4 ? count * 3 * order : 0, "gamma_ns_all_batch_n3lo");
    break;
  case 10: { /* the QED towers: sector, QED order and the rest from the input */
    uint32_t sector = fz_u8(&f) < 240 ? (uint32_t)(fz_u8(&f) % 3) : fz_u32(&f);
    uint32_t qed = (uint32_t)fz_int(&f, 0, 3);
    size_t len = ekore_gamma_qed_len(sector, order, qed);
    check(ekore_gamma_qed_batch(sector, order, qed, &n3lo, nre, nim, count, nf, re, im), re, im, count * len,
          "gamma_qed_batch");
    break;
  }
  default: {
    int32_t rc = ekore_n3lo_check(&n3lo);
    FUZZ_REQUIRE(rc == (n3lo.use_fhmruvv <= 2 ? EKORE_OK : EKORE_ERR_VARIATION), "n3lo_check: %d", (int)rc);
    break;
  }
  }
  /* writes stay inside the documented length */
  FUZZ_REQUIRE(untouched(re + EKORE_QED_LEN_MAX * MAXP, 16) && untouched(im + EKORE_QED_LEN_MAX * MAXP, 16),
               "write past the output");
  return 0;
}
