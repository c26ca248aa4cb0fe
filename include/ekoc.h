/* ekoc.h: the public C API of ekoc, DGLAP evolution kernel operators (EKOs)
 * computed in Mellin space and inverted onto an x-space interpolation grid,
 * with eko's conventions (https://github.com/NNPDF/eko).
 *
 * Conventions of the whole API:
 *  - every fallible function returns an int status (EKOC_OK = 0, codes below);
 *    ekoc_last_error() then holds a thread-local message naming the argument;
 *  - outputs go through out-pointers and are written only on success, unless
 *    a function's comment says otherwise;
 *  - handles are opaque, created by *_alloc / *_new / *_compute and released
 *    by the matching *_free, which accepts NULL;
 *  - the library never aborts, exits or prints.
 */
#ifndef EKOC_H
#define EKOC_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EKOC_VERSION_MAJOR 0
#define EKOC_VERSION_MINOR 3
#define EKOC_VERSION_PATCH 0

/* ---- status codes (explicit numbers, never reused) ------------------------ */
/* The one list of status codes: X(name, value) per code. The enum below, the
 * library's name table (ekoc_status_str) and, through ekoc_status_count and
 * ekoc_status_str, the Python package's codes are all generated from it.
 * A new code is appended here with the next free number; none is renumbered
 * or reused. */
#define EKOC_STATUS_LIST(X) \
  X(EKOC_OK, 0)                       /* success */ \
  X(EKOC_ERR_NULL_POINTER, 1)         /* a required pointer argument is NULL */ \
  X(EKOC_ERR_INVALID_ARGUMENT, 2)     /* NaN/inf or out-of-range number */ \
  X(EKOC_ERR_INVALID_GRID, 3)         /* x grid empty, unsorted, duplicate or outside (0,1] */ \
  X(EKOC_ERR_INVALID_ORDER, 4)        /* perturbative order outside 1..EKOC_MAX_ORDER */ \
  X(EKOC_ERR_INVALID_NF, 5)           /* number of flavours outside 3..6 */ \
  X(EKOC_ERR_INVALID_METHOD, 6)       /* unknown evolution method */ \
  X(EKOC_ERR_INVALID_SCALE, 7)        /* mu^2 <= 0, NaN or inf */ \
  X(EKOC_ERR_NO_MEMORY, 8)            /* an allocation failed */ \
  X(EKOC_ERR_INTEGRATION, 9)          /* quadrature did not reach its tolerance */ \
  X(EKOC_ERR_ANOMALOUS_DIMENSION, 10) /* the ekore crate reported an error */ \
  X(EKOC_ERR_NO_DEVICE, 11)           /* gpu backend unavailable (no libekoc_cuda or no device) */ \
  X(EKOC_ERR_UNSUPPORTED, 12)         /* a valid request ekoc does not implement (yet): N3LO, QED, polarized, time-like */ \
  X(EKOC_ERR_NUMERICAL, 13)           /* a non-finite number appeared in a result */ \
  X(EKOC_ERR_INVALID_MODE, 14)        /* unknown sector / mode / scheme */ \
  X(EKOC_ERR_INVALID_THRESHOLDS, 15)  /* masses or threshold ratios inconsistent */ \
  X(EKOC_ERR_BUFFER_TOO_SMALL, 16)    /* caller buffer shorter than required */ \
  X(EKOC_ERR_INVALID_DEGREE, 17)      /* interpolation degree < 1 or >= grid size */ \
  X(EKOC_ERR_INVALID_ITERATIONS, 18)  /* iteration or truncation count out of range */ \
  X(EKOC_ERR_CANCELLED, 19)           /* the progress callback asked to stop */

#define EKOC_STATUS_ENUMERATOR_(name, value) name = value,
enum { EKOC_STATUS_LIST(EKOC_STATUS_ENUMERATOR_) };
#undef EKOC_STATUS_ENUMERATOR_

/* Static name of a status code ("EKOC_OK", ...); "EKOC_ERR_UNKNOWN" otherwise. */
const char *ekoc_status_str(int status);

/* One more than the largest status code, so every code lies in
 * 0..ekoc_status_count()-1 and ekoc_status_str names it (a number no code
 * holds reads "EKOC_ERR_UNKNOWN"). Lets bindings take the codes from the
 * library they loaded instead of copying the list. */
int ekoc_status_count(void);

/* The message of the last error raised on the calling thread ("" if none).
 * The pointer stays valid until the next ekoc call on the same thread. */
const char *ekoc_last_error(void);

/* Switches GSL's aborting error handler off, once per process (thread-safe).
 * Every entry point that integrates calls it; calling it yourself is harmless. */
void ekoc_init(void);

/* ---- complex numbers at the boundary ---------------------------------------- */
/* Same layout as numpy complex128, C99 double _Complex and Rust #[repr(C)] (re, im). */
typedef struct ekoc_complex {
  double re, im;
} ekoc_complex;


/* ---- theory enumerations ------------------------------------------------------ */
/* Solution methods of the evolution equation (eko's `ev_op` / `method` names). */
enum {
  EKOC_METHOD_ITERATE_EXACT = 0,         /* "iterate-exact" (LHA default) */
  EKOC_METHOD_ITERATE_EXPANDED = 1,      /* "iterate-expanded" */
  EKOC_METHOD_PERTURBATIVE_EXACT = 2,    /* "perturbative-exact" */
  EKOC_METHOD_PERTURBATIVE_EXPANDED = 3, /* "perturbative-expanded" */
  EKOC_METHOD_TRUNCATED = 4,             /* "truncated" */
  EKOC_METHOD_ORDERED_TRUNCATED = 5,     /* "ordered-truncated" */
  EKOC_METHOD_DECOMPOSE_EXACT = 6,       /* "decompose-exact" */
  EKOC_METHOD_DECOMPOSE_EXPANDED = 7,    /* "decompose-expanded" */
  /* ekoc's own, not eko's: the exact solution (exact coupling, path-ordered
   * singlet), which iterate-exact approaches as ev_op_iterations grows, with a
   * sixth-order (Magnus) step instead of a second-order one, so a few
   * ev_op_iterations reach it; non-singlet: the closed form, as iterate-exact. */
  EKOC_METHOD_ORDERED_EXACT = 8          /* "ordered-exact" */
};
#define EKOC_METHOD_COUNT 9

/* Factorisation-scale variation schemes (eko's ModSV). */
enum {
  EKOC_SV_NONE = 0,           /* xif = 1 */
  EKOC_SV_EXPONENTIATED = 1,  /* scheme A: gamma re-expanded in a_s(xif^2 mu^2) */
  EKOC_SV_EXPANDED = 2        /* scheme B: K-factor applied to the last segment */
};

/* Where eko 0.15.7 approximates, which physics is computed (theory.physics,
 * ekoc_nspace_config.physics; docs/physics.md §12.9). */
enum {
  EKOC_PHYSICS_EKO = 0,  /* eko's (the default): g_3(N) of the NLO non-singlet from a 7-term fit, and the
                            n_f delta(1-x) constant of the parametrised P^(2)+_ns as -173.924 */
  EKOC_PHYSICS_EXACT = 1 /* the exact g_3(N) (wherever S_{-2,1} enters) and the exact NNLO anomalous
                            dimensions of Moch, Vermaseren, Vogt instead of their parametrisations
                            (docs/physics.md §12.11) */
};

/* Evolution sectors, named by eko's mode ids. */
enum {
  EKOC_SECTOR_NS_PLUS = 10101,
  EKOC_SECTOR_NS_MINUS = 10201,
  EKOC_SECTOR_NS_VALENCE = 10200,
  EKOC_SECTOR_SINGLET_QUARK = 100,
  EKOC_SECTOR_SINGLET_GLUON = 21
};

/* The largest QCD order the API describes (1 LO .. 4 N3LO; theory.order and
 * every order-indexed array are bounded by it). Orders the library does not
 * compute yet are refused with EKOC_ERR_UNSUPPORTED naming the field. */
#define EKOC_MAX_ORDER 4
/* The largest QED order the API describes (theory.qed_order, eko's order[1]). */
#define EKOC_MAX_QED_ORDER 2

/* Upper bounds of the iteration controls. */
#define EKOC_MAX_EV_OP_ITERATIONS 1000
#define EKOC_MAX_EV_OP_MAX_ORDER 30

#ifdef __cplusplus
}
#endif

/* ---- modules ------------------------------------------------------------------ */
#include "ekoc/interp.h" /* x-space interpolation basis, lambertgrid */
#include "ekoc/kernel.h" /* per-point Mellin-inversion kernel, N-space families, quad workspace */
#include "ekoc/profile.h" /* node timer */
#include "ekoc/operator.h" /* theory, request, compute, operators */
#include "ekoc/couplings.h" /* strong coupling a_s with heavy-quark thresholds */
#include "ekoc/interp_access.h" /* a basis function's area records (for ekoc_kernel_args) */
#include "ekoc/bindings.h" /* batch N-space evaluation for language bindings */

#endif /* EKOC_H */
