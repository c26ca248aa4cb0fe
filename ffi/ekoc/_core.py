"""Calls into libekoc with Python errors, and small wrappers (grid, profile, the N-space cache)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import _errors
from ._lib import ffi, load

# ekore status codes (include/ekore.h) -> the ekoc status whose class they raise
_EKORE_CLASS = {-1: "EKOC_ERR_NULL_POINTER", -2: "EKOC_ERR_INVALID_ORDER", -3: "EKOC_ERR_INVALID_MODE",
                -4: "EKOC_ERR_INVALID_NF", -5: "EKOC_ERR_INVALID_ARGUMENT", -7: "EKOC_ERR_INVALID_ARGUMENT",
                -8: "EKOC_ERR_INVALID_ARGUMENT"}
_EKORE_NAMES = {-1: "EKORE_ERR_NULL", -2: "EKORE_ERR_ORDER", -3: "EKORE_ERR_MODE", -4: "EKORE_ERR_NF",
                -5: "EKORE_ERR_DOMAIN", -6: "EKORE_ERR_PANIC", -7: "EKORE_ERR_VARIATION", -8: "EKORE_ERR_PHYSICS"}


def check(status: int, where: str = "") -> None:
    """Raises the exception of an ekoc status (with the thread's C message);
    must run on the thread that made the call, right after it."""
    if status == _errors.OK:
        return
    lib = load()
    message = ffi.string(lib.ekoc_last_error()).decode("utf-8", "replace")
    name = ffi.string(lib.ekoc_status_str(status)).decode("ascii", "replace")
    raise _errors.error_class(status)(status, name, message or name, where)


def check_ekore(status: int, where: str = "") -> None:
    """The same for the ekore_* functions (negative codes, their own message)."""
    if status == 0:
        return
    lib = load()
    message = ffi.string(lib.ekore_last_error()).decode("utf-8", "replace")
    cls = _errors.CLASS_OF.get(_EKORE_CLASS.get(status)) or _errors.EkocError
    raise cls(status, _EKORE_NAMES.get(status, f"EKORE_{status}"), message, where)


def dptr(array: np.ndarray):
    """cffi double* into a C-contiguous float64 array (kept alive by the caller)."""
    return ffi.from_buffer("double[]", array)


def lambert_grid(n: int, xmin: float) -> np.ndarray:
    """eko's lambertgrid(n, xmin): n points from xmin to 1 (ekoc_grid_lambert)."""
    lib = load()
    out = np.empty(int(n), dtype=float)
    check(lib.ekoc_grid_lambert(int(n), float(xmin), dptr(out)), "lambert_grid")
    return out


class Stage(NamedTuple):
    """One record of the node timer: nanoseconds from the computation's start."""

    stage: str
    start_ns: int
    end_ns: int

    @property
    def seconds(self) -> float:
        return (self.end_ns - self.start_ns) * 1e-9


class ProfileTable(list):
    """The (stage, start_ns, end_ns) records of one computation, in the order
    the stages finished; `dropped` counts records that found no room."""

    dropped: int = 0

    def total_ns(self, stage: str = "compute") -> int:
        """Duration of the first record named `stage` (the whole computation by default)."""
        for rec in self:
            if rec.stage == stage:
                return rec.end_ns - rec.start_ns
        raise KeyError(f"no stage named {stage!r}")

    def __str__(self) -> str:
        if not self:
            return "(no stages recorded)"
        width = max(len(r.stage) for r in self)
        lines = [f"{'stage':<{width}}  {'start ms':>10}  {'end ms':>10}  {'ms':>10}"]
        for r in self:
            lines.append(f"{r.stage:<{width}}  {r.start_ns / 1e6:10.3f}  {r.end_ns / 1e6:10.3f}  "
                         f"{(r.end_ns - r.start_ns) / 1e6:10.3f}")
        if self.dropped:
            lines.append(f"({self.dropped} records dropped for lack of room)")
        return "\n".join(lines)

    def _repr_html_(self) -> str:  # notebooks
        rows = "".join(f"<tr><td>{r.stage}</td><td>{r.start_ns / 1e6:.3f}</td><td>{r.end_ns / 1e6:.3f}</td>"
                       f"<td>{(r.end_ns - r.start_ns) / 1e6:.3f}</td></tr>" for r in self)
        return ("<table><tr><th>stage</th><th>start ms</th><th>end ms</th><th>ms</th></tr>" + rows + "</table>")


class Profile:
    """Owner of one ekoc_profile (the C node timer)."""

    def __init__(self, capacity: int = 4096):
        lib = load()
        out = ffi.new("ekoc_profile **")
        check(lib.ekoc_profile_new(int(capacity), out), "ekoc_profile_new")
        self.ptr = ffi.gc(out[0], lib.ekoc_profile_free)

    def table(self) -> ProfileTable:
        lib = load()
        n = lib.ekoc_profile_count(self.ptr)
        name = ffi.new("const char **")
        a = ffi.new("uint64_t *")
        b = ffi.new("uint64_t *")
        out = ProfileTable()
        for i in range(n):
            check(lib.ekoc_profile_get(self.ptr, i, name, a, b), "ekoc_profile_get")
            out.append(Stage(ffi.string(name[0]).decode("utf-8", "replace"), int(a[0]), int(b[0])))
        out.dropped = int(lib.ekoc_profile_dropped(self.ptr))
        return out


class NSpaceCache:
    """N-space values kept from one solve to the next (a warm engine).

    The basis transforms on the inversion paths, the anomalous dimensions
    and OMEs at their nodes and the rows' node factors depend on the x grid,
    the interpolation degree (batch: its rule) and (order, nf, physics), not
    on alpha_s, the scales, the method or the scale variation: pass one
    cache to a series of ``solve(..., nspace_cache=cache)`` calls on one
    grid (an alpha_s or scale scan, a database of theories; the N-space
    backend, the default, and batch use it) and they are computed once. The
    results are the same bits with or without it. A solve on another grid
    empties what that backend keeps; at most ``max_bytes`` are held (0: the
    library's default, 512 MiB; values of paths the current solve does not
    use are dropped first); one solve uses it at a time (a concurrent one
    runs without it). The C side is ekoc_nspace_cache.
    """

    def __init__(self, max_bytes: int = 0):
        lib = load()
        if max_bytes < 0:
            raise ValueError(f"max_bytes={max_bytes} is negative")
        out = ffi.new("ekoc_nspace_cache **")
        check(lib.ekoc_nspace_cache_new(max_bytes, out), "ekoc_nspace_cache_new")
        self._ptr = ffi.gc(out[0], lib.ekoc_nspace_cache_free)

    @property
    def nbytes(self) -> int:
        """Bytes of values held now."""
        return int(load().ekoc_nspace_cache_bytes(self._ptr))

    def __repr__(self):
        return f"NSpaceCache(nbytes={self.nbytes})"
