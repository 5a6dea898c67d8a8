"""The reference's own verdicts on the coverage normalizer and the two mints.

Each case in ``testdata/conformance/{normalizeCoverageList,absent,coverage}.json``
is one test; an omitted ``list``/``decl`` in a case means "not passed".
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance_data import cases, strict_equal
from semantics_lint.runtime.items import NOT_PASSED, normalize_coverage_list
from semantics_lint.runtime.refusal import Refusal


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
    items = given["list"] if "list" in given else NOT_PASSED
    actual = _outcome(
        lambda: normalize_coverage_list(given["fn"], given["section"], items, given["requireWhy"])
    )
    _assert_matches(actual, case["expected"])
