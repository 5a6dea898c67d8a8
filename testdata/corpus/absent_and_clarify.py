"""Absence answers and clarify questions with missing parts (defective)."""

from __future__ import annotations

from semantics_lint.runtime import absent, described_result

from .exports import load_rows


def find_host(name: str) -> dict[str, object]:
    hosts = load_rows("hosts")
    found = [h for h in hosts if h["name"] == name]
    if not found:
        return absent(what=f"host {name}")  # expect: SEM404
    if len(found) > 1:
        return described_result(
            clarify={"candidates": [h["fqdn"] for h in found]},  # expect: SEM501
        )
    return described_result(
        facts=[{"entity": found[0]["fqdn"], "os": found[0]["os"]}],
        provenance={"measuredAt": found[0]["seen_at"], "source": "cmdb"},
        render={"columns": ["entity", "os"]},  # expect: SEM502
    )
