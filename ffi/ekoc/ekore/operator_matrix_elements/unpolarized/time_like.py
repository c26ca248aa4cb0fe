"""Unpolarized time-like heavy-quark matching OMEs, as eko's
``ekore.operator_matrix_elements.unpolarized.time_like``: eko has A^(1) only
and returns zeros for the higher terms of the matching order, and so does
this mirror (docs/physics.md §16.2). L = ln(mu^2/m_h^2)."""

from __future__ import annotations

import numpy as np

from ... import _call
from .... import _fields as F
from ...._lib import load

__all__ = ["A_non_singlet", "A_singlet"]

# the crate checks nf although the time-like OMEs do not depend on it
_ANY_NF = 4


def _tower(matching_order, n, L, entry, size, where):
    """A^(1) from the crate followed by matching_order[0] - 1 zero matrices."""
    lib = load()
    order = F.integer(_call.qcd_order(matching_order, "matching_order"), "matching_order[0]", 1)
    first = _call.per_point(
        lambda re, im, out_re, out_im: getattr(lib, entry)(1, re, im, _ANY_NF, float(L), out_re, out_im),
        n, (1, size, size), where)
    zeros = np.zeros(first.shape[:-3] + (order - 1, size, size), dtype=np.complex128)
    return np.concatenate([first, zeros], axis=-3)


def A_singlet(matching_order, n, L):
    """The singlet OMEs on (g, q, H), as eko: shape (matching_order[0], 3, 3),
    or N.shape + that; only A^(1) is nonzero (A_gg at [0][0], A_Hg at [2][0])."""
    return _tower(matching_order, n, L, "ekore_ome_singlet_tl", 3, "A_singlet")


def A_non_singlet(matching_order, n, L):
    """The non-singlet OMEs on (q, H), as eko: shape (matching_order[0], 2, 2),
    or N.shape + that; all zero in eko."""
    return _tower(matching_order, n, L, "ekore_ome_ns_tl", 2, "A_non_singlet")
