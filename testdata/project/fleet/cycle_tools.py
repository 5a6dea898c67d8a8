"""A name imported through a cycle has no provable value."""

from __future__ import annotations

from semantics_lint.runtime import absent, described_result

from .cycle_a import WINDOW_DAY
from .exports import load_rows


def backup_window(vm: str) -> dict[str, object]:
    runs = load_rows(f"runs_{vm}")
    if not runs:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    return described_result(
        facts=[{"entity": vm}],
        provenance={"measuredAt": WINDOW_DAY, "source": "backup export"},
    )
