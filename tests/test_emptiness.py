"""SEM105 beyond the literal: names followed in their scope, branches that prove a data
list empty, conditional arms; and the runtime fact the branches rely on."""

from __future__ import annotations

import textwrap

import pytest

from semantics_lint.lint.engine import lint_source
from semantics_lint.runtime.mints.judge import refusal_of
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
    text = "from semantics_lint.runtime import absent, described_result\n" + textwrap.dedent(source).lstrip(
        "\n"
    )
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


def _after_guard(guard: str, between: str = "", use: str = "") -> str:
    """``tool(rows, export)``: ``guard``, then ``between``, then the call (``use``
    wraps it; the call alone when empty), each a block of lines at the body's level."""
    call = f"described_result(facts=rows, provenance={PROV})"
    lines = [
        "def tool(rows, export):",
        *_indent(guard),
        *_indent(between),
        *_indent(use or f"return {call}"),
    ]
    return "\n".join(lines).replace("CALL", call) + "\n"


def _indent(block: str) -> list[str]:
    return ["    " + line for line in textwrap.dedent(block).strip("\n").splitlines()]


# Guards: an ``if`` before the use, in the same statement list, that always leaves
# when the name is true; and ``case []:`` of ``match`` on the name.
REPORTED.extend(
    [
        pytest.param(_after_guard("if len(rows) != 0:\n    raise ValueError(rows)"), 4, id="guard-raises"),
        pytest.param(
            _after_guard(
                "out = []",
                use="for rows in export.batches:\n    if rows:\n        continue\n    out.append(CALL)",
            ),
            6,
            id="guard-continues",
        ),
        pytest.param(
            _after_guard("", use="while export.more:\n    if rows:\n        break\n    return CALL"),
            5,
            id="guard-breaks",
        ),
        pytest.param(
            _after_guard("if not rows:\n    pass\nelse:\n    return None"),
            6,
            id="guard-whose-else-leaves",
        ),
        pytest.param(
            _after_guard("if export.failed:\n    raise ValueError(export)\nelif rows:\n    return None"),
            6,
            id="guard-down-an-elif-chain",
        ),
        pytest.param(
            _after_guard(
                "if rows:\n    if export.ok:\n        return 1\n    else:\n        return 2",
                use="if export.ok:\n    return CALL",
            ),
            8,
            id="guard-whose-body-leaves-both-ways-then-a-nested-use",
        ),
        pytest.param(
            _after_guard("", use="with export.lock:\n    if rows:\n        return None\n    return CALL"),
            5,
            id="guard-in-a-with-body",
        ),
        pytest.param(
            _after_guard(
                "out = []",
                use="for batch in export.batches:\n    if rows:\n        continue\n    out.append(CALL)\n"
                "    rows = batch  # after the use: the guard tests it again first",
            ),
            6,
            id="guard-in-a-loop-rebound-after-the-use",
        ),
        pytest.param(
            _after_guard(
                "",
                use="match rows:\n    case [first]:\n        log(rows)  # another case's body: not run on the way\n"
                "        return first\n    case [] | ():\n        return CALL",
            ),
            7,
            id="case-of-empty-sequences",
        ),
        pytest.param(
            _after_guard("", use="match rows:\n    case [] as found if export.ok:\n        return CALL"),
            4,
            id="case-empty-captured-and-guarded",
        ),
    ]
)


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
        id="body-of-0>len(rows)",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if 0 > len(rows):
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="else-of-0>len(rows)",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if len(rows) < 5:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="body-of-len(rows)<5",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if len(rows) < 5:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="else-of-len(rows)<5",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if len(rows) == 1:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="body-of-len(rows)==1",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if len(rows) == 1:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="else-of-len(rows)==1",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows == [None]:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="body-of-rows==[None]",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows == [None]:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="else-of-rows==[None]",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if len(rows) >= 0:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="body-of-len(rows)>=0",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if len(rows) >= 0:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="else-of-len(rows)>=0",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows == 0:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="body-of-rows==0",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows == 0:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="else-of-rows==0",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows is None:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="body-of-rowsisNone",
    ),
    pytest.param(
        f"""
        def tool(rows, export):
            if rows is None:
                pass
            else:
                return described_result(facts=rows, provenance={PROV})
        """,
        id="else-of-rowsisNone",
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


_RETURNS = "if rows:\n    return None"
CLEAN.extend(
    [
        pytest.param(_after_guard("if rows:\n    log(rows)"), id="guard-that-falls-through"),
        pytest.param(
            _after_guard("if rows:\n    if export.ok:\n        return 1"),
            id="guard-with-a-nested-if-without-else",
        ),
        pytest.param(
            _after_guard(
                "if rows:\n    try:\n        return export.send(rows)\n    except OSError:\n        pass"
            ),
            id="guard-whose-return-is-in-a-try",
        ),
        pytest.param(
            f"""
            def tool(rows, export):
                for batch in export.batches:
                    if rows:
                        for row in batch:
                            break  # leaves the inner loop alone
                    return described_result(facts=rows, provenance={PROV})
            """,
            id="break-of-an-inner-loop",
        ),
        pytest.param(
            _after_guard("if rows:\n    with suppress(ValueError):\n        raise ValueError(rows)"),
            id="raise-in-a-with-body",
        ),
        pytest.param(_after_guard(_RETURNS, "rows = export.rows"), id="rebound-after-the-guard"),
        pytest.param(_after_guard(_RETURNS, "rows.append(export.row)"), id="grown-after-the-guard"),
        pytest.param(_after_guard(_RETURNS, "rows += export.rows"), id="augmented-after-the-guard"),
        pytest.param(_after_guard(_RETURNS, "fill(rows)"), id="handed-to-a-call-after-the-guard"),
        pytest.param(_after_guard(_RETURNS, "rows[:] = export.rows"), id="subscript-written-after-the-guard"),
        pytest.param(
            _after_guard(_RETURNS, "rows.extra = export.rows"),
            id="attribute-written-after-the-guard",
        ),
        pytest.param(_after_guard(_RETURNS, "log(len(rows))"), id="read-after-the-guard"),
        pytest.param(_after_guard("if export.rows:\n    return None"), id="guard-on-another-name"),
        pytest.param(_after_guard("if rows is not None:\n    return None"), id="guard-that-proves-nothing"),
        pytest.param(
            _after_guard("if not rows:\n    return absent(what='x', checked=['y'])"),
            id="guard-for-the-empty-case",
        ),
        pytest.param(_after_guard("if rows:\n    return 1\nelse:\n    return 2"), id="both-branches-leave"),
        pytest.param(
            _after_guard("if export.cached:\n    pass\nelif rows:\n    return None"),
            id="elif-whose-first-branch-falls-through",
        ),
        pytest.param(
            _after_guard("result = CALL\nif rows:\n    return None", use="return result"),
            id="use-before-the-guard",
        ),
        pytest.param(_after_guard(_RETURNS, use="return lambda: CALL"), id="lambda-after-the-guard"),
        pytest.param(
            _after_guard(_RETURNS, "def later():\n    return CALL\nrows = export.rows", use="return later"),
            id="function-after-the-guard",
        ),
        pytest.param(
            _after_guard(
                _RETURNS,
                "results = (CALL for _ in export.days)\nrows = export.rows",
                use="return results",
            ),
            id="generator-after-the-guard",
        ),
        pytest.param(
            _after_guard("try:\n    if rows:\n        return None\nexcept ValueError:\n    pass"),
            id="guard-inside-a-try",
        ),
        pytest.param(
            _after_guard(
                "def refill():\n    nonlocal rows\n    rows = export.rows\n\n" + _RETURNS,
                "refill()",
            ),
            id="guard-then-nonlocal",
        ),
        pytest.param(
            _after_guard(
                _RETURNS,
                "out = []",
                use="while export.more():\n    out.append(CALL)\n    rows = export.next()\nreturn out",
            ),
            id="guard-then-a-while-loop-that-rebinds",
        ),
        pytest.param(
            _after_guard(
                _RETURNS,
                "out = []",
                use="for day in export.days:\n    out.append(CALL)\n    rows.append(day)\nreturn out",
            ),
            id="guard-then-a-loop-that-grows-it-after-the-use",
        ),
        pytest.param(
            _after_guard(
                "",
                use="match rows:\n    case []:\n        for day in export.days:\n            log(CALL)\n"
                "            rows.append(day)",
            ),
            id="case-body-grows-it-after-the-use",
        ),
        pytest.param(
            f"""
            ROWS = load()

            def refresh():
                global ROWS
                ROWS = load()

            if ROWS:
                raise SystemExit(1)
            refresh()
            RESULT = described_result(facts=ROWS, provenance={PROV})
            """,
            id="guard-then-global",
        ),
        pytest.param(
            _after_guard(
                "",
                use="match rows:\n    case [x]:\n        return CALL\n    case [*rest]:\n        return CALL\n"
                "    case list():\n        return CALL\n    case _:\n        return CALL",
            ),
            id="case-patterns-that-are-not-empty",
        ),
        pytest.param(
            _after_guard("", use="match export.rows:\n    case []:\n        return CALL"),
            id="case-of-another-subject",
        ),
        pytest.param(
            _after_guard(
                "", use="match rows:\n    case []:\n        rows = export.rows\n        return CALL"
            ),
            id="case-body-rebinds",
        ),
        pytest.param(
            _after_guard(
                "",
                use="match rows:\n    case [x, *rows]:\n        return x\n    case []:\n        return CALL",
            ),
            id="captured-by-an-earlier-case",
        ),
        pytest.param(
            _after_guard("", use="match rows:\n    case [] | [_]:\n        return CALL"),
            id="case-or-not-all-empty",
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


def test_a_guard_finding_says_which_test_proves_it() -> None:
    [(line, column, message)] = _sem105(
        _after_guard("if len(rows) > 0:\n    log.info('%d rows', len(rows))\n    return None")
    )
    assert (line, column) == (5, 34)
    assert message == "`facts` is empty here (line 3 leaves when `len(rows) > 0` is true)"


def test_a_conditional_arm_is_reported_where_it_is_written() -> None:
    [(line, column, message)] = _sem105(
        f"""
        def tool(rows, export):
            return described_result(facts=[] if not rows else rows, provenance={PROV})
        """
    )
    assert (line, column) == (2, 34)
    assert message == "`facts` is empty when `not rows` is true"
