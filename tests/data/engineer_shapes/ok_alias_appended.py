from semantics_lint.runtime import absent, described_result


def gather(feed, export):
    changes: list[dict] = []
    pending = changes
    for item in feed:
        pending.append({"entity": item.name})
    rows = changes
    if feed.truncated:
        return absent(what="changes", checked=["a truncated feed"])
    return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "git"})
