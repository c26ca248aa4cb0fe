"""Unpolarized space-like anomalous dimensions, as eko's
``ekore.anomalous_dimensions.unpolarized.space_like``: LO to N3LO (both of
eko's N3LO variants and its n3lo_ad_variation), a_s = alpha_s/(4 pi), index k
of the result the coefficient of a_s^(k+1) (docs/physics.md §1); and eko's QED
grids (gamma_ns_qed, gamma_singlet_qed, gamma_valence_qed), index [i][j] the
coefficient of a_s^i a_em^j, a_em = alpha_em/(4 pi) (docs/physics.md §15.1)."""

from __future__ import annotations

import numpy as np

from ... import _call
from .... import _errors, _fields as F
from ...._lib import load

__all__ = ["gamma_ns", "gamma_singlet", "gamma_ns_qed", "gamma_singlet_qed", "gamma_valence_qed"]


def gamma_ns(order, mode, n, nf, n3lo_ad_variation, use_fhmruvv=True):
    """gamma_ns^(0..order[0]-1)(N) of non-singlet sector `mode` (10101 ns+,
    10201 ns-, 10200 nsV), as eko: shape (order[0],), or N.shape + (order[0],)."""
    lib = load()
    qcd = _call.qcd_order(order, "order")
    choice = _call.n3lo_choice(n3lo_ad_variation, use_fhmruvv)
    return _call.evaluate(
        lambda re, im, count, out_re, out_im: lib.ekore_gamma_ns_batch_n3lo(
            qcd, mode, choice, re, im, count, nf, out_re, out_im),
        n, (qcd,), "gamma_ns")


def gamma_singlet(order, n, nf, n3lo_ad_variation, use_fhmruvv=True):
    """The singlet matrices gamma_S^(0..order[0]-1)(N) on (Sigma, g), as eko:
    shape (order[0], 2, 2), or N.shape + (order[0], 2, 2)."""
    lib = load()
    qcd = _call.qcd_order(order, "order")
    choice = _call.n3lo_choice(n3lo_ad_variation, use_fhmruvv)
    return _call.evaluate(
        lambda re, im, count, out_re, out_im: lib.ekore_gamma_singlet_batch_n3lo(
            qcd, choice, re, im, count, nf, out_re, out_im),
        n, (qcd, 2, 2), "gamma_singlet")


# eko's QED grids (docs/physics.md §15.1): ekore_gamma_qed_batch's sectors and
# the order of its non-singlet modes
_QED_NS, _QED_VALENCE, _QED_SINGLET = 0, 1, 2
_QED_MODES = (10102, 10103, 10202, 10203)


def _qed(sector, order, n, nf, n3lo_ad_variation, use_fhmruvv, where):
    """The crate's grids of `sector`, shaped N.shape + eko's per-point array
    ((4 modes,) + (qcd+1, qed+1) for the non-singlet, (qcd+1, qed+1, k, k) else)."""
    lib = load()
    qcd, qed = _call.qed_orders(order, "order")
    nf = F.integer(nf, "nf", 0)
    choice = _call.n3lo_choice(n3lo_ad_variation, use_fhmruvv)
    tail = {_QED_NS: (4, qcd + 1, qed + 1), _QED_VALENCE: (qcd + 1, qed + 1, 2, 2),
            _QED_SINGLET: (qcd + 1, qed + 1, 4, 4)}[sector]
    width = lib.ekore_gamma_qed_len(sector, qcd, qed)
    # 0: an argument the crate refuses (it then writes nothing and names it)
    if width not in (0, int(np.prod(tail))):
        raise RuntimeError(f"{where}: the crate writes {width} values per point, the mirror expects {tail}")
    return _call.evaluate(
        lambda re, im, count, out_re, out_im: lib.ekore_gamma_qed_batch(
            sector, qcd, qed, choice, re, im, count, nf, out_re, out_im),
        n, tail, where)


def gamma_ns_qed(order, mode, n, nf, n3lo_ad_variation, use_fhmruvv=True):
    """The QED non-singlet grid gamma^(i,j)(N) (coefficient of a_s^i a_em^j) of
    `mode` (10102 / 10103 ns+ up / down, 10202 / 10203 ns- up / down), as eko:
    shape (order[0]+1, order[1]+1), or N.shape + that."""
    if mode not in _QED_MODES:
        raise _errors.EkocFieldError("mode", mode, f"is not one of {list(_QED_MODES)}")
    # the crate writes all four modes, [mode][i][j] per point
    grids = _qed(_QED_NS, order, n, nf, n3lo_ad_variation, use_fhmruvv, "gamma_ns_qed")
    return grids[..., _QED_MODES.index(mode), :, :]


def gamma_singlet_qed(order, n, nf, n3lo_ad_variation, use_fhmruvv=True):
    """The QED singlet grid of 4x4 matrices on (g, photon, Sigma, Sigma_Delta),
    as eko: shape (order[0]+1, order[1]+1, 4, 4), or N.shape + that."""
    return _qed(_QED_SINGLET, order, n, nf, n3lo_ad_variation, use_fhmruvv, "gamma_singlet_qed")


def gamma_valence_qed(order, n, nf, n3lo_ad_variation, use_fhmruvv=True):
    """The QED valence grid of 2x2 matrices on (V, V_Delta), as eko: shape
    (order[0]+1, order[1]+1, 2, 2), or N.shape + that."""
    return _qed(_QED_VALENCE, order, n, nf, n3lo_ad_variation, use_fhmruvv, "gamma_valence_qed")
