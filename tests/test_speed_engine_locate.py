"""The locator's walk finds what the walk it replaced found, call for call.

The walk tests a node's lines before pushing it and searches long statement lists by
bisection; the reference below is the walk as it was (every node tested as it is
popped, ``ast.iter_child_nodes`` for the children, the import statements found by a
walk of every statement, the lines found by one regex). Both run, with and without
the text, on the repository's Python files, on a sample of the standard library
whose common names are renamed to the API's, and on hand-written corner cases.
"""

from __future__ import annotations

import ast
import re
import sys
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from semantics_lint.lint import locate
from semantics_lint.lint.locate import (
    _COMPREHENSIONS,
    _FUNCTIONS,
    LocatedCall,
    _bind,
    _bind_import,
    _Binding,
    _judge,
    _Scope,
    _touches_api,
    is_api_module,
    locate_calls,
)

ROOT = Path(__file__).resolve().parent.parent

# -- the reference: the locator before the speed changes ---------------------------------


def _reference_word_lines(text: str, names: set[str]) -> list[int]:
    wanted = sorted(names)
    if not wanted:
        return []
    pattern = re.compile(r"(?<![\w])(?:" + "|".join(map(re.escape, wanted)) + r")(?![\w])")
    found: list[int] = []
    line = 1
    position = 0
    for match in pattern.finditer(text):
        chunk = text[position : match.start()]
        line += chunk.count("\n") + chunk.count("\r") - chunk.count("\r\n")
        position = match.start()
        if not found or found[-1] != line:
            found.append(line)
    return found


def _reference_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
            continue
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, name, None)
            if isinstance(children, list):
                stack.extend(children)


def _reference_lines(tree: ast.Module, text: str, call_names: Sequence[str], api_modules: Sequence[str]) -> list[int]:
    names = set(call_names)
    for node in _reference_imports(tree):
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
    return _reference_word_lines(text, names)


def _reference_locate(
    tree: ast.Module, call_names: Sequence[str], api_modules: Sequence[str], text: str | None
) -> list[LocatedCall]:
    lines: list[int] | None = None
    if text is not None:
        lines = _reference_lines(tree, text, call_names, api_modules)
        if not lines:
            return []
    candidates: list[tuple[ast.Call, tuple[_Scope, ...]]] = []
    module_scope = _Scope(tree)
    stack: list[tuple[ast.AST, tuple[_Scope, ...]]] = [(tree, (module_scope,))]
    while stack:
        node, chain = stack.pop()
        if lines is not None:
            first = getattr(node, "lineno", None)
            decorators = getattr(node, "decorator_list", None)
            if decorators:
                first = decorators[0].lineno  # a decorated def starts at its decorator
            if first is not None:
                index = bisect_left(lines, first)
                if index == len(lines) or lines[index] > (node.end_lineno or first):  # type: ignore[attr-defined]
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
    found: list[LocatedCall] = []
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
    ("from semantics_lint.runtime import absent, coverage; import agentfootprint as af\n"
     "x = 1; absent(what='a'); y = coverage(1, checked=['b'])\n"
     "@absent(what='deco')\n@af.coverage(2)\ndef absent(): return absent(what='c')\n"
     "class K(absent(what='base')):\n    absent = 1\n    z = absent(what='d')\n"
     "    def m(self, absent=absent(what='e')): return absent(what='f')\n"),
    ("from agentfootprint import coverage as cov\n"
     "def f(v):\n    global cov\n    cov = 1\n\ncov(v, checked=['x'])\n"
     "def g():\n    cov = 2\n    def h():\n        nonlocal cov\n        cov = 3\n    return cov(1)\n"),
    ("import agentfootprint\nimport semantics_lint.runtime as rt\n"
     "[rt.absent(what=i) for i in range(3) if (absent := i)]\n"
     "lambda absent: absent(what='p')\n"
     "{k: agentfootprint.coverage(k) for k in agentfootprint.define_tool(name='t')}\n"
     "try:\n    from semantics_lint.runtime import absent\nexcept ImportError as absent:\n    pass\n"
     "else:\n    absent(what='q')\nfinally:\n    rt.coverage(absent(what='r'))\n"),
    ("from semantics_lint.runtime import absent\n"
     "match absent(what='s'):\n    case {'k': 1, **absent}:\n        absent(what='t')\n"
     "    case [absent, *rest] if absent(what='u'):\n        pass\n    case _:\n        absent(what='v')\n"),
    ("from semantics_lint.runtime import (\n    absent,\n    coverage as c,\n)\r\n"
     "if x:\r    absent(what=f'{absent(what=1)}',\r        checked=[c(1)])\relse:\n    c(2)\n"
     "while absent(what='w'):\n    break\nelse:\n    c(3)\n"
     "for absent in absent(what='x'):\n    pass\nwith c(4) as absent, c(5):\n    absent(what='y')\n"),
    ("described_result(facts=[])\ndescribedResult(series=[]); x = described_result\n"
     "async def a():\n    async with described_result() as d:\n        await describedResult()\n"
     "    async for described_result in d:\n        described_result(1)\n"),
    "\n".join(f"import semantics_lint.runtime as r{i}; r{i}.absent(what={i})" for i in range(40)) + "\n",
]


def _stdlib_sample() -> list[tuple[str, str]]:
    """Every 12th module of the standard library, common names renamed to the API's:
    many imports, bindings and calls of the names the locator follows."""
    root = Path(ast.__file__).resolve().parent
    files = sorted(p for p in root.glob("*.py"))[::12]
    renames = {"os": "agentfootprint", "sys": "semantics_lint", "len": "absent", "isinstance": "coverage",
               "getattr": "define_tool", "print": "described_result", "path": "runtime", "join": "absent"}
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


def _shape(calls: list[LocatedCall]) -> list[tuple[int, str, str, int]]:
    return [(id(c.node), c.kind, c.spelled, id(c.function)) for c in calls]


@pytest.mark.parametrize(("label", "text"), CASES, ids=[label for label, _ in CASES])
def test_locator_agrees_with_the_walk_it_replaced(label: str, text: str) -> None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        pytest.skip("not valid Python")
    for call_names, api_modules in SETTINGS:
        for given in (text, None):
            expected = _shape(_reference_locate(tree, call_names, api_modules, given))
            assert _shape(locate_calls(tree, call_names, api_modules, given)) == expected, (call_names, given is None)


def test_corner_cases_hold_calls() -> None:
    # The inputs exercise the walk: calls found through every kind of binding, and
    # none in the two cases whose names are rebound (global, match patterns).
    settings = SETTINGS[0]
    found = [len(locate_calls(ast.parse(text), *settings, text)) for text in CORNERS]
    assert found == [2, 0, 4, 0, 5, 5, 40]


def test_long_statement_lists_are_searched_as_a_walk_tests_them() -> None:
    # Bodies longer than the short-list limit take the bisection; statements share
    # lines after ';' and span lines; every line of the text, each alone, as the
    # lines that matter.
    parts = []
    for i in range(3 * locate._SHORT_LIST):
        parts.append(f"a{i} = (1,\n  2); b{i} = 3; c{i} = [\n4]\n" if i % 3 else f"@d\ndef f{i}(): pass\n")
    text = "".join(parts)
    body = ast.parse(text).body
    assert len(body) > locate._SHORT_LIST
    last = text.count("\n") + 1
    def start(s: ast.stmt) -> int:
        decorators = getattr(s, "decorator_list", None)
        return decorators[0].lineno if decorators else s.lineno

    for line in range(1, last + 1):
        expected = [s for s in body if start(s) <= line <= (s.end_lineno or s.lineno)]
        assert locate._statements_holding(body, [line]) == expected, line
    for step in (2, 3, 5):
        lines = list(range(1, last + 1, step))
        expected = [s for s in body if any(start(s) <= n <= (s.end_lineno or s.lineno) for n in lines)]
        assert locate._statements_holding(body, lines) == expected, step


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


@pytest.mark.parametrize("size", [1, 3 * locate._SHORT_LIST])
def test_a_call_in_a_decorator_is_found_with_the_text_too(size: int) -> None:
    # A decorated def's ``lineno`` is its ``def`` line; its decorators sit above, and a
    # call there is found whether or not the walk is limited to the lines that matter
    # (short statement lists and bisected long ones alike).
    text = DECORATED + "".join(f"x{i} = {i}\n" for i in range(size))
    tree = ast.parse(text)
    found = locate_calls(tree, *SETTINGS[0], text)
    assert [(c.kind, c.node.lineno) for c in found] == [("absent", 3), ("described_result", 8)]
    assert _shape(found) == _shape(locate_calls(tree, *SETTINGS[0], None))
