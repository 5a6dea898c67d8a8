"""The pytest plugin: the ``check-semantics`` gate over what the tests' tools return.

Registered under the ``pytest11`` entry point, so installing semantics-lint makes it
available; it does nothing (and imports nothing of the runtime) unless enabled with
``pytest --semantics`` or ``semantics = true`` in the ini file (``[tool.pytest.ini_options]``).
``--semantics-strict`` and ``--semantics-catalog PATH`` (or the ini options
``semantics_strict`` and ``semantics_catalog``) enable it too; ``--no-semantics``
turns it off for one run, whatever else enables it.

Enabled, it records every value a :func:`~semantics_lint.runtime.define_tool` tool
returns during the session, with the tool's name and ``resultClass`` and the node
id of the test that was running, as JSON (what a model reads), and every refusal a
tool's call raises. At the end of the session it builds the catalog ``[{name,
resultClass?, results, tests}]`` (``tests[i]`` is the test that produced
``results[i]``), judges it with the gate's own
:func:`~semantics_lint.runtime.gate.check.judge_catalog` (the very function
``semantics-lint check-semantics`` runs, so a catalog written with
``--semantics-catalog`` gets the same verdict there, each finding naming its test),
prints the report in the terminal summary, and makes the session exit 1 when the
gate fails, even if every test passed; pytest's last line then says so
(``4 passed, 2 semantics errors (gate failed)``).

Beside the gate's findings, the plugin reports its own, all warnings (under
``--semantics-strict`` they fail the session, as the gate's warnings do; their text
is :mod:`semantics_lint.pytest_findings`):

* ``uncalled-tool``: a tool without a class, defined in the session, that no test
  called (a classed one is the gate's ``unsampled-tool-class``);
* ``refusing-tool``: a tool whose every call in the session raised a refusal (a
  ``Refusal``, or an exception whose message starts ``refused:``), so the gate saw
  nothing it returns; the finding names the test and quotes the refusal;
* ``undeclared-result``: a result that carries the words of a declaration
  (``provenance``, ``measuredAt``/``measured_at``, ``grain``, ``isCounter``,
  ``coverage``, ``notChecked``, ...) without the marker: it looks declared, declares
  nothing, and a model reads it as bare data.

The report's first line counts the tools the tests called, how many of them gave
sample results, and names those that refused every call:
``check-semantics: 3 tools called, 2 with sample results (refused every call: quota);
5 sample results`` (``4 tools defined, 3 called, ...`` when a defined tool was not
called).

A run of a subset of the tests (``-k``, ``-m``, ``--deselect``, ``--lf``, ``--sw``,
named files or test ids, or one stopped early by ``-x``/``--maxfail``) judges what
its tests produced and leaves the tools they did not call unjudged: they are named
once, on one line, and never fail the run. A session in which no tool was seen says
so instead of a verdict: what the plugin looks for (tools made with ``define_tool``,
and tools given to an adapter of :mod:`semantics_lint.frameworks`, which makes them
with ``define_tool``), and why none may have been seen (test modules that failed to
import, named; tests that import no tool; tools run in another process).

With pytest-xdist each worker records its own samples and hands them to the
controller (``workeroutput``), which merges them and runs the gate once. Rows are
sorted by tool name and class and samples by test id, so the catalog is the same
whatever the number of workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple

import pytest

if TYPE_CHECKING:
    from semantics_lint.runtime.gate.check import CatalogReport
    from semantics_lint.runtime.mints.tools import Tool

__all__ = ["SemanticsRecorder"]

_WORKER_KEY: Final = "semantics_lint"
_SESSION_LABEL: Final = "the session's samples"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("semantics", "semantics-lint: the check-semantics gate over tool results")
    group.addoption(
        "--semantics",
        action="store_true",
        default=False,
        help="record what define_tool tools return and judge it with the check-semantics gate "
        "at the end of the session (exit 1 when it fails)",
    )
    group.addoption(
        "--no-semantics",
        action="store_true",
        default=False,
        help="turn the gate off for this run, whatever the ini file or other options say",
    )
    group.addoption(
        "--semantics-strict",
        action="store_true",
        default=False,
        help="warnings of the gate fail the session too (implies --semantics)",
    )
    group.addoption(
        "--semantics-catalog",
        metavar="PATH",
        default=None,
        help="write the recorded catalog as JSON for `semantics-lint check-semantics PATH` "
        "(implies --semantics)",
    )
    parser.addini("semantics", type="bool", default=False, help="enable the gate (as --semantics)")
    parser.addini("semantics_strict", type="bool", default=False, help="as --semantics-strict")
    parser.addini("semantics_catalog", default="", help="as --semantics-catalog")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("no_semantics"):
        return
    strict = bool(config.getoption("semantics_strict")) or bool(config.getini("semantics_strict"))
    catalog = config.getoption("semantics_catalog") or config.getini("semantics_catalog") or None
    enabled = (
        bool(config.getoption("semantics"))
        or bool(config.getini("semantics"))
        or strict
        or catalog is not None
    )
    if not enabled:
        return
    if catalog is not None and not Path(catalog).is_absolute():
        # Relative to where pytest was started, as pytest's own --junitxml is.
        catalog = str(Path(config.invocation_params.dir) / catalog)
    config.pluginmanager.register(SemanticsRecorder(config, strict, catalog), "semantics-recorder")


# ---------------------------------------------------------------------------
# A sample as JSON
# ---------------------------------------------------------------------------


def _text(value: object) -> str:
    """``str(value)``, or what can be said of a value whose ``str`` and ``repr`` fail:
    recording a sample must never fail the test that produced it."""
    for show in (str, repr):
        try:
            text = show(value)
        except Exception:  # noqa: BLE001 - a user's __str__ may raise anything
            continue
        if isinstance(text, str):
            return text
    return f"<{type(value).__name__} object that cannot be shown>"


def sample_json(value: object) -> str:
    """One recorded sample as the JSON text a model reads of it (the one encoder's).

    A value that is not JSON data is recorded as a text saying where and why; in a
    dict, only the parts that are not JSON data are, so that the gate still sees the
    markers and judges the result as the malformed one it is. Never raises: the
    tool's caller is a test, which recording must not fail (a container whose
    iteration raises is recorded as a text saying so).
    """
    from semantics_lint.runtime.envelope.json_text import json_copy, json_text

    try:
        return json_text(value)
    except Exception as error:  # noqa: BLE001 - a user's container may raise anything
        if not isinstance(value, dict):
            return json_text(_why_not(error))
    parts: dict[str, object] = {}
    for key, item in list(value.items()):
        name = key if isinstance(key, str) else _text(key)
        try:
            parts[name] = json_copy(item, name)
        except Exception as error:  # noqa: BLE001 - as above
            parts[name] = _why_not(error)
    return json_text(parts)


def _why_not(error: Exception) -> str:
    from semantics_lint.runtime.envelope.json_text import NotJSON

    if isinstance(error, NotJSON):
        return f"<not JSON data: {error}>"
    return f"<a value that could not be recorded: {type(error).__name__}>"


# ---------------------------------------------------------------------------
# The recorder
# ---------------------------------------------------------------------------

ToolKey = tuple[str, "str | None"]


class Sample(NamedTuple):
    """One value a tool returned during the session."""

    tool: str
    result_class: str | None
    text: str
    """The value as the JSON text a model reads of it (:func:`sample_json`)."""
    test: str | None
    """The test that was running (its node id), if any."""
    bare_words: list[str]
    """The declaration words the value carries outside any declaration."""


class Row(NamedTuple):
    """One tool of the catalog (its name and class) and its samples."""

    key: ToolKey
    samples: list[Sample]


def _by_name_and_class(item: tuple[ToolKey, list[Sample]]) -> tuple[str, str]:
    (name, result_class), _samples = item
    return name, result_class or ""


class Tally(NamedTuple):
    """The tools (names) by what they did in the session: the report's first line."""

    sampled: list[str]
    """Those that gave sample results."""
    refusing: list[str]
    """Those that refused every call."""
    uncalled: list[str]
    """Those defined and not called (or not judged in a subset of the tests)."""


class Refused(NamedTuple):
    """One refusal a tool raised during the session."""

    tool: str
    result_class: str | None
    message: str
    test: str | None


_QUOTED: Final = 300


def _quoted(error: BaseException) -> str:
    text = " ".join(_text(error).split())
    return text if len(text) <= _QUOTED else text[: _QUOTED - 3] + "..."


@dataclass(frozen=True)
class Counted:
    """One entry behind pytest's last line: a finding the gate failed on. pytest and its
    other plugins read each stats entry as a report object (hypothesis's plugin reads its
    ``__dict__``), so a finding goes there wrapped, never as a bare dict."""

    finding: dict[str, Any]


class SemanticsRecorder:
    """Records tool samples and refusals during the session and gates them at its end."""

    def __init__(self, config: pytest.Config, strict: bool, catalog: str | None) -> None:
        from semantics_lint import pytest_findings
        from semantics_lint.runtime.mints import tools
        from semantics_lint.vocabulary import ABSENCE_MARKER, COVERAGE_MARKER, SEMANTICS_MARKER

        self.config = config
        self.strict = strict
        self.catalog = catalog
        self.is_worker = hasattr(config, "workerinput")
        self.defined: dict[ToolKey, None] = {}
        self.samples: list[Sample] = []
        self.refused: list[Refused] = []
        self.current: str | None = None
        self.deselected = False
        self.import_errors: dict[str, None] = {}
        """Test modules (node ids) whose collection failed: what they define was not seen."""
        self.tally = Tally([], [], [])
        """The tools by what they did in the session: the report's first line."""
        self.report: CatalogReport | None = None
        self.own: list[dict[str, Any]] = []
        self.unjudged: list[str] = []
        self.why_unjudged = ""
        self.failed = False
        self._said = pytest_findings
        self._words = pytest_findings.declaration_words()
        self._markers = (SEMANTICS_MARKER, ABSENCE_MARKER, COVERAGE_MARKER)
        self._tools = tools
        self._previous = tools.observe_tools(self)

    # -- the tools' observer --

    def tool_defined(self, tool: Tool) -> None:
        self.defined.setdefault((tool.name, tool.result_class), None)

    def tool_returned(self, tool: Tool, value: object) -> None:
        words = self._said.undeclared_words(value, self._words, self._markers)
        self.samples.append(Sample(tool.name, tool.result_class, sample_json(value), self.current, words))

    def tool_refused(self, tool: Tool, error: BaseException) -> None:
        self.refused.append(Refused(tool.name, tool.result_class, _quoted(error), self.current))

    # -- which test is running, and which were left out --

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logstart(self, nodeid: str) -> None:
        self.current = nodeid

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logfinish(self, nodeid: str) -> None:
        self.current = None

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        if items:
            self.deselected = True

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        # With pytest-xdist the controller is handed each worker's failed collection.
        if report.failed:
            self.import_errors.setdefault(report.nodeid or ".", None)

    # -- pytest-xdist: workers hand their samples to the controller --

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        output = getattr(node, "workeroutput", {}).get(_WORKER_KEY)
        if not output:
            return
        for name, result_class in output["defined"]:
            self.defined.setdefault((name, result_class), None)
        # Sent as JSON lists; kept as the named tuples this process records.
        self.samples.extend(Sample(*sample) for sample in output["samples"])
        self.refused.extend(Refused(*refused) for refused in output["refused"])
        self.deselected = self.deselected or output["deselected"]

    # -- which run this is --

    def _subset(self, session: pytest.Session) -> str:
        """Why this run is a subset of the tests (``""`` when it is the whole suite)."""
        config = self.config
        if self.deselected:
            return "tests were deselected"
        if config.getoption("lf", False) or config.getoption("stepwise", False):
            return "only the last failures ran"
        if session.shouldfail or session.shouldstop:
            return "the run stopped early"
        if config.args_source is not pytest.Config.ArgsSource.ARGS:
            return ""
        here = Path(config.invocation_params.dir)
        folders = []
        for arg in config.args:
            path = (here / arg).resolve()
            if "::" in arg or not path.is_dir():
                return "named tests ran"
            folders.append(path)
        testpaths = [config.rootpath / entry for entry in config.getini("testpaths")]
        for default in testpaths or [here]:
            if not any(default.resolve().is_relative_to(folder) for folder in folders):
                return "named folders ran"
        return ""

    # -- the end of the session --

    def _all_defined(self) -> None:
        for tool in self._tools.defined_tools():
            self.defined.setdefault((tool.name, tool.result_class), None)

    def _rows(self) -> list[Row]:
        """Every tool with its samples, by tool name and class; samples by test id."""
        rows: dict[ToolKey, list[Sample]] = {key: [] for key in self.defined}
        for sample in self.samples:
            rows.setdefault((sample.tool, sample.result_class), []).append(sample)
        for samples in rows.values():
            samples.sort(key=lambda sample: sample.test or "")
        return [Row(key, samples) for key, samples in sorted(rows.items(), key=_by_name_and_class)]

    @staticmethod
    def catalog_text_of(rows: Sequence[Row]) -> str:
        """Catalog JSON text: one row per tool name and class, with the test behind each
        sample, written by the one encoder (``runtime/envelope/json_text.py``), a row a line."""
        from semantics_lint.runtime.envelope.json_text import json_text, object_text

        def row_text(row: Row) -> str:
            (name, result_class), samples = row
            members = [("name", json_text(name))]
            if result_class:
                members.append(("resultClass", json_text(result_class)))
            members.append(("results", "[" + ",".join(sample.text for sample in samples) + "]"))
            members.append(("tests", json_text([sample.test for sample in samples])))
            return object_text(members)

        return "[\n" + ",\n".join(row_text(row) for row in rows) + "\n]\n"

    def catalog_text(self) -> str:
        """The recorded catalog as JSON text (every tool the session defined)."""
        return self.catalog_text_of(self._rows())

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        self._all_defined()
        if self.is_worker:
            self._hand_to_controller()
            return
        self.why_unjudged = self._subset(session)
        judged = self._sort_rows()
        text = self.catalog_text_of(judged)
        if self.catalog is not None:
            target = Path(self.catalog)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        if not self.defined and not self.refused:
            return  # no tool seen: nothing to judge, and no verdict to give
        self._judge(text, session)

    def _hand_to_controller(self) -> None:
        """pytest-xdist: what this worker recorded, as JSON lists, for the controller."""
        self.config.workeroutput[_WORKER_KEY] = {  # type: ignore[attr-defined]
            "defined": [list(key) for key in self.defined],
            "samples": [list(sample) for sample in self.samples],
            "refused": [list(refusal) for refusal in self.refused],
            "deselected": self.deselected,
        }

    def _sort_rows(self) -> list[Row]:
        """The rows the gate judges; the plugin's own findings, the tally and the tools
        left unjudged are kept as each row is sorted."""
        judged: list[Row] = []
        rows = self._rows()
        # A tool defined without a class and served through an adapter with one is
        # defined again with that class: the classless definition is the same tool.
        classed = {name for (name, result_class), _ in rows if result_class is not None}
        for row in rows:
            (name, result_class), samples = row
            if not samples and result_class is None and name in classed:
                continue
            if samples:
                judged.append(row)
                self._undeclared(name, samples)
                continue
            refusals = [
                (refusal.message, refusal.test)
                for refusal in self.refused
                if (refusal.tool, refusal.result_class) == (name, result_class)
            ]
            if refusals:
                self.own.append(self._said.refusing_finding(name, refusals))
                self.tally.refusing.append(name)
            elif self.why_unjudged:
                self.unjudged.append(name)
            else:
                judged.append(row)
                if result_class is None:
                    self.own.append(self._said.uncalled_finding(name))
        self.tally.sampled.extend(row.key[0] for row in judged if row.samples)
        self.tally.uncalled.extend(row.key[0] for row in judged if not row.samples)
        self.tally.uncalled.extend(self.unjudged)
        return judged

    def _undeclared(self, name: str, samples: Sequence[Sample]) -> None:
        """``undeclared-result`` for the samples of ``name`` that carry declaration
        words outside a declaration."""
        bare = [
            (index, sample.test, sample.bare_words)
            for index, sample in enumerate(samples)
            if sample.bare_words
        ]
        if bare:
            self.own.append(self._said.undeclared_finding(name, bare))

    def _judge(self, text: str, session: pytest.Session) -> None:
        """The gate's verdict on the catalog ``text``; a failed gate fails a passing session."""
        from semantics_lint.runtime.gate.check import judge_catalog

        report = judge_catalog(text, self.catalog or _SESSION_LABEL)
        self.report = report
        warnings = report.warnings + len(self.own)
        self.failed = not report.ok or (self.strict and warnings > 0)
        passing = (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED)
        if self.failed and session.exitstatus in passing:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def summary_lines(self) -> list[str]:
        if self.report is None:
            lines = self._said.nothing_seen_lines(self.import_errors)
        else:
            lines = self._report_lines(self.report)
        if self.unjudged:
            lines.append(
                f"not judged in this run ({self.why_unjudged}; no test that ran called them): "
                + ", ".join(self.unjudged)
            )
        if self.catalog is not None:
            lines.append(f"catalog written to {self.catalog}")
        return lines

    def _report_lines(self, report: CatalogReport) -> list[str]:
        """The gate's report with the plugin's findings: the plugin's own first line (the
        tools called) and verdict (naming ``--semantics-strict``), the gate's lines for
        the findings between them."""
        from semantics_lint.runtime.gate.check import format_semantics_report, gate_report

        document = gate_report([report], strict=self.strict)
        document["findings"] = [*document["findings"], *self.own]
        document["warnings"] += len(self.own)
        document["passed"] = not self.failed
        # One catalog: the gate's first line is its counts and its last the verdict.
        findings = format_semantics_report(document).splitlines()[1:-1]
        heading = self._said.heading(*self.tally, report.results)
        verdict = self._said.verdict_line(
            passed=not self.failed,
            ok=report.ok,
            errors=report.errors,
            warnings=document["warnings"],
        )
        return [heading, *findings, verdict]

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker:
            return
        terminalreporter.section("semantics gate", red=self.failed, green=not self.failed)
        for line in self.summary_lines():
            terminalreporter.line(line)
        if self.failed and self.report is not None:
            key, counted = self._last_line_entry(self.report)
            terminalreporter.stats.setdefault(key, []).extend(counted)

    def _last_line_entry(self, report: CatalogReport) -> tuple[str, list[Counted]]:
        """What pytest's last line counts of a failed gate: ``4 passed, 2 semantics
        errors (gate failed)``. pytest counts the entries of each key of its stats; the
        entries here are the findings the gate failed on (its errors, or under
        ``--semantics-strict`` every warning, the plugin's too), an omitted group once
        for each finding it stands for."""
        severity = "error" if report.errors else "warning"
        counted = [finding for finding in report.findings if finding["severity"] == severity]
        if severity == "warning":
            counted.extend(self.own)
        for group in report.omitted:
            if group["severity"] == severity:
                counted.extend([group] * group["count"])
        what = "semantics error" if report.errors else "semantics warning"
        how = "gate failed" if report.errors else "--semantics-strict gate failed"
        return f"{what}{'' if len(counted) == 1 else 's'} ({how})", [Counted(f) for f in counted]

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self._tools.observe_tools(self._previous)
