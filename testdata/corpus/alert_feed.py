"""open_alerts: open alerts per array, with what the feed cannot see (defective coverage)."""

from __future__ import annotations

from semantics_lint.runtime import absent, described_result

from .exports import load_rows


def open_alerts(array: str) -> dict[str, object]:
    alerts = load_rows(f"alerts_{array}")
    if not alerts:
        return absent(what=f"open alerts on {array}", checked=["the alert feed of the last 24 hours"])
    return described_result(
        facts=[{"entity": a["id"], "severity": a["severity"]} for a in alerts],
        provenance={"measuredAt": alerts[0]["polled_at"], "source": "unisphere alerts"},
        coverage={
            "checked": ["the alert feed of the last 24 hours"],
            "cannotCover": [
                "alerts acknowledged before the poll",  # expect: SEM401
                {"what": "hardware alerts", "why": "sent to the vendor only"},
                {"what": "SNMP traps"},  # expect: SEM401
            ],
        },
    )
