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
import math
from typing import Any, Mapping

import numpy as np

from . import _fields as F
from ._errors import EkocError, EkocFieldError, EkocFieldTypeError, EkocUnsupportedFieldError
from ._n3lo_set import N3LO_AD_SET_NAMES, n3lo_set

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
    "ordered-exact": 8,  # ekoc's own (include/ekoc.h): eko's cards do not have it
}
SV_NONE, SV_EXPONENTIATED, SV_EXPANDED = 0, 1, 2
SV_MODES = {None: SV_NONE, "exponentiated": SV_EXPONENTIATED, "expanded": SV_EXPANDED}
MATCHING_BACKWARD_EXACT, MATCHING_BACKWARD_EXPANDED = 1, 2
INVERSIONS = {"exact": MATCHING_BACKWARD_EXACT, "expanded": MATCHING_BACKWARD_EXPANDED}
BACKENDS = {"auto": 4, "nspace": 3, "batch": 1, "adaptive": 0, "gpu": 2}
#: the engine that ran, by its C number (ekoc_operator_backend never gives auto)
BACKEND_NAMES = {v: k for k, v in BACKENDS.items()}
#: solve's `physics` (theory.physics): eko's approximations, or the exact g3(N) and the
#: exact NNLO anomalous dimensions (docs/physics.md §12.9, §12.11)
PHYSICS = {"eko": 0, "exact": 1}
#: theory_card.heavy.masses_scheme (theory.masses_scheme, EKOC_MASSES_*; docs/physics.md §17)
MASSES_SCHEMES = {"pole": 0, "msbar": 1}

THEORY_FIELDS = {"order", "couplings", "heavy", "xif", "n3lo_ad_variation", "use_fhmruvv", "n3lo_ad_set",
                 "matching_order"}
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
    masses_scheme: int = 0  # EKOC_MASSES_POLE / _MSBAR
    mass_scales: tuple = ()  # MSbar: mu_h (GeV) of masses[h] = m_h(mu_h); pole: ()
    em_running: int = 0
    polarized: int = 0
    time_like: int = 0
    # the N3LO anomalous dimensions (theory_card.n3lo_ad_variation, use_fhmruvv / n3lo_ad_set:
    # 0 eko's own, 1 FHMRUVV 2024, 2 the 2512 set, _n3lo_set.py; read at N3LO only)
    n3lo_ad_variation: tuple = (0, 0, 0, 0, 0, 0, 0)
    use_fhmruvv: int = 1
    interpolation_is_log: int = 1  # eko's configs.interpolation_is_log: 1 ln x, 0 x
    # plain-dict copies of the cards this Setup was read from (not compared:
    # same_computation() says whether two Setups give the same operators)
    theory_card: dict | None = dataclasses.field(default=None, repr=False, compare=False)
    operator_card: dict | None = dataclasses.field(default=None, repr=False, compare=False)


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


def _unsupported(field: str, value: Any, why: str):
    raise EkocUnsupportedFieldError(field, value, f"{why} is not implemented in ekoc")


def _fail(field: str, value: Any, why: str):
    raise EkocFieldError(field, value, why)


def theory_dict(theory_card) -> dict:
    return _plain(theory_card)


def operator_dict(operator_card) -> dict:
    return _plain(operator_card)


#: the most points a ["lambertgrid", n, ...] shorthand may ask for (8 MB of
#: grid; the operators of such a grid would not fit any memory anyway)
LAMBERT_MAX_POINTS = 1_000_000


def _order_pair(value, where):
    pair = F.sequence(value, where, 2)
    return F.integer(pair[0], f"{where}[0]"), F.integer(pair[1], f"{where}[1]")


def _theory(th: Mapping) -> dict:
    """The theory card's fields, read and checked (a dict of Setup fields)."""
    for key in ("intrinsic_flavors", "IC"):  # older eko cards: intrinsic heavy flavours
        if th.get(key):
            _unsupported(f"theory_card.{key}", th[key], "intrinsic heavy-quark PDFs")
    F.unknown(th, THEORY_FIELDS | {"intrinsic_flavors", "IC"}, "theory_card")
    qcd, qed = _order_pair(F.need(th, "order", "theory_card"), "theory_card.order")
    if qed < 0 or qed > 2:
        _fail("theory_card.order[1]", qed, "the QED order must be 0, 1 or 2")
    if qcd < 1 or qcd > 4:
        _fail("theory_card.order[0]", qcd, "outside 1..4 (LO..N3LO)")
    mo = th.get("matching_order")
    if mo is None:
        matching_order = qcd - 1
    else:
        matching_order, mo_qed = _order_pair(mo, "theory_card.matching_order")
        if mo_qed > 0:
            _unsupported("theory_card.matching_order[1]", mo_qed, "QED matching")
        if mo_qed < 0:
            _fail("theory_card.matching_order[1]", mo_qed, "the QED matching order must be >= 0")
        if matching_order < 0 or matching_order > 3:
            _fail("theory_card.matching_order[0]", matching_order, "outside 0..3 (LO..N3LO matching)")
    couplings = F.mapping(F.need(th, "couplings", "theory_card"), "theory_card.couplings")
    F.unknown(couplings, {"alphas", "alphaem", "ref", "em_running"}, "theory_card.couplings")
    alphas = F.finite_positive(F.need(couplings, "alphas", "theory_card.couplings"), "theory_card.couplings.alphas")
    if alphas / (4.0 * math.pi) < F.DOUBLE_MIN_NORMAL:  # a_s = alpha_s / (4 pi) would be 0 or subnormal
        _fail("theory_card.couplings.alphas", alphas, "a_s = alpha_s / (4 pi) is below the smallest normal double")
    ref = F.sequence(F.need(couplings, "ref", "theory_card.couplings"), "theory_card.couplings.ref", 2)
    _, mu2_ref = F.scale(ref[0], "theory_card.couplings.ref[0]")
    nf_ref = F.integer(ref[1], "theory_card.couplings.ref[1]")
    # alphaem and em_running act with order[1] > 0 only; they still go to the
    # C theory, which checks them
    alphaem = couplings.get("alphaem")
    if alphaem is not None:
        alphaem = F.number(alphaem, "theory_card.couplings.alphaem")
    em_running = F.flag(couplings.get("em_running", False), "theory_card.couplings.em_running")
    heavy = F.mapping(F.need(th, "heavy", "theory_card"), "theory_card.heavy")
    F.unknown(heavy, {"masses", "masses_scheme", "matching_ratios"}, "theory_card.heavy")
    scheme_raw = F.string(F.need(heavy, "masses_scheme", "theory_card.heavy"), "theory_card.heavy.masses_scheme")
    scheme = scheme_raw.lower()
    if scheme not in ("pole", "msbar"):
        _fail("theory_card.heavy.masses_scheme", scheme_raw, "is neither 'pole' nor 'msbar'")
    masses_raw = F.sequence(F.need(heavy, "masses", "theory_card.heavy"), "theory_card.heavy.masses", 3)
    masses, scales = [], []
    for h, m in enumerate(masses_raw):
        pair = isinstance(m, (list, tuple))  # eko: [mass, scale at which it is given]
        if pair:
            F.sequence(m, f"theory_card.heavy.masses[{h}]", allow_empty=False)
        if scheme == "msbar" and not (pair and len(m) == 2):
            _fail(f"theory_card.heavy.masses[{h}]", m, "an MSbar mass is a pair [m(mu), mu] (GeV)")
        masses.append(F.number(m[0] if pair else m, f"theory_card.heavy.masses[{h}]" + ("[0]" if pair else "")))
        if scheme == "msbar":  # m(mu) given at mu (eko's QuarkMassRef [value, scale])
            scales.append(F.number(m[1], f"theory_card.heavy.masses[{h}][1]"))
            if not (math.isfinite(scales[-1]) and scales[-1] > 0.0):
                _fail(f"theory_card.heavy.masses[{h}][1]", m[1], "the scale of an MSbar mass must be finite and > 0")
    ratios_raw = F.sequence(F.need(heavy, "matching_ratios", "theory_card.heavy"),
                            "theory_card.heavy.matching_ratios", 3)
    ratios = [F.number(k, f"theory_card.heavy.matching_ratios[{h}]") for h, k in enumerate(ratios_raw)]
    xif = F.number(F.need(th, "xif", "theory_card"), "theory_card.xif")
    # eko reads these at N3LO only; their ranges are checked by the C library
    # (EKOC_ERR_INVALID_ARGUMENT naming theory.n3lo_ad_variation[i])
    n3lo_var = (0,) * 7
    if th.get("n3lo_ad_variation") is not None:
        raw = F.sequence(th["n3lo_ad_variation"], "theory_card.n3lo_ad_variation", 7)
        n3lo_var = tuple(F.integer(v, f"theory_card.n3lo_ad_variation[{i}]") for i, v in enumerate(raw))
        for i, v in enumerate(n3lo_var):
            if v < 0:
                _fail(f"theory_card.n3lo_ad_variation[{i}]", v, "is negative (0 is the central value)")
    use_fhmruvv = n3lo_set(th)
    return dict(order=qcd, alphas=alphas, mu2_ref=mu2_ref, nf_ref=nf_ref, masses=tuple(masses),
                masses_scheme=MASSES_SCHEMES[scheme], mass_scales=tuple(scales), matching_ratios=tuple(ratios),
                xif=xif, matching_order=matching_order, qed_order=qed,
                alphaem=alphaem, em_running=em_running, n3lo_ad_variation=n3lo_var, use_fhmruvv=use_fhmruvv)


def _xgrid(raw, where: str = "operator_card.xgrid") -> tuple[np.ndarray, bool]:
    """(grid as a float64 array, whether the card used a shorthand)."""
    if isinstance(raw, Mapping) and where == "operator_card.xgrid":  # eko's XGrid raw form
        F.unknown(raw, {"grid", "log"}, where)
        if not F.flag(raw.get("log", True), f"{where}.log"):
            _unsupported(f"{where}.log", False, "interpolation polynomial in x (not ln x)")
        return _xgrid(F.need(raw, "grid", where), f"{where}.grid")
    F.sequence(raw, where, allow_empty=False)
    if isinstance(raw[0], str):
        return _named_grid(raw, where), True
    values = [F.number(x, f"{where}[{i}]") for i, x in enumerate(raw)]
    for i, x in enumerate(values):
        if not (math.isfinite(x) and 0.0 < x <= 1.0):
            _fail(f"{where}[{i}]", raw[i], "outside (0, 1]")
    xgrid = np.ascontiguousarray(np.asarray(values, dtype=float))
    if not np.all(xgrid[1:] > xgrid[:-1]):
        unique = np.unique(xgrid)
        if len(unique) != len(xgrid):
            first = next(i for i, x in enumerate(values) if values.index(x) != i)
            _fail(f"{where}[{first}]", raw[first],
                  f"repeats {where}[{values.index(values[first])}]: the grid must be strictly ascending "
                  "once sorted (no point twice)")
        xgrid = unique  # eko's XGrid sorts
    return xgrid, False


def _operator(op: Mapping, xif: float, n_threads) -> dict:
    """The operator card's fields, read and checked (a dict of Setup fields)."""
    F.unknown(op, OPERATOR_FIELDS, "operator_card")
    configs = F.mapping(F.need(op, "configs", "operator_card"), "operator_card.configs")
    F.unknown(configs, CONFIG_FIELDS, "operator_card.configs")
    cf = "operator_card.configs"
    polarized = F.flag(configs.get("polarized", False), f"{cf}.polarized")
    time_like = F.flag(configs.get("time_like", False), f"{cf}.time_like")
    if polarized and time_like:
        _unsupported(f"{cf}.time_like", True, "polarized time-like evolution (eko has none)")
    is_log = F.flag(configs.get("interpolation_is_log", True), f"{cf}.interpolation_is_log")
    debug = op.get("debug")
    if debug is not None:
        F.mapping(debug, "operator_card.debug")
        F.unknown(debug, {"skip_singlet", "skip_non_singlet"}, "operator_card.debug")
        for key in ("skip_singlet", "skip_non_singlet"):
            if F.flag(debug.get(key, False), f"operator_card.debug.{key}"):
                _unsupported(f"operator_card.debug.{key}", True, "skipping a sector")
    if op.get("eko_version") is not None:
        F.string(op["eko_version"], "operator_card.eko_version")
    method_name = F.choice(_plain(F.need(configs, "evolution_method", cf)), f"{cf}.evolution_method", METHODS)
    max_order = configs.get("ev_op_max_order", [10, 0])
    if isinstance(max_order, (list, tuple)):  # eko: (QCD, QED) maximum orders
        F.sequence(max_order, f"{cf}.ev_op_max_order", 2)
        F.integer(max_order[1], f"{cf}.ev_op_max_order[1]")
        ev_op_max_order = F.integer(max_order[0], f"{cf}.ev_op_max_order[0]")
    else:
        ev_op_max_order = F.integer(max_order, f"{cf}.ev_op_max_order")
    scvar = F.choice(_plain(configs.get("scvar_method")), f"{cf}.scvar_method",
                     [k for k in SV_MODES if k is not None], none=True)
    sv_mode = SV_MODES[scvar]
    if sv_mode == SV_NONE or xif == 1.0:
        # eko ignores xif without a scale-variation scheme (sv_mode unvaried)
        sv_mode, xif_eff = SV_NONE, 1.0
    else:
        xif_eff = F.squared_normal(xif, "theory_card.xif")  # the library squares it
    inversion = F.choice(_plain(configs.get("inversion_method")), f"{cf}.inversion_method", list(INVERSIONS),
                         none=True)
    init = F.sequence(F.need(op, "init", "operator_card"), "operator_card.init", 2)
    _, mu2_0 = F.scale(init[0], "operator_card.init[0]")
    nf0 = F.integer(init[1], "operator_card.init[1]")
    targets = []
    mugrid = F.sequence(F.need(op, "mugrid", "operator_card"), "operator_card.mugrid")
    if not mugrid:
        _fail("operator_card.mugrid", mugrid, "is empty: nothing to compute")
    for i, ep in enumerate(mugrid):
        ep = F.sequence(ep, f"operator_card.mugrid[{i}]", 2)
        _, mu2 = F.scale(ep[0], f"operator_card.mugrid[{i}][0]")
        targets.append((mu2, F.integer(ep[1], f"operator_card.mugrid[{i}][1]")))
    if inversion is None:
        if any(3 <= nf < nf0 <= 6 for _, nf in targets):  # (other nf: the C library's error)
            _unsupported(f"{cf}.inversion_method", None,
                         "a downward matching without an inversion method (eko then applies the forward "
                         "matching; set 'exact' or 'expanded')")
        inversion_code = MATCHING_BACKWARD_EXPANDED  # unused: no backward matching on the path
    else:
        inversion_code = INVERSIONS[inversion]
    xgrid, shorthand = _xgrid(F.need(op, "xgrid", "operator_card"))
    degree = F.integer(F.need(configs, "interpolation_polynomial_degree", cf), f"{cf}.interpolation_polynomial_degree")
    iterations = F.integer(configs.get("ev_op_iterations", 10), f"{cf}.ev_op_iterations")
    if n_threads is None:
        cores = configs.get("n_integration_cores", 1)
        cores = 0 if cores is None else F.integer(cores, f"{cf}.n_integration_cores")
        n_threads = cores if cores > 0 else 0
    else:
        n_threads = F.integer(n_threads, "n_threads")
    return dict(xif=xif_eff, mu2_0=mu2_0, nf0=nf0, targets=targets, xgrid=xgrid, degree=degree,
                method=METHODS[method_name], method_name=method_name, ev_op_iterations=iterations,
                ev_op_max_order=ev_op_max_order, sv_mode=sv_mode, inversion_method=inversion_code,
                n_threads=n_threads, polarized=polarized, time_like=time_like,
                interpolation_is_log=int(bool(is_log))), shorthand


def translate(theory_card, operator_card, n_threads: int | None = None) -> Setup:
    """Reads eko's two runcards (objects or dicts) into a Setup.

    Raises EkocUnsupportedFieldError (a NotImplementedError) naming the field
    for what ekoc lacks, and EkocFieldError (a ValueError; its TypeError and
    KeyError variants for a wrong type or a missing field) naming the field
    and its value for a malformed card; no other exception comes out. The
    Setup keeps plain-dict copies of both cards (Setup.theory_card /
    operator_card), with an x-grid shorthand replaced by the grid it names.
    """
    th = theory_dict(theory_card)
    op = operator_dict(operator_card)
    if not isinstance(th, Mapping):
        raise EkocFieldTypeError("theory_card", theory_card, "must be an eko TheoryCard or a dict, not "
                                 f"{type(theory_card).__name__}")
    if not isinstance(op, Mapping):
        raise EkocFieldTypeError("operator_card", operator_card, "must be an eko OperatorCard or a dict, not "
                                 f"{type(operator_card).__name__}")
    fields = _theory(th)
    if fields["order"] == 4:
        _warn_beyond_eko_variations(fields["n3lo_ad_variation"], fields["use_fhmruvv"])
    op_fields, shorthand = _operator(op, fields["xif"], n_threads)
    if fields["qed_order"] > 0:
        _check_qed(fields, op_fields)
    if op_fields["polarized"] or op_fields["time_like"]:
        _check_axes(fields, op_fields)
    fields.update(op_fields)
    if shorthand:
        op = {**op, "xgrid": fields["xgrid"].tolist()}
    return Setup(**fields, theory_card=th, operator_card=op)


def _check_qed(theory: dict, operator: dict) -> None:
    """What eko 0.15.7 computes with QED (order[1] > 0): iterate-exact only
    (its QED singlet and valence kernels raise for every other method), and
    the exponentiated scale variation only with a running alpha_em (eko fails
    with a fixed one); the C library refuses the same (docs/physics.md §15)."""
    if operator["method_name"] != "iterate-exact":
        _unsupported("operator_card.configs.evolution_method", operator["method_name"],
                     "QED evolution (order[1] > 0) with a method other than iterate-exact (eko has none)")
    if operator["sv_mode"] == SV_EXPONENTIATED and not theory["em_running"]:
        _unsupported("theory_card.couplings.em_running", theory["em_running"],
                     "the exponentiated scale variation with QED and a fixed alpha_em (eko fails there)")


def _check_axes(theory: dict, operator: dict) -> None:
    """What eko 0.15.7 has of polarized and time-like evolution
    (docs/physics.md §16): LO..NNLO anomalous dimensions, polarized OMEs to
    O(a_s^2), time-like ones at O(a_s) (eko takes the unknown O(a_s^2)
    time-like matching as zero: so does ekoc, with an EkocWarning), no QED
    with either (eko's QED kernels would ignore the axis)."""
    axis = "polarized" if operator["polarized"] else "time_like"
    where = f"operator_card.configs.{axis}"
    if theory["order"] > 3:
        _unsupported("theory_card.order[0]", theory["order"], f"{axis.replace('_', '-')} evolution beyond NNLO "
                     "(eko has none)")
    if theory["qed_order"] > 0:
        _unsupported(where, True, "QED with polarized or time-like evolution (eko's QED ignores the axis)")
    if operator["polarized"] and theory["matching_order"] > 2:
        _unsupported("theory_card.matching_order[0]", theory["matching_order"],
                     "polarized matching beyond O(a_s^2) (eko has none)")
    if operator["time_like"] and theory["matching_order"] > 1:
        import warnings

        from ._errors import EkocWarning

        warnings.warn(f"theory_card.matching_order[0] = {theory['matching_order']}: the time-like matching is known "
                      "to O(a_s) only; eko 0.15.7 takes the higher orders as zero, and so does ekoc",
                      EkocWarning, stacklevel=4)


_VARIATION_NAMES = ("gg", "gq", "qg", "qq", "ns+", "ns-", "nsV")


def _warn_beyond_eko_variations(variation, use_fhmruvv):
    """EkocWarning for each n3lo_ad_variation entry beyond what eko 0.15.7
    implements (the crate's ekore_n3lo_variation_max): eko, and so ekoc,
    computes it as the central value; NNPDF's database has such cards (gq up
    to 21 where eko's own approximation has 0..15)."""
    import warnings

    from ._errors import EkocWarning
    from ._lib import ffi, load

    top = ffi.new("uint32_t[7]")
    if load().ekore_n3lo_variation_max(int(use_fhmruvv), top) != 0:
        return  # use_fhmruvv is checked (and named) by the C library
    for i, v in enumerate(variation):
        if v > top[i]:
            warnings.warn(f"theory_card.n3lo_ad_variation[{i}] ({_VARIATION_NAMES[i]}) = {v} is beyond the 0..{top[i]} "
                          f"implemented for n3lo_ad_set={N3LO_AD_SET_NAMES[int(use_fhmruvv)]!r}: eko computes it as "
                          "the central value, and so does ekoc", EkocWarning, stacklevel=4)


def _named_grid(spec, where: str = "operator_card.xgrid"):
    """eko's card shorthands ["make_grid", ...] / ["lambertgrid", n, xmin]."""
    from . import _core

    if spec[0] == "lambertgrid":
        if len(spec) not in (2, 3):
            _fail(where, spec, "must be ['lambertgrid', n] or ['lambertgrid', n, xmin]")
        n = F.integer(spec[1], f"{where}[1]", 2, LAMBERT_MAX_POINTS)
        xmin = F.number(spec[2], f"{where}[2]") if len(spec) > 2 else 1e-7
        if not 0.0 < xmin < 1.0:
            _fail(f"{where}[2]", spec[2], "xmin must be in (0, 1)")
        try:
            return _core.lambert_grid(n, xmin)
        except EkocError as exc:
            raise EkocFieldError(where, spec, exc.message) from exc
    if spec[0] == "make_grid":
        try:
            from eko.interpolation import make_grid
        except ImportError:
            _unsupported(where, spec[0], "the 'make_grid' shorthand without eko installed")
        # make_grid(n_low, n_mid, n_high=0, x_min, x_low, x_high, x_high_max): read here, so that a
        # huge count or a string fails with the field's name rather than inside numpy
        if not 3 <= len(spec) <= 8:
            _fail(where, spec, "must be ['make_grid', n_low, n_mid, (n_high, x_min, x_low, x_high, x_high_max)]")
        args = [F.integer(v, f"{where}[{i}]", 0, LAMBERT_MAX_POINTS) if i <= 3 else F.number(v, f"{where}[{i}]")
                for i, v in enumerate(spec[1:], start=1)]
        try:
            grid = make_grid(*args)
        except Exception as exc:  # noqa: BLE001 - eko's function on the card's arguments: any failure is the card's
            raise EkocFieldError(where, spec, f"eko's make_grid refused it ({type(exc).__name__}: {exc})") from exc
        return _xgrid(np.asarray(grid, dtype=float).tolist(), where)[0]
    _fail(where, spec, f"unknown grid shorthand {spec[0]!r} (eko's are 'lambertgrid' and 'make_grid')")


def supported(theory_card, operator_card) -> tuple[bool, str]:
    """(True, summary) when ekoc can compute this pair of cards, else
    (False, reason) with the field that stops it."""
    try:
        s = translate(theory_card, operator_card)
    except NotImplementedError as exc:
        return False, str(exc)
    except (KeyError, ValueError, TypeError) as exc:
        return False, f"card not understood by ekoc ({exc})"
    except ImportError as exc:  # a grid shorthand needs the library
        return False, f"libekoc cannot be loaded ({exc})"
    names = {1: "LO", 2: "NLO", 3: "NNLO", 4: "aN3LO"}
    sv = {SV_NONE: "", SV_EXPONENTIATED: f", xif={s.xif!r} exponentiated", SV_EXPANDED: f", xif={s.xif!r} expanded"}
    qed = {0: "", 1: " x QED a_em", 2: " x QED a_em^2"}[s.qed_order]
    axis = " polarized" if s.polarized else " time-like" if s.time_like else ""
    return True, (f"{names[s.order]}{qed}{axis} {s.method_name}{sv[s.sv_mode]}, nx={len(s.xgrid)}, "
                  f"{len(s.targets)} target(s)")


# ---- comparing two Setups: do two pairs of cards ask for the same operators? --------

#: (Setup field, card path) for every field that reaches the C library, in
#: the order same_computation() compares them. n_threads is left out: it
#: changes how the operators are computed, not their values. Card fields
#: that do not reach a Setup (n_integration_cores, eko_version, the scale of
#: a pole mass, xif without scvar_method) are descriptive here: ekoc refuses
#: every value of them that would act. use_fhmruvv and n3lo_ad_variation act
#: at N3LO only, so they are compared only there (N3LO_ONLY).
COMPARED = [
    ("order", "theory_card.order[0]"), ("qed_order", "theory_card.order[1]"),
    ("matching_order", "theory_card.matching_order[0]"), ("alphas", "theory_card.couplings.alphas"),
    ("mu2_ref", "theory_card.couplings.ref[0]"), ("nf_ref", "theory_card.couplings.ref[1]"),
    ("alphaem", "theory_card.couplings.alphaem"), ("em_running", "theory_card.couplings.em_running"),
    ("masses", "theory_card.heavy.masses"), ("masses_scheme", "theory_card.heavy.masses_scheme"),
    ("mass_scales", "theory_card.heavy.masses"), ("matching_ratios", "theory_card.heavy.matching_ratios"),
    ("xif", "theory_card.xif"), ("sv_mode", "operator_card.configs.scvar_method"),
    ("mu2_0", "operator_card.init[0]"), ("nf0", "operator_card.init[1]"), ("targets", "operator_card.mugrid"),
    ("xgrid", "operator_card.xgrid"), ("degree", "operator_card.configs.interpolation_polynomial_degree"),
    ("method_name", "operator_card.configs.evolution_method"),
    ("ev_op_iterations", "operator_card.configs.ev_op_iterations"),
    ("ev_op_max_order", "operator_card.configs.ev_op_max_order"),
    ("inversion_method", "operator_card.configs.inversion_method"),
    ("polarized", "operator_card.configs.polarized"), ("time_like", "operator_card.configs.time_like"),
    ("n3lo_ad_variation", "theory_card.n3lo_ad_variation"), ("use_fhmruvv", "theory_card.use_fhmruvv"),
]


#: the COMPARED fields that act only at N3LO (the order itself is compared first)
N3LO_ONLY = ("n3lo_ad_variation", "use_fhmruvv")


def _same(a, b) -> bool:
    """Bitwise-minded equality: floats equal or both NaN; arrays element-wise."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=True))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def same_computation(solved: Setup, other: Setup):
    """None when `other` asks for the operators `solved` computed, else
    (card path, other's value, solved's value) of the first field that differs."""
    for name, path in COMPARED:
        a, b = getattr(other, name), getattr(solved, name)
        if _same(a, b) or (name in N3LO_ONLY and solved.order < 4):
            continue
        if name == "targets" and len(a) == len(b):
            i = next(i for i, (x, y) in enumerate(zip(a, b)) if not _same(x, y))
            return f"{path}[{i}] as (mu**2, nf)", a[i], b[i]
        if name in ("targets", "xgrid") and len(a) != len(b):
            return f"{path} ({len(a)} points, the solved one {len(b)})", list(a), list(b)
        if name == "xgrid":
            i = int(np.flatnonzero(np.asarray(a) != np.asarray(b))[0])
            return f"{path}[{i}] (of the sorted grid)", float(a[i]), float(b[i])
        return path, a, b
    return None


# ---- the C library's messages name its own fields: which card field is that? -------

#: (regular expression on the C message, card field); {0} is the first group
_C_FIELDS = [
    (r"\btheory\.alphas\b", "theory_card.couplings.alphas"),
    (r"\btheory\.alphaem\b", "theory_card.couplings.alphaem"),
    (r"\btheory\.em_running\b", "theory_card.couplings.em_running"),
    (r"\btheory\.mu2_ref\b", "theory_card.couplings.ref[0]"),
    (r"\btheory\.nf_ref\b", "theory_card.couplings.ref[1]"),
    (r"\btheory\.mass_scales\[(\d)\]", "theory_card.heavy.masses[{0}][1]"),
    (r"\btheory\.masses\[(\d)\]", "theory_card.heavy.masses[{0}][0]"),
    (r"\bmasses2\[(\d)\]", "theory_card.heavy.masses[{0}][0]"),
    (r"\btheory\.masses\b", "theory_card.heavy.masses"),
    (r"\btheory\.matching_ratios\[(\d)\]", "theory_card.heavy.matching_ratios[{0}]"),
    (r"\bmatching scales?\b", "theory_card.heavy.matching_ratios"),
    (r"\btheory\.xif\b|\bthreshold_shift\b", "theory_card.xif"),
    (r"\btheory\.order\b", "theory_card.order[0]"),
    (r"\btheory\.qed_order\b", "theory_card.order[1]"),
    (r"\btheory\.matching_order\b", "theory_card.matching_order[0]"),
    (r"\btheory\.polarized\b", "operator_card.configs.polarized"),
    (r"\btheory\.time_like\b", "operator_card.configs.time_like"),
    (r"\btheory\.physics\b", "physics"),  # solve's argument, not a card field
    (r"\ba0 = 0, want\b", "theory_card.couplings.alphas"),
    (r"\brequest\.mu2_0\b", "operator_card.init[0]"),
    (r"\brequest\.nf0\b", "operator_card.init[1]"),
    (r"\brequest\.mu2\[(\d+)\]", "operator_card.mugrid[{0}][0]"),
    (r"\brequest\.nf\[(\d+)\]", "operator_card.mugrid[{0}][1]"),
    (r"\brequest\.(?:xgrid|nx)\b", "operator_card.xgrid"),
    (r"\brequest\.degree\b", "operator_card.configs.interpolation_polynomial_degree"),
    (r"\brequest\.ev_op_iterations\b", "operator_card.configs.ev_op_iterations"),
    (r"\brequest\.ev_op_max_order\b", "operator_card.configs.ev_op_max_order"),
    (r"\brequest\.method\b", "operator_card.configs.evolution_method"),
    (r"\brequest\.sv_mode\b", "operator_card.configs.scvar_method"),
    (r"\brequest\.inversion_method\b", "operator_card.configs.inversion_method"),
    (r"\brequest\.n_targets\b", "operator_card.mugrid"),
    (r"\brequest\.n_threads\b", "n_threads (or operator_card.configs.n_integration_cores)"),
    (r"\brequest\.(epsabs|epsrel|limit|mellin_cut|batch_panels|batch_points|memory_budget)\b", "{0}"),
    (r"thresholds inconsistent with the requested flavour numbers",
     "operator_card.mugrid[*][1] (nf) against theory_card.heavy (thresholds)"),
]


def card_field_of(message: str, target_index=None):
    """The card field (or solve argument) a C error message is about, or None.
    `target_index` maps an index of the C request's targets to the card's
    mugrid index (the request holds each distinct target once)."""
    import re

    for pattern, field in _C_FIELDS:
        m = re.search(pattern, message)
        if m is None:
            continue
        groups = list(m.groups())
        if groups and "mugrid" in field and target_index is not None:
            i = int(groups[0])
            groups[0] = str(target_index[i]) if i < len(target_index) else groups[0]
        return field.format(*groups)
    return None
