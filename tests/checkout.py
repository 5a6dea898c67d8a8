"""What the tests that run the linter as a user would share: a tool module with one
SEM102, and ``semantics-lint check`` in a real process with a clean environment."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
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


def unprivileged(task: Callable[[], str], owner: Path) -> str:
    """What ``task()`` returns (text), run by a user who is not root.

    As root, in a forked child that becomes the owner of ``owner`` (permissions mean
    nothing to root); otherwise here.
    """
    if os.geteuid() != 0:
        return task()
    read, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        try:
            status = owner.stat()
            os.setgid(status.st_gid)
            os.setuid(status.st_uid)
            answer = task()
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            answer = f"raised {type(error).__name__}: {error}"
        os.write(write_end, answer.encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read, "rb") as handle:
        answer = handle.read().decode()
    os.waitpid(pid, 0)
    return answer
