from semantics_lint.runtime import described_result


def switches(export):
    return described_result(facts=list({"entity": h} for h in ()), provenance={"measuredAt": export.at, "source": "snmp"})  # expect: SEM105
