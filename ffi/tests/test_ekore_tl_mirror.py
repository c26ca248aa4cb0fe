"""ekoc.ekore's time-like modules against eko 0.15.7's
(``ekore.anomalous_dimensions.unpolarized.time_like``,
``ekore.operator_matrix_elements.unpolarized.time_like``): the same calls with
eko's signatures at random complex N in the region a Talbot contour visits,
nf = 3..6, orders (1..3, 0), matching orders 1..3 — equal to 1e-10 relative
(entries that cancel compared with a floor of 1e-12 times the largest entry),
with eko's shapes; N as an array equals one call per point; the singlet is
eko's array, not its transpose; what ekoc refuses is named.

eko's values come from data/eko_values_ekore_tl_mirror.npz (eko_values.py: numba
compiles eko's functions on first use, up to 12 minutes on a cold cache); `make test-eko` computes
them with eko and checks the file still holds them.
"""

import numpy as np
import pytest

import ekoc
import ekoc.ekore as ekore
from compare import assert_close_to
from eko_values import Store

EKO = Store("ekore_tl_mirror")
eko_ad = EKO.module("ekore.anomalous_dimensions.unpolarized.time_like")
eko_ome = EKO.module("ekore.operator_matrix_elements.unpolarized.time_like")

tl_ad = ekore.anomalous_dimensions.unpolarized.time_like
tl_ome = ekore.operator_matrix_elements.unpolarized.time_like

RTOL = 1e-10
FLOOR = 1e-12
MODES = (10101, 10201, 10200)


def _points(seed, count=8):
    rng = np.random.default_rng(seed)
    re = rng.uniform(-3.0, 30.0, count)
    im = rng.uniform(0.5, 30.0, count) * rng.choice([-1.0, 1.0], count)
    return re + 1j * im


def _close(got, want):
    assert_close_to(got, want, RTOL, FLOOR)


@pytest.mark.parametrize("qcd", [1, 2, 3])
def test_gamma_equals_eko(qcd):
    for nf in (3, 4, 5, 6):
        for n in _points(qcd * 10 + nf):
            for mode in MODES:
                _close(tl_ad.gamma_ns((qcd, 0), mode, n, nf), eko_ad.gamma_ns((qcd, 0), mode, n, nf))
            _close(tl_ad.gamma_singlet((qcd, 0), n, nf), eko_ad.gamma_singlet((qcd, 0), n, nf))


def test_real_axis_and_near_one():
    # N = 2 (the momentum sum rule point), N near 1 (eko's nsV limit), large N
    for n in (2.0 + 0j, 3.3 + 0j, 1.0 + 2e-6 + 3e-6j, 40.0 + 1j):
        for nf in (3, 6):
            towers = np.array([tl_ad.gamma_ns((3, 0), m, n, nf) for m in MODES])
            want = np.array([eko_ad.gamma_ns((3, 0), m, n, nf) for m in MODES])
            _close(towers, want)
            if abs(n - 1) > 0.5:
                _close(tl_ad.gamma_singlet((3, 0), n, nf), eko_ad.gamma_singlet((3, 0), n, nf))


def test_singlet_layout_is_not_transposed():
    n, nf = 4.5 + 2.0j, 5
    got, want = tl_ad.gamma_singlet((1, 0), n, nf), eko_ad.gamma_singlet((1, 0), n, nf)
    # eko's [0][1] (its gamma_gq) carries 4 nf C_F, its [1][0] (gamma_qg) no nf
    assert abs(want[0][0][1]) > 10 * abs(want[0][1][0])
    _close(got, want)
    assert not np.allclose(got[0], want[0].T)


@pytest.mark.parametrize("order", [1, 2, 3])
def test_omes_equal_eko(order):
    rng = np.random.default_rng(order)
    for n in _points(100 + order):
        L = float(rng.uniform(-3.0, 3.0))
        got, want = tl_ome.A_singlet((order, 0), n, L), eko_ome.A_singlet((order, 0), n, L)
        _close(got, want)
        assert not got[1:].any()
        got_ns, want_ns = tl_ome.A_non_singlet((order, 0), n, L), eko_ome.A_non_singlet((order, 0), n, L)
        assert got_ns.shape == want_ns.shape and np.array_equal(got_ns, want_ns)


def test_arrays_of_n():
    ns = _points(7, 5).reshape(5, 1)
    g = tl_ad.gamma_singlet((3, 0), ns, 4)
    assert g.shape == (5, 1, 3, 2, 2)
    v = tl_ad.gamma_ns((2, 0), 10200, ns, 4)
    assert v.shape == (5, 1, 2)
    a = tl_ome.A_singlet((2, 0), ns, 0.7)
    assert a.shape == (5, 1, 2, 3, 3)
    for i, n in enumerate(ns[:, 0]):
        assert np.array_equal(g[i, 0], tl_ad.gamma_singlet((3, 0), n, 4))
        assert np.array_equal(v[i, 0], tl_ad.gamma_ns((2, 0), 10200, n, 4))
        assert np.array_equal(a[i, 0], tl_ome.A_singlet((2, 0), n, 0.7))


def test_refusals_name_the_argument():
    with pytest.raises(ekoc.EkocError, match="mode"):
        tl_ad.gamma_ns((2, 0), 10100, 2.0, 4)
    with pytest.raises(ekoc.EkocError, match="order = 4 outside 1..3"):
        tl_ad.gamma_singlet((4, 0), 2.0, 4)
    with pytest.raises(ekoc.EkocError, match="nf = 7"):
        tl_ad.gamma_ns((1, 0), 10101, 2.0, 7)
    with pytest.raises(ekoc.EkocError, match="pole N = 1"):
        tl_ad.gamma_singlet((1, 0), 1.0, 4)
    with pytest.raises(ekoc.EkocError, match="matching_order"):
        tl_ome.A_singlet((0, 0), 2.0, 0.0)
    with pytest.raises(ekoc.EkocError, match="L = inf"):
        tl_ome.A_singlet((1, 0), 2.0, float("inf"))
