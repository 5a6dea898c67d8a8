from semantics_lint.runtime import described_result


def drift(export):
    changes: list[dict] = []
    rows = changes
    return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "terraform plan"})  # expect: SEM105
