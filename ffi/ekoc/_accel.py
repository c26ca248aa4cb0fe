"""The eko accelerator: an import hook that lets ekoc compute the operators
of unmodified eko scripts.

eko 0.15 computes operators in ``eko.runner.managed.solve(theory, operator,
path)``, re-exported as ``eko.runner.solve`` and ``eko.solve`` (and called as
``managed.solve`` by ekobox.evol_pdf). The hook replaces that function, when
eko.runner.managed is first imported (or at once if eko is already loaded),
by one that

- asks ekoc whether it supports the two cards (ekoc._cards.supported); if so
  computes them with ekoc and writes a real EKO file at `path` with eko's
  own writer (eko.io.struct.EKO: metadata, cards, recipes, operators),
  readable by eko.EKO.read like eko's, streamed (ekoc.solve_to_eko: each
  target written as it is composed, so memory stays bounded);
- otherwise (or if ekoc fails, libekoc cannot be loaded included) calls
  eko's original function;

and logs one line saying which and why (logger "ekoc.accel"). The EKOs of one
process share one NSpaceCache (ACCEL_CACHE_BYTES): pineko's `theory ekos`
writes one EKO per grid of a theory on one x grid, and from the second on the
N-space values of the grid's paths are kept (the same bits).

Environment (ekoc._env): EKOC_ACCEL=0 leaves eko alone (1, the default,
does not); EKOC_ACCEL_BACKEND picks the ekoc backend (auto, the default:
the N-space engine, batch where it does not compute the card yet; nspace,
batch, adaptive, gpu); EKOC_ACCEL_PHYSICS the physics (eko, the default:
eko's numbers; exact: the exact g3(N) and P_ns^(2)+ constant, recorded in
the file's ekoc-metadata.json). Any other value raises ValueError
naming the variable, when the hook is installed and at each call.
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.machinery
import logging
import pathlib
import sys
import time

from . import _cards, _env
from ._ekofile import write_eko  # noqa: F401 - ekoc.accel.write_eko, as before

log = logging.getLogger("ekoc.accel")
#: the budget of the NSpaceCache the accelerated EKOs of a process share (ekoc._core.NSpaceCache)
ACCEL_CACHE_BYTES = 128 << 20
_cache: dict = {}


def _shared_cache():
    """The process's NSpaceCache for accelerated EKOs, made on first use."""
    if "cache" not in _cache:
        from ._core import NSpaceCache

        _cache["cache"] = NSpaceCache(ACCEL_CACHE_BYTES)
    return _cache["cache"]
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


def _make_solve(original):
    @functools.wraps(original)
    def solve(theory, operator, path):
        # a bad value is the user's typo: raised, not a reason to fall back
        accel, backend = _env.choice("EKOC_ACCEL"), _env.choice("EKOC_ACCEL_BACKEND")
        physics = _env.choice("EKOC_ACCEL_PHYSICS")
        if accel == "0":
            log.info("eko computes this EKO: EKOC_ACCEL=0")
            return original(theory, operator, path)
        ok, why = _cards.supported(theory, operator)
        if not ok:
            log.info("eko computes this EKO: %s", why)
            return original(theory, operator, path)
        from . import _errors
        from ._ekofile import solve_to_eko

        t0 = time.perf_counter()
        try:
            # streamed: each target written as it is composed, a few in memory;
            # a failure leaves nothing at `path`, so eko can still write it
            result = solve_to_eko(theory, operator, pathlib.Path(path), backend=backend, physics=physics,
                                  nspace_cache=_shared_cache())
        except ImportError as exc:  # EKOC_LIB names no libekoc, no library built, ...
            log.info("eko computes this EKO: libekoc could not be loaded (%s)", exc)
            return original(theory, operator, path)
        except (_errors.EkocError, NotImplementedError) as exc:
            log.info("eko computes this EKO: ekoc could not (%s)", exc)
            return original(theory, operator, path)
        exact = "" if physics == "eko" else f", physics {physics}"  # eko's: the line as before
        log.info("ekoc computed this EKO (%s, backend %s: %s, %d flagged integrals%s) in %.3f s -> %s", why, backend,
                 result.get("backend", backend), result.get("failures", 0), exact, time.perf_counter() - t0, path)
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
    """Installs the hook (idempotent); patches at once if eko is loaded.
    Raises ValueError (EkocFieldError) naming a bad EKOC_ACCEL /
    EKOC_ACCEL_BACKEND / EKOC_ACCEL_PHYSICS before anything is installed."""
    _env.check_all()
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
    try:
        install()
    except ValueError as exc:  # a bad environment variable: one line, no traceback
        print(f"ekoc.accel: {exc}", file=sys.stderr)
        return 2
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
