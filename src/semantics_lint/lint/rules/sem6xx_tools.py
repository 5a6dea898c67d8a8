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
* SEM604 (warning), for any function, not only a tool's: data given as a bare name
  (``facts=rows``, a variable, not a parameter) in a function that never returns
  ``absent(...)``.

SEM602–SEM604 are reported in the ``described_result`` call they concern; values are
read through the resolver, so a class or a part bound to a name counts as written.
What cannot be proved (an ``execute`` imported from elsewhere, a ``**spread`` of the
fields, a class that does not resolve) is never a finding. The tools, their classes
and the results they return are the file's tool model (``lint.calls.tools``); calls
are read as declarations (``lint.calls.declaration``), as every family reads them.
"""

from __future__ import annotations

import ast
from bisect import bisect_left
from typing import TYPE_CHECKING

from semantics_lint import vocabulary
from semantics_lint.lint.calls.declaration import declaration_of
from semantics_lint.lint.calls.tools import Tool, file_tools
from semantics_lint.lint.calls.verdicts import VALUE_FAULTS
from semantics_lint.lint.core.model import Severity
from semantics_lint.lint.core.syntax import UNKNOWN, literal_of
from semantics_lint.lint.rules.base import (
    DEFINE_TOOL,
    Check,
    Claim,
    Invalid,
    Rule,
    Selector,
    Valid,
)
from semantics_lint.lint.rules.emptiness import empty_data

if TYPE_CHECKING:
    from semantics_lint.lint.calls.context import CallSite, FunctionNode
    from semantics_lint.lint.resolve import Resolved

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
        refusals=(
            Claim(frozenset({DEFINE_TOOL}), VALUE_FAULTS, ("resultClass",), deeper=True),
        ),
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


class DataFromVariableWithoutAbsent(Rule):
    """
    ## What it does
    Reports `facts`, `series` or `edges` given as a bare name (`facts=rows`) in a
    function that never calls `absent(...)`, when that name is a variable of the
    program and not a parameter of the function.

    ## Why is this bad?
    A variable can hold an empty list, and an empty list is not "nothing matched": the
    mint refuses it, so the tool fails exactly when the search found nothing. Write
    both branches: `described_result(facts=rows, ...) if rows else absent(what=...,
    checked=[...])`. This is a warning: the function may know that `rows` is never
    empty.

    ## Known problems
    A parameter (`def render(rows): ...`) is left alone: such a function passes on
    rows its caller fetched, and the caller is where the empty case is handled. A
    name bound to a literal list that is not empty is provably not empty and is left
    alone too; so is a name bound to any other literal (`ROWS = "rows"`): its value is
    known, and the mint's refusal of it is reported as SEM105 (`[]`) or SEM100. So is
    a name SEM105 proves empty where it is read (`if not rows:` around the call,
    `rows or []`): that is SEM105's finding.
    """

    code = "SEM604"
    name = "data-from-variable-without-absent"
    severity = Severity.WARNING

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import absent

            def tool(vm, runs, export):
                rows = [r for r in runs if r.vm == vm]
                if not rows:
                    return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
                return described_result(
                    facts=rows, provenance={"measuredAt": export.at, "source": export.source}
                )
            """
        ),
        Valid(
            """
            def tool(export):
                # Bound once to a literal that is not empty: provably not empty.
                rows = [{"entity": "cluster-a"}]
                return described_result(
                    facts=rows, provenance={"measuredAt": export.at, "source": export.source}
                )
            """
        ),
        Valid(
            """
            ROWS = "rows"

            def tool(export):
                # Bound to a literal: its value is known, and SEM100 reports the refusal.
                return described_result(
                    facts=ROWS, provenance={"measuredAt": export.at, "source": export.source}
                )
            """
        ),
        Valid(
            """
            def render(rows, export):
                # A parameter: the caller fetched the rows and handles "none found".
                return described_result(
                    facts=rows, provenance={"measuredAt": export.at, "source": export.source}
                )
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(vm, runs, export):
                rows = [r for r in runs if r.vm == vm]
                return described_result(
                    facts=rows, provenance={"measuredAt": export.at, "source": export.source}
                )
            """,
            line=4,
            column=14,
            field="facts",
        ),
        Invalid(
            """
            from semantics_lint.runtime import define_tool

            SERIES = load_series()

            clusters = define_tool(
                name="cluster_capacity",
                execute=lambda cluster: described_result(
                    series=SERIES,
                    grain={"interval": "daily", "aggregation": "max"},
                    provenance={"measuredAt": cluster.read_at, "source": "capacity export"},
                ),
            )
            """,
            line=8,
            column=15,
            field="series",
        ),
    )

    def visit_module(self, check: Check) -> None:
        context = check.file
        absent_starts = sorted((site.node.lineno, site.node.col_offset) for site in context.calls if site.kind == "absent")
        has_absent: dict[int, bool] = {}
        for site in context.calls:
            function = site.function
            if site.kind != "described_result" or function is None:
                continue
            top = declaration_of(site).top
            names = [
                (data_field, found.value_ast)
                for data_field in vocabulary.DATA_FIELDS
                if (found := top.get(data_field)) is not None and isinstance(found.value_ast, ast.Name)
            ]
            if not names:
                continue
            if id(function) not in has_absent:
                has_absent[id(function)] = _starts_within(absent_starts, function)
            if has_absent[id(function)]:
                continue
            parameters = _parameters(function)
            for data_field, value in names:
                if value.id not in parameters:
                    self._judge(check, site, data_field, value)

    def _judge(self, check: Check, site: CallSite, data_field: str, value: ast.Name) -> None:
        resolved = check.file.resolver.value_of(value)
        if resolved is not None and (_is_literal_list(resolved) or literal_of(resolved.value) is not UNKNOWN):
            # A value known from the source, not a variable that may be empty: an empty
            # list is SEM105's finding, any other value the mint refuses SEM100's.
            return
        if empty_data(site, value):
            return  # provably empty where it is read (a branch, a conditional): SEM105's
        check.report_ast(
            value,
            f"{data_field} is the variable {value.id!r} in a function with no absent() branch",
            help=f"when it is empty the result is refused; return absent(what=..., checked=[...]) "
            f"when {value.id} is empty (in {site.spelled}(...))",
        )


def _starts_within(starts: list[tuple[int, int]], function: FunctionNode) -> bool:
    """True when one of ``starts`` (sorted (line, column) starts of nodes) is written in
    ``function`` (its decorators and signature included): nodes nest by position, so a
    binary search of the function's span answers."""
    decorators = getattr(function, "decorator_list", None)
    first = decorators[0] if decorators else function
    at = bisect_left(starts, (first.lineno, first.col_offset))
    return at < len(starts) and starts[at] <= (function.end_lineno or 0, function.end_col_offset or 0)


def _parameters(function: FunctionNode) -> set[str]:
    arguments = function.args
    names = {arg.arg for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
    names.update(arg.arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None)
    return names


def _is_literal_list(resolved: Resolved) -> bool:
    node = resolved.value
    if isinstance(node, (ast.List, ast.Tuple)):
        return not any(isinstance(element, ast.Starred) for element in node.elts)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
        node.func.id in ("list", "tuple") and not node.args and not node.keywords
    )


TOOL_RULES: tuple[type[Rule], ...] = (
    UnknownResultClass,
    ClassedResultWithoutCoverage,
    InventoryFactsWithoutRender,
    DataFromVariableWithoutAbsent,
)
"""This family's rules, for the catalog in ``rules/__init__.py``."""
