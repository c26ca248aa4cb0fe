"""NNPDF theory cards as eko cards, the way pineko builds them: a theory
database given as theory ids (``ekoc.nnpdf_cards``, then ``ekoc.solve_many``).

What follows pineko 0.6 (`pineko theory opcards`, `pineko theory ekos`), read
from its sources for the facts:

- the theory card is nnpdf-data's (``nnpdf_data/theory_cards/<id>.yaml``,
  its defaults filled in by ``nnpdf_data.theorydbutils.fetch_theory``);
  pineko sets the deprecated keys Qedref = Qref and MaxNfAs = MaxNfPdf and
  converts it with ``eko.io.runcards.Legacy``;
- the operator card: pineko's 50-point x grid (``pineko.opcard_template``)
  unless another is given, interpolation degree 4 in ln x,
  ev_op_max_order (10, 0), init (Q0, nf0); ModEv TRN -> "truncated" with 1
  iteration and "expanded" inversion, EXA -> "iterate-exact" with IterEv
  iterations and "exact" inversion; a theory with XIF != 1 gets eko's
  scheme ModSV (``pineko.evolve.sv_scheme``), or without one the targets
  moved to XIF^2 Q^2;
- each target's nf from pineko's atlas (thresholds at k_q m_q, those of
  flavours above MaxNfPdf at infinity).

Needs nnpdf-data, pineko and eko (optional dependencies: ImportError names
the missing one).
"""

from __future__ import annotations

import math
import pathlib


def _need(module: str, package: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"ekoc.nnpdf_cards needs {package} (pip install {package})") from exc


def nnpdf_theory_ids() -> list[int]:
    """The ids of every theory card nnpdf-data holds, ascending."""
    nnpdf_data = _need("nnpdf_data", "nnpdf-data")
    folder = pathlib.Path(nnpdf_data.__file__).parent / "theory_cards"
    return sorted(int(p.stem) for p in folder.glob("*.yaml") if p.stem.isdigit())


def nnpdf_theory(theory_id: int) -> dict:
    """The legacy NNPDF theory card `theory_id` as pineko hands it to eko
    (nnpdf-data's defaults filled in, the two deprecated keys set)."""
    nnpdf_data = _need("nnpdf_data", "nnpdf-data")
    from nnpdf_data.theorydbutils import fetch_theory

    if isinstance(theory_id, bool) or not isinstance(theory_id, int):
        raise TypeError(f"theory_id must be an int, not {type(theory_id).__name__}")
    folder = pathlib.Path(nnpdf_data.__file__).parent / "theory_cards"
    card = dict(fetch_theory(folder, theory_id))
    card["Qedref"] = card["Qref"]
    card["MaxNfAs"] = card["MaxNfPdf"]
    return card


def pineko_xgrid() -> list[float]:
    """pineko's default 50-point interpolation grid (2e-7 ... 1)."""
    _need("pineko", "pineko")
    from pineko import opcard_template

    return [float(x) for x in opcard_template.xgrid]


def target_nf(theory: dict, q2: float) -> int:
    """The nf pineko gives a target: eko's default nf at q2 on pineko's atlas."""
    _need("eko", "eko")
    _need("pineko", "pineko")
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
    (pineko.evolve.sv_scheme), or without one the targets moved to xif^2 q2;
    without, such a theory is refused (ValueError)."""
    eko = _need("eko", "eko")

    scvar = None
    if scale_variation:
        _need("pineko", "pineko")
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
    _need("eko", "eko")
    from eko.io import runcards

    return runcards.Legacy(theory, operator).new_theory, runcards.OperatorCard.from_dict(operator)


def nnpdf_cards(theory_id: int, q2, xgrid=None, degree: int = 4):
    """eko's (TheoryCard, OperatorCard) for NNPDF theory `theory_id` at the
    targets q2 (GeV^2) on `xgrid` (default pineko's 50 points), as pineko
    builds them (this module's docstring), for ekoc.solve, solve_to_eko or
    solve_many:

        jobs = [(*ekoc.nnpdf_cards(tid, q2s), f"{tid}.tar") for tid in ids]
        ekoc.solve_many(jobs)
    """
    theory = nnpdf_theory(theory_id)
    operator = operator_dict(theory, pineko_xgrid() if xgrid is None else xgrid, [float(q) for q in q2], degree,
                             scale_variation=True)
    return eko_cards(theory, operator)
