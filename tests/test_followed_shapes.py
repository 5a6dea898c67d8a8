"""The shapes a value is followed through (``resolve.shapes`` and the resolver), each
where the source proves it and where it does not: a finding in the first case, none in
the second, for SEM203 (a date typed in), SEM105 (an empty data list), SEM102 (a
snake_case key), SEM601 (a result class through a partial of an adapter)."""

from __future__ import annotations

import textwrap

import pytest

from semantics_lint.lint.engine import lint_source

HEADER = "from functools import partial\nfrom semantics_lint.runtime import absent, described_result\n"


def _codes(source: str) -> list[str]:
    text = HEADER + textwrap.dedent(source).lstrip("\n")
    return sorted(f.code for f in lint_source(text.encode("utf-8"), "tool.py"))


def _call(measured: str, facts: str = "export.rows") -> str:
    return f'described_result(facts={facts}, provenance={{"measuredAt": {measured}, "source": "x"}})'


META_AT = 'META["at"]'
NESTED_A = 'NESTED["a"][0]'
F_DAY = 'f"2024-09-{DAY}"'
F_SPEC = 'f"2024-{M:0>2}-30"'
WALRUS_AT = '(at := "2024-05-01")'
F_HUGE = 'f"{1:99999999}-05-01"'
F_PARAMETER = 'f"{day}"'

PROVED = [
    pytest.param(
        f"STAMPS = ['2024-05-01']\ndef tool(export):\n    return {_call('STAMPS[-1]')}",
        "SEM203",
        id="negative-index",
    ),
    pytest.param(
        f"BASE = '2024-05-01'\nMETA = {{'at': BASE}}\ndef tool(export):\n    return {_call(META_AT)}",
        "SEM203",
        id="element-is-a-name",
    ),
    pytest.param(
        f"NESTED = {{'a': ('2024-05-01',)}}\ndef tool(export):\n    return {_call(NESTED_A)}",
        "SEM203",
        id="nested-subscript",
    ),
    pytest.param(
        f"class Jobs:\n    AT = '2024-05-01'\n\n    @classmethod\n    def run(cls, export):\n        return {_call('cls.AT')}",
        "SEM203",
        id="cls-in-a-classmethod",
    ),
    pytest.param(
        f"class Base:\n    AT = '2024-05-01'\nclass Jobs(Base):\n    pass\ndef tool(export):\n    return {_call('Base.AT')}",
        "SEM203",
        id="base-class-constant",
    ),
    pytest.param(f"DAY = 30\ndef tool(export):\n    return {_call(F_DAY)}", "SEM203", id="fstring-number"),
    pytest.param(f"M = '9'\ndef tool(export):\n    return {_call(F_SPEC)}", "SEM203", id="fstring-spec"),
    pytest.param(
        f"AT = f'{{2024}}-05-01'\ndef tool(export):\n    return {_call('AT')}",
        "SEM203",
        id="fstring-bound-to-a-name",
    ),
    pytest.param(f"def tool(export):\n    return {_call(WALRUS_AT)}", "SEM203", id="walrus-in-the-call"),
    pytest.param(
        f"EMPTY = []\ndef tool(export):\n    return {_call('export.at', '[r for r in EMPTY]')}",
        "SEM105",
        id="over-an-empty-list",
    ),
    pytest.param(
        f"def tool(export):\n    return {_call('export.at', 'tuple(r for r in {})')}",
        "SEM105",
        id="over-an-empty-dict",
    ),
    pytest.param(
        "def tool(export):\n    p = partial(described_result, grain={'is_counter': False})\n    return p",
        "SEM102",
        id="partial-local",
    ),
    pytest.param(
        "from semantics_lint.frameworks.mcp import served\ntriage_tool = partial(served, result_class='triaje')",
        "SEM601",
        id="partial-of-an-adapter",
    ),
]

UNPROVED = [
    pytest.param(
        f"STAMPS = ['2024-05-01']\nSTAMPS.sort()\ndef tool(export):\n    return {_call('STAMPS[0]')}",
        id="list-sorted",
    ),
    pytest.param(
        f"STAMPS = ['2024-05-01']\nSTAMPS[0] = x()\ndef tool(export):\n    return {_call('STAMPS[0]')}",
        id="item-stored",
    ),
    pytest.param(
        f"META = {{'at': '2024-05-01'}}\ndel META['at']\ndef tool(export):\n    return {_call(META_AT)}",
        id="item-deleted",
    ),
    pytest.param(
        f"META = {{**x(), 'at': '2024-05-01'}}\ndef tool(export):\n    return {_call(META_AT)}",
        id="spread",
    ),
    pytest.param(
        f"META = {{k(): 1, 'at': '2024-05-01'}}\ndef tool(export):\n    return {_call(META_AT)}",
        id="computed-key",
    ),
    pytest.param(
        f"STAMPS = ['2024-05-01']\ndef tool(export, i):\n    return {_call('STAMPS[i]')}",
        id="variable-index",
    ),
    pytest.param(
        f"META = {{'at': '2024-05-01'}}\ndef reset():\n    global META\n    META = {{}}\ndef tool(export):\n    return {_call(META_AT)}",
        id="global-rebound",
    ),
    pytest.param(
        f"class Jobs:\n    AT = '2024-05-01'\n\n    @staticmethod\n    def run(self):\n        return {_call('self.AT')}",
        id="staticmethod",
    ),
    pytest.param(
        f"class Jobs:\n    AT = '2024-05-01'\n    def run(self, export):\n        return {_call('self.AT')}\nsetattr(Jobs, 'AT', x())",
        id="setattr",
    ),
    pytest.param(
        f"class Jobs:\n    AT = '2024-05-01'\n    def run(self, export):\n        return {_call('self.AT')}\nclass Other(Jobs):\n    AT = x()",
        id="overridden-in-a-subclass",
    ),
    pytest.param(
        f"@register\nclass Jobs:\n    AT = '2024-05-01'\ndef tool(export):\n    return {_call('Jobs.AT')}",
        id="decorated-class",
    ),
    pytest.param(
        f"class Jobs(Base):\n    AT = '2024-05-01'\ndef tool(export):\n    return {_call('Jobs.AT')}",
        id="base-from-elsewhere",
    ),
    pytest.param(
        f"class Jobs(metaclass=Meta):\n    AT = '2024-05-01'\ndef tool(export):\n    return {_call('Jobs.AT')}",
        id="metaclass",
    ),
    pytest.param(f"def tool(export):\n    return {_call(F_HUGE)}", id="fstring-huge-width"),
    pytest.param(f"def tool(export, day):\n    return {_call(F_PARAMETER)}", id="fstring-with-a-parameter"),
    pytest.param(
        f"EMPTY = []\ndef fill():\n    EMPTY.append(1)\ndef tool(export):\n    return {_call('export.at', '[r for r in EMPTY]')}",
        id="iterable-appended",
    ),
    pytest.param(
        f"def tool(export):\n    rows = []\n    keep = rows\n    keep.append({{'entity': 'a'}})\n    return {_call('export.at', 'rows')}",
        id="appended-through-an-alias",
    ),
    pytest.param(
        f"def tool(export):\n    changes = []\n    rows = changes\n    changes.append({{'entity': 'a'}})\n    return {_call('export.at', 'rows')}",
        id="appended-through-the-original",
    ),
    pytest.param(
        f"def tool(export, more):\n    if not (rows := export.rows):\n        rows.extend(more)\n        return {_call('export.at', 'rows')}\n"
        "    return absent(what='x', checked=['y'])",
        id="walrus-then-extended",
    ),
    pytest.param(
        f"def tool(export, sink):\n    rows = []\n    sink.attach(rows)\n    if not rows:\n        sink.flush()\n        return {_call('export.at', 'rows')}\n"
        "    return absent(what='x', checked=['y'])",
        id="handed-to-a-call-before-the-test",
    ),
    pytest.param(
        "from mytools import partial\np = partial(described_result, grain={'is_counter': False})",
        id="partial-not-functools",
    ),
    pytest.param(
        "from semantics_lint.frameworks.mcp import served\ntriage_tool = partial(served, result_class='triage')",
        id="partial-of-an-adapter-valid",
    ),
    pytest.param(
        f"DEFAULT = '2024-05-01'\ndef tool(export, at=DEFAULT):\n    return {_call('at')}",
        id="parameter-default",
    ),
]


@pytest.mark.parametrize(("source", "code"), PROVED)
def test_a_shape_the_source_proves_is_followed(source: str, code: str) -> None:
    assert code in _codes(source)


@pytest.mark.parametrize("source", UNPROVED)
def test_a_value_that_may_change_is_left_alone(source: str) -> None:
    assert [
        code for code in _codes(source) if code in ("SEM203", "SEM105", "SEM102", "SEM100", "SEM601")
    ] == []
