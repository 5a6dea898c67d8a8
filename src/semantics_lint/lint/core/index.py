"""One module's names, read in one walk of its ``ast`` tree: the per-file index.

Every question of the form "what binds this name here?" is answered from a
:class:`~semantics_lint.lint.core.scopes.FileIndex` (the model, in ``scopes.py``; this
module is the walk that fills it): recognizing our calls (``locate``), the declaration's cheap looks,
following a name to its value (``resolve``), the qualified names of callees and the
tool rules. It is built once per module (the linted file, and each project module a
name is followed into) and lives as long as that module's reading; nothing about a file
outlives its lint.

What one walk records, the way Python scopes names:

* **scopes**: the module, every ``def``/``async def``, ``lambda``, class body and
  comprehension, each with its parent;
* **bindings** of every name in every scope, in the order the walk meets them:
  assignments (``x = v``, ``x: T = v``, ``x += v``, a walrus, which binds in the nearest
  scope that is not a comprehension), loop, ``with`` and comprehension targets,
  parameters, ``def`` and ``class`` names, imports, ``except ... as`` and ``match``
  captures, ``del``, and ``global``/``nonlocal`` declarations (a name declared
  ``global`` is bound in the module; ``nonlocal``, in the nearest enclosing function).
  Decorators, defaults, annotations, class bases and a comprehension's first iterable
  are read in the scope around the ``def``/``class``/comprehension, as Python runs them;
* for a plain ``name = value`` (one target) or ``name: T = value`` written directly in
  the body of the module, a function or a class, the **value** node itself (rules judge the tree
  the parser made; nothing is parsed again from text);
* the **uses** of every name and dotted name (``prov``, ``constants.GRAIN``), loads and
  deletions, and which of them are arguments of a declaration call (``described_result(
  provenance=prov)``, through containers written in the call): a mutable value whose
  every use that reads its binding (as Python looks the use up) is such an argument
  provably keeps what it was bound to;
* the **calls** whose callee is a name or a dotted name, with their scope.

The walk is iterative (a file of thousands of chained operations would overflow a
recursive visitor) and visits each node once.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from semantics_lint.lint.core.scopes import (
    ANNOTATED,
    ASSIGN,
    AUGMENTED,
    CLASS,
    CLASS_DEF,
    COMPREHENSION,
    DEF,
    DELETE,
    EXCEPT,
    FUNCTION,
    GLOBAL,
    IMPORT,
    IMPORT_FROM,
    LAMBDA,
    MATCH,
    MODULE,
    NONLOCAL,
    PARAMETER,
    STORE,
    WALRUS,
    Binding,
    FileIndex,
    Scope,
)
from semantics_lint.lint.core.syntax import dotted_name

# The model lives in ``lint.core.scopes``; its names are read from here too.
__all__ = [
    "ANNOTATED",
    "ASSIGN",
    "AUGMENTED",
    "CLASS",
    "CLASS_DEF",
    "COMPREHENSION",
    "DEF",
    "DELETE",
    "EXCEPT",
    "FUNCTION",
    "GLOBAL",
    "IMPORT",
    "IMPORT_FROM",
    "LAMBDA",
    "MATCH",
    "MODULE",
    "NONLOCAL",
    "PARAMETER",
    "STORE",
    "WALRUS",
    "Binding",
    "FileIndex",
    "Scope",
    "build_index",
    "dotted_name",
]

# -- the walk ------------------------------------------------------------------------------

# Fields that never hold a node worth visiting (identifiers, numbers, contexts and
# operators). Not "name": the Name a 3.12 type alias binds is there.
_LEAF_FIELDS = frozenset(
    {
        "ctx",
        "op",
        "ops",
        "id",
        "attr",
        "arg",
        "asname",
        "module",
        "level",
        "kind",
        "conversion",
        "is_async",
        "simple",
        "tag",
        "type_comment",
        "kwd_attrs",
        "type_ignores",
    }
)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(kind: type) -> tuple[str, ...]:
    fields = _CHILD_FIELDS.get(kind)
    if fields is None:
        fields = _CHILD_FIELDS[kind] = tuple(
            name for name in reversed(getattr(kind, "_fields", ())) if name not in _LEAF_FIELDS
        )
    return fields


# Containers through which an argument of a declaration call is still that argument.
_CONTAINERS = (ast.List, ast.Tuple, ast.Set, ast.Starred)


class _Exit:
    """Pushed below a scope's own nodes: popping it goes back to the enclosing scope."""

    __slots__ = ("scope",)

    def __init__(self, scope: Scope) -> None:
        self.scope = scope


def build_index(tree: ast.Module, declaration_names: Iterable[str] = ()) -> FileIndex:
    """Index ``tree`` in one walk. ``declaration_names`` are the callee names (the last
    name of a dotted callee) whose arguments count as read by a declaration."""
    index = FileIndex(tree)
    _walk(index, frozenset(declaration_names))
    return index


def _bind(index: FileIndex, scope: Scope, name: str, binding: Binding) -> None:
    """Record ``binding`` of ``name`` written in ``scope``, where Python binds it."""
    if scope.kind != MODULE:
        if scope.declared_global and name in scope.declared_global:
            scope = index.module
        elif scope.declared_nonlocal and name in scope.declared_nonlocal:
            outer = scope.parent
            while outer is not None and outer.kind not in (FUNCTION, LAMBDA):
                outer = outer.parent
            scope = outer or index.module
    found = scope.bindings.get(name)
    if found is None:
        scope.bindings[name] = [binding]
    else:
        found.append(binding)


def _mark_read(index: FileIndex, call: ast.Call) -> None:
    """The uses written as arguments of a declaration call (through containers)."""
    read = index.api_read
    pending: list[ast.expr] = [*call.args, *(keyword.value for keyword in call.keywords)]
    while pending:
        node = pending.pop()
        kind = type(node)
        if kind is ast.Name or kind is ast.Attribute:
            read.add(id(node))
        elif kind is ast.Starred:
            pending.append(node.value)  # type: ignore[attr-defined]
        elif kind is ast.Subscript and type(node.slice) is ast.Constant:  # type: ignore[attr-defined]
            pending.append(node.value)  # type: ignore[attr-defined]  # ``DATA["rows"]``: read, not changed
        elif kind in _CONTAINERS:
            pending.extend(node.elts)  # type: ignore[attr-defined]
        elif kind is ast.Dict:
            pending.extend(node.values)  # type: ignore[attr-defined]


def _parameters(index: FileIndex, scope: Scope, arguments: ast.arguments) -> None:
    for arg in (
        *arguments.posonlyargs,
        *arguments.args,
        arguments.vararg,
        *arguments.kwonlyargs,
        arguments.kwarg,
    ):
        if arg is not None:
            _bind(index, scope, arg.arg, Binding(PARAMETER, arg))


def _walk(index: FileIndex, declaration_names: frozenset[str]) -> None:
    """The one walk that fills ``index``: each node is popped once; names and constants
    are handled where their parent is, without being pushed. Most of a tree (names read,
    attribute chains, calls, nodes whose children are only visited) is handled here,
    inline; a node that binds a name or opens a scope goes to its :class:`_Walk` handler."""
    walk = _Walk(index)
    handler_of = _DISPATCH.get
    scope = index.module
    stack = walk.stack
    push, pop = stack.append, stack.pop
    fields_of = _CHILD_FIELDS.get
    scope_of_name = index.scope_of_name
    uses, calls, stored = walk.uses, walk.calls, walk.stored
    Name, Constant, Load, Attribute, Call = (
        ast.Name,
        ast.Constant,
        ast.Load,
        ast.Attribute,
        ast.Call,
    )
    while stack:
        node = pop()
        kind = type(node)
        handler = handler_of(kind)
        if handler is None:
            # Any other node: visit its children, recording the names read among them.
            fields = fields_of(kind)
            if fields is None:
                fields = _child_fields(kind)
            for field in fields:
                value = getattr(node, field, None)
                if value is None:
                    continue
                if type(value) is list:
                    for item in reversed(value):
                        item_kind = type(item)
                        if item_kind is Name:
                            if type(item.ctx) is Load:
                                scope_of_name[id(item)] = scope
                                uses[item.id].append(item)
                            else:
                                stored(item, scope)
                        elif item_kind is not Constant and item is not None and not isinstance(item, str):
                            push(item)
                elif type(value) is Name:
                    if type(value.ctx) is Load:
                        scope_of_name[id(value)] = scope
                        uses[value.id].append(value)
                    else:
                        stored(value, scope)
                elif type(value) is not Constant and isinstance(value, ast.AST):
                    push(value)
        elif kind is Name:
            if type(node.ctx) is Load:  # type: ignore[attr-defined]
                scope_of_name[id(node)] = scope
                uses[node.id].append(node)  # type: ignore[attr-defined, arg-type]
            else:
                stored(node, scope)  # type: ignore[arg-type]
        elif kind is Attribute:
            # A chain ``a.b.c`` read from the top: every prefix is a use of its spelling.
            chain = [node]
            base = node.value  # type: ignore[attr-defined]
            while type(base) is Attribute:
                chain.append(base)
                base = base.value
            if type(base) is Name:
                scope_of_name[id(base)] = scope
                spelled = base.id
                uses[spelled].append(base)
                for link in reversed(chain):
                    spelled = f"{spelled}.{link.attr}"  # type: ignore[attr-defined]
                    uses[spelled].append(link)  # type: ignore[arg-type]
            elif type(base) is not Constant:
                push(base)
        elif kind is Call:
            _call(walk, node, scope, declaration_names)  # type: ignore[arg-type]
        elif kind is not Constant:
            scope = handler(walk, node, scope)
    index.uses = dict(uses)
    index.calls = dict(calls)


def _call(walk: _Walk, node: ast.Call, scope: Scope, declaration_names: frozenset[str]) -> None:
    """A call in the walk: recorded under its name (our calls marked as read), its
    function and arguments read or pushed."""
    index = walk.index
    scope_of_name = index.scope_of_name
    uses, calls, push = walk.uses, walk.calls, walk.stack.append
    Name, Constant, Attribute = ast.Name, ast.Constant, ast.Attribute
    func = node.func
    if type(func) is Name:
        calls[func.id].append((node, scope))
        if func.id in declaration_names:
            _mark_read(index, node)
        scope_of_name[id(func)] = scope
        uses[func.id].append(func)
    else:
        if type(func) is Attribute:
            calls[func.attr].append((node, scope))
            if func.attr in declaration_names:
                _mark_read(index, node)
        push(func)
    for keyword in reversed(node.keywords):
        value = keyword.value
        if type(value) is Name:
            scope_of_name[id(value)] = scope
            uses[value.id].append(value)
        elif type(value) is not Constant:
            push(value)
    for value in reversed(node.args):
        if type(value) is Name:
            scope_of_name[id(value)] = scope
            uses[value.id].append(value)
        elif type(value) is not Constant:
            push(value)


class _Walk:
    """What one walk keeps beside the index (its stack, the uses and calls it gathers,
    the statements written directly in the body of the module or of a function: only
    their plain assignments carry a value), and its handlers: a method per kind of
    node that binds a name or opens a scope (:data:`_DISPATCH`). A handler takes the
    node and the scope it is written in, records what it binds, pushes what is left to
    visit, and returns the scope the walk goes on in."""

    __slots__ = ("calls", "index", "push", "stack", "top", "uses")

    def __init__(self, index: FileIndex) -> None:
        body = index.tree.body
        self.index = index
        self.stack: list[object] = list(reversed(body))
        self.push = self.stack.append
        self.uses: defaultdict[str, list[ast.expr]] = defaultdict(list)
        self.calls: defaultdict[str, list[tuple[ast.Call, Scope]]] = defaultdict(list)
        self.top: set[int] = {id(statement) for statement in body}

    def stored(self, node: ast.Name, scope: Scope) -> None:
        """A Name stored to or deleted (reads are handled in the walk's loop)."""
        index = self.index
        index.scope_of_name[id(node)] = scope
        if type(node.ctx) is ast.Store:
            _bind(index, scope, node.id, Binding(STORE, node))
        else:
            index.unstable.add(node.id)
            self.uses[node.id].append(node)
            _bind(index, scope, node.id, Binding(DELETE, node))

    def open_scope(self, node: ast.AST, kind: str, scope: Scope) -> Scope:
        """The scope ``node`` opens inside ``scope``; the walk goes back to ``scope`` after
        the nodes pushed from now on."""
        inner = Scope(node, kind, scope)
        self.index.scopes[id(node)] = inner
        self.push(_Exit(scope))
        return inner

    def exit(self, node: _Exit, scope: Scope) -> Scope:
        return node.scope

    def assign(self, node: ast.Assign, scope: Scope) -> Scope:
        index = self.index
        targets = node.targets
        value = node.value
        plain = len(targets) == 1 and id(node) in self.top
        for target in targets:
            if type(target) is ast.Name:
                index.scope_of_name[id(target)] = scope
                _bind(index, scope, target.id, Binding(ASSIGN, target, node, value if plain else None))
            else:
                self.push(target)
        self.push(value)
        return scope

    def annotated(self, node: ast.AnnAssign, scope: Scope) -> Scope:
        push = self.push
        target = node.target
        value = node.value
        if value is not None:
            push(value)
        push(node.annotation)
        if type(target) is ast.Name:
            self.index.scope_of_name[id(target)] = scope
            carried = value if id(node) in self.top else None
            _bind(self.index, scope, target.id, Binding(ANNOTATED, target, node, carried))
        else:
            push(target)
        return scope

    def augmented(self, node: ast.AugAssign, scope: Scope) -> Scope:
        target = node.target
        self.push(node.value)
        if type(target) is ast.Name:
            self.index.scope_of_name[id(target)] = scope
            _bind(self.index, scope, target.id, Binding(AUGMENTED, target, node))
        else:
            self.push(target)
        return scope

    def walrus(self, node: ast.NamedExpr, scope: Scope) -> Scope:
        """Binds in the nearest scope that is not a comprehension (PEP 572); the value is
        read where it is written."""
        target = node.target
        home = scope
        while home.kind == COMPREHENSION and home.parent is not None:
            home = home.parent
        self.index.scope_of_name[id(target)] = home
        _bind(self.index, home, target.id, Binding(WALRUS, target, node))
        self.push(node.value)
        return scope

    def imported(self, node: ast.Import, scope: Scope) -> Scope:
        index = self.index
        for alias in node.names:
            bound = alias.asname or alias.name.split(".", 1)[0]
            binding = Binding(IMPORT, alias, node)
            _bind(index, scope, bound, binding)
            index.imports.append((bound, binding))
        return scope

    def imported_from(self, node: ast.ImportFrom, scope: Scope) -> Scope:
        index = self.index
        for alias in node.names:
            if alias.name == "*":
                index.star_import = True
            else:
                bound = alias.asname or alias.name
                binding = Binding(IMPORT_FROM, alias, node)
                _bind(index, scope, bound, binding)
                index.imports.append((bound, binding))
        return scope

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> Scope:
        """Decorators, annotations and defaults run in the enclosing scope; the body in
        the function's own."""
        push = self.push
        _bind(self.index, scope, node.name, Binding(DEF, node))
        arguments = node.args
        for expr in node.decorator_list:
            push(expr)
        if node.returns is not None:
            push(node.returns)
        for arg in (
            *arguments.posonlyargs,
            *arguments.args,
            arguments.vararg,
            *arguments.kwonlyargs,
            arguments.kwarg,
        ):
            if arg is not None and arg.annotation is not None:
                push(arg.annotation)
        for default in (*arguments.defaults, *arguments.kw_defaults):
            if default is not None:
                push(default)
        inner = self.open_scope(node, FUNCTION, scope)
        _parameters(self.index, inner, arguments)
        body = node.body
        self.top.update(map(id, body))
        self.stack.extend(reversed(body))
        return inner

    def lambda_(self, node: ast.Lambda, scope: Scope) -> Scope:
        arguments = node.args
        for default in (*arguments.defaults, *arguments.kw_defaults):
            if default is not None:
                self.push(default)
        inner = self.open_scope(node, LAMBDA, scope)
        _parameters(self.index, inner, arguments)
        self.push(node.body)
        return inner

    def class_(self, node: ast.ClassDef, scope: Scope) -> Scope:
        _bind(self.index, scope, node.name, Binding(CLASS_DEF, node))
        for expr in (*node.decorator_list, *node.bases, *(k.value for k in node.keywords)):
            self.push(expr)
        inner = self.open_scope(node, CLASS, scope)
        self.top.update(map(id, node.body))  # a class constant carries its value too
        self.stack.extend(reversed(node.body))
        return inner

    def comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp, scope: Scope
    ) -> Scope:
        """The first iterable runs in the enclosing scope; the rest in the comprehension's
        own."""
        push = self.push
        generators = node.generators
        push(generators[0].iter)
        inner = self.open_scope(node, COMPREHENSION, scope)
        if type(node) is ast.DictComp:
            push(node.value)
            push(node.key)
        else:
            push(node.elt)  # type: ignore[union-attr]
        for number in range(len(generators) - 1, -1, -1):
            generator = generators[number]
            self.stack.extend(reversed(generator.ifs))
            if number:
                push(generator.iter)
            push(generator.target)
        return inner

    def declared(self, node: ast.Global | ast.Nonlocal, scope: Scope) -> Scope:
        """``global`` and ``nonlocal``: the names are never provable, and are bound here
        by the declaration."""
        declared = node.names
        index = self.index
        index.unstable.update(declared)
        if type(node) is ast.Global:
            if scope.declared_global is None:
                scope.declared_global = set()
            scope.declared_global.update(declared)
            index.globals_declared.update(declared)
            binding_kind = GLOBAL
        else:
            if scope.declared_nonlocal is None:
                scope.declared_nonlocal = set()
            scope.declared_nonlocal.update(declared)
            for declared_name in declared:
                index.nonlocals_declared.setdefault(declared_name, []).append(scope)
            binding_kind = NONLOCAL
        for declared_name in declared:
            found = scope.bindings.get(declared_name)
            if found is None:
                scope.bindings[declared_name] = [Binding(binding_kind, node)]
            else:
                found.append(Binding(binding_kind, node))
        return scope

    def captured(
        self, node: ast.ExceptHandler | ast.MatchAs | ast.MatchStar | ast.MatchMapping, scope: Scope
    ) -> Scope:
        """An except handler, a match capture: bind, then their children as usual."""
        kind = type(node)
        bound = node.rest if kind is ast.MatchMapping else node.name  # type: ignore[union-attr]
        if bound:
            _bind(
                self.index,
                scope,
                bound,
                Binding(EXCEPT if kind is ast.ExceptHandler else MATCH, node),
            )
        for field in _child_fields(kind):
            value = getattr(node, field, None)
            if type(value) is list:
                self.stack.extend(reversed(value))
            elif isinstance(value, ast.AST):
                self.push(value)
        return scope


# What the walk does with a node, by its exact type: ``True`` for the nodes its loop
# handles itself (a name popped, an attribute chain, a call, a constant), the
# :class:`_Walk` method (called with the walk) for a node that binds a name or opens a
# scope; a type not here is a node whose children are visited.
_DISPATCH: dict[type, Any] = {
    ast.Name: True,
    ast.Attribute: True,
    ast.Call: True,
    ast.Constant: True,
    _Exit: _Walk.exit,
    ast.Assign: _Walk.assign,
    ast.AnnAssign: _Walk.annotated,
    ast.AugAssign: _Walk.augmented,
    ast.NamedExpr: _Walk.walrus,
    ast.Import: _Walk.imported,
    ast.ImportFrom: _Walk.imported_from,
    ast.FunctionDef: _Walk.function,
    ast.AsyncFunctionDef: _Walk.function,
    ast.Lambda: _Walk.lambda_,
    ast.ClassDef: _Walk.class_,
    ast.ListComp: _Walk.comprehension,
    ast.SetComp: _Walk.comprehension,
    ast.DictComp: _Walk.comprehension,
    ast.GeneratorExp: _Walk.comprehension,
    ast.Global: _Walk.declared,
    ast.Nonlocal: _Walk.declared,
    ast.ExceptHandler: _Walk.captured,
    ast.MatchAs: _Walk.captured,
    ast.MatchStar: _Walk.captured,
    ast.MatchMapping: _Walk.captured,
}
