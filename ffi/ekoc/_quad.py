"""ekoc.quad_kernel: the C per-point Mellin-inversion integrand as a
scipy.LowLevelCallable, so scipy.integrate.quad drives it with no Python in
the hot path.

    k = ekoc.quad_kernel(xgrid, k=3, j=5, family="singlet", element="gg",
                         order=2, nf=4, a0=0.2, a1=0.1)
    value, error = scipy.integrate.quad(k.callable, 0.5, 1 - 0.05,
                                        epsabs=1e-12, epsrel=1e-5, limit=100)
    k.integrate()   # ekoc_quad_integrate (GSL QAGS): the same numbers

The integrand is (1/pi) Re[-i x_k^{-N(u)} p~_j(N(u)) E(N(u)) dN/du] on the
upper half of eko's Talbot path, u in [1/2, 1 - cut] (include/ekoc/kernel.h).
"""

from __future__ import annotations

import warnings

import numpy as np

from . import _errors
from ._core import check, dptr
from ._lib import ffi, has, load
from ._nspace import config

ELEMENTS = {
    ("evolution", "ns"): {"ns+": 0, "ns-": 1, "nsv": 2},
    ("evolution", "singlet"): {"qq": 0, "qg": 1, "gq": 2, "gg": 3},
    ("matching", "ns"): {"qq": 0, "hh": 1},
    ("matching", "singlet"): {f"{a}{b}": 3 * i + j for i, a in enumerate("gqh") for j, b in enumerate("gqh")},
}
SIZES = {("evolution", "ns"): 3, ("evolution", "singlet"): 4, ("matching", "ns"): 2, ("matching", "singlet"): 9}


# fields of ekoc_kernel_args that point into memory the QuadKernel owns (the
# basis, its records, the workspace) or size it: the C kernel trusts them, so
# Python must not change them (issue 15, finding 8: interp=NULL with
# n_areas=10**6 made the kernel read far past the records)
_OWNED_FIELDS = ("areas", "n_areas", "interp", "workspace", "degree")


# the number fields of ekoc_kernel_args Python may write: (accepts, what the message adds to "finite")
_NUMBER_FIELDS = {
    "logx": (lambda v: v <= 0.0, " and <= 0"),
    "subtract": (lambda v: True, ""),
    "path_radius": (lambda v: v >= 0.0, " and >= 0 (0: eko's radius)"),
}


class KernelArgs:
    """The live ekoc_kernel_args of a QuadKernel, as `k.args`. Reading gives
    the struct's fields; writing is checked: `element`, `basis_index`,
    `logx`, `subtract`, `path_radius` (0: eko's Talbot radius) and `nspace`
    (a whole ekoc_nspace_config, validated by the library) can be changed,
    the fields that point into the kernel's own
    memory cannot. `nspace` reads as a copy: assign a modified copy back."""

    def __init__(self, kernel: "QuadKernel"):
        object.__setattr__(self, "_kernel", kernel)

    def __getattr__(self, name):
        raw = self._kernel._args
        if name == "nspace":
            return ffi.new("ekoc_nspace_config *", raw.nspace)[0]
        return getattr(raw, name)

    def __setattr__(self, name, value):
        k = self._kernel
        raw = k._args
        where = "quad_kernel.args"
        if name in _OWNED_FIELDS:
            raise AttributeError(f"{where}.{name} is read-only: it points into (or sizes) memory the kernel owns; "
                                 "build a new quad_kernel instead")
        if name == "element":
            size = int(load().ekoc_nspace_family_len(ffi.addressof(raw, "nspace")))
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= int(value) < size:
                _errors.fail(_errors.ERR_INVALID_ARGUMENT, f"{where}.element={value!r} outside 0..{size - 1}", where)
            raw.element = int(value)
        elif name == "basis_index":
            nx = len(k.xgrid)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= int(value) < nx:
                _errors.fail(_errors.ERR_INVALID_ARGUMENT, f"{where}.basis_index={value!r} outside 0..{nx - 1}",
                             where)
            raw.basis_index = int(value)
        elif name in _NUMBER_FIELDS:
            try:
                v = float(value)
            except (TypeError, ValueError):
                _errors.fail(_errors.ERR_INVALID_ARGUMENT, f"{where}.{name}={value!r} is not a number", where)
            allowed, condition = _NUMBER_FIELDS[name]
            if not np.isfinite(v) or not allowed(v):
                _errors.fail(_errors.ERR_INVALID_ARGUMENT, f"{where}.{name}={value!r} must be finite{condition}", where)
            setattr(raw, name, v)
        elif name == "nspace":
            cfg = ffi.new("ekoc_nspace_config *", value)
            out_re = ffi.new("double[9]")
            out_im = ffi.new("double[9]")
            check(load().ekoc_nspace_evaluate(cfg, 2.5, 1.0, out_re, out_im, 9), f"{where}.nspace")
            size = int(load().ekoc_nspace_family_len(cfg))
            if raw.element >= size:
                _errors.fail(_errors.ERR_INVALID_ARGUMENT,
                             f"{where}.nspace: family of {size} elements, but element={raw.element}", where)
            raw.nspace = cfg[0]
        elif name == "status":
            raw.status = int(value)
        else:
            raise AttributeError(f"{where} has no settable field {name!r}")


class IntegrationWarning(UserWarning):
    """GSL QAGS stopped without reaching the tolerance (the estimate is returned)."""


class QuadKernel:
    """Owner of one ekoc_kernel_args (and the basis and workspace it points
    to). `callable` is the scipy.LowLevelCallable; `integrate()` runs ekoc's
    own GSL QAGS on the same struct; calling the object evaluates the
    integrand at u. Not thread-safe when `cache` is on (one workspace)."""

    def __init__(self, xgrid, k: int, j: int, *, degree: int = 4, kind: str = "evolution", family: str = "ns",
                 element=0, order: int, nf: int, a0: float = 0.0, a1: float = 0.0,
                 method: str = "iterate-exact", ev_op_iterations: int = 10, ev_op_max_order: int = 10,
                 sv_mode: str | None = None, xif: float = 1.0, is_threshold: bool = False, L: float = 0.0,
                 matching_method: str = "forward", subtract: float = 0.0, cache: bool = True,
                 limit: int = 100):
        lib = load()
        self.xgrid = np.ascontiguousarray(np.asarray(xgrid, dtype=float))
        nx = len(self.xgrid)
        interp = ffi.new("ekoc_interp **")
        check(lib.ekoc_interp_alloc(dptr(self.xgrid), nx, int(degree), interp), "ekoc_interp_alloc")
        self._interp = ffi.gc(interp[0], lib.ekoc_interp_free)
        if not (0 <= int(k) < nx) or not (0 <= int(j) < nx):
            _errors.fail(_errors.ERR_INVALID_ARGUMENT, f"k={k}, j={j} must be grid indices 0..{nx - 1}", "quad_kernel")
        cfg = config(kind, family, order=order, nf=nf, a0=a0, a1=a1, method=method,
                     ev_op_iterations=ev_op_iterations, ev_op_max_order=ev_op_max_order, sv_mode=sv_mode, xif=xif,
                     is_threshold=is_threshold, L=L, matching_method=matching_method, where="quad_kernel")
        key = (kind, "ns" if cfg.family == 0 else "singlet")
        if isinstance(element, str):
            if element.lower() not in ELEMENTS[key]:
                _errors.fail(_errors.ERR_INVALID_ARGUMENT, f"element={element!r} is not one of {list(ELEMENTS[key])}",
                             "quad_kernel")
            element = ELEMENTS[key][element.lower()]
        if not 0 <= int(element) < SIZES[key]:
            _errors.fail(_errors.ERR_INVALID_ARGUMENT, f"element={element} outside 0..{SIZES[key] - 1}", "quad_kernel")
        args = ffi.new("ekoc_kernel_args *")
        args.nspace = cfg[0]
        args.element = int(element)
        args.degree = int(degree)
        if has("ekoc_interp_basis_areas"):  # the records themselves (the kernel also finds them via interp)
            areas = ffi.new("const double **")
            n_areas = ffi.new("size_t *")
            deg = ffi.new("int32_t *")
            check(lib.ekoc_interp_basis_areas(self._interp, int(j), areas, n_areas, deg), "ekoc_interp_basis_areas")
            args.degree = deg[0]
            args.areas = areas[0]
            args.n_areas = n_areas[0]
        args.logx = float(np.log(self.xgrid[int(k)]))
        args.interp = self._interp
        args.basis_index = int(j)
        args.subtract = float(subtract)
        self._ws = ffi.NULL
        if cache:
            ws = ffi.new("ekoc_quad_workspace **")
            check(lib.ekoc_quad_workspace_alloc(int(limit), ws), "ekoc_quad_workspace_alloc")
            self._ws = ffi.gc(ws[0], lib.ekoc_quad_workspace_free)
            check(lib.ekoc_quad_workspace_reserve_basis(self._ws, nx), "ekoc_quad_workspace_reserve_basis")
        args.workspace = self._ws
        self._args = args
        self.k, self.j, self.limit = int(k), int(j), int(limit)

    @property
    def args(self) -> KernelArgs:
        """The kernel's ekoc_kernel_args: fields readable, the safe ones
        settable with checks (see KernelArgs)."""
        return KernelArgs(self)

    @property
    def status(self) -> int:
        """0, or the code of the first failure inside the kernel (it then returned NaN)."""
        return int(self._args.status)

    @property
    def callable(self):
        """scipy.LowLevelCallable over ekoc_quad_kernel with this struct as user data."""
        from scipy import LowLevelCallable

        lib = load()
        fn = ffi.cast("double (*)(double, void *)", lib.ekoc_quad_kernel)
        return LowLevelCallable(fn, ffi.cast("void *", self._args))

    def __call__(self, u: float) -> float:
        value = load().ekoc_quad_kernel(float(u), self._args)
        if self._args.status != 0:
            status = int(self._args.status)
            self._args.status = 0
            check(status, "ekoc_quad_kernel")
        return value

    def integrate(self, cut: float = 0.05, epsabs: float = 1e-12, epsrel: float = 1e-5,
                  limit: int | None = None) -> tuple[float, float]:
        """(value, error) of ekoc_quad_integrate: GSL QAGS over [0.5, 1 - cut]
        (needs the workspace: cache=True). When GSL stops short of the
        tolerance the estimate is still returned, with an IntegrationWarning
        (scipy.integrate.quad does the same)."""
        if self._ws == ffi.NULL:
            _errors.fail(_errors.ERR_NULL_POINTER,
                         "integrate() needs the GSL workspace: build the kernel with cache=True", "quad_kernel")
        value = ffi.new("double *")
        error = ffi.new("double *")
        lim = self.limit if limit is None else int(limit)
        status = load().ekoc_quad_integrate(self._args, float(cut), float(epsabs), float(epsrel), lim, value, error)
        if status == _errors.ERR_INTEGRATION:
            # like scipy.integrate.quad: the estimate is kept, with a warning
            message = ffi.string(load().ekoc_last_error()).decode("utf-8", "replace")
            warnings.warn(f"ekoc_quad_integrate: {message}", IntegrationWarning, stacklevel=2)
        else:
            check(status, "ekoc_quad_integrate")
        return float(value[0]), float(error[0])

    def quad(self, cut: float = 0.05, epsabs: float = 1e-12, epsrel: float = 1e-5, limit: int | None = None):
        """scipy.integrate.quad of `callable` with eko's settings; raises the
        kernel's C error if it failed at some node."""
        from scipy import integrate

        self._args.status = 0
        lim = self.limit if limit is None else int(limit)
        res = integrate.quad(self.callable, 0.5, 1.0 - cut, epsabs=epsabs, epsrel=epsrel, limit=lim,
                             full_output=1)
        if self._args.status != 0:
            status = int(self._args.status)
            self._args.status = 0
            check(status, "ekoc_quad_kernel (under scipy.integrate.quad)")
        return res[0], res[1]


def quad_kernel(xgrid, k: int, j: int, **kwargs) -> QuadKernel:
    """The integrand of operator entry (x_k, basis j) for one N-space element
    as a QuadKernel; `.callable` is the scipy.LowLevelCallable. Keyword
    arguments: degree, kind ("evolution" | "matching"), family ("ns" |
    "singlet"), element (index or name: ns+, ns-, nsV; qq, qg, gq, gg;
    matching qq, hh or gg..hh), order, nf, a0, a1, method, ev_op_iterations,
    ev_op_max_order, sv_mode, xif, is_threshold, L, matching_method,
    subtract, cache, limit."""
    return QuadKernel(xgrid, k, j, **kwargs)
