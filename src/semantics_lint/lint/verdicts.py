"""What the runtime's own checks say about values the linter reads: the linter's one door
into ``semantics_lint.runtime``.

The rule logic that both doors need lives once, in the runtime: which field a
misspelled key meant (the mint's refusal names it; SEM101 offers it as a fix), whether a
text is an ISO 8601 instant with a zone (the mint refuses a period that is not; SEM406
reports it). The rules ask here, and only here does the linter import the runtime: the
dependency runs one way, from the static door to the runtime's pure functions, never the
other way (the runtime imports the vocabulary and nothing of the linter). A test holds
both directions (``tests/test_layers.py``). Judging a whole literal declaration with the
mints' validators (SEM100, the two doors agreeing) belongs here too.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator

from semantics_lint.vocabulary import SEMANTICS_MARKER
from semantics_lint.lint.syntax import UNKNOWN, is_dict_form, iter_dict_items, last_wins, literal_of
from semantics_lint.runtime.judge import DOOR_PARTS, part_refusal, refusal_of
from semantics_lint.runtime.mints import instant_of
from semantics_lint.runtime.refusal import (
    ARGUMENTS,
    BAD_VALUE,
    COUNTER_UNSTATED,
    DERIVED_KEY,
    EMPTY,
    MISSING,
    SAYS_NOTHING,
    SNAKE_CASE_KEY,
    UNKNOWN_KEY,
    WRAPPED,
    WRONG_TYPE,
    Refusal,
    meant_key,
)

__all__ = ["Refusal", "closest_field", "instant", "refusals", "specific_code", "wraps_described_result"]


def closest_field(key: str, fields: Iterable[str]) -> str | None:
    """The field a misspelled ``key`` most likely meant, as the mint's refusal names it
    (the camelCase field of a snake_case spelling, or the one close match), or None."""
    return meant_key(key, fields)


def instant(text: str) -> tuple[int, int] | None:
    """``(seconds since the epoch, nanoseconds)`` of an ISO 8601 instant with a zone, as
    the mint reads one, or None when the mint would refuse it."""
    return instant_of(text)


# -- the mint's verdict on a declaration's literal values (SEM100) ----------------------

_KEY_KINDS = frozenset({UNKNOWN_KEY, SNAKE_CASE_KEY, DERIVED_KEY})
_DATA = frozenset({"series", "facts", "edges"})
_LISTS = frozenset({"coverage", "checked", "notChecked", "cannotCover"})
# The code that reports a nested part of described_result(...) that is not a dict.
_PART_NOT_A_DICT = {
    "grain": "SEM303",
    "provenance": "SEM202",
    "coverage": "SEM402",
    "clarify": "SEM501",
    "render": "SEM502",
}


def refusals(kind: str, call: ast.Call) -> Iterator[tuple[Refusal, ast.AST | None]]:
    """What the mint ``kind`` refuses in ``call``, judged by the mint itself on the
    literal values the source spells, each with the smallest node of ``call`` it
    concerns (None: the call as a whole).

    When every argument is a literal, the mint judges the whole call (its first
    refusal; none when it accepts). Each top-level field written as a literal is also
    judged alone, with the function the mint runs on it (``part_refusal``): a keyword,
    or a key of the positional dict when no ``**spread`` may replace it; and
    ``coverage()``'s result when it is a literal. A refusal is given once. Nothing here
    runs the linted code: the values are read from the ``ast`` (``literal_of``).
    """
    said: set[tuple[object, ...]] = set()
    read: dict[int, object] = {}  # each value is read once, by its node

    def value_of(node: ast.expr) -> object:
        key = id(node)
        if key not in read:
            read[key] = literal_of(node)
        return read[key]

    if _all_literal(call, value_of):
        args = tuple(value_of(arg) for arg in call.args)
        kwargs = {keyword.arg: value_of(keyword.value) for keyword in call.keywords}
        refusal = refusal_of(kind, args, kwargs)  # type: ignore[arg-type]
        if refusal is None:
            return  # the mint accepts the call, so it accepts every part of it
        said.add(refusal.path)
        yield refusal, _node_of(kind, call, refusal)
    judged = DOOR_PARTS[kind]
    for name, node in _literal_fields(kind, call):
        if name not in judged:
            continue
        value = value_of(node)
        if value is UNKNOWN:
            continue
        refusal = part_refusal(kind, name, value)
        if refusal is not None and refusal.path not in said:
            said.add(refusal.path)
            yield refusal, _node_of(kind, call, refusal)


def _all_literal(call: ast.Call, value_of: Callable[[ast.expr], object]) -> bool:
    """True when every argument of ``call`` is a literal (read lazily: the first value
    that is not stops the reading)."""
    for arg in call.args:
        if isinstance(arg, ast.Starred) or value_of(arg) is UNKNOWN:
            return False
    for keyword in call.keywords:
        if keyword.arg is None or value_of(keyword.value) is UNKNOWN:
            return False
    return True


def _literal_fields(kind: str, call: ast.Call) -> Iterator[tuple[str, ast.expr]]:
    """The top-level fields whose value the call provably passes, and their nodes."""
    positional = list(call.args)
    if any(isinstance(arg, ast.Starred) for arg in positional):
        return  # the indexes of the positional arguments are unknown
    if kind == "coverage" and positional:
        yield "content", positional.pop(0)
    if len(positional) == 1 and is_dict_form(positional[0]):
        entries = list(last_wins(iter_dict_items(positional[0])))
        spread_after = False
        for entry in reversed(entries):  # a ``**spread`` may replace the keys before it
            if entry is None:
                spread_after = True
            elif not spread_after and isinstance(entry[0], str):
                yield entry[0], entry[2]
    for keyword in call.keywords:
        if keyword.arg is not None:
            yield keyword.arg, keyword.value


def _node_of(kind: str, call: ast.Call, refusal: Refusal) -> ast.AST | None:
    """The smallest node of ``call`` that ``refusal`` concerns: the longest prefix of its
    path found in the source (for a key written twice, the last), the key itself for a
    refused key; the positional argument at fault; else None (the call)."""
    path = refusal.path
    if not path:
        argument = refusal.argument
        if argument is not None and 0 <= argument < len(call.args):
            return call.args[argument]
        return None
    head = path[0]
    node: ast.AST | None = None
    key_node: ast.AST | None = None
    for keyword in call.keywords:
        if keyword.arg == head:
            node, key_node = keyword.value, keyword
    positional = call.args
    declaration_at = 1 if kind == "coverage" else 0  # coverage(result, declaration)
    if node is None and len(positional) == declaration_at + 1:
        holder = positional[declaration_at]
        if is_dict_form(holder):
            node, key_node = _entry(holder, head)
    if node is None:
        return None
    for segment in path[1:]:
        if is_dict_form(node):  # type: ignore[arg-type]
            value, key = _entry(node, segment)  # type: ignore[arg-type]
            if value is None:
                break
            node, key_node = value, key
        elif isinstance(node, (ast.List, ast.Tuple)) and isinstance(segment, int) and not isinstance(segment, bool):
            elements = node.elts
            if any(isinstance(element, ast.Starred) for element in elements) or not 0 <= segment < len(elements):
                break
            node, key_node = elements[segment], None
        else:
            break
    else:
        if refusal.kind in _KEY_KINDS and key_node is not None:
            return key_node
    return node


def _entry(holder: ast.expr, key: object) -> tuple[ast.expr | None, ast.AST | None]:
    found: tuple[ast.expr | None, ast.AST | None] = (None, None)
    for entry in iter_dict_items(holder):
        if entry is not None:
            try:
                if entry[0] == key and type(entry[0]) is type(key):
                    found = (entry[2], entry[1])
            except (TypeError, ValueError):
                continue
    return found


def specific_code(kind: str, refusal: Refusal, call: ast.Call | None = None) -> str | None:
    """The code other than SEM100 that says what ``refusal`` says (SPEC section 4's
    table), or None when no specific code does: then SEM100 reports it. ``call``, when
    given, tells a call that declares nothing at all (``absent()``, ``coverage(r)``:
    SEM404, SEM402) from one whose arguments are wrong."""
    fault, path = refusal.kind, refusal.path
    head = path[0] if path else None
    last = path[-1] if path else None
    if (
        fault == ARGUMENTS
        and call is not None
        and not path
        and refusal.argument is None
        and not call.keywords
        and len(call.args) == (1 if kind == "coverage" else 0)
    ):
        return "SEM402" if kind == "coverage" else "SEM404"
    if fault == UNKNOWN_KEY:
        return "SEM101"
    if fault == SNAKE_CASE_KEY:
        return "SEM102"
    if fault == DERIVED_KEY:
        return "SEM103"
    if fault == WRAPPED:
        return "SEM403"
    if fault == ARGUMENTS:
        return None
    if kind == "described_result":
        if fault == SAYS_NOTHING and not path:
            return "SEM104"
        if head in _DATA and len(path) == 1 and fault == EMPTY:
            return "SEM105"
        if head in _DATA and len(path) >= 2:
            return "SEM106"
        if path == ("provenance",) and fault == MISSING:
            return "SEM201"
        if head == "provenance" and last in ("measuredAt", "source"):
            return "SEM202"
        if path == ("provenance", "ageSeconds"):
            return "SEM205"
        if path == ("grain",) and fault == MISSING:
            return "SEM301"
        if fault == COUNTER_UNSTATED:
            return "SEM302"
        if head == "grain" and fault in (SAYS_NOTHING, EMPTY, WRONG_TYPE):
            return "SEM303"
        if head == "clarify" and last in ("question", "candidates"):
            return "SEM501" if fault in (MISSING, EMPTY, WRONG_TYPE) or last == "candidates" else None
        if head == "render" and len(path) == 2 and last in ("default", "columns"):
            return "SEM502"
        if len(path) == 1 and fault == WRONG_TYPE and head in _PART_NOT_A_DICT:
            return _PART_NOT_A_DICT[head]
    if head in _LISTS:
        if last == "why" and fault == MISSING and "cannotCover" in path:
            return "SEM401"
        if fault == SAYS_NOTHING:
            return "SEM402"
        if (last in ("what", "why") or isinstance(last, int)) and fault in (MISSING, EMPTY, WRONG_TYPE):
            return "SEM405"
    if fault == SAYS_NOTHING and kind == "coverage":
        return "SEM402"
    if kind == "absent" and head in ("what", "checked") and len(path) == 1:
        return "SEM404"
    if kind == "coverage" and head == "period" and len(path) >= 2 and fault in (BAD_VALUE, WRONG_TYPE, MISSING):
        return "SEM406"
    if kind == "coverage" and path == ("checked",) and fault in (MISSING, EMPTY):
        return "SEM406"
    return None


def wraps_described_result(content: ast.expr) -> bool:
    """True when ``content``, the result a ``coverage()`` call wraps, is a dict written in
    the source that the mint takes for a described result (a wire envelope with its
    marker), whatever its other values: its marker key (the last, when written twice,
    and no ``**spread`` after it) is judged by the mint on its literal value."""
    if not is_dict_form(content):
        return False
    for entry in reversed(list(iter_dict_items(content))):
        if entry is None:
            return False  # a spread may replace the marker
        if entry[0] == SEMANTICS_MARKER and isinstance(entry[0], str):
            value = literal_of(entry[2])
            if value is UNKNOWN:
                return False
            refusal = part_refusal("coverage", "content", {SEMANTICS_MARKER: value})
            return refusal is not None and refusal.kind == WRAPPED
    return False
