"""The value library every rule family shares: what an expression provably is.

Following a name to the value it is bound to (:func:`follow`, through the file's
resolver), telling what kind of literal an expression is (:func:`literal_kind`,
:func:`text_of`...), what a callee stands for by the file's imports
(:func:`qualified_name`). Every helper answers "unknown" (None) for what the source
does not prove, and unknown is never a finding.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from semantics_lint import vocabulary
from semantics_lint.lint.calls.context import CallSite, FileContext
from semantics_lint.lint.calls.declaration import Field, Part
from semantics_lint.lint.calls.verdicts import closest_field
from semantics_lint.lint.core.index import (
    ANNOTATED,
    ASSIGN,
    AUGMENTED,
    CLASS_DEF,
    DEF,
    DELETE,
    IMPORT,
    PARAMETER,
    STORE,
    WALRUS,
)
from semantics_lint.lint.core.syntax import is_dict_form, iter_dict_items
from semantics_lint.lint.resolve import FOLLOWED, may_follow

if TYPE_CHECKING:
    from semantics_lint.lint.resolve import Resolved
    from semantics_lint.lint.rules.base import Check

__all__ = [
    "LiteralKind",
    "Value",
    "data_field",
    "follow",
    "imports_of",
    "is_blank_text",
    "is_empty_sequence",
    "keys_in_doubt",
    "kind_word",
    "literal_kind",
    "nothing_said",
    "provably_empty",
    "qualified_name",
    "says_nothing",
    "shown",
    "string_keys",
    "text_of",
]


# -- following a name ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Value:
    """What an expression of a call provably holds.

    ``node`` is the expression itself, or, when the expression is a name the resolver
    could follow, the expression it is bound to (an ``ast`` tree from the resolver's
    ``value_ast``: it has no position in the call, so a finding about it is reported
    at the use). ``via`` is the resolution then.
    """

    node: ast.expr
    via: Resolved | None = None

    @property
    def bound(self) -> str:
        """`` (EXPORT_DAY = '2024-05-01' (line 3))`` for a followed name; else empty."""
        if self.via is None:
            return ""
        return f" ({self.via.describe()})"

    @property
    def same_file(self) -> bool:
        """True unless the value was bound in another module: its callees then mean what
        that module imports, which the resolver qualifies (``Resolver.qualified_name``)."""
        return self.via is None or self.via.same_file


def follow(call: CallSite, node: ast.expr, *, imports: bool = True) -> Value | None:
    """The value ``node`` provably holds, or None.

    ``node`` is an ``ast`` expression of ``call``, or of a value followed before (the
    resolver keeps following names inside those). A name, ``module.attr``, a
    subscript, an f-string or a walrus (``resolve.FOLLOWED``) is asked of the file's
    resolver, never looked through here (an f-string or a subscript it cannot prove
    is its own value; a walrus, its value's); anything else is its own value (judge
    only the node kinds you understand).

    ``imports=False`` does not follow a name of the call bound by an import, for a
    mistake too rare to read another module for (see the rule that asks).
    """
    if not isinstance(node, (ast.Name, ast.Attribute)):
        if not isinstance(node, FOLLOWED) or not may_follow(node):
            return Value(node)
        if isinstance(node, ast.JoinedStr) and any(
            isinstance(part, ast.FormattedValue) and _bound_by_a_parameter_or_loop(call, part.value)
            for part in node.values
        ):
            return Value(node)  # a piece a caller or a loop gives: never folded
        # A subscript, an f-string, a walrus: what the resolver proves, else the
        # expression itself (an f-string is a string whatever it holds).
        resolved = call.resolver.value_of(node)
        if resolved is not None:
            return Value(resolved.value, resolved)
        if isinstance(node, ast.NamedExpr):
            return follow(call, node.value, imports=imports)
        return Value(node)
    if not imports and call.holds(node) and _imported_where_read(call, node):
        return None
    resolved = call.resolver.value_of(node)
    if resolved is None:
        return None
    return Value(resolved.value, resolved)


def _imported_where_read(call: CallSite, node: ast.expr) -> bool:
    """True for a name (the first of a dotted one) that an import binds where it is read."""
    base = node
    while isinstance(base, ast.Attribute):
        base = base.value
    if not isinstance(base, ast.Name):
        return False
    if isinstance(node, ast.Attribute):
        return True  # ``constants.SOURCE``: only a module has attributes worth following
    index = call.context.index
    scope = index.scope_of(base)
    found = index.lookup(base.id, scope) if scope is not None else None
    return found is not None and any(binding.is_import for binding in found[1])


# -- literals ------------------------------------------------------------------------------


LiteralKind = str
"""``str``, ``bytes``, ``number``, ``bool``, ``none``, ``list``, ``tuple``, ``dict``,
``set`` or ``generator``: the type a literal expression provably has."""


def literal_kind(node: ast.expr) -> LiteralKind | None:
    """The type ``node`` provably has when it is written out as a literal, else None.

    Containers count by their brackets alone (``[x]`` is a list whatever ``x`` is), and
    so do comprehensions; an f-string is a str.
    """
    if isinstance(node, ast.Constant):
        value = node.value
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "bool"
        if isinstance(value, (int, float, complex)):
            return "number"
        if isinstance(value, str):
            return "str"
        if isinstance(value, bytes):
            return "bytes"
        return None  # Ellipsis
    if isinstance(node, ast.JoinedStr):
        return "str"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = literal_kind(node.operand)
        return "number" if inner in ("number", "bool") else None
    if isinstance(node, (ast.List, ast.ListComp)):
        return "list"
    if isinstance(node, ast.Tuple):
        return "tuple"
    if isinstance(node, (ast.Dict, ast.DictComp)):
        return "dict"
    if isinstance(node, (ast.Set, ast.SetComp)):
        return "set"
    if isinstance(node, ast.GeneratorExp):
        return "generator"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args:
        if node.func.id in ("list", "tuple") and not node.keywords:
            return node.func.id
        if node.func.id == "dict" and all(kw.arg is not None for kw in node.keywords):
            return "dict"
    return None


_KIND_WORDS: Final = {
    "str": "a string",
    "bytes": "bytes",
    "number": "a number",
    "bool": "a bool",
    "none": "None",
    "list": "a list",
    "tuple": "a tuple",
    "dict": "a dict",
    "set": "a set",
    "generator": "a generator",
}


def followed_literal(
    call: CallSite, node: ast.expr, *, imports: bool = True
) -> tuple[Value, LiteralKind] | None:
    """What ``node`` provably holds (:func:`follow`) and its literal kind: the opening a
    rule shares before it judges a value. None when the value or its kind is unknown,
    which is never a finding."""
    value = follow(call, node, imports=imports)
    if value is None:
        return None
    kind = literal_kind(value.node)
    return None if kind is None else (value, kind)


def report_wrong_kind(
    check: Check,
    field: Field,
    name: str,
    allowed: tuple[LiteralKind, ...],
    *,
    help: str,
    suffix: str = "",
) -> None:
    """Report ``field`` when it provably holds a literal of a kind not ``allowed``
    (``"`grain` is a string, which says nothing"``): the message names the field as
    ``name`` and the kind, then ``suffix``; the help says where the value was bound."""
    found = followed_literal(check.call, field.value_ast)
    if found is None or found[1] in allowed:
        return
    value, kind = found
    check.report(field.value_ast, f"`{name}` is {kind_word(kind)}{suffix}", help=help + value.bound)


def kind_word(kind: LiteralKind) -> str:
    """``a string``, ``None``...: how a message names a literal's type."""
    return _KIND_WORDS.get(kind, kind)


def text_of(node: ast.expr) -> str | None:
    """The text of a string literal (not an f-string); None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def is_blank_text(node: ast.expr) -> bool:
    """True for a string that is provably empty after JavaScript's trim (``""``, ``"  "``,
    ``f""``); False for a non-empty one and for anything unknown."""
    text = text_of(node)
    if text is not None:
        return vocabulary.js_trim(text) == ""
    if isinstance(node, ast.JoinedStr):
        # Only an f-string with no replacement field can be proved blank.
        return all(
            isinstance(part, ast.Constant) and vocabulary.js_trim(str(part.value)) == ""
            for part in node.values
        )
    return False


def says_nothing(node: ast.expr) -> bool:
    """True for a literal that says nothing as a text: a blank string, or a literal that
    is not a string at all."""
    kind = literal_kind(node)
    return kind is not None and (kind != "str" or is_blank_text(node))


def nothing_said(node: ast.expr) -> str:
    """How a literal :func:`says_nothing`: ``is empty``, or ``is a number, not a string``."""
    kind = literal_kind(node)
    return "is empty" if kind == "str" else f"is {kind_word(kind or 'str')}, not a string"


def string_keys(node: ast.expr) -> tuple[dict[str, tuple[ast.AST, ast.expr]], bool] | None:
    """The literal string keys of a dict literal or ``dict(...)`` call (a key written
    twice: the last, as Python keeps it), and whether others may hide (a spread, a
    computed key); None when ``node`` is not a dict form. A literal key that is not a
    string (``{1: "x"}``) hides nothing."""
    if not is_dict_form(node):
        return None
    keys: dict[str, tuple[ast.AST, ast.expr]] = {}
    hidden = False
    for item in iter_dict_items(node):
        if item is None:
            hidden = True
        elif isinstance(item[0], str):
            keys[item[0]] = (item[1], item[2])  # a key written twice: the last
    return keys, hidden


def is_empty_sequence(node: ast.expr) -> bool:
    """``[]``, ``()``, ``list()`` or ``tuple()``."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return not node.elts
    return isinstance(node, ast.Call) and literal_kind(node) in ("list", "tuple")


def provably_empty(call: CallSite, node: ast.expr, depth: int = 0) -> bool:
    """True for a sequence the source proves empty when it is made: an empty literal
    (:func:`is_empty_sequence`), a walrus binding one, a comprehension or generator
    over an iterable provably empty (``[{...} for h in []]``, ``(h for h in EMPTY)``
    with ``EMPTY = ()``), ``list(...)`` or ``tuple(...)`` of one. Names inside are
    followed (:func:`follow`); False for anything unknown."""
    if depth > MAX_DEPTH:
        return False
    if isinstance(node, ast.NamedExpr):
        return provably_empty(call, node.value, depth + 1)
    if is_empty_sequence(node):
        return True
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        return _empty_iterable(call, node.generators[0].iter, depth + 1)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("list", "tuple")
        and len(node.args) == 1
        and not node.keywords
        and not isinstance(node.args[0], ast.Starred)
    ):
        return _empty_iterable(call, node.args[0], depth + 1)
    return False


MAX_DEPTH: Final = 4
"""Comprehensions over comprehensions followed for :func:`provably_empty`."""


def _empty_iterable(call: CallSite, node: ast.expr, depth: int) -> bool:
    """An iterable that yields nothing: an empty display (a set or dict too, a string
    ``""``) or what :func:`provably_empty` proves, written or followed."""
    if _bound_by_a_parameter_or_loop(call, node):
        return False  # what a caller or a loop gives: never followed (asked before the resolver)
    value = follow(call, node, imports=False)  # an empty constant of another module: too rare to read it for
    if value is None:
        return False
    found = value.node
    if isinstance(found, ast.Set):
        return not found.elts
    if isinstance(found, ast.Dict):
        return not found.keys
    if isinstance(found, ast.Constant) and isinstance(found.value, (str, bytes)):
        return not found.value
    return provably_empty(call, found, depth)


def _bound_by_a_parameter_or_loop(call: CallSite, node: ast.expr) -> bool:
    """True for a name of the linted file (the first of a dotted one, the container of
    a subscript) that a parameter, a loop or a comprehension binds where it is read
    (``for r in rows`` with ``rows`` a parameter, ``export["rows"]``): the resolver
    would say unknown; the index says it at once."""
    base = node
    while isinstance(base, (ast.Attribute, ast.Subscript)):
        base = base.value
    if not isinstance(base, ast.Name):
        return False
    index = call.context.index
    scope = index.scope_of(base)
    found = index.lookup(base.id, scope) if scope is not None else None
    return found is not None and any(binding.kind in (PARAMETER, STORE) for binding in found[1])


def shown(node: ast.expr) -> str:
    """A short one-line rendering of an expression for a message."""
    try:
        text = " ".join(ast.unparse(node).split())
    except (ValueError, RecursionError):  # unparse fails on odd trees; a message needs none
        return "this value"
    return text if len(text) <= 50 else text[:47] + "..."


# -- parts ---------------------------------------------------------------------------------


def holds_no_ground(call: CallSite, field: Field) -> bool:
    """True when a ground field of a coverage provably holds no ground: an empty list, or None."""
    value = follow(call, field.value_ast)
    if value is None:
        return False
    return provably_empty(call, value.node) or literal_kind(value.node) == "none"


def keys_in_doubt(part: Part) -> bool:
    """True when a part may hold a field the model cannot see by its name.

    A spread (``**extra``) hides keys; a misspelled key (SEM101) may be the field meant;
    a derived or wire key (SEM103) says the dict is a hand-built envelope. A missing
    field of such a part is never reported: that mistake is already reported, or not
    provable.
    """
    return part.open or any(item.status in ("unknown", "derived") for item in part.fields)


def missing_in_doubt(part: Part, name: str) -> bool:
    """True when ``part`` may hold the field ``name`` (camelCase) that the model does not
    find in it: a spread (``**extra``) may hide it, a derived or wire key says the dict
    is a hand-built envelope, or an unknown key may be ``name`` misspelled (its one close
    match, as SEM101 names it) or one of ``name``'s own fields written a level too high
    (``measuredAt=`` for ``provenance``). Any other unknown key (``context``) leaves the
    missing field missing.
    """
    if part.open:
        return True
    inside = vocabulary.PART_FIELDS.get(name, ())
    for item in part.fields:
        if item.status == "derived":
            return True
        if item.status == "unknown" and (
            vocabulary.to_declaration(item.spelled) in inside
            or closest_field(item.spelled, part.allowed) == name
        ):
            return True
    return False


def data_field(field: Field) -> bool:
    """True for a field spelled as a field of its part (camelCase or its wire spelling)."""
    return field.status in ("field", "snake")


# -- imports: the qualified name of a callee -----------------------------------------------

# Bindings that make an imported name's meaning unprovable when the file also has one.
_NOT_AN_IMPORT: Final = frozenset(
    {ASSIGN, ANNOTATED, AUGMENTED, WALRUS, STORE, DELETE, PARAMETER, DEF, CLASS_DEF}
)


def imports_of(context: FileContext) -> Mapping[str, str]:
    """Local name -> the module path it stands for, from the file's imports.

    ``import datetime as dt`` gives ``dt -> datetime``; ``from datetime import
    datetime`` gives ``datetime -> datetime.datetime``. A name imported twice as two
    different things, or also bound otherwise anywhere in the file (assigned, a
    parameter, a def), is left out: its meaning is not provable. Read from the index
    once per file.
    """
    index = context.index
    known = index.memo("imports")
    if known is not None:
        return known  # type: ignore[return-value]
    found: dict[str, str] = {}
    doubtful: set[str] = set()
    for local, binding in index.imports:
        alias = binding.node
        statement = binding.statement
        if binding.kind == IMPORT:
            target = alias.name if alias.asname is not None else local  # type: ignore[attr-defined]
        elif isinstance(statement, ast.ImportFrom) and statement.module and not statement.level:
            target = f"{statement.module}.{alias.name}"  # type: ignore[attr-defined]
        else:
            continue
        if found.get(local, target) != target:
            doubtful.add(local)
        found[local] = target
    result = {
        local: target
        for local, target in found.items()
        if local not in doubtful
        and not any(binding.kind in _NOT_AN_IMPORT for binding in index.bindings_anywhere(local))
    }
    index.remember("imports", result)
    return result


def qualified_name(context: FileContext, node: ast.expr) -> str | None:
    """``datetime.datetime.now`` for ``datetime.now`` after ``from datetime import
    datetime``; None when the base name is not provably an import."""
    attrs: list[str] = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    base = imports_of(context).get(node.id)
    if base is None:
        return None
    return ".".join([base, *reversed(attrs)])
