"""The project holds itself to its own standards.

At the repository's root, ``semantics-lint check .`` (the project's own tool modules,
its benchmarks, its configuration) finds nothing, and ruff's lint (pyflakes, bugbear,
import order: ``[tool.ruff]`` in pyproject.toml) and its formatter pass over the tree.
Each is one process of about a second. ``mypy --strict`` over all of ``src/`` runs in
``.ci/run``, beside the suite: from a cold cache it takes longer than the rest of a
first run (tests/test_typing.py holds the examples to both type checkers).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)


def _ruff() -> str:
    script = Path(sys.executable).with_name("ruff")
    found = str(script) if script.exists() else shutil.which("ruff")
    if found is None:
        pytest.fail("ruff is not installed (it is in the test extra: pip install -e '.[test]')")
    return found


def test_the_repository_passes_its_own_linter() -> None:
    done = _run(sys.executable, "-m", "semantics_lint", "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "All checks passed!" in done.stdout, done.stdout


def test_ruff_finds_nothing() -> None:
    done = _run(_ruff(), "check", "--no-cache", "--output-format", "concise", ".")
    assert done.returncode == 0, (done.stdout + done.stderr)[:5000]


def test_ruff_would_reformat_nothing() -> None:
    done = _run(_ruff(), "format", "--check", "--no-cache", ".")
    files = [line for line in done.stdout.splitlines() if line.startswith("Would reformat")]
    assert done.returncode == 0, "\n".join(files[:50]) or done.stderr[:5000]
