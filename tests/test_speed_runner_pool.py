"""The pool reads its own files and starts from a parent that imported the engine.

With ``--jobs`` above one, the parent reads and prefilters files only until enough
pass for a pool to start; the workers read and prefilter the rest. And the parent
imports the linter's modules before the workers are forked, so that they do not
each import them again. These tests hold both to what a serial run answers: the same
findings in the same order, the same counts, the same fixes, the same SEM001 for a
file that cannot be read.
"""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
from pathlib import Path

import pytest

from semantics_lint.lint.run import jobs, pool, runner
from semantics_lint.lint.run.config import ConfigResolver
from semantics_lint.lint.run.discovery import SourceFile, discover

SNAKE = (
    "from semantics_lint.runtime import described_result\n"
    "def tool(rows, at, src):\n"
    "    return described_result(facts=rows, provenance={'measured_at': at, 'source': src})\n"
)
SUPPRESSED = SNAKE.replace("src})\n", "src})  # noqa: SEM102\n")
PLAIN = "def helper():\n    return 1\n"
BROKEN = "from semantics_lint.runtime import described_result\ndef tool(:\n"
GRAIN = (
    "from semantics_lint.runtime import described_result\n"
    "GRAIN = {'interval': 'daily', 'aggregation': 'sum'}\n"
    "def tool(at, src):\n"
    "    return described_result(series=[{'t': 1, 'entity': 'e', 'metric': 'm', 'value': 2}],\n"
    "        grain=GRAIN, provenance={'measuredAt': at, 'source': src})\n"
)


def _fork_only() -> None:
    if multiprocessing.get_start_method() != "fork":
        pytest.skip("patching the runner in the parent reaches the workers only with fork")


def _mixed_tree(root: Path, count: int = 60) -> list[str]:
    """Files with findings, suppressed ones, files without calls, broken files, and a
    configuration with per-file-ignores, spread so that every kind lands past the
    files the parent reads."""
    (root / "pyproject.toml").write_text(
        '[tool.semantics-lint]\nper-file-ignores = {"*_quiet.py" = ["SEM102"]}\n', encoding="utf-8"
    )
    kinds = (SNAKE, PLAIN, SUPPRESSED, GRAIN, BROKEN, PLAIN, SNAKE)
    for i in range(count):
        text = kinds[i % len(kinds)]
        name = f"m{i:03d}_quiet.py" if i % 11 == 0 else f"m{i:03d}.py"
        (root / name).write_text(text, encoding="utf-8")
    return [str(root)]


def _summary(result: runner.RunResult) -> tuple[object, ...]:
    return (result.findings, result.files, result.linted, result.internal_error, result.messages)


def test_the_pool_answers_what_the_serial_run_answers(tmp_path: Path) -> None:
    paths = _mixed_tree(tmp_path)
    serial = runner.run(paths, runner.RunOptions(jobs=1))
    parallel = runner.run(paths, runner.RunOptions(jobs=2))
    assert parallel.used_pool and not serial.used_pool
    assert _summary(parallel) == _summary(serial)
    assert serial.linted == sum(1 for i in range(60) if i % 7 not in (1, 5))  # PLAIN: not linted
    assert {f.code for f in serial.findings} >= {"SEM001", "SEM102", "SEM302"}


def test_the_parent_reads_only_until_the_pool_is_decided(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fork_only()
    for i in range(40):
        (tmp_path / f"m{i:02d}.py").write_text(SNAKE if i % 2 else PLAIN, encoding="utf-8")
    read_in_parent: list[str] = []
    real_read = jobs._read

    def counting_read(path: Path) -> bytes | OSError:
        # Forked workers inherit this function but append to their own copy of the list.
        read_in_parent.append(path.name)
        return real_read(path)

    monkeypatch.setattr(jobs, "_read", counting_read)
    parallel = runner.run([str(tmp_path)], runner.RunOptions(jobs=2))
    assert parallel.used_pool
    passing = [name for name in read_in_parent if int(name[1:3]) % 2]
    assert len(passing) == pool.MIN_FILES_FOR_POOL
    assert read_in_parent == [f"m{i:02d}.py" for i in range(2 * pool.MIN_FILES_FOR_POOL)]
    read_in_parent.clear()
    serial = runner.run([str(tmp_path)], runner.RunOptions(jobs=1))
    assert len(read_in_parent) == 40
    assert _summary(parallel) == _summary(serial)
    assert serial.linted == 20


def test_no_pool_when_too_few_files_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(30):
        text = SNAKE if i < pool.MIN_FILES_FOR_POOL - 1 else PLAIN
        (tmp_path / f"m{i:02d}.py").write_text(text, encoding="utf-8")
    imported: list[bool] = []
    monkeypatch.setattr(pool, "import_for_pool", lambda: imported.append(True))
    result = runner.run([str(tmp_path)], runner.RunOptions(jobs=2))
    assert not result.used_pool and not imported
    assert result.linted == pool.MIN_FILES_FOR_POOL - 1


def _sources_with_a_missing_file(tmp_path: Path) -> list[SourceFile]:
    for i in range(20):
        (tmp_path / f"m{i:02d}.py").write_text(SNAKE, encoding="utf-8")
    sources = discover([str(tmp_path)], ConfigResolver())
    # A file that is gone by the time it is read: past the files the parent reads.
    gone = tmp_path / "m15b.py"
    sources.insert(16, SourceFile(gone, str(gone)))
    return sources


def test_a_file_a_worker_cannot_read_is_the_serial_sem001(tmp_path: Path) -> None:
    sources = _sources_with_a_missing_file(tmp_path)
    serial = runner.run_sources(sources, ConfigResolver(), runner.RunOptions(jobs=1))
    parallel = runner.run_sources(sources, ConfigResolver(), runner.RunOptions(jobs=2))
    assert parallel.used_pool
    assert _summary(parallel) == _summary(serial)
    missing = [f for f in serial.findings if f.filename.endswith("m15b.py")]
    assert [f.code for f in missing] == ["SEM001"]
    assert "cannot read the file" in missing[0].message
    assert serial.linted == 20 and not serial.internal_error
    ignored = runner.RunOptions(jobs=2, ignore=("SEM001",))
    assert not [
        f
        for f in runner.run_sources(sources, ConfigResolver(), ignored).findings
        if f.filename.endswith("m15b.py")
    ]


def test_fixes_and_diffs_from_the_pool_match_the_serial_run(tmp_path: Path) -> None:
    serial_root, parallel_root = tmp_path / "serial", tmp_path / "parallel"
    for root in (serial_root, parallel_root):
        root.mkdir()
        _mixed_tree(root, 40)
    diff_serial = runner.run([str(serial_root)], runner.RunOptions(jobs=1, diff=True))
    diff_parallel = runner.run([str(parallel_root)], runner.RunOptions(jobs=2, diff=True))
    assert diff_parallel.used_pool
    strip = str(tmp_path)
    assert [d.replace(str(parallel_root), strip) for d in diff_parallel.diffs] == [
        d.replace(str(serial_root), strip) for d in diff_serial.diffs
    ]
    assert len(diff_serial.diffs) > 5
    fixed_serial = runner.run([str(serial_root)], runner.RunOptions(jobs=1, fix=True))
    fixed_parallel = runner.run([str(parallel_root)], runner.RunOptions(jobs=2, fix=True))
    assert fixed_parallel.used_pool
    assert (fixed_parallel.fixed, fixed_parallel.changed_files) == (
        fixed_serial.fixed,
        fixed_serial.changed_files,
    )
    for path in sorted(serial_root.glob("*.py")):
        assert (parallel_root / path.name).read_bytes() == path.read_bytes()
    assert "measured_at" not in (serial_root / "m006.py").read_text(encoding="utf-8")


def test_a_fix_that_cannot_be_written_reports_the_unchanged_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from semantics_lint.lint.run import write

    def fail(path: object, data: bytes, **where: object) -> None:
        raise PermissionError(13, "Permission denied")

    for i in range(20):
        (tmp_path / f"m{i:02d}.py").write_text(SNAKE, encoding="utf-8")
    monkeypatch.setattr(write, "write_atomic", fail)  # writes happen in the parent
    result = runner.run([str(tmp_path)], runner.RunOptions(jobs=2, fix=True))
    assert result.used_pool and result.failed and not result.internal_error
    assert result.fixed == 0 and len(result.messages) == 20
    # Files the parent read and files the workers read: each still holds its SEM102.
    assert [(Path(f.filename).name, f.code) for f in result.findings] == [
        (f"m{i:02d}.py", "SEM102") for i in range(20)
    ]
    assert (tmp_path / "m19.py").read_text(encoding="utf-8") == SNAKE


_AFTER_IMPORT_FOR_POOL = """
import sys
from semantics_lint.lint.run import pool, runner
pool.import_for_pool()
before = set(sys.modules)
result = runner.run(sys.argv[1:], runner.RunOptions(jobs=1))
assert result.linted > 15, result.linted
print(sorted(name for name in set(sys.modules) - before if name.split(".")[0] == "semantics_lint"))
"""


def test_import_for_pool_imports_what_linting_imports() -> None:
    # What a worker would still import of the linter's own modules after the parent
    # ran import_for_pool: nothing but astroid's door (LibCST and astroid, with the
    # module that imports astroid at its top, are imported where needed).
    root = Path(__file__).resolve().parent.parent / "testdata"
    paths = [str(root / "corpus"), str(root / "tools"), str(root / "project")]
    done = subprocess.run(
        [sys.executable, "-c", _AFTER_IMPORT_FOR_POOL, *paths],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['semantics_lint.lint.resolve.astroid_boundary']"


def test_a_run_without_calls_starts_no_pool_and_imports_no_libcst(tmp_path: Path) -> None:
    for i in range(3 * pool.MIN_FILES_FOR_POOL):
        (tmp_path / f"plain{i}.py").write_text(PLAIN, encoding="utf-8")
    script = (
        "import sys\n"
        "from semantics_lint.lint.run import runner\n"
        f"result = runner.run([{str(tmp_path)!r}], runner.RunOptions(jobs=2))\n"
        "assert not result.used_pool and result.linted == 0 and not result.findings\n"
        "assert 'libcst' not in sys.modules, 'a run without calls imported libcst'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
