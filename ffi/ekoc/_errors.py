"""Python exceptions for ekoc's status codes, each carrying the C message."""

from __future__ import annotations

# status codes of include/ekoc.h (explicit numbers, never reused)
OK = 0
ERR_NULL_POINTER = 1
ERR_INVALID_ARGUMENT = 2
ERR_INVALID_GRID = 3
ERR_INVALID_ORDER = 4
ERR_INVALID_NF = 5
ERR_INVALID_METHOD = 6
ERR_INVALID_SCALE = 7
ERR_NO_MEMORY = 8
ERR_INTEGRATION = 9
ERR_ANOMALOUS_DIMENSION = 10
ERR_NO_DEVICE = 11
ERR_UNSUPPORTED = 12
ERR_NUMERICAL = 13
ERR_INVALID_MODE = 14
ERR_INVALID_THRESHOLDS = 15
ERR_BUFFER_TOO_SMALL = 16
ERR_INVALID_DEGREE = 17
ERR_INVALID_ITERATIONS = 18
ERR_CANCELLED = 19


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


_VALUE = {ERR_NULL_POINTER, ERR_INVALID_ARGUMENT, ERR_INVALID_GRID, ERR_INVALID_ORDER, ERR_INVALID_NF,
          ERR_INVALID_METHOD, ERR_INVALID_SCALE, ERR_INVALID_MODE, ERR_INVALID_THRESHOLDS, ERR_BUFFER_TOO_SMALL,
          ERR_INVALID_DEGREE, ERR_INVALID_ITERATIONS}


def error_class(status: int) -> type:
    if status in _VALUE:
        return EkocValueError
    if status == ERR_NO_MEMORY:
        return EkocMemoryError
    if status == ERR_UNSUPPORTED:
        return EkocNotImplementedError
    if status == ERR_CANCELLED:
        return EkocCancelled
    if status == ERR_NO_DEVICE:
        return EkocNoDevice
    if status in (ERR_NUMERICAL, ERR_INTEGRATION, ERR_ANOMALOUS_DIMENSION):
        return EkocNumericalError
    return EkocError


#: status code -> its C name, for errors raised on the Python side
NAMES = {code: "EKOC_OK" if code == OK else "EKOC_" + name for name, code in globals().items()
         if name.startswith("ERR_") and isinstance(code, int)}


def fail(status: int, message: str, where: str = ""):
    """Raises the exception class of `status` for a check made in Python
    (the C library was not called), named like the C library's own errors."""
    raise error_class(status)(status, NAMES.get(status, "EKOC_ERR_UNKNOWN"), message, where)
