"""weekly_digest: dates and sources shared through the package's constants module (defective)."""

from __future__ import annotations

from semantics_lint.runtime import absent, described_result

from .constants import EXPORT_DAY, SOURCE
from .exports import load_rows


def weekly_digest(team: str) -> dict[str, object]:
    tickets = load_rows(f"tickets_{team}")
    if not tickets:
        return absent(what=f"tickets of {team}", checked=["the weekly ticket export"])
    return described_result(
        facts=[{"entity": team, "opened": len(tickets)}],
        provenance={"measuredAt": EXPORT_DAY, "source": SOURCE},  # expect: SEM203
    )
