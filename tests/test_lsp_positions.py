"""The language server's positions and edits, and its door into the linter, in-process.

Positions: LSP lines break only at ``\\n``, ``\\r\\n``, ``\\r``; columns count UTF-16
units. Edits: the replacements between two texts, applied, give the second text, and
never touch an unchanged line. The adapter: the findings and fixes of a text are the
command line's for the same bytes.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from semantics_lint.lint.run import runner
from semantics_lint.lsp import lint_adapter
from semantics_lint.lsp.positions import LineIndex, Point, Replacement, replacements, utf16_units

# Characters that stress positions: line breaks LSP counts and ones it does not,
# an astral character (two UTF-16 units), a BOM, ASCII.
ALPHABET = st.sampled_from(["a", "b", " ", "\n", "\r", "\r\n", "\x0c", "\u2028", "é", "😀", "\ufeff", "_"])
TEXTS = st.lists(ALPHABET, max_size=40).map("".join)


def apply(text: str, changes: list[Replacement]) -> str:
    index = LineIndex(text)
    offsets = [
        (
            index.starts[c.start.line] + c.start.character,
            index.starts[c.end.line] + c.end.character,
            c.text,
        )
        for c in changes
    ]
    for start, end, new in sorted(offsets, reverse=True):
        text = text[:start] + new + text[end:]
    return text


@settings(max_examples=400, deadline=None)
@given(TEXTS, TEXTS)
def test_replacements_turn_the_old_text_into_the_new(old: str, new: str) -> None:
    changes = replacements(old, new)
    assert apply(old, changes) == new
    index = LineIndex(old)
    for change in changes:
        for point in (change.start, change.end):
            offset = index.starts[point.line] + point.character
            # Never inside a "\r\n".
            assert not (old[offset - 1 : offset] == "\r" and old[offset : offset + 1] == "\n")
    assert (changes == []) == (old == new)


def test_a_renamed_key_is_one_small_replacement_on_its_line() -> None:
    old = 'a = 1\nx = {"measured_at": t}\nb = 2\n'
    new = old.replace("measured_at", "measuredAt")
    (change,) = replacements(old, new)
    assert change.start.line == change.end.line == 1
    assert apply(old, [change]) == new
    assert len(change.text) <= len("measuredAt")


@given(TEXTS)
def test_points_and_client_positions_round_trip(text: str) -> None:
    index = LineIndex(text)
    for offset in range(len(text) + 1):
        point = index.point(offset)
        line, character = index.to_client(point, utf16_units)
        if text[offset - 1 : offset] == "\r" and text[offset : offset + 1] == "\n":
            continue  # inside a line break: no position names it
        assert index.from_client(line, character, utf16_units) == point


def test_lines_break_only_where_lsp_breaks_them() -> None:
    index = LineIndex("a\x0cb\u2028c\r\nd\re\nf")
    assert [index.line_text(n) for n in range(4)] == ["a\x0cb\u2028c", "d", "e", "f"]
    assert index.to_client(Point(0, 5), utf16_units) == (0, 5)
    index = LineIndex("😀x = 1\n")
    assert index.to_client(Point(0, 1), utf16_units) == (0, 2)
    # A position inside the astral character stops before it.
    assert index.from_client(0, 1, utf16_units) == Point(0, 0)
    assert index.from_client(0, 99, utf16_units) == Point(0, 6)
    assert index.from_client(7, 0, utf16_units) == Point(1, 0)


# -- the adapter ----------------------------------------------------------------------

SNAKE = textwrap.dedent(
    """\
    # -*- coding: latin-1 -*-
    from semantics_lint.runtime import described_result


    def vm_status(export):  # café
        return described_result(
            facts=[{"entity": export.vm}],
            provenance={"measured_at": export.at, "source": export.source},
        )
    """
)


def test_the_adapter_reports_what_the_command_line_reports(tmp_path: Path) -> None:
    path = tmp_path / "tool.py"
    linted = lint_adapter.lint_text(SNAKE, str(path))
    cli = runner.run_stdin(SNAKE.encode("latin-1"), runner.RunOptions(), str(path))
    assert [(f.finding.code, f.finding.start, f.finding.message) for f in linted.findings] == [
        (f.code, f.start, f.message) for f in cli.findings
    ]
    assert [(f.start, f.end) for f in linted.findings] == [
        (Point(f.start.line - 1, f.start.column), Point(f.end.line - 1, f.end.column)) for f in cli.findings
    ]
    assert not linted.uses_other_modules
    fixed = lint_adapter.fix_all(SNAKE, str(path))
    assert fixed == SNAKE.replace("measured_at", "measuredAt")
    assert lint_adapter.fix_one(SNAKE, str(path), linted.findings[0]) == fixed


def test_a_bom_in_the_buffer_shifts_first_line_columns_only(tmp_path: Path) -> None:
    text = '\ufeffx = described_result(facts=[{"entity": 1}], provenance={"measured_at": a, "source": b})\n'
    findings = lint_adapter.lint_text(text, str(tmp_path / "tool.py")).findings
    (found,) = [f for f in findings if f.finding.code == "SEM102"]
    assert text[found.start.character : found.end.character] == '"measured_at"'
    fixed = lint_adapter.fix_all(text, str(tmp_path / "tool.py"))
    assert fixed == text.replace("measured_at", "measuredAt")
