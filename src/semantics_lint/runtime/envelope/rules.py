"""The wire-envelope rule set: judge, recognize, explain and project semantic envelopes.

This is a faithful Python reading of the reference framework's envelope rules
(agentfootprint 9.62.0). A *wire envelope* is the snake_case dict that
``described_result`` mints and that saved records keep:
``{"af_semantics": True, "facts": [...], "provenance": {...}, ...}``.

The rule set is written once, in :mod:`semantics_lint.runtime.envelope.parts`: a table
of the envelope's parts, each part's rules beside it, judged in one pass
(:func:`faults_in`); its public names are importable from here too. This module asks it
(:func:`semantic_issues`, :func:`read_semantics`), projects a recognized envelope for the
model and reads what a result declares about its coverage. The rules always read the
value in the wire spelling, but name the fields they fault in a *spelling* chosen by the
caller: recognition and the ``check-semantics`` gate speak the wire's own words
(``grain.is_counter``), while the ``described_result`` mint judges its candidate with
the same rules and names the fields the way its author wrote them
(``grain.isCounter``). Only the words differ, never what is judged.

Traps the rule set keeps, because the reference keeps them:

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

from semantics_lint.runtime.envelope.faults import (
    _MISSING,
    DECLARATION_SPELLING,
    WIRE_SPELLING,
    Fault,
    SemanticIssue,
    Spelling,
    is_finite_number,
    js_number,
    js_number_text,
)
from semantics_lint.runtime.envelope.parts import (
    PARTS,
    compose_not_covered,
    faults_in,
    issues_in,
    part_faults,
    provenance_faults,
    provenance_issues,
    semantic_issues,
)
from semantics_lint.vocabulary import (
    ABSENCE_MARKER,
    COVERAGE_MARKER,
    SEMANTICS_MARKER,
    SEMANTICS_NOTE,
    is_counter_looking_aggregation,
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
