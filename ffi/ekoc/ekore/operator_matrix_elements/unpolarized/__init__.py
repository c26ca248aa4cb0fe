"""Unpolarized OMEs, as eko's ``ekore.operator_matrix_elements.unpolarized``."""

from . import space_like, time_like

__all__ = ["space_like", "time_like"]
