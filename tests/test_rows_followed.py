"""SEM106 follows a data field given as a name to the rows it is provably bound to, and
reports what it reports when the same rows are written in the call, at the name."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from semantics_lint.lint.engine import lint_file, lint_source

PROV = '{"measuredAt": export.at, "source": "x"}'
GRAIN = '{"interval": "daily", "aggregation": "count", "isCounter": False}'
HEADER = "from semantics_lint.runtime import described_result\n"


def _sem106(source: str) -> list[tuple[int, int, str, str]]:
    text = HEADER + textwrap.dedent(source).lstrip("\n")
    return [
        (f.start.line - 1, f.start.column, f.message, f.help or "")
        for f in lint_source(text.encode("utf-8"), "tool.py")
        if f.code == "SEM106"
    ]


ROWS = [
    pytest.param(
        "facts",
        '[{"entity": "vm-01"}, {"name": "vm-02", "state": "up"}]',
        id="a-fact-without-entity",
    ),
    pytest.param("facts", '({"entity": "  "},)', id="a-blank-entity-in-a-tuple"),
    pytest.param("facts", '[{"entity": "vm-01", "tags": {"prod", "eu"}}]', id="a-set-value"),
    pytest.param("facts", '[{"entity": "vm-01"}, "vm-02"]', id="not-a-row"),
    pytest.param(
        "edges",
        '[{"from": "vm-01", "to": "ds-7"}, {"from": "a", "to": "b", "kind": 3}]',
        id="edges",
    ),
    pytest.param(
        "series",
        '[{"t": r.day, "entity": vm, "value": r.ok} for r in export.runs]',
        id="a-comprehension",
    ),
]


@pytest.mark.parametrize(("field", "rows"), ROWS)
def test_rows_behind_a_name_get_the_report_they_get_in_the_call(field: str, rows: str) -> None:
    grain = f", grain={GRAIN}" if field == "series" else ""
    inline = _sem106(
        f"""
        def tool(vm, export):
            return described_result({field}={rows}, provenance={PROV}{grain})
        """
    )
    call = f"    return described_result({field}=rows, provenance={PROV}{grain})"
    named = _sem106(f"def tool(vm, export):\n    rows = {rows}\n{call}\n")
    assert inline, "the rows written in the call are reported"
    assert [message for _, _, message, _ in named] == [message for _, _, message, _ in inline]
    for line, column, _, help in named:
        assert (line, column) == (3, call.index("=rows") + 1)  # the name in the call
        assert "(line 3)" in help and "rows = " in help  # where the rows were bound


def test_rows_of_a_module_constant_and_of_another_module_are_followed(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "constants.py").write_text('HOSTS = [{"entity": "vm-01"}, {"name": "vm-02"}]\n')
    tool = tmp_path / "pkg" / "tools.py"
    tool.write_text(
        HEADER
        + "from pkg.constants import HOSTS\n\n"
        + 'LOCAL = ({"from": "a", "to": "b"},)\n\n'
        + "def tool(export):\n"
        + f"    return described_result(facts=HOSTS, edges=LOCAL, provenance={PROV})\n"
    )
    found = sorted((f.start.column, f.message, f.help) for f in lint_file(str(tool)) if f.code == "SEM106")
    assert [(column, message) for column, message, _ in found] == [
        (34, "`facts[1]` cannot be honoured: no `entity`"),
        (47, "`edges[0]` cannot be honoured: no `kind`"),
    ]
    assert "pkg/constants.py:1" in found[0][2] and "(line 4)" in found[1][2]


CLEAN = [
    pytest.param('rows = [{"name": vm}]\nrows[0]["entity"] = vm', id="a-row-changed"),
    pytest.param('rows = [{"name": vm}]\nrows.append(export.row)', id="grown"),
    pytest.param('rows = [{"name": vm}]\nfill(rows)', id="handed-to-a-call"),
    pytest.param('rows = [{"name": vm}]\nif export.ok:\n    rows = export.rows', id="rebound"),
    pytest.param('rows = [{"name": vm}]\nalias = rows', id="aliased"),
    pytest.param('rows = ({"name": vm},)\nrows[0]["entity"] = vm', id="a-row-of-a-tuple-changed"),
    pytest.param('rows = [{"entity": vm}]', id="rows-that-are-fine"),
]


@pytest.mark.parametrize("binding", CLEAN)
def test_rows_that_may_have_changed_are_left_alone(binding: str) -> None:
    body = textwrap.indent(binding, "    ")
    assert (
        _sem106(
            f"def tool(vm, export):\n{body}\n    return described_result(facts=rows, provenance={PROV})\n"
        )
        == []
    )


def test_a_tuple_changed_by_another_function_is_left_alone() -> None:
    assert (
        _sem106(
            f"""
            ROWS = ({{"name": "vm-01"}},)

            def patch():
                ROWS[0]["entity"] = "vm-01"

            def tool(export):
                return described_result(facts=ROWS, provenance={PROV})
            """
        )
        == []
    )


def test_another_scope_s_rows_are_not_followed() -> None:
    assert (
        _sem106(
            f"""
            def other():
                rows = [{{"name": 1}}]
                return rows

            def tool(rows, export):
                return described_result(facts=rows, provenance={PROV})
            """
        )
        == []
    )
