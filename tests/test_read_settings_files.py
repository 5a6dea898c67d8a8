"""The files the linter reads on its own account, planted by a hostile checkout.

``.gitignore``, ``.git/info/exclude`` and ``pyproject.toml`` are read by discovery, the
configuration search and the results cache's project-root search, none of them named
on the command line. Each is planted here as a FIFO (an ``open`` for reading waits for
a writer forever), a link to a device, a symbolic link, or a sparse file of gigabytes,
and the real command runs in a subprocess with a timeout: a hang is a failed test.

What must happen (docs/cli.md, "What is linted"): an unreadable ``.gitignore`` is a
warning naming it and the walk goes on as if it were absent (it lints more, never
less); an unreadable ``pyproject.toml`` is an error naming it (exit code 2), the search
goes on above it, and the files are still linted.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from checkout import SNAKE

from semantics_lint import reading
from semantics_lint.lint.run.config import ConfigResolver
from semantics_lint.lint.run.discovery import PathProblem, discover

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX FIFOs and devices")

# Long enough for a run that ends; far shorter than forever.
TIMEOUT = 60


def _env(tmp_path: Path, *, cache: bool = False) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PRE_COMMIT", "SEMANTICS_LINT_CACHE_DIR")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "user-cache")  # the user's key, kept out of ~
    if cache:
        env.pop("SEMANTICS_LINT_NO_CACHE", None)
    else:
        env["SEMANTICS_LINT_NO_CACHE"] = "1"
    return env


def _check(
    tmp_path: Path, *args: str, cwd: Path, cache: bool = False, stdin: bytes | None = None
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "semantics_lint", "check", *args],
        cwd=cwd, env=_env(tmp_path, cache=cache), input=stdin, capture_output=True,
        timeout=TIMEOUT, check=False,
    )  # fmt: skip
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )  # fmt: skip


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "good.py").write_text(SNAKE, encoding="utf-8")
    return project


def _sparse(path: Path, size: int) -> None:
    """A file of ``size`` zero bytes that takes no room on disk (``truncate -s``)."""
    with open(path, "wb") as handle:
        handle.truncate(size)


# ---------------------------------------------------------------------------
# .gitignore
# ---------------------------------------------------------------------------


def test_a_fifo_gitignore_is_a_warning_and_the_folder_is_linted(tmp_path: Path) -> None:
    project = _project(tmp_path)
    os.mkfifo(project / ".gitignore")
    done = _check(tmp_path, ".", cwd=project)
    assert "warning: .gitignore: not read (not a regular file (a FIFO))" in done.stderr
    assert "as if it were absent" in done.stderr
    assert "good.py:5:21: SEM102" in done.stdout
    assert done.returncode == 1, done.stderr  # the findings' code: nothing was hidden


def test_a_fifo_gitignore_above_the_walked_folder_in_the_work_tree(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / ".git" / "info").mkdir(parents=True)
    os.mkfifo(project / ".git" / "info" / "exclude")
    sub = project / "tools"
    sub.mkdir()
    (sub / "tool.py").write_text(SNAKE, encoding="utf-8")
    os.mkfifo(project / ".gitignore")  # an ancestor's: read before the walk starts
    done = _check(tmp_path, "tools", cwd=project)
    assert "tools/tool.py:5:21: SEM102" in done.stdout
    warned = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert len(warned) == 2, done.stderr
    assert any(os.path.join(".git", "info", "exclude") in line for line in warned)
    assert any(line.startswith(f"warning: {project / '.gitignore'}: ") for line in warned)
    assert done.returncode == 1, done.stderr


def test_a_gitignore_linked_to_a_device_or_too_large_is_not_read(tmp_path: Path) -> None:
    project = _project(tmp_path)
    os.symlink("/dev/zero", project / ".gitignore")  # a read would never end
    sub = project / "sub"
    sub.mkdir()
    (sub / "tool.py").write_text(SNAKE, encoding="utf-8")
    _sparse(sub / ".gitignore", 2 * 1024**3)  # 2 GiB of zeros
    done = _check(tmp_path, ".", cwd=project)
    assert "warning: .gitignore: not read (" in done.stderr
    assert (
        f"warning: {os.path.join('sub', '.gitignore')}: not read (too large: "
        "2,147,483,648 bytes (2 GiB), over the limit of 1,048,576 bytes (1 MiB))"
    ) in done.stderr
    assert "good.py:5:21: SEM102" in done.stdout
    assert f"{os.path.join('sub', 'tool.py')}:5:21: SEM102" in done.stdout


def test_a_symlinked_gitignore_is_not_followed_as_git_does_not(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "skipped.py").write_text(SNAKE, encoding="utf-8")
    (tmp_path / "outside-rules").write_text("skipped.py\n", encoding="utf-8")
    os.symlink(tmp_path / "outside-rules", project / ".gitignore")
    done = _check(tmp_path, ".", cwd=project)
    assert "git does not follow either" in done.stderr
    assert "skipped.py:5:21: SEM102" in done.stdout  # the link's rules are not applied
    # A regular .gitignore saying the same is applied.
    (project / ".gitignore").unlink()
    (project / ".gitignore").write_text("skipped.py\n", encoding="utf-8")
    again = _check(tmp_path, ".", cwd=project)
    assert "skipped.py" not in again.stdout and "warning" not in again.stderr


def test_discover_reports_the_gitignore_once_as_a_warning(tmp_path: Path) -> None:
    project = _project(tmp_path)
    os.mkfifo(project / ".gitignore")
    problems: list[PathProblem] = []
    found = discover([str(project), str(project / "good.py")], ConfigResolver(), problems=problems)
    assert [source.path.name for source in found] == ["good.py"]
    assert len(problems) == 1 and problems[0].level == "warning"
    # Without a problems list a warning raises nothing (an error would).
    assert len(discover([str(project)], ConfigResolver())) == 1


# ---------------------------------------------------------------------------
# pyproject.toml
# ---------------------------------------------------------------------------


def test_a_fifo_pyproject_is_an_error_and_the_files_are_linted(tmp_path: Path) -> None:
    project = _project(tmp_path)
    os.mkfifo(project / "pyproject.toml")
    done = _check(tmp_path, ".", cwd=project)
    assert "error: pyproject.toml: not read (not a regular file (a FIFO))" in done.stderr
    assert "good.py:5:21: SEM102" in done.stdout
    assert done.returncode == 2
    assert done.stderr.count("pyproject.toml") == 1  # once, though every file asked


def test_a_fifo_pyproject_does_not_hang_the_cache_root_search(tmp_path: Path) -> None:
    # With the cache on, where it lives is found by searching for the project's
    # pyproject.toml from the first path, before the run itself.
    project = _project(tmp_path)
    os.mkfifo(project / "pyproject.toml")
    done = _check(tmp_path, "good.py", cwd=project, cache=True)
    assert "good.py:5:21: SEM102" in done.stdout
    assert "error: pyproject.toml: not read (not a regular file (a FIFO))" in done.stderr
    assert done.returncode == 2


def test_the_search_goes_on_above_a_pyproject_it_cannot_read(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "pyproject.toml").write_text('[tool.semantics-lint]\nignore = ["SEM102"]\n', encoding="utf-8")
    inner = project / "inner"
    inner.mkdir()
    (inner / "tool.py").write_text(SNAKE, encoding="utf-8")
    os.symlink("/dev/zero", inner / "pyproject.toml")
    done = _check(tmp_path, ".", cwd=project)
    assert (
        f"error: {os.path.join('inner', 'pyproject.toml')}: not read "
        "(not a regular file (a character device))"
    ) in done.stderr
    assert "SEM102" not in done.stdout  # the configuration above governs inner/ too
    assert done.returncode == 2


def test_a_pyproject_too_large_is_not_read(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _sparse(project / "pyproject.toml", 2 * 1024**3)
    done = _check(tmp_path, ".", cwd=project)
    assert (
        "error: pyproject.toml: not read (too large: 2,147,483,648 bytes (2 GiB), "
        "over the limit of 1,048,576 bytes (1 MiB))"
    ) in done.stderr
    assert "good.py:5:21: SEM102" in done.stdout
    assert done.returncode == 2


def test_standard_input_with_a_fifo_pyproject(tmp_path: Path) -> None:
    project = _project(tmp_path)
    os.mkfifo(project / "pyproject.toml")
    done = _check(tmp_path, "-", "--stdin-filename", "x.py", cwd=project, stdin=SNAKE.encode("utf-8"))
    assert "x.py:5:21: SEM102" in done.stdout
    assert "error: pyproject.toml: not read (not a regular file (a FIFO))" in done.stderr
    assert done.returncode == 2


def test_show_settings_names_a_pyproject_it_could_not_read(tmp_path: Path) -> None:
    project = _project(tmp_path)
    os.mkfifo(project / "pyproject.toml")
    done = _check(tmp_path, "--show-settings", "good.py", cwd=project)
    assert "configuration: none (defaults)" in done.stdout
    assert f"not read: {project / 'pyproject.toml'} (not a regular file (a FIFO))" in done.stdout


def test_a_config_option_naming_a_fifo_is_a_configuration_error(tmp_path: Path) -> None:
    project = _project(tmp_path)
    os.mkfifo(project / "settings.toml")
    done = _check(tmp_path, "--config", "settings.toml", ".", cwd=project)
    assert "cannot read the configuration: not a regular file (a FIFO)" in done.stderr
    assert done.returncode == 2


# ---------------------------------------------------------------------------
# The reader itself
# ---------------------------------------------------------------------------


def test_read_regular_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(reading.Unreadable, match=r"not a regular file \(a FIFO\)"):
        reading.read_regular(tmp_path / "fifo", 100)
    with pytest.raises(reading.Unreadable, match="a character device"):
        reading.read_regular("/dev/zero", 100)
    with pytest.raises(reading.Unreadable, match="a folder"):
        reading.read_regular(tmp_path, 100)
    with pytest.raises(reading.Unreadable) as missing:
        reading.read_regular(tmp_path / "nothing", 100)
    assert missing.value.missing
    (tmp_path / "real").write_bytes(b"x" * 10)
    os.symlink(tmp_path / "real", tmp_path / "link")
    assert reading.read_regular(tmp_path / "link", 100) == b"x" * 10
    with pytest.raises(reading.Unreadable, match="symbolic link"):
        reading.read_regular(tmp_path / "link", 100, follow_symlinks=False)
    assert reading.read_regular(tmp_path / "real", 10) == b"x" * 10
    with pytest.raises(reading.Unreadable, match="too large: 10 bytes, over the limit of 9 bytes"):
        reading.read_regular(tmp_path / "real", 9)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="Linux procfs")
def test_read_regular_reads_a_file_that_lies_about_its_size_up_to_the_limit() -> None:
    # procfs files say they are empty; their text is read on until the end, or refused
    # at the limit without holding more than it.
    assert os.stat("/proc/self/status").st_size == 0
    assert b"Name:" in reading.read_regular("/proc/self/status", 1 << 20)
    with pytest.raises(reading.Unreadable, match="too large: over the limit of 16 bytes"):
        reading.read_regular("/proc/self/status", 16)
