"""The process pool gets files in chunks; answers, order and crash handling are kept.

One pool task per file spent more time on the pool's messages than on linting, so
the runner sends chunks of files. These tests hold the chunked pool to what the
one-file-a-task pool promised: the same findings in the same order as a serial run,
and a worker that dies costs only the file that killed it.
"""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from semantics_lint.lint.run import jobs, pool, runner

SNAKE = (
    "from semantics_lint.runtime import described_result\n"
    "def tool(rows, at, src):\n"
    "    return described_result(facts=rows, provenance={'measured_at': at, 'source': src})\n"
)


def _tree(tmp_path: Path, count: int) -> list[str]:
    for i in range(count):
        (tmp_path / f"m{i:03d}.py").write_text(SNAKE, encoding="utf-8")
    return [str(tmp_path)]


def test_chunk_size_bounds() -> None:
    assert pool.chunk_size(0, 2) == 1
    assert pool.chunk_size(10, 2) == 1
    assert pool.chunk_size(160, 2) == 10
    assert pool.chunk_size(100_000, 2) == 32
    assert pool.chunk_size(100, 0) == 12


def test_chunked_pool_gives_the_serial_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _tree(tmp_path, 90)
    assert pool.chunk_size(90, 2) > 1
    serial = runner.run(paths, runner.RunOptions(jobs=1))
    parallel = runner.run(paths, runner.RunOptions(jobs=2))
    assert parallel.used_pool
    assert len(serial.findings) >= 90
    assert serial.findings == parallel.findings


def _crashing_job(job: jobs.Job, project: object = None) -> jobs.FileOutcome:
    if job.display.endswith("m041.py"):
        os._exit(3)  # a worker that dies outright, as a segfault or the OOM killer would
    return jobs.FileOutcome(job.display, [])


def test_a_dying_worker_costs_only_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if multiprocessing.get_start_method() != "fork":
        pytest.skip("patching the worker function needs the fork start method")
    monkeypatch.setattr(jobs, "_run_job", _crashing_job)
    result = runner.run(_tree(tmp_path, 90), runner.RunOptions(jobs=2))
    assert result.used_pool and result.internal_error
    assert [(Path(f.filename).name, f.code) for f in result.findings] == [("m041.py", "SEM001")]
