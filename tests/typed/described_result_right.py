"""Right ``described_result`` declarations: both checkers are silent, the mint accepts each.

The first two are whole declarations as the README writes them.
"""

from __future__ import annotations

import json
from typing import Any

from _data import EXPORT

from semantics_lint.runtime import (
    Coverage,
    DescribedResultDeclaration,
    Provenance,
    ToolAbsence,
    ToolSemantics,
    absent,
    described_result,
)


def right_readme_backup_status(vm: str = "vm-01") -> ToolSemantics | ToolAbsence:
    runs = [r for r in EXPORT.runs if r.vm == vm]
    if not runs:
        return absent(
            what=f"backup runs for {vm}",
            checked=[f"every backup job in the export of {EXPORT.exported_at}"],
        )
    return described_result(
        series=[
            {"t": r.day, "entity": vm, "metric": "backup_runs_ok", "value": r.ok} for r in runs
        ],
        grain={"interval": "daily", "aggregation": "count", "isCounter": False},
        provenance={"measuredAt": EXPORT.exported_at, "source": EXPORT.source},
        coverage={
            "checked": [f"every backup job in the export of {EXPORT.exported_at}"],
            "cannotCover": [{"what": "PPDM", "why": "not collected on this install"}],
        },
    )


def right_spec_facts_series_and_render(vm: str = "vm-01") -> ToolSemantics:
    runs = [r for r in EXPORT.runs if r.vm == vm]
    latest = runs[-1]
    return described_result(
        facts=[{"entity": vm, "backed_up": latest.ok == 1, "copies": latest.copies}],
        series=[
            {"t": r.day, "entity": vm, "metric": "backup_runs_ok", "value": r.ok} for r in runs
        ],
        grain={"interval": "daily", "aggregation": "count", "isCounter": False},
        provenance={"measuredAt": EXPORT.exported_at, "source": EXPORT.source},
        coverage={
            "checked": [f"every backup job in the export of {EXPORT.exported_at}"],
            "cannotCover": [{"what": "PPDM", "why": "not collected on this install"}],
        },
        render={"default": "table", "columns": ["entity", "backed_up"], "sort": "entity"},
    )


def right_facts_with_provenance_only() -> ToolSemantics:
    failed = [r for r in EXPORT.runs if r.ok == 0]
    return described_result(
        facts=[{"entity": "vm-01", "failed_runs": len(failed), "runs_seen": len(EXPORT.runs)}],
        provenance={"measuredAt": EXPORT.exported_at, "source": EXPORT.source, "ageSeconds": 60},
    )


def right_clarify_only_needs_no_provenance() -> ToolSemantics:
    names = ["acme", "acme-labs"]
    return described_result(
        clarify={"question": f"{len(names)} customers match - which one?", "candidates": names}
    )


def right_edges_only_need_no_provenance() -> ToolSemantics:
    return described_result(edges=[{"from": "vm-01", "to": "ds-7", "kind": "rides", "weight": 1}])


def right_one_positional_dict() -> ToolSemantics:
    return described_result(
        {
            "facts": [{"entity": "vm-01", "backed_up": True}],
            "provenance": {"measuredAt": EXPORT.exported_at, "source": EXPORT.source},
        }
    )


def right_parts_built_apart_and_annotated() -> ToolSemantics:
    provenance: Provenance = {"measuredAt": EXPORT.exported_at, "source": EXPORT.source}
    ground: Coverage = {"checked": ["every job in the export"], "notChecked": ["the archive"]}
    declaration: DescribedResultDeclaration = {
        "facts": [{"entity": "vm-01"}],
        "provenance": provenance,
        "coverage": ground,
    }
    return described_result(declaration)


def right_declaration_loaded_at_run_time() -> ToolSemantics:
    # A value typed Any (JSON, a foreign minter) is the runtime's to judge.
    declaration: Any = json.loads('{"edges": [{"from": "vm-01", "to": "ds-7", "kind": "rides"}]}')
    return described_result(declaration)


def right_rows_from_a_variable(vm: str = "vm-01") -> ToolSemantics | ToolAbsence:
    rows = [{"entity": r.vm, "day": r.day, "copies": r.copies} for r in EXPORT.runs if r.vm == vm]
    if not rows:
        return absent(what=f"runs of {vm}", checked=["every job in the export"])
    return described_result(
        facts=rows, provenance={"measuredAt": EXPORT.exported_at, "source": EXPORT.source}
    )


def right_envelope_read_in_wire_spelling() -> str:
    envelope = right_facts_with_provenance_only()
    lines = envelope.get("not_covered", [])
    if "provenance" not in envelope:  # a clarify-only or edges-only envelope has none
        return f"no provenance ({len(lines)} gaps)"
    provenance = envelope["provenance"]
    return f"{provenance['measured_at']} from {provenance['source']} ({len(lines)} gaps)"
