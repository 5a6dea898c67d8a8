from semantics_lint.runtime import absent, described_result


def batches(feed, export):
    rows = []
    for batch in feed:
        rows = rows + [{"entity": item} for item in batch]
    if feed.failed:
        return absent(what="rows", checked=["the feed"])
    return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "kafka"})
