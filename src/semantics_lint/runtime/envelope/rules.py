"""The wire-envelope rule set: judge, recognize, explain and project semantic envelopes.

This is a faithful Python reading of the reference framework's envelope rules
(agentfootprint 9.62.0). A *wire envelope* is the snake_case dict that
``described_result`` mints and that saved records keep:
``{"af_semantics": True, "facts": [...], "provenance": {...}, ...}``.

The rule set is written once: the rule of each part alone (and the number rule) in
:mod:`semantics_lint.runtime.envelope.parts`, whose public names are importable from here
too, and the whole envelope (the marker, unknown keys, the rules between parts) in
:func:`faults_in`. It always reads the value in the wire spelling, but names the
fields it faults in a *spelling* chosen by the caller: recognition and the
``check-semantics`` gate speak the wire's own words (``grain.is_counter``), while the
``described_result`` mint judges its candidate with the same rules and names the
fields the way its author wrote them (``grain.isCounter``). Only the words differ,
never what is judged.

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

from typing import Any, Final

from semantics_lint.runtime.envelope.parts import (
    _MISSING,
    DATA_WITHOUT_PROVENANCE,
    DECLARATION_SPELLING,
    MALFORMED,
    PARTS,
    SERIES_WITHOUT_GRAIN,
    WIRE_SPELLING,
    Fault,
    SemanticIssue,
    Spelling,
    _clarify_faults,
    _coverage_faults,
    _edges_faults,
    _facts_faults,
    _fault,
    _grain_faults,
    _is_plain_object,
    _render_faults,
    _series_faults,
    is_finite_number,
    js_number,
    js_number_text,
    part_faults,
    provenance_faults,
    provenance_issues,
)
from semantics_lint.runtime.envelope.parts import (
    _js_string as _js_string,  # served text prints values with it too
)
from semantics_lint.runtime.envelope.refusal import (
    BAD_VALUE,
    DERIVED_KEY,
    MISSING,
    SAYS_NOTHING,
    UNKNOWN_KEY,
    WRONG_TYPE,
    key_text,
)
from semantics_lint.vocabulary import (
    ABSENCE_MARKER,
    COVERAGE_MARKER,
    DATA_FIELDS,
    ENVELOPE_WIRE_KEYS,
    SEMANTICS_MARKER,
    SEMANTICS_NOTE,
    is_counter_looking_aggregation,
    is_non_empty_string,
)

__all__ = [
    "DECLARATION_SPELLING",
    "PARTS",
    "WIRE_SPELLING",
    "Fault",
    "SemanticIssue",
    "Spelling",
    "compose_not_covered",
    "declared_coverage",
    "explain_semantics",
    "faults_in",
    "is_counter_looking_aggregation",
    "is_finite_number",
    "issues_in",
    "js_number",
    "js_number_text",
    "part_faults",
    "provenance_faults",
    "provenance_issues",
    "read_coverage_result",
    "read_semantics",
    "semantic_issues",
    "semantics_for_model",
]


_ENVELOPE_KEYS: Final = frozenset(ENVELOPE_WIRE_KEYS)


def _malformed(field: str, message: str) -> SemanticIssue:
    return {"code": MALFORMED, "field": field, "message": message}


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


def faults_in(value: object, spell: Spelling = WIRE_SPELLING) -> list[Fault]:
    """The whole rule set over a wire-spelled ``value``, naming fields with ``spell``;
    each issue with its kind and path (see :class:`Fault`).

    Each present part is judged by its own rule (:mod:`semantics_lint.runtime.envelope.parts`),
    in the reference's order, with the rules between parts where the reference
    checks them: data needs provenance, series needs grain, ``not_covered`` is what
    ``coverage`` derives, and something must be declared.
    """
    unmarked = _marker_fault(value)
    if unmarked is not None:
        return [unmarked]
    assert isinstance(value, dict)
    faults: list[Fault] = []
    _unknown_key_faults(faults, value)
    _data_faults(faults, value, spell)
    _provenance_and_grain_faults(faults, value, spell)
    _declared_faults(faults, value, spell)
    if all(value.get(key, _MISSING) is _MISSING for key in DATA_FIELDS) and (value.get("clarify") is None):
        _fault(
            faults,
            SEMANTICS_MARKER,
            "this result declares nothing: it needs data (series, facts or edges) or a question (clarify).",
            SAYS_NOTHING,
            (),
        )
    return faults


def _data_faults(faults: list[Fault], value: dict[str, Any], spell: Spelling) -> None:
    """The data parts and the grain, each by its own rule, when present."""
    for key, judge in (
        ("series", _series_faults),
        ("facts", _facts_faults),
        ("edges", _edges_faults),
        ("grain", _grain_faults),
    ):
        part = value.get(key, _MISSING)
        if part is not _MISSING:
            judge(faults, part, spell)


def _provenance_and_grain_faults(faults: list[Fault], value: dict[str, Any], spell: Spelling) -> None:
    """The provenance, required with series or facts; a series requires a grain."""
    series = value.get("series", _MISSING)
    provenance = value.get("provenance", _MISSING)
    if provenance is not _MISSING:
        faults.extend(provenance_faults(provenance, spell))
    elif series is not _MISSING or value.get("facts", _MISSING) is not _MISSING:
        _fault(
            faults,
            "provenance",
            "this result carries series/facts with no `provenance`: "
            f"`provenance.{spell('measured_at')}` and `provenance.source` are "
            "required whenever it carries data.",
            MISSING,
            ("provenance",),
            code=DATA_WITHOUT_PROVENANCE,
        )
    if series is not _MISSING and value.get("grain", _MISSING) is _MISSING:
        _fault(
            faults,
            "grain",
            "this result carries `series` with no `grain`: state the interval and "
            "aggregation so a reader does not sum counters or compare unlike windows.",
            MISSING,
            ("grain",),
            code=SERIES_WITHOUT_GRAIN,
        )


def _declared_faults(faults: list[Fault], value: dict[str, Any], spell: Spelling) -> None:
    """The coverage and the ``not_covered`` it derives, clarify, render and the note."""
    coverage = value.get("coverage", _MISSING)
    rendered = _coverage_faults(faults, coverage, spell) if coverage is not _MISSING else None
    not_covered = value.get("not_covered", _MISSING)
    if not_covered is not _MISSING:
        _not_covered_faults(faults, not_covered, coverage is not _MISSING, rendered)
    clarify = value.get("clarify", _MISSING)
    if clarify is not _MISSING:
        _clarify_faults(faults, clarify, spell)
    render = value.get("render", _MISSING)
    if render is not _MISSING:
        _render_faults(faults, render, spell)
    note = value.get("note", _MISSING)
    if note is not _MISSING and not isinstance(note, str):
        _fault(
            faults,
            "note",
            "`note` is the library's static sentence: a string.",
            WRONG_TYPE,
            ("note",),
        )


def _marker_fault(value: object) -> Fault | None:
    """The one fault of a value that is not a dict whose marker is exactly ``True``
    (nothing else is judged then); None for a marked dict."""
    if not _is_plain_object(value):
        return Fault(
            _malformed(SEMANTICS_MARKER, "a semantic envelope is a plain dict."),
            WRONG_TYPE,
            (),
        )
    assert isinstance(value, dict)
    marker = value.get(SEMANTICS_MARKER, _MISSING)
    if marker is True:
        return None
    return Fault(
        _malformed(
            SEMANTICS_MARKER,
            f"`{SEMANTICS_MARKER}` must be exactly true: the marker is the vocabulary.",
        ),
        MISSING if marker is _MISSING else BAD_VALUE,
        (SEMANTICS_MARKER,),
    )


def _unknown_key_faults(faults: list[Fault], value: dict[Any, Any]) -> None:
    """A fault for each key of the envelope that is not one of its fields, in the
    order the dict holds them."""
    for key in value:
        if key not in _ENVELOPE_KEYS:
            _fault(
                faults,
                key_text(key),
                f"this result carries '{key_text(key)}', which is not a field of an envelope; the "
                "fields are series, facts, edges, grain, provenance, coverage, clarify, "
                "render (not_covered and note are derived).",
                UNKNOWN_KEY,
                (key,),
            )


def _not_covered_faults(
    faults: list[Fault], not_covered: object, has_coverage: bool, rendered: dict[str, Any] | None
) -> None:
    """The rule of a present ``not_covered``: it is derived from ``coverage``, so it needs
    one, holds non-empty strings, and equals the lines ``rendered`` (the coverage's
    well-formed lists, None when it has none) composes."""
    if not has_coverage:
        _fault(
            faults,
            "not_covered",
            "`not_covered` is derived from `coverage`: declare `coverage` instead of "
            "writing the lines by hand.",
            DERIVED_KEY,
            ("not_covered",),
        )
    elif not isinstance(not_covered, list) or not all(is_non_empty_string(line) for line in not_covered):
        _fault(
            faults,
            "not_covered",
            "`not_covered` must be a list of non-empty strings.",
            WRONG_TYPE,
            ("not_covered",),
        )
    elif rendered is not None and compose_not_covered(rendered) != not_covered:
        _fault(
            faults,
            "not_covered",
            "`not_covered` disagrees with what `coverage` derives: drop it (the mint "
            "composes it) or fix the coverage lists.",
            BAD_VALUE,
            ("not_covered",),
        )


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


MODEL_COPIES: Final = frozenset({"series", "facts", "edges", "grain", "provenance", "not_covered"})
"""The parts :func:`semantics_for_model` keeps, when it keeps them, as shallow copies of
the envelope's: the same members in the same order, so each is written as the
envelope's is."""


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
        declared = declared_coverage(envelope, recognized=True)
        return {"declared": declared} if declared else None
    ledger = _read_ledger(value)
    if ledger is None:
        return None
    declared = declared_coverage(ledger, recognized=False)
    if len(declared) == 1:
        return {"declared": declared}
    return {"status": "absent", "declared": declared}


def declared_coverage(value: object, recognized: bool) -> list[dict[str, Any]]:
    """The coverage ``value`` declares (``read_coverage_result``'s ``declared`` list).

    ``recognized`` says that ``value`` is already known to be a recognized envelope,
    so it is not judged again; otherwise ``value`` is read as an absence or a ledger
    (an envelope is never recognized here). Empty when it declares nothing.
    """
    if recognized:
        assert isinstance(value, dict)
        coverage = value.get("coverage", _MISSING)
        return [] if coverage is _MISSING else [{"kind": "ledger", "coverage": _three_lists(coverage)}]
    absence = _read_absence(value)
    if absence is not None:
        return [_absence_facts(absence)]
    ledger = _read_ledger(value)
    if ledger is None:
        return []
    declared = [{"kind": "ledger", "coverage": _three_lists(ledger[COVERAGE_MARKER])}]
    inner = _read_absence(ledger["result"])
    if inner is not None:
        declared.append(_absence_facts(inner))
    return declared
