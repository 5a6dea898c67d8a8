"""Paths a walk cannot take: each is a problem naming the path, and the walk goes on.

Real folders, links, FIFOs and permissions on disk; nothing is simulated.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_discovery import touch

from semantics_lint.lint.run.config import ConfigResolver
from semantics_lint.lint.run.discovery import DiscoveryError, PathProblem, discover, display_name


def walk(folder: Path, arguments: list[str] | None = None) -> tuple[list[str], list[PathProblem]]:
    problems: list[PathProblem] = []
    old = os.getcwd()
    os.chdir(folder)
    try:
        found = discover(arguments or ["."], ConfigResolver(), problems=problems)
    finally:
        os.chdir(old)
    return [source.display for source in found], problems


def make_deep(top: Path, depth: int, name: str = "d") -> None:
    """``depth`` nested folders under ``top``, made one level at a time (the whole path
    may be longer than the system accepts in one call), with a file at the bottom."""
    fd = os.open(top, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir(name, dir_fd=fd)
            child = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = child
        file_fd = os.open("bottom.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(file_fd, b"x = 1\n")
        os.close(file_fd)
    finally:
        os.close(fd)


def remove_deep(top: Path, name: str) -> None:
    """Remove what :func:`make_deep` made, bottom up, without recursion (``shutil.rmtree``
    recurses once per level and cannot remove such a tree, nor can pytest's clean-up)."""
    fds = [os.open(top, os.O_RDONLY)]
    try:
        while True:
            try:
                fds.append(os.open(name, os.O_RDONLY, dir_fd=fds[-1]))
            except FileNotFoundError:
                break
        os.unlink("bottom.py", dir_fd=fds[-1])
        for parent in reversed(fds[:-1]):
            os.rmdir(name, dir_fd=parent)
    finally:
        for fd in fds:
            os.close(fd)


@pytest.fixture
def deep_folder(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path
    for name in ("d", "deep"):
        if (tmp_path / name).exists():
            remove_deep(tmp_path, name)


def test_a_thousand_folders_deep_is_walked_without_recursion(deep_folder: Path) -> None:
    tmp_path = deep_folder
    touch(tmp_path / "good.py")
    make_deep(tmp_path, 1000)
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 100)  # far fewer frames than folders: nothing recurses
    try:
        found, problems = walk(tmp_path)
    finally:
        sys.setrecursionlimit(old_limit)
    assert problems == []
    assert found[-1] == "good.py"
    assert found[0] == "/".join(["d"] * 1000) + "/bottom.py"


def test_a_tree_deeper_than_the_system_allows_is_a_problem_and_the_rest_is_walked(
    deep_folder: Path,
) -> None:
    tmp_path = deep_folder
    touch(tmp_path / "good.py")
    make_deep(tmp_path, 1500, name="deep")  # 7,500 characters: past PATH_MAX
    found, problems = walk(tmp_path)
    assert found == ["good.py"]
    assert len(problems) == 1
    assert "too long" in problems[0].message
    assert problems[0].path.startswith("deep/deep/")


def test_links_are_linted_as_files_and_folder_links_not_followed(tmp_path: Path) -> None:
    touch(tmp_path / "good.py")
    os.symlink("loop.py", tmp_path / "loop.py")
    os.symlink("missing.py", tmp_path / "gone.py")
    touch(tmp_path / "pkg" / "real.py")
    os.symlink("..", tmp_path / "pkg" / "up")  # a folder link: not followed, so no loop
    os.symlink("..", tmp_path / "pkg" / "up.py")  # named like a file, still a folder
    os.symlink("real.py", tmp_path / "pkg" / "alias.py")
    found, problems = walk(tmp_path)
    # A link that loops or points nowhere is listed: reading it is that file's SEM001.
    assert found == ["gone.py", "good.py", "loop.py", "pkg/alias.py", "pkg/real.py"]
    assert problems == []


def test_a_fifo_is_listed_never_opened(tmp_path: Path) -> None:
    # The runner reads only regular files: the FIFO is its SEM001 there (see
    # test_cli_flags), and nothing here opens it.
    touch(tmp_path / "good.py")
    os.mkfifo(tmp_path / "pipe.py")
    found, problems = walk(tmp_path)
    assert found == ["good.py", "pipe.py"]
    assert problems == []


def test_an_undecodable_name_is_linted_and_shown_escaped(tmp_path: Path) -> None:
    name = os.fsdecode(b"caf\xe9.py")
    touch(tmp_path / name)
    found, problems = walk(tmp_path)
    assert found == ["caf\\xe9.py"]
    assert [str(p) for p in problems] == ["caf\\xe9.py: name is not valid UTF-8; shown with \\x escapes"]
    assert walk(tmp_path, [name])[0] == ["caf\\xe9.py"]


def test_display_names_escape_what_cannot_be_printed() -> None:
    assert display_name("tools/inv é.py") == "tools/inv é.py"
    assert display_name("a\nb.py") == "a\\nb.py"
    assert display_name(os.fsdecode(b"x\xff.py")) == "x\\xff.py"


def test_without_a_problem_list_the_first_problem_is_an_error(tmp_path: Path) -> None:
    touch(tmp_path / os.fsdecode(b"caf\xe9.py"))
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        with pytest.raises(DiscoveryError, match="not valid UTF-8"):
            discover(["."], ConfigResolver())
    finally:
        os.chdir(old)


def _unprivileged_walk(folder: Path) -> tuple[list[str], list[str]] | None:
    """Walk ``folder`` in a child process without privileges; None when this system
    cannot run one (root whose interpreter an unprivileged user may not execute)."""
    script = textwrap.dedent(
        """
        import json, os, sys
        from semantics_lint.lint.run.config import ConfigResolver
        from semantics_lint.lint.run.discovery import discover
        os.chdir(sys.argv[1])
        problems = []
        found = discover(["."], ConfigResolver(), problems=problems)
        print(json.dumps([[s.display for s in found], [str(p) for p in problems]]))
        """
    )
    as_root = hasattr(os, "geteuid") and os.geteuid() == 0

    def drop() -> None:
        os.setgid(65534)
        os.setuid(65534)

    try:
        done = subprocess.run(
            [sys.executable, "-c", script, str(folder)],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
            preexec_fn=drop if as_root else None,
        )
    except PermissionError:
        return None
    if as_root and done.returncode != 0:
        return None  # the unprivileged user cannot read the interpreter or the package
    assert done.returncode == 0, done.stderr
    found, problems = json.loads(done.stdout)
    return found, problems


def test_an_unreadable_folder_is_a_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    touch(tmp_path / "good.py")
    touch(tmp_path / "locked" / "secret.py")
    tmp_path.chmod(0o755)
    (tmp_path / "locked").chmod(0)
    try:
        outcome = _unprivileged_walk(tmp_path)
    finally:
        (tmp_path / "locked").chmod(0o755)
    if outcome is None:
        # Root reads every folder, and this interpreter cannot run unprivileged: make
        # the folder's listing fail the way a permission does.
        real_scandir = os.scandir
        locked = str(tmp_path / "locked")

        def scandir(path: str) -> object:
            if os.fspath(path) == locked:
                raise PermissionError(13, "Permission denied", locked)
            return real_scandir(path)

        monkeypatch.setattr(os, "scandir", scandir)
        found, problems = walk(tmp_path)
        outcome = found, [str(p) for p in problems]
    assert outcome == (["good.py"], ["locked: permission denied; not walked"])
