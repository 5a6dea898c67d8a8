"""The ``check-semantics`` gate: judge catalogs of sample tool results.

A catalog names each tool, its declared ``resultClass`` (``triage``,
``inventory`` or none) and sample results, typically what the project's mock
tools return, dumped to JSON (the pytest plugin writes one). The gate never runs
a tool; it judges the shapes:

* every envelope that carries ``af_semantics: true`` must pass the envelope rule
  set (:func:`semantics_lint.runtime.envelope.rules.semantic_issues`); each fault is an
  error naming its field;
* a ``triage`` or ``inventory`` tool must declare coverage on every sample,
  through any door: a described result with ``coverage``, a ``coverage()`` ledger
  or an ``absent()``;
* warnings: a classed tool with no samples (silence must not read as a pass),
  and an inventory whose facts carry no render hint.

:func:`check_semantics` is the reference's checker over parsed entries and
returns every finding. The command reads catalogs through
:func:`judge_catalog`, which streams the samples (``catalog.stream_catalog``)
and bounds the report: a tool's findings of one code are shown up to
:data:`SHOWN_PER_CODE`, and at most :data:`SHOWN_IN_ALL` in a report; the rest
are counted in ``omittedFindings`` and on a summary line (``--all-findings``
shows every one). Counts, ``ok`` and the exit code always cover every finding.

The report keeps the reference's keys first (``ok``, ``findings[{tool, code,
severity, field, resultIndex?, message}]``, ``checkedTools``,
``checkedResults``), so CI that reads either tool's report reads both. ``ok``
keeps the reference's meaning (no error); the keys added beside them say the
rest: ``passed`` (the gate's verdict, which under ``--strict`` fails on warnings
too), ``strict``, ``errors``, ``warnings``, ``omittedFindings`` and
``catalogs`` (one summary per catalog file; each finding names its ``catalog``).
The report as text is :mod:`semantics_lint.runtime.gate.report_text`, the command's core
(reading catalogs, the exit code) :mod:`semantics_lint.runtime.gate.command`.
Behaviour follows agentfootprint 9.62.0 (``src/lib/semantics/check.ts`` and
``cli.ts``); the messages are ours.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from semantics_lint.runtime.envelope.rules import read_coverage_result, semantic_issues
from semantics_lint.runtime.gate.catalog import (
    Irregular,
    SemanticsCatalogError,
    coerce_semantics_catalog,
    parse_catalog_text,
    stream_catalog,
)
from semantics_lint.runtime.gate.report_text import format_semantics_report
from semantics_lint.vocabulary import (
    CLASS_NEEDING_RENDER,
    CLASSES_NEEDING_COVERAGE,
    RESULT_CLASSES,
    SEMANTICS_MARKER,
    js_trim,
)

__all__ = [
    "ADDED_REPORT_KEYS",
    "PROG",
    "REFERENCE_REPORT_KEYS",
    "SHOWN_IN_ALL",
    "SHOWN_PER_CODE",
    "CatalogReport",
    "SemanticsCatalogError",
    "check_semantics",
    "coerce_semantics_catalog",
    "format_semantics_report",
    "gate_report",
    "judge_catalog",
    "load_semantics_catalog",
]

PROG: Final = "semantics-lint check-semantics"

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_INPUT_ERROR: Final = 2

REFERENCE_REPORT_KEYS: Final = ("ok", "findings", "checkedTools", "checkedResults")
"""The reference's report keys, first in every report, with the reference's meaning."""
ADDED_REPORT_KEYS: Final = (
    "passed",
    "strict",
    "errors",
    "warnings",
    "omittedFindings",
    "catalogs",
)
"""What the command's report adds beside them (see the module docstring)."""

SHOWN_PER_CODE: Final = 100
"""A tool's findings of one code shown in a report; the rest are counted."""
SHOWN_IN_ALL: Final = 1000
"""Findings shown in one report; the rest are counted."""
_OMITTED_ENTRIES: Final = 1000
"""``omittedFindings`` entries naming a tool; past them, omitted findings are counted per code."""


# ---------------------------------------------------------------------------
# The checker
# ---------------------------------------------------------------------------


def _carries_marker(value: object) -> bool:
    # Exactly ``True``: ``1`` or ``"true"`` is data, not a near-miss envelope.
    return isinstance(value, dict) and value.get(SEMANTICS_MARKER) is True


def _declares_coverage(result: object, recognized_envelope: bool) -> bool:
    """True when a result states its boundary through any door the reader knows."""
    if recognized_envelope:
        assert isinstance(result, dict)
        return "coverage" in result
    return read_coverage_result(result) is not None


def _ordinal(result_index: int) -> str:
    return f"sample result {result_index + 1}"


def _class_coverage_finding(tool: str, cls: str, result_index: int) -> dict[str, Any]:
    why = (
        "a triage that cannot say what it did NOT check turns 'everything looks fine' into "
        "a claim about ground it never stood on"
        if cls == "triage"
        else "an inventory that cannot say which population it covered ('4 of 5 clusters') "
        "reads as the whole fleet"
    )
    return {
        "tool": tool,
        "code": f"{cls}-without-coverage",
        "severity": "error",
        "field": "coverage",
        "resultIndex": result_index,
        "message": (
            f"tool {tool!r} is declared {cls!r} but {_ordinal(result_index)} declares no "
            f"coverage; {why}. Return described_result(..., coverage={{'checked': [...], "
            "'notChecked': [...], 'cannotCover': [...]}), or coverage(result, checked=[...]), "
            "or absent(what=..., checked=[...]) when nothing was found."
        ),
    }


def _unsampled_finding(name: str, cls: object) -> dict[str, Any]:
    return {
        "tool": name,
        "code": "unsampled-tool-class",
        "severity": "warning",
        "field": "results",
        "message": (
            f"tool {name!r} is declared {cls!r} but has no sample results; the gate cannot "
            "check what it cannot see, so add one sample (a mock return is enough)."
        ),
    }


def _render_finding(name: str, result_index: int) -> dict[str, Any]:
    return {
        "tool": name,
        "code": "inventory-without-render",
        "severity": "warning",
        "field": "render",
        "resultIndex": result_index,
        "message": (
            f"tool {name!r}, {_ordinal(result_index)}: an inventory with `facts` and no "
            "`render` hint; the tool's author knows the right columns and sort better than "
            "any consumer. Consider render={'default': 'table', 'columns': [...]}."
        ),
    }


def _entry_problem(index: int, name: object, has_class: bool, cls: object) -> str | None:
    """Why the checker refuses an entry's name or class, or None."""
    if not isinstance(name, str) or js_trim(name) == "":
        return f"entries[{index}] has no tool name"
    if has_class and not (isinstance(cls, str) and cls in RESULT_CLASSES):
        return (
            f"tool {name!r} declares resultClass {json.dumps(cls, default=repr)}, which "
            f"is not a class this gate knows; the classes are {', '.join(RESULT_CLASSES)}. "
            "Leave the field out for a tool with no class rules."
        )
    return None


def _judge_tool(
    name: str,
    has_class: bool,
    cls: object,
    results: Iterable[object],
    emit: Callable[[dict[str, Any]], None],
) -> int:
    """Emit the findings of one tool's samples in the reference's order; return their count."""
    count = 0
    for result_index, result in enumerate(results):
        count += 1
        marked = _carries_marker(result)
        issues = semantic_issues(result) if marked else []
        if issues:
            for issue in issues:
                emit(
                    {
                        "tool": name,
                        "code": issue["code"],
                        "severity": "error",
                        "field": issue["field"],
                        "resultIndex": result_index,
                        "message": f"tool {name!r}, {_ordinal(result_index)}: {issue['message']}",
                    }
                )
            # A broken envelope is not judged for class rules: its faults are
            # already errors, and guessing at a broken shape would report the
            # same problem twice under two names.
            continue
        if cls in CLASSES_NEEDING_COVERAGE and not _declares_coverage(result, marked):
            assert isinstance(cls, str)
            emit(_class_coverage_finding(name, cls, result_index))
        if cls == CLASS_NEEDING_RENDER and marked:
            assert isinstance(result, dict)
            if "facts" in result and "render" not in result:
                emit(_render_finding(name, result_index))
    # The reference warns before judging the samples; with no sample there is
    # nothing it could have come before.
    if has_class and count == 0:
        emit(_unsampled_finding(name, cls))
    return count


class _ToolVerdict:
    """One tool's findings: all, or the first ``limit`` of each code and a count of the rest."""

    __slots__ = ("errors", "limit", "name", "omitted", "per_code", "results", "shown", "warnings")

    def __init__(self, name: str, limit: int | None) -> None:
        self.name = name
        self.limit = limit
        self.shown: list[dict[str, Any]] = []
        self.per_code: Counter[str] = Counter()
        self.omitted: dict[tuple[str, str], int] = {}
        self.errors = 0
        self.warnings = 0
        self.results = 0

    def emit(self, finding: dict[str, Any]) -> None:
        severity = finding["severity"]
        if severity == "error":
            self.errors += 1
        else:
            self.warnings += 1
        code = finding["code"]
        self.per_code[code] += 1
        if self.limit is None or self.per_code[code] <= self.limit:
            self.shown.append(finding)
        else:
            key = (code, severity)
            self.omitted[key] = self.omitted.get(key, 0) + 1


def _judge(limit: int | None) -> Callable[[str, bool, object, Iterator[object]], _ToolVerdict]:
    def judge(name: str, has_class: bool, cls: object, samples: Iterator[object]) -> _ToolVerdict:
        verdict = _ToolVerdict(name, limit)
        verdict.results = _judge_tool(name, has_class, cls, samples, verdict.emit)
        return verdict

    return judge


def _check_entries(entries: object, limit: int | None, on_tool: Callable[[_ToolVerdict], None]) -> int:
    """The reference's checker loop over parsed entries; returns the number of tools."""
    if not _is_array(entries):
        raise SemanticsCatalogError("check_semantics takes a list of {name, resultClass?, results} entries")
    assert isinstance(entries, (list, tuple))
    judge = _judge(limit)
    for entry_index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise SemanticsCatalogError(f"entries[{entry_index}] is not an object")
        name = entry.get("name")
        has_class = "resultClass" in entry
        cls = entry.get("resultClass")
        problem = _entry_problem(entry_index, name, has_class, cls)
        if problem is not None:
            raise SemanticsCatalogError(problem)
        results = entry.get("results")
        if not _is_array(results):
            raise SemanticsCatalogError(
                f"tool {name!r} has no `results` list; the gate judges sample results, so "
                "give it at least one (a mock tool's return is the natural sample)"
            )
        assert isinstance(name, str) and isinstance(results, (list, tuple))
        on_tool(judge(name, has_class, cls, iter(results)))
    return len(entries)


def _is_array(value: object) -> bool:
    return isinstance(value, (list, tuple))


def check_semantics(entries: object) -> dict[str, Any]:
    """Judge catalog entries ``[{name, resultClass?, results: [...]}]``; return the report.

    Raises :class:`SemanticsCatalogError` only for a malformed catalog: entries that
    are not a list, an entry that is not a dict, a tool with no name (blank after
    JavaScript trimming), a ``resultClass`` present but not one of ``RESULT_CLASSES``
    (``None`` included), or ``results`` that is not a list. ``ok`` is false when any
    finding is an error; warnings never fail it (``--strict`` decides that). Every
    finding is returned; the command's report (:func:`judge_catalog`) is the bounded one.
    """
    findings: list[dict[str, Any]] = []
    checked_results = 0

    def collect(verdict: _ToolVerdict) -> None:
        nonlocal checked_results
        findings.extend(verdict.shown)
        checked_results += verdict.results

    tools = _check_entries(entries, None, collect)
    return {
        "ok": not any(finding["severity"] == "error" for finding in findings),
        "findings": findings,
        "checkedTools": tools,
        "checkedResults": checked_results,
    }


# ---------------------------------------------------------------------------
# One catalog's bounded report
# ---------------------------------------------------------------------------


@dataclass
class CatalogReport:
    """The gate's verdict on one catalog, with its findings bounded (see the module docstring)."""

    catalog: str
    limited: bool = True
    findings: list[dict[str, Any]] = field(default_factory=list)
    omitted: list[dict[str, Any]] = field(default_factory=list)
    finding_rows: list[int] = field(default_factory=list)
    """The catalog row (0-based) each shown finding belongs to, in order."""
    tools: int = 0
    results: int = 0
    errors: int = 0
    warnings: int = 0
    _beyond: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.errors == 0

    def passed(self, strict: bool) -> bool:
        return self.ok and not (strict and self.warnings)

    def add(self, verdict: _ToolVerdict) -> None:
        row = self.tools
        self.tools += 1
        self.results += verdict.results
        self.errors += verdict.errors
        self.warnings += verdict.warnings
        omitted = dict(verdict.omitted)
        for finding in verdict.shown:
            if not self.limited or len(self.findings) < SHOWN_IN_ALL:
                self.findings.append(finding)
                self.finding_rows.append(row)
            else:
                key = (finding["code"], finding["severity"])
                omitted[key] = omitted.get(key, 0) + 1
        for (code, severity), count in omitted.items():
            if len(self.omitted) < _OMITTED_ENTRIES:
                self.omitted.append(
                    {"tool": verdict.name, "code": code, "severity": severity, "count": count}
                )
            else:
                self._beyond[(code, severity)] = self._beyond.get((code, severity), 0) + count

    def finish(self) -> CatalogReport:
        """Count what is past the named entries under ``tool: null``; returns itself."""
        for (code, severity), count in self._beyond.items():
            self.omitted.append({"tool": None, "code": code, "severity": severity, "count": count})
        self._beyond.clear()
        return self


def judge_catalog(text: str, catalog: str = "-", *, all_findings: bool = False) -> CatalogReport:
    """Judge catalog text as ``check-semantics`` does; the bounded report of it.

    The samples are streamed; a catalog whose meaning hangs on a repeated key is
    parsed whole instead (same verdict). Raises :class:`SemanticsCatalogError` for
    invalid JSON or a catalog the checker refuses, and ``RecursionError`` for one
    nested too deeply to read.
    """
    limit = None if all_findings else SHOWN_PER_CODE
    report = CatalogReport(catalog, limited=not all_findings)
    tests: dict[int, object] = {}
    try:
        stream_catalog(text, _entry_problem, _judge(limit), report.add, tests)
    except Irregular:
        report = CatalogReport(catalog, limited=not all_findings)
        parsed = parse_catalog_text(text)
        _check_entries(coerce_semantics_catalog(parsed), limit, report.add)
        rows = parsed.get("tools") if isinstance(parsed, dict) else parsed
        assert isinstance(rows, (list, tuple))  # coerced above
        tests = {i: row.get("tests") for i, row in enumerate(rows) if isinstance(row, dict)}
    _name_tests(report, tests)
    return report.finish()


def _name_tests(report: CatalogReport, tests: Mapping[int, object]) -> None:
    """Name in each shown finding of a sample the test that produced it, when its row says.

    A row's ``tests`` (written by the pytest plugin) lists, per sample, the node id of
    the test that produced it; the finding gets it as ``test``. A ``tests`` that is
    not a list, or an entry that is neither a text nor null, names nothing.
    """
    for finding, row in zip(report.findings, report.finding_rows, strict=True):
        named = tests.get(row)
        index = finding.get("resultIndex")
        if not isinstance(named, list) or index is None or index >= len(named):
            continue
        test = named[index]
        if isinstance(test, str) and test:
            finding["test"] = test
        elif test is None:
            finding["test"] = "no test (collection)"


def load_semantics_catalog(text: str) -> list[dict[str, Any]]:
    """Parse catalog text whole (strict JSON) and coerce it; raises SemanticsCatalogError."""
    return coerce_semantics_catalog(parse_catalog_text(text))


def gate_report(reports: Sequence[CatalogReport], *, strict: bool = False) -> dict[str, Any]:
    """One report over several catalogs: the reference's keys first, then ours.

    Each finding (and each omitted count) names its ``catalog``; ``catalogs`` sums
    up each file.
    """

    def named(item: dict[str, Any], catalog: str) -> dict[str, Any]:
        # In place: a report may hold a million findings, and they are the gate's own.
        item["catalog"] = catalog
        return item

    errors = sum(report.errors for report in reports)
    warnings = sum(report.warnings for report in reports)
    return {
        "ok": errors == 0,
        "findings": [named(f, r.catalog) for r in reports for f in r.findings],
        "checkedTools": sum(report.tools for report in reports),
        "checkedResults": sum(report.results for report in reports),
        "passed": errors == 0 and not (strict and warnings),
        "strict": strict,
        "errors": errors,
        "warnings": warnings,
        "omittedFindings": [named(o, r.catalog) for r in reports for o in r.omitted],
        "catalogs": [
            {
                "catalog": report.catalog,
                "ok": report.ok,
                "passed": report.passed(strict),
                "checkedTools": report.tools,
                "checkedResults": report.results,
                "errors": report.errors,
                "warnings": report.warnings,
            }
            for report in reports
        ],
    }
