/* interp_access.c: read access to a basis function's area records
 * (include/ekoc/interp_access.h) and the binding helpers of
 * include/ekoc/bindings.h (family size, batch N-space evaluation). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/nspace.h"
#include "ekoc/bindings.h"
#include "ekoc/interp_access.h"
#include "quad/interp.h"
#include "status.h"

/* Records of basis j, straight from the basis (no copy); a log basis only. */
int ekoc_interp_basis_areas(const ekoc_interp *interp, size_t j, const double **areas, size_t *n_areas,
                            int32_t *degree_out) {
  size_t n;
  const double *rec;
  if (!interp || !areas || !n_areas)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_interp_basis_areas: interp, areas and n_areas must not be NULL");
  if (j >= interp->n)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_interp_basis_areas: j=%zu outside 0..%zu", j, interp->n - 1);
  if (!interp->is_log) /* the records' meaning (monomials in ln x) has no linear counterpart */
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT,
                      "ekoc_interp_basis_areas: the basis is linear in x, its functions have no ln-x monomial records; "
                      "give ekoc_kernel_args.interp instead");
  rec = ekoc_interp_areas(interp, j, &n);
  *areas = rec;
  *n_areas = n;
  if (degree_out) *degree_out = interp->degree;
  return EKOC_OK;
}

size_t ekoc_nspace_family_len(const ekoc_nspace_config *cfg) {
  if (!cfg) return 0;
  if (cfg->kind != EKOC_KIND_EVOLUTION && cfg->kind != EKOC_KIND_MATCHING) return 0;
  if (cfg->family < EKOC_FAMILY_NS || cfg->family > EKOC_FAMILY_QED_SINGLET) return 0;
  if (ekoc_nspace_is_qed(cfg) && cfg->kind != EKOC_KIND_EVOLUTION) return 0;
  return (size_t)ekoc_nspace_family_size(cfg);
}

/* All points into a scratch buffer, copied out on success only. Allocates
 * once per call (not a per-point function). */
int ekoc_nspace_evaluate_batch(const ekoc_nspace_config *cfg, const double *n_re, const double *n_im, size_t count,
                               double *out_re, double *out_im, size_t out_len) {
  ekoc_complex vals[EKOC_NSPACE_MAX_ELEMENTS];
  double *scratch;
  size_t size, p, e;
  int rc;
  if (!cfg || !n_re || !n_im || !out_re || !out_im)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_nspace_evaluate_batch: cfg, n_re, n_im, out_re, out_im must not be NULL");
  rc = ekoc_nspace_cfg_check(cfg);
  if (rc != EKOC_OK) return rc;
  size = (size_t)ekoc_nspace_family_size(cfg);
  if (count > ((size_t)-1) / (2 * size * sizeof(double)))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_nspace_evaluate_batch: count=%zu too large", count);
  if (out_len < count * size)
    return ekoc_error(EKOC_ERR_BUFFER_TOO_SMALL, "ekoc_nspace_evaluate_batch: out_len=%zu < count*%zu=%zu", out_len,
                      size, count * size);
  for (p = 0; p < count; ++p)
    if (!isfinite(n_re[p]) || !isfinite(n_im[p]))
      return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_nspace_evaluate_batch: N[%zu]=(%g,%g) is not finite", p,
                        n_re[p], n_im[p]);
  if (count == 0) return EKOC_OK;
  scratch = malloc(2 * count * size * sizeof *scratch);
  if (!scratch) return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_nspace_evaluate_batch: out of memory for %zu points", count);
  for (p = 0; p < count; ++p) {
    rc = ekoc_nspace_eval(cfg, c_make(n_re[p], n_im[p]), vals);
    if (rc != EKOC_OK) {
      char msg[200];
      snprintf(msg, sizeof msg, "%s", ekoc_last_error());
      free(scratch);
      return ekoc_error(rc, "ekoc_nspace_evaluate_batch: point %zu: %s", p, msg);
    }
    for (e = 0; e < size; ++e)
      if (!isfinite(vals[e].re) || !isfinite(vals[e].im)) {
        free(scratch);
        return ekoc_error(EKOC_ERR_NUMERICAL,
                          "ekoc_nspace_evaluate_batch: point %zu: element %zu at N=(%g,%g) is (%g,%g), not finite", p,
                          e, n_re[p], n_im[p], vals[e].re, vals[e].im);
      }
    for (e = 0; e < size; ++e) {
      scratch[p * size + e] = vals[e].re;
      scratch[count * size + p * size + e] = vals[e].im;
    }
  }
  memcpy(out_re, scratch, count * size * sizeof *scratch);
  memcpy(out_im, scratch + count * size, count * size * sizeof *scratch);
  free(scratch);
  return EKOC_OK;
}
