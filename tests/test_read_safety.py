"""Reading a hostile checkout: FIFOs, devices, sockets, vanished files, --jobs.

Each problem is a message naming the path; the other files are linted; the exit code
says something was wrong: a SEM001 finding (exit 1, as ruff's E902), or, with SEM001
not selected, an error message and exit 2.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from checkout import SNAKE, check_env, run_check

from semantics_lint.lint.run import runner
from semantics_lint.lint.run.config import ConfigResolver
from semantics_lint.lint.run.discovery import SourceFile, discover

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX FIFOs and sockets")


def test_a_fifo_named_on_the_command_line_is_a_finding_not_a_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "good.py").write_text(SNAKE, encoding="utf-8")
    done = run_check("pipe.py", "good.py", cwd=tmp_path)
    assert "pipe.py:1:1: SEM001 cannot read the file: not a regular file (a FIFO)" in done.stdout
    assert "good.py:5:21: SEM102" in done.stdout
    assert done.returncode == 1, done.stderr


def test_a_fifo_read_by_a_pool_worker_does_not_hang_either(tmp_path: Path) -> None:
    names = []
    for i in range(20):
        (tmp_path / f"m{i:02d}.py").write_text(SNAKE, encoding="utf-8")
        names.append(f"m{i:02d}.py")
    os.mkfifo(tmp_path / "zz_pipe.py")  # after the files the parent reads itself
    done = run_check("--jobs", "2", *names, "zz_pipe.py", cwd=tmp_path)
    assert "zz_pipe.py:1:1: SEM001 cannot read the file: not a regular file (a FIFO)" in done.stdout
    assert done.stdout.count("SEM102") == 20
    assert done.returncode == 1, done.stderr


def test_with_sem001_not_selected_an_unread_file_is_an_error_message(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "good.py").write_text(SNAKE, encoding="utf-8")
    done = run_check("--select", "SEM1", "pipe.py", "good.py", cwd=tmp_path)
    assert "error: pipe.py: cannot read the file: not a regular file (a FIFO)" in done.stderr
    assert "good.py:5:21: SEM102" in done.stdout
    assert done.returncode == 2
    # --exit-zero hides findings, not a file that could not be read.
    assert run_check("--exit-zero", "--select", "SEM1", "pipe.py", cwd=tmp_path).returncode == 2


def test_a_device_and_a_socket_named_on_the_command_line_are_not_read(tmp_path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "sock.py"))
        done = run_check("/dev/null", "sock.py", cwd=tmp_path)
    finally:
        server.close()
    assert (
        "/dev/null:1:1: SEM001 cannot read the file: not a regular file (a character device)" in done.stdout
    )
    assert "sock.py:1:1: SEM001 cannot read the file: not a regular file (a socket)" in done.stdout
    assert done.returncode == 1


def test_a_file_gone_before_it_is_read_is_reported_and_the_run_goes_on(tmp_path: Path) -> None:
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(SNAKE, encoding="utf-8")
    sources = discover([str(tmp_path)], ConfigResolver())
    (tmp_path / "a.py").unlink()
    selected = runner.run_sources(sources, ConfigResolver(), runner.RunOptions(jobs=1))
    assert [(Path(f.filename).name, f.code) for f in selected.findings] == [
        ("a.py", "SEM001"),
        ("b.py", "SEM102"),
    ]
    assert "No such file or directory" in selected.findings[0].message
    assert not selected.failed
    unselected = runner.run_sources(sources, ConfigResolver(), runner.RunOptions(jobs=1, select=("SEM1",)))
    assert [(Path(f.filename).name, f.code) for f in unselected.findings] == [("b.py", "SEM102")]
    assert unselected.failed and not unselected.internal_error
    assert unselected.messages == [
        f"error: {sources[0].display}: cannot read the file: No such file or directory"
    ]


def test_messages_come_in_file_order_whatever_reads_the_files(tmp_path: Path) -> None:
    for i in range(30):
        (tmp_path / f"m{i:02d}.py").write_text(SNAKE, encoding="utf-8")
    sources = discover([str(tmp_path)], ConfigResolver())
    gone = [sources[1], sources[25]]  # one the parent reads, one a worker reads
    for source in gone:
        source.path.unlink()
    options = {"select": ("SEM1",)}
    serial = runner.run_sources(sources, ConfigResolver(), runner.RunOptions(jobs=1, **options))  # type: ignore[arg-type]
    parallel = runner.run_sources(sources, ConfigResolver(), runner.RunOptions(jobs=2, **options))  # type: ignore[arg-type]
    assert serial.messages == parallel.messages
    assert [m.split(": ")[1] for m in serial.messages] == [source.display for source in gone]


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc to count workers")
def test_jobs_beyond_the_cores_start_no_more_workers_than_cores(tmp_path: Path) -> None:
    for i in range(40):
        (tmp_path / f"m{i:02d}.py").write_text(SNAKE, encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "semantics_lint", "check", "--jobs", "200", str(tmp_path)],
        env=check_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    most = 0
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline:
        try:
            most = max(most, len(children.read_text().split()))
        except OSError:
            pass
        time.sleep(0.002)
    process.wait(timeout=120)
    assert process.returncode == 1
    assert most <= len(os.sched_getaffinity(0))


def test_a_source_that_is_a_folder_is_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "pkg.py"
    folder.mkdir()
    result = runner.run_sources([SourceFile(folder, "pkg.py")], ConfigResolver(), runner.RunOptions(jobs=1))
    assert [f.message for f in result.findings] == ["cannot read the file: not a regular file (a folder)"]
