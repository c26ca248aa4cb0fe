"""ekoc.solve: eko's runcards in, eko's operators out (computed by libekoc)."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Mapping
from typing import Callable, Iterator

import numpy as np

from . import _cards, _errors, _sigterm
from . import _fields as F
from ._core import NSpaceCache, Profile, ProfileTable, check, dptr  # noqa: F401 - NSpaceCache: ekoc._solve's name
from ._lib import ffi, load

#: eko's flavour basis: the order of the 14 rows/columns of every operator
PIDS = (22, -6, -5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5, 6)


def _bytes(value, where: str) -> int:
    """A byte count (size_t)."""
    return F.integer(value, where, 0, 2**64 - 1)


#: the options of solve() (integration, and the memory budget) and the reader of each
_OPTIONS = {"epsabs": F.number, "epsrel": F.number, "limit": F.integer, "mellin_cut": F.number,
            "batch_panels": F.integer, "batch_points": F.integer, "memory_budget": _bytes}


def _distinct_targets(setup: _cards.Setup) -> tuple[list, list]:
    """(the card's targets with each (mu^2, nf) once, in first-seen order;
    for each of them the index of its first mugrid entry). The C request gets
    each target once: a repeated target is computed once and its operator
    returned for every mugrid entry that asked for it."""
    index = {}
    first = []
    for i, target in enumerate(setup.targets):
        if target not in index:
            index[target] = len(first)
            first.append(i)
    return list(index), first


class Cancel(Exception):
    """Raise it from a progress callback to stop the computation."""


class _Handle:
    """Owns one ekoc_operator*; freed when the last TargetOperator goes."""

    def __init__(self, ptr):
        self.ptr = ffi.gc(ptr, load().ekoc_operator_free)


class TargetOperator:
    """The operator to one target (mu^2, nf), in eko's layout.

    `operator` and `error` are (14, nx, 14, nx) arrays [out pid][out x][in
    pid][in x] in eko's flavour basis (PIDS), acting on PDF values f(x) (not
    x f(x)); `failed` flags entries reached by an integral that missed its
    tolerance. They are computed from the C result on first access.
    """

    def __init__(self, handle: _Handle, index: int, mu2: float, nf: int, xgrid: np.ndarray, mu2_0: float):
        self._h = handle
        self._i = index
        self.mu2 = mu2
        self.nf = nf
        self.xgrid = xgrid
        self.mu2_0 = mu2_0
        self._op = self._err = self._failed = None

    @property
    def ep(self) -> tuple:
        """eko's key of this operator: (mu^2, nf)."""
        return (self.mu2, self.nf)

    def _flavor(self):
        nx = len(self.xgrid)
        op = np.empty((14, nx, 14, nx))
        err = np.empty((14, nx, 14, nx))
        self.flavor_into(op, err)
        self._op, self._err = op, err

    def flavor_into(self, operator: np.ndarray, error: np.ndarray) -> None:
        """Fills `operator` and `error` (C-contiguous float64 arrays of shape
        (14, nx, 14, nx), the caller's) with what .operator / .error return,
        without allocating: a writer of many targets reuses two buffers."""
        nx = len(self.xgrid)
        for name, arr in (("operator", operator), ("error", error)):
            if not (isinstance(arr, np.ndarray) and arr.dtype == np.float64 and arr.shape == (14, nx, 14, nx)
                    and arr.flags.c_contiguous and arr.flags.writeable):
                raise ValueError(f"flavor_into: {name} must be a writeable C-contiguous float64 array of shape "
                                 f"(14, {nx}, 14, {nx})")
        check(load().ekoc_operator_flavor(self._h.ptr, self._i, dptr(operator), dptr(error), operator.size),
              "ekoc_operator_flavor")

    @property
    def operator(self) -> np.ndarray:
        if self._op is None:
            self._flavor()
        return self._op

    @property
    def error(self) -> np.ndarray:
        if self._err is None:
            self._flavor()
        return self._err

    @property
    def failed(self) -> np.ndarray:
        """Boolean (14, nx, 14, nx): entries a failed integral reaches."""
        if self._failed is None:
            lib = load()
            nx = len(self.xgrid)
            flags = np.zeros((14, nx, 14, nx), dtype=np.uint8)
            count = ffi.new("size_t *")
            check(lib.ekoc_operator_failed_flavor(self._h.ptr, self._i, ffi.from_buffer("uint8_t[]", flags),
                                                  flags.size, count), "ekoc_operator_failed_flavor")
            self._failed = flags.astype(bool)
        return self._failed

    def evolution_basis(self) -> tuple[np.ndarray, np.ndarray]:
        """(values, errors) in eko's evolution basis (ph, S, g, V, V3, V8, V15,
        V24, V35, T3, T8, T15, T24, T35)."""
        nx = len(self.xgrid)
        op = np.empty((14, nx, 14, nx))
        err = np.empty((14, nx, 14, nx))
        self.evolution_into(op, err)
        return op, err

    def evolution_into(self, operator: np.ndarray, error: np.ndarray | None = None) -> None:
        """Fills the caller's arrays (as flavor_into's) with evolution_basis()'s
        values and, unless `error` is None, errors."""
        nx = len(self.xgrid)
        for name, arr in (("operator", operator), ("error", error)):
            if arr is not None and not (isinstance(arr, np.ndarray) and arr.dtype == np.float64
                                        and arr.shape == (14, nx, 14, nx) and arr.flags.c_contiguous
                                        and arr.flags.writeable):
                raise ValueError(f"evolution_into: {name} must be a writeable C-contiguous float64 array of "
                                 f"shape (14, {nx}, 14, {nx})")
        check(load().ekoc_operator_evolution(self._h.ptr, self._i, dptr(operator),
                                             ffi.NULL if error is None else dptr(error), operator.size),
              "ekoc_operator_evolution")

    def apply(self, pdf):
        """Evolves a PDF given at mu_0^2 on the grid to this target.

        `pdf` is an array (..., 14, nx) of f(x) in the flavour basis (PIDS
        order), or a dict {pid: array(nx)} (missing pids are 0), or an object
        with LHAPDF's ``xfxQ2(pid, x, Q2)`` (read at mu_0^2). Returns the same
        kind: an array of the same shape, or a dict {pid: array(nx)}.
        """
        nx = len(self.xgrid)
        if isinstance(pdf, Mapping):
            bad = sorted(set(pdf) - set(PIDS))
            if bad:
                raise ValueError(f"pdf has unknown pid(s) {bad}; eko's pids are {PIDS}")
            arr = np.zeros((14, nx))
            for k, pid in enumerate(PIDS):
                if pid in pdf:
                    arr[k] = np.asarray(pdf[pid], dtype=float)
            out = self.apply(arr)
            return {pid: out[k] for k, pid in enumerate(PIDS)}
        if hasattr(pdf, "xfxQ2"):
            arr = np.array([[pdf.xfxQ2(pid, float(x), self.mu2_0) / x for x in self.xgrid] for pid in PIDS])
            out = self.apply(arr)
            return {pid: out[k] for k, pid in enumerate(PIDS)}
        arr = np.asarray(pdf, dtype=float)
        if arr.ndim < 2 or arr.shape[-2:] != (14, nx):
            raise ValueError(f"pdf has shape {arr.shape}; expected (..., 14, {nx}) (pids {PIDS} x grid)")
        flat = np.ascontiguousarray(arr.reshape(-1, 14 * nx))
        out = np.empty_like(flat)
        lib = load()
        for r in range(flat.shape[0]):
            row_in = flat[r]
            row_out = out[r]
            check(lib.ekoc_operator_apply(self._h.ptr, self._i, dptr(row_in), dptr(row_out), row_in.size,
                                          ffi.NULL), "ekoc_operator_apply")
        return out.reshape(arr.shape)

    def __repr__(self) -> str:
        return f"TargetOperator(mu2={self.mu2!r}, nf={self.nf}, nx={len(self.xgrid)})"


class Solution(Mapping):
    """The operators of one ekoc.solve call, keyed like eko: (mu^2, nf).

    `sol[(mu2, nf)]` is a TargetOperator (also found when mu2 is within
    rtol 1e-6 of a computed scale, as eko's EKO.approx); `sol.apply(pdf)`
    evolves a PDF to every target. `physics` is the physics it was computed
    with ("eko" or "exact", solve's argument); `failures` counts integrals
    that missed their tolerance; `profile` holds the stage table when requested;
    `timing` has the wall seconds of the C compute call and of the whole
    Python call.
    """

    def __init__(self, setup: _cards.Setup, handle: _Handle, backend: str, profile: ProfileTable | None,
                 timing: dict, physics: str = "eko"):
        lib = load()
        self.setup = setup  # with plain copies of the solved cards (setup.theory_card / operator_card)
        self.xgrid = setup.xgrid
        self.mu2_0 = setup.mu2_0
        self.nf0 = setup.nf0
        # the engine that ran ("auto" resolved: docs/architecture.md, Engines)
        self.backend = _cards.BACKEND_NAMES.get(int(lib.ekoc_operator_backend(handle.ptr)), backend)
        self.profile = profile
        self.timing = timing
        self.physics = physics  # solve's physics: "eko" or "exact" (theory.physics)
        self.failures = int(lib.ekoc_operator_failures(handle.ptr))
        self._ops = {}
        mu2 = ffi.new("double *")
        nf = ffi.new("int32_t *")
        distinct, _ = _distinct_targets(setup)
        for i, (card_mu2, _) in enumerate(distinct):
            check(lib.ekoc_operator_target(handle.ptr, i, mu2, nf), "ekoc_operator_target")
            key = (card_mu2, int(nf[0]))  # the card's float, bitwise eko's key
            if key not in self._ops:  # (mu2, default nf) and (mu2, that nf) share one operator
                self._ops[key] = TargetOperator(handle, i, card_mu2, int(nf[0]), setup.xgrid, setup.mu2_0)

    @property
    def targets(self) -> list:
        return list(self._ops)

    def _find(self, ep):
        if ep in self._ops:
            return self._ops[ep]
        mu2, nf = ep
        close = [k for k in self._ops if k[1] == nf and np.isclose(mu2, k[0], rtol=1e-6, atol=1e-10)]
        if len(close) == 1:
            return self._ops[close[0]]
        raise KeyError(f"no operator for (mu2={mu2!r}, nf={nf}); targets are {self.targets}")

    def __getitem__(self, ep) -> TargetOperator:
        return self._find(tuple(ep))

    def __iter__(self) -> Iterator:
        return iter(self._ops)

    def __len__(self) -> int:
        return len(self._ops)

    def apply(self, pdf) -> dict:
        """{(mu2, nf): evolved pdf} for every target (see TargetOperator.apply)."""
        return {ep: op.apply(pdf) for ep, op in self._ops.items()}

    @property
    def theory_card(self) -> dict:
        """A plain-dict copy of the theory card this solution was computed with."""
        return self.setup.theory_card

    @property
    def operator_card(self) -> dict:
        """A plain-dict copy of the operator card (an x-grid shorthand replaced by its grid)."""
        return self.setup.operator_card

    def to_eko(self, path, theory_card=None, operator_card=None) -> None:
        """Writes an EKO output file (eko's tar format, readable with
        eko.EKO.read) holding these operators; needs eko installed.

        The file's cards are the solved ones (Solution.theory_card /
        operator_card) unless given; given cards must ask for the same
        operators (every field that reaches the computation equal, see
        ekoc._cards.COMPARED), else EkocFieldError names the first field that
        differs. The file is written next to `path` and renamed into place:
        a failed write leaves nothing at `path` and no temporary file."""
        from ._ekofile import write_eko

        write_eko(self, theory_card, operator_card, path)

    def __repr__(self) -> str:
        return (f"Solution(backend={self.backend!r}, physics={self.physics!r}, nx={len(self.xgrid)}, "
                f"targets={self.targets})")


def _text_bar(stream=None):
    """A plain-text progress bar for terminals without tqdm."""
    stream = stream or sys.stderr
    state = {"last": -1}

    def bar(done, total):
        pct = int(100 * done / total) if total else 100
        if pct != state["last"]:
            state["last"] = pct
            filled = pct // 4
            stream.write(f"\rekoc [{'#' * filled}{'.' * (25 - filled)}] {pct:3d}% ({done}/{total} rows)")
            if done >= total:
                stream.write("\n")
            stream.flush()

    return bar


def progress_bar(desc: str = "ekoc"):
    """A progress callback drawing a bar: tqdm.auto (a widget in notebooks)
    when tqdm is installed, plain text on stderr otherwise."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return _text_bar()
    state = {}

    def bar(done, total):
        if "bar" not in state:
            state["bar"] = tqdm(total=total, desc=desc, unit="row")
        b = state["bar"]
        b.update(done - b.n)
        if done >= total:
            b.close()

    return bar


class _Progress:
    """The C progress callback: forwards (done, total) to a Python callable,
    records the counts for polling, and turns an exception raised in the
    callable (Cancel, KeyboardInterrupt, ...) or a cancel() into a stop."""

    def __init__(self, fn: Callable | None):
        self.fn = fn
        self.done = 0
        self.total = 0
        self.cancelled = False
        self.exc: BaseException | None = None
        self.seconds = 0.0  # time spent in Python inside the callback
        self.handle = ffi.new_handle(self)  # progress_data of the request (one C callback for all)

    def _call(self, done, total):
        t0 = time.perf_counter()
        try:
            self.done, self.total = int(done), int(total)
            if self.cancelled:
                return 1
            if _sigterm.requested():  # this worker process got SIGTERM (ekoc._sigterm)
                raise _sigterm.Terminated()
            if self.fn is not None:
                self.fn(self.done, self.total)
            return 0
        except BaseException as exc:  # noqa: BLE001 - any exception stops the computation
            self.exc = exc
            self.cancelled = True
            return 1
        finally:
            self.seconds += time.perf_counter() - t0


def record_escaped(exc_value, tb, cancel: bool) -> int:
    """For the onerror of a C callback: an exception that escaped the
    trampoline itself (e.g. KeyboardInterrupt delivered on entry, before any
    try) is handed to the state object behind the frame's `data` handle
    (.exc, and .cancelled when `cancel`); returns 1, which stops the
    computation."""
    frame = tb.tb_frame if tb is not None else None
    data = frame.f_locals.get("data") if frame is not None else None
    if data is not None:
        try:
            state = ffi.from_handle(data)
            if state.exc is None:
                state.exc = exc_value
            if cancel:
                state.cancelled = True
        except Exception:  # noqa: BLE001 - nothing more can be done from here
            pass
    return 1


def _trampoline_error(exc_type, exc_value, tb):
    """onerror of the progress trampoline (the state is this call's _Progress)."""
    return record_escaped(exc_value, tb, cancel=True)


@ffi.callback("int(void *, uint64_t, uint64_t)", onerror=_trampoline_error)
def _progress_trampoline(data, done, total):
    """The one C progress callback: progress_data is the _Progress handle."""
    return ffi.from_handle(data)._call(done, total)


def threshold_masses(setup: _cards.Setup) -> tuple:
    """The threshold masses of c, b, t (GeV) ekoc uses for `setup`: the pole
    masses, or the MSbar m(m) (ekoc_theory_masses, eko's msbar_masses.compute)."""
    lib = load()
    out = ffi.new("double[3]")
    check(lib.ekoc_theory_masses(_theory(setup), setup.method, out), "ekoc_theory_masses")
    return tuple(out)


def _theory(setup: _cards.Setup, physics: str = "eko"):
    """The ekoc_theory of `setup`."""
    lib = load()
    th = ffi.new("ekoc_theory *")
    lib.ekoc_theory_init(th, ffi.sizeof("ekoc_theory"))
    th.order = setup.order
    th.alphas = setup.alphas
    th.mu2_ref = setup.mu2_ref
    th.nf_ref = setup.nf_ref
    for h in range(3):
        th.masses[h] = setup.masses[h]
        th.matching_ratios[h] = setup.matching_ratios[h]
    th.xif = setup.xif
    th.matching_order = setup.matching_order
    th.qed_order = setup.qed_order
    if setup.alphaem is not None:
        th.alphaem = setup.alphaem
    th.em_running = setup.em_running
    th.polarized = setup.polarized
    th.time_like = setup.time_like
    for i, v in enumerate(setup.n3lo_ad_variation):
        th.n3lo_ad_variation[i] = v
    th.use_fhmruvv = setup.use_fhmruvv
    th.physics = _cards.PHYSICS[F.choice(physics, "physics", list(_cards.PHYSICS))]
    th.masses_scheme = setup.masses_scheme
    for h, mu in enumerate(setup.mass_scales):
        th.mass_scales[h] = mu
    return th


def _request(setup: _cards.Setup, backend: str, options: dict, keep: list, progress: _Progress | None,
             physics: str = "eko"):
    lib = load()
    th = _theory(setup, physics)
    rq = ffi.new("ekoc_request *")
    lib.ekoc_request_init(rq, ffi.sizeof("ekoc_request"))
    distinct, _ = _distinct_targets(setup)
    mu2 = np.array([t[0] for t in distinct], dtype=float)
    nf = np.array([t[1] for t in distinct], dtype=np.int32)
    keep += [mu2, nf, setup.xgrid]
    rq.mu2_0 = setup.mu2_0
    rq.nf0 = setup.nf0
    rq.mu2 = dptr(mu2)
    rq.nf = ffi.from_buffer("int32_t[]", nf)
    rq.n_targets = len(mu2)
    rq.xgrid = dptr(setup.xgrid)
    rq.nx = len(setup.xgrid)
    rq.degree = setup.degree
    rq.interpolation_is_log = setup.interpolation_is_log
    rq.method = setup.method
    rq.ev_op_iterations = setup.ev_op_iterations
    rq.ev_op_max_order = setup.ev_op_max_order
    rq.sv_mode = setup.sv_mode
    rq.inversion_method = setup.inversion_method
    rq.backend = _cards.BACKENDS[F.choice(backend, "backend", list(_cards.BACKENDS))]
    rq.n_threads = setup.n_threads
    for key, value in options.items():
        if key not in _OPTIONS:
            raise _errors.EkocFieldTypeError(key, value, f"unknown option of ekoc.solve; it accepts {sorted(_OPTIONS)}")
        setattr(rq, key, _OPTIONS[key](value, key))
    if progress is not None:
        rq.progress = _progress_trampoline
        rq.progress_data = progress.handle
    return th, rq


def solve(theory_card, operator_card, backend: str = "auto", *, physics: str = "eko", n_threads: int | None = None,
          progress=None, profile: bool = False, nspace_cache: NSpaceCache | None = None,
          _state: _Progress | None = None, **options) -> Solution:
    """Computes eko's evolution kernel operators with libekoc.

    theory_card, operator_card: eko 0.15 TheoryCard / OperatorCard objects,
        or dicts with the same fields (scales linear in GeV).
    backend: "auto" (the default: the N-space engine, or batch for what it
        does not compute yet: QED, backward-exact matchings, grid points
        closer than 1e-3 in ln x; Solution.backend names the one that ran),
        "nspace" (each target's parts multiplied in N-space and its operator
        inverted once on banded paths: no x-space products, no Mellin cut;
        docs/physics.md §3.2-3.3), "batch" (eko's x-space composition with
        fixed nodes, N-space work shared by all entries: eko's numbers),
        "adaptive" (GSL QAGS per entry: eko's algorithm in C, the reference)
        or "gpu".
    physics: "eko" (the default: eko's approximations, eko's numbers) or
        "exact": the exact g3(N) of the NLO non-singlet (eko: a 7-term fit)
        and the exact NNLO anomalous dimensions (eko: the parametrisations
        of Moch, Vermaseren, Vogt; docs/physics.md §12.9, §12.11);
        Solution.physics records it.
    n_threads: worker threads; None takes the card's n_integration_cores
        (<= 0: all cores).
    progress: None, True (a bar: tqdm when installed) or a callable
        (done, total) called after each row of each part (outside the hot
        path); raising (e.g. ekoc.Cancel) inside it stops the computation and
        re-raises here. Except with progress=False, a C callback runs after
        each row so that Ctrl-C (KeyboardInterrupt) stops the computation;
        False leaves no Python at all in the computation.
    profile: attach the stage table (ekoc.profile returns it directly).
    nspace_cache: an NSpaceCache shared with other solves on the same grid
        (the N-space and batch backends; ignored by the others).
    options: epsabs, epsrel, limit, mellin_cut (eko: 1e-12, 1e-5, 100,
        0.05), batch_panels, batch_points; memory_budget: the bytes the
        computation may hold (0, the default: 3/4 of physical memory), a
        request estimated above it is refused before any work
        (EkocMemoryError naming both).

    Returns a Solution mapping each target (mu^2, nf) to its TargetOperator
    (a target the card lists twice is computed once).
    Raises ekoc.EkocFieldError (ValueError; its TypeError / KeyError
    variants) or EkocUnsupportedFieldError (NotImplementedError) naming the
    card field or argument and its value, and the other ekoc.EkocError
    subclasses (ValueError, MemoryError, ...) carrying the C library's
    message, with the card field it concerns when the message names one.
    """
    t_start = time.perf_counter()
    lib = load()
    run = _prepare(theory_card, operator_card, backend, physics, n_threads, progress, profile, nspace_cache, _state,
                   options)
    out = ffi.new("ekoc_operator **")
    t0 = time.perf_counter()
    status = lib.ekoc_compute(run.th, run.rq, run.prof.ptr if run.prof else ffi.NULL, out)
    t1 = time.perf_counter()
    run.check(status, "ekoc_compute")
    handle = _Handle(out[0])
    # compute_s: the C call (progress callbacks included); callback_s: Python inside them
    timing = {"compute_s": t1 - t0, "callback_s": run.state.seconds}
    sol = Solution(run.setup, handle, backend, run.prof.table() if run.prof else None, timing, physics)
    timing["python_s"] = time.perf_counter() - t_start
    return sol


class _Prepared:
    """A request ready for the C library: the Setup, the two C structs (and
    the arrays they point into), the progress state and the profile."""

    def __init__(self, setup, th, rq, keep, state, prof):
        self.setup, self.th, self.rq, self.keep, self.state, self.prof = setup, th, rq, keep, state, prof

    def check(self, status: int, where: str, raised: BaseException | None = None) -> None:
        """Raises for a failed compute: the exception of a callback that
        cancelled it (`raised`, or the progress callable's), else the C error
        naming the card field."""
        if status == _errors.OK:
            return
        if status == _errors.ERR_CANCELLED and (raised is not None or self.state.exc is not None):
            try:
                check(status, where)
            except _errors.EkocCancelled as cancelled:
                raise (raised if raised is not None else self.state.exc) from cancelled
        _raise_naming_the_card_field(status, self.setup, where)


def _prepare(theory_card, operator_card, backend, physics, n_threads, progress, profile, nspace_cache, _state,
             options) -> _Prepared:
    """solve's arguments checked and turned into the C request."""
    setup = _cards.translate(theory_card, operator_card, n_threads)
    if not (progress is None or isinstance(progress, bool) or callable(progress)):
        raise _errors.EkocFieldTypeError("progress", progress, "must be None, True, False or a callable(done, total)")
    profile = bool(F.flag(profile, "profile"))
    if progress is True:
        progress = progress_bar()
    state = _state if _state is not None else _Progress(progress if callable(progress) else None)
    if _state is not None and callable(progress):
        state.fn = progress
    keep: list = []
    th, rq = _request(setup, backend, options, keep, None if progress is False and _state is None else state, physics)
    if nspace_cache is not None:
        if not isinstance(nspace_cache, NSpaceCache):
            raise _errors.EkocFieldTypeError("nspace_cache", nspace_cache,
                                             f"must be an ekoc.NSpaceCache, not {type(nspace_cache).__name__}")
        rq.nspace_cache = nspace_cache._ptr
    prof = Profile(256) if profile else None  # the node timer only when asked for (no cost otherwise)
    return _Prepared(setup, th, rq, keep, state, prof)


def _raise_naming_the_card_field(status: int, setup: _cards.Setup, where: str = "ekoc_compute"):
    """Raises the C error of ekoc_compute, its `where` and `field` naming the
    card field (or solve argument) its message is about when it names one."""
    try:
        check(status, where)
    except _errors.EkocError as exc:
        field = _cards.card_field_of(exc.message, _distinct_targets(setup)[1])
        if field is None:
            raise
        named = type(exc)(exc.status, exc.status_name, exc.message, f"{where} (card field {field})")
        named.field = field
        raise named from None


def profile(theory_card, operator_card, backend: str = "auto", **kwargs) -> tuple[Solution, ProfileTable]:
    """ekoc.solve with the node timer: returns (solution, table) where the
    table lists (stage, start_ns, end_ns) for planning and couplings, every
    evolution segment and matching, the composition and the whole compute."""
    sol = solve(theory_card, operator_card, backend, profile=True, **kwargs)
    return sol, sol.profile


class Job:
    """A computation running on a background thread (ekoc.submit), for
    polling: `progress` is (rows done, rows total), `done()`, `result()`,
    `cancel()`. The C library releases the GIL, so the caller (a notebook)
    stays responsive."""

    def __init__(self, theory_card, operator_card, backend="auto", **kwargs):
        self._state = _Progress(None)
        self._result = None
        self._exc = None
        self._thread = threading.Thread(target=self._run, args=(theory_card, operator_card, backend, kwargs),
                                        daemon=True, name="ekoc-solve")
        self._thread.start()

    def _run(self, theory_card, operator_card, backend, kwargs):
        try:
            self._result = solve(theory_card, operator_card, backend, _state=self._state, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed to result()
            self._exc = exc

    @property
    def progress(self) -> tuple[int, int]:
        return (self._state.done, self._state.total)

    def done(self) -> bool:
        return not self._thread.is_alive()

    def cancel(self) -> None:
        """Asks the computation to stop at the next row; result() then raises EkocCancelled."""
        self._state.cancelled = True

    def result(self, timeout: float | None = None) -> Solution:
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise TimeoutError("ekoc computation still running")
        if self._exc is not None:
            raise self._exc
        return self._result


def submit(theory_card, operator_card, backend: str = "auto", **kwargs) -> Job:
    """Starts ekoc.solve on a background thread and returns a Job to poll."""
    return Job(theory_card, operator_card, backend, **kwargs)
