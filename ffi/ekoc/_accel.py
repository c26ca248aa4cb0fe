"""The eko accelerator: an import hook that lets ekoc compute the operators
of unmodified eko scripts.

eko 0.15 computes operators in ``eko.runner.managed.solve(theory, operator,
path)``, re-exported as ``eko.runner.solve`` and ``eko.solve`` (and called as
``managed.solve`` by ekobox.evol_pdf). The hook replaces that function, when
eko.runner.managed is first imported (or at once if eko is already loaded),
by one that

- asks ekoc whether it supports the two cards (ekoc._cards.supported); if so
  computes them with ekoc.solve and writes a real EKO file at `path` with
  eko's own writer (eko.io.struct.EKO: metadata, cards, recipes, operators),
  readable by eko.EKO.read like eko's;
- otherwise (or if ekoc fails) calls eko's original function;

and logs one line saying which and why (logger "ekoc.accel").

Environment: EKOC_ACCEL=0 leaves eko alone; EKOC_ACCEL_BACKEND picks the
ekoc backend (adaptive, batch, gpu; default adaptive, eko's own quadrature).
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.machinery
import logging
import os
import pathlib
import sys
import time

from . import _cards

log = logging.getLogger("ekoc.accel")
TARGET_MODULE = "eko.runner.managed"
_state = {"installed": False, "finder": None, "original": None, "patched": None, "handler": None}


def _configure_logging():
    """One visible line per call even when the script configured no logging."""
    if log.handlers or logging.getLogger().handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    _state["handler"] = handler


def write_eko(solution, theory_card, operator_card, path) -> None:
    """Writes `solution` as an EKO file at `path` (a new .tar), with eko's
    own classes: metadata, the two cards, the recipes eko would list, and one
    operator (value, error) per target of the operator card. eko's internal
    per-part cache (parts/) is not written: ekoc composes in memory."""
    import eko
    from eko.io.items import Operator, Target
    from eko.io.struct import EKO
    from eko.runner import recipes

    tc = theory_card if isinstance(theory_card, eko.TheoryCard) else eko.TheoryCard.from_dict(theory_card)
    oc = operator_card if isinstance(operator_card, eko.OperatorCard) else eko.OperatorCard.from_dict(operator_card)
    with EKO.create(path) as builder:  # path as eko.solve got it: eko's own checks (Path, .tar, new) apply
        out = builder.load_cards(tc, oc).build()
        recipes.create(out)
        for ep in oc.evolgrid:
            op = solution[ep]
            target = Target.from_ep(ep)
            out.operators[target] = Operator(op.operator.copy(), op.error.copy())
            del out.operators[target]  # written to disk; drop the memory copy as eko does


def _make_solve(original):
    @functools.wraps(original)
    def solve(theory, operator, path):
        if os.environ.get("EKOC_ACCEL", "1") == "0":
            log.info("eko computes this EKO: EKOC_ACCEL=0")
            return original(theory, operator, path)
        ok, why = _cards.supported(theory, operator)
        if not ok:
            log.info("eko computes this EKO: %s", why)
            return original(theory, operator, path)
        from . import _errors
        from ._solve import solve as ekoc_solve

        backend = os.environ.get("EKOC_ACCEL_BACKEND", "adaptive")
        t0 = time.perf_counter()
        try:
            sol = ekoc_solve(theory, operator, backend=backend)
        except (_errors.EkocError, NotImplementedError, ImportError) as exc:
            log.info("eko computes this EKO: ekoc could not (%s)", exc)
            return original(theory, operator, path)
        write_eko(sol, theory, operator, path)
        log.info("ekoc computed this EKO (%s, backend %s) in %.3f s -> %s", why, backend,
                 time.perf_counter() - t0, path)
        return None

    solve.__ekoc_accel__ = True
    solve.__wrapped_eko__ = original
    return solve


def _patch(managed) -> None:
    current = managed.solve
    if getattr(current, "__ekoc_accel__", False):
        return
    _state["original"] = current
    _state["patched"] = _make_solve(current)
    managed.solve = _state["patched"]
    # names eko re-exported before the hook ran
    for name in ("eko.runner", "eko"):
        mod = sys.modules.get(name)
        if mod is not None and getattr(mod, "solve", None) is current:
            mod.solve = _state["patched"]


class _Loader(importlib.abc.Loader):
    def __init__(self, inner):
        self.inner = inner

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module):
        self.inner.exec_module(module)
        _patch(module)


class _Finder(importlib.abc.MetaPathFinder):
    """Wraps the loader of eko.runner.managed so the patch lands before eko's
    __init__ files copy `solve` into eko.runner and eko."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != TARGET_MODULE:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return None
        spec.loader = _Loader(spec.loader)
        return spec


def install() -> None:
    """Installs the hook (idempotent); patches at once if eko is loaded."""
    _configure_logging()
    if _state["installed"]:
        return
    if TARGET_MODULE in sys.modules:
        _patch(sys.modules[TARGET_MODULE])
    else:
        finder = _Finder()
        sys.meta_path.insert(0, finder)
        _state["finder"] = finder
    _state["installed"] = True


def uninstall() -> None:
    """Removes the hook and restores eko's solve everywhere it was patched."""
    finder = _state["finder"]
    if finder is not None and finder in sys.meta_path:
        sys.meta_path.remove(finder)
    _state["finder"] = None
    original, patched = _state["original"], _state["patched"]
    if original is not None:
        for name in (TARGET_MODULE, "eko.runner", "eko"):
            mod = sys.modules.get(name)
            if mod is not None and getattr(mod, "solve", None) is patched:
                mod.solve = original
    _state["original"] = _state["patched"] = None
    if _state["handler"] is not None:
        log.removeHandler(_state["handler"])
        log.propagate = True
        _state["handler"] = None
    _state["installed"] = False


def is_installed() -> bool:
    return _state["installed"]


def load_ipython_extension(ipython) -> None:  # %load_ext ekoc.accel
    install()
    log.info("installed: eko.solve runs on ekoc when it supports the cards")


def unload_ipython_extension(ipython) -> None:  # %unload_ext ekoc.accel
    uninstall()


USAGE = """usage: python -m ekoc.accel script.py [args...]
       python -m ekoc.accel -m module [args...]

Runs an unmodified eko script with ekoc computing its operators when it
supports the cards (eko otherwise); one log line per eko.solve says which."""


def main(argv=None) -> int:
    import runpy

    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if argv else 2
    install()
    if argv[0] == "-m":
        if len(argv) < 2:
            print(USAGE, file=sys.stderr)
            return 2
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        sys.path.insert(0, str(pathlib.Path(argv[0]).resolve().parent))
        runpy.run_path(argv[0], run_name="__main__")
    return 0
