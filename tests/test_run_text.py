"""The runner's entry for a file held in memory, ``texts.run_text``, which every frontend calls.

``semantics-lint check -`` (standard input), the language server (a buffer) and the
flake8 plugin (flake8's lines and tree) all lint a text through this one function,
and find the same; with flake8's settings, no configuration is read and nothing is
filtered (flake8 applies ``# noqa`` and selection itself).
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from semantics_lint.cli import main
from semantics_lint.flake8_plugin import SemanticsLintPlugin
from semantics_lint.lint.core.settings import LintSettings
from semantics_lint.lint.run import runner, texts
from semantics_lint.lint.run.results import InMemory, RunOptions
from semantics_lint.lsp import lint_adapter

TEXT = (
    "from semantics_lint.runtime import described_result\n"
    "\n"
    "\n"
    "def status(export):\n"
    "    return described_result(\n"
    "        facts=[],\n"
    "        provenance={'measured_at': export.at, 'source': export.source},\n"
    "    )\n"
)


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[InMemory, Any]]]:
    """Every call of ``texts.run_text``: its source, and the findings it returned."""
    seen: list[tuple[InMemory, Any]] = []
    real = texts.run_text

    def recording(source: InMemory, options: RunOptions, **keywords: Any) -> runner.RunResult:
        result = real(source, options, **keywords)
        seen.append((source, [(f.code, f.start.line, f.start.column) for f in result.findings]))
        return result

    monkeypatch.setattr(texts, "run_text", recording)
    yield seen


def test_every_frontend_lints_a_text_through_run_text(
    tmp_path: Path, calls: list[tuple[InMemory, Any]]
) -> None:
    path = str(tmp_path / "tool.py")
    lines = TEXT.splitlines(keepends=True)
    flake8 = [row[:3] for row in SemanticsLintPlugin(ast.parse(TEXT), lines, path).run()]
    editor = lint_adapter.lint_text(TEXT, path)
    fixed = lint_adapter.fix_all(TEXT, path)
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        cli = CliRunner().invoke(
            main, ["check", "-", "--stdin-filename", "tool.py", "--no-cache"], input=TEXT
        )
    finally:
        os.chdir(old)
    assert cli.exit_code == 1
    assert [source.path for source, _ in calls] == [path, path, path, "tool.py"]
    flake8_found, editor_found, _, cli_found = (found for _, found in calls)
    expected = [("SEM105", 6, 14), ("SEM102", 7, 20)]
    assert flake8_found == editor_found == cli_found == expected
    assert [(line, column, text.split()[0]) for line, column, text in flake8] == [
        (line, column, code) for code, line, column in expected
    ]
    assert [(f.finding.code, f.start.line + 1, f.start.character) for f in editor.findings] == expected
    assert "'measuredAt'" in fixed and "'measured_at'" not in fixed


def test_a_text_is_written_back_as_its_coding_cookie_says(tmp_path: Path) -> None:
    # The accented value comes before the finding: a text written in the wrong encoding
    # would be read back with other characters there, and the column would move.
    text = "# -*- coding: latin-1 -*-\n" + TEXT.replace(
        "{'measured_at': export.at, 'source': export.source}",
        "{'source': '\u00e9t\u00e9', 'measured_at': export.at}",
    )
    path = str(tmp_path / "tool.py")
    from_text = runner.run_text(InMemory(path, text=text), RunOptions(jobs=1))
    from_bytes = runner.run_text(InMemory(path, text.encode("latin-1")), RunOptions(jobs=1))
    assert [(f.code, f.start.line, f.start.column) for f in from_text.findings] == [
        ("SEM105", 7, 14),
        ("SEM102", 8, 37),
    ]
    assert from_text.findings == from_bytes.findings


def test_flake8_settings_read_no_configuration_and_filter_nothing(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.semantics-lint]\nignore = ["SEM105"]\n', encoding="utf-8")
    text = TEXT.replace("export.source},", "export.source},  # noqa: SEM102")
    path = str(tmp_path / "tool.py")
    configured = runner.run_text(InMemory(path, text=text), RunOptions(jobs=1))
    assert configured.findings == []  # SEM105 ignored by the configuration, SEM102 by the comment
    given = runner.run_text(InMemory(path, text=text), RunOptions(), settings=LintSettings())
    assert [f.code for f in given.findings] == ["SEM105", "SEM102"]


def test_an_input_over_the_limit_is_sem001_unread(tmp_path: Path) -> None:
    path = str(tmp_path / "tool.py")
    for settings in (None, LintSettings()):
        result = runner.run_text(
            InMemory(path, complete=False, size=1 << 27), RunOptions(), settings=settings
        )
        [finding] = result.findings
        assert finding.code == "SEM001" and "too large" in finding.message
        assert result.linted == 0
