"""eko's `interpolation_is_log: False` (issue 17 item 3): basis polynomials
in x instead of ln x, on a mixed grid (log-spaced below 0.1, linear above,
as NNPDF's fit grid).

eko 0.15.7's solve never reaches its linear branch (the card's grid is
reloaded as logarithmic), so there is no eko operator to compare with; the
check is convergence: the evolved PDFs of the linear and the logarithmic
basis are two interpolations of the same evolution, so they must approach
each other as the grid is refined, at the rate of degree-4 interpolation."""

import numpy as np
import pytest

import ekoc
from cards import card


def _evolved(grid, is_log):
    th, op = card("nlo_vfns")
    op["xgrid"] = grid
    op["mugrid"] = [[10.0, 5]]
    op["configs"]["interpolation_is_log"] = is_log
    sol = ekoc.solve(th, op, backend="batch")
    # (entries whose remainder beyond eko's Mellin cut exceeds their tolerance are flagged: docs/physics.md §3)
    t = sol[(100.0, 5)]
    x = np.asarray(grid)
    pdf = np.zeros((14, len(x)))
    pdf[7] = x**-0.5 * (1 - x) ** 3  # g
    pdf[9] = x**0.3 * (1 - x) ** 3  # u
    return x, np.einsum("aibj,bj->ai", t.operator, pdf)


def test_linear_and_log_bases_converge_together():
    diffs = []
    for n_lin in (20, 40, 80):
        grid = sorted(set(np.geomspace(1e-3, 0.1, 12)[:-1].tolist() + np.linspace(0.1, 1.0, n_lin).tolist()))
        x, log_ = _evolved(grid, True)
        _, lin = _evolved(grid, False)
        mid = (x > 0.15) & (x < 0.85)
        diffs.append(max(np.max(abs(log_[c][mid] - lin[c][mid]) / abs(log_[c][mid])) for c in (7, 9)))
    # measured: 4.3e-4, 2.9e-5, 1.5e-6 (h^4: x16 per halving)
    assert diffs[0] > 8 * diffs[1] > 64 * diffs[2], diffs
    assert diffs[2] < 1e-5, diffs


def test_linear_basis_is_not_refused():
    th, op = card("lo_ffns")
    op["configs"]["interpolation_is_log"] = False
    ok, why = ekoc.supported(th, op)
    assert ok, why
