"""The pytest plugin: the ``check-semantics`` gate over what the tests' tools return.

Registered under the ``pytest11`` entry point, so installing semantics-lint makes it
available; it does nothing (and imports nothing of the runtime) unless enabled with
``pytest --semantics`` or ``semantics = true`` in the ini file (``[tool.pytest.ini_options]``).
``--semantics-strict`` and ``--semantics-catalog PATH`` (or the ini options
``semantics_strict`` and ``semantics_catalog``) enable it too.

Enabled, it records every value a :func:`~semantics_lint.runtime.define_tool` tool
returns during the session, with the tool's name and ``resultClass`` and the node
id of the test that was running, as JSON (what a model reads). At the end of the
session it builds the catalog ``[{name, resultClass?, results, tests}]``, judges it
with the gate's own :func:`~semantics_lint.runtime.gate.judge_catalog` (the very
function ``semantics-lint check-semantics`` runs, so a catalog written with
``--semantics-catalog`` gets the same verdict there), prints the report in the
terminal summary, each finding naming the tool, the field and the test, and makes
the session exit 1 when the gate fails, even if every test passed.

A tool defined in the session but never called is a warning: a classed one is the
gate's ``unsampled-tool-class``; one without a class is this plugin's
``uncalled-tool`` (the catalog lists it with no samples, and the gate itself only
warns about classed tools, so under ``--strict`` that warning fails the session but
not ``check-semantics --strict`` on the catalog).

With pytest-xdist each worker records its own samples and hands them to the
controller (``workeroutput``), which merges them and runs the gate once. Rows are
sorted by tool name and class and samples by test id, so the catalog is the same
whatever the number of workers.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import pytest

if TYPE_CHECKING:
    from semantics_lint.runtime.gate import CatalogReport
    from semantics_lint.runtime.tools import Tool

__all__ = ["SemanticsRecorder"]

_WORKER_KEY: Final = "semantics_lint"
_SESSION_LABEL: Final = "the session's samples"
UNCALLED_CODE: Final = "uncalled-tool"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup(
        "semantics", "semantics-lint: the check-semantics gate over tool results"
    )
    group.addoption(
        "--semantics",
        action="store_true",
        default=False,
        help="record what define_tool tools return and judge it with the check-semantics gate "
        "at the end of the session (exit 1 when it fails)",
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
    parser.addini(
        "semantics_strict", type="bool", default=False, help="as --semantics-strict"
    )
    parser.addini("semantics_catalog", default="", help="as --semantics-catalog")


def pytest_configure(config: pytest.Config) -> None:
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

_LONGEST_INT_BITS: Final = 3300  # about 1,000 digits: json.dumps refuses past 4,300


def _key(key: object) -> str:
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, (bool, int, float)):
        return json.dumps(_plain(key, set()))
    return _text(key)


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


def _plain(value: Any, path: set[int]) -> Any:
    """``value`` as JSON data, the way it would travel to a model.

    Floats that JSON cannot hold (NaN, +/-Infinity) and integers too long to write
    become ``null`` (JavaScript's ``JSON.stringify`` does the same with non-finite
    numbers); dates become ISO 8601 text, enums their value, sets and tuples lists,
    dataclasses dicts; anything else its ``str()``. A cycle is written as text.
    """
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value if value.bit_length() <= _LONGEST_INT_BITS else None
    if isinstance(value, float):
        return value if value == value and value not in (float("inf"), float("-inf")) else None
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, enum.Enum):
        return _plain(value.value, path)
    if id(value) in path:
        return f"<cycle: {type(value).__name__}>"
    path.add(id(value))
    try:
        if isinstance(value, dict):
            return {_key(key): _plain(item, path) for key, item in value.items()}
        if isinstance(value, (list, tuple, set, frozenset)):
            return [_plain(item, path) for item in value]
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return {
                f.name: _plain(getattr(value, f.name), path) for f in dataclasses.fields(value)
            }
        return _text(value)
    finally:
        path.discard(id(value))


def sample_json(value: object) -> str:
    """One recorded sample as compact JSON text (ASCII, so any file can hold it).

    Never raises: the tool's caller is a test, which recording must not fail. A value
    that cannot be walked (nested too deeply, a container whose iteration raises) is
    recorded as a text saying so, which the gate then judges as the malformed result
    it would be on the wire.
    """
    try:
        return json.dumps(_plain(value, set()), separators=(",", ":"))
    except RecursionError:
        return json.dumps("<a value nested too deeply to record>")
    except Exception as error:  # noqa: BLE001 - a user's container may raise anything
        return json.dumps(f"<a value that could not be recorded: {type(error).__name__}>")


# ---------------------------------------------------------------------------
# The recorder
# ---------------------------------------------------------------------------

ToolKey = tuple[str, "str | None"]


class SemanticsRecorder:
    """Records tool samples during the session and gates them at its end."""

    def __init__(self, config: pytest.Config, strict: bool, catalog: str | None) -> None:
        from semantics_lint.runtime import tools

        self.config = config
        self.strict = strict
        self.catalog = catalog
        self.is_worker = hasattr(config, "workerinput")
        self.defined: dict[ToolKey, None] = {}
        self.samples: list[tuple[str, str | None, str, str | None]] = []
        self.current: str | None = None
        self.report: CatalogReport | None = None
        self.uncalled: list[dict[str, Any]] = []
        self.lines: list[str] = []
        self.failed = False
        self._tools = tools
        self._previous = tools.observe_tools(self)

    # -- the tools' observer --

    def tool_defined(self, tool: Tool) -> None:
        self.defined.setdefault((tool.name, tool.result_class), None)

    def tool_returned(self, tool: Tool, value: object) -> None:
        self.samples.append((tool.name, tool.result_class, sample_json(value), self.current))

    # -- which test is running --

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logstart(self, nodeid: str) -> None:
        self.current = nodeid

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logfinish(self, nodeid: str) -> None:
        self.current = None

    # -- pytest-xdist: workers hand their samples to the controller --

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        output = getattr(node, "workeroutput", {}).get(_WORKER_KEY)
        if not output:
            return
        for name, result_class in output["defined"]:
            self.defined.setdefault((name, result_class), None)
        # Sent as JSON lists; kept as the tuples this process records.
        for tool, result_class, value, node_id in output["samples"]:
            self.samples.append((tool, result_class, value, node_id))

    # -- the end of the session --

    def _all_defined(self) -> None:
        for tool in self._tools.defined_tools():
            self.defined.setdefault((tool.name, tool.result_class), None)

    def catalog_text(self) -> str:
        """The recorded catalog as JSON text: one row per tool name and class, samples by test."""
        rows: dict[ToolKey, list[tuple[str, str | None]]] = {key: [] for key in self.defined}
        for name, result_class, text, test in self.samples:
            rows.setdefault((name, result_class), []).append((text, test))
        parts = []
        ordered = sorted(rows.items(), key=lambda item: (item[0][0], item[0][1] or ""))
        for (name, result_class), samples in ordered:
            samples.sort(key=lambda sample: sample[1] or "")
            head = {"name": name, **({"resultClass": result_class} if result_class else {})}
            parts.append(
                json.dumps(head)[:-1]
                + ', "results": ['
                + ", ".join(text for text, _ in samples)
                + '], "tests": '
                + json.dumps([test for _, test in samples])
                + "}"
            )
        return "[\n" + ",\n".join(parts) + "\n]\n"

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        self._all_defined()
        if self.is_worker:
            self.config.workeroutput[_WORKER_KEY] = {  # type: ignore[attr-defined]
                "defined": [list(key) for key in self.defined],
                "samples": [list(sample) for sample in self.samples],
            }
            return
        from semantics_lint.runtime.gate import judge_catalog

        text = self.catalog_text()
        if self.catalog is not None:
            target = Path(self.catalog)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        report = judge_catalog(text, self.catalog or _SESSION_LABEL)
        self.report = report
        rows = json.loads(text)
        for finding, row in zip(report.findings, report.finding_rows):
            if "resultIndex" in finding:
                test = rows[row]["tests"][finding["resultIndex"]]
                finding["test"] = test or "no test (collection)"
        self.uncalled = [
            {
                "tool": row["name"],
                "code": UNCALLED_CODE,
                "severity": "warning",
                "field": "results",
                "message": (
                    f"tool {row['name']!r} was defined but no test called it: no sample "
                    "exercises it, so the gate judged nothing of what it returns. Call it "
                    "in a test (with mocked inputs)."
                ),
            }
            for row in rows
            if not row["results"] and "resultClass" not in row
        ]
        warnings = report.warnings + len(self.uncalled)
        self.failed = not report.ok or (self.strict and warnings > 0)
        passing = (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED)
        if self.failed and session.exitstatus in passing:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def summary_lines(self) -> list[str]:
        from semantics_lint.runtime.gate import format_semantics_report, gate_report

        assert self.report is not None
        document = gate_report([self.report], strict=self.strict)
        document["findings"] = [*document["findings"], *self.uncalled]
        document["warnings"] += len(self.uncalled)
        document["passed"] = not self.failed
        lines = format_semantics_report(document).splitlines()
        if self.catalog is not None:
            lines.append(f"catalog written to {self.catalog}")
        return lines

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker or self.report is None:
            return
        terminalreporter.section("semantics gate", red=self.failed, green=not self.failed)
        for line in self.summary_lines():
            terminalreporter.line(line)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self._tools.observe_tools(self._previous)
