from semantics_lint.runtime import absent, described_result


class Jobs:
    EXPORTED_AT = "2024-08-01T12:00:00Z"


def failed_jobs(jobs):
    failed = [{"entity": j.name} for j in jobs if not j.ok]
    if failed:
        return described_result(facts=failed, provenance={"measuredAt": Jobs.EXPORTED_AT, "source": "cron"})  # expect: SEM203
    return absent(what="failed jobs", checked=["the cron log"])
