"""The mints' refusals and the parts of coverage() the conformance corpus does not reach.

Every refusal is a :class:`Refusal` whose message starts ``refused:``, names the
field as the caller spelled it and, for a snake_case key, the camelCase one meant.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semantics_lint.runtime.envelope.refusal import Refusal
from semantics_lint.runtime.mints.absent_coverage import absent, coverage, instant_of
from semantics_lint.vocabulary import ABSENCE_NOTE, COVERAGE_NOTE

QUERIED = {"from": "2026-09-26T09:00:00Z", "to": "2026-09-26T10:00:00Z"}
HELD = {"from": "2026-08-27T02:00:00Z", "to": "2026-09-26T02:00:00Z"}


def refusal_of(call: Any, *args: Any, **kwargs: Any) -> str:
    """The message of the refusal ``call(*args, **kwargs)`` raises."""
    with pytest.raises(Refusal) as caught:
        call(*args, **kwargs)
    message = str(caught.value)
    assert message.startswith("refused:"), message
    return message


# ---------------------------------------------------------------------------
# absent()
# ---------------------------------------------------------------------------


def test_absent_keywords_render_the_reference_shape() -> None:
    rendered = absent(
        what=" backup runs for vm-01 ",
        checked=["every backup job in the export"],
        notChecked=[{"what": "the archive", "why": "older than 30 days"}],
        cannotCover=[{"what": "PPDM", "why": "not collected on this install"}],
        tryInstead="Ask about another VM.",
    )
    assert rendered == {
        "af_absent": True,
        "outcome": "nothing_found",
        "looked_for": "backup runs for vm-01",
        "checked": [{"what": "every backup job in the export"}],
        "not_checked": [{"what": "the archive", "why": "older than 30 days"}],
        "cannot_cover": [{"what": "PPDM", "why": "not collected on this install"}],
        "retry_returns_the_same": True,
        "try_instead": "Ask about another VM.",
        "note": ABSENCE_NOTE,
    }
    assert list(rendered) == [
        "af_absent",
        "outcome",
        "looked_for",
        "checked",
        "not_checked",
        "cannot_cover",
        "retry_returns_the_same",
        "try_instead",
        "note",
    ]


def test_absent_dict_and_keywords_agree() -> None:
    decl = {"what": "w", "checked": ["a"], "tryInstead": "x"}
    assert absent(decl) == absent(**decl)


@pytest.mark.parametrize(
    ("spelled", "meant"),
    [("not_checked", "notChecked"), ("cannot_cover", "cannotCover"), ("try_instead", "tryInstead")],
)
def test_absent_snake_case_key_names_the_camel_case_field(spelled: str, meant: str) -> None:
    message = refusal_of(absent, **{"what": "w", "checked": ["a"], spelled: ["b"]})
    assert spelled in message
    assert f"did you mean {meant}" in message


def test_absent_snake_case_key_in_a_dict_is_refused_too() -> None:
    message = refusal_of(absent, {"what": "w", "checked": ["a"], "not_checked": ["b"]})
    assert "not_checked" in message and "notChecked" in message


def test_absent_unknown_key_is_refused_naming_it() -> None:
    message = refusal_of(absent, what="w", checked=["a"], reason="nothing there")
    assert "reason" in message
    assert "what" in message  # the fields it could have been


def test_absent_typo_names_the_close_field() -> None:
    message = refusal_of(absent, what="w", checked=["a"], chekced=["b"])
    assert "chekced" in message and "did you mean checked" in message


@pytest.mark.parametrize(
    "call",
    [
        lambda: absent(),
        lambda: absent(None),
        lambda: absent(5),  # type: ignore[arg-type]
        lambda: absent("backup runs"),  # type: ignore[arg-type]
        lambda: absent(["backup runs"]),  # type: ignore[arg-type]
        lambda: absent({"what": "w"}, checked=["a"]),
    ],
    ids=["nothing", "none", "number", "string", "list", "dict-and-keywords"],
)
def test_absent_refuses_what_is_not_one_declaration(call: Any) -> None:
    assert "absent()" in refusal_of(call)


@pytest.mark.parametrize("what", [None, "", "  ", "\ufeff", "\u3000", 5, True, {"what": "x"}])
def test_absent_refuses_a_what_that_names_nothing(what: object) -> None:
    assert "`what`" in refusal_of(absent, what=what, checked=["a"])


def test_absent_refuses_a_missing_what() -> None:
    assert "`what`" in refusal_of(absent, checked=["a"])


def test_absent_keeps_a_what_python_would_strip() -> None:
    # U+0085 is whitespace to Python's str.strip() but not to JavaScript's trim().
    assert absent(what="\u0085", checked=["a"])["looked_for"] == "\u0085"


@pytest.mark.parametrize("checked", [[], None, 5, "a", {}, {"what": "a"}])
def test_absent_refuses_checked_that_names_no_ground(checked: object) -> None:
    assert "checked" in refusal_of(absent, what="w", checked=checked)


def test_absent_refuses_a_missing_checked() -> None:
    assert "checked" in refusal_of(absent, what="w")


@pytest.mark.parametrize(
    ("item", "words"),
    [
        ("", "checked[1] names no ground"),
        (" \t", "checked[1] names no ground"),
        (5, "checked[1] names no ground"),
        (None, "checked[1] names no ground"),
        ([], "checked[1] names no ground"),
        ({}, "checked[1] names no ground"),
        ({"what": ""}, "checked[1] names no ground"),
        ({"what": "b", "why": ""}, "checked[1]"),
        ({"what": "b", "why": None}, "checked[1]"),
        ({"what": "b", "why": 5}, "checked[1]"),
    ],
)
def test_absent_refuses_a_bad_checked_item_naming_its_index(item: object, words: str) -> None:
    assert words in refusal_of(absent, what="w", checked=["a", item])


@pytest.mark.parametrize("section", ["notChecked", "cannotCover"])
@pytest.mark.parametrize("value", [None, 5, "a", {}])
def test_absent_refuses_optional_lists_that_are_not_lists(section: str, value: object) -> None:
    assert section in refusal_of(absent, **{"what": "w", "checked": ["a"], section: value})


@pytest.mark.parametrize("item", ["PPDM", {"what": "PPDM"}])
def test_absent_refuses_cannot_cover_without_why(item: object) -> None:
    message = refusal_of(absent, what="w", checked=["a"], cannotCover=[item])
    assert "cannotCover[0]" in message and "why" in message


@pytest.mark.parametrize("try_instead", [True, [], 5, "", "\u00a0", None])
def test_absent_leaves_out_a_try_instead_that_says_nothing(try_instead: object) -> None:
    assert "try_instead" not in absent(what="w", checked=["a"], tryInstead=try_instead)


# ---------------------------------------------------------------------------
# coverage(): lists, shape, and what it refuses
# ---------------------------------------------------------------------------


def test_coverage_keywords_render_the_reference_shape() -> None:
    verdict = {"pairs": 4, "healthy": True}
    rendered = coverage(
        verdict,
        checked=["SRDF pair state on all 4 arrays"],
        notChecked=[{"what": "NDM sessions", "why": "the API timed out"}],
    )
    assert rendered == {
        "af_coverage": {
            "checked": [{"what": "SRDF pair state on all 4 arrays"}],
            "not_checked": [{"what": "NDM sessions", "why": "the API timed out"}],
            "note": COVERAGE_NOTE,
        },
        "result": verdict,
    }
    assert rendered["result"] == verdict and rendered["result"] is not verdict  # a copy
    assert list(rendered) == ["af_coverage", "result"]


def test_coverage_dict_and_keywords_agree() -> None:
    decl = {"checked": ["a"], "cannotCover": [{"what": "b", "why": "c"}]}
    assert coverage("x", decl) == coverage("x", **decl)


@pytest.mark.parametrize(
    ("spelled", "meant"),
    [
        ("not_checked", "notChecked"),
        ("cannot_cover", "cannotCover"),
        ("in_progress", "inProgress"),
    ],
)
def test_coverage_snake_case_key_names_the_camel_case_field(spelled: str, meant: str) -> None:
    message = refusal_of(coverage, "x", **{"checked": ["a"], spelled: ["b"]})
    assert spelled in message and f"did you mean {meant}" in message


def test_coverage_refuses_an_unknown_key() -> None:
    message = refusal_of(coverage, "x", checked=["a"], provenance={"source": "s"})
    assert "provenance" in message


@pytest.mark.parametrize(
    "call",
    [
        lambda: coverage("x"),
        lambda: coverage("x", None),
        lambda: coverage("x", 5),  # type: ignore[arg-type]
        lambda: coverage("x", ["a"]),  # type: ignore[arg-type]
        lambda: coverage("x", {"checked": ["a"]}, notChecked=["b"]),
    ],
    ids=["nothing", "none", "number", "list", "dict-and-keywords"],
)
def test_coverage_refuses_what_is_not_one_declaration(call: Any) -> None:
    assert "coverage()" in refusal_of(call)


@pytest.mark.parametrize(
    "decl",
    [{"checked": []}, {"checked": [], "notChecked": [], "cannotCover": []}, {"inProgress": []}],
)
def test_coverage_refuses_a_boundary_that_declares_nothing(decl: dict[str, Any]) -> None:
    assert "declares nothing" in refusal_of(coverage, "x", decl)


def test_coverage_refuses_to_wrap_a_described_result() -> None:
    described = {
        "af_semantics": True,
        "facts": [{"entity": "vm-01"}],
        "provenance": {"measured_at": "2026-08-19T10:20:00Z", "source": "export"},
    }
    message = refusal_of(coverage, described, checked=["a"])
    assert "described result" in message and "coverage=" in message


@pytest.mark.parametrize("marker", [1, "true", False, None])
def test_coverage_wraps_a_value_whose_marker_is_not_exactly_true(marker: object) -> None:
    content = {"af_semantics": marker, "rows": []}
    assert coverage(content, checked=["a"])["result"] == content


def test_coverage_refuses_cannot_cover_without_why() -> None:
    message = refusal_of(coverage, "x", cannotCover=["host multipathing"])
    assert "cannotCover[0]" in message and "why" in message


# ---------------------------------------------------------------------------
# coverage(): period
# ---------------------------------------------------------------------------


def test_period_is_ground_of_its_own_and_rendered_in_wire_spelling() -> None:
    rendered = coverage("x", period={"queried": QUERIED, "held": HELD, "readAt": "2026-09-26T10:00:03Z"})
    assert rendered["af_coverage"] == {
        "period": {"queried": QUERIED, "held": HELD, "read_at": "2026-09-26T10:00:03Z"},
        "note": COVERAGE_NOTE,
    }


def test_period_held_unknown_and_read_at_left_out() -> None:
    rendered = coverage("x", checked=["a"], period={"queried": QUERIED, "held": "unknown"})
    assert rendered["af_coverage"]["period"] == {"queried": QUERIED, "held": "unknown"}
    assert list(rendered["af_coverage"]) == ["checked", "period", "note"]


def test_period_none_means_not_declared() -> None:
    assert "period" not in coverage("x", checked=["a"], period=None)["af_coverage"]


def test_period_read_at_names_read_at() -> None:
    message = refusal_of(
        coverage,
        "x",
        checked=["a"],
        period={"queried": QUERIED, "held": "unknown", "read_at": "2026-09-26T10:00:03Z"},
    )
    assert "period.read_at" in message and "did you mean readAt" in message


@pytest.mark.parametrize(
    ("period", "field"),
    [
        ("2026-09-26T10:00:00Z", "period"),
        ({"queried": QUERIED, "held": "unknown", "window": "1h"}, "period.window"),
        ({"held": "unknown"}, "period.queried"),
        ({"queried": None, "held": "unknown"}, "period.queried"),
        ({"queried": "2026-09-26T10:00:00Z", "held": "unknown"}, "period.queried"),
        ({"queried": {"from": QUERIED["from"]}, "held": "unknown"}, "period.queried.to"),
        (
            {"queried": {**QUERIED, "until": QUERIED["to"]}, "held": "unknown"},
            "period.queried.until",
        ),
        (
            {"queried": {"from": "2026-09-26T09:00:00", "to": QUERIED["to"]}, "held": "unknown"},
            "period.queried.from",
        ),
        (
            {"queried": {"from": "2026-09-26", "to": QUERIED["to"]}, "held": "unknown"},
            "period.queried.from",
        ),
        (
            {"queried": {"from": "yesterday", "to": QUERIED["to"]}, "held": "unknown"},
            "period.queried.from",
        ),
        ({"queried": {"from": QUERIED["to"], "to": QUERIED["from"]}, "held": "unknown"}, "after"),
        ({"queried": QUERIED}, "period.held"),
        ({"queried": QUERIED, "held": None}, "period.held"),
        ({"queried": QUERIED, "held": "all of it"}, "period.held"),
        ({"queried": QUERIED, "held": {"from": "x", "to": HELD["to"]}}, "period.held.from"),
        ({"queried": QUERIED, "held": "unknown", "readAt": "10:00"}, "period.readAt"),
        ({"queried": QUERIED, "held": "unknown", "readAt": 1758880803}, "period.readAt"),
    ],
)
def test_period_refusals_name_the_field(period: object, field: str) -> None:
    assert field in refusal_of(coverage, "x", checked=["a"], period=period)


@pytest.mark.parametrize(
    "text",
    [
        "2026-09-26T10:00:00Z",
        "2026-09-26T10:00Z",
        "2026-09-26t10:00:00z",
        "2026-09-26T10:00:00.123456789+02:00",
        "2026-06-30T23:59:60Z",
        "2024-02-29T00:00:00-07:30",
    ],
)
def test_instants_with_a_zone_are_read(text: str) -> None:
    assert instant_of(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "2026-09-26T10:00:00",
        "2026-09-26",
        "2026-02-30T10:00:00Z",
        "2025-02-29T10:00:00Z",
        "2026-09-26T24:00:00Z",
        "2026-09-26T10:00:00+24:00",
        "2026-09-26T10:00:00.1234567890Z",
        "2026-09-26 10:00:00Z",
        " 2026-09-26T10:00:00Z",
        "２０２６-09-26T10:00:00Z",
    ],
)
def test_instants_without_a_zone_or_impossible_are_refused(text: str) -> None:
    assert instant_of(text) is None


def test_instants_compare_across_zones_and_leap_seconds() -> None:
    assert instant_of("2026-09-26T12:00:00+02:00") == instant_of("2026-09-26T10:00:00Z")
    assert instant_of("2026-06-30T23:59:60Z") == instant_of("2026-07-01T00:00:00Z")
    first = instant_of("2026-09-26T10:00:00.000000001Z")
    second = instant_of("2026-09-26T10:00:00.000000002Z")
    assert first is not None and second is not None and first < second


def test_a_span_may_start_and_end_at_the_same_instant() -> None:
    span = {"from": "2026-09-26T12:00:00+02:00", "to": "2026-09-26T10:00:00Z"}
    assert coverage("x", period={"queried": span, "held": span})["af_coverage"]["period"]


# ---------------------------------------------------------------------------
# coverage(): inProgress
# ---------------------------------------------------------------------------


def test_in_progress_is_rendered_beside_checked() -> None:
    rendered = coverage(
        "x",
        checked=["replication sessions on all arrays"],
        inProgress=[
            " a backup of vm-42 ",
            {"what": "sessions still synchronizing", "why": " initial copy ", "count": 96},
        ],
    )
    marker = rendered["af_coverage"]
    assert marker["in_progress"] == [
        {"what": "a backup of vm-42"},
        {"what": "sessions still synchronizing", "why": "initial copy", "count": 96},
    ]
    assert list(marker) == ["checked", "in_progress", "note"]


def test_in_progress_needs_checked_beside_it() -> None:
    message = refusal_of(
        coverage,
        "x",
        notChecked=["NDM sessions"],
        inProgress=["a backup of vm-42"],
    )
    assert "inProgress" in message and "checked" in message


def test_in_progress_none_means_not_declared() -> None:
    assert "in_progress" not in coverage("x", checked=["a"], inProgress=None)["af_coverage"]


@pytest.mark.parametrize(
    ("in_progress", "field"),
    [
        ("a backup", "inProgress"),
        ({"what": "a backup"}, "inProgress"),
        ([" "], "inProgress[0]"),
        ([5], "inProgress[0]"),
        ([None], "inProgress[0]"),
        ([["a backup"]], "inProgress[0]"),
        ([{"why": "x"}], "inProgress[0]"),
        ([{"what": "a", "why": ""}], "inProgress[0]"),
        ([{"what": "a", "reason": "x"}], "inProgress[0].reason"),
        ([{"what": "a", "kind": "scope"}], "inProgress[0].kind"),
        ([{"what": "a", "count": 0}], "count"),
        ([{"what": "a", "count": 1.5}], "count"),
        ([{"what": "a", "count": True}], "count"),
        ([{"what": "a", "count": "3"}], "count"),
        ([{"what": "a", "count": float("inf")}], "count"),
        ([{"what": "a", "count": 2**53}], "count"),
    ],
)
def test_in_progress_refusals_name_the_field(in_progress: object, field: str) -> None:
    assert field in refusal_of(coverage, "x", checked=["a"], inProgress=in_progress)


# ---------------------------------------------------------------------------
# Every refusal starts "refused:", whatever the declaration
# ---------------------------------------------------------------------------

_KEYS = (
    "what",
    "checked",
    "notChecked",
    "cannotCover",
    "tryInstead",
    "period",
    "inProgress",
    "not_checked",
    "cannot_cover",
    "try_instead",
    "in_progress",
    "readAt",
    "why",
)
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(("what", "why", "from", "to", "count", "x")), inner, max_size=3)
    ),
    max_leaves=12,
)
_declarations = st.dictionaries(st.sampled_from(_KEYS) | st.text(max_size=6), _json, max_size=5)


@settings(max_examples=300, deadline=None)
@given(decl=_declarations | _json, content=_json)
def test_every_mint_refusal_starts_refused(decl: Any, content: Any) -> None:
    for call in (lambda: absent(decl), lambda: coverage(content, decl)):
        try:
            rendered = call()
        except Refusal as refusal:
            assert re.match(r"refused: \S", str(refusal)), str(refusal)
        else:
            assert isinstance(rendered, dict)
