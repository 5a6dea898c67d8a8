"""Following values: what a name in a declaration provably holds, or unknown.

Rules never look through a name themselves; they ask the file's :class:`Resolver`
(``context.resolver``). The answer is a :class:`Resolved` (the expression the name is
bound to, a node of its module's own tree, and where that binding is) or None, which
means "unknown" and is never a finding: the linter never guesses.

What resolves, read from the index (``lint.index``) of the module the name is in:

* a name bound exactly once in the scope Python finds it in (the function, an enclosing
  function, the module; class bodies only for code written directly in them), by a
  plain ``x = ...`` or ``x: T = ...`` written directly in the body of that function or of
  the module, before the use when both are in the same scope (a comprehension runs in
  the scope around it): no second binding of that name there (a second assignment, in a
  branch or a loop, an augmented assignment, a ``del``, a ``for``/``with``/``except``
  target, a parameter, a walrus), no ``global`` of a module-level name anywhere in the
  module, no ``nonlocal`` of a function's name in a function nested in it, no star
  import for a module-level name, and, for a mutable value (a dict, list or set, or a
  tuple holding one), no use of that name that reads this binding (from this scope or
  a function nested in it, wherever Python looks it up to this binding) other than as
  an argument of a declaration call (``described_result(provenance=prov)``), so that the value cannot
  have been changed in between (``prov["source"] = s``, ``prov.update(...)``,
  ``rows.append(r)``, ``helper(prov)`` all make it unknown, in a nested function too).
  Everything is judged in the scope the name is bound in, never by spelling across the
  file: another function's ``rows``, or a nested function's own ``rows``, is another
  name;
* a name imported from another module of the project (``from .constants import X``,
  ``from pkg import constants`` + ``constants.X``, ``import pkg.constants as c`` +
  ``c.X``) resolves to the value that module binds, under the same rules there; where it
  is bound is asked of ``resolve.project`` (read directly for a plain constant, asked
  of astroid otherwise), which reads source and never imports it;
* a name bound to another name follows that one too (``ALIAS = EXPORT_DATE``), a few
  steps at most.

The value is whatever expression the name is bound to: a literal, a dict whose values
are names again (ask about them in turn: the resolver knows which module and scope
each node of a followed value is in), or a call such as ``datetime(2024, 5, 1)``.
Judge only the node kinds a rule understands and treat every other one as unknown. A
followed value lives in another place of the file, or in another file: a finding
about it is reported at the use in the call, and its message names where the value was
bound (:meth:`Resolved.describe`: ``EXPORT_DATE = '2024-05-01' (pkg/constants.py:3)``).
"""

from __future__ import annotations

import ast
import os
import sys

from semantics_lint.lint.core.index import (
    ANNOTATED,
    ASSIGN,
    CLASS_DEF,
    COMPREHENSION,
    FUNCTION,
    IMPORT,
    IMPORT_FROM,
    MODULE,
    PARAMETER,
    Binding,
    FileIndex,
    Scope,
)
from semantics_lint.lint.core.source import Source
from semantics_lint.lint.core.syntax import dotted_name
from semantics_lint.lint.resolve import project, project_modules, shapes
from semantics_lint.lint.resolve.astroid_bridge import ImportRequest, ModuleBinding
from semantics_lint.lint.resolve.module_reading import MAX_MODULE_BYTES, ModuleReading
from semantics_lint.lint.resolve.project import ProjectCache
from semantics_lint.lint.resolve.shapes import may_follow

__all__ = [
    "FOLLOWED",
    "may_follow",
    "MAX_MODULE_BYTES",
    "MAX_STEPS",
    "ModuleReading",
    "ProjectCache",
    "Resolved",
    "Resolver",
]

MAX_STEPS = 12
"""Names followed for one value (``A = B``, ``B = C``, imports, the pieces of an
f-string) before giving up."""

FOLLOWED = (ast.Name, ast.Attribute, ast.Subscript, ast.JoinedStr, ast.NamedExpr)
"""The expressions :meth:`Resolver.value_of` answers for: a name or dotted name, a
subscript, an f-string, a walrus (anything else is its own value)."""


class Resolved:
    """A provable value: ``value`` is the expression a name is bound to, a node of the
    tree of ``reading`` (the linted file or another module of the project); ``origin``
    says where it was bound (``line 12``, ``pkg/constants.py:3``), ``name`` is the name
    followed as written at the use, ``code`` a one-line excerpt of the bound value."""

    __slots__ = ("_aliases", "_code", "name", "origin", "reading", "value")

    def __init__(
        self,
        value: ast.expr,
        origin: str,
        name: str,
        reading: ModuleReading,
        aliases: tuple[str, ...] = (),
        code: str | None = None,
    ) -> None:
        self.value = value
        self.origin = origin
        self.name = name
        self.reading = reading
        self._aliases = aliases
        self._code: str | None = None if code is None else " = ".join((*aliases, code))

    @property
    def code(self) -> str:
        """``'2024-05-01'``, or ``BASE = '2024-05-01'`` through an alias: the bound value
        as written, on one line (made when a message first needs it)."""
        if self._code is None:
            self._code = " = ".join((*self._aliases, self.reading.excerpt(self.value)))
        return self._code

    def __repr__(self) -> str:
        return f"Resolved({self.name} = {self.code} ({self.origin}))"

    def describe(self) -> str:
        """``EXPORT_DATE = '2024-05-01' (pkg/constants.py:3)``."""
        return f"{self.name} = {self.code} ({self.origin})"

    @property
    def same_file(self) -> bool:
        """True when the value is bound in the linted file itself."""
        return self.reading.display is None


class Resolver:
    """Answers "what does this name hold?" for the names of one linted file and of the
    values followed from it. One per file; every answer is kept for the file's lint, so
    rules asking the same question pay once. What is read of other modules is kept in
    ``project``, the run's cache (a cache of the resolver's own when none is given)."""

    def __init__(
        self,
        source: Source,
        tree: ast.Module,
        index: FileIndex,
        filename: str,
        declaration_names: frozenset[str],
        project: ProjectCache | None = None,
    ) -> None:
        path = os.path.abspath(filename) if filename and os.path.isfile(filename) else None
        self.main = ModuleReading(source, tree, index, path, display=None)
        self.declaration_names = declaration_names
        self.readings: list[ModuleReading] = [self.main]
        self._answers: dict[int, Resolved | None] = {}
        # Distinct questions about other modules, bounded per file (a question asked
        # again, by another rule, costs nothing and is answered alike).
        self._asked: dict[ImportRequest, ModuleBinding | None] = {}
        self._modules: dict[str, ModuleReading | None] = {}
        self._snapshot = project_modules.Snapshot()
        self.project = project if project is not None else ProjectCache()

    # -- the interface ---------------------------------------------------------------

    def value_of(self, node: ast.expr) -> Resolved | None:
        """What the name or dotted name ``node`` provably holds, or None.

        ``node`` is one of :data:`FOLLOWED` (a ``Name``, ``Attribute``, ``Subscript``,
        f-string or walrus) of the linted file or of a value this resolver returned
        before; anything else is unknown.
        """
        if not isinstance(node, FOLLOWED) or not shapes.may_follow(node):
            return None
        key = id(node)
        if key in self._answers:
            return self._answers[key]
        answer = self._value_of(node)
        self._answers[key] = answer
        return answer

    def reading_of(self, node: ast.AST) -> ModuleReading | None:
        """The module a name (or a dotted name) is written in, among those read."""
        base = node
        while isinstance(base, ast.Attribute):
            base = base.value
        for reading in self.readings:
            if id(base) in reading.index.scope_of_name:
                return reading
        return None

    def qualified_name(self, node: ast.expr) -> str | None:
        """What a dotted name stands for by the imports of the module it is written in:
        ``datetime.datetime`` for ``datetime`` after ``from datetime import datetime``,
        ``datetime.datetime.now`` for ``datetime.now``. None when the name is not bound
        by exactly one import where it is read (a local, a parameter, a builtin, a
        relative import)."""
        dotted = dotted_name(node)
        reading = self.reading_of(node)
        if dotted is None or reading is None:
            return None
        index = reading.index
        scope = index.scope_of(node)
        name, _, tail = dotted.partition(".")
        if scope is None:
            return None
        found = _single_binding(index, scope, dotted)
        if found is None or not index.stable(name, found[1]):
            return None
        binding, _ = found
        alias = binding.node
        statement = binding.statement
        rest = tail.split(".") if tail else []
        if binding.kind == IMPORT_FROM:
            if isinstance(statement, ast.ImportFrom) and statement.level == 0 and statement.module:
                return ".".join((statement.module, alias.name, *rest))  # type: ignore[attr-defined]
            return None
        if binding.kind == IMPORT:
            if alias.asname is not None:  # type: ignore[attr-defined]
                return ".".join((alias.name, *rest)) if alias.asname == name else None  # type: ignore[attr-defined]
            imported = alias.name  # type: ignore[attr-defined]
            if dotted == imported or dotted.startswith(imported + "."):
                return dotted  # ``import pkg.mod`` then ``pkg.mod.f``
        return None

    # -- following -------------------------------------------------------------------

    def _value_of(self, node: ast.expr) -> Resolved | None:
        reading = self.reading_of(_first_name(node) or node)
        if reading is None:
            if isinstance(node, (ast.Name, ast.Attribute)):
                return None
            reading = self.main  # a shape with no name in it (``f"{2024}-{9:02d}-30"``)
        try:
            value = self._settle(reading, node, _Walk(), None)
        except RecursionError:
            return None
        if value is None or value.value is node:
            return None  # unknown, or a shape the literals do not prove: its own value
        spelled = dotted_name(node) or reading.excerpt(node)
        return Resolved(value.value, value.origin, spelled, value.reading, value.aliases, value.code)

    def _settle(
        self, reading: ModuleReading, node: ast.expr, walk: _Walk, origin: str | None
    ) -> _Value | None:
        """What the expression ``node`` of ``reading`` provably holds: a name followed
        (None when unknown), a subscript with a literal key into a literal container, a
        folded f-string, a walrus's value; any other expression (a subscript or an
        f-string the literals do not prove too) is its own value, bound at ``origin``,
        else where it is written."""
        if isinstance(node, (ast.Name, ast.Attribute)):
            dotted = dotted_name(node)
            scope = reading.index.scope_of(node)
            if dotted is None or scope is None:
                return None
            return self._follow(reading, scope, dotted, _start(node), walk)
        here = origin or reading.origin(node.lineno)
        if isinstance(node, ast.NamedExpr):
            return self._settle(reading, node.value, walk, here)
        if isinstance(node, ast.Subscript):
            return self._subscript(reading, node, walk, here) or _Value(node, here, reading)
        if isinstance(node, ast.JoinedStr):
            bound: list[str] = []  # where the pieces that are names got their values

            def piece(expr: ast.expr) -> ast.expr | None:
                found = self._settle(reading, expr, walk, here)
                if found is None:
                    return None
                if found.origin != here:
                    code = found.code or found.reading.excerpt(found.value)
                    bound.append(f"{reading.excerpt(expr)} = {code} ({found.origin})")
                return found.value

            text = shapes.fold(node, piece)
            if text is not None:
                origin = "; ".join(dict.fromkeys(bound)) or here
                return _Value(ast.copy_location(ast.Constant(text), node), origin, reading, code=repr(text))
        return _Value(node, here, reading)  # a value written out (an f-string that may hold anything)

    def _subscript(
        self, reading: ModuleReading, node: ast.Subscript, walk: _Walk, here: str
    ) -> _Value | None:
        """``SNAPSHOT["taken_at"]``, ``STAMPS[0]``: the element, when the container and
        the key are literals the source proves."""
        if not isinstance(node.ctx, ast.Load):
            return None
        container = self._settle(reading, node.value, walk, here)  # first: most often unknown
        if container is None or not isinstance(container.value, (ast.Dict, ast.List, ast.Tuple)):
            return None
        key = shapes.constant_key(node.slice)
        if key is None:
            settled_key = self._settle(reading, node.slice, walk, here)
            if settled_key is None or not isinstance(settled_key.value, ast.Constant):
                return None
            key = settled_key.value
        picked = shapes.element(container.value, key)
        if picked is None:
            return None
        value = self._settle(container.reading, picked, walk, container.origin)
        if value is None:
            return None
        return _Value(value.value, value.origin, value.reading, value.aliases, value.code)

    def _follow(
        self,
        reading: ModuleReading,
        scope: Scope,
        dotted: str,
        position: tuple[int, int] | None,
        walk: _Walk,
        through: ast.expr | None = None,
    ) -> _Value | None:
        """The value of a use spelled ``dotted`` read in ``scope`` at ``position``
        (None: no use to be bound before, as for a module's name asked from outside);
        ``through`` is the use an alias is bound to (``rows = changes``), the one read of
        the name that does not count as a change when the alias is followed."""
        if not walk.step(reading, (id(scope), dotted, position)):
            return None
        index = reading.index
        name, _, tail = dotted.partition(".")
        found = _single_binding(index, scope, dotted)
        if found is None:
            return None
        binding, home = found
        if not index.stable(name, home):
            return None
        if binding.kind in (IMPORT, IMPORT_FROM):
            if (
                position is not None and _same_scope(scope, home) and _start(binding.statement) >= position  # type: ignore[arg-type]
            ):
                return None
            value = self._follow_import(reading, binding, dotted, walk)
            if value is not None and not _unchanged(index, dotted, home, value.value, through):
                return None
            return value
        if tail and "." not in tail and binding.kind in (CLASS_DEF, PARAMETER):
            if binding.kind == CLASS_DEF and position is not None and _same_scope(scope, home):
                if _start(binding.node) >= position:
                    return None
            return self._class_constant(reading, home, binding, tail, walk)
        if tail or binding.value is None or binding.kind not in (ASSIGN, ANNOTATED):
            return None  # an attribute of a variable, or not a plain top-level assignment
        if home.kind not in (MODULE, FUNCTION):
            return None  # class bodies, comprehensions and lambdas
        statement = binding.statement
        assert statement is not None
        if position is not None and _same_scope(scope, home) and _start(statement) >= position:
            return None
        bound = binding.value
        if isinstance(bound, (ast.Name, ast.Attribute)):
            # ``ALIAS = EXPORT_DATE``: follow on; the origin is where the value is.
            inner_name = dotted_name(bound)
            if inner_name is None:
                return None
            inner = self._follow(reading, home, inner_name, _start(bound), walk, bound)
            if inner is None:
                return None
            if not _unchanged(index, name, home, inner.value, through):
                return None  # the alias itself may be changed in place
            return _Value(inner.value, inner.origin, inner.reading, (inner_name, *inner.aliases), inner.code)
        value = self._settle(reading, bound, walk, reading.origin(statement.lineno))  # type: ignore[attr-defined]
        if value is None or not _unchanged(index, name, home, value.value, through):
            return None
        return value

    def _class_constant(
        self, reading: ModuleReading, home: Scope, binding: Binding, attribute: str, walk: _Walk
    ) -> _Value | None:
        """``Jobs.EXPORTED_AT`` or, in a method of ``Jobs``, ``self.EXPORTED_AT`` (and
        ``cls.`` in a class method): a class constant bound once in the body of a plain
        class (see :func:`_plain_class`) and never stored to through any attribute of
        that name in the module."""
        index = reading.index
        if binding.kind == CLASS_DEF:
            owner: ast.AST | None = binding.node
            through_instance = False
        else:
            owner = shapes.class_of_method(index, home, binding)
            through_instance = True
        if not isinstance(owner, ast.ClassDef) or not shapes.plain_class(index, owner, 0):
            return None
        body = index.scopes.get(id(owner))
        found = body.bindings.get(attribute) if body is not None else None
        if not found or len(found) != 1 or found[0].kind not in (ASSIGN, ANNOTATED) or found[0].value is None:
            return None
        if shapes.attribute_stored(index, attribute, body if through_instance else None):
            return None
        statement = found[0].statement
        assert statement is not None
        value = self._settle(reading, found[0].value, walk, reading.origin(statement.lineno))  # type: ignore[attr-defined]
        if value is None or (
            shapes.mutable(value.value) and not shapes.attribute_unchanged(index, attribute, value.value)
        ):
            return None
        return value

    def _follow_import(
        self, reading: ModuleReading, binding: Binding, dotted: str, walk: _Walk
    ) -> _Value | None:
        if reading.path is None:
            return None
        question = _question(reading.path, binding, dotted)
        if question is None or (
            not question.level and question.module.partition(".")[0] in sys.stdlib_module_names
        ):
            # The standard library holds no constant of the project (``os.sep``).
            return None
        if question in self._asked:
            found = self._asked[question]
        else:
            if len(self._asked) >= project.max_questions():
                return None
            # Asked once per file: one lint reads the project as it was when it began.
            found = self._asked[question] = project.imported_binding(
                question, self.declaration_names, self.project, self._snapshot
            )
        if found is None:
            return None
        target = self._modules.get(found.path, _NOT_READ)
        if target is _NOT_READ:
            # Read once per file (the project's files do not change during one lint).
            target = self._modules[found.path] = project.module_reading(
                found.path, self.declaration_names, self.project, self._snapshot
            )
        if target is None:
            return None
        if target.display is None:
            target.display = found.display
        if target not in self.readings:
            self.readings.append(target)
        return self._follow(target, target.index.module, found.name, None, walk)


_NOT_READ: ModuleReading | None = ModuleReading.__new__(ModuleReading)
"""A marker: a project module this resolver has not asked for yet."""


class _Value:
    __slots__ = ("aliases", "code", "origin", "reading", "value")

    def __init__(
        self,
        value: ast.expr,
        origin: str,
        reading: ModuleReading,
        aliases: tuple[str, ...] = (),
        code: str | None = None,
    ) -> None:
        self.value = value
        self.origin = origin
        self.reading = reading
        self.aliases = aliases
        self.code = code


class _Walk:
    """One resolution: the steps taken so far (bounded, and cycle-free)."""

    __slots__ = ("seen", "steps")

    def __init__(self) -> None:
        self.steps = 0
        self.seen: set[tuple[int, object]] = set()

    def step(self, reading: ModuleReading, what: object) -> bool:
        key = (id(reading), what)
        if key in self.seen or self.steps >= MAX_STEPS:
            return False
        self.seen.add(key)
        self.steps += 1
        return True


def _single_binding(index: FileIndex, scope: Scope, dotted: str) -> tuple[Binding, Scope] | None:
    """The one binding a use spelled ``dotted`` read in ``scope`` refers to, and the
    scope it is in; None when there is none or several.

    Several ``import pkg.a`` / ``import pkg.b`` all bind ``pkg``, yet each dotted use
    names one of them: the longest imported module the use starts with decides.
    """
    name = dotted.partition(".")[0]
    found = index.lookup(name, scope)
    if found is None:
        return None
    home, bindings = found
    if home.kind == MODULE and index.star_import:
        return None  # a star import may rebind any module-level name
    if len(bindings) == 1:
        return bindings[0], home
    if not all(b.kind == IMPORT and b.node.asname is None for b in bindings):  # type: ignore[attr-defined]
        return None
    best = ""
    for binding in bindings:
        imported: str = binding.node.name  # type: ignore[attr-defined]
        for prefix in _prefixes(imported):
            if (dotted == prefix or dotted.startswith(prefix + ".")) and len(prefix) > len(best):
                best = prefix
    matching = [b for b in bindings if best in _prefixes(b.node.name)]  # type: ignore[attr-defined]
    if len(matching) != 1:
        return None
    return matching[0], home


def _prefixes(dotted: str) -> list[str]:
    """``a``, ``a.b``, ``a.b.c`` for ``a.b.c``: what ``import a.b.c`` makes readable."""
    parts = dotted.split(".")
    return [".".join(parts[: end + 1]) for end in range(len(parts))]


def _question(importer: str, binding: Binding, dotted: str) -> ImportRequest | None:
    """What to ask about an imported name: which module, how many dots, which names."""
    alias = binding.node
    statement = binding.statement
    name, _, tail = dotted.partition(".")
    rest = tuple(tail.split(".")) if tail else ()
    if isinstance(statement, ast.ImportFrom) and isinstance(alias, ast.alias):
        return ImportRequest(importer, statement.module or "", statement.level, (alias.name, *rest))
    if isinstance(alias, ast.alias):
        if alias.asname is not None:
            return ImportRequest(importer, alias.name, 0, rest) if rest else None
        if dotted.startswith(alias.name + "."):
            # ``import pkg.constants`` then ``pkg.constants.X``
            return ImportRequest(importer, alias.name, 0, tuple(dotted[len(alias.name) + 1 :].split(".")))
    return None


def _same_scope(use: Scope, home: Scope) -> bool:
    """True when a use in ``use`` runs in ``home`` itself (a comprehension runs in the
    scope around it), where a binding after the use has not happened yet."""
    while use.kind == COMPREHENSION and use.parent is not None:
        use = use.parent
    return use is home


def _start(node: ast.AST) -> tuple[int, int]:
    return node.lineno, node.col_offset  # type: ignore[attr-defined]


def _first_name(node: ast.expr) -> ast.expr | None:
    """The name a value of one of the followed shapes is read through (the container of
    a subscript, the first name of an f-string, a walrus's target), or None when it
    holds none."""
    while True:
        if isinstance(node, (ast.Name, ast.Attribute)):
            return node
        if isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.NamedExpr):
            return node.target
        elif isinstance(node, ast.JoinedStr):
            for part in node.values:
                found = _first_name(part.value) if isinstance(part, ast.FormattedValue) else None
                if found is not None:
                    return found
            return None
        else:
            return None


def _unchanged(
    index: FileIndex, spelled: str, home: Scope, bound: ast.expr, through: ast.expr | None
) -> bool:
    """Whether a value bound to ``spelled`` in ``home`` provably keeps what it was bound
    to: it cannot change in place, or every use that reads the binding is an argument of
    a declaration call, the alias being followed (``through``), or a read of an element
    that is not itself mutable (``SNAPSHOT["taken_at"]``). Any other use (a method
    called, an item stored, a call it is handed to, another name bound to it) may
    change it."""
    if not shapes.mutable(bound) or index.only_read_by_declarations(spelled, home):
        return True
    api = index.api_read
    for use in index.reads(spelled, home):  # grouped by scope once: no walk of every use
        if id(use) in api or use is through:
            continue
        if not shapes.reads_element(index, use, bound):
            return False
    return True
