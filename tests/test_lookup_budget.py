"""The bound on questions about other modules is per linted file, so a file's findings
never depend on which files the same process linted before it."""

from __future__ import annotations

from pathlib import Path

import pytest

from semantics_lint.lint import engine
from semantics_lint.lint.resolve import astroid_bridge as resolve_astroid

CONSTANTS = 'FIRST_DAY = "2024-05-01"\nSECOND_DAY = "2024-06-01"\nOTHER_DAY = "2024-07-01"\n'
TOOL = (
    "from semantics_lint.runtime import described_result\n"
    "from .constants import FIRST_DAY, SECOND_DAY\n"
    "def first(rows, export):\n"
    "    return described_result(facts=rows,\n"
    "        provenance={'measuredAt': FIRST_DAY, 'source': export.source})\n"
    "def second(rows, export):\n"
    "    return described_result(facts=rows,\n"
    "        provenance={'measuredAt': SECOND_DAY, 'source': export.source})\n"
)


def _lines(path: Path) -> list[int]:
    findings = engine.lint_source(path.read_bytes(), str(path))
    return [f.start.line for f in findings if f.code == "SEM203"]


@pytest.fixture
def package(tmp_path: Path) -> Path:
    root = tmp_path / "fleet"
    root.mkdir()
    (root / "__init__.py").write_text("", encoding="utf-8")
    (root / "constants.py").write_text(CONSTANTS, encoding="utf-8")
    (root / "b_tools.py").write_text(TOOL, encoding="utf-8")
    other = TOOL.replace("FIRST_DAY", "OTHER_DAY").replace("SECOND_DAY", "OTHER_DAY")
    (root / "a_tools.py").write_text(other.replace("OTHER_DAY, OTHER_DAY", "OTHER_DAY"), encoding="utf-8")
    return root


def test_both_names_are_followed_within_the_budget(package: Path) -> None:
    assert _lines(package / "b_tools.py") == [5, 8]
    assert _lines(package / "a_tools.py") == [5, 8]


def test_past_the_budget_a_name_is_unknown_and_other_files_do_not_spend_it(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(resolve_astroid, "MAX_LOOKUPS", 1)
    alone = _lines(package / "b_tools.py")
    assert alone == [5]  # one question allowed: the first name followed, not the second
    assert _lines(package / "a_tools.py") == [5, 8]  # other questions, asked first
    assert _lines(package / "b_tools.py") == alone
