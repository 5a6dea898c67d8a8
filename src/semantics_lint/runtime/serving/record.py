"""The run record: what one agent run served, and the coverage block of its final answer.

``with run_record() as run:`` collects each result an adapter serves during the block
(:func:`record_served`) on ``run``: ``run.results`` keeps each served result as it was
when served (the tool message's ``record``, a plain copy taken then), and
``run.declared`` each coverage declaration. :func:`compose_answer_with_coverage` puts
the declarations in the final answer, as the reference composes it.

Which run a result belongs to:

* the run of the serving code's context (a :class:`~contextvars.ContextVar`): asyncio
  tasks created in the block, ``asyncio.to_thread`` and anyio's worker threads carry
  it; a nested ``run_record()`` collects apart from the outer one until it ends;
* a thread that starts with an empty context (``threading.Thread``,
  ``ThreadPoolExecutor``, ``loop.run_in_executor``) has no run of its own: its result
  goes to the innermost open run when the open runs are one chain (one run, or runs
  nested in each other), the common case of one run at a time. When unrelated runs are
  open at once (concurrent requests, each in its own run) the run cannot be known: the
  result is not recorded and a :class:`SemanticsWarning` says to carry the run into
  the thread with :meth:`RunRecord.bind` (or ``contextvars.copy_context().run``);
* a run that has ended never changes: a result served after its block (a task that
  outlived it) is dropped with a :class:`SemanticsWarning`.

Runs must end in the order they began: leaving an outer block while an inner run of
the same context is open raises ``RuntimeError``.
"""

from __future__ import annotations

import itertools
import math
import threading
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar, copy_context
from typing import Any, Final, ParamSpec, TypeVar

from semantics_lint.runtime.claims.check import (
    ClaimCheck,
    DeclaredClaim,
    check_run,
    claim_contract,
    contract_open,
    current_call,
)
from semantics_lint.runtime.envelope.faults import _js_string, js_number
from semantics_lint.runtime.envelope.json_text import remade
from semantics_lint.runtime.envelope.rules import declared_coverage
from semantics_lint.runtime.serving.message import (
    Kind,
    SemanticsWarning,
    ToolMessage,
    served_with_record_text,
    tool_message,
)
from semantics_lint.runtime.serving.tracing import current_tracer, trace_claims, trace_served
from semantics_lint.vocabulary import COVERAGE_FIELDS, COVERAGE_ITEM_FIELDS, JS_WHITESPACE

__all__ = [
    "COVERAGE_BLOCK_HEADING",
    "RunRecord",
    "compose_answer_with_coverage",
    "current_run",
    "record_served",
    "run_record",
    "serve",
]

P = ParamSpec("P")
R = TypeVar("R")

COVERAGE_BLOCK_HEADING: Final = "Coverage of this answer"
"""The first words of the block :func:`compose_answer_with_coverage` appends."""

_DECLARING: Final = frozenset({Kind.SEMANTICS, Kind.ABSENT, Kind.COVERAGE})


class RunRecord:
    """What one run served, collected by :func:`run_record`.

    * ``results``: one ``{"tool", "kind", "record"}`` dict per served result, in order,
      ``record`` being the served value as it was when served; a result written as an
      OpenTelemetry span (:mod:`semantics_lint.runtime.serving.tracing`) adds its
      ``"trace_id"`` and ``"span_id"`` (lowercase hex);
    * ``declared``: one dict per coverage declaration (a described result's
      ``coverage``, a ``coverage()`` ledger, an ``absent()``), in order:
      ``{"tool", "kind", "checked", "notChecked", "cannotCover"}`` (``kind`` is
      ``"ledger"`` or ``"absence"``; an absence adds ``"lookedFor"``), each list of
      ``{"what", "why"?}`` items. A ledger around an absence declares both, outer
      first. ``compose_answer_with_coverage(answer, run.declared)`` puts them in an
      answer.
    * ``closed``: True once the ``with`` block has ended; nothing is added after;
    * ``claims``: the contract declared with ``run_record(claims=...)`` (its entries),
      or None; ``claim_check``: the last :meth:`check_claims` verdict, or None.

    In a run declared with claims, a result served as the answer to a framework's
    tool call adds its ``"call_id"`` and ``"iteration"`` (None where the framework
    gives none).

    Results may be added from several threads at once.
    """

    __slots__ = ("_lock", "_parent", "claim_check", "claims", "closed", "declared", "results")

    def __init__(
        self, parent: RunRecord | None = None, claims: tuple[DeclaredClaim, ...] | None = None
    ) -> None:
        self.results: list[dict[str, Any]] = []
        self.declared: list[dict[str, Any]] = []
        self.closed = False
        self.claims = claims
        self.claim_check: ClaimCheck | None = None
        self._parent = parent
        self._lock = threading.Lock()

    def add(self, tool: str, message: ToolMessage, span: tuple[str, str] | None = None) -> None:
        """Record one served result of ``tool`` and the coverage it declares.

        ``span``: the ``(trace_id, span_id)`` of the result's span, when it has one.
        A run that has ended is not changed: the result is dropped with a
        :class:`SemanticsWarning`.
        """
        # Copies: the message's record also goes to the framework (a LangChain artifact,
        # Pydantic AI's metadata), where the application may edit it later.
        record, declared = remade([message.record, _declared(tool, message)])
        entry: dict[str, Any] = {"tool": tool, "kind": message.kind, "record": record}
        if span is not None:
            entry["trace_id"], entry["span_id"] = span
        if self.claims is not None:
            call = current_call()
            if call is not None:
                entry["call_id"], entry["iteration"] = call
        with self._lock:
            if not self.closed:
                self.results.append(entry)
                self.declared.extend(declared)
                return
        warnings.warn(
            f"a result of {tool!r} was served after its run_record() ended; the closed "
            "run is not changed and the result is not recorded",
            SemanticsWarning,
            stacklevel=3,
        )

    def check_claims(self, answer: object) -> ClaimCheck:
        """The answer held to what the run settled (``semantics_lint.runtime.claims.check``).

        ``answer`` as the framework gives it: a mapping or list, a pydantic model, a
        dataclass, or JSON text (text that is not a JSON object or array makes every
        claim unreachable). The rows are those of the run's recognized envelopes, in
        the order served. The verdict is kept as :attr:`claim_check` and, with
        OpenTelemetry, written as the span ``semantics claims``. Raises
        ``RuntimeError`` for a run declared without claims.
        """
        if self.claims is None:
            raise RuntimeError("check_claims() needs a contract: declare it with run_record(claims={...})")
        with self._lock:
            results = list(self.results)
        check, settled = check_run(self.claims, results, answer)
        self.claim_check = check
        trace_claims(check, settled)
        return check

    def bind(self, function: Callable[P, R]) -> Callable[P, R]:
        """``function``, run with this run as the current one wherever it is called.

        For a thread that should record into this run when several runs are open at
        once: ``pool.submit(run.bind(work), item)``.
        """

        def bound(*args: P.args, **kwargs: P.kwargs) -> R:
            context = copy_context()
            context.run(_current.set, self)
            return context.run(function, *args, **kwargs)

        return bound

    def __repr__(self) -> str:
        state = ", closed" if self.closed else ""
        return f"RunRecord(results={len(self.results)}, declared={len(self.declared)}{state})"


def _declared(tool: str, message: ToolMessage) -> list[dict[str, Any]]:
    if message.kind not in _DECLARING:
        return []
    entries = []
    for facts in declared_coverage(message.record, message.kind == Kind.SEMANTICS):
        entry: dict[str, Any] = {"tool": tool, "kind": facts["kind"]}
        for key, items in facts["coverage"].items():
            # A hand-built ledger may hold anything where a list belongs: kept as found.
            entry[key] = (
                [item if type(item) is dict and item.keys() <= _ITEM_KEYS else _item(item) for item in items]
                if isinstance(items, list)
                else items
            )
        if "lookedFor" in facts:
            entry["lookedFor"] = facts["lookedFor"]
        entries.append(entry)
    return entries


_ITEM_KEYS: Final = frozenset(COVERAGE_ITEM_FIELDS)


def _item(item: Any) -> Any:
    """One declared item as the reference records it: its ``what`` and, when it has
    one, its ``why`` (a hand-built item's other keys are not part of the declaration);
    a bare string is its ``what``."""
    if isinstance(item, str):
        return {"what": item}
    if not isinstance(item, dict):
        return item
    kept = {name: item[name] for name in COVERAGE_ITEM_FIELDS if name in item}
    return kept if len(kept) < len(item) else item


class _OpenRuns:
    """Every run whose block has not ended, in the order they began (for threads)."""

    __slots__ = ("_lock", "_runs")

    def __init__(self) -> None:
        self._runs: list[RunRecord] = []
        self._lock = threading.Lock()

    def add(self, run: RunRecord) -> None:
        with self._lock:
            self._runs.append(run)

    def remove(self, run: RunRecord) -> None:
        with self._lock:
            self._runs.remove(run)

    def for_thread(self) -> tuple[RunRecord | None, bool]:
        """The run of a thread with no run of its own: the innermost open run when the
        open runs are one chain, else None; and whether unrelated runs are open."""
        with self._lock:
            for outer, inner in itertools.pairwise(self._runs):
                if inner._parent is not outer:
                    return None, True
            return (self._runs[-1] if self._runs else None), False


_current: ContextVar[RunRecord | None] = ContextVar("semantics_lint_run", default=None)
_OPEN: Final = _OpenRuns()


@contextmanager
def run_record(claims: Mapping[str, Mapping[str, str]] | None = None) -> Iterator[RunRecord]:
    """Collect what is served during the block: ``with run_record() as run: ...``.

    See the module docstring for which results a run collects. ``claims``: the
    contract of the final answer (``{answer_field: {"entity": e, "field": f}}``),
    refused here when nobody could have meant it (``refused: claims: ...``); hold the
    answer to it with :meth:`RunRecord.check_claims` before the block ends (a run
    declared with claims that ends unchecked warns, :class:`SemanticsWarning`).
    """
    declared = None if claims is None else claim_contract(claims)
    run = RunRecord(parent=_current.get(), claims=declared)
    token = _current.set(run)
    _OPEN.add(run)
    try:
        with contract_open() if declared is not None else nullcontext():
            yield run
        if declared is not None and run.claim_check is None:
            warnings.warn(
                "a run_record(claims=...) ended without its answer checked; call "
                "run.check_claims(answer) before the block ends",
                SemanticsWarning,
                stacklevel=3,
            )
    finally:
        with run._lock:
            run.closed = True
        _OPEN.remove(run)
        inner = _current.get()
        _current.reset(token)
        if inner is not run:
            raise RuntimeError(
                "a run_record() ended while a run_record() begun inside it is still open; "
                "end the inner run first (nest the with blocks)"
            )


def current_run() -> RunRecord | None:
    """The run a result served here is recorded into, or None.

    The innermost :func:`run_record` of this context; in a thread without one, the
    innermost open run when the open runs are one chain (see the module docstring).
    """
    run = _current.get()
    return run if run is not None else _OPEN.for_thread()[0]


def serve(tool: str, value: object) -> ToolMessage:
    """Serve ``value``, a result of ``tool``: its :func:`tool_message`, recorded
    (:func:`record_served`). What every adapter does with a tool's value.

    Raises ``NotJSON`` as ``tool_message`` does, and then records nothing.
    """
    tracer = current_tracer()
    if tracer is None:
        message = tool_message(value)
        _add(tool, message, None)
        return message
    message, record_text = served_with_record_text(value)
    _add(tool, message, trace_served(tool, message, record_text, tracer=tracer))
    return message


def record_served(tool: str, message: ToolMessage, record_text: str | None = None) -> None:
    """Add a served result to the run it belongs to (nothing outside a run), and write
    its OpenTelemetry span when a tracer provider records one (``runtime/serving/tracing.py``).

    ``record_text``: the JSON text of ``message.record`` when already written (see
    ``serving.served_with_record_text``), else None."""
    _add(tool, message, trace_served(tool, message, record_text))


def _add(tool: str, message: ToolMessage, span: tuple[str, str] | None) -> None:
    run = _current.get()
    if run is None:
        run, unrelated = _OPEN.for_thread()
        if unrelated:
            warnings.warn(
                f"a result of {tool!r} was served in a thread outside any run_record() "
                "while several unrelated runs are open, so it is not recorded; carry the "
                "run into the thread with run.bind(function) or contextvars.copy_context()",
                SemanticsWarning,
                stacklevel=3,
            )
            return
        if run is None:
            return
    run.add(tool, message, span)


# --- the final answer ------------------------------------------------------------------

_MAX_PER_SECTION: Final = 12
_SECTIONS: Final = tuple(zip(COVERAGE_FIELDS, ("Checked", "Not checked", "Cannot cover"), strict=True))
"""Each coverage list and the heading it has in the block."""
_LINE_BREAKS: Final = dict.fromkeys([*range(0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029], " ")
"""Characters that would start a new line, or hide one, in a block of lines."""


_UNDEFINED: Final = object()


def _same(value: object) -> tuple[str, object]:
    # JavaScript's ===: text, numbers (as the double JavaScript holds; NaN equals
    # nothing), booleans, null and undefined by value; anything else by identity.
    if isinstance(value, str):
        return ("text", value)
    if isinstance(value, bool) or value is None or value is _UNDEFINED:
        return ("value", value if value is not _UNDEFINED else "undefined")
    number = js_number(value)
    if number is not None:
        return ("NaN", object()) if math.isnan(number) else ("number", number)
    return ("object", id(value))


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
            key = (_same(item.get("what", _UNDEFINED)), _same("" if why is None else why))
            if key not in seen:
                seen.add(key)
                out.append(item)
    return out


def _one_line(value: object) -> str:
    return _js_string(value).translate(_LINE_BREAKS)


def _section(label: str, items: list[Mapping[str, Any]]) -> str:
    lines = [
        f"- {_one_line(i.get('what'))}" + (f" — {_one_line(i['why'])}" if "why" in i else "")
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
    12 items then ``- … and N more (in the run record)``. Each item is one line: a
    line break or other control character in its ``what`` or ``why`` is written as a
    space (the reference writes them as they are, so data could write lines of its
    own into the block). The block starts with :data:`COVERAGE_BLOCK_HEADING` and
    follows the answer (its trailing whitespace removed) after a ``---`` line. The
    answer is returned unchanged when nothing was declared.
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
