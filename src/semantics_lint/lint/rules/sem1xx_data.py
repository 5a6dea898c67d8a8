"""SEM1xx: whether a declaration declares anything, and whether its data is empty.

A described result must declare something (SEM104), and its data fields are never
provably empty (SEM105: that is ``absent()``'s job). What its rows hold is
``sem1xx_rows`` (SEM106).
"""

from __future__ import annotations

import ast

from semantics_lint import vocabulary
from semantics_lint.lint.calls.declaration import Declaration, Field
from semantics_lint.lint.calls.verdicts import EMPTY, SAYS_NOTHING, closest_field
from semantics_lint.lint.rules.base import (
    DATA_FIELD_KEYS,
    DATA_KEYS,
    Check,
    Claim,
    Invalid,
    Rule,
    Selector,
    Valid,
)
from semantics_lint.lint.rules.emptiness import empty_data

# Which nested part holds a field that was written one level too high.


class EmptyDeclaration(Rule):
    """
    ## What it does
    Reports a `described_result(...)` that declares nothing: no `series`, `facts`
    or `edges`, and no `clarify` (or `clarify=None`).

    ## Why is this bad?
    A described result carries data, or hands a question back with `clarify`.
    One with neither is refused at run time. If the search found nothing, that is
    an answer of its own: return `absent(what=..., checked=...)`.

    ## Known problems
    Nothing is reported when the call spreads a dict (`**decl`) or passes a
    declaration the linter cannot see.
    """

    code = "SEM104"
    name = "empty-described-result"
    judges = Selector(
        calls=frozenset({"described_result"}),
        refusals=(Claim(frozenset({"described_result"}), frozenset({SAYS_NOTHING})),),
    )

    VALID = (
        Valid(
            """
            def tool(matches):
                return described_result(clarify={"question": "Which customer?", "candidates": matches})
            """
        ),
        Valid(
            """
            def tool(decl):
                return described_result(**decl)
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(provenance={"measuredAt": export.at, "source": "cmdb"})
            """,
            line=2,
            column=11,
            field="described_result",
        ),
        Invalid(
            """
            def tool():
                return describedResult(clarify=None)
            """,
            field="clarify",
        ),
    )

    def visit_declaration(self, check: Check, declaration: Declaration) -> None:
        top = declaration.top
        if top.open:
            return
        if any(top.has(name) for name in vocabulary.DATA_FIELDS):
            return
        clarify = top.get("clarify")
        if clarify is not None and not (
            isinstance(clarify.value_ast, ast.Constant) and clarify.value_ast.value is None
        ):
            return
        for item in top.fields:
            # A misspelled data field is one mistake, reported as SEM101 only.
            if item.status == "unknown" and closest_field(item.spelled, top.allowed) in (
                *vocabulary.DATA_FIELDS,
                "clarify",
            ):
                return
        said = " (clarify=None asks nothing)" if clarify is not None else ""
        check.report(
            declaration.call.func_node,
            f"{top.title} declares nothing{said}",
            help="give it series, facts, edges or a clarify question; if nothing matched, "
            "return absent(what=..., checked=...) instead",
        )


class EmptyDataLiteral(Rule):
    """
    ## What it does
    Reports `facts`, `series` or `edges` that is provably empty where the mint gets
    it:

    - an empty literal, `[]`, `()`, `list()` or `tuple()`, a comprehension or
      generator over a provably empty iterable (`[{...} for h in []]`,
      `list(h for h in ())`), written in the call (or bound by a walrus there,
      `facts=(rows := [])`) or reached as "Values the linter follows" says: bound to
      the name the call gives (`rows = []` then `facts=rows`, through an alias
      `rows = changes`), `FIXTURE["rows"]`, a class constant;
    - an arm of a conditional expression that is an empty literal, or an `or` whose
      last operand is one: `rows if rows else []`, `[] if not rows else rows`,
      `rows or []` (reported at the empty arm, or at the name bound to such a value);
    - a name read in a branch whose test proves it empty or false: the body of
      `if not rows:`, `if len(rows) == 0:` (`0 == len(rows)`, `not len(rows)`),
      `if rows == []:` (or `()`); the `else` of `if rows:`, `if len(rows):`,
      `if len(rows) != 0:`, `if len(rows) > 0:`, `if rows != []:`; an `and` of
      tests in its body, an `or` of tests in its `else`; the same tests in a
      conditional expression; a walrus in the test (`if not (rows := fetch()):`);
    - a name read after a guard in the same block: an `if` whose body always
      leaves (`return`, `raise`, `continue`, `break` on every way through it)
      when one of those tests says the name is true (`if rows: return ...`,
      `if len(rows) > 0: raise ...`), or whose `else` always leaves when it says
      the name is false;
    - a name read in `case []:` (or `case ()`, `case [] | ()`, guarded or not) of
      `match rows:`: only an empty sequence matches it.

    ## Why is this bad?
    An empty list is not "nothing matched": the data lists of a described result
    are never empty, and the mint refuses one. When the search matched nothing,
    return `absent(what=..., checked=...)`, which tells the model that the look
    happened, what ground it covered, and that asking again returns the same.
    Write both branches: `described_result(...) if rows else absent(...)`.

    In a branch where `rows` is false, it may also be `None`, `0` or `""` rather
    than an empty list: the mint refuses every false value of a data field, so the
    branch is refused whatever `rows` holds.

    ## Known problems
    Nothing is reported when the value may change between where it is proved empty
    and the call: a name bound twice in its scope, declared `global` or `nonlocal`,
    changed in place anywhere it is read (`rows.append(r)`, `rows += more`,
    `rows.extend(...)`, `rows[:] = ...`, `fill(rows)`, an alias), rebound or used
    otherwise inside the branch or between a guard and the use (a loop around the
    use that rebinds it included), or read by another function that may run
    meanwhile, or by a function, lambda or generator expression written after the
    test (it runs later). Nor when the list may be reached through another name: the
    name read anywhere other than to be tested, measured, iterated or indexed (an
    alias `alias = rows`, a call it is handed to), unless the function returns or
    raises right after; or bound to a value read through another name
    (`rows = cache.rows`) whose name is read again other than in a declaration. A
    guard whose body may fall through (an `if` without `else` in it, a `try`, a
    loop, a `raise` in a `with` body) proves nothing; nor
    do `while` loops, `is None` tests, other comparisons (`len(rows) < 5`),
    patterns other than an empty sequence (`case [x]:`, `case _:`) and attributes
    (`self.rows`). A value whose truth or length disagrees with what it holds (an
    object that is false yet yields rows) would be misread.
    """

    code = "SEM105"
    name = "empty-data-literal"
    judges = Selector(
        calls=frozenset({"described_result"}),
        parts=frozenset({"described_result"}),
        keys=DATA_FIELD_KEYS,
        statuses=DATA_KEYS,
        refusals=(
            Claim(
                frozenset({"described_result"}),
                frozenset({EMPTY}),
                (frozenset(vocabulary.DATA_FIELDS),),
            ),
        ),
    )

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import absent

            def tool(vm, rows, export):
                if not rows:
                    return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
                return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "x"})
            """
        ),
        Valid(
            """
            def tool(export):
                # A list that grows is not provably empty.
                rows = []
                for row in export.rows:
                    rows.append(row)
                more = []
                more += export.rows
                return described_result(facts=rows, edges=more, provenance={"measuredAt": export.at, "source": "x"})
            """
        ),
        Valid(
            """
            def first(export):
                rows = []  # another function's rows
                return rows

            def tool(export):
                rows = export.rows
                return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "x"})
            """
        ),
        Valid(
            """
            def tool(export):
                rows = export.rows

                def empty():
                    rows = []  # the nested function's own rows
                    return rows

                return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "x"})
            """
        ),
        Valid(
            """
            def tool(rows, export):
                prov = {"measuredAt": export.at, "source": "x"}
                if rows is None or len(rows) < 5:
                    return described_result(facts=rows, provenance=prov)
                if not rows:
                    rows = export.fallback_rows  # rebound in the branch
                    return described_result(facts=rows, provenance=prov)
                if not rows:
                    rows.extend(export.fallback_rows)  # changed in the branch
                    return described_result(facts=rows, provenance=prov)
                while not rows:
                    return described_result(facts=rows, provenance=prov)
                return described_result(facts=rows if rows else [{"entity": "none"}], provenance=prov)
            """
        ),
        Valid(
            """
            def tool(found, export):
                # The spread may replace the empty list: its value proves nothing.
                return described_result({"facts": [], **found, "provenance": {"measuredAt": export.at, "source": "x"}})
            """
        ),
        Valid(
            """
            def tool(rows, export):
                prov = {"measuredAt": export.at, "source": "x"}
                if rows:
                    log(rows)  # falls through: `rows` may be true below
                return described_result(facts=rows, provenance=prov)

            def cached(rows, export):
                prov = {"measuredAt": export.at, "source": "x"}
                if rows:
                    return described_result(facts=rows, provenance=prov)
                rows = export.cached_rows  # rebound after the guard
                return described_result(facts=rows, provenance=prov)
            """
        ),
        Valid(
            """
            def tool(rows, export):
                prov = {"measuredAt": export.at, "source": "x"}
                match rows:
                    case [first, *rest]:
                        return described_result(facts=[first, *rest], provenance=prov)
                    case _:
                        return described_result(facts=rows, provenance=prov)
            """
        ),
        Valid(
            """
            def tool(e, more):
                rows = e.rows
                alias = rows
                if not rows:
                    alias.extend(more)  # the list is filled through its alias
                    return described_result(facts=rows, provenance={"measuredAt": e.at, "source": "x"})
                return absent(what="events", checked=["syslog"])
            """
        ),
        Valid(
            """
            def tool(feed, export):
                if alerts := [{"entity": a.id} for a in feed if a.severe]:
                    return described_result(facts=alerts, provenance={"measuredAt": export.at, "source": "x"})
                return absent(what="severe alerts", checked=["the feed"])
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(facts=[], provenance={"measuredAt": export.at, "source": "x"})
            """,
            line=2,
            column=34,
            field="facts",
        ),
        Invalid(
            """
            def tool(export):
                return described_result({"series": list(), "edges": ()})
            """,
            codes=("SEM105", "SEM105"),
            field="series",
        ),
        Invalid(
            """
            def tool(export):
                rows = []
                return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "x"})

            def other(export):
                rows = export.rows  # another function's rows: not the one above
                rows.append({"entity": "x"})
                return rows
            """,
            line=3,
            column=34,
            field="rows = [] (line 2)",
        ),
        Invalid(
            """
            def tool(rows, export):
                if not rows:
                    return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "x"})
                return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "x"})
            """,
            line=3,
            column=38,
            field="line 2 tests `not rows`",
        ),
        Invalid(
            """
            def tool(rows, export):
                prov = {"measuredAt": export.at, "source": "x"}
                if len(rows) == 0:
                    return described_result(facts=rows, provenance=prov)
                if rows:
                    return described_result(facts=rows, provenance=prov)
                else:
                    return described_result(series=rows, provenance=prov)
            """,
            codes=("SEM105", "SEM105"),
            line=4,
            column=38,
            field="len(rows) == 0",
        ),
        Invalid(
            """
            def tool(rows, export):
                return described_result(facts=rows if rows else [], provenance={"measuredAt": export.at, "source": "x"})
            """,
            line=2,
            column=52,
            field="when `rows` is false",
        ),
        Invalid(
            """
            def tool(rows, export):
                data = [] if not rows else rows
                return described_result(facts=data, provenance={"measuredAt": export.at, "source": "x"})
            """,
            line=3,
            column=34,
            field="when `not rows` is true",
        ),
        Invalid(
            """
            def tool(rows, export):
                prov = {"measuredAt": export.at, "source": "x"}
                if len(rows) > 0:
                    log.info("%d rows", len(rows))
                    return described_result(facts=rows, provenance=prov)
                return described_result(facts=rows, provenance=prov)
            """,
            line=6,
            column=34,
            field="line 3 leaves when `len(rows) > 0` is true",
        ),
        Invalid(
            """
            def tool(rows, export):
                match rows:
                    case []:
                        return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "x"})
                    case [row]:
                        return described_result(facts=[row], provenance={"measuredAt": export.at, "source": "x"})
            """,
            line=4,
            column=42,
            field="only when it is an empty sequence",
        ),
        Invalid(
            """
            def tool(export):
                changes: list[dict] = []
                rows = changes
                return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "x"})
            """,
            line=4,
            column=34,
            field="`facts` is empty",
        ),
        Invalid(
            """
            def tool(feed, export):
                if not (alerts := [a for a in feed if a.severe]):
                    return described_result(facts=alerts, provenance={"measuredAt": export.at, "source": "x"})
                return absent(what="x", checked=["y"])
            """,
            line=3,
            column=38,
            field="line 2 tests `not (alerts := [a for a in feed if a.severe])`",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=[{"entity": h} for h in ()], provenance={"measuredAt": export.at, "source": "x"})
            """,
            line=2,
            column=34,
            field="`facts` is empty",
        ),
    )

    def visit_field(self, check: Check, field: Field) -> None:
        for empty in empty_data(check.call, field.value_ast):
            where = f" ({empty.bound})" if empty.bound else ""
            if not empty.when:
                check.report(
                    empty.at,
                    f"`{field.path}` is empty",
                    help='an empty list is not "nothing matched"; return absent(what=..., checked=...) '
                    f"instead{where}",
                )
                continue
            check.report(
                empty.at,
                f"`{field.path}` is empty {empty.when}",
                help="the mint refuses an empty (or false) data list; when nothing matched, "
                f"return absent(what=..., checked=...) there instead{where}",
            )


DATA_RULES: tuple[type[Rule], ...] = (
    EmptyDeclaration,
    EmptyDataLiteral,
)
