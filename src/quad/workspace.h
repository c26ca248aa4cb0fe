/* workspace.h (private): layout of the per-thread quadrature workspace. */
#ifndef EKOC_QUAD_WORKSPACE_H
#define EKOC_QUAD_WORKSPACE_H

#include <gsl/gsl_integration.h>

#include "ad/nspace.h"

/* Direct-mapped cache of N-space family values; a power of two. The adaptive
 * driver visits far fewer distinct nodes per target point than this. */
#define EKOC_NSPACE_CACHE_SIZE 4096

typedef struct ekoc_nspace_cache_entry {
  int32_t valid;
  int32_t has_basis;       /* basis[] of this slot holds P_j(N; logx) for all j */
  int32_t n_single;        /* P_j computed one by one so far (their bits in `known`) */
  double u, logx, radius;  /* node, inversion point and path radius */
  ekoc_nspace_config cfg;  /* the family (compared bytewise) */
  ekoc_complex n, dn;      /* the path point N(u) and dN/du */
  ekoc_complex values[EKOC_NSPACE_MAX_ELEMENTS];
} ekoc_nspace_cache_entry;

struct ekoc_quad_workspace {
  gsl_integration_workspace *gsl;
  size_t limit;
  uint64_t hits, misses;
  size_t basis_nx;         /* P_j values per slot in `basis` (0: none) */
  ekoc_complex *basis;     /* EKOC_NSPACE_CACHE_SIZE * basis_nx */
  uint8_t *known;          /* EKOC_NSPACE_CACHE_SIZE * ceil(basis_nx / 8) bits: P_j of a slot computed alone */
  ekoc_nspace_cache_entry cache[EKOC_NSPACE_CACHE_SIZE];
};

#endif
