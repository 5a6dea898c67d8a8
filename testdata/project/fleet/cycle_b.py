"""The other half of the import cycle."""

from .cycle_a import WINDOW_DAY

__all__ = ["WINDOW_DAY"]
