"""The package holds itself to small parts: no module of ``src/`` over 600 lines, no
function over 80 lines (a ``def`` from its first line to its last, decorators not
counted), the rule modules included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "semantics_lint"
MODULES = sorted(PACKAGE.rglob("*.py"))
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
WAITING: dict[str, int] = {}
"""Parts over the limits, each at most its present size."""


def _name(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def _long_functions(source: str) -> list[tuple[str, int, int]]:
    """Each function of ``source`` longer than the limit: its name, first line and length."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append((node.name, node.lineno, length))
    return found


def test_the_package_is_found() -> None:
    assert len(MODULES) > 50
    assert PACKAGE / "lint" / "core" / "index.py" in MODULES
    assert PACKAGE / "lint" / "rules" / "sem6xx_tools.py" in MODULES


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_module_is_over_600_lines(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").count("\n")
    limit = WAITING.get(_name(path), MAX_MODULE_LINES)
    assert lines <= limit, f"{_name(path)} has {lines} lines"


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_function_is_over_80_lines(path: Path) -> None:
    long = [
        (name, line, length)
        for name, line, length in _long_functions(path.read_text(encoding="utf-8"))
        if length > WAITING.get(f"{_name(path)}:{name}", MAX_FUNCTION_LINES)
    ]
    assert long == []


def test_a_long_function_is_seen() -> None:
    body = "".join(f"    x{number} = {number}\n" for number in range(MAX_FUNCTION_LINES))
    assert _long_functions(f"def long():\n{body}") == [("long", 1, MAX_FUNCTION_LINES + 1)]
    assert _long_functions(f"async def short():\n{body[: body.rindex('    x')]}") == []
