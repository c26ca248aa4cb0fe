"""The N3LO anomalous-dimension set of a theory card (ffi/ekoc/_n3lo_set.py):
eko's use_fhmruvv, ekoc's n3lo_ad_set ("eko" | "fhmruvv2024" | "2512"), and the
2512 set through solve (FFNS nf = 4 and nf = 6)."""

import copy
import math

import numpy as np
import pytest

import cards
import ekoc
from ekoc._n3lo_set import n3lo_set


def test_names_and_defaults():
    assert n3lo_set({}) == 1  # eko's default: FHMRUVV
    assert n3lo_set({"use_fhmruvv": False}) == 0
    assert n3lo_set({"n3lo_ad_set": "eko"}) == 0
    assert n3lo_set({"n3lo_ad_set": "fhmruvv2024", "use_fhmruvv": True}) == 1
    assert n3lo_set({"n3lo_ad_set": "2512"}) == 2
    assert n3lo_set({"n3lo_ad_set": "2512", "use_fhmruvv": True}) == 2


def test_bad_names_and_contradictions_name_the_field():
    with pytest.raises(ekoc.EkocFieldError, match=r"theory_card\.n3lo_ad_set.*'2512'"):
        n3lo_set({"n3lo_ad_set": "2410"})
    with pytest.raises(ekoc.EkocFieldError, match=r"theory_card\.use_fhmruvv.*'2512'"):
        n3lo_set({"n3lo_ad_set": "2512", "use_fhmruvv": False})
    with pytest.raises(ekoc.EkocFieldError, match=r"theory_card\.use_fhmruvv.*'eko'"):
        n3lo_set({"n3lo_ad_set": "eko", "use_fhmruvv": True})


def _ffns(nf, n3lo_ad_set=None):
    th, op = cards.card("n3lo_ffns_perturbative")
    th = copy.deepcopy(th)
    if n3lo_ad_set is not None:
        th["n3lo_ad_set"] = n3lo_ad_set
    if nf == 6:  # every heavy quark below the scales, none ever crossed
        th["couplings"]["ref"] = [math.sqrt(2.0), 6]
        th["heavy"]["matching_ratios"] = [0.0, 0.0, 0.0]
        op = copy.deepcopy(op)
        op["init"] = [math.sqrt(2.0), 6]
        op["mugrid"] = [[100.0, 6]]
    return th, op


def test_solve_takes_the_set():
    """FFNS nf = 4: "fhmruvv2024" is eko's default bit for bit; "2512" moves the
    operator (new gq, HOPPET's x-space non-singlet) by a little."""
    default = ekoc.solve(*_ffns(4), backend="batch")
    same = ekoc.solve(*_ffns(4, "fhmruvv2024"), backend="batch")
    new = ekoc.solve(*_ffns(4, "2512"), backend="batch")
    (ep,) = list(default)
    np.testing.assert_array_equal(default[ep].operator, same[ep].operator)
    a, b = default[ep].operator, new[ep].operator
    assert not np.array_equal(a, b)
    assert np.max(np.abs(a - b)) < 1e-2 * np.max(np.abs(a))


def test_nf6_singlet():
    """The 2512 set has the singlet at nf = 6; FHMRUVV 2024 refuses it."""
    out = ekoc.solve(*_ffns(6, "2512"), backend="batch")
    (ep,) = list(out)
    assert np.all(np.isfinite(out[ep].operator))
    with pytest.raises(ekoc.EkocError, match=r"3\.\.5"):
        ekoc.solve(*_ffns(6, "fhmruvv2024"), backend="batch")


def test_eko_file_records_the_set(tmp_path):
    """eko's TheoryCard has no n3lo_ad_set: the file's card says use_fhmruvv and
    ekoc's metadata says "2512"; the default set writes no such member."""
    pytest.importorskip("eko")
    th, op = _ffns(4, "2512")
    ekoc.solve(th, op, backend="batch").to_eko(tmp_path / "a.tar")
    assert ekoc.eko_file_metadata(tmp_path / "a.tar")["n3lo_ad_set"] == "2512"
    ekoc.solve_to_eko(th, op, tmp_path / "b.tar", backend="batch")
    assert ekoc.eko_file_metadata(tmp_path / "b.tar")["n3lo_ad_set"] == "2512"
    ekoc.solve(*_ffns(4), backend="batch").to_eko(tmp_path / "c.tar")
    assert "n3lo_ad_set" not in ekoc.eko_file_metadata(tmp_path / "c.tar")
