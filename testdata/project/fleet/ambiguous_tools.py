"""Names whose value cannot be proved: no finding here, ever."""

from __future__ import annotations

from semantics_lint.runtime import absent, define_tool, described_result

from .constants import CUTOFF_DAY, GROWING_ROWS
from .exports import load_rows
from .missing import MISSING_DAY
from .runners import imported_execute

day = "2024-05-01"
TWICE = "2024-05-01"
TWICE = "2024-06-01"
LATER = "2024-05-01"
EMPTY_THEN_FILLED: list[dict[str, object]] = []
EMPTY_THEN_FILLED.append({"entity": "cluster-a"})


def bump() -> None:
    global LATER
    LATER = "2024-06-01"


def bound_twice(vm: str) -> dict[str, object]:
    runs = load_rows(f"runs_{vm}")
    if not runs:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    return described_result(
        facts=[{"entity": vm}],
        provenance={"measuredAt": TWICE, "source": "backup export"},
    )


def imported_twice(vm: str) -> dict[str, object]:
    runs = load_rows(f"runs_{vm}")
    if not runs:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    return described_result(
        facts=[{"entity": vm}],
        provenance={"measuredAt": CUTOFF_DAY, "source": "backup export"},
    )


def rebound_by_global(vm: str) -> dict[str, object]:
    runs = load_rows(f"runs_{vm}")
    if not runs:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    return described_result(
        facts=[{"entity": vm}],
        provenance={"measuredAt": LATER, "source": "backup export"},
    )


def rebound_in_branches(vm: str, fast: bool) -> dict[str, object]:
    runs = load_rows(f"runs_{vm}")
    if fast:
        stamp = "2024-05-01"
    else:
        stamp = "2024-06-01"
    if not runs:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    return described_result(
        facts=[{"entity": vm}],
        provenance={"measuredAt": stamp, "source": "backup export"},
    )


def rebound_in_a_loop(vm: str) -> dict[str, object]:
    runs = load_rows(f"runs_{vm}")
    stamp = "unknown"
    for run in runs:
        stamp = run["day"]
    if not runs:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    return described_result(
        facts=[{"entity": vm}],
        provenance={"measuredAt": stamp, "source": "backup export"},
    )


def from_a_parameter(vm: str, day: str) -> dict[str, object]:
    runs = load_rows(f"runs_{vm}")
    if not runs:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    return described_result(
        facts=[{"entity": vm}],
        provenance={"measuredAt": day, "source": "backup export"},
    )


def from_a_missing_module(vm: str) -> dict[str, object]:
    runs = load_rows(f"runs_{vm}")
    if not runs:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    return described_result(
        facts=[{"entity": vm}],
        provenance={"measuredAt": MISSING_DAY, "source": "backup export"},
    )


def filled_after_binding(vm: str) -> dict[str, object]:
    export = load_rows("export_meta")[0]
    if not export:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    return described_result(
        facts=EMPTY_THEN_FILLED,
        edges=GROWING_ROWS,
        provenance={"measuredAt": export["exported_at"], "source": "backup export"},
    )


SHADOWED = define_tool(
    name="shadowed",
    # The lambda's parameter shadows the module's ``day``.
    execute=lambda day: described_result(
        facts=[{"entity": "cluster-a"}],
        provenance={"measuredAt": day, "source": "backup export"},
    ),
)
ELSEWHERE = define_tool(name="elsewhere", resultClass="triage", execute=imported_execute)
