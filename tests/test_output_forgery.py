"""Source text cannot forge a line of output.

A key written as ``"a\\n::error::forged\\x1b[2K"`` is quoted by its finding's message.
Printed as it is, it would start a line ``::error::forged`` (a GitHub workflow command:
a fake annotation in a CI log) and send a raw ESC to the terminal. Every format read
as lines shows it escaped; the machine formats carry it unchanged as JSON strings.
Each format runs through the real command on a real file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from semantics_lint.lint import output
from semantics_lint.lint.core.model import Finding, Position, Severity

KEY = "a\n::error::forged\x1b[2K"
"""The key as Python reads it; the source spells it with escapes."""
SOURCE = (
    "from semantics_lint.runtime import described_result\n"
    "\n"
    "def tool(export):\n"
    "    return described_result(\n"
    "        facts=[{'entity': export.vm}],\n"
    "        provenance={'measuredAt': export.at, 'source': 's',\n"
    "                    'a\\n::error::forged\\x1b[2K': 1},\n"
    "    )\n"
)
SHOWN = "a\\n::error::forged\\x1b[2K"
"""The key as the line formats show it."""
LINE_FORMATS = ("concise", "full", "grouped", "pylint", "github", "junit")
MACHINE_FORMATS = ("json", "json-lines", "gitlab", "sarif")


def _run(tmp_path: Path, output_format: str) -> str:
    (tmp_path / "tool.py").write_text(SOURCE, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PRE_COMMIT", "SEMANTICS_LINT_CACHE_DIR")}
    env["SEMANTICS_LINT_NO_CACHE"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "semantics_lint", "check", "--output-format", output_format, "tool.py"],
        cwd=tmp_path, env=env, capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    return done.stdout.decode("utf-8")


def _assert_no_forged_line(text: str) -> None:
    assert "\x1b" not in text
    assert "\r" not in text
    for line in text.split("\n"):
        assert not line.startswith("::error::forged"), line
        assert not line.lstrip().startswith("::error::forged"), line


@pytest.mark.parametrize("output_format", LINE_FORMATS)
def test_a_line_format_shows_the_key_escaped(tmp_path: Path, output_format: str) -> None:
    text = _run(tmp_path, output_format)
    _assert_no_forged_line(text)
    assert SHOWN in text or output_format == "github"
    if output_format == "github":
        lines = text.splitlines()
        assert len(lines) == 1 and lines[0].startswith("::error file=tool.py,line=7,")
        assert SHOWN in lines[0]
    if output_format == "junit":
        failure = ET.fromstring(text.encode("utf-8")).find("testsuite/testcase/failure")
        assert failure is not None and SHOWN in failure.get("message", "")
    if output_format == "concise":
        # One finding, one line; then the summary, which follows the findings on stdout.
        assert text.split("\n")[1:] == ["Found 1 error.", ""]


@pytest.mark.parametrize("output_format", MACHINE_FORMATS)
def test_a_machine_format_carries_the_key_unchanged(tmp_path: Path, output_format: str) -> None:
    text = _run(tmp_path, output_format)
    assert "\x1b" not in text and "\n::error" not in text  # JSON escapes them itself
    if output_format == "json-lines":
        messages = [json.loads(line)["message"] for line in text.splitlines()]
    elif output_format == "json":
        messages = [item["message"] for item in json.loads(text)]
    elif output_format == "gitlab":
        messages = [item["description"] for item in json.loads(text)]
    else:
        results = json.loads(text)["runs"][0]["results"]
        messages = [result["message"]["text"] for result in results]
    assert len(messages) == 1 and KEY in messages[0]


def test_full_escapes_the_source_lines_and_keeps_the_caret_under_the_escaped_text() -> None:
    line = "x = {'\x1b[2K': 1, 'measured_at': 2}"
    column = line.index("'measured_at'")
    finding = Finding("SEM102", "m", Severity.ERROR, "t.py", Position(1, column), Position(1, column + 13))
    text = output.format_findings([finding], "full", read_source=lambda _: line + "\n")
    assert "\x1b" not in text
    shown = next(row for row in text.splitlines() if row.startswith("1 |"))
    caret = next(row for row in text.splitlines() if "^" in row)
    assert shown == "1 | x = {'\\x1b[2K': 1, 'measured_at': 2}"
    start = caret.index("^")
    assert shown[start : start + 13] == "'measured_at'"
    assert caret[start:].startswith("^" * 13 + " ")


def test_the_flake8_plugin_escapes_its_messages(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(SOURCE, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "SEM", "tool.py"],
        cwd=tmp_path, capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    text = done.stdout.decode("utf-8")
    _assert_no_forged_line(text)
    assert text.count("\n") == 1 and SHOWN in text, text


def test_a_help_that_quotes_the_source_is_escaped_too() -> None:
    """The help quotes the source as the message does (a bound value, a name)."""
    finding = Finding(
        "SEM203",
        "`provenance.measuredAt` is a date",
        Severity.ERROR,
        "t.py",
        Position(1, 0),
        Position(1, 4),
        help=f"take the time from the data ({KEY} = '2024-05-01' (line 1))",
    )
    for name in ("full", "junit"):
        text = output.format_findings([finding], name)
        _assert_no_forged_line(text)
        assert SHOWN in text, name
