"""SEM1xx: whether a declaration declares anything, and its literal data rows.

A described result must declare something (SEM104), its data fields are never empty
literals (SEM105: that is ``absent()``'s job), and each literal row holds what the
mint needs (SEM106).
"""

from __future__ import annotations

import ast

from semantics_lint import vocabulary
from semantics_lint.lint.calls.declaration import Declaration, Field, Row
from semantics_lint.lint.calls.verdicts import (
    EMPTY,
    SAYS_NOTHING,
    VALUE_FAULTS,
    closest_field,
    json_problem,
)
from semantics_lint.lint.core.syntax import UNKNOWN, literal_value
from semantics_lint.lint.rules.base import (
    ANY,
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
        refusals=(
            Claim(frozenset({"described_result"}), frozenset({SAYS_NOTHING})),
        ),
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

    - an empty literal, `[]`, `()`, `list()` or `tuple()`, written in the call or
      bound to the name the call gives (`rows = []` then `facts=rows`), followed in
      the scope Python looks the name up in;
    - an arm of a conditional expression that is an empty literal, or an `or` whose
      last operand is one: `rows if rows else []`, `[] if not rows else rows`,
      `rows or []` (reported at the empty arm, or at the name bound to such a value);
    - a name read in a branch whose test proves it empty or false: the body of
      `if not rows:`, `if len(rows) == 0:` (`0 == len(rows)`, `not len(rows)`),
      `if rows == []:` (or `()`); the `else` of `if rows:`, `if len(rows):`,
      `if len(rows) != 0:`, `if len(rows) > 0:`, `if rows != []:`; an `and` of
      tests in its body, an `or` of tests in its `else`; the same tests in a
      conditional expression;
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
    test (it runs later). A guard whose body may fall through (an `if` without
    `else` in it, a `try`, a loop, a `raise` in a `with` body) proves nothing; nor
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
        keys=frozenset(("described_result", name) for name in vocabulary.DATA_FIELDS),
        statuses=DATA_KEYS,
        refusals=(
            Claim(frozenset({"described_result"}), frozenset({EMPTY}), (frozenset(vocabulary.DATA_FIELDS),)),
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


def _is_text(value: object) -> bool:
    return vocabulary.is_non_empty_string(value)


def _is_instant(value: object) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


# Per data field: the required keys, and which of them must be non-empty strings.
_TEXT_KEYS = {"facts": ("entity",), "series": ("entity", "metric"), "edges": ("from", "to", "kind")}
# Expressions that are never a literal: ``literal_value`` says UNKNOWN for them only
# after ``ast.literal_eval`` raised, which costs more than the rest of the row's check.
_NEVER_LITERAL = (ast.Name, ast.Attribute, ast.JoinedStr, ast.Subscript)


def _row_value(node: ast.expr) -> object:
    """``literal_value(node)``, without asking it about names, attributes, f-strings and
    subscripts (UNKNOWN)."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, _NEVER_LITERAL):
        return UNKNOWN
    return literal_value(node)
_ROW_WORD = {"facts": "a fact", "series": "a point", "edges": "an edge"}


class UnhonourableRow(Rule):
    """
    ## What it does
    Reports a literal data row that cannot be honoured: a fact without a non-empty
    `entity`, a series point without `t`, `entity`, `metric` and `value`, an edge
    without non-empty `from`, `to` and `kind`, or a row that is not a dict at all.
    Rows built by a comprehension are checked too, by their keys. A literal row that
    JSON cannot carry is reported too: a tuple or bytes key, two keys that are one once
    written (`1` and `"1"`), a set or bytes value, an int past 1024 bits.

    ## Why is this bad?
    Every row says what it is about: a fact or point without an entity, or an edge
    without its ends and kind, cannot be read by the model or drawn by a UI, and
    the mint refuses the whole result at run time. A result travels as JSON: the
    mint refuses a row JSON cannot carry where it is called.

    ## Known problems
    A row that spreads another dict (`{**base, ...}`) is only checked for the values
    it spells out.
    """

    code = "SEM106"
    name = "unhonourable-data-row"
    judges = Selector(
        calls=frozenset({"described_result"}),
        refusals=(
            Claim(frozenset({"described_result"}), VALUE_FAULTS, (frozenset(vocabulary.DATA_FIELDS), ANY), deeper=True),
        ),
    )

    VALID = (
        Valid(
            """
            def tool(vm, runs, export):
                return described_result(
                    facts=[{"entity": vm, "runs_seen": len(runs)}],
                    series=[{"t": r.day, "entity": vm, "metric": "backup_runs_ok", "value": r.ok} for r in runs],
                    edges=[{"from": vm, "to": "ds-7", "kind": "rides"}],
                    grain={"interval": "daily", "aggregation": "count", "isCounter": False},
                    provenance={"measuredAt": export.at, "source": "backup export"},
                )
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=[{"entity": "vm-01"}, {"name": "vm-02", "state": "up"}],
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                )
            """,
            line=3,
            column=36,
            field="facts[1]",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=[{"entity": "  "}],
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                )
            """,
            line=3,
            column=26,
            field="entity",
        ),
        Invalid(
            """
            def tool(vm, runs, export):
                return described_result(
                    series=[{"t": r.day, "entity": vm, "value": r.ok} for r in runs],
                    grain={"interval": "daily", "aggregation": "count", "isCounter": False},
                    provenance={"measuredAt": export.at, "source": "backup export"},
                )
            """,
            field="metric",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    edges=[{"from": "vm-01", "to": "ds-7"}, "vm-02 -> ds-7"],
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                )
            """,
            codes=("SEM106", "SEM106"),
            field="kind",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=[{"entity": "vm-01", "tags": {"prod", "eu"}}],
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                )
            """,
            line=3,
            column=15,
            field="tags",
        ),
    )

    def visit_row(self, check: Check, row: Row) -> None:
        word = _ROW_WORD[row.data_field]
        if not row.mapping:
            if literal_value(row.node) is not UNKNOWN:
                check.report(row, f"`{row.path}` is not a row", help=f"{word} is a dict")
            return
        problems: list[tuple[str, ast.expr | None]] = []
        required = vocabulary.ROW_REQUIRED_FIELDS[row.data_field]
        text_keys = _TEXT_KEYS[row.data_field]
        for key in required:
            found = row.keys.get(key)
            if found is None:
                if not row.open:
                    problems.append((f"no `{key}`", None))
                continue
            if key not in text_keys and key != "t":
                continue  # present is all that is asked of it (a point's value)
            value = _row_value(found[1])
            if value is UNKNOWN:
                continue
            if key in text_keys and not _is_text(value):
                problems.append((f"`{key}` is not a non-empty string", found[1]))
            elif key == "t" and not _is_instant(value):
                problems.append(("`t` is not a time (a string or a number)", found[1]))
        carried = _json_problem(row)
        if carried is not None:
            problems.append(carried)
        if not problems:
            return
        said = "; ".join(text for text, _ in problems)
        single = problems[0][1] if len(problems) == 1 else None
        needs = ", ".join(f"`{key}`" for key in required)
        check.report(
            single if single is not None else row,
            f"`{row.path}` cannot be honoured: {said}",
            help=f"{word} needs {needs}",
        )


def _json_problem(row: Row) -> tuple[str, ast.expr | None] | None:
    """What JSON cannot carry in a literal row (a tuple or bytes key, two keys that are
    one once written, a set or bytes value, an int past 1024 bits), as the mint says it."""
    if not isinstance(row.node, ast.Dict):
        return None
    probe: dict[object, object] = {}
    for key_node, value_node in zip(row.node.keys, row.node.values):
        key = UNKNOWN if key_node is None else _row_value(key_node)
        if key is UNKNOWN:
            continue  # a **spread or a computed key: what it holds is not read
        value = _row_value(value_node)
        try:
            probe[key] = None if value is UNKNOWN else value
        except TypeError:
            return None  # an unhashable key: Python itself refuses the row
    problem = json_problem(probe, row.path)
    return None if problem is None else (problem, None)


DATA_RULES: tuple[type[Rule], ...] = (
    EmptyDeclaration,
    EmptyDataLiteral,
    UnhonourableRow,
)
