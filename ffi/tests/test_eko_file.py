"""EKO files written by ekoc (issue 15, finding 4).

Solution.to_eko writes the cards the solution was computed with (given
cards must ask for the same operators, else the first differing field is
named); eko.EKO.read opens every file ekoc writes; the write goes to a
temporary file next to the target, renamed into place, so a failed write
(an OSError in eko's writer, a file-size limit) leaves nothing at the
target, no temporary file and no eko-* temporary folder."""

import math
import os
import pathlib
import subprocess
import sys
import tarfile
import tempfile

import numpy as np
import pytest

import cards
import ekoc

eko = pytest.importorskip("eko")


@pytest.fixture
def eko_tmp(tmp_path, monkeypatch):
    """tempfile's directory (where eko makes its eko-* folders), empty and watched."""
    folder = tmp_path / "system_tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def _solve(name="nlo_vfns"):
    th, op = cards.card(name)
    return ekoc.solve(th, op, backend="batch", progress=False), th, op


def _assert_clean(folder: pathlib.Path, eko_tmp: pathlib.Path, expect=()):
    assert sorted(p.name for p in folder.iterdir()) == sorted(expect), list(folder.iterdir())
    assert list(eko_tmp.iterdir()) == [], list(eko_tmp.iterdir())


def _assert_file_matches(path, sol, alphas):
    with eko.EKO.read(path) as e:
        assert e.theory_card.couplings.alphas == alphas
        assert np.array_equal(e.xgrid.raw, sol.xgrid)
        assert sorted(e.evolgrid) == sorted(sol.targets)
        for ep in e.evolgrid:
            assert np.array_equal(e[ep].operator, sol[ep].operator)
            assert np.array_equal(e[ep].error, sol[ep].error)


@pytest.mark.parametrize("name", sorted(cards.CARDS))
def test_eko_reads_every_file_ekoc_writes(name, tmp_path, eko_tmp):
    if "msbar" in name:  # eko's reader computes m(m): its numpy-2 fix (gen_eko_reference.py)
        from gen_eko_reference import _msbar_numpy2_shim

        _msbar_numpy2_shim()
    sol, th, op = _solve(name)
    path = tmp_path / "out" / f"{name}.tar"
    path.parent.mkdir()
    sol.to_eko(path)  # the solved cards
    _assert_file_matches(path, sol, th["couplings"]["alphas"])
    with eko.EKO.read(path) as e:
        assert e.operator_card.configs.evolution_method.value == op["configs"]["evolution_method"]
    # the same cards given explicitly, as dicts and as eko objects, and a str path
    sol.to_eko(str(tmp_path / "out" / "dicts.tar"), th, op)
    sol.to_eko(tmp_path / "out" / "objects.tar", eko.TheoryCard.from_dict(th), eko.OperatorCard.from_dict(op))
    for other in ("dicts.tar", "objects.tar"):
        _assert_file_matches(tmp_path / "out" / other, sol, th["couplings"]["alphas"])
    _assert_clean(path.parent, eko_tmp, [f"{name}.tar", "dicts.tar", "objects.tar"])


def test_shorthand_grid_and_repeated_targets(tmp_path, eko_tmp):
    th, op = cards.card("nlo_vfns")
    op["xgrid"] = ["lambertgrid", 12, 1e-4]
    op["mugrid"] = [[10.0, 5], [100.0, 5], [10.0, 5]]
    sol = ekoc.solve(th, op, backend="batch", progress=False)
    assert len(sol.operator_card["xgrid"]) == 12  # the solved card holds the grid, not the shorthand
    sol.to_eko(tmp_path / "a.tar")
    sol.to_eko(tmp_path / "b.tar", th, op)  # the shorthand card asks for the same operators
    for name in ("a.tar", "b.tar"):
        _assert_file_matches(tmp_path / name, sol, 0.118)
    _assert_clean(tmp_path, eko_tmp, ["a.tar", "b.tar", "system_tmp"])


@pytest.mark.parametrize(
    "edit,field,shown",
    [
        (lambda th, op: th["couplings"].update(alphas=0.2), "theory_card.couplings.alphas", "0.2"),
        (lambda th, op: op["configs"].update(ev_op_iterations=3), "operator_card.configs.ev_op_iterations", "3"),
        (lambda th, op: op.update(xgrid=cards.lambert_grid(8)), "operator_card.xgrid (8 points, the solved one 15)",
         "0.0001"),
        (lambda th, op: op["xgrid"].__setitem__(3, op["xgrid"][3] * (1 + 1e-15)),
         "operator_card.xgrid[3] (of the sorted grid)", ""),
        (lambda th, op: op.update(mugrid=[[10.0, 5], [50.0, 5]]), "operator_card.mugrid[1] as (mu**2, nf)",
         "(2500.0, 5)"),
        (lambda th, op: th["heavy"]["masses"][1].__setitem__(0, 4.5), "theory_card.heavy.masses", "4.5"),
        (lambda th, op: th.update(order=[3, 0], matching_order=[2, 0]), "theory_card.order[0]", "3"),
        (lambda th, op: op["configs"].update(evolution_method="truncated"),
         "operator_card.configs.evolution_method", "'truncated'"),
        (lambda th, op: (th.update(xif=2.0), op["configs"].update(scvar_method="exponentiated")),
         "theory_card.xif", "2.0"),
        (lambda th, op: op.update(init=[1.7, 4]), "operator_card.init[0]", ""),
    ],
)
def test_cards_other_than_the_solved_ones_are_refused(edit, field, shown, tmp_path, eko_tmp):
    sol, th, op = _solve()
    edit(th, op)
    path = tmp_path / "out.tar"
    with pytest.raises(ekoc.EkocFieldError) as info:
        sol.to_eko(path, th, op)
    assert info.value.field == field and str(info.value).startswith(field), str(info.value)
    assert shown in str(info.value) and "differs from the card the solution was computed with" in str(info.value)
    assert isinstance(info.value, ValueError)
    _assert_clean(tmp_path, eko_tmp, ["system_tmp"])


def test_one_card_given_the_other_solved(tmp_path, eko_tmp):
    sol, th, op = _solve()
    th2 = dict(th, couplings=dict(th["couplings"], alphas=0.2))
    with pytest.raises(ekoc.EkocFieldError, match=r"theory_card\.couplings\.alphas=0\.2"):
        sol.to_eko(tmp_path / "x.tar", th2)
    sol.to_eko(tmp_path / "x.tar", th)  # operator card: the solved one
    _assert_file_matches(tmp_path / "x.tar", sol, 0.118)


def test_descriptive_fields_may_differ(tmp_path, eko_tmp):
    """Fields that do not reach the computation may differ; the file carries the given cards."""
    sol, th, op = _solve("lo_ffns")
    op["configs"]["n_integration_cores"] = 4
    op["eko_version"] = "0.15.7"
    th["xif"] = 2.0  # no effect without scvar_method (eko ignores it too)
    th["n3lo_ad_variation"] = [1, 0, 0, 0, 0, 0, 0]  # N3LO only
    th["use_fhmruvv"] = False
    th["heavy"]["masses"][0][1] = 3.0  # the scale a mass is given at: MSbar only
    sol.to_eko(tmp_path / "x.tar", th, op)
    with eko.EKO.read(tmp_path / "x.tar") as e:
        assert e.operator_card.configs.n_integration_cores == 4 and e.theory_card.xif == 2.0
    _assert_file_matches(tmp_path / "x.tar", sol, th["couplings"]["alphas"])


def test_existing_target_and_wrong_suffix(tmp_path, eko_tmp):
    from eko.io import exceptions

    sol, _, _ = _solve("lo_ffns")
    kept = tmp_path / "kept.tar"
    kept.write_bytes(b"precious")
    with pytest.raises(exceptions.OutputExistsError):
        sol.to_eko(kept)
    assert kept.read_bytes() == b"precious"
    with pytest.raises(exceptions.OutputNotTar):
        sol.to_eko(tmp_path / "x.zip")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        sol.to_eko(tmp_path / "no" / "such" / "x.tar")
    with pytest.raises(ekoc.EkocFieldTypeError, match="path"):
        sol.to_eko(42)
    _assert_clean(tmp_path, eko_tmp, ["kept.tar", "system_tmp"])


def test_failed_tar_write_leaves_nothing(tmp_path, eko_tmp, monkeypatch):
    sol, _, _ = _solve()

    def full_disk(self, *args, **kwargs):
        raise OSError(28, "No space left on device (simulated)")

    monkeypatch.setattr(tarfile.TarFile, "add", full_disk)
    with pytest.raises(OSError, match="simulated"):
        sol.to_eko(tmp_path / "out.tar")
    _assert_clean(tmp_path, eko_tmp, ["system_tmp"])


def test_failure_while_writing_operators_leaves_nothing(tmp_path, eko_tmp, monkeypatch):
    sol, _, _ = _solve()
    real = type(sol[sol.targets[0]]).flavor_into  # how the writer reads each target

    calls = []

    def second_fails(self, operator, error):
        calls.append(1)
        if len(calls) == 2:
            raise OSError(5, "I/O error (simulated)")
        return real(self, operator, error)

    monkeypatch.setattr(type(sol[sol.targets[0]]), "flavor_into", second_fails)
    with pytest.raises(OSError, match="simulated"):
        sol.to_eko(tmp_path / "out.tar")
    _assert_clean(tmp_path, eko_tmp, ["system_tmp"])


CHILD = r"""
import os, resource, signal, sys, tempfile
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # a write past the limit fails with EFBIG instead of killing us
tempfile.tempdir = sys.argv[3]
import ekoc, cards, eko, eko.io.struct, eko.runner.recipes, eko.io.items
sol = ekoc.solve(*cards.card("nlo_vfns"), backend="batch", progress=False)
sol[sol.targets[0]].operator, sol[sol.targets[1]].operator
limit = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
try:
    sol.to_eko(sys.argv[1])
except OSError as exc:
    print("OSError", exc.errno)
else:
    print("written")
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_FSIZE semantics checked on Linux")
def test_file_size_limit_leaves_nothing(tmp_path, eko_tmp):
    """Under `ulimit -f` the tar cannot be completed: nothing at the target."""
    import errno

    sol, _, _ = _solve()
    probe = tmp_path / "probe.tar"
    sol.to_eko(probe)
    size = probe.stat().st_size
    with tarfile.open(probe) as tar:
        largest = max(m.size for m in tar.getmembers())
    probe.unlink()
    if largest + 8192 >= size:
        pytest.skip(f"the tar ({size} B) is not much larger than its largest member ({largest} B)")
    limit = (largest + size) // 2  # every file eko writes fits, the tar does not
    out = tmp_path / "out"
    out.mkdir()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    res = subprocess.run([sys.executable, "-c", CHILD, str(out / "x.tar"), str(limit), str(eko_tmp)],
                         capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == ["OSError", str(errno.EFBIG)], res.stdout + res.stderr
    _assert_clean(out, eko_tmp)


def test_nan_masses_compare_equal(tmp_path, eko_tmp):
    """The cards' NaN mass scales and an inf matching ratio compare as the same card."""
    sol, th, op = _solve("lo_ffns")
    assert math.isnan(th["heavy"]["masses"][0][1]) and math.isinf(th["heavy"]["matching_ratios"][1])
    sol.to_eko(tmp_path / "x.tar", cards.card("lo_ffns")[0], cards.card("lo_ffns")[1])
    _assert_file_matches(tmp_path / "x.tar", sol, th["couplings"]["alphas"])
