"""``described_result``: the declaration door that mints a semantic wire envelope.

A tool returns ``described_result(facts=..., provenance=..., ...)`` with its
fields spelled camelCase (``measuredAt``, ``isCounter``, ``cannotCover``); the
value it gets back is the snake_case wire envelope that the model and saved
records read (``measured_at``, ``is_counter``, ``not_covered``), carrying the
marker, the ``not_covered`` lines composed from ``coverage`` and the static note.

This module judges nothing by itself beyond spelling. It refuses what a
declaration must not carry (derived fields, keys a part does not have, a
snake_case key, with the camelCase one named), normalizes coverage with the
shared normalizer the other mints use, respells the candidate to the wire, and
then asks the *same* rule set recognition and the gate use
(:func:`semantics_lint.runtime.envelope.rules.issues_in`), naming the fields in the
author's camelCase. So a minted envelope is always one ``read_semantics``
recognizes, and a refusal always quotes the field as it was written.

Every refusal is a :class:`~semantics_lint.runtime.envelope.refusal.Refusal` raised at the
call site, whose message starts ``refused:``; inside a tool it becomes the call's
error result, which is what the model reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, cast

from semantics_lint.runtime.envelope.refusal import (
    ARGUMENTS,
    DERIVED_KEY,
    SAYS_NOTHING,
    WRONG_TYPE,
    Refusal,
    refuse_unknown_keys,
)
from semantics_lint.runtime.envelope.rules import (
    DECLARATION_SPELLING,
    Fault,
    compose_not_covered,
    faults_in,
    part_faults,
)
from semantics_lint.runtime.mints.items import (
    NOT_PASSED,
    is_list,
    json_data,
    normalize_coverage_list,
    time_text,
    type_named,
)
from semantics_lint.vocabulary import (
    CLARIFY_FIELDS,
    COVERAGE_FIELDS,
    COVERAGE_ITEM_FIELDS,
    DATA_FIELDS,
    DERIVED_FIELDS,
    DESCRIBED_RESULT_FIELDS,
    GRAIN_FIELDS,
    PROVENANCE_FIELDS,
    RENDER_FIELDS,
    SEMANTICS_MARKER,
    SEMANTICS_NOTE,
    to_wire,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from semantics_lint.runtime.envelope.types import (
        DescribedResultDeclaration,
        DescribedResultFields,
        ToolSemantics,
    )

__all__ = ["DESCRIBED_PARTS", "describedResult", "described_part", "described_result"]

_FN: Final = "described_result"

# The parts of a declaration whose keys are checked by name, before anything is
# copied: a key a part does not have is refused, never dropped.
_PART_FIELDS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("grain", GRAIN_FIELDS),
    ("provenance", PROVENANCE_FIELDS),
    ("coverage", COVERAGE_FIELDS),
    ("clarify", CLARIFY_FIELDS),
    ("render", RENDER_FIELDS),
)

_KNOWN: Final = dict(_PART_FIELDS)

# The coverage list whose every item must say why (a permanent blind spot).
_WHY_REQUIRED_SECTION: Final = "cannotCover"

DESCRIBED_PARTS: Final = DESCRIBED_RESULT_FIELDS
"""The fields of a declaration :func:`described_part` judges one at a time."""


def _refuse_derived(declaration: Mapping[Any, Any]) -> None:
    for key in declaration:
        if key not in DERIVED_FIELDS:
            continue
        if key == SEMANTICS_MARKER or key == "note":
            raise Refusal(
                f"refused: {key} is added by {_FN}() itself, never declared: leave it out "
                "(the marker and the static note are part of every envelope it mints).",
                path=(key,),
                kind=DERIVED_KEY,
            )
        raise Refusal(
            f"refused: {key} is derived, never declared: declare coverage="
            '{"notChecked": [...], "cannotCover": [...]} and the not_covered lines are '
            "composed from it, so the two can never disagree.",
            path=(key,),
            kind=DERIVED_KEY,
        )


def _refuse_unknown_part_keys(part: str, nested: object) -> None:
    """Refuse a key ``part`` does not have (for coverage: its items' keys too)."""
    if not isinstance(nested, Mapping):
        return
    refuse_unknown_keys((part,), nested, _KNOWN[part])
    if part != "coverage":
        return
    for section in COVERAGE_FIELDS:
        listed = nested.get(section)
        if not is_list(listed):
            continue
        assert isinstance(listed, (list, tuple))
        for index, item in enumerate(listed):
            if isinstance(item, Mapping):
                refuse_unknown_keys(("coverage", section, index), item, COVERAGE_ITEM_FIELDS)


def _minted_coverage(declared: object) -> dict[str, list[dict[str, str]]]:
    """The declared coverage normalized by the shared normalizer, respelled to the wire."""
    if not isinstance(declared, Mapping):
        raise Refusal(
            "refused: coverage must be a dict "
            '{"checked": [...], "notChecked": [...], "cannotCover": [...]}; leave it out to '
            "declare no coverage.",
            path=("coverage",),
            kind=WRONG_TYPE,
        )
    rendered: dict[str, list[dict[str, str]]] = {}
    for section in COVERAGE_FIELDS:
        items = normalize_coverage_list(
            _FN,
            f"coverage.{section}",
            declared.get(section, NOT_PASSED),
            section == _WHY_REQUIRED_SECTION,
        )
        if items:
            rendered[to_wire(section)] = items
    if not rendered:
        raise Refusal(
            "refused: coverage names no ground at all: declare at least one item in "
            "checked, notChecked or cannotCover, or leave coverage out (a missing coverage "
            'means "not declared", never "nothing there").',
            path=("coverage",),
            kind=SAYS_NOTHING,
        )
    return rendered


def _copy_data_list(value: object) -> object:
    """A fresh list of a declared data list; anything that is not a list of rows
    passes through untouched so the rule set names it for what it is."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        return value
    return list(value)


def _to_wire(value: object) -> object:
    """A declared part with each key in its wire spelling, in the author's key order.

    A value that is not a dict passes through, so the rule set refuses it as what
    it is (``None`` is a malformed part, not a missing one). Tuples become lists:
    the wire holds JSON values.
    """
    if not isinstance(value, Mapping):
        return value
    return {to_wire(str(key)): list(item) if isinstance(item, tuple) else item for key, item in value.items()}


def _copy_clarify(clarify: object) -> object:
    if clarify is None or not isinstance(clarify, Mapping):
        return clarify
    copied: dict[str, Any] = {}
    if "question" in clarify:
        copied["question"] = clarify["question"]
    candidates = clarify.get("candidates")
    # Missing or None candidates read as an open question with none offered.
    copied["candidates"] = (
        list(candidates) if is_list(candidates) else ([] if candidates is None else candidates)
    )
    return copied


# One signature, its keywords typed by the parts, so that a type checker names the
# key at fault (types.DescribedResultFields); the one positional dict is typed by
# the declaration's four shapes. The runtime judges every rule.
def described_result(
    decl: DescribedResultDeclaration | None = None, /, **fields: Unpack[DescribedResultFields]
) -> ToolSemantics:
    """Mint a semantic wire envelope from a camelCase declaration, or refuse it.

    Pass the fields as keyword arguments (``series``, ``facts``, ``edges``,
    ``grain``, ``provenance``, ``coverage``, ``clarify``, ``render``) or as one
    positional dict of the same fields, not both. Parts are dicts with camelCase
    keys: grain ``interval, aggregation, isCounter, collapsed``; provenance
    ``measuredAt, source, ageSeconds, sourceExportDate``; coverage ``checked,
    notChecked, cannotCover`` (items a string or ``{"what", "why"}``; every
    ``cannotCover`` item needs a ``why``); clarify ``question, candidates``; render
    ``default, columns, sort, filterNote, chartHint``.

    Returns the snake_case envelope with ``af_semantics``, the ``not_covered``
    lines composed from coverage and the static note.

    Raises :class:`~semantics_lint.runtime.envelope.refusal.Refusal` (message starting
    ``refused:``, naming the field as written and the fix) for: a derived field
    (``notCovered``/``not_covered``, ``note``, ``af_semantics``); any key a part
    does not have (a snake_case key names the camelCase one); an empty
    ``series``/``facts``/``edges`` (return ``absent(what=..., checked=...)``
    instead); series without grain; series or facts without
    ``provenance.measuredAt`` and ``provenance.source``; a counter-looking
    aggregation with ``isCounter`` unstated; and every malformed shape.

    Traps: ``None`` is a value, not an omission (``provenance=None`` is a malformed
    provenance, ``clarify=None`` states there is no ambiguity). ``measuredAt`` is
    never parsed: it is the tool's own words for a time. An aware ``datetime`` or a
    ``date`` in ``measuredAt`` or a series point's ``t`` is written as its ISO 8601
    text; a naive ``datetime`` is refused (it names no zone), and any other value
    that is not text is refused naming its type. ``ageSeconds`` must be a
    finite number >= 0, and a bool is not a number. A clarify-only result needs no
    provenance.
    """
    declaration = _declaration(decl, fields)
    _refuse_derived(declaration)
    refuse_unknown_keys((), declaration, DESCRIBED_RESULT_FIELDS)
    for part, _ in _PART_FIELDS:
        _refuse_unknown_part_keys(part, declaration.get(part))
    candidate = _candidate(declaration)
    # One rule set: the mint judges its own candidate with the validator that
    # recognition and the gate use, and refuses the first fault in the author's
    # camelCase words.
    faults = faults_in(candidate, DECLARATION_SPELLING)
    if faults:
        raise _refusal(faults[0], candidate)
    return cast("ToolSemantics", json_data(candidate))  # served as JSON: refused here


def _declaration(decl: object, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields given, as keyword arguments or as one dict (not both), as a new dict."""
    if decl is not None and fields:
        raise Refusal(
            f"refused: {_FN}() takes its fields as keyword arguments or as one dict, not "
            f"both (got a dict and {', '.join(sorted(fields))}).",
            kind=ARGUMENTS,
        )
    if decl is None:
        return dict(fields)
    if isinstance(decl, Mapping):
        return dict(decl)
    raise Refusal(
        f"refused: {_FN}() takes a declaration, keyword arguments or one dict of "
        f"{', '.join(DESCRIBED_RESULT_FIELDS)}, not a {type(decl).__name__}.",
        kind=ARGUMENTS,
        argument=0,
    )


def _candidate(declaration: dict[str, Any]) -> dict[str, Any]:
    """The envelope a declaration asks for, in the wire spelling and the wire's key
    order, with ``not_covered`` composed from the coverage and the static note; not
    judged yet."""
    coverage = _minted_coverage(declaration["coverage"]) if "coverage" in declaration else None
    not_covered = compose_not_covered(coverage) if coverage is not None else []
    candidate: dict[str, Any] = {SEMANTICS_MARKER: True}
    for part in (*DATA_FIELDS, "grain", "provenance"):
        if part in declaration:
            candidate[part] = _candidate_part(part, declaration[part])
    if coverage is not None:
        candidate["coverage"] = coverage
    if not_covered:
        candidate["not_covered"] = not_covered
    for part in ("clarify", "render"):
        if part in declaration:
            candidate[part] = _candidate_part(part, declaration[part])
    candidate["note"] = SEMANTICS_NOTE
    return candidate


_ABSENT: Final = object()


def _wire_value_at(candidate: Mapping[str, Any], path: tuple[object, ...]) -> object:
    """The value the candidate holds at a declaration-spelled ``path``, or ``_ABSENT``."""
    value: object = candidate
    for step in path:
        if isinstance(value, Mapping):
            value = value.get(to_wire(step) if isinstance(step, str) else step, _ABSENT)
        elif isinstance(step, int) and isinstance(value, list) and 0 <= step < len(value):
            value = value[step]
        else:
            return _ABSENT
    return value


def _refusal(fault: Fault, candidate: Mapping[str, Any]) -> Refusal:
    issue = fault.issue
    if issue["field"] == SEMANTICS_MARKER:
        # The marker is the mint's own; the fault is the declaration as a whole.
        message = f"refused: {_FN}(): {issue['message']}"
    else:
        message = f"refused: {issue['field']}: {issue['message']}"
    if fault.kind == WRONG_TYPE and fault.path:
        # A value of the wrong type: say which type it was (`got int`, `got datetime`).
        value = _wire_value_at(candidate, fault.path)
        if value is not _ABSENT:
            message = f"{message.removesuffix('.')}; {type_named(value)}."
    return Refusal(message, path=fault.path, kind=fault.kind)


def _with_time_text(row: object, index: int) -> object:
    """A series point whose ``t`` is a ``datetime`` or ``date``, copied with ``t`` as text."""
    if not isinstance(row, Mapping) or "t" not in row:
        return row
    t = time_text(row["t"], f"series[{index}].t", ("series", index, "t"))
    return row if t is row["t"] else {**row, "t": t}


def _candidate_part(field: str, value: object) -> object:
    """A declared part as the mint puts it in its candidate (wire spelling).

    Times as Python holds them are written as text here (:func:`~semantics_lint.
    runtime.mints.items.time_text`): ``provenance.measuredAt`` and each series point's ``t``.
    """
    if field == "series":
        copied = _copy_data_list(value)
        if isinstance(copied, list):
            return [_with_time_text(row, index) for index, row in enumerate(copied)]
        return copied
    if field in DATA_FIELDS:
        return _copy_data_list(value)
    if field == "clarify":
        return _copy_clarify(value)
    wire = _to_wire(value)
    if field == "provenance" and isinstance(wire, dict) and "measured_at" in wire:
        wire["measured_at"] = time_text(
            wire["measured_at"], "provenance.measuredAt", ("provenance", "measuredAt")
        )
    return wire


def described_part(field: str, value: object) -> None:
    """Judge one declared field of ``described_result`` alone; raise its :class:`Refusal`.

    ``field`` is one of :data:`DESCRIBED_PARTS` (camelCase, as declared), ``value``
    its value. The mint runs these very steps on each part, in this order (unknown
    keys, then the part's own rules), so a part refused here is refused by the whole
    mint with the same refusal when it is the first fault; what is judged between
    parts (data needs provenance, series needs grain, something must be declared) is
    not judged here.
    """
    if field not in DESCRIBED_PARTS:
        raise ValueError(f"{field!r} is not a field of {_FN}(); the fields are {DESCRIBED_PARTS}")
    if field in _KNOWN:
        _refuse_unknown_part_keys(field, value)
    if field == "coverage":
        _minted_coverage(value)
        return
    part = _candidate_part(field, value)
    faults = part_faults(field, part, DECLARATION_SPELLING)
    if faults:
        raise _refusal(faults[0], {to_wire(field): part})
    json_data(part, (to_wire(field),))


describedResult = described_result
"""The reference's camelCase name, accepted as ``defineTool`` is."""
