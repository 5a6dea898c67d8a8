"""Small, pure questions about ``ast`` expressions that every layer above asks.

Nothing here knows the linter: a dotted name's spelling, the Python value of a literal,
the keys of a dict written in the source.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

__all__ = ["UNKNOWN", "dotted_name", "is_dict_form", "iter_dict_items", "literal_value"]


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




def is_dict_form(node: ast.expr) -> bool:
    """A dict literal or a ``dict(...)`` call: the two ways a part is written."""
    if isinstance(node, ast.Dict):
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict"


def iter_dict_items(node: ast.expr) -> Iterator[tuple[str, ast.AST, ast.expr] | None]:
    """The (key text, key node, value) of a dict literal or ``dict(...)`` call.

    Yields None for anything that hides keys: ``**spread``, a computed key, a
    positional argument of ``dict(...)``.
    """
    if isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                yield key.value, key, value
            else:
                yield None
    elif isinstance(node, ast.Call):
        for _ in node.args:
            yield None
        for keyword in node.keywords:
            if keyword.arg is None:
                yield None
            else:
                yield keyword.arg, keyword, keyword.value
