"""vm_snapshots: a data list proved empty by its scope, a branch, a guard, a case or a
conditional arm."""

from __future__ import annotations

from semantics_lint.runtime import absent, described_result

from .exports import load_rows


def stale_snapshots(cluster: str) -> dict[str, object]:
    rows = []
    export = load_rows(f"snapshots_{cluster}")
    return described_result(
        facts=rows,  # expect: SEM105
        provenance={"measuredAt": export[0]["read_at"], "source": "vcenter"},
    )


def snapshot_rows(cluster: str) -> list[dict[str, object]]:
    # Another function's rows: it grows, the one above does not.
    rows = load_rows(f"snapshots_{cluster}")
    rows.append({"entity": cluster})
    return rows


def snapshots_of(vm: str, rows: list[dict[str, object]], read_at: str) -> dict[str, object]:
    if not rows:
        return described_result(
            facts=rows,  # expect: SEM105
            provenance={"measuredAt": read_at, "source": "vcenter"},
        )
    return described_result(facts=rows, provenance={"measuredAt": read_at, "source": "vcenter"})


def snapshot_count(vm: str, rows: list[dict[str, object]], read_at: str) -> dict[str, object]:
    return described_result(
        facts=rows if rows else [],  # expect: SEM105
        provenance={"measuredAt": read_at, "source": "vcenter"},
    )


def snapshot_list(vm: str, rows: list[dict[str, object]], read_at: str) -> dict[str, object]:
    # Clean: nothing matched is an absence; a fallback row is not empty.
    if not rows:
        return absent(what=f"snapshots of {vm}", checked=["every snapshot in the vCenter export"])
    return described_result(
        facts=rows if rows else [{"entity": vm, "snapshots": 0}],
        provenance={"measuredAt": read_at, "source": "vcenter"},
    )


def snapshot_summary(vm: str, rows: list[dict[str, object]], read_at: str) -> dict[str, object]:
    if rows:
        newest = max(row["taken_at"] for row in rows)
        return described_result(
            facts=[{"entity": vm, "newest": newest}],
            provenance={"measuredAt": read_at, "source": "vcenter"},
        )
    return described_result(
        facts=rows,  # expect: SEM105
        provenance={"measuredAt": read_at, "source": "vcenter"},
    )


def snapshot_shapes(vm: str, rows: list[dict[str, object]], read_at: str) -> dict[str, object]:
    match rows:
        case []:
            return described_result(
                facts=rows,  # expect: SEM105
                provenance={"measuredAt": read_at, "source": "vcenter"},
            )
        case [only]:
            return described_result(facts=[only], provenance={"measuredAt": read_at, "source": "vcenter"})
        case _:
            return described_result(facts=rows, provenance={"measuredAt": read_at, "source": "vcenter"})


def snapshot_refresh(vm: str, rows: list[dict[str, object]], read_at: str) -> dict[str, object]:
    # Clean: the guard returns on rows, then the list is filled before the call.
    if rows:
        return described_result(facts=rows, provenance={"measuredAt": read_at, "source": "vcenter"})
    rows.extend(load_rows(f"snapshots_{vm}"))
    return described_result(facts=rows, provenance={"measuredAt": read_at, "source": "vcenter"})
