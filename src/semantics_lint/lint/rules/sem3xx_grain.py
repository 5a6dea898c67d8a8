"""SEM3xx: grain — what one value of a series means, and whether it may be summed.

A series needs a grain (SEM301); an aggregation that reads like a counter needs
``isCounter`` stated (SEM302, through ``vocabulary.is_counter_looking_aggregation``,
whole tokens only); and a grain must say something, with ``isCounter`` a bool and its
strings non-empty (SEM303).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from semantics_lint import vocabulary
from semantics_lint.lint.calls.verdicts import COUNTER_UNSTATED, MISSING, VALUE_FAULTS
from semantics_lint.lint.rules.base import ANY, DATA_KEYS, Check, Claim, Invalid, Rule, Selector, Valid
from semantics_lint.lint.rules.values import (
    follow,
    followed_literal,
    is_blank_text,
    keys_in_doubt,
    kind_word,
    missing_in_doubt,
    report_wrong_kind,
    text_of,
)

if TYPE_CHECKING:
    from semantics_lint.lint.calls.declaration import Declaration, Field, Part

_GRAIN_TEXT_FIELDS: Final = ("interval", "aggregation", "collapsed")
_GRAIN: Final = frozenset({"grain"})


class SeriesWithoutGrain(Rule):
    """
    ## What it does
    Reports a `described_result(...)` that carries `series` and no `grain`. The
    finding is on the call's name.

    ## Why is this bad?
    A series point is one number; the grain says what it stands for (a daily count, an
    hourly average, a running total). Without it a reader sums counters, or compares a
    daily window with an hourly one. The mint refuses a series without grain at run
    time.

    ## Known problems
    Nothing is reported when the call spreads a dict (`**decl`), or holds a key that
    is not a field (it may be the grain misspelled, reported on its own).
    """

    code = "SEM301"
    name = "series-without-grain"
    judges = Selector(
        calls=frozenset({"described_result"}),
        refusals=(Claim(frozenset({"described_result"}), frozenset({MISSING}), ("grain",)),),
    )

    VALID = (
        Valid(
            """
            def tool(export):
                return described_result(
                    series=export.points,
                    grain={"interval": "daily", "aggregation": "mean"},
                    provenance={"measuredAt": export.at, "source": "unisphere"},
                )
            """
        ),
        Valid(
            """
            def tool(rows, export):
                # Facts need no grain.
                return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "cmdb"})
            """
        ),
        Valid(
            """
            def tool(export, extra):
                return described_result(series=export.points, provenance={"measuredAt": export.at, "source": "x"}, **extra)
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(pool, rows, export):
                return described_result(
                    series=[{"t": r.day, "entity": pool, "metric": "used_tib", "value": r.used} for r in rows],
                    provenance={"measuredAt": export.at, "source": "unisphere"},
                )
            """,
            line=2,
            column=11,
            field="grain",
        ),
        Invalid(
            """
            def tool(export):
                return described_result({"series": export.points, "provenance": {"measuredAt": "x", "source": "y"}})
            """,
            field="series",
        ),
    )

    def visit_declaration(self, check: Check, declaration: Declaration) -> None:
        top = declaration.top
        series = top.get("series")
        if series is None or top.has("grain") or missing_in_doubt(top, "grain"):
            return
        check.report(
            declaration.call.func_node,
            f"{check.call.spelled}(...) carries `{series.spelled}` with no `grain`",
            help="add grain={'interval': ..., 'aggregation': ..., 'isCounter': ...} so a reader "
            "knows what one value means and whether it may be summed",
        )


def _aggregation_text(field: Field) -> tuple[str, str] | None:
    """The aggregation's text and where it was bound (for the message), when provable."""
    value = follow(field.call, field.value_ast)
    if value is None:
        return None
    text = text_of(value.node)
    if text is None:
        return None
    return text, value.bound


class CounterAggregationUnstated(Rule):
    """
    ## What it does
    Reports a grain whose `aggregation` reads like a counter — a whole token `sum`,
    `count`, `total`, `cumulative`, `counter` or `delta`, singular or plural, in any
    case (`"Total jobs"`, `"count_per_host"`) — with no `isCounter`. The finding is on
    the aggregation's value.

    ## Why is this bad?
    A counter's values must never be added up: summing running totals double-counts.
    When the aggregation reads like one, the reader needs to be told whether it is;
    the mint refuses such a grain without `isCounter` at run time. `"summary"`,
    `"subtotal"` and `"counted_by_host"` do not read like counters: only whole tokens
    count.
    """

    code = "SEM302"
    name = "counter-aggregation-unstated"
    judges = Selector(
        calls=frozenset({"described_result"}),
        parts=_GRAIN,
        named=_GRAIN,
        refusals=(
            Claim(
                frozenset({"described_result"}),
                frozenset({COUNTER_UNSTATED}),
                ("grain",),
                deeper=True,
            ),
        ),
    )

    VALID = (
        Valid(
            """
            def tool(export):
                return described_result(
                    series=export.points,
                    grain={"interval": "daily", "aggregation": "count", "isCounter": False},
                    provenance={"measuredAt": export.at, "source": "cohesity"},
                )
            """
        ),
        Valid(
            """
            def tool(export):
                return described_result(
                    series=export.points,
                    grain={"interval": "daily", "aggregation": "summary"},
                    provenance={"measuredAt": export.at, "source": "cohesity"},
                )
            """
        ),
        Valid(
            """
            def tool(export):
                return described_result(
                    series=export.points,
                    grain={"aggregation": "counted_by_host"},
                    provenance={"measuredAt": export.at, "source": "x"},
                )
            """
        ),
        Valid(
            """
            def tool(export, aggregation):
                return described_result(
                    series=export.points,
                    grain={"interval": "daily", "aggregation": aggregation},
                    provenance={"measuredAt": export.at, "source": "x"},
                )
            """
        ),
        Valid(
            """
            def tool(export, flags):
                return described_result(
                    series=export.points,
                    grain={"aggregation": "subtotal", **flags},
                    provenance={"measuredAt": export.at, "source": "x"},
                )
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(cluster, export):
                return described_result(
                    series=export.points,
                    grain={"interval": "daily", "aggregation": "Total jobs"},
                    provenance={"measuredAt": export.at, "source": "cohesity"},
                )
            """,
            line=4,
            column=51,
            field="Total jobs",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    series=export.points,
                    grain=dict(interval="hourly", aggregation="count_per_host"),
                    provenance={"measuredAt": export.at, "source": "x"},
                )
            """,
            field="grain.aggregation",
        ),
        Invalid(
            """
            AGGREGATION = "sum of deltas"

            def tool(export):
                return described_result(
                    series=export.points,
                    grain={"interval": "daily", "aggregation": AGGREGATION},
                    provenance={"measuredAt": export.at, "source": "x"},
                )
            """,
            line=6,
            field='AGGREGATION = "sum of deltas" (line 1)',
        ),
        Invalid(
            """
            DAILY_JOBS = {"interval": "daily", "aggregation": "total jobs"}

            def tool(export):
                return described_result(
                    series=export.points,
                    grain=DAILY_JOBS,
                    provenance={"measuredAt": export.at, "source": "x"},
                )
            """,
            line=6,
            column=14,
            field="DAILY_JOBS = ",
        ),
    )

    def visit_part(self, check: Check, part: Part) -> None:
        if part.kind != "grain" or keys_in_doubt(part) or part.has("isCounter"):
            return
        aggregation = part.get("aggregation")
        if aggregation is None:
            return
        found = _aggregation_text(aggregation)
        if found is None:
            return
        text, bound = found
        if not vocabulary.is_non_empty_string(text) or not vocabulary.is_counter_looking_aggregation(text):
            return
        check.report(
            aggregation.value_ast,
            f"`{aggregation.path}` is {vocabulary.js_trim(text)!r} and `grain.isCounter` is not stated",
            help=f"{vocabulary.js_trim(text)!r} reads like a counter, and summing counters "
            f"double-counts; state isCounter=True or False{bound}",
        )


class GrainSaysNothing(Rule):
    """
    ## What it does
    Reports a grain that says nothing or says it wrongly: an empty grain (`{}`,
    `dict()`, `None`), an `isCounter` that is not a bool (`"false"`, `0`, `None`), or
    an `interval`, `aggregation` or `collapsed` that is empty or not a string.

    ## Why is this bad?
    A grain is read by the model before it sums or compares values. An empty one only
    looks like a declaration; `isCounter="false"` is a non-empty string, which reads as
    true almost everywhere; an empty interval says nothing. The mint refuses each of
    these at run time.
    """

    code = "SEM303"
    name = "grain-says-nothing"
    judges = Selector(
        calls=frozenset({"described_result"}),
        parts=frozenset({"described_result", "grain"}),
        keys=frozenset(
            {("described_result", "grain"), *(("grain", name) for name in vocabulary.GRAIN_FIELDS)}
        ),
        statuses=DATA_KEYS,
        named=_GRAIN,
        refusals=(
            Claim(
                frozenset({"described_result"}),
                VALUE_FAULTS - {MISSING, COUNTER_UNSTATED},
                ("grain",),
            ),
            Claim(
                frozenset({"described_result"}),
                VALUE_FAULTS - {COUNTER_UNSTATED},
                ("grain", ANY),
                deeper=True,
            ),
        ),
    )

    VALID = (
        Valid(
            """
            def tool(export, counter):
                return described_result(
                    series=export.points,
                    grain={"interval": "5m", "isCounter": counter},
                    provenance={"measuredAt": export.at, "source": "x"},
                )
            """
        ),
        Valid(
            """
            def tool(export, base):
                return described_result(series=export.points, grain={**base}, provenance={"measuredAt": export.at, "source": "x"})
            """
        ),
        Valid(
            """
            def saved(points):
                # A hand-built wire envelope is not a declaration.
                return {"af_semantics": True, "series": points, "grain": {"is_counter": "no"}}
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(
                    series=export.points,
                    grain={},
                    provenance={"measuredAt": export.at, "source": "x"},
                )
            """,
            line=4,
            column=14,
            field="grain",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    series=export.points,
                    grain={"aggregation": "count", "isCounter": "false"},
                    provenance={"measuredAt": export.at, "source": "x"},
                )
            """,
            line=4,
            column=52,
            field="grain.isCounter",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    series=export.points,
                    grain={"interval": "", "aggregation": "mean", "collapsed": None},
                    provenance={"measuredAt": export.at, "source": "x"},
                )
            """,
            codes=("SEM303", "SEM303"),
            field="grain.interval",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    series=export.points,
                    grain={"interval": "daily", "is_counter": 1},
                    provenance={"measuredAt": export.at, "source": "x"},
                )
            """,
            codes=("SEM102", "SEM303"),
            field="grain.is_counter",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(series=export.points, grain=None, provenance={"measuredAt": export.at, "source": "x"})
            """,
            field="grain",
        ),
    )

    def visit_part(self, check: Check, part: Part) -> None:
        if part.kind == "grain" and not part.fields and not part.open:
            check.report(
                part,
                "`grain` says nothing",
                help="state interval, aggregation, isCounter or collapsed, or leave grain out",
            )

    def visit_field(self, check: Check, field: Field) -> None:
        if field.part.kind == "described_result":
            report_wrong_kind(
                check,
                field,
                "grain",
                ("dict",),
                suffix=", which says nothing",
                help="give a dict of interval, aggregation, isCounter, collapsed, or leave grain out",
            )
            return
        found = followed_literal(check.call, field.value_ast)
        if found is None:
            return
        value, kind = found
        where = f"`{field.path}`"
        if field.name == "isCounter":
            if kind != "bool":
                check.report(
                    field.value_ast,
                    f"{where} is {kind_word(kind)}, not a bool",
                    help=f"state True or False (stated means a bool, never prose){value.bound}",
                )
            return
        if field.name not in _GRAIN_TEXT_FIELDS:
            return
        if kind != "str":
            check.report(
                field.value_ast,
                f"{where} is {kind_word(kind)}",
                help=f"it must be a non-empty string, or left out{value.bound}",
            )
        elif is_blank_text(value.node):
            check.report(
                field.value_ast,
                f"{where} is empty",
                help=f"say it (e.g. 'daily', 'mean'), or leave it out{value.bound}",
            )


GRAIN_RULES: tuple[type[Rule], ...] = (
    SeriesWithoutGrain,
    CounterAggregationUnstated,
    GrainSaysNothing,
)
