"""SEM406: ``coverage()``'s ``period`` instants are ISO 8601 with a zone, and ``inProgress``
needs ``checked``.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Final

from semantics_lint import vocabulary
from semantics_lint.lint.calls.verdicts import BAD_VALUE, EMPTY, MISSING, WRONG_TYPE, instant
from semantics_lint.lint.rules.base import ANY, Check, Claim, Invalid, Rule, Selector, Valid
from semantics_lint.lint.rules.values import (
    Value,
    data_field,
    follow,
    followed_literal,
    holds_no_ground,
    keys_in_doubt,
    kind_word,
    literal_kind,
    string_keys,
    text_of,
)

if TYPE_CHECKING:
    from semantics_lint.lint.calls.context import CallSite
    from semantics_lint.lint.calls.declaration import Declaration, Field, Part

_PERIOD: Final = frozenset({"period"})


def _instant_problem(call: CallSite, node: ast.expr) -> tuple[str, Value] | None:
    """Why an instant is provably not ISO 8601 with a zone, or None."""
    found = followed_literal(call, node)
    if found is None:
        return None
    value, kind = found
    text = text_of(value.node)
    if text is None:
        if kind == "str":
            return None  # an f-string: its parts are not known
        return f"is {kind_word(kind)}, not an ISO 8601 instant", value
    if instant(text) is None:
        return f"is {text!r}, not an ISO 8601 instant with a zone", value
    return None


_INSTANT_EXAMPLE: Final = "e.g. '2026-09-26T08:00:00Z' or '2026-09-26T10:00:00+02:00'"


class BadPeriodOrInProgress(Rule):
    """
    ## What it does
    Reports a `coverage(...)` `period` whose instants (`queried` and `held` spans'
    `from`/`to`, and `readAt`) are not ISO 8601 instants with a zone, a span whose
    `from` is after its `to`, a `held` that is neither a span nor `"unknown"`, a
    period without `queried` or `held`; and an `inProgress` list with no `checked`
    beside it.

    ## Why is this bad?
    An instant with no zone could be any of 24 hours, so the mint refuses it rather
    than guess. An item still in progress is ground the call read, so the call must
    name what it covered in `checked`. Both are refused at run time.
    """

    code = "SEM406"
    name = "bad-period-or-in-progress"
    judges = Selector(
        calls=frozenset({"coverage"}),
        parts=_PERIOD,
        named=_PERIOD,
        refusals=(
            Claim(
                frozenset({"coverage"}),
                frozenset({BAD_VALUE, WRONG_TYPE, MISSING}),
                ("period", ANY),
                deeper=True,
            ),
            Claim(frozenset({"coverage"}), frozenset({MISSING, EMPTY}), ("checked",)),
        ),
    )

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict, read_at):
                return coverage(
                    verdict,
                    checked=["SRDF pair state"],
                    period={
                        "queried": {"from": "2026-09-26T00:00:00Z", "to": "2026-09-26T08:00:00+02:00"},
                        "held": "unknown",
                        "readAt": read_at,
                    },
                    inProgress=["2 pair resyncs"],
                )
            """
        ),
        Valid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict, window, running, checked):
                return coverage(verdict, checked=checked, period={"queried": window, "held": window}, inProgress=running)
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict, end):
                return coverage(
                    verdict,
                    checked=["SRDF pair state"],
                    period={"queried": {"from": "2026-09-26T00:00:00", "to": end}, "held": "unknown"},
                )
            """,
            line=7,
            column=36,
            field="period.queried.from",
        ),
        Invalid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict):
                return coverage(verdict, inProgress=["2 pair resyncs"])
            """,
            line=4,
            column=29,
            field="inProgress",
        ),
        Invalid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict, window):
                return coverage(verdict, checked=["x"], period={"queried": window, "held": "2026-09-26"})
            """,
            field="period.held",
        ),
        Invalid(
            """
            from semantics_lint.runtime import coverage

            START = "2026-09-27T00:00:00Z"

            def tool(verdict):
                return coverage(
                    verdict,
                    checked=["x"],
                    period={"queried": {"from": START, "to": "2026-09-26T00:00:00Z"}, "held": "unknown"},
                )
            """,
            field="period.queried",
        ),
        Invalid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict, window):
                return coverage(verdict, checked=["x"], period={"queried": window})
            """,
            field="held",
        ),
    )

    def visit_part(self, check: Check, part: Part) -> None:
        if part.kind != "period":
            return
        if not keys_in_doubt(part):
            missing = [name for name in ("queried", "held") if not part.has(name)]
            if missing:
                said = " and ".join(f"`{name}`" for name in missing)
                check.report(
                    part,
                    f"`period` has no {said}",
                    help="a period says what the read asked for (queried: {'from', 'to'}) and "
                    "what the store holds (held: a span, or 'unknown')",
                )
        for field in part.fields:
            if not data_field(field):
                continue
            if field.name == "readAt":
                value = follow(check.call, field.value_ast)
                if value is not None and literal_kind(value.node) == "none":
                    continue  # None reads as "not given"
                self._instant(check, field.value_ast, field.path)
            elif field.name in ("queried", "held"):
                self._span(check, field)

    def _instant(self, check: Check, node: ast.expr, path: str) -> tuple[int, int] | None:
        """Report a bad instant; return the instant when it is a good literal one."""
        found = _instant_problem(check.call, node)
        if found is not None:
            problem, value = found
            check.report(
                node,
                f"`{path}` {problem}",
                help=f"write an ISO 8601 instant with a zone, {_INSTANT_EXAMPLE}{value.bound}",
            )
            return None
        followed = follow(check.call, node)
        text = text_of(followed.node) if followed is not None else None
        return instant(text) if text is not None else None

    def _span(self, check: Check, field: Field) -> None:
        where = f"`{field.path}`"
        found = followed_literal(check.call, field.value_ast)
        if found is None:
            return
        value, kind = found
        if field.name == "held" and kind == "str":
            if text_of(value.node) != vocabulary.PERIOD_HELD_UNKNOWN:
                check.report(
                    field.value_ast,
                    f"{where} is a string",
                    help="it must be a span {'from': ..., 'to': ...} or the literal 'unknown'" + value.bound,
                )
            return
        keyed = string_keys(value.node)
        if keyed is None:
            check.report(
                field.value_ast,
                f"{where} is {kind_word(kind)}",
                help="it must be a span {'from': ..., 'to': ...} of two instants"
                + (" or the literal 'unknown'" if field.name == "held" else "")
                + value.bound,
            )
            return
        if value.via is not None:
            return  # a span bound to a name: its instants have no place in the call
        keys, hidden = keyed
        span_fields = vocabulary.PERIOD_SPAN_FIELDS
        if not hidden and any(key not in span_fields for key in keys):
            hidden = True  # an unknown key may be the missing one misspelled
        instants: dict[str, tuple[int, int] | None] = {}
        for name in span_fields:
            if name in keys:
                instants[name] = self._instant(check, keys[name][1], f"{field.path}.{name}")
        missing = [name for name in span_fields if name not in keys]
        if missing and not hidden:
            check.report(
                field.value_ast,
                f"{where} has no {' and no '.join(f'`{name}`' for name in missing)}",
                help="a span is {'from': ..., 'to': ...}, two instants",
            )
            return
        start, end = instants.get("from"), instants.get("to")
        if start is not None and end is not None and start > end:
            check.report(
                field.value_ast,
                f"{where} runs backward",
                help="`from` is after `to`",
            )

    def visit_declaration(self, check: Check, declaration: Declaration) -> None:
        top = declaration.top
        progress = top.get("inProgress")
        if progress is None or keys_in_doubt(top):
            return
        value = follow(check.call, progress.value_ast)
        if value is None or not isinstance(value.node, (ast.List, ast.Tuple)):
            return
        if not any(not isinstance(element, ast.Starred) for element in value.node.elts):
            return
        checked = top.get("checked")
        if checked is not None and not holds_no_ground(check.call, checked):
            return
        check.report(
            progress,
            f"`{progress.path}` has no `checked` beside it",
            help="an item still running is ground the call read, so name what the read covered in `checked`",
        )


PERIOD_RULES: tuple[type[Rule], ...] = (BadPeriodOrInProgress,)
