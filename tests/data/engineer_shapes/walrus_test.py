from semantics_lint.runtime import described_result


def alerts(feed, export):
    if not (alerts := [a for a in feed if a.severity > 3]):
        return described_result(facts=alerts, provenance={"measuredAt": export.at, "source": "pagerduty"})  # expect: SEM105
    return described_result(facts=[{"entity": a.id} for a in alerts], provenance={"measuredAt": export.at, "source": "pagerduty"})
