"""Which calls in a module are calls of the declaration API: recognition with ``ast``.

``described_result`` / ``describedResult`` (and any configured call name) are ours by
name alone. ``absent``, ``coverage`` and ``define_tool`` are common words (coverage.py
exists), so they are ours only when the name at the call is bound by an import from
an API module, and by nothing else in the scope that binds it::

    from semantics_lint.runtime import absent          # absent(...) is ours
    from agentfootprint import coverage as cov          # cov(...) is ours
    import agentfootprint as af                         # af.coverage(...) is ours
    import coverage                                     # coverage(...) is NOT ours
    def f(absent): absent(...)                          # a parameter: NOT ours

When in doubt, a call is not ours: an unrecognized call is only a missed finding, a
wrongly recognized one is a false finding.

The walk is iterative (a file of thousands of chained ``+`` would overflow a recursive
visitor) and records bindings per scope the way Python scopes them: function bodies,
lambdas, comprehensions and class bodies (which nested functions do not see).
"""

from __future__ import annotations

import ast
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from semantics_lint import vocabulary
from semantics_lint.lint.context import lines_of, word_lines

_ScopeNode = (
    ast.Module,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.ClassDef,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)

# The API names a binding may stand for, mapped to the call kind they make.
_KIND_OF_NAME: dict[str, str] = {name: "described_result" for name in vocabulary.DESCRIBED_RESULT_NAMES}
_KIND_OF_NAME.update({name: name for name in vocabulary.API_FUNCTIONS})


@dataclass(frozen=True, slots=True)
class _Binding:
    """How a name got bound: ``kind`` is "module", "from" or "other"."""

    kind: str
    module: str = ""
    attr: str = ""


@dataclass(eq=False)
class _Scope:
    node: ast.AST
    bindings: dict[str, list[_Binding]] = field(default_factory=dict)
    declared_global: set[str] = field(default_factory=set)
    declared_nonlocal: set[str] = field(default_factory=set)

    def bind(self, name: str, binding: _Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)


# Every binding other than an import is the same value; one shared instance.
_OTHER = _Binding("other")


@dataclass(frozen=True, slots=True)
class LocatedCall:
    """A call recognized as ours: its kind, the callee as written, where it sits."""

    node: ast.Call
    kind: str
    spelled: str
    function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None


def is_api_module(module: str, api_modules: Sequence[str]) -> bool:
    """True for an API module or a submodule of one."""
    return any(module == api or module.startswith(api + ".") for api in api_modules)


def locate_calls(
    tree: ast.Module,
    call_names: Sequence[str],
    api_modules: Sequence[str],
    text: str | None = None,
) -> list[LocatedCall]:
    """Every call of ours in ``tree``, in source order.

    ``call_names`` are recognized as ``described_result`` by name alone;
    ``absent``/``coverage``/``define_tool`` (and a configured name called through an
    attribute) only through an import from one of ``api_modules``.

    With the source ``text``, only the parts of the tree on lines that spell a name
    that matters are walked: a call of ours, and every binding that could shadow its
    name, spells that name on one of its lines. The answer is the same either way.
    """
    lines: list[int] | None = None
    if text is not None:
        lines = _lines_that_matter(tree, text, call_names, api_modules)
        if not lines:
            return []
    candidates: list[tuple[ast.Call, tuple[_Scope, ...]]] = []
    module_scope = _Scope(tree)
    # A node is visited when the lines it spans [lineno, end_lineno] hold one of
    # ``lines`` (a node without a position always is). The test is made before a
    # node is pushed, and a statement list is searched for the statements holding
    # those lines instead of testing each of them; the nodes visited, and their
    # order, are those of a walk that tests every node as it is popped.
    every = lines is None
    wanted: list[int] = [] if lines is None else lines
    count = len(wanted)

    def spans_a_line(node: ast.AST) -> bool:
        first = getattr(node, "lineno", None)
        if first is None or every:
            return True
        index = bisect_left(wanted, first)
        return index != count and wanted[index] <= (node.end_lineno or first)

    # (node, chain of enclosing scopes, innermost last)
    stack: list[tuple[ast.AST, tuple[_Scope, ...]]] = [(tree, (module_scope,))]
    push = stack.append
    special = _SPECIAL.get
    while stack:
        node, chain = stack.pop()
        kind = type(node)
        what = special(kind)
        if what is None:
            what = _SPECIAL[kind] = _what_to_do(kind)
        if what is _PLAIN:
            pass
        elif what is _NAME:
            if not isinstance(node.ctx, ast.Load):
                _bind(chain, node.id, _OTHER)
            continue
        elif what is _CALL:
            if isinstance(node.func, (ast.Name, ast.Attribute)):
                candidates.append((node, chain))
        elif what is _IMPORT:
            _bind_import(chain, node)
            continue
        elif what is _FUNCTION:
            function = node
            inner = _Scope(function)
            if not isinstance(function, ast.Lambda):
                _bind(chain, function.name, _OTHER)
                for decorator in function.decorator_list:
                    if spans_a_line(decorator):
                        push((decorator, chain))
                if function.returns is not None and spans_a_line(function.returns):
                    push((function.returns, chain))
            args = function.args
            for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
                if arg is not None:
                    inner.bind(arg.arg, _OTHER)
                    if arg.annotation is not None and spans_a_line(arg.annotation):
                        push((arg.annotation, chain))
            for default in (*args.defaults, *args.kw_defaults):
                if default is not None and spans_a_line(default):
                    push((default, chain))
            inner_chain = (*chain, inner)
            if isinstance(function.body, list):
                _push_statements(push, function.body, inner_chain, lines)
            elif spans_a_line(function.body):
                push((function.body, inner_chain))
            continue
        elif what is _CLASS:
            inner = _Scope(node)
            _bind(chain, node.name, _OTHER)
            for expr in (*node.decorator_list, *node.bases, *(kw.value for kw in node.keywords)):
                if spans_a_line(expr):
                    push((expr, chain))
            _push_statements(push, node.body, (*chain, inner), lines)
            continue
        elif what is _COMPREHENSION:
            chain = (*chain, _Scope(node))
        elif what is _GLOBAL:
            scope = chain[-1]
            target = scope.declared_global if isinstance(node, ast.Global) else scope.declared_nonlocal
            target.update(node.names)
            continue
        elif what is _WALRUS:
            # A walrus binds in the nearest enclosing non-comprehension scope.
            outer = tuple(s for s in chain if not isinstance(s.node, _COMPREHENSIONS))
            _bind(outer, node.target.id, _OTHER)
            if spans_a_line(node.value):
                push((node.value, chain))
            continue
        elif what is _NAMED:
            if node.name:
                _bind(chain, node.name, _OTHER)
        elif what is _REST:
            if node.rest:
                _bind(chain, node.rest, _OTHER)
        # The children in the order ast.iter_child_nodes gives them, pushed last first.
        fields = _CHILD_FIELDS.get(kind)
        if fields is None:
            fields = _CHILD_FIELDS[kind] = _child_fields(kind)
        children: list[ast.AST] = []
        for name in fields:
            value = getattr(node, name, None)
            if value is None:
                continue
            if type(value) is list:
                if every:
                    children.extend(item for item in value if isinstance(item, ast.AST))
                elif name in _STATEMENT_LIST_FIELDS and value and isinstance(value[0], _LISTED_STATEMENTS):
                    children.extend(_statements_holding(value, wanted))
                else:
                    for item in value:
                        if isinstance(item, ast.AST):
                            first = getattr(item, "lineno", None)
                            if first is not None:
                                index = bisect_left(wanted, first)
                                if index == count or wanted[index] > (item.end_lineno or first):
                                    continue
                            children.append(item)
            elif isinstance(value, ast.AST):
                if not every:
                    first = getattr(value, "lineno", None)
                    if first is not None:
                        index = bisect_left(wanted, first)
                        if index == count or wanted[index] > (value.end_lineno or first):
                            continue
                children.append(value)
        for child in reversed(children):
            push((child, chain))

    found: list[LocatedCall] = []
    for call, chain in candidates:
        located = _judge(call, chain, call_names, api_modules)
        if located is not None:
            found.append(located)
    found.sort(key=lambda c: (c.node.lineno, c.node.col_offset))
    return found


# What the walk does with a node, looked up by the node's type (one dictionary look
# instead of a chain of isinstance tests); _PLAIN: only looked into.
_PLAIN, _NAME, _CALL, _IMPORT, _FUNCTION, _CLASS, _COMPREHENSION, _GLOBAL, _WALRUS, _NAMED, _REST = (
    "plain", "name", "call", "import", "function", "class", "comprehension", "global", "walrus", "named",
    "rest",
)
_WHAT_OF_CLASS: tuple[tuple[type[ast.AST] | tuple[type[ast.AST], ...], str], ...] = (
    (ast.Call, _CALL),
    (ast.Name, _NAME),
    ((ast.Import, ast.ImportFrom), _IMPORT),
    ((ast.Global, ast.Nonlocal), _GLOBAL),
    (_FUNCTIONS, _FUNCTION),
    (ast.ClassDef, _CLASS),
    (_COMPREHENSIONS, _COMPREHENSION),
    (ast.NamedExpr, _WALRUS),
    ((ast.ExceptHandler, ast.MatchAs, ast.MatchStar), _NAMED),
    (ast.MatchMapping, _REST),
)


def _what_to_do(kind: type) -> str:
    """What the walk does with a node of type ``kind``: the first class it is a
    subclass of, in the order the walk's tests were once made."""
    for classes, what in _WHAT_OF_CLASS:
        if issubclass(kind, classes):
            return what
    return _PLAIN


_SPECIAL: dict[type, str] = {
    kind: _what_to_do(kind) for kind in vars(ast).values() if isinstance(kind, type) and issubclass(kind, ast.AST)
}

# Fields that never hold a node worth visiting: identifiers and numbers, and the leaf
# nodes of contexts and operators (visiting those finds nothing). Not "name": a
# string mostly, but the Name a type alias binds (Python 3.12+).
_LEAF_FIELDS = frozenset(
    {"ctx", "op", "ops", "id", "attr", "arg", "asname", "module", "level", "kind",
     "conversion", "is_async", "simple", "tag", "type_comment", "kwd_attrs"}
)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(kind: type) -> tuple[str, ...]:
    """The fields of a node type that may hold child nodes, in ``_fields`` order."""
    return tuple(name for name in getattr(kind, "_fields", ()) if name not in _LEAF_FIELDS)


_STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")
# The statement lists whose items all carry positions ("cases" holds match_case
# nodes, which have none, and is tested item by item).
_STATEMENT_LIST_FIELDS = frozenset(("body", "orelse", "finalbody", "handlers"))


def _first_line(statement: ast.stmt) -> int:
    """Where a statement's text starts: a decorated def or class starts at its first
    decorator, above the line ``lineno`` names."""
    decorators = getattr(statement, "decorator_list", None)
    return decorators[0].lineno if decorators else statement.lineno

_LISTED_STATEMENTS = (ast.stmt, ast.excepthandler)


def _statements_holding(body: list[ast.stmt], lines: list[int]) -> list[ast.stmt]:
    """The statements of ``body`` whose lines [lineno, end_lineno] hold one of
    ``lines`` (sorted), in ``body``'s order.

    A long list is searched by bisection, not by testing every statement, which
    relies on what the parser guarantees of a statement list: in source order, each
    statement ending on or before the line the next one starts on (several share a
    line only after a ``;``). A statement holds a line when it is the last one
    starting on or before the line, or one before it still ending on the line.
    """
    count = len(lines)
    if len(body) <= _SHORT_LIST:
        chosen = []
        for statement in body:
            first = _first_line(statement)
            index = bisect_left(lines, first)
            if index != count and lines[index] <= (statement.end_lineno or first):
                chosen.append(statement)
        return chosen
    lo = bisect_left(lines, _first_line(body[0]))
    last = body[-1]
    hi = bisect_right(lines, last.end_lineno or last.lineno, lo)
    chosen = []
    taken = -1  # the index of the last statement chosen
    for line in lines[lo:hi]:
        index = bisect_right(body, line, taken + 1, key=_first_line) - 1
        start = index
        while start > taken and (body[start].end_lineno or _first_line(body[start])) >= line:
            start -= 1
        if start < index:
            chosen.extend(body[start + 1 : index + 1])
            taken = index
    return chosen


# Up to this many statements, testing each costs less than bisecting.
_SHORT_LIST = 8


def _push_statements(
    push: Callable[[tuple[ast.AST, tuple[_Scope, ...]]], None],
    body: list[ast.stmt],
    chain: tuple[_Scope, ...],
    lines: list[int] | None,
) -> None:
    """Push the statements of ``body`` that hold one of ``lines`` (all without
    ``lines``), last first, so that they are popped in source order."""
    chosen = body if lines is None or not body else _statements_holding(body, lines)
    for statement in reversed(chosen):
        push((statement, chain))


# The statement lists each kind of node holds (``If``: body and orelse), looked up by
# the node's exact type; most statements hold none and are not looked into at all,
# where asking each one for all five lists cost more than the rest of the walk.
_LISTS_OF_TYPE: dict[type[ast.AST], tuple[str, ...]] = {
    kind: lists
    for kind in vars(ast).values()
    if isinstance(kind, type)
    and issubclass(kind, (ast.mod, ast.stmt, ast.excepthandler, ast.match_case))
    and (lists := tuple(name for name in _STATEMENT_LISTS if name in kind._fields))
}


def _imports(tree: ast.Module, text: str | None = None) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth; expressions are never entered.

    With the source ``text``, only the statements on lines that hold ``import`` are
    looked into: every import statement spells the keyword on one of its lines.
    """
    lines: list[int] | None = None
    if text is not None:
        find = text.find
        offsets: list[int] = []
        position = find("import")
        while position != -1:
            offsets.append(position)
            position = find("import", position + 6)
        lines = lines_of(text, offsets)
        if not lines:
            return
    stack: list[ast.AST] = [tree]
    lists_of = _LISTS_OF_TYPE.get
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
            continue
        for name in lists_of(type(node), ()):
            children = getattr(node, name, None)
            if isinstance(children, list):
                if lines is not None and children and name in _STATEMENT_LIST_FIELDS:
                    children = _statements_holding(children, lines)
                stack.extend(children)


def _lines_that_matter(
    tree: ast.Module, text: str, call_names: Sequence[str], api_modules: Sequence[str]
) -> list[int]:
    """Sorted line numbers that spell a call name or a name an API import binds."""
    names = set(call_names)
    # An import that touches an API module names a module whose first component is
    # that of an API module: the others are passed over at once.
    heads = {api.split(".", 1)[0] for api in api_modules}
    for node in _imports(tree, text):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".", 1)[0] in heads and _touches_api(alias.name, api_modules):
                    names.add(alias.asname or alias.name.split(".", 1)[0])
        elif not node.level and node.module and node.module.split(".", 1)[0] in heads:
            is_api = is_api_module(node.module, api_modules)
            for alias in node.names:
                if is_api or _touches_api(f"{node.module}.{alias.name}", api_modules):
                    names.add(alias.asname or alias.name)
    names.discard("*")
    return word_lines(text, names)


def _touches_api(module: str, api_modules: Sequence[str]) -> bool:
    """True when ``module`` is an API module, inside one, or a package holding one."""
    return any(
        module == api or module.startswith(api + ".") or api.startswith(module + ".")
        for api in api_modules
    )


def _bind(chain: tuple[_Scope, ...], name: str, binding: _Binding) -> None:
    scope = chain[-1]
    if name in scope.declared_global:
        chain[0].bind(name, binding)
    elif name in scope.declared_nonlocal:
        # Rare in tool code; whatever it rebinds is no longer provably ours.
        for outer in reversed(chain[:-1]):
            if isinstance(outer.node, _FUNCTIONS):
                outer.bind(name, _OTHER)
                break
        scope.bind(name, _OTHER)
    else:
        scope.bind(name, binding)


def _bind_import(chain: tuple[_Scope, ...], node: ast.Import | ast.ImportFrom) -> None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                _bind(chain, alias.asname, _Binding("module", alias.name))
            else:
                head = alias.name.split(".", 1)[0]
                _bind(chain, head, _Binding("module", head))
        return
    module = node.module or ""
    for alias in node.names:
        if alias.name == "*":
            continue  # names from a star import are never provably ours
        name = alias.asname or alias.name
        if node.level:
            _bind(chain, name, _OTHER)
        else:
            _bind(chain, name, _Binding("from", module, alias.name))


def _lookup(name: str, chain: tuple[_Scope, ...]) -> list[_Binding] | None:
    """The bindings of ``name`` in the scope Python would look it up in, or None."""
    innermost = len(chain) - 1
    for index in range(innermost, -1, -1):
        scope = chain[index]
        # Class bodies are visible only to code directly inside them.
        if isinstance(scope.node, ast.ClassDef) and index != innermost:
            continue
        if name in scope.bindings:
            return scope.bindings[name]
        if name in scope.declared_global and index != 0:
            return chain[0].bindings.get(name)
    return None


def _dotted(expr: ast.expr) -> list[str] | None:
    """``a.b.c`` as ``["a", "b", "c"]``; None for anything that is not a plain chain."""
    names: list[str] = []
    while isinstance(expr, ast.Attribute):
        names.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    names.append(expr.id)
    names.reverse()
    return names


def _api_name_of(bindings: list[_Binding], api_modules: Sequence[str]) -> str | None:
    """The API function every binding imports, when they all agree; else None."""
    meant: set[str] = set()
    for binding in bindings:
        if binding.kind != "from" or not is_api_module(binding.module, api_modules):
            return None
        meant.add(binding.attr)
    if len(meant) != 1:
        return None
    (name,) = meant
    return name


def _module_path(bindings: list[_Binding]) -> str | None:
    """The module every binding of a name refers to, when they agree; else None."""
    paths: set[str] = set()
    for binding in bindings:
        if binding.kind == "module":
            paths.add(binding.module)
        elif binding.kind == "from":
            # ``from semantics_lint import runtime`` binds a module (or an attribute;
            # the API-module check below decides whether that matters).
            paths.add(f"{binding.module}.{binding.attr}")
        else:
            return None
    if len(paths) != 1:
        return None
    (path,) = paths
    return path


def _judge(
    call: ast.Call,
    chain: tuple[_Scope, ...],
    call_names: Sequence[str],
    api_modules: Sequence[str],
) -> LocatedCall | None:
    function = _enclosing_function(chain)
    func = call.func
    if isinstance(func, ast.Name):
        if func.id in call_names:
            return LocatedCall(call, "described_result", func.id, function)
        bindings = _lookup(func.id, chain)
        if not bindings:
            return None
        meant = _api_name_of(bindings, api_modules)
        kind = _KIND_OF_NAME.get(meant) if meant is not None else None
        if kind is None:
            return None
        return LocatedCall(call, kind, func.id, function)
    names = _dotted(func)
    if names is None or len(names) < 2:
        return None
    attr = names[-1]
    kind = _KIND_OF_NAME.get(attr)
    if kind is None and attr in call_names:
        kind = "described_result"
    if kind is None:
        return None
    bindings = _lookup(names[0], chain)
    if not bindings:
        return None
    base = _module_path(bindings)
    if base is None:
        return None
    module = ".".join([base, *names[1:-1]])
    if not is_api_module(module, api_modules):
        return None
    return LocatedCall(call, kind, ".".join(names), function)


def _enclosing_function(
    chain: tuple[_Scope, ...],
) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None:
    for scope in reversed(chain):
        if isinstance(scope.node, _FUNCTIONS):
            return scope.node
    return None


def iter_kinds() -> Iterator[str]:
    """Every call kind recognition can produce."""
    yield from dict.fromkeys(_KIND_OF_NAME.values())
