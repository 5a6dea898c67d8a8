"""pool_capacity_trend: daily used capacity per pool (defective)."""

from __future__ import annotations

from datetime import datetime

from semantics_lint.runtime import described_result

from .exports import load_rows


def pool_capacity_trend(pool: str) -> dict[str, object]:
    rows = load_rows(f"capacity_{pool}")
    return described_result(  # expect: SEM301
        series=[{"t": r["day"], "entity": pool, "metric": "used_tib", "value": r["used"]} for r in rows],
        provenance={"measuredAt": datetime(2024, 5, 1), "source": "unisphere"},  # expect: SEM203
    )


def pool_capacity_now(pool: str) -> dict[str, object]:
    rows = load_rows(f"capacity_{pool}")
    return described_result(
        facts=[{"entity": pool, "used_tib": rows[-1]["used"]}],
        provenance={"measuredAt": datetime.now(), "source": "unisphere"},  # expect: SEM204
    )
