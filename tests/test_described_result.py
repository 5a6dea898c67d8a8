"""``described_result``: every refusal path, the did-you-mean, and what it mints.

The mint must refuse at the call site with a message starting ``refused:`` that
names the field as the caller spelled it, and whatever it returns must be an
envelope ``read_semantics`` recognizes (one rule set, two doors).
"""

from __future__ import annotations

import copy
import datetime as dt
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semantics_lint.runtime.envelope.refusal import Refusal
from semantics_lint.runtime.envelope.rules import read_semantics, semantic_issues
from semantics_lint.runtime.mints.described import described_result
from semantics_lint.vocabulary import (
    CAMEL_TO_SNAKE,
    COVERAGE_FIELDS,
    DESCRIBED_RESULT_FIELDS,
    GRAIN_FIELDS,
    PROVENANCE_FIELDS,
    RENDER_FIELDS,
    SEMANTICS_NOTE,
    to_wire,
)

PROVENANCE = {"measuredAt": "2026-08-19T10:20:00Z", "source": "RVTools export"}
FACTS = [{"entity": "vm-01", "state": "up"}]
POINT = {"t": "2026-08-19T10:00:00Z", "entity": "fc1/3", "metric": "avg_iops", "value": 18450}


def refusal_of(*args: Any, **kwargs: Any) -> str:
    """The message of the refusal ``described_result(*args, **kwargs)`` raises."""
    with pytest.raises(Refusal) as raised:
        described_result(*args, **kwargs)
    message = str(raised.value)
    assert message.startswith("refused:"), message
    assert isinstance(raised.value, ValueError)
    return message


def facts_result(**parts: Any) -> dict[str, Any]:
    """A valid facts declaration with ``parts`` laid over it."""
    return {"facts": copy.deepcopy(FACTS), "provenance": dict(PROVENANCE), **parts}


# ---------------------------------------------------------------------------
# What it mints
# ---------------------------------------------------------------------------


def test_the_seed_example_mints_the_snake_case_wire() -> None:
    envelope = described_result(
        facts=[{"entity": "vm-7", "backed_up": True}],
        series=[{"t": "2026-08-18", "entity": "vm-7", "metric": "backup_runs_ok", "value": 3}],
        grain={"interval": "daily", "aggregation": "count", "isCounter": False},
        provenance={"measuredAt": "2026-08-19T02:00:00Z", "source": "cohesity export"},
        coverage={
            "checked": ["every backup job in the export"],
            "cannotCover": [{"what": "PPDM", "why": "not collected on this install"}],
        },
        render={"default": "table", "columns": ["entity", "backed_up"], "sort": "entity"},
    )
    assert envelope == {
        "af_semantics": True,
        "series": [{"t": "2026-08-18", "entity": "vm-7", "metric": "backup_runs_ok", "value": 3}],
        "facts": [{"entity": "vm-7", "backed_up": True}],
        "grain": {"interval": "daily", "aggregation": "count", "is_counter": False},
        "provenance": {"measured_at": "2026-08-19T02:00:00Z", "source": "cohesity export"},
        "coverage": {
            "checked": [{"what": "every backup job in the export"}],
            "cannot_cover": [{"what": "PPDM", "why": "not collected on this install"}],
        },
        "not_covered": ["PPDM \u2014 not collected on this install"],
        "render": {"default": "table", "columns": ["entity", "backed_up"], "sort": "entity"},
        "note": SEMANTICS_NOTE,
    }
    assert list(envelope) == [
        "af_semantics",
        "series",
        "facts",
        "grain",
        "provenance",
        "coverage",
        "not_covered",
        "render",
        "note",
    ]
    assert read_semantics(envelope) is envelope


def test_one_positional_dict_mints_what_keywords_mint() -> None:
    assert described_result(facts_result()) == described_result(**facts_result())


def test_every_respelled_field_reaches_the_wire_in_snake_case() -> None:
    envelope = described_result(
        series=[dict(POINT)],
        grain={"interval": "30m", "aggregation": "avg", "isCounter": False, "collapsed": "ports"},
        provenance={
            "measuredAt": "newest sample",
            "source": "InfluxDB",
            "ageSeconds": 0,
            "sourceExportDate": "2026-08-19",
        },
        render={"default": "chart", "filterNote": "only fabric A", "chartHint": "line"},
    )
    assert envelope["grain"] == {
        "interval": "30m",
        "aggregation": "avg",
        "is_counter": False,
        "collapsed": "ports",
    }
    assert envelope["provenance"] == {
        "measured_at": "newest sample",
        "source": "InfluxDB",
        "age_seconds": 0,
        "source_export_date": "2026-08-19",
    }
    assert envelope["render"] == {
        "default": "chart",
        "filter_note": "only fabric A",
        "chart_hint": "line",
    }
    assert semantic_issues(envelope) == []


def test_coverage_items_are_normalized_and_not_covered_composed() -> None:
    envelope = described_result(
        **facts_result(
            coverage={
                "checked": ["  all 48 FC ports\ufeff"],
                "notChecked": [{"what": " the peer fabric ", "why": " scoped to one fabric "}],
                "cannotCover": [{"what": "host multipathing", "why": "no collector"}],
            }
        )
    )
    assert envelope["coverage"] == {
        "checked": [{"what": "all 48 FC ports"}],
        "not_checked": [{"what": "the peer fabric", "why": "scoped to one fabric"}],
        "cannot_cover": [{"what": "host multipathing", "why": "no collector"}],
    }
    assert envelope["not_covered"] == [
        "the peer fabric \u2014 scoped to one fabric",
        "host multipathing \u2014 no collector",
    ]
    assert read_semantics(envelope) is envelope


def test_checked_only_coverage_composes_no_not_covered() -> None:
    envelope = described_result(**facts_result(coverage={"checked": ["the export"]}))
    assert "not_covered" not in envelope


def test_a_clarify_only_result_needs_no_provenance() -> None:
    envelope = described_result(clarify={"question": "Which vm-01?", "candidates": ["a", "b"]})
    assert envelope == {
        "af_semantics": True,
        "clarify": {"question": "Which vm-01?", "candidates": ["a", "b"]},
        "note": SEMANTICS_NOTE,
    }
    assert read_semantics(envelope) is envelope


def test_clarify_without_candidates_is_an_open_question() -> None:
    envelope = described_result(clarify={"question": "Which one?"})
    assert envelope["clarify"] == {"question": "Which one?", "candidates": []}


def test_clarify_none_is_kept_beside_data() -> None:
    envelope = described_result(**facts_result(clarify=None))
    assert envelope["clarify"] is None
    assert read_semantics(envelope) is envelope


def test_edges_alone_need_no_provenance() -> None:
    envelope = described_result(edges=[{"from": "vm-01", "to": "ds-2", "kind": "stored_on"}])
    assert read_semantics(envelope) is envelope
    assert "provenance" not in envelope


def test_period_is_not_a_field_of_this_release() -> None:
    message = refusal_of(**facts_result(period={"queried": "x", "held": "unknown"}))
    assert message.startswith("refused: period ")


def test_measured_at_is_never_parsed() -> None:
    envelope = described_result(
        **facts_result(provenance={"measuredAt": "last year, roughly", "source": "the team wiki"})
    )
    assert envelope["provenance"]["measured_at"] == "last year, roughly"


@pytest.mark.parametrize("age", [0, 0.0, 1.5, 86400, 10**15])
def test_finite_non_negative_ages_are_accepted(age: float) -> None:
    provenance = {**PROVENANCE, "ageSeconds": age}
    envelope = described_result(**facts_result(provenance=provenance))
    assert envelope["provenance"]["age_seconds"] == age


def test_data_lists_are_fresh_lists_and_iterables_are_accepted() -> None:
    rows = [{"entity": "vm-01"}]
    envelope = described_result(facts=rows, provenance=dict(PROVENANCE))
    assert envelope["facts"] == rows and envelope["facts"] is not rows
    generated = described_result(facts=(r for r in rows), provenance=dict(PROVENANCE))
    assert generated["facts"] == rows


def test_the_declaration_is_not_changed() -> None:
    declaration = facts_result(
        grain={"aggregation": "avg"},
        coverage={"checked": [" a "], "cannotCover": [{"what": "b", "why": "c"}]},
        render={"default": "table", "columns": ("entity",)},
    )
    before = copy.deepcopy(declaration)
    described_result(declaration)
    assert declaration == before


# ---------------------------------------------------------------------------
# How it is called
# ---------------------------------------------------------------------------


def test_a_dict_and_keywords_together_are_refused() -> None:
    message = refusal_of(facts_result(), render={"default": "table"})
    assert "not both" in message


@pytest.mark.parametrize("decl", [["facts"], "facts", 5, True])
def test_a_declaration_that_is_not_a_dict_is_refused(decl: Any) -> None:
    assert "takes a declaration" in refusal_of(decl)


def test_an_empty_declaration_declares_nothing() -> None:
    assert "declares nothing" in refusal_of()


def test_clarify_none_alone_declares_nothing() -> None:
    assert "declares nothing" in refusal_of(clarify=None)


def test_caveats_with_nothing_to_caveat_declare_nothing() -> None:
    message = refusal_of(provenance=dict(PROVENANCE), grain={"interval": "daily"})
    assert "declares nothing" in message


# ---------------------------------------------------------------------------
# Keys: refused, never dropped
# ---------------------------------------------------------------------------

_SPELLED_PARTS = {
    "grain": GRAIN_FIELDS,
    "provenance": PROVENANCE_FIELDS,
    "coverage": COVERAGE_FIELDS,
    "render": RENDER_FIELDS,
}
SNAKE_CASE_SLIPS = [
    pytest.param(part, field, id=f"{part}.{to_wire(field)}")
    for part, fields in _SPELLED_PARTS.items()
    for field in fields
    if to_wire(field) != field
]


def test_the_snake_case_slips_are_the_eight_respelled_fields() -> None:
    slipped = {param.values[1] for param in SNAKE_CASE_SLIPS}
    assert slipped == {
        "isCounter",
        "measuredAt",
        "ageSeconds",
        "sourceExportDate",
        "filterNote",
        "chartHint",
        "notChecked",
        "cannotCover",
    }
    assert slipped <= set(CAMEL_TO_SNAKE)


def _valid_part(part: str) -> dict[str, Any]:
    return {
        "grain": {"interval": "daily", "isCounter": False},
        "provenance": dict(PROVENANCE),
        "coverage": {"checked": ["the export"]},
        "render": {"default": "table"},
    }[part]


@pytest.mark.parametrize(("part", "field"), SNAKE_CASE_SLIPS)
def test_a_snake_case_key_names_the_camel_case_one(part: str, field: str) -> None:
    snake = to_wire(field)
    value: Any = "x"
    if part == "coverage":
        value = [{"what": "w", "why": "y"}]
    elif field == "isCounter":
        value = True
    elif field == "ageSeconds":
        value = 5
    declared = _valid_part(part)
    declared.pop(field, None)
    declared[snake] = value
    message = refusal_of(**facts_result(**{part: declared}))
    assert message.startswith(f"refused: {part}.{snake}: did you mean {field}?"), message


def test_a_snake_case_key_in_a_positional_dict_is_refused_too() -> None:
    declaration = facts_result(provenance={"measured_at": "t", "source": "s"})
    message = refusal_of(declaration)
    assert message.startswith("refused: provenance.measured_at: did you mean measuredAt?")


@pytest.mark.parametrize(
    ("declaration", "named"),
    [
        pytest.param(facts_result(rows=[1]), "rows", id="top-level"),
        pytest.param(facts_result(grain={"window": "1d"}), "grain.window", id="grain"),
        pytest.param(
            facts_result(provenance={**PROVENANCE, "owner": "ops"}),
            "provenance.owner",
            id="provenance",
        ),
        pytest.param(
            facts_result(coverage={"checked": ["a"], "skipped": ["b"]}),
            "coverage.skipped",
            id="coverage",
        ),
        pytest.param(
            {"clarify": {"question": "which?", "candidates": [], "options": []}},
            "clarify.options",
            id="clarify",
        ),
        pytest.param(
            facts_result(render={"default": "table", "width": 3}),
            "render.width",
            id="render",
        ),
        pytest.param(
            facts_result(coverage={"notChecked": [{"what": "a", "reason": "b"}]}),
            "coverage.notChecked[0].reason",
            id="coverage-item",
        ),
        pytest.param(
            facts_result(coverage={"cannotCover": [{"what": "a", "why": "b", "whn": 1}]}),
            "coverage.cannotCover[0].whn",
            id="cannot-cover-item",
        ),
    ],
)
def test_a_key_a_part_does_not_have_is_refused(declaration: dict[str, Any], named: str) -> None:
    assert refusal_of(declaration).startswith(f"refused: {named}")


def test_a_typo_names_the_close_field() -> None:
    message = refusal_of(**facts_result(provenance={"measuerdAt": "t", "source": "s"}))
    assert "provenance.measuerdAt" in message and "measuredAt" in message


@pytest.mark.parametrize("derived", ["notCovered", "not_covered", "note", "af_semantics"])
def test_a_derived_field_is_refused(derived: str) -> None:
    message = refusal_of(facts_result(**{derived: ["x"] if "overed" in derived else True}))
    assert message.startswith(f"refused: {derived} ")


def test_a_keyword_that_only_python_could_pass_is_refused() -> None:
    declaration: dict[Any, Any] = facts_result()
    declaration[3] = "x"
    assert refusal_of(declaration).startswith("refused: 3")


# ---------------------------------------------------------------------------
# Data lists and rows
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("field", ["facts", "series", "edges"])
@pytest.mark.parametrize("empty", [[], ()], ids=["list", "tuple"])
def test_an_empty_data_list_points_to_absent(field: str, empty: Any) -> None:
    extra: dict[str, Any] = {"grain": {"interval": "daily"}} if field == "series" else {}
    declaration = {field: empty, "provenance": dict(PROVENANCE), **extra}
    message = refusal_of(**declaration)
    assert message.startswith(f"refused: {field}:")
    assert "absent(what=..., checked=...)" in message


@pytest.mark.parametrize(
    ("declaration", "field"),
    [
        pytest.param({"facts": [{"state": "up"}]}, "facts[0].entity", id="fact-no-entity"),
        pytest.param({"facts": [{"entity": " \ufeff"}]}, "facts[0].entity", id="fact-blank"),
        pytest.param({"facts": ["vm-01"]}, "facts[0].entity", id="fact-not-a-dict"),
        pytest.param({"facts": {"entity": "a"}}, "facts", id="facts-a-dict"),
        pytest.param({"facts": None}, "facts", id="facts-none"),
        pytest.param({"edges": [{"from": "a", "to": "b"}]}, "edges[0]", id="edge-no-kind"),
        pytest.param(
            {"series": [{**POINT, "t": True}], "grain": {"interval": "d"}},
            "series[0].t",
            id="point-bool-t",
        ),
        pytest.param(
            {
                "series": [{k: v for k, v in POINT.items() if k != "value"}],
                "grain": {"interval": "d"},
            },
            "series[0].value",
            id="point-no-value",
        ),
    ],
)
def test_a_row_that_cannot_be_honoured_is_refused(declaration: dict[str, Any], field: str) -> None:
    message = refusal_of(**{"provenance": dict(PROVENANCE), **declaration})
    assert message.startswith(f"refused: {field}:"), message


# ---------------------------------------------------------------------------
# Grain, provenance, coverage, clarify, render: the rule set in camelCase words
# ---------------------------------------------------------------------------


def test_series_without_grain_is_refused() -> None:
    message = refusal_of(series=[dict(POINT)], provenance=dict(PROVENANCE))
    assert message.startswith("refused: grain:")


def test_series_with_grain_none_is_a_malformed_grain() -> None:
    message = refusal_of(series=[dict(POINT)], grain=None, provenance=dict(PROVENANCE))
    assert message.startswith("refused: grain:") and "dict" in message


@pytest.mark.parametrize("aggregation", ["sum", "Counts", "bytes_total", "delta per hour"])
def test_a_counter_looking_aggregation_needs_is_counter(aggregation: str) -> None:
    message = refusal_of(
        series=[dict(POINT)], grain={"aggregation": aggregation}, provenance=dict(PROVENANCE)
    )
    assert message.startswith("refused: grain.isCounter:")


@pytest.mark.parametrize("stated", [True, False])
def test_a_stated_is_counter_passes(stated: bool) -> None:
    envelope = described_result(
        series=[dict(POINT)],
        grain={"aggregation": "sum", "isCounter": stated},
        provenance=dict(PROVENANCE),
    )
    assert envelope["grain"]["is_counter"] is stated


@pytest.mark.parametrize("value", [1, 0, "true", None])
def test_is_counter_must_be_a_bool(value: Any) -> None:
    message = refusal_of(**facts_result(grain={"isCounter": value}))
    assert message.startswith("refused: grain.isCounter:")


@pytest.mark.parametrize("grain", [{}, {"interval": ""}, {"aggregation": "  "}, {"collapsed": 3}])
def test_a_grain_that_says_nothing_is_refused(grain: dict[str, Any]) -> None:
    assert refusal_of(**facts_result(grain=grain)).startswith("refused: grain")


def test_facts_without_provenance_are_refused() -> None:
    assert refusal_of(facts=copy.deepcopy(FACTS)).startswith("refused: provenance:")


@pytest.mark.parametrize("provenance", [None, "RVTools", ["a"]])
def test_a_provenance_that_is_not_a_dict_is_refused(provenance: Any) -> None:
    message = refusal_of(**facts_result(provenance=provenance))
    assert message.startswith("refused: provenance:")


@pytest.mark.parametrize(
    ("provenance", "field"),
    [
        ({"source": "s"}, "provenance.measuredAt"),
        ({"measuredAt": "", "source": "s"}, "provenance.measuredAt"),
        ({"measuredAt": "\u3000", "source": "s"}, "provenance.measuredAt"),
        ({"measuredAt": dt.datetime(2026, 8, 19), "source": "s"}, "provenance.measuredAt"),
        ({"measuredAt": "t"}, "provenance.source"),
        ({"measuredAt": "t", "source": None}, "provenance.source"),
        ({**PROVENANCE, "sourceExportDate": ""}, "provenance.sourceExportDate"),
    ],
)
def test_provenance_needs_measured_at_and_source(provenance: dict[str, Any], field: str) -> None:
    assert refusal_of(**facts_result(provenance=provenance)).startswith(f"refused: {field}:")


@pytest.mark.parametrize("age", [-1, -0.5, math.inf, -math.inf, math.nan, True, False, "5", None, [1]])
def test_age_seconds_must_be_a_finite_number_at_least_zero(age: Any) -> None:
    message = refusal_of(**facts_result(provenance={**PROVENANCE, "ageSeconds": age}))
    assert message.startswith("refused: provenance.ageSeconds:")


@pytest.mark.parametrize(
    ("coverage", "named"),
    [
        pytest.param(None, "coverage", id="none"),
        pytest.param(["a"], "coverage", id="a-list"),
        pytest.param({}, "no ground", id="empty"),
        pytest.param({"checked": []}, "no ground", id="empty-lists"),
        pytest.param({"checked": None}, "coverage.checked", id="list-none"),
        pytest.param({"notChecked": "a"}, "coverage.notChecked", id="list-a-string"),
        pytest.param({"checked": [""]}, "coverage.checked[0]", id="blank-item"),
        pytest.param({"checked": [{"why": "b"}]}, "coverage.checked[0]", id="item-no-what"),
        pytest.param({"notChecked": [{"what": "a", "why": " "}]}, "coverage.notChecked[0]", id="blank-why"),
        pytest.param({"cannotCover": ["PPDM"]}, "coverage.cannotCover[0]", id="bare-string"),
        pytest.param({"cannotCover": [{"what": "PPDM"}]}, "coverage.cannotCover[0]", id="no-why"),
        pytest.param(
            {"cannotCover": [{"what": "PPDM", "why": None}]},
            "coverage.cannotCover[0]",
            id="why-none",
        ),
    ],
)
def test_a_malformed_coverage_is_refused(coverage: Any, named: str) -> None:
    assert named in refusal_of(**facts_result(coverage=coverage))


@pytest.mark.parametrize(
    ("clarify", "field"),
    [
        ({"candidates": ["a"]}, "clarify.question"),
        ({"question": "", "candidates": []}, "clarify.question"),
        ({"question": "which?", "candidates": "a, b"}, "clarify.candidates"),
        ("which one?", "clarify"),
    ],
)
def test_a_malformed_clarify_is_refused(clarify: Any, field: str) -> None:
    assert refusal_of(clarify=clarify).startswith(f"refused: {field}:")


@pytest.mark.parametrize(
    ("render", "field"),
    [
        ({"columns": ["entity"]}, "render.default"),
        ({"default": "table", "columns": []}, "render.columns"),
        ({"default": "table", "columns": ["entity", ""]}, "render.columns"),
        ({"default": "table", "sort": ""}, "render.sort"),
        ({"default": "table", "filterNote": " "}, "render.filterNote"),
        ({"default": "table", "chartHint": 3}, "render.chartHint"),
        ("table", "render"),
    ],
)
def test_a_malformed_render_is_refused(render: Any, field: str) -> None:
    assert refusal_of(**facts_result(render=render)).startswith(f"refused: {field}:")


# ---------------------------------------------------------------------------
# Properties: whatever it returns is recognized; whatever it refuses says so
# ---------------------------------------------------------------------------

_json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(alphabet=st.sampled_from([" ", "\ufeff", "\u0085", "a", "b", "_", "\u3000"]), max_size=4)
)
_json = st.recursive(
    _json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
_words = st.text(alphabet="abcdefghij -", min_size=1, max_size=8).filter(lambda s: s.strip(" -"))
_item = _words | st.fixed_dictionaries({"what": _words}, optional={"why": _words})
_why_item = st.fixed_dictionaries({"what": _words, "why": _words})

_valid_point = st.fixed_dictionaries(
    {"t": _words | st.integers(0, 2**40), "entity": _words, "metric": _words, "value": _json}
)
_valid_fact = st.fixed_dictionaries({"entity": _words}, optional={"state": _json})
_valid_edge = st.fixed_dictionaries({"from": _words, "to": _words, "kind": _words})
_valid_grain = st.fixed_dictionaries(
    {"isCounter": st.booleans()},
    optional={"interval": _words, "aggregation": _words, "collapsed": _words},
)
_valid_provenance = st.fixed_dictionaries(
    {"measuredAt": _words, "source": _words},
    optional={
        "ageSeconds": st.integers(0, 10**9) | st.floats(0, 1e9),
        "sourceExportDate": _words,
    },
)
_valid_coverage = st.fixed_dictionaries(
    {"checked": st.lists(_item, min_size=1, max_size=3)},
    optional={
        "notChecked": st.lists(_item, max_size=3),
        "cannotCover": st.lists(_why_item, max_size=3),
    },
)
_valid_clarify = st.none() | st.fixed_dictionaries(
    {"question": _words}, optional={"candidates": st.lists(_words, max_size=3)}
)
_valid_render = st.fixed_dictionaries(
    {"default": _words},
    optional={
        "columns": st.lists(_words, min_size=1, max_size=3),
        "sort": _words,
        "filterNote": _words,
        "chartHint": _words,
    },
)


@st.composite
def valid_declarations(draw: st.DrawFn) -> dict[str, Any]:
    """Declarations every rule accepts: data with provenance (and grain for series)."""
    declaration: dict[str, Any] = {}
    for field, rows in (("series", _valid_point), ("facts", _valid_fact), ("edges", _valid_edge)):
        if draw(st.booleans()):
            declaration[field] = draw(st.lists(rows, min_size=1, max_size=3))
    if not declaration or draw(st.booleans()):
        declaration["clarify"] = draw(_valid_clarify.filter(lambda c: c is not None))
    if "series" in declaration or draw(st.booleans()):
        declaration["grain"] = draw(_valid_grain)
    if "series" in declaration or "facts" in declaration or draw(st.booleans()):
        declaration["provenance"] = draw(_valid_provenance)
    for part, values in (("coverage", _valid_coverage), ("render", _valid_render)):
        if draw(st.booleans()):
            declaration[part] = draw(values)
    return declaration


_any_key = (
    st.sampled_from(DESCRIBED_RESULT_FIELDS)
    | st.sampled_from(sorted(CAMEL_TO_SNAKE.values()))
    | st.sampled_from(["notCovered", "note", "af_semantics", "period"])
    | st.text(max_size=6)
)
_part_value = (
    st.sampled_from(
        [_valid_grain, _valid_provenance, _valid_coverage, _valid_clarify, _valid_render]
    ).flatmap(lambda strategy: strategy)
    | _json
)


@st.composite
def any_declarations(draw: st.DrawFn) -> dict[str, Any]:
    """Valid declarations with random damage: keys added, dropped, respelled, replaced."""
    declaration = draw(valid_declarations())
    for _ in range(draw(st.integers(0, 3))):
        action = draw(st.sampled_from(["add", "drop", "respell", "replace", "nested"]))
        if action == "add":
            declaration[draw(_any_key)] = draw(_part_value)
        elif action == "drop" and declaration:
            declaration.pop(draw(st.sampled_from(sorted(declaration))))
        elif action == "respell" and declaration:
            key = draw(st.sampled_from(sorted(declaration)))
            part = declaration[key]
            if isinstance(part, dict) and part:
                inner = draw(st.sampled_from(sorted(part)))
                part[to_wire(inner)] = part.pop(inner)
        elif action == "replace" and declaration:
            declaration[draw(st.sampled_from(sorted(declaration)))] = draw(_json)
        elif action == "nested" and declaration:
            part = declaration[draw(st.sampled_from(sorted(declaration)))]
            if isinstance(part, dict):
                part[draw(_any_key)] = draw(_json)
    return declaration


@settings(max_examples=300, deadline=None)
@given(valid_declarations())
def test_a_valid_declaration_mints_a_recognized_envelope(declaration: dict[str, Any]) -> None:
    envelope = described_result(**declaration)
    assert read_semantics(envelope) is envelope
    assert semantic_issues(envelope) == []


@settings(max_examples=500, deadline=None)
@given(any_declarations(), st.booleans())
def test_the_mint_returns_a_recognized_envelope_or_refuses(
    declaration: dict[str, Any], positional: bool
) -> None:
    try:
        if positional:
            envelope = described_result(declaration)
        else:
            keywords = {k: v for k, v in declaration.items() if k.isidentifier()}
            envelope = described_result(**keywords)
    except Refusal as refusal:
        assert str(refusal).startswith("refused:")
        return
    assert read_semantics(envelope) is envelope
