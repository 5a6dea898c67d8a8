"""The answer checked against what the run settled: the unsupported-claim check.

A described result settles readings: ``facts=[{"entity": "vm1", "jobs_local": 331}]``
says that ``jobs_local(vm1)`` is 331, measured then, from that source. The author
declares which field of the final (structured) answer claims which fact, a *contract*
(``{"protected_jobs": {"entity": "fleet", "field": "jobs_local"}}``); the check joins
the answer to the run's settled facts and never infers. A disagreement is a finding on
the record; nothing rewrites the answer or asks the model again. This is the
reference's check (agentfootprint 9.62.0, the unsupported claim), fence for fence:

* :func:`claim_rows` flattens one envelope into :class:`ClaimRow` readings: one per
  field of each ``facts`` row but ``entity``, then one per ``series`` point (its
  ``metric``, its ``t`` as the time measured); ``edges`` and ``clarify`` settle none.
* :func:`unsupported_claims` gives one :class:`Disposition` per contract entry, in
  order, and a :class:`ClaimFinding` per disagreement:

  - the answer does not hold the field (a missing key, a path through null, text or
    a number): ``not-applicable``;
  - no row settles the fact, or the latest row is an unknown or not-applicable Claim
    (``{"kind": "unknown", ...}``): ``unreachable``. The latest row settles; earlier
    rows are quoted history (witnesses) and never fire; a known Claim compares by its
    ``value``;
  - the answer says ``None`` or ``"unknown"``: ``checked-pass``, with an *advisory*
    finding unless the run settled ``None``/``"unknown"`` too;
  - text whose JavaScript ``Number()`` is a numeric settled value: ``checked-pass``
    (the one leniency: ``"30"``, ``" 30 "``, ``"3e1"``, ``"0x1e"``; not ``"1_000"``);
  - otherwise both are compared as JSON with sorted keys (``True`` is not ``1``, list
    order counts; a claimed unknown Claim never conflicts): ``checked-pass`` or
    ``checked-fail`` with a finding.

  A dot path reads dicts by key and lists by a segment of digits (``report.items.0``),
  and a list's ``length`` as JavaScript reads it; only a dict's own keys are read
  (JavaScript would also read an object's inherited members, ``constructor``...).
* :func:`claim_contract` refuses a contract nobody could have meant, where it is
  declared (``refused: claims: ...``, naming the answer field).

Messages are the reference's, byte for byte, values written by the one encoder
(:func:`~semantics_lint.runtime.envelope.json_text.json_text`, as ``JSON.stringify`` writes).
Deviation, documented: integers past ±2**53 are compared and written exactly (a double
of such a value equals the int it is, ``1e21 == 10**21``; text answered for such an int
names it exactly, ``"9007199254740993"``, not a neighbour that rounds to the same double).
"""

from __future__ import annotations

import decimal
import enum
import math
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Final, NamedTuple

from semantics_lint.runtime.claims.answer import UNREADABLE, answer_data
from semantics_lint.runtime.envelope.faults import _js_string, js_number
from semantics_lint.runtime.envelope.json_text import json_copy, json_text
from semantics_lint.runtime.envelope.refusal import EMPTY, MISSING, WRONG_TYPE, Refusal, key_text
from semantics_lint.vocabulary import CLAIM_KEYS, js_trim

__all__ = [
    "ClaimCheck",
    "ClaimFinding",
    "ClaimRow",
    "ClaimWitness",
    "DeclaredClaim",
    "Disposition",
    "claim_contract",
    "claim_rows",
    "contract_open",
    "contracts_open",
    "current_call",
    "js_string_to_number",
    "tool_call",
    "unsupported_claims",
]


class Disposition(str, enum.Enum):
    """What the check did with one contract entry; equal to its text."""

    CHECKED_PASS = "checked-pass"
    CHECKED_FAIL = "checked-fail"
    NOT_APPLICABLE = "not-applicable"
    UNREACHABLE = "unreachable"

    def __str__(self) -> str:
        return str(self.value)


class ClaimRow(NamedTuple):
    """One reading a served envelope settled: ``field(entity) = value``, and where from.

    ``measured_at`` is the series point's ``t``, else the envelope's
    ``provenance.measured_at``, else None. ``iteration`` is None where the framework
    gives none (the provenance then names the call alone).
    """

    entity: str
    field: str
    value: Any
    tool: str
    call_id: str
    iteration: int | None
    measured_at: str | int | float | None = None


class DeclaredClaim(NamedTuple):
    """One contract entry: the answer field (a dot path) and the fact it claims."""

    answer_field: str
    entity: str
    field: str


class ClaimWitness(NamedTuple):
    """One value a finding quotes: the settled row (``"asserted"``), the answer's claim
    (``"asserted"``, provenance ``answer field '...'``), earlier rows (``"quoted"``)."""

    value: Any
    stratum: str
    provenance: str


class ClaimFinding(NamedTuple):
    """A disagreement between the answer and the run: a contradiction, or an advisory
    (``advisory=True``: the answer declined, with ``None`` or ``"unknown"``, a fact the
    run verified). ``settled`` is the settled value as compared (a known Claim's
    ``value``); ``message`` is the reference's sentence."""

    answer_field: str
    entity: str
    field: str
    claimed: Any
    settled: Any
    advisory: bool
    message: str
    witnesses: tuple[ClaimWitness, ...]


class ClaimCheck(NamedTuple):
    """The verdict on one answer: one ``(answer_field, Disposition)`` per contract
    entry, in order, and the findings (contradictions and advisories) in that order."""

    dispositions: tuple[tuple[str, Disposition], ...]
    findings: tuple[ClaimFinding, ...]

    @property
    def contradictions(self) -> tuple[ClaimFinding, ...]:
        return tuple(f for f in self.findings if not f.advisory)

    @property
    def advisories(self) -> tuple[ClaimFinding, ...]:
        return tuple(f for f in self.findings if f.advisory)

    def counts(self) -> dict[str, int]:
        """How many entries had each disposition, and the advisories, counted apart."""
        counts = {str(d): 0 for d in Disposition}
        for _, disposition in self.dispositions:
            counts[str(disposition)] += 1
        counts["advisory"] = len(self.advisories)
        return counts

    def assert_supported(self, *, advisories: bool = False) -> None:
        """Raise ``AssertionError`` listing each contradiction (and, with
        ``advisories=True``, each advisory); nothing when the answer is supported."""
        failing = self.findings if advisories else self.contradictions
        if failing:
            lines = "\n".join(f"- {finding.message}" for finding in failing)
            raise AssertionError(f"{len(failing)} claim(s) of the answer not supported by the run:\n{lines}")


# --- the contract ----------------------------------------------------------------------

_SHAPE: Final = '{"entity": ..., "field": ...}'
_MISSING: Final = object()


def _refused(message: str, path: tuple[object, ...], kind: str) -> Refusal:
    return Refusal(f"refused: claims: {message}", path=path, kind=kind)


def _type_name(value: object) -> str:
    return "None" if value is None else type(value).__name__


def claim_contract(contract: object) -> tuple[DeclaredClaim, ...]:
    """The entries of ``contract``, or a :class:`Refusal` (``refused: claims: ...``).

    A contract maps each answer field (text, a dot path) to the fact it claims,
    ``{"entity": e, "field": f}``, both non-empty text (after JavaScript's trim).
    Refused: a contract that is not a mapping or names no field, an answer field that
    is not text, an entry that is not a mapping, an entity or field missing, not text
    or blank. Other keys of an entry are not read.
    """
    if not isinstance(contract, Mapping):
        raise _refused(
            f"a contract maps answer fields to {_SHAPE}; got {_type_name(contract)}.",
            (),
            WRONG_TYPE,
        )
    if not contract:
        raise _refused(
            "the contract names no answer field; leave claims out to check no answer.",
            (),
            EMPTY,
        )
    declared = []
    for answer_field, fact in contract.items():
        if not isinstance(answer_field, str):
            raise _refused(
                f"the answer field {key_text(answer_field)!r} is {_type_name(answer_field)}; "
                "an answer field is text, a dot path into the answer.",
                (answer_field,),
                WRONG_TYPE,
            )
        if not isinstance(fact, Mapping):
            raise _refused(
                f"{answer_field!r} must map to {_SHAPE}, the fact it claims; got {_type_name(fact)}.",
                (answer_field,),
                WRONG_TYPE,
            )
        entity, field = (_half(answer_field, key, fact) for key in CLAIM_KEYS)
        declared.append(DeclaredClaim(str.__str__(answer_field), entity, field))
    return tuple(declared)


def _half(answer_field: str, key: str, fact: Mapping[Any, Any]) -> str:
    # Read once and kept as plain text: the check joins on what was judged here.
    value = fact[key] if key in fact else _MISSING
    if value is _MISSING:
        problem, kind = "has none", MISSING
    elif not isinstance(value, str):
        problem, kind = f"is {_type_name(value)}", WRONG_TYPE
    elif not js_trim(value):
        problem, kind = "is blank", EMPTY
    else:
        return str.__str__(value)
    raise _refused(
        f"{answer_field!r} must name a non-empty {key}: the entity and field are the "
        f"edge the check joins on, and a blank half joins the wrong subjects; its {key} "
        f"{problem}.",
        (answer_field, key),
        kind,
    )


# --- the rows a run settled -------------------------------------------------------------


def claim_rows(envelope: object, *, tool: str, call_id: str, iteration: int | None) -> list[ClaimRow]:
    """The readings ``envelope`` settles, in declaration order (see the module docstring).

    ``envelope`` is a recognized envelope in its wire form, as ``described_result``
    returns it and the run record keeps it; its values are copied (JSON data, a
    dict's keys in JavaScript's order). Of any other dict, the ``facts`` rows and
    ``series`` points that are dicts with text ``entity`` (and ``metric``) are read
    the same way; anything else settles nothing.
    """
    if not isinstance(envelope, dict):
        return []
    plain = json_copy(envelope)
    provenance = plain.get("provenance")
    measured_at = provenance.get("measured_at") if isinstance(provenance, dict) else None
    rows: list[ClaimRow] = []
    facts = plain.get("facts")
    for fact in facts if isinstance(facts, list) else ():
        if not isinstance(fact, dict) or not isinstance(fact.get("entity"), str):
            continue
        for field, value in fact.items():
            if field != "entity":
                rows.append(ClaimRow(fact["entity"], field, value, tool, call_id, iteration, measured_at))
    series = plain.get("series")
    for point in series if isinstance(series, list) else ():
        if not isinstance(point, dict):
            continue
        entity, metric = point.get("entity"), point.get("metric")
        if isinstance(entity, str) and isinstance(metric, str) and "value" in point:
            at = point.get("t", measured_at)
            rows.append(ClaimRow(entity, metric, point["value"], tool, call_id, iteration, at))
    return rows


# --- which call a served result answers (set by the framework adapters) -----------------

_call: ContextVar[tuple[str | None, int | None] | None] = ContextVar("semantics_lint_tool_call", default=None)


_contracts = 0
_contracts_lock = threading.Lock()


def contracts_open() -> bool:
    """Whether a run declared with claims is open anywhere: only then do the adapters
    read the framework's call ids (a run without claims costs nothing more)."""
    return _contracts > 0


@contextmanager
def contract_open() -> Iterator[None]:
    """Count a run declared with claims as open for the block."""
    global _contracts
    with _contracts_lock:
        _contracts += 1
    try:
        yield
    finally:
        with _contracts_lock:
            _contracts -= 1


@contextmanager
def tool_call(call_id: str | None, iteration: int | None = None) -> Iterator[None]:
    """Serve the results of the block as answers to the framework's tool call
    ``call_id``, in the agent loop's ``iteration`` (None where the framework gives none)."""
    token = _call.set((call_id, iteration))
    try:
        yield
    finally:
        _call.reset(token)


def current_call() -> tuple[str | None, int | None] | None:
    """The ``(call_id, iteration)`` a result served here answers, or None."""
    return _call.get()


# --- the check ---------------------------------------------------------------------------

_PREFIXED: Final = re.compile(r"0(?:[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)")
_DECIMAL: Final = re.compile(r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")
_BASES: Final = {"x": 16, "o": 8, "b": 2}
_SAFE_INT: Final = 2**53


def js_string_to_number(text: str) -> float:
    """JavaScript's ``Number(text)`` for a string: trimmed as ``trim()`` does; ``""`` is 0;
    decimal (``"3e1"``, ``".5"``, ``"Infinity"``) or ``0x``/``0o``/``0b`` literals;
    anything else (``"1_000"``, ``"nan"``, ``"-0x1"``) NaN."""
    body = js_trim(text)
    if not body:
        return 0.0
    if _PREFIXED.fullmatch(body):
        try:
            return float(int(body[2:], _BASES[body[1].lower()]))
        except OverflowError:
            return math.inf
    if _DECIMAL.fullmatch(body):
        return float(body)
    return math.nan


def _read_path(answer: object, path: str) -> Any:
    cursor = answer
    for key in path.split("."):
        if isinstance(cursor, dict):
            cursor = cursor.get(key, _MISSING)
        elif isinstance(cursor, (list, tuple)) and _is_index(key) and int(key) < len(cursor):
            cursor = cursor[int(key)]
        elif isinstance(cursor, (list, tuple)) and key == "length":
            cursor = len(cursor)  # as JavaScript reads an array's length
        else:
            return _MISSING
        if cursor is _MISSING:
            return _MISSING
    return cursor


def _is_index(key: str) -> bool:
    return key.isascii() and key.isdigit() and (key == "0" or key[0] != "0")


def _participates(value: object) -> bool:
    # An unknown or not-applicable Claim never compares (honest absence).
    return not (isinstance(value, dict) and value.get("kind") in ("unknown", "not-applicable"))


def _comparable(value: object) -> Any:
    # A known Claim compares by its value.
    if isinstance(value, dict) and value.get("kind") == "known" and "value" in value:
        return value["value"]
    return value


def _is_doubt(value: object) -> bool:
    return value is None or (isinstance(value, str) and value == "unknown")


def _numerically_equal(claimed: object, settled: object) -> bool:
    number = js_number(settled)
    if (
        number is None
        or not isinstance(claimed, str)
        or js_trim(claimed) == ""
        or js_string_to_number(claimed) != number
    ):
        return False
    if isinstance(settled, int) and not isinstance(settled, bool) and abs(settled) > _SAFE_INT:
        return _exact_value(claimed) == settled  # an int past 2**53 is compared exactly
    return True


def _exact_value(text: str) -> int | decimal.Decimal:
    """The number text written as JavaScript reads it, exactly (text that reads as a
    finite number: see :func:`js_string_to_number`)."""
    body = js_trim(text)
    if _PREFIXED.fullmatch(body):
        return int(body[2:], _BASES[body[1].lower()])
    return decimal.Decimal(body)


def _sorted(value: Any) -> Any:
    # The face values compare by: keys sorted, and an integral double past 2**53 as the
    # int it is, so that it equals that int (both compared exactly; 1e21 is 10**21).
    if isinstance(value, dict):
        return {key: _sorted(value[key]) for key in sorted(value, key=_utf16)}
    if isinstance(value, (list, tuple)):
        return [_sorted(item) for item in value]
    if isinstance(value, float) and value.is_integer() and abs(value) > _SAFE_INT:
        return int(value)
    return value


def _utf16(key: object) -> bytes:
    return str(key).encode("utf-16-be", "surrogatepass")


def _rendered(value: object) -> str:
    return json_text(_sorted(_comparable(json_copy(value))))


def _provenance(row: ClaimRow, measured: bool = True) -> str:
    iteration = "" if row.iteration is None else f", iteration {_js_string(row.iteration)}"
    text = f"{row.tool} (call {row.call_id}{iteration})"
    if measured and row.measured_at is not None:
        text += f", measured_at {_js_string(row.measured_at)}"
    return text


def unsupported_claims(
    contract: Mapping[str, Mapping[str, str]] | Sequence[DeclaredClaim],
    rows: Sequence[ClaimRow],
    answer: object,
) -> ClaimCheck:
    """The answer's declared claims against the settled ``rows`` (pure; see the module
    docstring). ``contract`` is a mapping (checked by :func:`claim_contract`) or its
    entries; ``answer`` is JSON data (dicts, lists, text, numbers, bools, None)."""
    # Its entries, or a mapping; text (a Sequence too) is no contract.
    declared = tuple(contract) if isinstance(contract, (list, tuple)) else claim_contract(contract)
    by_fact = _by_fact(rows)
    findings: list[ClaimFinding] = []
    dispositions: list[tuple[str, Disposition]] = []
    for claim in declared:
        history = by_fact.get(_fact_key(claim.entity, claim.field), ())
        disposition, finding = _judged(claim, history, answer)
        dispositions.append((claim.answer_field, disposition))
        if finding is not None:
            findings.append(finding)
    return ClaimCheck(tuple(dispositions), tuple(findings))


def _fact_key(entity: object, field: object) -> tuple[str, str] | None:
    # Entities and fields join as JavaScript's === joins text: by value, text only.
    if isinstance(entity, str) and isinstance(field, str):
        return str.__str__(entity), str.__str__(field)
    return None


def _by_fact(rows: Sequence[ClaimRow]) -> dict[tuple[str, str] | None, list[ClaimRow]]:
    """The rows of each fact ``(entity, field)``, in order: one walk over the rows."""
    by_fact: dict[tuple[str, str] | None, list[ClaimRow]] = {}
    for found in rows:
        key = _fact_key(found.entity, found.field)
        if key is not None:
            by_fact.setdefault(key, []).append(found)
    return by_fact


def _judged(
    claim: DeclaredClaim, history: Sequence[ClaimRow], answer: object
) -> tuple[Disposition, ClaimFinding | None]:
    claimed = _read_path(answer, claim.answer_field)
    if claimed is _MISSING:
        return Disposition.NOT_APPLICABLE, None
    if not history or not _participates(history[-1].value):
        return Disposition.UNREACHABLE, None
    row = history[-1]
    settled = _comparable(row.value)
    provenance = _provenance(row)
    asserted = ClaimWitness(row.value, "asserted", provenance)
    fact = f"{claim.field}({claim.entity}) = {json_text(settled)} ({provenance})"
    if _is_doubt(claimed):
        if _is_doubt(settled):
            return Disposition.CHECKED_PASS, None
        message = (
            f"The answer's '{claim.answer_field}' says {json_text(claimed)} while the run "
            f"verified {fact}. Declining to claim a verified fact is doubt, not "
            "contradiction — filed as an advisory, counted apart."
        )
        return Disposition.CHECKED_PASS, ClaimFinding(
            claim.answer_field,
            claim.entity,
            claim.field,
            claimed,
            settled,
            True,
            message,
            (asserted,),
        )
    if _numerically_equal(claimed, settled):
        return Disposition.CHECKED_PASS, None
    if not _participates(claimed) or _rendered(claimed) == _rendered(row.value):
        return Disposition.CHECKED_PASS, None
    witnesses = (
        asserted,
        ClaimWitness(claimed, "asserted", f"answer field '{claim.answer_field}'"),
        *(ClaimWitness(r.value, "quoted", _provenance(r, measured=False)) for r in history[:-1]),
    )
    message = (
        f"The answer's '{claim.answer_field}' claims {json_text(claimed)} but the run's "
        f"settled fact is {fact}. The record supports the fact, not the claim — nothing "
        "here rewrites the answer; it makes the disagreement attributable."
    )
    return Disposition.CHECKED_FAIL, ClaimFinding(
        claim.answer_field,
        claim.entity,
        claim.field,
        claimed,
        settled,
        False,
        message,
        witnesses,
    )


# --- a run's answer and its rows ----------------------------------------------------------

Span = tuple[str, str]
"""A served result's ``(trace_id, span_id)``."""


def run_rows(results: Sequence[Mapping[str, Any]]) -> tuple[list[ClaimRow], list[Span | None]]:
    """The rows a run's recognized envelopes settled, in the order served, and the span
    of the result each row came from (None without one).

    ``results`` is ``RunRecord.results``. A result's call id is the framework's
    (``call_id``, recorded by its adapter), else ``#n``, its place among the run's
    results (from 1); its iteration the framework's, else None.
    """
    rows: list[ClaimRow] = []
    spans: list[Span | None] = []
    for index, entry in enumerate(results):
        if entry.get("kind") != "semantics":
            continue
        call_id = entry.get("call_id")
        found = claim_rows(
            entry["record"],
            tool=entry["tool"],
            call_id=f"#{index + 1}" if call_id is None else str(call_id),
            iteration=entry.get("iteration"),
        )
        rows.extend(found)
        span = (entry["trace_id"], entry["span_id"]) if "span_id" in entry else None
        spans.extend([span] * len(found))
    return rows, spans


def check_run(
    declared: Sequence[DeclaredClaim], results: Sequence[Mapping[str, Any]], answer: object
) -> tuple[ClaimCheck, list[Span | None]]:
    """The check of a run's answer (:func:`answer_data`) against its results' rows, and
    for each finding the span of the result that settled its fact."""
    data = answer_data(answer)
    if data is UNREADABLE:
        unreachable = tuple((c.answer_field, Disposition.UNREACHABLE) for c in declared)
        return ClaimCheck(unreachable, ()), []
    rows, spans = run_rows(results)
    check = unsupported_claims(declared, rows, data)
    last: dict[tuple[str, str] | None, Span | None] = {}
    for row, span in zip(rows, spans, strict=True):
        key = _fact_key(row.entity, row.field)
        if key is not None:
            last[key] = span
    settled = [last.get(_fact_key(f.entity, f.field)) for f in check.findings]
    return check, settled
