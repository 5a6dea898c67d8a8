from semantics_lint.runtime import absent, described_result


def pick(feed, export):
    rows = []
    if feed.ready:
        rows = [{"entity": f} for f in feed]
    if export.stale:
        return absent(what="rows", checked=["a stale export"])
    return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "feed"})
