from semantics_lint.runtime import described_result

WATCHED_SITES = ("paris", "lyon")


def site_status(export):
    return described_result(facts=[{"entity": site, "up": export.up(site)} for site in WATCHED_SITES], provenance={"measuredAt": export.at, "source": "status page"})
