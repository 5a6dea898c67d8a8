"""SEM5xx: clarify and render — the question handed back, and how to show the data.

``clarify`` asks the user something instead of guessing: it needs a question, and its
candidates are a list (SEM501). ``render`` hints how to present the data: it needs a
default presentation, and columns, when given, are a non-empty list (SEM502).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from semantics_lint.lint.calls.verdicts import EMPTY, MISSING, VALUE_FAULTS, WRONG_TYPE
from semantics_lint.lint.rules.base import DATA_KEYS, Check, Claim, Invalid, Rule, Selector, Valid
from semantics_lint.lint.rules.values import (
    follow,
    followed_literal,
    is_blank_text,
    is_empty_sequence,
    keys_in_doubt,
    kind_word,
    literal_kind,
    report_wrong_kind,
)

if TYPE_CHECKING:
    import ast

    from semantics_lint.lint.calls.declaration import Field, Part

# What the mint reads as a list of candidates (a tuple becomes a list; a missing or
# None list means "none offered").
_CANDIDATE_KINDS: Final = frozenset({"list", "tuple", "none"})


class ClarifyWithoutQuestion(Rule):
    """
    ## What it does
    Reports a `clarify` without a `question` (missing, empty, or not a string), or
    with `candidates` that are provably not a list (a string, a dict, a set, a
    generator, a number). A `clarify` that is not a dict or `None` is reported too.

    ## Why is this bad?
    A clarify hands a question back to the user instead of guessing; without a question
    there is nothing to ask, and candidates that are not a list cannot be offered as
    choices. The mint refuses both at run time. `clarify=None` states that ambiguity
    was considered and there is none; that is fine.
    """

    code = "SEM501"
    name = "clarify-without-question"
    judges = Selector(
        calls=frozenset({"described_result"}),
        parts=frozenset({"described_result", "clarify"}),
        keys=frozenset({("described_result", "clarify"), ("clarify", "question"), ("clarify", "candidates")}),
        statuses=DATA_KEYS,
        named=frozenset({"clarify"}),
        refusals=(
            Claim(frozenset({"described_result"}), VALUE_FAULTS, ("clarify", "candidates")),
            Claim(
                frozenset({"described_result"}),
                frozenset({MISSING, EMPTY, WRONG_TYPE}),
                ("clarify", "question"),
            ),
            Claim(frozenset({"described_result"}), frozenset({WRONG_TYPE}), ("clarify",)),
        ),
    )

    VALID = (
        Valid(
            """
            def tool(found):
                return described_result(clarify={"question": "Which host?", "candidates": [h.fqdn for h in found]})
            """
        ),
        Valid(
            """
            def tool(question, names):
                return described_result(clarify={"question": question, "candidates": tuple(names)})
            """
        ),
        Valid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                    clarify=None,
                )
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(found):
                return described_result(
                    clarify={"candidates": [h.fqdn for h in found]},
                )
            """,
            line=3,
            column=16,
            field="question",
        ),
        Invalid(
            """
            def tool(found):
                return described_result(clarify={"question": "Which host?", "candidates": "web-01, web-02"})
            """,
            line=2,
            column=78,
            field="clarify.candidates",
        ),
        Invalid(
            """
            def tool(found):
                return described_result(clarify=dict(question="", candidates=found))
            """,
            field="clarify.question",
        ),
        Invalid(
            """
            def tool():
                return described_result(clarify="Which host?")
            """,
            field="clarify",
        ),
    )

    def visit_part(self, check: Check, part: Part) -> None:
        if part.kind != "clarify" or keys_in_doubt(part) or part.has("question"):
            return
        check.report(
            part,
            "`clarify` has no `question`",
            help="say what to ask the user (e.g. 'Which host did you mean?'), or pass clarify=None",
        )

    def visit_field(self, check: Check, field: Field) -> None:
        if field.part.kind == "described_result":
            report_wrong_kind(
                check,
                field,
                field.path,
                ("dict", "none"),
                help="give {'question': ..., 'candidates': [...]}, or None when nothing is ambiguous",
            )
            return
        found = followed_literal(check.call, field.value_ast)
        if found is None:
            return
        value, kind = found
        where = f"`{field.path}`"
        if field.name == "question":
            if kind != "str":
                check.report(
                    field.value_ast,
                    f"{where} is {kind_word(kind)}",
                    help=f"it must be the question to ask, as a non-empty string{value.bound}",
                )
            elif is_blank_text(value.node):
                check.report(
                    field.value_ast,
                    f"{where} is empty",
                    help=f"say what to ask the user{value.bound}",
                )
        elif field.name == "candidates" and kind not in _CANDIDATE_KINDS:
            check.report(
                field.value_ast,
                f"{where} is {kind_word(kind)}, not a list",
                help="give the choices as a list (an empty list is fine: an open question is "
                f"still a question){value.bound}",
            )


def _column_problem(node: ast.expr) -> str | None:
    """Why a ``columns`` value is provably not a non-empty list of names, or None."""
    kind = literal_kind(node)
    if kind is None:
        return None
    if kind in ("list", "tuple"):
        if is_empty_sequence(node):
            return "is empty"
        elements = getattr(node, "elts", None)
        if elements is None:
            return None  # a comprehension
        for index, element in enumerate(elements):
            element_kind = literal_kind(element)
            if element_kind is None:
                continue
            if element_kind != "str":
                return f"holds {kind_word(element_kind)} at [{index}], not a column name"
            if is_blank_text(element):
                return f"holds an empty column name at [{index}]"
        return None
    return f"is {kind_word(kind)}, not a list"


class RenderWithoutDefault(Rule):
    """
    ## What it does
    Reports a `render` hint without a `default` presentation (missing, empty, or not a
    string), or with `columns` that are empty, not a list, or hold an empty name. A
    `render` that is not a dict is reported too.

    ## Why is this bad?
    A UI reads `render.default` first ('table', 'chart', 'prose'); without it the hint
    says nothing it can use. An empty column list hides every column. The mint refuses
    both at run time. Leave `columns` out to show every column.
    """

    code = "SEM502"
    name = "render-without-default"
    judges = Selector(
        calls=frozenset({"described_result"}),
        parts=frozenset({"described_result", "render"}),
        keys=frozenset({("described_result", "render"), ("render", "default"), ("render", "columns")}),
        statuses=DATA_KEYS,
        named=frozenset({"render"}),
        refusals=(
            Claim(
                frozenset({"described_result"}),
                VALUE_FAULTS,
                ("render", frozenset({"default", "columns"})),
                deeper=True,
            ),
            Claim(frozenset({"described_result"}), frozenset({WRONG_TYPE}), ("render",)),
        ),
    )

    VALID = (
        Valid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                    render={"default": "table", "columns": ["entity", "os"], "sort": "entity"},
                )
            """
        ),
        Valid(
            """
            def saved(rows):
                # A hand-built wire envelope is not a declaration.
                return {"af_semantics": True, "facts": rows, "render": {"columns": []}}
            """
        ),
        Valid(
            """
            def tool(export, columns, hint):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                    render={"columns": columns, **hint},
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
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                    render={"columns": ["entity", "os"]},
                )
            """,
            line=5,
            column=15,
            field="default",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                    render=dict(default="table", columns=[]),
                )
            """,
            line=5,
            column=45,
            field="render.columns",
        ),
        Invalid(
            """
            NO_COLUMNS = ()

            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                    render={"default": " ", "columns": NO_COLUMNS},
                )
            """,
            codes=("SEM502", "SEM502"),
            field="render.default",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                    render="table",
                )
            """,
            field="render",
        ),
        Invalid(
            """
            TABLE = dict(columns=["entity", "os"])

            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                    render=TABLE,
                )
            """,
            line=7,
            column=15,
            field="TABLE = dict(",
        ),
    )

    def visit_part(self, check: Check, part: Part) -> None:
        if part.kind != "render" or keys_in_doubt(part) or part.has("default"):
            return
        check.report(
            part,
            "`render` has no `default`",
            help="name the default presentation ('table', 'chart', 'prose', ...)",
        )

    def visit_field(self, check: Check, field: Field) -> None:
        if field.part.kind == "described_result":
            report_wrong_kind(
                check,
                field,
                field.path,
                ("dict",),
                help="give {'default': 'table', 'columns': [...]}, or leave render out",
            )
            return
        value = follow(check.call, field.value_ast)
        if value is None:
            return
        where = f"`{field.path}`"
        if field.name == "default":
            kind = literal_kind(value.node)
            if kind is None:
                return
            if kind != "str":
                problem = f"is {kind_word(kind)}, not a string"
            elif is_blank_text(value.node):
                problem = "is empty"
            else:
                return
            check.report(
                field.value_ast,
                f"{where} {problem}",
                help=f"name the default presentation ('table', 'chart', 'prose', ...){value.bound}",
            )
            return
        column_problem = _column_problem(value.node)
        if column_problem is not None:
            check.report(
                field.value_ast,
                f"{where} {column_problem}",
                help="give a non-empty list of column names, or leave columns out to show every "
                f"column{value.bound}",
            )


CLARIFY_RENDER_RULES: tuple[type[Rule], ...] = (ClarifyWithoutQuestion, RenderWithoutDefault)
