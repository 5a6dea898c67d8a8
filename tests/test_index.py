"""The per-file index answers as a full walk of the tree, and scopes as CPython does.

The index (``lint.index``) is built in one walk; each test here keeps an independent
reference and checks that the index agrees: plain ``ast.walk`` passes for the imports,
the uses of every name and which uses are arguments of a declaration call, and
CPython's own symbol table (``symtable``) for which names each scope binds. On
hand-written traps (decorators above the ``def`` line, f-strings, walrus in
comprehensions, ``global``/``nonlocal``, non-ASCII identifiers), on every Python file of
this repository and on a sample of the standard library.
"""

from __future__ import annotations

import ast
import symtable
import sysconfig
from pathlib import Path

import pytest

from semantics_lint.lint.core.index import (
    CLASS,
    COMPREHENSION,
    DELETE,
    GLOBAL,
    LAMBDA,
    MODULE,
    NONLOCAL,
    FileIndex,
    Scope,
    build_index,
    dotted_name,
)
from semantics_lint.lint.engine import LintSettings, file_context
from semantics_lint.lint.rules.values import imports_of

ROOT = Path(__file__).resolve().parent.parent
REPO_FILES = sorted(p for folder in ("src", "tests", "testdata") for p in (ROOT / folder).rglob("*.py"))
STDLIB = Path(sysconfig.get_paths()["stdlib"])
STDLIB_FILES = [
    STDLIB / name
    for name in (
        "ast.py",
        "argparse.py",
        "dataclasses.py",
        "functools.py",
        "inspect.py",
        "typing.py",
        "logging/__init__.py",
        "json/decoder.py",
        "asyncio/tasks.py",
        "email/message.py",
    )
]

TRAPS = {
    "decorator above def": ("from m import deco, x\n@deco(\n    x := 1,\n)\ndef f(a):\n    return a\n"),
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
    "walrus in comprehensions": (
        "def f(rows):\n"
        "    total = [y := r for r in rows]\n"
        "    return [[z := 1 for _ in r] for r in rows], y, z\n"
        "class K:\n"
        "    items = [w for w in range(3)]\n"
    ),
    "global and nonlocal": (
        "COUNT = 0\n"
        "def bump():\n"
        "    global COUNT\n"
        "    COUNT += 1\n"
        "def outer():\n"
        "    seen = 0\n"
        "    def inner():\n"
        "        nonlocal seen\n"
        "        seen = seen + 1\n"
        "        for seen in range(2):\n"
        "            pass\n"
        "    return inner\n"
    ),
    "class body and methods": (
        "X = 1\n"
        "class C:\n"
        "    X = 2\n"
        "    Y = [X for _ in range(2)]\n"
        "    def m(self, X=X):\n"
        "        return X\n"
        "    lam = lambda self, q=X: q\n"
    ),
    "match captures": (
        "match v:\n"
        "    case [a, *rest]:\n"
        "        pass\n"
        "    case {'k': b, **others}:\n"
        "        pass\n"
        "    case Point(x=c) as whole:\n"
        "        pass\n"
    ),
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
    found.extend(
        (f"stdlib/{p.relative_to(STDLIB)}", p.read_text(encoding="utf-8"))
        for p in STDLIB_FILES
        if p.is_file()
    )
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


def _index(text: str, tree: ast.Module, names: frozenset[str] = frozenset({"described_result"})) -> FileIndex:
    return build_index(tree, names)


@pytest.mark.parametrize(("label", "text"), SOURCES, ids=[label for label, _ in SOURCES])
def test_imports_of_agrees_with_a_full_walk(label: str, text: str) -> None:
    tree = _parse(text)
    if tree is None:
        pytest.skip("not valid Python")
    context = file_context(text, tree, "t.py", LintSettings())
    assert imports_of(context) == _reference_imports(tree)


def _reference_uses(tree: ast.Module) -> tuple[dict[str, list[int]], dict[int, ast.AST]]:
    """Every load or deletion of a name, every attribute of a dotted name, by spelling;
    and each node's parent."""
    uses: dict[str, list[int]] = {}
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
        if isinstance(node, ast.Attribute) or (
            isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store)
        ):
            spelled = dotted_name(node)
            if spelled is not None:
                uses.setdefault(spelled, []).append(id(node))
    return uses, parents


def _reference_read_by(node: ast.AST, parents: dict[int, ast.AST], names: frozenset[str]) -> bool:
    """A use written as an argument of a call of ``names`` (through containers, and
    as the container of a subscript with a literal key: ``DATA["rows"]``)."""
    current = node
    parent = parents.get(id(current))
    while isinstance(parent, (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.Starred, ast.Subscript)):
        if isinstance(parent, ast.Dict) and any(key is current for key in parent.keys):
            return False
        if isinstance(parent, ast.Subscript) and (
            parent.value is not current or not isinstance(parent.slice, ast.Constant)
        ):
            return False
        current = parent
        parent = parents.get(id(current))
    if isinstance(parent, ast.keyword):
        call = parents.get(id(parent))
    elif isinstance(parent, ast.Call) and any(arg is current for arg in parent.args):
        call = parent
    else:
        return False
    if not isinstance(call, ast.Call):
        return False
    func = call.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return called in names


@pytest.mark.parametrize(("label", "text"), SOURCES, ids=[label for label, _ in SOURCES])
def test_uses_and_declaration_reads_agree_with_a_full_walk(label: str, text: str) -> None:
    tree = _parse(text)
    if tree is None:
        pytest.skip("not valid Python")
    names = frozenset({"described_result", "absent", "f", "append"})
    index = _index(text, tree, names)
    expected, parents = _reference_uses(tree)
    got = {spelled: sorted(map(id, nodes)) for spelled, nodes in index.uses.items()}
    assert got == {spelled: sorted(ids) for spelled, ids in expected.items()}
    by_id = {id(node): node for node in ast.walk(tree)}
    read = {id(node) for nodes in index.uses.values() for node in nodes if id(node) in index.api_read}
    assert read == {
        key for ids in expected.values() for key in ids if _reference_read_by(by_id[key], parents, names)
    }


def _table_scopes(table: symtable.SymbolTable, owner: str = "") -> list[tuple[symtable.SymbolTable, str]]:
    """Every block of the table, with the class whose private names it mangles."""
    inner = table.get_name().lstrip("_") if table.get_type() == "class" else owner
    found = [(table, inner)]
    for child in table.get_children():
        found.extend(_table_scopes(child, inner))
    return found


def _bound_by_table(table: symtable.SymbolTable, owner: str = "") -> set[str]:
    """The names CPython binds in a scope: assigned, imported, parameters, and names a
    walrus in a comprehension binds there; not those declared global or nonlocal.
    Private names are given as written (the symbol table mangles them)."""
    bound = set()
    mangled = f"_{owner}__" if owner else None
    for symbol in table.get_symbols():
        if symbol.get_name().startswith(".") or symbol.is_nonlocal():
            continue
        if symbol.is_declared_global() and table.get_type() != "module":
            continue
        if symbol.is_assigned() or symbol.is_imported() or symbol.is_parameter():
            if symbol.is_local():
                name = symbol.get_name()
                if mangled and name.startswith(mangled):
                    name = name[len(mangled) - 2 :]
                bound.add(name)
    return bound


def _bound_by_index(scope: Scope) -> set[str]:
    return {
        name
        for name, bindings in scope.bindings.items()
        if any(binding.kind not in (GLOBAL, NONLOCAL, DELETE) for binding in bindings)
    }


_KIND_OF_TABLE = {"module": MODULE, "function": "function", "class": CLASS}


@pytest.mark.parametrize(("label", "text"), SOURCES, ids=[label for label, _ in SOURCES])
def test_scopes_bind_the_names_the_symbol_table_binds(label: str, text: str) -> None:
    tree = _parse(text)
    if tree is None:
        pytest.skip("not valid Python")
    try:
        table = symtable.symtable(text, label, "exec")
    except SyntaxError:
        pytest.skip("CPython's compiler refuses it")
    index = _index(text, tree)
    # Scopes in the order of their first line, and of their kind: a lambda and a
    # comprehension are "function" blocks for symtable.
    tables: dict[tuple[int, str], list[set[str]]] = {}
    for block, owner in _table_scopes(table):
        if block.get_type() == "module":
            key = (0, MODULE)
        else:
            name = block.get_name()
            kind = (
                "comprehension"
                if name in ("listcomp", "setcomp", "dictcomp", "genexpr")
                else (LAMBDA if name == "lambda" else _KIND_OF_TABLE.get(block.get_type(), block.get_type()))
            )
            key = (block.get_lineno(), kind)
        tables.setdefault(key, []).append(_bound_by_table(block, owner))
    ours: dict[tuple[int, str], list[set[str]]] = {}
    for scope in index.scopes.values():
        node = scope.node
        line = 0 if scope.kind == MODULE else getattr(node, "lineno", 0)
        ours.setdefault((line, scope.kind), []).append(_bound_by_index(scope))
    for key in ours:
        assert key in tables, key
        assert sorted(map(sorted, ours[key])) == sorted(map(sorted, tables[key])), key


@pytest.mark.parametrize(("label", "text"), SOURCES, ids=[label for label, _ in SOURCES])
def test_a_name_read_is_looked_up_where_the_symbol_table_says(label: str, text: str) -> None:
    """A name read in a function that does not bind it is found in an enclosing
    function when CPython says it is free there, else in the module."""
    tree = _parse(text)
    if tree is None:
        pytest.skip("not valid Python")
    try:
        symtable.symtable(text, label, "exec")
    except SyntaxError:
        pytest.skip("CPython's compiler refuses it")
    index = _index(text, tree)
    for name, nodes in list(index.uses.items())[:400]:
        if "." in name:
            continue
        for node in nodes[:5]:
            scope = index.scope_of(node)
            assert scope is not None, name
            found = index.lookup(name, scope)
            if found is None:
                continue
            home, _ = found
            # The home is the scope itself or one that encloses it, and never a class
            # body other than the one the name is read in directly.
            assert scope.is_within(home)
            assert home.kind != CLASS or home is scope
            assert home.kind != COMPREHENSION or scope.is_within(home)
