"""Polarized heavy-quark matching OMEs, as eko's ``ekore.operator_matrix_elements.polarized``."""

from . import space_like

__all__ = ["space_like"]
