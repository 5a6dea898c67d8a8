"""Values the fleet tools share."""

from __future__ import annotations

from datetime import datetime

from .base import REPORTING_DAY

EXPORT_DATE = "2024-05-01"
EXPORT_STAMP = datetime(2024, 5, 1, 6, 0)
STARTED = datetime.now()
NEGATIVE_AGE = -5
NO_ROWS: list[dict[str, object]] = []
TRIAGE = "triage"
INVENTORY = "inventory"
ODD_CLASS = "report"

__all__ = ["REPORTING_DAY", "EXPORT_DATE", "EXPORT_STAMP", "STARTED", "NEGATIVE_AGE"]

# Not provable, so never followed: bound twice, or changed after binding.
CUTOFF_DAY = "2024-05-01"
CUTOFF_DAY = "2024-06-01"
GROWING_ROWS: list[dict[str, object]] = []
GROWING_ROWS.append({"entity": "cluster-a"})
