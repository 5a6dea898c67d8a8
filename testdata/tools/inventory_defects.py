"""Protected-job inventory with planted mistakes, one per marked line.

Each planted defect carries ``# expect: CODE`` on the line the linter reports it on;
tests/test_corpus.py checks that exactly these are found and nothing else.
"""

from __future__ import annotations

from semantics_lint.runtime import absent, described_result


def load_jobs(cluster: str) -> list[dict[str, object]]:
    raise NotImplementedError("reads the inventory export of the cluster")


def protected_jobs(cluster: str, export: dict[str, str]) -> dict[str, object]:
    jobs = load_jobs(cluster)
    if not jobs:
        return absent(what=f"protection jobs on {cluster}", checked=["the inventory export"])
    return described_result(
        facts=[{"entity": job["name"], "policy": job["policy"]} for job in jobs],
        provenance={"measured_at": export["exported_at"], "source": export["source"]},  # expect: SEM102
        render={"default": "table", "columns": ["entity", "policy"]},
    )


def jobs_by_site(cluster: str) -> dict[str, object]:
    return described_result(
        facts=[],  # expect: SEM105
        provenance={"measuredAt": "2024-05-01T00:00:00Z", "source": "cohesity"},  # expect: SEM203
    )


def replicated_job_counts(cluster: str, export: dict[str, str]) -> dict[str, object]:
    counts = load_jobs(cluster)
    return described_result(  # expect: SEM201
        series=[{"t": c["day"], "entity": cluster, "metric": "jobs", "value": c["n"]} for c in counts],
        grain={"interval": "daily", "aggregation": "sum"},  # expect: SEM302
    )
