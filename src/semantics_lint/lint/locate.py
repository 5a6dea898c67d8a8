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
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from semantics_lint import vocabulary
from semantics_lint.lint.context import word_lines

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
    scopes: dict[int, _Scope] = {}
    candidates: list[tuple[ast.Call, tuple[_Scope, ...]]] = []
    module_scope = _Scope(tree)
    scopes[id(tree)] = module_scope

    # (node, chain of enclosing scopes, innermost last)
    stack: list[tuple[ast.AST, tuple[_Scope, ...]]] = [(tree, (module_scope,))]
    while stack:
        node, chain = stack.pop()
        if lines is not None:
            first = getattr(node, "lineno", None)
            if first is not None:
                index = bisect_left(lines, first)
                if index == len(lines) or lines[index] > (node.end_lineno or first):
                    continue
        scope = chain[-1]
        if isinstance(node, ast.Call):
            if isinstance(node.func, (ast.Name, ast.Attribute)):
                candidates.append((node, chain))
        elif isinstance(node, ast.Name):
            if not isinstance(node.ctx, ast.Load):
                _bind(chain, node.id, _Binding("other"))
            continue
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            _bind_import(chain, node)
            continue
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            target = scope.declared_global if isinstance(node, ast.Global) else scope.declared_nonlocal
            target.update(node.names)
            continue
        elif isinstance(node, _FUNCTIONS):
            inner = _Scope(node)
            scopes[id(node)] = inner
            if not isinstance(node, ast.Lambda):
                _bind(chain, node.name, _Binding("other"))
                for decorator in node.decorator_list:
                    stack.append((decorator, chain))
                if node.returns is not None:
                    stack.append((node.returns, chain))
            args = node.args
            for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
                if arg is not None:
                    inner.bind(arg.arg, _Binding("other"))
                    if arg.annotation is not None:
                        stack.append((arg.annotation, chain))
            for default in (*args.defaults, *args.kw_defaults):
                if default is not None:
                    stack.append((default, chain))
            inner_chain = (*chain, inner)
            body = node.body if isinstance(node.body, list) else [node.body]
            for child in reversed(body):
                stack.append((child, inner_chain))
            continue
        elif isinstance(node, ast.ClassDef):
            inner = _Scope(node)
            scopes[id(node)] = inner
            _bind(chain, node.name, _Binding("other"))
            for expr in (*node.decorator_list, *node.bases, *(kw.value for kw in node.keywords)):
                stack.append((expr, chain))
            inner_chain = (*chain, inner)
            for child in reversed(node.body):
                stack.append((child, inner_chain))
            continue
        elif isinstance(node, _COMPREHENSIONS):
            inner = _Scope(node)
            scopes[id(node)] = inner
            inner_chain = (*chain, inner)
            for child in reversed(list(ast.iter_child_nodes(node))):
                stack.append((child, inner_chain))
            continue
        elif isinstance(node, ast.NamedExpr):
            # A walrus binds in the nearest enclosing non-comprehension scope.
            outer = tuple(s for s in chain if not isinstance(s.node, _COMPREHENSIONS))
            _bind(outer, node.target.id, _Binding("other"))
            stack.append((node.value, chain))
            continue
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
            if node.name:
                _bind(chain, node.name, _Binding("other"))
        elif isinstance(node, ast.MatchMapping):
            if node.rest:
                _bind(chain, node.rest, _Binding("other"))
        for child in reversed(list(ast.iter_child_nodes(node))):
            stack.append((child, chain))

    found: list[LocatedCall] = []
    for call, chain in candidates:
        located = _judge(call, chain, call_names, api_modules)
        if located is not None:
            found.append(located)
    found.sort(key=lambda c: (c.node.lineno, c.node.col_offset))
    return found


_STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")

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


def _imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth; expressions are never entered."""
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
                stack.extend(children)


def _lines_that_matter(
    tree: ast.Module, text: str, call_names: Sequence[str], api_modules: Sequence[str]
) -> list[int]:
    """Sorted line numbers that spell a call name or a name an API import binds."""
    names = set(call_names)
    for node in _imports(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _touches_api(alias.name, api_modules):
                    names.add(alias.asname or alias.name.split(".", 1)[0])
        elif not node.level and node.module:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if is_api_module(node.module, api_modules) or _touches_api(full, api_modules):
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
                outer.bind(name, _Binding("other"))
                break
        scope.bind(name, _Binding("other"))
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
            _bind(chain, name, _Binding("other"))
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
