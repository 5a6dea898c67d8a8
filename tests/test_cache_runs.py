"""The results cache in real runs: a warm run says what a fresh lint says, always."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from semantics_lint.cli import main
from semantics_lint.lint import engine
from semantics_lint.lint.core.model import Finding
from semantics_lint.lint.run import runner

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"

SNAKE = (
    "from semantics_lint.runtime import described_result\n"
    "def f(rows, export):\n"
    "    return described_result(\n"
    "        facts=[{'entity': export.vm}],\n"
    "        provenance={'measured_at': export.at, 'source': export.source},\n"
    "    )\n"
)
# A tool whose finding comes from another module of its package.
CONSTANTS = 'EXPORT_DAY = "2024-05-01"\n'
CONSTANTS_CLEAN = 'CONFIG = {}\nEXPORT_DAY = CONFIG["day"]\n'
IMPORTER = (
    "from semantics_lint.runtime import described_result\n"
    "from .constants import EXPORT_DAY\n"
    "def f(rows, export):\n"
    "    return described_result(\n"
    "        facts=rows,\n"
    "        provenance={'measuredAt': EXPORT_DAY, 'source': export.source},\n"
    "    )\n"
)


def _shown(findings: list[Finding]) -> list[tuple[str, int, int, str, str]]:
    return [(f.filename, f.start.line, f.start.column, f.code, f.message) for f in findings]


def _run(paths: list[Path], cache: Path | None, **options: object) -> runner.RunResult:
    return runner.run([str(p) for p in paths], runner.RunOptions(cache_dir=cache, **options))  # type: ignore[arg-type]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    target = tmp_path / "work"
    shutil.copytree(TESTDATA / "corpus", target / "corpus")
    shutil.copytree(TESTDATA / "project", target / "project")
    return target


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_warm_run_reports_what_a_fresh_run_reports(corpus: Path, tmp_path: Path, jobs: int) -> None:
    fresh = _run([corpus], None, jobs=1)
    cold = _run([corpus], tmp_path / "cache", jobs=jobs)
    warm = _run([corpus], tmp_path / "cache", jobs=jobs)
    assert fresh.findings, "the corpus has planted defects"
    assert _shown(cold.findings) == _shown(fresh.findings)
    assert _shown(warm.findings) == _shown(fresh.findings)
    assert [f.fix for f in warm.findings] == [f.fix for f in fresh.findings]
    assert cold.cached == 0
    assert 0 < warm.cached < fresh.linted  # files that follow imports are linted again
    assert warm.linted == fresh.linted


def test_an_edited_file_is_linted_again(tmp_path: Path) -> None:
    tool = tmp_path / "tool.py"
    tool.write_text(SNAKE, encoding="utf-8")
    first = _run([tool], tmp_path / "cache")
    assert [f.code for f in first.findings] == ["SEM102"]
    tool.write_text(SNAKE.replace("measured_at", "measuredAt"), encoding="utf-8")
    second = _run([tool], tmp_path / "cache")
    assert second.findings == [] and second.cached == 0
    tool.write_text(SNAKE, encoding="utf-8")
    third = _run([tool], tmp_path / "cache")
    assert _shown(third.findings) == _shown(first.findings)
    assert third.cached == 0  # one entry a file: the second version replaced the first


@pytest.mark.parametrize("cached", [True, False])
def test_findings_through_another_module_are_never_served_stale(tmp_path: Path, cached: bool) -> None:
    # Without the results cache too: the resolver keeps astroid's answers for the
    # process, and an answer (even "unknown") must not outlive a change to the module.
    cache = tmp_path / "cache" if cached else None
    package = tmp_path / "fleet"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "constants.py").write_text(CONSTANTS, encoding="utf-8")
    tool = package / "tools.py"
    tool.write_text(IMPORTER, encoding="utf-8")
    first = _run([tool], cache)
    assert [f.code for f in first.findings] == ["SEM203"]
    (package / "constants.py").write_text(CONSTANTS_CLEAN, encoding="utf-8")
    second = _run([tool], cache)
    assert second.findings == [] and second.cached == 0
    (package / "constants.py").write_text(CONSTANTS, encoding="utf-8")
    third = _run([tool], cache)
    assert [f.code for f in third.findings] == ["SEM203"] and third.cached == 0


def test_selection_is_part_of_the_key(tmp_path: Path) -> None:
    tool = tmp_path / "tool.py"
    tool.write_text(SNAKE, encoding="utf-8")
    assert [f.code for f in _run([tool], tmp_path / "cache").findings] == ["SEM102"]
    assert _run([tool], tmp_path / "cache", ignore=("SEM102",)).findings == []
    assert [f.code for f in _run([tool], tmp_path / "cache").findings] == ["SEM102"]


def test_fixes_lint_afresh_and_leave_the_cache_right(tmp_path: Path) -> None:
    tool = tmp_path / "tool.py"
    tool.write_text(SNAKE, encoding="utf-8")
    _run([tool], tmp_path / "cache")
    fixed = _run([tool], tmp_path / "cache", fix=True)
    assert fixed.fixed == 1 and fixed.cached == 0
    assert "measuredAt" in tool.read_text(encoding="utf-8")
    after = _run([tool], tmp_path / "cache")
    assert after.findings == []


def test_a_failed_lint_is_not_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tool = tmp_path / "tool.py"
    tool.write_text(SNAKE, encoding="utf-8")
    real = engine.lint_decoded

    def broken(*args: object, **kwargs: object) -> engine.Linted:
        raise RuntimeError("a bug in a rule")

    monkeypatch.setattr(engine, "lint_decoded", broken)
    failed = _run([tool], tmp_path / "cache", jobs=1)
    assert failed.internal_error
    monkeypatch.setattr(engine, "lint_decoded", real)
    again = _run([tool], tmp_path / "cache", jobs=1)
    assert [f.code for f in again.findings] == ["SEM102"] and again.cached == 0


def test_the_command_uses_the_cache_unless_told_not_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SEMANTICS_LINT_NO_CACHE", raising=False)
    monkeypatch.delenv("SEMANTICS_LINT_CACHE_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    Path("tool.py").write_text(SNAKE, encoding="utf-8")
    cli = CliRunner()
    uncached = cli.invoke(main, ["check", "--no-cache", "tool.py"])
    assert uncached.exit_code == 1 and not Path(".semantics-lint-cache").exists()
    first = cli.invoke(main, ["check", "tool.py"])
    second = cli.invoke(main, ["check", "tool.py"])
    assert first.exit_code == second.exit_code == 1
    assert first.stdout == second.stdout == uncached.stdout
    assert (tmp_path / ".semantics-lint-cache" / ".gitignore").is_file()
    elsewhere = cli.invoke(main, ["check", "--cache-dir", "other", "tool.py"])
    assert elsewhere.stdout == uncached.stdout and (tmp_path / "other").is_dir()
    monkeypatch.setenv("SEMANTICS_LINT_CACHE_DIR", str(tmp_path / "from-env"))
    cli.invoke(main, ["check", "tool.py"])
    assert (tmp_path / "from-env").is_dir()
    monkeypatch.setenv("SEMANTICS_LINT_NO_CACHE", "1")
    cli.invoke(main, ["check", "--cache-dir", "never", "tool.py"])
    assert not (tmp_path / "never").exists()


@pytest.mark.parametrize(("value", "cached"), [("off", True), (" NO ", True), ("", True), ("Yes", False)])
def test_the_no_cache_variable_reads_true_and_false_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, cached: bool
) -> None:
    monkeypatch.delenv("SEMANTICS_LINT_CACHE_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    Path("tool.py").write_text(SNAKE, encoding="utf-8")
    monkeypatch.setenv("SEMANTICS_LINT_NO_CACHE", value)
    done = CliRunner().invoke(main, ["check", "tool.py"])
    assert done.exit_code == 1
    assert Path(".semantics-lint-cache").exists() is cached


def test_a_no_cache_value_that_is_neither_true_nor_false_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("tool.py").write_text(SNAKE, encoding="utf-8")
    monkeypatch.setenv("SEMANTICS_LINT_NO_CACHE", "sometimes")
    done = CliRunner().invoke(main, ["check", "tool.py"])
    assert done.exit_code == 2
    assert "SEMANTICS_LINT_NO_CACHE" in done.output and "'sometimes'" in done.output
    assert not Path(".semantics-lint-cache").exists()
