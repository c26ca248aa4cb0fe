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

    #: the card field (or solve argument) the error is about, when known
    field = None

    def __init__(self, status: int, status_name: str, message: str, where: str = ""):
        self.status = status
        self.status_name = status_name
        self.message = message
        self.where = where
        super().__init__(f"{_with_where(message, where)} [{status_name}]")


def _with_where(message: str, where: str) -> str:
    """``where: message``, the called function named once: the C library's
    messages begin with it already ("ekoc_compute: about ... needed"), and
    `where` may add to it ("ekoc_compute (card field mellin_cut)")."""
    if not where:
        return message
    function = where.split(" ", 1)[0]
    if message.startswith(f"{function}: "):
        message = message[len(function) + 2:]
    return f"{where}: {message}"


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


class _FieldError:
    """A bad card field or argument, found in Python before the C library is
    called: `field` is its path (``operator_card.configs.ev_op_max_order``,
    ``theory_card.couplings.alphas``, ``backend``, ``physics``, ``EKOC_ACCEL_BACKEND``),
    `value` the value found (ABSENT for a missing one) and `why` what is wrong
    with it. The message is ``field=value: why`` with the value rendered by
    repr (every digit of a float). `status_name` is the status the C library
    gives the same fault; `status` its code, read from the library when it is
    first asked for (None when the library cannot be loaded), so a card can be
    checked without loading it."""

    def __init__(self, field: str, value, why: str, status_name: str = "EKOC_ERR_INVALID_ARGUMENT"):
        self.field = field
        self.value = value
        self.why = why
        self.status_name = status_name
        self.where = ""
        if value is ABSENT:
            self.message = f"{field} {why}"
        else:
            self.message = f"{field}={render(value)}: {why}"
        Exception.__init__(self, self.message)

    @property
    def status(self):
        try:
            return codes().get(self.status_name)
        except ImportError:
            return None

    def __str__(self) -> str:  # KeyError would quote the message
        return self.message

    def __reduce__(self):  # picklable (multiprocessing) despite the keyword-free __init__
        return (type(self), (self.field, self.value, self.why, self.status_name))


class _Absent:
    def __repr__(self):
        return "<absent>"


#: the `value` of an EkocMissingFieldError
ABSENT = _Absent()


def render(value, limit: int = 120) -> str:
    """repr of a value (floats with every digit), long ones shortened in the middle."""
    text = repr(value)
    if len(text) > limit:
        text = f"{text[:limit // 2]}...{text[-limit // 2:]} ({type(value).__name__} of {len(text)} characters)"
    return text


class EkocFieldError(_FieldError, EkocValueError):
    """A card field or argument has a bad value (also a ValueError)."""


class EkocFieldTypeError(EkocFieldError, TypeError):
    """A card field or argument has the wrong type (a string for a number, a
    number for a list, ...): both a TypeError and, as an EkocFieldError, a
    ValueError, so code catching either keeps working."""


class EkocMissingFieldError(EkocFieldError, KeyError):
    """A required card field is absent (also a KeyError)."""


class EkocUnsupportedFieldError(_FieldError, EkocNotImplementedError):
    """A valid card value ekoc does not compute (also a NotImplementedError)."""

    def __init__(self, field: str, value, why: str, status_name: str = "EKOC_ERR_UNSUPPORTED"):
        super().__init__(field, value, why, status_name)


class EkocWarning(UserWarning):
    """A card value ekoc computes as eko does, which may not be what the card's
    author meant (e.g. an N3LO variation beyond the range eko implements)."""


#: every class a card or an argument check raises (the fuzz tests assert nothing else comes out)
FIELD_ERRORS = (EkocFieldError, EkocUnsupportedFieldError)


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
