"""Unpolarized space-like anomalous dimensions, as eko's
``ekore.anomalous_dimensions.unpolarized.space_like``: LO to N3LO (both of
eko's N3LO variants and its n3lo_ad_variation), a_s = alpha_s/(4 pi), index k
of the result the coefficient of a_s^(k+1) (docs/physics.md §1)."""

from __future__ import annotations

from ... import _call
from ...._lib import load

__all__ = ["gamma_ns", "gamma_singlet"]


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
