"""ekoc's direct EKO archive writer (ekoc._ekotar, issue 35 item 1): the
same archive as eko's own writer, read back by eko.EKO.read with the same
arrays; a failure in its writer thread stops the write and leaves nothing."""

import io
import json
import tarfile
import tempfile

import numpy as np
import pytest

import cards
import ekoc
from ekoc import _ekotar

eko = pytest.importorskip("eko")


@pytest.fixture
def eko_tmp(tmp_path, monkeypatch):
    """tempfile's directory (where eko makes its eko-* folders), empty and watched."""
    folder = tmp_path / "system_tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def _write_with_eko(sol, path):
    """The same solution written by eko's own classes, as eko.solve would."""
    from eko.io.items import Operator, Target
    from eko.io.struct import EKO
    from eko.runner import recipes

    theory, operator = ekoc._ekofile._eko_cards(sol.setup.theory_card, sol.setup.operator_card)
    with EKO.create(path) as builder:
        out = builder.load_cards(theory, operator).build()
        recipes.create(out)
        for ep in dict.fromkeys(sol.targets):
            out.operators[Target.from_ep(ep)] = Operator(sol[ep].operator, sol[ep].error)


def _members(path):
    with tarfile.open(path) as tar:
        return {m.name: (m.type, tar.extractfile(m).read() if m.isfile() else None) for m in tar.getmembers()}


@pytest.mark.parametrize("name", ["nlo_vfns", "lo_ffns"])
def test_same_archive_as_ekos_writer(name, tmp_path, eko_tmp):
    sol = ekoc.solve(*cards.card(name), backend="batch", progress=False)
    ours, theirs = tmp_path / "ours.tar", tmp_path / "theirs.tar"
    sol.to_eko(ours)
    _write_with_eko(sol, theirs)
    a, b = _members(ours), _members(theirs)
    # ekoc's own metadata member (ekoc.eko_file_metadata) is the one addition
    assert json.loads(a.pop("./ekoc-metadata.json")[1]) == {"physics": "eko"}
    assert sorted(a) == sorted(b)
    for member, (kind, data) in a.items():
        assert kind == b[member][0], member
        if not member.endswith(".lz4"):  # the cards, metadata, recipes and headers: the same bytes
            assert data == b[member][1], member
    with eko.EKO.read(ours) as e_ours, eko.EKO.read(theirs) as e_theirs:
        assert sorted(e_ours.evolgrid) == sorted(e_theirs.evolgrid)
        for ep in e_ours.evolgrid:
            assert np.array_equal(e_ours[ep].operator, e_theirs[ep].operator)
            assert np.array_equal(e_ours[ep].error, e_theirs[ep].error)
            assert e_ours[ep].error.dtype == np.float64


def test_operator_bytes_load_as_ekos():
    from eko.io.items import Operator

    rng = np.random.default_rng(1)
    value, error = rng.normal(size=(14, 3, 14, 3)), rng.random((14, 3, 14, 3))
    both = Operator.load(io.BytesIO(_ekotar.operator_bytes(value, error)))
    assert np.array_equal(both.operator, value) and np.array_equal(both.error, error)
    alone = Operator.load(io.BytesIO(_ekotar.operator_bytes(value, None)))
    assert np.array_equal(alone.operator, value) and alone.error is None


@pytest.mark.parametrize("zip32", [True, False])
def test_operator_npz_is_a_valid_zip(zip32, monkeypatch):
    # ekoc's own npz writer (CRC-32 as the slices go, data descriptors), or zipfile's ZIP64 path for arrays beyond
    # 4 GiB (taken here by lowering the limit): every member's CRC checks, np.load reads the arrays, and the
    # CRC function is zlib's (zlib-ng's where installed gives the same values)
    import lz4.frame
    import zipfile
    import zlib

    if not zip32:
        monkeypatch.setattr(_ekotar, "_ZIP32_LIMIT", 0)
    rng = np.random.default_rng(2)
    value, error = rng.normal(size=(14, 40, 14, 40)), rng.random((14, 40, 14, 40))
    value[3:9] = 0.0  # whole zero blocks, as an operator has
    raw = lz4.frame.decompress(_ekotar.operator_bytes(value, error))
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        assert archive.namelist() == ["operator.npy", "error.npy"]
        assert archive.testzip() is None
    loaded = np.load(io.BytesIO(raw))
    assert np.array_equal(loaded["operator"], value) and np.array_equal(loaded["error"], error)
    data = memoryview(value).cast("B")
    assert _ekotar.crc32(data) == zlib.crc32(data)


def test_writer_thread_failure_leaves_nothing(tmp_path, eko_tmp, monkeypatch):
    sol = ekoc.solve(*cards.card("nlo_vfns"), backend="batch", progress=False)
    real = _ekotar.EkoTarWriter._write_one
    calls = []

    def second_fails(self, *args):
        calls.append(1)
        if len(calls) == 2:
            raise OSError(28, "No space left on device (simulated)")
        return real(self, *args)

    monkeypatch.setattr(_ekotar.EkoTarWriter, "_write_one", second_fails)
    with pytest.raises(OSError, match="simulated"):
        sol.to_eko(tmp_path / "out.tar")
    assert [p.name for p in tmp_path.iterdir()] == ["system_tmp"]
    assert list(eko_tmp.iterdir()) == []


def test_a_target_twice_is_refused(tmp_path, eko_tmp):
    sol = ekoc.solve(*cards.card("nlo_vfns"), backend="batch", progress=False)
    ep = sol.targets[0]
    with pytest.raises(ValueError, match="already written"):
        with _ekotar.EkoTarWriter(*ekoc._ekofile._eko_cards(sol.setup.theory_card, sol.setup.operator_card),
                                  tmp_path / "out.tar") as writer:
            writer.put_target(sol[ep])
            writer.put(ep, sol[ep].operator, sol[ep].error)
    assert [p.name for p in tmp_path.iterdir()] == ["system_tmp"]
