"""vm_backup_status: backup posture for one VM (clean)."""

from __future__ import annotations

from semantics_lint.runtime import absent, define_tool, described_result

from .exports import load_backup_export


def vm_backup_status(vm: str) -> dict[str, object]:
    export = load_backup_export()
    runs = [run for run in export.runs if run.vm == vm]
    if not runs:
        return absent(
            what=f"backup runs for {vm}",
            checked=[f"every backup job in the export of {export.exported_at}"],
            tryInstead="ask for the VM's cluster by name",
        )
    latest = runs[-1]
    return described_result(
        facts=[{"entity": vm, "backed_up": latest.ok == 1, "runs_seen": len(runs)}],
        series=[{"t": r.day, "entity": vm, "metric": "backup_runs_ok", "value": r.ok} for r in runs],
        grain={"interval": "daily", "aggregation": "count", "isCounter": False},
        provenance={"measuredAt": export.exported_at, "source": export.source},
        coverage={
            "checked": [f"every backup job in the export of {export.exported_at}"],
            "cannotCover": [{"what": "PPDM", "why": "not collected on this install"}],
        },
        render={"default": "table", "columns": ["entity", "backed_up"], "sort": "entity"},
    )


BACKUP_STATUS = define_tool(
    name="vm_backup_status",
    description="Backup posture for one VM across the Cohesity clusters",
    resultClass="triage",
    execute=vm_backup_status,
)
