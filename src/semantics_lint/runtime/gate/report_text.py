"""The ``check-semantics`` report as text, for a terminal or a build log.

Every name, field and test id a catalog gives is written with escapes where it holds
a control or bidirectional character, so a catalog cannot forge a line of the report.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

__all__ = ["format_semantics_report", "report_lines"]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


_CONTROL: Final = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _shown(value: object) -> str:
    """``value`` as text a terminal or a CI log takes literally: a tool name, field or
    test id from a catalog holding a newline, carriage return, escape sequence or
    bidirectional override is written with escapes, so that it can neither start a
    line of its own (a forged verdict, a CI workflow command) nor restyle the report."""

    def escape(match: re.Match[str]) -> str:
        code = ord(match.group())
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    return _CONTROL.sub(escape, str(value))


def _finding_line(finding: Mapping[str, Any], prefix: str) -> str:
    mark = "error" if finding["severity"] == "error" else "warning"
    result = f"result {finding['resultIndex'] + 1}" if "resultIndex" in finding else "the tool as a whole"
    if finding.get("test"):
        result += f" (from {_shown(finding['test'])})"
    return (
        f"  {mark}: {prefix}{_shown(finding['tool'])}, {result}, field {_shown(finding['field'])} "
        f"[{finding['code']}]\n      {_shown(finding['message'])}"
    )


def _omitted_line(omitted: Mapping[str, Any], prefix: str) -> str:
    what = _plural(omitted["count"], f"more {omitted['severity']}")
    whose = f"tool {_shown(omitted['tool'])}" if omitted["tool"] is not None else "other tools"
    return f"  ... {prefix}{what} [{omitted['code']}] for {whose}, not shown (--all-findings shows every one)"


def format_semantics_report(report: Mapping[str, Any]) -> str:
    """The report as text for a terminal or a build log.

    One heading line with the counts, one entry per finding (each naming the tool,
    the result and the field, the three facts a fix needs, and the ``test`` that
    produced the sample when the finding names one), a line per group of
    findings left out of a bounded report, and a verdict line. Takes the
    reference's report (:func:`check_semantics`) or the command's
    (:func:`gate_report`); with several catalogs, each is summed up and named.
    """
    return "\n".join(report_lines(report))


def report_lines(report: Mapping[str, Any]) -> Iterator[str]:
    """The lines of :func:`format_semantics_report`, one at a time."""
    findings: Sequence[Mapping[str, Any]] = report["findings"]
    errors = report.get("errors", sum(1 for f in findings if f["severity"] == "error"))
    warnings = report.get("warnings", len(findings) - errors)
    catalogs: Sequence[Mapping[str, Any]] = report.get("catalogs", [])
    several = len(catalogs) > 1
    counts = (
        f"{_plural(report['checkedTools'], 'tool')}, {_plural(report['checkedResults'], 'sample result')}"
    )
    lines = [
        f"check-semantics: {_plural(len(catalogs), 'catalog')}, {counts}"
        if several
        else f"check-semantics: {counts}"
    ]
    if several:
        for summary in catalogs:
            verdict = "passed" if summary["passed"] else "FAILED"
            lines.append(
                f"  {_shown(summary['catalog'])}: {_plural(summary['checkedTools'], 'tool')}, "
                f"{_plural(summary['checkedResults'], 'sample result')}: {verdict}, "
                f"{_plural(summary['errors'], 'error')}, {_plural(summary['warnings'], 'warning')}"
            )
    if not findings and not errors and not warnings:
        lines.append("  every sample result keeps the envelope rules and its class rules")

    def prefix(item: Mapping[str, Any]) -> str:
        return f"{_shown(item['catalog'])}: " if several and "catalog" in item else ""

    yield from lines
    yield from (_finding_line(finding, prefix(finding)) for finding in findings)
    yield from (_omitted_line(o, prefix(o)) for o in report.get("omittedFindings", []))
    passed = report.get("passed", report["ok"])
    if passed:
        verdict = "passed"
    elif report["ok"]:
        verdict = "FAILED (--strict: warnings fail the gate)"
    else:
        verdict = "FAILED"
    yield f"{verdict}: {_plural(errors, 'error')}, {_plural(warnings, 'warning')}"
