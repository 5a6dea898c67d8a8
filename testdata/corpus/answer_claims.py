"""protected_jobs_answer: the final answer held to the job counts the run settled."""

from __future__ import annotations

from semantics_lint.runtime import run_record

from .job_counts import protected_job_counts


def protected_jobs_answer(cluster: str, answer: dict[str, object]) -> object:
    with run_record(claims={"protected_jobs": {"entity": cluster, "field": "jobs_local"}}) as run:
        protected_job_counts(cluster)
        checked = run.check_claims(answer)
    with run_record(claims={"replicated": {"entity": cluster, "field": ""}}) as run:  # expect: SEM701
        run.check_claims(answer)
    return checked
