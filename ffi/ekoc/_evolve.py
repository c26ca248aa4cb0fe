"""ekoc.evolve_pdfs: PDFs (many replicas) evolved to every target of an EKO,
target by target as the library streams them, without eko.

Each target's operator is applied in eko's evolution basis (ph, S, g, V,
V3, ..., T35), where it has few non-zero nx x nx blocks (31 of 196 on
NNPDF's fit grid at nf = 5, against 123 in the flavour basis): one BLAS
product per run of adjacent non-zero blocks, for all replicas at once.
The PDFs are rotated into that basis once and the results back to the
flavour basis (eko's PIDS order) per target.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from . import _cards
from ._blas import single_threaded_blas
from ._errors import EkocFieldError, EkocFieldTypeError

#: eko's flavour basis (the order of ekoc.PIDS) and evolution basis
FLAVOR_PIDS = (22, -6, -5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5, 6)
EVOLUTION_LABELS = ("ph", "S", "g", "V", "V3", "V8", "V15", "V24", "V35", "T3", "T8", "T15", "T24", "T35")


def flavor_to_evolution() -> np.ndarray:
    """The 14 x 14 matrix taking a PDF in the flavour basis (FLAVOR_PIDS) to
    eko's evolution basis (EVOLUTION_LABELS): S = sum of q+, V = sum of q-,
    V_{k^2-1} / T_{k^2-1} = sum of the first k-1 quarks' q- / q+ minus
    (k-1) times the k-th's (k = 2..6, quarks ordered d, u, s, c, b, t; V3 =
    u- - d-), with q+- = q +- qbar."""
    col = {pid: i for i, pid in enumerate(FLAVOR_PIDS)}
    m = np.zeros((14, 14))
    m[0, col[22]] = 1.0
    m[2, col[21]] = 1.0
    quarks = (2, 1, 3, 4, 5, 6)  # u, d first: V3 = u- - d-
    for q in quarks:
        for sign, row in ((1.0, 1), (-1.0, 3)):  # S, V
            m[row, col[q]] += 1.0
            m[row, col[-q]] += sign
    for k in range(2, 7):  # V3 (k=2) .. V35 (k=6), T3 .. T35
        for sign, row in ((-1.0, 2 + k), (1.0, 7 + k)):
            for j, q in enumerate(quarks[:k]):
                weight = 1.0 if j < k - 1 else -(k - 1.0)
                m[row, col[q]] += weight
                m[row, col[-q]] += sign * weight
    return m


_TO_EVOLUTION = flavor_to_evolution()
_FROM_EVOLUTION = np.linalg.inv(_TO_EVOLUTION)


def operator_card_for(theory_card, q2grid, *, xgrid, mu0, nf0=None, configs=None) -> dict:
    """An eko operator card (dict) evolving from mu0 (GeV) to every Q^2 of
    `q2grid` (GeV^2) on `xgrid`: each Q^2 with its natural nf from the theory
    card's matching scales (eko's nf_default), a Q^2 on a matching scale
    twice (the nf below and above, as NNPDF's evolven3fit asks: an LHAPDF
    set then has one subgrid per nf, sharing the threshold). nf0 defaults
    to the natural nf at mu0 (the upper one on a threshold); `configs`
    updates eko's defaults (iterate-exact, 10 iterations, degree 4 in ln x)."""
    q2 = [float(v) for v in _numbers(q2grid, "q2grid")]
    if not q2:
        raise EkocFieldError("q2grid", list(q2grid), "is empty: nothing to evolve to")
    for i, v in enumerate(q2):
        if not (math.isfinite(v) and v > 0):
            raise EkocFieldError(f"q2grid[{i}]", v, "must be a finite scale > 0 (GeV^2)")
    thresholds = _matching_scales(theory_card)
    mu0 = float(mu0)
    if not (math.isfinite(mu0) and mu0 > 0):
        raise EkocFieldError("mu0", mu0, "must be a finite scale > 0 (GeV)")
    if nf0 is None:
        nf0 = 3 + sum(1 for t in thresholds if t <= mu0 * mu0)
    mugrid = []
    for v in sorted(set(q2)):
        below = 3 + sum(1 for t in thresholds if t < v)
        above = 3 + sum(1 for t in thresholds if t <= v)
        mugrid += [(math.sqrt(v), nf) for nf in range(below, above + 1)]
    base = {"evolution_method": "iterate-exact", "ev_op_max_order": [10, 0], "ev_op_iterations": 10,
            "scvar_method": None, "inversion_method": "exact", "interpolation_polynomial_degree": 4,
            "interpolation_is_log": True, "polarized": False, "time_like": False, "n_integration_cores": 0}
    if configs is not None:
        if not isinstance(configs, Mapping):
            raise EkocFieldTypeError("configs", configs, "must be a mapping of eko operator-card configs")
        base.update(configs)
    return {"init": [mu0, int(nf0)], "mugrid": mugrid, "xgrid": [float(x) for x in xgrid], "configs": base}


def _numbers(value, where):
    """`value` as a list, refused (naming `where`) unless a sequence or array."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise EkocFieldTypeError(where, value, "must be a sequence of numbers")
    return list(value)


def _matching_scales(theory_card) -> list[float]:
    """mu_h^2 = (k_h m_h)^2 for c, b, t from an eko theory card (object or
    dict); infinite ratios (flavours never switched on) left out."""
    raw = theory_card.raw if hasattr(theory_card, "raw") else theory_card
    heavy = raw.get("heavy") if isinstance(raw, Mapping) else None
    if not isinstance(heavy, Mapping):
        raise EkocFieldError("theory_card.heavy", heavy, "is needed to place the targets' nf (masses and "
                             "matching_ratios)")
    masses, ratios = heavy.get("masses"), heavy.get("matching_ratios")
    if str(heavy.get("masses_scheme", "pole")).lower() == "msbar":  # the thresholds are m(m)
        masses = _msbar_threshold_masses(raw)
    out = []
    for h in range(3):
        mass = masses[h][0] if isinstance(masses[h], (list, tuple)) else masses[h]
        ratio = float(ratios[h])
        if math.isfinite(ratio):
            out.append((ratio * float(mass)) ** 2)
    return out


def _msbar_threshold_masses(theory_raw) -> tuple:
    """m_h(m_h) of an MSbar theory card (ekoc_theory_masses with the exact
    coupling of eko's default iterate-exact)."""
    import types

    from . import _cards
    from ._solve import threshold_masses

    fields = _cards._theory(_cards.theory_dict(theory_raw))
    return threshold_masses(types.SimpleNamespace(**fields, polarized=0, time_like=0,
                                                  method=_cards.METHODS["iterate-exact"]))


def pdf_array(pdfs, xgrid: np.ndarray, mu2_0: float, where: str = "pdfs") -> np.ndarray:
    """The replicas as one array (R, 14, nx) of f(x) at mu_0^2 on `xgrid`
    (eko's flavour basis, FLAVOR_PIDS order). `pdfs` is

    - an array (R, 14, nx) or (14, nx) of f(x) (not x f(x)), or
    - a callable xf(pid, x) giving x f(x) at mu_0 (x a numpy array; a pid it
      does not know gives 0 or raises KeyError), or an object with LHAPDF's
      xfxQ2(pid, x, Q2) (read at mu_0^2), or a sequence of such callables /
      objects (one per replica).

    A non-finite value raises EkocFieldError naming the replica, pid and x."""
    nx = len(xgrid)
    if isinstance(pdfs, np.ndarray) or (isinstance(pdfs, Sequence) and pdfs and not _is_pdf_function(pdfs[0])):
        arr = np.asarray(pdfs, dtype=float)
        if arr.ndim == 2:
            arr = arr[None]
        if arr.ndim != 3 or arr.shape[1:] != (14, nx):
            raise EkocFieldError(where, f"array of shape {arr.shape}",
                                 f"must have shape (replicas, 14, {nx}): f(x) in eko's flavour basis "
                                 f"{FLAVOR_PIDS} on the operator's {nx}-point x grid")
    else:
        functions = [pdfs] if _is_pdf_function(pdfs) else list(pdfs) if isinstance(pdfs, Sequence) else None
        if not functions or not all(_is_pdf_function(f) for f in functions):
            raise EkocFieldTypeError(where, pdfs, "must be an array (replicas, 14, nx) of f(x), a callable "
                                     "xf(pid, x), an object with xfxQ2(pid, x, Q2), or a sequence of those")
        arr = np.stack([_sample(f, xgrid, mu2_0, f"{where}[{r}]") for r, f in enumerate(functions)])
    if arr.shape[0] == 0:
        raise EkocFieldError(where, "no replicas", "holds no PDF to evolve")
    bad = ~np.isfinite(arr)
    if bad.any():
        r, k, j = (int(i[0]) for i in np.nonzero(bad))
        raise EkocFieldError(f"{where}[{r}]", float(arr[r, k, j]),
                             f"replica {r} is not finite at pid {FLAVOR_PIDS[k]}, x={xgrid[j]!r}: nothing evolved")
    return arr


def _is_pdf_function(obj) -> bool:
    return hasattr(obj, "xfxQ2") or callable(obj)


def _sample(pdf, xgrid: np.ndarray, mu2_0: float, where: str) -> np.ndarray:
    out = np.zeros((14, len(xgrid)))
    for k, pid in enumerate(FLAVOR_PIDS):
        try:
            if hasattr(pdf, "xfxQ2"):
                xf = [pdf.xfxQ2(pid, float(x), mu2_0) for x in xgrid]
            else:
                xf = pdf(pid, xgrid)
        except KeyError:
            continue  # a flavour the PDF does not have: zero
        out[k] = np.broadcast_to(np.asarray(xf, dtype=float), (len(xgrid),)) / xgrid
    return out


class ReplicaEvolver:
    """Applies targets' operators to a fixed set of replicas (R, 14, nx),
    reusing its buffers: evolve(target) returns (R, 14, nx) f(x) at the
    target (a new array)."""

    def __init__(self, pdfs: np.ndarray):
        r, _, nx = pdfs.shape
        self.nx, self.n = nx, r
        # in the evolution basis, (R, 14, nx): a run of basis elements is one (R, k nx) BLAS operand
        self._pdfs = np.ascontiguousarray(np.matmul(_TO_EVOLUTION, pdfs))
        self._operator = np.empty((14, nx, 14, nx))
        self._out = np.empty((r, 14, nx))
        self._tmp = np.empty((r, nx))

    def evolve(self, target) -> np.ndarray:
        nx, n = self.nx, self.n
        op = self._operator
        target.evolution_into(op)
        for c in range(14):
            present = [bool(np.count_nonzero(op[c, :, d, :])) for d in range(14)]
            out = self._out[:, c, :]  # (R, nx), rows 14 nx apart: a BLAS operand as it is
            first = True
            d = 0
            while d < 14:  # runs of adjacent non-zero blocks: one product each
                if not present[d]:
                    d += 1
                    continue
                end = d
                while end < 14 and present[end]:
                    end += 1
                block = op[c, :, d:end, :].reshape(nx, (end - d) * nx)
                rows = self._pdfs[:, d:end, :].reshape(n, (end - d) * nx)
                if first:
                    np.matmul(rows, block.T, out=out)
                    first = False
                else:
                    np.matmul(rows, block.T, out=self._tmp)
                    out += self._tmp
                d = end
            if first:
                out[:] = 0.0
        return np.matmul(_FROM_EVOLUTION, self._out)  # back to the flavour basis, (R, 14, nx)


def evolve_pdfs(theory_card, operator_or_q2grid, pdfs, *, on_target: Callable | None = None, xgrid=None,
                mu0=None, nf0=None, configs=None, backend: str = "auto", **solve_kwargs):
    """Evolves PDFs (any number of replicas) from mu_0 to every target with
    ekoc's operators, without eko, target by target as the library
    composes them (ekoc.solve_stream): memory holds the replicas, the
    operators of a few targets and one target's results.

    theory_card: eko's theory card (object or dict). operator_or_q2grid:
    eko's operator card (object or dict), or a sequence of Q^2 (GeV^2), then
    with `xgrid`, `mu0` (GeV) and optionally `nf0` / `configs` (see
    operator_card_for). pdfs: see pdf_array (f(x) arrays on the card's x
    grid, or functions giving x f(x) at mu_0).

    With on_target, calls on_target(mu2, nf, values) per distinct target
    (values: (R, 14, nx) f(x), eko's flavour basis) and returns
    solve_stream's summary; without, returns {(mu2, nf): values} for every
    target (all in memory). Errors: EkocFieldError naming a bad argument
    (before any computation), and ekoc.solve's."""
    from ._stream import solve_stream

    if isinstance(operator_or_q2grid, (Mapping,)) or hasattr(operator_or_q2grid, "mugrid"):
        operator_card = operator_or_q2grid
    else:
        if xgrid is None or mu0 is None:
            raise EkocFieldError("operator_or_q2grid", operator_or_q2grid,
                                 "is a Q^2 grid: pass xgrid= and mu0= as well (or an operator card)")
        operator_card = operator_card_for(theory_card, operator_or_q2grid, xgrid=xgrid, mu0=mu0, nf0=nf0,
                                          configs=configs)
    setup = _cards.translate(theory_card, operator_card)
    evolver = ReplicaEvolver(pdf_array(pdfs, setup.xgrid, setup.mu2_0))
    held = {}
    if on_target is not None and not callable(on_target):
        raise EkocFieldTypeError("on_target", on_target, "must be a callable(mu2, nf, values)")

    def each(target):
        values = evolver.evolve(target)
        if on_target is None:
            held[target.ep] = values
        else:
            on_target(target.mu2, target.nf, values)

    with single_threaded_blas():
        summary = solve_stream(theory_card, operator_card, each, backend, **solve_kwargs)
    return summary if on_target is not None else held
