from semantics_lint.runtime import absent, described_result


def alerts(feed, export):
    if alerts := [{"entity": a.id} for a in feed if a.severity > 3]:
        return described_result(facts=alerts, provenance={"measuredAt": export.at, "source": "pagerduty"})
    return absent(what="severe alerts", checked=["PagerDuty"])
