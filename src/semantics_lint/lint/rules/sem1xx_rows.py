"""SEM106: what a data row must hold for the mint to honour it.

Each literal row of ``facts``, ``series`` or ``edges`` (written in the call, or behind a
name bound to rows written out) holds the keys its kind of row needs, and nothing JSON
cannot carry.
"""

from __future__ import annotations

import ast

from semantics_lint import vocabulary
from semantics_lint.lint.calls.declaration import Field, Row, data_rows
from semantics_lint.lint.calls.verdicts import VALUE_FAULTS, json_problem
from semantics_lint.lint.core.syntax import UNKNOWN, literal_value
from semantics_lint.lint.resolve import FOLLOWED
from semantics_lint.lint.rules.base import (
    ANY,
    DATA_FIELD_KEYS,
    DATA_KEYS,
    Check,
    Claim,
    Invalid,
    Rule,
    Selector,
    Valid,
)
from semantics_lint.lint.rules.values import followed_literal


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
    Rows built by a comprehension are checked too, by their keys. A literal row (a dict
    display or `dict(...)`) that JSON cannot carry is reported too: a tuple or bytes key, two keys that are one once
    written (`1` and `"1"`), a set or bytes value, an int past 1024 bits.

    Rows behind a name are judged as if written in the call: `facts=rows` where
    `rows` is provably bound to rows written out (`rows = [{...}, ...]` in the
    function, a module constant, a constant imported from the project), followed in
    the scope Python looks the name up in; the finding is at the name, and says where
    the rows were bound.

    ## Why is this bad?
    Every row says what it is about: a fact or point without an entity, or an edge
    without its ends and kind, cannot be read by the model or drawn by a UI, and
    the mint refuses the whole result at run time. A result travels as JSON: the
    mint refuses a row JSON cannot carry where it is called.

    ## Known problems
    A row that spreads another dict (`{**base, ...}`) is only checked for the values
    it spells out. Rows behind a name are left alone when the list may have changed
    before the call (the name bound twice, declared `global` or `nonlocal`, or used
    anywhere but in a declaration call: `rows.append(r)`, `rows[0]["entity"] = x`,
    `fill(rows)`, an alias), as every rule that follows a name leaves it.
    """

    code = "SEM106"
    name = "unhonourable-data-row"
    judges = Selector(
        calls=frozenset({"described_result"}),
        keys=DATA_FIELD_KEYS,
        statuses=DATA_KEYS,
        refusals=(
            Claim(
                frozenset({"described_result"}),
                VALUE_FAULTS,
                (frozenset(vocabulary.DATA_FIELDS), ANY),
                deeper=True,
            ),
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
        Valid(
            """
            def tool(vm, export):
                # A list changed after it was bound: what it holds at the call is unknown.
                rows = [{"name": vm}]
                rows[0]["entity"] = vm
                return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "cmdb"})
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
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=[dict(entity="vm-01", size=1j)],
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                )
            """,
            line=3,
            column=15,
            field="facts[0].size is a complex",
        ),
        Invalid(
            """
            HOSTS = [{"entity": "vm-01"}, {"name": "vm-02"}]

            def tool(export):
                return described_result(facts=HOSTS, provenance={"measuredAt": export.at, "source": "cmdb"})
            """,
            line=4,
            column=34,
            field='HOSTS = [{"entity": "vm-01"}, {"name": "vm-02"}] (line 1)',
        ),
    )

    def visit_row(self, check: Check, row: Row) -> None:
        found = _judged(row)
        if found is not None:
            message, help, at = found
            check.report(at if at is not None else row, message, help=help)

    def visit_field(self, check: Check, field: Field) -> None:
        """A data field given as a name bound to rows written out (``rows = [...]``,
        followed as every rule follows a value: ``FIXTURE["rows"]``, ``Fixture.ROWS``,
        ``(rows := [...])`` too): its rows judged as if written in the call, reported
        at the name."""
        value = field.value_ast
        if not isinstance(value, FOLLOWED) or isinstance(value, ast.JoinedStr):
            return  # written in the call (its rows are the declaration's), or not rows
        found = followed_literal(check.call, value)
        if found is None:
            return
        followed, _ = found
        for row in data_rows(field.name, followed.node):
            judged = _judged(row)
            if judged is not None:
                message, help, _ = judged
                check.report(value, message, help=help + followed.bound)


def _judged(row: Row) -> tuple[str, str, ast.expr | None] | None:
    """What cannot be honoured in ``row``: the message, the help, and the value to
    report at when one value alone is at fault; None when nothing is."""
    word = _ROW_WORD[row.data_field]
    if not row.mapping:
        if literal_value(row.node) is not UNKNOWN:
            return f"`{row.path}` is not a row", f"{word} is a dict", None
        return None
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
        return None
    said = "; ".join(text for text, _ in problems)
    single = problems[0][1] if len(problems) == 1 else None
    needs = ", ".join(f"`{key}`" for key in required)
    return f"`{row.path}` cannot be honoured: {said}", f"{word} needs {needs}", single


_PLAIN = (str, bool, type(None))


def _json_problem(row: Row) -> tuple[str, ast.expr | None] | None:
    """What JSON cannot carry in a literal row (a tuple or bytes key, two keys that are
    one once written, a set or bytes value, an int past 1024 bits), as the mint says it;
    a row written as ``dict(...)`` by its keywords."""
    node = row.node
    items: list[tuple[object, ast.expr]]
    if isinstance(node, ast.Dict):
        items = [
            (UNKNOWN if key is None else _row_value(key), value)
            for key, value in zip(node.keys, node.values, strict=True)
        ]
    elif isinstance(node, ast.Call):
        items = [(keyword.arg, keyword.value) for keyword in node.keywords if keyword.arg is not None]
    else:
        return None
    probe: dict[object, object] = {}
    plain = True  # only str keys, and str, bool or None values: JSON carries them all
    for key, value_node in items:
        if key is UNKNOWN:
            continue  # a **spread or a computed key: what it holds is not read
        value = _row_value(value_node)
        if value is UNKNOWN:
            value = None
        plain = plain and type(key) is str and type(value) in _PLAIN
        try:
            probe[key] = value
        except TypeError:
            return None  # an unhashable key: Python itself refuses the row
    if plain:
        return None
    problem = json_problem(probe, row.path)
    return None if problem is None else (problem, None)


ROW_RULES: tuple[type[Rule], ...] = (UnhonourableRow,)
