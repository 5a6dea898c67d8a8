from semantics_lint.runtime import absent, described_result

YEAR = 2024
QUARTER_END = "09-30"


def quarter_usage(rows):
    if not rows:
        return absent(what="usage rows", checked=["the billing export"])
    return described_result(
        facts=[{"entity": r.team, "cost": r.cost} for r in rows],
        provenance={"measuredAt": f"{YEAR}-{QUARTER_END}T00:00:00Z", "source": "billing"},  # expect: SEM203
    )
