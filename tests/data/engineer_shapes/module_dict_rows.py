from semantics_lint.runtime import described_result

FIXTURE = {"rows": [], "label": "nightly"}


def nightly(export):
    return described_result(facts=FIXTURE["rows"], provenance={"measuredAt": export.at, "source": FIXTURE["label"]})  # expect: SEM105
