"""Anomalous dimensions, as eko's ``ekore.anomalous_dimensions``."""

from . import polarized, unpolarized

__all__ = ["polarized", "unpolarized"]
