from semantics_lint.runtime import absent, described_result

SNAPSHOT = {"taken_at": "2024-05-01T00:00:00Z", "source": "veeam export"}


def load(export):
    SNAPSHOT["taken_at"] = export.exported_at


def backup_report(jobs):
    if not jobs:
        return absent(what="backup jobs", checked=["the Veeam export"])
    return described_result(facts=[{"entity": j.vm} for j in jobs], provenance={"measuredAt": SNAPSHOT["taken_at"], "source": SNAPSHOT["source"]})
