from semantics_lint.runtime import absent, described_result

SOURCE = "billing"


def usage(rows, export):
    if not rows:
        return absent(what=f"usage rows in {export.month}", checked=[f"the {SOURCE} export"])
    return described_result(facts=[{"entity": r.team} for r in rows], provenance={"measuredAt": f"{export.taken_at}", "source": f"{SOURCE} ({export.region})"})
