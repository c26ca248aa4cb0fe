"""numpy's BLAS held to one thread while ekoc applies operators.

The replicas are evolved inside the library's target callback, between two
of its OpenMP parallel regions; OpenBLAS's own worker threads then compete
with the library's for the same cores, and on 2 cores a product of the fit
grid ran at 2.5 GFLOP/s instead of 46 on one thread (NNPDF 40000000, 100
replicas: 21.6 s against 7.0 s). single_threaded_blas() sets the calling
thread's OpenBLAS to one thread for the block (OpenBLAS's thread-local
setter where it has one, else its global one, restored afterwards). Other
BLAS libraries, or none found in the process, are left alone.
"""

from __future__ import annotations

import contextlib
import ctypes
import pathlib

_UNSET = object()
_setter = _UNSET

# (set, get) pairs of OpenBLAS's global thread count: plain, and as numpy's scipy-openblas wheels prefix them
_GLOBAL = (("openblas_set_num_threads", "openblas_get_num_threads"),
           ("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"),
           ("scipy_openblas_set_num_threads", "scipy_openblas_get_num_threads"),
           ("openblas_set_num_threads64_", "openblas_get_num_threads64_"))


def _loaded_openblas() -> list[str]:
    maps = pathlib.Path("/proc/self/maps")
    if not maps.is_file():
        return []
    paths = []
    for line in maps.read_text().splitlines():
        path = line.split()[-1] if len(line.split()) >= 6 else ""
        if "openblas" in pathlib.Path(path).name.lower() and path not in paths:
            paths.append(path)
    return paths


def _find_setter():
    """A function n -> previous thread count for the calling thread, or None."""
    for path in _loaded_openblas():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        local = getattr(lib, "openblas_set_num_threads_local", None)
        if local is not None:
            local.argtypes, local.restype = [ctypes.c_int], ctypes.c_int
            return local
        for set_name, get_name in _GLOBAL:
            set_fn, get_fn = getattr(lib, set_name, None), getattr(lib, get_name, None)
            if set_fn is not None and get_fn is not None:
                set_fn.argtypes, set_fn.restype, get_fn.restype = [ctypes.c_int], None, ctypes.c_int

                def setter(n, set_fn=set_fn, get_fn=get_fn):
                    old = get_fn()
                    set_fn(n)
                    return old

                return setter
    return None


@contextlib.contextmanager
def single_threaded_blas():
    """OpenBLAS (numpy's, if that is what it uses) on one thread inside the block."""
    global _setter
    if _setter is _UNSET:
        import numpy  # noqa: F401 - numpy loads its BLAS

        _setter = _find_setter()
    if _setter is None:
        yield
        return
    old = _setter(1)
    try:
        yield
    finally:
        _setter(max(int(old), 1))
