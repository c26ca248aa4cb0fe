"""Writing a Solution as an EKO file (eko's tar format) with eko's own classes.

The file is first written next to its target, under a hidden temporary
name, and renamed into place (os.replace) once complete, so a failed write
(a full disk, ``ulimit -f``, an interrupt) leaves nothing at the target.
eko builds the file in a temporary folder (``eko-*``, in tempfile's
directory); that folder is removed whatever happens.

solve_to_eko writes the same file without holding the operators: each
target is written as the C library composes it (ekoc_compute_stream).

The cards written are the solved ones (Solution.theory_card /
operator_card) unless others are given; given cards must ask for the same
operators as the solved ones (ekoc._cards.same_computation), else
EkocFieldError names the first field that differs, before anything is
written.
"""

from __future__ import annotations

import os
import pathlib
from collections.abc import Mapping

from . import _cards
from ._errors import EkocFieldError, EkocFieldTypeError, render


def cards_for_file(solution, theory_card=None, operator_card=None):
    """(theory, operator) to write: eko card objects passed through, dicts
    as plain copies; checked against the solution's own cards."""
    setup = solution.setup
    if theory_card is None and operator_card is None:
        return setup.theory_card, setup.operator_card
    th = setup.theory_card if theory_card is None else theory_card
    op = setup.operator_card if operator_card is None else operator_card
    other = _cards.translate(th, op)
    diff = _cards.same_computation(setup, other)
    if diff is not None:
        field, given, solved = diff
        raise EkocFieldError(field, given, f"differs from the card the solution was computed with ({render(solved)}): "
                             "the EKO file would describe other operators than it holds; pass the solved cards, "
                             "or none (the solved ones are written)")
    # eko card objects are written as given; dicts as read (a grid shorthand expanded)
    return (other.theory_card if isinstance(th, Mapping) else th,
            other.operator_card if isinstance(op, Mapping) else op)


def _eko_cards(theory, operator):
    import eko

    out = []
    for card, cls, name in ((theory, eko.TheoryCard, "theory_card"), (operator, eko.OperatorCard, "operator_card")):
        if isinstance(card, cls):
            out.append(card)
            continue
        try:
            out.append(cls.from_dict(card))
        except Exception as exc:  # noqa: BLE001 - eko's reader on the card: any failure is the card's
            raise EkocFieldError(name, card, f"eko.{cls.__name__}.from_dict refused it ({type(exc).__name__}: "
                                 f"{exc})") from exc
    return out


def _checked_target(path) -> pathlib.Path:
    """`path` as a Path after eko's own checks on an output (as eko.solve
    makes them): a .tar that does not exist yet, in an existing folder."""
    from eko.io import exceptions

    if not isinstance(path, (str, os.PathLike)):
        raise EkocFieldTypeError("path", path, "must be a str or a path")
    path = pathlib.Path(path)
    if path.suffix != ".tar":
        raise exceptions.OutputNotTar(path)
    if path.exists():
        raise exceptions.OutputExistsError(path)
    if not path.parent.is_dir():
        raise FileNotFoundError(f"to_eko: the folder {str(path.parent)!r} of {str(path)!r} does not exist")
    return path


def _write_atomic(tc, oc, path: pathlib.Path, fill) -> None:
    """The EKO file at `path` (checked by _checked_target): eko's metadata,
    the cards tc / oc (eko objects) and the recipes eko would list, written
    by eko, then fill(writer), which hands each target to the writer
    (ekoc._ekotar.EkoTarWriter: put(ep, value, error) or put_target(target))
    and each goes into the archive at once, no copy kept. Built under a
    hidden name next to `path` and renamed into place when complete; nothing
    is left behind on any failure (fill's included): neither the partial
    file nor eko's eko-* folder."""
    from ._ekotar import EkoTarWriter

    with EkoTarWriter(tc, oc, path) as writer:
        fill(writer)


def write_eko(solution, theory_card, operator_card, path) -> None:
    """Writes `solution` as an EKO file at `path` (a new .tar): metadata, the
    two cards, the recipes eko would list, and one operator (value, error)
    per distinct target. eko's internal per-part cache (parts/) is not
    written: ekoc composes in memory. theory_card / operator_card: None for
    the solved cards, or cards asking for the same operators."""
    if not isinstance(path, (str, os.PathLike)):
        raise EkocFieldTypeError("path", path, "must be a str or a path")
    tc, oc = _eko_cards(*cards_for_file(solution, theory_card, operator_card))
    path = _checked_target(path)

    def fill(writer):
        for ep in dict.fromkeys(oc.evolgrid):  # a repeated target is written once
            writer.put_target(solution[ep])

    _write_atomic(tc, oc, path, fill)


def solve_to_eko(theory_card, operator_card, path, backend: str = "auto", **solve_kwargs) -> dict:
    """Computes eko's operators with libekoc and writes them as an EKO file
    at `path` (a new .tar, readable by eko.EKO.read, the same file as
    ``ekoc.solve(...).to_eko(path)``), streaming: each target's operator and
    error are written as soon as the C library has composed it
    (ekoc.solve_stream), so memory holds the parts of the path and a few
    targets, not all of them (300 targets on a 50-point grid at NNLO: see
    perf/STATS.md). The cards written are the ones given (eko objects as
    they are, dicts as ekoc.solve reads them). Arguments and errors as
    ekoc.solve's, plus eko's own for `path` (not a .tar, already there),
    raised before any computation; nothing is left at `path` when the
    computation or the write fails. Returns solve_stream's summary
    {"failures", "timing", "profile", "backend"}."""
    from ._stream import solve_stream

    if not isinstance(path, (str, os.PathLike)):
        raise EkocFieldTypeError("path", path, "must be a str or a path")
    setup = _cards.translate(theory_card, operator_card)
    th = setup.theory_card if isinstance(theory_card, Mapping) else theory_card
    op = setup.operator_card if isinstance(operator_card, Mapping) else operator_card
    tc, oc = _eko_cards(th, op)
    path = _checked_target(path)
    result = {}

    def fill(writer):
        result.update(solve_stream(theory_card, operator_card, writer.put_target, backend, **solve_kwargs))

    _write_atomic(tc, oc, path, fill)
    return result
