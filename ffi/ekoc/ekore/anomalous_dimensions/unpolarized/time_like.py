"""Unpolarized time-like (fragmentation) anomalous dimensions, as eko's
``ekore.anomalous_dimensions.unpolarized.time_like``: LO to NNLO, a_s =
alpha_s/(4 pi), index k of the result the coefficient of a_s^(k+1), the
singlet in eko's own time-like layout [[qq, gq], [qg, gg]] (docs/physics.md §16.2)."""

from __future__ import annotations

from ... import _call
from .... import _errors
from ...._lib import load

__all__ = ["gamma_ns", "gamma_singlet"]

# the order of the sectors in ekore_gamma_ns_all_batch_tl's output
_MODES = (10101, 10201, 10200)


def gamma_ns(order, mode, n, nf):
    """gamma_T,ns^(0..order[0]-1)(N) of sector `mode` (10101 ns+, 10201 ns-,
    10200 nsV), as eko: shape (order[0],), or N.shape + (order[0],). eko gives
    any other mode its LO value and zeros; ekoc refuses it."""
    if mode not in _MODES:
        raise _errors.EkocFieldError("mode", mode, f"is not one of {list(_MODES)}")
    lib = load()
    qcd = _call.qcd_order(order, "order")
    towers = _call.evaluate(
        lambda re, im, count, out_re, out_im: lib.ekore_gamma_ns_all_batch_tl(
            qcd, re, im, count, nf, out_re, out_im),
        n, (3, qcd), "gamma_ns")
    return towers[..., _MODES.index(mode), :]


def gamma_singlet(order, n, nf):
    """The time-like singlet matrices gamma_T,S^(0..order[0]-1)(N) on (Sigma, g)
    in eko's layout: shape (order[0], 2, 2), or N.shape + (order[0], 2, 2)."""
    lib = load()
    qcd = _call.qcd_order(order, "order")
    return _call.evaluate(
        lambda re, im, count, out_re, out_im: lib.ekore_gamma_singlet_batch_tl(
            qcd, re, im, count, nf, out_re, out_im),
        n, (qcd, 2, 2), "gamma_singlet")
