"""What the tests that run the linter as a user would share: a tool module with one
SEM102, and ``semantics-lint check`` in a real process with a clean environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SNAKE = (
    "from semantics_lint.runtime import described_result\n"
    "def tool(export):\n"
    "    return described_result(\n"
    "        facts=[{'entity': export.vm, 'value': export.n}],\n"
    "        provenance={'measured_at': export.at, 'source': export.source},\n"
    "    )\n"
)
"""A tool module with one finding: SEM102 at 5:21."""


def check_env(*, cache: bool = False, **extra: str) -> dict[str, str]:
    """The environment of a run: nothing inherited that steers the linter (pre-commit,
    the cache's place or switch), the results cache off unless ``cache``, then ``extra``."""
    drop = ("PRE_COMMIT", "SEMANTICS_LINT_CACHE_DIR", "SEMANTICS_LINT_NO_CACHE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    if not cache:
        env["SEMANTICS_LINT_NO_CACHE"] = "1"
    env.update(extra)
    return env


def run_check(
    *args: str, cwd: Path, cache: bool = False, timeout: float = 120, **extra: str
) -> subprocess.CompletedProcess[str]:
    """``python -m semantics_lint check ARGS`` in ``cwd``; a run that hangs (on a FIFO, a
    lock) fails on the timeout instead of blocking the suite."""
    return subprocess.run(
        [sys.executable, "-m", "semantics_lint", "check", *args],
        cwd=cwd, env=check_env(cache=cache, **extra), capture_output=True, text=True,
        timeout=timeout, check=False,
    )  # fmt: skip
