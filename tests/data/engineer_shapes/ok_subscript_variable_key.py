from semantics_lint.runtime import absent, described_result

STAMPS = {"eu": "", "us": "us-east export"}


def regional(rows, region, export):
    if not rows:
        return absent(what=f"rows in {region}", checked=[STAMPS[region] or "the export"])
    return described_result(facts=[{"entity": r} for r in rows], provenance={"measuredAt": export.at, "source": STAMPS[region]})
