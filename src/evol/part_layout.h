/* part_layout.h (private): the elements of a part (an evolution segment or a
 * matching, evol/plan.h) and where each goes in the part's block operator
 * (the evolution basis B_nf, or U_nf with QED: evol/basis.h). Shared by the
 * assembly of integrated parts (evol/run.c) and the composition of the parts
 * in N-space (evol/nspace_compose.h), so both place the same element on the
 * same block. */
#ifndef EKOC_EVOL_PART_LAYOUT_H
#define EKOC_EVOL_PART_LAYOUT_H

#include <stdint.h>

#include "ad/nspace.h" /* ekoc_complex, EKOC_NSPACE_MAX_ELEMENTS */
#include "evol/basis.h"
#include "evol/plan.h"
#include "quad/job.h" /* EKOC_JOB_MAX_ELEMENTS */

/* One element of a part: its family (index into ekoc_plan_job.family) and
 * index in the family, and whether it is a diagonal element (initial value
 * 1 at the (x=1, x=1) corner, eko's convention). */
typedef struct ekoc_element_map {
  int32_t family, element, diagonal;
} ekoc_element_map;

/* The elements of part j in the order the layout reads them: segment
 * non-singlets (one per distinct kernel, up to 3) then the singlet 2x2;
 * matching (q,q), (H,H) then the singlet 3x3; QED segments their 8 + 16.
 * Returns their number (at most EKOC_JOB_MAX_ELEMENTS). */
int ekoc_part_elements(const ekoc_plan_job *j, ekoc_element_map *m);

/* A block that is the identity instead of an element (intrinsic heavy
 * flavours above nf, the photon of a QED matching). */
#define EKOC_PART_IDENTITY (-1)

/* Where the elements go: block (a[q], b[q]) of the part's operator holds
 * element e[q] (an index into ekoc_part_elements' list) or the identity
 * (e[q] = EKOC_PART_IDENTITY). Every other block is zero. */
typedef struct ekoc_part_layout {
  int n;
  int a[EKOC_NB * EKOC_NB], b[EKOC_NB * EKOC_NB], e[EKOC_NB * EKOC_NB];
} ekoc_part_layout;

/* The layout of part j (unified: QED bases) whose elements are m[0..n-1]
 * (ekoc_part_elements). */
void ekoc_part_layout_of(const ekoc_plan_job *j, int unified, const ekoc_element_map *m, int n, ekoc_part_layout *out);

/* A family's values at EKOC_PART_PROBES unrelated points, made once for
 * all its elements (done: made without error). */
#define EKOC_PART_PROBES 3
typedef struct {
  int done;
  ekoc_complex v[EKOC_PART_PROBES][EKOC_NSPACE_MAX_ELEMENTS];
} ekoc_part_probe;

/* Fills probe with cfg's values at the probe points; an evaluation error is returned (probe->done stays 0). */
int ekoc_part_probe_family(const ekoc_nspace_config *cfg, ekoc_part_probe *probe);

/* Whether element e is independent of N at the probe points; then *c is its
 * value. Matching elements whose OME terms vanish (e.g. every non-intrinsic
 * entry at NLO with L = 0) are such constants: the inverse Mellin transform
 * of c p_j(N) at x_k is exactly c delta_kj, while the quadrature of a
 * non-decaying integrand would only approach it slowly. */
int ekoc_part_probe_constant(const ekoc_part_probe *probe, int e, double *c);

/* ekoc_part_probe_constant for element e of family cfg, whose probe (zeroed
 * at first) is filled on the first call and reused for its other elements:
 * one evaluation of the family per point, not one per element. *rc: an
 * evaluation error (then 0 is returned). */
int ekoc_part_element_constant(const ekoc_nspace_config *cfg, ekoc_part_probe *probe, int e, double *c, int *rc);

#endif /* EKOC_EVOL_PART_LAYOUT_H */
