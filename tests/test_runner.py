"""The runner: rule selection, per-file settings, the pool, and failures kept per file."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from semantics_lint.lint.core.model import Finding
from semantics_lint.lint.run import jobs, pool, runner, selection
from semantics_lint.lint.run.config import Config, ConfigError, known_codes

SNAKE = (
    "from semantics_lint.runtime import described_result\n"
    "def f(rows, export):\n"
    "    return described_result(\n"
    "        facts=[{'entity': export.vm}],\n"
    "        provenance={'measured_at': export.at, 'source': export.source},\n"
    "    )\n"
)
PLAIN = "def g():\n    return 1\n"


def layer(
    select: tuple[str, ...] | None = None,
    extend: tuple[str, ...] = (),
    ignore: tuple[str, ...] = (),
) -> selection._Layer:
    return selection._Layer(select, extend, ignore)


UNIVERSE = ("SEM001", "SEM101", "SEM102", "SEM105", "SEM201", "SEM203", "SEM302")


def test_select_then_ignore_more_specific_wins() -> None:
    codes = selection.select_codes(UNIVERSE, [layer(("SEM1",), ignore=("SEM102",))])
    assert codes == {"SEM101", "SEM105"}
    codes = selection.select_codes(UNIVERSE, [layer(("SEM102",), ignore=("SEM1",))])
    assert codes == {"SEM102"}
    # On a tie, ignore wins.
    assert selection.select_codes(UNIVERSE, [layer(("SEM102",), ignore=("SEM102",))]) == set()


def test_layers_command_line_over_configuration() -> None:
    config = layer(("ALL",), ignore=("SEM2",))
    # --extend-select brings back one code the configuration ignored.
    assert "SEM203" in selection.select_codes(UNIVERSE, [config, layer(extend=("SEM203",))])
    assert "SEM201" not in selection.select_codes(UNIVERSE, [config, layer(extend=("SEM203",))])
    # --select starts over.
    assert selection.select_codes(UNIVERSE, [config, layer(("SEM3",))]) == {"SEM302"}
    # --ignore removes on top of the configuration's select.
    assert selection.select_codes(UNIVERSE, [layer(("SEM1",)), layer(ignore=("SEM10",))]) == set()


def test_default_runs_every_known_code() -> None:
    assert selection.enabled_codes(Config(), runner.RunOptions()) == known_codes()


def test_per_file_ignores_relative_to_the_configuration(tmp_path: Path) -> None:
    config = Config(path=tmp_path / "pyproject.toml", per_file_ignores=(("tests/*", ("SEM1",)),))
    inside = runner.codes_for_file(config, runner.RunOptions(), tmp_path / "tests" / "deep" / "t.py")
    outside = runner.codes_for_file(config, runner.RunOptions(), tmp_path / "src" / "t.py")
    assert "SEM102" not in inside and "SEM001" in inside
    assert "SEM102" in outside


def test_bad_command_line_selector_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="--ignore"):
        runner.check_options(runner.RunOptions(ignore=("E501",)))
    with pytest.raises(ConfigError, match="--select"):
        runner.check_options(runner.RunOptions(select=("SEM9",)))


def test_pool_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "default_jobs", lambda: 16)
    assert pool.pool_size(1, 100) == 0
    assert pool.pool_size(4, 1) == 0
    assert pool.pool_size(4, pool.MIN_FILES_FOR_POOL - 1) == 0
    assert pool.pool_size(4, 100) == 4
    assert pool.pool_size(4, pool.MIN_FILES_FOR_POOL) == min(4, pool.MIN_FILES_FOR_POOL)
    # The pre-commit hook is require_serial: this process is the only one linting.
    monkeypatch.setenv("PRE_COMMIT", "1")
    assert pool.pool_size(4, 100) == 4


def test_the_pool_never_has_more_workers_than_cores_or_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pool, "default_jobs", lambda: 2)
    assert pool.pool_size(200, 400) == 2
    monkeypatch.setattr(pool, "default_jobs", lambda: 1)
    assert pool.pool_size(200, 400) == 0  # one core: lint in-process
    monkeypatch.setattr(pool, "default_jobs", lambda: 64)
    assert pool.pool_size(200, 20) == 20


def make_tree(tmp_path: Path, count: int) -> list[str]:
    for i in range(count):
        (tmp_path / f"m{i:02d}.py").write_text(SNAKE, encoding="utf-8")
    (tmp_path / "plain.py").write_text(PLAIN, encoding="utf-8")
    return [str(tmp_path)]


def test_prefilter_in_the_parent_skips_files_without_calls(tmp_path: Path) -> None:
    result = runner.run(make_tree(tmp_path, 2), runner.RunOptions(jobs=1))
    assert result.files == 3
    assert result.linted == 2
    assert {Path(f.filename).name for f in result.findings} == {"m00.py", "m01.py"}


def test_noqa_and_selection_are_applied(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(SNAKE.replace("source},", "source},  # noqa: SEM102"), encoding="utf-8")
    assert [f.code for f in runner.run([str(path)], runner.RunOptions(jobs=1)).findings] == []
    path.write_text(SNAKE, encoding="utf-8")
    assert [f.code for f in runner.run([str(path)], runner.RunOptions(jobs=1)).findings] == ["SEM102"]
    ignored = runner.run([str(path)], runner.RunOptions(jobs=1, ignore=("SEM102",)))
    assert ignored.findings == []


def _fork_only() -> None:
    if multiprocessing.get_start_method() != "fork":
        pytest.skip("patching the worker function needs the fork start method")


def test_order_is_the_same_with_and_without_the_pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = make_tree(tmp_path, 12)
    serial = runner.run(paths, runner.RunOptions(jobs=1))
    parallel = runner.run(paths, runner.RunOptions(jobs=2))
    assert not serial.used_pool and parallel.used_pool
    assert serial.findings == parallel.findings
    assert [f.filename for f in serial.findings] == sorted(f.filename for f in serial.findings)


def _crashing_job(job: jobs.Job, project: object = None) -> jobs.FileOutcome:
    if job.display.endswith("m03.py"):
        os._exit(3)  # a worker that dies outright, as a segfault or the OOM killer would
    return jobs.FileOutcome(job.display, [])


def test_a_worker_that_dies_is_reported_for_its_file_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fork_only()
    monkeypatch.setattr(jobs, "_run_job", _crashing_job)
    result = runner.run(make_tree(tmp_path, 10), runner.RunOptions(jobs=2))
    assert result.used_pool
    assert result.internal_error
    assert [(Path(f.filename).name, f.code) for f in result.findings] == [("m03.py", "SEM001")]
    assert "worker process ended abruptly" in result.findings[0].message


def _raising_job(job: jobs.Job, project: object = None) -> jobs.FileOutcome:
    if job.display.endswith("m01.py"):
        raise RecursionError("maximum recursion depth exceeded")
    return jobs.FileOutcome(job.display, [])


def test_an_exception_on_one_file_is_reported_and_the_run_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "_run_job", _raising_job)
    result = runner.run(make_tree(tmp_path, 3), runner.RunOptions(jobs=1))
    assert result.internal_error
    assert len(result.findings) == 1
    finding: Finding = result.findings[0]
    assert Path(finding.filename).name == "m01.py"
    assert "RecursionError" in finding.message


def test_unreadable_file_is_one_finding(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    path = tmp_path / "locked.py"
    path.write_text(SNAKE, encoding="utf-8")
    path.chmod(0)
    try:
        result = runner.run([str(path)], runner.RunOptions(jobs=1))
    finally:
        path.chmod(0o644)
    assert [f.code for f in result.findings] == ["SEM001"]
    assert result.findings[0].filename == str(path)


def test_dangling_symlink_named_on_the_command_line_is_one_finding(tmp_path: Path) -> None:
    path = tmp_path / "gone.py"
    path.symlink_to(tmp_path / "missing.py")
    result = runner.run([str(path)], runner.RunOptions(jobs=1))
    assert [f.code for f in result.findings] == ["SEM001"]
    assert result.findings[0].filename == str(path)
    assert not result.internal_error


def test_fix_error_writes_nothing_and_reports_the_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from semantics_lint.lint.run import fix

    def refuse(*args: object, **kwargs: object) -> fix.FixResult:
        raise fix.FixError("m.py: applying the fixes would produce code that does not parse")

    path = tmp_path / "m.py"
    path.write_text(SNAKE, encoding="utf-8")
    monkeypatch.setattr(fix, "fix_decoded", refuse)
    result = runner.run([str(path)], runner.RunOptions(jobs=1, fix=True))
    assert path.read_text(encoding="utf-8") == SNAKE
    assert [f.code for f in result.findings] == ["SEM102"]
    assert result.messages == ["error: m.py: applying the fixes would produce code that does not parse"]
    assert result.fixed == 0 and not result.internal_error


def test_write_failure_leaves_the_file_and_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from semantics_lint.lint.run import write

    def fail(path: object, data: bytes, **where: object) -> None:
        raise PermissionError(13, "Permission denied")

    path = tmp_path / "m.py"
    path.write_text(SNAKE, encoding="utf-8")
    monkeypatch.setattr(write, "write_atomic", fail)
    result = runner.run([str(path)], runner.RunOptions(jobs=1, fix=True))
    assert path.read_text(encoding="utf-8") == SNAKE
    assert result.failed and not result.internal_error
    assert result.fixed == 0
    assert "could not write the fixed file (Permission denied)" in result.messages[0]
    # What is reported is what the unchanged file still holds.
    assert [f.code for f in result.findings] == ["SEM102"]


def test_files_without_calls_never_import_libcst(tmp_path: Path) -> None:
    import subprocess
    import sys

    for i in range(3):
        (tmp_path / f"plain{i}.py").write_text(PLAIN, encoding="utf-8")
    script = (
        "import sys\n"
        "from semantics_lint.cli import check\n"
        "from semantics_lint.lint.run import runner\n"
        "assert 'libcst' not in sys.modules, 'importing the CLI imported libcst'\n"
        f"result = runner.run([{str(tmp_path)!r}], runner.RunOptions(jobs=1))\n"
        "assert result.files == 3 and result.linted == 0 and not result.findings\n"
        "assert 'libcst' not in sys.modules, 'a run without calls imported libcst'\n"
        "assert 'astroid' not in sys.modules\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr


def test_rule_codes_known_to_selection_match_the_registry() -> None:
    from semantics_lint.lint.rules import ALL_RULES

    # Selection resolves against the vocabulary's list, so it must be the registry's.
    assert {rule.code for rule in ALL_RULES} == known_codes()


def test_stdin_standing_for_an_excluded_file_is_not_linted_with_force_exclude(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `check - --stdin-filename generated/x.py --force-exclude` (an editor, pre-commit)
    # answers as `check generated/x.py --force-exclude` does: nothing to lint.
    (tmp_path / "pyproject.toml").write_text(
        '[tool.semantics-lint]\nextend-exclude = ["generated"]\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    source = SNAKE.encode()
    forced = runner.RunOptions(force_exclude=True)
    excluded = runner.run_stdin(source, forced, "generated/x.py")
    assert excluded.excluded and excluded.findings == [] and excluded.linted == 0
    fixing = runner.run_stdin(source, runner.RunOptions(force_exclude=True, fix=True), "generated/x.py")
    assert fixing.excluded and fixing.fixed_stdin is None  # the CLI echoes the input unchanged
    # Without --force-exclude, or for a file not excluded, or with no name, it is linted.
    for options, name in (
        (runner.RunOptions(), "generated/x.py"),
        (forced, "tools/x.py"),
        (forced, None),
    ):
        linted = runner.run_stdin(source, options, name)
        assert not linted.excluded
        assert [finding.code for finding in linted.findings] == ["SEM102"], (options, name)
