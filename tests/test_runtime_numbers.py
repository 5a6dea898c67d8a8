"""Every numeric check of the runtime is total over Python ints and floats.

The reference holds every number as a double: a JSON number too large for one
(``1e999``, a 400-digit integer) reads as Infinity, which is not a finite
``age_seconds``. The mints refuse such a value with ``refused:``, the envelope
rules report it, and the gate judges a catalog holding one as the reference does
(a finding, exit 1), never a traceback.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semantics_lint.runtime import (
    Refusal,
    absent,
    compose_not_covered,
    coverage,
    described_result,
    semantic_issues,
)
from semantics_lint.runtime.envelope.rules import is_finite_number, js_number, js_number_text

HUGE = 10**400
HUGER = 10**5000  # past Python's 4,300-digit limit for int <-> str
_numbers = st.integers() | st.floats() | st.sampled_from([HUGE, -HUGE, HUGER, 2**1024, 2**1023])


def _envelope(age: object) -> dict[str, Any]:
    return {
        "af_semantics": True,
        "facts": [{"entity": "vm-01"}],
        "provenance": {
            "measured_at": "2026-08-19T10:20:00Z",
            "source": "export",
            "age_seconds": age,
        },
    }


def _age_is_valid_in_javascript(age: float) -> bool:
    return math.isfinite(age) and age >= 0


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (HUGE, math.inf),
        (-HUGE, -math.inf),
        (HUGER, math.inf),
        (2**1024, math.inf),
        (2**53 + 1, 2.0**53),
        (3, 3.0),
        (0.5, 0.5),
        (True, None),
        ("1", None),
        (None, None),
    ],
    ids=[
        "400-digits",
        "minus-400-digits",
        "5000-digits",
        "2**1024",
        "2**53+1",
        "3",
        "0.5",
        "True",
        "str",
        "None",
    ],
)
def test_js_number_is_the_double_javascript_holds(value: object, expected: float | None) -> None:
    assert js_number(value) == expected


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1e-7, "1e-7"),
        (1.2345e-7, "1.2345e-7"),
        (0.000001, "0.000001"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (0.1, "0.1"),
        (-3.0, "-3"),
        (-0.0, "0"),
        (1.5e300, "1.5e+300"),
        (5e-324, "5e-324"),
        (123.456, "123.456"),
        (math.inf, "Infinity"),
        (-math.inf, "-Infinity"),
        (math.nan, "NaN"),
    ],
)
def test_js_number_text_writes_numbers_as_javascript_does(value: float, text: str) -> None:
    assert js_number_text(value) == text


@settings(max_examples=300, deadline=None)
@given(_numbers)
def test_age_seconds_is_judged_for_any_number(age: int | float) -> None:
    expected_valid = _age_is_valid_in_javascript(js_number(age))  # type: ignore[arg-type]
    issues = semantic_issues(_envelope(age))
    assert (issues == []) == expected_valid
    if not expected_valid:
        assert [(i["code"], i["field"]) for i in issues] == [
            ("malformed-semantics", "provenance.age_seconds")
        ]
    declaration = {
        "facts": [{"entity": "vm-01"}],
        "provenance": {"measuredAt": "2026-08-19T10:20:00Z", "source": "export", "ageSeconds": age},
    }
    if expected_valid:
        assert described_result(**declaration)["provenance"]["age_seconds"] == age
    else:
        with pytest.raises(Refusal, match=r"^refused: provenance\.ageSeconds"):
            described_result(**declaration)


def test_a_400_digit_age_is_refused_by_the_mint_and_reported_by_the_rules() -> None:
    assert not is_finite_number(HUGE)
    with pytest.raises(Refusal, match=r"^refused: provenance\.ageSeconds"):
        described_result(
            facts=[{"entity": "vm"}],
            provenance={"measuredAt": "2026-08-19T10:20:00Z", "source": "s", "ageSeconds": HUGE},
        )
    assert semantic_issues(_envelope(HUGE))[0]["field"] == "provenance.age_seconds"
    # Large but within a double: finite, as JavaScript reads 1e300.
    assert semantic_issues(_envelope(10**300)) == []


@settings(max_examples=200, deadline=None)
@given(_numbers)
def test_an_in_progress_count_is_judged_for_any_number(count: int | float) -> None:
    try:
        ledger = coverage({"ok": 1}, checked=["fabric A"], inProgress=[{"what": "a scan", "count": count}])
    except Refusal as refusal:
        assert str(refusal).startswith("refused: `inProgress[0]`")
        assert not (isinstance(count, int) and 1 <= count <= 2**53 - 1)
    else:
        assert ledger["af_coverage"]["in_progress"][0]["count"] == count


@settings(max_examples=200, deadline=None)
@given(_numbers, _numbers)
def test_compose_not_covered_writes_any_number_as_javascript_would(what: Any, why: Any) -> None:
    lines = compose_not_covered({"not_checked": [{"what": what, "why": why}]})
    what_text = js_number_text(js_number(what))  # type: ignore[arg-type]
    why_text = js_number_text(js_number(why))  # type: ignore[arg-type]
    assert lines == [f"{what_text} \u2014 {why_text}"]


@pytest.mark.parametrize("mint", [lambda: coverage(checked=["x"]), lambda: coverage()])
def test_coverage_without_a_result_is_a_refusal_not_a_type_error(mint: Any) -> None:
    with pytest.raises(Refusal, match=r"^refused: coverage\(\).*no result"):
        mint()


def test_absent_with_a_huge_number_refuses_cleanly() -> None:
    with pytest.raises(Refusal, match="^refused:"):
        absent(what=HUGER, checked=["x"])


@pytest.mark.parametrize(
    "literal",
    ["1" * 400, "-" + "9" * 400, "1e999", "1" * 5000],
    ids=["400-digits", "minus-400-digits", "1e999", "5000-digits"],
)
def test_the_gate_reads_a_too_large_number_as_javascript_does(literal: str, tmp_path: Path) -> None:
    catalog = tmp_path / "semantics-catalog.json"
    envelope = json.dumps(_envelope("AGE")).replace('"AGE"', literal)
    catalog.write_text(f'[{{"name": "t", "results": [{envelope}]}}]', encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "semantics_lint", "check-semantics", str(catalog), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    report = json.loads(result.stdout)
    assert [(f["code"], f["field"]) for f in report["findings"]] == [
        ("malformed-semantics", "provenance.age_seconds")
    ]
