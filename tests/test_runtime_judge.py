"""The runtime's verdict as data: where a refusal is and what kind it is, the judge the
linter calls on literal values (``runtime.mints.judge``), and parts judged alone.

A part judged alone must give the refusal the whole mint gives for it: checked on the
reference's own cases (``testdata/conformance``: the two coverage mints, and every
envelope case read back as a ``described_result`` declaration) and on generated ones.
"""

from __future__ import annotations

import pickle
import sys
from collections.abc import Mapping
from typing import Any

import pytest
from conformance_data import cases
from doors.gen import NotLiteral, call_arguments, calls
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semantics_lint import runtime
from semantics_lint.runtime import absent, coverage, described_result, semantic_issues
from semantics_lint.runtime.envelope.json_text import MAX_DEPTH, json_text
from semantics_lint.runtime.envelope.refusal import (
    ARGUMENTS,
    BAD_VALUE,
    COUNTER_UNSTATED,
    DERIVED_KEY,
    EMPTY,
    MISSING,
    REFUSAL_KINDS,
    SAYS_NOTHING,
    SNAKE_CASE_KEY,
    UNKNOWN_KEY,
    WRAPPED,
    WRONG_TYPE,
    Refusal,
)
from semantics_lint.runtime.mints.judge import DOOR_PARTS, DOORS, part_refusal, refusal_of
from semantics_lint.vocabulary import SEMANTICS_MARKER, to_declaration

PROVENANCE = {"measuredAt": "the export's timestamp", "source": "backup-db"}
FACTS = [{"entity": "vm-01"}]
QUERIED = {"from": "2026-09-26T09:00:00Z", "to": "2026-09-26T10:00:00Z"}
# An integer whose decimal digits Python will not write (past 4,300 digits).
UNWRITABLE = int("f" * 4000, 16)


# ---------------------------------------------------------------------------
# Every refusal says where and what, as data
# ---------------------------------------------------------------------------

WHERE = [
    (
        "described_result",
        (),
        {"facts": FACTS, "provenance": {**PROVENANCE, "sourceExportDate": None}},
        ("provenance", "sourceExportDate"),
        "provenance.sourceExportDate",
        WRONG_TYPE,
    ),
    (
        "described_result",
        (),
        {"facts": FACTS, "provenance": PROVENANCE, "coverage": {"cannotCover": [{"what": "PPDM"}]}},
        ("coverage", "cannotCover", 0, "why"),
        "coverage.cannotCover[0].why",
        MISSING,
    ),
    (
        "coverage",
        ("verdict",),
        {"checked": ["a"], "inProgress": ["x", "y", {"what": "z", "count": 0}]},
        ("inProgress", 2, "count"),
        "inProgress[2].count",
        BAD_VALUE,
    ),
    (
        "coverage",
        ("verdict",),
        {"checked": ["a"], "inProgress": [{"what": "z", "count": True}]},
        ("inProgress", 0, "count"),
        "inProgress[0].count",
        WRONG_TYPE,
    ),
    ("absent", (), {"what": " ", "checked": ["a"]}, ("what",), "what", EMPTY),
    ("absent", (), {"checked": ["a"]}, ("what",), "what", MISSING),
    ("absent", (), {"what": "w", "checked": []}, ("checked",), "checked", EMPTY),
    (
        "absent",
        (),
        {"what": "w", "checked": ["a"], "notChecked": None},
        ("notChecked",),
        "notChecked",
        WRONG_TYPE,
    ),
    (
        "absent",
        (),
        {"what": "w", "checked": ["a", {"what": "b", "why": ""}]},
        ("checked", 1, "why"),
        "checked[1].why",
        EMPTY,
    ),
    ("absent", (), {"what": "w", "checked": [5]}, ("checked", 0), "checked[0]", WRONG_TYPE),
    (
        "described_result",
        (),
        {"facts": FACTS, "provenance": {**PROVENANCE, "measured_at": "t"}},
        ("provenance", "measured_at"),
        "provenance.measured_at",
        SNAKE_CASE_KEY,
    ),
    (
        "described_result",
        (),
        {"facts": FACTS, "provenance": PROVENANCE, "notCovered": []},
        ("notCovered",),
        "notCovered",
        DERIVED_KEY,
    ),
    ("described_result", (), {"facts": [], "provenance": PROVENANCE}, ("facts",), "facts", EMPTY),
    (
        "described_result",
        (),
        {"facts": None, "provenance": PROVENANCE},
        ("facts",),
        "facts",
        WRONG_TYPE,
    ),
    (
        "described_result",
        (),
        {"facts": [{"entity": ""}], "provenance": PROVENANCE},
        ("facts", 0, "entity"),
        "facts[0].entity",
        EMPTY,
    ),
    ("described_result", (), {"facts": FACTS}, ("provenance",), "provenance", MISSING),
    (
        "described_result",
        (),
        {"facts": FACTS, "provenance": {"source": "s"}},
        ("provenance", "measuredAt"),
        "provenance.measuredAt",
        MISSING,
    ),
    (
        "described_result",
        (),
        {"facts": FACTS, "provenance": {**PROVENANCE, "ageSeconds": -1}},
        ("provenance", "ageSeconds"),
        "provenance.ageSeconds",
        BAD_VALUE,
    ),
    (
        "described_result",
        (),
        {"facts": FACTS, "provenance": {**PROVENANCE, "ageSeconds": "5"}},
        ("provenance", "ageSeconds"),
        "provenance.ageSeconds",
        WRONG_TYPE,
    ),
    (
        "described_result",
        (),
        {"series": [{"t": 1, "entity": "e", "metric": "m", "value": 1}], "provenance": PROVENANCE},
        ("grain",),
        "grain",
        MISSING,
    ),
    (
        "described_result",
        (),
        {
            "series": [{"t": 1, "entity": "e", "metric": "m", "value": 1}],
            "provenance": PROVENANCE,
            "grain": {"aggregation": "sum"},
        },
        ("grain", "isCounter"),
        "grain.isCounter",
        COUNTER_UNSTATED,
    ),
    (
        "described_result",
        (),
        {"facts": FACTS, "provenance": PROVENANCE, "grain": {}},
        ("grain",),
        "grain",
        SAYS_NOTHING,
    ),
    (
        "described_result",
        (),
        {"clarify": {"question": "q"}, "render": {"default": "table", "columns": []}},
        ("render", "columns"),
        "render.columns",
        EMPTY,
    ),
    (
        "described_result",
        (),
        {"clarify": {"question": "q"}, "render": {"default": "t", "sort": ""}},
        ("render", "sort"),
        "render.sort",
        EMPTY,
    ),
    (
        "described_result",
        (),
        {"clarify": {"question": "q"}, "render": {"default": "t", "chartHint": 5}},
        ("render", "chartHint"),
        "render.chartHint",
        WRONG_TYPE,
    ),
    ("described_result", (), {"clarify": None}, (), "", SAYS_NOTHING),
    (
        "described_result",
        (),
        {"facts": FACTS, "provenance": {1: "y"}},
        ("provenance", 1),
        "provenance.1",
        UNKNOWN_KEY,
    ),
    ("described_result", ([],), {}, (), "", ARGUMENTS),
    ("described_result", ({"facts": FACTS},), {"provenance": PROVENANCE}, (), "", ARGUMENTS),
    ("absent", ({"what": "w", "checked": ["a"]},), {"cannotCover": []}, (), "", ARGUMENTS),
    ("coverage", ({}, "x"), {}, (), "", ARGUMENTS),
    ("coverage", (), {"checked": ["a"]}, (), "", ARGUMENTS),
    ("coverage", ({SEMANTICS_MARKER: True},), {"notChecked": [{"what": "x"}]}, (), "", WRAPPED),
    ("coverage", ("v",), {}, (), "", ARGUMENTS),
    ("coverage", ("v",), {"checked": []}, (), "", SAYS_NOTHING),
    ("coverage", ("v",), {"inProgress": ["x"]}, ("checked",), "checked", MISSING),
    (
        "coverage",
        ("v",),
        {"period": {"queried": QUERIED, "held": "unknown", "readAt": "2026-09-26"}},
        ("period", "readAt"),
        "period.readAt",
        BAD_VALUE,
    ),
    (
        "coverage",
        ("v",),
        {"period": {"queried": {**QUERIED, "x": 1}, "held": "unknown"}},
        ("period", "queried", "x"),
        "period.queried.x",
        UNKNOWN_KEY,
    ),
    (
        "coverage",
        ("v",),
        {"period": {"queried": QUERIED}},
        ("period", "held"),
        "period.held",
        MISSING,
    ),
    (
        "coverage",
        ("v",),
        {"period": {"queried": QUERIED, "held": "later"}},
        ("period", "held"),
        "period.held",
        BAD_VALUE,
    ),
    ("coverage", ("v",), {"period": "last week"}, ("period",), "period", WRONG_TYPE),
]


@pytest.mark.parametrize(("door", "args", "kwargs", "path", "field", "kind"), WHERE)
def test_a_refusal_carries_its_path_and_kind(
    door: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    path: tuple[object, ...],
    field: str,
    kind: str,
) -> None:
    refusal = refusal_of(door, args, kwargs)
    assert refusal is not None
    assert str(refusal).startswith("refused:")
    assert (refusal.path, refusal.field, refusal.kind) == (path, field, kind), repr(refusal)
    # The judge's refusal is the one the mint raises itself.
    mint = {"described_result": described_result, "absent": absent, "coverage": coverage}[door]
    with pytest.raises(Refusal) as raised:
        mint(*args, **kwargs)
    assert (str(raised.value), raised.value.path, raised.value.kind) == (str(refusal), path, kind)


def test_an_unknown_key_names_the_field_it_meant() -> None:
    refusal = refusal_of("described_result", (), {"facts": FACTS, "provenance": {**PROVENANCE, "sorce": "s"}})
    assert refusal is not None
    assert (refusal.kind, refusal.meant, refusal.path) == (
        UNKNOWN_KEY,
        "source",
        ("provenance", "sorce"),
    )
    snake = refusal_of("absent", (), {"what": "w", "checked": ["a"], "try_instead": "x"})
    assert snake is not None and (snake.kind, snake.meant) == (SNAKE_CASE_KEY, "tryInstead")


def test_a_positional_argument_at_fault_is_named() -> None:
    wrapped = refusal_of("coverage", ({SEMANTICS_MARKER: True, "facts": FACTS},), {"checked": ["a"]})
    assert wrapped is not None and (wrapped.kind, wrapped.argument) == (WRAPPED, 0)
    not_a_dict = refusal_of("coverage", ("v", ["checked"]), {})
    assert not_a_dict is not None and (not_a_dict.kind, not_a_dict.argument) == (ARGUMENTS, 1)
    both = refusal_of("absent", ({"what": "w"},), {"checked": ["a"]})
    assert both is not None and (both.kind, both.argument) == (ARGUMENTS, None)


def test_a_refusal_survives_pickling_with_its_data() -> None:
    refusal = refusal_of("described_result", (), {"facts": FACTS, "provenance": {1: "y"}})
    assert refusal is not None
    again = pickle.loads(pickle.dumps(refusal))
    assert (str(again), again.path, again.kind, again.field) == (
        str(refusal),
        refusal.path,
        refusal.kind,
        refusal.field,
    )


def test_a_refusal_built_by_hand_keeps_working() -> None:
    refusal = Refusal("something is off")
    assert str(refusal) == "refused: something is off"
    assert (refusal.path, refusal.field, refusal.meant, refusal.argument) == ((), "", None, None)
    assert refusal.kind not in REFUSAL_KINDS


def test_described_result_is_also_spelled_described_result_in_camel_case() -> None:
    assert runtime.describedResult is runtime.described_result
    assert "describedResult" in runtime.__all__
    assert runtime.describedResult(clarify={"question": "which vm?"})[SEMANTICS_MARKER] is True


# ---------------------------------------------------------------------------
# The judge never raises on a literal value
# ---------------------------------------------------------------------------

_FIELD_NAMES = sorted(
    {name for parts in DOOR_PARTS.values() for name in parts} | {"measured_at", "x", "note"}
)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([10**400, -(10**400), 2**53, 0]),
    st.builds(lambda: UNWRITABLE),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
    st.sampled_from(["", " ", "\u3000", "\x85", "unknown", "2026-09-26T09:00:00Z"]),
    st.binary(max_size=3),
    st.complex_numbers(max_magnitude=10),
)
_keys = st.one_of(
    st.sampled_from(_FIELD_NAMES + ["what", "why", "count", "from", "to", "entity"]),
    st.text(max_size=3),
    st.integers(),
    st.none(),
    st.builds(lambda: UNWRITABLE),
    st.tuples(st.integers()),
)
_literals = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(_keys, inner, max_size=4),
    ),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(DOORS),
    st.lists(_literals, max_size=2).map(tuple),
    st.dictionaries(st.sampled_from(_FIELD_NAMES), _literals, max_size=5),
)
def test_the_judge_is_total_over_literal_values(
    door: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    refusal = refusal_of(door, args, kwargs)
    assert refusal is None or (str(refusal).startswith("refused:") and refusal.kind in REFUSAL_KINDS)
    for field, value in kwargs.items():
        if field in DOOR_PARTS[door]:
            part = part_refusal(door, field, value)
            assert part is None or part.kind in REFUSAL_KINDS


def _deep(depth: int, kind: str) -> object:
    value: object = "x"
    for _ in range(depth):
        value = [value] if kind == "list" else {"what": value}
    return value


@pytest.mark.parametrize("kind", ["list", "dict"])
def test_the_judge_is_total_at_any_depth(kind: str) -> None:
    deep = _deep(max(sys.getrecursionlimit() * 20, 50_000), kind)
    for door, kwargs in [
        (
            "described_result",
            {
                "facts": [{"entity": "e", "rows": deep}],
                "provenance": {**PROVENANCE, "ageSeconds": deep},
            },
        ),
        ("described_result", {"facts": deep, "provenance": PROVENANCE}),
        ("absent", {"what": deep, "checked": ["a"]}),
        ("absent", {"what": "w", "checked": [{"what": "a", "why": deep}]}),
        ("coverage", {"checked": ["a"], "inProgress": [{"what": "x", "count": deep}]}),
        ("coverage", {"period": deep}),
    ]:
        refusal = refusal_of(door, ("v",) if door == "coverage" else (), kwargs)
        assert refusal is not None and str(refusal).startswith("refused:")
    # Content nested past what JSON data may be is refused too, naming a short path.
    deep_content = refusal_of("coverage", (deep,), {"checked": ["a"]})
    assert deep_content is not None and "nested deeper than 100" in str(deep_content)
    assert len(str(deep_content)) < 600


def test_an_integer_python_cannot_write_is_refused_as_a_key_not_crashed_on() -> None:
    # str() of such an integer raises ValueError: a key of one was a crash of the mints
    # (and of semantic_issues) instead of a refusal.
    for door, args, kwargs, field in [
        ("described_result", (), {"facts": FACTS, "provenance": {UNWRITABLE: "x"}}, "provenance."),
        ("absent", ({UNWRITABLE: 1},), {}, ""),
        ("coverage", ("v",), {"inProgress": [{UNWRITABLE: 1}], "checked": ["a"]}, "inProgress[0]."),
        ("coverage", ("v",), {"period": {"queried": {UNWRITABLE: 1}}}, "period.queried."),
    ]:
        refusal = refusal_of(door, args, kwargs)
        assert refusal is not None and refusal.kind == UNKNOWN_KEY
        assert refusal.path[-1] == UNWRITABLE
        assert refusal.field == f"{field}<an integer of about 4817 digits>"
    issues = semantic_issues(
        {SEMANTICS_MARKER: True, UNWRITABLE: 1, "grain": {UNWRITABLE: 2}, "facts": FACTS}
    )
    assert [i["field"] for i in issues] == [
        "<an integer of about 4817 digits>",
        "grain.<an integer of about 4817 digits>",
        "provenance",
    ]


@pytest.mark.parametrize(
    ("door", "args", "kwargs"),
    [
        ("absent", ({}, {}), {}),
        ("described_result", (1, 2), {}),
        ("coverage", (1, {}, {}), {}),
        ("absent", (), {1: "x"}),
    ],
)
def test_a_call_python_refuses_is_no_refusal_of_the_mint(
    door: str, args: tuple[Any, ...], kwargs: dict[Any, Any]
) -> None:
    assert refusal_of(door, args, kwargs) is None


# ---------------------------------------------------------------------------
# A part judged alone: the refusal the whole mint gives for it
# ---------------------------------------------------------------------------


def _declaration(door: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Mapping[Any, Any] | None:
    """The declaration dict a call hands the mint, or None when the arguments are not one."""
    positional = args[1:] if door == "coverage" else args
    if positional and kwargs:
        return None
    if positional:
        return positional[0] if isinstance(positional[0], Mapping) else None
    return kwargs


def _declaration_level(door: str, refusal: Refusal, declared: Mapping[Any, Any]) -> bool:
    """A refusal only the whole declaration can give (no part judged alone gives it)."""
    if refusal.kind in (ARGUMENTS, DERIVED_KEY, SAYS_NOTHING) and len(refusal.path) <= 1:
        return True
    if len(refusal.path) == 1 and refusal.kind in (UNKNOWN_KEY, SNAKE_CASE_KEY, MISSING):
        return True
    # coverage(): inProgress needs checked beside it.
    return door == "coverage" and refusal.path == ("checked",) and "inProgress" in declared


def assert_parts_agree_with_the_whole(door: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> None:
    whole = refusal_of(door, args, kwargs)
    declared = _declaration(door, args, kwargs)
    if declared is None:
        return
    parts = {
        field: part_refusal(door, field, value)
        for field, value in declared.items()
        if field in DOOR_PARTS[door] and field != "content"
    }
    if door == "coverage" and args:
        parts["content"] = part_refusal(door, "content", args[0])
    if whole is None:
        assert all(part is None for part in parts.values()), parts
        return
    head = (
        "content" if whole.argument == 0 and door == "coverage" else (whole.path[0] if whole.path else None)
    )
    alone = parts.get(head) if isinstance(head, str) else None
    if alone is None:
        assert _declaration_level(door, whole, declared), (whole, parts)
        return
    assert (alone.path, alone.kind) == (whole.path, whole.kind), (whole, alone)
    if not (door == "absent" and head == "checked"):
        assert str(alone) == str(whole)


@pytest.mark.parametrize("case", cases("absent") + cases("coverage"))
def test_parts_alone_agree_with_the_mint_on_the_reference_cases(case: Any) -> None:
    given_ = case["input"]
    if case["kind"] == "absent":
        args = (given_["decl"],) if "decl" in given_ else ()
        assert_parts_agree_with_the_whole("absent", args, {})
        if isinstance(given_.get("decl"), dict):
            assert_parts_agree_with_the_whole("absent", (), given_["decl"])
    else:
        args = (given_["content"], given_["decl"]) if "decl" in given_ else (given_["content"],)
        assert_parts_agree_with_the_whole("coverage", args, {})


def _as_declaration(envelope: object) -> dict[str, Any] | None:
    """A wire envelope read back as the camelCase declaration that would mint it."""
    if not isinstance(envelope, dict) or envelope.get(SEMANTICS_MARKER) is not True:
        return None
    declaration: dict[str, Any] = {}
    for key, value in envelope.items():
        if key in (SEMANTICS_MARKER, "note"):
            continue
        if key in ("grain", "provenance", "coverage", "render") and isinstance(value, dict):
            value = {to_declaration(k): v for k, v in value.items()}
        declaration[to_declaration(key)] = value
    return declaration


ENVELOPE_DECLARATIONS = [
    pytest.param(_as_declaration(case.values[0]["input"]), id=case.id)
    for case in cases("envelope")
    if _as_declaration(case.values[0]["input"]) is not None
]


@pytest.mark.parametrize("declared", ENVELOPE_DECLARATIONS)
def test_parts_alone_agree_with_the_mint_on_the_reference_envelopes(
    declared: dict[str, Any],
) -> None:
    assert_parts_agree_with_the_whole("described_result", (), declared)
    assert_parts_agree_with_the_whole("described_result", (declared,), {})


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(calls())
def test_parts_alone_agree_with_the_mint_on_generated_declarations(call: Any) -> None:
    try:
        door, args, kwargs = call_arguments(call.module())
    except NotLiteral:
        return
    assert_parts_agree_with_the_whole(door, args, kwargs)


def _nested_list(depth: int) -> str:
    return "[" * depth + "'x'" + "]" * depth


# The envelope is one dict and clarify another: a candidates list nested 98 deep is
# the deepest the mint serves (MAX_DEPTH containers from the top); one level more is
# refused, and deeper still the path is cut at the same step, judged alone or whole.
@pytest.mark.parametrize("depth", [97, 98, 99, 100])
def test_a_part_alone_meets_the_depth_limit_where_the_whole_does(depth: int) -> None:
    # A dict literal that repeats a key keeps the last value: the deep list.
    module = (
        "def tool():\n    return described_result(clarify={'question': 'which vm-01?', "
        f"'candidates': ['a', 'b'], 'candidates': {_nested_list(depth)}}}, "
        "render={'default': 'table'})\n"
    )
    door, args, kwargs = call_arguments(module)
    assert_parts_agree_with_the_whole(door, args, kwargs)
    whole = refusal_of(door, args, kwargs)
    alone = part_refusal(door, "clarify", kwargs["clarify"])
    if depth + 2 <= MAX_DEPTH:
        assert whole is None and alone is None
    else:
        assert whole is not None and alone is not None
        # Cut at the container past the limit: the steps into the 98 lists above it.
        assert alone.path == whole.path == ("clarify", "candidates", *[0] * (MAX_DEPTH - 2))
        assert alone.kind == whole.kind == WRONG_TYPE


@pytest.mark.parametrize("depth", [MAX_DEPTH, MAX_DEPTH + 1])
def test_a_data_part_and_coverage_content_meet_the_depth_limit_where_the_whole_does(
    depth: int,
) -> None:
    """``depth`` lists and dicts from the top of what the mint returns: the deepest it
    serves, and one more."""
    # facts[0].jobs sits under the envelope, the facts list and the row.
    declared = {
        "facts": [{"entity": "vm-01", "jobs": _deep(depth - 3, "list")}],
        "provenance": PROVENANCE,
    }
    # What coverage() wraps sits under the dict it returns.
    content = _deep(depth - 1, "list")
    judged: list[tuple[str, Any, tuple[Any, ...], dict[str, Any], str, object]] = [
        ("described_result", described_result, (), declared, "facts", declared["facts"]),
        ("coverage", coverage, (content,), {"checked": ["a"]}, "content", content),
    ]
    for door, mint, args, kwargs, field, value in judged:
        assert_parts_agree_with_the_whole(door, args, kwargs)
        whole = refusal_of(door, args, kwargs)
        alone = part_refusal(door, field, value)
        assert (whole is None) == (alone is None) == (depth <= MAX_DEPTH), door
        if whole is None:
            json_text(mint(*args, **kwargs))  # what the mint accepts, it serves
        else:
            assert alone is not None and alone.path == whole.path
