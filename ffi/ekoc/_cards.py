"""eko runcards (TheoryCard / OperatorCard objects, or dicts with the same
fields) to ekoc's C structs.

eko writes scales linearly (mu, in GeV) and evolution points as (mu, nf);
ekoc takes squares. Every field eko 0.15 has is either used or checked: a
setting ekoc cannot compute raises NotImplementedError naming the field and
its value, so nothing is silently ignored.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Mapping

import numpy as np

# ekoc enumerations (include/ekoc.h)
METHODS = {
    "iterate-exact": 0,
    "iterate-expanded": 1,
    "perturbative-exact": 2,
    "perturbative-expanded": 3,
    "truncated": 4,
    "ordered-truncated": 5,
    "decompose-exact": 6,
    "decompose-expanded": 7,
}
SV_NONE, SV_EXPONENTIATED, SV_EXPANDED = 0, 1, 2
SV_MODES = {None: SV_NONE, "exponentiated": SV_EXPONENTIATED, "expanded": SV_EXPANDED}
MATCHING_BACKWARD_EXACT, MATCHING_BACKWARD_EXPANDED = 1, 2
INVERSIONS = {"exact": MATCHING_BACKWARD_EXACT, "expanded": MATCHING_BACKWARD_EXPANDED}
BACKENDS = {"adaptive": 0, "batch": 1, "gpu": 2}

THEORY_FIELDS = {"order", "couplings", "heavy", "xif", "n3lo_ad_variation", "use_fhmruvv", "matching_order"}
OPERATOR_FIELDS = {"init", "mugrid", "xgrid", "configs", "debug", "eko_version"}
CONFIG_FIELDS = {"evolution_method", "ev_op_max_order", "ev_op_iterations", "scvar_method", "inversion_method",
                 "interpolation_polynomial_degree", "interpolation_is_log", "polarized", "time_like",
                 "n_integration_cores"}


@dataclasses.dataclass
class Setup:
    """Everything ekoc_compute needs, in Python types (squared scales)."""

    order: int
    alphas: float
    mu2_ref: float
    nf_ref: int
    masses: tuple
    matching_ratios: tuple
    xif: float
    matching_order: int
    mu2_0: float
    nf0: int
    targets: list  # [(mu2, nf)] exactly as eko keys them: (mu**2, nf)
    xgrid: np.ndarray
    degree: int
    method: int
    method_name: str
    ev_op_iterations: int
    ev_op_max_order: int
    sv_mode: int
    inversion_method: int
    n_threads: int
    # the physics axes of ekoc_theory (include/ekoc/operator.h), from the card;
    # translate() refuses every value but the computed one, and the C library
    # refuses the same values (EKOC_ERR_UNSUPPORTED) when handed them directly
    qed_order: int = 0
    alphaem: float | None = None  # None: the library's default (eko's)
    em_running: int = 0
    polarized: int = 0
    time_like: int = 0


_SCALARS = (float, int, str, bool, type(None))


def _plain(value: Any) -> Any:
    """eko runcard objects (DictLike dataclasses, enums, XGrid) to plain Python
    (plain dicts, lists and numbers pass through the fast paths)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:
        return {k: _plain(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        if all(type(v) is float or type(v) is int for v in value):
            return list(value)
        return [_plain(v) for v in value]
    raw = getattr(value, "raw", None)
    if dataclasses.is_dataclass(value) and raw is not None and not callable(raw):
        return _plain(raw)
    if isinstance(value, enum.Enum):
        return value.value
    if hasattr(value, "tolist") and hasattr(value, "log") and hasattr(value, "grid"):  # eko XGrid
        return {"grid": value.tolist(), "log": bool(value.log)}
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def _need(d: Mapping, key: str, where: str):
    if key not in d:
        raise KeyError(f"{where}.{key} is missing")
    return d[key]


def _unknown(d: Mapping, known: set, where: str):
    extra = sorted(set(d) - known)
    if extra:
        raise ValueError(f"{where} has unknown field(s) {extra} (expected eko 0.15's {sorted(known)})")


def _unsupported(field: str, value: Any, why: str):
    raise NotImplementedError(f"{field}={value!r}: {why} is not implemented in ekoc")


def _pair(value, where):
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ValueError(f"{where}={value!r} must be a pair")
    return value


def _number(value, where, kind=float):
    try:
        out = kind(value)
    except (TypeError, ValueError):
        raise ValueError(f"{where}={value!r} is not a number") from None
    if kind is int and out != value:
        raise ValueError(f"{where}={value!r} is not an integer")
    return out


def _flag(value) -> int:
    """A card's boolean as the C library's 0/1 (truthiness, as eko reads it)."""
    return int(bool(value))


def _scale(value, where):
    """A linear scale mu in GeV: eko squares it, so its sign would be lost."""
    mu = _number(value, where)
    if not mu > 0:
        raise ValueError(f"{where}={value!r}: a scale mu (GeV, linear) must be > 0")
    return mu


def theory_dict(theory_card) -> dict:
    return _plain(theory_card)


def operator_dict(operator_card) -> dict:
    return _plain(operator_card)


def translate(theory_card, operator_card, n_threads: int | None = None) -> Setup:
    """Reads eko's two runcards (objects or dicts) into a Setup; raises
    NotImplementedError (naming the field) for what ekoc lacks, KeyError /
    ValueError for malformed cards."""
    th = theory_dict(theory_card)
    op = operator_dict(operator_card)
    if not isinstance(th, Mapping):
        raise TypeError(f"theory_card must be an eko TheoryCard or a dict, not {type(theory_card).__name__}")
    if not isinstance(op, Mapping):
        raise TypeError(f"operator_card must be an eko OperatorCard or a dict, not {type(operator_card).__name__}")
    for key in ("intrinsic_flavors", "IC"):  # older eko cards: intrinsic heavy flavours
        if th.get(key):
            _unsupported(f"theory_card.{key}", th[key], "intrinsic heavy-quark PDFs")
    _unknown(th, THEORY_FIELDS | {"intrinsic_flavors", "IC"}, "theory_card")
    _unknown(op, OPERATOR_FIELDS, "operator_card")

    # ---- theory
    order = _pair(_need(th, "order", "theory_card"), "theory_card.order")
    qcd, qed = _number(order[0], "theory_card.order[0]", int), _number(order[1], "theory_card.order[1]", int)
    if qed > 0:
        _unsupported("theory_card.order[1]", qed, "QED evolution (order[1] > 0)")
    if qcd == 4:
        _unsupported("theory_card.order[0]", qcd, "N3LO QCD evolution")
    if qcd < 1 or qcd > 4:
        raise ValueError(f"theory_card.order[0]={qcd} outside 1..3 (LO..NNLO)")
    mo = th.get("matching_order")
    if mo is None:
        matching_order = qcd - 1
    else:
        mo = _pair(mo, "theory_card.matching_order")
        if _number(mo[1], "theory_card.matching_order[1]", int) > 0:
            _unsupported("theory_card.matching_order[1]", mo[1], "QED matching")
        matching_order = _number(mo[0], "theory_card.matching_order[0]", int)
        if matching_order >= 3:
            _unsupported("theory_card.matching_order[0]", matching_order, "N3LO matching")
    couplings = _need(th, "couplings", "theory_card")
    _unknown(couplings, {"alphas", "alphaem", "ref", "em_running"}, "theory_card.couplings")
    alphas = _number(_need(couplings, "alphas", "theory_card.couplings"), "theory_card.couplings.alphas")
    ref = _pair(_need(couplings, "ref", "theory_card.couplings"), "theory_card.couplings.ref")
    mu_ref = _scale(ref[0], "theory_card.couplings.ref[0]")
    nf_ref = _number(ref[1], "theory_card.couplings.ref[1]", int)
    # alphaem and em_running only act with order[1] > 0 (refused above); they
    # still go to the C theory, which checks them
    alphaem = couplings.get("alphaem")
    if alphaem is not None:
        alphaem = _number(alphaem, "theory_card.couplings.alphaem")
    em_running = _flag(couplings.get("em_running", False))
    heavy = _need(th, "heavy", "theory_card")
    _unknown(heavy, {"masses", "masses_scheme", "matching_ratios"}, "theory_card.heavy")
    scheme = str(_need(heavy, "masses_scheme", "theory_card.heavy")).lower()
    if scheme == "msbar":
        _unsupported("theory_card.heavy.masses_scheme", "msbar", "MSbar heavy-quark masses")
    if scheme != "pole":
        raise ValueError(f"theory_card.heavy.masses_scheme={scheme!r} is neither 'pole' nor 'msbar'")
    masses_raw = _need(heavy, "masses", "theory_card.heavy")
    if len(masses_raw) != 3:
        raise ValueError(f"theory_card.heavy.masses needs 3 entries (c, b, t), got {len(masses_raw)}")
    masses = []
    for h, m in enumerate(masses_raw):
        value = m[0] if isinstance(m, (list, tuple)) else m
        masses.append(_number(value, f"theory_card.heavy.masses[{h}][0]"))
    ratios = [_number(k, f"theory_card.heavy.matching_ratios[{h}]")
              for h, k in enumerate(_need(heavy, "matching_ratios", "theory_card.heavy"))]
    if len(ratios) != 3:
        raise ValueError("theory_card.heavy.matching_ratios needs 3 entries (c, b, t)")
    xif = _number(_need(th, "xif", "theory_card"), "theory_card.xif")
    n3lo_var = th.get("n3lo_ad_variation")
    if n3lo_var is not None and any(v != 0 for v in n3lo_var) and qcd >= 4:
        _unsupported("theory_card.n3lo_ad_variation", n3lo_var, "N3LO anomalous-dimension variations")
    # use_fhmruvv selects N3LO anomalous dimensions only: irrelevant up to NNLO

    # ---- operator
    configs = _need(op, "configs", "operator_card")
    _unknown(configs, CONFIG_FIELDS, "operator_card.configs")
    polarized = _flag(configs.get("polarized", False))
    time_like = _flag(configs.get("time_like", False))
    if polarized:
        _unsupported("operator_card.configs.polarized", True, "polarized evolution")
    if time_like:
        _unsupported("operator_card.configs.time_like", True, "time-like evolution (fragmentation functions)")
    if not configs.get("interpolation_is_log", True):
        _unsupported("operator_card.configs.interpolation_is_log", False, "interpolation polynomial in x (not ln x)")
    debug = op.get("debug") or {}
    _unknown(debug, {"skip_singlet", "skip_non_singlet"}, "operator_card.debug")
    for key in ("skip_singlet", "skip_non_singlet"):
        if debug.get(key, False):
            _unsupported(f"operator_card.debug.{key}", True, "skipping a sector")
    method_name = _plain(_need(configs, "evolution_method", "operator_card.configs"))
    if method_name not in METHODS:
        raise ValueError(f"operator_card.configs.evolution_method={method_name!r} is not one of {list(METHODS)}")
    max_order = configs.get("ev_op_max_order", [10, 0])
    if isinstance(max_order, (list, tuple)):
        max_order = max_order[0]
    scvar = _plain(configs.get("scvar_method"))
    if scvar not in SV_MODES:
        raise ValueError(f"operator_card.configs.scvar_method={scvar!r} is not None, 'exponentiated' or 'expanded'")
    sv_mode = SV_MODES[scvar]
    if sv_mode == SV_NONE or xif == 1.0:
        # eko ignores xif without a scale-variation scheme (sv_mode unvaried)
        sv_mode, xif_eff = SV_NONE, 1.0
    else:
        xif_eff = xif
    inversion = _plain(configs.get("inversion_method"))
    init = _pair(_need(op, "init", "operator_card"), "operator_card.init")
    mu0 = _scale(init[0], "operator_card.init[0]")
    nf0 = _number(init[1], "operator_card.init[1]", int)
    targets = []
    for i, ep in enumerate(_need(op, "mugrid", "operator_card")):
        ep = _pair(ep, f"operator_card.mugrid[{i}]")
        mu = _scale(ep[0], f"operator_card.mugrid[{i}][0]")
        nf = _number(ep[1], f"operator_card.mugrid[{i}][1]", int)
        targets.append((mu**2, nf))
    if not targets:
        raise ValueError("operator_card.mugrid is empty: nothing to compute")
    if inversion is None:
        if any(3 <= nf < nf0 <= 6 for _, nf in targets):  # (other nf: the C library's error)
            _unsupported("operator_card.configs.inversion_method", None,
                         "a downward matching without an inversion method (eko then applies the forward "
                         "matching; set 'exact' or 'expanded')")
        inversion_code = MATCHING_BACKWARD_EXPANDED  # unused: no backward matching on the path
    elif inversion in INVERSIONS:
        inversion_code = INVERSIONS[inversion]
    else:
        raise ValueError(f"operator_card.configs.inversion_method={inversion!r} is not None, 'exact' or 'expanded'")
    xgrid = _need(op, "xgrid", "operator_card")
    if isinstance(xgrid, Mapping):
        if not xgrid.get("log", True):
            _unsupported("operator_card.xgrid.log", False, "interpolation polynomial in x (not ln x)")
        xgrid = xgrid["grid"]
    if len(xgrid) and isinstance(xgrid[0], str):
        xgrid = _named_grid(xgrid)
    xgrid = np.ascontiguousarray(np.asarray(xgrid, dtype=float))
    if xgrid.ndim != 1:
        raise ValueError(f"operator_card.xgrid must be one-dimensional, got shape {xgrid.shape}")
    if not np.all(xgrid[1:] > xgrid[:-1]):
        unique = np.unique(xgrid)
        if len(unique) == len(xgrid):  # eko's XGrid sorts; duplicates are left for the C error
            xgrid = unique
    if n_threads is None:
        cores = int(configs.get("n_integration_cores", 1) or 0)
        n_threads = cores if cores > 0 else 0
    return Setup(
        order=qcd, alphas=alphas, mu2_ref=mu_ref**2, nf_ref=nf_ref, masses=tuple(masses),
        matching_ratios=tuple(ratios), xif=xif_eff, matching_order=matching_order, mu2_0=mu0**2, nf0=nf0,
        targets=targets, xgrid=xgrid,
        degree=_number(_need(configs, "interpolation_polynomial_degree", "operator_card.configs"),
                       "operator_card.configs.interpolation_polynomial_degree", int),
        method=METHODS[method_name], method_name=method_name,
        ev_op_iterations=_number(configs.get("ev_op_iterations", 10), "operator_card.configs.ev_op_iterations",
                                 int),
        ev_op_max_order=_number(max_order, "operator_card.configs.ev_op_max_order[0]", int),
        sv_mode=sv_mode, inversion_method=inversion_code, n_threads=int(n_threads),
        qed_order=qed, alphaem=alphaem, em_running=em_running, polarized=polarized, time_like=time_like,
    )


def _named_grid(spec):
    """eko's card shorthands ["make_grid", ...] / ["lambertgrid", n, xmin]."""
    from . import _core

    if spec[0] == "lambertgrid":
        n = int(spec[1])
        xmin = float(spec[2]) if len(spec) > 2 else 1e-7
        return _core.lambert_grid(n, xmin)
    if spec[0] == "make_grid":
        try:
            from eko.interpolation import make_grid
        except ImportError:
            _unsupported("operator_card.xgrid", spec[0], "the 'make_grid' shorthand without eko installed")
        return make_grid(*spec[1:])
    raise ValueError(f"operator_card.xgrid={spec!r}: unknown grid shorthand {spec[0]!r}")


def supported(theory_card, operator_card) -> tuple[bool, str]:
    """(True, summary) when ekoc can compute this pair of cards, else
    (False, reason) with the field that stops it."""
    try:
        s = translate(theory_card, operator_card)
    except NotImplementedError as exc:
        return False, str(exc)
    except (KeyError, ValueError, TypeError) as exc:
        return False, f"card not understood by ekoc ({exc})"
    names = {1: "LO", 2: "NLO", 3: "NNLO"}
    sv = {SV_NONE: "", SV_EXPONENTIATED: f", xif={s.xif:g} exponentiated", SV_EXPANDED: f", xif={s.xif:g} expanded"}
    return True, (f"{names[s.order]} {s.method_name}{sv[s.sv_mode]}, nx={len(s.xgrid)}, "
                  f"{len(s.targets)} target(s)")
