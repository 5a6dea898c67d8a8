"""snapshot_age: how old the newest snapshot of a volume is (defective provenance)."""

from __future__ import annotations

from semantics_lint.runtime import described_result

from .exports import load_rows


def snapshot_age(volume: str) -> dict[str, object]:
    snaps = load_rows(f"snapshots_{volume}")
    newest = snaps[-1]
    return described_result(
        facts=[{"entity": volume, "snapshot": newest["name"]}],
        provenance={"measuredAt": newest["taken_at"], "source": "powerstore", "ageSeconds": -5},  # expect: SEM205
    )


def snapshot_list(volume: str) -> dict[str, object]:
    snaps = load_rows(f"snapshots_{volume}")
    return described_result(
        facts=[{"entity": s["name"], "volume": volume} for s in snaps],
        provenance={"source": "powerstore"},  # expect: SEM202
    )


def snapshot_names(volume: str) -> dict[str, object]:
    snaps = load_rows(f"snapshots_{volume}")
    return described_result(  # expect: SEM201
        facts=[{"entity": s["name"], "volume": volume} for s in snaps],
    )
