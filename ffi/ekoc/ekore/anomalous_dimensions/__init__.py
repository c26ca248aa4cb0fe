"""Anomalous dimensions, as eko's ``ekore.anomalous_dimensions``."""

from . import unpolarized

__all__ = ["unpolarized"]
