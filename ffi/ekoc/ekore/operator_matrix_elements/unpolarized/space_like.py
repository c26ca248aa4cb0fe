"""Unpolarized space-like heavy-quark matching OMEs, as eko's
``ekore.operator_matrix_elements.unpolarized.space_like``: A^(1..3) with
their L = ln(mu^2/m_h^2) dependence, pole or MSbar masses (docs/physics.md §4,
§17)."""

from __future__ import annotations

from ... import _call
from ...._lib import load

__all__ = ["A_non_singlet", "A_singlet"]


def A_singlet(matching_order, n, nf, L, is_msbar):
    """The singlet OMEs on (g, q, H), as eko: shape (matching_order[0], 3, 3),
    or N.shape + that. `nf` light flavours below the threshold. is_msbar
    (MSbar heavy-quark masses) adds eko's MSbar terms to A^(2)_gg and A^(2)_Hg
    (ekore_ome_singlet_msbar)."""
    lib = load()
    order = _call.qcd_order(matching_order, "matching_order")
    msbar = 1 if is_msbar else 0
    return _call.per_point(
        lambda re, im, out_re, out_im: lib.ekore_ome_singlet_msbar(order, 0, msbar, re, im, nf, float(L), out_re,
                                                                   out_im),
        n, (order, 3, 3), "A_singlet")


def A_non_singlet(matching_order, n, nf, L):
    """The non-singlet OMEs on (q, H), as eko: shape (matching_order[0], 2, 2),
    or N.shape + that."""
    lib = load()
    order = _call.qcd_order(matching_order, "matching_order")
    return _call.per_point(
        lambda re, im, out_re, out_im: lib.ekore_ome_ns(order, re, im, nf, float(L), out_re, out_im),
        n, (order, 2, 2), "A_non_singlet")
