"""The tool-level rules SEM601–SEM604 beyond their examples: linking, names, refusals.

A tool is ``define_tool(...)`` imported from an API module; its ``execute`` is linked
only when that is provable. Each case states which codes the rules report, and where.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from semantics_lint.lint.engine import LintSettings, lint_file, lint_source

TOOL_CODES = frozenset({"SEM601", "SEM602", "SEM603", "SEM604"})
ONLY_TOOLS = LintSettings(enabled=TOOL_CODES)


def tool_findings(source: str, filename: str = "tools.py") -> list[tuple[str, int, int]]:
    text = textwrap.dedent(source)
    findings = lint_source(text.encode("utf-8"), filename, ONLY_TOOLS)
    return [(f.code, f.start.line, f.start.column) for f in findings]


HEADER = "from semantics_lint.runtime import absent, define_tool\n"


def test_a_triage_tool_result_without_coverage_is_reported_at_the_call() -> None:
    source = HEADER + textwrap.dedent(
        """
        def run(vm, export):
            return described_result(facts=[{"entity": vm}], provenance=export.prov)

        tool = define_tool(name="t", resultClass="triage", execute=run)
        """
    )
    assert tool_findings(source) == [("SEM602", 4, 11)]


def test_every_result_of_execute_is_judged_and_only_those() -> None:
    source = HEADER + textwrap.dedent(
        """
        def helper(vm, export):
            # Not execute: a helper's result is not linked to the tool.
            return described_result(facts=[{"entity": vm}], provenance=export.prov)

        def run(vm, export, deep):
            if deep:
                return described_result(facts=[{"entity": vm}], provenance=export.prov)
            if export.none:
                return absent(what=vm, checked=["the export"])
            return described_result(
                facts=[{"entity": vm}], provenance=export.prov, coverage={"checked": ["x"]}
            )

        tool = define_tool(name="t", resultClass="triage", execute=run)
        """
    )
    assert tool_findings(source) == [("SEM602", 9, 15)]


def test_positional_dict_form_of_define_tool() -> None:
    source = HEADER + textwrap.dedent(
        """
        def run(export):
            return described_result(facts=[{"entity": "a"}], provenance=export.prov)

        tool = define_tool({"name": "t", "resultClass": "inventory", "execute": run})
        """
    )
    assert tool_findings(source) == [("SEM602", 4, 11), ("SEM603", 4, 11)]


def test_an_inline_lambda_is_the_execute_function() -> None:
    source = HEADER + textwrap.dedent(
        """
        tool = define_tool(
            name="t",
            resultClass="inventory",
            execute=lambda export: described_result(
                facts=export.rows,
                provenance=export.prov,
                coverage={"checked": ["every row"]},
            ),
        )
        """
    )
    # facts is an attribute, not a bare name: no SEM604; an inventory without render.
    assert tool_findings(source) == [("SEM603", 6, 27)]


def test_a_nested_def_in_the_function_that_defines_the_tool() -> None:
    source = HEADER + textwrap.dedent(
        """
        def make_tool(export):
            def run(vm):
                return described_result(facts=[{"entity": vm}], provenance=export.prov)

            return define_tool(name="t", resultClass="triage", execute=run)
        """
    )
    assert tool_findings(source) == [("SEM602", 5, 15)]


def test_the_class_through_a_name_and_through_an_import(tmp_path: Path) -> None:
    package = tmp_path / "fleet"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "classes.py").write_text('TRIAGE = "triage"\nODD = "report"\n', encoding="utf-8")
    tools = package / "tools.py"
    tools.write_text(
        HEADER
        + "from .classes import ODD, TRIAGE\n"
        + textwrap.dedent(
            """
            def run(vm, export):
                return described_result(facts=[{"entity": vm}], provenance=export.prov)

            good = define_tool(name="good", resultClass=TRIAGE, execute=run)
            odd = define_tool(name="odd", resultClass=ODD, execute=run)
            """
        ),
        encoding="utf-8",
    )
    findings = lint_file(tools, ONLY_TOOLS)
    assert [(f.code, f.start.line, f.start.column) for f in findings] == [
        ("SEM602", 5, 11),
        ("SEM601", 8, 42),
    ]
    assert "ODD = 'report'" in (findings[1].help or "").replace('"', "'")
    assert "fleet/classes.py:2" in (findings[1].help or "")


@pytest.mark.parametrize(
    ("source", "why"),
    [
        (
            """
            from tools.runners import run

            tool = define_tool(name="t", resultClass="triage", execute=run)
            """,
            "an imported execute is not linked",
        ),
        (
            """
            def run(vm):
                return described_result(facts=[{"entity": vm}], provenance=vm.prov)

            run = wrap(run)
            tool = define_tool(name="t", resultClass="triage", execute=run)
            """,
            "execute rebound after the def",
        ),
        (
            """
            if FAST:
                def run(vm):
                    return described_result(facts=[{"entity": vm}], provenance=vm.prov)
            else:
                def run(vm):
                    return described_result(
                        facts=[{"entity": vm}], provenance=vm.prov, coverage={"checked": ["x"]}
                    )

            tool = define_tool(name="t", resultClass="triage", execute=run)
            """,
            "two defs of execute",
        ),
        (
            """
            def run(vm):
                return described_result(facts=[{"entity": vm}], provenance=vm.prov)

            tool = define_tool(name="t", resultClass=CLASS_FROM_NOWHERE, execute=run)
            """,
            "a class that does not resolve",
        ),
        (
            """
            def run(vm):
                return described_result(facts=[{"entity": vm}], provenance=vm.prov)

            tool = define_tool(name="t", execute=run, **options)
            """,
            "a spread may hold the class",
        ),
        (
            """
            def run(vm):
                return described_result(facts=[{"entity": vm}], provenance=vm.prov)

            tool = define_tool({"name": "t", "resultClass": "report", **options, "execute": run})
            """,
            "a spread after the class may replace it",
        ),
        (
            """
            def run(vm, export):
                return described_result(facts=[{"entity": vm}], provenance=export.prov, **more)

            tool = define_tool(name="t", resultClass="triage", execute=run)
            """,
            "a spread in the result may hold coverage",
        ),
        (
            """
            from semantics_lint.runtime import coverage

            def run(vm, export):
                return coverage(described_result(facts=[{"entity": vm}], provenance=export.prov),
                                checked=["x"])

            tool = define_tool(name="t", resultClass="triage", execute=run)
            """,
            "a result wrapped in coverage() is SEM403's case",
        ),
    ],
)
def test_no_finding_when_not_provable(source: str, why: str) -> None:
    assert tool_findings(HEADER + textwrap.dedent(source)) == [], why


def test_define_tool_not_from_an_api_module_is_not_ours() -> None:
    source = textwrap.dedent(
        """
        from myframework import define_tool

        def run(vm):
            return described_result(facts=[{"entity": vm}], provenance=vm.prov)

        tool = define_tool(name="t", resultClass="report", execute=run)
        """
    )
    assert tool_findings(source) == []


def test_non_string_classes_are_reported() -> None:
    source = HEADER + textwrap.dedent(
        """
        a = define_tool(name="a", resultClass=3)
        b = define_tool(name="b", resultClass="")
        c = define_tool(name="c", resultClass="inventory ")
        d = define_tool(name="d", resultClass=None)  # refused: no class is written by leaving it out
        """
    )
    assert [code for code, _, _ in tool_findings(source)] == ["SEM601"] * 4


def test_two_tools_sharing_one_execute_report_once_per_class() -> None:
    source = HEADER + textwrap.dedent(
        """
        def run(export):
            return described_result(facts=[{"entity": "a"}], provenance=export.prov)

        a = define_tool(name="a", resultClass="triage", execute=run)
        b = define_tool(name="b", resultClass="inventory", execute=run)
        """
    )
    findings = lint_source(source.encode(), "tools.py", ONLY_TOOLS)
    assert [f.code for f in findings] == ["SEM602", "SEM602", "SEM603"]
    assert {"triage" in f.message for f in findings if f.code == "SEM602"} == {True, False}


# -- SEM604 ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "rows = load()\n    return described_result(facts=rows, provenance=p)",
            [("SEM604", 4, 34)],
        ),
        (
            "rows = load()\n    return described_result(series=rows, edges=rows, grain=g, provenance=p)",
            [("SEM604", 4, 35), ("SEM604", 4, 47)],
        ),
        (
            "rows = load()\n    return described_result({'facts': rows, 'provenance': p})",
            [("SEM604", 4, 38)],
        ),
        (
            "rows = load()\n    return described_result(facts=rows, provenance=p) if rows else absent(what='x', checked=['y'])",
            [],
        ),
        ("rows = [{'entity': 'a'}]\n    return described_result(facts=rows, provenance=p)", []),
        ("rows = []\n    return described_result(facts=rows, provenance=p)", []),  # SEM105's
        ("return described_result(facts=param_rows, provenance=p)", []),
        ("return described_result(facts=load(), provenance=p)", []),
        ("return described_result(facts=self_rows.items, provenance=p)", []),
    ],
)
def test_data_from_a_variable(body: str, expected: list[tuple[str, int, int]]) -> None:
    source = HEADER + f"def tool(param_rows, p, g):\n    {body}\n"
    assert tool_findings(source) == expected


def test_data_from_a_variable_at_module_level_is_not_in_a_function() -> None:
    source = HEADER + "rows = load()\nRESULT = described_result(facts=rows, provenance=p)\n"
    assert tool_findings(source) == []


def test_absent_in_a_nested_function_counts_for_the_outer_one_only_when_inside() -> None:
    source = HEADER + textwrap.dedent(
        """
        def tool(p):
            rows = load()

            def nothing():
                return absent(what="x", checked=["y"])

            return described_result(facts=rows, provenance=p)
        """
    )
    # The absent() call is written inside tool (in a helper it defines): accepted.
    assert tool_findings(source) == []


def test_a_tool_message_names_the_call_as_the_source_spells_it() -> None:
    source = textwrap.dedent(
        """\
        from agentfootprint import defineTool
        tool = defineTool(name="t", resultClass="reporting", execute=print)
        """
    )
    [finding] = [f for f in lint_source(source.encode(), "tools.py") if f.code == "SEM601"]
    assert finding.message == "defineTool(...) resultClass 'reporting' is not a result class"


# -- tools served through an adapter ------------------------------------------------------

TRIAGE_BODY = """
def run(vm, export):
    return described_result(facts=[{"entity": vm}], provenance={"measuredAt": export.at, "source": "s"})
"""


@pytest.mark.parametrize(
    ("imports", "serve"),
    [
        (
            "from semantics_lint.frameworks.mcp import served",
            'T = served(run, result_class="triage")',
        ),
        (
            "from semantics_lint.frameworks.mcp import served as serve",
            'T = serve(run, result_class="triage")',
        ),
        ("from semantics_lint.frameworks import mcp", 'T = mcp.served(run, result_class="triage")'),
        (
            "import semantics_lint.frameworks.mcp",
            'T = semantics_lint.frameworks.mcp.served(run, result_class="triage")',
        ),
        (
            "import semantics_lint.frameworks.langchain as lc",
            'T = lc.tool(run, result_class="triage")',
        ),
        (
            "from semantics_lint.frameworks.openai_agents import function_tool",
            'T = function_tool(run, result_class="triage")',
        ),
        (
            "from semantics_lint.frameworks.pydantic_ai import served",
            'T = served(run, result_class="triage")',
        ),
    ],
)
def test_a_function_served_with_a_result_class_is_a_tool(imports: str, serve: str) -> None:
    assert tool_findings(f"{imports}\n{TRIAGE_BODY}\n{serve}\n") == [("SEM602", 4, 11)]


@pytest.mark.parametrize(
    ("imports", "serve"),
    [
        # Not from the adapter's module, or not the adapter's name there.
        ("from langchain_core.tools import tool", 'T = tool(run, result_class="triage")'),
        ("from semantics_lint.frameworks.mcp import tool", 'T = tool(run, result_class="triage")'),
        (
            "from semantics_lint.frameworks import langchain as mcp",
            'T = mcp.served(run, result_class="triage")',
        ),
        ("from .frameworks.mcp import served", 'T = served(run, result_class="triage")'),
        # Never imported, or bound by something else as well.
        ("", 'T = served(run, result_class="triage")'),
        (
            "from semantics_lint.frameworks.mcp import served\nserved = wrap(served)",
            'T = served(run, result_class="triage")',
        ),
        # Served without a class, or with one hidden in a spread.
        ("from semantics_lint.frameworks.mcp import served", "T = served(run)"),
        ("from semantics_lint.frameworks.mcp import served", "T = served(run, **options)"),
    ],
)
def test_an_adapter_is_recognized_only_when_provable(imports: str, serve: str) -> None:
    assert tool_findings(f"{imports}\n{TRIAGE_BODY}\n{serve}\n") == []


def test_a_parameter_named_like_the_adapter_is_not_the_adapter() -> None:
    source = f"""\
from semantics_lint.frameworks.mcp import served
{TRIAGE_BODY}
def register(served):
    return served(run, result_class="triage")
"""
    assert tool_findings(source) == []


def test_the_decorator_form_links_the_function_it_decorates() -> None:
    source = """\
from semantics_lint.frameworks.mcp import served

@served(result_class="inventory")
async def hosts(export):
    return described_result(
        facts=[{"entity": "h"}], provenance={"measuredAt": export.at, "source": "s"}, coverage={"checked": ["x"]}
    )

@served
def plain(export):
    return described_result(facts=[{"entity": "h"}], provenance={"measuredAt": export.at, "source": "s"})
"""
    assert tool_findings(source) == [("SEM603", 5, 11)]


def test_an_adapter_class_is_followed_through_a_name_and_judged() -> None:
    source = f"""\
from semantics_lint.frameworks.langchain import tool

KIND = "Triage"
{TRIAGE_BODY}
T = tool(run, result_class=KIND)
"""
    findings = lint_source(textwrap.dedent(source).encode(), "t.py", LintSettings())
    assert [(f.code, f.start.line, f.start.column) for f in findings] == [("SEM601", 8, 27)]
    assert "tool(...) result_class 'Triage' is not a result class" in findings[0].message
    assert "KIND" in (findings[0].help or "")


def test_result_class_of_an_adapter_is_no_snake_case_key() -> None:
    source = f"""\
from semantics_lint.frameworks.mcp import served
from semantics_lint.runtime import absent
{TRIAGE_BODY}
T = served(run, result_class="inventory")
"""
    codes = sorted(f.code for f in lint_source(source.encode(), "t.py", LintSettings()))
    assert codes == ["SEM602", "SEM603"]


def test_a_file_that_only_serves_tools_through_an_adapter_is_judged() -> None:
    # No described_result, absent, coverage or define_tool in the file: the adapter's
    # import alone brings it past the prefilter, and the tool rules still run.
    source = """
        from semantics_lint.frameworks.mcp import served


        @served(result_class="tirage")
        def disk_free(host: str):
            return {"free": 3}
        """
    assert tool_findings(source) == [("SEM601", 5, 21)]


# -- a definition read as a declaration, as every family reads one -------------------------


def test_a_key_that_is_not_a_string_hides_no_class() -> None:
    # ``{1: ...}`` is an unknown key (the key rules' business), not a part that may hide
    # keys: the class written beside it is the tool's class.
    source = HEADER + textwrap.dedent(
        """
        def run(vm):
            return described_result(facts=[{"entity": vm}], provenance=vm.prov)

        tool = define_tool({"name": "t", 1: "x", "resultClass": "triage", "execute": run})
        """
    )
    assert tool_findings(source) == [("SEM602", 4, 11)]


def test_a_snake_case_class_is_named_as_spelled_and_judged_once() -> None:
    source = HEADER + 'tool = define_tool(name="t", result_class="report", execute=print)\n'
    findings = lint_source(source.encode(), "tools.py")
    assert [(f.code, f.start.column) for f in findings] == [("SEM102", 29), ("SEM601", 42)]
    assert findings[1].message == "define_tool(...) result_class 'report' is not a result class"


def test_the_tool_rules_alone_read_the_definitions_they_need() -> None:
    # With no declaration rule enabled, the tool model reads the declarations itself.
    source = HEADER + textwrap.dedent(
        """
        KIND = "inventory"

        def run(export):
            return described_result(facts=[{"entity": "a"}], provenance=export.prov)

        tool = define_tool(**{"name": "t"}, resultClass=KIND, execute=run)
        """
    )
    only = lint_source(source.encode(), "tools.py", LintSettings(enabled=frozenset({"SEM603"})))
    assert [(f.code, f.start.line) for f in only] == [("SEM603", 6)]


def test_a_value_written_before_a_spread_is_not_judged() -> None:
    """``{"facts": [], **rows}``: the spread may replace the rows; a key written after
    the spread is judged again."""
    source = (
        "from semantics_lint.runtime import described_result\n"
        "described_result({'facts': [], **rows}, provenance=p)\n"
        "described_result({**rows, 'facts': []}, provenance=p)\n"
    )
    found = [(f.code, f.start.line) for f in lint_source(source.encode(), "tools.py") if f.code == "SEM105"]
    assert found == [("SEM105", 3)]


def test_an_adapters_result_class_none_is_no_class() -> None:
    source = (
        "from semantics_lint.frameworks.mcp import served\n"
        "from semantics_lint.runtime import described_result\n"
        "@served(result_class=None)\n"
        "def status(vm):\n"
        "    return described_result(facts=[{'entity': vm}], provenance=vm.prov)\n"
    )
    assert [f.code for f in lint_source(source.encode(), "tools.py") if f.code.startswith("SEM6")] == []


def test_a_key_written_before_a_spread_is_judged_by_its_spelling_alone() -> None:
    """The key of a dict display written before a ``**spread`` stays in the dict: the
    key rules (SEM101-SEM103) judge it, the rules that read a value do not. A key of a
    ``dict(...)`` call is never replaced by a spread (one holding it too raises): its
    value is judged as written."""
    source = (
        "from semantics_lint.runtime import described_result\n"
        "described_result({'facts': [], 'note': 'x', 'fatcs': 1, **rows})\n"
        "described_result(facts=r, provenance={'measured_at': '2024-05-01', **p})\n"
        "described_result(dict(facts=[], **rows))\n"
        "described_result(facts=r, provenance=dict(measured_at='2024-05-01', **p))\n"
    )
    found = sorted((f.start.line, f.code) for f in lint_source(source.encode(), "tools.py"))
    assert found == [
        (2, "SEM101"),
        (2, "SEM103"),
        (3, "SEM102"),
        (4, "SEM105"),
        (5, "SEM102"),
        (5, "SEM203"),
    ]
