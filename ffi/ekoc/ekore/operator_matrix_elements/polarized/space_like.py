"""Polarized space-like heavy-quark matching OMEs, as eko's
``ekore.operator_matrix_elements.polarized.space_like``: A^(1), A^(2) with
their L = ln(mu^2/m_h^2) dependence (docs/physics.md §16.1). eko's polarized
OMEs have no MSbar-mass or intrinsic terms and take no `is_msbar`."""

from __future__ import annotations

from ... import _call
from ...._lib import load

__all__ = ["A_non_singlet", "A_singlet"]

# the crate checks nf also where it does not enter (the non-singlet OMEs)
_NF_UNUSED = 3


def A_singlet(matching_order, n, nf, L):
    """The singlet OMEs on (g, q, H), as eko: shape (matching_order[0], 3, 3),
    or N.shape + that. `nf` light flavours below the threshold."""
    lib = load()
    order = _call.qcd_order(matching_order, "matching_order")
    return _call.per_point(
        lambda re, im, out_re, out_im: lib.ekore_ome_singlet_pol(order, re, im, nf, float(L), out_re, out_im),
        n, (order, 3, 3), "A_singlet")


def A_non_singlet(matching_order, n, L):
    """The non-singlet OMEs on (q, H), as eko: shape (matching_order[0], 2, 2),
    or N.shape + that (A^(1) = 0; eko's signature has no nf)."""
    lib = load()
    order = _call.qcd_order(matching_order, "matching_order")
    return _call.per_point(
        lambda re, im, out_re, out_im: lib.ekore_ome_ns_pol(order, re, im, _NF_UNUSED, float(L), out_re, out_im),
        n, (order, 2, 2), "A_non_singlet")
