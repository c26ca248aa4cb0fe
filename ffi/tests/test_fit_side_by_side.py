"""perf/fit_side_by_side.py's pieces (issue 35 item 4), in seconds:

- AnalyticReplicas gives back perf/fit_folder.py's replicas at any x (the
  reference is fed the same functions the fit folder sampled);
- the HOPPET route (the script's `hoppet` child, dy 0.1 on a 2-replica fit)
  writes an LHAPDF6 set ekoc.read_lhapdf reads: one subgrid per nf on the
  EKO's scales, member 0 the replicas' mean, the input reproduced at Q0;
- stats: zero for identical values, the relative deviation where known.

Skips, naming the package, without nnpdf (evolven3fit's cards) or hoppet.
"""

import pathlib
import subprocess
import sys

import numpy as np
import pytest

import ekoc

PERF = pathlib.Path(__file__).resolve().parents[2] / "perf"
sys.path.insert(0, str(PERF))

import fit_side_by_side as sbs  # noqa: E402
from fit_folder import replica_xf  # noqa: E402


def test_analytic_replicas_are_the_folders():
    x = np.geomspace(1e-6, 0.9, 37)
    rng = np.random.default_rng(7)
    drawn = [replica_xf(x, rng, True) for _ in range(3)]
    analytic = sbs.AnalyticReplicas(3, 7, True)
    for r in (2, 0, 1):  # any order: each replica from its own saved state
        np.testing.assert_array_equal(analytic.xf(r, x), drawn[r])


def test_stats_known_deviation():
    x = np.geomspace(1e-6, 0.9, 30)
    points = [(1.0, 3), (10.0, 5)]
    ref = np.ones((2, 2, 14, 30))
    same = sbs.stats(ref, ref, x, points)
    assert same["below"]["g"] == (0.0, 0.0, 0.0) and same["above"]["all"] == (0.0, 0.0, 0.0)
    off = ref.copy()
    off[:, 1, ekoc.PIDS.index(21)] *= 1.01  # the gluon above, 1 %
    st = sbs.stats(off, ref, x, points)
    assert st["below"]["g"][0] == 0.0
    assert st["above"]["g"][0] == pytest.approx(0.01) and st["above"]["u"][0] == 0.0


def test_hoppet_route_writes_a_set(tmp_path):
    pytest.importorskip("hoppet", reason="hoppet is not installed (pip install hoppet==2.3.0)")
    pytest.importorskip("evolven3fit", reason="nnpdf (NNPDF's evolven3fit) is not installed: pip install "
                        "'nnpdf[nolha]==4.1.5'")
    fit = tmp_path / "FIT"
    subprocess.run([sys.executable, str(PERF / "fit_folder.py"), str(fit), "--replicas", "2"], check=True,
                   capture_output=True)
    out = tmp_path / "hoppet" / "FIT"
    out.parent.mkdir()
    run = subprocess.run([sys.executable, str(PERF / "fit_side_by_side.py"), "hoppet", str(fit), "--dy", "0.1",
                          "--out", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    lha = ekoc.read_lhapdf(out)
    assert len(lha["members"]) == 3
    blocks = lha["members"][1]["blocks"]
    assert [len(b["q"]) for b in blocks] == [6, 13, 38]  # the EKO's 57 scales, nf 3, 4, 5
    mean = (lha["members"][1]["blocks"][1]["xf"] + lha["members"][2]["blocks"][1]["xf"]) / 2
    np.testing.assert_allclose(lha["members"][0]["blocks"][1]["xf"], mean, rtol=2e-8, atol=1e-12)
    data = ekoc.read_fit(fit)
    x = data["xgrid"]
    k = int(np.argmin(abs(blocks[1]["q"] - 1.65)))  # Q0 = 1.65 GeV, a node of the nf = 4 subgrid
    assert blocks[1]["q"][k] == pytest.approx(1.65)
    inside = (x > 1e-5) & (x < 0.7)
    for pid in (21, 2, -1, 4):
        got = blocks[1]["xf"][:, k, blocks[1]["pids"].index(pid)]
        want = data["pdfs"][0, ekoc.PIDS.index(pid)] * x
        np.testing.assert_allclose(got[inside], want[inside], rtol=1e-3, atol=1e-6 * abs(want).max())
