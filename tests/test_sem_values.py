"""The value helpers behind SEM2xx-SEM5xx: which strings are dates, what a literal is.

The date check decides SEM203, an error, so it is tested for what it must not call a
date (versions, ids, partial dates, impossible days) as much as for what it must.
"""

from __future__ import annotations

import ast

import pytest

from semantics_lint.lint.engine import lint_source
from semantics_lint.lint.rules.sem2xx_clock import looks_like_date
from semantics_lint.lint.rules.values import is_blank_text, is_empty_sequence, literal_kind


@pytest.mark.parametrize(
    "text",
    [
        "2024-05-01",
        "2024-05-01T10:00:00Z",
        "2024-05-01T10:00:00.123+02:00",
        "2024-05-01 10:00",
        "as of the 2024-05-01 export",
        "20240501T1000Z",
        "2024/5/1",
        "05/01/2024",
        "31/12/2024",
        "1.5.2024",
        "1 May 2024",
        "1st of May 2024",
        "Wed, 01 May 2024 10:00:00 GMT",
        "May 1, 2024",
        "sept 3 2024",
        "2099-12-31",
    ],
)
def test_dates_are_recognized(text: str) -> None:
    assert looks_like_date(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "yesterday",
        "the export time",
        "2024",
        "May 2024",
        "2024-05",
        "2024-13-01",
        "2024-05-32",
        "1800-01-01",
        "13/13/2024",
        "version 1.2.2024.3",
        "120240501",
        "build 20240501",
        "id 2024-05-01-17",
        "{day}T00:00:00Z",
        "May the fourth",
        "12:00:00Z",
    ],
)
def test_non_dates_are_not(text: str) -> None:
    assert not looks_like_date(text)


def _expr(source: str) -> ast.expr:
    return ast.parse(source, mode="eval").body


@pytest.mark.parametrize(
    ("source", "kind"),
    [
        ("'x'", "str"),
        ("f'{x}'", "str"),
        ("b'x'", "bytes"),
        ("-5", "number"),
        ("1e400", "number"),
        ("True", "bool"),
        ("None", "none"),
        ("[x]", "list"),
        ("[r for r in rows]", "list"),
        ("()", "tuple"),
        ("list()", "list"),
        ("dict(a=1)", "dict"),
        ("{**base}", "dict"),
        ("{1, 2}", "set"),
        ("(r for r in rows)", "generator"),
        ("x", None),
        ("x.y", None),
        ("f(x)", None),
        ("dict(base)", None),
        ("-x", None),
        ("...", None),
    ],
)
def test_literal_kind(source: str, kind: str | None) -> None:
    assert literal_kind(_expr(source)) == kind


def test_blank_and_empty() -> None:
    assert is_blank_text(_expr("'  '"))
    assert is_blank_text(_expr("'\\u3000'"))  # JavaScript's trim removes it
    assert is_blank_text(_expr("f''"))
    assert not is_blank_text(_expr("f'{x}'"))
    assert not is_blank_text(_expr("'x'"))
    assert not is_blank_text(_expr("x"))
    assert is_empty_sequence(_expr("[]"))
    assert is_empty_sequence(_expr("tuple()"))
    assert not is_empty_sequence(_expr("[x]"))
    assert not is_empty_sequence(_expr("{}"))


def _codes(source: str) -> list[str]:
    return [f.code for f in lint_source(source.encode("utf-8"), "example.py")]


def test_clock_and_date_names_must_be_imported() -> None:
    # Without the import, `datetime` could be anything: never a finding.
    source = (
        "def tool(export, datetime):\n"
        "    return described_result(facts=export.rows,"
        " provenance={'measuredAt': datetime.now(), 'source': 'x'})\n"
    )
    assert "SEM204" not in _codes(source)
    imported = "from datetime import datetime\n" + source.replace(", datetime)", ")")
    assert "SEM204" in _codes(imported)


def test_a_rebound_import_is_not_trusted() -> None:
    source = (
        "from datetime import datetime\n"
        "datetime = make_clock()\n"
        "def tool(export):\n"
        "    return described_result(facts=export.rows,"
        " provenance={'measuredAt': datetime(2024, 5, 1), 'source': 'x'})\n"
    )
    assert "SEM203" not in _codes(source)


def test_stdlib_attributes_are_not_followed() -> None:
    source = (
        "import os\n"
        "def tool(export):\n"
        "    return described_result(facts=export.rows,"
        " provenance={'measuredAt': export.at, 'source': os.sep})\n"
    )
    assert _codes(source) == []


def test_a_date_through_a_name_in_an_fstring_names_the_binding() -> None:
    source = (
        'DAY = "2024-05-01"\n'
        "def tool(export):\n"
        "    return described_result(facts=export.rows,"
        " provenance={'measuredAt': f'{DAY}T00:00:00Z', 'source': 'x'})\n"
    )
    findings = lint_source(source.encode("utf-8"), "example.py")
    assert [f.code for f in findings] == ["SEM203"]
    assert "DAY = " in (findings[0].help or "") and "(line 1)" in (findings[0].help or "")
    assert findings[0].start.line == 3


@pytest.mark.parametrize("number", ["9" * 400, "-" + "9" * 400, "2 ** 2000"])
def test_an_integer_too_large_for_a_float_is_a_finding_not_a_crash(number: str) -> None:
    source = (
        "from semantics_lint.runtime import described_result\n\n"
        "def tool(export):\n"
        "    return described_result(\n"
        f'        facts=export.rows, provenance={{"measuredAt": export.at, "source": "x", "ageSeconds": {number}}}\n'
        "    )\n\n"
        "def other(export):\n"
        "    return described_result(facts=[])\n"
    ).encode()
    codes = [f.code for f in lint_source(source, "tool.py")]
    # JSON reads such a number as Infinity, which the reference refuses: not finite. A
    # power is not a literal the linter evaluates. The file's other findings stay.
    assert codes == (["SEM201", "SEM105"] if "**" in number else ["SEM205", "SEM201", "SEM105"])
