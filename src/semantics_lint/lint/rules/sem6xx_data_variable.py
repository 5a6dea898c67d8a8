"""SEM604 (warning): data given as a bare name (``facts=rows``, a variable of the
program, not a parameter) in a function that never returns ``absent(...)``.

It judges any function, not only a tool's: a variable can hold an empty list, and an
empty list is not "nothing matched". What cannot be proved is never a finding.
"""

from __future__ import annotations

import ast
from bisect import bisect_left
from typing import TYPE_CHECKING

from semantics_lint import vocabulary
from semantics_lint.lint.calls.declaration import declaration_of
from semantics_lint.lint.core.model import Severity
from semantics_lint.lint.core.syntax import UNKNOWN, literal_of
from semantics_lint.lint.rules.base import Check, Invalid, Rule, Valid
from semantics_lint.lint.rules.emptiness import empty_data

if TYPE_CHECKING:
    from semantics_lint.lint.calls.context import CallSite, FunctionNode
    from semantics_lint.lint.resolve import Resolved


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
        absent_starts = sorted(
            (site.node.lineno, site.node.col_offset) for site in context.calls if site.kind == "absent"
        )
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
    return at < len(starts) and starts[at] <= (
        function.end_lineno or 0,
        function.end_col_offset or 0,
    )


def _parameters(function: FunctionNode) -> set[str]:
    arguments = function.args
    names = {arg.arg for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
    names.update(arg.arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None)
    return names


def _is_literal_list(resolved: Resolved) -> bool:
    node = resolved.value
    if isinstance(node, (ast.List, ast.Tuple)):
        return not any(isinstance(element, ast.Starred) for element in node.elts)
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and (node.func.id in ("list", "tuple") and not node.args and not node.keywords)
    )


DATA_VARIABLE_RULES: tuple[type[Rule], ...] = (DataFromVariableWithoutAbsent,)
