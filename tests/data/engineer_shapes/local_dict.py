from semantics_lint.runtime import absent, described_result


def licences(seats):
    meta = {"exported": "2024-03-31", "system": "flexlm"}
    if not seats:
        return absent(what="licence seats", checked=["the FlexLM dump"])
    return described_result(
        facts=[{"entity": s.user} for s in seats],
        provenance={"measuredAt": meta["exported"], "source": meta["system"]},  # expect: SEM203
    )
