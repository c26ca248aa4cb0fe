"""Unpolarized anomalous dimensions, as eko's ``ekore.anomalous_dimensions.unpolarized``."""

from . import space_like

__all__ = ["space_like"]
