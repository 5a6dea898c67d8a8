"""Half of an import cycle: neither half binds the name it imports."""

from .cycle_b import WINDOW_DAY

__all__ = ["WINDOW_DAY"]
