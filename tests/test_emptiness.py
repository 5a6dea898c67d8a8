"""SEM105 beyond the literal: names followed in their scope, branches that prove a data
list empty, conditional arms; and the runtime fact the branches rely on."""

from __future__ import annotations

import textwrap

import pytest

from semantics_lint.lint.engine import lint_source
from semantics_lint.runtime.judge import refusal_of
from semantics_lint.vocabulary import DATA_FIELDS

PROV = '{"measuredAt": export.at, "source": "x"}'
GRAIN = {"interval": "daily", "aggregation": "max", "isCounter": False}


@pytest.mark.parametrize("field", DATA_FIELDS)
@pytest.mark.parametrize(
    "value",
    [None, [], (), set(), frozenset(), {}, "", b"", 0, 0.0, False, range(0)],
    ids=repr,
)
def test_the_mint_refuses_every_false_value_of_a_data_field(field: str, value: object) -> None:
    """What lets a branch where ``rows`` is merely false be reported: whatever false
    value it holds there, the mint refuses it."""
    fields = {field: value, "provenance": {"measuredAt": "2024-05-01T00:00:00Z", "source": "x"}}
    if field == "series":
        fields["grain"] = GRAIN
    assert refusal_of("described_result", (), fields) is not None


def _sem105(source: str) -> list[tuple[int, int, str]]:
    text = "from semantics_lint.runtime import absent, described_result\n" + textwrap.dedent(source).lstrip("\n")
    return [
        (f.start.line - 1, f.start.column, f.message)
        for f in lint_source(text.encode("utf-8"), "tool.py")
        if f.code == "SEM105"
    ]


REPORTED = [
    pytest.param(
        f"""
        def tool(rows, export):
            if export.ok and not rows:
                return described_result(facts=rows, provenance={PROV})
        """,
        3,
        id="and-in-the-body",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows or export.cached:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        5,
        id="or-in-the-else",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows:
                pass
            elif export.ok:
                return described_result(facts=rows, provenance={PROV})
        """,
        5,
        id="elif-under-the-else",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if not len(rows):
                if export.ok:
                    return described_result(facts=rows, provenance={PROV})
        """,
        4,
        id="nested-if-not-len",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if 0 == len(rows):
                return described_result(facts=rows, provenance={PROV})
        """,
        3,
        id="zero-equals-len",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if len(rows) > 0:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        5,
        id="else-of-len-greater-than-zero",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if [] == rows:
                return described_result(facts=rows, provenance={PROV})
        """,
        3,
        id="empty-list-equals",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows != ():
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        5,
        id="else-of-not-equal-to-empty-tuple",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            return described_result(facts=rows, provenance={PROV}) if not rows else None
        """,
        2,
        id="conditional-expression-around-the-call",
    ),
    pytest.param(
        f"""
        def tool(batches, export):
            for rows in batches:
                if not rows:
                    return described_result(facts=rows, provenance={PROV})
        """,
        4,
        id="loop-variable-tested-in-the-loop",
    ),
    pytest.param(
        f"""
        ROWS = load()

        if not ROWS:
            RESULT = described_result(facts=ROWS, provenance={PROV})
        """,
        4,
        id="module-level",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if not rows:
                log(absent(what="x", checked=rows))
                return described_result(facts=rows, provenance={PROV})
        """,
        4,
        id="read-by-a-declaration-in-between",
    ),
    pytest.param(
        f"""
        def tool(export):
            rows = export.rows

            def other():
                rows = []  # its own
                rows.append(1)

            if not rows:
                return described_result(facts=rows, provenance={PROV})
        """,
        9,
        id="shadowed-in-a-nested-function",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            return described_result(facts=rows or [], provenance={PROV})
        """,
        2,
        id="or-empty",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            return described_result(facts=rows if rows else (export.cached if export.cached else ()), provenance={PROV})
        """,
        2,
        id="nested-conditional",
    ),
    pytest.param(
        f"""
        def tool(export):
            rows = []
            return described_result(facts=rows, provenance={PROV})

        class Loader:
            rows = []

            def load(self, row):
                rows = self.rows
                rows.append(row)
        """,
        3,
        id="bound-again-in-a-class-and-a-method",
    ),
]


@pytest.mark.parametrize(("source", "line"), REPORTED)
def test_reported(source: str, line: int) -> None:
    found = _sem105(source)
    assert [at for at, _, _ in found] == [line], found


CLEAN = [
    pytest.param(
        f"""
        def tool(rows, export):
            if not rows or export.ok:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="or-in-the-body",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows and export.ok:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="and-in-the-else",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if not rows:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="the-other-branch",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if not (rows := export.fetch()):
                return described_result(facts=rows, provenance={PROV})
        """,
        id="walrus-in-the-test",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if not rows:
                for rows in export.batches:
                    pass
                return described_result(facts=rows, provenance={PROV})
        """,
        id="loop-target-in-the-branch",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            def fill():
                rows.append(export.row)

            if not rows:
                fill()
                return described_result(facts=rows, provenance={PROV})
        """,
        id="grown-by-a-nested-function",
    ),
    pytest.param(
        f"""
        ROWS = []

        def fill(row):
            ROWS.append(row)

        if not ROWS:
            load(fill)
            RESULT = described_result(facts=ROWS, provenance={PROV})
        """,
        id="module-name-grown-by-a-function",
    ),
    pytest.param(
        f"""
        ROWS = load()

        def refresh():
            global ROWS
            ROWS = load()

        if not ROWS:
            refresh()
            RESULT = described_result(facts=ROWS, provenance={PROV})
        """,
        id="module-name-rebound-by-a-global",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if not rows:
                return lambda: described_result(facts=rows, provenance={PROV})
            rows = export.rows
        """,
        id="lambda-in-the-branch",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if not rows:
                def later():
                    return described_result(facts=rows, provenance={PROV})
                return later
        """,
        id="function-defined-in-the-branch",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if not export.rows:
                return described_result(facts=rows, provenance={PROV})
            if not export.rows:
                return described_result(facts=export.rows, provenance={PROV})
        """,
        id="another-name-and-an-attribute",
    ),
    pytest.param(
        f"""
        def len(value):
            return 1

        def tool(rows, export):
            if len(rows) == 0:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="len-is-not-the-builtin",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if len(rows) == 1 or len(rows) >= 0 or rows == [None]:
                return described_result(facts=rows, provenance={PROV})
            if rows is not None:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="tests-that-prove-nothing",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if 0 > len(rows):
                return described_result(facts=rows, provenance={PROV})
        """,
        id='body-of-0>len(rows)',
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if 0 > len(rows):
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id='else-of-0>len(rows)',
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if len(rows) < 5:
                return described_result(facts=rows, provenance={PROV})
        """,
        id='body-of-len(rows)<5',
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if len(rows) < 5:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id='else-of-len(rows)<5',
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if len(rows) == 1:
                return described_result(facts=rows, provenance={PROV})
        """,
        id='body-of-len(rows)==1',
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if len(rows) == 1:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id='else-of-len(rows)==1',
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows == [None]:
                return described_result(facts=rows, provenance={PROV})
        """,
        id='body-of-rows==[None]',
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows == [None]:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id='else-of-rows==[None]',
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if len(rows) >= 0:
                return described_result(facts=rows, provenance={PROV})
        """,
        id='body-of-len(rows)>=0',
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if len(rows) >= 0:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id='else-of-len(rows)>=0',
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows == 0:
                return described_result(facts=rows, provenance={PROV})
        """,
        id='body-of-rows==0',
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows == 0:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id='else-of-rows==0',
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows is None:
                return described_result(facts=rows, provenance={PROV})
        """,
        id='body-of-rowsisNone',
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows is None:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id='else-of-rowsisNone',
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            return described_result(
                facts=rows if rows else [{{"entity": "none"}}],
                series=[] if False else rows,
                provenance={PROV},
            )
        """,
        id="non-empty-fallback-and-dead-arm",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            return described_result(facts=[] or rows, provenance={PROV})
        """,
        id="empty-first-operand-of-or",
    ),
    pytest.param(
        f"""
        def tool(export):
            rows = []
            rows.insert(0, export.row)
            return described_result(facts=rows, provenance={PROV})
        """,
        id="list-that-grows",
    ),
    pytest.param(
        f"""
        def tool(export):
            rows = []

            def inner():
                nonlocal rows
                rows = export.rows

            inner()
            return described_result(facts=rows, provenance={PROV})
        """,
        id="nonlocal",
    ),
]


CLEAN.extend(
    [
        pytest.param(
            f"""
            def tool(rows, export):
                data = rows if rows else []
                data.append({{"entity": "default"}})
                return described_result(facts=data, provenance={PROV})
            """,
            id="conditional-bound-to-a-name-that-grows",
        ),
        pytest.param(
            f"""
            def tool(rows, export):
                data = rows or []
                fill(data)
                return described_result(facts=data, provenance={PROV})
            """,
            id="or-bound-to-a-name-handed-to-a-call",
        ),
    ]
)


@pytest.mark.parametrize("source", CLEAN)
def test_clean(source: str) -> None:
    assert _sem105(source) == []


def test_a_branch_finding_says_which_test_proves_it() -> None:
    [(line, column, message)] = _sem105(
        f"""
        def tool(rows, export):
            if rows:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """
    )
    assert (line, column) == (5, 38)
    assert message == "`facts` is empty in this branch (line 3 tests `rows`, false here)"


def test_a_conditional_arm_is_reported_where_it_is_written() -> None:
    [(line, column, message)] = _sem105(
        f"""
        def tool(rows, export):
            return described_result(facts=[] if not rows else rows, provenance={PROV})
        """
    )
    assert (line, column) == (2, 34)
    assert message == "`facts` is empty when `not rows` is true"
