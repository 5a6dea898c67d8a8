"""Serving a tool's value to an agent: the tool message the model reads.

A value a tool returns lives in three places once an agent framework serves it:

* the **tool message**, what the model reads: :func:`tool_message` turns the value
  into a :class:`ToolMessage`. A recognized envelope is served as its projection
  (:func:`~semantics_lint.runtime.envelope.rules.semantics_for_model`); an absence or a
  coverage ledger as written, boundary first; anything else unchanged. A refusal
  raised inside the tool is the call's error result (:func:`refusal_message`), and
  the run goes on;
* the **run record**, which keeps the whole value (:mod:`semantics_lint.runtime.serving.record`);
* the **final answer**, which carries the run's coverage when asked
  (:func:`~semantics_lint.runtime.serving.record.compose_answer_with_coverage`).

Nothing here imports an agent framework; the adapters in ``semantics_lint.frameworks``
are thin layers over these functions, so what a value means is decided here only.

``text`` is what the model reads: a ``str`` value as itself (made valid UTF-8: a
lone surrogate is the text of its escape, ``json_text``'s one policy), anything else the text JavaScript's
``JSON.stringify`` writes (:mod:`semantics_lint.runtime.envelope.json_text`, the one encoder):
compact, JavaScript number text, NaN and ±Infinity as ``null``, lone surrogates
escaped, non-ASCII kept. ``record`` is a plain copy of the value taken when it is
served, as JavaScript would hold it (dates as ISO text, a whole float such as
``100.0`` as the int ``100``), so a later change to what the tool returned changes
nothing served. The value is judged once, on that copy.

A value that is not JSON data (see ``json_text``) is either

* an envelope, absence or ledger (it carries a marker) built by hand with such a
  value inside: it cannot be served as written, so the model reads an error result
  whose text starts ``refused:`` and names the place (kind ``"refusal"``); the mints
  refuse such values where they are called, so a minted result never gets here;
* anything else (a pydantic model, a dataclass, a set): :func:`tool_message` raises
  :class:`~semantics_lint.runtime.envelope.json_text.NotJSON` (a ``TypeError``), and an adapter
  hands the value to its framework's own serialization, as if it were not there.
"""

from __future__ import annotations

import builtins
import enum
import warnings
from collections.abc import Collection
from typing import Any, Final, NamedTuple

from semantics_lint.runtime.envelope.json_text import (
    NotJSON,
    Plain,
    object_text,
    plain_json,
    wire_text,
    write_plain,
)
from semantics_lint.runtime.envelope.rules import (
    MODEL_COPIES,
    read_coverage_result,
    semantic_issues,
    semantics_for_model,
)
from semantics_lint.runtime.mints.tools import is_refusal
from semantics_lint.vocabulary import ABSENCE_MARKER, COVERAGE_MARKER, SEMANTICS_MARKER

__all__ = [
    "KINDS",
    "Kind",
    "NotJSON",
    "SemanticsWarning",
    "ToolMessage",
    "refusal_message",
    "served_with_record_text",
    "tool_message",
]


class Kind(str, enum.Enum):
    """What a served value was; equal to its text (``Kind.SEMANTICS == "semantics"``)."""

    SEMANTICS = "semantics"
    ABSENT = "absent"
    COVERAGE = "coverage"
    MALFORMED = "malformed"
    DATA = "data"
    REFUSAL = "refusal"

    def __str__(self) -> str:
        return str(self.value)


KINDS: Final = tuple(kind.value for kind in Kind)
"""The kinds of :class:`ToolMessage`, as text."""


class SemanticsWarning(UserWarning):
    """Something served is not what it seems, and is served or recorded as the warning says.

    A value carries the ``af_semantics`` marker but is not an envelope (served as
    plain data, unchanged; the warning names its first fault), or a result could not
    be recorded (see :mod:`semantics_lint.runtime.serving.record`).
    """


class ToolMessage(NamedTuple):
    """One served result.

    * ``text``: what the model reads (a ``str``);
    * ``model``: the same as a value (the projection, the value as written, or the
      refusal's text), for a framework that takes structured content;
    * ``record``: what the run record keeps (the whole envelope, the value, or the
      refusal's text), a plain copy taken when served;
    * ``is_error``: True for a refusal, which the model reads as the call's error;
    * ``kind``: a :class:`Kind`.
    """

    text: str
    model: Any
    record: Any
    is_error: bool
    kind: Kind


def tool_message(value: object) -> ToolMessage:
    """What the model reads and what the record keeps of ``value``, a tool's result.

    * a recognized envelope (``read_semantics``): ``model`` is
      ``semantics_for_model(envelope)``, ``record`` the envelope, kind ``"semantics"``;
    * an absence or a coverage ledger (``read_coverage_result``): served as written,
      the ledger's ``af_coverage`` before its ``result``; kind ``"absent"`` or
      ``"coverage"`` (a ledger around an absence is ``"coverage"``);
    * a value carrying the ``af_semantics`` marker that is not an envelope: served
      unchanged, kind ``"malformed"``, and a :class:`SemanticsWarning` names its first
      fault;
    * any other value (a ``str`` among them): unchanged, kind ``"data"``.

    Raises :class:`NotJSON` for a value that is not JSON data and carries no marker
    (see the module docstring).
    """
    return _served(value, False)[0]


def served_with_record_text(value: object) -> tuple[ToolMessage, str | None]:
    """:func:`tool_message` of ``value``, and the JSON text of its record when that is
    not the model's text (a recognized envelope, a ledger), else None.

    The record's text is what a trace carries (``runtime/serving/tracing.py``); written here,
    the parts the model reads are written once for both texts.
    """
    return _served(value, True)


def _served(value: object, record_text: bool) -> tuple[ToolMessage, str | None]:
    if isinstance(value, str):
        text = wire_text(str.__str__(value))
        return ToolMessage(text, text, text, False, Kind.DATA), None
    try:
        plain = plain_json(value, whole_floats=True)
    except NotJSON as error:
        if not _carries_a_marker(value):
            raise
        text = f"refused: the tool's result cannot be sent as JSON: {wire_text(str(error))}"
        return ToolMessage(text, text, text, True, Kind.REFUSAL), None
    copy = plain.value
    if not isinstance(copy, dict):
        return ToolMessage(write_plain(plain), copy, copy, False, Kind.DATA), None
    issues = semantic_issues(copy) if copy.get(SEMANTICS_MARKER) is True else None
    if issues == []:
        model = semantics_for_model(copy)
        text, whole = _texts(plain, model, MODEL_COPIES, record_text)
        return ToolMessage(text, model, copy, False, Kind.SEMANTICS), whole
    if copy.get(ABSENCE_MARKER) is True or isinstance(copy.get(COVERAGE_MARKER), dict):
        reading = read_coverage_result(copy)
        if reading is not None:
            if reading["declared"][0]["kind"] == "absence":
                return ToolMessage(write_plain(plain), copy, copy, False, Kind.ABSENT), None
            served = _boundary_first(copy)
            text, whole = _texts(plain, served, (), record_text)
            return ToolMessage(text, served, copy, False, Kind.COVERAGE), whole
    if issues:
        first = issues[0]
        warnings.warn(
            f"a tool result carries the af_semantics marker but is not an envelope, "
            f"so it is served as plain data: {first['field'] or 'the result'}: "
            f"{first['message']} ({first['code']})",
            SemanticsWarning,
            stacklevel=3,
        )
        return ToolMessage(write_plain(plain), copy, copy, False, Kind.MALFORMED), None
    return ToolMessage(write_plain(plain), copy, copy, False, Kind.DATA), None


def _texts(
    plain: Plain, served: dict[str, Any], copies: Collection[str], record_text: bool
) -> tuple[str, str | None]:
    """The text of ``served``, a view of the copy ``plain``, and the copy's text when asked.

    A part of the copy needs no new walk. Asked for both texts, each member the two
    share (the same object, or a part named in ``copies``: a shallow copy of the
    copy's, written alike) is written once, and each object is put together from its
    members' texts."""
    odd = plain.odd_floats
    if not record_text:
        return write_plain(Plain(served, odd)), None
    written = {key: write_plain(Plain(part, odd)) for key, part in served.items()}
    whole = {}
    for key, part in plain.value.items():
        shared = key in written and (key in copies or served[key] is part)
        whole[key] = written[key] if shared else write_plain(Plain(part, odd))
    return object_text(written.items()), object_text(whole.items())


def _boundary_first(ledger: dict[str, Any]) -> dict[str, Any]:
    if next(iter(ledger)) == COVERAGE_MARKER:
        return ledger
    ordered = {COVERAGE_MARKER: ledger[COVERAGE_MARKER]}
    ordered.update(ledger)
    return ordered


def _carries_a_marker(value: object) -> bool:
    return isinstance(value, dict) and any(
        marker in value for marker in (SEMANTICS_MARKER, ABSENCE_MARKER, COVERAGE_MARKER)
    )


_GROUP: Final = getattr(builtins, "BaseExceptionGroup", None)


def refusal_message(exc: BaseException) -> ToolMessage | None:
    """The error result the model reads for a refusal raised inside a tool, else None.

    A refusal is a :class:`~semantics_lint.runtime.envelope.refusal.Refusal` (the mints'
    and ``define_tool``'s) or any ``Exception`` whose message starts ``refused:``; its
    message is the text, ``is_error`` is True, kind ``"refusal"``. An
    ``ExceptionGroup`` (``asyncio.TaskGroup``) whose every exception is a refusal is
    served as their texts, one per line. For anything else the answer is None: the
    caller re-raises it, and the framework's own error policy applies. A
    ``BaseException`` that is not an ``Exception`` (cancellation, ``KeyboardInterrupt``,
    ``SystemExit``) is never a refusal, whatever it says.
    """
    texts = _refusal_texts(exc)
    if texts is None:
        return None
    text = "\n".join(texts)
    return ToolMessage(text, text, text, True, Kind.REFUSAL)


def _refusal_texts(exc: BaseException) -> list[str] | None:
    if not isinstance(exc, Exception):
        return None
    if _GROUP is not None and isinstance(exc, _GROUP):
        texts: list[str] = []
        for inner in exc.exceptions:
            found = _refusal_texts(inner)
            if found is None:
                return None
            texts.extend(found)
        return texts
    if not is_refusal(exc):
        return None
    return [wire_text(str(exc))]
