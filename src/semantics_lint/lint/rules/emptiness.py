"""When a data list is provably empty where the mint gets it, and why.

SEM105 reports a data field (``facts``, ``series``, ``edges``) the mint refuses for
being empty; SEM604 leaves such a field to it. What proves it, from the source alone:

* an empty literal (``[]``, ``()``, ``list()``, ``tuple()``), written in the call or
  bound to the name the call gives (the resolver follows it);
* an arm of a conditional expression that is an empty literal (``rows if rows else
  []``, ``[] if not rows else rows``), or an ``or`` whose last operand is one (``rows or
  []``), written in the call or bound to the name: whenever that arm is the value, the
  list is empty. A test that is a constant is left alone (one arm is dead);
* a name read in a branch whose test proves it empty or false (:func:`proved_false`):
  ``if not rows:``, ``if len(rows) == 0:`` (or ``0 == len(rows)``, ``not len(rows)``),
  ``if rows == []:`` (or ``()``), and the ``else`` of ``if rows:``, ``if len(rows):``,
  ``if len(rows) != 0:``, ``if len(rows) > 0:``, ``if rows != []:``; an ``and`` of tests
  proves what any of them proves in its body, an ``or`` in its ``else``; the same tests
  in a conditional expression (``rows if not rows else ...``);
* a name read after a guard, in the same statement list: an ``if`` whose body always
  leaves it (every way through ends in ``return``, ``raise``, ``continue`` or
  ``break``; ``lint.core.flow.leaves``) when a test above says the name is true (``if
  rows: return ...``, ``if len(rows) != 0: raise ...``), or whose ``else`` always
  leaves when the test says it is false; down an ``elif`` chain whose bodies all
  leave, each test;
* a name read in ``case []:`` (or ``case ()``, ``case [] | ()``, with or without a
  guard) of ``match rows:``: only an empty sequence matches it.

The mint refuses every false value of a data field (``None``, an empty list, tuple,
set, dict, string or range, ``0``, ``False``: ``tests/test_emptiness.py`` holds it to
that), so a name that is false there is refused whatever it holds; what the linter
assumes is only that a value's truth and length say what it holds (Python's own
containers do; an object that is false yet yields rows would be misread).

A test proves nothing when the name may change between it and the use: a binding of it
on the way (inside the ``if``; from a guard's test to the end of the statement that
holds the use, a loop that rebinds it after the use included; from a ``match``'s
subject to the end of the case: a reassignment, a walrus, a loop target, a capture),
any use of it there other than as an argument of a declaration call
(``rows.append(r)``, ``fill(rows)``), a use from another function that reads the same
binding and may run meanwhile (a nested function, a function that reads a module's
name), a ``global`` or ``nonlocal`` of it, a use in a function, lambda or generator
expression written after the test (it runs later). Only the branches of a guard that
always leave are off the way (``if rows: log(len(rows)); return ...`` is a guard). A
guard's body that may fall through (an ``if`` without ``else``, a ``try``, a loop, a
``raise`` in a ``with`` body, whose context manager may swallow it) proves nothing;
nor do ``while`` loops, ``is None`` tests, comparisons other than with zero or an
empty literal (``len(rows) < 5``), attributes (``self.rows``), patterns other than
an empty sequence (``case [x]:``, ``case _:``).
"""

from __future__ import annotations

import ast
from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, NamedTuple

from semantics_lint.lint.core.flow import block_of, end, guards, path_to, start
from semantics_lint.lint.core.index import COMPREHENSION, MODULE, FileIndex, Scope
from semantics_lint.lint.rules.values import is_empty_sequence, shown

if TYPE_CHECKING:
    from semantics_lint.lint.calls.context import CallSite

__all__ = ["Empty", "empty_data", "proved_false"]


class Empty(NamedTuple):
    """A data value proved empty: ``at`` is where the finding goes (the value in the
    call, or an empty arm written there); ``when`` says when it is empty (``""``:
    always; ``when `rows` is false``; ``in this branch (line 7 tests `not rows`, true
    here)``; ``here (line 7 leaves when `rows` is true)``; ``in this case (...)``);
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
        said = proved_false(call.context.index, value)
        if said is not None:
            return [Empty(value, said, "")]
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


# -- branches, guards and cases ------------------------------------------------------------


def proved_false(index: FileIndex, use: ast.Name) -> str | None:
    """What proves the name ``use`` reads empty or false there, said for a message (``in
    this branch (line 3 tests `not rows`, true here)``), or None: the innermost ``if``
    (or conditional expression) around ``use`` whose test proves it, an ``if`` before it
    in the same statement list that always leaves when the name is true (a guard), a
    ``case []:`` of ``match`` on the name around it; with nothing between the test and
    ``use`` that may change the name (:class:`_Way`)."""
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
    path = path_to(owner.node, use)
    if path is None:
        return None
    way = _Way(index, name, home, owner, use)
    if way.foreign:
        return None  # read by another function, which may change it meanwhile
    for depth in range(len(path) - 2, -1, -1):
        # The way down stays in ``owner``'s code: a function, lambda or class body
        # written in a branch is a scope of its own, whose reads the way never reaches.
        node, child = path[depth], path[depth + 1]
        if isinstance(node, ast.GeneratorExp) and child is not node.generators[0]:
            return None  # a generator runs when it is iterated, maybe after a change
        said = way.guarded(node, child)
        if said is not None:
            return said or None
        if isinstance(node, (ast.If, ast.IfExp)) and child is not node.test:
            said = way.branch(node, child)
        elif isinstance(node, ast.match_case) and child is not node.pattern:
            said = way.case(path[depth - 1], node)  # type: ignore[arg-type]
        if said is not None:
            return said or None
    return None


class _Way:
    """The reads of one name between where a test proves it false and where it is used
    (``use``), and whether anything on that way may change it: a binding of it there (a
    reassignment, a walrus, a loop target, a capture), any use of it there other than as
    an argument of a declaration call (``rows.append(r)``, ``fill(rows)``), a use from
    another function that reads the same binding (which may run meanwhile)."""

    __slots__ = ("before", "foreign", "home", "index", "name", "owner", "use")

    def __init__(self, index: FileIndex, name: str, home: Scope, owner: Scope, use: ast.Name) -> None:
        self.index, self.name, self.home, self.owner, self.use = index, name, home, owner, use
        self.foreign = False
        before: list[tuple[int, int]] = []
        api, scope_of, at_use = index.api_read, index.scope_of_name, start(use)
        for read in index.reads(name, home):
            if read is use or id(read) in api:
                continue
            scope = scope_of.get(id(read))
            if scope is None or _owner(scope) is not owner:
                self.foreign = True
            elif start(read) < at_use:
                before.append(start(read))
        before.sort()
        self.before = before
        """Where the name is read in ``owner``'s code before ``use``, other than by a
        declaration call."""

    def branch(self, node: ast.If | ast.IfExp, child: ast.AST) -> str | None:
        """The branch of ``node`` that holds ``child``: what its test proves, ``""``
        when it proves it but the name may change in the branch, None when it proves
        nothing."""
        taken_when_true = child is node.body if isinstance(node, ast.IfExp) else any(child is s for s in node.body)
        proved = self._proved(node.test, taken_when_true)
        if proved is None:
            return None
        if self._disturbed(start(node), end(node), (), proved):
            return ""
        test = node.test
        return f"in this branch (line {test.lineno} tests `{shown(test)}`, {'true' if taken_when_true else 'false'} here)"

    def guarded(self, node: ast.AST, child: ast.AST) -> str | None:
        """A guard before ``child`` in its statement list: the last statement before it
        that reads the name is an ``if`` that always leaves when the name is true. What
        it proves; ``""`` when that statement proves nothing (or the name may change
        after it); None when no statement before ``child`` there reads the name."""
        found = block_of(node, child)
        if found is None:
            return None
        block, _ = found
        before = self.before
        at = bisect_left(before, start(child)) - 1
        if at < 0 or before[at] < start(block[0]):
            return None
        statement = block[bisect_right(block, before[at], key=start) - 1]
        if type(statement) is not ast.If:
            return ""
        for guard in guards(statement):  # type: ignore[arg-type]
            proved = self._proved(guard.test, guard.holds)
            if proved is None:
                continue
            if self._disturbed(start(guard.test), end(child), guard.off_the_way, proved):
                return ""
            test = guard.test
            word = "false" if guard.holds else "true"
            return f"here (line {test.lineno} leaves when `{shown(test)}` is {word})"
        return ""

    def case(self, match: ast.Match, case: ast.match_case) -> str | None:
        """A ``case`` of ``match`` on the name whose pattern matches only an empty
        sequence (``case []:``, ``case () | []:``, with or without a guard)."""
        subject = match.subject
        if not (isinstance(subject, ast.Name) and subject.id == self.name and _empty_pattern(case.pattern)):
            return None
        if not self.index.resolves_to(subject, self.home):
            return None
        earlier: list[tuple[tuple[int, int], tuple[int, int]]] = []
        for other in match.cases:
            if other is case:
                break
            earlier.append((start(other.body[0]), end(other.body[-1])))  # not run on the way
        if self._disturbed(start(subject), end(case.body[-1]), tuple(earlier), subject):
            return ""
        return f"in this case (line {case.pattern.lineno} matches `{self.name}` only when it is an empty sequence)"

    def _proved(self, test: ast.expr, holds: bool) -> ast.Name | None:
        proved = _falsy_under(self.index, test, self.name, holds)
        return proved if proved is not None and self.index.resolves_to(proved, self.home) else None

    def _disturbed(
        self, begins: tuple[int, int], ends: tuple[int, int], skipped: tuple[tuple[tuple[int, int], tuple[int, int]], ...],
        proved: ast.Name,
    ) -> bool:
        """Whether the name may change from ``begins`` to ``ends`` (the stretches
        ``skipped`` never run on the way): a binding of it there, a use of it there
        other than ``proved``, ``use`` or an argument of a declaration call."""

        def on_the_way(at: tuple[int, int]) -> bool:
            return begins <= at < ends and not any(low <= at < high for low, high in skipped)

        for binding in self.home.bindings.get(self.name, ()):
            where = binding.node
            if hasattr(where, "lineno") and on_the_way(start(where)):
                return True
        api = self.index.api_read
        for other in self.index.reads(self.name, self.home):
            if other is proved or other is self.use or id(other) in api:
                continue
            if on_the_way(start(other)):
                return True
        return False


def _empty_pattern(pattern: ast.pattern) -> bool:
    """``[]`` or ``()`` (a sequence pattern of nothing), alternatives all such, or one
    captured with ``as``: it matches only an empty sequence."""
    if isinstance(pattern, ast.MatchSequence):
        return not pattern.patterns
    if isinstance(pattern, ast.MatchOr):
        return all(_empty_pattern(alternative) for alternative in pattern.patterns)
    if isinstance(pattern, ast.MatchAs):
        return pattern.pattern is not None and _empty_pattern(pattern.pattern)
    return False


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
