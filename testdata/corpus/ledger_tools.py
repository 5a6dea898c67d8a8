"""Replication ledger tools: coverage statements and parts that say nothing (defective)."""

from __future__ import annotations

from semantics_lint.runtime import absent, coverage, described_result

from .exports import load_rows


def session_states(array: str) -> dict[str, object]:
    sessions = load_rows(f"sessions_{array}")
    if not sessions:
        return absent(what=f"replication sessions on {array}", checked=["the session export"])
    return described_result(
        facts=[{"entity": s["id"], "state": s["state"]} for s in sessions],
        provenance={"measuredAt": sessions[0]["read_at"], "source": "unisphere"},
        render={"default": "table", "colums": ["entity", "state"]},  # expect: SEM101
        note="states are as the array reports them",  # expect: SEM103
    )


def session_lag(array: str) -> dict[str, object]:
    lags = load_rows(f"lag_{array}")
    if not lags:
        return absent(what=f"lag samples on {array}", checked=["the lag export"])
    return described_result(
        series=[{"t": x["t"], "entity": array, "metric": "lag_s", "value": x["lag"]} for x in lags],
        grain={"interval": "5m", "aggregation": "max", "isCounter": "no"},  # expect: SEM303
        provenance={"measuredAt": lags[-1]["t"], "source": "unisphere"},
        coverage={"checked": [], "notChecked": []},  # expect: SEM402
    )


def nothing_declared(array: str) -> dict[str, object]:
    export = load_rows("meta")[0]
    return described_result(provenance={"measuredAt": export["at"], "source": "unisphere"})  # expect: SEM104


def wrapped(array: str) -> dict[str, object]:
    pairs = load_rows(f"pairs_{array}")
    if not pairs:
        return absent(what=f"pairs on {array}", checked=["the pair export"])
    return coverage(  # expect: SEM403
        described_result(
            facts=[{"entity": p["id"]} for p in pairs],
            provenance={"measuredAt": pairs[0]["read_at"], "source": "unisphere"},
        ),
        checked=["every pair in the export"],
    )


def pair_verdict(array: str) -> dict[str, object]:
    pairs = load_rows(f"pairs_{array}")
    verdict = {"split": sum(1 for p in pairs if p["state"] == "Split")}
    return coverage(
        verdict,
        checked=["every pair in the export"],
        notChecked=[{"what": "", "why": "the API timed out"}],  # expect: SEM405
        period={"queried": {"from": "yesterday", "to": "today"}, "held": "unknown"},  # expect: SEM406, SEM406
    )
