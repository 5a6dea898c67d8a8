"""Small, pure questions about ``ast`` expressions that every layer above asks.

Nothing here knows the linter: a dotted name's spelling, the Python value of a literal,
the keys of a dict written in the source.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

__all__ = [
    "UNKNOWN",
    "dotted_name",
    "is_dict_form",
    "iter_dict_items",
    "last_wins",
    "literal_of",
    "literal_value",
]


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


def literal_of(node: ast.expr) -> object:
    """The Python value of an expression written with literals only, at any depth, else
    UNKNOWN: what ``ast.literal_eval`` reads, and ``dict(key=value)`` (no positional
    argument, no ``**``), ``list()``, ``tuple()`` and ``set()`` anywhere inside. A dict
    display keeps the last of a key written twice, as Python does. Never raises: a
    value nested past Python's limits, or a set or dict key that cannot be hashed,
    is UNKNOWN."""
    try:
        return _literal(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNKNOWN


def _literal(node: ast.expr) -> object:
    # UNKNOWN is handed up as a value rather than raised: most expressions in a tool
    # module are not literals, and the first name met ends the reading cheaply.
    kind = type(node)
    if kind is ast.Constant:
        return node.value  # type: ignore[attr-defined]
    if kind is ast.List or kind is ast.Tuple or kind is ast.Set:
        values = []
        for element in node.elts:  # type: ignore[attr-defined]
            value = _literal(element)
            if value is UNKNOWN:
                return UNKNOWN
            values.append(value)
        return values if kind is ast.List else tuple(values) if kind is ast.Tuple else set(values)
    if kind is ast.Dict:
        pairs = []
        for key, item in zip(node.keys, node.values, strict=True):  # type: ignore[attr-defined]
            if key is None:
                return UNKNOWN
            key_value = _literal(key)
            if key_value is UNKNOWN:
                return UNKNOWN
            value = _literal(item)
            if value is UNKNOWN:
                return UNKNOWN
            pairs.append((key_value, value))
        return dict(pairs)
    if kind is ast.Call:
        func = node.func  # type: ignore[attr-defined]
        if type(func) is not ast.Name or node.args:  # type: ignore[attr-defined]
            return UNKNOWN
        if func.id == "dict" and all(keyword.arg is not None for keyword in node.keywords):  # type: ignore[attr-defined]
            fields = {}
            for keyword in node.keywords:  # type: ignore[attr-defined]
                value = _literal(keyword.value)
                if value is UNKNOWN:
                    return UNKNOWN
                fields[keyword.arg] = value
            return fields
        if not node.keywords and func.id in _EMPTY_CALLS:  # type: ignore[attr-defined]
            return _EMPTY_CALLS[func.id]()
        return UNKNOWN
    if kind is ast.UnaryOp or kind is ast.BinOp:
        return ast.literal_eval(node)  # -1, +1.5, 1+2j (ValueError for anything else)
    return UNKNOWN


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
        for key, value in zip(node.keys, node.values, strict=True):
            if isinstance(key, ast.Constant):
                if isinstance(key.value, str) or _hashable(key.value):
                    yield key.value, key, value
                else:
                    yield None
            elif key is None:
                yield None
            else:
                literal = literal_of(key)
                yield ((literal, key, value) if literal is not UNKNOWN and _hashable(literal) else None)
    elif isinstance(node, ast.Call):
        for _ in node.args:
            yield None
        for keyword in node.keywords:
            if keyword.arg is None:
                yield None
            else:
                yield keyword.arg, keyword, keyword.value


def last_wins(
    items: Iterable[tuple[object, ast.AST, ast.expr] | None],
) -> list[tuple[object, ast.AST, ast.expr] | None]:
    """``items`` (from :func:`iter_dict_items`) with a key written twice kept once, as
    Python builds the dict: the last key node and value, where the last one stands."""
    entries = list(items)
    keys = [entry[0] for entry in entries if entry is not None]
    try:
        if len(set(keys)) == len(keys):
            return entries  # no key written twice: the usual case
    except TypeError:  # unhashable inside a tuple: ``(1, [2])``
        return [entry if entry is None or _hashable(entry[0]) else None for entry in entries]
    last = {entry[0]: position for position, entry in enumerate(entries) if entry is not None}
    return [entry for position, entry in enumerate(entries) if entry is None or last[entry[0]] == position]


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True
