"""The catalog document: its shapes, strict JSON, and a reader that streams its samples.

A catalog is ``[{name, resultClass?, results: [...]}]``, ``[{name, resultClass?,
result: ...}]`` (one sample) or ``{"tools": [...]}`` holding either row shape.
:func:`coerce_semantics_catalog` normalizes a parsed value, as the reference's
``coerceSemanticsCatalog`` does.

:func:`stream_catalog` reads catalog *text* without building it: the outer
structure (the rows, each row's keys) is walked here, and every other value,
each sample result included, is parsed on its own by the standard JSON scanner
and dropped once judged. A catalog of a million samples costs its text and one
sample at a time, not a million parsed objects. The verdict is the one a full
parse, :func:`coerce_semantics_catalog` and ``check_semantics`` would give:

* errors rank as in the reference: invalid JSON, then a catalog shape fault
  (coercion runs over every row first), then a checker fault, each the first
  one met; a report is only produced when there is none;
* a row's ``name`` and ``resultClass`` may come after its ``results``: its
  samples are then read a second time, once the row is known;
* a document whose meaning depends on a repeated key (``"tools"`` twice, a row
  naming ``results`` twice) is not streamed: :class:`Irregular` tells the caller
  to parse it whole, which reproduces ``JSON.parse``'s "last key wins" exactly.

Numbers are read as the reference reads them: ``NaN``/``Infinity`` are not JSON,
and an integer too long for Python's ``int()`` (4,300 digits) is +/-Infinity, the
double JavaScript would hold. A leading UTF-8 byte-order mark is skipped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any, Final, TypeVar

__all__ = [
    "Irregular",
    "SemanticsCatalogError",
    "coerce_semantics_catalog",
    "parse_catalog_text",
    "stream_catalog",
]

BYTE_ORDER_MARK: Final = "\ufeff"


class SemanticsCatalogError(ValueError):
    """A catalog the gate cannot judge: wrong shape, no tool name, an unknown class.

    A definition-side mistake, not a finding: the command maps it to exit code 2.
    A malformed *result* is never this error; it is a finding, the thing the gate
    exists to report.
    """


class Irregular(Exception):
    """A catalog whose meaning depends on a repeated key: read it whole instead."""


# ---------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------

_SHAPE_MESSAGE: Final = (
    'expected a JSON array of {"name", "resultClass"?, "results"} rows, or {"tools": [...]}'
)


def _is_array(value: object) -> bool:
    return isinstance(value, (list, tuple))


def _not_an_object(index: int) -> str:
    return f"tools[{index}] is not an object"


def _no_name(index: int) -> str:
    return f"tools[{index}] has no string 'name'"


def _no_results(index: int, name: str) -> str:
    return (
        f"tools[{index}] ({name!r}) has neither 'results' (a list of sample results) "
        "nor 'result' (one sample); the gate judges sample results, and a mock "
        "tool's return is the natural sample"
    )


def coerce_semantics_catalog(value: object) -> list[dict[str, Any]]:
    """Normalize the accepted catalog shapes to the checker's entries.

    Accepted: ``[{name, resultClass?, results: [...]}]``, ``[{name, resultClass?,
    result: ...}]`` (one sample) and ``{"tools": [...]}`` holding either row shape.
    ``resultClass`` is passed through untouched, ``None`` included: the checker is
    the one owner of that refusal. Raises :class:`SemanticsCatalogError` on any
    other shape.
    """
    if _is_array(value):
        rows = value
    elif isinstance(value, dict) and _is_array(value.get("tools")):
        rows = value["tools"]
    else:
        raise SemanticsCatalogError(_SHAPE_MESSAGE)
    assert isinstance(rows, (list, tuple))
    entries: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            raise SemanticsCatalogError(_not_an_object(index))
        name = row.get("name")
        if not isinstance(name, str) or name == "":
            raise SemanticsCatalogError(_no_name(index))
        if _is_array(row.get("results")):
            results = row["results"]
        elif "result" in row:
            results = [row["result"]]
        else:
            raise SemanticsCatalogError(_no_results(index, name))
        entry: dict[str, Any] = {"name": name}
        if "resultClass" in row:
            entry["resultClass"] = row["resultClass"]
        entry["results"] = results
        entries.append(entry)
    return entries


# ---------------------------------------------------------------------------
# Strict JSON, with the reference's numbers
# ---------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    # JSON has no NaN or Infinity; Python's json module would accept them.
    raise ValueError(f"{name} is not valid JSON")


# Past this many characters an integer literal is far beyond any double (whose
# largest is 309 digits), and Python's int() refuses past 4,300 digits.
_LONGEST_EXACT_INT: Final = 1000


def _json_int(text: str) -> int | float:
    return int(text) if len(text) <= _LONGEST_EXACT_INT else float(text)


_DECODER: Final = json.JSONDecoder(parse_constant=_reject_constant, parse_int=_json_int)


def _without_bom(text: str) -> str:
    return text[1:] if text.startswith(BYTE_ORDER_MARK) else text


def _invalid(error: ValueError) -> SemanticsCatalogError:
    return SemanticsCatalogError(f"invalid JSON: {error}")


def parse_catalog_text(text: str) -> object:
    """The JSON value of catalog text, parsed whole: strict, numbers as the reference reads them."""
    try:
        return _DECODER.decode(_without_bom(text))
    except ValueError as error:
        raise _invalid(error) from None


# ---------------------------------------------------------------------------
# The streaming reader
# ---------------------------------------------------------------------------

_WHITESPACE: Final = re.compile(r"[ \t\n\r]*")

R = TypeVar("R")

CheckProblem = Callable[[int, str, bool, object], "str | None"]
"""The checker's fault with a row (tool name, whether it has a class, the class), or None."""

Judge = Callable[[str, bool, object, Iterator[object]], R]
"""Judge one tool's samples: (name, has a class, class, the samples one at a time)."""


class _Text:
    """A position in catalog text, with the few moves the outer structure needs."""

    __slots__ = ("at", "text")

    def __init__(self, text: str, at: int = 0) -> None:
        self.text = text
        self.at = at

    def _fail(self, message: str) -> json.JSONDecodeError:
        return json.JSONDecodeError(message, self.text, self.at)

    def peek(self) -> str:
        self.at = _WHITESPACE.match(self.text, self.at).end()  # type: ignore[union-attr]
        return self.text[self.at : self.at + 1]

    def take(self, char: str, message: str) -> None:
        if self.peek() != char:
            raise self._fail(message)
        self.at += 1

    def value(self) -> Any:
        self.peek()
        value, self.at = _DECODER.raw_decode(self.text, self.at)
        return value

    def skip_value(self) -> None:
        """Step over one value; an array is stepped over one element at a time."""
        if self.peek() == "[":
            for _ in self.elements():
                self.skip_value()
        else:
            self.value()

    def key(self) -> str:
        if self.peek() != '"':
            raise self._fail("Expecting property name enclosed in double quotes")
        key: str
        key, self.at = scanstring(self.text, self.at + 1, True)
        self.take(":", "Expecting ':' delimiter")
        return key

    def _items(self, opening: str, closing: str) -> Iterator[None]:
        """One step per item of the object or array starting here; the caller reads each."""
        self.take(opening, f"Expecting '{opening}'")
        if self.peek() == closing:
            self.at += 1
            return
        while True:
            yield None
            following = self.peek()
            self.at += 1
            if following == closing:
                return
            if following != ",":
                self.at -= 1
                raise self._fail("Expecting ',' delimiter")

    def members(self) -> Iterator[str]:
        """The keys of the object starting here; the caller reads each value."""
        for _ in self._items("{", "}"):
            yield self.key()

    def elements(self) -> Iterator[None]:
        """One step per element of the array starting here; the caller reads each one."""
        return self._items("[", "]")

    def samples(self) -> Iterator[object]:
        for _ in self.elements():
            yield self.value()

    def end(self) -> None:
        if self.peek() != "":
            raise self._fail("Extra data")


class _Errors:
    """The first catalog fault and the first checker fault, ranked as the reference ranks them."""

    __slots__ = ("check", "shape")

    def __init__(self) -> None:
        self.shape: str | None = None
        self.check: str | None = None

    @property
    def any(self) -> bool:
        return self.shape is not None or self.check is not None


_UNSET: Final = object()


def _row(
    text: _Text,
    index: int,
    errors: _Errors,
    check_problem: CheckProblem,
    judge: Judge[R],
    on_row: Callable[[R], None],
    tests: dict[int, object] | None,
) -> None:
    """Read one row, judge its samples (unless a fault was already met), hand over its verdict.

    A row's ``tests`` (the test behind each sample, as the pytest plugin writes it) is
    kept in ``tests`` under the row's index when ``tests`` is given; the checker
    ignores the key, as it ignores every key it does not know.
    """
    if text.peek() != "{":
        text.skip_value()
        errors.shape = errors.shape or _not_an_object(index)
        return
    name: object = _UNSET
    cls: object = _UNSET
    results_at: int | None = None
    single: object = _UNSET
    provisional: tuple[object, object, R] | None = None
    seen: set[str] = set()
    for key in text.members():
        if key in ("name", "resultClass", "results", "result"):
            if key in seen:
                raise Irregular(f"tools[{index}] names {key!r} twice")
            seen.add(key)
        if key == "name":
            name = text.value()
        elif key == "resultClass":
            cls = text.value()
        elif key == "results" and text.peek() == "[":
            results_at = text.at
            if (
                isinstance(name, str)
                and name != ""
                and not errors.any
                and check_problem(index, name, cls is not _UNSET, cls) is None
            ):
                # Judged now with what the row said so far; kept if nothing after changes it.
                samples = text.samples()
                verdict = judge(name, cls is not _UNSET, cls, samples)
                for _ in samples:  # a judge that stopped early still leaves the text read
                    pass
                provisional = (name, cls, verdict)
            else:
                text.skip_value()
        elif key == "result":
            single = text.value()
        elif key == "tests" and tests is not None:
            tests[index] = text.value()  # a repeated key: the last wins, as in JSON.parse
        else:
            text.skip_value()

    if not isinstance(name, str) or name == "":
        errors.shape = errors.shape or _no_name(index)
        return
    if results_at is None and single is _UNSET:
        errors.shape = errors.shape or _no_results(index, name)
        return
    has_class = cls is not _UNSET
    if errors.any:
        return
    problem = check_problem(index, name, has_class, cls)
    if problem is not None:
        errors.check = problem
        return
    if provisional is not None and provisional[0] == name and provisional[1] is cls:
        on_row(provisional[2])
        return
    if results_at is not None:
        again = _Text(text.text, results_at)
        on_row(judge(name, has_class, cls, again.samples()))
    else:
        on_row(judge(name, has_class, cls, iter([single])))


def stream_catalog(
    text: str,
    check_problem: CheckProblem,
    judge: Judge[R],
    on_row: Callable[[R], None],
    tests: dict[int, object] | None = None,
) -> int:
    """Read catalog text row by row; hand each row's verdict to ``on_row``; return the row count.

    ``check_problem`` is the checker's test of a row (blank name, unknown class);
    ``judge`` judges one tool's samples as they are read. Raises
    :class:`SemanticsCatalogError` for invalid JSON or a catalog fault (after the
    whole text was read, so the error is the one the reference would name), and
    :class:`Irregular` when the text must be parsed whole to mean what it says.
    ``on_row`` may have been called before an error is raised: keep its results
    until this returns. When ``tests`` is given, each row's ``tests`` value is kept
    in it under the row's index.
    """
    reader = _Text(_without_bom(text))
    errors = _Errors()
    rows = 0
    try:
        first = reader.peek()
        if first == "[":
            for _ in reader.elements():
                _row(reader, rows, errors, check_problem, judge, on_row, tests)
                rows += 1
        elif first == "{":
            streamed = False
            for key in reader.members():
                if key != "tools":
                    reader.skip_value()
                elif streamed or reader.peek() != "[":
                    raise Irregular("a 'tools' key that is repeated or holds no array")
                else:
                    streamed = True
                    for _ in reader.elements():
                        _row(reader, rows, errors, check_problem, judge, on_row, tests)
                        rows += 1
            if not streamed:
                errors.shape = errors.shape or _SHAPE_MESSAGE
        else:
            reader.value()
            errors.shape = _SHAPE_MESSAGE
        reader.end()
    except ValueError as error:
        raise _invalid(error) from None
    if errors.shape is not None:
        raise SemanticsCatalogError(errors.shape)
    if errors.check is not None:
        raise SemanticsCatalogError(errors.check)
    return rows
