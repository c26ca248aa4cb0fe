/* operator_internal.h (private): the computed operators. Each distinct
 * target (mu^2, nf) keeps its operator block-sparse in the evolution bases
 * (B_nf_out <- B_nf0), once however many target indices asked for it; the
 * flavour- and evolution-basis views are rotated out on request. */
#ifndef EKOC_EVOL_OPERATOR_INTERNAL_H
#define EKOC_EVOL_OPERATOR_INTERNAL_H

#include "ekoc.h"
#include "evol/blockop.h"

struct ekoc_operator {
  size_t nx, n_targets;
  int32_t nf0;
  int32_t unified;   /* 1: the operators map U_nf0 -> U_nf (QED), 0: B_nf0 -> B_nf */
  int32_t backend;   /* the engine that computed it (EKOC_BACKEND_*, never AUTO) */
  double *mu2;       /* n_targets */
  int32_t *nf;       /* n_targets: nf at each target */
  size_t *distinct;  /* n_targets: index of target i's operator in ops / taint (0 for target 0) */
  size_t n_distinct; /* operators held */
  ekoc_blockop *ops; /* n_distinct */
  size_t n_failed;
  /* n_distinct, or NULL when no quadrature failed: the same products as ops,
   * with error 1 on each part entry whose integral missed its tolerance and
   * 0 on the others, so a composed error > 0 marks an entry a failure reaches */
  ekoc_blockop *taint;
};

/* The operator (values) / taint of target i (i < n_targets). */
static inline const ekoc_blockop *ekoc_operator_values_of(const ekoc_operator *op, size_t i) {
  return &op->ops[op->distinct[i]];
}
static inline const ekoc_blockop *ekoc_operator_taint_of(const ekoc_operator *op, size_t i) {
  return &op->taint[op->distinct[i]];
}

#endif
