"""The envelope's rules: a table of its parts, each part's rules beside it, judged in one pass.

:data:`ENVELOPE` lists the envelope's parts in the order the reference judges them. A
row names a top-level key, the rule of the part when it is there, and, for a part
another part needs, the rule when it is not (data needs ``provenance``, a ``series``
needs a ``grain``). :func:`faults_in` judges a value in one pass: the marker, the keys
that are not fields, each row, then whether anything was declared at all;
:func:`part_faults` runs one part's rule alone, for the ``described_result`` mint and the
linter's door. The rules of the lists (series, facts, edges, coverage items) are
:mod:`semantics_lint.runtime.envelope.data_parts`; what every rule shares (the
:class:`~semantics_lint.runtime.envelope.faults.Judging` it records on, the spellings,
the codes, the number rule) is :mod:`semantics_lint.runtime.envelope.faults`.

Each rule reads its part in the wire spelling and names the fields in the judging's
*spelling* (:data:`WIRE_SPELLING` or :data:`DECLARATION_SPELLING`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from semantics_lint.runtime.envelope.data_parts import (
    coverage_lists_rule,
    edges_rule,
    facts_rule,
    series_rule,
)
from semantics_lint.runtime.envelope.faults import (
    _MISSING,
    COUNTER_UNSTATED,
    DATA_WITHOUT_PROVENANCE,
    MALFORMED,
    SERIES_WITHOUT_GRAIN,
    WIRE_SPELLING,
    Fault,
    Judging,
    SemanticIssue,
    Spelling,
    _js_string,
    is_finite_number,
    js_number,
    text_kind,
)
from semantics_lint.runtime.envelope.refusal import (
    BAD_VALUE,
    DERIVED_KEY,
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
    DATA_FIELDS,
    ENVELOPE_WIRE_KEYS,
    GRAIN_WIRE_KEYS,
    PROVENANCE_WIRE_KEYS,
    RENDER_WIRE_KEYS,
    SEMANTICS_MARKER,
    is_counter_looking_aggregation,
    is_non_empty_string,
    js_trim,
)

__all__ = [
    "ENVELOPE",
    "PARTS",
    "Part",
    "compose_not_covered",
    "faults_in",
    "issues_in",
    "part_faults",
    "provenance_faults",
    "provenance_issues",
    "semantic_issues",
]

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


def _unknown_keys(
    j: Judging, part: str, found: dict[Any, Any], known: frozenset[str], what: str | Callable[[], str]
) -> None:
    """A fault for each key of the part ``found`` not in ``known``, in the dict's order;
    ``what`` says what such a key is not (a function when its words are spelled)."""
    for key in found:
        if key not in known:
            j.fault(
                f"{part}.{key_text(key)}",
                f"`{part}.{key_text(key)}` is {what if isinstance(what, str) else what()}.",
                UNKNOWN_KEY,
                (part, key),
            )


# --- grain -----------------------------------------------------------------------


def grain_rule(j: Judging, grain: object) -> None:
    """A present ``grain``: known fields, strings that say something, a bool ``is_counter``,
    something stated, and ``is_counter`` stated beside an aggregation that looks like a counter."""
    spell = j.spell
    if not isinstance(grain, dict):
        j.fault(
            "grain",
            f"`grain` must be a dict ({{interval?, aggregation?, {spell('is_counter')}?, collapsed?}}).",
            WRONG_TYPE,
            ("grain",),
        )
        return
    _unknown_keys(j, "grain", grain, _GRAIN_KEYS, "not a grain field")
    says = False
    for key in _GRAIN_STRING_KEYS:
        stated = grain.get(key, _MISSING)
        if stated is _MISSING:
            continue
        if is_non_empty_string(stated):
            says = True
        else:
            j.fault(
                f"grain.{key_text(key)}",
                f"`grain.{key_text(key)}` must be a non-empty string, or left out.",
                text_fault(stated),
                ("grain", key),
            )
    counter = grain.get("is_counter", _MISSING)
    if isinstance(counter, bool):
        says = True
    elif counter is not _MISSING:
        is_counter = f"grain.{spell('is_counter')}"
        j.fault(
            is_counter,
            f"`{is_counter}` must be True or False: stated means a bool, never prose.",
            WRONG_TYPE,
            ("grain", spell("is_counter")),
        )
    # The reference reports an empty grain only when no issue so far names a field
    # starting with "grain" -- including a top-level unknown key such as "grainy" --
    # and recognition must agree with it.
    if not says and all(not f.issue["field"].startswith("grain") for f in j.faults):
        j.fault(
            "grain",
            "`grain` says nothing: state at least one of interval, aggregation, "
            f"{spell('is_counter')}, collapsed, or leave it out.",
            SAYS_NOTHING,
            ("grain",),
        )
    aggregation = grain.get("aggregation", _MISSING)
    if (
        not isinstance(counter, bool)
        and is_non_empty_string(aggregation)
        and is_counter_looking_aggregation(aggregation)
    ):
        is_counter = f"grain.{spell('is_counter')}"
        j.fault(
            is_counter,
            f"grain.aggregation is '{js_trim(aggregation)}', which looks like a "
            f"counter, and `{is_counter}` is not stated: summing counters "
            f"double-counts. State `{spell('is_counter')}` as True or False.",
            COUNTER_UNSTATED_KIND,
            ("grain", spell("is_counter")),
            code=COUNTER_UNSTATED,
        )


def series_needs_grain(j: Judging) -> None:
    """A ``series`` with no ``grain``: its values cannot be read without one."""
    if "series" in j.envelope:
        j.fault(
            "grain",
            "this result carries `series` with no `grain`: state the interval and "
            "aggregation so a reader does not sum counters or compare unlike windows.",
            MISSING,
            ("grain",),
            code=SERIES_WITHOUT_GRAIN,
        )


# --- provenance ------------------------------------------------------------------


def provenance_rule(j: Judging, provenance: object) -> None:
    """A present ``provenance``: known fields, when and where measured, a sane age and export date."""
    spell = j.spell
    if not isinstance(provenance, dict):
        j.fault(
            "provenance",
            f"`provenance` must be a dict ({{{spell('measured_at')}, source, "
            f"{spell('age_seconds')}?, {spell('source_export_date')}?}}).",
            WRONG_TYPE,
            ("provenance",),
        )
        return
    _unknown_keys(j, "provenance", provenance, _PROVENANCE_KEYS, "not a provenance field")
    if not is_non_empty_string(provenance.get("measured_at", _MISSING)):
        measured_at = f"provenance.{spell('measured_at')}"
        j.fault(
            measured_at,
            f"`{measured_at}` must say when the world was measured, taken from the "
            "data (the export's time, the newest sample), as a non-empty string.",
            text_kind(provenance, "measured_at"),
            ("provenance", spell("measured_at")),
            code=DATA_WITHOUT_PROVENANCE,
        )
    if not is_non_empty_string(provenance.get("source", _MISSING)):
        j.fault(
            "provenance.source",
            "`provenance.source` must name the system of record the values were read from.",
            text_kind(provenance, "source"),
            ("provenance", "source"),
            code=DATA_WITHOUT_PROVENANCE,
        )
    age = provenance.get("age_seconds", _MISSING)
    if age is not _MISSING and not (is_finite_number(age) and age >= 0):
        age_seconds = f"provenance.{spell('age_seconds')}"
        j.fault(
            age_seconds,
            f"`{age_seconds}` must be a finite number >= 0, or left out.",
            BAD_VALUE if js_number(age) is not None else WRONG_TYPE,
            ("provenance", spell("age_seconds")),
        )
    export = provenance.get("source_export_date", _MISSING)
    if export is not _MISSING and not is_non_empty_string(export):
        export_date = f"provenance.{spell('source_export_date')}"
        j.fault(
            export_date,
            f"`{export_date}` must be a non-empty string, or left out.",
            text_fault(export),
            ("provenance", spell("source_export_date")),
        )


def data_needs_provenance(j: Judging) -> None:
    """``series`` or ``facts`` with no ``provenance``: data must say when and where it was read."""
    if "series" in j.envelope or "facts" in j.envelope:
        j.fault(
            "provenance",
            "this result carries series/facts with no `provenance`: "
            f"`provenance.{j.spell('measured_at')}` and `provenance.source` are "
            "required whenever it carries data.",
            MISSING,
            ("provenance",),
            code=DATA_WITHOUT_PROVENANCE,
        )


def provenance_faults(provenance: object, spell: Spelling = WIRE_SPELLING) -> list[Fault]:
    """The provenance rule over one present (wire-spelled) ``provenance`` value."""
    j = Judging(spell)
    provenance_rule(j, provenance)
    return j.faults


def provenance_issues(provenance: object, spell: Spelling = WIRE_SPELLING) -> list[SemanticIssue]:
    """The provenance rule over one present (wire-spelled) ``provenance`` value."""
    return [fault.issue for fault in provenance_faults(provenance, spell)]


# --- coverage and the not_covered it derives ---------------------------------------


def coverage_rule(j: Judging, coverage: object) -> None:
    """A present ``coverage``: known lists of well-formed items, naming some ground; its
    well-formed lists are kept on the judging for ``not_covered``."""
    spell = j.spell
    if not isinstance(coverage, dict):
        j.fault(
            "coverage",
            f"`coverage` must be a dict of {{checked?, {spell('not_checked')}?, "
            f"{spell('cannot_cover')}?}} item lists.",
            WRONG_TYPE,
            ("coverage",),
        )
        return
    _unknown_keys(
        j,
        "coverage",
        coverage,
        _COVERAGE_KEYS,
        lambda: (
            f"not a coverage list; the three are checked, {spell('not_checked')}, {spell('cannot_cover')}"
        ),
    )
    rendered = coverage_lists_rule(j, coverage)
    if rendered:
        j.rendered = rendered
    else:
        j.fault(
            "coverage",
            "`coverage` names no ground at all: declare at least one item, or leave it out.",
            SAYS_NOTHING,
            ("coverage",),
        )


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


def _all_said(lines: object) -> bool:
    """Whether ``lines`` is a list of non-empty strings (a loop, so each line is judged
    without leaving and re-entering this module)."""
    if not isinstance(lines, list):
        return False
    for line in lines:
        if not is_non_empty_string(line):
            return False
    return True


def not_covered_rule(j: Judging, not_covered: object) -> None:
    """A present ``not_covered``: derived from ``coverage``, so it needs one, holds non-empty
    strings, and equals the lines the coverage's well-formed lists compose."""
    if "coverage" not in j.envelope:
        j.fault(
            "not_covered",
            "`not_covered` is derived from `coverage`: declare `coverage` instead of "
            "writing the lines by hand.",
            DERIVED_KEY,
            ("not_covered",),
        )
    elif not _all_said(not_covered):
        j.fault(
            "not_covered", "`not_covered` must be a list of non-empty strings.", WRONG_TYPE, ("not_covered",)
        )
    elif j.rendered is not None and compose_not_covered(j.rendered) != not_covered:
        j.fault(
            "not_covered",
            "`not_covered` disagrees with what `coverage` derives: drop it (the mint "
            "composes it) or fix the coverage lists.",
            BAD_VALUE,
            ("not_covered",),
        )


# --- clarify, render, note ------------------------------------------------------------


def clarify_rule(j: Judging, clarify: object) -> None:
    """A present ``clarify``: None (no ambiguity), or a question with a list of candidates."""
    if clarify is None:
        return
    if not isinstance(clarify, dict):
        j.fault("clarify", "`clarify` must be {question, candidates} or None.", WRONG_TYPE, ("clarify",))
        return
    _unknown_keys(j, "clarify", clarify, _CLARIFY_KEYS, "not a clarify field")
    if not is_non_empty_string(clarify.get("question", _MISSING)):
        j.fault(
            "clarify.question",
            "`clarify.question` must ask something.",
            text_kind(clarify, "question"),
            ("clarify", "question"),
        )
    if not isinstance(clarify.get("candidates", _MISSING), list):
        j.fault(
            "clarify.candidates",
            "`clarify.candidates` must be a list (empty is fine: an open question is still a question).",
            MISSING if "candidates" not in clarify else WRONG_TYPE,
            ("clarify", "candidates"),
        )


def render_rule(j: Judging, render: object) -> None:
    """A present ``render``: a default presentation, column names, string hints."""
    spell = j.spell
    if not isinstance(render, dict):
        j.fault(
            "render",
            f"`render` must be a dict ({{default, columns?, sort?, "
            f"{spell('filter_note')}?, {spell('chart_hint')}?}}).",
            WRONG_TYPE,
            ("render",),
        )
        return
    _unknown_keys(j, "render", render, _RENDER_KEYS, "not a render hint")
    if not is_non_empty_string(render.get("default", _MISSING)):
        j.fault(
            "render.default",
            "`render.default` must name the default presentation ('table', 'chart', 'prose', ...).",
            text_kind(render, "default"),
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
            kind = ""
            for i, column in enumerate(columns):
                if not is_non_empty_string(column):
                    kind, where = text_fault(column), ("render", "columns", i)
                    break
        if kind:
            j.fault(
                "render.columns",
                "`render.columns` must be a non-empty list of column names, or left out.",
                kind,
                where,
            )
    for key in _RENDER_STRING_KEYS:
        hint = render.get(key, _MISSING)
        if hint is not _MISSING and not is_non_empty_string(hint):
            at = f"render.{spell(key)}"
            j.fault(
                at,
                f"`{at}` must be a non-empty string, or left out.",
                text_fault(hint),
                ("render", spell(key)),
            )


def note_rule(j: Judging, note: object) -> None:
    """A present ``note``: the library's static sentence, a string."""
    if not isinstance(note, str):
        j.fault("note", "`note` is the library's static sentence: a string.", WRONG_TYPE, ("note",))


# --- the table and the pass -----------------------------------------------------------


class Part(NamedTuple):
    """One row of :data:`ENVELOPE`: a top-level key, its rule when the key is there, and
    its rule when it is not (None when nothing needs it)."""

    key: str
    when_present: Callable[[Judging, Any], None] | None
    when_missing: Callable[[Judging], None] | None = None


ENVELOPE: Final = (
    Part("series", series_rule),
    Part("facts", facts_rule),
    Part("edges", edges_rule),
    Part("grain", grain_rule),
    Part("provenance", provenance_rule, data_needs_provenance),
    # The reference asks for a missing grain after the provenance, so the grain's
    # second rule has a row of its own.
    Part("grain", None, series_needs_grain),
    Part("coverage", coverage_rule),
    Part("not_covered", not_covered_rule),
    Part("clarify", clarify_rule),
    Part("render", render_rule),
    Part("note", note_rule),
)
"""The envelope's parts in the order the reference judges them, each with its rules."""

_ALONE: Final[Mapping[str, Callable[[Judging, Any], None]]] = MappingProxyType(
    {
        part.key: part.when_present
        for part in ENVELOPE
        if part.when_present is not None and part.key not in ("not_covered", "note")
    }
)
"""The rules :func:`part_faults` runs: those of the parts a declaration names (the
derived ``not_covered`` and ``note`` are not declared)."""

PARTS: Final = tuple(_ALONE)
"""The parts :func:`part_faults` judges, in the order :func:`faults_in` judges them."""


def faults_in(value: object, spell: Spelling = WIRE_SPELLING) -> list[Fault]:
    """The whole rule set over a wire-spelled ``value``, naming fields with ``spell``;
    each issue with its kind and path (see :class:`Fault`).

    A value that is not a dict marked exactly ``True`` has that one fault. Otherwise,
    in the reference's order: each key that is not a field, each row of
    :data:`ENVELOPE`, and whether the value declares anything (data or a question).
    """
    if not isinstance(value, dict):
        return [Fault(_malformed(SEMANTICS_MARKER, "a semantic envelope is a plain dict."), WRONG_TYPE, ())]
    marker = value.get(SEMANTICS_MARKER, _MISSING)
    if marker is not True:
        message = f"`{SEMANTICS_MARKER}` must be exactly true: the marker is the vocabulary."
        kind = MISSING if marker is _MISSING else BAD_VALUE
        return [Fault(_malformed(SEMANTICS_MARKER, message), kind, (SEMANTICS_MARKER,))]
    j = Judging(spell, value)
    for key in value:
        if key not in _ENVELOPE_KEYS:
            j.fault(
                key_text(key),
                f"this result carries '{key_text(key)}', which is not a field of an envelope; the "
                "fields are series, facts, edges, grain, provenance, coverage, clarify, "
                "render (not_covered and note are derived).",
                UNKNOWN_KEY,
                (key,),
            )
    for part in ENVELOPE:
        found = value.get(part.key, _MISSING)
        if found is _MISSING:
            if part.when_missing is not None:
                part.when_missing(j)
        elif part.when_present is not None:
            part.when_present(j, found)
    if value.get("clarify") is None and not any(key in value for key in DATA_FIELDS):
        j.fault(
            SEMANTICS_MARKER,
            "this result declares nothing: it needs data (series, facts or edges) or a question (clarify).",
            SAYS_NOTHING,
            (),
        )
    return j.faults


def issues_in(value: object, spell: Spelling = WIRE_SPELLING) -> list[SemanticIssue]:
    """The whole rule set over a wire-spelled ``value``, naming fields with ``spell``.

    :func:`semantic_issues` is this with the wire's spelling; the ``described_result``
    mint passes :data:`DECLARATION_SPELLING` so its refusals quote camelCase names.
    """
    return [fault.issue for fault in faults_in(value, spell)]


def semantic_issues(value: object) -> list[SemanticIssue]:
    """Every fault of ``value`` as a wire envelope, in the reference's order.

    Empty means a well-formed envelope. A non-dict, or a dict whose ``af_semantics``
    is not exactly ``True``, yields the single issue on field ``af_semantics``.
    """
    return issues_in(value, WIRE_SPELLING)


def _malformed(field: str, message: str) -> SemanticIssue:
    return {"code": MALFORMED, "field": field, "message": message}


def part_faults(part: str, value: object, spell: Spelling = WIRE_SPELLING) -> list[Fault]:
    """The faults of one present part of an envelope, judged alone (``part`` in :data:`PARTS`,
    ``value`` wire-spelled).

    The same rule judges the part inside :func:`faults_in`, so a part's faults alone
    are the faults the whole rule set finds in it; only the rules between parts (data
    needs provenance, series needs grain, something must be declared) are left out.
    """
    j = Judging(spell)
    _ALONE[part](j, value)
    return j.faults
