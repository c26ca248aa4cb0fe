"""ekoc.nnpdf_cards: NNPDF theory ids turned into eko cards as pineko builds
them (ekoc._nnpdf), ready for solve / solve_many."""

import math

import pytest

import ekoc

for module, package in (("nnpdf_data", "nnpdf-data"), ("pineko", "pineko"), ("eko", "eko")):
    pytest.importorskip(module, reason=f"{package} is not installed (pip install {package})")


def test_truncated_and_exact_theories():
    q2 = [10.0, 1e4]
    trn, trn_op = ekoc.nnpdf_cards(40000000, q2)  # NNPDF4.0 NNLO, ModEv TRN
    exa, exa_op = ekoc.nnpdf_cards(41000000, q2, xgrid=[1e-5, 1e-3, 0.1, 0.5, 1.0])  # ModEv EXA
    assert trn_op.configs.evolution_method.value == "truncated" and trn_op.configs.ev_op_iterations == 1
    assert exa_op.configs.evolution_method.value == "iterate-exact"
    assert len(trn_op.xgrid.raw) == 50 and len(exa_op.xgrid.raw) == 5  # pineko's grid by default
    assert [round(mu * mu, 9) for mu, _ in trn_op.mugrid] == q2
    assert [nf for _, nf in trn_op.mugrid] == [4, 5]  # pineko's atlas: charm below 10 GeV^2, bottom above
    assert trn.order == (3, 0) and math.isclose(trn.couplings.alphas, 0.118)
    sol = ekoc.solve(exa, exa_op)
    assert len(sol) == 2 and sol.failures == 0


def test_bad_theory_id():
    with pytest.raises(TypeError, match="theory_id"):
        ekoc.nnpdf_cards("40000000", [10.0])
    with pytest.raises(Exception, match="99999999"):
        ekoc.nnpdf_cards(99999999, [10.0])
