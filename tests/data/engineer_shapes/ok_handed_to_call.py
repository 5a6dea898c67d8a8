from semantics_lint.runtime import absent, described_result


def collect(feed, into):
    into.extend(item for item in feed if item.ok)


def healthy(feed, export):
    rows = []
    collect(feed, into=rows)
    if not rows:
        return absent(what="healthy services", checked=["the feed"])
    return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "consul"})
