"""Typed readers of runcard fields and call arguments.

Each reader takes the value and its path (``operator_card.configs.ev_op_iterations``)
and returns the value in the Python type ekoc uses, or raises one of the
field errors of ``_errors`` (EkocFieldError and its TypeError / KeyError
variants) naming the path and the value. Nothing else escapes: a card
field can never surface as numpy's TypeError, an IndexError or cffi's
OverflowError. The rules:

- numbers are real numbers: ints or floats, not strings, not booleans;
- integers are ints, or floats with an integral value (4.0, as a YAML or
  JSON file may write them); they must fit the library's int32_t;
- booleans are True / False, or the ints 0 / 1 (never strings: "False" is
  refused rather than read as true);
- choices are strings from a fixed list (or None where the card allows it).
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Mapping
from typing import Any

from ._errors import ABSENT, EkocFieldError, EkocFieldTypeError, EkocMissingFieldError

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
#: the smallest positive normal double: a square below it has lost its digits
DOUBLE_MIN_NORMAL = sys.float_info.min


def _type_name(value: Any) -> str:
    return type(value).__name__


def need(mapping: Mapping, key: str, where: str):
    """mapping[key], or EkocMissingFieldError naming ``where.key``."""
    if key not in mapping:
        raise EkocMissingFieldError(f"{where}.{key}", ABSENT, "is missing")
    return mapping[key]


def mapping(value: Any, where: str) -> Mapping:
    if not isinstance(value, Mapping):
        raise EkocFieldTypeError(where, value, f"must be a mapping (dict) of fields, not {_type_name(value)}")
    return value


def unknown(d: Mapping, known: set, where: str) -> None:
    """Refuses keys of `d` outside `known`, naming the first one."""
    extra = sorted((k for k in d if k not in known), key=repr)
    if extra:
        first = extra[0]
        raise EkocFieldError(f"{where}.{first}", d[first],
                             f"unknown field of {where} (unknown: {extra}; eko 0.15's fields are {sorted(known)})")


def sequence(value: Any, where: str, length: int | None = None, *, allow_empty: bool = True) -> list | tuple:
    """A list or tuple (of `length` items when given)."""
    if not isinstance(value, (list, tuple)):
        raise EkocFieldTypeError(where, value, f"must be a list, not {_type_name(value)}")
    if length is not None and len(value) != length:
        raise EkocFieldError(where, value, f"must have {length} entries, not {len(value)}")
    if not allow_empty and not value:
        raise EkocFieldError(where, value, "must not be empty")
    return value


def number(value: Any, where: str) -> float:
    """A real number (int or float; not a string, not a boolean) as a float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise EkocFieldTypeError(where, value, f"must be a number, not {_type_name(value)}")
    try:
        return float(value)
    except (OverflowError, ValueError, TypeError):
        raise EkocFieldError(where, value, "does not fit a double") from None


def finite_positive(value: Any, where: str) -> float:
    """A finite number > 0."""
    out = number(value, where)
    if not (math.isfinite(out) and out > 0):
        raise EkocFieldError(where, value, "must be finite and > 0")
    return out


def integer(value: Any, where: str, lo: int = INT32_MIN, hi: int = INT32_MAX) -> int:
    """An integer in [lo, hi] (by default the library's int32_t); 4.0 reads as 4."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise EkocFieldTypeError(where, value, f"must be an integer, not {_type_name(value)}")
    if isinstance(value, numbers.Integral):
        out = int(value)
    else:
        as_float = float(value)
        if not (math.isfinite(as_float) and as_float == math.floor(as_float)):
            raise EkocFieldError(where, value, "must be an integer")
        out = int(as_float)
    if not lo <= out <= hi:
        if (lo, hi) == (INT32_MIN, INT32_MAX):
            raise EkocFieldError(where, value, f"does not fit the library's 32-bit integer ({lo}..{hi})")
        raise EkocFieldError(where, value, f"must be in {lo}..{hi}")
    return out


def flag(value: Any, where: str) -> int:
    """A boolean: True / False or the ints 0 / 1, as the library's 0 / 1."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, numbers.Integral) and int(value) in (0, 1):
        return int(value)
    raise EkocFieldTypeError(where, value, "must be a boolean (True / False, or 0 / 1)")


def choice(value: Any, where: str, allowed, *, none: bool = False):
    """One of the strings `allowed` (or None when `none`)."""
    if value is None and none:
        return None
    if not isinstance(value, str):
        listed = ([None] if none else []) + list(allowed)
        raise EkocFieldTypeError(where, value, f"must be one of {listed}, not a {_type_name(value)}")
    if value not in allowed:
        listed = ([None] if none else []) + list(allowed)
        raise EkocFieldError(where, value, f"is not one of {listed}")
    return value


def string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise EkocFieldTypeError(where, value, f"must be a string, not {_type_name(value)}")
    return value


def scale(value: Any, where: str) -> tuple[float, float]:
    """A linear scale mu in GeV and its square: mu finite > 0 and mu**2 a
    normal double (eko squares it; 1e200 would overflow, 1e-200 vanish)."""
    mu = number(value, where)
    if not (math.isfinite(mu) and mu > 0):
        raise EkocFieldError(where, value, "a scale mu (GeV, linear) must be finite and > 0")
    try:
        mu2 = mu**2
    except OverflowError:
        mu2 = math.inf
    if not (math.isfinite(mu2) and mu2 >= DOUBLE_MIN_NORMAL):
        raise EkocFieldError(where, value, f"mu**2 = {mu2!r} is not a finite normal double (the library works "
                             "in mu**2)")
    return mu, mu2


def squared_normal(value: Any, where: str) -> float:
    """A finite number > 0 whose square is a finite normal double (a ratio of
    scales the library squares, e.g. xif)."""
    out = finite_positive(value, where)
    square = out * out
    if not (math.isfinite(square) and square >= DOUBLE_MIN_NORMAL):
        raise EkocFieldError(where, value, f"its square {square!r} is not a finite normal double")
    return out
