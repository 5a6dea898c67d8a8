from semantics_lint.runtime import absent, described_result


def events(e, more):
    rows = e.rows
    alias = rows
    if not rows:
        alias.extend(more)
        return described_result(facts=rows, provenance={"measuredAt": e.at, "source": "syslog"})
    return absent(what="events", checked=["syslog"])
