"""find_customer: hands the question back when a name is ambiguous (clean)."""

from __future__ import annotations

from semantics_lint.runtime import absent, described_result

from .exports import load_rows


def find_customer(query: str) -> dict[str, object]:
    customers = load_rows("customers")
    matches = [c for c in customers if str(c["name"]).startswith(query)]
    if not matches:
        return absent(what=f"customers named {query!r}", checked=["the CRM customer list"])
    if len(matches) > 1:
        return described_result(
            clarify={
                "question": f"{len(matches)} customers match {query!r}: which one?",
                "candidates": [c["name"] for c in matches],
            },
        )
    match = matches[0]
    return described_result(
        facts=[{"entity": match["name"], "tier": match["tier"]}],
        provenance={"measuredAt": match["synced_at"], "source": "crm"},
    )
