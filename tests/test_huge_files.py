"""A source file over the size limit costs nothing to refuse, wherever it comes from.

A sparse file (``truncate -s 2G``: gigabytes of zeros, no room on disk) is what a
hostile checkout ships to make a linter hold it in memory. Over
``reading.MAX_SOURCE_BYTES`` it is not read: one SEM001 finding naming its size and
the limit, and the run goes on. The commands run in subprocesses, each measured by a
fresh parent so that the peak memory is that command's alone.
"""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest
from checkout import SNAKE

from semantics_lint import reading
from semantics_lint.flake8_plugin import SemanticsLintPlugin
from semantics_lint.lint.run import write
from semantics_lint.lint.run.runner import RunOptions, run_stdin

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource use")

HUGE = 2 * 1024**3
LIMIT = reading.MAX_SOURCE_BYTES
TOO_LARGE = (
    "SEM001 cannot read the file: too large: 2,147,483,648 bytes (2 GiB), "
    "over the limit of 67,108,864 bytes (64 MiB)"
)
# Peak memory of one command that refuses the file: the interpreter, the linter and
# its imports are some tens of MB; reading the file would be 2 GB.
MAX_RSS_MB = 400
# The script the measuring parent runs: the command, then the child's peak RSS (kB on
# Linux) on stderr's last line.
MEASURE = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[1:], stdin=sys.stdin)\n"
    "sys.stderr.write('\\nrss %d\\n' % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    "sys.exit(done.returncode)\n"
)


def _sparse(path: Path, size: int) -> None:
    with open(path, "wb") as handle:
        handle.truncate(size)


def _measured(
    *args: str, cwd: Path, stdin: object = None, stdout: object = subprocess.PIPE
) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run ``semantics-lint check ARGS``; the result and its peak RSS in MB."""
    env = {k: v for k, v in os.environ.items() if k not in ("PRE_COMMIT", "SEMANTICS_LINT_CACHE_DIR")}
    env["SEMANTICS_LINT_NO_CACHE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, sys.executable, "-m", "semantics_lint", "check", *args],
        cwd=cwd, env=env, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, text=True,
        timeout=300, check=False,
    )  # fmt: skip
    lines = done.stderr.rstrip().splitlines()
    assert lines and lines[-1].startswith("rss "), done.stderr
    kilobytes = int(lines[-1].split()[1])
    done.stderr = "\n".join(lines[:-1])
    return done, kilobytes / 1024 if sys.platform != "darwin" else kilobytes / 1024**2


@pytest.fixture()
def huge_project(tmp_path: Path) -> Path:
    (tmp_path / "good.py").write_text(SNAKE, encoding="utf-8")
    _sparse(tmp_path / "huge.py", HUGE)
    return tmp_path


@pytest.mark.parametrize("output_format", ["concise", "full"])
def test_a_huge_file_is_one_finding_and_is_not_read(huge_project: Path, output_format: str) -> None:
    # full shows the source of every finding: it must not read the file either.
    done, rss = _measured("--output-format", output_format, ".", cwd=huge_project)
    assert f"huge.py:1:1: {TOO_LARGE}" in done.stdout
    assert "good.py:5:21: SEM102" in done.stdout
    assert done.returncode == 1, done.stderr
    assert rss < MAX_RSS_MB, f"{rss:.0f} MB"


def test_a_huge_file_read_by_a_pool_worker(huge_project: Path) -> None:
    names = []
    for i in range(20):
        (huge_project / f"m{i:02d}.py").write_text(SNAKE, encoding="utf-8")
        names.append(f"m{i:02d}.py")
    os.replace(huge_project / "huge.py", huge_project / "zz_huge.py")  # after the others
    done, rss = _measured("--jobs", "2", *names, "zz_huge.py", cwd=huge_project)
    assert f"zz_huge.py:1:1: {TOO_LARGE}" in done.stdout
    assert done.stdout.count("SEM102") == 20
    assert rss < MAX_RSS_MB, f"{rss:.0f} MB"


def test_with_sem001_not_selected_a_huge_file_is_an_error(huge_project: Path) -> None:
    done, _ = _measured("--select", "SEM1", ".", cwd=huge_project)
    assert "error: huge.py: cannot read the file: too large: 2,147,483,648 bytes" in done.stderr
    assert done.returncode == 2


def test_add_noqa_does_not_read_a_huge_file(huge_project: Path) -> None:
    done, rss = _measured("--add-noqa", ".", cwd=huge_project)
    assert "huge.py: cannot read the file (too large:" in done.stderr
    assert "# noqa: SEM102" in (huge_project / "good.py").read_text(encoding="utf-8")
    assert done.returncode == 2
    assert rss < MAX_RSS_MB, f"{rss:.0f} MB"


def test_standard_input_redirected_from_a_huge_file_is_not_read(huge_project: Path) -> None:
    with open(huge_project / "huge.py", "rb") as stdin:
        done, rss = _measured("-", "--stdin-filename", "x.py", cwd=huge_project, stdin=stdin)
    assert f"x.py:1:1: {TOO_LARGE}" in done.stdout
    assert done.returncode == 1
    assert rss < MAX_RSS_MB, f"{rss:.0f} MB"


def test_piped_input_over_the_limit_is_read_no_further_and_fix_passes_it_through(
    tmp_path: Path,
) -> None:
    size = LIMIT + 4096
    _sparse(tmp_path / "big.py", size)
    reader = subprocess.Popen(["cat", str(tmp_path / "big.py")], stdout=subprocess.PIPE)
    try:
        with open(tmp_path / "out.py", "wb") as out:
            done, rss = _measured("--fix", "-", cwd=tmp_path, stdin=reader.stdout, stdout=out)
    finally:
        assert reader.stdout is not None
        reader.stdout.close()
        reader.wait(timeout=60)
    assert "-:1:1: SEM001 cannot read the file: too large: over the limit of 67,108,864 bytes" in (
        done.stderr
    )
    assert done.returncode == 1
    # stdout carries the input unchanged, all of it: an editor replaces its buffer with it.
    assert os.path.getsize(tmp_path / "out.py") == size
    assert filecmp.cmp(tmp_path / "out.py", tmp_path / "big.py", shallow=False)
    # The limit and one byte were held, not the input twice over.
    assert rss < MAX_RSS_MB, f"{rss:.0f} MB"


def test_an_editor_buffer_over_the_limit_is_one_finding() -> None:
    # The language server lints buffers through run_stdin.
    result = run_stdin(b"#" * (LIMIT + 1), RunOptions(), "/tmp/buffer.py")
    assert [f.code for f in result.findings] == ["SEM001"]
    assert result.findings[0].message == (
        "cannot read the file: too large: 67,108,865 bytes (64.0 MiB), "
        "over the limit of 67,108,864 bytes (64 MiB)"
    )
    assert result.linted == 0


def test_fix_file_does_not_read_a_huge_file(tmp_path: Path) -> None:
    _sparse(tmp_path / "huge.py", HUGE)
    with pytest.raises(reading.Unreadable, match="too large"):
        write.fix_file(tmp_path / "huge.py", unsafe=False)
    os.mkfifo(tmp_path / "pipe.py")
    with pytest.raises(reading.Unreadable, match="a FIFO"):
        write.fix_file(tmp_path / "pipe.py", unsafe=False)


def test_the_flake8_plugin_refuses_a_huge_file_without_copying_it(tmp_path: Path) -> None:
    # flake8 reads the file itself; the plugin must not join, encode or lint its text
    # (each a copy of its size). Measured: what the plugin allocates, not flake8.
    lines = ["# " + "x" * (1024 * 1024 - 3) + "\n"] * 65
    _sparse(tmp_path / "huge.py", HUGE)
    plugin = SemanticsLintPlugin(None, lines, str(tmp_path / "huge.py"))
    tracemalloc.start()
    try:
        reported = list(plugin.run())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [(line, column, text) for line, column, text, _ in reported] == [(1, 0, TOO_LARGE)]
    assert peak < 4 * 1024 * 1024, peak
    # Lines of standard input (no file to size): the limit is named, not a size.
    stdin_plugin = SemanticsLintPlugin(None, lines, "stdin")
    [(_, _, text, _)] = list(stdin_plugin.run())
    assert text == "SEM001 cannot read the file: too large: over the limit of 67,108,864 bytes (64 MiB)"


def test_lint_file_refuses_a_huge_file_and_a_fifo_without_reading(tmp_path: Path) -> None:
    from semantics_lint.lint.core.model import Finding
    from semantics_lint.lint.engine import lint_file

    os.mkfifo(tmp_path / "pipe.py")  # opening it for reading would wait for a writer
    answers: list[list[Finding]] = []
    reader = threading.Thread(target=lambda: answers.append(lint_file(tmp_path / "pipe.py")), daemon=True)
    reader.start()
    # A wait on the FIFO would never end: the timeout only turns that into a failure.
    reader.join(timeout=300)
    assert not reader.is_alive(), "lint_file waited on a FIFO"
    [[pipe]] = answers
    assert pipe.code == "SEM001" and "not a regular file" in pipe.message

    _sparse(tmp_path / "huge.py", HUGE)
    tracemalloc.start()
    try:
        [huge] = lint_file(tmp_path / "huge.py")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert f"{huge.code} {huge.message}" == TOO_LARGE
    assert peak < 10 * 1024**2
