"""The engine's work grows linearly with a module of tools, and the per-file maps answer
as the scans they replace did.

Nothing here is timed. The work is counted: the lines of the linter's own code that run
while one module is linted (``sys.settrace``, only in frames of ``semantics_lint``; a
loop counts a line per turn). For modules of N, 2N and 4N tools written like real
tool collections (``bench/make_tools.py``: helper classes, async ``execute`` with an
``absent()`` branch, parts bound to names, nested functions, ``define_tool``), linear
work adds the same per tool: the second doubling costs twice the first. A question
answered by scanning the file once per call adds a quadratic term, which makes the
second doubling cost about four times the first.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any

import pytest

from semantics_lint.lint import engine
from semantics_lint.lint.core.index import build_index
from semantics_lint.lint.rules import sem6xx_data_variable

BENCH = Path(__file__).resolve().parent.parent / "bench"
PACKAGE = str(Path(engine.__file__).resolve().parent.parent)


def _make_tools() -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("make_tools", BENCH / "make_tools.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _lines_run(text: str) -> int:
    """Lines of the linter's code run while ``text`` is linted."""
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def trace(frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        return local if frame.f_code.co_filename.startswith(PACKAGE) else None

    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        engine.lint_source(text.encode(), "tools.py", engine.LintSettings())
    finally:
        sys.settrace(previous)
    return count


def _tools_text(tools: int) -> str:
    text, _ = _make_tools().render_collection(20261130, "test", tools)
    return str(text)


def _in_one_function(tools: int) -> str:
    """Every tool defined and registered inside one ``register()`` function."""
    body = _tools_text(tools).split("RENDER = ", 1)
    head, rest = body[0], "RENDER = " + body[1]
    first, _, tail = rest.partition("\n")
    indented = "\n".join(("    " + line) if line else line for line in tail.splitlines())
    return f"{head}{first}\n\n\ndef register():\n{indented}\n"


def _methods(tools: int) -> str:
    """One class: methods that return ``absent()``, then methods that return data
    from a variable with no ``absent()`` branch (each asks whether its span holds one)."""
    lines = [
        "from semantics_lint.runtime import absent, described_result",
        "",
        "",
        "class Tools:",
    ]
    for n in range(tools // 2):
        lines += [
            f"    def empty_{n}(self):",
            "        return absent(what='rows', checked=['export'])",
        ]
    for n in range(tools - tools // 2):
        lines += [
            f"    def tool_{n}(self, export):",
            "        rows = export.rows",
            "        return described_result(facts=rows, provenance={'measuredAt': export.at, 'source': 's'})",
        ]
    return "\n".join(lines) + "\n"


def _series_from_comprehensions(tools: int) -> str:
    """Functions whose series is a comprehension over a list each binds (is the iterable
    empty?), and whose rows are read through an attribute and tested (is that list
    changed elsewhere?): the same names in every function."""
    lines = ["from semantics_lint.runtime import absent, described_result", ""]
    for n in range(tools):
        lines += [
            "",
            f"def tool_{n}(export, cache, vm):",
            "    runs = [r for r in export.runs if r.vm == vm]",
            "    rows = cache.rows",
            "    if not rows:",
            "        return absent(what='rows', checked=['export'])",
            "    return described_result(",
            "        facts=rows,",
            "        series=[{'t': r.day, 'entity': vm, 'metric': 'ok', 'value': r.ok} for r in runs],",
            "        grain={'interval': 'daily', 'aggregation': 'count', 'isCounter': False},",
            "        provenance={'measured_at': export.at, 'source': 's'},",
            "    )",
        ]
    return "\n".join(lines) + "\n"


SHAPES: dict[str, Callable[[int], str]] = {
    "tool collection": _tools_text,
    "tools inside one function": _in_one_function,
    "methods of one class": _methods,
    "series from comprehensions": _series_from_comprehensions,
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_work_grows_linearly_with_the_tools(shape: str) -> None:
    make = SHAPES[shape]
    _lines_run(make(5))  # the first lint imports the rules: not counted
    small, middle, large = (_lines_run(make(n)) for n in (50, 100, 200))
    first, second = middle - small, large - middle
    assert first > 0
    # Linear: second == 2 * first (give or take set orders); a scan per call: ~4x.
    assert second <= 2.3 * first, (shape, small, middle, large)


def test_the_shapes_hold_what_they_say() -> None:
    for shape, make in SHAPES.items():
        text = make(12)
        ast.parse(text)
        findings = engine.lint_source(text.encode(), "tools.py", engine.LintSettings())
        assert findings, shape
    codes = [f.code for f in engine.lint_source(_methods(12).encode(), "m.py", engine.LintSettings())]
    assert codes == ["SEM604"] * 6  # the methods without an absent() branch


# -- the maps answer as the scans did ---------------------------------------------------


def _sources() -> list[str]:
    texts = [_tools_text(30), _in_one_function(20), _methods(20)]
    corpus = Path(__file__).resolve().parent.parent / "testdata"
    texts += [path.read_text(encoding="utf-8") for path in sorted(corpus.rglob("*.py"))]
    texts.append(
        "x = 1\n"
        "def f(x, y=lambda x: x):\n"
        "    global z\n"
        "    z = [x for x in y]\n"
        "    class C:\n"
        "        x = 2\n"
        "        def m(self): del x\n"
        "    return (w := x)\n"
        "import a.b as x\n"
        "from m import x\n"
    )
    return texts


@pytest.mark.parametrize("number", range(len(_sources())))
def test_bindings_anywhere_answers_as_a_scan_of_every_scope(number: int) -> None:
    index = build_index(ast.parse(_sources()[number]))
    names = {name for scope in index.scopes.values() for name in scope.bindings} | {"unbound_name"}
    for name in sorted(names):
        scanned = [binding for scope in index.scopes.values() for binding in scope.bindings.get(name, ())]
        answered = index.bindings_anywhere(name)
        assert [id(b) for b in answered] == [id(b) for b in scanned], name
        answered.clear()  # a copy: the map keeps its answer
        assert [id(b) for b in index.bindings_anywhere(name)] == [id(b) for b in scanned]


def _scan_within(node: ast.expr, function: ast.AST) -> bool:
    """The containment test by position that the binary search replaced."""
    decorators = getattr(function, "decorator_list", None)
    first = decorators[0] if decorators else function
    start = (node.lineno, node.col_offset)
    return (
        (first.lineno, first.col_offset) <= start <= (function.end_lineno or 0, function.end_col_offset or 0)
    )  # type: ignore[attr-defined]


@pytest.mark.parametrize("number", range(len(_sources())))
def test_absent_in_a_function_answers_as_a_scan_of_every_call(number: int) -> None:
    tree = ast.parse(_sources()[number])
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    functions = [
        node
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
    ]
    # Every call stands in for an absent() call; then every third, so that some
    # functions hold none.
    for chosen in (calls, calls[::3], []):
        starts = sorted((node.lineno, node.col_offset) for node in chosen)
        for function in functions:
            expected = any(_scan_within(node, function) for node in chosen)
            assert sem6xx_data_variable._starts_within(starts, function) is expected
