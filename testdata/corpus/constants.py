"""Shared constants of the tool package (no declarations)."""

from __future__ import annotations

SOURCE = "cohesity"
EXPORT_DAY = "2024-05-01"
