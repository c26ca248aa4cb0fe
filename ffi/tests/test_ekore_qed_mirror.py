"""ekoc.ekore's QED grids (gamma_ns_qed, gamma_singlet_qed, gamma_valence_qed)
against eko 0.15.7 itself.

The same calls on both packages at random complex N in the region a Talbot
contour visits (Re N in 1.5..30, |Im N| <= 30), nf = 3..6, every order pair
(1..4, 1..2), both N3LO variants with random n3lo_ad_variation vectors within
eko's ranges: equal to 1e-10 relative (entries that cancel compared with a
floor of 1e-12 times the largest entry of their grid), same shape. Also: N as
an array gives N's shape in front and the values of one call per point; where
eko raises (the FHMRUVV singlet at nf 6 and order_qcd 4) ekoc does too; bad
arguments are refused naming them.

eko's values come from data/eko_values_ekore_qed_mirror.npz (eko_values.py: numba
compiles eko's functions on first use, up to 12 minutes on a cold cache); `make test-eko` computes
them with eko and checks the file still holds them.
"""

import numpy as np
import pytest

import ekoc
import ekoc.ekore as ekore
from compare import assert_close_to
from eko_values import Store

EKO = Store("ekore_qed_mirror")
eko_ad = EKO.module("ekore.anomalous_dimensions.unpolarized.space_like")

SL = ekore.anomalous_dimensions.unpolarized.space_like
RTOL = 1e-10
FLOOR = 1e-12
MODES = (10102, 10103, 10202, 10203)
ORDERS = [(q, e) for q in (1, 2, 3, 4) for e in (1, 2)]
# the n3lo_ad_variation entries (gg, gq, qg, qq, ns+, ns-, nsV) eko 0.15.7
# implements for use_fhmruvv = False / True
RANGES = {False: (19, 15, 15, 6, 0, 0, 0), True: (2, 2, 2, 2, 2, 2, 2)}


def _points(seed, count):
    rng = np.random.default_rng(seed)
    return rng.uniform(1.5, 30.0, count) + 1j * rng.uniform(-30.0, 30.0, count)


def _variation(use_fhmruvv, seed):
    rng = np.random.default_rng(seed)
    return tuple(int(rng.integers(0, h + 1)) for h in RANGES[use_fhmruvv])


def _close(got, want):
    assert_close_to(got, want, RTOL, FLOOR)


@pytest.mark.parametrize("use_fhmruvv", [True, False])
@pytest.mark.parametrize("nf", [3, 4, 5, 6])
def test_qed_grids_equal_eko(nf, use_fhmruvv):
    for k, order in enumerate(ORDERS):
        var = _variation(use_fhmruvv, 10 * k + nf)
        for n in _points(100 * k + nf + 7 * use_fhmruvv, 3):
            for mode in MODES:
                _close(SL.gamma_ns_qed(order, mode, n, nf, var, use_fhmruvv),
                       eko_ad.gamma_ns_qed(order, mode, n, nf, var, use_fhmruvv))
            _close(SL.gamma_valence_qed(order, n, nf, var, use_fhmruvv),
                   eko_ad.gamma_valence_qed(order, n, nf, var, use_fhmruvv))
            if use_fhmruvv and nf == 6 and order[0] == 4:
                continue  # test_fhmruvv_singlet_needs_nf_below_6
            _close(SL.gamma_singlet_qed(order, n, nf, var, use_fhmruvv),
                   eko_ad.gamma_singlet_qed(order, n, nf, var, use_fhmruvv))


def test_fhmruvv_singlet_needs_nf_below_6():
    with pytest.raises(Exception):
        eko_ad.gamma_singlet_qed((4, 1), 2.5 + 1j, 6, (0,) * 7, True)
    with pytest.raises(ekoc.EkocError, match="nf in 3..5"):
        SL.gamma_singlet_qed((4, 1), 2.5 + 1j, 6, (0,) * 7, True)
    _close(SL.gamma_singlet_qed((4, 1), 2.5 + 1j, 6, (0,) * 7, False),
           eko_ad.gamma_singlet_qed((4, 1), 2.5 + 1j, 6, (0,) * 7, False))


def test_array_n_is_one_call_per_point():
    n = _points(5, 6).reshape(2, 3)
    var = (1, 2, 0, 1, 2, 1, 0)
    shapes = {"gamma_singlet_qed": (5, 3, 4, 4), "gamma_valence_qed": (5, 3, 2, 2)}
    for name, tail in shapes.items():
        many = getattr(SL, name)((4, 2), n, 4, var)
        assert many.shape == (2, 3) + tail
        for idx in np.ndindex(2, 3):
            assert np.array_equal(many[idx], getattr(SL, name)((4, 2), n[idx], 4, var))
    for mode in MODES:
        many = SL.gamma_ns_qed((2, 1), mode, n, 5, var)
        assert many.shape == (2, 3, 3, 2)
        for idx in np.ndindex(2, 3):
            assert np.array_equal(many[idx], SL.gamma_ns_qed((2, 1), mode, n[idx], 5, var))


def test_refusals_name_the_argument():
    with pytest.raises(ekoc.EkocFieldError, match="mode"):
        SL.gamma_ns_qed((2, 1), 10101, 2.5, 4, (0,) * 7)
    for qed in (0, 3):
        with pytest.raises(ekoc.EkocFieldError, match=r"order\[1\]"):
            SL.gamma_singlet_qed((2, qed), 2.5, 4, (0,) * 7)
    with pytest.raises(ekoc.EkocError, match="order_qcd = 5"):
        SL.gamma_valence_qed((5, 1), 2.5, 4, (0,) * 7)
    with pytest.raises(ekoc.EkocError, match="nf = 7"):
        SL.gamma_valence_qed((2, 1), 2.5, 7, (0,) * 7)
    with pytest.raises(ekoc.EkocError, match="pole N = 1"):
        SL.gamma_singlet_qed((1, 1), 1.0, 4, (0,) * 7)
    with pytest.raises(ekoc.EkocFieldError, match="n3lo_ad_variation"):
        SL.gamma_ns_qed((4, 1), 10102, 2.5, 4, (0, 0, 0))
