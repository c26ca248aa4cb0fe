"""Polarized (helicity-difference) space-like anomalous dimensions, as eko's
``ekore.anomalous_dimensions.polarized.space_like``: LO to NNLO, a_s =
alpha_s/(4 pi), index k of the result the coefficient of a_s^(k+1)
(docs/physics.md §16.1). eko's polarized functions take no N3LO arguments."""

from __future__ import annotations

from ... import _call
from .... import _errors
from ...._lib import load

__all__ = ["gamma_ns", "gamma_singlet"]

# the crate's order of the three non-singlet towers (ekore_gamma_ns_all_batch_pol)
_MODES = (10101, 10201, 10200)


def gamma_ns(order, mode, n, nf):
    """Delta gamma_ns^(0..order[0]-1)(N) of non-singlet sector `mode` (10101
    ns+, 10201 ns-, 10200 nsV), as eko: shape (order[0],), or N.shape +
    (order[0],). An unknown mode is refused at every order (eko raises from
    NLO on)."""
    if mode not in _MODES:
        raise _errors.EkocFieldError("mode", mode, f"is not one of {list(_MODES)}")
    lib = load()
    qcd = _call.qcd_order(order, "order")
    towers = _call.evaluate(
        lambda re, im, count, out_re, out_im: lib.ekore_gamma_ns_all_batch_pol(
            qcd, re, im, count, nf, out_re, out_im),
        n, (3, qcd), "gamma_ns")
    return towers[..., _MODES.index(mode), :]


def gamma_singlet(order, n, nf):
    """The singlet matrices Delta gamma_S^(0..order[0]-1)(N) on (Delta Sigma,
    Delta g), as eko: shape (order[0], 2, 2), or N.shape + that. Finite at
    N = 1 (no pole there, unlike the unpolarized singlet)."""
    lib = load()
    qcd = _call.qcd_order(order, "order")
    return _call.evaluate(
        lambda re, im, count, out_re, out_im: lib.ekore_gamma_singlet_batch_pol(
            qcd, re, im, count, nf, out_re, out_im),
        n, (qcd, 2, 2), "gamma_singlet")
