"""The formats programs read: JSON, JSON lines, GitHub annotations, GitLab code quality, JUnit.

* ``json``: one JSON list in ruff's shape (docs/cli.md, "Output"); ``url`` is the rule's
  section of the rule reference.
* ``json-lines``: the same objects, one compact object a line.
* ``github``: ``::error``/``::warning`` workflow commands, one per finding.
* ``gitlab``: a GitLab code-quality report (``description``, ``check_name``,
  ``fingerprint``, ``severity``, ``location.path``, ``location.positions``), paths
  relative to ``$CI_PROJECT_DIR`` when the file is inside it.
* ``junit``: JUnit XML, one ``testsuite`` per file and one failing ``testcase`` per
  finding (one passing case when there is none), as CI test-report readers parse it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Sequence
from typing import Any

from semantics_lint.lint.core.model import Finding, Severity
from semantics_lint.lint.output.rule_metadata import rule_url

TOOL_NAME = "semantics-lint"


def finding_json(finding: Finding) -> dict[str, Any]:
    """``Finding.to_json()`` with ``url`` pointing at the rule's documentation."""
    data = finding.to_json()
    if data.get("url") is None:
        data["url"] = rule_url(finding.code)
    return data


def format_json(findings: Iterable[Finding]) -> str:
    return json.dumps([finding_json(f) for f in findings], indent=2, ensure_ascii=False) + "\n"


def format_json_lines(findings: Iterable[Finding]) -> str:
    return "".join(
        json.dumps(finding_json(f), ensure_ascii=False, separators=(",", ":")) + "\n" for f in findings
    )


# ---------------------------------------------------------------------------
# GitHub
# ---------------------------------------------------------------------------


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(findings: Iterable[Finding]) -> str:
    """GitHub Actions workflow commands; W findings become ``::warning``."""
    lines = []
    for f in findings:
        level = "warning" if f.severity is Severity.WARNING else "error"
        properties = ",".join(
            f"{key}={_escape_property(str(value))}"
            for key, value in (
                ("file", f.filename),
                ("line", f.start.line),
                ("col", f.start.column + 1),
                ("endLine", f.end.line),
                ("endColumn", f.end.column + 1),
                ("title", f.code),
            )
        )
        lines.append(f"::{level} {properties}::{_escape_data(f.message)}\n")
    return "".join(lines)


# ---------------------------------------------------------------------------
# GitLab code quality
# ---------------------------------------------------------------------------

GITLAB_SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor"}


def _project_path(filename: str) -> str:
    """``filename`` relative to ``$CI_PROJECT_DIR`` (else the current folder), posix."""
    base = os.environ.get("CI_PROJECT_DIR") or os.getcwd()
    absolute = os.path.abspath(filename)
    try:
        relative = os.path.relpath(absolute, base)
    except ValueError:  # another drive (Windows)
        return filename.replace(os.sep, "/")
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return filename.replace(os.sep, "/")
    return relative.replace(os.sep, "/")


def format_gitlab(findings: Sequence[Finding]) -> str:
    """A GitLab code-quality report.

    The fingerprint identifies a finding across commits: the code, the file and the
    message, and which occurrence of that triple it is, never the line number (an
    edit above it would make it a new finding).
    """
    seen: dict[tuple[str, str, str], int] = {}
    issues = []
    for f in findings:
        path = _project_path(f.filename)
        key = (f.code, path, f.message)
        occurrence = seen.get(key, 0)
        seen[key] = occurrence + 1
        fingerprint = hashlib.sha256(
            "\0".join((*key, str(occurrence))).encode("utf-8", "surrogatepass")
        ).hexdigest()[:32]
        issue: dict[str, Any] = {
            "type": "issue",
            "check_name": f.code,
            "description": f"{f.code}: {f.message}",
            "categories": ["Bug Risk"],
            "severity": GITLAB_SEVERITY.get(f.severity, "major"),
            "fingerprint": fingerprint,
            "location": {
                "path": path,
                "positions": {
                    "begin": {"line": f.start.line, "column": f.start.column + 1},
                    "end": {"line": f.end.line, "column": f.end.column + 1},
                },
            },
        }
        if f.help:
            issue["content"] = {"body": f.help}  # the issue's details (Markdown)
        issues.append(issue)
    return json.dumps(issues, indent=2, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------------
# JUnit
# ---------------------------------------------------------------------------

# XML 1.0 cannot hold these characters at all, escaped or not.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def format_junit(findings: Sequence[Finding]) -> str:
    """JUnit XML: a suite per file, a failing case per finding (classname: the file)."""
    from xml.etree import ElementTree as ET

    total = str(len(findings)) if findings else "1"
    root = ET.Element(
        "testsuites",
        name=TOOL_NAME,
        tests=total,
        failures=str(len(findings)),
        errors="0",
        skipped="0",
    )
    if not findings:
        suite = ET.SubElement(
            root, "testsuite", name=TOOL_NAME, tests="1", failures="0", errors="0", skipped="0"
        )
        ET.SubElement(suite, "testcase", name="No errors found", classname=TOOL_NAME)
    groups: dict[str, list[Finding]] = {}
    for f in findings:
        groups.setdefault(f.filename, []).append(f)
    for filename, group in groups.items():
        suite = ET.SubElement(
            root,
            "testsuite",
            name=_xml_text(filename),
            tests=str(len(group)),
            failures=str(len(group)),
            errors="0",
            skipped="0",
        )
        for f in group:
            case = ET.SubElement(
                suite,
                "testcase",
                name=f"{f.code} {f.start.line}:{f.start.column + 1}",
                classname=_xml_text(filename),
                file=_xml_text(filename),
                line=str(f.start.line),
            )
            failure = ET.SubElement(
                case,
                "failure",
                message=_xml_text(f.message),
                type="warning" if f.severity is Severity.WARNING else "error",
            )
            text = f"{filename}:{f.start.line}:{f.start.column + 1}: {f.code} {f.message}"
            failure.text = _xml_text(f"{text}\nhelp: {f.help}" if f.help else text)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
