"""Coverage lists: the one normalizer both mints (and ``described_result``) use.

A coverage list is ground a result stands on (``checked``), ground the call did
not reach (``notChecked``) or ground the tool can never see (``cannotCover``).
Each item is a non-empty string or ``{"what": ..., "why": ...}``; the rendered
item is always ``{"what": ..., "why"?: ...}`` with both texts trimmed the way
JavaScript's ``String.prototype.trim()`` trims (the reference's whitespace set,
not Python's).

Because every door asks :func:`normalize_coverage_list`, ``absent()``,
``coverage()`` and ``described_result()`` cannot disagree about what a
well-formed piece of ground is.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Final, TypeGuard

from semantics_lint.runtime.envelope.json_text import NotJSON, json_copy, path_text, shown
from semantics_lint.runtime.envelope.refusal import (
    ARGUMENTS,
    BAD_VALUE,
    MISSING,
    WRAPPED,
    WRONG_TYPE,
    FieldPath,
    Refusal,
    text_fault,
)
from semantics_lint.vocabulary import SEMANTICS_MARKER, is_non_empty_string, js_trim, to_declaration

__all__ = [
    "NOT_PASSED",
    "CoverageItem",
    "NotPassed",
    "is_list",
    "coverage_content",
    "json_data",
    "normalize_coverage_list",
    "shown",
    "time_text",
    "type_named",
]

CoverageItem = dict[str, str]
"""A rendered coverage item: ``{"what": str}`` or ``{"what": str, "why": str}``."""


class NotPassed:
    """The type of :data:`NOT_PASSED`: an argument or key that was not given at all.

    ``None`` cannot play this part: a key present with value ``None`` (JSON ``null``)
    is a malformed declaration, while a missing key says nothing.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_PASSED"

    def __bool__(self) -> bool:
        return False


NOT_PASSED: Final = NotPassed()
"""Stands for "not passed" (JavaScript's ``undefined``), never for ``null``."""


def is_list(value: object) -> TypeGuard[list[Any] | tuple[Any, ...]]:
    """True for what the reference reads as an array: a list, or a tuple from Python code."""
    return isinstance(value, (list, tuple))


def type_named(value: object) -> str:
    """``got int``, ``got datetime``: the type of a value a field did not take, for a message."""
    return "got None" if value is None else f"got {type(value).__name__}"


def time_text(value: object, where: str, path: FieldPath) -> object:
    """A time as Python holds it, as the ISO 8601 text the wire holds; anything else unchanged.

    An aware ``datetime`` becomes ``value.isoformat()`` (``2026-05-01T06:00:00+00:00``),
    a ``date`` its day (``2026-05-01``). A naive ``datetime`` is refused: written out,
    it would name a time a reader cannot place (any of 24 hours), and which zone it
    meant is the caller's to say, not the mint's to guess.
    """
    if isinstance(value, datetime.datetime):
        if value.utcoffset() is None:
            raise Refusal(
                f"refused: {where}: a datetime with no zone ({value.isoformat()}) could be any "
                "of 24 hours, so it is refused, not guessed. Give it its zone: "
                "datetime.now(timezone.utc), value.replace(tzinfo=...) or value.astimezone().",
                path=path,
                kind=BAD_VALUE,
            )
        return value.isoformat()
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


_OWN_KEYS: Final = frozenset({"grain", "provenance", "coverage", "clarify", "render"})
"""The parts whose keys are the declaration's own (written camelCase), not the tool's."""


def json_data(value: object, declared: FieldPath = (), argument: int | None = None) -> Any:
    """``value`` as the plain JSON data served of it (a copy), or a :class:`Refusal`.

    What JSON cannot carry (a ``Decimal``, a ``set``, ``bytes``, a ``UUID``, an
    ``Enum`` that is not a str or an int, an object, a key that is not text or two
    keys that are one once written, a cycle, nesting or an int past the limits of
    :mod:`~semantics_lint.runtime.envelope.json_text`) would break serving later, far from
    the call: it is refused here, naming the path (``facts[0].price is a Decimal``).
    ``declared`` is the path of ``value`` in what the mint returns (``argument``:
    the positional argument it was given as); nesting is counted from the top of that
    whole, and the parts' own keys below it are named as declared (camelCase). Dates
    and times anywhere become their ISO 8601 text, one spelling everywhere.
    """
    under = tuple(step for step in declared if isinstance(step, (str, int)))
    try:
        # Nesting is counted from the served whole: a part judged alone is cut where
        # the whole mint cuts it.
        return json_copy(value, under=under)
    except NotJSON as error:
        steps = error.steps
        path: tuple[str | int, ...] = tuple(
            to_declaration(step) if isinstance(step, str) and i == 1 and steps[0] in _OWN_KEYS else step
            for i, step in enumerate(steps)
        )
        where = path_text("", list(path))
        raise Refusal(
            f"refused: {where or 'the value'} {error.problem}. A result travels as JSON: "
            "convert it first (a Decimal to float or str, a set to a list, an Enum to its "
            "value, an object to a dict of its fields).",
            path=path,
            kind=WRONG_TYPE,
            argument=argument,
        ) from None


def _normalized_item(
    fn: str, section: str, path: FieldPath, index: int, raw: object, require_why: bool
) -> CoverageItem:
    """One item of a coverage list, normalized, or raise :class:`Refusal` (see
    :func:`normalize_coverage_list`)."""
    at_item = f"{section}[{index}]"
    item_path = (*path, index)
    if is_non_empty_string(raw):
        assert isinstance(raw, str)
        if require_why:
            raise Refusal(
                f"refused: {fn}: {at_item} is {shown(raw)} with no reason. Every "
                "`cannotCover` item needs a `why`: a blind spot this tool can never see "
                "is a claim a reader cannot act on without one. Write "
                f'{{"what": {shown(raw)}, "why": "..."}}, or move it to `notChecked` '
                "if a wider call could reach it.",
                path=(*item_path, "why"),
                kind=MISSING,
            )
        return {"what": js_trim(raw)}
    if not isinstance(raw, Mapping) or not is_non_empty_string(raw.get("what")):
        if isinstance(raw, Mapping):
            where = (*item_path, "what")
            kind = text_fault(raw.get("what"), present="what" in raw)
        else:
            where, kind = item_path, text_fault(raw)
        raise Refusal(
            f"refused: {fn}: {at_item} names no ground. Each item is a non-empty string or "
            '{"what": ..., "why": ...} whose `what` says which source, window or '
            "population it is about.",
            path=where,
            kind=kind,
        )
    what = js_trim(raw["what"])
    if "why" in raw:
        why = raw["why"]
        if not is_non_empty_string(why):
            raise Refusal(
                f"refused: {fn}: {at_item} ({shown(what)}) has a `why` that says nothing "
                f"({shown(why)}). Give a reason or leave `why` out.",
                path=(*item_path, "why"),
                kind=text_fault(why),
            )
        return {"what": what, "why": js_trim(why)}
    if require_why:
        raise Refusal(
            f"refused: {fn}: {at_item} ({shown(what)}) has no `why`. Every `cannotCover` "
            "item needs one: say what makes this blind spot permanent, or move it to "
            "`notChecked` if a wider call could reach it.",
            path=(*item_path, "why"),
            kind=MISSING,
        )
    return {"what": what}


def coverage_content(content: object) -> object:
    """What ``coverage()`` wraps, as plain JSON data (``items.json_data``); refused when it
    is nothing at all, a described result, or what JSON cannot carry."""
    if content is NOT_PASSED:
        raise Refusal(
            "refused: coverage() wraps a result with its boundary, and was given no result: "
            "pass the result first, coverage(result, checked=[...]). When nothing was "
            "found, return absent(what=..., checked=[...]) instead.",
            kind=ARGUMENTS,
        )
    if isinstance(content, Mapping) and content.get(SEMANTICS_MARKER) is True:
        raise Refusal(
            "refused: coverage() wraps a described result, which carries its own coverage: "
            "declare the lists in described_result(..., coverage={'checked': [...], "
            "'notChecked': [...], 'cannotCover': [...]}) and return it bare.",
            kind=WRAPPED,
            argument=0,
        )
    return json_data(content, ("result",), argument=0)


def normalize_coverage_list(
    fn: str,
    section: str,
    items: object = NOT_PASSED,
    require_why: bool = False,
    *,
    at: FieldPath | None = None,
) -> list[CoverageItem]:
    """Normalize one declared coverage list, or raise :class:`Refusal`.

    ``fn`` names the call for the message (``"absent"``, ``"coverage"``), ``section``
    is the list as the author spells it (``"checked"``, ``"notChecked"``,
    ``"cannotCover"``, ``"coverage.checked"``); ``at``, the list's path in the
    declaration for the refusal's data, defaults to ``section`` split at its dots.
    ``items`` left at :data:`NOT_PASSED` gives ``[]``; any other value must be a list
    (``None`` is refused: omit the field to say nothing).

    ``require_why`` is true for ``cannotCover`` only: a blind spot the tool can never
    see is a claim about capability, and a claim with no reason cannot be acted on.

    Traps kept from the reference: a ``why`` present as ``None`` is refused (it is
    not an omitted ``why``); keys other than ``what``/``why`` on an item are dropped,
    not refused; an empty list is returned as ``[]`` (the caller decides whether
    empty is allowed).
    """
    if items is NOT_PASSED:
        return []
    path: FieldPath = tuple(section.split(".")) if at is None else at
    if not is_list(items):
        raise Refusal(
            f"refused: {fn}: `{section}` must be a list of strings or "
            '{"what": ..., "why": ...} items; to say nothing about it, leave the field out '
            '(a missing list means "not declared", never "nothing there").',
            path=path,
            kind=WRONG_TYPE,
        )
    assert isinstance(items, (list, tuple))
    return [_normalized_item(fn, section, path, index, raw, require_why) for index, raw in enumerate(items)]
