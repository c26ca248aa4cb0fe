"""The environment variables the package reads, each checked with its name.

- ``EKOC_LIB``: the path of the libekoc.so to load (ekoc._lib; a path that
  is not a file, or a file that is not libekoc, is an ImportError);
- ``EKOC_ACCEL``: ``1`` (the default) lets the accelerator compute with
  ekoc, ``0`` leaves eko alone;
- ``EKOC_ACCEL_BACKEND``: the backend the accelerator uses: ``auto`` (the
  default: the N-space engine, batch where it does not compute the card
  yet), ``nspace``, ``batch``, ``adaptive`` or ``gpu``;
- ``EKOC_ACCEL_PHYSICS``: the physics the accelerator computes (ekoc.solve's
  `physics`): ``eko`` (the default: eko's numbers) or ``exact`` (the exact
  g3(N) and P_ns^(2)+ constant, docs/physics.md §12.9).

(The installer, ffi/setup.py, reads ``EKOC_LIB`` and ``EKOC_BUNDLE_LIB`` =
0 / 1; the tests read ``EKOC_TEST_INSTALLED`` = 0 / 1; each checks its own.)
An unset or empty variable takes its default; any other value outside the
allowed ones raises EkocFieldError (a ValueError) naming the variable, the
value and the allowed values.
"""

from __future__ import annotations

import os

from ._errors import EkocFieldError

#: variable -> (allowed values, default) of the variables that take a choice
CHOICES = {
    "EKOC_ACCEL": (("0", "1"), "1"),
    "EKOC_ACCEL_BACKEND": (("auto", "nspace", "batch", "adaptive", "gpu"), "auto"),
    "EKOC_ACCEL_PHYSICS": (("eko", "exact"), "eko"),
}


def choice(name: str) -> str:
    """The value of the environment variable `name` (one of CHOICES)."""
    allowed, default = CHOICES[name]
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if raw not in allowed:
        listed = ", ".join(repr(a) for a in allowed)
        raise EkocFieldError(name, raw, f"the environment variable {name} must be one of {listed} "
                             f"(unset or empty: {default!r})")
    return raw


def check_all() -> None:
    """Reads every choice variable (raising for the first bad one)."""
    for name in CHOICES:
        choice(name)
