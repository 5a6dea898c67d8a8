"""SEM4xx: coverage — the ground a result stands on, and the ground it does not.

A coverage must name some ground (SEM402); a described result carries its own
coverage and is never wrapped (SEM403); ``absent()`` needs ``what`` and ``checked``
(SEM404). ``coverage()``'s period is ``sem4xx_period``'s (SEM406), the items of the
lists ``sem4xx_items``'s (SEM401, SEM405).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Final

from semantics_lint import vocabulary
from semantics_lint.lint.calls.verdicts import (
    ARGUMENTS,
    SAYS_NOTHING,
    VALUE_FAULTS,
    WRAPPED,
    WRONG_TYPE,
    wraps_described_result,
)
from semantics_lint.lint.rules.base import CALL_KINDS, DATA_KEYS, Check, Claim, Invalid, Rule, Selector, Valid
from semantics_lint.lint.rules.values import (
    data_field,
    follow,
    followed_literal,
    holds_no_ground,
    is_empty_sequence,
    keys_in_doubt,
    kind_word,
    literal_kind,
    nothing_said,
    says_nothing,
)

if TYPE_CHECKING:
    from semantics_lint.lint.calls.context import CallSite
    from semantics_lint.lint.calls.declaration import Declaration, Field, Part

# The parts whose coverage lists hold coverage items.

_COVERAGE_PART: Final = frozenset({"described_result.coverage"})


_LIST_HEADS: Final = frozenset({"coverage", *vocabulary.COVERAGE_LIST_FIELDS})
"""The first key of a refusal's path in a coverage list (``coverage`` in a described result)."""


_LIST_SHAPE: Final = "{'checked': [...], 'notChecked': [...], 'cannotCover': [...]}"


class CoverageNamesNoGround(Rule):
    """
    ## What it does
    Reports a coverage that names no ground at all: `coverage={}` (or with only empty
    lists) in `described_result(...)`, `coverage=None` there, and a `coverage(content,
    ...)` call whose lists are all missing or empty, with no `period` and no
    `inProgress` (each is ground of its own).

    ## Why is this bad?
    A coverage that declares nothing tells a reader nothing while looking like it did:
    the model reads the boundary as "covered everything". The mints refuse it at run
    time. Name what was checked, what was skipped, or what can never be seen; or leave
    coverage out.
    """

    code = "SEM402"
    name = "coverage-names-no-ground"
    judges = Selector(
        calls=frozenset({"described_result", "coverage"}),
        parts=frozenset({"described_result", "described_result.coverage"}),
        keys=frozenset({("described_result", "coverage")}),
        statuses=DATA_KEYS,
        named=_COVERAGE_PART,
        refusals=(
            Claim(frozenset({"described_result"}), frozenset({WRONG_TYPE}), ("coverage",)),
            Claim(
                frozenset({"described_result", "absent"}),
                frozenset({SAYS_NOTHING}),
                (_LIST_HEADS,),
                deeper=True,
            ),
            Claim(frozenset({"coverage"}), frozenset({SAYS_NOTHING}), deeper=True),
            Claim(frozenset({"coverage"}), frozenset({ARGUMENTS}), bare=True),
        ),
    )

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict, window):
                return coverage(verdict, period={"queried": window, "held": "unknown"})
            """
        ),
        Valid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict, ledger):
                return coverage(verdict, ledger)
            """
        ),
        Valid(
            """
            def tool(export, checked):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "x"},
                    coverage={"checked": checked, "notChecked": []},
                )
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "x"},
                    coverage={"checked": [], "cannotCover": []},
                )
            """,
            line=5,
            column=17,
            field="coverage",
        ),
        Invalid(
            """
            from semantics_lint.runtime import coverage as cov

            def tool(verdict):
                return cov(verdict, notChecked=[])
            """,
            line=4,
            column=11,
            field="cov(...)",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x"}, coverage=None)
            """,
            field="coverage",
        ),
    )

    def visit_declaration(self, check: Check, declaration: Declaration) -> None:
        if declaration.kind != "coverage":
            return
        top = declaration.top
        if keys_in_doubt(top):
            return
        for field in top.fields:
            # Every field of coverage() is ground (lists, period, inProgress) but none
            # may name any; unknown and derived keys already made the part doubtful.
            if data_field(field) and not holds_no_ground(check.call, field):
                return
        check.report(
            declaration.call.func_node,
            f"{check.call.spelled}(...) names no ground at all",
            help="every list is missing or empty and there is no period or inProgress; name "
            "what was checked, what was skipped or what can never be seen, or return the "
            "result bare",
        )

    def visit_part(self, check: Check, part: Part) -> None:
        if part.kind != "described_result.coverage" or keys_in_doubt(part):
            return
        for field in part.fields:
            if data_field(field) and not holds_no_ground(check.call, field):
                return
        check.report(
            part,
            "`coverage` names no ground at all",
            help=f"declare at least one item in {_LIST_SHAPE}, or leave coverage out",
        )

    def visit_field(self, check: Check, field: Field) -> None:
        value = follow(check.call, field.value_ast)
        if value is None:
            return
        kind = literal_kind(value.node)
        if kind is None or kind == "dict":
            return
        check.report(
            field.value_ast,
            f"`coverage` is {kind_word(kind)}, which names no ground",
            help=f"give {_LIST_SHAPE}, or leave coverage out{value.bound}",
        )


def _is_described_result_call(call: CallSite, node: ast.expr) -> bool:
    """True when ``node`` is a call the engine recognized as ``described_result``."""
    for site in call.context.calls:
        if site.node is node:
            return site.kind == "described_result"
    return False


def _names_described_result(call: CallSite, node: ast.expr) -> bool:
    """True for a call of ``described_result`` (by name alone) in a followed value."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return name is not None and name in call.context.settings.call_names


class DescribedResultInCoverage(Rule):
    """
    ## What it does
    Reports `coverage(described_result(...), ...)`: a described result wrapped in a
    coverage boundary, written in the call or through a name bound to one. The finding
    is on the wrapping `coverage(`.

    ## Why is this bad?
    A described result carries its own coverage. Wrapped, its ground is declared twice
    in two places that can disagree, and the reader sees the boundary of the wrapper
    instead of the result's. The `coverage()` mint refuses it at run time. Declare the
    lists in `described_result(..., coverage={...})` and return it bare.
    """

    code = "SEM403"
    name = "described-result-in-coverage"
    judges = Selector(
        calls=frozenset({"coverage"}),
        refusals=(Claim(CALL_KINDS, frozenset({WRAPPED}), deeper=True),),
    )

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import coverage

            def tool(pairs):
                verdict = {"pairs_ok": all(p.ok for p in pairs)}
                return coverage(verdict, checked=["SRDF pair state on all 4 arrays"])
            """
        ),
        Valid(
            """
            import coverage

            def measure(described_result):
                # coverage.py's API, not ours.
                return coverage.Coverage(described_result(1))
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            from semantics_lint.runtime import coverage

            def tool(export):
                return coverage(
                    described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x"}),
                    checked=["every job in the export"],
                )
            """,
            line=4,
            column=11,
            field="coverage(...)",
        ),
        Invalid(
            """
            from agentfootprint import coverage

            def tool(export):
                result = described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x"})
                return coverage(result, checked=["every job in the export"])
            """,
            line=5,
            column=11,
            field="result = described_result(",
        ),
        Invalid(
            """
            from agentfootprint import coverage

            def tool(rows, export):
                # A wire envelope written out is a described result too.
                return coverage({"af_semantics": True, "facts": rows}, checked=["every job in the export"])
            """,
            line=5,
            column=11,
        ),
    )

    def visit_declaration(self, check: Check, declaration: Declaration) -> None:
        content = declaration.content
        if content is None:
            return
        bound = ""
        if not _is_described_result_call(check.call, content) and not wraps_described_result(content):
            if not isinstance(content, (ast.Name, ast.Attribute)):
                return
            value = follow(check.call, content)
            if value is None or value.via is None or not _names_described_result(check.call, value.node):
                return
            bound = value.bound
        check.report(
            declaration.call.func_node,
            f"{check.call.spelled}(...) wraps a described result",
            help="a described result carries its own coverage: declare the lists in "
            f"described_result(..., coverage={_LIST_SHAPE}) and return it bare{bound}",
        )


class AbsentWithoutWhatOrChecked(Rule):
    """
    ## What it does
    Reports an `absent(...)` without a non-empty `what` (what was looked for), or
    without a non-empty `checked` (the ground that was searched): missing, empty,
    `None`, or not a list. A missing field is reported on the call's name, a bad value
    on the value.

    ## Why is this bad?
    "Nothing found" is an answer only when it says what was looked for and where.
    Without `checked`, a reader cannot tell "I looked and there is nothing" from "I
    could not look". The mint refuses both at run time; if the tool could not look,
    raise an error instead.
    """

    code = "SEM404"
    name = "absent-without-what-or-checked"
    judges = Selector(
        calls=frozenset({"absent"}),
        refusals=(
            Claim(frozenset({"absent"}), frozenset({ARGUMENTS}), bare=True),
            Claim(frozenset({"absent"}), VALUE_FAULTS, ("what",)),
            Claim(frozenset({"absent"}), VALUE_FAULTS - {SAYS_NOTHING}, ("checked",)),
        ),
    )

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import absent

            def tool(name, sources):
                return absent(what=f"host {name}", checked=sources)
            """
        ),
        Valid(
            """
            from semantics_lint.runtime import absent

            def tool(name, decl):
                return absent(what=f"host {name}", **decl)
            """
        ),
        Valid(
            """
            def absent(what):
                # A function of the project's own, not the API's.
                return what

            def tool(name):
                return absent(what=f"host {name}")
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            from semantics_lint.runtime import absent

            def tool(name):
                return absent(what=f"host {name}")
            """,
            line=4,
            column=11,
            field="checked",
        ),
        Invalid(
            """
            from semantics_lint.runtime import absent

            def tool():
                return absent(what="  ", checked=["the CMDB"])
            """,
            line=4,
            column=23,
            field="what",
        ),
        Invalid(
            """
            from semantics_lint.runtime import absent

            def tool(name):
                return absent({"what": name, "checked": []})
            """,
            field="checked",
        ),
        Invalid(
            """
            from semantics_lint.runtime import absent

            def tool(name):
                return absent(what=name, checked="the CMDB")
            """,
            field="a string",
        ),
    )

    def visit_declaration(self, check: Check, declaration: Declaration) -> None:
        top = declaration.top
        doubt = keys_in_doubt(top)
        where = f"{check.call.spelled}(...)"
        what = top.get("what")
        if what is None:
            if not doubt:
                check.report(
                    declaration.call.func_node,
                    f"{where} has no `what`",
                    help="say what was looked for (e.g. 'FLOGI entries on fc1/3')",
                )
        else:
            value = follow(check.call, what.value_ast)
            if value is not None and says_nothing(value.node):
                check.report(
                    what.value_ast,
                    f"`{what.path}` {nothing_said(value.node)}",
                    help=f"say what was looked for (e.g. 'FLOGI entries on fc1/3'){value.bound}",
                )
        checked = top.get("checked")
        if checked is None:
            if not doubt:
                check.report(
                    declaration.call.func_node,
                    f"{where} has no `checked`",
                    help="name at least one source, window or population that WAS searched; "
                    "if the tool could not look, raise an error instead",
                )
            return
        found = followed_literal(check.call, checked.value_ast)
        if found is None:
            return
        value, kind = found
        if kind in ("list", "tuple"):
            if not is_empty_sequence(value.node):
                return
            problem = "is empty"
        else:
            problem = f"is {kind_word(kind)}, not a list"
        check.report(
            checked.value_ast,
            f"`{checked.path}` {problem}",
            help=f"name at least one source, window or population that WAS searched{value.bound}",
        )


COVERAGE_RULES: tuple[type[Rule], ...] = (
    CoverageNamesNoGround,
    DescribedResultInCoverage,
    AbsentWithoutWhatOrChecked,
)
