"""The cheap tree walks give the answers of the full walks they replace.

Speed work replaced whole-tree ``ast.walk`` passes with narrower ones: statements only
(no expression entered), or only the parts of the tree on lines that spell the names
asked about. Each test here keeps the plain full walk as the reference and checks that
the cheap one agrees, on hand-written traps (decorators above the ``def`` line,
f-strings, walrus, non-ASCII identifiers) and on every Python file of this repository.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from semantics_lint.lint.context import (
    CallSite,
    FileContext,
    lines_spelling,
    statements,
    walk_lines,
)
from semantics_lint.lint.declaration import assigned_values
from semantics_lint.lint.engine import LintSettings
from semantics_lint.lint.rules.sem2xx_provenance import imports_of

ROOT = Path(__file__).resolve().parent.parent
REPO_FILES = sorted(
    p for folder in ("src", "tests", "testdata") for p in (ROOT / folder).rglob("*.py")
)

TRAPS = {
    "decorator above def": (
        "from m import deco, x\n"
        "@deco(\n"
        "    x := 1,\n"
        ")\n"
        "def f(a):\n"
        "    return a\n"
    ),
    "class decorator": "from m import k\n@k\nclass k:\n    pass\n",
    "parameter shadows import": "import os\ndef f(os):\n    return os\n",
    "lambda parameter": "from m import v\ng = lambda v: v\n",
    "comprehension target": "from m import row\nrows = [row for row in range(3)]\n",
    "f-string walrus": 'from m import q\ns = f"{(q := 2)}"\n',
    "multi-line f-string": 'from m import q\ns = f"""\n{\n(q := 2)\n}"""\n',
    "deleted": "import json\ndel json\n",
    "crlf lines": "import a\r\nx = 1\r\ndef a():\r\n    pass\r\n",
    "cr lines": "import a\rx = 1\rdef a():\r    pass\r",
    "non-ascii identifier": "from m import x\n\uff58 = 1\n",
    "imported twice": "import a as b\nimport c as b\n",
    "nested import": "def f():\n    import datetime as dt\n    return dt\n",
    "try and match": (
        "try:\n    import a\nexcept ImportError:\n    a = None\n"
        "match 1:\n    case _:\n        from b import c\n"
    ),
    "assigned in function": (
        "from m import WHEN\n"
        "SOURCE = 'x'\n"
        "def f():\n"
        "    prov = {'measuredAt': WHEN}\n"
        "    if True:\n"
        "        prov2: dict = prov\n"
        "    g = lambda: (h := 1)\n"
        "    return prov\n"
        "class C:\n"
        "    SOURCE = 'y'\n"
    ),
}


def _sources() -> list[tuple[str, str]]:
    found = [(name, text) for name, text in TRAPS.items()]
    found.extend((str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in REPO_FILES)
    return found


SOURCES = _sources()


def _parse(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except SyntaxError:
        return None


def _reference_imports(tree: ast.Module) -> dict[str, str]:
    """imports_of as a walk of the whole tree."""
    found: dict[str, str] = {}
    doubtful: set[str] = set()
    assigned: set[str] = set()
    for node in ast.walk(tree):
        pairs: list[tuple[str, str]] = []
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                pairs.append((alias.asname, alias.name) if alias.asname else (top, top))
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            pairs.extend(
                (alias.asname or alias.name, f"{node.module}.{alias.name}")
                for alias in node.names
                if alias.name != "*"
            )
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            assigned.add(node.id)
        elif isinstance(node, ast.arg):
            assigned.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            assigned.add(node.name)
        for local, target in pairs:
            if found.get(local, target) != target:
                doubtful.add(local)
            found[local] = target
    return {k: v for k, v in found.items() if k not in doubtful and k not in assigned}


def _reference_assigned(tree: ast.Module, function: ast.AST | None, name: str) -> list[ast.expr] | None:
    """assigned_values as a walk of every node of the module level and the function."""
    values: list[ast.expr] = []
    bodies: list[list[ast.stmt]] = [tree.body]
    if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        bodies.append(function.body)
    for index, body in enumerate(bodies):
        stack: list[ast.AST] = list(body)
        while stack:
            node = stack.pop()
            if index == 0 and isinstance(
                node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
            ):
                continue
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                if any((alias.asname or alias.name.split(".")[0]) == name for alias in node.names):
                    return None
                continue
            targets: list[ast.expr] = []
            value: ast.expr | None = None
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)):
                targets, value = [node.target], node.value
            if value is not None and any(isinstance(t, ast.Name) and t.id == name for t in targets):
                values.append(value)
            stack.extend(ast.iter_child_nodes(node))
    return values


def _context(text: str, tree: ast.Module) -> FileContext:
    return FileContext(filename="t.py", text=text, tree=tree, settings=LintSettings())


@pytest.mark.parametrize(("label", "text"), SOURCES, ids=[label for label, _ in SOURCES])
def test_imports_of_agrees_with_a_full_walk(label: str, text: str) -> None:
    tree = _parse(text)
    if tree is None:
        pytest.skip("not valid Python")
    assert imports_of(_context(text, tree)) == _reference_imports(tree)


@pytest.mark.parametrize(("label", "text"), SOURCES, ids=[label for label, _ in SOURCES])
def test_assigned_values_agrees_with_a_full_walk(label: str, text: str) -> None:
    tree = _parse(text)
    if tree is None:
        pytest.skip("not valid Python")
    context = _context(text, tree)
    names = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)})[:60]
    functions: list[ast.AST | None] = [None]
    functions.extend(
        n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
    )
    for function in functions[:15]:
        # Any call node will do: only the call's context and function are read.
        call = CallSite(context, "described_result", "described_result", ast.Call(
            func=ast.Name("described_result", ast.Load()), args=[], keywords=[],
            lineno=1, col_offset=0, end_lineno=1, end_col_offset=0,
        ), function)  # type: ignore[arg-type]
        for name in names:
            expected = _reference_assigned(tree, function, name)
            got = assigned_values(call, name)
            if expected is None:
                assert got is None, (name, function)
            else:
                assert got is not None, (name, function)
                assert [id(v) for v in got] == [id(v) for v in expected], (name, function)


@pytest.mark.parametrize(("label", "text"), SOURCES, ids=[label for label, _ in SOURCES])
def test_walk_lines_keeps_every_node_that_spells_a_name(label: str, text: str) -> None:
    tree = _parse(text)
    if tree is None:
        pytest.skip("not valid Python")
    every = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    for name in sorted(every)[:40]:
        lines = lines_spelling(text, [name])
        if lines is None:
            assert not text.isascii()
            continue
        expected = [id(n) for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name]
        got = [id(n) for n in walk_lines(tree, lines) if isinstance(n, ast.Name) and n.id == name]
        assert sorted(got) == sorted(expected), name


def test_lines_spelling_counts_lines_as_cpython() -> None:
    assert lines_spelling("a = 1\r\nb = a\rc = 2\nab = a\n", ["a"]) == [1, 2, 4]
    assert lines_spelling("x = 1\n", []) == []
    assert lines_spelling("\uff58 = 1\n", ["x"]) is None


def test_statements_never_enter_an_expression() -> None:
    tree = ast.parse("x = [y for y in z]\nif x:\n    def f():\n        return 1\nelse:\n    pass\n")
    kinds = [type(n).__name__ for n in statements(tree.body)]
    assert sorted(kinds) == ["Assign", "FunctionDef", "If", "Pass", "Return"]
    skipped = [type(n).__name__ for n in statements(tree.body, (ast.FunctionDef,))]
    assert sorted(skipped) == ["Assign", "FunctionDef", "If", "Pass"]


@pytest.mark.parametrize(("label", "text"), SOURCES[:40], ids=[label for label, _ in SOURCES[:40]])
def test_resolver_uses_agree_with_a_full_walk(label: str, text: str) -> None:
    from semantics_lint.lint.resolve import ModuleAnalysis, _ast_dotted

    tree = _parse(text)
    if tree is None:
        pytest.skip("not valid Python")
    analysis = ModuleAnalysis(text, None, display=None, tree=tree, settings_names=frozenset({"described_result"}))
    reference = ModuleAnalysis(text, None, display=None, tree=tree, settings_names=frozenset({"described_result"}))
    expected: dict[str, list[ast.expr]] = {}
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
        if isinstance(node, ast.Attribute) or (isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store)):
            spelled = _ast_dotted(node)
            if spelled is not None:
                expected.setdefault(spelled, []).append(node)
    reference._ast_parents = parents
    for spelled, uses in sorted(expected.items())[:80]:
        got = analysis._uses_spelled(spelled)
        assert sorted(map(id, got)) == sorted(map(id, uses)), spelled
        assert [analysis._read_by_api(use) for use in got] == [reference._read_by_api(use) for use in got]


@pytest.mark.parametrize(("label", "text"), SOURCES[:60], ids=[label for label, _ in SOURCES[:60]])
def test_contains_agrees_with_a_walk(label: str, text: str) -> None:
    from semantics_lint.lint.context import contains

    tree = _parse(text)
    if tree is None:
        pytest.skip("not valid Python")
    other = ast.parse(text)  # same positions, other nodes: never contained
    # Contexts and operators (Load, Add...) are singletons shared by every tree.
    nodes = [n for n in ast.walk(tree) if isinstance(n, (ast.expr, ast.stmt, ast.keyword, ast.arg))]
    others = [n for n in ast.walk(other) if isinstance(n, (ast.expr, ast.stmt, ast.keyword, ast.arg))]
    roots = [n for n in nodes if isinstance(n, (ast.Call, ast.JoinedStr, ast.Dict, ast.FunctionDef))][:25]
    for root in roots:
        inside = {id(n) for n in ast.walk(root)}
        for node in nodes[:: max(1, len(nodes) // 300)]:
            assert contains(root, node) == (id(node) in inside)
        for node in others[:: max(1, len(others) // 100)]:
            assert not contains(root, node)


def test_contains_enters_f_strings() -> None:
    from semantics_lint.lint.context import contains

    tree = ast.parse('call(f"""{\nx\n}""", y)\n')
    call = tree.body[0].value  # type: ignore[attr-defined]
    assert all(contains(call, node) for node in ast.walk(call))
