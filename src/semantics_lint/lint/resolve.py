"""Following values: what an expression inside a declaration provably is, or unknown.

Rules never look through a ``Name`` themselves; they ask a :class:`Resolver` (one per
call site: ``call.resolver``). The answer is a :class:`Resolved` — the LibCST node that
holds the value and, when the value was bound somewhere other than the call itself,
where — or ``None``, which means "unknown" and is never a finding (SPEC section 3,
"Never guess").

What resolves:

* a literal (``"2024-05-01"``, ``[]``, ``{"a": 1}``, ``dict(a=1)``, ``None``...)
  resolves to itself, with ``origin`` None;
* a ``Name`` bound exactly once, by a plain assignment (``x = ...`` or ``x: T = ...``)
  written directly in the body of the enclosing function or of the module, before the
  use when both are in the same function, resolves to the assigned expression — with
  no other binding of that name in that scope (a second assignment, in a branch or a
  loop, an augmented assignment, a ``for``/``with``/``except`` target, a parameter, a
  walrus), no ``global``/``nonlocal``/``del`` of that name anywhere in the module, and,
  for a mutable value (a dict, list or set), no use of that spelling anywhere in the
  module other than as an argument of a declaration call
  (``described_result(provenance=prov)``), so that the value cannot have been changed
  in between (``prov["source"] = s``, ``prov.update(...)``, ``helper(prov)`` all make it
  unknown, even in another function);
* a name imported from another module of the project (``from .constants import X``,
  ``from pkg import constants`` + ``constants.X``, ``import pkg.constants as c`` +
  ``c.X``) resolves to the value that module binds, under the same rules there; where it
  is bound is asked of astroid (``resolve_astroid``), which reads source and never
  imports it;
* a name bound to another name follows that one too (``ALIAS = EXPORT_DATE``), a few
  steps at most.

The value a name resolves to is whatever expression it is bound to: a literal, a dict
whose values are names again (resolve them in turn, the resolver accepts nodes of a
resolved value), or a call such as ``datetime(2024, 5, 1)`` or ``datetime.now()``.
Judge only the node kinds a rule understands and treat every other one as unknown.

A followed value lives in another place of the file, or in another file, so its nodes
have no position in the call: a finding about it is reported at the use in the call
(the expression the rule asked about), and its message names where the value was bound
— :meth:`Resolved.describe` gives ``EXPORT_DATE = '2024-05-01' (pkg/constants.py:3)``.

Two doors, one answer. ``resolve(libcst_node)`` for LibCST nodes of the call (or of a
value returned before); ``resolve_ast(ast_node)`` for the ``ast`` nodes the declaration
model is read from. For ``ast`` rules, :meth:`Resolver.value_ast` turns a followed value
into an ``ast`` tree whose names ``resolve_ast`` keeps following (a dict bound to a name
whose values are names again), and :meth:`Resolver.anchor_of` tells, for any node of
that tree, the use in the call to report at and the resolution to name;
:meth:`Resolver.qualified_name` says what a callee inside such a value stands for by the
imports of the module it is written in (``datetime.datetime``). An ``ast`` node
parsed from other text (``ast.parse(code_for_node(...))``) has no place in any file and
is always unknown: parse followed values with ``value_ast`` instead.

A part given as a name (``provenance=prov``, ``grain=GRAIN``) is read the same way: ask
``resolve_ast(field.value_ast)``, take ``value_ast(resolved, anchor=field.value_ast)``,
and read that dict as the part; findings about its keys and values go at the anchor,
with ``resolved.describe()`` in the message, and carry no fix (the edit would be at the
binding, possibly in another file).

Cost: nothing here runs for literals. A name is first checked against the ``ast`` tree
the engine already has (is it assigned or imported anywhere in the module at all?).
Then the scopes are read, in one of two ways that give the same answers:

* from ``ast`` (:meth:`ModuleAnalysis.fast_value`), for where declarations almost
  always are: a call in a function written at module level (or a method of a class
  written there), or at module level; there a name is local when the function binds it
  and the module's otherwise, which a walk of the function's and the module's
  statements decides;
* from LibCST's scope metadata, over the whole module parsed once per file, for
  everything else: closures, class bodies, calls in a lambda or a comprehension,
  several imports of one package. It costs about a hundred ``ast.parse`` of the file,
  which is why it is the fallback (``tests/test_resolve.py`` checks that both ways
  agree, on our cases and on modules of the standard library).

astroid is imported only for imported names (see ``resolve_astroid``).
"""

from __future__ import annotations

import ast
import os
from bisect import bisect_left
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from semantics_lint import vocabulary
from semantics_lint.lint.context import contains, lines_spelling, statements, walk_lines

if TYPE_CHECKING:
    import libcst as cst
    from libcst.metadata import Access, BaseAssignment, CodeRange, Scope
else:

    class _LibCST:
        """``libcst``, imported the first time one of its names is read.

        Values read from ``ast`` need no LibCST node unless a rule asks for one
        (:attr:`Resolved.node`), so a run whose names are all followed that way never
        pays for importing LibCST. After the first use the module global ``cst`` is
        LibCST itself.
        """

        def __getattr__(self, name: str) -> Any:
            import libcst

            globals()["cst"] = libcst
            return getattr(libcst, name)

    cst = _LibCST()

    from semantics_lint.lint.context import CallSite, FileContext
    from semantics_lint.lint.resolve_astroid import ImportRequest

_LITERAL_NAMES = frozenset({"True", "False", "None"})

MAX_STEPS = 8
"""Names followed for one value (``A = B``, ``B = C``, imports) before giving up."""
MAX_MODULE_BYTES = 2_000_000
"""An imported module larger than this is not read: its names are unknown."""
_MAX_CACHED_MODULES = 256


class Resolved:
    """A provable value: ``node`` holds it; ``origin`` says where it was bound.

    ``origin`` is None when ``node`` is the expression itself (a literal written in
    the call); otherwise where the value was bound: ``"line 12"`` in the same file,
    ``"pkg/constants.py:3"`` in another module of the project. ``name`` is the name
    followed, as written at the use (``EXPORT_DATE``, ``constants.EXPORT_DATE``), and
    ``code`` a one-line excerpt of the bound expression. The finding itself is still
    reported at the use in the call.

    A value read from ``ast`` gets its LibCST ``node`` on first access (parsed from its
    own source); rules that judge ``ast`` (:meth:`Resolver.value_ast`) never pay for it.
    """

    __slots__ = ("_held", "code", "name", "origin")

    def __init__(
        self,
        node: cst.BaseExpression | _Detached,
        origin: str | None,
        name: str | None = None,
        code: str | None = None,
    ) -> None:
        self._held = node
        self.origin = origin
        self.name = name
        self.code = code

    @property
    def node(self) -> cst.BaseExpression:
        """The value as a LibCST node (parsed now if it was read from ``ast``)."""
        held = self._held
        return held.node() if isinstance(held, _Detached) else held

    @property
    def detached(self) -> _Detached | None:
        """The value's ``ast`` reading, when it was read that way."""
        held = self._held
        return held if isinstance(held, _Detached) else None

    def __repr__(self) -> str:
        return f"Resolved({self._held!r}, {self.origin!r}, {self.name!r}, {self.code!r})"

    def describe(self) -> str:
        """``EXPORT_DATE = '2024-05-01' (pkg/constants.py:3)``; empty for a literal."""
        if self.origin is None:
            return ""
        if self.name is None or self.code is None:
            return f"bound at {self.origin}"
        return f"{self.name} = {self.code} ({self.origin})"


def is_literal(expr: cst.BaseExpression) -> bool:
    """True when ``expr`` is written out in full in the source: no names, no calls.

    ``True``/``False``/``None``, numbers (with a sign), strings (f-strings only when
    every replacement field is itself literal) and containers of literals. ``list()``,
    ``tuple()`` and ``dict(...)`` with literal arguments count too: the declaration
    API treats ``dict(...)`` as a literal part.
    """
    if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)):
        return True
    if isinstance(expr, cst.Name):
        return expr.value in _LITERAL_NAMES
    if isinstance(expr, cst.ConcatenatedString):
        return is_literal(expr.left) and is_literal(expr.right)
    if isinstance(expr, cst.FormattedString):
        return all(
            not isinstance(part, cst.FormattedStringExpression) or is_literal(part.expression)
            for part in expr.parts
        )
    if isinstance(expr, cst.UnaryOperation):
        return isinstance(expr.operator, (cst.Minus, cst.Plus)) and isinstance(
            expr.expression, (cst.Integer, cst.Float, cst.Imaginary)
        )
    if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
        return all(
            isinstance(el, cst.Element) and is_literal(el.value) for el in expr.elements
        )
    if isinstance(expr, cst.Dict):
        return all(
            isinstance(el, cst.DictElement) and is_literal(el.key) and is_literal(el.value)
            for el in expr.elements
        )
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name):
        if expr.func.value in ("list", "tuple") and not expr.args:
            return True
        if expr.func.value == "dict":
            return all(arg.keyword is not None and is_literal(arg.value) for arg in expr.args)
    return False


def dotted_name(expr: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a chain of attributes on a name, else None."""
    parts: list[str] = []
    while isinstance(expr, cst.Attribute):  # a loop: chains can be thousands deep
        parts.append(expr.attr.value)
        expr = expr.value
    if not isinstance(expr, cst.Name):
        return None
    parts.append(expr.value)
    return ".".join(reversed(parts))


class Resolver:
    """Answers "what is this expression's value?" for the expressions of one call."""

    def __init__(self, call: CallSite) -> None:
        self.call = call
        self._nested: frozenset[int] | None = None

    def resolve(self, expr: cst.BaseExpression) -> Resolved | None:
        """The provable value of ``expr``, or None when it cannot be proved.

        ``expr`` is a node of the call, or a node inside a value this resolver returned
        earlier. A literal resolves to itself (``origin`` None); a name or ``module.attr``
        to the expression it is provably bound to (see the module docstring); anything
        else (a call, an operation, a comprehension) is unknown.
        """
        if is_literal(expr):
            return Resolved(expr, None)
        if not isinstance(expr, (cst.Name, cst.Attribute)):
            return None
        name = dotted_name(expr)
        if name is None:
            return None
        state = _file_state(self.call.context)
        try:
            use = state.locate(expr, self.call)
            if use is None:
                return None
            value = use.analysis.follow(use, _Walk(state))
        except RecursionError:
            return None
        if value is None:
            return None
        return Resolved(value.held, value.origin, name, value.code)


    def resolve_ast(self, expr: ast.expr) -> Resolved | None:
        """:meth:`resolve` for an ``ast`` expression (the declaration model's).

        ``expr`` is a node of the call's ``ast`` tree, or of a tree :meth:`value_ast`
        returned for a followed value; any other ``ast`` node (one parsed by a rule
        from some text, say) has no known place in a file and is unknown. A name is
        located by its position, so nothing is parsed with LibCST for it; any other
        expression of the call is parsed on its own first.
        """
        state = _file_state(self.call.context)
        piece = state.pieces.get(id(expr))
        if piece is None and not contains(self.call.node, expr):
            return None
        if not isinstance(expr, (ast.Name, ast.Attribute)):
            if piece is not None:
                return None  # judge a followed value's own nodes as written
            node = self._parse_piece(expr)
            return self.resolve(node) if node is not None else None
        name = _ast_dotted(expr)
        if name is None:
            return None
        scope: ast.AST | None | _Fallback
        if piece is not None:
            analysis = piece.analysis
            line, column = piece.place(expr)
            scope = FALLBACK if id(expr) in piece.nested else piece.scope
        else:
            analysis = state.main
            if name.split(".")[0] not in analysis.followable:
                return None  # not assigned or imported anywhere: no need to parse
            line = expr.lineno
            column = self.call.context.char_column(line, expr.col_offset)
            scope = self._scope_of_use(expr, analysis)
        try:
            value: _Value | None | _Fallback = FALLBACK
            if not isinstance(scope, _Fallback):
                value = analysis.fast_value(scope, name, (line, column), _Walk(state))
            if isinstance(value, _Fallback):
                use = analysis.use_at(line, column, name)
                value = use.analysis.follow(use, _Walk(state)) if use is not None else None
        except RecursionError:
            return None
        if value is None:
            return None
        return Resolved(value.held, value.origin, name, value.code)

    def value_ast(self, resolved: Resolved, anchor: ast.expr | None = None) -> ast.expr | None:
        """A followed value as an ``ast`` expression whose names this resolver follows.

        For rules that judge ``ast``: the value's own source is parsed, and every name
        in it stays tied to where it is written, so ``resolve_ast`` on a name inside
        (``PROV = {"measuredAt": EXPORT_DATE}``) follows it from there. Its nodes have
        no position in the call: a finding about any of them belongs at ``anchor``, the
        use in the call that was followed (pass it, and :meth:`anchor_of` answers for
        every node of the tree). None for a literal written in the call (judge the
        call's own node) or a value that does not parse.
        """
        if resolved.origin is None:
            return None
        state = _file_state(self.call.context)
        if anchor is not None:
            outer = state.pieces.get(id(anchor))
            if outer is not None and outer.anchor is not None:
                anchor = outer.anchor  # a value inside a value: the use in the call
        detached = resolved.detached
        for analysis in state.touched:
            if detached is not None:
                if analysis.holds(detached):
                    return state.parse_value(analysis, detached.where, detached.scope, anchor, resolved)
            elif analysis.owns(resolved.node):
                where = analysis.range_of(resolved.node)
                if where is None:
                    return None
                return state.parse_value(analysis, where, FALLBACK, anchor, resolved)
        return None

    def anchor_of(self, node: ast.AST) -> tuple[ast.expr, Resolved] | None:
        """For a node of a :meth:`value_ast` tree: the use in the call, and what it was.

        Where a finding about ``node`` is reported (the anchor), and the resolution
        whose :meth:`Resolved.describe` the message should carry. None for the call's
        own nodes, and for a tree made without an anchor.
        """
        piece = _file_state(self.call.context).pieces.get(id(node))
        if piece is None or piece.anchor is None or piece.resolved is None:
            return None
        return piece.anchor, piece.resolved

    def qualified_name(self, expr: ast.expr) -> str | None:
        """What a name inside a followed value stands for, by the imports of its module.

        For a node of a :meth:`value_ast` tree: ``datetime.datetime`` for the callee of
        ``EXPORT_STAMP = datetime(2024, 5, 1)`` in a module that did ``from datetime
        import datetime``, ``datetime.datetime.now`` for ``datetime.now``; so a rule can
        tell a date constructor or a clock call in a value bound in another module,
        whose imports the call's file does not show. None when the name is not bound by
        exactly one import in that module (a local, a parameter, a builtin, a relative
        import), and for nodes that are not of a followed value.
        """
        piece = _file_state(self.call.context).pieces.get(id(expr))
        dotted = _ast_dotted(expr)
        if piece is None or dotted is None:
            return None
        base: ast.expr = expr
        while isinstance(base, ast.Attribute):
            base = base.value
        line, column = piece.place(base)
        if id(expr) not in piece.nested and not isinstance(piece.scope, _Fallback):
            fast = piece.analysis.fast_qualified(piece.scope, dotted)
            if not isinstance(fast, _Fallback):
                return fast
        try:
            return piece.analysis.qualified_name(line, column, dotted)
        except RecursionError:
            return None

    def _scope_of_use(self, expr: ast.expr, analysis: ModuleAnalysis) -> ast.AST | None | _Fallback:
        """The def (or None: the module) a name of the call is looked up in, when plain."""
        function = self.call.function
        if isinstance(function, ast.Lambda) or id(expr) in self._nested_ids():
            return FALLBACK  # a lambda's or a comprehension's own names
        line = self.call.node.lineno
        if any(first <= line <= last for first, last in analysis.class_ranges(function)):
            return FALLBACK  # a class body or a comprehension sees its own names first
        return function

    def _nested_ids(self) -> frozenset[int]:
        if self._nested is None:
            node = self.call.node
            lines = self.call.context.lines[node.lineno - 1 : node.end_lineno or node.lineno]
            if all(line.isascii() and "lambda" not in line and "for" not in line for line in lines):
                # A lambda or a comprehension spells its keyword within the call's
                # lines: without one, nothing of the call is in a nested scope.
                self._nested = frozenset()
            else:
                self._nested = _ids_in_nested_scopes(node)
        return self._nested

    def _parse_piece(self, expr: ast.expr) -> cst.BaseExpression | None:
        from semantics_lint.lint.context import CallParseError

        parse_piece = getattr(self.call, "cst_of", None)
        try:
            if parse_piece is not None:
                return parse_piece(expr)  # type: ignore[no-any-return]
            start, end = self.call.context.ast_range(expr)
            lines = self.call.context.lines
            if start.line == end.line:
                text = lines[start.line - 1][start.column : end.column]
            else:
                text = "\n".join(
                    [lines[start.line - 1][start.column :]]
                    + lines[start.line : end.line - 1]
                    + [lines[end.line - 1][: end.column]]
                )
            return cst.parse_expression(f"({text})" if "\n" in text else text)
        except (CallParseError, cst.ParserSyntaxError, RecursionError):
            return None  # LibCST cannot read this piece: unknown, never a finding


def _ids_in_nested_scopes(root: ast.AST) -> frozenset[int]:
    """ids of the nodes under a lambda or a comprehension inside ``root``."""
    inside: set[int] = set()
    for node in ast.walk(root):
        if isinstance(node, (ast.Lambda, *_COMPREHENSIONS)):
            inside.update(id(inner) for inner in ast.walk(node))
    return frozenset(inside)


def _ast_dotted(expr: ast.expr) -> str | None:
    """``a.b.c`` for a chain of attributes on a name (``ast``), else None."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):  # a loop: chains can be thousands deep
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    parts.append(expr.id)
    return ".".join(reversed(parts))


# -- per file --------------------------------------------------------------------------


class _FileState:
    """What the resolver knows about one linted file: its analysis and the modules read."""

    def __init__(self, context: FileContext) -> None:
        # Keeps nothing of ``context`` itself: the state is a weak-keyed cache entry.
        path = context.filename
        real = os.path.abspath(path) if path and os.path.isfile(path) else None
        self.main = ModuleAnalysis(
            context.text, real, display=None, tree=context.tree, settings_names=_api_names(context)
        )
        self.touched: list[ModuleAnalysis] = [self.main]
        self.pieces: dict[int, _Piece] = {}
        # Distinct questions about other modules, bounded per file (a question asked
        # again, by another rule, costs nothing and is answered alike).
        self.asked: set[tuple[str, str, int, tuple[str, ...]]] = set()
        self._trees: list[ast.AST] = []  # keeps the ids in ``pieces`` alive and unique

    def parse_value(
        self,
        analysis: ModuleAnalysis,
        where: _Range,
        scope: ast.AST | None | _Fallback,
        anchor: ast.expr | None,
        resolved: Resolved,
    ) -> ast.expr | None:
        """The ``ast`` of a value bound in ``analysis`` at ``where`` (written in ``scope``:
        a def, the module (None), or FALLBACK: unknown), its names registered as pieces."""
        (start_line, start_column), (end_line, end_column) = where
        lines = analysis.lines
        first = lines[start_line - 1]
        if start_line == end_line:
            text = first[start_column:end_column]
        else:
            middle = lines[start_line : end_line - 1]
            text = "\n".join([first[start_column:], *middle, lines[end_line - 1][:end_column]])
        try:
            tree = ast.parse(f"({text})", mode="eval")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        head = "(" + first[start_column:]
        piece = _Piece(
            analysis,
            start_line,
            start_column,
            head,
            anchor,
            resolved,
            scope,
            _ids_in_nested_scopes(tree),
        )
        for inner in ast.walk(tree):
            if isinstance(inner, ast.expr):
                self.pieces[id(inner)] = piece
        self._trees.append(tree)
        return tree.body

    def locate(self, expr: cst.BaseExpression, call: CallSite) -> _Use | None:
        """The access (and attributes read after it) that ``expr`` stands for."""
        for analysis in self.touched:
            if analysis.owns(expr):
                return analysis.use_of(expr)
        base = expr
        while isinstance(base, cst.Attribute):
            base = base.value
        if not isinstance(base, cst.Name) or base.value not in self.main.followable:
            # Not assigned or imported anywhere in the module: a parameter, a loop
            # variable, a builtin, an undefined name. No need to parse the module.
            return None
        try:
            start, _ = call.range_of(expr)
        except KeyError:
            return None  # a node of neither the call nor a followed value
        return self.main.use_at(start.line, start.column, dotted_name(expr))

    def module(self, path: str) -> ModuleAnalysis | None:
        analysis = _module_analysis(path, self.main.api_names)
        if analysis is not None and analysis not in self.touched:
            self.touched.append(analysis)
        return analysis


_STATES: WeakKeyDictionary[FileContext, _FileState] = WeakKeyDictionary()


def is_followed(context: FileContext, node: ast.AST) -> bool:
    """True for a node of a tree :meth:`Resolver.value_ast` made for ``context``'s file
    (a value followed before), False for any other node."""
    state = _STATES.get(context)
    return state is not None and id(node) in state.pieces


def _file_state(context: FileContext) -> _FileState:
    state = _STATES.get(context)
    if state is None:
        state = _FileState(context)
        _STATES[context] = state
    return state


def _api_names(context: FileContext) -> frozenset[str]:
    return frozenset((*context.settings.call_names, *vocabulary.API_FUNCTIONS))


@dataclass
class _Walk:
    """One resolution: the steps taken so far (bounded, and cycle-free)."""

    state: _FileState
    steps: int = 0
    seen: set[tuple[int, object]] = field(default_factory=set)

    def step(self, analysis: ModuleAnalysis, what: object) -> bool:
        key = (id(analysis), what)
        if key in self.seen or self.steps >= MAX_STEPS:
            return False
        self.seen.add(key)
        self.steps += 1
        return True


@dataclass(frozen=True, slots=True)
class _Piece:
    """Where an ``ast`` tree parsed from a followed value sits in its module's text.

    The tree was parsed from ``(`` + the value's text, so its line 1 is ``head`` and
    starts one character before ``column``; its other lines are the module's own.
    """

    analysis: ModuleAnalysis
    line: int
    column: int
    head: str
    anchor: ast.expr | None
    resolved: Resolved
    scope: ast.AST | None | _Fallback
    """Where the value is written (a def, or None: the module); FALLBACK: unknown."""
    nested: frozenset[int]
    """Nodes of the tree inside a lambda or a comprehension: their own scopes."""

    def place(self, node: ast.expr) -> tuple[int, int]:
        """The (line, character column) of ``node`` in the module."""
        if node.lineno == 1:
            chars = _char_column(self.head, node.col_offset)
            return self.line, self.column + chars - 1
        line = self.line + node.lineno - 1
        return line, _char_column(self.analysis.lines[line - 1], node.col_offset)


def _char_column(text: str, byte_column: int) -> int:
    if text.isascii():
        return byte_column
    return len(text.encode("utf-8")[:byte_column].decode("utf-8", errors="ignore"))


@dataclass(frozen=True, slots=True)
class _Use:
    """A use of a name in a module: its scope access, and the attributes read after it."""

    analysis: ModuleAnalysis
    access: Access
    rest: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Value:
    """A value followed to: its LibCST node, or its ``ast`` reading (``_Detached``)."""

    held: cst.BaseExpression | _Detached
    origin: str
    code: str

    @property
    def node(self) -> cst.BaseExpression:
        held = self.held
        return held.node() if isinstance(held, _Detached) else held

    def mutable(self) -> bool:
        """A dict, list or set (literal, comprehension or call): it may change in place."""
        held = self.held
        return _mutable_ast(held.value) if isinstance(held, _Detached) else _mutable(held)


class _Detached:
    """A value read from ``ast``: where it is written, and its LibCST node on demand.

    ``value`` is the ``ast`` expression in its module's tree, ``where`` its range
    ((line, column), (line, column), columns in characters), ``text`` its source and
    ``scope`` the def it is written in (None: the module). The LibCST node is parsed
    from ``text`` alone, once, the first time :meth:`node` is called, and entered in
    ``registry`` (its module's, so that the module owns it). Holds no reference to the
    module's analysis: the analysis keeps these in a cache, and a cycle would outlive
    the file.
    """

    __slots__ = ("_node", "registry", "scope", "text", "value", "where")

    def __init__(
        self,
        value: ast.expr,
        text: str,
        where: _Range,
        scope: ast.AST | None,
        registry: dict[int, tuple[cst.BaseExpression, _Range, ast.AST | None]],
    ) -> None:
        self.value = value
        self.text = text
        self.where = where
        self.scope = scope
        self.registry = registry
        self._node: cst.BaseExpression | None = None

    def node(self) -> cst.BaseExpression:
        """The LibCST node of the value (raises what LibCST raises when it cannot
        parse it; :func:`_libcst_reads` keeps those values from being deferred)."""
        if self._node is None:
            node = _parse_detached(self.text)
            self.registry[id(node)] = (node, self.where, self.scope)
            self._node = node
        return self._node

    def __repr__(self) -> str:
        return f"_Detached({self.text!r})"


def _parse_detached(text: str) -> cst.BaseExpression:
    """``text``, an expression's source, parsed with LibCST on its own."""
    node = cst.parse_expression(f"({text})")
    if node.lpar and node.rpar:
        # Drop the pair added above, and only that one: ``()`` keeps its own.
        node = node.with_changes(lpar=node.lpar[1:], rpar=node.rpar[:-1])
    return node


class _Fallback:
    """The ``ast`` reading cannot decide this case: ask LibCST's scope metadata."""


FALLBACK = _Fallback()

_FunctionDef = (ast.FunctionDef, ast.AsyncFunctionDef)
_Range = tuple[tuple[int, int], tuple[int, int]]
_Block = tuple[dict[str, list[ast.AST]], list[tuple[int, int]]]
"""A scope's bindings by name, and the line ranges of the class bodies and
comprehensions in it."""
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


# -- one module ------------------------------------------------------------------------


class ModuleAnalysis:
    """One whole module: cheap facts from ``ast`` now, LibCST scope metadata on demand.

    ``path`` is the file's absolute path when it is a real file (imports are followed
    only from real files); ``display`` is how findings name it (None for the linted
    file itself, whose bindings are named ``line N``).
    """

    def __init__(
        self,
        text: str,
        path: str | None,
        display: str | None,
        tree: ast.Module,
        settings_names: frozenset[str],
    ) -> None:
        self.text = text
        self.path = path
        self.display = display
        self.api_names = settings_names
        facts = _AstFacts(tree)
        self.followable = facts.followable
        self.unstable = facts.unstable
        self.star_import = facts.star_import
        self._built = False
        self._broken = False
        self._module: cst.Module | None = None
        self._scopes: Mapping[cst.CSTNode, Scope | None] = {}
        self._positions: Mapping[cst.CSTNode, CodeRange] = {}
        self._tree = tree
        self._uses: dict[str, list[ast.expr]] | None = None
        self._ast_parents: dict[int, ast.AST] = {}
        self._accesses: dict[tuple[int, int], list[Access]] = {}
        self._lines: list[str] | None = None
        # The ast reading of scopes (see ``fast_value``), built on first use.
        self._blocks: dict[int, _Block] = {}
        self._plain_functions: set[int] | None = None
        self._for_lines: list[int] | None | bool = False  # False: not computed yet
        # Values read without LibCST: node -> (range, scope where written).
        self._detached: dict[int, tuple[cst.BaseExpression, _Range, ast.AST | None]] = {}
        self._detached_values: dict[int, _Detached] = {}

    # LibCST, once, and only when a name is followed in this module.
    def _build(self) -> bool:
        if self._built:
            return not self._broken
        self._built = True
        from libcst.metadata import MetadataWrapper, PositionProvider, ScopeProvider

        try:
            module = cst.parse_module(self.text)
            wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
            resolved = wrapper.resolve_many([ScopeProvider, PositionProvider])
        except (cst.ParserSyntaxError, RecursionError, MemoryError):
            self._broken = True
            return False
        self._module = module
        self._scopes = resolved[ScopeProvider]  # type: ignore[assignment]
        self._positions = resolved[PositionProvider]  # type: ignore[assignment]
        for scope in {scope for scope in self._scopes.values() if scope is not None}:
            for access in scope.accesses:
                start = self._positions[access.node].start
                self._accesses.setdefault((start.line, start.column), []).append(access)
        return True

    def owns(self, node: cst.CSTNode) -> bool:
        return id(node) in self._detached or (self._built and node in self._positions)

    @property
    def lines(self) -> list[str]:
        """The module's lines as CPython numbers them."""
        if self._lines is None:
            from semantics_lint.lint.context import split_lines

            self._lines = split_lines(self.text)
        return self._lines

    def range_of(self, node: cst.CSTNode) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """((line, column), (line, column)) of a node of this module, columns in characters."""
        detached = self._detached.get(id(node))
        if detached is not None and detached[0] is node:
            return detached[1]
        where = self._positions.get(node) if self._built else None
        if where is None:
            return None
        return (where.start.line, where.start.column), (where.end.line, where.end.column)

    def use_at(self, line: int, column: int, dotted: str | None) -> _Use | None:
        """The use written ``dotted`` (``x``, ``constants.X``) starting at (line, column)."""
        if dotted is None or not self._build():
            return None
        return self._use(self._accesses.get((line, column), ()), dotted)

    def use_of(self, node: cst.BaseExpression) -> _Use | None:
        """The use that a Name or ``x.attr`` node of this module is."""
        start = self._positions[node].start
        return self.use_at(start.line, start.column, dotted_name(node))

    def _use(self, accesses: Iterable[Access], dotted: str) -> _Use | None:
        # At one position there may be the name (``constants``) and a dotted import
        # (``pkg.constants``); the longest one the use starts with is the binding used.
        best: Access | None = None
        best_name = ""
        for access in accesses:
            name = dotted_name(access.node)  # type: ignore[arg-type]
            if name is None or not (dotted == name or dotted.startswith(name + ".")):
                continue
            if len(name) > len(best_name):
                best, best_name = access, name
        if best is None:
            return None
        rest = tuple(dotted[len(best_name) + 1 :].split(".")) if dotted != best_name else ()
        return _Use(self, best, rest)

    def qualified_name(self, line: int, column: int, dotted: str) -> str | None:
        """The imported name a use spelled ``dotted`` at (line, column) stands for."""
        from libcst.metadata import ImportAssignment

        use = self.use_at(line, column, dotted)
        if use is None:
            return None
        referents = list(use.access.referents)
        if len(referents) != 1 or not isinstance(referents[0], ImportAssignment):
            return None
        assignment = referents[0]
        if len(list(assignment.scope.assignments[assignment.name])) != 1:
            return None
        if assignment.name.split(".")[0] in self.unstable:
            return None
        from libcst.metadata import GlobalScope

        if isinstance(assignment.scope, GlobalScope) and self.star_import:
            return None  # a star import may rebind any module-level name
        node = assignment.node
        module: str | None = None
        if isinstance(node, cst.ImportFrom) and not node.relative and node.module is not None:
            if isinstance(node.names, cst.ImportStar):
                return None
            source = dotted_name(node.module)
            for alias in node.names:
                imported = dotted_name(alias.name)
                if (alias.evaluated_alias or imported) == assignment.name and source:
                    module = f"{source}.{imported}"
        elif isinstance(node, cst.Import):
            for alias in node.names:
                imported = dotted_name(alias.name)
                if (alias.evaluated_alias or imported) == assignment.name:
                    module = imported
        if module is None:
            return None
        return ".".join((module, *use.rest))

    # -- scopes read from ast: the common cases, without LibCST ----------------------

    def fast_value(
        self, scope: ast.AST | None, dotted: str, position: tuple[int, int], walk: _Walk
    ) -> _Value | None | _Fallback:
        """The value of a use spelled ``dotted`` at ``position`` in ``scope``, from ``ast``.

        ``scope`` is the ``def`` of this module the use is written in, or None at module
        level. Python's rules are simple where declarations live: a name bound anywhere
        in a function is local to it, any other name is the module's. So a local bound
        once at the top of a plain function (one written at module level, or a method
        of a class written there), a module constant, and an import of the module are
        read here at the cost of an ``ast`` walk, under the same conditions as LibCST's
        reading. Everything else (a closure, a class body, several imports of one
        package, an import inside a block) is FALLBACK: LibCST's scope metadata answers.
        """
        name, _, tail = dotted.partition(".")
        rest = tuple(tail.split(".")) if tail else ()
        if not walk.step(self, ("fast", dotted, position)):
            return None
        if name in self.unstable:
            return None
        if scope is not None:
            if id(scope) not in self._plain():
                return FALLBACK
            assert isinstance(scope, _FunctionDef)
            local = self._bindings_in(scope).get(name)
            if local:
                if len(local) != 1:
                    return None
                binding = local[0]
                if isinstance(binding, (ast.Import, ast.ImportFrom)):
                    # An import inside the function, before the use.
                    if self._start(binding) >= position:
                        return None
                    return self._fast_import(binding, name, rest, dotted, walk)
                if rest:
                    return None
                statement = _assignment_of(scope.body, binding)
                if statement is None or self._start(statement) >= position:
                    return None
                return self._fast_result(statement, name, scope, walk)
        return self._fast_module(name, rest, dotted, position if scope is None else None, walk)

    def _fast_module(
        self,
        name: str,
        rest: tuple[str, ...],
        dotted: str,
        before: tuple[int, int] | None,
        walk: _Walk,
    ) -> _Value | None | _Fallback:
        if self.star_import or name in self.unstable:
            return None
        bindings = self._module_scope().get(name, [])
        if not bindings:
            return None  # a builtin, or not bound at all
        if len(bindings) != 1:
            # ``import pkg.a`` and ``import pkg.b`` bind ``pkg`` twice, yet each dotted
            # use is provable: LibCST tells them apart.
            return FALLBACK if all(isinstance(b, ast.Import) for b in bindings) else None
        binding = bindings[0]
        if isinstance(binding, (ast.Import, ast.ImportFrom)):
            if not any(statement is binding for statement in self._tree.body):
                return FALLBACK
            if before is not None and self._start(binding) >= before:
                return None
            return self._fast_import(binding, name, rest, dotted, walk)
        if rest:
            return None  # an attribute of a variable: not followed
        statement = _assignment_of(self._tree.body, binding)
        if statement is None:
            return None
        if before is not None and self._start(statement) >= before:
            return None
        return self._fast_result(statement, name, None, walk)

    def _fast_import(
        self,
        binding: ast.Import | ast.ImportFrom,
        name: str,
        rest: tuple[str, ...],
        dotted: str,
        walk: _Walk,
    ) -> _Value | None | _Fallback:
        from semantics_lint.lint.resolve_astroid import ImportRequest

        if self.path is None:
            return None
        request: ImportRequest | None = None
        if isinstance(binding, ast.ImportFrom):
            for alias in binding.names:
                if (alias.asname or alias.name) == name:
                    request = ImportRequest(
                        self.path, binding.module or "", binding.level, (alias.name, *rest)
                    )
        else:
            for alias in binding.names:
                if alias.asname is not None:
                    if alias.asname == name and rest:
                        request = ImportRequest(self.path, alias.name, 0, rest)
                elif dotted.startswith(alias.name + "."):
                    # ``import pkg.constants`` then ``pkg.constants.X``
                    names = tuple(dotted[len(alias.name) + 1 :].split("."))
                    request = ImportRequest(self.path, alias.name, 0, names)
        if request is None:
            return None
        value = self._follow_request(request, walk)
        if value is not None and value.mutable() and not self._only_read_spelled(dotted):
            return None
        return value

    def _fast_result(
        self, statement: ast.Assign | ast.AnnAssign, name: str, scope: ast.AST | None, walk: _Walk
    ) -> _Value | None | _Fallback:
        value = statement.value
        assert value is not None
        if isinstance(value, (ast.Name, ast.Attribute)):
            inner_name = _ast_dotted(value)
            if inner_name is None:
                return None
            inner = self.fast_value(scope, inner_name, self._start(value), walk)
            if inner is None or isinstance(inner, _Fallback):
                return inner
            if inner.mutable() and not self._only_read_spelled(name):
                return None  # the alias itself may be changed in place
            return _Value(inner.held, inner.origin, f"{inner_name} = {inner.code}")
        detached = self._detach(value, scope)
        if detached is None:
            return None
        if _mutable_ast(value) and not self._only_read_spelled(name):
            return None
        return _Value(detached, self._origin_line(statement.lineno), _shorten(detached.text))

    def fast_qualified(self, scope: ast.AST | None, dotted: str) -> str | None | _Fallback:
        """What a name written in ``scope`` stands for when an import binds it."""
        name = dotted.partition(".")[0]
        if name in self.unstable:
            return None
        bindings: list[ast.AST] | None = None
        if scope is not None:
            if id(scope) not in self._plain():
                return FALLBACK
            assert isinstance(scope, _FunctionDef)
            bindings = self._bindings_in(scope).get(name)  # a local import counts too
        if not bindings:
            if self.star_import:
                return None  # a star import may rebind any module-level name
            bindings = self._module_scope().get(name, [])
        if len(bindings) != 1:
            return FALLBACK if len(bindings) > 1 else None
        binding = bindings[0]
        rest = dotted.split(".")[1:]
        if isinstance(binding, ast.ImportFrom) and binding.level == 0 and binding.module:
            for alias in binding.names:
                if (alias.asname or alias.name) == name:
                    return ".".join((binding.module, alias.name, *rest))
        elif isinstance(binding, ast.Import):
            for alias in binding.names:
                if alias.asname == name:
                    return ".".join((alias.name, *rest))
                if alias.asname is None and (
                    dotted == alias.name or dotted.startswith(alias.name + ".")
                ):
                    return dotted  # ``import pkg.mod`` then ``pkg.mod.f``
        return None

    def _plain(self) -> set[int]:
        """Functions whose names resolve straight to the module: no enclosing def."""
        if self._plain_functions is None:
            plain: set[int] = set()
            for statement in self._tree.body:
                if isinstance(statement, _FunctionDef):
                    plain.add(id(statement))
                elif isinstance(statement, ast.ClassDef):
                    # A method skips its class body when it looks a name up.
                    plain.update(id(s) for s in statement.body if isinstance(s, _FunctionDef))
            self._plain_functions = plain
        return self._plain_functions

    def _module_scope(self) -> dict[str, list[ast.AST]]:
        return self._block(None)[0]

    def _bindings_in(
        self, function: ast.FunctionDef | ast.AsyncFunctionDef
    ) -> dict[str, list[ast.AST]]:
        return self._block(function)[0]

    def class_ranges(self, scope: ast.AST | None) -> list[tuple[int, int]]:
        """Line ranges of the class bodies and comprehensions written in a def or the
        module (not in a nested def): a call there sees their names first."""
        return self._block(scope)[1]

    def _block(self, scope: ast.AST | None) -> _Block:
        """The bindings of a def (with its parameters) or of the module, read once."""
        key = id(scope) if scope is not None else 0
        known = self._blocks.get(key)
        if known is None:
            if isinstance(scope, _FunctionDef):
                known = _bindings_of_block(scope.body, self._comprehension_lines())
                arguments = scope.args
                for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                            arguments.vararg, arguments.kwarg):
                    if arg is not None:
                        known[0].setdefault(arg.arg, []).append(arg)
            else:
                known = _bindings_of_block(self._tree.body, self._comprehension_lines())
            self._blocks[key] = known
        return known

    def _comprehension_lines(self) -> list[int] | None:
        """The lines an expression binding a name or holding a comprehension can span:
        those spelling ``for`` (sorted); None when any line may (a walrus in the text,
        or a text that cannot answer). See :func:`_bindings_of_block`."""
        if self._for_lines is False:
            self._for_lines = None if ":=" in self.text else lines_spelling(self.text, ("for",))
        return self._for_lines

    def _start(self, node: ast.AST) -> tuple[int, int]:
        line = node.lineno  # type: ignore[attr-defined]
        column = node.col_offset  # type: ignore[attr-defined]
        return line, _char_column(self.lines[line - 1], column)

    def _text_of(self, node: ast.expr) -> str:
        start_line, start_column = self._start(node)
        end_line = node.end_lineno or node.lineno
        end_column = _char_column(self.lines[end_line - 1], node.end_col_offset or 0)
        if start_line == end_line:
            return self.lines[start_line - 1][start_column:end_column]
        return "\n".join(
            [self.lines[start_line - 1][start_column:]]
            + self.lines[start_line : end_line - 1]
            + [self.lines[end_line - 1][:end_column]]
        )

    def _detach(self, value: ast.expr, scope: ast.AST | None) -> _Detached | None:
        """A value read from ``ast``, whose LibCST node (its own source, parsed alone) is
        made when someone asks; None when LibCST cannot parse it (unknown, as ever).

        Once per value: a constant many calls use is read one time. A value of a kind
        LibCST always reads (:func:`_libcst_reads`) is not parsed now; any other is
        parsed at once, so that a value LibCST refuses stays unknown.
        """
        known = self._detached_values.get(id(value))
        if known is not None:
            return known
        text = self._text_of(value)
        start = self._start(value)
        end_line = value.end_lineno or value.lineno
        end = (end_line, _char_column(self.lines[end_line - 1], value.end_col_offset or 0))
        detached = _Detached(value, text, (start, end), scope, self._detached)
        if not _libcst_reads(value, text):
            try:
                detached.node()
            except (cst.ParserSyntaxError, cst.CSTValidationError, RecursionError, MemoryError):
                return None
        self._detached_values[id(value)] = detached  # ``value`` lives as long as the tree
        return detached

    def holds(self, detached: _Detached) -> bool:
        """True for a value this module's ``ast`` reading returned."""
        return self._detached_values.get(id(detached.value)) is detached

    def _origin_line(self, line: int) -> str:
        return f"line {line}" if self.display is None else f"{self.display}:{line}"

    # -- following -----------------------------------------------------------------

    def follow(self, use: _Use, walk: _Walk) -> _Value | None:
        """The value a use of a name provably holds."""
        if not walk.step(self, id(use.access.node)):
            return None
        referents = list(use.access.referents)
        if len(referents) != 1:
            return None
        return self._follow_assignment(referents[0], use.access, use.rest, walk)

    def follow_module_name(self, name: str, walk: _Walk) -> _Value | None:
        """The value a module-level ``name`` of this module provably holds."""
        fast = self._fast_module(name, (), name, None, walk)
        if not isinstance(fast, _Fallback):
            return fast
        if not self._build() or self._module is None or not walk.step(self, name):
            return None
        scope = self._scopes.get(self._module)
        if scope is None:
            return None
        assignments = list(scope.assignments[name])
        if len(assignments) != 1:
            return None
        return self._follow_assignment(assignments[0], None, (), walk)

    def _follow_assignment(
        self,
        assignment: BaseAssignment,
        access: Access | None,
        rest: tuple[str, ...],
        walk: _Walk,
    ) -> _Value | None:
        from libcst.metadata import (
            Assignment,
            FunctionScope,
            GlobalScope,
            ImportAssignment,
        )

        name = assignment.name
        scope = assignment.scope
        if name.split(".")[0] in self.unstable:
            return None
        if len(list(scope.assignments[name])) != 1:
            return None
        if isinstance(scope, GlobalScope) and self.star_import:
            return None  # a star import may rebind any module-level name
        if isinstance(assignment, ImportAssignment):
            value = self._follow_import(assignment, rest, walk)
            if value is not None and value.mutable() and not self._only_read(assignment, rest):
                return None
            return value
        if not isinstance(assignment, Assignment) or not isinstance(assignment.node, cst.Name):
            return None  # a def, a class, a parameter
        if rest:
            return None  # an attribute of a variable: not followed
        if not isinstance(scope, (GlobalScope, FunctionScope)):
            return None  # class bodies and comprehensions
        if isinstance(scope, FunctionScope) and not isinstance(scope.node, cst.FunctionDef):
            return None  # a lambda binds only its parameters
        value_node = self._top_level_value(scope, assignment.node)
        if value_node is None:
            return None
        if access is not None and not self._bound_before(assignment.node, access, scope):
            return None
        if _mutable(value_node) and not self._only_read(assignment):
            return None
        if isinstance(value_node, (cst.Name, cst.Attribute)) and not is_literal(value_node):
            # ``ALIAS = EXPORT_DATE``: follow on; the origin is where the value is.
            use = self.use_of(value_node)
            inner = self.follow(use, walk) if use is not None else None
            if inner is None:
                return None
            return _Value(inner.held, inner.origin, f"{dotted_name(value_node)} = {inner.code}")
        return _Value(value_node, self._origin(assignment.node), self._excerpt(value_node))

    def _follow_import(
        self, assignment: BaseAssignment, rest: tuple[str, ...], walk: _Walk
    ) -> _Value | None:

        if self.path is None:
            return None
        request = _import_request(self.path, assignment, rest)
        if request is None:
            return None
        return self._follow_request(request, walk)

    def _follow_request(self, request: object, walk: _Walk) -> _Value | None:
        from semantics_lint.lint import resolve_astroid

        assert isinstance(request, resolve_astroid.ImportRequest)
        question = (request.importer, request.module, request.level, request.names)
        asked = walk.state.asked
        if question not in asked:
            if len(asked) >= resolve_astroid.MAX_LOOKUPS:
                return None
            asked.add(question)
        binding = resolve_astroid.find_binding(request)
        if binding is None:
            return None
        target = walk.state.module(binding.path)
        if target is None:
            return None
        if target.display is None:
            target.display = binding.display
        return target.follow_module_name(binding.name, walk)

    # -- checks ----------------------------------------------------------------------

    def _top_level_value(self, scope: Scope, target: cst.Name) -> cst.BaseExpression | None:
        """The value of ``target = value`` written directly in the scope's body, else None."""
        from libcst.metadata import GlobalScope

        if isinstance(scope, GlobalScope):
            assert self._module is not None
            body: Iterable[cst.CSTNode] = self._module.body
        else:
            function = scope.node
            assert isinstance(function, cst.FunctionDef)
            block = function.body
            body = block.body if isinstance(block, cst.IndentedBlock) else (block,)
        for statement in body:
            if not isinstance(statement, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
                continue
            for small in statement.body:
                if isinstance(small, cst.Assign) and len(small.targets) == 1:
                    if small.targets[0].target is target:
                        return small.value
                elif isinstance(small, cst.AnnAssign) and small.target is target:
                    return small.value
        return None

    def _bound_before(self, target: cst.Name, access: Access, scope: Scope) -> bool:
        """In the binding's own function (or a comprehension run there), bound first."""
        from libcst.metadata import ComprehensionScope

        where = access.scope
        while isinstance(where, ComprehensionScope):
            where = where.parent
        if where is not scope:
            return True  # used in a nested function or lambda: runs later
        bound = self._positions[target].start
        used = self._positions[access.node].start
        return (bound.line, bound.column) < (used.line, used.column)

    def _only_read(self, assignment: BaseAssignment, rest: tuple[str, ...] = ()) -> bool:
        """Every use of a mutable value's name is an argument of a declaration call.

        Read from the ``ast`` tree, by spelling: every ``name`` (or ``name.rest`` for a
        module bound by an import: ``constants.GRAIN``; ``constants.OTHER`` says
        nothing about GRAIN) anywhere in the module counts, whichever scope it is in.
        That is stricter than the binding's own uses, never looser, and it spares a
        second LibCST pass for parents.
        """
        return self._only_read_spelled(".".join((assignment.name, *rest)))

    def _only_read_spelled(self, spelled: str) -> bool:
        for use in self._uses_spelled(spelled):
            if not self._read_by_api(use):
                return False
        return True

    def _uses_spelled(self, spelled: str) -> list[ast.expr]:
        """Loads and deletes of the name or dotted name ``spelled``, their parents
        recorded. Only the lines that spell its first name are walked (a use spells
        it, and a node's parents span its lines); the uses are those a walk of the
        whole tree finds.
        """
        if self._uses is None:
            self._uses = {}
        cached = self._uses.get(spelled)
        if cached is not None:
            return cached
        lines = lines_spelling(self.text, (spelled.split(".", 1)[0],))
        nodes = ast.walk(self._tree) if lines is None else walk_lines(self._tree, lines)
        uses: list[ast.expr] = []
        parents = self._ast_parents
        for node in nodes:
            for child in ast.iter_child_nodes(node):
                parents[id(child)] = node
            # A Name stored to is a binding (the scope counts those); anything else
            # spelled so is a use, ``constants.GRAIN = ...`` included.
            is_use = isinstance(node, ast.Attribute) or (
                isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store)
            )
            if is_use and _ast_dotted(node) == spelled:
                uses.append(node)
        self._uses[spelled] = uses
        return uses

    def _read_by_api(self, node: ast.expr) -> bool:
        parents = self._ast_parents
        current: ast.AST = node
        parent = parents.get(id(current))
        # Inside containers that are themselves written in the call's arguments.
        while isinstance(parent, (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.Starred)):
            if isinstance(parent, ast.Dict) and any(key is current for key in parent.keys):
                return False
            if not isinstance(getattr(parent, "ctx", ast.Load()), ast.Load):
                return False
            current = parent
            parent = parents.get(id(current))
        if isinstance(parent, ast.keyword):
            if parent.value is not current:
                return False
            call = parents.get(id(parent))
        elif isinstance(parent, ast.Call) and any(arg is current for arg in parent.args):
            call = parent
        else:
            return False
        if not isinstance(call, ast.Call):
            return False
        func = call.func
        called = func.attr if isinstance(func, ast.Attribute) else (
            func.id if isinstance(func, ast.Name) else None
        )
        return called in self.api_names

    def _origin(self, node: cst.CSTNode) -> str:
        line = self._positions[node].start.line
        return f"line {line}" if self.display is None else f"{self.display}:{line}"

    def _excerpt(self, node: cst.CSTNode) -> str:
        assert self._module is not None
        text = " ".join(self._module.code_for_node(node).split())
        return text if len(text) <= 60 else text[:57] + "..."


def _assignment_of(body: list[ast.stmt], target: ast.AST) -> ast.Assign | ast.AnnAssign | None:
    """The statement of ``body`` (not nested) that is ``target = value``, if any."""
    for statement in body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            if statement.targets[0] is target:
                return statement
        elif isinstance(statement, ast.AnnAssign) and statement.target is target:
            return statement if statement.value is not None else None
    return None


def _bindings_of_block(
    body: list[ast.stmt], lines: list[int] | None = None
) -> tuple[dict[str, list[ast.AST]], list[tuple[int, int]]]:
    """Every node binding a name in one scope's body, by name; and the line ranges of
    the class bodies and comprehensions in it (scopes that see their own names first).

    Nested functions, lambdas, classes and comprehensions are scopes of their own:
    their names are not this scope's, except the ``def``/``class`` name itself, what
    their decorators, defaults and bases bind, and a walrus in a comprehension, which
    binds in the enclosing scope (PEP 572). ``global``/``nonlocal`` count as bindings.

    The order of the nodes under one name is unspecified. ``lines``, when given, are
    the only lines (sorted) on which an expression that is not an assignment target
    can bind a name or hold a comprehension: those spelling ``for``, in a text with
    no walrus (a name is bound in an expression only by a walrus, a target, or a
    comprehension's own ``for``). An expression written directly in a statement, off
    those lines and not a target, is then not entered; the answer is that of the
    walk of every node (None).
    """
    found: dict[str, list[ast.AST]] = {}
    classes: list[tuple[int, int]] = []
    stack: list[ast.AST] = list(reversed(body))

    def add(name: str, node: ast.AST) -> None:
        found.setdefault(name, []).append(node)

    def enter(expressions: Iterable[ast.expr]) -> None:
        """Push the expressions of a statement that may bind or hold a comprehension."""
        if lines is None:
            stack.extend(expressions)
            return
        for expression in expressions:
            index = bisect_left(lines, expression.lineno)
            if index < len(lines) and lines[index] <= (expression.end_lineno or expression.lineno):
                stack.append(expression)

    while stack:
        node = stack.pop()
        if isinstance(node, _FunctionDef):
            add(node.name, node)
            arguments = node.args
            enter(node.decorator_list)
            enter(arguments.defaults)
            enter(d for d in arguments.kw_defaults if d is not None)
            continue
        if isinstance(node, ast.ClassDef):
            add(node.name, node)
            classes.append((node.lineno, node.end_lineno or node.lineno))
            enter(node.decorator_list)
            enter(node.bases)
            enter(keyword.value for keyword in node.keywords)
            continue
        if isinstance(node, ast.Lambda):
            stack.extend(node.args.defaults)
            stack.extend(d for d in node.args.kw_defaults if d is not None)
            continue
        if isinstance(node, _COMPREHENSIONS):
            # A call written in a comprehension looks names up there first.
            classes.append((node.lineno, node.end_lineno or node.lineno))
            for inner in ast.walk(node):
                if isinstance(inner, ast.NamedExpr) and isinstance(inner.target, ast.Name):
                    add(inner.target.id, inner)
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            add(node.id, node)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                add(alias.asname or alias.name.split(".")[0], node)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                add(name, node)
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            add(node.name, node)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            add(node.rest, node)
        if lines is not None and isinstance(node, _STATEMENT_LEVEL):
            for name, value in ast.iter_fields(node):
                children = value if isinstance(value, list) else (value,)
                if name in _TARGET_FIELDS:
                    stack.extend(child for child in children if isinstance(child, ast.AST))
                    continue
                for child in children:
                    if isinstance(child, ast.expr):
                        enter((child,))
                    elif isinstance(child, ast.AST):
                        stack.append(child)
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return found, classes


# Nodes never found inside an expression: an expression child of one is written
# directly in a statement (its positions can be trusted, unlike those inside f-strings).
_STATEMENT_LEVEL = (ast.stmt, ast.excepthandler, ast.withitem, ast.match_case)
# Fields whose expressions are assignment targets (``type X = ...`` names one in
# ``name``): the names stored there are bindings, whatever the line says.
_TARGET_FIELDS = frozenset({"target", "targets", "optional_vars", "name"})


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def _mutable(node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.Dict, cst.List, cst.Set, cst.DictComp, cst.ListComp, cst.SetComp)):
        return True
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value in ("dict", "list", "set")
    )


def _mutable_ast(node: ast.expr) -> bool:
    """:func:`_mutable` for the ``ast`` reading of the same source."""
    if isinstance(node, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("dict", "list", "set")
    )


# The node types of values whose source LibCST's parser always reads (they are in its
# grammar whatever their spelling, at any depth CPython's parser accepts): a value made
# of these alone need not be parsed with LibCST to know it would be. f-strings are not
# among them: their grammar changed with CPython 3.12, and LibCST may lag behind.
_LIBCST_READS: frozenset[type[ast.AST]] = frozenset(
    {
        ast.Constant, ast.Name, ast.Attribute, ast.Load, ast.Dict, ast.List, ast.Tuple,
        ast.Set, ast.Call, ast.keyword, ast.Starred, ast.Subscript, ast.Slice,
        ast.UnaryOp, ast.UAdd, ast.USub, ast.Not, ast.Invert,
        ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
        ast.BoolOp, ast.And, ast.Or,
    }
)


def _libcst_reads(value: ast.expr, text: str) -> bool:
    """True when LibCST surely parses ``text``, the source of ``value``: ASCII with no
    backslash or form feed, and every node of ``value`` of a type in
    :data:`_LIBCST_READS`. False says nothing: parse to know."""
    if not text.isascii() or "\\" in text or "\f" in text:
        return False
    return all(type(node) in _LIBCST_READS for node in ast.walk(value))


def _import_request(
    importer: str, assignment: BaseAssignment, rest: tuple[str, ...]
) -> ImportRequest | None:
    """The question for astroid: which module, how many dots, which names."""
    from semantics_lint.lint.resolve_astroid import ImportRequest

    node = getattr(assignment, "node", None)
    bound = assignment.name
    if isinstance(node, cst.ImportFrom):
        if isinstance(node.names, cst.ImportStar):
            return None
        module = dotted_name(node.module) if node.module is not None else ""
        if module is None:
            return None
        for alias in node.names:
            imported = dotted_name(alias.name)
            local = alias.evaluated_alias or imported
            if local == bound and imported is not None:
                return ImportRequest(importer, module, len(node.relative), (imported, *rest))
        return None
    if isinstance(node, cst.Import):
        for alias in node.names:
            imported = dotted_name(alias.name)
            if imported is None:
                continue
            if alias.asname is not None:
                if alias.evaluated_alias == bound and rest:
                    return ImportRequest(importer, imported, 0, rest)
            elif imported == bound and rest:
                # ``import pkg.constants`` then ``pkg.constants.X``: the access is the
                # dotted module itself, what follows are its names.
                return ImportRequest(importer, imported, 0, rest)
        return None
    return None


class _AstFacts:
    """What ``ast`` tells cheaply about a module's names, before any LibCST parse."""

    def __init__(self, tree: ast.Module) -> None:
        followable: set[str] = set()
        unstable: set[str] = set()
        star = False
        # Every node looked at is a statement: no expression needs entering.
        for node in statements(tree.body):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        followable.add(target.id)
            elif isinstance(node, ast.AnnAssign):
                if isinstance(node.target, ast.Name) and node.value is not None:
                    followable.add(node.target.id)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    followable.add(alias.asname or alias.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name == "*":
                        star = True
                    else:
                        followable.add(alias.asname or alias.name)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                unstable.update(node.names)
            elif isinstance(node, ast.Delete):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        unstable.add(target.id)
        self.followable = frozenset(followable)
        self.unstable = frozenset(unstable)
        self.star_import = star


# -- imported modules, cached for the run ----------------------------------------------

_MODULES: dict[tuple[str, frozenset[str]], tuple[tuple[int, int], ModuleAnalysis | None]] = {}


def _module_analysis(path: str, api_names: frozenset[str]) -> ModuleAnalysis | None:
    """The analysis of an imported project module, read from disk once per version and
    per set of declaration names (which decide whether a dict there is only read)."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    signature = (status.st_mtime_ns, status.st_size)
    key = (path, api_names)
    cached = _MODULES.get(key)
    if cached is not None and cached[0] == signature:
        return cached[1]
    if len(_MODULES) >= _MAX_CACHED_MODULES:
        _MODULES.clear()
    analysis = _read_module(path, status.st_size, api_names)
    _MODULES[key] = (signature, analysis)
    return analysis


def _read_module(path: str, size: int, api_names: frozenset[str]) -> ModuleAnalysis | None:
    from semantics_lint.lint.engine import decode_source

    if size > MAX_MODULE_BYTES:
        return None
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    text = decode_source(data)
    if not isinstance(text, str):
        return None
    try:
        tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return ModuleAnalysis(text, path, display=None, tree=tree, settings_names=api_names)


def clear_caches() -> None:
    """Forget every imported module read so far (between runs, and in tests)."""
    from semantics_lint.lint import resolve_astroid

    _MODULES.clear()
    resolve_astroid.clear()
