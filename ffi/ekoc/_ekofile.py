"""Writing a Solution as an EKO file (eko's tar format) with eko's own classes.

The file is first written next to its target, under a hidden temporary
name, and renamed into place (os.replace) once complete, so a failed write
(a full disk, ``ulimit -f``, an interrupt) leaves nothing at the target.
eko builds the file in a temporary folder (``eko-*``, in tempfile's
directory); that folder is removed whatever happens.

The cards written are the solved ones (Solution.theory_card /
operator_card) unless others are given; given cards must ask for the same
operators as the solved ones (ekoc._cards.same_computation), else
EkocFieldError names the first field that differs, before anything is
written.
"""

from __future__ import annotations

import os
import pathlib
import secrets
import shutil
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


def write_eko(solution, theory_card, operator_card, path) -> None:
    """Writes `solution` as an EKO file at `path` (a new .tar): metadata, the
    two cards, the recipes eko would list, and one operator (value, error)
    per distinct target. eko's internal per-part cache (parts/) is not
    written: ekoc composes in memory. theory_card / operator_card: None for
    the solved cards, or cards asking for the same operators."""
    from eko.io import exceptions
    from eko.io.items import Operator, Target
    from eko.io.struct import EKO
    from eko.runner import recipes

    if not isinstance(path, (str, os.PathLike)):
        raise EkocFieldTypeError("path", path, "must be a str or a path")
    path = pathlib.Path(path)
    tc, oc = _eko_cards(*cards_for_file(solution, theory_card, operator_card))
    # eko's own checks on the target, as eko.solve makes them
    if path.suffix != ".tar":
        raise exceptions.OutputNotTar(path)
    if path.exists():
        raise exceptions.OutputExistsError(path)
    folder = path.parent
    if not folder.is_dir():
        raise FileNotFoundError(f"to_eko: the folder {str(folder)!r} of {str(path)!r} does not exist")
    partial = folder / f".{path.stem}.ekoc-{os.getpid()}-{secrets.token_hex(6)}.tar"
    builder = None
    try:
        builder = EKO.create(partial)
        with builder:
            out = builder.load_cards(tc, oc).build()
            recipes.create(out)
            for ep in dict.fromkeys(oc.evolgrid):  # a repeated target is written once
                op = solution[ep]
                target = Target.from_ep(ep)
                out.operators[target] = Operator(op.operator.copy(), op.error.copy())
                del out.operators[target]  # written to disk; drop the memory copy as eko does
        # leaving the block closed the EKO: the tar is complete at `partial`
        if not partial.is_file():
            raise OSError(f"to_eko: eko wrote no file at {str(partial)!r}")
        os.replace(partial, path)
    finally:
        if builder is not None:
            shutil.rmtree(builder.path, ignore_errors=True)  # eko's eko-* folder (eko leaves it on a failure)
        try:
            partial.unlink()
        except OSError:  # gone (renamed into place) or never made
            pass
