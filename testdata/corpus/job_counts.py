"""protected_job_counts: local and replicated jobs per cluster (defective grain)."""

from __future__ import annotations

from semantics_lint.runtime import absent, described_result

from .exports import load_rows


def protected_job_counts(cluster: str) -> dict[str, object]:
    rows = load_rows(f"jobs_{cluster}")
    if not rows:
        return absent(what=f"jobs on {cluster}", checked=["the protection job export"])
    return described_result(
        series=[
            {"t": r["day"], "entity": cluster, "metric": "jobs_local", "value": r["local"]}
            for r in rows
        ],
        grain={"interval": "daily", "aggregation": "Total jobs"},  # expect: SEM302
        provenance={"measuredAt": rows[-1]["exported_at"], "source": "cohesity"},
    )


def replicated_job_counts(cluster: str) -> dict[str, object]:
    rows = load_rows(f"jobs_{cluster}")
    if not rows:
        return absent(what=f"replicated jobs on {cluster}", checked=["the protection job export"])
    return described_result(
        series=[
            {"t": r["day"], "entity": cluster, "metric": "jobs_replicated_in", "value": r["in"]}
            for r in rows
        ],
        grain={"interval": "daily", "aggregation": "summary"},
        provenance={"measuredAt": rows[-1]["exported_at"], "source": "cohesity"},
    )
