/* ekoc/operator.h: theory and operator request (eko's theory and operator
 * cards), computing evolution kernel operators, reading and applying them. */
#ifndef EKOC_OPERATOR_H
#define EKOC_OPERATOR_H

#include <stddef.h>
#include <stdint.h>

#include "ekoc/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Quadrature backends. */
enum {
  EKOC_BACKEND_ADAPTIVE = 0, /* GSL QAGS per operator entry, as eko (reference) */
  EKOC_BACKEND_BATCH = 1,    /* fixed Gauss-Legendre nodes, N-space work shared by all entries (CPU) */
  EKOC_BACKEND_GPU = 2,      /* the batch work on a CUDA device (libekoc_cuda.so) */
  /* each target's parts multiplied in N-space at the nodes of shared Talbot
   * paths, its operator inverted once, every entry on the path of its band
   * (docs/physics.md §3.2): one interpolation of the initial PDF instead of
   * one per part, no x-space products, no Mellin cut. CPU; QCD and QCD x QED;
   * the truncated, ordered-truncated and perturbative methods and the
   * backward-exact matchings with eko's per-row treatment of their poles
   * (docs/physics.md §3.3) */
  EKOC_BACKEND_NSPACE = 3,
  /* the default: the N-space engine, or the batch engine for what the
   * N-space engine does not compute (grid points closer than 1e-3 in ln x).
   * ekoc_operator_backend names the engine that ran. */
  EKOC_BACKEND_AUTO = 4
};

/* ---- growing the public structs without breaking callers ----------------------
 * ekoc_theory and ekoc_request start with `struct_size`, which the
 * initialisers below set to sizeof the struct *as the caller compiled it*
 * (they are macros over ekoc_theory_init / ekoc_request_init). Within a major
 * version fields are only ever appended, never moved, resized or removed; the
 * library reads the first struct_size bytes of a caller's struct and gives
 * every later field its default, so a program built against an older header
 * keeps working with a newer library. A struct_size the library does not know
 * (0: not initialised; smaller than the first versioned layout; larger than
 * the library's own: a newer header) is refused with EKOC_ERR_INVALID_ARGUMENT
 * naming the field. The per-point structs of ekoc/kernel.h are plain data of a
 * fixed layout per major version (bindings check it field by field). */

/* The physics, as eko's TheoryCard. Scales are squared, in GeV^2.
 * The physics axes (QCD order up to EKOC_MAX_ORDER, QED order, polarized,
 * time-like) are data: a combination the library does not compute yet is
 * refused by ekoc_compute with EKOC_ERR_UNSUPPORTED naming the field. */
typedef struct ekoc_theory {
  size_t struct_size;         /* set by ekoc_theory_default (see above) */
  int32_t order;              /* QCD order: 1 LO, 2 NLO, 3 NNLO, 4 aN3LO (eko order[0]) */
  double alphas;              /* alpha_s at the reference scale */
  double mu2_ref;             /* reference scale mu_ref^2 */
  int32_t nf_ref;             /* active flavours at the reference scale (3..6) */
  double masses[3];           /* pole masses of c, b, t in GeV (ascending) */
  double matching_ratios[3];  /* k_h: matching scales at (k_h m_h)^2; 0 and INFINITY allowed (FFNS) */
  double xif;                 /* factorisation-scale ratio mu_F/mu (1: no variation) */
  int32_t matching_order;     /* order of the matching OMEs; -1 means order-1 (eko's default) */
  int32_t qed_order;          /* QED order 0..EKOC_MAX_QED_ORDER (eko order[1]); > 0 with iterate-exact only */
  double alphaem;             /* alpha_em at mu_ref (eko couplings.alphaem; used when qed_order > 0) */
  int32_t em_running;         /* 0/1: alpha_em runs (eko couplings.em_running) */
  int32_t polarized;          /* 0/1: helicity-difference PDFs (eko configs.polarized); LO..NNLO, upward paths */
  int32_t time_like;          /* 0/1: fragmentation functions (eko configs.time_like); LO..NNLO */
  /* appended in 0.2 (struct_size growth rule): the N3LO anomalous dimensions, read at order 4 */
  int32_t n3lo_ad_variation[7]; /* eko's n3lo_ad_variation (gg, gq, qg, qq, ns+, ns-, nsV); default 0 = central */
  int32_t use_fhmruvv;          /* 1 (default, as eko): FHMRUVV parametrisations; 0: eko's own approximation;
                                 * 2: the 2512 set (arXiv:2512.10783, HOPPET's up_to_2512; docs/physics.md) */
  /* appended in 0.3 */
  int32_t reserved_0_2_padding; /* never read: the 4 bytes of tail padding of 0.2's layout, which callers
                                   built against it may leave unset, so that physics lies beyond them */
  int32_t physics; /* EKOC_PHYSICS_EKO (default, eko's approximations) or EKOC_PHYSICS_EXACT
                      (docs/physics.md §12.9) */
  /* appended after 0.3: MSbar heavy-quark masses (docs/physics.md §17) */
  int32_t reserved_0_3_padding; /* never read: 0.3's tail padding, which its callers may leave unset */
  double mass_scales[3];        /* MSbar: mu_h in GeV at which masses[h] = m_h(mu_h) is given (eko's
                                   [m, mu] pairs; mu_h = masses[h] means m(m) itself); pole: not read */
  int32_t masses_scheme;        /* EKOC_MASSES_POLE (default: masses are the pole masses, the
                                   thresholds) or EKOC_MASSES_MSBAR (eko's "msbar": the thresholds are
                                   m_h(m_h) as eko's msbar_masses.compute finds them, a_s decouples
                                   with eko's MSbar coefficients, the O(a_s^2) OMEs gain eko's MSbar
                                   terms); ekoc_theory_masses gives the threshold masses */
} ekoc_theory;

/* N-space values kept from one computation to the next, for the N-space
 * backend (the default) and the batch backend: the basis transforms at the
 * nodes of the inversion paths, the anomalous dimensions and OMEs there, and
 * (N-space backend) the node factors of every row. They depend only on the x
 * grid, the degree (and, for batch, its rule), the paths and (order, nf,
 * physics) — not on alpha_s, the scales, the method or the scale variation.
 * Give one cache to a series of computations on the same grid (alpha_s and
 * scale scans, a database of theories, the LHA tables) through
 * ekoc_request.nspace_cache; a computation on another grid or rule empties
 * what that backend keeps. At most max_bytes (0:
 * EKOC_NSPACE_CACHE_DEFAULT_BYTES) are held: batch, about 2 x 16 nx^2
 * (2 points + 1) panels bytes for the basis transforms plus 16 nx
 * (2 points + 1) panels (9 to 12 per NNLO family) per (order, nf) family;
 * N-space, ~5 MB for pineko's 50-point grid, ~12 MB on a 109-point grid,
 * values of paths the current computation does not use dropped first when
 * full. One computation uses a cache at a time: a computation that finds it
 * in use by another thread runs without it (same result, slower). The
 * adaptive and gpu backends ignore it. Results never depend on whether a
 * cache is used: they are the same bits. */
typedef struct ekoc_nspace_cache ekoc_nspace_cache;
#define EKOC_NSPACE_CACHE_DEFAULT_BYTES ((size_t)512 << 20)
int ekoc_nspace_cache_new(size_t max_bytes, ekoc_nspace_cache **out);
void ekoc_nspace_cache_free(ekoc_nspace_cache *cache); /* NULL is fine; not while a computation uses it */
/* Bytes of values held now (0 for NULL). */
size_t ekoc_nspace_cache_bytes(const ekoc_nspace_cache *cache);

/* The work, as eko's OperatorCard. */
typedef struct ekoc_request {
  size_t struct_size;         /* set by ekoc_request_default (see ekoc_theory) */
  double mu2_0;               /* initial scale mu_0^2 */
  int32_t nf0;                /* flavours at mu_0 (3..6) */
  const double *mu2;          /* target scales mu^2, n_targets of them (caller-owned, read during compute) */
  const int32_t *nf;          /* flavours at each target, or NULL / entries < 0 for eko's default nf at mu^2 */
  size_t n_targets;
  const double *xgrid;        /* interpolation grid, strictly ascending in (0, 1] */
  size_t nx;
  int32_t degree;             /* interpolation polynomial degree (log interpolation) */
  int32_t method;             /* EKOC_METHOD_* */
  int32_t ev_op_iterations;   /* steps of the iterate / perturbative methods */
  int32_t ev_op_max_order;    /* truncation order of the perturbative U matrices */
  int32_t sv_mode;            /* EKOC_SV_*; EKOC_SV_NONE requires xif = 1 */
  int32_t inversion_method;   /* backward matching: EKOC_MATCHING_BACKWARD_EXACT or _EXPANDED */
  int32_t backend;            /* EKOC_BACKEND_* */
  double epsabs, epsrel;      /* adaptive quadrature tolerances (eko: 1e-12, 1e-5) */
  int32_t limit;              /* adaptive subintervals (eko: 100) */
  double mellin_cut;          /* upper end of the path is 1 - cut (eko: 0.05) */
  int32_t n_threads;          /* worker threads; 0: OpenMP's default; at most max(64, 8 x omp_get_num_procs()) */
  int32_t batch_panels;       /* batch/gpu: equal panels of the first rule on [0.5, 1-cut] */
  int32_t batch_points;       /* batch/gpu: n Gauss points per panel, i.e. a (n, 2n+1) Gauss-Kronrod pair:
                                 the Kronrod sum is the value; rows whose entries miss epsabs/epsrel
                                 are refined by bisecting panels (at most min(limit, 64)), entries that
                                 still miss are flagged (ekoc_operator_failures; docs/physics.md §3) */
  /* Optional progress report: called after each target row of each part
   * with the rows done and the total, possibly from a worker thread, and
   * serialised with the other calls of this computation only (a callback may
   * run another computation; it never delays one). Inside a long row
   * (adaptive backend, large grids) it is also polled about every 0.2 s per
   * thread with the unchanged count. Returning non-zero cancels the
   * computation (ekoc_compute then returns EKOC_ERR_CANCELLED), seen within
   * a fraction of a second. Never called from the per-point kernel. */
  int (*progress)(void *data, uint64_t done, uint64_t total);
  void *progress_data;
  /* Optional (N-space and batch backends): N-space values shared with other
   * computations on the same grid, see ekoc_nspace_cache; NULL: the
   * computation keeps nothing (batch: its own for its parts only). */
  ekoc_nspace_cache *nspace_cache;
  /* ---- appended after the first layout (callers built before get the default) */
  size_t memory_budget; /* bytes ekoc_compute may hold; 0: the default, 3/4 of physical memory (sysconf) */
  int32_t interpolation_is_log; /* 1 (default): basis polynomials in ln x; 0: in x (eko's
                                   interpolation_is_log, ekoc_interp_alloc_ex) */
} ekoc_request;

/* Defaults: the LHA NNLO setup (alpha_s(2 GeV^2) = 0.35 with nf_ref = 4,
 * m = sqrt(2), 4.5, 175, k_h = 1, xif = 1), QCD only, unpolarized space-like,
 * alpha_em = 0.007496252 (eko's default) fixed. Sets struct_size. */
#define ekoc_theory_default(theory) ekoc_theory_init((theory), sizeof(ekoc_theory))
/* Defaults: mu_0^2 = 2, nf0 = 4, no targets and no grid (set them), degree 4,
 * iterate-exact with 10 iterations and max order 10, no scale variation,
 * expanded backward matching, the auto backend (EKOC_BACKEND_AUTO) with eko's tolerances,
 * batch 1 panel x 36 Gauss points (73 Gauss-Kronrod nodes). Sets struct_size. */
#define ekoc_request_default(request) ekoc_request_init((request), sizeof(ekoc_request))

/* What the two macros call: fill the first struct_size bytes of the struct
 * with the defaults (bindings pass their own sizeof). EKOC_ERR_NULL_POINTER,
 * or EKOC_ERR_INVALID_ARGUMENT for a struct_size the library does not know
 * (nothing written). */
int ekoc_theory_init(ekoc_theory *theory, size_t struct_size);
int ekoc_request_init(ekoc_request *request, size_t struct_size);

/* The threshold masses of c, b, t in GeV the computation uses for
 * `theory` (checked as ekoc_compute checks it) with the coupling of the
 * solution method `method` (EKOC_METHOD_*: the *-exact ones run a_s
 * exactly, the others expanded, as eko): the pole masses as given, or with
 * masses_scheme EKOC_MASSES_MSBAR the m_h(m_h) of ekoc_msbar_masses (eko's
 * msbar_masses.compute with xif^2). Errors (masses_out untouched): those of
 * the theory's validation (EKOC_ERR_INVALID_METHOD for `method`) and of
 * ekoc_msbar_masses, naming theory.masses[h]. */
int ekoc_theory_masses(const ekoc_theory *theory, int32_t method, double masses_out[3]);

/* sizeof the public structs in this library (for bindings that mirror them). */
size_t ekoc_theory_sizeof(void);
size_t ekoc_request_sizeof(void);

typedef struct ekoc_operator ekoc_operator;

/* Computes the evolution operators from (mu_0^2, nf0) to every target, with
 * eko's path through the heavy-quark thresholds. `profile` (may be NULL) is
 * reset and receives one record per stage (one per part; with the batch
 * backend parts integrated together, row by row, each record the span of
 * their group). On success *out owns the result;
 * on failure *out is untouched and nothing leaks. Integration entries that
 * missed their tolerance do not fail the call: see ekoc_operator_failures.
 *
 * Targets with the same (mu^2, nf), eko's default nf resolved (an entry < 0
 * and the explicit default are the same target), are computed and composed
 * once: every index that asked for one reads the same operator, with the
 * bits it would have alone.
 *
 * Before any work the call estimates the bytes it will hold (see
 * ekoc_request_estimate_bytes) and refuses a request above
 * request.memory_budget with EKOC_ERR_NO_MEMORY, naming the estimate and
 * the budget with their units (B to EB). Then it creates the worker
 * threads once itself (with libgomp's stack size: OMP_STACKSIZE /
 * GOMP_STACKSIZE, else the pthread default): where the system refuses them
 * (address-space or process limits) it returns EKOC_ERR_NO_MEMORY "could not create N threads (...)"
 * instead of libgomp's message and exit(1). request.n_threads is at most
 * max(64, 8 x omp_get_num_procs()) (EKOC_ERR_INVALID_ARGUMENT above). */
int ekoc_compute(const ekoc_theory *theory, const ekoc_request *request, ekoc_profile *profile, ekoc_operator **out);

/* Streaming: the targets handed to the caller one at a time instead of held
 * together. `fn(data, index, target)` is called from the calling thread for
 * every request index as soon as its operator is composed, before the next
 * distinct target is composed. `target` is a read-only view of that one
 * operator, valid only during the call: it holds one target (read it at
 * index 0 with ekoc_operator_target / _flavor / _evolution / _failed_flavor
 * / _apply; ekoc_operator_n_targets gives 1 and ekoc_operator_failures the
 * whole computation's count) and must not be freed or kept. The calls come
 * in the order the distinct targets are first asked for; a target asked for
 * at several indices (same (mu^2, nf), see ekoc_compute) is composed once
 * and fn is called for each of its indices in turn, ascending, with the
 * same view — so an index can come before a smaller one asked for a later
 * distinct target. The values, errors and failure flags are bitwise those
 * ekoc_compute gives. The library holds the parts (segments, matchings),
 * the composition's shared path prefixes and the one target being handed
 * out, instead of every target: the size estimate and the memory budget
 * count one target's operator (ekoc_request_estimate_bytes still counts
 * all, as ekoc_compute holds them). fn returning non-zero stops the
 * computation: EKOC_ERR_CANCELLED, naming the index and the value; no
 * further call. Errors as ekoc_compute's (the computation fails before the
 * first call, or at the target that fails; the calls already made stand),
 * plus EKOC_ERR_NULL_POINTER for a NULL fn. */
typedef int (*ekoc_target_fn)(void *data, size_t index, const ekoc_operator *target);
int ekoc_compute_stream(const ekoc_theory *theory, const ekoc_request *request, ekoc_profile *profile,
                        ekoc_target_fn fn, void *data);

/* The bytes ekoc_compute(theory, request, ...) would hold at most, without
 * computing anything: for each distinct target its block-sparse operator
 * (values and errors, 2 x 8 nx^2 bytes per nx x nx block, the blocks its
 * path through the thresholds fills: 15, 21, 29, 39 across 0..3 thresholds) and as much again for its failure mask; the parts
 * (evolution segments and matchings, 15 and 19 blocks each, with their
 * masks); the composition's products; and the quadrature driver's scratch:
 * per worker thread (adaptive: a 4096-entry N-space cache with basis values,
 * 64 KB x nx) plus the batch driver's N-space cache (within
 * EKOC_NSPACE_CACHE_DEFAULT_BYTES) or the gpu driver's host towers. An
 * upper bound; duplicate targets count once. Validates the cards as
 * ekoc_compute does (same errors); *bytes untouched on error. Bindings can
 * refuse a request early with it. */
int ekoc_request_estimate_bytes(const ekoc_theory *theory, const ekoc_request *request, size_t *bytes);

void ekoc_operator_free(ekoc_operator *op); /* NULL is fine */

size_t ekoc_operator_n_targets(const ekoc_operator *op);
/* The engine that computed op: EKOC_BACKEND_ADAPTIVE, _BATCH, _GPU or
 * _NSPACE (never _AUTO; -1 for NULL). */
int32_t ekoc_operator_backend(const ekoc_operator *op);
/* The engine ekoc_compute(theory, request, ...) would run (request.backend,
 * or what EKOC_BACKEND_AUTO chooses), without computing anything. Validates
 * the cards as ekoc_compute does (same errors); *backend untouched on error. */
int ekoc_request_backend(const ekoc_theory *theory, const ekoc_request *request, int32_t *backend);
size_t ekoc_operator_nx(const ekoc_operator *op);
/* The target scale and flavour number of target i. */
int ekoc_operator_target(const ekoc_operator *op, size_t i, double *mu2, int32_t *nf);
/* Number of integrals (one per entry of each computed part: evolution
 * segments and matchings, before composition) that missed their tolerance
 * (epsabs, epsrel): on the adaptive backend GSL's status was not GSL_SUCCESS
 * (subdivision limit, roundoff, ...) or its estimate, checked against the
 * 21-point rule on the halves of every final interval, is above the
 * tolerance; on the batch/gpu backends the engine's estimate after
 * refinement is (docs/physics.md §3). Such an entry keeps its value and
 * stated error, which then propagate into the targets' errors;
 * ekoc_operator_failed_flavor says which target entries they reach. 0 for
 * NULL. */
size_t ekoc_operator_failures(const ekoc_operator *op);

/* Which entries of target i's operator depend on an integral that missed its
 * tolerance: flags (may be NULL) gets the (14, nx, 14, nx) layout of
 * ekoc_operator_flavor, 1 where some failed part entry reaches the entry
 * through a non-zero product along the path (so its value and error rest on
 * the estimate of a failed integral), 0 elsewhere; *n_flagged (may be
 * NULL, not both) the number of 1s. All 0 when ekoc_operator_failures is 0.
 * len = 196*nx*nx when flags is given. Errors (outputs untouched):
 * EKOC_ERR_NULL_POINTER, EKOC_ERR_INVALID_ARGUMENT (i), EKOC_ERR_BUFFER_TOO_SMALL,
 * EKOC_ERR_NO_MEMORY. */
int ekoc_operator_failed_flavor(const ekoc_operator *op, size_t i, uint8_t *flags, size_t len, size_t *n_flagged);

/* The operator of target i as a dense (14, nx, 14, nx) row-major array
 * [out flavour][out x][in flavour][in x], in eko's flavour basis (PDG ids
 * 22, -6..-1, 21, 1..6); `errors` may be NULL. len = 196*nx*nx. Acts on PDF
 * values f(x) (not x f(x)), as eko's operators. */
int ekoc_operator_flavor(const ekoc_operator *op, size_t i, double *values, double *errors, size_t len);
/* The same in eko's evolution basis (ph, S, g, V, V3, V8, V15, V24, V35, T3, ..., T35). */
int ekoc_operator_evolution(const ekoc_operator *op, size_t i, double *values, double *errors, size_t len);

/* Applies target i's operator to a PDF on the grid: pdf_in[14][nx] in the
 * flavour basis at mu_0^2 (values f(x_j), not x f(x_j)), pdf_out[14][nx] at
 * mu^2. len = 14*nx. `profile` may be NULL (records an "apply" stage).
 * pdf_out is written only on success (it may be pdf_in itself). Errors:
 * EKOC_ERR_INVALID_ARGUMENT for a non-finite input (naming its index),
 * EKOC_ERR_NUMERICAL when a result would not be finite (finite inputs near
 * DBL_MAX overflow; the message names the output index, flavour and x
 * index), EKOC_ERR_NULL_POINTER, EKOC_ERR_BUFFER_TOO_SMALL, EKOC_ERR_NO_MEMORY. */
int ekoc_operator_apply(const ekoc_operator *op, size_t i, const double *pdf_in, double *pdf_out, size_t len,
                        ekoc_profile *profile);

#ifdef __cplusplus
}
#endif

#endif /* EKOC_OPERATOR_H */
