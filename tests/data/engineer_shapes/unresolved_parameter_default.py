# A hard-coded date reached only through a parameter default, and one returned by a
# helper: neither is followed (a caller may pass another value; a function is never
# run), so neither is reported.
from semantics_lint.runtime import absent, described_result

DEFAULT_AT = "2024-01-01T00:00:00Z"


def latest(export):
    return export.taken_at


def report(rows, at=DEFAULT_AT, source="cmdb"):
    if not rows:
        return absent(what="rows", checked=["the CMDB"])
    return described_result(facts=[{"entity": r} for r in rows], provenance={"measuredAt": at, "source": source})


def report_latest(rows, export):
    if not rows:
        return absent(what="rows", checked=["the CMDB"])
    return described_result(facts=[{"entity": r} for r in rows], provenance={"measuredAt": latest(export), "source": "cmdb"})
