"""The rule of each part of a wire envelope, judged alone, and what those rules share.

Each rule reads one present part (``series``, ``facts``, ``edges``, ``grain``,
``provenance``, ``coverage``, ``clarify``, ``render``) in the wire spelling, appends
what is wrong with it as :class:`Fault` records, and names the fields in the
*spelling* the caller chose (:data:`WIRE_SPELLING` or :data:`DECLARATION_SPELLING`).
:func:`semantics_lint.runtime.envelope.faults_in` runs them in the reference's order
and adds the rules between parts; :func:`part_faults` runs one alone, for the
``described_result`` mint and the linter's door.

What the rules share is here too: the :class:`Fault` record, the spellings, the
issue codes, and the number rule (a number is the double JavaScript would hold,
:func:`js_number`; :func:`js_number_text` and ``_js_string`` print values as a
JavaScript template literal would).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final, NamedTuple, TypedDict

from semantics_lint.runtime.refusal import (
    BAD_VALUE,
    EMPTY,
    MISSING,
    SAYS_NOTHING,
    UNKNOWN_KEY,
    WRONG_TYPE,
    FieldPath,
    key_text,
    text_fault,
)
from semantics_lint.runtime.refusal import COUNTER_UNSTATED as COUNTER_UNSTATED_KIND
from semantics_lint.vocabulary import (
    CLARIFY_WIRE_KEYS,
    COVERAGE_WIRE_KEYS,
    GRAIN_WIRE_KEYS,
    PROVENANCE_WIRE_KEYS,
    RENDER_WIRE_KEYS,
    is_counter_looking_aggregation,
    is_non_empty_string,
    js_trim,
    to_declaration,
)

__all__ = [
    "DECLARATION_SPELLING",
    "PARTS",
    "WIRE_SPELLING",
    "Fault",
    "SemanticIssue",
    "Spelling",
    "is_finite_number",
    "js_number",
    "js_number_text",
    "part_faults",
    "provenance_faults",
    "provenance_issues",
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


class Fault(NamedTuple):
    """One issue with what the runtime's refusals carry beside it: its kind and path.

    ``path`` names the field in the judging spelling, list indexes as ``int``
    (``("coverage", "cannotCover", 0, "why")``); ``kind`` is one of
    :data:`semantics_lint.runtime.refusal.REFUSAL_KINDS`.
    """

    issue: SemanticIssue
    kind: str
    path: FieldPath


def _fault(
    faults: list[Fault],
    field: str,
    message: str,
    kind: str,
    path: FieldPath,
    code: str = MALFORMED,
) -> None:
    faults.append(Fault({"code": code, "field": field, "message": message}, kind, path))


def _text_kind(part: dict[Any, Any], key: str) -> str:
    """The kind of fault of ``part[key]``, which should have been a non-empty string."""
    return text_fault(part.get(key), present=key in part)



def _check_item_list(
    faults: list[Fault], field: str, path: FieldPath, listed: object, require_why: bool
) -> list[dict[str, Any]]:
    """Judge one rendered coverage list; return its well-formed items (untrimmed)."""
    if listed is _MISSING:
        return []
    if not isinstance(listed, list):
        _fault(
            faults,
            field,
            f"`{field}` must be a list of {{what, why?}} items, or left out.",
            WRONG_TYPE,
            path,
        )
        return []
    items: list[dict[str, Any]] = []
    for i, raw in enumerate(listed):
        at = f"{field}[{i}]"
        if not _is_plain_object(raw) or not is_non_empty_string(raw.get("what", _MISSING)):
            if _is_plain_object(raw):
                kind, where = _text_kind(raw, "what"), (*path, i, "what")
            else:
                kind, where = WRONG_TYPE, (*path, i)
            _fault(
                faults,
                at,
                f"`{at}` names no ground: a rendered coverage item is "
                "{what, why?} with a non-empty `what`.",
                kind,
                where,
            )
            continue
        why = raw.get("why", _MISSING)
        if why is not _MISSING and not is_non_empty_string(why):
            _fault(
                faults,
                f"{at}.why",
                f"`{at}.why` says nothing: give a reason or leave it out.",
                text_fault(why),
                (*path, i, "why"),
            )
            continue
        if require_why and why is _MISSING:
            _fault(
                faults,
                f"{at}.why",
                f"`{at}` ('{js_trim(raw['what'])}') has no `why`: a permanent blind spot "
                "must say what makes it permanent.",
                MISSING,
                (*path, i, "why"),
            )
            continue
        item: dict[str, Any] = {"what": raw["what"]}
        if why is not _MISSING:
            item["why"] = why
        items.append(item)
    return items


def _data_list_faults(
    faults: list[Fault], field: str, listed: object, row_faults: Callable[[int, Any], None]
) -> None:
    """The shared shape rule of ``series``/``facts``/``edges``: a non-empty list."""
    if isinstance(listed, list) and not listed:
        _fault(
            faults,
            field,
            f"`{field}` is empty: if nothing matched, return "
            "absent(what=..., checked=...) instead.",
            EMPTY,
            (field,),
        )
    elif not isinstance(listed, list):
        _fault(
            faults,
            field,
            f"`{field}` must be a non-empty list of rows, or left out.",
            WRONG_TYPE,
            (field,),
        )
    else:
        for i, row in enumerate(listed):
            row_faults(i, row)


def _series_faults(faults: list[Fault], series: object, spell: Spelling) -> None:
    def point_faults(i: int, point: Any) -> None:
        at = f"series[{i}]"
        if not _is_plain_object(point):
            _fault(
                faults,
                at,
                f"`{at}` is not a point dict {{t, entity, metric, value}}.",
                WRONG_TYPE,
                ("series", i),
            )
            return
        t = point.get("t", _MISSING)
        if not (isinstance(t, str) or _is_number(t)):
            _fault(
                faults,
                f"{at}.t",
                f"`{at}.t` must be the measurement time (an ISO string or an epoch number).",
                MISSING if t is _MISSING else WRONG_TYPE,
                ("series", i, "t"),
            )
        if not is_non_empty_string(point.get("entity", _MISSING)):
            _fault(
                faults,
                f"{at}.entity",
                f"`{at}.entity` must name what was measured.",
                _text_kind(point, "entity"),
                ("series", i, "entity"),
            )
        if not is_non_empty_string(point.get("metric", _MISSING)):
            _fault(
                faults,
                f"{at}.metric",
                f"`{at}.metric` must name the measurement.",
                _text_kind(point, "metric"),
                ("series", i, "metric"),
            )
        if "value" not in point:
            _fault(
                faults,
                f"{at}.value",
                f"`{at}` has no `value`: a point with no reading.",
                MISSING,
                ("series", i, "value"),
            )

    _data_list_faults(faults, "series", series, point_faults)


def _facts_faults(faults: list[Fault], facts: object, spell: Spelling) -> None:
    def row_faults(i: int, row: Any) -> None:
        if not _is_plain_object(row) or not is_non_empty_string(row.get("entity", _MISSING)):
            where: FieldPath
            if _is_plain_object(row):
                kind, where = _text_kind(row, "entity"), ("facts", i, "entity")
            else:
                kind, where = WRONG_TYPE, ("facts", i)
            _fault(
                faults,
                f"facts[{i}].entity",
                f"`facts[{i}]` must say what it is about: every row needs a non-empty `entity`.",
                kind,
                where,
            )

    _data_list_faults(faults, "facts", facts, row_faults)


def _edges_faults(faults: list[Fault], edges: object, spell: Spelling) -> None:
    def edge_faults(i: int, link: Any) -> None:
        where: FieldPath
        if _is_plain_object(link):
            bad = next(
                (
                    k
                    for k in ("from", "to", "kind")
                    if not is_non_empty_string(link.get(k, _MISSING))
                ),
                None,
            )
            if bad is None:
                return
            kind, where = _text_kind(link, bad), ("edges", i, bad)
        else:
            kind, where = WRONG_TYPE, ("edges", i)
        _fault(
            faults,
            f"edges[{i}]",
            f"`edges[{i}]` must carry non-empty `from`, `to` and `kind`.",
            kind,
            where,
        )

    _data_list_faults(faults, "edges", edges, edge_faults)


def _grain_faults(faults: list[Fault], grain: object, spell: Spelling) -> None:
    """The grain rule over one present ``grain``; ``faults`` holds those found before it."""
    is_counter = f"grain.{spell('is_counter')}"
    if not _is_plain_object(grain):
        _fault(
            faults,
            "grain",
            f"`grain` must be a dict ({{interval?, aggregation?, "
            f"{spell('is_counter')}?, collapsed?}}).",
            WRONG_TYPE,
            ("grain",),
        )
        return
    assert isinstance(grain, dict)
    for key in grain:
        if key not in _GRAIN_KEYS:
            _fault(
                faults,
                f"grain.{key_text(key)}",
                f"`grain.{key_text(key)}` is not a grain field.",
                UNKNOWN_KEY,
                ("grain", key),
            )
    says = False
    for key in _GRAIN_STRING_KEYS:
        stated = grain.get(key, _MISSING)
        if stated is not _MISSING:
            if not is_non_empty_string(stated):
                _fault(
                    faults,
                    f"grain.{key_text(key)}",
                    f"`grain.{key_text(key)}` must be a non-empty string, or left out.",
                    text_fault(stated),
                    ("grain", key),
                )
            else:
                says = True
    counter = grain.get("is_counter", _MISSING)
    if counter is not _MISSING:
        if not isinstance(counter, bool):
            _fault(
                faults,
                is_counter,
                f"`{is_counter}` must be True or False: stated means a bool, never prose.",
                WRONG_TYPE,
                ("grain", spell("is_counter")),
            )
        else:
            says = True
    # The reference reports an empty grain only when no issue so far names a field
    # starting with "grain" -- including a top-level unknown key such as "grainy" --
    # and recognition must agree with it.
    if not says and all(not f.issue["field"].startswith("grain") for f in faults):
        _fault(
            faults,
            "grain",
            "`grain` says nothing: state at least one of interval, aggregation, "
            f"{spell('is_counter')}, collapsed, or leave it out.",
            SAYS_NOTHING,
            ("grain",),
        )
    aggregation = grain.get("aggregation", _MISSING)
    if (
        is_non_empty_string(aggregation)
        and is_counter_looking_aggregation(aggregation)
        and not isinstance(counter, bool)
    ):
        _fault(
            faults,
            is_counter,
            f"grain.aggregation is '{js_trim(aggregation)}', which looks like a "
            f"counter, and `{is_counter}` is not stated: summing counters "
            f"double-counts. State `{spell('is_counter')}` as True or False.",
            COUNTER_UNSTATED_KIND,
            ("grain", spell("is_counter")),
            code=COUNTER_UNSTATED,
        )


def provenance_faults(provenance: object, spell: Spelling = WIRE_SPELLING) -> list[Fault]:
    """The provenance rule over one present (wire-spelled) ``provenance`` value."""
    measured_at = f"provenance.{spell('measured_at')}"
    age_seconds = f"provenance.{spell('age_seconds')}"
    export_date = f"provenance.{spell('source_export_date')}"
    faults: list[Fault] = []
    if not _is_plain_object(provenance):
        _fault(
            faults,
            "provenance",
            f"`provenance` must be a dict ({{{spell('measured_at')}, source, "
            f"{spell('age_seconds')}?, {spell('source_export_date')}?}}).",
            WRONG_TYPE,
            ("provenance",),
        )
        return faults
    assert isinstance(provenance, dict)
    for key in provenance:
        if key not in _PROVENANCE_KEYS:
            _fault(
                faults,
                f"provenance.{key_text(key)}",
                f"`provenance.{key_text(key)}` is not a provenance field.",
                UNKNOWN_KEY,
                ("provenance", key),
            )
    if not is_non_empty_string(provenance.get("measured_at", _MISSING)):
        _fault(
            faults,
            measured_at,
            f"`{measured_at}` must say when the world was measured, taken from the "
            "data (the export's time, the newest sample), as a non-empty string.",
            _text_kind(provenance, "measured_at"),
            ("provenance", spell("measured_at")),
            code=DATA_WITHOUT_PROVENANCE,
        )
    if not is_non_empty_string(provenance.get("source", _MISSING)):
        _fault(
            faults,
            "provenance.source",
            "`provenance.source` must name the system of record the values were read from.",
            _text_kind(provenance, "source"),
            ("provenance", "source"),
            code=DATA_WITHOUT_PROVENANCE,
        )
    age = provenance.get("age_seconds", _MISSING)
    if age is not _MISSING and not (is_finite_number(age) and age >= 0):
        _fault(
            faults,
            age_seconds,
            f"`{age_seconds}` must be a finite number >= 0, or left out.",
            BAD_VALUE if js_number(age) is not None else WRONG_TYPE,
            ("provenance", spell("age_seconds")),
        )
    export = provenance.get("source_export_date", _MISSING)
    if export is not _MISSING and not is_non_empty_string(export):
        _fault(
            faults,
            export_date,
            f"`{export_date}` must be a non-empty string, or left out.",
            text_fault(export),
            ("provenance", spell("source_export_date")),
        )
    return faults


def provenance_issues(provenance: object, spell: Spelling = WIRE_SPELLING) -> list[SemanticIssue]:
    """The provenance rule over one present (wire-spelled) ``provenance`` value."""
    return [fault.issue for fault in provenance_faults(provenance, spell)]


def _provenance_part_faults(faults: list[Fault], provenance: object, spell: Spelling) -> None:
    faults.extend(provenance_faults(provenance, spell))


def _coverage_faults(
    faults: list[Fault], coverage: object, spell: Spelling
) -> dict[str, Any] | None:
    """The coverage rule over one present ``coverage``; its well-formed lists, or None."""
    if not _is_plain_object(coverage):
        _fault(
            faults,
            "coverage",
            f"`coverage` must be a dict of {{checked?, {spell('not_checked')}?, "
            f"{spell('cannot_cover')}?}} item lists.",
            WRONG_TYPE,
            ("coverage",),
        )
        return None
    assert isinstance(coverage, dict)
    for key in coverage:
        if key not in _COVERAGE_KEYS:
            _fault(
                faults,
                f"coverage.{key_text(key)}",
                f"`coverage.{key_text(key)}` is not a coverage list; the three are checked, "
                f"{spell('not_checked')}, {spell('cannot_cover')}.",
                UNKNOWN_KEY,
                ("coverage", key),
            )
    lists = {
        key: _check_item_list(
            faults,
            f"coverage.{spell(key)}",
            ("coverage", spell(key)),
            coverage.get(key, _MISSING),
            key == "cannot_cover",
        )
        for key in COVERAGE_WIRE_KEYS
    }
    if not any(lists.values()):
        _fault(
            faults,
            "coverage",
            "`coverage` names no ground at all: declare at least one item, or leave it out.",
            SAYS_NOTHING,
            ("coverage",),
        )
        return None
    return {key: items for key, items in lists.items() if items}


def _coverage_part_faults(faults: list[Fault], coverage: object, spell: Spelling) -> None:
    _coverage_faults(faults, coverage, spell)


def _clarify_faults(faults: list[Fault], clarify: object, spell: Spelling) -> None:
    """The clarify rule over one present ``clarify`` (None states there is no ambiguity)."""
    if clarify is None:
        return
    if not _is_plain_object(clarify):
        _fault(
            faults,
            "clarify",
            "`clarify` must be {question, candidates} or None.",
            WRONG_TYPE,
            ("clarify",),
        )
        return
    assert isinstance(clarify, dict)
    for key in clarify:
        if key not in _CLARIFY_KEYS:
            _fault(
                faults,
                f"clarify.{key_text(key)}",
                f"`clarify.{key_text(key)}` is not a clarify field.",
                UNKNOWN_KEY,
                ("clarify", key),
            )
    if not is_non_empty_string(clarify.get("question", _MISSING)):
        _fault(
            faults,
            "clarify.question",
            "`clarify.question` must ask something.",
            _text_kind(clarify, "question"),
            ("clarify", "question"),
        )
    if not isinstance(clarify.get("candidates", _MISSING), list):
        _fault(
            faults,
            "clarify.candidates",
            "`clarify.candidates` must be a list (empty is fine: an open question "
            "is still a question).",
            MISSING if "candidates" not in clarify else WRONG_TYPE,
            ("clarify", "candidates"),
        )


def _render_faults(faults: list[Fault], render: object, spell: Spelling) -> None:
    """The render rule over one present ``render``."""
    if not _is_plain_object(render):
        _fault(
            faults,
            "render",
            f"`render` must be a dict ({{default, columns?, sort?, "
            f"{spell('filter_note')}?, {spell('chart_hint')}?}}).",
            WRONG_TYPE,
            ("render",),
        )
        return
    assert isinstance(render, dict)
    for key in render:
        if key not in _RENDER_KEYS:
            _fault(
                faults,
                f"render.{key_text(key)}",
                f"`render.{key_text(key)}` is not a render hint.",
                UNKNOWN_KEY,
                ("render", key),
            )
    if not is_non_empty_string(render.get("default", _MISSING)):
        _fault(
            faults,
            "render.default",
            "`render.default` must name the default presentation ('table', 'chart', 'prose', ...).",
            _text_kind(render, "default"),
            ("render", "default"),
        )
    columns = render.get("columns", _MISSING)
    if columns is not _MISSING:
        where: FieldPath
        if not isinstance(columns, list):
            kind, where = WRONG_TYPE, ("render", "columns")
        elif not columns:
            kind, where = EMPTY, ("render", "columns")
        else:
            bad = next((j for j, c in enumerate(columns) if not is_non_empty_string(c)), None)
            kind = "" if bad is None else text_fault(columns[bad])
            where = ("render", "columns", bad)
        if kind:
            _fault(
                faults,
                "render.columns",
                "`render.columns` must be a non-empty list of column names, or left out.",
                kind,
                where,
            )
    for key in _RENDER_STRING_KEYS:
        hint = render.get(key, _MISSING)
        if hint is not _MISSING and not is_non_empty_string(hint):
            at = f"render.{spell(key)}"
            _fault(
                faults,
                at,
                f"`{at}` must be a non-empty string, or left out.",
                text_fault(hint),
                ("render", spell(key)),
            )


_PART_RULES: Final[Mapping[str, Callable[[list[Fault], object, Spelling], object]]] = (
    MappingProxyType(
        {
            "series": _series_faults,
            "facts": _facts_faults,
            "edges": _edges_faults,
            "grain": _grain_faults,
            "provenance": _provenance_part_faults,
            "coverage": _coverage_part_faults,
            "clarify": _clarify_faults,
            "render": _render_faults,
        }
    )
)
"""The rule of each part of an envelope that is judged on the part alone."""

PARTS: Final = tuple(_PART_RULES)
"""The parts :func:`part_faults` judges, in the order :func:`faults_in` judges them."""


def part_faults(part: str, value: object, spell: Spelling = WIRE_SPELLING) -> list[Fault]:
    """The faults of one present part of an envelope, judged alone (``part`` in :data:`PARTS`,
    ``value`` wire-spelled).

    The same functions judge the part inside :func:`faults_in`, so a part's faults
    alone are the faults the whole rule set finds in it; only the rules between
    parts (data needs provenance, series needs grain, something must be declared)
    are left out.
    """
    faults: list[Fault] = []
    _PART_RULES[part](faults, value, spell)
    return faults
