"""ekoc.ekore's polarized space-like functions against eko 0.15.7 itself.

The same calls, with eko's polarized signatures, on both packages: the
anomalous dimensions gamma_ns (modes 10101, 10201, 10200) and gamma_singlet at
orders (1..3, 0), and the OMEs A_singlet / A_non_singlet at matching orders
1 and 2 and several L, at random complex N in the region a Talbot contour
visits and at N = 1 (the polarized singlet has no pole there), nf = 3..6 —
equal to 1e-10 relative (entries that cancel compared with a floor of 1e-12
times the largest entry of their tower, at least 1e-12: at N = 1 the LO
non-singlet is a rounding zero). Also: what eko refuses (orders
beyond NNLO / O(a_s^2)) is refused naming the argument, N arrays give N's
shape in front.

eko's values come from data/eko_values_ekore_pol_mirror.npz (eko_values.py: numba
compiles eko's functions on first use, up to 12 minutes on a cold cache); `make test-eko` computes
them with eko and checks the file still holds them.
"""

import numpy as np
import pytest

import ekoc
import ekoc.ekore as ekore
from compare import assert_close_to
from eko_values import Store

EKO = Store("ekore_pol_mirror")
eko_ad = EKO.module("ekore.anomalous_dimensions.polarized.space_like")
eko_ome = EKO.module("ekore.operator_matrix_elements.polarized.space_like")

RTOL = 1e-10
FLOOR = 1e-12
MODES = (10101, 10201, 10200)
AD = ekore.anomalous_dimensions.polarized.space_like
OME = ekore.operator_matrix_elements.polarized.space_like


def _points(seed, count):
    rng = np.random.default_rng(seed)
    re = rng.uniform(-3.5, 30.0, count)
    im = rng.uniform(0.3, 30.0, count) * rng.choice([-1.0, 1.0], count)
    return [1.0 + 0j] + list(re + 1j * im)


def _close(got, want, floor_scale=None):
    assert_close_to(got, want, RTOL, FLOOR, floor_scale, min_scale=1.0)


@pytest.mark.parametrize("qcd", [1, 2, 3])
def test_anomalous_dimensions(qcd):
    for nf in (3, 4, 5, 6):
        for n in _points(qcd * 10 + nf, 6):
            towers = [eko_ad.gamma_ns((qcd, 0), m, n, nf) for m in MODES]
            scale = max(np.max(np.abs(t)) for t in towers)  # ns+ at N = 1 is a cancellation
            for mode, want in zip(MODES, towers):
                _close(AD.gamma_ns((qcd, 0), mode, n, nf), want, scale)
            _close(AD.gamma_singlet((qcd, 0), n, nf), eko_ad.gamma_singlet((qcd, 0), n, nf))


@pytest.mark.parametrize("order", [1, 2])
def test_omes(order):
    for nf in (3, 4, 5, 6):
        for L in (0.0, -1.4, 2.3):
            for n in _points(order * 31 + nf, 3):
                _close(OME.A_singlet((order, 0), n, nf, L), eko_ome.A_singlet((order, 0), n, nf, L))
                want = eko_ome.A_non_singlet((order, 0), n, L)  # A^(2)(N = 1) = 0 by cancellation
                _close(OME.A_non_singlet((order, 0), n, L), want)


def test_array_n_and_order_pairs():
    n = np.array(_points(5, 6)[1:]).reshape(2, 3)
    many = AD.gamma_singlet((3, 0), n, 4)
    assert many.shape == (2, 3, 3, 2, 2)
    ns = AD.gamma_ns((2, 0), 10200, n, 4)
    assert ns.shape == (2, 3, 2)
    ome = OME.A_singlet((2, 0), n, 4, 0.5)
    assert ome.shape == (2, 3, 2, 3, 3)
    for idx in np.ndindex(2, 3):
        assert np.array_equal(many[idx], AD.gamma_singlet((3, 0), n[idx], 4))
        assert np.array_equal(ns[idx], AD.gamma_ns((2, 0), 10200, n[idx], 4))
        assert np.array_equal(ome[idx], OME.A_singlet((2, 0), n[idx], 4, 0.5))


def test_refusals_name_the_argument():
    # eko raises beyond NNLO and beyond O(a_s^2); so does the mirror, naming the order
    with pytest.raises(NotImplementedError):
        eko_ad.gamma_singlet((4, 0), 2.5 + 1j, 4)
    with pytest.raises(ekoc.EkocError, match="order = 4 outside 1..3"):
        AD.gamma_singlet((4, 0), 2.5 + 1j, 4)
    with pytest.raises(ekoc.EkocError, match="order = 4 outside 1..3"):
        AD.gamma_ns((4, 0), 10101, 2.5 + 1j, 4)
    with pytest.raises(NotImplementedError):
        eko_ome.A_singlet((3, 0), 2.5 + 1j, 4, 0.0)
    with pytest.raises(ekoc.EkocError, match="order = 3 outside 1..2"):
        OME.A_singlet((3, 0), 2.5 + 1j, 4, 0.0)
    with pytest.raises(ekoc.EkocError, match="order = 3 outside 1..2"):
        OME.A_non_singlet((3, 0), 2.5 + 1j, 0.0)
    with pytest.raises(ekoc.EkocFieldError, match="mode"):
        AD.gamma_ns((2, 0), 10102, 2.5 + 1j, 4)
    with pytest.raises(ekoc.EkocError, match="pole N = 0"):
        AD.gamma_singlet((1, 0), 0.0, 4)
