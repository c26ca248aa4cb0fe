"""ekoc.ekore, the mirror of eko's Python ``ekore``, against eko 0.15.7 itself.

The same calls, with eko's argument forms, on both packages: the anomalous
dimensions at orders (1..4, 0) in both N3LO variants with random
n3lo_ad_variation vectors (each entry within eko's range), and the matching
OMEs at matching orders 1..3, at random complex N in the region a Talbot
contour visits, nf = 3..6 — equal to 1e-10 relative (entries that cancel
compared with a floor of 1e-12 times the largest entry of their tower).
Also: N as an array gives N's shape in front and the same values as one call
per point; what ekoc does not compute is refused naming the argument.

eko's values come from data/eko_values_ekore_mirror.npz (eko_values.py: numba
compiles eko's functions on first use, up to 12 minutes on a cold cache); `make test-eko` computes
them with eko and checks the file still holds them.
"""

import numpy as np
import pytest

import ekoc
import ekoc.ekore as ekore
from compare import assert_close_to
from eko_values import Store

EKO = Store("ekore_mirror")
eko_ad = EKO.module("ekore.anomalous_dimensions.unpolarized.space_like")
eko_ome = EKO.module("ekore.operator_matrix_elements.unpolarized.space_like")

RTOL = 1e-10
FLOOR = 1e-12
MODES = (10101, 10201, 10200)
# the n3lo_ad_variation entries (gg, gq, qg, qq, ns+, ns-, nsV) eko 0.15.7
# implements for use_fhmruvv = False / True (its as4 modules); beyond them eko
# takes the central value, and NNPDF's cards do use gq up to 21
RANGES = {False: (19, 15, 15, 6, 0, 0, 0), True: (2, 2, 2, 2, 2, 2, 2)}


def _points(seed, count=12):
    rng = np.random.default_rng(seed)
    re = rng.uniform(0.6, 30.0, count)
    im = rng.uniform(-30.0, 30.0, count)
    return re + 1j * im


def _variations(use_fhmruvv, seed, count=3):
    rng = np.random.default_rng(seed)
    hi = RANGES[use_fhmruvv]
    out = [(0,) * 7, hi]
    out += [tuple(int(rng.integers(0, h + 1)) for h in hi) for _ in range(count)]
    return out


def _close(got, want):
    assert_close_to(got, want, RTOL, FLOOR)


@pytest.mark.parametrize("qcd", [1, 2, 3])
def test_gamma_below_n3lo(qcd):
    for nf in (3, 4, 5, 6):
        for n in _points(qcd * 10 + nf, 6):
            for mode in MODES:
                _close(ekore.anomalous_dimensions.unpolarized.space_like.gamma_ns((qcd, 0), mode, n, nf, (0,) * 7),
                       eko_ad.gamma_ns((qcd, 0), mode, n, nf, (0,) * 7))
            _close(ekore.anomalous_dimensions.unpolarized.space_like.gamma_singlet((qcd, 0), n, nf, (0,) * 7),
                   eko_ad.gamma_singlet((qcd, 0), n, nf, (0,) * 7))


@pytest.mark.parametrize("use_fhmruvv", [True, False])
def test_gamma_n3lo(use_fhmruvv):
    sl = ekore.anomalous_dimensions.unpolarized.space_like
    variations = _variations(use_fhmruvv, 7 + use_fhmruvv) + [(25, 21, 16, 9, 3, 4, 5)]  # last: beyond eko's ranges
    for k, var in enumerate(variations):
        for nf in (3, 4, 5) if use_fhmruvv else (3, 4, 5, 6):  # the FHMRUVV singlet exists for nf 3..5
            for n in _points(100 * k + nf, 3):
                for mode in MODES:
                    _close(sl.gamma_ns((4, 0), mode, n, nf, var, use_fhmruvv),
                           eko_ad.gamma_ns((4, 0), mode, n, nf, var, use_fhmruvv))
                _close(sl.gamma_singlet((4, 0), n, nf, var, use_fhmruvv),
                       eko_ad.gamma_singlet((4, 0), n, nf, var, use_fhmruvv))


@pytest.mark.parametrize("order", [1, 2, 3])
def test_omes(order):
    sl = ekore.operator_matrix_elements.unpolarized.space_like
    for nf in (3, 4, 5):
        for L in (0.0, -1.4, 2.3):
            for n in _points(order * 31 + nf, 3):
                for is_msbar in (False, True):  # MSbar masses: eko's extra terms in A^(2)_gg, A^(2)_Hg
                    _close(sl.A_singlet((order, 0), n, nf, L, is_msbar),
                           eko_ome.A_singlet((order, 0), n, nf, L, is_msbar))
                _close(sl.A_non_singlet((order, 0), n, nf, L), eko_ome.A_non_singlet((order, 0), n, nf, L))


def test_fhmruvv_singlet_needs_nf_below_6():
    sl = ekore.anomalous_dimensions.unpolarized.space_like
    with pytest.raises(Exception):
        eko_ad.gamma_singlet((4, 0), 2.5 + 1j, 6, (0,) * 7, True)
    with pytest.raises(ekoc.EkocError, match="nf in 3..5"):
        sl.gamma_singlet((4, 0), 2.5 + 1j, 6, (0,) * 7, True)
    for mode in MODES:  # the non-singlet does exist at nf = 6
        _close(sl.gamma_ns((4, 0), mode, 2.5 + 1j, 6, (0,) * 7, True),
               eko_ad.gamma_ns((4, 0), mode, 2.5 + 1j, 6, (0,) * 7, True))


def test_array_n_is_one_call_per_point():
    sl = ekore.anomalous_dimensions.unpolarized.space_like
    n = _points(5, 6).reshape(2, 3)
    var = (3, 4, 1, 2, 1, 0, 2)
    many = sl.gamma_singlet((4, 0), n, 4, var, False)
    assert many.shape == (2, 3, 4, 2, 2)
    for idx in np.ndindex(2, 3):
        assert np.array_equal(many[idx], sl.gamma_singlet((4, 0), n[idx], 4, var, False))
    ome = ekore.operator_matrix_elements.unpolarized.space_like.A_singlet((3, 0), n, 4, 0.5, False)
    assert ome.shape == (2, 3, 3, 3, 3)


def test_refusals_name_the_argument():
    sl = ekore.anomalous_dimensions.unpolarized.space_like
    with pytest.raises(ekoc.EkocFieldError, match=r"n3lo_ad_variation\[2\]"):
        sl.gamma_singlet((4, 0), 2.5 + 1j, 4, (0, 0, -1, 0, 0, 0, 0), False)
    with pytest.raises(ekoc.EkocFieldError, match="n3lo_ad_variation"):
        sl.gamma_ns((4, 0), 10101, 2.5, 4, (0, 0, 0))
    # is_msbar is computed now (test_omes); it moves A^(2) only
    a = ekore.operator_matrix_elements.unpolarized.space_like.A_singlet((3, 0), 2.5, 4, 0.3, True)
    b = ekore.operator_matrix_elements.unpolarized.space_like.A_singlet((3, 0), 2.5, 4, 0.3, False)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[2], b[2]) and not np.array_equal(a[1], b[1])
