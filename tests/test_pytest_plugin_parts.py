"""The pytest plugin's end of session, part by part: the catalog it writes and what
pytest's last line counts (the session-level behaviour is tests/test_pytest_plugin.py)."""

from __future__ import annotations

import json
from types import SimpleNamespace

from semantics_lint.pytest_plugin import Row, Sample, SemanticsRecorder
from semantics_lint.runtime.envelope.json_text import json_text
from semantics_lint.runtime.gate.check import judge_catalog


def test_the_catalog_is_written_by_the_one_encoder_a_row_a_line() -> None:
    value = {"af_semantics": True, "facts": [{"entity": "café", "n": 1e21}]}
    rows = [
        Row(("zürich", "triage"), [Sample("zürich", "triage", json_text(value), "t.py::test_a", [])]),
        Row(("bare", None), []),
    ]
    text = SemanticsRecorder.catalog_text_of(rows)
    lines = text.splitlines()
    assert lines[0] == "[" and lines[-1] == "]" and len(lines) == 4
    # Each row is the text the encoder writes for the row as data.
    assert (
        lines[1]
        == json_text(
            {
                "name": "zürich",
                "resultClass": "triage",
                "results": [value],
                "tests": ["t.py::test_a"],
            }
        )
        + ","
    )
    assert lines[2] == json_text({"name": "bare", "results": [], "tests": []})
    assert json.loads(text)[0]["results"] == [value]


def test_the_last_line_counts_every_finding_the_gate_failed_on() -> None:
    # More findings than a bounded report shows: the omitted ones count too.
    rows = [{"name": f"t{i}", "results": [{"af_semantics": True, "facts": []}] * 30} for i in range(40)]
    report = judge_catalog(json.dumps(rows), "catalog.json")
    assert report.omitted and report.errors > len(report.findings)
    key, counted = SemanticsRecorder._last_line_entry(SimpleNamespace(own=[]), report)  # type: ignore[arg-type]
    assert key == "semantics errors (gate failed)"
    assert len(counted) == report.errors
    assert all(entry.finding["severity"] == "error" for entry in counted)
    # pytest's other plugins read every stats entry as a report object.
    assert all(vars(entry) == {"finding": entry.finding} for entry in counted)


def test_under_strict_the_last_line_counts_the_plugins_warnings_too() -> None:
    rows = [{"name": "t", "results": [{"free": 3}]}]
    report = judge_catalog(json.dumps(rows), "catalog.json")
    own = [{"tool": "t", "code": "uncalled-tool", "severity": "warning"}]
    assert report.errors == 0
    key, counted = SemanticsRecorder._last_line_entry(SimpleNamespace(own=own), report)  # type: ignore[arg-type]
    assert key.endswith("(--semantics-strict gate failed)")
    assert len(counted) == report.warnings + 1
    assert own[0] in [entry.finding for entry in counted]
