"""A Python file's text: decoding its bytes as Python does, its lines, its columns.

Positions in findings are 1-based lines and 0-based columns counted in characters;
``ast`` counts columns in UTF-8 bytes, so :func:`char_column` converts. Lines are split
where CPython's tokenizer ends them (``\\r\\n``, ``\\r``, ``\\n``), never at form
feeds or Unicode separators, which ``str.splitlines`` would also split at.
"""

from __future__ import annotations

import ast
import codecs
import io
import re
import tokenize

from semantics_lint.lint.model import Finding, Position, Severity

__all__ = [
    "SYNTAX_CODE",
    "Source",
    "char_column",
    "decode_source",
    "split_lines",
    "syntax_finding",
]

SYNTAX_CODE = "SEM001"

_NEWLINE = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as CPython numbers them, without their line endings."""
    if "\r" not in text:
        return text.split("\n")  # the same split, without the regex
    return _NEWLINE.split(text)


def char_column(line: str, byte_column: int) -> int:
    """The character column of a UTF-8 byte offset into ``line``."""
    if line.isascii():
        return byte_column
    return len(line.encode("utf-8")[:byte_column].decode("utf-8", errors="ignore"))


class Source:
    """A decoded file's text and its lines, for positions and excerpts."""

    __slots__ = ("_lines", "text")

    def __init__(self, text: str, lines: list[str] | None = None) -> None:
        self.text = text
        self._lines = lines

    @property
    def lines(self) -> list[str]:
        """The lines as CPython numbers them (split when first asked)."""
        if self._lines is None:
            self._lines = split_lines(self.text)
        return self._lines

    def char_column(self, line: int, byte_column: int) -> int:
        """The 0-based character column of a UTF-8 byte offset on 1-based ``line``."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return char_column(text, byte_column)

    def segment(self, start: Position, end: Position) -> str:
        """The text between two positions, lines joined with ``\\n``."""
        lines = self.lines
        if start.line == end.line:
            return lines[start.line - 1][start.column : end.column]
        parts = [lines[start.line - 1][start.column :]]
        parts.extend(lines[start.line : end.line - 1])
        parts.append(lines[end.line - 1][: end.column])
        return "\n".join(parts)

    def range_of(self, node: ast.expr | ast.stmt) -> tuple[Position, Position]:
        """Start and end of an ``ast`` node of this text, in characters."""
        start = Position(node.lineno, self.char_column(node.lineno, node.col_offset))
        end_line = node.end_lineno if node.end_lineno is not None else node.lineno
        end_col = node.end_col_offset if node.end_col_offset is not None else node.col_offset
        return start, Position(end_line, self.char_column(end_line, end_col))

    def text_of(self, node: ast.expr | ast.stmt) -> str:
        """The source text of an ``ast`` node of this text."""
        return self.segment(*self.range_of(node))


def decode_source(source: bytes) -> str | Finding:
    """The text of ``source`` as Python reads it (BOM, coding cookie), or a SEM001.

    A file without a cookie must be UTF-8. The BOM is dropped from the text, so
    columns on the first line count from the first real character. Line endings are
    kept as they are. The finding's filename is empty: the caller names the file.
    """
    if not source.startswith(codecs.BOM_UTF8):
        # Without a BOM, and without "coding" on the two lines a cookie may sit on
        # (as tokenize reads them: up to b"\n"), Python reads the file as UTF-8;
        # tokenize's search for a cookie would say so too, slower. A file that is
        # not UTF-8 takes the search, which also words the error.
        end = source.find(b"\n")
        if end != -1:
            end = source.find(b"\n", end + 1)
        if b"coding" not in (source if end == -1 else source[:end]):
            try:
                return source.decode("utf-8")
            except UnicodeDecodeError:
                pass
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError as exc:
        return syntax_finding("", f"the file cannot be decoded: {exc.msg}", Position(1, 0))
    if encoding == "utf-8-sig" or source.startswith(codecs.BOM_UTF8):
        encoding = "utf-8-sig"
    try:
        return source.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        line = 1
        column = 0
        if isinstance(exc, UnicodeDecodeError):
            before = source[: exc.start]
            line = before.count(b"\n") + 1
            column = len(before) - (before.rfind(b"\n") + 1)
        return syntax_finding(
            "",
            f"the file cannot be decoded as {encoding}: {exc.reason if isinstance(exc, UnicodeDecodeError) else exc}"
            " (declare its encoding with a coding comment, or save it as UTF-8)",
            Position(line, column),
        )


def syntax_finding(filename: str, message: str, start: Position, end: Position | None = None) -> Finding:
    """A SEM001 finding: the file (or a call in it) could not be read or checked."""
    return Finding(
        code=SYNTAX_CODE,
        message=message,
        severity=Severity.ERROR,
        filename=filename,
        start=start,
        end=end if end is not None else start,
    )
