"""The one encoder: a value as the text JavaScript's ``JSON.stringify`` writes.

Everything a model or a client reads of a served result (the tool message, what an
adapter puts on the wire, the pytest plugin's report) is written by :func:`json_text`,
so Python serves the bytes the reference serves:

* compact separators (``{"a":1,"b":[1,2]}``), non-ASCII characters kept;
* numbers as JavaScript writes them: ``100`` for ``100.0``, ``0`` for ``-0.0``,
  ``1e-7``, ``10000000000000000`` for ``1e16``, ``1e+21``; ``NaN`` and ``±Infinity``
  as ``null``;
* a lone surrogate (text decoded with ``surrogateescape``, or cut from UTF-16 data)
  escaped as ``\\ud800``; a pair of surrogates written as the one character it
  stands for: the text is always valid UTF-8 (the lone-surrogate policy below);
* an object's keys in the order JavaScript keeps them: integer-like keys (``"0"`` to
  ``"4294967294"``, written without a leading zero) first, ascending, then the others
  in insertion order.

JSON data is ``dict``, ``list``, ``tuple``, ``str``, ``int``, ``float``, ``bool`` and
``None`` (subclasses of ``str``, ``int`` and ``float``, such as a ``StrEnum`` or an
``IntEnum``, as their plain value), and ``datetime``, ``date`` and ``time`` as their
ISO 8601 text (``isoformat()``). A dict key that is not a ``str`` is written as
JavaScript writes it as text: an ``int`` or ``float`` as its number text (``1``,
``1.5``, ``NaN``), ``True``/``False`` as ``true``/``false``, ``None`` as ``null``.

Anything else is refused with :class:`NotJSON`, which names the path and the type:
an object, ``Decimal``, ``set``, ``bytes``, ``UUID``, an ``Enum`` whose value is not
a str or an int, a key of another type (a tuple), two keys that are one once written
(``{1: ..., "1": ...}``), a value that contains itself, nesting deeper than
:data:`MAX_DEPTH` containers, an int of :data:`MAX_INT_BITS` bits or more (JavaScript
holds no such number), a subclass whose own methods fail while it is read (a list
whose ``__iter__`` raises, a ``datetime`` whose ``isoformat`` raises).

One deviation from ``JSON.stringify``: an int past ±2**53 is written exactly (the
reference holds a double and would round it).

The one lone-surrogate policy: UTF-8 cannot hold a lone surrogate, so wherever served
text must be valid UTF-8 a lone surrogate is written as ``JSON.stringify`` escapes it,
``\\ud800``. In JSON text that is JSON's own escape (read back, it is the surrogate
again); in text that is not JSON (a ``str`` result served as itself, a refusal's text,
the strings and keys of a record handed to another JSON writer: :func:`wire_text`,
:func:`wire_data`) it is the same six characters. Two keys of one object that would
become one that way (``"a\\udcff"`` beside the six-character text) are refused as
colliding keys, so no key is ever lost.
"""

from __future__ import annotations

import datetime
import functools
import math
import re
from collections.abc import Callable, Iterable
from typing import Any, Final, NamedTuple

from semantics_lint.runtime.envelope.faults import js_number_text
from semantics_lint.vocabulary import js_trim

__all__ = [
    "MAX_DEPTH",
    "MAX_INT_BITS",
    "NotJSON",
    "Plain",
    "json_copy",
    "json_text",
    "object_text",
    "path_text",
    "plain_json",
    "plain_text",
    "remade",
    "wire_data",
    "wire_text",
    "write_plain",
]

MAX_DEPTH: Final = 100
"""The deepest nesting of lists and dicts a served value may have."""

MAX_INT_BITS: Final = 1024
"""An int needs at most this many bits (``abs(n) < 2**1024``): JavaScript's doubles end there."""

_SAFE_INT: Final = 2**53
_LONGEST_PATH: Final = 24
"""Steps of a path a message names in full; a longer one keeps its start and end."""
_ARRAY_INDEX_MAX: Final = 4294967294
_DATES: Final = (datetime.date, datetime.time)
_PYTHON_NUMBER_MARKS: Final = ("NaN", "Infinity", ".0", "e-", "e+")
"""What Python's text of every float JavaScript writes otherwise holds (see ``plain_text``)."""
_SURROGATE: Final = re.compile(r"[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]")


class NotJSON(TypeError):
    """A value is not JSON data.

    ``path`` names where as text (``facts[0].price``: the root given to the walk,
    then the steps), ``steps`` the keys and indexes below the root as data
    (``(0, "price")``); the message starts with the path.
    """

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.steps: tuple[str | int, ...] = ()
        self.path = ""

    def _at(self, root: str, inner: list[str | int]) -> NotJSON:
        # Steps are collected innermost first, as the error rises out of the walk.
        self.steps = tuple(reversed(inner))
        self.path = path_text(root, list(self.steps))
        self.args = (f"{self.path or 'the value'} {self.problem}",)
        return self


def path_text(root: str, steps: list[str | int]) -> str:
    """``facts[0].price``: ``root`` then each key and index (a long path shortened)."""
    if len(steps) > _LONGEST_PATH:
        # A path into deep nesting: its start and its end say where.
        start, end = steps[: _LONGEST_PATH // 2], steps[-4:]
        return f"{path_text(root, start)}…{path_text('', end).lstrip('.')}"
    text = root
    for step in steps:
        if isinstance(step, int):
            text += f"[{step}]"
        elif step.isidentifier():
            text += f".{step}" if text else step
        else:
            text += f"[{step!r}]"
    return text


def shown(value: object) -> str:
    """A user's value inside a message: strings trimmed, as a clipped one-line repr.

    Total: an integer too long to print (Python refuses past 4,300 digits) is shown
    by its size, and an object whose ``repr`` fails by its type.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(js_trim(value) if isinstance(value, str) else value)
    except Exception:  # noqa: BLE001 - a caller's repr is not ours to trust
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


_LETTERS_SAID_WITH_A_VOWEL: Final = frozenset("AEFHILMNORSX")
"""Capitals whose names start with a vowel sound: an HTTPError, an SSLContext, a UUID."""


def _type_name(value: object) -> str:
    """``a Decimal``, ``an Enum``, ``a UUID``: the type's name with its article."""
    name = type(value).__name__
    if name[:2].isupper():  # an initialism, read letter by letter
        vowel = name[0] in _LETTERS_SAID_WITH_A_VOWEL
    else:
        vowel = name[:1].lower() in "aeiou"
    return f"{'an' if vowel else 'a'} {name}"


def _is_array_index(key: str) -> bool:
    return key.isascii() and key.isdigit() and (key == "0" or key[0] != "0") and int(key) <= _ARRAY_INDEX_MAX


def _key_text(key: object) -> str:
    if isinstance(key, str):
        return str.__str__(key)
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, int):
        _check_int(key)
        return int.__repr__(key)  # not the subclass's own __int__ or __repr__
    if isinstance(key, float):
        return js_number_text(float.__float__(key))
    raise NotJSON(f"has a key that is {_type_name(key)} ({shown(key)}); a JSON object's keys are text")


def _check_int(value: int) -> None:
    if value.bit_length() > MAX_INT_BITS:
        raise NotJSON(
            f"is an int of {value.bit_length()} bits; JSON numbers here stay under 2**{MAX_INT_BITS}"
        )


class _Walk:
    """One walk over a value: a plain copy, and whether any float needs JavaScript's text.

    Nothing is spent on paths while the walk succeeds: a :class:`NotJSON` collects
    the keys it rises through (``_inner``), and the caller names the place once.
    """

    __slots__ = ("active", "odd_floats", "whole_floats")

    def __init__(self, whole_floats: bool = False) -> None:
        self.active: set[int] = set()
        self.odd_floats = False
        self.whole_floats = whole_floats

    def copy(self, value: Any, depth: int) -> Any:
        kind = type(value)
        if kind is str or value is None or kind is bool:
            return value
        if kind is int:
            if not -_SAFE_INT <= value <= _SAFE_INT:
                _check_int(value)
            return value
        if kind is float:
            if _odd(value):
                if self.whole_floats and value.is_integer() and -_SAFE_INT < value < _SAFE_INT:
                    return int(value)
                self.odd_floats = True
            return value
        if kind is dict or kind is list or kind is tuple:
            return self._container(value, depth)
        return self._other(value, depth)

    def _container(self, value: Any, depth: int) -> Any:
        if depth >= MAX_DEPTH:
            raise NotJSON(f"is nested deeper than {MAX_DEPTH} lists and dicts")
        marker = id(value)
        if marker in self.active:
            raise NotJSON("contains itself")
        self.active.add(marker)
        try:
            if isinstance(value, dict):
                return self._dict(value, depth + 1)
            return self._list(value, depth + 1)
        finally:
            self.active.discard(marker)

    def _list(self, value: Any, depth: int) -> list[Any]:
        out: list[Any] = []
        append, copy = out.append, self.copy
        index = 0
        try:
            for index, item in enumerate(value):  # noqa: B007 (the except reads it)
                append(copy(item, depth))
        except NotJSON as error:
            _inner(error).append(index)
            raise
        return out

    def _dict(self, value: dict[Any, Any], depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        indexes = False
        lone = False
        for key, item in value.items():
            text = key if type(key) is str else _key_text(key)
            if text in out or (not isinstance(key, str) and text in value):
                raise NotJSON(f"has two keys that are both {text!r} once written as text")
            if not indexes and text[:1].isdigit() and _is_array_index(text):
                indexes = True
            if not lone and not text.isascii():
                lone = not _is_utf8(text)
            try:
                out[text] = self.copy(item, depth)
            except NotJSON as error:
                _inner(error).append(text)
                raise
        if lone:
            _keys_apart_once_escaped(out)
        if indexes:
            first = sorted((k for k in out if _is_array_index(k)), key=int)
            ordered = {k: out[k] for k in first}
            ordered.update(out)
            return ordered
        return out

    def _other(self, value: Any, depth: int) -> Any:
        # A subclass, or no JSON type at all: its own methods (``__iter__``, ``items``,
        # ``isoformat``, ``__int__``) are the user's, and may fail on the way.
        try:
            return self._subclass(value, depth)
        except NotJSON:
            raise
        except Exception as error:  # noqa: BLE001 - a user's method may raise anything
            raise NotJSON(
                f"is {_type_name(value)} whose own methods failed while it was read "
                f"({type(error).__name__}); JSON data is a str, int, float, bool, None, "
                "list, tuple, dict or a date"
            ) from None

    def _subclass(self, value: Any, depth: int) -> Any:
        if isinstance(value, bool):
            return bool(value)
        if isinstance(value, str):
            return str.__str__(value)
        if isinstance(value, int):
            return self.copy(int.__int__(value), depth)
        if isinstance(value, float):
            return self.copy(float.__float__(value), depth)
        if isinstance(value, _DATES):
            text = value.isoformat()
            if type(text) is not str:
                raise NotJSON(f"is {_type_name(value)} whose isoformat() gave no str")
            return text
        if isinstance(value, (dict, list, tuple)):
            return self._container(value, depth)
        raise NotJSON(
            f"is {_type_name(value)}; JSON data is a str, int, float, bool, None, list, tuple, dict or a date"
        )


def _inner(error: NotJSON) -> list[str | int]:
    steps: list[str | int] | None = getattr(error, "_inner_steps", None)
    if steps is None:
        steps = []
        error._inner_steps = steps  # type: ignore[attr-defined]
    return steps


def json_copy(value: object, path: str = "", *, under: tuple[str | int, ...] = ()) -> Any:
    """A plain copy of ``value`` as JSON data: what :func:`json_text` writes, as Python values.

    Dicts with str keys in JavaScript's order, lists (for lists and tuples), str, int,
    float (NaN and ±Infinity kept), bool, None; dates as ISO text. Raises
    :class:`NotJSON` for anything else, naming the place under ``path``.

    ``under``: the keys and indexes of ``value`` inside a value that is served whole
    (``("clarify",)`` for a part of an envelope, ``("result",)`` for what ``coverage()``
    wraps), each step one dict or list above it. Nesting is then counted from the whole
    value's root, so a part copied alone meets :data:`MAX_DEPTH` exactly where the whole
    does, and the error's ``steps`` start with ``under``.
    """
    return plain_json(value, path, under=under).value


class Plain(NamedTuple):
    """A plain copy (:func:`json_copy`) and whether a float in it needs JavaScript's text."""

    value: Any
    odd_floats: bool


def plain_json(
    value: object,
    path: str = "",
    *,
    whole_floats: bool = False,
    under: tuple[str | int, ...] = (),
) -> Plain:
    """:func:`json_copy` of ``value``, with what :func:`write_plain` needs to write it fast.

    ``whole_floats``: a float with no fraction within ±2**53 is copied as the int
    JavaScript writes for it (``100.0`` as ``100``), so that only the rare numbers
    whose text differs otherwise (NaN, ±Infinity, tiny or huge) need a second pass.
    ``under``: where ``value`` sits in the value served whole (see :func:`json_copy`).
    """
    walk = _Walk(whole_floats)
    try:
        # Each step above the value is one list or dict of the whole: the walk starts
        # that deep, so the limit cuts a part's path where it cuts the whole's.
        copy = walk.copy(value, len(under))
    except NotJSON as error:
        inner = _inner(error)
        inner.extend(reversed(under))  # collected innermost first
        raise error._at(path, inner) from None
    return Plain(copy, walk.odd_floats)


def _odd(value: float) -> bool:
    # Python and JavaScript write a finite double alike unless it is integral (100.0
    # against 100) or small enough for an exponent (Python from 1e-4, JavaScript from
    # 1e-6, and 1e-07 against 1e-7); doubles past 2**53 are all integral.
    return not math.isfinite(value) or value.is_integer() or abs(value) < 1e-4


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _escape_surrogates(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        found = match.group()
        if len(found) == 2:
            return found.encode("utf-16", "surrogatepass").decode("utf-16")
        return f"\\u{ord(found):04x}"

    return _SURROGATE.sub(one, text)


def wire_text(text: str) -> str:
    """``text`` made valid UTF-8 as served outside JSON text (a ``str`` result, a
    refusal's text, the strings and keys of a record handed to another writer): the
    one lone-surrogate policy (see the module docstring)."""
    return text if _is_utf8(text) else _escape_surrogates(text)


def _keys_apart_once_escaped(out: dict[str, Any]) -> None:
    # Outside JSON text a lone surrogate is the text of its escape, so a key holding
    # one could become another key of the same object: refused, naming the key.
    seen: dict[str, str] = {}
    for key in out:
        written = wire_text(key)
        if written in seen:
            raise NotJSON(
                f"has two keys that are both {written!r} once a lone surrogate is written "
                f"as its escape ({seen[written]!r} and {key!r})"
            )
        seen[written] = key


def remade(
    copy: Any, leaf: Callable[[Any], Any] | None = None, key: Callable[[str], str] | None = None
) -> Any:
    """``copy``, a plain copy (:func:`json_copy`), walked again: a new copy that shares
    no dict or list with it, each leaf through ``leaf`` and each key through ``key``
    when given. The one walk over a copy: the run record's own copy (containers copied
    whole, only the containers among their members walked), and :func:`wire_data`."""
    walk = _fresh if leaf is None and key is None else _walker(leaf, key)
    return walk(copy)


def _walker(leaf: Callable[[Any], Any] | None, key: Callable[[str], str] | None) -> Callable[[Any], Any]:
    def walk(value: Any) -> Any:
        kind = type(value)
        if kind is dict:
            if key is None:
                return {name: walk(item) for name, item in value.items()}
            return {key(name): walk(item) for name, item in value.items()}
        if kind is list:
            return [walk(item) for item in value]
        return value if leaf is None else leaf(value)

    return walk


def _fresh(value: Any) -> Any:
    """A plain copy made anew: each dict and list a new one, each leaf (a str, number,
    bool or None, never changed in place) shared. Each container is copied whole and only
    its members that are containers are walked, so a row of leaves costs no call."""
    kind = type(value)
    if kind is dict:
        out = value.copy()
        for name, item in value.items():
            member = type(item)
            if member is dict or member is list:
                out[name] = _fresh(item)
        return out
    if kind is list:
        copied = value.copy()
        for index, item in enumerate(value):
            member = type(item)
            if member is dict or member is list:
                copied[index] = _fresh(item)
        return copied
    return value


def _wire_leaf(value: Any) -> Any:
    kind = type(value)
    if kind is str:
        return wire_text(value)
    if kind is float and not math.isfinite(value):
        return None
    return value


def wire_data(copy: Any) -> Any:
    """``copy``, a plain copy (:func:`json_copy`), as data any JSON writer writes as
    :func:`json_text` would: NaN and ±Infinity as None (JSON's ``null``), every string
    and key through :func:`wire_text`. Two keys never become one: the copy refuses
    such keys where it is taken."""
    return _WIRE(copy)


_WIRE: Final = _walker(_wire_leaf, wire_text)


@functools.cache
def _encode() -> Callable[[Any], str]:
    # Built at the first text written: the linter asks the mints about literal values
    # (plain copies, never written) and starts without json.
    import json

    return json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False).encode


def _dumps(plain: Any) -> str:
    """``json.dumps(plain, ensure_ascii=False, separators=(",", ":"), check_circular=False)``."""
    return _encode()(plain)


def _scalar_text(value: Any) -> str | None:
    """The text of a str, int, float that Python writes as JavaScript does, bool or None
    of a plain copy; None for a list or dict."""
    kind = type(value)
    if kind is str:
        return _dumps(value)
    if value is None or kind is bool:
        return "null" if value is None else "true" if value else "false"
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        return float.__repr__(value)
    return None


def _odd_text(value: Any) -> str | None:
    """The text of ``value`` when a float in it is written unlike Python writes it
    (NaN and ±Infinity as ``null``, ``100``, ``1e-7``, ``1e+21``), else None.

    Only the lists and dicts on the way to such a float are written piece by piece;
    each run of members between them is written whole by ``json``."""
    kind = type(value)
    if kind is float:
        if not _odd(value):
            return None
        return js_number_text(value) if math.isfinite(value) else "null"
    if kind is dict:
        texts = [(name, _odd_text(item)) for name, item in value.items()]
        if all(text is None for _, text in texts):
            return None
        # A member beside an odd float: a scalar is written alone, any other run of
        # members in one call.
        texts = [(name, _scalar_text(value[name]) if text is None else text) for name, text in texts]
        pieces: list[str] = []
        run: dict[str, Any] = {}
        for name, text in texts:
            if text is None:
                run[name] = value[name]
                continue
            if run:
                pieces.append(_dumps(run)[1:-1])
                run = {}
            pieces.append(f"{_dumps(name)}:{text}")
        if run:
            pieces.append(_dumps(run)[1:-1])
        return "{" + ",".join(pieces) + "}"
    if kind is list:
        items = [_odd_text(item) for item in value]
        if all(text is None for text in items):
            return None
        items = [
            _scalar_text(item) if text is None else text for item, text in zip(value, items, strict=True)
        ]
        pieces = []
        start = 0
        for index, text in enumerate(items):
            if text is None:
                continue
            if start < index:
                pieces.append(_dumps(value[start:index])[1:-1])
            pieces.append(text)
            start = index + 1
        if start < len(value):
            pieces.append(_dumps(value[start:])[1:-1])
        return "[" + ",".join(pieces) + "]"
    return None


def json_text(value: object, path: str = "") -> str:
    """``value`` as the text ``JSON.stringify`` writes (see the module docstring).

    Raises :class:`NotJSON` for a value that is not JSON data, naming the place
    under ``path``.
    """
    return write_plain(plain_json(value, path, whole_floats=True))


def write_plain(plain: Plain) -> str:
    """The text of a plain copy, or of any part of one (``Plain(part, copy.odd_floats)``)."""
    text = _odd_text(plain.value) if plain.odd_floats else None
    return _valid(_dumps(plain.value) if text is None else text)


def object_text(members: Iterable[tuple[str, str]]) -> str:
    """The text of a JSON object from its members: each key (a ``str``) and the text of
    its value, written by this encoder; what :func:`json_text` writes for the object
    whose members they are, in that order."""
    return "{" + ",".join([f"{_valid(_dumps(key))}:{text}" for key, text in members]) + "}"


def plain_text(copy: Any) -> str:
    """The text of ``copy``, a plain copy (:func:`json_copy`) whose float flag is not at hand.

    ``json.dumps`` writes each float as ``float.__repr__`` does, which JavaScript
    writes alike except NaN and ±Infinity (``NaN``, ``Infinity``), an integral value
    (``100.0``, ``1e+16``) and one under 1e-4 (``1e-05``): every such text holds one of
    ``NaN``, ``Infinity``, ``.0``, ``e-``, ``e+``. A text that holds none of them
    anywhere has no float to rewrite and is the answer, with no walk of ``copy``;
    otherwise (a number, or a string that happens to hold such a mark) the copy is
    written with the number pass of :func:`write_plain`.
    """
    text = _dumps(copy)
    if any(mark in text for mark in _PYTHON_NUMBER_MARKS):
        return write_plain(Plain(copy, True))
    return _valid(text)


def _valid(text: str) -> str:
    return text if _is_utf8(text) else _escape_surrogates(text)
