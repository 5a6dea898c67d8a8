"""A run's final answer as JSON data, as the framework gives it, for the unsupported-claim
check (:mod:`semantics_lint.runtime.claims.check`): JSON text read as ``JSON.parse`` reads
it, a pydantic model, a dataclass, a mapping or a list, each held to the rules of JSON
data of the one encoder (:func:`~semantics_lint.runtime.envelope.json_text.json_copy`)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any, Final

from semantics_lint.runtime.envelope.json_text import MAX_DEPTH, MAX_INT_BITS, NotJSON, json_copy

__all__ = ["UNREADABLE", "answer_data"]

UNREADABLE: Final = object()
"""An answer with no typed stratum to read (prose, a number): every claim is unreachable."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _json_int(text: str) -> int | float:
    # JSON.parse reads a literal past the largest double as -Infinity or Infinity.
    if len(text) > 400:
        return float(text)
    number = int(text)
    return number if number.bit_length() <= MAX_INT_BITS else float(text)


def _fields_of(value: Any, depth: int = 0, active: set[int] | None = None) -> Any:
    """``value`` with each dataclass instance in it written as the dict of its fields
    (as ``dataclasses.asdict`` writes it), walked no deeper than the encoder reads. A
    value met again inside itself is left as it is, for the encoder to refuse."""
    is_dataclass = dataclasses.is_dataclass(value) and not isinstance(value, type)
    if depth > MAX_DEPTH or not (is_dataclass or isinstance(value, (Mapping, list, tuple))):
        return value  # past the depth the encoder refuses, or not a container
    active = set() if active is None else active
    if id(value) in active:
        return value
    active.add(id(value))
    try:
        if is_dataclass:
            fields = dataclasses.fields(value)
            return {f.name: _fields_of(getattr(value, f.name), depth + 1, active) for f in fields}
        if isinstance(value, Mapping):
            return {key: _fields_of(item, depth + 1, active) for key, item in value.items()}
        return [_fields_of(item, depth + 1, active) for item in value]
    finally:
        active.discard(id(value))


def answer_data(answer: object) -> Any:
    """The answer as JSON data, as the framework gives it: JSON text (a JSON object or
    array, read as ``JSON.parse`` reads it; anything else has no typed stratum), a
    pydantic model (``model_dump(mode="json")``: field names, not aliases), a
    dataclass (its fields; a dataclass inside, too), a mapping or a list. Anything else
    (a str of prose, None, a number) is unreadable: :data:`UNREADABLE`.

    Raises :class:`~semantics_lint.runtime.envelope.json_text.NotJSON` for an answer holding
    something that is not JSON data (a model that its serializer cannot write), or
    nested deeper than
    :data:`~semantics_lint.runtime.envelope.json_text.MAX_DEPTH` lists and dicts (JSON text
    too).
    """
    if isinstance(answer, (str, bytes, bytearray)):
        try:
            data = json.loads(answer, parse_constant=_no_constant, parse_int=_json_int)
        except RecursionError:
            raise NotJSON(f"answer is nested deeper than {MAX_DEPTH} lists and dicts") from None
        except ValueError:
            return UNREADABLE
        return json_copy(data, "answer") if isinstance(data, (dict, list)) else UNREADABLE
    model_dump = getattr(answer, "model_dump", None)
    if callable(model_dump) and not isinstance(answer, type):
        try:
            dumped = model_dump(mode="json")
        except ValueError as error:  # pydantic's serialization error: too deep, an object
            raise NotJSON(f"answer could not be written by its model: {error}") from None
        return json_copy(dumped, "answer")
    if isinstance(answer, type) or not (
        dataclasses.is_dataclass(answer) or isinstance(answer, (Mapping, list, tuple))
    ):
        return UNREADABLE
    return json_copy(_fields_of(answer), "answer")
