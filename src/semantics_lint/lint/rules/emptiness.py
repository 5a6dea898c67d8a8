"""When a data list is provably empty where the mint gets it, and why.

SEM105 reports a data field (``facts``, ``series``, ``edges``) the mint refuses for
being empty; SEM604 leaves such a field to it. What proves it, from the source alone:

* an empty literal (``[]``, ``()``, ``list()``, ``tuple()``), written in the call or
  bound to the name the call gives (the resolver follows it);
* an arm of a conditional expression that is an empty literal (``rows if rows else
  []``, ``[] if not rows else rows``), or an ``or`` whose last operand is one (``rows or
  []``), written in the call or bound to the name: whenever that arm is the value, the
  list is empty. A test that is a constant is left alone (one arm is dead);
* a name read in a branch whose test proves it empty or false (:func:`branch_test`):
  ``if not rows:``, ``if len(rows) == 0:`` (or ``0 == len(rows)``, ``not len(rows)``),
  ``if rows == []:`` (or ``()``), and the ``else`` of ``if rows:``, ``if len(rows):``,
  ``if len(rows) != 0:``, ``if len(rows) > 0:``, ``if rows != []:``; an ``and`` of tests
  proves what any of them proves in its body, an ``or`` in its ``else``; the same tests
  in a conditional expression (``rows if not rows else ...``). The mint refuses every
  false value of a data field (``None``, an empty list, tuple, set, dict, string or
  range, ``0``, ``False``: ``tests/test_emptiness.py`` holds it to that), so a name that
  is false there is refused whatever it holds; what the linter assumes is only that a
  value's truth and length say what it holds (Python's own containers do; an object
  that is false yet yields rows would be misread).

A branch proves nothing when the name may change between the test and the use: a
binding of it inside the ``if`` (a reassignment, a walrus, a loop target), any use of
it there other than as an argument of a declaration call (``rows.append(r)``,
``fill(rows)``), a use from another function that reads the same binding and may run
meanwhile (a nested function, a function that reads a module's name), a ``global`` or
``nonlocal`` of it, a use in a function or lambda defined in the branch (it runs later).
``while`` loops, ``is None`` tests, comparisons other than with zero or an empty
literal (``len(rows) < 5``), attributes (``self.rows``) prove nothing.
"""

from __future__ import annotations

import ast
from bisect import bisect_right
from typing import TYPE_CHECKING, NamedTuple

from semantics_lint.lint.core.index import COMPREHENSION, MODULE, FileIndex, Scope
from semantics_lint.lint.rules.values import is_empty_sequence, shown

if TYPE_CHECKING:
    from semantics_lint.lint.calls.context import CallSite

__all__ = ["Empty", "branch_test", "empty_data"]


class Empty(NamedTuple):
    """A data value proved empty: ``at`` is where the finding goes (the value in the
    call, or an empty arm written there); ``when`` says when it is empty (``""``:
    always; ``when `rows` is false``; ``in this branch (line 7 tests `not rows`)``);
    ``bound`` where a followed name was bound (``rows = [] (line 3)``), or ``""``."""

    at: ast.expr
    when: str
    bound: str


def empty_data(call: CallSite, value: ast.expr) -> list[Empty]:
    """Every way ``value``, a data field of ``call``, is provably empty (see the module
    docstring); an empty list when nothing is proved."""
    if is_empty_sequence(value):
        return [Empty(value, "", "")]
    arms = _empty_arms(value)
    if arms:
        return [Empty(arm, when, "") for arm, when in arms]
    if not isinstance(value, (ast.Name, ast.Attribute)):
        return []
    resolved = call.resolver.value_of(value)
    if resolved is not None:
        if is_empty_sequence(resolved.value):
            return [Empty(value, "", resolved.describe())]
        followed = _empty_arms(resolved.value)
        if followed:
            return [Empty(value, followed[0][1], resolved.describe())]
        if isinstance(resolved.value, _WRITTEN_OUT):
            return []  # a value written out in the source: a branch testing it is decided
    if isinstance(value, ast.Name):
        # A name of this file (a node of another module's tree has no scope here).
        found = branch_test(call.context.index, value)
        if found is not None:
            test, holds = found
            said = f"line {test.lineno} tests `{shown(test)}`, {'true' if holds else 'false'} here"
            return [Empty(value, f"in this branch ({said})", "")]
    return []


_WRITTEN_OUT = (ast.Constant, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.JoinedStr)


# -- conditional expressions ---------------------------------------------------------------


def _empty_arms(node: ast.expr) -> list[tuple[ast.expr, str]]:
    """The arms of a conditional expression (or the last operand of an ``or``) that are
    empty literals, each with when it is the value: ``when `rows` is false``."""
    found: list[tuple[ast.expr, str]] = []
    if isinstance(node, ast.IfExp) and not isinstance(node.test, ast.Constant):
        test = shown(node.test)
        for arm, truth in ((node.body, "true"), (node.orelse, "false")):
            if is_empty_sequence(arm):
                found.append((arm, f"when `{test}` is {truth}"))
            else:
                found.extend(_empty_arms(arm))
    elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        *tests, last = node.values
        if any(isinstance(test, ast.Constant) for test in tests):
            return found
        if is_empty_sequence(last):
            said = " or ".join(shown(test) for test in tests)
            found.append((last, f"when `{said}` is false"))
        else:
            found.extend(_empty_arms(last))
    return found


# -- branches ------------------------------------------------------------------------------


def branch_test(index: FileIndex, use: ast.Name) -> tuple[ast.expr, bool] | None:
    """The test of the innermost ``if`` (or conditional expression) around ``use`` that
    proves the name empty or false where ``use`` reads it, with nothing between the test
    and ``use`` that may change it, and whether the branch is the one taken when the test
    is true; None when no test proves it."""
    name = use.id
    scope = index.scope_of(use)
    if scope is None:
        return None
    owner = _owner(scope)
    if not _read_again(index, name, owner):
        return None  # the test would read the name in the same scope: no other read, no test
    found = index.lookup(name, scope)
    if found is None:
        return None
    home = found[0]
    if (home.kind == MODULE and index.star_import) or not index.stable(name, home):
        return None
    path = _path(owner.node, use)
    if path is None:
        return None
    for depth in range(len(path) - 2, -1, -1):
        # The way down stays in ``owner``'s code: a function, lambda or class body
        # written in a branch is a scope of its own, whose reads the way never reaches.
        node, child = path[depth], path[depth + 1]
        if not isinstance(node, (ast.If, ast.IfExp)) or child is node.test:
            continue
        taken_when_true = child is node.body if isinstance(node, ast.IfExp) else any(child is s for s in node.body)
        proved = _falsy_under(index, node.test, name, taken_when_true)
        if proved is None or not index.resolves_to(proved, home):
            continue
        if _disturbed(index, name, home, owner, node, (use, proved)):
            return None
        return node.test, taken_when_true
    return None


def _owner(scope: Scope) -> Scope:
    """The scope whose code runs a comprehension's: the nearest that is not one."""
    while scope.kind == COMPREHENSION and scope.parent is not None:
        scope = scope.parent
    return scope


_READS = "reads by scope"


def _read_again(index: FileIndex, name: str, owner: Scope) -> bool:
    """Whether ``name`` is read more than once in ``owner``'s code (comprehensions
    included): the use, and a test needs a read of its own. The reads of a name are
    counted by scope once per file."""
    by_name: dict[str, dict[int, int]] | None = index.memo(_READS)  # type: ignore[assignment]
    if by_name is None:
        by_name = {}
        index.remember(_READS, by_name)
    counts = by_name.get(name)
    if counts is None:
        counts = by_name[name] = {}
        scope_of = index.scope_of_name
        for read in index.uses.get(name, ()):
            scope = scope_of.get(id(read))
            if scope is not None:
                key = id(_owner(scope))
                counts[key] = counts.get(key, 0) + 1
    return counts.get(id(owner), 0) > 1


def _falsy_under(index: FileIndex, test: ast.expr, name: str, holds: bool) -> ast.Name | None:
    """The read of ``name`` in ``test`` that is provably empty or false when ``test`` is
    true (``holds``) or false (not ``holds``), or None."""
    if isinstance(test, ast.Name):
        return test if not holds and test.id == name else None
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _falsy_under(index, test.operand, name, not holds)
    if isinstance(test, ast.BoolOp):
        # An ``and`` that holds holds each operand; an ``or`` that fails fails each.
        if isinstance(test.op, ast.And) is holds:
            for operand in test.values:
                found = _falsy_under(index, operand, name, holds)
                if found is not None:
                    return found
        return None
    measured = _measured(index, test, name)
    if measured is not None:
        return measured if not holds else None  # ``len(rows)`` false: its length is 0
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        return _compared(index, test.left, test.ops[0], test.comparators[0], name, holds)
    return None


def _compared(index: FileIndex, left: ast.expr, op: ast.cmpop, right: ast.expr, name: str, holds: bool) -> ast.Name | None:
    """``len(rows) == 0``, ``rows == []`` and their mirrors: the read proved empty."""
    for measured_side, other, flipped in ((left, right, False), (right, left, True)):
        measured = _measured(index, measured_side, name)
        if measured is not None and _is_zero(other):
            empty_when = {ast.Eq: True, ast.NotEq: False}.get(type(op))
            if empty_when is None and type(op) is (ast.Lt if flipped else ast.Gt):
                empty_when = False  # ``len(rows) > 0`` / ``0 < len(rows)`` fails: 0
            if empty_when is not None and empty_when is holds:
                return measured
        if isinstance(measured_side, ast.Name) and measured_side.id == name and _is_empty_display(other):
            empty_when = {ast.Eq: True, ast.NotEq: False}.get(type(op))
            if empty_when is not None and empty_when is holds:
                return measured_side
    return None


def _measured(index: FileIndex, node: ast.expr, name: str) -> ast.Name | None:
    """The read ``rows`` of ``len(rows)``, when ``len`` is the builtin; else None."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "len"
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == name
    ):
        return None
    scope = index.scope_of(node.func)
    if index.star_import or scope is None or index.lookup("len", scope) is not None:
        return None  # ``len`` bound in the file (or maybe by a star import): not the builtin
    return node.args[0]


def _is_zero(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == 0


def _is_empty_display(node: ast.expr) -> bool:
    return isinstance(node, (ast.List, ast.Tuple)) and not node.elts


def _disturbed(
    index: FileIndex, name: str, home: Scope, owner: Scope, branch: ast.If | ast.IfExp, reads: tuple[ast.Name, ...]
) -> bool:
    """Whether the name bound in ``home`` may change between the test of ``branch`` and
    the use: a binding of it inside the branch, a use there that is not an argument of a
    declaration call, a use that reads it from another function (which may run then)."""
    start, end = _start(branch), _end(branch)
    for binding in home.bindings.get(name, ()):
        where = binding.node
        if hasattr(where, "lineno") and start <= _start(where) < end:  # type: ignore[arg-type]
            return True
    read = index.api_read
    scope_of = index.scope_of_name
    for other in index.reads(name, home):
        if any(other is mine for mine in reads) or id(other) in read:
            continue
        scope = scope_of.get(id(other))
        if scope is None or _owner(scope) is not owner or start <= _start(other) < end:
            return True
    return False


# -- the way down to a node ----------------------------------------------------------------


def _start(node: ast.AST) -> tuple[int, int]:
    return node.lineno, node.col_offset  # type: ignore[attr-defined]


def _end(node: ast.AST) -> tuple[int, int]:
    return node.end_lineno or 0, node.end_col_offset or 0  # type: ignore[attr-defined]


def _path(root: ast.AST, target: ast.expr) -> list[ast.AST] | None:
    """The nodes from ``root`` down to ``target``, by position (statements found by a
    binary search of their list); None when ``target`` is not under ``root``."""
    start, end = _start(target), _end(target)
    path = [root]
    node = root
    while node is not target:
        child = _child_holding(node, target, start, end)
        if child is None:
            return None
        path.append(child)
        node = child
    return path


def _child_holding(node: ast.AST, target: ast.expr, start: tuple[int, int], end: tuple[int, int]) -> ast.AST | None:
    for field in node._fields:
        value = getattr(node, field, None)
        if isinstance(value, list):
            if value and isinstance(value[0], ast.stmt):
                at = bisect_right(value, start, key=_start) - 1
                if at >= 0 and _holds(value[at], target, start, end):
                    return value[at]
                continue
            for item in value:
                if isinstance(item, ast.AST) and _holds(item, target, start, end):
                    return item
        elif isinstance(value, ast.AST) and _holds(value, target, start, end):
            return value
    return None


def _holds(node: ast.AST, target: ast.expr, start: tuple[int, int], end: tuple[int, int]) -> bool:
    if node is target:
        return True
    if not hasattr(node, "lineno"):
        # ``arguments``, ``comprehension``, ``withitem``, ``match_case``: no position of
        # their own; one holds the target when one of its children does.
        return _child_holding(node, target, start, end) is not None
    return _start(node) <= start and end <= _end(node)
