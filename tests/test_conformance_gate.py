"""The reference's own verdicts on the check-semantics gate.

Kinds ``catalog`` (coerce, then check), ``checkSemantics`` (check raw entries) and
``cli`` (the command line: exit code, which streams were written, and the
``--json`` report, whose reference keys come first and unchanged; the keys the
command adds beside them are checked for what they say). Messages are ours, so
reports are compared without them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conformance_data import cases, strict_equal

from semantics_lint.cli.check_semantics import check_semantics_command
from semantics_lint.runtime.gate.check import (
    ADDED_REPORT_KEYS,
    REFERENCE_REPORT_KEYS,
    SemanticsCatalogError,
    check_semantics,
    coerce_semantics_catalog,
)
from semantics_lint.runtime.gate.command import SemanticsCliIO, run_check_semantics_cli


def _without_messages(report: dict[str, Any]) -> dict[str, Any]:
    for finding in report["findings"]:
        message = finding.get("message")
        assert isinstance(message, str) and message.strip(), finding
    return {
        **report,
        "findings": [
            {key: value for key, value in finding.items() if key != "message"}
            for finding in report["findings"]
        ],
    }


def _check_outcome(entries: Any) -> dict[str, Any]:
    try:
        report = check_semantics(entries)
    except SemanticsCatalogError:
        return {"throws": True}
    return {"throws": False, "value": _without_messages(report)}


def _assert_outcome(actual: dict[str, Any], expected: dict[str, Any]) -> None:
    assert actual["throws"] == expected["throws"], (actual, expected)
    if not expected["throws"]:
        assert strict_equal(actual["value"], expected["value"]), (actual, expected)


@pytest.mark.parametrize("case", cases("catalog"))
def test_catalog(case: dict[str, Any]) -> None:
    expected = case["expected"]
    try:
        entries = coerce_semantics_catalog(case["input"])
    except SemanticsCatalogError:
        assert expected["coerce"] == {"throws": True}
        assert "check" not in expected
        return
    _assert_outcome({"throws": False, "value": entries}, expected["coerce"])
    _assert_outcome(_check_outcome(entries), expected["check"])


@pytest.mark.parametrize("case", cases("checkSemantics"))
def test_check_semantics(case: dict[str, Any]) -> None:
    _assert_outcome(_check_outcome(case["input"]), case["expected"])


def _argv(case: dict[str, Any], tmp_path: Path) -> list[str]:
    given = case["input"]
    catalog = tmp_path / "semantics-catalog.json"
    if "catalogText" in given:
        catalog.write_text(given["catalogText"], encoding="utf-8")
    elif "catalog" in given:
        catalog.write_text(json.dumps(given["catalog"]), encoding="utf-8")
    missing = tmp_path / "no-such-catalog.json"
    return [
        str(catalog) if arg == "<CATALOG>" else str(missing) if arg == "<MISSING>" else arg
        for arg in given["argv"]
    ]


_FINDING_KEYS = ("tool", "code", "severity", "field", "resultIndex", "message")


def _reference_view(report: dict[str, Any], code: int) -> dict[str, Any]:
    """The command's report as the reference prints it: its keys first and unchanged.

    The keys the command adds beside them (``ADDED_REPORT_KEYS``, a finding's
    ``catalog``) are checked here for what they must say, then set aside.
    """
    keys = list(report)
    assert keys[: len(REFERENCE_REPORT_KEYS)] == list(REFERENCE_REPORT_KEYS), keys
    assert keys[len(REFERENCE_REPORT_KEYS) :] == list(ADDED_REPORT_KEYS), keys
    findings = report["findings"]
    errors = sum(1 for finding in findings if finding["severity"] == "error")
    assert (report["errors"], report["warnings"]) == (errors, len(findings) - errors)
    assert report["omittedFindings"] == []
    assert report["passed"] is (code == 0)
    for finding in findings:
        assert list(finding)[-1] == "catalog", finding
    return {
        **{key: report[key] for key in REFERENCE_REPORT_KEYS},
        "findings": [{key: finding[key] for key in _FINDING_KEYS if key in finding} for finding in findings],
    }


def _assert_cli_result(
    expected: dict[str, Any], code: int, stdout: str, stderr: str, argv: list[str]
) -> None:
    assert code == expected["exitCode"], (code, stdout, stderr)
    assert bool(stdout) == expected["wroteStdout"], stdout
    assert bool(stderr) == expected["wroteStderr"], stderr
    if "stdoutJson" in expected:
        report = _reference_view(json.loads(stdout), code)
        assert strict_equal(_without_messages(report), expected["stdoutJson"]), report
    if expected["exitCode"] == 2:
        assert "Traceback" not in stderr
    elif "--json" not in argv:
        # The text report names every tool it found something about.
        assert "check-semantics" in stdout


@pytest.mark.parametrize("case", cases("cli"))
def test_cli_in_process(case: dict[str, Any], tmp_path: Path) -> None:
    argv = _argv(case, tmp_path)
    out: list[str] = []
    err: list[str] = []
    io = SemanticsCliIO(stdout=out.append, stderr=err.append)
    code = run_check_semantics_cli(argv, io)
    _assert_cli_result(case["expected"], code, "\n".join(out), "\n".join(err), argv)


def _runner() -> CliRunner:
    """A runner that keeps stderr apart from stdout (click < 8.2 needs asking)."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


@pytest.mark.parametrize("case", cases("cli"))
def test_cli_click_command(case: dict[str, Any], tmp_path: Path) -> None:
    argv = _argv(case, tmp_path)
    result = _runner().invoke(check_semantics_command, argv, catch_exceptions=False)
    _assert_cli_result(case["expected"], result.exit_code, result.stdout, result.stderr, argv)
