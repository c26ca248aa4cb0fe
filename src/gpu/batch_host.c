/* batch_host.c: anomalous-dimension and OME towers for many N at once, from
 * the ekore crate (include/ekore.h), for the batch and GPU drivers. */
#include "gpu/batch_host.h"

#include "ekore.h"
#include "status.h"

static int ekore_failure(int32_t rc, const char *what) {
  return ekoc_error(EKOC_ERR_ANOMALOUS_DIMENSION, "%s failed (ekore code %d): %s", what, (int)rc, ekore_last_error());
}

int ekoc_batch_towers(const ekoc_nspace_cfg *cfg, size_t count, const double *n_re, const double *n_im,
                      double *scratch, ekoc_complex *tower) {
  size_t len = (size_t)ekoc_bd_tower_len(cfg), p;
  size_t order = (size_t)cfg->order, i;
  double *re = scratch, *im = scratch + count * EKOC_BD_MAX_TOWER;
  int32_t rc;
  if (count == 0 || len == 0) return EKOC_OK;
  if (cfg->kind == EKOC_KIND_EVOLUTION && cfg->family == EKOC_FAMILY_NS) {
    /* the three sectors in one call sharing each point's harmonic sums; the
     * layout (3p + m)*order + k is the tower's: len = 3*order */
    rc = ekore_gamma_ns_all_batch((uint32_t)order, n_re, n_im, count, (uint32_t)cfg->nf, re, im);
    if (rc != 0) return ekore_failure(rc, "ekore_gamma_ns_all_batch");
    for (p = 0; p < count * len; ++p) tower[p] = c_make(re[p], im[p]);
  } else if (cfg->kind == EKOC_KIND_EVOLUTION) {
    rc = ekore_gamma_singlet_batch((uint32_t)order, n_re, n_im, count, (uint32_t)cfg->nf, re, im);
    if (rc != 0) return ekore_failure(rc, "ekore_gamma_singlet_batch");
    for (p = 0; p < count * len; ++p) tower[p] = c_make(re[p], im[p]);
  } else {
    for (p = 0; p < count; ++p) {
      rc = cfg->family == EKOC_FAMILY_NS
               ? ekore_ome_ns((uint32_t)order, n_re[p], n_im[p], (uint32_t)cfg->nf, cfg->ome_log, re, im)
               : ekore_ome_singlet((uint32_t)order, n_re[p], n_im[p], (uint32_t)cfg->nf, cfg->ome_log, re, im);
      if (rc != 0) return ekore_failure(rc, cfg->family == EKOC_FAMILY_NS ? "ekore_ome_ns" : "ekore_ome_singlet");
      for (i = 0; i < len; ++i) tower[p * len + i] = c_make(re[i], im[i]);
    }
  }
  return EKOC_OK;
}
