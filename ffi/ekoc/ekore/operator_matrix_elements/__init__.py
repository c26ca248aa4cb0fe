"""Heavy-quark matching OMEs, as eko's ``ekore.operator_matrix_elements``."""

from . import polarized, unpolarized

__all__ = ["polarized", "unpolarized"]
