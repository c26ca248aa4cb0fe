"""Python exceptions for ekoc's status codes, each carrying the C message."""

from __future__ import annotations

import threading

# The status codes themselves (numbers and names) come from the loaded library
# (ekoc_status_count, ekoc_status_str), whose include/ekoc.h lists them once
# (EKOC_STATUS_LIST). This module only says which Python class each code
# name raises (CLASS_OF below); ffi/tests/test_errors.py checks that every
# code of the library has an entry here and every entry a code there.
# OK, ERR_NULL_POINTER, ... and NAMES are read lazily (module __getattr__),
# so importing the package does not load the library.


class EkocError(RuntimeError):
    """An ekoc C call failed: `status` is the code, `status_name` its name
    (e.g. "EKOC_ERR_INVALID_NF"), `message` the library's own message."""

    def __init__(self, status: int, status_name: str, message: str, where: str = ""):
        self.status = status
        self.status_name = status_name
        self.message = message
        self.where = where
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}{message} [{status_name}]")


class EkocValueError(EkocError, ValueError):
    """Bad input (grid, order, nf, scale, method, ...)."""


class EkocMemoryError(EkocError, MemoryError):
    """An allocation failed inside the library."""


class EkocNotImplementedError(EkocError, NotImplementedError):
    """A valid request ekoc does not implement."""


class EkocCancelled(EkocError):
    """The progress callback (or Ctrl-C) stopped the computation."""


class EkocNoDevice(EkocError):
    """The gpu backend is unavailable (no libekoc_cuda.so or no device)."""


class EkocNumericalError(EkocError, ArithmeticError):
    """A non-finite number, a failed quadrature or an ekore domain error."""


#: status name -> the Python class it raises (the Python-specific part)
CLASS_OF = {
    "EKOC_OK": None,
    "EKOC_ERR_NULL_POINTER": EkocValueError,
    "EKOC_ERR_INVALID_ARGUMENT": EkocValueError,
    "EKOC_ERR_INVALID_GRID": EkocValueError,
    "EKOC_ERR_INVALID_ORDER": EkocValueError,
    "EKOC_ERR_INVALID_NF": EkocValueError,
    "EKOC_ERR_INVALID_METHOD": EkocValueError,
    "EKOC_ERR_INVALID_SCALE": EkocValueError,
    "EKOC_ERR_NO_MEMORY": EkocMemoryError,
    "EKOC_ERR_INTEGRATION": EkocNumericalError,
    "EKOC_ERR_ANOMALOUS_DIMENSION": EkocNumericalError,
    "EKOC_ERR_NO_DEVICE": EkocNoDevice,
    "EKOC_ERR_UNSUPPORTED": EkocNotImplementedError,
    "EKOC_ERR_NUMERICAL": EkocNumericalError,
    "EKOC_ERR_INVALID_MODE": EkocValueError,
    "EKOC_ERR_INVALID_THRESHOLDS": EkocValueError,
    "EKOC_ERR_BUFFER_TOO_SMALL": EkocValueError,
    "EKOC_ERR_INVALID_DEGREE": EkocValueError,
    "EKOC_ERR_INVALID_ITERATIONS": EkocValueError,
    "EKOC_ERR_CANCELLED": EkocCancelled,
}

UNKNOWN_NAME = "EKOC_ERR_UNKNOWN"
_tables: tuple | None = None  # ({name: code}, {code: name}) of the loaded library
_tables_lock = threading.Lock()


def _read_tables() -> tuple:
    global _tables
    if _tables is None:
        with _tables_lock:
            if _tables is None:
                from ._lib import ffi, load

                lib = load()
                by_name = {}
                for code in range(int(lib.ekoc_status_count())):
                    name = ffi.string(lib.ekoc_status_str(code)).decode("ascii")
                    if name != UNKNOWN_NAME:
                        by_name[name] = code
                _tables = (by_name, {code: name for name, code in by_name.items()})
    return _tables


def codes() -> dict:
    """{name: code} of every status of the loaded library (loads it)."""
    return dict(_read_tables()[0])


def status_name(status: int) -> str:
    """The C name of a status code ("EKOC_ERR_UNKNOWN" for none)."""
    return _read_tables()[1].get(status, UNKNOWN_NAME)


def error_class(status: int) -> type:
    """The exception class a status raises (EkocError for a code this
    package does not know, e.g. one a newer library added)."""
    return CLASS_OF.get(status_name(status)) or EkocError


def __getattr__(attr: str):
    """OK, ERR_<X> (the code of EKOC_ERR_<X>) and NAMES ({code: name}), from the library."""
    if attr == "NAMES":
        return dict(_read_tables()[1])
    if attr == "OK" or attr.startswith("ERR_"):
        code = _read_tables()[0].get("EKOC_" + attr)
        if code is not None:
            return code
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


def fail(status: int, message: str, where: str = ""):
    """Raises the exception class of `status` for a check made in Python
    (the C library was not called), named like the C library's own errors."""
    raise error_class(status)(status, status_name(status), message, where)
