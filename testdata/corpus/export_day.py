"""weekly_report: a date typed into the tool through a module constant (defective)."""

from __future__ import annotations

from semantics_lint.runtime import described_result

from .exports import load_rows

REPORT_DAY = "2024-06-30"


def weekly_report(team: str) -> dict[str, object]:
    rows = load_rows(f"weekly_{team}")
    return described_result(
        facts=[{"entity": team, "incidents": len(rows)}],
        provenance={"measuredAt": REPORT_DAY, "source": "servicenow"},  # expect: SEM203
    )
