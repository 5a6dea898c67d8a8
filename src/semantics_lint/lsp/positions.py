"""Lines, positions and text edits as the Language Server Protocol counts them.

The linter counts a position as a 1-based line and a 0-based column in code points.
LSP counts a 0-based line and a 0-based column in the *code units* of the encoding
the client and the server agreed on at initialization (UTF-16 unless the client
offers another), and breaks lines only at ``\\n``, ``\\r\\n`` and ``\\r`` — as Python's
tokenizer does, and unlike ``str.splitlines``, which also breaks at form feed,
``\\x1c``-``\\x1e``, U+2028 and friends. Everything here follows LSP's rule, so a
form feed or a non-ASCII character before a finding never shifts it.

Pure functions, no dependency on pygls: ``units`` is any function giving the length
of a string in the agreed code units (pygls's ``PositionCodec.client_num_units``).
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Units = Callable[[str], int]
"""The length of a string in the client's code units."""

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def utf16_units(text: str) -> int:
    """The length of ``text`` in UTF-16 code units (LSP's default position encoding)."""
    return len(text.encode("utf-16-le")) // 2


@dataclass(frozen=True, slots=True)
class Point:
    """A place in a text: ``line`` 0-based, ``character`` in code points."""

    line: int
    character: int


@dataclass(frozen=True, slots=True)
class Replacement:
    """Replace the text between ``start`` and ``end`` (code points) with ``text``."""

    start: Point
    end: Point
    text: str


class LineIndex:
    """The lines of one text, to turn code-point offsets into points and back."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0, *(match.end() for match in _LINE_BREAK.finditer(text))]

    def line_text(self, line: int) -> str:
        """Line ``line`` (0-based) without its line break; "" past the end."""
        if not 0 <= line < len(self.starts):
            return ""
        start = self.starts[line]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)
        content = self.text[start:end]
        if content.endswith("\r\n"):
            return content[:-2]
        if content.endswith(("\n", "\r")):
            return content[:-1]
        return content

    def point(self, offset: int) -> Point:
        """The point of a code-point offset into the text."""
        line = bisect.bisect_right(self.starts, offset) - 1
        return Point(line, offset - self.starts[line])

    def to_client(self, point: Point, units: Units) -> tuple[int, int]:
        """(line, character in client units) for ``point``; clamped to the line's end."""
        content = self.line_text(point.line)
        return point.line, units(content[: max(0, point.character)])

    def from_client(self, line: int, character: int, units: Units) -> Point:
        """The point a client position names; a character past the line's end (or one
        inside a character that takes several units) stops at the nearest boundary
        before it, and a line past the end is the end of the text."""
        if line >= len(self.starts):
            return self.point(len(self.text))
        if line < 0:
            return Point(0, 0)
        content = self.line_text(line)
        counted = 0
        for index, char in enumerate(content):
            counted += units(char)
            if counted > character:
                return Point(line, index)
        return Point(line, len(content))


def replacements(old: str, new: str) -> list[Replacement]:
    """The smallest set of non-overlapping replacements that turn ``old`` into ``new``.

    Lines are compared first (so an edit never spans text that did not change), then
    each changed run of lines is trimmed to the characters that differ. A cut never
    falls between the ``\\r`` and ``\\n`` of a line break. Positions are in ``old``.
    """
    if old == new:
        return []
    old_lines = _keep_ends(old)
    new_lines = _keep_ends(new)
    old_index = LineIndex(old)
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    result: list[Replacement] = []
    old_offsets = _offsets(old_lines)
    new_offsets = _offsets(new_lines)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        start, end = old_offsets[i1], old_offsets[i2]
        new_start, new_end = new_offsets[j1], new_offsets[j2]
        before, after = old[start:end], new[new_start:new_end]
        prefix = _common_prefix(before, after)
        suffix = _common_suffix(before[prefix:], after[prefix:])
        cut_start = start + prefix
        cut_end = end - suffix
        result.append(
            Replacement(
                old_index.point(cut_start),
                old_index.point(cut_end),
                after[prefix : len(after) - suffix],
            )
        )
    return result


def _keep_ends(text: str) -> list[str]:
    lines: list[str] = []
    start = 0
    for match in _LINE_BREAK.finditer(text):
        lines.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        lines.append(text[start:])
    return lines


def _offsets(lines: Sequence[str]) -> list[int]:
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    return offsets


def _common_prefix(a: str, b: str) -> int:
    limit = min(len(a), len(b))
    count = 0
    while count < limit and a[count] == b[count]:
        count += 1
    # Never cut between "\r" and "\n": back off to before the "\r".
    if 0 < count and a[count - 1] == "\r" and (a[count : count + 1] == "\n" or b[count : count + 1] == "\n"):
        count -= 1
    return count


def _common_suffix(a: str, b: str) -> int:
    limit = min(len(a), len(b))
    count = 0
    while count < limit and a[len(a) - 1 - count] == b[len(b) - 1 - count]:
        count += 1
    # Never cut between "\r" and "\n": back off to after the "\n".
    if (
        0 < count
        and a[len(a) - count] == "\n"
        and (a[len(a) - count - 1 : len(a) - count] == "\r" or b[len(b) - count - 1 : len(b) - count] == "\r")
    ):
        count -= 1
    return count
