"""``define_tool``'s keys judged by the key rules, SEM100 on definitions, and SEM100
following a top-level field given as a name to the literal it is bound to."""

from __future__ import annotations

import textwrap
from pathlib import Path

from semantics_lint.lint.engine import lint_file, lint_source
from semantics_lint.runtime.mints.judge import definition_refusal
from semantics_lint.runtime.mints.tools import Tool, observe_tools

HEADER = "from semantics_lint.runtime import absent, define_tool, described_result\n"


def findings(source: str) -> list[tuple[str, int, int]]:
    text = HEADER + textwrap.dedent(source)
    return [(f.code, f.start.line, f.start.column) for f in lint_source(text.encode("utf-8"), "tools.py")]


def test_a_snake_case_class_is_one_finding_and_the_tool_rules_read_it_as_the_class() -> None:
    # The result has no coverage: SEM602 reads result_class= as resultClass.
    assert findings(
        """
        def run(vm, export):
            return described_result(facts=[{"entity": vm}], provenance={"measuredAt": export.at, "source": "x"})

        tool = define_tool(name="t", result_class="triage", execute=run)
        """
    ) == [("SEM602", 4, 11), ("SEM102", 6, 29)]


def test_no_declaration_rule_fires_on_a_definition() -> None:
    # No data, no provenance, no coverage: none of that is a definition's business.
    assert (
        findings(
            """
        def run(vm):
            return vm

        tool = define_tool(name="t", execute=run, inputSchema={"type": "object"})
        other = define_tool({"name": "u", "execute": run, "description": "d"})
        """
        )
        == []
    )


def test_a_definition_that_may_hide_fields_is_not_judged_for_a_missing_one() -> None:
    assert (
        findings(
            """
        def make(spec):
            return define_tool(name="t", **spec), define_tool({"name": "u", **spec})
        """
        )
        == []
    )


def test_a_field_whose_value_is_unknown_hides_what_comes_after_it() -> None:
    # The name is not known here, so whether execute is ever reached is not either.
    assert (
        findings(
            """
        def make(name):
            return define_tool(name=name, execute="run")
        """
        )
        == []
    )


def test_sem100_follows_a_name_bound_to_a_literal_and_names_the_binding() -> None:
    text = HEADER + textwrap.dedent(
        """
        RUN = "run"
        ROWS = {"entity": "vm-01"}

        def run(export):
            return described_result(facts=ROWS, provenance={"measuredAt": export.at, "source": "x"})

        tool = define_tool(name="t", execute=RUN)
        """
    )
    found = [f for f in lint_source(text.encode("utf-8"), "tools.py") if f.code == "SEM100"]
    assert [(f.start.line, f.start.column) for f in found] == [(7, 34), (9, 37)]
    assert "ROWS = " in (found[0].help or "") and "(line 4)" in (found[0].help or "")
    assert "RUN = " in (found[1].help or "")


def test_names_not_provably_bound_to_a_literal_stay_silent() -> None:
    assert (
        findings(
            """
        ROWS = load()
        rows = "rows"
        rows = []

        def run(export):
            if not ROWS:
                return absent(what="rows", checked=["the export"])
            return described_result(facts=ROWS, edges=rows, provenance={"measuredAt": export.at, "source": "x"})
        """
        )
        == []
    )


def test_a_constant_imported_from_the_project_is_followed(tmp_path: Path) -> None:
    (tmp_path / "constants.py").write_text('ROWS = "rows"\n', encoding="utf-8")
    tool = tmp_path / "tool.py"
    tool.write_text(
        HEADER
        + "from constants import ROWS\n\n"
        + "def run(export):\n"
        + '    return described_result(facts=ROWS, provenance={"measuredAt": export.at, "source": "x"})\n',
        encoding="utf-8",
    )
    found = [(f.code, f.start.line) for f in lint_file(tool)]
    assert found == [("SEM100", 5)]


class _Recorder:
    def __init__(self) -> None:
        self.seen: list[object] = []

    def tool_defined(self, tool: Tool) -> None:
        self.seen.append(tool)

    def tool_returned(self, tool: Tool, value: object) -> None:
        self.seen.append(value)


def test_the_judge_never_defines_a_tool() -> None:
    recorder = _Recorder()
    previous = observe_tools(recorder)
    try:
        assert definition_refusal((), {"name": "t", "execute": "run"}) is not None
        assert definition_refusal(({"name": "t", "execute": ["run"]},), {}) is not None
        # A callable might be accepted: not judged at all.
        assert definition_refusal((), {"name": "t", "execute": print}) is None
        assert definition_refusal(({"name": "t", "execute": print},), {}) is None
    finally:
        observe_tools(previous)
    assert recorder.seen == []
