"""ekoc.solve_stream: the operators handed over one target at a time, as the
C library composes them (ekoc_compute_stream), instead of held together: the
EKO writer (ekoc._ekofile.solve_to_eko) streams through it."""

from __future__ import annotations

import time
from typing import Callable

from . import _cards, _errors, _sigterm, _solve
from ._core import check
from ._lib import ffi, load
from ._solve import NSpaceCache, TargetOperator, _distinct_targets, _prepare


class _View:
    """The C library's one-target view during a stream callback (not owned:
    valid only inside the call; ptr is NULL afterwards)."""

    def __init__(self, ptr):
        self.ptr = ptr


class _Stream:
    """The state of one ekoc_compute_stream call: the Python callable fed
    one TargetOperator per distinct target, and the exception that stopped it."""

    def __init__(self, setup: _cards.Setup, on_target: Callable):
        self.setup = setup
        self.on_target = on_target
        self.distinct, _ = _distinct_targets(setup)
        self.exc: BaseException | None = None
        self.calls = 0
        self.handle = ffi.new_handle(self)

    def _call(self, index, target):
        view = _View(target)
        try:
            if _sigterm.requested():  # this worker process got SIGTERM (ekoc._sigterm)
                raise _sigterm.Terminated()
            nf = ffi.new("int32_t *")
            mu2 = ffi.new("double *")
            check(load().ekoc_operator_target(target, 0, mu2, nf), "ekoc_operator_target")
            card_mu2 = self.distinct[int(index)][0]  # the card's float, bitwise eko's key
            op = TargetOperator(view, 0, card_mu2, int(nf[0]), self.setup.xgrid, self.setup.mu2_0)
            self.calls += 1
            self.on_target(op)
            return 0
        except BaseException as exc:  # noqa: BLE001 - any exception stops the computation
            self.exc = exc
            return 1
        finally:
            view.ptr = ffi.NULL  # a TargetOperator kept past the call reads nothing freed


def _stream_trampoline_error(exc_type, exc_value, tb):
    """An exception escaping the stream trampoline itself: stop the computation."""
    return _solve.record_escaped(exc_value, tb, cancel=False)


@ffi.callback("int(void *, size_t, const ekoc_operator *)", onerror=_stream_trampoline_error)
def _stream_trampoline(data, index, target):
    """The one C target callback: data is the _Stream handle."""
    return ffi.from_handle(data)._call(index, target)


def solve_stream(theory_card, operator_card, on_target: Callable, backend: str = "auto", *, physics: str = "eko",
                 n_threads: int | None = None, progress=None, profile: bool = False,
                 nspace_cache: NSpaceCache | None = None, **options) -> dict:
    """ekoc.solve without holding the operators: `on_target(op)` is called
    with a TargetOperator for each distinct target (the card's order, a
    repeated target once) as soon as the C library has composed it, which
    frees it when the call returns (read op.operator / op.error / op.failed
    inside the call; the arrays are the caller's to keep). Peak memory: the
    parts of the path and a few targets, whatever their number. The values
    are bitwise solve's. Raising inside on_target stops the computation and
    re-raises here. Arguments and errors as solve's. Returns
    {"failures": integrals that missed their tolerance, "timing": {...},
    "profile": the stage table or None, "backend": the engine that ran,
    "physics": "eko" or "exact"}."""
    t_start = time.perf_counter()
    lib = load()
    if not callable(on_target):
        raise _errors.EkocFieldTypeError("on_target", on_target, "must be a callable(TargetOperator)")
    run = _prepare(theory_card, operator_card, backend, physics, n_threads, progress, profile, nspace_cache, None,
                   options)
    stream = _Stream(run.setup, on_target)
    failures = [0]

    def count(op):  # each view holds the count so far (the N-space engine adds a chunk's): the last is the total
        failures[0] = int(lib.ekoc_operator_failures(op._h.ptr))
        on_target(op)

    stream.on_target = count
    engine = ffi.new("int32_t *")
    run.check(lib.ekoc_request_backend(run.th, run.rq, engine), "ekoc_request_backend", None)
    t0 = time.perf_counter()
    status = lib.ekoc_compute_stream(run.th, run.rq, run.prof.ptr if run.prof else ffi.NULL, _stream_trampoline,
                                     stream.handle)
    t1 = time.perf_counter()
    run.check(status, "ekoc_compute_stream", stream.exc)
    timing = {"compute_s": t1 - t0, "callback_s": run.state.seconds, "python_s": time.perf_counter() - t_start}
    return {"failures": failures[0], "timing": timing, "profile": run.prof.table() if run.prof else None,
            "backend": _cards.BACKEND_NAMES.get(int(engine[0]), backend), "physics": physics}
