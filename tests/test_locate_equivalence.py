"""Recognition of our calls from the index finds what a walk of the scopes finds.

The reference below is the recognizer as it was before the index: one walk of every
node carrying the chain of enclosing scopes, bindings recorded per scope as Python
scopes them, each candidate call judged by the bindings of its name. Both run on the
repository's Python files, on a sample of the standard library whose common names are
renamed to the API's, and on hand-written corner cases, with two settings.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from semantics_lint import vocabulary
from semantics_lint.lint.calls.locate import LocatedCall, locate_calls
from semantics_lint.lint.core.index import build_index

ROOT = Path(__file__).resolve().parent.parent

# -- the reference: recognition by a walk of every node ---------------------------------


@dataclass(frozen=True, slots=True)
class _Reference:
    node: ast.Call
    kind: str
    spelled: str
    function: ast.AST | None


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


# The API names a binding may stand for, mapped to the call kind they make.
_KIND_OF_NAME: dict[str, str] = {name: "described_result" for name in vocabulary.DESCRIBED_RESULT_NAMES}
_KIND_OF_NAME.update(vocabulary.API_FUNCTION_KINDS)


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


def is_api_module(module: str, api_modules: Sequence[str]) -> bool:
    """True for an API module or a submodule of one."""
    return any(module == api or module.startswith(api + ".") for api in api_modules)


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
) -> _Reference | None:
    function = _enclosing_function(chain)
    func = call.func
    if isinstance(func, ast.Name):
        if func.id in call_names:
            return _Reference(call, "described_result", func.id, function)
        bindings = _lookup(func.id, chain)
        if not bindings:
            return None
        meant = _api_name_of(bindings, api_modules)
        kind = _KIND_OF_NAME.get(meant) if meant is not None else None
        if kind is None:
            return None
        return _Reference(call, kind, func.id, function)
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
    return _Reference(call, kind, ".".join(names), function)


def _enclosing_function(
    chain: tuple[_Scope, ...],
) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None:
    for scope in reversed(chain):
        if isinstance(scope.node, _FUNCTIONS):
            return scope.node
    return None


def _reference_locate(
    tree: ast.Module, call_names: Sequence[str], api_modules: Sequence[str]
) -> list[_Reference]:
    candidates: list[tuple[ast.Call, tuple[_Scope, ...]]] = []
    module_scope = _Scope(tree)
    stack: list[tuple[ast.AST, tuple[_Scope, ...]]] = [(tree, (module_scope,))]
    while stack:
        node, chain = stack.pop()
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
            _bind(chain, node.name, _Binding("other"))
            for expr in (*node.decorator_list, *node.bases, *(kw.value for kw in node.keywords)):
                stack.append((expr, chain))
            inner_chain = (*chain, inner)
            for child in reversed(node.body):
                stack.append((child, inner_chain))
            continue
        elif isinstance(node, _COMPREHENSIONS):
            inner_chain = (*chain, _Scope(node))
            for child in reversed(list(ast.iter_child_nodes(node))):
                stack.append((child, inner_chain))
            continue
        elif isinstance(node, ast.NamedExpr):
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
    found: list[_Reference] = []
    for call, chain in candidates:
        located = _judge(call, chain, call_names, api_modules)
        if located is not None:
            found.append(located)
    found.sort(key=lambda c: (c.node.lineno, c.node.col_offset))
    return found


# -- inputs ---------------------------------------------------------------------------------

CORNERS = [
    # Statements sharing lines, continued lines, decorators (a call in a decorator is
    # on lines before its function's own), nested scopes and every binding form.
    (
        "from semantics_lint.runtime import absent, coverage; import agentfootprint as af\n"
        "x = 1; absent(what='a'); y = coverage(1, checked=['b'])\n"
        "@absent(what='deco')\n@af.coverage(2)\ndef absent(): return absent(what='c')\n"
        "class K(absent(what='base')):\n    absent = 1\n    z = absent(what='d')\n"
        "    def m(self, absent=absent(what='e')): return absent(what='f')\n"
    ),
    (
        "from agentfootprint import coverage as cov\n"
        "def f(v):\n    global cov\n    cov = 1\n\ncov(v, checked=['x'])\n"
        "def g():\n    cov = 2\n    def h():\n        nonlocal cov\n        cov = 3\n    return cov(1)\n"
    ),
    (
        "import agentfootprint\nimport semantics_lint.runtime as rt\n"
        "[rt.absent(what=i) for i in range(3) if (absent := i)]\n"
        "lambda absent: absent(what='p')\n"
        "{k: agentfootprint.coverage(k) for k in agentfootprint.define_tool(name='t')}\n"
        "try:\n    from semantics_lint.runtime import absent\nexcept ImportError as absent:\n    pass\n"
        "else:\n    absent(what='q')\nfinally:\n    rt.coverage(absent(what='r'))\n"
    ),
    (
        "from semantics_lint.runtime import absent\n"
        "match absent(what='s'):\n    case {'k': 1, **absent}:\n        absent(what='t')\n"
        "    case [absent, *rest] if absent(what='u'):\n        pass\n    case _:\n        absent(what='v')\n"
    ),
    (
        "from semantics_lint.runtime import (\n    absent,\n    coverage as c,\n)\r\n"
        "if x:\r    absent(what=f'{absent(what=1)}',\r        checked=[c(1)])\relse:\n    c(2)\n"
        "while absent(what='w'):\n    break\nelse:\n    c(3)\n"
        "for absent in absent(what='x'):\n    pass\nwith c(4) as absent, c(5):\n    absent(what='y')\n"
    ),
    (
        "described_result(facts=[])\ndescribedResult(series=[]); x = described_result\n"
        "async def a():\n    async with described_result() as d:\n        await describedResult()\n"
        "    async for described_result in d:\n        described_result(1)\n"
    ),
    "\n".join(f"import semantics_lint.runtime as r{i}; r{i}.absent(what={i})" for i in range(40)) + "\n",
]


def _stdlib_sample() -> list[tuple[str, str]]:
    """Every 12th module of the standard library, common names renamed to the API's:
    many imports, bindings and calls of the names the locator follows."""
    root = Path(ast.__file__).resolve().parent
    files = sorted(p for p in root.glob("*.py"))[::12]
    renames = {
        "os": "agentfootprint",
        "sys": "semantics_lint",
        "len": "absent",
        "isinstance": "coverage",
        "getattr": "define_tool",
        "print": "described_result",
        "path": "runtime",
        "join": "absent",
    }
    word = re.compile(r"\b(" + "|".join(renames) + r")\b")
    cases = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        cases.append((f"stdlib/{path.name}", word.sub(lambda m: renames[m.group(1)], text)))
    return cases


# A type alias binds a name through a Name node in its "name" field (Python 3.12+).
TYPE_ALIASES = (
    "from semantics_lint.runtime import absent\ntype absent = int\nabsent(what='x')\n"
    "def f[T](absent: T): return absent(what='y')\nclass C[absent]: absent(what='z')\n"
)


def _cases() -> list[tuple[str, str]]:
    cases = [(f"corner-{i}", text) for i, text in enumerate(CORNERS)]
    if sys.version_info >= (3, 12):
        cases.append(("type-aliases", TYPE_ALIASES))
    files = sorted(p for folder in ("src", "testdata") for p in (ROOT / folder).rglob("*.py"))
    cases.extend((str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in files)
    cases.extend(_stdlib_sample())
    return cases


CASES = _cases()
SETTINGS = [
    (("described_result", "describedResult"), ("semantics_lint.runtime", "agentfootprint")),
    (("described_result", "make", "absent"), ("semantics_lint", "agentfootprint.api", "runtime")),
]


def _shape(calls: list[LocatedCall] | list[_Reference]) -> list[tuple[int, str, str, int]]:
    return [(id(c.node), c.kind, c.spelled, id(c.function)) for c in calls]


def _located(
    tree: ast.Module, call_names: tuple[str, ...], api_modules: tuple[str, ...]
) -> list[LocatedCall]:
    index = build_index(tree, (*call_names, "absent", "coverage", "define_tool"))
    return locate_calls(index, call_names, api_modules)


@pytest.mark.parametrize(("label", "text"), CASES, ids=[label for label, _ in CASES])
def test_recognition_from_the_index_agrees_with_a_scope_walk(label: str, text: str) -> None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        pytest.skip("not valid Python")
    for call_names, api_modules in SETTINGS:
        expected = _shape(_reference_locate(tree, call_names, api_modules))
        assert _shape(_located(tree, call_names, api_modules)) == expected, call_names


def test_corner_cases_hold_calls() -> None:
    # The inputs exercise recognition: calls found through every kind of binding, and
    # none in the two cases whose names are rebound (global, match patterns).
    found = [len(_located(ast.parse(text), *SETTINGS[0])) for text in CORNERS]
    assert found == [2, 0, 4, 0, 5, 5, 40]


DECORATED = """\
from semantics_lint.runtime import absent, described_result

@register(empty=absent(what="backups", checked=["vm-1"]))
def tool(rows):
    return rows

class Tools:
    @register(result=described_result(facts=[], grain={"unit": "vm"}))
    @staticmethod
    def other(rows):
        return rows
"""


def test_a_call_in_a_decorator_is_found() -> None:
    # A decorated def's ``lineno`` is its ``def`` line; its decorators sit above, and
    # run in the scope around it.
    found = _located(ast.parse(DECORATED), *SETTINGS[0])
    assert [(c.kind, c.node.lineno) for c in found] == [("absent", 3), ("described_result", 8)]
