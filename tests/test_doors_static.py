"""The linter's half of the two doors' agreement (docs/agreement.md), case by case: dict displays
read as Python builds them, keys the mint drops or refuses, and literals that must
never crash a lint. The generated property is ``tests/test_doors_agree.py``."""

from __future__ import annotations

import ast

import pytest

from semantics_lint.lint.core.syntax import UNKNOWN, iter_dict_items, last_wins, literal_of
from semantics_lint.lint.engine import lint_source


def codes(source: str) -> list[str]:
    return [f.code for f in lint_source(source.encode("utf-8"), "tool.py")]


def _expr(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("{'a': 1, 'a': 2}", {"a": 2}),
        ("dict(a=[dict(b=1)], c=())", {"a": [{"b": 1}], "c": ()}),
        (
            "[-1e999, 1+2j, None, b'x', list(), set()]",
            [float("-inf"), 1 + 2j, None, b"x", [], set()],
        ),
        ("{(1, 2): {None: True}}", {(1, 2): {None: True}}),
    ],
)
def test_literal_of_reads_what_python_builds(text: str, value: object) -> None:
    assert literal_of(_expr(text)) == value


@pytest.mark.parametrize("text", ["{**x}", "[*x]", "f(1)", "dict(x, a=1)", "{[1]: 2}", "{{1}}", "name"])
def test_literal_of_leaves_what_is_not_a_literal(text: str) -> None:
    assert literal_of(_expr(text)) is UNKNOWN


def test_literal_of_never_raises_on_deep_nesting() -> None:
    node: ast.expr = ast.Constant(1)
    for _ in range(100_000):
        node = ast.List(elts=[node], ctx=ast.Load())
    assert literal_of(node) is UNKNOWN


def test_last_wins_keeps_the_last_of_a_key_written_twice() -> None:
    kept = [
        (key, ast.unparse(value))
        for key, _, value in last_wins(iter_dict_items(_expr("{'a': 1, 1: 2, 'a': 3, True: 4}")))
    ]  # type: ignore[misc]
    assert kept == [("a", "3"), (True, "4")]


def test_a_key_written_twice_is_read_last_wins() -> None:
    assert (
        codes(
            'def t():\n    return described_result(facts=[{"entity": "x"}], '
            'provenance={"source": "x", "measuredAt": {}, "measuredAt": "at"})\n'
        )
        == []
    )
    assert "SEM404" in codes(
        "from agentfootprint import absent\n\ndef t():\n"
        '    return absent({"what": "backup runs", "what": "", "checked": ["x"]})\n'
    )


def test_a_non_string_key_is_an_unknown_key_not_an_open_part() -> None:
    assert codes("def t():\n    return described_result(clarify={1: 1})\n") == ["SEM101"]
    assert codes('from agentfootprint import absent\n\ndef t():\n    return absent({None: " "})\n') == [
        "SEM101"
    ]
    assert codes(
        'from agentfootprint import absent\n\ndef t():\n    return absent(what="x", checked=[{(1, 2): {}}])\n'
    ) == ["SEM405"]


HUGE = "1" + "0" * 400
HUGER = "0x" + "f" * 4000


@pytest.mark.parametrize(
    "value",
    [
        HUGE,
        HUGER,
        "1e999",
        "-1e999",
        "[" * 90 + "]" * 90,
        "{" + HUGER + ": 1}",
        "{(1, (2, [3])): 1}",
        "1j",
        "b''",
    ],
)
@pytest.mark.parametrize(
    "template",
    [
        'def t():\n    return described_result(facts=[{{"entity": "x"}}], provenance={{"measuredAt": "x", "source": "x", "ageSeconds": {v}}})\n',
        'def t():\n    return described_result(facts=[{{"entity": "x", "v": {v}}}], provenance={{"measuredAt": "x", "source": {v}}}, render={v})\n',
        "from agentfootprint import coverage\n\ndef t(r):\n    return coverage({v}, checked=[{v}], inProgress=[{v}], period={v})\n",
        "from agentfootprint import absent\n\ndef t():\n    return absent({{{v}: {v}}}, what={v})\n",
    ],
)
def test_a_literal_never_crashes_the_linter(template: str, value: str) -> None:
    found = codes(template.format(v=value))
    assert "SEM001" not in found
