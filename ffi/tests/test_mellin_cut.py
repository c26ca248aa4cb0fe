"""No silent Mellin cut (issue 36 item 4; docs/physics.md §3, "The remainder
beyond the cut").

The adaptive and batch backends integrate eko's path up to 1 - mellin_cut and
keep that value (eko's); the remainder beyond the cut enters every entry's
stated error, so an entry whose remainder exceeds its tolerance is flagged.
The card: LO FFNS evolved backward, 100 GeV -> sqrt(2) GeV, whose gluon entry
(g, x_1; g, x_3) is 0.43 % off the cut-free value, with a stated error of
3e-10 and unflagged before the remainder was counted. And a cut too close to
1 is reported naming the solve option mellin_cut, not a crate entry point
(issue 33 item 4)."""

import numpy as np
import pytest

import ekoc
from cards import CARDS, SQRT2

PIDS = list(ekoc.PIDS)
G = PIDS.index(21)


def _backward_lo():
    th, op, _ = CARDS["lo_ffns"]
    op = dict(op)
    op["init"] = [100.0, 4]
    op["mugrid"] = [[SQRT2, 4]]
    return th, op


@pytest.mark.parametrize("backend", ["batch", "adaptive"])
def test_cut_remainder_flagged_and_covered(backend):
    th, op = _backward_lo()
    cut = ekoc.solve(th, op, backend)
    ref = ekoc.solve(th, op, "batch", mellin_cut=1e-4, epsrel=1e-8)
    (ep,) = list(cut)
    a, b = cut[ep], ref[ep]
    v, err, failed = a.operator, a.error, a.failed
    d = np.abs(v - b.operator)
    tol = np.maximum(1e-12, 1e-5 * np.abs(v))
    off = d > tol
    assert off.sum() > 100  # the cut really leaves entries off
    # the stated error covers the remainder (the tail's estimate stops at 1 - cut/50)
    assert np.all(d <= 1.05 * err + 1e-8 * np.abs(v) + 1e-12)
    # the gluon entry of the issue: 0.43 % off, now flagged with an error covering it
    i = (G, 1, G, 3)
    assert d[i] / abs(b.operator[i]) > 3e-3
    assert failed[i] and err[i] >= d[i]
    assert cut.failures > 0
    # what stays unflagged and off is a flavour combination whose error covers it
    assert np.all(err[off & ~failed] >= 0.95 * d[off & ~failed])


def test_cut_too_close_to_one_names_mellin_cut():
    th, op, _ = CARDS["nnlo_vfns"]
    with pytest.raises(ekoc.EkocError) as info:
        ekoc.solve(th, op, "batch", mellin_cut=1e-5)
    message = str(info.value)
    assert "mellin_cut=1e-05" in message
    assert "ekore_" not in message
    assert info.value.field == "mellin_cut"
