"""The unsupported-claim check against odd inputs: huge and deep answers, numbers at
the edges of a double, contracts that change under the check, literal contracts the
linter cannot see whole."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from semantics_lint.lint.core.settings import LintSettings
from semantics_lint.lint.engine import lint_source
from semantics_lint.runtime import described_result, run_record
from semantics_lint.runtime.claims import (
    ClaimRow,
    Disposition,
    claim_contract,
    unsupported_claims,
)
from semantics_lint.runtime.json_text import NotJSON
from semantics_lint.runtime.record import serve
from semantics_lint.runtime.refusal import Refusal

PASS, FAIL = Disposition.CHECKED_PASS, Disposition.CHECKED_FAIL
JOBS = {"jobs": {"entity": "fleet", "field": "jobs"}}
PROVENANCE: Any = {"measuredAt": "2026-03-01T06:00:00Z", "source": "catalog"}


def settle(*facts: dict[str, Any]) -> None:
    serve("status", described_result(facts=list(facts), provenance=PROVENANCE))


def row(value: Any, entity: str = "fleet", field: str = "jobs") -> ClaimRow:
    return ClaimRow(entity, field, value, "status", "c1", 1)


def verdict(answer: Any, settled: Any) -> Disposition:
    return unsupported_claims(JOBS, [row(settled)], {"jobs": answer}).dispositions[0][1]


# --- size and depth ----------------------------------------------------------------------


class CountedRows(list[ClaimRow]):
    """Rows that count how often the check walks them."""

    walks = 0

    def __iter__(self) -> Iterator[ClaimRow]:
        CountedRows.walks += 1
        return super().__iter__()


def test_the_rows_are_walked_once_however_many_claims() -> None:
    contract = {f"k{i}": {"entity": f"vm{i}", "field": "jobs"} for i in range(300)}
    rows = CountedRows(row(i, entity=f"vm{i}") for i in range(300))
    CountedRows.walks = 0
    check = unsupported_claims(contract, rows, {f"k{i}": i + i % 2 for i in range(300)})
    assert len(check.findings) == 150
    assert CountedRows.walks <= 1


def test_a_run_of_many_claims_and_findings_is_checked_in_linear_time() -> None:
    n = 20_000
    contract = {f"k{i}": {"entity": f"vm{i}", "field": "jobs"} for i in range(n)}
    with run_record(claims=contract) as run:
        settle(*({"entity": f"vm{i}", "jobs": i} for i in range(n)))
        start = time.perf_counter()
        check = run.check_claims({f"k{i}": i + 1 for i in range(n)})
        elapsed = time.perf_counter() - start
    assert len(check.contradictions) == n
    # Quadratic work (a walk of every row per claim or per finding) takes minutes here.
    assert elapsed < 20, elapsed

