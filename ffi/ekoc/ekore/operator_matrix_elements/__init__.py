"""Heavy-quark matching OMEs, as eko's ``ekore.operator_matrix_elements``."""

from . import unpolarized

__all__ = ["unpolarized"]
