"""``--fix`` never loses an edit and never touches what is not ours.

Real processes, real files: a concurrent writer, symbolic links in and out of the
tree, hard links, another user's file (as root), temporary files left by a killed run.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from checkout import check_env, run_check, unprivileged

from semantics_lint.lint.run import user_key, write

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX links, owners and signals")

SNAKE = (
    "from semantics_lint.runtime import described_result\n"
    "\n"
    "\n"
    "def tool(export):\n"
    "    return described_result(\n"
    "        facts=[{'entity': export.vm, 'value': export.n}],\n"
    "        provenance={'measured_at': export.at, 'source': export.source},\n"
    "    )\n"
)
FIXED = SNAKE.replace("'measured_at'", "'measuredAt'")
TEMP_SUFFIX = ".semantics-lint.tmp"


def _check(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_check(*args, cwd=cwd, timeout=300)


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


# ---------------------------------------------------------------------------
# A concurrent writer
# ---------------------------------------------------------------------------


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc to see the pool start")
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="the pool needs two cores")
def test_an_edit_saved_while_fix_runs_is_kept(tmp_path: Path) -> None:
    for i in range(400):
        (tmp_path / f"m{i:03d}.py").write_text(SNAKE, encoding="utf-8")
    edited = tmp_path / "m000.py"
    process = subprocess.Popen(
        [sys.executable, "-m", "semantics_lint", "check", "--fix", "--jobs", "2", str(tmp_path)],
        env=check_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    stopped = False
    try:
        # Once the pool's workers run, the parent has read m000.py (it reads the first
        # files itself) and writes fixes only when the pool is done. The run (parent and
        # workers) is stopped while the edit is saved: however slow the test is, the
        # edit lands while the run is under way.
        deadline = time.monotonic() + 120
        while not _children(process.pid) and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        os.killpg(process.pid, signal.SIGSTOP)
        stopped = True
        assert process.poll() is None, "the run ended before the pool was seen"
        assert edited.read_text(encoding="utf-8") == SNAKE
        with edited.open("a", encoding="utf-8") as editor:
            editor.write("EDITED = True\n")
        stderr = _resume_until_done(process)
        stopped = False
    finally:
        if stopped or process.poll() is None:
            # Nothing of the run (parent or worker) is left behind, stopped or running.
            os.killpg(process.pid, signal.SIGCONT)
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert edited.read_text(encoding="utf-8") == SNAKE + "EDITED = True\n"
    assert f"{edited}: not fixed: it changed after it was read" in stderr
    assert process.returncode == 2
    assert (tmp_path / "m001.py").read_text(encoding="utf-8") == FIXED
    assert (tmp_path / "m399.py").read_text(encoding="utf-8") == FIXED


def _resume_until_done(process: subprocess.Popen[str]) -> str:
    """Resume the stopped run and read what it says until it ends.

    A worker the pool was starting when the group was stopped can miss the first
    SIGCONT (it joins the group stopped): the group is resumed again while the run is
    under way, so no member stays stopped. 300 s is a hang detector, not a budget."""
    deadline = time.monotonic() + 300
    while True:
        os.killpg(process.pid, signal.SIGCONT)
        try:
            return process.communicate(timeout=0.5)[1]
        except subprocess.TimeoutExpired:
            if time.monotonic() > deadline:
                raise


def test_write_atomic_compares_with_what_was_read(tmp_path: Path) -> None:
    path = tmp_path / "tool.py"
    path.write_text(SNAKE + "EDITED = True\n", encoding="utf-8")
    with pytest.raises(write.NotWritten, match="changed after it was read") as refused:
        write.write_atomic(path, FIXED.encode(), expected=SNAKE.encode())
    assert refused.value.error
    assert path.read_text(encoding="utf-8") == SNAKE + "EDITED = True\n"
    path.write_text(FIXED, encoding="utf-8")  # another name of the file was fixed first
    done = write.write_atomic(path, FIXED.encode(), expected=SNAKE.encode())
    assert done.unchanged
    path.unlink()
    with pytest.raises(write.NotWritten, match="deleted after it was read"):
        write.write_atomic(path, FIXED.encode(), expected=SNAKE.encode())
    assert not path.exists()
    assert sorted(os.listdir(tmp_path)) == []


# ---------------------------------------------------------------------------
# Symbolic and hard links
# ---------------------------------------------------------------------------


def test_a_symlink_out_of_the_tree_is_linted_not_fixed(tmp_path: Path) -> None:
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    tree.mkdir()
    outside.mkdir()
    (outside / "real.py").write_text(SNAKE, encoding="utf-8")
    (tree / "link.py").symlink_to(outside / "real.py")
    (tree / "tool.py").write_text(SNAKE, encoding="utf-8")
    (tree / "alias.py").symlink_to("tool.py")  # a link inside the tree
    done = _check("--fix", "tree", cwd=tmp_path)
    assert (outside / "real.py").read_text(encoding="utf-8") == SNAKE
    assert (tree / "link.py").is_symlink()
    message = (
        f"warning: {Path('tree', 'link.py')}: not fixed: it leads through a symbolic link "
        f"to {(outside / 'real.py').resolve()}, outside the paths given"
    )
    assert message in done.stderr
    # Linted all the same: its finding is reported.
    assert any(
        line.startswith(f"{Path('tree', 'link.py')}:") and "SEM102" in line
        for line in done.stdout.splitlines()
    )
    # The link inside the tree and its target are fixed, once, without complaint.
    assert (tree / "tool.py").read_text(encoding="utf-8") == FIXED
    assert (tree / "alias.py").is_symlink()
    assert "alias.py: not fixed" not in done.stderr and "tool.py: not fixed" not in done.stderr
    assert done.returncode == 1, done.stderr  # the link's findings remain


def test_a_symlink_named_on_the_command_line_is_fixed_through(tmp_path: Path) -> None:
    (tmp_path / "real.py").write_text(SNAKE, encoding="utf-8")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "link.py").symlink_to(tmp_path / "real.py")
    done = _check("--fix", "tree/link.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tree / "link.py").is_symlink()
    assert (tmp_path / "real.py").read_text(encoding="utf-8") == FIXED


def test_a_hard_linked_file_is_refused_and_every_name_keeps_one_text(tmp_path: Path) -> None:
    tree, backup = tmp_path / "tree", tmp_path / "backup"
    tree.mkdir()
    backup.mkdir()
    tool = tree / "tool.py"
    tool.write_text(SNAKE, encoding="utf-8")
    os.link(tool, backup / "tool.py")  # a snapshot that shares the file
    inode = tool.stat().st_ino
    done = _check("--fix", "tree", cwd=tmp_path)
    assert tool.stat().st_ino == inode
    assert tool.read_text(encoding="utf-8") == (backup / "tool.py").read_text(encoding="utf-8") == SNAKE
    assert f"warning: {Path('tree', 'tool.py')}: not fixed: it has 2 hard links" in done.stderr
    assert "SEM102" in done.stdout
    assert done.returncode == 1


# ---------------------------------------------------------------------------
# Owner, group and mode
# ---------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to chown")
def test_fixing_another_users_file_as_root_keeps_its_owner_group_and_mode(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    tool = tmp_path / "tool.py"
    tool.write_text(SNAKE, encoding="utf-8")
    os.chown(tool, 4321, 4322)
    tool.chmod(0o640)
    done = _check("--fix", str(tool), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    status = tool.stat()
    assert tool.read_text(encoding="utf-8") == FIXED
    assert (status.st_uid, status.st_gid, stat.S_IMODE(status.st_mode)) == (4321, 4322, 0o640)


# ---------------------------------------------------------------------------
# Temporary files
# ---------------------------------------------------------------------------


def _leftover(
    folder: Path, name: str, data: bytes, salt: str = "0123456789abcdef", key: bytes | None = None
) -> Path:
    """A temporary file as a run killed between naming it and renaming it leaves it.

    The name is the documented one: ``.<file>.<salt><digest>.semantics-lint.tmp``, the
    digest the first 32 hex digits of the salt and the content signed with the user's
    key (``user_key.sign``); ``key`` signs with another key instead.
    """
    signing = key if key is not None else user_key.load()
    assert signing is not None
    digest = user_key.sign(signing, (salt.encode(), data))[:32]
    path = folder / f".{name}.{salt}{digest}.semantics-lint.tmp"
    path.write_bytes(data)
    return path


def _age(*paths: Path) -> None:
    past = time.time() - 3600
    for path in paths:
        os.utime(path, (past, past), follow_symlinks=False)


def test_a_killed_runs_temporary_file_is_removed_by_the_next_fix(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(SNAKE, encoding="utf-8")
    stale = _leftover(tmp_path, "tool.py", FIXED.encode())
    # Look-alikes that are not provably ours stay.
    forged = tmp_path / f".tool.py.0123456789abcdef{'0' * 32}.semantics-lint.tmp"
    forged.write_text("a user's file with a name like ours\n", encoding="utf-8")
    fresh = _leftover(tmp_path, "other.py", b"x = 1\n", salt="fedcba9876543210")
    link = tmp_path / f".x.py.{'1' * 16}{'2' * 32}.semantics-lint.tmp"
    link.symlink_to(tmp_path / "tool.py")
    plain = tmp_path / "notes.semantics-lint.tmp"
    plain.write_text("keep\n", encoding="utf-8")
    _age(stale, forged, link, plain)
    done = _check("--fix", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "tool.py").read_text(encoding="utf-8") == FIXED
    assert not stale.exists()
    assert f"note: removed {stale}" in done.stderr
    assert forged.exists() and fresh.exists() and link.is_symlink() and plain.exists()


def test_a_checkout_cannot_name_a_file_so_that_fix_removes_it(tmp_path: Path) -> None:
    # A checkout can ship files named like leftovers whose digest anyone can compute
    # (SHA-256 of salt and content, as the name once carried) or that are signed with
    # a key of its own: neither is the user's key, so both stay.
    (tmp_path / "tool.py").write_text(SNAKE, encoding="utf-8")
    data = b"a file the repository holds\n"
    salt = "0123456789abcdef"
    anyones = hashlib.sha256(salt.encode() + b"\0" + data).hexdigest()[:32]
    unkeyed = tmp_path / f".tool.py.{salt}{anyones}{TEMP_SUFFIX}"
    unkeyed.write_bytes(data)
    theirs = _leftover(tmp_path, "tool.py", data, salt="fedcba9876543210", key=b"k" * 32)
    _age(unkeyed, theirs)
    done = _check("--fix", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "tool.py").read_text(encoding="utf-8") == FIXED
    assert unkeyed.read_bytes() == data and theirs.read_bytes() == data
    assert "removed" not in done.stderr


def test_kill_9_during_fix_leaves_no_temporary_file_for_good(tmp_path: Path) -> None:
    paths = [tmp_path / f"m{i:03d}.py" for i in range(60)]
    for delay in (0.0, 0.01, 0.03, 0.1):
        for path in paths:
            path.write_text(SNAKE, encoding="utf-8")
        process = subprocess.Popen(
            [sys.executable, "-m", "semantics_lint", "check", "--fix", "--jobs", "2", str(tmp_path)],
            env=check_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        # Wait until the run writes its fixes (in the order of the files), then kill
        # it and its workers at a different moment each time.
        deadline = time.monotonic() + 120
        while process.poll() is None and time.monotonic() < deadline:
            if paths[0].read_text(encoding="utf-8") == FIXED:
                break
            time.sleep(0.001)
        time.sleep(delay)
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
        for path in paths:
            assert path.read_text(encoding="utf-8") in (SNAKE, FIXED)  # all old or all new
    # Whatever the kills left is complete and provably ours: the next run that writes a
    # fix in the folder removes it. (The last kill may have come after the run wrote every
    # file: one file is put back so that the next run has something to write there.)
    _age(*tmp_path.glob(f"*{TEMP_SUFFIX}"))
    paths[0].write_text(SNAKE, encoding="utf-8")
    done = _check("--fix", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert sorted(tmp_path.glob(f"*{TEMP_SUFFIX}")) == []
    assert all(path.read_text(encoding="utf-8") == FIXED for path in paths)


# ---------------------------------------------------------------------------
# Platforms without folder handles
# ---------------------------------------------------------------------------


@pytest.fixture
def no_folder_handles(monkeypatch: pytest.MonkeyPatch) -> None:
    """This platform as one without ``dir_fd``: calls given a folder handle fail."""
    monkeypatch.setattr(os, "supports_dir_fd", set())

    def refusing(call):  # type: ignore[no-untyped-def]
        def wrapped(*args, **kwargs):  # type: ignore[no-untyped-def]
            handles = [kwargs.get(k) for k in ("dir_fd", "src_dir_fd", "dst_dir_fd")]
            if any(h is not None for h in handles) or (call is listdir and isinstance(args[0], int)):
                raise NotImplementedError(f"{call.__name__}: dir_fd unavailable on this platform")
            return call(*args, **kwargs)

        return wrapped

    listdir = os.listdir
    for name in ("open", "stat", "unlink", "replace", "rename", "link", "listdir", "access"):
        monkeypatch.setattr(os, name, refusing(getattr(os, name)))


def test_without_folder_handles_a_fix_is_written_by_path(tmp_path: Path, no_folder_handles: None) -> None:
    path = tmp_path / "tool.py"
    path.write_text(SNAKE, encoding="utf-8")
    path.chmod(0o640)
    stale = _leftover(tmp_path, "tool.py", FIXED.encode())
    _age(stale)
    done = write.write_atomic(path, FIXED.encode(), expected=SNAKE.encode(), trees=[str(tmp_path)])
    assert path.read_text(encoding="utf-8") == FIXED
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert done.path == str(path) and done.removed == (str(stale),)
    assert sorted(os.listdir(tmp_path)) == ["tool.py"]


def test_without_folder_handles_the_bytes_are_still_checked_before_the_rename(
    tmp_path: Path, no_folder_handles: None
) -> None:
    path = tmp_path / "tool.py"
    path.write_text(SNAKE + "EDITED = True\n", encoding="utf-8")
    with pytest.raises(write.NotWritten, match="changed after it was read"):
        write.write_atomic(path, FIXED.encode(), expected=SNAKE.encode())
    assert path.read_text(encoding="utf-8") == SNAKE + "EDITED = True\n"
    assert sorted(os.listdir(tmp_path)) == ["tool.py"]
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    tree.mkdir()
    outside.mkdir()
    (outside / "tool.py").write_text(SNAKE, encoding="utf-8")
    (tree / "tool.py").symlink_to(outside / "tool.py")
    with pytest.raises(write.NotWritten, match="outside the paths given"):
        write.write_atomic(tree / "tool.py", FIXED.encode(), expected=SNAKE.encode(), trees=[str(tree)])
    assert (outside / "tool.py").read_text(encoding="utf-8") == SNAKE


# ---------------------------------------------------------------------------
# Read-only files
# ---------------------------------------------------------------------------


@pytest.fixture
def shared_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder another user can reach (pytest's own are private to root)."""
    if os.geteuid() != 0:
        yield tmp_path
        return
    base = Path(tempfile.mkdtemp(prefix="semantics-lint-test-"))
    base.chmod(0o755)
    try:
        yield base
    finally:
        shutil.rmtree(base)


def test_a_read_only_file_is_not_fixed_though_its_folder_is_writable(shared_folder: Path) -> None:
    folder = shared_folder / "project"
    folder.mkdir()
    path = folder / "tool.py"
    path.write_text(SNAKE, encoding="utf-8")
    if os.geteuid() == 0:
        os.chown(folder, 65534, 65534)
        os.chown(path, 65534, 65534)
    path.chmod(0o444)

    def fix() -> str:
        try:
            write.write_atomic(path, FIXED.encode(), expected=SNAKE.encode())
        except write.NotWritten as refusal:
            return f"refused ({refusal.error}): {refusal}"
        return "written"

    answer = unprivileged(fix, folder)
    assert answer.startswith("refused (True): it is read-only to the user running the linter")
    assert "-r--r--r--" in answer
    assert path.read_text(encoding="utf-8") == SNAKE
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    assert sorted(os.listdir(folder)) == ["tool.py"]


def test_a_leftover_larger_than_the_bound_is_left_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Proving a leftover ours means reading it, and a checkout can ship a file of any
    # size under such a name (a few MB of git blob can be gigabytes of zeros): past
    # the bound it is not opened at all, even when its name would prove it ours.
    monkeypatch.setattr(write, "LEFTOVER_MAX_BYTES", 1000)
    opened: list[str] = []
    real_open = os.open

    def spying_open(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        opened.append(os.fsdecode(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", spying_open)
    (tmp_path / "tool.py").write_text(SNAKE, encoding="utf-8")
    small = _leftover(tmp_path, "tool.py", b"s" * 1000)
    large = _leftover(tmp_path, "tool.py", b"l" * 1001, salt="fedcba9876543210")
    _age(small, large)
    done = write.write_atomic(tmp_path / "tool.py", FIXED.encode(), expected=SNAKE.encode())
    assert done.removed == (str(small),)
    assert large.read_bytes() == b"l" * 1001
    assert not any(name.endswith(large.name) for name in opened)
