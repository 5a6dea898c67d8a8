"""A data field's literal value reached another way: through a name, in a branch, after a
guard, in a ``case``, in an arm of a conditional expression.

A disguised example is a ``described_result`` call whose data keyword (``facts``,
``series`` or ``edges``) holds ``rows`` rather than its literal ``V``, in one of these
shapes (``DISGUISES``):

* ``scoped``: ``rows = V`` in the tool's body, beside another function that binds and
  grows a ``rows`` of its own and a nested function that shadows it: the name is
  followed in the tool's scope alone, rows and all; ``V`` is the call's (always when
  the mint refuses one of its rows), or (one time in two) a false value, as below;
* ``branch-not``, ``branch-else``, ``branch-len``: ``def tool(rows=V)`` and the call
  in the body of ``if not rows:``, in the ``else`` of ``if rows:``, or in the body of
  ``if len(rows) == 0:``; ``V`` is then a false value (``[]``, ``()``, ``None``,
  ``""``, ``0``, ``False``, ``{}``; a sized one for ``len``), so that the branch is
  the one that runs;
* ``guard-return``, ``guard-len``: ``def tool(rows=V)``, then ``if rows: return
  None`` (``if len(rows) != 0: raise ValueError``) and the call after it, ``V`` a
  false (sized) value, so that the guard falls through;
* ``case-empty``: ``match rows:`` and the call in ``case []:`` (``case ()`` one time
  in two), ``V`` an empty list or tuple, so that the case runs;
* ``arm-else``, ``arm-if``, ``arm-or``: ``rows if rows else []``, ``[] if not rows else
  rows``, ``rows or []``, with ``def tool(rows=V)`` and a false ``V``, so that the
  empty arm is the one that runs;
* ``arm-fallback``: ``rows if rows else [a valid row]``, the control: ``V`` as the
  call had it when the mint accepts it as that field alone, else a false one;
* ``module-dict``, ``tuple-index``, ``class-constant``, ``alias``, ``walrus``: the
  call's own ``V`` (one time in two a false one) reached through the shapes engineers
  write: ``FIXTURE = {"rows": V}`` and ``FIXTURE["rows"]``; ``ROWS = (V,)`` and
  ``ROWS[0]``; ``class Fixture: ROWS = V`` and ``Fixture.ROWS``; ``changes: object =
  V``, ``rows = changes`` and ``rows``; ``(rows := V)`` in the call.

The runtime's verdict is the mint on the value Python would pass: the module is never
run, :func:`read_call` reads the tool's few statements (parameter defaults, ``rows =
V``, the ``if`` whose branch runs, a guard that falls through, the ``case`` that
matches, the conditional arm that is the value) and ``ast.literal_eval`` reads each
literal.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from semantics_lint.runtime.mints.judge import part_refusal

if TYPE_CHECKING:
    from doors.gen import Call

DISGUISES = (
    "scoped",
    "branch-not",
    "branch-else",
    "branch-len",
    "guard-return",
    "guard-len",
    "case-empty",
    "arm-else",
    "arm-if",
    "arm-or",
    "arm-fallback",
    "module-dict",
    "tuple-index",
    "class-constant",
    "alias",
    "walrus",
)
_SHAPES = {
    "module-dict": ("FIXTURE = {{'rows': {literal}}}\n\n\n", "", 'FIXTURE["rows"]'),
    "tuple-index": ("ROWS = ({literal},)\n\n\n", "", "ROWS[0]"),
    "class-constant": ("class Fixture:\n    ROWS = {literal}\n\n\n", "", "Fixture.ROWS"),
    "alias": ("", "    changes: object = {literal}\n    rows = changes\n", "rows"),
    "walrus": ("", "", "(rows := {literal})"),
}
"""The shapes that keep the call's own value: what is written before the tool, in its
body, and in the call."""
_DATA = ("facts", "series", "edges")
_FALLBACK = {
    "facts": '{"entity": "fallback"}',
    "series": '{"t": "2026-09-26", "entity": "fallback", "metric": "backup_runs_ok", "value": 1}',
    "edges": '{"from": "a", "to": "b", "kind": "replicates"}',
}
_EXPRESSIONS = {
    "arm-else": "rows if rows else []",
    "arm-if": "[] if not rows else rows",
    "arm-or": "rows or []",
}
_HEADER = "from semantics_lint.runtime import absent, coverage, describedResult, described_result\n\n\n"
_OTHER = (
    "def other(batch):\n    rows = list(batch)\n    rows.append({'entity': 'other'})\n    return rows\n\n\n"
)


def module_of(call: Call) -> str:
    """The tool module of a disguised call (the plain one when the keyword is gone)."""
    kind, field = call.disguise
    found = [j for j, (name, _) in enumerate(call.keywords) if name == field]
    plain = replace(call, disguise=())
    if not found:
        return plain.module()
    from doors.gen import Atom

    j = found[0]
    literal = call.keywords[j][1].render()
    expression = _EXPRESSIONS.get(kind, "rows")
    if kind == "arm-fallback":
        expression = f"rows if rows else [{_FALLBACK[field]}]"
    keywords = list(plain.keywords)
    keywords[j] = (field, Atom(expression))
    rendered = replace(plain, keywords=tuple(keywords)).render()
    if kind in _SHAPES:
        before, body, expression = _SHAPES[kind]
        keywords[j] = (field, Atom(expression.format(literal=literal)))
        rendered = replace(plain, keywords=tuple(keywords)).render()
        return f"{_HEADER}{before.format(literal=literal)}def tool():\n{body.format(literal=literal)}    return {rendered}\n"
    if kind == "scoped":
        return (
            f"{_HEADER}{_OTHER}def tool():\n    rows = {literal}\n\n"
            "    def inner():\n        rows = []\n        rows.append(1)\n        return rows\n\n"
            f"    return {rendered}\n"
        )
    head = f"{_HEADER}def tool(rows={literal}):\n"
    if kind == "branch-not":
        return f"{head}    if not rows:\n        return {rendered}\n    return None\n"
    if kind == "branch-else":
        return f"{head}    if rows:\n        return None\n    else:\n        return {rendered}\n"
    if kind == "branch-len":
        return f"{head}    if len(rows) == 0:\n        return {rendered}\n    return None\n"
    if kind == "guard-return":
        return f"{head}    if rows:\n        return None\n    return {rendered}\n"
    if kind == "guard-len":
        return f"{head}    if len(rows) != 0:\n        raise ValueError('rows')\n    return {rendered}\n"
    if kind == "case-empty":
        pattern = "()" if literal.startswith("(") else "[]"
        return f"{head}    match rows:\n        case {pattern}:\n            return {rendered}\n    return None\n"
    return f"{head}    return {rendered}\n"


@st.composite
def disguised(draw: st.DrawFn, call: Call) -> Call:
    """``call`` with one of its data keywords disguised, where the shape keeps the
    runtime's verdict meaningful (see the module docstring); else ``call`` itself."""
    from doors.gen import NotLiteral, _literal

    if call.door not in ("described_result", "describedResult") or call.args:
        return call
    fields = [name for name, _ in call.keywords if name in _DATA]
    if not fields:
        return call
    field = draw(st.sampled_from(fields))
    kind = draw(st.sampled_from(DISGUISES))
    node = dict(call.keywords)[field]
    try:
        value = _literal(ast.parse(node.render(), mode="eval").body)
        false = not value
    except (NotLiteral, SyntaxError, RecursionError, ValueError):
        return call
    alone = part_refusal("described_result", field, value)
    # ``scoped`` keeps the call's own value one time in two, and always when the mint
    # refuses one of its rows: those are read behind the name too.
    own = kind in _SHAPES or (
        kind == "scoped" and ((alone is not None and len(alone.path) > 1) or not draw(st.booleans()))
    )
    if kind in _SHAPES and not (alone is not None and len(alone.path) > 1) and draw(st.booleans()):
        own = False  # a false value through the shape (its rows are the call's otherwise)
    if not own and (kind != "arm-fallback" or not (false or alone is None)):
        # The branch (the guard's way on, the case, the empty arm) runs: the value is a
        # false one (an empty sequence for a case).
        choices = _EMPTY if kind == "case-empty" else _SIZED_FALSE if kind in _SIZED else _FALSE
        keywords = [
            (name, draw(st.sampled_from(choices))() if name == field else node)
            for name, node in call.keywords
        ]
        call = replace(call, keywords=tuple(keywords))
    return replace(call, disguise=(kind, field), mutations=(*call.mutations, f"disguise:{kind}"))


def _false_values() -> tuple[tuple[Callable[[], Any], ...], tuple[Callable[[], Any], ...]]:
    from doors.gen import Atom, Map, Seq, s

    sized = (lambda: Seq(()), lambda: Seq((), "tuple"), lambda: s(""), lambda: Map(()))
    return sized, (*sized, lambda: Atom("None"), lambda: Atom("0"), lambda: Atom("False"))


_SIZED_FALSE, _FALSE = _false_values()
_EMPTY = _SIZED_FALSE[:2]  # [] and ()
_SIZED = ("branch-len", "guard-len")


# ---------------------------------------------------------------------------
# Reading the call back: what Python would pass, never by running it
# ---------------------------------------------------------------------------


def read_call(
    tree: ast.Module, literal: Callable[[ast.expr], Any], not_literal: type[Exception]
) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    """The door, positional and keyword values of the declaration call ``tool()`` runs."""
    function = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "tool")
    env: dict[str, Any] = {}
    for statement in tree.body:
        # Module constants and class constants (``Fixture.ROWS``), as Python binds them.
        if isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
            env[statement.targets[0].id] = literal(statement.value)
        elif isinstance(statement, ast.ClassDef):
            for inner in statement.body:
                if isinstance(inner, ast.Assign) and isinstance(inner.targets[0], ast.Name):
                    env[f"{statement.name}.{inner.targets[0].id}"] = literal(inner.value)
    arguments = function.args
    for arg, default in zip(
        arguments.args[len(arguments.args) - len(arguments.defaults) :],
        arguments.defaults,
        strict=True,
    ):
        env[arg.arg] = literal(default)
    call = _taken(function.body, env, literal, not_literal)
    if call is None:
        raise not_literal("no declaration call runs")
    assert isinstance(call.func, ast.Name)
    args = tuple(_value(a, env, literal) for a in call.args)
    kwargs = {k.arg: _value(k.value, env, literal) for k in call.keywords if k.arg is not None}
    return call.func.id, args, kwargs


def _taken(
    body: list[ast.stmt],
    env: dict[str, Any],
    literal: Callable[[ast.expr], Any],
    not_literal: type[Exception],
) -> ast.Call | None:
    """The declaration call ``body`` returns, None when it runs to its end."""
    for statement in body:
        taken: ast.Call | None = None
        if isinstance(statement, (ast.Assign, ast.AnnAssign)):
            [target] = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            assert isinstance(target, ast.Name) and statement.value is not None
            env[target.id] = _value(statement.value, env, literal)
        elif isinstance(statement, ast.If):
            branch = statement.body if _truth(statement.test, env, literal) else statement.orelse
            taken = _taken(branch, env, literal, not_literal)
        elif isinstance(statement, ast.Match):
            taken = _taken(_case(statement, env), env, literal, not_literal)
        elif isinstance(statement, (ast.Return, ast.Raise)):
            if not isinstance(statement, ast.Return) or not isinstance(statement.value, ast.Call):
                raise not_literal("no declaration call runs")
            return statement.value
        if taken is not None:
            return taken
    return None


def _case(statement: ast.Match, env: dict[str, Any]) -> list[ast.stmt]:
    """The body of the ``case`` that matches (the disguises write ``case []:`` and
    ``case ():`` alone, on a name)."""
    assert isinstance(statement.subject, ast.Name)
    value = env[statement.subject.id]
    for case in statement.cases:
        assert (
            isinstance(case.pattern, ast.MatchSequence) and not case.pattern.patterns and case.guard is None
        )
        if isinstance(value, (list, tuple)) and not value:
            return case.body
    return []


def _value(node: ast.expr, env: dict[str, Any], literal: Callable[[ast.expr], Any]) -> Any:
    if isinstance(node, ast.Name) and node.id in env:
        return env[node.id]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return env[f"{node.value.id}.{node.attr}"]
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        return env[node.value.id][literal(node.slice)]
    if isinstance(node, ast.NamedExpr):
        env[node.target.id] = value = _value(node.value, env, literal)
        return value
    if isinstance(node, ast.IfExp):
        return _value(node.body if _truth(node.test, env, literal) else node.orelse, env, literal)
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        for operand in node.values[:-1]:
            value = _value(operand, env, literal)
            if value:
                return value
        return _value(node.values[-1], env, literal)
    return literal(node)


def _truth(node: ast.expr, env: dict[str, Any], literal: Callable[[ast.expr], Any]) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not _truth(node.operand, env, literal)
    if isinstance(node, ast.Compare) and isinstance(node.left, ast.Call):
        # ``len(rows) == 0``, ``len(rows) != 0``
        measured = node.left.args[0]
        assert isinstance(measured, ast.Name) and isinstance(node.ops[0], (ast.Eq, ast.NotEq))
        equal = len(env[measured.id]) == literal(node.comparators[0])
        return equal if isinstance(node.ops[0], ast.Eq) else not equal
    return bool(_value(node, env, literal))
