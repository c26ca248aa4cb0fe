"""Array-API N-space functions: anomalous dimensions (ekore, Rust) and the
evolution / matching kernels (ekoc), at arrays of complex N.

Inputs: Python numbers, sequences, numpy arrays, or any array implementing
DLPack (``__dlpack__``, ``__dlpack_device__``). Host (CPU) arrays are read
through DLPack without a copy and run on the CPU batch entry points
(ekore_gamma_*_batch, ekoc_nspace_evaluate_batch); the result comes back in
the input's namespace (``x.__array_namespace__()``) when it has one, else as
numpy. Device (CUDA) arrays need a device entry point in libekoc; this build
has none (its CUDA backend takes anomalous dimensions from the host), so they
raise EkocNoDevice rather than being copied silently.
"""

from __future__ import annotations

import contextlib
import re as _re

import numpy as np

from . import _cards, _errors
from ._core import check, check_ekore, dptr
from ._lib import ffi, has, load

MODES = {"ns+": 10101, "plus": 10101, 10101: 10101, "ns-": 10201, "minus": 10201, 10201: 10201,
         "nsv": 10200, "valence": 10200, 10200: 10200}
_KDL_CPU, _KDL_CUDA_HOST = 1, 3
#: a device N-space entry point a CUDA build may export (none does yet)
DEVICE_ENTRY = "ekoc_gpu_nspace_evaluate_batch"


def _host(n):
    """(complex128 numpy array, namespace or None) of the input."""
    xp = None
    if hasattr(n, "__dlpack_device__") and not isinstance(n, np.ndarray):
        dev_type, dev_id = n.__dlpack_device__()
        if int(dev_type) not in (_KDL_CPU, _KDL_CUDA_HOST):
            if has(DEVICE_ENTRY):  # pragma: no cover - no such build yet
                raise NotImplementedError("device N-space path not wired")
            _errors.fail(
                _errors.ERR_NO_DEVICE,
                f"N lives on a device (DLPack device type {int(dev_type)}, id {dev_id}) but libekoc exports no "
                f"device N-space entry point ({DEVICE_ENTRY}); its CUDA backend evaluates anomalous dimensions on "
                "the host. Pass a host array (e.g. cupy.asnumpy(N)).", "ekoc N-space")
        if hasattr(n, "__array_namespace__"):
            xp = n.__array_namespace__()
        n = np.from_dlpack(n)
    arr = np.asarray(n)
    if not (np.issubdtype(arr.dtype, np.number)):
        raise TypeError(f"N must be numeric, got dtype {arr.dtype}")
    return np.asarray(arr, dtype=np.complex128, order="C"), xp


def _back(result: np.ndarray, xp):
    if xp is None:
        return result
    return xp.asarray(result)


def _split(n: np.ndarray):
    flat = n.reshape(-1)
    return np.ascontiguousarray(flat.real), np.ascontiguousarray(flat.imag)


#: the crate's refusal of one N: "[point P: ...] ekore_<fn>: N[i] = (re, im) <why>" (i, or P when the C
#: library evaluated one point at a time)
_N_REFUSED = _re.compile(r"(?:point (\d+): .*)?\bN(?:\[(\d+)\])? = \(([^)]*)\) "
                         r"(has \|N\| > (\S+)|is on the pole N = (-?\d+))")


@contextlib.contextmanager
def _naming_n(n: np.ndarray):
    """An N outside the crate's domain (|N| above its limit, a pole) raises
    EkocFieldError naming the argument N, the entry of the caller's array and
    its value, instead of the crate's entry point and a flattened index."""
    try:
        yield
    except _errors.EkocError as exc:
        m = _N_REFUSED.search(exc.message)
        if m is None:
            raise
        point = int(m.group(1) if m.group(1) is not None else m.group(2) or 0)
        if point >= n.size:
            raise
        index = np.unravel_index(point, n.shape) if n.ndim else ()
        field = "N" if not index else "N[" + ", ".join(str(int(i)) for i in index) + "]"
        value = complex(n.reshape(-1)[point])
        why = (f"|N| above {m.group(5)}: the anomalous dimensions are evaluated for |N| <= {m.group(5)}"
               if m.group(5) else f"is on the pole N = {m.group(6)} of the anomalous dimensions")
        raise _errors.EkocFieldError(field, value, why) from None


def _uint(value, name, lo, hi):
    if isinstance(value, bool) or int(value) != value or not lo <= int(value) <= hi:
        _errors.fail(_errors.ERR_INVALID_ARGUMENT, f"{name}={value!r} outside {lo}..{hi}", "ekoc N-space")
    return int(value)


def _physics(physics) -> int:
    """theory.physics of a `physics` argument: "eko" or "exact" (ekoc.solve's)."""
    from . import _fields as F

    return _cards.PHYSICS[F.choice(physics, "physics", list(_cards.PHYSICS))]


#: eko's default N3LO choice (central values, FHMRUVV), as the crate's plain entry points take it
_DEFAULT_N3LO = {"variation": [0] * 7, "use_fhmruvv": 1}


def _gamma_physics(kind: str, order: int, physics: int, re, im, nf: int, out_re, out_im):
    """The crate's _physics batch entry point of `kind` ("ns_all" or "singlet")."""
    lib = load()
    n3lo = ffi.new("ekore_n3lo *", _DEFAULT_N3LO)
    fn = lib.ekore_gamma_ns_all_batch_physics if kind == "ns_all" else lib.ekore_gamma_singlet_batch_physics
    return fn(order, n3lo, physics, dptr(re), dptr(im), re.size, nf, dptr(out_re), dptr(out_im))


def gamma_ns(order: int, mode, N, nf: int, *, physics: str = "eko"):
    """Non-singlet anomalous dimensions gamma^(0..order-1)(N) of one sector
    (eko's gamma_ns; a_s = alpha_s/(4 pi) normalisation).

    order: 1..4 (LO..N3LO; N3LO with eko's default choice, central FHMRUVV:
    ekoc.ekore's gamma_ns takes eko's n3lo_ad_variation and use_fhmruvv);
    mode: 10101 / "ns+", 10201 / "ns-", 10200 / "nsV"; N: complex numbers
    (any shape); nf: 3..6; physics: "eko" (eko's g3(N) fit and P^(2)+_ns
    constant) or "exact" (as ekoc.solve's, docs/physics.md §12.9).
    Returns shape N.shape + (order,), index k the coefficient of a_s^(k+1).
    """
    lib = load()
    m = MODES.get(mode.lower() if isinstance(mode, str) else mode)
    if m is None:
        _errors.fail(_errors.ERR_INVALID_MODE, f"mode={mode!r} is not 10101 (ns+), 10201 (ns-) or 10200 (nsV)",
                     "gamma_ns")
    order = _uint(order, "order", 0, 2**31)
    nf = _uint(nf, "nf", 0, 2**31)
    phys = _physics(physics)
    n, xp = _host(N)
    re, im = _split(n)
    size = max(order, 0)
    if phys != _cards.PHYSICS["eko"]:  # all three sectors from the _physics entry point, this one kept
        out_re = np.empty(re.size * 3 * size)
        out_im = np.empty(re.size * 3 * size)
        with _naming_n(n):
            check_ekore(_gamma_physics("ns_all", order, phys, re, im, nf, out_re, out_im), "gamma_ns")
        sector = {10101: 0, 10201: 1, 10200: 2}[m]
        all3 = (out_re + 1j * out_im).reshape(n.shape + (3, order))
        return _back(np.ascontiguousarray(all3[..., sector, :]), xp)
    out_re = np.empty(re.size * size)
    out_im = np.empty(re.size * size)
    with _naming_n(n):
        check_ekore(lib.ekore_gamma_ns_batch(order, m, dptr(re), dptr(im), re.size, nf, dptr(out_re),
                                             dptr(out_im)), "gamma_ns")
    res = (out_re + 1j * out_im).reshape(n.shape + (order,))
    return _back(res, xp)


def gamma_singlet(order: int, N, nf: int, *, physics: str = "eko"):
    """Singlet anomalous-dimension matrices gamma_S^(0..order-1)(N) on
    (Sigma, g) (eko's gamma_singlet; physics as gamma_ns's). Returns shape
    N.shape + (order, 2, 2)."""
    lib = load()
    order = _uint(order, "order", 0, 2**31)
    nf = _uint(nf, "nf", 0, 2**31)
    phys = _physics(physics)
    n, xp = _host(N)
    re, im = _split(n)
    out_re = np.empty(re.size * 4 * order)
    out_im = np.empty(re.size * 4 * order)
    with _naming_n(n):
        if phys != _cards.PHYSICS["eko"]:
            status = _gamma_physics("singlet", order, phys, re, im, nf, out_re, out_im)
        else:
            status = lib.ekore_gamma_singlet_batch(order, dptr(re), dptr(im), re.size, nf, dptr(out_re),
                                                   dptr(out_im))
        check_ekore(status, "gamma_singlet")
    res = (out_re + 1j * out_im).reshape(n.shape + (order, 2, 2))
    return _back(res, xp)


def _evaluate(cfg, N, shape_tail, where):
    lib = load()
    n, xp = _host(N)
    re, im = _split(n)
    size = int(np.prod(shape_tail))
    out_re = np.empty(re.size * size)
    out_im = np.empty(re.size * size)
    if has("ekoc_nspace_evaluate_batch"):
        with _naming_n(n):
            check(lib.ekoc_nspace_evaluate_batch(cfg, dptr(re), dptr(im), re.size, dptr(out_re), dptr(out_im),
                                                 out_re.size), where)
    else:  # a library older than include/ekoc/bindings.h: one call per point
        one_re, one_im = ffi.new("double[16]"), ffi.new("double[16]")
        for p in range(re.size):
            with _naming_n(n.reshape(-1)[p:p + 1]):
                check(lib.ekoc_nspace_evaluate(cfg, float(re[p]), float(im[p]), one_re, one_im, 16), where)
            out_re[p * size:(p + 1) * size] = ffi.unpack(one_re, size)
            out_im[p * size:(p + 1) * size] = ffi.unpack(one_im, size)
    res = (out_re + 1j * out_im).reshape(n.shape + shape_tail)
    return _back(res, xp)


MATCHING_METHODS = {"forward": 0, "backward-exact": 1, "backward-expanded": 2}
FAMILIES = {"ns": 0, "non-singlet": 0, "singlet": 1}


def config(kind: str, family: str, *, order: int, nf: int, a0: float = 0.0, a1: float = 0.0,
           method: str = "iterate-exact", ev_op_iterations: int = 10, ev_op_max_order: int = 10,
           sv_mode: str | None = None, xif: float = 1.0, is_threshold: bool = False, L: float = 0.0,
           matching_method: str = "forward", n3lo_ad_variation=(0, 0, 0, 0, 0, 0, 0), use_fhmruvv: bool = True,
           polarized: bool = False, time_like: bool = False, physics: str = "eko", where: str = "ekoc N-space"):
    """A cffi ekoc_nspace_config (kind "evolution" or "matching"), with beta
    at nf as ekoc_compute sets it; names are checked here, numbers by C.
    n3lo_ad_variation and use_fhmruvv (eko's theory-card fields, defaults
    eko's) select the N3LO anomalous dimensions at order 4; physics "eko" or
    "exact" as ekoc.solve's."""
    lib = load()
    cfg = ffi.new("ekoc_nspace_config *")
    if kind not in ("evolution", "matching"):
        _errors.fail(_errors.ERR_INVALID_MODE, f"kind={kind!r} is neither 'evolution' nor 'matching'", where)
    if family not in FAMILIES:
        _errors.fail(_errors.ERR_INVALID_MODE, f"family={family!r} is neither 'ns' nor 'singlet'", where)
    if sv_mode not in _cards.SV_MODES:
        _errors.fail(_errors.ERR_INVALID_MODE, f"sv_mode={sv_mode!r} is not None, 'exponentiated' or 'expanded'",
                     where)
    if kind == "evolution" and method not in _cards.METHODS:
        _errors.fail(_errors.ERR_INVALID_METHOD, f"method={method!r} is not one of {list(_cards.METHODS)}", where)
    if kind == "matching" and matching_method not in MATCHING_METHODS:
        _errors.fail(_errors.ERR_INVALID_METHOD,
                     f"method={matching_method!r} is not one of {list(MATCHING_METHODS)}", where)
    cfg.kind = 0 if kind == "evolution" else 1
    cfg.family = FAMILIES[family]
    cfg.order = int(order)
    cfg.nf = int(nf)
    cfg.method = _cards.METHODS[method] if kind == "evolution" else 0
    cfg.ev_op_iterations = int(ev_op_iterations)
    cfg.ev_op_max_order = int(ev_op_max_order)
    cfg.sv_mode = _cards.SV_MODES[sv_mode] if xif != 1.0 else 0
    cfg.sv_log = float(np.log(xif * xif)) if xif > 0 else float("nan")
    cfg.is_threshold = 1 if is_threshold else 0
    cfg.matching_method = MATCHING_METHODS[matching_method] if kind == "matching" else 0
    cfg.a0 = float(a0)
    cfg.a1 = float(a1)
    cfg.ome_log = float(L)
    variation = list(n3lo_ad_variation)
    if len(variation) != 7:
        _errors.fail(_errors.ERR_INVALID_ARGUMENT, f"n3lo_ad_variation={n3lo_ad_variation!r} must have 7 entries",
                     where)
    for i, v in enumerate(variation):
        cfg.n3lo_ad_variation[i] = int(v)
    cfg.use_fhmruvv = 1 if use_fhmruvv else 0
    cfg.polarized = 1 if polarized else 0
    cfg.time_like = 1 if time_like else 0
    cfg.physics = _physics(physics)
    if 3 <= int(nf) <= 6:  # (other nf: the C library's error)
        check(lib.ekoc_beta(int(nf), cfg.beta), "ekoc_beta")
    return cfg


def evolution_kernel(N, *, family: str = "ns", order: int, nf: int, a0: float, a1: float,
                     method: str = "iterate-exact", ev_op_iterations: int = 10, ev_op_max_order: int = 10,
                     sv_mode: str | None = None, xif: float = 1.0, is_threshold: bool = False,
                     n3lo_ad_variation=(0, 0, 0, 0, 0, 0, 0), use_fhmruvv: bool = True, polarized: bool = False,
                     time_like: bool = False, physics: str = "eko"):
    """The N-space evolution kernel E(N) from a_s = a0 to a1 at fixed nf,
    as eko's non_singlet / singlet dispatchers, with eko's scale-variation
    treatment (sv_mode "exponentiated" / "expanded" at ratio xif); order 4
    takes eko's N3LO choice (n3lo_ad_variation, use_fhmruvv); physics "eko"
    or "exact" as ekoc.solve's.

    family "ns": returns N.shape + (3,) for (ns+, ns-, nsV);
    family "singlet": N.shape + (2, 2) on (Sigma, g).
    """
    cfg = config("evolution", family, order=order, nf=nf, a0=a0, a1=a1, method=method,
                 ev_op_iterations=ev_op_iterations, ev_op_max_order=ev_op_max_order, sv_mode=sv_mode, xif=xif,
                 is_threshold=is_threshold, n3lo_ad_variation=n3lo_ad_variation, use_fhmruvv=use_fhmruvv,
                 polarized=polarized, time_like=time_like, physics=physics, where="evolution_kernel")
    return _evaluate(cfg, N, (3,) if cfg.family == 0 else (2, 2), "evolution_kernel")


def matching_kernel(N, *, family: str = "singlet", order: int, nf: int, a_s: float, L: float = 0.0,
                    method: str = "forward", sv_mode: str | None = None, xif: float = 1.0, polarized: bool = False,
                    time_like: bool = False, physics: str = "eko"):
    """The N-space heavy-quark matching matrix at a threshold (eko's OMEs
    combined as its matching conditions): `order` OME terms 0..3, `nf` light
    flavours below the threshold, a_s = a_s^(nf+1) there, L = ln(mu_h^2/m_h^2),
    method "forward", "backward-exact" or "backward-expanded"; physics "eko"
    or "exact" as ekoc.solve's.

    family "ns": N.shape + (2,) for the (q, q) light and (H, H) heavy
    valence entries; family "singlet": N.shape + (3, 3) on (g, q, H).
    """
    # beta at nf (the lower flavour number), as ekoc_compute's matching parts
    cfg = config("matching", family, order=order, nf=nf, a1=a_s, L=L, matching_method=method, sv_mode=sv_mode,
                 xif=xif, polarized=polarized, time_like=time_like, physics=physics, where="matching_kernel")
    return _evaluate(cfg, N, (2,) if cfg.family == 0 else (3, 3), "matching_kernel")


def evolution_kernel_qed(N, *, family: str = "ns", order, nf: int, as_ends, as_half, aem_half, mu2_from: float,
                         mu2_to: float, em_running: bool = True, sv_mode: str | None = None, xif: float = 1.0,
                         is_threshold: bool = False, n3lo_ad_variation=(0, 0, 0, 0, 0, 0, 0),
                         use_fhmruvv: bool = True, physics: str = "eko"):
    """The N-space QCD x QED evolution kernel of one segment at fixed nf, as
    eko's non_singlet_qed / valence_qed / singlet_qed with iterate-exact
    (docs/physics.md §15.3): order = (qcd, qed), qed 1 or 2; the segment is cut
    into len(aem_half) steps geometric in mu2 from mu2_from to mu2_to, with
    a_s at the step ends (as_ends, one more) and a_s, a_em at the steps'
    midpoints (as_half, aem_half), as eko's Operator.compute_aem_list gives
    them. The exponentiated scale variation needs em_running. physics "eko"
    or "exact" as ekoc.solve's.

    family "ns": N.shape + (8,): ns+u, ns+d, ns-u, ns-d, then the valence 2x2
    on (V, V_Delta) row-major; family "singlet": N.shape + (4, 4) on
    (g, photon, Sigma, Sigma_Delta).
    """
    qcd, qed = (int(order[0]), int(order[1]))
    ends, half, aem = (np.asarray(v, dtype=float).ravel() for v in (as_ends, as_half, aem_half))
    steps = aem.size
    if half.size != steps or ends.size != steps + 1 or steps < 1:
        _errors.fail(_errors.ERR_INVALID_ARGUMENT,
                     f"as_ends ({ends.size}), as_half ({half.size}), aem_half ({aem.size}): need n + 1, n, n "
                     "numbers, n >= 1", "evolution_kernel_qed")
    if family not in FAMILIES:
        _errors.fail(_errors.ERR_INVALID_MODE, f"family={family!r} is neither 'ns' nor 'singlet'",
                     "evolution_kernel_qed")
    cfg = config("evolution", family, order=qcd, nf=nf, a0=float(ends[0]), a1=float(ends[-1]),
                 ev_op_iterations=steps, sv_mode=sv_mode, xif=xif, is_threshold=is_threshold,
                 n3lo_ad_variation=n3lo_ad_variation, use_fhmruvv=use_fhmruvv, physics=physics,
                 where="evolution_kernel_qed")
    couplings = ffi.new("double[]", np.concatenate([ends, half, aem]).tolist())
    cfg.family = 2 + FAMILIES[family]  # EKOC_FAMILY_QED_NS / _QED_SINGLET
    cfg.qed_order = qed
    cfg.em_running = 1 if em_running else 0
    cfg.lepton_number = 3 if mu2_to > 1.777**2 else 2  # eko's lepton_number(mu2_to)
    cfg.qed_log_step = float(np.log(mu2_from / mu2_to) / steps)
    cfg.qed_couplings = couplings
    return _evaluate(cfg, N, (8,) if family in ("ns", "non-singlet") else (4, 4), "evolution_kernel_qed")
