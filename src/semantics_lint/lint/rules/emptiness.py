"""When a data list is provably empty where the mint gets it, and why: the model behind
SEM105 (``sem1xx_data.EmptyDataLiteral``, whose documentation says, once, which shapes
prove it and which prove nothing), which SEM604 asks too before it reports a variable.

:func:`empty_data` gives every way a data field is empty: a value the source proves
empty when it is made (``values.provably_empty``: an empty literal, a comprehension
over one, a walrus binding one), written in the call or followed through the
resolver, an empty arm of a conditional expression, or a name :func:`proved_false`
proves false where it is read. ``proved_false`` walks from the use out to its
function, asking each ``if``, conditional expression, guard and ``match`` around it
(:class:`_Way`); each answers with a :class:`Said`: it says nothing of the name (look
further out), it tests the name but the name may change after the test (nothing is
proved), or it proves it, with the words a message uses.
"""

from __future__ import annotations

import ast
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Final, NamedTuple

from semantics_lint.lint.core.flow import block_of, end, guards, path_to, start
from semantics_lint.lint.core.index import COMPREHENSION, MODULE, WALRUS, Binding, FileIndex, Scope
from semantics_lint.lint.rules.values import is_empty_sequence, provably_empty, shown

if TYPE_CHECKING:
    from semantics_lint.lint.calls.context import CallSite

__all__ = ["Empty", "Said", "Verdict", "empty_data", "proved_false"]


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
    while isinstance(value, ast.NamedExpr):
        value = value.value  # ``facts=(rows := [])``: the list bound is the one given
    named = isinstance(value, (ast.Name, ast.Attribute, ast.Subscript))
    if not named and provably_empty(call, value):
        return [Empty(value, "", "")]
    arms = _empty_arms(value)
    if arms:
        return [Empty(arm, when, "") for arm, when in arms]
    if not named:
        return []
    resolved = call.resolver.value_of(value)
    if resolved is not None:
        if provably_empty(call, resolved.value):
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


class Verdict(Enum):
    """What one ``if``, guard or ``case`` around a use says of the name it reads."""

    SILENT = "silent"
    """It tests nothing about the name: look further out."""
    SPOILED = "spoiled"
    """It tests the name, but the name may change before the use: nothing is proved."""
    PROVED = "proved"
    """It proves the name empty or false at the use."""


@dataclass(frozen=True, slots=True)
class Said:
    """A :class:`Verdict`, with the words a message uses when it is ``PROVED``."""

    verdict: Verdict
    words: str = ""


_SILENT: Final = Said(Verdict.SILENT)
_SPOILED: Final = Said(Verdict.SPOILED)


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
    found = index.lookup(name, scope)
    if found is None:
        return None
    home, bindings = found
    if not _read_again(index, name, owner) and not any(binding.kind == WALRUS for binding in bindings):
        return None  # no other read, no walrus: nothing can test the name
    if (home.kind == MODULE and index.star_import) or not index.stable(name, home):
        return None
    path = path_to(owner.node, use)
    if path is None:
        return None
    way = _Way(index, name, home, owner, use)
    if way.foreign or way.shared():
        return None  # read by another function, or reachable otherwise: it may change
    for depth in range(len(path) - 2, -1, -1):
        # The way down stays in ``owner``'s code: a function, lambda or class body
        # written in a branch is a scope of its own, whose reads the way never reaches.
        node, child = path[depth], path[depth + 1]
        if isinstance(node, ast.GeneratorExp) and child is not node.generators[0]:
            return None  # a generator runs when it is iterated, maybe after a change
        said = way.guarded(node, child)
        if said.verdict is Verdict.SILENT:
            if isinstance(node, (ast.If, ast.IfExp)) and child is not node.test:
                said = way.branch(node, child)
            elif isinstance(node, ast.match_case) and child is not node.pattern:
                said = way.case(path[depth - 1], node)  # type: ignore[arg-type]
        if said.verdict is not Verdict.SILENT:
            return said.words if said.verdict is Verdict.PROVED else None
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
        for binding in home.bindings.get(name, ()):
            # ``if not (rows := ...):`` tests the name where the walrus binds it.
            bound = binding.node
            if (
                binding.kind == WALRUS
                and _owner(scope_of.get(id(bound), home)) is owner
                and start(bound) < at_use
            ):
                before.append(start(bound))
        before.sort()
        self.before = before
        """Where the name is read in ``owner``'s code before ``use``, other than by a
        declaration call."""

    def branch(self, node: ast.If | ast.IfExp, child: ast.AST) -> Said:
        """The branch of ``node`` that holds ``child``: what its test proves (spoiled
        when the name may change in the branch; silent when the test proves nothing)."""
        taken_when_true = (
            child is node.body if isinstance(node, ast.IfExp) else any(child is s for s in node.body)
        )
        proved = self._proved(node.test, taken_when_true)
        if proved is None:
            return _SILENT
        if self._disturbed(start(node), end(node), (), proved):
            return _SPOILED
        test = node.test
        truth = "true" if taken_when_true else "false"
        return Said(
            Verdict.PROVED,
            f"in this branch (line {test.lineno} tests `{shown(test)}`, {truth} here)",
        )

    def guarded(self, node: ast.AST, child: ast.AST) -> Said:
        """A guard before ``child`` in its statement list: the last statement before it
        that reads the name is an ``if`` that always leaves when the name is true. What
        it proves; spoiled when that statement proves nothing (or the name may change
        after it); silent when no statement before ``child`` there reads the name."""
        found = block_of(node, child)
        if found is None:
            return _SILENT
        block, _ = found
        before = self.before
        at = bisect_left(before, start(child)) - 1
        if at < 0 or before[at] < start(block[0]):
            return _SILENT
        statement = block[bisect_right(block, before[at], key=start) - 1]
        if type(statement) is not ast.If:
            return _SPOILED
        for guard in guards(statement):
            proved = self._proved(guard.test, guard.holds)
            if proved is None:
                continue
            if self._disturbed(start(guard.test), end(child), guard.off_the_way, proved):
                return _SPOILED
            test = guard.test
            word = "false" if guard.holds else "true"
            return Said(Verdict.PROVED, f"here (line {test.lineno} leaves when `{shown(test)}` is {word})")
        return _SPOILED

    def case(self, match: ast.Match, case: ast.match_case) -> Said:
        """A ``case`` of ``match`` on the name whose pattern matches only an empty
        sequence (``case []:``, ``case () | []:``, with or without a guard)."""
        subject = match.subject
        if not (isinstance(subject, ast.Name) and subject.id == self.name and _empty_pattern(case.pattern)):
            return _SILENT
        if not self.index.resolves_to(subject, self.home):
            return _SILENT
        earlier: list[tuple[tuple[int, int], tuple[int, int]]] = []
        for other in match.cases:
            if other is case:
                break
            earlier.append((start(other.body[0]), end(other.body[-1])))  # not run on the way
        if self._disturbed(start(subject), end(case.body[-1]), tuple(earlier), subject):
            return _SPOILED
        line = case.pattern.lineno
        return Said(
            Verdict.PROVED,
            f"in this case (line {line} matches `{self.name}` only when it is an empty sequence)",
        )

    def shared(self) -> bool:
        """Whether the list may be reached through another name, so that a change
        through it never shows as a use of this one: the name read anywhere other than
        to be tested, measured, iterated, indexed or given to a declaration call (an
        alias ``alias = rows``, a call it is handed to, a method called on it, a
        container or attribute it is stored in), or bound to a value read through
        another name (``rows = cache.rows``, ``rows = other``) whose name is read
        anywhere in this code other than in a declaration call."""
        index, api, owner = self.index, self.index.api_read, self.owner.node
        for read in index.reads(self.name, self.home):
            if read is self.use or id(read) in api or _only_looked_at(index, read):
                continue
            if not _leaves_the_function(index, read, owner, self.use):
                return True
        for binding in self.home.bindings.get(self.name, ()):
            value = binding.value if binding.value is not None else _bound_value(binding)
            root = _root_name(value) if value is not None else None
            if root is not None and _read_elsewhere(index, root, value, self.owner):  # type: ignore[arg-type]
                return True
        return False

    def _proved(self, test: ast.expr, holds: bool) -> ast.Name | None:
        proved = _falsy_under(self.index, test, self.name, holds)
        return proved if proved is not None and self.index.resolves_to(proved, self.home) else None

    def _disturbed(
        self,
        begins: tuple[int, int],
        ends: tuple[int, int],
        skipped: tuple[tuple[tuple[int, int], tuple[int, int]], ...],
        proved: ast.Name,
    ) -> bool:
        """Whether the name may change from ``begins`` to ``ends`` (the stretches
        ``skipped`` never run on the way): a binding of it there, a use of it there
        other than ``proved``, ``use`` or an argument of a declaration call."""

        def on_the_way(at: tuple[int, int]) -> bool:
            return begins <= at < ends and not any(low <= at < high for low, high in skipped)

        for binding in self.home.bindings.get(self.name, ()):
            where = binding.node
            if where is not proved and hasattr(where, "lineno") and on_the_way(start(where)):
                return True
        api = self.index.api_read
        for other in self.index.reads(self.name, self.home):
            if other is proved or other is self.use or id(other) in api:
                continue
            if on_the_way(start(other)):
                return True
        return False


def _only_looked_at(index: FileIndex, read: ast.expr) -> bool:
    """A read that changes nothing and lets nothing else reach the value: the test of
    an ``if``, a conditional expression, a ``while`` or an ``assert`` (through ``not``
    and ``and``/``or``), a comparison, ``len(...)``, a ``for`` or comprehension's
    iterable, an element read (``rows[0]``), an f-string's field, a ``match`` subject."""
    path = path_to(index.tree, read) or [read]
    at = len(path) - 1
    while at > 0 and (
        isinstance(path[at - 1], ast.BoolOp)
        or (isinstance(path[at - 1], ast.UnaryOp) and isinstance(path[at - 1].op, ast.Not))  # type: ignore[attr-defined]
    ):
        at -= 1
    node, parent = path[at], path[at - 1] if at > 0 else None
    if isinstance(parent, (ast.If, ast.IfExp, ast.While, ast.Assert)):
        return parent.test is node
    if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)):
        return parent.iter is node
    if isinstance(parent, ast.Subscript):
        return parent.value is node and isinstance(parent.ctx, ast.Load)
    if isinstance(parent, ast.Call):
        func = parent.func
        return (
            isinstance(func, ast.Name) and func.id == "len" and len(parent.args) == 1 and not parent.keywords
        )
    return isinstance(parent, (ast.Compare, ast.FormattedValue, ast.Match)) and node is read


def _leaves_the_function(index: FileIndex, read: ast.expr, owner: ast.AST, use: ast.expr) -> bool:
    """Whether, once ``read`` has run, the function always returns or raises by the end
    of the statement list it is in, and ``use`` is not in what runs from there
    (``raise ValueError(rows)``, ``log(rows); return None``): nothing it handed the value
    to is read again on the way to the use. Never inside a ``try`` or a ``with`` (a
    handler, a ``finally`` or a context manager runs on)."""
    path = path_to(owner, read)
    at = len(path) - 1 if path is not None else 0
    while path is not None and at > 0 and not isinstance(path[at], ast.stmt):
        at -= 1
    if path is None or at < 1:
        return False
    statement, parent = path[at], path[at - 1]
    if any(isinstance(node, (ast.Try, ast.TryStar, ast.With, ast.AsyncWith)) for node in path[1:at]):
        return False  # a handler, a ``finally`` or a context manager runs on
    block = next(
        (
            body
            for body in (getattr(parent, field, None) for field in ("body", "orelse", "finalbody"))
            if isinstance(body, list) and any(item is statement for item in body)
        ),
        None,
    )
    rest = block[next(i for i, item in enumerate(block) if item is statement) :] if block is not None else []
    return bool(rest) and _exits(rest) and not start(rest[0]) <= start(use) < end(rest[-1])


def _exits(block: list[ast.stmt]) -> bool:
    """Whether running ``block`` always returns or raises (a ``continue`` or ``break``
    stays in the function; a ``try`` or a loop never counts)."""
    for statement in block:
        if isinstance(statement, (ast.Return, ast.Raise)):
            return True
        if (
            isinstance(statement, ast.If)
            and statement.orelse
            and _exits(statement.body)
            and _exits(statement.orelse)
        ):
            return True
    return False


def _bound_value(binding: Binding) -> ast.expr | None:
    """The value a plain assignment written anywhere binds (``rows = cache.rows`` in a
    loop or a branch too); None for any other binding."""
    statement = binding.statement
    if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and binding.node is not None:
        return statement.value
    return None


def _root_name(value: ast.expr) -> str | None:
    """``cache`` for ``cache.rows``, ``cache.rows[0]``, ``other``: the name a value read
    through another object is reached by; None for a value made there (a call, a
    literal)."""
    node = value
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    if node is value and not isinstance(node, ast.Name):
        return None
    return node.id if isinstance(node, ast.Name) else None


def _read_elsewhere(index: FileIndex, root: str, value: ast.expr, owner: Scope) -> bool:
    """Whether ``root`` is read in ``owner``'s code other than in ``value`` itself and
    other than through a dotted name given to a declaration call
    (``provenance={"measuredAt": export.at}``)."""
    api = index.api_read
    inside = (start(value), end(value))
    for read in _uses_in(index, root, owner):
        if inside[0] <= start(read) < inside[1]:
            continue
        path = path_to(owner.node, read) or [read]
        at = len(path) - 1
        while at > 0 and isinstance(path[at - 1], ast.Attribute):
            at -= 1  # ``export.at``: the whole dotted name is what a declaration reads
        if id(path[at]) not in api:
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


def _uses_in(index: FileIndex, name: str, owner: Scope) -> list[ast.expr]:
    """The uses of ``name`` written in ``owner``'s code (comprehensions included), in walk
    order. Grouped by scope once per name and file, so each question costs the uses it
    answers with, not every use of the name in the file."""
    by_name: dict[str, dict[int, list[ast.expr]]] | None = index.memo(_READS)  # type: ignore[assignment]
    if by_name is None:
        by_name = {}
        index.remember(_READS, by_name)
    groups = by_name.get(name)
    if groups is None:
        groups = by_name[name] = {}
        scope_of = index.scope_of_name
        for read in index.uses.get(name, ()):
            scope = scope_of.get(id(read))
            if scope is not None:
                groups.setdefault(id(_owner(scope)), []).append(read)
    return groups.get(id(owner), [])


def _read_again(index: FileIndex, name: str, owner: Scope) -> bool:
    """Whether ``name`` is read more than once in ``owner``'s code (comprehensions
    included): the use, and a test needs a read of its own."""
    return len(_uses_in(index, name, owner)) > 1


def _falsy_under(index: FileIndex, test: ast.expr, name: str, holds: bool) -> ast.Name | None:
    """The read of ``name`` in ``test`` that is provably empty or false when ``test`` is
    true (``holds``) or false (not ``holds``), or None."""
    if isinstance(test, ast.Name):
        return test if not holds and test.id == name else None
    if isinstance(test, ast.NamedExpr):
        # ``if not (rows := fetch()):``: the value bound is the value tested.
        return test.target if not holds and test.target.id == name else None
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


def _compared(
    index: FileIndex, left: ast.expr, op: ast.cmpop, right: ast.expr, name: str, holds: bool
) -> ast.Name | None:
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
