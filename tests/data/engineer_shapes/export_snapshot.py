"""Backup report: the snapshot's metadata lives in a module-level dict."""
from semantics_lint.runtime import absent, described_result

SNAPSHOT = {"taken_at": "2024-05-01T00:00:00Z", "source": "veeam export"}


def backup_report(jobs):
    rows = [{"entity": job.vm, "ok": job.ok} for job in jobs]
    if not rows:
        return absent(what="backup jobs", checked=["the Veeam export"])
    return described_result(
        facts=rows,
        provenance={"measuredAt": SNAPSHOT["taken_at"], "source": SNAPSHOT["source"]},  # expect: SEM203
    )
