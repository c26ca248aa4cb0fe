"""Polarized anomalous dimensions, as eko's ``ekore.anomalous_dimensions.polarized``."""

from . import space_like

__all__ = ["space_like"]
