"""A Python file's text: decoding its bytes as Python does, parsing it, its lines, its
columns.

This is the linter's one decoder: the engine, ``# noqa`` handling, ``--fix`` and its
diff all take the text :func:`decode` gives (once per file), or, for bytes that cannot
be decoded, :func:`readable_text`.

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
import warnings
from typing import NamedTuple

from semantics_lint.lint.core.model import Finding, Position, Severity

__all__ = [
    "SYNTAX_CODE",
    "Decoded",
    "Source",
    "char_column",
    "decode",
    "decode_source",
    "parse_module",
    "readable_text",
    "saved_bytes",
    "split_lines",
    "syntax_finding",
    "text_of",
]

SYNTAX_CODE = "SEM001"

_NEWLINE = re.compile(r"\r\n|\r|\n")
# PEP 263: the encoding declaration may sit on the first or second line.
_CODING_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.ASCII)

PARSED_WHOLE_BELOW = 1 << 18
"""A text shorter than this (in characters) is parsed in one piece; a longer one is
parsed a stretch of top-level statements at a time (:func:`parse_module`)."""

_STRETCH = 1 << 16
"""About how many characters of a long text each stretch holds, at the least."""

_MOST_STRETCHES = 32
"""About how many stretches a text is parsed in, at the most: each stretch is parsed
after as many line breaks as come before it in the text, so their number is bounded
to keep the cost linear in the text."""

_TOP_LEVEL_LINE = re.compile(r"\n(?=[^\s#])")
"""A line break followed by a line that starts at column 0 with code."""

_CLAUSE = re.compile(r"(?:else|elif|except|finally)\b")
"""A clause that goes on the compound statement above it (`else:` at column 0)."""


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as CPython numbers them, without their line endings."""
    if "\r" not in text:
        return text.split("\n")  # the same split, without the regex
    return _NEWLINE.split(text)


def parse_module(text: str, filename: str = "<unknown>", *, stretch: int | None = None) -> ast.Module:
    """``ast.parse(text, filename)``: the same tree, or the same exception, without the
    warnings CPython's parser writes about the text (``SyntaxWarning: invalid decimal
    literal``, invalid escape sequences): the linter reports on a file in findings,
    and its stderr is its own.

    A text of :data:`PARSED_WHOLE_BELOW` characters or more is parsed by stretches
    (:func:`_parse_by_stretches`) of ``stretch`` characters or so: by default
    :data:`_STRETCH`, or a :data:`_MOST_STRETCHES`-th of a longer text (tests make it
    small).
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        if len(text) < PARSED_WHOLE_BELOW:
            return ast.parse(text, filename=filename)
        if stretch is None:
            stretch = max(_STRETCH, len(text) // _MOST_STRETCHES)
        return _parse_by_stretches(text, filename, stretch)


def _parse_by_stretches(text: str, filename: str, stretch: int) -> ast.Module:
    """``ast.parse(text, filename)`` a stretch of top-level statements at a time, the
    bodies joined: the same tree, or the same exception. While it parses a text,
    CPython holds the whole C tree next to the Python one it builds, which about
    doubles the memory a large module takes (a 5 MB module: 646 MB in one piece, 304 MB
    by stretches); a stretch's C tree is freed before the next is parsed.

    A stretch ends before a line that starts at column 0 with code and does not carry
    on the statement above it (``else``, ``elif``, ``except``, ``finally``). Such a
    line may still sit inside a string or brackets; the stretch then does not parse
    alone, and it is lengthened. Tokens after a line break at column 0 with no bracket
    or string open do not depend on what came before, so a stretch that parses is
    parsed as in the whole text; its lines are numbered as there by line breaks put
    before it. A text whose parse is not local (``from __future__ import
    barry_as_FLUFL`` changes what ``!=`` means) or whose line breaks include a bare
    ``\\r``, and any text a stretch of which fails to parse up to the end, is parsed
    in one piece, so an error is exactly the one-piece error. ``stretch`` is about how
    many characters each stretch holds.
    """
    if "barry_as_FLUFL" in text or text.count("\r") != text.count("\r\n"):
        return ast.parse(text, filename=filename)
    body: list[ast.stmt] = []
    start = 0
    line = 0  # line breaks before ``start``
    while start < len(text):
        end = _stretch_end(text, start + stretch)
        while True:
            try:
                part = ast.parse("\n" * line + text[start:end], filename=filename)
                break
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                if end == len(text):
                    body.clear()  # freed before the one-piece parse that words the error
                    return ast.parse(text, filename=filename)
                end = _stretch_end(text, end + (end - start))
        body.extend(part.body)
        line += text.count("\n", start, end)
        start = end
    return ast.Module(body=body, type_ignores=[])


def _stretch_end(text: str, at_least: int) -> int:
    """The start of the first line at or after ``at_least`` that may begin a top-level
    statement, or the end of ``text``."""
    if at_least >= len(text):
        return len(text)
    for match in _TOP_LEVEL_LINE.finditer(text, at_least - 1):
        if not _CLAUSE.match(text, match.end()):
            return match.end()
    return len(text)


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


class Decoded(NamedTuple):
    """A file's text as Python reads it, and how to write a text back the same way:
    ``encoding`` is the codec of the bytes after the BOM, ``bom`` whether they start
    with one."""

    text: str
    encoding: str = "utf-8"
    bom: bool = False

    def encode(self, text: str) -> bytes:
        """``text`` as bytes of this file's encoding, with its BOM (``UnicodeEncodeError``
        when the encoding cannot hold it)."""
        body = text.encode(self.encoding)
        return codecs.BOM_UTF8 + body if self.bom else body


def decode_source(source: bytes) -> str | Finding:
    """The text of ``source`` as Python reads it (:func:`decode`'s), or a SEM001."""
    decoded = decode(source)
    return decoded if isinstance(decoded, Finding) else decoded.text


def decode(source: bytes) -> Decoded | Finding:
    """The text of ``source`` as Python reads it (BOM, coding cookie) and its encoding,
    or a SEM001.

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
                return Decoded(source.decode("utf-8"))
            except UnicodeDecodeError:
                pass
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError as exc:
        return syntax_finding("", f"the file cannot be decoded: {exc.msg}", Position(1, 0))
    bom = encoding == "utf-8-sig" or source.startswith(codecs.BOM_UTF8)
    if bom:
        encoding = "utf-8-sig"
    try:
        text = source.decode(encoding)
    except (UnicodeError, LookupError) as exc:  # punycode raises a bare UnicodeError
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
    return Decoded(text, "utf-8", True) if bom else Decoded(text, encoding)


def saved_bytes(text: str) -> bytes:
    """The bytes of a file holding ``text`` (as flake8 hands a plugin a file it has
    decoded): encoded as its coding cookie says, else UTF-8, so that :func:`decode`
    gives this text back. A cookie naming an unknown codec, or one that cannot hold
    the text, gives UTF-8: :func:`decode` then says what that file is worth (SEM001).
    """
    for line in text.split("\n", 2)[:2]:
        match = _CODING_COOKIE.match(line)
        if match is None:
            continue
        try:
            codecs.lookup(match.group(1))
            return text.encode(match.group(1))
        except (LookupError, UnicodeError):
            break
    return text.encode("utf-8", errors="surrogatepass")


def text_of(source: bytes) -> str:
    """The text of ``source`` as :func:`decode` gives it, or, for bytes it refuses,
    :func:`readable_text`: never fails."""
    decoded = decode(source)
    return readable_text(source) if isinstance(decoded, Finding) else decoded.text


def readable_text(source: bytes) -> str:
    """The text of bytes :func:`decode` refuses, as near as can be: their declared (or
    UTF-8) encoding, anything it cannot decode replaced, the BOM dropped. For reading
    ``# noqa`` comments and showing a diff, never for linting."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
        text = source.decode(encoding, errors="replace")
    except (SyntaxError, LookupError, UnicodeError):
        # No cookie Python reads, or a codec that is not text (rot13) or fails
        # whatever the errors handler says (punycode).
        text = source.decode("utf-8", errors="replace")
    return text.removeprefix("\ufeff")


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
