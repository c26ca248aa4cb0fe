"""Unpolarized anomalous dimensions, as eko's ``ekore.anomalous_dimensions.unpolarized``."""

from . import space_like, time_like

__all__ = ["space_like", "time_like"]
