"""Unpolarized OMEs, as eko's ``ekore.operator_matrix_elements.unpolarized``."""

from . import space_like

__all__ = ["space_like"]
