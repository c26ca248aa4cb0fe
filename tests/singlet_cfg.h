/* singlet_cfg.h: the evolution singlet family the pole tests share
 * (tests/test_path_radius.c, tests/test_nspace_poles.c): NNPDF 40000000's
 * b-quark segment when nf = 5 (a_s 0.0172 -> 0.0093), one step. */
#ifndef EKOC_TESTS_SINGLET_CFG_H
#define EKOC_TESTS_SINGLET_CFG_H

#include <string.h>

#include "ad/nspace.h"
#include "ekoc.h"

/* Order `order`, nf flavours, method `method`, U matrices to max_order. */
static inline ekoc_nspace_config test_singlet_cfg(int nf, int order, int method, int max_order) {
  ekoc_nspace_config c;
  memset(&c, 0, sizeof c);
  c.kind = EKOC_KIND_EVOLUTION;
  c.family = EKOC_FAMILY_SINGLET;
  c.order = order;
  c.nf = nf;
  c.method = method;
  c.ev_op_iterations = 1;
  c.ev_op_max_order = max_order;
  c.a0 = 0.0172;
  c.a1 = 0.0093;
  c.use_fhmruvv = 1;
  if (ekoc_beta(nf, c.beta) != EKOC_OK) c.nf = -1; /* refused by every entry point */
  return c;
}

#endif
