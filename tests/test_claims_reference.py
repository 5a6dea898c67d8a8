"""``claim_rows`` and ``unsupported_claims`` against the reference's own verdicts.

``tests/data/claims_reference.json`` holds what the reference's ``claimRowsOf`` and
``unsupportedClaimsOf`` gave on the cases ``tests/claims_cases.py`` generates (see
``tests/data/README.md``): rows, dispositions, and findings with their messages and
witnesses must be the same in every case."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from claims_cases import cases

from semantics_lint.runtime.claims.check import ClaimRow, _sorted, claim_rows, unsupported_claims
from semantics_lint.runtime.envelope.json_text import json_text

REFERENCE = json.loads((Path(__file__).parent / "data" / "claims_reference.json").read_text("utf-8"))
CASES = cases(REFERENCE["count"], REFERENCE["seed"])


def _same(value: Any) -> str:
    # JSON text with sorted keys: True is not 1, 1.0 is 1, key order does not count.
    return json_text(_sorted(value))


def _row(row: ClaimRow) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "toolName": row.tool,
        "toolCallId": row.call_id,
        "iteration": row.iteration,
        "entity": row.entity,
        "field": row.field,
        "value": row.value,
    }
    if row.measured_at is not None:
        shown["measuredAt"] = row.measured_at
    return shown


def test_the_cases_are_the_ones_the_reference_judged() -> None:
    text = json.dumps(CASES, ensure_ascii=False).encode("utf-8")
    assert hashlib.sha256(text).hexdigest() == REFERENCE["cases_sha256"]
    assert len(CASES) == len(REFERENCE["verdicts"]) >= 1500


def test_every_fence_is_exercised() -> None:
    verdicts = REFERENCE["verdicts"]
    seen = {d for v in verdicts for _, d in v["dispositions"]}
    assert seen == {"checked-pass", "checked-fail", "not-applicable", "unreachable"}
    findings = [f for v in verdicts for f in v["findings"]]
    assert any(f["advisory"] for f in findings) and any(not f["advisory"] for f in findings)
    assert any(w["stratum"] == "quoted" for f in findings for w in f["witnesses"])


@pytest.mark.parametrize("chunk", range(16))
def test_each_case_agrees_with_the_reference(chunk: int) -> None:
    size = -(-len(CASES) // 16)
    for index in range(chunk * size, min((chunk + 1) * size, len(CASES))):
        case, expected = CASES[index], REFERENCE["verdicts"][index]
        rows = [
            row
            for served in case["served"]
            for row in claim_rows(
                served["envelope"],
                tool=served["tool"],
                call_id=served["call_id"],
                iteration=served["iteration"],
            )
        ]
        assert _same([_row(r) for r in rows]) == _same(expected["rows"]), index
        check = unsupported_claims(dict(case["contract"]), rows, case["answer"])
        assert [[f, str(d)] for f, d in check.dispositions] == expected["dispositions"], index
        findings = [
            {
                "advisory": f.advisory,
                "message": f.message,
                "witnesses": [w._asdict() for w in f.witnesses],
            }
            for f in check.findings
        ]
        assert [f["message"] for f in findings] == [f["message"] for f in expected["findings"]], index
        assert _same(findings) == _same(expected["findings"]), index
