"""Streamed operators (issue 16, item 2): ekoc.solve_stream hands over each
target as the C library composes it (ekoc_compute_stream), bitwise solve's;
ekoc.solve_to_eko writes the EKO file from that stream, and eko.EKO.read
gives the same operators as from Solution.to_eko; a failed or cancelled
stream leaves nothing behind; the accelerator writes through the stream."""

import copy
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


def _many_targets():
    """NLO VFNS, targets on both sides of mu_0 and of the b threshold, one repeated."""
    th, op = cards.card("nlo_vfns")
    op["mugrid"] = [[1.5, 4], [10.0, 5], [3.0, 4], [100.0, 5], [10.0, 5], [1000.0, 5], [1.2, 3]]
    op["configs"]["inversion_method"] = "expanded"
    return th, op


def _eko_ops(path):
    with eko.EKO.read(path) as e:
        return {ep: (e[ep].operator.copy(), e[ep].error.copy()) for ep in e.evolgrid}


def test_stream_is_bitwise_solve():
    th, op = _many_targets()
    sol = ekoc.solve(th, op, backend="batch", progress=False)
    seen = []

    def on_target(t):
        ref = sol[t.ep]
        assert t.ep == ref.ep
        assert np.array_equal(t.operator, ref.operator)
        assert np.array_equal(t.error, ref.error)
        assert np.array_equal(t.failed, ref.failed)
        assert np.array_equal(t.evolution_basis()[0], ref.evolution_basis()[0])
        seen.append(t.ep)

    summary = ekoc.solve_stream(th, op, on_target, backend="batch", progress=False)
    assert seen == sol.targets  # the card's order, the repeated target once
    assert summary["failures"] == sol.failures  # (entries whose remainder beyond eko's Mellin cut exceeds their tolerance are flagged: docs/physics.md §3)


def test_stream_views_end_with_the_call():
    th, op = _many_targets()
    kept = []
    ekoc.solve_stream(th, op, kept.append, backend="batch", progress=False)
    with pytest.raises(ekoc.EkocError):
        kept[0].operator  # the C view is gone: an error, not freed memory


def test_stream_cancel_reraises():
    th, op = _many_targets()
    calls = []

    def stop(t):
        calls.append(t.ep)
        if len(calls) == 2:
            raise ekoc.Cancel("enough")

    with pytest.raises(ekoc.Cancel, match="enough"):
        ekoc.solve_stream(th, op, stop, backend="batch", progress=False)
    assert len(calls) == 2
    with pytest.raises(ekoc.EkocFieldTypeError, match="on_target"):
        ekoc.solve_stream(th, op, 3)


@pytest.mark.parametrize("name", ["nlo_vfns", "nnlo_vfns", "nlo_backward_exact", "many"])
def test_solve_to_eko_reads_as_to_eko(name, tmp_path, eko_tmp):
    th, op = _many_targets() if name == "many" else cards.card(name)
    sol = ekoc.solve(th, op, backend="batch", progress=False)
    held, streamed = tmp_path / "held.tar", tmp_path / "streamed.tar"
    sol.to_eko(held)
    ekoc.solve_to_eko(th, op, streamed, backend="batch", progress=False)
    a, b = _eko_ops(held), _eko_ops(streamed)
    assert list(a) == list(b)
    for ep in a:
        assert np.array_equal(a[ep][0], b[ep][0]) and np.array_equal(a[ep][1], b[ep][1])
    with eko.EKO.read(streamed) as e:
        assert e.theory_card.couplings.alphas == th["couplings"]["alphas"]
        assert np.array_equal(e.xgrid.raw, sol.xgrid)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["held.tar", "streamed.tar", "system_tmp"]
    assert list(eko_tmp.iterdir()) == []


def test_solve_to_eko_with_eko_objects(tmp_path, eko_tmp):
    th, op = _many_targets()
    path = tmp_path / "objects.tar"
    ekoc.solve_to_eko(eko.TheoryCard.from_dict(th), eko.OperatorCard.from_dict(op), path, backend="batch")
    sol = ekoc.solve(th, op, backend="batch", progress=False)
    for ep, (value, error) in _eko_ops(path).items():
        assert np.array_equal(value, sol[ep].operator) and np.array_equal(error, sol[ep].error)


def test_solve_to_eko_failure_leaves_nothing(tmp_path, eko_tmp):
    th, op = _many_targets()
    path = tmp_path / "cancelled.tar"

    def cancel(done, total):
        raise ekoc.Cancel("stop")

    with pytest.raises(ekoc.Cancel):
        ekoc.solve_to_eko(th, op, path, backend="batch", progress=cancel)
    assert list(tmp_path.iterdir()) == [eko_tmp]
    assert list(eko_tmp.iterdir()) == []
    # eko's own checks on the path come first, before any computation
    (tmp_path / "there.tar").write_bytes(b"")
    with pytest.raises(eko.io.exceptions.OutputExistsError):
        ekoc.solve_to_eko(th, op, tmp_path / "there.tar")
    with pytest.raises(eko.io.exceptions.OutputNotTar):
        ekoc.solve_to_eko(th, op, tmp_path / "x.zip")
    bad = copy.deepcopy(op)
    bad["xgrid"] = "nope"
    with pytest.raises(ekoc.EkocFieldError):
        ekoc.solve_to_eko(th, bad, tmp_path / "bad.tar")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["system_tmp", "there.tar"]


def test_accelerated_solve_streams(tmp_path, eko_tmp, monkeypatch):
    from eko.runner import managed

    from ekoc import _accel, _ekofile

    th, op = _many_targets()
    calls = []
    real = _ekofile.solve_to_eko

    def spy(*args, **kwargs):
        calls.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(_ekofile, "solve_to_eko", spy)
    monkeypatch.setenv("EKOC_ACCEL_BACKEND", "batch")
    patched = _accel._make_solve(managed.solve)
    path = tmp_path / "accel.tar"
    patched(eko.TheoryCard.from_dict(th), eko.OperatorCard.from_dict(op), path)
    assert calls == [path]
    sol = ekoc.solve(th, op, backend="batch", progress=False)
    for ep, (value, error) in _eko_ops(path).items():
        assert np.array_equal(value, sol[ep].operator) and np.array_equal(error, sol[ep].error)
