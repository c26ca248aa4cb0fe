/* ekoc/kernel.h: the per-point Mellin-inversion kernel, public so that any
 * integrator (GSL, scipy.LowLevelCallable, your own) can drive it.
 *
 *   double ekoc_quad_kernel(double u, void *args);   args -> ekoc_kernel_args
 *
 * returns (1/pi) Re[-i x^{-N(u)} p~_j(N(u)) K(N(u)) dN/du] on the upper half of
 * the Talbot path (u in [1/2, 1 - cut]), where K is one element of an N-space
 * family (evolution kernel or matching matrix, docs/physics.md §3-4, §6-8).
 */
#ifndef EKOC_KERNEL_H
#define EKOC_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Kinds and families of N-space elements (see ekoc_nspace_config). */
enum { EKOC_KIND_EVOLUTION = 0, EKOC_KIND_MATCHING = 1 };
enum { EKOC_FAMILY_NS = 0, EKOC_FAMILY_SINGLET = 1, EKOC_FAMILY_QED_NS = 2, EKOC_FAMILY_QED_SINGLET = 3 };
/* How a matching matrix is built (eko's inversion_method). */
enum { EKOC_MATCHING_FORWARD = 0, EKOC_MATCHING_BACKWARD_EXACT = 1, EKOC_MATCHING_BACKWARD_EXPANDED = 2 };

/* One family of elements evaluated together at the same N (numbers only).
 * Elements of each family:
 *   evolution, ns      (path offset 0): 0 ns+, 1 ns-, 2 nsV
 *   evolution, singlet (offset 1):      0 qq, 1 qg, 2 gq, 3 gg        ((Sigma, g) order)
 *   matching,  ns      (offset 0):      0 (200,200) light, 1 (91,91) heavy h-
 *   matching,  singlet (offset 1):      0..8 = 3x3 row-major in (g, q, H)
 *   evolution with QED (qed_order > 0, eko's unified basis, docs/physics.md §15):
 *     qed_ns      (offset 0): 0 ns+u, 1 ns+d, 2 ns-u, 3 ns-d (eko 10102, 10103, 10202, 10203),
 *                             4..7 the valence 2x2 row-major in (V, V_Delta)
 *     qed_singlet (offset 1): 0..15 = 4x4 row-major in (g, photon, Sigma, Sigma_Delta) */
typedef struct ekoc_nspace_config {
  int32_t kind;             /* EKOC_KIND_* */
  int32_t family;           /* EKOC_FAMILY_* */
  int32_t order;            /* evolution: QCD order 1..EKOC_MAX_ORDER; matching: OME order 0..EKOC_MAX_MATCHING_ORDER */
  int32_t nf;               /* evolution: active flavours; matching: flavours below the threshold */
  int32_t method;           /* EKOC_METHOD_* (evolution) */
  int32_t ev_op_iterations; /* (evolution) */
  int32_t ev_op_max_order;  /* (evolution) */
  int32_t sv_mode;          /* EKOC_SV_* */
  int32_t is_threshold;     /* evolution segment ending on a threshold: no expanded-sv K factor */
  int32_t matching_method;  /* EKOC_MATCHING_* (matching) */
  int32_t polarized;        /* 0/1: helicity-difference anomalous dimensions / OMEs (LO..NNLO, OMEs to a_s^2) */
  int32_t time_like;        /* 0/1: time-like anomalous dimensions / matching (LO..NNLO, OMEs at a_s) */
  double sv_log;            /* ln(xif^2) */
  double a0, a1;            /* evolution: a_s at start/end; matching: a1 = a_s^(nf+1) at the threshold */
  double ome_log;           /* matching: ln(mu_h^2/m_h^2) = ln(k_h^2) */
  double beta[4];           /* beta_0..beta_3 at nf (ekoc_beta_coefficients) */
  /* The N3LO (order 4) anomalous dimensions eko's theory card selects; read at order 4 only. */
  int32_t n3lo_ad_variation[7]; /* eko's n3lo_ad_variation (gg, gq, qg, qq, ns+, ns-, nsV); 0 = central */
  int32_t use_fhmruvv;          /* 1: the FHMRUVV parametrisations (eko's default); 0: eko's own approximation;
                                 * 2: the 2512 set (arXiv:2512.10783) */
  /* QED (the qed_* families only; 0.3 appended these). eko iterates a QED segment in
   * ev_op_iterations steps geometric in mu2: a_s at the step ends, (a_s, a_em) at the
   * steps' arithmetic midpoints (docs/physics.md §15.3). */
  int32_t qed_order;     /* eko's order[1]: 1 or 2 */
  int32_t em_running;    /* 0/1: a_em runs (scale variations read it) */
  int32_t lepton_number; /* eko's nl at the segment's end (exponentiated scale variation) */
  int32_t qed_reserved;  /* 0; keeps the struct free of padding (it is compared bytewise) */
  double qed_log_step;   /* ln(mu2_from / mu2_to) / ev_op_iterations */
  const double *qed_couplings; /* 3 ev_op_iterations + 1 numbers, owned by the caller: a_s at the
                                  ev_op_iterations + 1 step ends, then a_s and then a_em at the
                                  ev_op_iterations midpoints */
  /* 0.3 appended these (every family) */
  int32_t physics;          /* EKOC_PHYSICS_EKO (0, eko's approximations) or EKOC_PHYSICS_EXACT
                               (docs/physics.md §12.9) */
  int32_t mass_scheme;      /* (matching) EKOC_MASSES_POLE (0) or EKOC_MASSES_MSBAR (1): the singlet
                               O(a_s^2) OME gains eko's MSbar-mass terms (unpolarized space-like
                               only, as eko; ekore_ome_singlet_msbar); 0 for evolution; was the
                               padding field physics_reserved (same place and size) */
} ekoc_nspace_config;

/* Fills beta_0..beta_3 for nf flavours (eko's normalisation, a_s = alpha_s/(4 pi)). */
int ekoc_beta(int32_t nf, double *beta_out4);

/* Evaluates every element of a family at complex N (out: up to 16 values).
 * Returns EKOC_OK or an error code (EKOC_ERR_NUMERICAL when an element is not
 * finite); on error `out` is untouched. */
int ekoc_nspace_evaluate(const ekoc_nspace_config *cfg, double n_re, double n_im, double *out_re, double *out_im,
                         size_t out_len);

/* Per-thread scratch of the kernel and the adaptive driver: the GSL
 * integration workspace (`limit` subintervals) and a cache of N-space family
 * values keyed by the exact inputs (reused across basis functions and
 * elements that share an inversion node). Not thread-safe: one per thread. */
typedef struct ekoc_quad_workspace ekoc_quad_workspace;
int ekoc_quad_workspace_alloc(size_t limit, ekoc_quad_workspace **out);
void ekoc_quad_workspace_free(ekoc_quad_workspace *ws); /* NULL is fine */
/* Makes room in the cache for the transforms of `nx` basis functions per
 * node (used when ekoc_kernel_args.interp is set). Allocates; call it before
 * the integration loop, never inside it. */
int ekoc_quad_workspace_reserve_basis(ekoc_quad_workspace *ws, size_t nx);
/* Cache statistics since allocation (either pointer may be NULL). */
void ekoc_quad_workspace_stats(const ekoc_quad_workspace *ws, uint64_t *hits, uint64_t *misses);

/* Arguments of ekoc_quad_kernel (mirrored by the Python layer). */
typedef struct ekoc_kernel_args {
  ekoc_nspace_config nspace;      /* what is inverted */
  int32_t element;                /* which element of the family */
  int32_t degree;                 /* interpolation degree of the basis function, 1..EKOC_INTERP_MAX_DEGREE
                                     (areas, degree and n_areas are ignored when interp is set) */
  double logx;                    /* ln x_k: the inversion point */
  const double *areas;            /* basis function j: n_areas rows of (lmin, lmax, c_0..c_degree) */
  size_t n_areas;
  const struct ekoc_interp *interp; /* optional: the whole basis, with basis_index = j; then the
                                     workspace caches all P_j at a node (needs
                                     ekoc_quad_workspace_reserve_basis) */
  int32_t basis_index;
  double subtract;                /* constant removed from the element before inversion; its inverse,
                                     subtract * delta_kj, is added back by the caller (0: none) */
  ekoc_quad_workspace *workspace; /* per-thread scratch, or NULL (no cache) */
  int32_t status;                 /* 0, or the error code of the first failure (then the kernel returned NaN) */
  double path_radius;             /* radius r of the Talbot path; 0: eko's r(x) = 6.4/(0.1 - logx)
                                     (the adaptive driver moves it off the poles of the truncated
                                     singlet kernels, docs/physics.md §3.1) */
} ekoc_kernel_args;

/* sizeof the mirrored structs (bindings compare them with their own layout). */
size_t ekoc_nspace_config_sizeof(void);
size_t ekoc_kernel_args_sizeof(void);

/* The integrand, with the plain GSL / scipy signature. Never allocates; on
 * failure (args NULL, element outside its family, basis_index outside the
 * basis, no records, degree out of range, N-space evaluation failed) sets
 * args->status, records ekoc_last_error() and returns NaN. The N-space
 * configuration is validated as by ekoc_quad_integrate whenever the family is
 * evaluated (on every call without a workspace, on a cache miss with one); a
 * QED family's qed_couplings must hold 3 * ev_op_iterations + 1 values. */
double ekoc_quad_kernel(double u, void *args);

/* Integrates ekoc_quad_kernel over u in [0.5, 1 - cut] with GSL QAGS
 * (eko: epsabs 1e-12, epsrel 1e-5, limit 100, cut 0.05), using the
 * workspace's GSL workspace. Validates every argument first (as
 * ekoc_nspace_evaluate for args->nspace; element, basis_index, degree, logx
 * finite and <= 0, subtract finite, cut in [0, 0.5), finite tolerances not
 * both 0, 1 <= limit <= the workspace's) and writes nothing when one is bad.
 * Writes value and error estimate even when GSL reports a failure; returns
 * EKOC_OK, EKOC_ERR_INTEGRATION (message names the GSL code) or the kernel's
 * error. */
int ekoc_quad_integrate(ekoc_kernel_args *args, double cut, double epsabs, double epsrel, size_t limit,
                        double *value, double *error);

#ifdef __cplusplus
}
#endif

#endif /* EKOC_KERNEL_H */
