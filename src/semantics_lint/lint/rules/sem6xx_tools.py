"""SEM6xx: tool-level rules — ``define_tool(...)`` linked to the results it returns.

A tool is declared with ``define_tool(..., resultClass=..., execute=fn)`` (recognized
only when imported from an API module), or served through an adapter with a result
class: ``served(fn, result_class=...)``, ``function_tool(fn, result_class=...)``,
``tool(fn, result_class=...)`` or the decorator ``@served(result_class=...)``
(recognized only when imported from their ``semantics_lint.frameworks`` module;
``result_class`` is the adapter's Python keyword, not a declaration key). Its
``execute`` (the adapter's function) is linked to a function when the link is
provable: a ``lambda`` written in the call, the ``def`` a decorator is written on, or
a name bound exactly once in the module, by a ``def``. The described results that function returns directly (calls
whose innermost enclosing function is ``execute``) are the tool's results, and the
class rules of the ``check-semantics`` gate apply to them before anything runs:

* SEM601: a ``resultClass`` (``result_class``) other than ``triage`` / ``inventory``;
* SEM602: a triage or inventory result without coverage;
* SEM603 (warning): an inventory result with facts and no render hint;
* SEM604 (warning), for any function, not only a tool's, is ``sem6xx_data_variable``'s.

SEM602–SEM604 are reported in the ``described_result`` call they concern; values are
read through the resolver, so a class or a part bound to a name counts as written.
What cannot be proved (an ``execute`` imported from elsewhere, a ``**spread`` of the
fields, a class that does not resolve) is never a finding. The tools, their classes
and the results they return are the file's tool model (``lint.calls.tools``); calls
are read as declarations (``lint.calls.declaration``), as every family reads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from semantics_lint import vocabulary
from semantics_lint.lint.calls.tools import Tool, file_tools
from semantics_lint.lint.calls.verdicts import VALUE_FAULTS
from semantics_lint.lint.core.model import Severity
from semantics_lint.lint.core.syntax import UNKNOWN
from semantics_lint.lint.rules.base import DEFINE_TOOL, Check, Claim, Invalid, Rule, Selector, Valid

if TYPE_CHECKING:
    pass

_CLASSES = ", ".join(repr(name) for name in vocabulary.RESULT_CLASSES)


def _tool_label(tool: Tool) -> str:
    return f"tool {tool.name!r}" if tool.name else "tool"


# -- the rules ---------------------------------------------------------------------------


class UnknownResultClass(Rule):
    """
    ## What it does
    Reports `define_tool(..., resultClass=...)` whose class is not one of the closed
    set `triage`, `inventory`, whether written in the call or bound to a name; and the
    same of an adapter's `result_class=` (`served`, `function_tool`, `tool` imported
    from `semantics_lint.frameworks.*`).

    ## Why is this bad?
    A result class carries rules the gate can prove: a triage must say what it did not
    check, an inventory which population it covered. Any other class is refused when
    the tool is defined, so the tool never loads. Leave `resultClass` out when neither
    fits.
    """

    code = "SEM601"
    name = "unknown-result-class"
    judges = Selector(
        refusals=(Claim(frozenset({DEFINE_TOOL}), VALUE_FAULTS, ("resultClass",), deeper=True),),
    )

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import define_tool

            def run(vm):
                ...

            backup = define_tool(name="vm_backup_status", resultClass="triage", execute=run)
            listing = define_tool(name="vm_list", execute=run)
            """
        ),
        Valid(
            """
            from semantics_lint.runtime import define_tool

            def make(kind, run):
                # A parameter: the class is not known here, so nothing is reported.
                return define_tool(name="t", resultClass=kind, execute=run)
            """
        ),
        Valid(
            """
            from semantics_lint.frameworks.mcp import served

            @served(result_class="triage")
            def vm_backup_status(vm):
                ...
            """
        ),
        Valid(
            """
            from langchain_core.tools import tool  # another library's tool(): not an adapter

            def run(vm):
                ...

            backup = tool(run, result_class="report")
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            from semantics_lint.runtime import define_tool

            def run(vm):
                ...

            backup = define_tool(name="vm_backup_status", resultClass="report", execute=run)
            """,
            line=6,
            column=58,
            field="resultClass",
        ),
        Invalid(
            """
            from agentfootprint import define_tool

            KIND = "Triage"

            def run(vm):
                ...

            backup = define_tool(name="vm_backup_status", resultClass=KIND, execute=run)
            """,
            line=8,
            column=58,
            field='KIND = "Triage" (line 3)',
        ),
        Invalid(
            """
            from agentfootprint import defineTool

            def run(vm):
                ...

            # The reference's spelling is the same door.
            backup = defineTool(name="vm_backup_status", resultClass="report", execute=run)
            """,
            line=7,
            column=57,
            field="resultClass",
        ),
        Invalid(
            """
            from semantics_lint.frameworks.langchain import tool

            def vm_backup_status(vm, export):
                return described_result(
                    facts=[{"entity": vm, "backed_up": True}],
                    provenance={"measuredAt": export.at, "source": export.source},
                )

            backup = tool(vm_backup_status, result_class="report")
            """,
            line=9,
            column=45,
            field="result_class",
        ),
    )

    def visit_module(self, check: Check) -> None:
        for tool in file_tools(check.file).tools:
            value = tool.result_class
            if tool.class_node is None or value is UNKNOWN:
                continue
            if value is None and tool.class_key == vocabulary.ADAPTER_CLASS_KEYWORD:
                continue  # an adapter's result_class=None is no class; define_tool refuses None
            if isinstance(value, str) and value in vocabulary.RESULT_CLASSES:
                continue
            described = f" ({tool.class_resolved.describe()})" if tool.class_resolved else ""
            check.report_ast(
                tool.class_node,
                f"{tool.spelled}(...) {tool.class_key} {value!r} is not a result class",
                help=f"use one of {_CLASSES}, or leave {tool.class_key} out when neither fits{described}",
            )


class ClassedResultWithoutCoverage(Rule):
    """
    ## What it does
    Reports a `described_result(...)` returned by the `execute` function of a tool
    declared `resultClass="triage"` or `"inventory"` when it declares no `coverage`.
    The tool is linked to its `execute` when that is a `def` of the same module or a
    `lambda` written in `define_tool(...)`. A function served through an adapter with
    `result_class=` (`@served(result_class="triage")`, `function_tool(fn,
    result_class=...)`, `tool(fn, ...)`) is such a tool too.

    ## Why is this bad?
    A triage that cannot say what it did NOT check turns "everything looks fine" into
    a claim about ground it never stood on; an inventory that cannot say which
    population it covered reads as the whole fleet. The `check-semantics` gate fails
    such a tool on its samples; this rule finds it in the source. Declare
    `coverage={"checked": [...], "cannotCover": [...]}`, wrap the verdict in
    `coverage(...)`, or return `absent(...)` for the empty branch.

    ## Known problems
    Only results written in the `execute` function itself are linked; a result built
    in a helper that `execute` calls is not.
    """

    code = "SEM602"
    name = "classed-result-without-coverage"

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import define_tool

            CHECKED = {"checked": ["every backup job in the export"]}

            def run(vm, export):
                return described_result(
                    facts=[{"entity": vm, "backed_up": True}],
                    provenance={"measuredAt": export.at, "source": export.source},
                    coverage=CHECKED,
                )

            backup = define_tool(name="vm_backup_status", resultClass="triage", execute=run)
            """
        ),
        Valid(
            """
            from semantics_lint.runtime import define_tool
            from tools.runners import run  # imported: not linked, never guessed

            backup = define_tool(name="vm_backup_status", resultClass="triage", execute=run)
            """
        ),
        Valid(
            """
            from semantics_lint.frameworks.mcp import served

            @served(result_class="triage")
            def vm_backup_status(vm, export):
                return described_result(
                    facts=[{"entity": vm, "backed_up": True}],
                    provenance={"measuredAt": export.at, "source": export.source},
                    coverage={"checked": ["every backup job in the export"]},
                )
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            from semantics_lint.runtime import define_tool

            def run(vm, export):
                return described_result(
                    facts=[{"entity": vm, "backed_up": True}],
                    provenance={"measuredAt": export.at, "source": export.source},
                )

            backup = define_tool(name="vm_backup_status", resultClass="triage", execute=run)
            """,
            line=4,
            column=11,
            field="coverage",
        ),
        Invalid(
            """
            from semantics_lint.runtime import define_tool

            KIND = "inventory"

            hosts = define_tool(
                name="host_list",
                resultClass=KIND,
                execute=lambda export: described_result(
                    facts=[{"entity": h} for h in export.hosts],
                    provenance={"measuredAt": export.at, "source": export.source},
                    render={"default": "table"},
                ),
            )
            """,
            line=8,
            column=27,
            field="coverage",
        ),
        Invalid(
            """
            from semantics_lint.frameworks.mcp import served

            @served(result_class="triage")
            def vm_backup_status(vm, export):
                return described_result(
                    facts=[{"entity": vm, "backed_up": True}],
                    provenance={"measuredAt": export.at, "source": export.source},
                )
            """,
            line=5,
            column=11,
            field="coverage",
        ),
        Invalid(
            """
            from semantics_lint.frameworks import openai_agents

            def vm_backup_status(vm, export):
                return described_result(
                    facts=[{"entity": vm, "backed_up": True}],
                    provenance={"measuredAt": export.at, "source": export.source},
                )

            backup = openai_agents.function_tool(vm_backup_status, result_class="triage")
            """,
            line=4,
            column=11,
            field="coverage",
        ),
    )

    def visit_module(self, check: Check) -> None:
        tools = file_tools(check.file)
        for tool in tools.tools:
            if tool.result_class not in vocabulary.CLASSES_NEEDING_COVERAGE:
                continue
            for result in tools.results_of(tool):
                top = result.top
                if top.open or top.has("coverage"):
                    continue
                site = result.call
                check.report_ast(
                    site.node.func,
                    f"{site.spelled}(...) returned by the {tool.result_class} "
                    f"{_tool_label(tool)} declares no coverage",
                    help=f"a {tool.result_class} result must say what it checked and what it could "
                    "not; add coverage={'checked': [...]} (or return absent(...) when nothing "
                    "matched)",
                )


class InventoryFactsWithoutRender(Rule):
    """
    ## What it does
    Reports a `described_result(...)` with `facts` and no `render` hint, returned by
    the `execute` function of a tool declared `resultClass="inventory"` (or served
    through an adapter with `result_class="inventory"`).

    ## Why is this bad?
    An inventory is read as a table. The tool's author knows the right columns and
    sort better than any consumer; without a hint every reader guesses. This is a
    warning, as in the `check-semantics` gate: the result is valid, only less useful.
    """

    code = "SEM603"
    name = "inventory-facts-without-render"
    severity = Severity.WARNING

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import define_tool

            RENDER = {"default": "table", "columns": ["entity", "os"], "sort": "entity"}

            def run(export):
                return described_result(
                    facts=[{"entity": h.name, "os": h.os} for h in export.hosts],
                    provenance={"measuredAt": export.at, "source": export.source},
                    coverage={"checked": ["every host in the export"]},
                    render=RENDER,
                )

            hosts = define_tool(name="host_list", resultClass="inventory", execute=run)
            """
        ),
        Valid(
            """
            from semantics_lint.runtime import define_tool

            def run(export):
                return described_result(
                    facts=[{"entity": h.name} for h in export.hosts],
                    provenance={"measuredAt": export.at, "source": export.source},
                    coverage={"checked": ["every host in the export"]},
                )

            def register(kind):
                # The class comes from the caller: not known here, so nothing is reported.
                return define_tool(name="host_list", resultClass=kind, execute=run)
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            from semantics_lint.runtime import define_tool

            def run(export):
                return described_result(
                    facts=[{"entity": h.name, "os": h.os} for h in export.hosts],
                    provenance={"measuredAt": export.at, "source": export.source},
                    coverage={"checked": ["every host in the export"]},
                )

            hosts = define_tool(name="host_list", resultClass="inventory", execute=run)
            """,
            line=4,
            column=11,
            field="render",
        ),
        Invalid(
            """
            from semantics_lint.runtime import define_tool

            LISTING = "inventory"
            CHECKED = {"checked": ["every host in the export"]}

            def run(export):
                return described_result(
                    facts=[{"entity": h.name} for h in export.hosts],
                    provenance={"measuredAt": export.at, "source": export.source},
                    coverage=CHECKED,
                )

            hosts = define_tool(name="host_list", resultClass=LISTING, execute=run)
            """,
            line=7,
            column=11,
            field="render",
        ),
        Invalid(
            """
            from semantics_lint.frameworks.pydantic_ai import served

            def host_list(export):
                return described_result(
                    facts=[{"entity": h.name} for h in export.hosts],
                    provenance={"measuredAt": export.at, "source": export.source},
                    coverage={"checked": ["every host in the export"]},
                )

            hosts = served(host_list, result_class="inventory")
            """,
            line=4,
            column=11,
            field="render",
        ),
    )

    def visit_module(self, check: Check) -> None:
        tools = file_tools(check.file)
        for tool in tools.tools:
            if tool.result_class != vocabulary.CLASS_NEEDING_RENDER:
                continue
            for result in tools.results_of(tool):
                top = result.top
                if top.open or not top.has("facts") or top.has("render"):
                    continue
                site = result.call
                check.report_ast(
                    site.node.func,
                    f"{site.spelled}(...) returned by the inventory {_tool_label(tool)} has "
                    "facts but no render hint",
                    help="add render={'default': 'table', 'columns': [...]} so every reader shows "
                    "the table you meant",
                )


TOOL_RULES: tuple[type[Rule], ...] = (
    UnknownResultClass,
    ClassedResultWithoutCoverage,
    InventoryFactsWithoutRender,
)
"""This family's rules, for the catalog in ``rules/__init__.py``."""
