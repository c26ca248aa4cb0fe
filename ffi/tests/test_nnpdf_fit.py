"""NNPDF's fit evolution with ekoc (issue 35), through NNPDF's own tool,
unmodified (PyPI nnpdf 4.1.5, `evolven3fit`), on a reduced x grid so the
whole file takes seconds:

1. ``evolven3fit produce_eko 40000000 eko.tar -i 1e-4 -p 12`` under
   ``python -m ekoc.accel``: ekoc writes the EKO (the log line says so and
   counts the flagged integrals), eko reads it back with the targets and
   grid evolven3fit asked for;
2. a 3-replica fit folder in n3fit's layout (ekoc.write_exportgrid) on that
   grid; ``evolven3fit evolve FIT -l eko.tar`` applies the EKO with eko and
   writes its LHAPDF grids; ekoc.write_lhapdf evolves the same replicas
   with the same cards on its own; every value of every replica agrees
   (both print 9 digits: within 2 units of the 9th).

Skips, naming the package, when nnpdf (evolven3fit) or eko is missing:
scripts/setup.sh installs nnpdf[nolha] unless EKOC_INSTALL_NNPDF=0 or
EKOC_INSTALL_CLIENTS=0.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

import ekoc
from ekoc import _lhafmt

eko = pytest.importorskip("eko", reason="eko is not installed (pip install eko==0.15.7)")
pytest.importorskip("evolven3fit", reason="nnpdf (NNPDF's evolven3fit) is not installed: pip install "
                    "'nnpdf[nolha]==4.1.5' (scripts/setup.sh installs it unless EKOC_INSTALL_NNPDF=0)")

THEORY = 40000000
GRID = ["-i", "1e-4", "-p", "12"]
EVOLVEN3FIT = ["-m", "n3fit.scripts.evolven3fit"]


def _run(args, cwd, accel=False):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    cmd = [sys.executable] + (["-m", "ekoc.accel"] if accel else []) + EVOLVEN3FIT + args
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return result


def _cards():
    from evolven3fit import eko_utils
    from nnpdf_data import THEORY_CARDS_PATH
    from nnpdf_data.theorydbutils import fetch_theory

    xgrid = np.geomspace(1e-4, 1.0, 12)
    return eko_utils.construct_eko_cards(fetch_theory(THEORY_CARDS_PATH, THEORY), xgrid,
                                         {"configs": {"n_integration_cores": 1}}, {}, False)


@pytest.fixture(scope="module")
def eko_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nnpdf")
    result = _run(["--no-net", "produce_eko", str(THEORY), "eko.tar"] + GRID, folder, accel=True)
    lines = [ln for ln in result.stderr.splitlines() if ln.startswith("ekoc.accel:")]
    assert len(lines) == 1 and "ekoc computed this EKO" in lines[0] and "flagged integrals" in lines[0], lines
    return folder / "eko.tar"


def test_produce_eko_under_the_accelerator(eko_file):
    _, operator = _cards()
    with eko.EKO.read(eko_file) as e:
        assert np.array_equal(e.xgrid.raw, operator.xgrid.raw)
        assert sorted(e.evolgrid) == sorted({(mu * mu, nf) for mu, nf in operator.mugrid})
        assert e.operator_card.configs.evolution_method.value == "truncated"


def test_evolve_agrees_with_ekocs_own_route(eko_file, tmp_path):
    theory, operator = _cards()
    x = np.array(operator.xgrid.raw)
    rng = np.random.default_rng(7)
    fit = tmp_path / "FIT"
    (fit / "nnfit").mkdir(parents=True)
    (fit / "filter.yml").write_text(f"theory:\n  theoryid: {THEORY}\n")
    pdfs = np.zeros((3, 14, len(x)))
    for r in range(3):
        for k, pid in enumerate(ekoc.PIDS):
            if pid not in (22, 6, -6, 5, -5):
                pdfs[r, k] = (1 + 0.1 * rng.standard_normal()) * x**-1.1 * (1 - x) ** 3
        (fit / "nnfit" / f"replica_{r + 1}").mkdir()
        ekoc.write_exportgrid(fit / "nnfit" / f"replica_{r + 1}" / "FIT.exportgrid", replica=r + 1,
                              q20=operator.init[0] ** 2, xgrid=x, xf=pdfs[r] * x)
    _run(["evolve", "FIT", "-l", str(eko_file)], tmp_path)
    read = ekoc.read_fit(fit)
    assert np.allclose(read["pdfs"], pdfs, rtol=1e-15, atol=0)
    ekoc.write_lhapdf(tmp_path / "OURS", theory, operator, read["pdfs"], central="none")
    ours = ekoc.read_lhapdf(tmp_path / "OURS")
    for r in range(3):
        theirs = _lhafmt.read_member(fit / "nnfit" / f"replica_{r + 1}" / "FIT.dat")
        mine = ours["members"][r]
        assert len(theirs["blocks"]) == len(mine["blocks"]) == 3  # nf 3 (below the charm threshold), 4, 5
        for a, b in zip(theirs["blocks"], mine["blocks"]):
            assert a["pids"] == b["pids"]
            assert np.allclose(a["q"], b["q"], rtol=1e-6, atol=0)  # evolven3fit prints knots with 7 digits
            scale = np.abs(a["xf"]).max()
            assert np.allclose(a["xf"], b["xf"], rtol=2e-8, atol=1e-13 * scale)
