"""SEM2xx: provenance — when the world was measured, and from which system.

``provenance.source`` must name the system of record; ``ageSeconds`` must be a finite
number >= 0 (SEM205); what ``measuredAt`` may not be is ``sem2xx_clock``'s (SEM203,
SEM204). Series and facts need provenance at all
(SEM201), with both of its required fields (SEM202).

The values are read with the shared value library (``rules.values``).
"""

from __future__ import annotations

import ast
import math
from typing import TYPE_CHECKING, Final

from semantics_lint.lint.calls.verdicts import MISSING, VALUE_FAULTS, WRONG_TYPE
from semantics_lint.lint.rules.base import DATA_KEYS, Check, Claim, Invalid, Rule, Selector, Valid
from semantics_lint.lint.rules.values import (
    Value,
    follow,
    is_blank_text,
    keys_in_doubt,
    kind_word,
    literal_kind,
    missing_in_doubt,
    qualified_name,
    report_wrong_kind,
    text_of,
)

if TYPE_CHECKING:
    from semantics_lint.lint.calls.context import CallSite
    from semantics_lint.lint.calls.declaration import Declaration, Field, Part

# -- the rules --------------------------------------------------------------------------

_PROVENANCE: Final = frozenset({"provenance"})


class DataWithoutProvenance(Rule):
    """
    ## What it does
    Reports a `described_result(...)` that carries `series` or `facts` and no
    `provenance` at all. The finding is on the call's name.

    ## Why is this bad?
    Numbers without a time and a source cannot be read honestly: the model cannot tell
    a reading from this morning from one of last year, nor which system said so. The
    mint refuses series or facts without `provenance.measuredAt` and
    `provenance.source` at run time. Edges and a clarify question need no provenance.

    ## Known problems
    Nothing is reported when the call spreads a dict (`**decl`), or holds a key that
    may be the provenance misspelled (`provenanse`) or one of its fields written a
    level too high (`measuredAt=`): that key is reported on its own (SEM101). Any other
    unknown key (`context=`) leaves the provenance missing.
    """

    code = "SEM201"
    name = "data-without-provenance"
    judges = Selector(
        calls=frozenset({"described_result"}),
        refusals=(Claim(frozenset({"described_result"}), frozenset({MISSING}), ("provenance",)),),
    )

    VALID = (
        Valid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.exported_at, "source": "cmdb"},
                )
            """
        ),
        Valid(
            """
            def tool(matches):
                # A clarify question and edges need no provenance.
                return described_result(
                    edges=[{"from": "vm-01", "to": "ds-7", "kind": "rides"}],
                    clarify={"question": "Which vm?", "candidates": matches},
                )
            """
        ),
        Valid(
            """
            def tool(rows, decl):
                return described_result(facts=rows, **decl)
            """
        ),
        Valid(
            """
            def tool(rows, export):
                # The provenance misspelled: one mistake, reported as SEM101 alone.
                return described_result(facts=rows, provenanse={"measuredAt": export.at, "source": "cmdb"})
            """
        ),
        Valid(
            """
            def saved_record(rows):
                # A hand-built wire envelope is not a declaration.
                return {"af_semantics": True, "facts": rows}
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows)
            """,
            line=2,
            column=11,
            field="provenance",
        ),
        Invalid(
            """
            def tool(vm, runs):
                return described_result(
                    series=[{"t": r.day, "entity": vm, "metric": "ok", "value": r.ok} for r in runs],
                    grain={"interval": "daily", "aggregation": "count", "isCounter": False},
                )
            """,
            line=2,
            column=11,
            field="series",
        ),
        Invalid(
            """
            def tool(export):
                return describedResult({"facts": export.rows, "render": {"default": "table"}})
            """,
            field="describedResult",
        ),
        Invalid(
            """
            def tool(export):
                # `context` is no spelling of provenance: both are reported.
                return described_result(facts=export.rows, context={"source": "cmdb"})
            """,
            codes=("SEM201", "SEM101"),
            line=3,
            column=11,
        ),
    )

    def visit_declaration(self, check: Check, declaration: Declaration) -> None:
        top = declaration.top
        if top.has("provenance") or missing_in_doubt(top, "provenance"):
            return
        carried = [name for name in ("series", "facts") if top.has(name)]
        if not carried:
            return
        spelled = " and ".join(f"`{top.get(name).spelled}`" for name in carried)  # type: ignore[union-attr]
        check.report(
            declaration.call.func_node,
            f"{check.call.spelled}(...) carries {spelled} with no `provenance`",
            help="add provenance={'measuredAt': <when the data was measured>, "
            "'source': <the system of record>}",
        )


def _problem_with_text(value: Value) -> str | None:
    """Why a required text field's value is provably not a non-empty string, or None."""
    node = value.node
    kind = literal_kind(node)
    if kind is None:
        return None
    if kind == "str":
        return "is empty" if is_blank_text(node) else None
    return f"is {kind_word(kind)}, not a string"


class IncompleteProvenance(Rule):
    """
    ## What it does
    Reports a `provenance` without `measuredAt` or without `source`, or with either
    provably empty: an empty or blank string, `None`, or a literal that is not a string.
    A missing field is reported on the provenance dict, an empty one on its value.

    ## Why is this bad?
    `measuredAt` says when the world was measured and `source` which system of record
    said so; a reader needs both to judge the numbers. The mint refuses a result with
    data whose provenance lacks either, or holds an empty one, at run time.

    A snake_case `measured_at` counts as the field it means here: it is reported once,
    as a snake_case key.

    ## Known problems
    A provenance that spreads a dict (`{**base, ...}`) or holds a key that is not a
    field (it may be the missing one misspelled) is not reported as incomplete. A
    `source` imported from another module is not followed: a blank one is too rare to
    parse every module that imports its source for.
    """

    code = "SEM202"
    name = "incomplete-provenance"
    judges = Selector(
        calls=frozenset({"described_result"}),
        parts=frozenset({"described_result", "provenance"}),
        keys=frozenset(
            {
                ("described_result", "provenance"),
                ("provenance", "measuredAt"),
                ("provenance", "source"),
            }
        ),
        statuses=DATA_KEYS,
        named=_PROVENANCE,
        refusals=(
            Claim(
                frozenset({"described_result"}),
                VALUE_FAULTS,
                ("provenance", frozenset({"measuredAt", "source"})),
            ),
            Claim(frozenset({"described_result"}), frozenset({WRONG_TYPE}), ("provenance",)),
        ),
    )

    VALID = (
        Valid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.exported_at, "source": export.system, "ageSeconds": 30},
                )
            """
        ),
        Valid(
            """
            def tool(export, base):
                return described_result(facts=export.rows, provenance={**base, "source": "cmdb"})
            """
        ),
        Valid(
            """
            def tool(export, source):
                return described_result(facts=export.rows, provenance=dict(measuredAt=export.at, source=source))
            """
        ),
        Valid(
            """
            def tool(export):
                # Call results are unknown: the runtime checker judges them.
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.newest(), "source": export.system_name()},
                )
            """
        ),
        Valid(
            """
            def tool(export):
                provenance = {"measuredAt": export.at}
                # Changed after it was bound: the linter cannot know its keys.
                provenance["source"] = export.system
                return described_result(facts=export.rows, provenance=provenance)
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"source": "powerstore"},
                )
            """,
            line=4,
            column=19,
            field="measuredAt",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "  "})
            """,
            line=2,
            column=94,
            field="provenance.source",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": None, "source": "cmdb"})
            """,
            field="provenance.measuredAt",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={})
            """,
            field="`measuredAt` and `source`",
        ),
        Invalid(
            """
            UNKNOWN_SOURCE = ""

            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": UNKNOWN_SOURCE},
                )
            """,
            line=6,
            field='UNKNOWN_SOURCE = ""',
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"measured_at": export.at})
            """,
            codes=("SEM102", "SEM202"),
            field="source",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance=None)
            """,
            field="provenance",
        ),
    )

    def visit_field(self, check: Check, field: Field) -> None:
        if field.part.kind == "described_result":
            report_wrong_kind(
                check,
                field,
                "provenance",
                ("dict",),
                help="give a dict {'measuredAt': ..., 'source': ...}, or leave it out when "
                "the result carries no series or facts",
            )
            return
        # A blank source is too rare a mistake to read another module for.
        value = follow(check.call, field.value_ast, imports=field.name != "source")
        if value is None:
            return
        problem = _problem_with_text(value)
        if problem is None:
            return
        meant = (
            "when the world was measured, taken from the data"
            if field.name == "measuredAt"
            else "the system of record the values were read from"
        )
        check.report(
            field.value_ast,
            f"`{field.path}` {problem}",
            help=f"it must say {meant}{value.bound}",
        )

    def visit_part(self, check: Check, part: Part) -> None:
        if part.kind != "provenance" or keys_in_doubt(part):
            return
        missing = [name for name in ("measuredAt", "source") if not part.has(name)]
        if not missing:
            return
        said = " and ".join(f"`{name}`" for name in missing)
        check.report(
            part,
            f"`provenance` has no {said}",
            help="a reader needs `measuredAt` (when the world was measured, from the data) "
            "and `source` (the system of record)",
        )


_NOT_FINITE_CONSTANTS: Final = frozenset(
    {
        "math.inf",
        "math.nan",
        "numpy.inf",
        "numpy.nan",
        "numpy.NaN",
        "numpy.Inf",
        "cmath.inf",
        "cmath.nan",
    }
)


def _age_problem(call: CallSite, node: ast.expr) -> tuple[str, Value] | None:
    """Why an ``ageSeconds`` value is provably not a finite number >= 0, or None."""
    context = call.context
    negate = False
    inner = node
    if isinstance(inner, ast.UnaryOp) and isinstance(inner.op, (ast.USub, ast.UAdd)):
        negate = isinstance(inner.op, ast.USub)
        inner = inner.operand
    if isinstance(inner, (ast.Name, ast.Attribute)):
        if qualified_name(context, inner) in _NOT_FINITE_CONSTANTS:
            return "is not finite", Value(node)
        if negate:
            return None
        value = follow(call, node)
        if value is None or value.via is None:
            return None
        problem = _literal_age_problem(value.node)
        return (problem, value) if problem is not None else None
    problem = _literal_age_problem(node)
    return (problem, Value(node)) if problem is not None else None


def _literal_age_problem(node: ast.expr) -> str | None:
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "float"
        and len(node.args) == 1
        and not node.keywords
    ):
        text = text_of(node.args[0])
        if text is None:
            return None
        try:
            number = float(text)
        except ValueError:
            return None  # float() would raise: that is the call's error, not this field's
        if not math.isfinite(number):
            return "is not finite"
        return "is negative" if number < 0 else None
    kind = literal_kind(node)
    if kind is None:
        return None
    if kind == "bool":
        return "is a bool, not a number"
    if kind != "number":
        return f"is {kind_word(kind)}, not a number"
    value = _number(node)
    if value is None:
        return None
    if isinstance(value, complex):
        return "is a complex number"
    if not math.isfinite(value):
        return "is not finite"
    if value < 0:
        return "is negative"
    return None


def _number(node: ast.expr) -> float | complex | None:
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, complex)):
        return None
    if isinstance(value, int):
        # An integer too large for a float is read as JSON reads it: infinite.
        if abs(value) < 2**1000:
            return float(value)
        return math.inf if value > 0 else -math.inf
    return value


class InvalidAgeSeconds(Rule):
    """
    ## What it does
    Reports a `provenance.ageSeconds` that is provably not a finite number >= 0: a
    negative number, `float("inf")`, `float("nan")`, `math.inf`, a bool, a string,
    `None`, a list — written in the call or bound to a name.

    ## Why is this bad?
    `ageSeconds` tells the model how old the data was when it was read. A negative or
    infinite age is no age at all, and `True` is not a number of seconds (although
    Python lets a bool pass for an int). The mint refuses it at run time.
    """

    code = "SEM205"
    name = "invalid-age-seconds"
    judges = Selector(
        calls=frozenset({"described_result"}),
        parts=_PROVENANCE,
        keys=frozenset({("provenance", "ageSeconds")}),
        statuses=DATA_KEYS,
        named=_PROVENANCE,
        refusals=(Claim(frozenset({"described_result"}), VALUE_FAULTS, ("provenance", "ageSeconds")),),
    )

    VALID = (
        Valid(
            """
            def tool(export, now):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "cmdb", "ageSeconds": now - export.epoch},
                )
            """
        ),
        Valid(
            """
            def tool(export):
                # An age column of a fact row is the tool's data.
                return described_result(
                    facts=[{"entity": "snap-1", "age_seconds": -1}],
                    provenance={"measuredAt": export.at, "source": "powerstore", "ageSeconds": 0},
                )
            """
        ),
        Valid(
            """
            def tool(export, age):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x", "ageSeconds": -age})
            """
        ),
        Valid(
            """
            def tool(export, age_of):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x", "ageSeconds": age_of(export)})
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(newest):
                return described_result(
                    facts=[{"entity": "vol-1", "snapshot": newest.name}],
                    provenance={"measuredAt": newest.taken_at, "source": "powerstore", "ageSeconds": -5},
                )
            """,
            line=4,
            column=89,
            field="provenance.ageSeconds",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x", "ageSeconds": float("inf")})
            """,
            field="not finite",
        ),
        Invalid(
            """
            import math

            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x", "ageSeconds": math.nan})
            """,
            field="not finite",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x", "ageSeconds": True})
            """,
            field="bool",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x", "ageSeconds": "30"})
            """,
            field="a string",
        ),
        Invalid(
            """
            STALE = None

            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance=dict(measuredAt=export.at, source="x", age_seconds=STALE),
                )
            """,
            codes=("SEM102", "SEM205"),
            field="STALE = None (line 1)",
        ),
    )

    def visit_field(self, check: Check, field: Field) -> None:
        found = _age_problem(check.call, field.value_ast)
        if found is None:
            return
        problem, value = found
        check.report(
            field.value_ast,
            f"`{field.path}` {problem}",
            help="it must be a finite number of seconds >= 0 (how old the data was when read), "
            f"or left out{value.bound}",
        )


PROVENANCE_RULES: tuple[type[Rule], ...] = (
    DataWithoutProvenance,
    IncompleteProvenance,
    InvalidAgeSeconds,
)
