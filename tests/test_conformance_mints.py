"""The reference's own verdicts on the coverage normalizer and the two mints.

Each case in ``testdata/conformance/{normalizeCoverageList,absent,coverage}.json``
is one test; an omitted ``list``/``decl`` in a case means "not passed".
"""

from __future__ import annotations

from typing import Any

import pytest
from conformance_data import cases, strict_equal

from semantics_lint.runtime.envelope.refusal import Refusal
from semantics_lint.runtime.mints.absent_coverage import absent, coverage
from semantics_lint.runtime.mints.items import NOT_PASSED, normalize_coverage_list


def _outcome(call: Any) -> dict[str, Any]:
    """What a call did, in the corpus's terms: ``{"throws": ...[, "value": ...]}``."""
    try:
        value = call()
    except Refusal as refusal:
        assert str(refusal).startswith("refused:"), str(refusal)
        return {"throws": True}
    return {"throws": False, "value": value}


def _assert_matches(actual: dict[str, Any], expected: dict[str, Any]) -> None:
    assert actual["throws"] == expected["throws"], (actual, expected)
    if not expected["throws"]:
        assert strict_equal(actual["value"], expected["value"]), (actual, expected)


@pytest.mark.parametrize("case", cases("normalizeCoverageList"))
def test_normalize_coverage_list(case: dict[str, Any]) -> None:
    given = case["input"]
    items = given.get("list", NOT_PASSED)
    actual = _outcome(
        lambda: normalize_coverage_list(given["fn"], given["section"], items, given["requireWhy"])
    )
    _assert_matches(actual, case["expected"])


@pytest.mark.parametrize("case", cases("absent"))
def test_absent(case: dict[str, Any]) -> None:
    given = case["input"]
    # The declaration goes in as the one positional argument, exactly as the
    # reference received it; an omitted ``decl`` means absent() was called bare.
    if "decl" in given:
        actual = _outcome(lambda: absent(given["decl"]))
    else:
        actual = _outcome(lambda: absent())
    _assert_matches(actual, case["expected"])


@pytest.mark.parametrize("case", cases("coverage"))
def test_coverage(case: dict[str, Any]) -> None:
    given = case["input"]
    if "decl" in given:
        actual = _outcome(lambda: coverage(given["content"], given["decl"]))
    else:
        actual = _outcome(lambda: coverage(given["content"]))
    _assert_matches(actual, case["expected"])


@pytest.mark.parametrize(
    "case",
    [case for case in cases("absent") if isinstance(case.values[0]["input"].get("decl"), dict)],
)
def test_absent_keywords_agree_with_dict(case: dict[str, Any]) -> None:
    """The keyword door gives the same verdict as the dict door."""
    decl = case["input"]["decl"]
    if not decl:
        pytest.skip("an empty declaration has no keyword form")
    _assert_matches(_outcome(lambda: absent(**decl)), case["expected"])
