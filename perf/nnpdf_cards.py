"""NNPDF theory cards turned into eko 0.15 runcards the way pineko does it
(the conversion is the package's, ekoc._nnpdf / ekoc.nnpdf_cards, re-exported
here), plus the x grids and test PDFs of perf/nnpdf_workloads.py.

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
import pathlib
import sys

import numpy as np

from lha_toy import toy_xf  # perf/, on the path of the scripts that import this module

#: the optional packages this module needs (PyPI names -> import names)
DEPENDENCIES = {"nnpdf-data": "nnpdf_data", "pineko": "pineko", "eko": "eko"}

#: eko's flavour basis, the order of ekoc.PIDS
PIDS = (22, -6, -5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5, 6)


def missing_dependencies() -> list[str]:
    """PyPI names of the packages of DEPENDENCIES that cannot be imported."""
    return [name for name, module in DEPENDENCIES.items() if importlib.util.find_spec(module) is None]


# the cards as pineko builds them: the package's own (ekoc.nnpdf_cards; ffi/ when run from a checkout)
if importlib.util.find_spec("ekoc") is None:
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "ffi"))
from ekoc._nnpdf import (eko_cards, evolution_configs, nnpdf_theory, operator_dict, pineko_xgrid,  # noqa: E402,F401
                         target_nf)


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
