/* operator_internal.h (private): the computed operators. Each target keeps
 * its operator block-sparse in the evolution bases (B_nf_out <- B_nf0); the
 * flavour- and evolution-basis views are rotated out on request. */
#ifndef EKOC_EVOL_OPERATOR_INTERNAL_H
#define EKOC_EVOL_OPERATOR_INTERNAL_H

#include "ekoc.h"
#include "evol/blockop.h"

struct ekoc_operator {
  size_t nx, n_targets;
  int32_t nf0;
  double *mu2;      /* n_targets */
  int32_t *nf;      /* n_targets: nf at each target */
  ekoc_blockop *ops; /* n_targets */
  size_t n_failed;
  /* n_targets, or NULL when no quadrature failed: the same products as ops,
   * with error 1 on each part entry whose integral missed its tolerance and
   * 0 on the others, so a composed error > 0 marks an entry a failure reaches */
  ekoc_blockop *taint;
};

#endif
