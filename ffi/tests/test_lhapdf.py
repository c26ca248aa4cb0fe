"""ekoc's own fit evolution (issue 35 item 3): ekoc.evolve_pdfs applies the
operators to many replicas at once (against TargetOperator.apply, the C
library's matrix-vector product), ekoc.write_lhapdf writes an LHAPDF6 set
that ekoc.read_lhapdf (written from LHAPDF6's format description) reads back
with the evolved values, one subgrid per nf; bad input is named and leaves
nothing behind. Tiny grids: the whole file runs in seconds, without eko."""

import math
import pathlib

import numpy as np
import pytest

import cards
import ekoc
from ekoc import _evolve, _lhafmt

XGRID = [1e-5, 1e-4, 1e-3, 0.01, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0]


def _theory():
    th, _ = cards.card("nnlo_vfns")
    return th


def _operator(mugrid, mu0=1.65, nf0=4):
    _, op = cards.card("nnlo_vfns")
    op["init"] = [mu0, nf0]
    op["mugrid"] = mugrid
    op["xgrid"] = XGRID
    return op


def _replicas(n, seed=0):
    """n PDFs f(x) on XGRID: smooth, positive, zero at x = 1 and in the photon and top."""
    rng = np.random.default_rng(seed)
    x = np.array(XGRID)
    out = np.zeros((n, 14, len(x)))
    for k, pid in enumerate(ekoc.PIDS):
        if pid in (22, 6, -6):
            continue
        for r in range(n):
            out[r, k] = (1 + 0.1 * rng.standard_normal()) * x**-0.8 * (1 - x) ** 3
    return out


def test_flavor_to_evolution_is_the_librarys_basis():
    sol = ekoc.solve(_theory(), _operator([(10.0, 5)]), progress=False)
    target = sol[sol.targets[0]]
    rotated = np.einsum("ea,axby,fb->exfy", _evolve._TO_EVOLUTION, target.operator, _evolve._FROM_EVOLUTION.T)
    values, _ = target.evolution_basis()
    assert np.allclose(rotated, values, rtol=0, atol=1e-12 * np.abs(values).max())


def test_evolve_pdfs_matches_the_librarys_apply():
    theory, operator = _theory(), _operator([(3.0, 4), (10.0, 5), (100.0, 5)])
    pdfs = _replicas(5)
    evolved = ekoc.evolve_pdfs(theory, operator, pdfs)
    sol = ekoc.solve(theory, operator, progress=False)
    assert sorted(evolved) == sorted(sol.targets)
    for ep, values in evolved.items():
        expected = sol[ep].apply(pdfs)
        assert np.allclose(values, expected, rtol=1e-13, atol=1e-13 * np.abs(expected).max())


def test_callable_and_array_give_the_same():
    theory, operator = _theory(), _operator([(10.0, 5)])
    x = np.array(XGRID)
    array = _replicas(1)

    def xf(pid, xs):
        return array[0, ekoc.PIDS.index(pid)] * xs  # x f on XGRID

    a = ekoc.evolve_pdfs(theory, operator, array)
    b = ekoc.evolve_pdfs(theory, operator, [xf])
    assert x.shape == (11,)
    for ep in a:
        assert np.allclose(a[ep], b[ep], rtol=1e-14, atol=0)


def test_q2grid_places_the_thresholds_on_both_sides():
    card = _evolve.operator_card_for(_theory(), [3.0, 4.92**2, 100.0], xgrid=XGRID, mu0=1.65)
    assert card["init"] == [1.65, 4]
    assert [nf for _, nf in card["mugrid"]] == [4, 4, 5, 5]


def test_nan_replica_is_named():
    pdfs = _replicas(3)
    pdfs[2, 7, 4] = np.nan
    with pytest.raises(ekoc.EkocFieldError, match=r"pdfs\[2\].*replica 2 is not finite at pid 21"):
        ekoc.evolve_pdfs(_theory(), _operator([(10.0, 5)]), pdfs)


def test_grid_not_matching_the_operator_is_named():
    with pytest.raises(ekoc.EkocFieldError, match=r"pdfs.*shape \(replicas, 14, 11\)"):
        ekoc.evolve_pdfs(_theory(), _operator([(10.0, 5)]), np.zeros((2, 14, 12)))


def test_format_rows_is_printfs():
    rng = np.random.default_rng(3)
    values = rng.standard_normal((300, 7)) * 10.0 ** rng.integers(-98, 99, (300, 7))
    values[0, :3] = [0.0, -0.0, 1e-120]
    text = _lhafmt.format_rows(values).decode()
    assert text.count("\n") == 300
    for got, value in zip(text.split(), values.ravel()):
        assert got == "%.8e" % (0.0 if abs(value) < _lhafmt.TINY else value)


def _set(tmp_path, n_rep=3, mugrid=None, **kwargs):
    mugrid = mugrid or [(1.65, 4), (3.0, 4), (4.92, 4), (4.92, 5), (10.0, 5), (100.0, 5)]
    theory, operator = _theory(), _operator(mugrid)
    pdfs = _replicas(n_rep)
    path = tmp_path / "ToySet"
    summary = ekoc.write_lhapdf(path, theory, operator, pdfs, **kwargs)
    return path, theory, operator, pdfs, summary


def test_written_set_reads_back_with_the_evolved_values(tmp_path):
    path, theory, operator, pdfs, summary = _set(tmp_path)
    assert summary["members"] == 4 and summary["targets"] == 6
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ToySet"]  # no temporary folder left
    lha = ekoc.read_lhapdf(path)
    info = lha["info"]
    assert info["NumMembers"] == 4 and info["ErrorType"] == "replicas" and info["Format"] == "lhagrid1"
    assert info["Flavors"] == list(ekoc.PIDS)
    assert len(info["AlphaS_Qs"]) == len(info["AlphaS_Vals"]) == 6
    assert math.isclose(info["QMin"], 1.65) and math.isclose(info["QMax"], 100.0)
    evolved = ekoc.evolve_pdfs(theory, operator, pdfs)
    x = np.array(XGRID)
    for member, data in enumerate(lha["members"]):
        blocks = data["blocks"]
        assert [len(b["q"]) for b in blocks] == [3, 3]  # nf 4 up to m_b, nf 5 from m_b
        assert blocks[0]["q"][-1] == blocks[1]["q"][0] == 4.92
        assert data["header"]["PdfType"] == ("central" if member == 0 else "replica")
        for block, nf in zip(blocks, (4, 5)):
            assert np.array_equal(block["x"], x)
            for iq, q in enumerate(block["q"]):
                values = evolved[(q * q, nf)]
                want = values.mean(axis=0) if member == 0 else values[member - 1]
                got = block["xf"][:, iq, :].T  # (pid, x)
                assert np.allclose(got, want * x, rtol=6e-9, atol=1e-98)


def test_q2grid_route_and_single_member(tmp_path):
    theory = _theory()
    path = tmp_path / "One"
    summary = ekoc.write_lhapdf(path, theory, [3.0, 50.0, 1e4], _replicas(1), xgrid=XGRID, mu0=1.65,
                                pids=[-5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5])
    lha = ekoc.read_lhapdf(path)
    assert summary["members"] == 1 and "ErrorType" not in lha["info"]
    (block4, block5), = [m["blocks"] for m in lha["members"]]
    assert block4["q"][-1] == block5["q"][0] == 4.92 and block4["pids"][5] == 21


def test_msbar_set_names_the_threshold_masses(tmp_path):
    """An MSbar card: MCharm, MBottom, MTop are the m(m) its flavour thresholds sit at
    (ekoc's threshold_masses), not the card's m(mu_ref), and the subgrids meet there."""
    from ekoc._solve import threshold_masses

    theory, _ = cards.card("msbar_nnlo_vfns")
    path = tmp_path / "MSbarSet"
    ekoc.write_lhapdf(path, theory, [3.0, 50.0, 1e4], _replicas(1), xgrid=XGRID, mu0=1.65)
    info = ekoc.read_lhapdf(path)["info"]
    want = threshold_masses(ekoc._cards.translate(theory, _operator([[3.0, 4]])))
    masses = [info["MCharm"], info["MBottom"], info["MTop"]]
    assert np.allclose(masses, want, rtol=1e-15, atol=0)
    assert all(abs(m - card) > 1e-3 for m, (card, _) in zip(masses, theory["heavy"]["masses"]))
    blocks = ekoc.read_lhapdf(path)["members"][0]["blocks"]
    assert math.isclose(blocks[0]["q"][-1], info["MBottom"], rel_tol=1e-7)


def test_existing_folder_is_refused_untouched(tmp_path):
    (tmp_path / "ToySet").mkdir()
    (tmp_path / "ToySet" / "mine.txt").write_text("keep")
    with pytest.raises(ekoc.EkocFieldError, match="exists already"):
        _set(tmp_path)
    assert [p.name for p in (tmp_path / "ToySet").iterdir()] == ["mine.txt"]


def test_bad_input_leaves_no_half_written_set(tmp_path):
    pdfs = _replicas(2)
    pdfs[1, 8, 0] = np.inf
    with pytest.raises(ekoc.EkocFieldError, match=r"pdfs\[1\]"):
        ekoc.write_lhapdf(tmp_path / "Bad", _theory(), _operator([(3.0, 4), (4.92, 4), (4.92, 5), (10.0, 5)]),
                           pdfs)
    assert list(tmp_path.iterdir()) == []


def test_failure_midway_leaves_nothing(tmp_path, monkeypatch):
    calls = []
    real = _lhafmt.format_rows

    def fails_on_the_third_member(values):
        calls.append(1)
        if len(calls) == 5:
            raise OSError(28, "No space left on device (simulated)")
        return real(values)

    monkeypatch.setattr(_lhafmt, "format_rows", fails_on_the_third_member)
    with pytest.raises(OSError, match="simulated"):
        _set(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_subgrids_must_share_their_edge(tmp_path):
    with pytest.raises(ekoc.EkocFieldError, match="share their edge"):
        _set(tmp_path, mugrid=[(1.65, 4), (3.0, 4), (10.0, 5), (100.0, 5)])
    with pytest.raises(ekoc.EkocFieldError, match="one scale"):
        _set(tmp_path, mugrid=[(3.0, 4), (4.92, 4), (4.92, 5)])
    assert list(tmp_path.iterdir()) == []


def test_reader_names_what_is_off(tmp_path):
    path, *_ = _set(tmp_path, n_rep=2)
    member = path / "ToySet_0001.dat"
    lines = member.read_text().split("\n")
    lines[8] = lines[8] + " 1.0"  # one value too many in the first block (after 4 header and 3 knot lines)
    original = member.read_text()
    member.write_text("\n".join(lines))
    with pytest.raises(ValueError, match="ToySet_0001.dat: block 0 has"):
        ekoc.read_lhapdf(path)
    member.write_text(original)
    (path / "ToySet_0002.dat").unlink()
    with pytest.raises(FileNotFoundError, match="member 2 of 3"):
        ekoc.read_lhapdf(path)


def test_exportgrid_round_trip_and_fit_errors(tmp_path):
    fit = tmp_path / "FIT"
    x = np.array(XGRID)
    (fit / "nnfit").mkdir(parents=True)
    (fit / "filter.yml").write_text("fitting:\n  seed: 1\ntheory:\n  theoryid: 40000000\n")
    pdfs = _replicas(3)
    for r in range(1, 4):
        (fit / "nnfit" / f"replica_{r}").mkdir()
        ekoc.write_exportgrid(fit / "nnfit" / f"replica_{r}" / "FIT.exportgrid", replica=r, q20=1.65**2, xgrid=x,
                              xf=pdfs[r - 1] * x)
    read = ekoc.read_fit(fit)
    assert read["theory_id"] == 40000000 and read["replicas"] == [1, 2, 3] and read["q20"] == 1.65**2
    assert np.allclose(read["pdfs"], pdfs, rtol=1e-15, atol=0)
    text = (fit / "nnfit" / "replica_2" / "FIT.exportgrid").read_text()
    (fit / "nnfit" / "replica_2" / "FIT.exportgrid").write_text(text.replace("pdfgrid:\n- [0.0,", "pdfgrid:\n- [.nan,"))
    with pytest.raises(ekoc.EkocFieldError, match="replica_2/FIT.exportgrid.*not finite"):
        ekoc.read_fit(fit)
    (fit / "nnfit" / "replica_2" / "FIT.exportgrid").unlink()
    with pytest.raises(FileNotFoundError, match="replica_2.*has no exportgrid"):
        ekoc.read_fit(fit)


def test_scratch_file_gives_the_same_set(tmp_path):
    (tmp_path / "memory").mkdir()
    (tmp_path / "disk").mkdir()
    a, *_ = _set(tmp_path / "memory")
    b, *_ = _set(tmp_path / "disk", max_memory_bytes=0)  # every value through the scratch file
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir()) and "evolved.scratch" not in names
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_no_eko_needed(tmp_path):
    """The whole route with eko (and NNPDF) made unimportable."""
    import os
    import subprocess
    import sys

    script = (
        "import sys; sys.modules['eko'] = None; sys.modules['ekobox'] = None; sys.modules['evolven3fit'] = None\n"
        "import numpy as np, ekoc, test_lhapdf as t\n"
        "s = ekoc.write_lhapdf(sys.argv[1], t._theory(), t._operator([(3.0, 4), (4.92, 4), (4.92, 5), (10.0, 5)]),"
        " t._replicas(2))\n"
        "assert ekoc.read_lhapdf(sys.argv[1])['info']['NumMembers'] == 3 and 'eko' not in sys.modules or "
        "sys.modules['eko'] is None\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, "-c", script, str(tmp_path / "NoEko")], capture_output=True, text=True,
                            env=env, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert (tmp_path / "NoEko" / "NoEko_0002.dat").is_file()
