"""Every python example of docs/frameworks.md runs, and prints what the page says it prints.

A block runs in a fresh namespace; a block that sets process-wide state (OpenTelemetry's
global tracer provider, which can be set once per process) runs in a fresh interpreter. A
block that imports a module that is not installed (a framework, an exporter) is skipped,
naming it. When the next fenced block after a python block is a ``text`` block, it is what
the python block prints.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

PAGE = Path(__file__).resolve().parent.parent / "docs" / "frameworks.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


class Example(NamedTuple):
    line: int
    code: str
    prints: str | None


def examples() -> list[Example]:
    text = PAGE.read_text(encoding="utf-8")
    blocks = [(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1) for m in FENCE.finditer(text)]
    found = []
    for i, (language, code, line) in enumerate(blocks):
        if language != "python":
            continue
        following = blocks[i + 1] if i + 1 < len(blocks) else None
        prints = following[1] if following is not None and following[0] == "text" else None
        found.append(Example(line, code, prints))
    return found


def missing_modules(code: str) -> list[str]:
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return sorted(name for name in names if not _installed(name))


def _installed(module: str) -> bool:
    # A dotted name: a package may be installed without the part an example imports
    # (opentelemetry without its OTLP exporter).
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def test_the_page_has_examples() -> None:
    assert len(examples()) >= 4


@pytest.mark.parametrize("example", examples(), ids=lambda e: f"line{e.line}")
def test_example_runs(example: Example) -> None:
    missing = missing_modules(example.code)
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")
    if "set_tracer_provider(" in example.code:
        done = subprocess.run(
            [sys.executable, "-c", example.code],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert example.prints is None or done.stdout == example.prints
        return
    out = io.StringIO()
    namespace = {"__name__": f"frameworks_md_line{example.line}"}
    with contextlib.redirect_stdout(out):
        exec(compile(example.code, f"{PAGE}:{example.line}", "exec"), namespace)  # noqa: S102
    if example.prints is not None:
        assert out.getvalue() == example.prints
    sys.modules.pop(namespace["__name__"], None)
