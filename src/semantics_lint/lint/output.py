"""Rendering findings: text, JSON, GitHub annotations, SARIF 2.1.0, and statistics.

Every function here is pure: findings (already filtered and sorted by the runner)
in, one string out. The CLI prints the string on stdout and the summary line on
stderr, so a pipe reading stdout gets only machine-readable data.

* ``text``: ``path:line:col: CODE message`` with a 1-based column, flake8's and
  ruff's concise layout, so editors and terminals turn it into links.
* ``json``: one JSON list of ``Finding.to_json()``, ruff's shape (SPEC section 6).
* ``github``: ``::error``/``::warning`` workflow commands, one per finding.
* ``sarif``: one SARIF 2.1.0 log with one run whose driver lists the rules of the
  registry, for code scanning.
* statistics: one line per code, ruff's ``--statistics`` layout (or JSON).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import semantics_lint
from semantics_lint.lint.model import Applicability, Finding, Severity

OUTPUT_FORMATS = ("text", "json", "github", "sarif")

TOOL_NAME = "semantics-lint"
TOOL_URI = "https://github.com/semantics-lint/semantics-lint"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """What the outputs need to know about a code."""

    code: str
    name: str
    severity: Severity
    summary: str
    help: str


def rule_info(code: str) -> RuleInfo:
    """The registry's description of ``code``; a neutral one for a code it lacks."""
    rule = _registry().get(code)
    if rule is None:
        return RuleInfo(code, code.lower(), Severity.ERROR, code, code)
    doc = (getattr(rule, "__doc__", None) or "").strip()
    summary = _first_paragraph(doc) or str(getattr(rule, "name", code))
    severity = getattr(rule, "severity", Severity.ERROR)
    if not isinstance(severity, Severity):
        severity = Severity(str(severity))
    return RuleInfo(code, str(getattr(rule, "name", code)), severity, summary, doc or summary)


def all_rule_infos() -> list[RuleInfo]:
    """Every registered rule, sorted by code."""
    return [rule_info(code) for code in sorted(_registry())]


def _registry() -> dict[str, Any]:
    from semantics_lint.lint import rules

    return {rule.code: rule for rule in getattr(rules, "ALL_RULES", ())}


def _first_paragraph(doc: str) -> str:
    """The first paragraph of a rule docstring, without a "What it does" heading."""
    paragraphs = [p.strip() for p in doc.split("\n\n") if p.strip()]
    for paragraph in paragraphs:
        lines = [line.strip() for line in paragraph.splitlines()]
        lines = [line for line in lines if line and not line.startswith("#")]
        if lines and lines[0].rstrip(":").lower() in ("what it does", "what it does?"):
            lines = lines[1:]
        text = " ".join(line for line in lines if not set(line) <= set("-="))
        if text:
            return text
    return ""


# ---------------------------------------------------------------------------
# Findings
# ---------------------------------------------------------------------------


def format_text(findings: Iterable[Finding]) -> str:
    """``path:line:col: CODE message`` per finding (1-based column), one per line."""
    return "".join(
        f"{f.filename}:{f.start.line}:{f.start.column + 1}: {f.code} {f.message}\n"
        for f in findings
    )


def format_json(findings: Iterable[Finding]) -> str:
    """One JSON list in ruff's shape (SPEC section 6)."""
    return json.dumps([f.to_json() for f in findings], indent=2, ensure_ascii=False) + "\n"


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


def _sarif_uri(filename: str) -> str:
    return filename.replace("\\", "/")


def sarif_log(findings: Sequence[Finding]) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one run, the registry's rules, one result per finding."""
    infos = {info.code: info for info in all_rule_infos()}
    for f in findings:
        if f.code not in infos:
            infos[f.code] = rule_info(f.code)
    codes = sorted(infos)
    index = {code: i for i, code in enumerate(codes)}
    rules = [
        {
            "id": code,
            "name": infos[code].name,
            "shortDescription": {"text": infos[code].summary},
            "fullDescription": {"text": infos[code].help},
            "help": {"text": infos[code].help},
            "defaultConfiguration": {
                "level": "warning" if infos[code].severity is Severity.WARNING else "error"
            },
        }
        for code in codes
    ]
    results = []
    for f in findings:
        result: dict[str, Any] = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": "warning" if f.severity is Severity.WARNING else "error",
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _sarif_uri(f.filename)},
                        "region": {
                            "startLine": f.start.line,
                            "startColumn": f.start.column + 1,
                            "endLine": f.end.line,
                            "endColumn": f.end.column + 1,
                        },
                    }
                }
            ],
        }
        if f.fix is not None:
            result["fixes"] = [
                {
                    "description": {"text": f.fix.message},
                    "artifactChanges": [
                        {
                            "artifactLocation": {"uri": _sarif_uri(f.filename)},
                            "replacements": [
                                {
                                    "deletedRegion": {
                                        "startLine": edit.start.line,
                                        "startColumn": edit.start.column + 1,
                                        "endLine": edit.end.line,
                                        "endColumn": edit.end.column + 1,
                                    },
                                    "insertedContent": {"text": edit.content},
                                }
                                for edit in f.fix.edits
                            ],
                        }
                    ],
                }
            ]
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL_NAME,
                        "version": semantics_lint.__version__,
                        "informationUri": TOOL_URI,
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def format_sarif(findings: Sequence[Finding]) -> str:
    return json.dumps(sarif_log(findings), indent=2, ensure_ascii=False) + "\n"


def format_findings(findings: Sequence[Finding], output_format: str) -> str:
    """The findings in ``output_format`` (one of :data:`OUTPUT_FORMATS`)."""
    if output_format == "text":
        return format_text(findings)
    if output_format == "json":
        return format_json(findings)
    if output_format == "github":
        return format_github(findings)
    if output_format == "sarif":
        return format_sarif(findings)
    raise ValueError(f"unknown output format {output_format!r}")


# ---------------------------------------------------------------------------
# Statistics and the summary line
# ---------------------------------------------------------------------------


def is_fixable(finding: Finding, unsafe: bool) -> bool:
    """True when ``--fix`` (with ``--unsafe-fixes`` when ``unsafe``) would fix it."""
    if finding.fix is None:
        return False
    return unsafe or finding.fix.applicability is Applicability.SAFE


@dataclass(frozen=True, slots=True)
class Statistic:
    code: str
    name: str
    count: int
    fixable_count: int


def statistics(findings: Iterable[Finding], unsafe: bool) -> list[Statistic]:
    """Counts per code, most frequent first, then by code (ruff's order)."""
    findings = list(findings)
    counts = Counter(f.code for f in findings)
    fixable = Counter(f.code for f in findings if is_fixable(f, unsafe))
    ordered = sorted(counts, key=lambda code: (-counts[code], code))
    return [Statistic(code, rule_info(code).name, counts[code], fixable[code]) for code in ordered]


def format_statistics(findings: Iterable[Finding], output_format: str, unsafe: bool) -> str:
    """ruff's ``--statistics``: ``count<TAB>code<TAB>[*] name`` (or a JSON list)."""
    stats = statistics(findings, unsafe)
    if output_format == "json":
        rows = [
            {
                "code": s.code,
                "name": s.name,
                "count": s.count,
                "fixable": s.fixable_count > 0,
                "fixable_count": s.fixable_count,
            }
            for s in stats
        ]
        return json.dumps(rows, indent=2) + "\n"
    if not stats:
        return ""
    count_width = max(len(str(s.count)) for s in stats)
    code_width = max(len(s.code) for s in stats)
    return "".join(
        f"{s.count:>{count_width}}\t{s.code:<{code_width}}\t"
        f"{'[*]' if s.fixable_count else '[ ]'} {s.name}\n"
        for s in stats
    )


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def summary(findings: Sequence[Finding], *, unsafe: bool, fixed: int = 0) -> str:
    """The summary for stderr: counts, what ``--fix`` could do, the unsafe-fix hint."""
    lines: list[str] = []
    remaining = len(findings)
    if remaining == 0 and fixed == 0:
        return "All checks passed!\n"
    if fixed:
        lines.append(
            f"Found {_plural(remaining + fixed, 'error')} "
            f"({fixed} fixed, {remaining} remaining)."
        )
    else:
        lines.append(f"Found {_plural(remaining, 'error')}.")
    safe_fixable = sum(1 for f in findings if is_fixable(f, unsafe))
    hidden = sum(1 for f in findings if f.fix is not None and not is_fixable(f, unsafe))
    if safe_fixable:
        option = "`--fix --unsafe-fixes`" if unsafe else "`--fix`"
        lines.append(f"[*] {safe_fixable} fixable with the {option} option.")
    if hidden:
        hint = (
            f"No fixes available ({hidden} hidden fixes can be enabled with the "
            "`--unsafe-fixes` option)."
            if not safe_fixable
            else f"({hidden} hidden fixes can be enabled with the `--unsafe-fixes` option.)"
        )
        lines.append(hint)
    return "".join(line + "\n" for line in lines)
