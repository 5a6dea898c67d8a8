from semantics_lint.runtime import absent, described_result


def september(rows):
    if not rows:
        return absent(what="tickets", checked=["the helpdesk"])
    return described_result(facts=[{"entity": r} for r in rows], provenance={"measuredAt": f"{2024}-{9:02d}-30", "source": "helpdesk"})  # expect: SEM203
