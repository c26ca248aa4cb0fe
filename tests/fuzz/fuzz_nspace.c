/* fuzz_nspace.c: libFuzzer harness for the N-space families and the
 * per-point kernel: ekoc_nspace_evaluate with every field of
 * ekoc_nspace_config (the QED families and their step couplings included) and N
 * drawn from the input, ekoc_beta, and (one input
 * in four) ekoc_quad_kernel / ekoc_quad_integrate for one element on a small
 * basis with fuzzed arguments (limit <= 12 to keep executions fast).
 * Checks: no crash or sanitizer report; on failure outputs untouched and a
 * message set; on success every value finite.
 */
#include <stddef.h>
#include <stdint.h>

#include "ekoc.h"
#include "fuzz_input.h"

static const double grid[6] = {1e-4, 1e-3, 1e-2, 0.1, 0.5, 1.0};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  ekoc_nspace_config c;
  /* the QED families' step couplings: the library reads 3 ev_op_iterations + 1
   * of them, and fz_int's edge values put ev_op_iterations outside 1..20 (up
   * to the largest accepted), so the buffer holds that many; the first 61 from
   * the input, the rest a constant */
  static double qed_steps[3 * EKOC_MAX_EV_OP_ITERATIONS + 1];
  double re[17], im[17], nre, nim;
  int rc, i;
  uint8_t what = fz_u8(&f);

  memset(&c, 0, sizeof c);
  c.kind = fz_int(&f, 0, 1);
  c.family = fz_int(&f, 0, 3);
  c.order = c.kind == EKOC_KIND_EVOLUTION ? fz_int(&f, 1, 3) : fz_int(&f, 0, 2);
  c.nf = fz_int(&f, 3, 6);
  c.method = fz_int(&f, 0, EKOC_METHOD_COUNT - 1);
  c.ev_op_iterations = fz_int(&f, 1, 20);
  c.ev_op_max_order = fz_int(&f, 1, 12);
  c.sv_mode = fz_int(&f, 0, 2);
  c.is_threshold = fz_int(&f, 0, 1);
  c.matching_method = fz_int(&f, 0, 2);
  c.sv_log = fz_u8(&f) < 128 ? 0.0 : fz_num(&f, -1.5, 1.5, 0);
  c.a0 = fz_num(&f, 1e-3, 0.1, 1);
  c.a1 = fz_num(&f, 1e-3, 0.1, 1);
  c.ome_log = fz_u8(&f) < 128 ? 0.0 : fz_num(&f, -3.0, 3.0, 0);
  if (ekoc_beta(c.nf >= 3 && c.nf <= 6 ? c.nf : 4, c.beta) != EKOC_OK) abort();
  if (fz_u8(&f) >= 230) c.beta[fz_u8(&f) % 4] = fz_num(&f, -100.0, 100.0, 0);
  if (c.family >= EKOC_FAMILY_QED_NS) { /* the QED fields (docs/physics.md §15.3) */
    c.qed_order = fz_int(&f, 0, 3);
    c.em_running = fz_int(&f, 0, 2);
    c.lepton_number = fz_int(&f, 1, 4);
    c.qed_log_step = fz_num(&f, -3.0, 1.0, 0);
    c.order = fz_int(&f, 1, 4);
    for (i = 0; i < 3 * 20 + 1; ++i) qed_steps[i] = fz_u8(&f) < 250 ? fz_num(&f, 1e-4, 0.05, 1) : fz_num(&f, -1.0, 1.0, 0);
    for (; i < (int)(sizeof qed_steps / sizeof qed_steps[0]); ++i) qed_steps[i] = 0.01;
    c.qed_couplings = fz_u8(&f) < 240 ? qed_steps : NULL;
  }
  nre = fz_num(&f, -5.0, 60.0, 0);
  nim = fz_num(&f, -80.0, 80.0, 0);

  if (what >= 160 && what < 192) { /* the batch evaluator at a few points around N */
    double pre[4], pim[4], bre[64], bim[64];
    size_t count = (size_t)(fz_u8(&f) % 5), p, len = (size_t)(fz_u8(&f) % 65);
    for (p = 0; p < count; ++p) {
      pre[p] = fz_u8(&f) < 230 ? nre + (double)p : fz_num(&f, -5.0, 60.0, 0);
      pim[p] = nim;
    }
    memset(bre, 0xA5, sizeof bre);
    memset(bim, 0xA5, sizeof bim);
    rc = ekoc_nspace_evaluate_batch(&c, pre, pim, count, bre, bim, len);
    if (rc == EKOC_OK) {
      size_t n = count * ekoc_nspace_family_len(&c);
      for (p = 0; p < n; ++p) FUZZ_REQUIRE(isfinite(bre[p]) && isfinite(bim[p]), "batch value %zu: (%g,%g)", p, bre[p], bim[p]);
    } else {
      uint8_t poison[sizeof bre];
      memset(poison, 0xA5, sizeof poison);
      FUZZ_REQUIRE(memcmp(bre, poison, sizeof bre) == 0 && memcmp(bim, poison, sizeof bim) == 0, "batch output written on %s",
                   ekoc_status_str(rc));
    }
    return 0;
  }
  if (what < 192) {
    size_t len = (size_t)(fz_u8(&f) % 18);
    memset(re, 0xA5, sizeof re);
    memset(im, 0xA5, sizeof im);
    rc = ekoc_nspace_evaluate(&c, nre, nim, re, im, len);
    if (rc == EKOC_OK) {
      for (i = 0; i < (int)len && i < 16; ++i) {
        uint64_t bits;
        memcpy(&bits, &re[i], sizeof bits);
        if (bits == 0xA5A5A5A5A5A5A5A5ull) break; /* past the family */
        FUZZ_REQUIRE(isfinite(re[i]) && isfinite(im[i]), "element %d at N=(%g,%g): (%g,%g)", i, nre, nim, re[i], im[i]);
      }
    } else {
      uint8_t poison[sizeof re];
      memset(poison, 0xA5, sizeof poison);
      FUZZ_REQUIRE(memcmp(re, poison, sizeof re) == 0 && memcmp(im, poison, sizeof im) == 0, "output written on %s",
                   ekoc_status_str(rc));
      FUZZ_REQUIRE(ekoc_last_error()[0] != '\0', "no message for %s", ekoc_status_str(rc));
    }
    return 0;
  }
  /* the kernel and one adaptive integral */
  {
    ekoc_interp *ip = NULL;
    ekoc_quad_workspace *ws = NULL;
    ekoc_kernel_args a;
    int32_t degree = fz_int(&f, 1, 4);
    size_t k = (size_t)(fz_u8(&f) % 6);
    double v = 12345.0, e = 54321.0, u;
    if (ekoc_interp_alloc(grid, 6, degree, &ip) != EKOC_OK) return 0;
    if (ekoc_quad_workspace_alloc(12, &ws) != EKOC_OK) abort();
    if (fz_u8(&f) < 128 && ekoc_quad_workspace_reserve_basis(ws, 6) != EKOC_OK) abort();
    memset(&a, 0, sizeof a);
    a.nspace = c;
    a.element = fz_int(&f, 0, 16);
    a.degree = fz_int(&f, 1, 4);
    a.logx = fz_u8(&f) < 200 ? log(grid[k]) : fz_num(&f, -20.0, 1.0, 0);
    a.interp = ip;
    a.basis_index = fz_int(&f, 0, 5);
    a.subtract = fz_u8(&f) < 200 ? 0.0 : fz_num(&f, 0.0, 2.0, 0);
    a.workspace = fz_u8(&f) < 230 ? ws : NULL;
    u = fz_num(&f, 0.5, 0.95, 0);
    (void)ekoc_quad_kernel(u, &a); /* any value: NaN with a status on bad arguments */
    a.status = 0;
    rc = ekoc_quad_integrate(&a, fz_u8(&f) < 200 ? 0.05 : fz_num(&f, 0.0, 0.5, 0), 1e-10,
                             fz_num(&f, 1e-5, 1e-2, 1), (size_t)fz_int(&f, 1, 12), &v, &e);
    if (rc == EKOC_OK || rc == EKOC_ERR_INTEGRATION)
      FUZZ_REQUIRE(isfinite(v) && isfinite(e), "integral %g +- %g with %s", v, e, ekoc_status_str(rc));
    ekoc_quad_workspace_free(ws);
    ekoc_interp_free(ip);
  }
  return 0;
}
