"""The envelope rule set against the reference's own verdicts (testdata/conformance/).

Every case of the kinds ``envelope``, ``isCounterLookingAggregation``,
``composeNotCovered`` and ``readCoverageResult`` is its own test. Issue lists are
compared by code and field, in order (message wording is ours); recognition,
projections and readings are compared exactly, with bools kept apart from numbers.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from conformance_data import cases, strict_equal
from hypothesis import given, settings
from hypothesis import strategies as st

from semantics_lint.runtime.envelope.rules import (
    compose_not_covered,
    explain_semantics,
    is_counter_looking_aggregation,
    read_coverage_result,
    read_semantics,
    semantic_issues,
    semantics_for_model,
)


def _codes_and_fields(issues: list[Any] | None) -> list[dict[str, str]] | None:
    if issues is None:
        return None
    return [{"code": issue["code"], "field": issue["field"]} for issue in issues]


@pytest.mark.parametrize("case", cases("envelope"))
def test_envelope(case: dict[str, Any]) -> None:
    value = case["input"]
    expected = case["expected"]
    before = copy.deepcopy(value)

    issues = semantic_issues(value)
    assert strict_equal(_codes_and_fields(issues), expected["semanticIssues"]), issues
    assert all(isinstance(i["message"], str) and i["message"] for i in issues)

    recognized = read_semantics(value)
    assert (recognized is not None) is expected["readSemantics"]
    if recognized is not None:
        assert recognized is value

    explained = explain_semantics(value)
    assert strict_equal(_codes_and_fields(explained), expected["explainSemantics"])

    if "semanticsForModel" in expected:
        assert recognized is not None
        assert strict_equal(semantics_for_model(recognized), expected["semanticsForModel"])

    assert strict_equal(read_coverage_result(value), expected["readCoverageResult"])
    # Judging and projecting never change the value judged.
    assert strict_equal(value, before)


@pytest.mark.parametrize("case", cases("isCounterLookingAggregation"))
def test_is_counter_looking_aggregation(case: dict[str, Any]) -> None:
    assert is_counter_looking_aggregation(case["input"]) is case["expected"]


@pytest.mark.parametrize("case", cases("composeNotCovered"))
def test_compose_not_covered(case: dict[str, Any]) -> None:
    assert strict_equal(compose_not_covered(case["input"]), case["expected"])


@pytest.mark.parametrize("case", cases("readCoverageResult"))
def test_read_coverage_result(case: dict[str, Any]) -> None:
    assert strict_equal(read_coverage_result(case["input"]), case["expected"])


def test_projection_is_a_copy() -> None:
    envelope: dict[str, Any] = {
        "af_semantics": True,
        "facts": [{"entity": "vm-01"}],
        "provenance": {"measured_at": "last night", "source": "export"},
        "clarify": {"question": "which?", "candidates": ["a"]},
    }
    model = semantics_for_model(envelope)
    model["facts"][0]["entity"] = "changed"
    model["provenance"]["source"] = "changed"
    model["clarify"]["candidates"].append("b")
    assert envelope["facts"][0]["entity"] == "vm-01"
    assert envelope["provenance"]["source"] == "export"
    assert envelope["clarify"]["candidates"] == ["a"]


def test_a_wire_period_is_an_unknown_key_in_this_release() -> None:
    # agentfootprint 9.62.0 has no top-level period; later wires do. Recognition
    # follows the release the conformance data was produced by.
    envelope = {
        "af_semantics": True,
        "facts": [{"entity": "vm-01"}],
        "provenance": {"measured_at": "t", "source": "s"},
        "period": {"queried": {"from": "a", "to": "b"}, "held": "unknown"},
    }
    assert [(i["code"], i["field"]) for i in semantic_issues(envelope)] == [("malformed-semantics", "period")]
    assert read_semantics(envelope) is None


_ENVELOPE_KEYS = st.sampled_from(
    [
        "af_semantics",
        "series",
        "facts",
        "edges",
        "grain",
        "provenance",
        "coverage",
        "not_covered",
        "clarify",
        "render",
        "note",
        "t",
        "entity",
        "metric",
        "value",
        "what",
        "why",
        "checked",
        "not_checked",
        "cannot_cover",
        "is_counter",
        "aggregation",
        "measured_at",
        "source",
        "age_seconds",
        "question",
        "candidates",
        "default",
        "columns",
    ]
)
_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(-2, 2)
    | st.sampled_from(["", " ", "\ufeff", "\u0085", "sum", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_ENVELOPE_KEYS, inner, max_size=4),
    max_leaves=12,
)
_CODES = {
    "malformed-semantics",
    "series-without-grain",
    "counter-aggregation-unstated",
    "data-without-provenance",
}


@settings(max_examples=400, deadline=None)
@given(_JSON, st.booleans())
def test_any_json_value_is_judged_without_crashing(value: Any, marked: bool) -> None:
    if marked and isinstance(value, dict):
        value = {"af_semantics": True, **value}
    issues = semantic_issues(value)
    assert all(i["code"] in _CODES and isinstance(i["field"], str) for i in issues)
    carries = isinstance(value, dict) and value.get("af_semantics") is True
    assert (read_semantics(value) is not None) == (carries and not issues)
    assert explain_semantics(value) == (issues if carries and issues else None)
    if read_semantics(value) is not None:
        assert isinstance(semantics_for_model(value)["note"], str)
    read_coverage_result(value)
