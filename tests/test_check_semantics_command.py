"""``semantics-lint check-semantics`` end to end, and the gate's text report.

The real command runs in a subprocess on the example catalogs in
``testdata/catalogs/``: one that passes, one where a triage tool forgot its
coverage, and malformed ones that must end in exit 2 with one line on stderr.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semantics_lint.runtime import coverage
from semantics_lint.runtime.gate.check import (
    SemanticsCatalogError,
    check_semantics,
    coerce_semantics_catalog,
    format_semantics_report,
)
from semantics_lint.runtime.gate.command import SemanticsCliIO, run_check_semantics_cli

CATALOGS = Path(__file__).resolve().parent.parent / "testdata" / "catalogs"
GOOD = CATALOGS / "semantics-catalog.json"
BROKEN = CATALOGS / "semantics-catalog-broken.json"


def run_command(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """The installed command, as a user runs it (``python -m semantics_lint``)."""
    return subprocess.run(
        [sys.executable, "-m", "semantics_lint", "check-semantics", *args],
        input=stdin.decode("utf-8") if stdin is not None else None,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )


def test_the_example_catalog_passes_even_strictly() -> None:
    result = run_command(str(GOOD), "--strict")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "4 tools, 6 sample results" in result.stdout
    assert "0 errors, 0 warnings" in result.stdout


def test_the_example_catalog_json_report() -> None:
    result = run_command("--json", str(GOOD))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "ok": True,
        "findings": [],
        "checkedTools": 4,
        "checkedResults": 6,
        "passed": True,
        "strict": False,
        "errors": 0,
        "warnings": 0,
        "omittedFindings": [],
        "catalogs": [
            {
                "catalog": str(GOOD),
                "ok": True,
                "passed": True,
                "checkedTools": 4,
                "checkedResults": 6,
                "errors": 0,
                "warnings": 0,
            }
        ],
    }


def test_the_broken_catalog_fails_naming_the_tool_and_the_field() -> None:
    result = run_command(str(BROKEN))
    assert result.returncode == 1
    assert result.stderr == ""
    finding_lines = [line for line in result.stdout.splitlines() if "[triage-without-coverage]" in line]
    assert len(finding_lines) == 1
    assert "vm_backup_status" in finding_lines[0]
    assert "result 1" in finding_lines[0]
    assert "field coverage" in finding_lines[0]


def test_the_broken_catalog_json_report() -> None:
    result = run_command(str(BROKEN), "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert [
        (f["tool"], f["code"], f["severity"], f["field"], f.get("resultIndex")) for f in report["findings"]
    ] == [("vm_backup_status", "triage-without-coverage", "error", "coverage", 0)]


@pytest.mark.parametrize(
    "text",
    [
        '[{"name": "t", "results": [}',
        '{"tools": "nope"}',
        '[{"name": "t", "resultClass": "Triage", "results": []}]',
        '[{"name": "t", "results": [NaN]}]',
        "[" * 100_000 + "]" * 100_000,
    ],
    ids=["invalid-json", "unknown-shape", "unknown-class", "nan", "deeply-nested"],
)
def test_a_malformed_catalog_is_one_line_on_stderr(text: str, tmp_path: Path) -> None:
    catalog = tmp_path / "semantics-catalog.json"
    catalog.write_text(text, encoding="utf-8")
    result = run_command(str(catalog))
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert str(catalog) in result.stderr


def test_an_unreadable_catalog_is_an_input_error(tmp_path: Path) -> None:
    result = run_command(str(tmp_path / "missing.json"))
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_a_directory_is_an_input_error(tmp_path: Path) -> None:
    result = run_command(str(tmp_path))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs and devices")
def test_a_fifo_or_a_device_named_as_a_catalog_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "semantics-catalog-fifo.json"
    os.mkfifo(fifo)
    for command in (
        [sys.executable, "-m", "semantics_lint", "check-semantics"],
        [
            sys.executable,
            "-c",
            "from semantics_lint.cli.hooks import check_semantics_main as m; raise SystemExit(m())",
        ],
    ):
        # A FIFO with no writer would block an open(), /dev/zero never ends: the
        # timeout fails the test if either is read.
        result = subprocess.run(
            [*command, str(fifo), "/dev/zero", str(GOOD)],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert result.returncode == 2, result.stderr
        assert f"{fifo}: cannot read the catalog: not a regular file (a FIFO)" in result.stderr
        assert "/dev/zero: cannot read the catalog: not a regular file (a character device)" in (
            result.stderr
        )
        assert "Traceback" not in result.stderr


def test_names_from_a_catalog_cannot_forge_lines_of_the_report(tmp_path: Path) -> None:
    # A tool name, a field and a test id are the catalog's text: a newline in them
    # could print a line of its own (a forged verdict, a CI workflow command such as
    # GitHub's "::error::"), a carriage return or an escape sequence could hide one.
    forged = "vm\n::error file=x::forged\r\u001b[2Kpassed: 0 errors\u202e"
    catalog = tmp_path / "semantics-catalog.json"
    catalog.write_text(
        json.dumps([{"name": forged, "resultClass": "triage", "results": [{"af_semantics": True,
                     "facts": [{"entity": "a"}], "provenance": {"measured_at": "t", "source": "s"},
                     "bogus\nFAKE": 1}]}]),
        encoding="utf-8",
    )  # fmt: skip
    result = run_command(str(catalog))
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert not any(line.startswith(("::", "passed", "FAKE")) for line in lines), result.stdout
    assert not any(char in result.stdout for char in "\r\x1b\u202e")
    assert "vm\\x0a::error file=x::forged\\x0d\\x1b[2Kpassed: 0 errors\\u202e" in result.stdout
    assert lines[-1].startswith("FAILED")
    as_json = json.loads(run_command("--json", str(catalog)).stdout)
    assert {finding["tool"] for finding in as_json["findings"]} == {json.loads(json.dumps(forged))}


@pytest.mark.parametrize("flag", ["--json", "--strict"])
def test_a_tool_name_with_a_lone_surrogate_is_printed_not_crashed_on(flag: str, tmp_path: Path) -> None:
    catalog = tmp_path / "semantics-catalog.json"
    catalog.write_text('[{"name": "port\\ud800", "resultClass": "triage", "results": []}]')
    result = run_command(str(catalog), flag)
    assert result.returncode == (1 if flag == "--strict" else 0), result.stderr
    assert "Traceback" not in result.stderr
    if flag == "--json":
        assert json.loads(result.stdout)["findings"][0]["tool"] == "port\ud800"
    else:
        assert "port\\ud800" in result.stdout


def test_help_follows_click() -> None:
    result = run_command("--help")
    assert result.returncode == 0
    assert result.stdout.startswith("Usage:")
    assert "--strict" in result.stdout and "--json" in result.stdout


def test_a_dash_reads_the_catalog_from_standard_input() -> None:
    result = run_command("-", "--json", stdin=BROKEN.read_bytes())
    assert result.returncode == 1
    assert json.loads(result.stdout)["findings"][0]["tool"] == "vm_backup_status"


# ---------------------------------------------------------------------------
# The in-process core: flags, and standard input through the injected reader
# ---------------------------------------------------------------------------


def _run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out: list[str] = []
    err: list[str] = []
    io = SemanticsCliIO(stdout=out.append, stderr=err.append, read_stdin=lambda: stdin)
    return run_check_semantics_cli(argv, io), "\n".join(out), "\n".join(err)


def test_core_help_goes_to_stdout() -> None:
    code, out, err = _run(["--help"])
    assert (code, err) == (0, "")
    assert "CATALOG" in out


def test_core_reads_standard_input_for_a_dash() -> None:
    code, out, err = _run(["-", "--json"], stdin=GOOD.read_text(encoding="utf-8"))
    assert (code, err) == (0, "")
    assert json.loads(out)["checkedResults"] == 6


@pytest.mark.parametrize(
    "argv",
    [[], ["--strict"], ["a.json", "--verbose"], ["a.json", "--json=1"]],
)
def test_core_usage_errors_exit_2_on_stderr(argv: list[str]) -> None:
    code, out, err = _run(argv)
    assert (code, out) == (2, "")
    assert "usage:" in err


# ---------------------------------------------------------------------------
# The text report
# ---------------------------------------------------------------------------


def _report(catalog: Any) -> dict[str, Any]:
    return check_semantics(coerce_semantics_catalog(catalog))


def test_every_finding_line_names_tool_result_and_field() -> None:
    report = _report(
        [
            {"name": "empty_triage", "resultClass": "triage", "results": []},
            {
                "name": "bad_series",
                "results": [
                    "fine",
                    {
                        "af_semantics": True,
                        "series": [{"t": 1, "entity": "e", "metric": "m", "value": 1}],
                        "provenance": {"measured_at": "2026-08-19T10:20:00Z", "source": "s"},
                    },
                ],
            },
        ]
    )
    text = format_semantics_report(report)
    lines = text.splitlines()
    assert lines[0] == "check-semantics: 2 tools, 2 sample results"
    assert lines[-1] == "FAILED: 1 error, 1 warning"
    heads = [line for line in lines if line.startswith("  ") and "[" in line]
    assert heads == [
        "  warning: empty_triage, the tool as a whole, field results [unsampled-tool-class]",
        "  error: bad_series, result 2, field grain [series-without-grain]",
    ]
    for finding in report["findings"]:
        assert finding["message"] in text


def test_a_clean_report_says_so() -> None:
    text = format_semantics_report(_report([]))
    assert text.splitlines()[-1] == "passed: 0 errors, 0 warnings"
    assert "0 tools, 0 sample results" in text


# ---------------------------------------------------------------------------
# Any JSON catalog: a report or an input error, never a crash
# ---------------------------------------------------------------------------

_leaves = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6)
_json = st.recursive(
    _leaves,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                (
                    "name",
                    "resultClass",
                    "results",
                    "result",
                    "tools",
                    "af_semantics",
                    "af_absent",
                    "af_coverage",
                    "checked",
                    "coverage",
                    "facts",
                    "series",
                    "render",
                    "entity",
                )
            )
            | st.text(max_size=4),
            inner,
            max_size=4,
        )
    ),
    max_leaves=20,
)
_classes = st.sampled_from(("triage", "inventory", "Triage", None))
_rows = st.lists(
    st.fixed_dictionaries(
        {"name": st.text(min_size=1, max_size=5), "results": st.lists(_json, max_size=3)},
        optional={"resultClass": _classes},
    ),
    max_size=3,
)


@settings(max_examples=200, deadline=None)
@given(catalog=_json | _rows | st.fixed_dictionaries({"tools": _rows}))
def test_any_catalog_is_judged_or_refused(catalog: Any) -> None:
    try:
        report = check_semantics(coerce_semantics_catalog(catalog))
    except SemanticsCatalogError as error:
        assert str(error)
        return
    assert list(report) == ["ok", "findings", "checkedTools", "checkedResults"]
    assert report["ok"] == all(f["severity"] == "warning" for f in report["findings"])
    for finding in report["findings"]:
        assert list(finding)[:4] == ["tool", "code", "severity", "field"]
        assert finding["message"]
    text = format_semantics_report(report)
    assert len([line for line in text.splitlines() if line.startswith("  error: ")]) == sum(
        1 for f in report["findings"] if f["severity"] == "error"
    )


@settings(max_examples=100, deadline=None)
@given(catalog=_json | _rows, strict=st.booleans(), as_json=st.booleans())
def test_the_core_always_ends_in_an_exit_code(catalog: Any, strict: bool, as_json: bool) -> None:
    argv = ["-"] + (["--strict"] if strict else []) + (["--json"] if as_json else [])
    code, out, err = _run(argv, stdin=json.dumps(catalog))
    assert code in (0, 1, 2)
    assert bool(err) == (code == 2)
    assert bool(out) == (code != 2)
    if code == 2:
        assert len(err.splitlines()) == 1
    if as_json and code != 2:
        report = json.loads(out)
        assert report["passed"] is (code == 0)
        if code == 0:
            assert report["ok"] is True
            assert not strict or report["findings"] == []
        else:
            assert report["ok"] is False or (strict and report["findings"])


_TRIAGE_SAMPLE = (
    '{"af_semantics": true, "facts": [{"entity": "vm"}], "provenance": {"measured_at": "t", "source": "s"}}'
)
_COVERED = json.dumps(coverage({"rows": []}, checked=["every backup job"]))


@pytest.mark.parametrize(
    "catalog",
    [
        # streamed; `tests` may come before or after the samples
        (
            '[{"name": "t", "resultClass": "triage", "tests": ["a.py::ok", "a.py::bad"], '
            f'"results": [{_COVERED}, {_TRIAGE_SAMPLE}]}}]'
        ),
        (
            '{"tools": [{"name": "t", "resultClass": "triage", '
            f'"results": [{_COVERED}, {_TRIAGE_SAMPLE}], "tests": ["a.py::ok", "a.py::bad"]}}]}}'
        ),
        # a repeated key: read whole, same names
        (
            '[{"name": "x", "name": "t", "resultClass": "triage", '
            f'"tests": ["a.py::ok", "a.py::bad"], "results": [{_COVERED}, {_TRIAGE_SAMPLE}]}}]'
        ),
    ],
    ids=["before", "after", "read-whole"],
)
def test_a_catalog_s_tests_name_the_test_behind_each_finding(catalog: str) -> None:
    out: list[str] = []
    io = SemanticsCliIO(stdout=out.append, stderr=out.append, read_file=lambda path: catalog)
    assert run_check_semantics_cli(["cat.json", "--json"], io) == 1
    report = json.loads("\n".join(out))
    assert [(f["code"], f["resultIndex"], f["test"]) for f in report["findings"]] == [
        ("triage-without-coverage", 1, "a.py::bad")
    ]
    out.clear()
    assert run_check_semantics_cli(["cat.json"], io) == 1
    assert "  error: t, result 2 (from a.py::bad), field coverage [triage-without-coverage]" in (
        "\n".join(out).splitlines()
    )


@pytest.mark.parametrize("tests", ['"a.py::bad"', "[1, 2]", '["only-one"]', "null"])
def test_tests_that_name_nothing_are_ignored(tests: str) -> None:
    catalog = f'[{{"name": "t", "resultClass": "triage", "tests": {tests}, "results": [{{}}, {{}}]}}]'
    out: list[str] = []
    io = SemanticsCliIO(stdout=out.append, stderr=out.append, read_file=lambda path: catalog)
    assert run_check_semantics_cli(["cat.json", "--json"], io) == 1
    findings = json.loads("\n".join(out))["findings"]
    assert len(findings) == 2
    assert "test" not in findings[1]
    # The reference's checker ignores the key: the same findings as without it.
    bare = '[{"name": "t", "resultClass": "triage", "results": [{}, {}]}]'
    assert check_semantics(coerce_semantics_catalog(json.loads(catalog))) == check_semantics(
        coerce_semantics_catalog(json.loads(bare))
    )
