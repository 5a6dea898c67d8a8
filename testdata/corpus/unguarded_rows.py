"""stale_accounts: rows straight from a query, with no answer for "none found" (defective)."""

from __future__ import annotations

from semantics_lint.runtime import described_result

from .exports import load_rows


def stale_accounts(domain: str) -> dict[str, object]:
    rows = [
        {"entity": a["sam"], "last_logon": a["last_logon"]}
        for a in load_rows(f"accounts_{domain}")
        if a["stale"]
    ]
    export = load_rows("ad_export_meta")[0]
    return described_result(
        facts=rows,  # expect: SEM604
        provenance={"measuredAt": export["exported_at"], "source": "active directory"},
    )
