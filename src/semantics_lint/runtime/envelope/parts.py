"""The rule of each part of a wire envelope, judged alone, and what those rules share.

Each rule reads one present part (``series``, ``facts``, ``edges``, ``grain``,
``provenance``, ``coverage``, ``clarify``, ``render``) in the wire spelling, appends
what is wrong with it as :class:`Fault` records, and names the fields in the
*spelling* the caller chose (:data:`WIRE_SPELLING` or :data:`DECLARATION_SPELLING`).
:func:`semantics_lint.runtime.envelope.rules.faults_in` runs them in the reference's order
and adds the rules between parts; :func:`part_faults` runs one alone, for the
``described_result`` mint and the linter's door.

What the rules share (the :class:`Fault` record, the spellings, the issue codes, the
number rule) is :mod:`semantics_lint.runtime.envelope.faults`, the rules of the lists of data
:mod:`semantics_lint.runtime.envelope.data_parts`; both are importable from here as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final

# What the part rules share, and the rules of the lists of data, are importable from
# here as they were before they had modules of their own (``X as X``: a re-export).
from semantics_lint.runtime.envelope.data_parts import _check_item_list as _check_item_list  # noqa: I001
from semantics_lint.runtime.envelope.data_parts import _edges_faults as _edges_faults
from semantics_lint.runtime.envelope.data_parts import _facts_faults as _facts_faults
from semantics_lint.runtime.envelope.data_parts import _series_faults as _series_faults
from semantics_lint.runtime.envelope.faults import _MISSING as _MISSING
from semantics_lint.runtime.envelope.faults import COUNTER_UNSTATED as COUNTER_UNSTATED
from semantics_lint.runtime.envelope.faults import DATA_WITHOUT_PROVENANCE as DATA_WITHOUT_PROVENANCE
from semantics_lint.runtime.envelope.faults import DECLARATION_SPELLING as DECLARATION_SPELLING
from semantics_lint.runtime.envelope.faults import MALFORMED as MALFORMED
from semantics_lint.runtime.envelope.faults import SERIES_WITHOUT_GRAIN as SERIES_WITHOUT_GRAIN
from semantics_lint.runtime.envelope.faults import WIRE_SPELLING as WIRE_SPELLING
from semantics_lint.runtime.envelope.faults import Fault as Fault
from semantics_lint.runtime.envelope.faults import SemanticIssue as SemanticIssue
from semantics_lint.runtime.envelope.faults import Spelling as Spelling
from semantics_lint.runtime.envelope.faults import _fault as _fault
from semantics_lint.runtime.envelope.faults import _is_number as _is_number
from semantics_lint.runtime.envelope.faults import _is_plain_object as _is_plain_object
from semantics_lint.runtime.envelope.faults import _js_string as _js_string
from semantics_lint.runtime.envelope.faults import _text_kind as _text_kind
from semantics_lint.runtime.envelope.faults import is_finite_number as is_finite_number
from semantics_lint.runtime.envelope.faults import js_number as js_number
from semantics_lint.runtime.envelope.faults import js_number_text as js_number_text
from semantics_lint.runtime.envelope.refusal import (
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
from semantics_lint.runtime.envelope.refusal import COUNTER_UNSTATED as COUNTER_UNSTATED_KIND
from semantics_lint.vocabulary import (
    CLARIFY_WIRE_KEYS,
    COVERAGE_WIRE_KEYS,
    GRAIN_WIRE_KEYS,
    PROVENANCE_WIRE_KEYS,
    RENDER_WIRE_KEYS,
    is_counter_looking_aggregation,
    is_non_empty_string,
    js_trim,
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

_GRAIN_KEYS: Final = frozenset(GRAIN_WIRE_KEYS)
_PROVENANCE_KEYS: Final = frozenset(PROVENANCE_WIRE_KEYS)
_COVERAGE_KEYS: Final = frozenset(COVERAGE_WIRE_KEYS)
_CLARIFY_KEYS: Final = frozenset(CLARIFY_WIRE_KEYS)
_RENDER_KEYS: Final = frozenset(RENDER_WIRE_KEYS)

# The grain fields that are strings (``is_counter`` is judged on its own).
_GRAIN_STRING_KEYS: Final = ("interval", "aggregation", "collapsed")
# The optional string hints of a render part, in the order they are judged.
_RENDER_STRING_KEYS: Final = ("sort", "filter_note", "chart_hint")


def _grain_faults(faults: list[Fault], grain: object, spell: Spelling) -> None:
    """The grain rule over one present ``grain``; ``faults`` holds those found before it."""
    is_counter = f"grain.{spell('is_counter')}"
    if not _is_plain_object(grain):
        _fault(
            faults,
            "grain",
            f"`grain` must be a dict ({{interval?, aggregation?, {spell('is_counter')}?, collapsed?}}).",
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


def _coverage_faults(faults: list[Fault], coverage: object, spell: Spelling) -> dict[str, Any] | None:
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
            "`clarify.candidates` must be a list (empty is fine: an open question is still a question).",
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


_PART_RULES: Final[Mapping[str, Callable[[list[Fault], object, Spelling], object]]] = MappingProxyType(
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
