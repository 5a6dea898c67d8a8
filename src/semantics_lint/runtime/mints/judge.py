"""The runtime's verdict on a declaration written with literals, for a program that
reads source and never runs it.

The static linter reads a call such as ``absent(what="x", checked=[])`` and can hand
the literal values of its arguments (``ast.literal_eval``) to :func:`refusal_of`,
which runs the mint itself on them and returns its :class:`Refusal` (or None when the
mint accepts). When only some parts are literal (``facts=rows, provenance={...}``),
:func:`part_refusal` judges one part alone with the same functions the mint runs on
it. Nothing here is a second copy of the rules: both call into the mints.

Both are pure and total over literal values (strings, bytes, numbers of any size,
``None``, bools, and lists, tuples, sets and dicts of them, nested to any depth):
they return a refusal or None and never raise for such a value. A call Python itself
would reject (three positional arguments, a keyword that is not a string) is not a
refusal of the mint: None.

What a part judged alone cannot say is what only the whole declaration says: the
refusals of the arguments (a dict and keywords both, a declaration that is not a
dict), of an unknown or derived top-level key, of a missing field, of a declaration
that declares nothing, and ``coverage()``'s ``inProgress`` without ``checked``.

:func:`definition_refusal` judges a ``define_tool(...)`` definition the same way: the
runtime's ``define_tool`` itself on the literal values. A literal is never callable,
so such a definition is always refused for its ``execute`` at the latest: no tool is
ever defined here (and none is shown to an observer of tools).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from semantics_lint.runtime.envelope.refusal import Refusal
from semantics_lint.runtime.mints.absent_coverage import (
    absent,
    absent_checked,
    absent_what,
    coverage,
    coverage_content,
    mint_in_progress,
    mint_period,
)
from semantics_lint.runtime.mints.described import DESCRIBED_PARTS, described_part, described_result
from semantics_lint.runtime.mints.items import normalize_coverage_list
from semantics_lint.runtime.mints.tools import define_tool

__all__ = ["DOORS", "DOOR_PARTS", "definition_refusal", "part_refusal", "refusal_of"]

_MINTS: Final[Mapping[str, Callable[..., object]]] = {
    "described_result": described_result,
    "describedResult": described_result,
    "absent": absent,
    "coverage": coverage,
}
DOORS: Final = tuple(_MINTS)
"""The declaration doors judged here, by the names code calls them."""

# How many positional arguments each mint takes (the declaration dict; for
# coverage() the result it wraps, then the dict).
_POSITIONAL: Final[Mapping[str, int]] = {
    "described_result": 1,
    "describedResult": 1,
    "absent": 1,
    "coverage": 2,
}


def _list_part(fn: str, section: str, require_why: bool) -> Callable[[object], object]:
    return lambda value: normalize_coverage_list(fn, section, value, require_why)


def _described_part(field: str) -> Callable[[object], object]:
    return lambda value: described_part(field, value)


def _no_rule(value: object) -> None:
    # ``tryInstead`` is kept when it is a non-empty string and dropped otherwise,
    # as the reference does: no value of it is refused.
    return None


_ABSENT_PARTS: Final[Mapping[str, Callable[[object], object]]] = {
    "what": absent_what,
    "checked": absent_checked,
    "notChecked": _list_part("absent", "notChecked", False),
    "cannotCover": _list_part("absent", "cannotCover", True),
    "tryInstead": _no_rule,
}
_COVERAGE_PARTS: Final[Mapping[str, Callable[[object], object]]] = {
    "content": coverage_content,
    "checked": _list_part("coverage", "checked", False),
    "notChecked": _list_part("coverage", "notChecked", False),
    "cannotCover": _list_part("coverage", "cannotCover", True),
    "period": mint_period,
    "inProgress": mint_in_progress,
}
_PARTS: Final[Mapping[str, Mapping[str, Callable[[object], object]]]] = {
    "described_result": {field: _described_part(field) for field in DESCRIBED_PARTS},
    "describedResult": {field: _described_part(field) for field in DESCRIBED_PARTS},
    "absent": _ABSENT_PARTS,
    "coverage": _COVERAGE_PARTS,
}
DOOR_PARTS: Final[Mapping[str, tuple[str, ...]]] = {door: tuple(parts) for door, parts in _PARTS.items()}
"""The parts :func:`part_refusal` judges, per door: every field of the declaration, and
for ``coverage`` also ``"content"``, the result it wraps (its first positional argument)."""


def refusal_of(door: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Refusal | None:
    """What the mint ``door`` refuses when called as ``door(*args, **kwargs)``, or None.

    ``door`` is one of :data:`DOORS`; ``args`` and ``kwargs`` are literal values as
    the call spells them. The mint itself judges them (its first refusal, with its
    message, ``path``, ``kind``...). None when it accepts, and for a call Python would
    refuse before the mint runs (too many positional arguments, a keyword that is not
    a string).
    """
    mint = _MINTS[door]
    if len(args) > _POSITIONAL[door] or not all(isinstance(key, str) for key in kwargs):
        return None
    return _judged(lambda: mint(*args, **kwargs))


def part_refusal(door: str, field: str, value: object) -> Refusal | None:
    """What the mint ``door`` refuses in its field ``field`` declared as ``value``, judged
    alone; None when that part is well formed.

    ``field`` is one of ``DOOR_PARTS[door]``, spelled as declared (camelCase). The
    refusal is the one the whole mint gives for that part when it is the first fault
    of the call (the same function judges it), except that ``absent()``'s ``checked``
    judged alone does not quote ``what``. The rules between parts are not judged (see
    the module docstring).
    """
    judge = _PARTS[door][field]
    return _judged(lambda: judge(value))


def definition_refusal(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Refusal | None:
    """What ``define_tool`` refuses when called as ``define_tool(*args, **kwargs)`` with
    literal values, or None.

    The runtime's ``define_tool`` judges them (its first refusal). None for a call Python
    would refuse before it runs (two positional arguments, a keyword that is not a
    string), and for a definition holding a callable anywhere at its top level: that
    one might be accepted, and a tool is never defined here.
    """
    if len(args) > 1 or not all(isinstance(key, str) for key in kwargs):
        return None
    given = [*args, *kwargs.values()]
    for value in args:
        if isinstance(value, Mapping):
            given.extend(value.values())
    if any(callable(value) for value in given):
        return None
    return _judged(lambda: define_tool(*args, **kwargs))


def _judged(call: Callable[[], object]) -> Refusal | None:
    try:
        call()
    except Refusal as refusal:
        # Returned, not raised: without its traceback it holds no frame, so a caller
        # that keeps it makes no reference cycle through the frames that raised it.
        return refusal.with_traceback(None)
    except (RecursionError, MemoryError):
        # Past Python's own limits: no verdict, so no refusal to report.
        return None
    return None
