"""Serving a tool's value to an agent: the tool message, the run record, the final answer.

A value a tool returns lives in three places once an agent framework serves it:

* the **tool message**, what the model reads: :func:`tool_message` turns the value
  into a :class:`ToolMessage`. A recognized envelope is served as its projection
  (:func:`~semantics_lint.runtime.envelope.semantics_for_model`); an absence or a
  coverage ledger as written, boundary first; anything else unchanged. A refusal
  raised inside the tool is the call's error result (:func:`refusal_message`), and
  the run goes on;
* the **run record**, which keeps the whole value: inside ``with run_record() as
  run:``, each served result and each coverage declaration is collected on ``run``;
* the **final answer**, which carries the run's coverage when asked:
  :func:`compose_answer_with_coverage` appends the reference's coverage block.

Nothing here imports an agent framework; the adapters in ``semantics_lint.frameworks``
are thin layers over these functions, so what a value means is decided here only.

``text`` is what the model reads: a ``str`` value as itself, anything else as strict
JSON (RFC 8259) in the value's own key order with non-ASCII characters kept. JSON data
is ``dict`` (string keys; ``int``, ``float``, ``bool`` and ``None`` keys are written as
JSON writes them), ``list``, ``tuple``, ``str``, ``int``, finite ``float``, ``bool`` and
``None``; a ``datetime``, ``date`` or ``time`` is written as its ISO 8601 text
(``isoformat()``), as the mints write dates. Any other value (a set, bytes, an object,
``NaN``) is not JSON: :func:`tool_message` raises ``TypeError`` or ``ValueError`` rather
than let the model read a ``repr``, and the framework's own error policy applies.
"""

from __future__ import annotations

import datetime
import json
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Final, NamedTuple

from semantics_lint.runtime.envelope import (
    _js_string,
    explain_semantics,
    read_coverage_result,
    read_semantics,
    semantics_for_model,
)
from semantics_lint.runtime.tools import is_refusal
from semantics_lint.runtime.tracing import trace_served
from semantics_lint.vocabulary import (
    ABSENCE_MARKER,
    COVERAGE_FIELDS,
    COVERAGE_MARKER,
    JS_WHITESPACE,
)

__all__ = [
    "COVERAGE_BLOCK_HEADING",
    "KINDS",
    "RunRecord",
    "SemanticsWarning",
    "ToolMessage",
    "compose_answer_with_coverage",
    "current_run",
    "record_served",
    "refusal_message",
    "run_record",
    "tool_message",
]

KINDS: Final = ("semantics", "absent", "coverage", "malformed", "data", "refusal")
"""The kinds of :class:`ToolMessage`: what the served value was."""

COVERAGE_BLOCK_HEADING: Final = "Coverage of this answer"
"""The first words of the block :func:`compose_answer_with_coverage` appends."""

_MAX_PER_SECTION: Final = 12
_SECTIONS: Final = tuple(zip(COVERAGE_FIELDS, ("Checked", "Not checked", "Cannot cover")))
"""Each coverage list and the heading it has in the block."""


class SemanticsWarning(UserWarning):
    """A value carries the ``af_semantics`` marker but is not an envelope.

    It is served as plain data, unchanged; the warning names its first fault.
    """


class ToolMessage(NamedTuple):
    """One served result.

    * ``text``: what the model reads (a ``str``);
    * ``model``: the same as a value (the projection, the value as written, or the
      refusal's text), for a framework that takes structured content;
    * ``record``: what the run record keeps (the whole envelope, the value, or the
      refusal's text);
    * ``is_error``: True for a refusal, which the model reads as the call's error;
    * ``kind``: one of :data:`KINDS`.
    """

    text: str
    model: Any
    record: Any
    is_error: bool
    kind: str


def _json_default(value: object) -> str:
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    raise TypeError(
        f"a tool result must be JSON data (str, int, float, bool, None, list, tuple, dict "
        f"with str keys, or a date as ISO text) for the model to read; got "
        f"{type(value).__module__}.{type(value).__qualname__}"
    )


def _text(model: object) -> str:
    if isinstance(model, str):
        return model
    return json.dumps(model, ensure_ascii=False, allow_nan=False, default=_json_default)


def _boundary_first(ledger: dict[str, Any]) -> dict[str, Any]:
    if next(iter(ledger)) == COVERAGE_MARKER:
        return ledger
    ordered = {COVERAGE_MARKER: ledger[COVERAGE_MARKER]}
    ordered.update(ledger)
    return ordered


def tool_message(value: object) -> ToolMessage:
    """What the model reads and what the record keeps of ``value``, a tool's result.

    * a recognized envelope (``read_semantics``): ``model`` is
      ``semantics_for_model(envelope)``, ``record`` the envelope, kind ``"semantics"``;
    * an absence or a coverage ledger (``read_coverage_result``): served as written,
      the ledger's ``af_coverage`` before its ``result``; kind ``"absent"`` or
      ``"coverage"`` (a ledger around an absence is ``"coverage"``);
    * a value carrying the ``af_semantics`` marker that is not an envelope: served
      unchanged, kind ``"malformed"``, and a :class:`SemanticsWarning` names its first
      fault (``explain_semantics``);
    * any other value: unchanged, kind ``"data"``.

    Raises ``TypeError``/``ValueError`` for a value that is not JSON data (see the
    module docstring).
    """
    envelope = read_semantics(value)
    if envelope is not None:
        model = semantics_for_model(envelope)
        return ToolMessage(_text(model), model, envelope, False, "semantics")
    if isinstance(value, dict):
        if value.get(ABSENCE_MARKER) is True or isinstance(value.get(COVERAGE_MARKER), dict):
            reading = read_coverage_result(value)
            if reading is not None:
                if reading["declared"][0]["kind"] == "absence":
                    return ToolMessage(_text(value), value, value, False, "absent")
                served = _boundary_first(value)
                return ToolMessage(_text(served), served, value, False, "coverage")
        issues = explain_semantics(value)
        if issues:
            first = issues[0]
            warnings.warn(
                f"a tool result carries the af_semantics marker but is not an envelope, "
                f"so it is served as plain data: {first['field'] or 'the result'}: "
                f"{first['message']} ({first['code']})",
                SemanticsWarning,
                stacklevel=2,
            )
            return ToolMessage(_text(value), value, value, False, "malformed")
    return ToolMessage(_text(value), value, value, False, "data")


def refusal_message(exc: BaseException) -> ToolMessage | None:
    """The error result the model reads for a refusal raised inside a tool, else None.

    A refusal is a :class:`~semantics_lint.runtime.refusal.Refusal` (the mints'
    and ``define_tool``'s) or any exception whose message starts ``refused:``; its
    message is the text, ``is_error`` is True, kind ``"refusal"``. For any other
    exception the answer is None: the caller re-raises it, and the framework's own
    error policy applies.
    """
    if not is_refusal(exc):
        return None
    text = str(exc)
    return ToolMessage(text, text, text, True, "refusal")


class RunRecord:
    """What one run served, collected by :func:`run_record`.

    * ``results``: one ``{"tool", "kind", "record"}`` dict per served result, in order;
      a result written as an OpenTelemetry span (:mod:`semantics_lint.runtime.tracing`)
      adds its ``"trace_id"`` and ``"span_id"`` (lowercase hex);
    * ``declared``: one dict per coverage declaration (a described result's
      ``coverage``, a ``coverage()`` ledger, an ``absent()``), in order:
      ``{"tool", "kind", "checked", "notChecked", "cannotCover"}`` (``kind`` is
      ``"ledger"`` or ``"absence"``; an absence adds ``"lookedFor"``), each list of
      ``{"what", "why"?}`` items. A ledger around an absence declares both, outer
      first. ``compose_answer_with_coverage(answer, run.declared)`` puts them in an
      answer.
    """

    __slots__ = ("declared", "results")

    def __init__(self) -> None:
        self.results: list[dict[str, Any]] = []
        self.declared: list[dict[str, Any]] = []

    def add(self, tool: str, message: ToolMessage, span: tuple[str, str] | None = None) -> None:
        """Record one served result of ``tool`` and the coverage it declares.

        ``span``: the ``(trace_id, span_id)`` of the result's span, when it has one.
        """
        entry: dict[str, Any] = {"tool": tool, "kind": message.kind, "record": message.record}
        if span is not None:
            entry["trace_id"], entry["span_id"] = span
        self.results.append(entry)
        if message.kind not in ("semantics", "absent", "coverage"):
            return
        reading = read_coverage_result(message.record)
        if reading is None:
            return
        for facts in reading["declared"]:
            entry: dict[str, Any] = {"tool": tool, "kind": facts["kind"]}
            for key, items in facts["coverage"].items():
                entry[key] = [_item(item) for item in items]
            if "lookedFor" in facts:
                entry["lookedFor"] = facts["lookedFor"]
            self.declared.append(entry)

    def __repr__(self) -> str:
        return f"RunRecord(results={len(self.results)}, declared={len(self.declared)})"


def _item(item: object) -> object:
    # A hand-built absence may hold bare strings; the mints write {"what", "why"?}.
    return {"what": item} if isinstance(item, str) else item


_current: ContextVar[RunRecord | None] = ContextVar("semantics_lint_run", default=None)


@contextmanager
def run_record() -> Iterator[RunRecord]:
    """Collect what is served in this context: ``with run_record() as run: ...``.

    The record lives in a :class:`~contextvars.ContextVar`: asyncio tasks created
    inside the block (and ``asyncio.to_thread``, and code run in a copied context)
    record into it; a nested ``run_record()`` collects apart from the outer one
    until it ends. Outside any run nothing is recorded.
    """
    run = RunRecord()
    token = _current.set(run)
    try:
        yield run
    finally:
        _current.reset(token)


def current_run() -> RunRecord | None:
    """The innermost :func:`run_record` of this context, or None."""
    return _current.get()


def record_served(tool: str, message: ToolMessage) -> None:
    """Add a served result to the current run record (nothing outside a run), and write
    its OpenTelemetry span when a tracer provider records one (``runtime/tracing.py``)."""
    span = trace_served(tool, message)
    run = _current.get()
    if run is not None:
        run.add(tool, message, span)


def _same(text: object, item: object) -> tuple[str, object]:
    # Two items are the same ground when they say the same two strings (a missing or
    # None why is ""); anything else is compared by identity, as JavaScript compares.
    return ("text", text) if isinstance(text, str) else ("object", id(item))


def _merged(lists: Sequence[object]) -> list[Mapping[str, Any]]:
    out: list[Mapping[str, Any]] = []
    seen: set[tuple[tuple[str, object], tuple[str, object]]] = set()
    for items in lists:
        if not isinstance(items, list):
            continue
        for item in items:
            if not isinstance(item, Mapping):
                continue
            why = item.get("why")
            key = (_same(item.get("what"), item), _same("" if why is None else why, item))
            if key not in seen:
                seen.add(key)
                out.append(item)
    return out


def _section(label: str, items: list[Mapping[str, Any]]) -> str:
    lines = [
        f"- {_js_string(i.get('what'))}" + (f" — {_js_string(i['why'])}" if "why" in i else "")
        for i in items[:_MAX_PER_SECTION]
    ]
    if len(items) > _MAX_PER_SECTION:
        lines.append(f"- … and {len(items) - _MAX_PER_SECTION} more (in the run record)")
    return f"{label}:\n" + "\n".join(lines)


def compose_answer_with_coverage(answer: str, declared: Sequence[Mapping[str, Any]]) -> str:
    """``answer`` with the run's declared coverage appended, as the reference composes it.

    ``declared`` is :attr:`RunRecord.declared` (or any list of dicts with
    ``checked``/``notChecked``/``cannotCover`` lists of ``{"what", "why"?}``). Each
    list is merged across declarations in order, an item said twice (same ``what``
    and ``why``) kept once; a section with no item is left out, and a section shows
    12 items then ``- … and N more (in the run record)``. The block starts with
    :data:`COVERAGE_BLOCK_HEADING` and follows the answer (its trailing whitespace
    removed) after a ``---`` line. The answer is returned unchanged when nothing was
    declared.
    """
    if not declared:
        return answer
    sections = []
    for key, label in _SECTIONS:
        items = _merged([d.get(key) for d in declared])
        if items:
            sections.append(_section(label, items))
    if not sections:
        return answer
    block = (
        f"{COVERAGE_BLOCK_HEADING} — declared by the tools that produced it, not by the model:"
        "\n\n" + "\n\n".join(sections)
    )
    body = answer.rstrip(JS_WHITESPACE)
    return f"{body}\n\n---\n\n{block}" if body else block
