from semantics_lint.runtime import absent, described_result

SITES = []


def register(site):
    SITES.append(site)


def site_status(export):
    if export.down:
        return absent(what="sites", checked=["the status page"])
    return described_result(facts=[{"entity": s} for s in SITES], provenance={"measuredAt": export.at, "source": "status page"})
