/* nspace_engine.h (private): the N-space backend (EKOC_BACKEND_NSPACE,
 * docs/physics.md §3.2). Instead of inverting every part of a target's path
 * on the x grid and multiplying the x-space operators, it multiplies the
 * parts' N-space matrices at the nodes of shared inversion paths
 * (evol/nspace_compose.h) and inverts each target's operator once, entry by
 * entry on the band path that fits it (quad/band_plan.h, quad/band_invert.h):
 * one interpolation of the initial PDF instead of one per part, and the
 * N-space work of a band shared by every row. */
#ifndef EKOC_EVOL_NSPACE_ENGINE_H
#define EKOC_EVOL_NSPACE_ENGINE_H

#include <stddef.h>

#include "ekoc.h"
#include "evol/blockop.h"
#include "evol/plan.h"

/* First and largest number of intervals of a band's rule: a band whose
 * entries miss the tolerance is recomputed with twice the intervals. */
#define EKOC_NSPACE_NODES_FIRST 64
#define EKOC_NSPACE_NODES_MAX 512

/* Targets inverted together when streamed (ekoc_compute_stream): the band
 * work of an inversion is shared by its targets, so one at a time repeats
 * it per target (NNPDF 40000000, fit grid, 57 targets, 1 thread: 18.7 s
 * one at a time, 4.3-4.9 s 16 at a time (478 MB), 2.8-3.1 s 32 at a time
 * (625 MB), 3.0-3.5 s all 57 held (945 MB)); a bounded number keeps the
 * memory bounded whatever the number of targets. */
#ifndef EKOC_NSPACE_STREAM_TARGETS
#define EKOC_NSPACE_STREAM_TARGETS 32
#endif

/* The magnification of the QED runs (evol/nspace_engine.c): NNPDF 40000100
 * on pineko's grid, 2 targets, 104 entries flagged at EKOC_BAND_MAGNIFICATION
 * (then 12.8), none at 9 (0.28 s against 0.72 s). */
#define EKOC_NSPACE_QED_MAGNIFICATION 9.0

/* How the paths are laid out: the defaults (quad/band_plan.h: magnification
 * EKOC_BAND_MAGNIFICATION, bands of EKOC_BAND_RATIO; rules from
 * EKOC_NSPACE_NODES_FIRST intervals) unless a test asks for others (other
 * paths, more nodes: the same integrals). */
typedef struct ekoc_nspace_engine_options {
  double magnification, ratio;
  int first_nodes; /* even, <= EKOC_NSPACE_NODES_MAX */
  int probe;       /* 1 (default): a band's first pass probes a few rows and may start on twice the nodes
                      (nspace_engine.c, PROBE_ROWS); 0: every band's first pass on first_nodes */
  int poison;      /* tests: 1 fills the arrays the bands write with NaN first, so that an entry no band
                      writes is reported (EKOC_ERR_NUMERICAL) instead of left as it was; 0 (default) */
} ekoc_nspace_engine_options;
void ekoc_nspace_engine_options_default(ekoc_nspace_engine_options *o);

/* The operators of the plan's distinct targets t0 .. t0 + n - 1 (paths laid
 * out as *opt says; NULL: the defaults) into ops[0..n-1]
 * (initialised, empty) in the evolution bases (B_nf(target) <- B_nf0), and
 * their taints into taints[0..n-1] (error 1 on the entries that miss the
 * request's tolerance, no blocks where none does), both in row ranges
 * (evol/blockop.h: each row from the first column a band or the diagonal
 * takes; exactly zero left of it); *n_failed is increased
 * by the entries that miss it. Records the profile stage "bands".
 * Errors: EKOC_ERR_NO_MEMORY, the N-space evaluation's errors,
 * EKOC_ERR_NUMERICAL (a non-finite value at a node or entry, the message
 * naming it), EKOC_ERR_CANCELLED (progress callback). */
int ekoc_nspace_engine_run(const ekoc_plan *p, const ekoc_interp *ip, const ekoc_request *rq, size_t t0, size_t n,
                           const ekoc_nspace_engine_options *opt, ekoc_profile *prof, ekoc_blockop *ops,
                           ekoc_blockop *taints, size_t *n_failed);

#endif /* EKOC_EVOL_NSPACE_ENGINE_H */
