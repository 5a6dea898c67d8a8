"""Output formats on hand-made findings: text, JSON, GitHub, SARIF, statistics, summary."""

from __future__ import annotations

import json
from typing import Any

import pytest

from semantics_lint.lint import output
from semantics_lint.lint.model import (
    Applicability,
    Edit,
    Finding,
    Fix,
    Position,
    Severity,
)


class FakeRule:
    """What the outputs read from a registered rule."""

    def __init__(self, code: str, name: str, severity: Severity, doc: str) -> None:
        self.code = code
        self.name = name
        self.severity = severity
        self.__doc__ = doc


@pytest.fixture(autouse=True)
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    rules: dict[str, Any] = {
        "SEM102": FakeRule(
            "SEM102",
            "snake-case-declaration-key",
            Severity.ERROR,
            "## What it does\nFinds snake_case keys.\n\n## Why is this bad?\nThey are refused.",
        ),
        "SEM204": FakeRule("SEM204", "clock-measured-at", Severity.WARNING, "Finds clock reads."),
    }
    monkeypatch.setattr(output, "_registry", lambda: rules)


def snake(filename: str = "tools/a.py", line: int = 3, fix: Applicability | None = Applicability.SAFE) -> Finding:
    edits = (Edit('"measuredAt"', Position(line, 20), Position(line, 33)),)
    return Finding(
        "SEM102",
        "`provenance.measured_at` is the wire spelling, ok: 100%",
        Severity.ERROR,
        filename,
        Position(line, 20),
        Position(line, 33),
        Fix(fix, "Rename", edits) if fix is not None else None,
    )


def clock() -> Finding:
    return Finding("SEM204", "read from the clock\nsecond line", Severity.WARNING, "b.py", Position(1, 0), Position(1, 5))


def test_text_uses_one_based_columns() -> None:
    assert output.format_text([snake()]) == (
        "tools/a.py:3:21: SEM102 `provenance.measured_at` is the wire spelling, ok: 100%\n"
    )


def test_json_is_a_list_of_ruff_shaped_findings() -> None:
    data = json.loads(output.format_json([snake()]))
    assert data == [snake().to_json()]
    assert data[0]["location"] == {"row": 3, "column": 21}


def test_github_escapes_data_and_properties() -> None:
    text = output.format_github([snake("a,b:c.py"), clock()])
    first, second = text.splitlines()
    assert first == (
        "::error file=a%2Cb%3Ac.py,line=3,col=21,endLine=3,endColumn=34,title=SEM102::"
        "`provenance.measured_at` is the wire spelling, ok: 100%25"
    )
    assert second.startswith("::warning file=b.py,line=1,col=1,")
    assert second.endswith("::read from the clock%0Asecond line")


def test_sarif_lists_registered_rules_and_results() -> None:
    log = output.sarif_log([snake(), clock()])
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["SEM102", "SEM204"]
    assert rules[0]["shortDescription"]["text"] == "Finds snake_case keys."
    assert rules[1]["defaultConfiguration"]["level"] == "warning"
    first, second = run["results"]
    assert first["ruleIndex"] == 0 and second["ruleIndex"] == 1
    assert second["level"] == "warning"
    assert first["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 3, "startColumn": 21, "endLine": 3, "endColumn": 34,
    }
    assert first["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"] == '"measuredAt"'
    assert "fixes" not in second
    json.dumps(log)  # serializable as is


def test_sarif_includes_a_code_the_registry_lacks() -> None:
    other = Finding("SEM999", "m", Severity.ERROR, "x.py", Position(1, 0), Position(1, 1))
    log = output.sarif_log([other])
    ids = [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]]
    assert "SEM999" in ids
    assert log["runs"][0]["results"][0]["ruleIndex"] == ids.index("SEM999")


def test_statistics_layout_and_order() -> None:
    findings = [clock(), snake(line=1), snake(line=2), snake(line=4, fix=Applicability.UNSAFE)]
    assert output.format_statistics(findings, "text", unsafe=False) == (
        "3\tSEM102\t[*] snake-case-declaration-key\n"
        "1\tSEM204\t[ ] clock-measured-at\n"
    )
    rows = json.loads(output.format_statistics(findings, "json", unsafe=False))
    assert rows[0]["fixable_count"] == 2
    assert json.loads(output.format_statistics(findings, "json", unsafe=True))[0]["fixable_count"] == 3


def test_summary_lines() -> None:
    assert output.summary([], unsafe=False) == "All checks passed!\n"
    assert output.summary([snake()], unsafe=False) == (
        "Found 1 error.\n[*] 1 fixable with the `--fix` option.\n"
    )
    unsafe_only = output.summary([snake(fix=Applicability.UNSAFE), clock()], unsafe=False)
    assert unsafe_only == (
        "Found 2 errors.\n"
        "No fixes available (1 hidden fixes can be enabled with the `--unsafe-fixes` option).\n"
    )
    assert "3 fixed, 1 remaining" in output.summary([clock()], unsafe=False, fixed=3)


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError):
        output.format_findings([], "xml")
