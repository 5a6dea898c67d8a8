"""The wire-envelope rule set: judge, recognize, explain and project semantic envelopes.

This is a faithful Python reading of the reference framework's envelope rules
(agentfootprint 9.62.0). A *wire envelope* is the snake_case dict that
``described_result`` mints and that saved records keep:
``{"af_semantics": True, "facts": [...], "provenance": {...}, ...}``.

The rule set is written once, in :func:`_issues_in`. It always reads the value in
the wire spelling, but names the fields it faults in a *spelling* chosen by the
caller: recognition and the ``check-semantics`` gate speak the wire's own words
(``grain.is_counter``), while the ``described_result`` mint judges its candidate
with the same rules and names the fields the way its author wrote them
(``grain.isCounter``). Only the words differ, never what is judged.

Traps this module keeps, because the reference keeps them:

* a key present with value ``None`` (JSON ``null``) is *present*: ``grain: None``
  is a malformed grain, not a missing one. "Absent" means the key is not there;
* a ``bool`` is not a number (``age_seconds: True`` is invalid, ``t: True`` is
  not a time) although Python makes ``bool`` a subclass of ``int``;
* "non-empty" means non-empty after JavaScript's ``trim()``, whose whitespace
  set differs from ``str.strip()``'s (see ``vocabulary.js_trim``);
* issues come out in the reference's order, unknown keys in the order the
  object holds them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final, TypedDict

from semantics_lint.vocabulary import (
    ABSENCE_MARKER,
    CLARIFY_WIRE_KEYS,
    COVERAGE_MARKER,
    COVERAGE_WIRE_KEYS,
    ENVELOPE_WIRE_KEYS,
    GRAIN_WIRE_KEYS,
    PROVENANCE_WIRE_KEYS,
    RENDER_WIRE_KEYS,
    SEMANTICS_MARKER,
    SEMANTICS_NOTE,
    is_counter_looking_aggregation,
    is_non_empty_string,
    js_trim,
    to_declaration,
)

__all__ = [
    "DECLARATION_SPELLING",
    "WIRE_SPELLING",
    "SemanticIssue",
    "Spelling",
    "compose_not_covered",
    "explain_semantics",
    "is_counter_looking_aggregation",
    "is_finite_number",
    "js_number",
    "js_number_text",
    "issues_in",
    "provenance_issues",
    "read_coverage_result",
    "read_semantics",
    "semantic_issues",
    "semantics_for_model",
]


class SemanticIssue(TypedDict):
    """One fault of an envelope: its code, the dot-pathed field, and what to do."""

    code: str
    field: str
    message: str


Spelling = Callable[[str], str]
"""How a door names a wire field: takes the wire key, returns the key as its author spells it."""


def _wire_spelling(key: str) -> str:
    return key


WIRE_SPELLING: Final[Spelling] = _wire_spelling
"""The wire's own words: what recognition and the gate report (``grain.is_counter``)."""

DECLARATION_SPELLING: Final[Spelling] = to_declaration
"""The declaration's camelCase words: what the ``described_result`` mint reports."""

MALFORMED: Final = "malformed-semantics"
SERIES_WITHOUT_GRAIN: Final = "series-without-grain"
COUNTER_UNSTATED: Final = "counter-aggregation-unstated"
DATA_WITHOUT_PROVENANCE: Final = "data-without-provenance"

_ENVELOPE_KEYS: Final = frozenset(ENVELOPE_WIRE_KEYS)
_GRAIN_KEYS: Final = frozenset(GRAIN_WIRE_KEYS)
_PROVENANCE_KEYS: Final = frozenset(PROVENANCE_WIRE_KEYS)
_COVERAGE_KEYS: Final = frozenset(COVERAGE_WIRE_KEYS)
_CLARIFY_KEYS: Final = frozenset(CLARIFY_WIRE_KEYS)
_RENDER_KEYS: Final = frozenset(RENDER_WIRE_KEYS)

# The grain fields that are strings (``is_counter`` is judged on its own).
_GRAIN_STRING_KEYS: Final = ("interval", "aggregation", "collapsed")
# The optional string hints of a render part, in the order they are judged.
_RENDER_STRING_KEYS: Final = ("sort", "filter_note", "chart_hint")

_MISSING: Final = object()
"""A key that is not there (JavaScript's ``undefined``); ``None`` is JSON ``null``."""


def _is_plain_object(value: object) -> bool:
    return isinstance(value, dict)


def _is_number(value: object) -> bool:
    # ``typeof v === 'number'``: a bool is not a number, whatever Python says.
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def js_number(value: object) -> float | None:
    """The double JavaScript holds for a Python number, or None for anything else.

    Total over ints and floats: an int too large for a double is +/-Infinity, as the
    reference's ``JSON.parse`` reads a number literal of 400 digits; any other int is
    the nearest double (Python rounds as JavaScript does). A bool is not a number.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float):
        return value
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def is_finite_number(value: object) -> bool:
    """``Number.isFinite`` of the value as JavaScript would hold it (a bool is not a number)."""
    number = js_number(value)
    return number is not None and math.isfinite(number)


def js_number_text(value: float) -> str:
    """A double as JavaScript's ``String(number)`` writes it (``1e-7``, ``1e+21``, ``0.5``)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    # repr gives the shortest digits that read back as the same double, which is
    # what ECMAScript's Number::toString asks for; only the layout differs.
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    point = len(whole) + int(exponent or 0) - (len(whole + fraction) - len(digits))
    digits = digits.rstrip("0")
    k, n = len(digits), point
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = f"{digits[:n]}.{digits[n:]}"
    elif -6 < n <= 0:
        text = f"0.{'0' * -n}{digits}"
    else:
        e = n - 1
        head = digits if k == 1 else f"{digits[0]}.{digits[1:]}"
        text = f"{head}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + text


def _malformed(field: str, message: str) -> SemanticIssue:
    return {"code": MALFORMED, "field": field, "message": message}


def _js_string(value: object) -> str:
    """``value`` as a JavaScript template literal would print it (JSON values only)."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    number = js_number(value)
    if number is not None:
        return js_number_text(number)
    if isinstance(value, list):
        return ",".join("" if v is None else _js_string(v) for v in value)
    return "[object Object]"


def compose_not_covered(coverage: dict[str, Any]) -> list[str]:
    """The ``not_covered`` lines of a rendered coverage: every not-checked item, then
    every cannot-cover item, as ``what`` or ``what — why`` (space, EM DASH, space).

    The one derivation, shared by the mint and the drift check, so the two cannot
    disagree. Items are used as given (a rendered envelope's items are not
    trimmed); a missing or ``None`` list is empty.
    """
    items: list[Any] = []
    for key in ("not_checked", "cannot_cover"):
        listed = coverage.get(key)
        if listed is not None:
            items.extend(listed)
    lines: list[str] = []
    for item in items:
        what = item.get("what", _MISSING)
        why = item.get("why", _MISSING)
        if why is _MISSING:
            lines.append(what)
        else:
            what_text = "undefined" if what is _MISSING else _js_string(what)
            lines.append(f"{what_text} \u2014 {_js_string(why)}")
    return lines


def _check_item_list(
    issues: list[SemanticIssue], field: str, listed: object, require_why: bool
) -> list[dict[str, Any]]:
    """Judge one rendered coverage list; return its well-formed items (untrimmed)."""
    if listed is _MISSING:
        return []
    if not isinstance(listed, list):
        issues.append(
            _malformed(field, f"`{field}` must be a list of {{what, why?}} items, or left out.")
        )
        return []
    items: list[dict[str, Any]] = []
    for i, raw in enumerate(listed):
        at = f"{field}[{i}]"
        if not _is_plain_object(raw) or not is_non_empty_string(raw.get("what", _MISSING)):
            issues.append(
                _malformed(
                    at,
                    f"`{at}` names no ground: a rendered coverage item is "
                    "{what, why?} with a non-empty `what`.",
                )
            )
            continue
        why = raw.get("why", _MISSING)
        if why is not _MISSING and not is_non_empty_string(why):
            issues.append(
                _malformed(f"{at}.why", f"`{at}.why` says nothing: give a reason or leave it out.")
            )
            continue
        if require_why and why is _MISSING:
            issues.append(
                _malformed(
                    f"{at}.why",
                    f"`{at}` ('{js_trim(raw['what'])}') has no `why`: a permanent blind spot "
                    "must say what makes it permanent.",
                )
            )
            continue
        item: dict[str, Any] = {"what": raw["what"]}
        if why is not _MISSING:
            item["why"] = why
        items.append(item)
    return items


def _data_list_issues(
    issues: list[SemanticIssue], field: str, listed: object, row_issues: Callable[[int, Any], None]
) -> None:
    """The shared shape rule of ``series``/``facts``/``edges``: a non-empty list."""
    if isinstance(listed, list) and not listed:
        issues.append(
            _malformed(
                field,
                f"`{field}` is empty: if nothing matched, return "
                "absent(what=..., checked=...) instead.",
            )
        )
    elif not isinstance(listed, list):
        issues.append(
            _malformed(field, f"`{field}` must be a non-empty list of rows, or left out.")
        )
    else:
        for i, row in enumerate(listed):
            row_issues(i, row)


def provenance_issues(provenance: object, spell: Spelling = WIRE_SPELLING) -> list[SemanticIssue]:
    """The provenance rule over one present (wire-spelled) ``provenance`` value."""
    measured_at = f"provenance.{spell('measured_at')}"
    age_seconds = f"provenance.{spell('age_seconds')}"
    export_date = f"provenance.{spell('source_export_date')}"
    if not _is_plain_object(provenance):
        return [
            _malformed(
                "provenance",
                f"`provenance` must be a dict ({{{spell('measured_at')}, source, "
                f"{spell('age_seconds')}?, {spell('source_export_date')}?}}).",
            )
        ]
    assert isinstance(provenance, dict)
    issues: list[SemanticIssue] = []
    for key in provenance:
        if key not in _PROVENANCE_KEYS:
            issues.append(
                _malformed(f"provenance.{key}", f"`provenance.{key}` is not a provenance field.")
            )
    if not is_non_empty_string(provenance.get("measured_at", _MISSING)):
        issues.append(
            {
                "code": DATA_WITHOUT_PROVENANCE,
                "field": measured_at,
                "message": (
                    f"`{measured_at}` must say when the world was measured, taken from the "
                    "data (the export's time, the newest sample), as a non-empty string."
                ),
            }
        )
    if not is_non_empty_string(provenance.get("source", _MISSING)):
        issues.append(
            {
                "code": DATA_WITHOUT_PROVENANCE,
                "field": "provenance.source",
                "message": (
                    "`provenance.source` must name the system of record the values were read from."
                ),
            }
        )
    age = provenance.get("age_seconds", _MISSING)
    if age is not _MISSING and not (is_finite_number(age) and age >= 0):
        issues.append(
            _malformed(age_seconds, f"`{age_seconds}` must be a finite number >= 0, or left out.")
        )
    export = provenance.get("source_export_date", _MISSING)
    if export is not _MISSING and not is_non_empty_string(export):
        issues.append(
            _malformed(export_date, f"`{export_date}` must be a non-empty string, or left out.")
        )
    return issues


def issues_in(value: object, spell: Spelling = WIRE_SPELLING) -> list[SemanticIssue]:
    """The whole rule set over a wire-spelled ``value``, naming fields with ``spell``.

    :func:`semantic_issues` is this with the wire's spelling; the ``described_result``
    mint passes :data:`DECLARATION_SPELLING` so its refusals quote camelCase names.
    """
    if not _is_plain_object(value):
        return [_malformed(SEMANTICS_MARKER, "a semantic envelope is a plain dict.")]
    assert isinstance(value, dict)
    marker = value.get(SEMANTICS_MARKER, _MISSING)
    if marker is not True:
        return [
            _malformed(
                SEMANTICS_MARKER,
                f"`{SEMANTICS_MARKER}` must be exactly true: the marker is the vocabulary.",
            )
        ]
    issues: list[SemanticIssue] = []
    for key in value:
        if key not in _ENVELOPE_KEYS:
            issues.append(
                _malformed(
                    str(key),
                    f"this result carries '{key}', which is not a field of an envelope; the "
                    "fields are series, facts, edges, grain, provenance, coverage, clarify, "
                    "render (not_covered and note are derived).",
                )
            )

    # -- series --
    series = value.get("series", _MISSING)

    def series_point(i: int, point: Any) -> None:
        at = f"series[{i}]"
        if not _is_plain_object(point):
            issues.append(
                _malformed(at, f"`{at}` is not a point dict {{t, entity, metric, value}}.")
            )
            return
        t = point.get("t", _MISSING)
        if not (isinstance(t, str) or _is_number(t)):
            issues.append(
                _malformed(
                    f"{at}.t",
                    f"`{at}.t` must be the measurement time (an ISO string or an epoch number).",
                )
            )
        if not is_non_empty_string(point.get("entity", _MISSING)):
            issues.append(_malformed(f"{at}.entity", f"`{at}.entity` must name what was measured."))
        if not is_non_empty_string(point.get("metric", _MISSING)):
            issues.append(_malformed(f"{at}.metric", f"`{at}.metric` must name the measurement."))
        if "value" not in point:
            issues.append(
                _malformed(f"{at}.value", f"`{at}` has no `value`: a point with no reading.")
            )

    if series is not _MISSING:
        _data_list_issues(issues, "series", series, series_point)

    # -- facts --
    facts = value.get("facts", _MISSING)

    def fact_row(i: int, row: Any) -> None:
        if not _is_plain_object(row) or not is_non_empty_string(row.get("entity", _MISSING)):
            issues.append(
                _malformed(
                    f"facts[{i}].entity",
                    f"`facts[{i}]` must say what it is about: every row needs a non-empty "
                    "`entity`.",
                )
            )

    if facts is not _MISSING:
        _data_list_issues(issues, "facts", facts, fact_row)

    # -- edges --
    edges = value.get("edges", _MISSING)

    def edge(i: int, link: Any) -> None:
        if not _is_plain_object(link) or not all(
            is_non_empty_string(link.get(k, _MISSING)) for k in ("from", "to", "kind")
        ):
            issues.append(
                _malformed(
                    f"edges[{i}]", f"`edges[{i}]` must carry non-empty `from`, `to` and `kind`."
                )
            )

    if edges is not _MISSING:
        _data_list_issues(issues, "edges", edges, edge)

    # -- grain --
    grain = value.get("grain", _MISSING)
    is_counter = f"grain.{spell('is_counter')}"
    if grain is not _MISSING:
        if not _is_plain_object(grain):
            issues.append(
                _malformed(
                    "grain",
                    f"`grain` must be a dict ({{interval?, aggregation?, "
                    f"{spell('is_counter')}?, collapsed?}}).",
                )
            )
        else:
            assert isinstance(grain, dict)
            for key in grain:
                if key not in _GRAIN_KEYS:
                    issues.append(
                        _malformed(f"grain.{key}", f"`grain.{key}` is not a grain field.")
                    )
            says = False
            for key in _GRAIN_STRING_KEYS:
                stated = grain.get(key, _MISSING)
                if stated is not _MISSING:
                    if not is_non_empty_string(stated):
                        issues.append(
                            _malformed(
                                f"grain.{key}",
                                f"`grain.{key}` must be a non-empty string, or left out.",
                            )
                        )
                    else:
                        says = True
            counter = grain.get("is_counter", _MISSING)
            if counter is not _MISSING:
                if not isinstance(counter, bool):
                    issues.append(
                        _malformed(
                            is_counter,
                            f"`{is_counter}` must be True or False: stated means a bool, "
                            "never prose.",
                        )
                    )
                else:
                    says = True
            # The reference reports an empty grain only when no issue so far names
            # a field starting with "grain" -- including a top-level unknown key
            # such as "grainy" -- and recognition must agree with it.
            if not says and all(not i["field"].startswith("grain") for i in issues):
                issues.append(
                    _malformed(
                        "grain",
                        "`grain` says nothing: state at least one of interval, aggregation, "
                        f"{spell('is_counter')}, collapsed, or leave it out.",
                    )
                )
            aggregation = grain.get("aggregation", _MISSING)
            if (
                is_non_empty_string(aggregation)
                and is_counter_looking_aggregation(aggregation)
                and not isinstance(counter, bool)
            ):
                issues.append(
                    {
                        "code": COUNTER_UNSTATED,
                        "field": is_counter,
                        "message": (
                            f"grain.aggregation is '{js_trim(aggregation)}', which looks like a "
                            f"counter, and `{is_counter}` is not stated: summing counters "
                            f"double-counts. State `{spell('is_counter')}` as True or False."
                        ),
                    }
                )

    # -- provenance --
    provenance = value.get("provenance", _MISSING)
    has_data = series is not _MISSING or facts is not _MISSING
    if provenance is not _MISSING:
        issues.extend(provenance_issues(provenance, spell))
    elif has_data:
        issues.append(
            {
                "code": DATA_WITHOUT_PROVENANCE,
                "field": "provenance",
                "message": (
                    "this result carries series/facts with no `provenance`: "
                    f"`provenance.{spell('measured_at')}` and `provenance.source` are "
                    "required whenever it carries data."
                ),
            }
        )

    # -- series needs grain --
    if series is not _MISSING and grain is _MISSING:
        issues.append(
            {
                "code": SERIES_WITHOUT_GRAIN,
                "field": "grain",
                "message": (
                    "this result carries `series` with no `grain`: state the interval and "
                    "aggregation so a reader does not sum counters or compare unlike windows."
                ),
            }
        )

    # -- coverage, and the derived not_covered --
    coverage = value.get("coverage", _MISSING)
    rendered: dict[str, Any] | None = None
    if coverage is not _MISSING:
        if not _is_plain_object(coverage):
            issues.append(
                _malformed(
                    "coverage",
                    f"`coverage` must be a dict of {{checked?, {spell('not_checked')}?, "
                    f"{spell('cannot_cover')}?}} item lists.",
                )
            )
        else:
            assert isinstance(coverage, dict)
            for key in coverage:
                if key not in _COVERAGE_KEYS:
                    issues.append(
                        _malformed(
                            f"coverage.{key}",
                            f"`coverage.{key}` is not a coverage list; the three are checked, "
                            f"{spell('not_checked')}, {spell('cannot_cover')}.",
                        )
                    )
            lists = {
                key: _check_item_list(
                    issues,
                    f"coverage.{spell(key)}",
                    coverage.get(key, _MISSING),
                    key == "cannot_cover",
                )
                for key in COVERAGE_WIRE_KEYS
            }
            if not any(lists.values()):
                issues.append(
                    _malformed(
                        "coverage",
                        "`coverage` names no ground at all: declare at least one item, or "
                        "leave it out.",
                    )
                )
            else:
                rendered = {key: items for key, items in lists.items() if items}
    not_covered = value.get("not_covered", _MISSING)
    if not_covered is not _MISSING:
        if coverage is _MISSING:
            issues.append(
                _malformed(
                    "not_covered",
                    "`not_covered` is derived from `coverage`: declare `coverage` instead of "
                    "writing the lines by hand.",
                )
            )
        elif not isinstance(not_covered, list) or not all(
            is_non_empty_string(line) for line in not_covered
        ):
            issues.append(
                _malformed("not_covered", "`not_covered` must be a list of non-empty strings.")
            )
        elif rendered is not None and compose_not_covered(rendered) != not_covered:
            issues.append(
                _malformed(
                    "not_covered",
                    "`not_covered` disagrees with what `coverage` derives: drop it (the mint "
                    "composes it) or fix the coverage lists.",
                )
            )

    # -- clarify (None states "ambiguity was considered; there is none") --
    clarify = value.get("clarify", _MISSING)
    if clarify is not _MISSING and clarify is not None:
        if not _is_plain_object(clarify):
            issues.append(
                _malformed("clarify", "`clarify` must be {question, candidates} or None.")
            )
        else:
            assert isinstance(clarify, dict)
            for key in clarify:
                if key not in _CLARIFY_KEYS:
                    issues.append(
                        _malformed(f"clarify.{key}", f"`clarify.{key}` is not a clarify field.")
                    )
            if not is_non_empty_string(clarify.get("question", _MISSING)):
                issues.append(
                    _malformed("clarify.question", "`clarify.question` must ask something.")
                )
            if not isinstance(clarify.get("candidates", _MISSING), list):
                issues.append(
                    _malformed(
                        "clarify.candidates",
                        "`clarify.candidates` must be a list (empty is fine: an open question "
                        "is still a question).",
                    )
                )

    # -- render --
    render = value.get("render", _MISSING)
    if render is not _MISSING:
        if not _is_plain_object(render):
            issues.append(
                _malformed(
                    "render",
                    f"`render` must be a dict ({{default, columns?, sort?, "
                    f"{spell('filter_note')}?, {spell('chart_hint')}?}}).",
                )
            )
        else:
            assert isinstance(render, dict)
            for key in render:
                if key not in _RENDER_KEYS:
                    issues.append(
                        _malformed(f"render.{key}", f"`render.{key}` is not a render hint.")
                    )
            if not is_non_empty_string(render.get("default", _MISSING)):
                issues.append(
                    _malformed(
                        "render.default",
                        "`render.default` must name the default presentation "
                        "('table', 'chart', 'prose', ...).",
                    )
                )
            columns = render.get("columns", _MISSING)
            if columns is not _MISSING and (
                not isinstance(columns, list)
                or not columns
                or not all(is_non_empty_string(c) for c in columns)
            ):
                issues.append(
                    _malformed(
                        "render.columns",
                        "`render.columns` must be a non-empty list of column names, or left out.",
                    )
                )
            for key in _RENDER_STRING_KEYS:
                hint = render.get(key, _MISSING)
                if hint is not _MISSING and not is_non_empty_string(hint):
                    at = f"render.{spell(key)}"
                    issues.append(
                        _malformed(at, f"`{at}` must be a non-empty string, or left out.")
                    )

    # -- note --
    note = value.get("note", _MISSING)
    if note is not _MISSING and not isinstance(note, str):
        issues.append(_malformed("note", "`note` is the library's static sentence: a string."))

    # -- something must be declared --
    if (
        series is _MISSING
        and facts is _MISSING
        and edges is _MISSING
        and (clarify is _MISSING or clarify is None)
    ):
        issues.append(
            _malformed(
                SEMANTICS_MARKER,
                "this result declares nothing: it needs data (series, facts or edges) or a "
                "question (clarify).",
            )
        )
    return issues


def semantic_issues(value: object) -> list[SemanticIssue]:
    """Every fault of ``value`` as a wire envelope, in the reference's order.

    Empty means a well-formed envelope. A non-dict, or a dict whose ``af_semantics``
    is not exactly ``True``, yields the single issue on field ``af_semantics``.
    """
    return issues_in(value, WIRE_SPELLING)


def _carries_marker(value: object) -> bool:
    return isinstance(value, dict) and value.get(SEMANTICS_MARKER, _MISSING) is True


def read_semantics(value: object) -> dict[str, Any] | None:
    """``value`` itself when it is a recognized envelope, else None.

    Recognition is strict: only a dict whose ``af_semantics`` is exactly ``True``
    and that has no issue at all. A marker-bearing value with faults stays data.
    """
    if not _carries_marker(value) or semantic_issues(value):
        return None
    assert isinstance(value, dict)
    return value


def explain_semantics(value: object) -> list[SemanticIssue] | None:
    """The faults of a value that carries the marker but is not recognized.

    None for a value without the exact ``True`` marker (that is data, not a near
    miss) and for a well-formed envelope.
    """
    if not _carries_marker(value):
        return None
    issues = semantic_issues(value)
    return issues or None


def semantics_for_model(envelope: dict[str, Any]) -> dict[str, Any]:
    """The model's compact view of a recognized envelope.

    Keeps the data, ``grain``, ``provenance``, a non-empty ``not_covered``, a
    non-None ``clarify`` and the note (the static one when the envelope's is not a
    string). Drops the marker, ``render`` and the three-list ``coverage``. Rows and
    parts are shallow-copied so the projection is not the object the tool holds.
    """
    model: dict[str, Any] = {}
    for key in ("series", "facts", "edges"):
        rows = envelope.get(key, _MISSING)
        if rows is not _MISSING:
            model[key] = [dict(row) for row in rows]
    for key in ("grain", "provenance"):
        part = envelope.get(key, _MISSING)
        if part is not _MISSING:
            model[key] = dict(part)
    not_covered = envelope.get("not_covered", _MISSING)
    if not_covered is not _MISSING and not_covered:
        model["not_covered"] = list(not_covered)
    clarify = envelope.get("clarify", _MISSING)
    if clarify is not _MISSING and clarify is not None:
        model["clarify"] = {
            "question": clarify.get("question"),
            "candidates": list(clarify.get("candidates", [])),
        }
    note = envelope.get("note", _MISSING)
    model["note"] = note if isinstance(note, str) else SEMANTICS_NOTE
    return model


# ---------------------------------------------------------------------------
# The coverage reader: absences, ledgers, and an envelope's own coverage
# ---------------------------------------------------------------------------


def _read_absence(value: object) -> dict[str, Any] | None:
    """An absence: a dict with ``af_absent`` exactly ``True`` and a non-empty ``checked`` list."""
    if not isinstance(value, dict) or value.get(ABSENCE_MARKER, _MISSING) is not True:
        return None
    checked = value.get("checked", _MISSING)
    if not isinstance(checked, list) or not checked:
        return None
    return value


def _read_ledger(value: object) -> dict[str, Any] | None:
    """A covered result: a dict with a dict ``af_coverage`` and a ``result`` key."""
    if not isinstance(value, dict):
        return None
    if not isinstance(value.get(COVERAGE_MARKER, _MISSING), dict) or "result" not in value:
        return None
    return value


def _list_or_empty(part: dict[str, Any], key: str) -> Any:
    # The reader does not re-validate: a missing or None list reads as [], anything
    # else is passed through as found.
    found = part.get(key, _MISSING)
    return [] if found is _MISSING or found is None else found


def _three_lists(part: dict[str, Any]) -> dict[str, Any]:
    return {
        "checked": _list_or_empty(part, "checked"),
        "notChecked": _list_or_empty(part, "not_checked"),
        "cannotCover": _list_or_empty(part, "cannot_cover"),
    }


def _absence_facts(absence: dict[str, Any]) -> dict[str, Any]:
    facts: dict[str, Any] = {"kind": "absence", "coverage": _three_lists(absence)}
    looked_for = absence.get("looked_for", _MISSING)
    if looked_for is not _MISSING:
        facts["lookedFor"] = looked_for
    return facts


def read_coverage_result(value: object) -> dict[str, Any] | None:
    """What a tool result declares about its coverage, in the recorded key shape.

    ``{"status"?: "absent", "declared": [{"kind", "coverage": {"checked",
    "notChecked", "cannotCover"}, "lookedFor"?}]}``, or None when the value is
    neither an absence, a recognized envelope with ``coverage``, nor a ledger.
    A ledger wrapping an absence declares both, outer first, and stays ``absent``.
    """
    absence = _read_absence(value)
    if absence is not None:
        return {"status": "absent", "declared": [_absence_facts(absence)]}
    envelope = read_semantics(value)
    if envelope is not None:
        coverage = envelope.get("coverage", _MISSING)
        if coverage is _MISSING:
            return None
        return {"declared": [{"kind": "ledger", "coverage": _three_lists(coverage)}]}
    ledger = _read_ledger(value)
    if ledger is None:
        return None
    declared: list[dict[str, Any]] = [
        {"kind": "ledger", "coverage": _three_lists(ledger[COVERAGE_MARKER])}
    ]
    inner = _read_absence(ledger["result"])
    if inner is None:
        return {"declared": declared}
    declared.append(_absence_facts(inner))
    return {"status": "absent", "declared": declared}
