"""Small, pure questions about ``ast`` expressions that every layer above asks.

Nothing here knows the linter: a dotted name's spelling, the Python value of a literal,
the keys of a dict written in the source.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

__all__ = ["UNKNOWN", "dotted_name", "is_dict_form", "iter_dict_items", "last_wins", "literal_of", "literal_value"]


def dotted_name(node: ast.AST) -> str | None:
    """``a.b.c`` for a chain of attributes on a name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):  # a loop: chains can be thousands deep
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


class _Unknown:
    """The value of an expression that is not a literal."""

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __bool__(self) -> bool:
        raise TypeError("UNKNOWN has no truth value; compare with `is UNKNOWN`")


UNKNOWN = _Unknown()



def literal_value(node: ast.expr) -> object:
    """The Python value of a literal expression (``dict(a=1)`` included), else UNKNOWN."""
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and not node.args:
            if node.func.id in ("list", "tuple") and not node.keywords:
                return [] if node.func.id == "list" else ()
            if node.func.id == "dict" and all(kw.arg is not None for kw in node.keywords):
                values = {kw.arg: literal_value(kw.value) for kw in node.keywords}
                if any(v is UNKNOWN for v in values.values()):
                    return UNKNOWN
                return values
        return UNKNOWN
    if isinstance(node, ast.Constant):
        return node.value
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNKNOWN




class _NotLiteral(Exception):
    pass


def literal_of(node: ast.expr) -> object:
    """The Python value of an expression written with literals only, at any depth, else
    UNKNOWN: what ``ast.literal_eval`` reads, and ``dict(key=value)`` (no positional
    argument, no ``**``), ``list()``, ``tuple()`` and ``set()`` anywhere inside. A dict
    display keeps the last of a key written twice, as Python does. Never raises: a
    value nested past Python's limits, or a set or dict key that cannot be hashed,
    is UNKNOWN."""
    try:
        return _literal(node)
    except (_NotLiteral, ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNKNOWN


def _literal(node: ast.expr) -> object:
    kind = type(node)
    if kind is ast.Constant:
        return node.value  # type: ignore[attr-defined]
    if kind is ast.List:
        return [_literal(element) for element in node.elts]  # type: ignore[attr-defined]
    if kind is ast.Tuple:
        return tuple(_literal(element) for element in node.elts)  # type: ignore[attr-defined]
    if kind is ast.Set:
        return {_literal(element) for element in node.elts}  # type: ignore[attr-defined]
    if kind is ast.Dict:
        if any(key is None for key in node.keys):  # type: ignore[attr-defined]
            raise _NotLiteral
        return {_literal(key): _literal(value) for key, value in zip(node.keys, node.values)}  # type: ignore[attr-defined, arg-type]
    if kind is ast.Call:
        func = node.func  # type: ignore[attr-defined]
        if type(func) is not ast.Name or node.args:  # type: ignore[attr-defined]
            raise _NotLiteral
        if func.id == "dict" and all(keyword.arg is not None for keyword in node.keywords):  # type: ignore[attr-defined]
            return {keyword.arg: _literal(keyword.value) for keyword in node.keywords}  # type: ignore[attr-defined]
        if not node.keywords and func.id in _EMPTY_CALLS:  # type: ignore[attr-defined]
            return _EMPTY_CALLS[func.id]()
        raise _NotLiteral
    if kind is ast.Starred or kind is ast.Name:
        raise _NotLiteral
    return ast.literal_eval(node)  # -1, 1e999, 1+2j


_EMPTY_CALLS = {"list": list, "tuple": tuple, "set": set}


def is_dict_form(node: ast.expr) -> bool:
    """A dict literal or a ``dict(...)`` call: the two ways a part is written."""
    if isinstance(node, ast.Dict):
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict"


def iter_dict_items(node: ast.expr) -> Iterator[tuple[object, ast.AST, ast.expr] | None]:
    """The (key, key node, value) of a dict literal or ``dict(...)`` call, in source order.

    The key is its Python value: a string, or another literal a dict display may hold
    (``1``, ``None``, ``(1, 2)``). Yields None for anything that hides keys:
    ``**spread``, a computed key, an unhashable one, a positional argument of
    ``dict(...)``. A key written twice is yielded twice; Python keeps the last value
    (:func:`last_wins`).
    """
    if isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values):
            if isinstance(key, ast.Constant):
                if isinstance(key.value, str) or _hashable(key.value):
                    yield key.value, key, value
                else:
                    yield None
            elif key is None:
                yield None
            else:
                literal = literal_value(key)
                yield (literal, key, value) if literal is not UNKNOWN and _hashable(literal) else None
    elif isinstance(node, ast.Call):
        for _ in node.args:
            yield None
        for keyword in node.keywords:
            if keyword.arg is None:
                yield None
            else:
                yield keyword.arg, keyword, keyword.value


def last_wins(
    items: Iterator[tuple[object, ast.AST, ast.expr] | None],
) -> Iterator[tuple[object, ast.AST, ast.expr] | None]:
    """``items`` (from :func:`iter_dict_items`) with a key written twice kept once, as
    Python builds the dict: the last key node and value, where the last one stands."""
    entries = list(items)
    last: dict[object, int] = {}
    for position, entry in enumerate(entries):
        if entry is not None:
            try:
                last[entry[0]] = position
            except TypeError:  # unhashable inside a tuple: ``(1, [2])``
                pass
    for position, entry in enumerate(entries):
        if entry is None:
            yield None
            continue
        try:
            if last.get(entry[0], position) != position:
                continue
        except TypeError:
            yield None
            continue
        yield entry


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True
