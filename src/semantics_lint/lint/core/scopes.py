"""What one module's names are, as Python scopes them: scopes, bindings, and the index
of a module with the questions it answers.

:class:`Scope` (the module, a function, a lambda, a class body, a comprehension),
:class:`Binding` (one way a name gets bound in a scope) and :class:`FileIndex` (every
scope, binding, use and call of one module, made by the one walk of ``lint.core.index``,
which fills it) answer "where does Python find this name here, what binds it there,
and may its value have changed": always in the scope the name is bound in, as Python
looks each use up, never by the spelling of a name across the file.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

__all__ = ["Binding", "FileIndex", "Scope"]

# Kinds of scope.
MODULE = "module"
FUNCTION = "function"
LAMBDA = "lambda"
CLASS = "class"
COMPREHENSION = "comprehension"

# Kinds of binding.
ASSIGN = "assign"  # a Name written as a whole target of ``=`` (``x = v``, ``x = y = v``)
ANNOTATED = "annotated"  # ``x: T = v`` or ``x: T``
AUGMENTED = "augmented"  # ``x += v``
WALRUS = "walrus"  # ``(x := v)``
STORE = "store"  # any other Name stored to: loop, with and comprehension targets, unpacking
DELETE = "delete"  # ``del x``
PARAMETER = "parameter"
DEF = "def"
CLASS_DEF = "class"
IMPORT = "import"  # ``import a.b`` (binds ``a``) or ``import a.b as c``
IMPORT_FROM = "import-from"
EXCEPT = "except"  # ``except E as x``
MATCH = "match"  # ``case x``, ``case [*x]``, ``case {**x}``
GLOBAL = "global"
NONLOCAL = "nonlocal"


class Scope:
    """A scope of names: the module, a function, a lambda, a class body or a
    comprehension. ``bindings`` maps each name bound here to how, in walk order."""

    __slots__ = ("bindings", "declared_global", "declared_nonlocal", "kind", "node", "parent")

    def __init__(self, node: ast.AST, kind: str, parent: Scope | None) -> None:
        self.node = node
        self.kind = kind
        self.parent = parent
        self.bindings: dict[str, list[Binding]] = {}
        self.declared_global: set[str] | None = None
        self.declared_nonlocal: set[str] | None = None

    def __repr__(self) -> str:
        line = getattr(self.node, "lineno", 0)
        return f"Scope({self.kind}, line {line})"

    @property
    def function(self) -> Scope | None:
        """The innermost function or lambda scope this scope is in (itself included)."""
        scope: Scope | None = self
        while scope is not None and scope.kind not in (FUNCTION, LAMBDA):
            scope = scope.parent
        return scope

    def chain(self) -> Iterator[Scope]:
        """This scope, then each enclosing one, out to the module."""
        scope: Scope | None = self
        while scope is not None:
            yield scope
            scope = scope.parent

    def is_within(self, other: Scope) -> bool:
        """True when ``other`` is this scope or encloses it."""
        return any(scope is other for scope in self.chain())


class Binding:
    """One way a name gets bound in a scope.

    ``node`` is what binds (an ``ast.Name``, ``ast.arg``, ``ast.alias``, the ``def`` or
    ``class``, the ``except`` handler, the ``match`` pattern, the ``global`` statement);
    ``statement`` the statement it is written in, when it is an assignment or an import
    (for a walrus, the ``ast.NamedExpr``);
    ``value`` the assigned expression for a plain ``name = value`` (one target) or
    ``name: T = value`` written directly in the body of the module, a function or a
    class, else None.
    """

    __slots__ = ("kind", "node", "statement", "value")

    def __init__(
        self,
        kind: str,
        node: ast.AST,
        statement: ast.AST | None = None,
        value: ast.expr | None = None,
    ) -> None:
        self.kind = kind
        self.node = node
        self.statement = statement
        self.value = value

    def __repr__(self) -> str:
        return (
            f"Binding({self.kind}, line {getattr(self.node, 'lineno', getattr(self.statement, 'lineno', 0))})"
        )

    @property
    def is_import(self) -> bool:
        return self.kind in (IMPORT, IMPORT_FROM)


class FileIndex:
    """The names of one module, from one walk (see the module docstring)."""

    __slots__ = (
        "api_read",
        "calls",
        "imports",
        "module",
        "scope_of_name",
        "scopes",
        "star_import",
        "tree",
        "unstable",
        "uses",
        "_anywhere",
        "globals_declared",
        "nonlocals_declared",
        "_memo",
        "_only_read",
        "_reads",
    )

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.module = Scope(tree, MODULE, None)
        self.scopes: dict[int, Scope] = {id(tree): self.module}
        """The scope each scope-making node opens (module, def, lambda, class, comprehension)."""
        self.scope_of_name: dict[int, Scope] = {}
        """The scope each ``ast.Name`` of the tree is read or bound in, by the node's id."""
        self.uses: dict[str, list[ast.expr]] = {}
        """Loads and deletions of each name, and every attribute read of each dotted name."""
        self.api_read: set[int] = set()
        """ids of the uses that are arguments of a declaration call."""
        self.calls: dict[str, list[tuple[ast.Call, Scope]]] = {}
        """Every call whose callee is a name or a dotted name, with the scope it is in, by
        the callee's last name (``described_result`` for ``api.described_result(...)``)."""
        self.imports: list[tuple[str, Binding]] = []
        """Every name an import binds, anywhere, with its binding."""
        self.unstable: set[str] = set()
        """Names declared ``global`` or ``nonlocal`` or deleted anywhere (what a question
        about another module's top-level names asks first; a name of this file is judged
        in its own scope, :meth:`stable`)."""
        self.globals_declared: set[str] = set()
        """Names declared ``global`` anywhere in the module."""
        self.nonlocals_declared: dict[str, list[Scope]] = {}
        """The scopes that declare each name ``nonlocal``."""
        self.star_import = False
        """Whether a ``from m import *`` appears anywhere."""
        self._memo: dict[object, object] = {}
        self._only_read: dict[str, frozenset[int]] = {}
        self._reads: dict[str, dict[int, list[ast.expr]]] = {}
        self._anywhere: dict[str, list[Binding]] | None = None

    # -- questions -------------------------------------------------------------------

    def scope_of(self, node: ast.AST) -> Scope | None:
        """The scope a name (or a dotted name, by its first name) is written in; None
        for a node of another tree."""
        while isinstance(node, ast.Attribute):
            node = node.value
        return self.scope_of_name.get(id(node))

    def lookup(self, name: str, scope: Scope) -> tuple[Scope, list[Binding]] | None:
        """Where Python finds ``name`` read in ``scope``, and what binds it there.

        The innermost scope that binds it, class bodies skipped unless the name is read
        directly in one (methods do not see their class's names); a name declared
        ``global`` is looked up in the module, one declared ``nonlocal`` in the
        enclosing functions. None when nothing in the file binds it (a builtin, an
        undefined name).
        """
        first = True
        current: Scope | None = scope
        module = self.module
        while current is not None:
            if current.kind == CLASS and not first:
                current = current.parent
                continue
            found = current.bindings.get(name)
            if found:
                return current, found
            if current is not module:
                if current.declared_global and name in current.declared_global:
                    found = module.bindings.get(name)
                    return (module, found) if found else None
            first = False
            current = current.parent
        return None

    def bindings_anywhere(self, name: str) -> list[Binding]:
        """Every binding of ``name`` in every scope of the module, scope by scope in the
        order the walk opened them. The map of every name is made on the first question
        (one pass over the scopes); each answer is then a look-up and a copy."""
        anywhere = self._anywhere
        if anywhere is None:
            anywhere = self._anywhere = {}
            for scope in self.scopes.values():
                for bound, bindings in scope.bindings.items():
                    found = anywhere.get(bound)
                    if found is None:
                        anywhere[bound] = list(bindings)
                    else:
                        found.extend(bindings)
        return list(anywhere.get(name, ()))

    def stable(self, name: str, home: Scope) -> bool:
        """False when code elsewhere may rebind ``name`` bound in ``home`` without a
        binding of ``home`` showing it: a ``global name`` anywhere (for a module-level
        name), a ``nonlocal name`` in a function nested in ``home`` (for a function's)."""
        if home.kind == MODULE:
            return name not in self.globals_declared
        declaring = self.nonlocals_declared.get(name)
        return not declaring or not any(scope.is_within(home) for scope in declaring)

    def resolves_to(self, use: ast.expr, home: Scope) -> bool:
        """True when the name ``use`` is read in (a dotted name: its first name) is the
        one bound in ``home``, as Python looks it up from where it is written."""
        return self._home_of(use) is home

    def only_read_by_declarations(self, spelled: str, home: Scope) -> bool:
        """True when every use of ``spelled`` (``prov``, ``constants.GRAIN``) that reads
        the name bound in ``home`` is an argument of a declaration call: nothing can
        have changed the value it names (``prov["source"] = s``, ``prov.update(...)``,
        ``helper(prov)``, ``rows.append(r)``, ``rows += more``... are other uses).
        Judged where Python looks the name up: a use in a nested function that reads
        ``home``'s name counts, one that reads a name of its own (a local of another
        function, a parameter, a comprehension's variable) does not. The scopes whose
        name some other use reads are worked out once per spelling (one look-up per
        use), so each question is a set look-up."""
        changed = self._only_read.get(spelled)
        if changed is None:
            changed = self._only_read[spelled] = self._homes_changed(spelled)
        return id(home) not in changed

    def _homes_changed(self, spelled: str) -> frozenset[int]:
        """The ids of the scopes whose binding of ``spelled``'s first name is read by a
        use that is not an argument of a declaration call."""
        read = self.api_read
        homes: set[int] = set()
        for use in self.uses.get(spelled, ()):
            if id(use) not in read:
                home = self._home_of(use)
                if home is not None:
                    homes.add(id(home))
        return frozenset(homes)

    def reads(self, name: str, home: Scope) -> list[ast.expr]:
        """The uses of ``name``, a plain or a dotted name (loads, deletions, the first
        name of a dotted one), that read its binding in ``home``, in walk order. Grouped by scope
        once per name and file, so each question costs the uses it answers with."""
        grouped = self._reads.get(name)
        if grouped is None:
            grouped = self._reads[name] = {}
            for use in self.uses.get(name, ()):
                found = self._home_of(use)
                if found is not None:
                    grouped.setdefault(id(found), []).append(use)
        return grouped.get(id(home), [])

    def _home_of(self, use: ast.expr) -> Scope | None:
        """The scope whose binding the name ``use`` (a dotted one: its first name) reads."""
        base = use
        while isinstance(base, ast.Attribute):
            base = base.value
        scope = self.scope_of_name.get(id(base))
        if scope is None or not isinstance(base, ast.Name):
            return None
        found = self.lookup(base.id, scope)
        return found[0] if found is not None else None

    def memo(self, key: object) -> object:
        """A value another layer keeps about this module (None when not yet kept)."""
        return self._memo.get(key)

    def remember(self, key: object, value: object) -> None:
        self._memo[key] = value
