"""The formats people read: concise, full, grouped, and pylint's line format.

* ``concise``: ``path:line:col: CODE [*] message``, one finding a line, 1-based
  columns (flake8's and ruff's layout, which editors and terminals turn into links);
  ``[*]`` marks a finding the given flags would fix.
* ``full``: the same line, then the source lines around the finding with a caret under
  it, why it matters and what to write instead (``help:``), and what its fix does
  (``fix:``) with the changed lines.
* ``grouped``: one heading per file, then ``line:col CODE [*] message`` under it.
* ``pylint``: ``path:line: [CODE] message``, the layout pylint's parseable output and
  the tools that read it expect.

Colour (ANSI) only when the caller asks for it: the CLI asks on a terminal, unless
``NO_COLOR`` is set, or off a terminal when ``FORCE_COLOR`` is.

Names and messages arrive escaped (``format_findings`` makes them printable); the
source lines ``full`` shows are escaped here the same way, tabs kept, with the caret
under the escaped text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from semantics_lint.lint.core.model import Applicability, Edit, Finding, Severity
from semantics_lint.lint.output.printable import printable

SourceReader = Callable[[str], "str | None"]
"""Gives the text of the file a finding names (its display name), or None."""

BOLD = "\x1b[1m"
RED = "\x1b[31m"
YELLOW = "\x1b[33m"
CYAN = "\x1b[36m"
BLUE = "\x1b[34m"
RESET = "\x1b[0m"

CONTEXT_LINES = 2


class Palette:
    """ANSI styles, or none at all."""

    __slots__ = ("on",)

    def __init__(self, on: bool) -> None:
        self.on = on

    def paint(self, text: str, *styles: str) -> str:
        if not self.on or not text:
            return text
        return "".join(styles) + text + RESET

    def code(self, finding: Finding) -> str:
        colour = YELLOW if finding.severity is Severity.WARNING else RED
        return self.paint(finding.code, BOLD, colour)

    def path(self, text: str) -> str:
        return self.paint(text, BOLD)

    def gutter(self, text: str) -> str:
        return self.paint(text, BOLD, BLUE)


def is_fixable(finding: Finding, unsafe: bool) -> bool:
    """True when ``--fix`` (with ``--unsafe-fixes`` when ``unsafe``) would fix it."""
    if finding.fix is None:
        return False
    return unsafe or finding.fix.applicability is Applicability.SAFE


def _mark(finding: Finding, unsafe: bool, palette: Palette) -> str:
    return palette.paint("[*]", CYAN) + " " if is_fixable(finding, unsafe) else ""


def format_concise(findings: Iterable[Finding], *, unsafe: bool = False, color: bool = False) -> str:
    palette = Palette(color)
    return "".join(
        f"{palette.path(f.filename)}:{f.start.line}:{f.start.column + 1}: "
        f"{palette.code(f)} {_mark(f, unsafe, palette)}{f.message}\n"
        for f in findings
    )


def format_pylint(findings: Iterable[Finding]) -> str:
    return "".join(f"{f.filename}:{f.start.line}: [{f.code}] {f.message}\n" for f in findings)


def format_grouped(findings: Sequence[Finding], *, unsafe: bool = False, color: bool = False) -> str:
    palette = Palette(color)
    out: list[str] = []
    for filename, group in _by_file(findings):
        out.append(f"{palette.path(filename)}:\n")
        width = max(len(f"{f.start.line}:{f.start.column + 1}") for f in group)
        for f in group:
            where = f"{f.start.line}:{f.start.column + 1}"
            out.append(f"  {where:<{width}} {palette.code(f)} {_mark(f, unsafe, palette)}{f.message}\n")
        out.append("\n")
    return "".join(out)


def _by_file(findings: Sequence[Finding]) -> list[tuple[str, list[Finding]]]:
    groups: dict[str, list[Finding]] = {}
    for finding in findings:
        groups.setdefault(finding.filename, []).append(finding)
    return list(groups.items())


# ---------------------------------------------------------------------------
# full
# ---------------------------------------------------------------------------


def split_lines(text: str) -> list[str]:
    """``text`` cut at Python's line breaks (``\\n``, ``\\r\\n``, ``\\r``), ends dropped.

    Not ``str.splitlines``: that also breaks at form feeds and U+2028, which the
    tokenizer (and so every reported line number) does not count.
    """
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def format_full(
    findings: Sequence[Finding],
    *,
    unsafe: bool = False,
    color: bool = False,
    read_source: SourceReader | None = None,
) -> str:
    palette = Palette(color)
    cache: dict[str, list[str] | None] = {}
    out: list[str] = []
    for finding in findings:
        out.append(
            f"{palette.path(finding.filename)}:{finding.start.line}:{finding.start.column + 1}: "
            f"{palette.code(finding)} {_mark(finding, unsafe, palette)}{finding.message}\n"
        )
        if finding.filename not in cache:
            text = read_source(finding.filename) if read_source is not None else None
            cache[finding.filename] = split_lines(text) if text is not None else None
        lines = cache[finding.filename]
        if lines is not None and 1 <= finding.start.line <= len(lines):
            out.append(_snippet(finding, lines, palette))
        if finding.help:
            out.append(f"  {palette.paint('help', BOLD, CYAN)}: {finding.help}\n")
        if finding.fix is not None:
            out.append(_fix_help(finding, unsafe, lines, palette))
        out.append("\n")
    return "".join(out)


def _snippet(finding: Finding, lines: list[str], palette: Palette) -> str:
    row = finding.start.line
    first = max(1, row - CONTEXT_LINES)
    last = min(len(lines), row + CONTEXT_LINES)
    width = len(str(last))
    bar = palette.gutter(f"{'':>{width}} |")
    out = [bar + "\n"]
    for number in range(first, last + 1):
        line = lines[number - 1]
        shown = printable(line, tabs=True)
        out.append(f"{palette.gutter(f'{number:>{width}} |')} {shown}".rstrip() + "\n")
        if number == row:
            out.append(f"{bar} {_caret(finding, line, palette)}\n")
    out.append(bar + "\n")
    return "".join(out)


def _caret(finding: Finding, line: str, palette: Palette) -> str:
    """The caret line under ``line`` (as the file holds it) shown escaped: columns
    count characters of the file, the caret those of the escaped text above it."""
    start = min(finding.start.column, len(line))
    if finding.end.line == finding.start.line:
        end = min(max(finding.end.column, start + 1), max(len(line), start + 1))
    else:
        end = max(len(line), start + 1)
    before = printable(line[:start], tabs=True)
    end = len(before) + max(len(printable(line[start:end], tabs=True)), 1)
    start = len(before)
    # Tabs stay tabs in the padding, so the caret lines up under the same column.
    padding = "".join("\t" if char == "\t" else " " for char in before)
    colour = YELLOW if finding.severity is Severity.WARNING else RED
    return padding + palette.paint("^" * (end - start) + " " + finding.code, BOLD, colour)


def _fix_help(finding: Finding, unsafe: bool, lines: list[str] | None, palette: Palette) -> str:
    fix = finding.fix
    assert fix is not None
    if fix.applicability is Applicability.SAFE:
        how = "safe fix, applied by --fix"
    elif unsafe:
        how = "unsafe fix, applied by --fix --unsafe-fixes"
    else:
        how = "unsafe fix: needs --fix --unsafe-fixes"
    out = [f"  {palette.paint('fix', BOLD, CYAN)}: {fix.message} ({how})\n"]
    if lines is not None:
        out.extend(_changed_lines(fix.edits, lines, palette))
    return "".join(out)


def _changed_lines(edits: Sequence[Edit], lines: list[str], palette: Palette) -> list[str]:
    """The lines an edit touches, before (``-``) and after (``+``) the fix."""
    if not edits:
        return []
    first = min(edit.start.line for edit in edits)
    last = max(edit.end.line for edit in edits)
    if first < 1 or last > len(lines):
        return []
    before = lines[first - 1 : last]
    text = "\n".join(before)
    offsets = [0]
    for line in before:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(line: int, column: int) -> int:
        return offsets[line - first] + column

    after = text
    for edit in sorted(edits, key=lambda e: (e.start.line, e.start.column), reverse=True):
        start, end = (
            offset(edit.start.line, edit.start.column),
            offset(edit.end.line, edit.end.column),
        )
        if not 0 <= start <= end <= len(text):
            return []
        after = after[:start] + edit.content + after[end:]
    out = [f"    {palette.paint('- ' + printable(line, tabs=True), RED)}\n" for line in before]
    out.extend(
        f"    {palette.paint('+ ' + printable(line, tabs=True), CYAN)}\n" for line in after.split("\n")
    )
    return out
