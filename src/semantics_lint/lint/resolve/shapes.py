"""The shapes a value is read through besides a plain name, as pure functions of the tree.

The resolver (``resolve.__init__``) follows names; what it finds is often reached
through one more step written in the source, which these functions take when the
literals prove it, and refuse (None) otherwise:

* a subscript with a literal key into a literal container (:func:`element`:
  ``SNAPSHOT["taken_at"]``, ``STAMPS[0]``, ``STAMPS[-1]``): a dict display whose keys
  are all literals (no ``**spread``, no computed key), a list or tuple display with no
  ``*spread``;
* an f-string whose every piece is known (:func:`fold`): each replacement field a
  constant string, number or bool, its conversion and format spec applied as Python
  applies them (``f"{2024}-{9:02d}-30"`` is ``'2024-09-30'``);
* a use of a mutable constant that leaves it as it was (:func:`reads_element`): a
  subscript with a literal key read (not stored to, not deleted) whose element is not
  itself mutable (``SNAPSHOT["taken_at"]``), a loop or comprehension iterating it;
  ``SNAPSHOT["rows"].append(r)`` changes it.

:func:`mutable` says which values may change in place.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable

from semantics_lint.lint.core.flow import parent_of
from semantics_lint.lint.core.scopes import CLASS, CLASS_DEF, FUNCTION, Binding, FileIndex, Scope

__all__ = [
    "attribute_stored",
    "attribute_unchanged",
    "class_of_method",
    "constant_key",
    "element",
    "fold",
    "may_follow",
    "mutable",
    "plain_class",
    "reads_element",
]

_CONVERSIONS: dict[int, Callable[[object], str]] = {ord("s"): str, ord("r"): repr, ord("a"): ascii}
_WIDEST = 200
"""The largest width or precision a folded format spec may ask for (a message needs no more)."""
_NUMBER = re.compile(r"\d+")
_DEEPEST = 8
"""Bases followed to tell whether a class is plain (:func:`plain_class`)."""


def mutable(node: ast.expr) -> bool:
    """A dict, list or set (literal, comprehension or call), a tuple display holding one
    (``({"entity": "a"},)``: its rows may change in place), or a conditional expression
    or ``or``/``and`` that may give one (``rows if rows else []``): it may change in place."""
    if isinstance(node, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    if isinstance(node, ast.Tuple):
        return any(mutable(item) for item in node.elts)
    if isinstance(node, ast.IfExp):
        return mutable(node.body) or mutable(node.orelse)
    if isinstance(node, ast.BoolOp):
        return any(mutable(value) for value in node.values)
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("dict", "list", "set")
    )


_SIMPLE = (ast.Constant, ast.Name, ast.Attribute, ast.Subscript)


def may_follow(node: ast.expr) -> bool:
    """Whether the resolver may prove what ``node`` holds, judged from its shape alone
    and cheaply, before any name is looked up: a name, a walrus, a subscript, an
    f-string whose replacement fields are all literals, names or subscripts (an
    f-string with a call in it is never folded)."""
    if isinstance(node, ast.JoinedStr):
        return all(
            isinstance(part, ast.Constant)
            or (
                isinstance(part, ast.FormattedValue)
                and isinstance(part.value, _SIMPLE)
                and (part.format_spec is None or may_follow(part.format_spec))
            )
            for part in node.values
        )
    return True


def constant_key(node: ast.expr) -> ast.Constant | None:
    """The literal a subscript's key is written as (``"taken_at"``, ``0``, ``-1``), or None."""
    if isinstance(node, ast.Constant):
        return node
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) in (int, float)
    ):
        return ast.Constant(-node.operand.value)  # type: ignore[operator]
    return None


def element(container: ast.expr, key: ast.Constant) -> ast.expr | None:
    """The element ``container[key]`` gives, when ``container`` is a literal display that
    proves it (see the module docstring); None when unknown or absent (a ``KeyError``
    or an ``IndexError`` at run time is no value)."""
    if isinstance(container, ast.Dict):
        found: ast.expr | None = None
        for written, value in zip(container.keys, container.values, strict=True):
            if not isinstance(written, ast.Constant):
                return None  # a spread or a computed key may hold any key
            try:
                if written.value == key.value and hash(written.value) == hash(key.value):
                    found = value  # a key written twice: the last, as Python keeps it
            except TypeError:
                return None
        return found
    if isinstance(container, (ast.List, ast.Tuple)):
        if any(isinstance(item, ast.Starred) for item in container.elts):
            return None
        try:
            position = operator.index(key.value)  # type: ignore[arg-type]
            return container.elts[position]
        except (TypeError, IndexError):
            return None
    return None


def fold(node: ast.JoinedStr, value_of: Callable[[ast.expr], ast.expr | None]) -> str | None:
    """The text of an f-string whose every replacement field ``value_of`` proves a
    constant string, number or bool; None otherwise (a field that may hold anything, a
    format spec that fails or asks for a huge width)."""
    pieces: list[str] = []
    for part in node.values:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            pieces.append(part.value)
            continue
        if not isinstance(part, ast.FormattedValue):
            return None
        value = value_of(part.value)
        if not isinstance(value, ast.Constant) or type(value.value) not in (str, int, float, bool):
            return None
        spec = ""
        if part.format_spec is not None:
            if not isinstance(part.format_spec, ast.JoinedStr):
                return None
            folded = fold(part.format_spec, value_of)
            if folded is None or any(int(number) > _WIDEST for number in _NUMBER.findall(folded)):
                return None
            spec = folded
        shown: object = value.value
        conversion = _CONVERSIONS.get(part.conversion)
        if conversion is not None:
            shown = conversion(shown)
        try:
            pieces.append(format(shown, spec))
        except (ValueError, TypeError):
            return None
    return "".join(pieces)


def reads_element(index: FileIndex, use: ast.expr, bound: ast.expr) -> bool:
    """True when ``use`` (a name or dotted name bound to the literal ``bound``) is read
    only to take an element that is not itself mutable, with a literal key
    (``SNAPSHOT["taken_at"]``, ``STAMPS[0]``), or to be iterated (``for s in SITES``,
    ``[... for s in SITES]``): nothing is changed through it."""
    parent = parent_of(index.tree, use)
    if isinstance(parent, (ast.comprehension, ast.For, ast.AsyncFor)):
        return parent.iter is use  # iterated: nothing is changed, nothing else holds it
    if not (isinstance(parent, ast.Subscript) and parent.value is use and isinstance(parent.ctx, ast.Load)):
        return False
    key = constant_key(parent.slice)
    if key is None:
        return False
    found = element(bound, key)
    return found is not None and not mutable(found)


# -- class constants ---------------------------------------------------------------------


def attribute_unchanged(index: FileIndex, attribute: str, bound: ast.expr) -> bool:
    """Whether every read of an attribute spelled ``attribute`` in the module, through any
    name (``self.X``, ``Jobs.X``, ``other.X``), leaves a mutable class constant as it was."""
    api = index.api_read
    for spelled, uses in index.uses.items():
        if spelled.endswith("." + attribute):
            for use in uses:
                if id(use) not in api and not reads_element(index, use, bound):
                    return False
    return True


def attribute_stored(index: FileIndex, attribute: str, overridden_in: Scope | None) -> bool:
    """Whether an attribute spelled ``attribute`` may be rebound anywhere in the module:
    stored to or deleted through any name (``self.X = ...``, ``Jobs.X = ...``), or any
    ``setattr``/``delattr`` call; with ``overridden_in`` (read through an instance),
    also another class that binds the name in its body (a subclass may override it)."""
    if "setattr" in index.calls or "delattr" in index.calls:
        return True
    for spelled, uses in index.uses.items():
        if spelled.endswith("." + attribute) and any(
            not isinstance(getattr(use, "ctx", None), ast.Load) for use in uses
        ):
            return True
    if overridden_in is not None:
        for scope in index.scopes.values():
            if scope.kind == CLASS and scope is not overridden_in and attribute in scope.bindings:
                return True
    return False


def plain_class(index: FileIndex, node: ast.ClassDef, depth: int) -> bool:
    """A class whose body's constants are what they say: no decorator (a dataclass makes
    fields of them), no keyword (a metaclass), and bases that are ``object`` or plain
    classes bound once in the same module (``Enum`` makes members of them)."""
    if node.decorator_list or node.keywords or depth > _DEEPEST:
        return False
    for base in node.bases:
        if not isinstance(base, ast.Name):
            return False
        if base.id == "object" and index.lookup("object", index.module) is None:
            continue
        found = index.lookup(base.id, index.module)
        if found is None or len(found[1]) != 1 or found[1][0].kind != CLASS_DEF:
            return False
        if not plain_class(index, found[1][0].node, depth + 1):  # type: ignore[arg-type]
            return False
    return True


def class_of_method(index: FileIndex, home: Scope, binding: Binding) -> ast.AST | None:
    """The class whose method ``home`` is, when ``binding`` is its first parameter
    (``self``; ``cls`` of a ``classmethod``); None for a static method, a nested
    function or another parameter."""
    function = home.node
    if home.kind != FUNCTION or home.parent is None or home.parent.kind != CLASS:
        return None
    assert isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
    decorators = function.decorator_list
    if decorators and not (
        len(decorators) == 1 and isinstance(decorators[0], ast.Name) and decorators[0].id == "classmethod"
    ):
        return None
    positional = (*function.args.posonlyargs, *function.args.args)
    if not positional or positional[0] is not binding.node:
        return None
    return home.parent.node
