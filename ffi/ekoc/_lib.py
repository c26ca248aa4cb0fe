"""Loading libekoc.so and its C declarations (cffi, ABI mode).

The library is looked up, in this order:

1. the path in the environment variable ``EKOC_LIB``;
2. ``libekoc.so`` next to this package (``ekoc/lib/libekoc.so``), present when
   the package was installed from a tree that had a built library (see
   ``ffi/README.md``);
3. the repository's ``build/libekoc.so`` when the package runs from (or was
   installed in editable mode from) a checkout.

The declarations below mirror ``include/ekoc.h`` and ``include/ekore.h``
(only what the package calls); ``ffi/tests/test_abi_mirror.py`` checks every
struct field's offset and size against the C compiler and every prototype
against the headers. On load, struct sizes are also checked against the
library's own ``*_sizeof`` functions, so a library built from a different
header fails loudly instead of corrupting memory.
"""

from __future__ import annotations

import os
import pathlib
import threading

import cffi

CDEF = r"""
const char *ekoc_status_str(int status);
int ekoc_status_count(void);
const char *ekoc_last_error(void);
void ekoc_init(void);

typedef struct ekoc_complex { double re, im; } ekoc_complex;

/* interpolation */
typedef struct ekoc_interp ekoc_interp;
int ekoc_grid_lambert(size_t n, double xmin, double *x_out);
int ekoc_interp_alloc(const double *x, size_t n, int32_t degree, ekoc_interp **out);
void ekoc_interp_free(ekoc_interp *interp);
size_t ekoc_interp_size(const ekoc_interp *interp);
int ekoc_interp_eval(const ekoc_interp *interp, double x, double *weights_out, size_t n_out);
int ekoc_interp_basis_areas(const ekoc_interp *interp, size_t j, const double **areas, size_t *n_areas,
                            int32_t *degree_out);

/* N space and the per-point kernel */
typedef struct ekoc_nspace_config {
  int32_t kind;
  int32_t family;
  int32_t order;
  int32_t nf;
  int32_t method;
  int32_t ev_op_iterations;
  int32_t ev_op_max_order;
  int32_t sv_mode;
  int32_t is_threshold;
  int32_t matching_method;
  int32_t polarized;
  int32_t time_like;
  double sv_log;
  double a0, a1;
  double ome_log;
  double beta[4];
  int32_t n3lo_ad_variation[7];
  int32_t use_fhmruvv;
  int32_t qed_order;
  int32_t em_running;
  int32_t lepton_number;
  int32_t qed_reserved;
  double qed_log_step;
  const double *qed_couplings;
  int32_t physics;
  int32_t mass_scheme;
} ekoc_nspace_config;
int ekoc_beta(int32_t nf, double *beta_out4);
int ekoc_nspace_evaluate(const ekoc_nspace_config *cfg, double n_re, double n_im, double *out_re, double *out_im,
                         size_t out_len);
size_t ekoc_nspace_family_len(const ekoc_nspace_config *cfg);
int ekoc_nspace_evaluate_batch(const ekoc_nspace_config *cfg, const double *n_re, const double *n_im,
                               size_t count, double *out_re, double *out_im, size_t out_len);

typedef struct ekoc_quad_workspace ekoc_quad_workspace;
int ekoc_quad_workspace_alloc(size_t limit, ekoc_quad_workspace **out);
void ekoc_quad_workspace_free(ekoc_quad_workspace *ws);
int ekoc_quad_workspace_reserve_basis(ekoc_quad_workspace *ws, size_t nx);
void ekoc_quad_workspace_stats(const ekoc_quad_workspace *ws, uint64_t *hits, uint64_t *misses);

typedef struct ekoc_kernel_args {
  ekoc_nspace_config nspace;
  int32_t element;
  int32_t degree;
  double logx;
  const double *areas;
  size_t n_areas;
  const ekoc_interp *interp;
  int32_t basis_index;
  double subtract;
  ekoc_quad_workspace *workspace;
  int32_t status;
  double path_radius;
} ekoc_kernel_args;
size_t ekoc_nspace_config_sizeof(void);
size_t ekoc_kernel_args_sizeof(void);
double ekoc_quad_kernel(double u, void *args);
int ekoc_quad_integrate(ekoc_kernel_args *args, double cut, double epsabs, double epsrel, size_t limit,
                        double *value, double *error);

/* profile */
typedef struct ekoc_profile ekoc_profile;
int ekoc_profile_new(size_t capacity, ekoc_profile **out);
void ekoc_profile_free(ekoc_profile *p);
int ekoc_profile_reset(ekoc_profile *p);
uint64_t ekoc_profile_now_ns(const ekoc_profile *p);
int ekoc_profile_store(ekoc_profile *p, const char *name, uint64_t start_ns, uint64_t end_ns);
size_t ekoc_profile_count(const ekoc_profile *p);
size_t ekoc_profile_dropped(const ekoc_profile *p);
int ekoc_profile_get(const ekoc_profile *p, size_t i, const char **name, uint64_t *start_ns, uint64_t *end_ns);

/* theory, request, operators */
typedef struct ekoc_theory {
  size_t struct_size;
  int32_t order;
  double alphas;
  double mu2_ref;
  int32_t nf_ref;
  double masses[3];
  double matching_ratios[3];
  double xif;
  int32_t matching_order;
  int32_t qed_order;
  double alphaem;
  int32_t em_running;
  int32_t polarized;
  int32_t time_like;
  int32_t n3lo_ad_variation[7];
  int32_t use_fhmruvv;
  int32_t reserved_0_2_padding;
  int32_t physics;
  int32_t reserved_0_3_padding;
  double mass_scales[3];
  int32_t masses_scheme;
} ekoc_theory;

typedef struct ekoc_nspace_cache ekoc_nspace_cache;
int ekoc_nspace_cache_new(size_t max_bytes, ekoc_nspace_cache **out);
void ekoc_nspace_cache_free(ekoc_nspace_cache *cache);
size_t ekoc_nspace_cache_bytes(const ekoc_nspace_cache *cache);

typedef struct ekoc_request {
  size_t struct_size;
  double mu2_0;
  int32_t nf0;
  const double *mu2;
  const int32_t *nf;
  size_t n_targets;
  const double *xgrid;
  size_t nx;
  int32_t degree;
  int32_t method;
  int32_t ev_op_iterations;
  int32_t ev_op_max_order;
  int32_t sv_mode;
  int32_t inversion_method;
  int32_t backend;
  double epsabs, epsrel;
  int32_t limit;
  double mellin_cut;
  int32_t n_threads;
  int32_t batch_panels;
  int32_t batch_points;
  int (*progress)(void *data, uint64_t done, uint64_t total);
  void *progress_data;
  ekoc_nspace_cache *nspace_cache;
  size_t memory_budget;
  int32_t interpolation_is_log;
} ekoc_request;

int ekoc_theory_init(ekoc_theory *theory, size_t struct_size);
int ekoc_theory_masses(const ekoc_theory *theory, int32_t method, double masses_out[3]);
int ekoc_request_init(ekoc_request *request, size_t struct_size);
int ekoc_request_estimate_bytes(const ekoc_theory *theory, const ekoc_request *request, size_t *bytes);
size_t ekoc_theory_sizeof(void);
size_t ekoc_request_sizeof(void);

typedef struct ekoc_operator ekoc_operator;
int ekoc_compute(const ekoc_theory *theory, const ekoc_request *request, ekoc_profile *profile, ekoc_operator **out);
typedef int (*ekoc_target_fn)(void *data, size_t index, const ekoc_operator *target);
int ekoc_compute_stream(const ekoc_theory *theory, const ekoc_request *request, ekoc_profile *profile,
                        ekoc_target_fn fn, void *data);
void ekoc_operator_free(ekoc_operator *op);
size_t ekoc_operator_n_targets(const ekoc_operator *op);
size_t ekoc_operator_nx(const ekoc_operator *op);
int ekoc_operator_target(const ekoc_operator *op, size_t i, double *mu2, int32_t *nf);
size_t ekoc_operator_failures(const ekoc_operator *op);
int32_t ekoc_operator_backend(const ekoc_operator *op);
int ekoc_request_backend(const ekoc_theory *theory, const ekoc_request *request, int32_t *backend);
int ekoc_operator_failed_flavor(const ekoc_operator *op, size_t i, uint8_t *flags, size_t len, size_t *n_flagged);
int ekoc_operator_flavor(const ekoc_operator *op, size_t i, double *values, double *errors, size_t len);
int ekoc_operator_evolution(const ekoc_operator *op, size_t i, double *values, double *errors, size_t len);

typedef struct ekoc_couplings ekoc_couplings;
typedef struct ekoc_couplings_config {
  int32_t order;
  int32_t mode;
  double alphas_ref;
  double mu2_ref;
  int32_t nf_ref;
  double masses2[3];
  double thresholds_ratio2[3];
  double threshold_shift;
  int32_t max_nf;
  int32_t qed_order;
  double alphaem_ref;
  int32_t em_running;
  int32_t masses_scheme;
} ekoc_couplings_config;
void ekoc_couplings_config_default(ekoc_couplings_config *cfg);
size_t ekoc_couplings_config_sizeof(void);
int ekoc_msbar_kernel(int32_t order, int32_t mode, int32_t nf, double a0, double a1, double *ker_out);
int ekoc_msbar_evolve(const ekoc_couplings *c, double xif2, double m2_ref, double q2m_ref, int32_t nf_ref,
                      double q2_to, int32_t nf_to, double *m2_out);
int ekoc_msbar_masses(const ekoc_couplings_config *cfg, const double m_ref[3], const double mu_ref[3], double xif2,
                      double masses2_out[3]);
int ekoc_couplings_new(const ekoc_couplings_config *cfg, ekoc_couplings **out);
void ekoc_couplings_free(ekoc_couplings *c);
int ekoc_couplings_a_s(const ekoc_couplings *c, double mu2, int32_t nf_to, double *a_s_out);
int ekoc_operator_apply(const ekoc_operator *op, size_t i, const double *pdf_in, double *pdf_out, size_t len,
                        ekoc_profile *profile);

/* ekore: anomalous dimensions and OMEs (Rust, exported from libekoc.so) */
int32_t ekore_gamma_ns(uint32_t order, uint32_t mode, double n_re, double n_im, uint32_t nf, double *out_re,
                       double *out_im);
int32_t ekore_gamma_singlet(uint32_t order, double n_re, double n_im, uint32_t nf, double *out_re, double *out_im);
int32_t ekore_gamma_singlet_batch(uint32_t order, const double *n_re, const double *n_im, size_t count, uint32_t nf,
                                  double *out_re, double *out_im);
int32_t ekore_gamma_ns_batch(uint32_t order, uint32_t mode, const double *n_re, const double *n_im, size_t count,
                             uint32_t nf, double *out_re, double *out_im);
int32_t ekore_ome_ns(uint32_t order, double n_re, double n_im, uint32_t nf, double l, double *out_re, double *out_im);
int32_t ekore_ome_singlet(uint32_t order, double n_re, double n_im, uint32_t nf, double l, double *out_re,
                          double *out_im);
int32_t ekore_ome_singlet_msbar(uint32_t order, uint32_t physics, uint32_t is_msbar, double n_re, double n_im,
                                uint32_t nf, double l, double *out_re, double *out_im);
typedef struct ekore_n3lo {
  uint32_t variation[7];
  uint32_t use_fhmruvv;
} ekore_n3lo;
int32_t ekore_n3lo_check(const ekore_n3lo *n3lo);
int32_t ekore_n3lo_variation_max(uint32_t use_fhmruvv, uint32_t *out);
int32_t ekore_gamma_ns_batch_n3lo(uint32_t order, uint32_t mode, const ekore_n3lo *n3lo, const double *n_re,
                                  const double *n_im, size_t count, uint32_t nf, double *out_re, double *out_im);
int32_t ekore_gamma_singlet_batch_n3lo(uint32_t order, const ekore_n3lo *n3lo, const double *n_re, const double *n_im,
                                       size_t count, uint32_t nf, double *out_re, double *out_im);
int32_t ekore_gamma_ns_all_batch_physics(uint32_t order, const ekore_n3lo *n3lo, uint32_t physics, const double *n_re,
                                         const double *n_im, size_t count, uint32_t nf, double *out_re,
                                         double *out_im);
int32_t ekore_gamma_singlet_batch_physics(uint32_t order, const ekore_n3lo *n3lo, uint32_t physics,
                                          const double *n_re, const double *n_im, size_t count, uint32_t nf,
                                          double *out_re, double *out_im);
size_t ekore_gamma_qed_len(uint32_t sector, uint32_t order_qcd, uint32_t order_qed);
int32_t ekore_gamma_qed_batch(uint32_t sector, uint32_t order_qcd, uint32_t order_qed, const ekore_n3lo *n3lo,
                              const double *n_re, const double *n_im, size_t count, uint32_t nf, double *out_re,
                              double *out_im);
int32_t ekore_gamma_ns_all_batch_tl(uint32_t order, const double *n_re, const double *n_im, size_t count, uint32_t nf,
                                    double *out_re, double *out_im);
int32_t ekore_gamma_singlet_batch_tl(uint32_t order, const double *n_re, const double *n_im, size_t count, uint32_t nf,
                                     double *out_re, double *out_im);
int32_t ekore_ome_ns_tl(uint32_t order, double n_re, double n_im, uint32_t nf, double l, double *out_re, double *out_im);
int32_t ekore_ome_singlet_tl(uint32_t order, double n_re, double n_im, uint32_t nf, double l, double *out_re,
                             double *out_im);
int32_t ekore_gamma_ns_all_batch_pol(uint32_t order, const double *n_re, const double *n_im, size_t count, uint32_t nf,
                                     double *out_re, double *out_im);
int32_t ekore_gamma_singlet_batch_pol(uint32_t order, const double *n_re, const double *n_im, size_t count,
                                      uint32_t nf, double *out_re, double *out_im);
int32_t ekore_ome_ns_pol(uint32_t order, double n_re, double n_im, uint32_t nf, double l, double *out_re,
                         double *out_im);
int32_t ekore_ome_singlet_pol(uint32_t order, double n_re, double n_im, uint32_t nf, double l, double *out_re,
                              double *out_im);
const char *ekore_last_error(void);
"""

ffi = cffi.FFI()
ffi.cdef(CDEF)

_PACKAGE_DIR = pathlib.Path(__file__).resolve().parent
_lock = threading.Lock()
_lib = None
_lib_path = None


def candidates() -> list[tuple[str, pathlib.Path]]:
    """Where the library is looked for, in order, as (origin, path)."""
    out = []
    env = os.environ.get("EKOC_LIB")
    if env:
        out.append(("EKOC_LIB", pathlib.Path(env).expanduser()))
    out.append(("package", _PACKAGE_DIR / "lib" / "libekoc.so"))
    # a checkout: ffi/ekoc/_lib.py -> repository root two levels up; an
    # editable install points here as well
    repo = _PACKAGE_DIR.parents[1]
    out.append(("repository", repo / "build" / "libekoc.so"))
    recorded = _PACKAGE_DIR / "lib" / "REPO_BUILD"
    if recorded.is_file():  # written by setup at install time: the checkout it came from
        out.append(("recorded checkout", pathlib.Path(recorded.read_text().strip()) / "libekoc.so"))
    return out


def _missing_symbols(lib) -> list[str]:
    """The functions declared above (CDEF) that `lib` does not export, sorted.
    cffi resolves a name on first use, so a library lacking one (another
    .so under EKOC_LIB) would otherwise surface as an AttributeError in the
    middle of a computation."""
    missing = []
    for name in sorted(dir(lib)):
        try:
            getattr(lib, name)
        except AttributeError:
            missing.append(name)
    return missing


def _check_symbols(lib, origin: str, path: pathlib.Path) -> None:
    missing = _missing_symbols(lib)
    if missing:
        more = f" (and {len(missing) - 1} more of the {len(dir(lib))} functions the package declares)" \
            if len(missing) > 1 else ""
        label = f"EKOC_LIB={path}" if origin == "EKOC_LIB" else f"{path} ({origin})"
        raise ImportError(f"{label} does not export the symbol {missing[0]}{more}: it is not libekoc, or a "
                          "libekoc older than this package")


def _check_layout(lib) -> None:
    pairs = [("ekoc_theory", lib.ekoc_theory_sizeof), ("ekoc_request", lib.ekoc_request_sizeof),
             ("ekoc_nspace_config", lib.ekoc_nspace_config_sizeof),
             ("ekoc_kernel_args", lib.ekoc_kernel_args_sizeof),
             ("ekoc_couplings_config", lib.ekoc_couplings_config_sizeof)]
    for name, fn in pairs:
        want = int(fn())
        got = ffi.sizeof(name)
        if want != got:
            raise ImportError(
                f"libekoc at {_lib_path}: sizeof({name}) is {want} in the library but {got} in the Python "
                "declarations: the library was built from a different include/ekoc.h than this package")


def load():
    """The loaded library (cffi handle); loads it on first use.

    Raises ImportError naming every place looked at when none holds a
    loadable libekoc.so.
    """
    global _lib, _lib_path
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        for origin, path in candidates():
            if not path.is_file():
                tried.append(f"{origin}: {path} (absent)")
                if origin == "EKOC_LIB":
                    raise ImportError(f"EKOC_LIB={os.environ['EKOC_LIB']!r} does not name an existing file")
                continue
            try:
                # never unloaded (RTLD_NODELETE): libgomp's worker threads may
                # still be parked in the library when the interpreter exits,
                # and unmapping it under them crashes the process at exit
                lib = ffi.dlopen(str(path), ffi.RTLD_NOW | ffi.RTLD_NODELETE)
                _check_symbols(lib, origin, path)
            except (OSError, ImportError) as exc:
                tried.append(f"{origin}: {path} ({exc})")
                if origin == "EKOC_LIB":  # set, so no other place is tried
                    if isinstance(exc, ImportError):
                        raise
                    raise ImportError(f"EKOC_LIB={path}: cannot load: {exc}") from exc
                continue
            _lib_path = path
            _check_layout(lib)
            lib.ekoc_init()
            _lib = lib
            return lib
        raise ImportError("libekoc.so not found; looked at:\n  " + "\n  ".join(tried)
                          + "\nBuild it with `make` in the repository or set EKOC_LIB to its path.")


def library_path() -> pathlib.Path:
    """Path of the loaded libekoc.so."""
    load()
    return _lib_path


def has(name: str) -> bool:
    """Whether the loaded library exports `name` (optional features)."""
    lib = load()
    try:
        getattr(lib, name)
    except AttributeError:
        return False
    return True
