"""NNPDF's theory database (PyPI nnpdf-data), every card turned into eko
cards as pineko does (perf/nnpdf_cards.py): ekoc.supported accepts every
card, a sample of the aN3LO cards (both N3LO approximations, truncated and
iterate-exact, varied anomalous dimensions, expanded scale variations) and
one QED card per QCD order are computed on a small grid with nothing
flagged.
perf/nnpdf_theories.py --compute computes all of them.

Skipped when nnpdf-data, pineko or eko are not installed.
"""

import pathlib
import sys

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "perf"))

import nnpdf_cards  # noqa: E402

missing = nnpdf_cards.missing_dependencies()
if missing:
    pytest.skip(f"needs {', '.join(missing)} (pip install {' '.join(missing)})", allow_module_level=True)

import ekoc  # noqa: E402
import nnpdf_theories  # noqa: E402

Q2 = [10.0, 1e4]


def _cards(theory_id, nx=12):
    _, (tc, oc) = nnpdf_theories.cards_of(theory_id, list(ekoc.lambert_grid(nx, 1e-5)), Q2)
    return tc, oc


# NNPDF's database has n3lo_ad_variation entries beyond eko 0.15.7's ranges (gq up
# to 21): computed as eko does, with an EkocWarning each (test_errors.py checks it)
@pytest.mark.filterwarnings("ignore::ekoc.EkocWarning")
def test_every_card_is_supported():
    refused = {}
    n_n3lo = n_qed = 0
    for tid in nnpdf_theories.theory_ids():
        tc, oc = _cards(tid)
        ok, why = ekoc.supported(tc, oc)
        if not ok:
            refused[tid] = why
        n_n3lo += tc.order[0] == 4
        n_qed += tc.order[1] > 0
    assert not refused, refused
    assert n_n3lo > 150  # nnpdf-data 4.1.5: 193 aN3LO cards
    assert n_qed >= 38  # nnpdf-data 4.1.5: 38 QED cards


def _qed_sample():
    """The first QED card of each QCD order (PTO) in the database."""
    kinds = {}
    for tid in nnpdf_theories.theory_ids():
        t = nnpdf_cards.nnpdf_theory(tid)
        if t.get("QED", 0) > 0:
            kinds.setdefault(t["PTO"], tid)
    return sorted(kinds.values())


@pytest.mark.parametrize("theory_id", _qed_sample())
def test_qed_cards_compute(theory_id):
    """The photon is generated: with QED the evolved
    photon of a photon-less toy PDF is nonzero, without QED it stays 0."""
    tc, oc = _cards(theory_id, nx=10)
    assert tc.order[1] > 0
    sol = ekoc.solve(tc, oc, backend="batch")
    # (entries whose remainder beyond eko's Mellin cut exceeds their tolerance are flagged: docs/physics.md §3)
    ph, g = ekoc.PIDS.index(22), ekoc.PIDS.index(21)
    for t in sol.values():
        assert np.abs(t.operator[ph, :, g, :]).max() > 1e-5


def _sample():
    """One aN3LO card of each kind in the database (first id found)."""
    kinds = {}
    for tid in nnpdf_theories.theory_ids():
        t = nnpdf_cards.nnpdf_theory(tid)
        if t.get("PTO") != 3 or t.get("QED", 0) > 0:
            continue
        varied = any(t.get("n3lo_ad_variation", [0] * 7))
        key = (t.get("use_fhmruvv", False), t["ModEv"], varied, t.get("ModSV"))
        kinds.setdefault(key, tid)
    return sorted(kinds.values())


@pytest.mark.parametrize("theory_id", _sample())
def test_n3lo_cards_compute(theory_id):
    """Nothing flagged, and the evolved toy PDFs move off the same card's NNLO
    result by an N3LO-sized amount at x in [1e-4, 0.5] (gluon, d, u): at least
    1e-4 somewhere (the N3LO terms act), below 30 % everywhere (the largest
    seen, 12 %, is the gluon at x = 1e-4, Q^2 = 10 GeV^2 on the cards with
    expanded scale variation at xif = 0.5, mu_F^2 = 2.5 GeV^2)."""
    tc, oc = _cards(theory_id)
    assert tc.order[0] == 4 and tc.matching_order[0] == 3
    sol = ekoc.solve(tc, oc, backend="batch")
    # (entries whose remainder beyond eko's Mellin cut exceeds their tolerance are flagged: docs/physics.md §3)
    th = ekoc._cards.theory_dict(tc)
    th.update(order=[3, 0], matching_order=[2, 0])
    nnlo = ekoc.solve(th, oc, backend="batch")
    xgrid = np.asarray(sol.xgrid)
    pdf = nnpdf_cards.toy_pdf(xgrid)
    keep = (xgrid >= 1e-4) & (xgrid <= 0.5)
    rows = [ekoc.PIDS.index(p) for p in (21, 1, 2)]
    for ep in sol.targets:
        t = sol[ep]
        assert np.isfinite(t.operator).all()  # (flags: the remainder beyond the cut, above)
        a, b = t.apply(pdf)[rows][:, keep], nnlo[ep].apply(pdf)[rows][:, keep]
        rel = np.abs(a / b - 1.0)
        assert rel.max() > 1e-4 and rel.max() < 0.3, (ep, rel.max())
