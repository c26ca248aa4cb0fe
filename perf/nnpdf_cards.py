"""NNPDF theory cards turned into eko 0.15 runcards the way pineko does it,
plus the x grids and test PDFs of perf/nnpdf_workloads.py.

What follows pineko 0.6.0 (`pineko theory opcards` then `pineko theory ekos`),
read from its sources for the facts, not copied:

- the theory card is read from the PyPI package nnpdf-data
  (nnpdf_data/theory_cards/<id>.yaml, with nnpdf-data's defaults filled in by
  nnpdf_data.theorydbutils.fetch_theory); pineko then sets the deprecated keys
  Qedref = Qref and MaxNfAs = MaxNfPdf and converts it with
  eko.io.runcards.Legacy(...).new_theory;
- the operator card: pineko's 50-point x grid (pineko.opcard_template.xgrid),
  interpolation degree 4 in ln x, ev_op_max_order (10, 0), no scale
  variation, init (Q0, nf0); ModEv TRN -> "truncated" with 1 iteration and
  "expanded" inversion, EXA -> "iterate-exact" with IterEv iterations and
  "exact" inversion;
- the nf of each target from pineko's atlas: thresholds at k_q m_q, those
  of flavours above MaxNfPdf at infinity (so theory 40000000, MaxNfPdf = 5,
  never switches to nf = 6, even at Q^2 = 1e5 > m_t^2).

Everything here needs nnpdf-data, pineko and eko; `missing_dependencies()`
names the ones that are absent so that callers can skip with a message.
"""

from __future__ import annotations

import importlib.util
import math
import pathlib

import numpy as np

from lha_toy import toy_xf  # perf/, on the path of the scripts that import this module

#: the optional packages this module needs (PyPI names -> import names)
DEPENDENCIES = {"nnpdf-data": "nnpdf_data", "pineko": "pineko", "eko": "eko"}

#: eko's flavour basis, the order of ekoc.PIDS
PIDS = (22, -6, -5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5, 6)


def missing_dependencies() -> list[str]:
    """PyPI names of the packages of DEPENDENCIES that cannot be imported."""
    return [name for name, module in DEPENDENCIES.items() if importlib.util.find_spec(module) is None]


def nnpdf_theory(theory_id: int) -> dict:
    """The legacy NNPDF theory card `theory_id` as pineko hands it to eko
    (nnpdf-data's defaults filled in, the two deprecated keys set)."""
    import nnpdf_data
    from nnpdf_data.theorydbutils import fetch_theory

    folder = pathlib.Path(nnpdf_data.__file__).parent / "theory_cards"
    card = dict(fetch_theory(folder, theory_id))
    card["Qedref"] = card["Qref"]
    card["MaxNfAs"] = card["MaxNfPdf"]
    return card


def pineko_xgrid() -> list[float]:
    """pineko's default 50-point interpolation grid (2e-7 ... 1)."""
    from pineko import opcard_template

    return [float(x) for x in opcard_template.xgrid]


def fit_xgrid(n: int = 196, xmin: float = 1e-9, x_split: float = 0.1) -> list[float]:
    """An NNPDF-fit-like grid of n points: the first two thirds log-spaced
    from xmin up to (not including) x_split, the last third linear from
    x_split to 1."""
    n_log = round(2 * n / 3)
    low = np.geomspace(xmin, x_split, n_log, endpoint=False)
    high = np.linspace(x_split, 1.0, n - n_log)
    return [float(x) for x in np.concatenate([low, high])]


def log_targets(q2_min: float, q2_max: float, n: int) -> list[float]:
    """n scales Q^2 log-spaced from q2_min to q2_max, both included."""
    return [float(q2) for q2 in np.geomspace(q2_min, q2_max, n)]


def target_nf(theory: dict, q2: float) -> int:
    """The nf pineko gives a target: eko's default nf at q2 on pineko's atlas."""
    from eko.matchings import nf_default
    from pineko import evolve

    return int(nf_default(q2, evolve.construct_atlas(theory)))


def evolution_configs(theory: dict) -> dict:
    """pineko's evolution method, iterations and inversion for ModEv."""
    mode = theory["ModEv"]
    if mode == "TRN":
        return {"evolution_method": "truncated", "ev_op_iterations": 1, "inversion_method": "expanded"}
    if mode == "EXA":
        if theory.get("IterEv") is None:
            raise ValueError("ModEv EXA needs IterEv in the theory card")
        return {"evolution_method": "iterate-exact", "ev_op_iterations": int(theory["IterEv"]),
                "inversion_method": "exact"}
    raise ValueError(f"pineko only writes operator cards for ModEv TRN and EXA, not {mode!r}")


def operator_dict(theory: dict, xgrid, q2s, degree: int = 4, n_cores: int = 1, scale_variation: bool = False) -> dict:
    """The operator card pineko writes for these targets and this grid (a
    plain dict in eko 0.15's layout; scales in GeV). With `scale_variation`,
    a theory with XIF != 1 gets pineko's treatment: eko's scheme ModSV
    (pineko.evolve.sv_scheme), or without one the targets moved to xif^2 q2."""
    import eko

    scvar = None
    if scale_variation:
        from pineko import evolve

        scvar = evolve.sv_scheme(theory)
        if scvar is None:
            q2s = [theory["XIF"] ** 2 * q2 for q2 in q2s]
    elif not math.isclose(theory.get("XIF", 1.0), 1.0) or theory.get("ModSV") is not None:
        raise ValueError("the workloads use theories without factorisation-scale variation")
    configs = {"scvar_method": scvar, "ev_op_max_order": [10, 0], "interpolation_polynomial_degree": degree,
               "interpolation_is_log": True, "n_integration_cores": n_cores, "polarized": False,
               "time_like": False}
    configs.update(evolution_configs(theory))
    return {
        "configs": configs,
        "debug": {"skip_non_singlet": False, "skip_singlet": False},
        "init": [theory["Q0"], theory["nf0"]],
        "mugrid": [[math.sqrt(q2), target_nf(theory, q2)] for q2 in q2s],
        "xgrid": [float(x) for x in xgrid],
        "eko_version": eko.__version__,
    }


def eko_cards(theory: dict, operator: dict):
    """(TheoryCard, OperatorCard) objects of eko, as pineko builds them."""
    from eko.io import runcards

    return runcards.Legacy(theory, operator).new_theory, runcards.OperatorCard.from_dict(operator)


def toy_pdf(xgrid) -> np.ndarray:
    """The LHA toy PDFs (hep-ph/0204316 eqs. 31-32, docs/physics.md §9.1) as
    values f(x) (not x f) on the grid, shape (14, nx) in PIDS order; used here
    only as smooth test input at the theory's Q0 (charm, bottom, top zero)."""
    x = np.asarray(xgrid, dtype=float)
    xf = toy_xf(x)
    out = np.zeros((14, len(x)))
    for row, pid in enumerate(PIDS):
        if pid in xf:
            out[row] = xf[pid] / x
    return out
