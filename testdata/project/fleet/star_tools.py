"""A star import may bind any name, so no module-level name here is followed."""

from __future__ import annotations

from semantics_lint.runtime import absent, described_result

from .constants import *  # noqa: F403
from .exports import load_rows

LOCAL_DAY = "2024-05-01"


def backup_day(vm: str) -> dict[str, object]:
    runs = load_rows(f"runs_{vm}")
    if not runs:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    return described_result(
        facts=[{"entity": vm}],
        provenance={"measuredAt": EXPORT_DATE, "source": "backup export"},  # noqa: F405
    )


def backup_local(vm: str) -> dict[str, object]:
    runs = load_rows(f"runs_{vm}")
    if not runs:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    return described_result(
        facts=[{"entity": vm}],
        provenance={"measuredAt": LOCAL_DAY, "source": "backup export"},
    )
