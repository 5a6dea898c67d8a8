"""Backup posture for one VM across the Cohesity clusters (a clean tool module).

Every value in the declarations comes from the data: the export's own timestamp is
``measuredAt``, the export's system is ``source``, and an empty match is an
``absent(...)`` answer, never an empty list.
"""

from __future__ import annotations

from dataclasses import dataclass

from semantics_lint.runtime import absent, described_result


@dataclass(frozen=True)
class Run:
    vm: str
    day: str
    ok: int
    copies: int


@dataclass(frozen=True)
class BackupExport:
    exported_at: str
    source: str
    runs: tuple[Run, ...]


def vm_backup_status(export: BackupExport, vm: str) -> dict[str, object]:
    runs = [run for run in export.runs if run.vm == vm]  # the export lists runs oldest first
    if not runs:
        return absent(
            what=f"backup runs for {vm}",
            checked=[f"every backup job in the export of {export.exported_at}"],
        )
    latest = runs[-1]
    return described_result(
        facts=[{"entity": vm, "backed_up": latest.ok == 1, "copies": latest.copies}],
        series=[
            {"t": run.day, "entity": vm, "metric": "backup_runs_ok", "value": run.ok}
            for run in runs
        ],
        # One day's count of successful runs: adding days gives the week's total,
        # so it is not a counter.
        grain={"interval": "daily", "aggregation": "count", "isCounter": False},
        provenance={"measuredAt": export.exported_at, "source": export.source},
        coverage={
            "checked": [f"every backup job in the export of {export.exported_at}"],
            "cannotCover": [{"what": "PPDM", "why": "not collected on this install"}],
        },
        render={"default": "table", "columns": ["entity", "backed_up", "copies"], "sort": "entity"},
    )
