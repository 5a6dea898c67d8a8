"""Text for people and log readers: every character that could forge output, escaped.

A finding's message quotes the linted source (a key as it is written), and file names
come from the file system: both are the checkout's text, not ours. A key written as
``"a\\n::error::forged\\x1b[2K"`` would otherwise start a line of its own in the output
(a GitHub workflow command, a fake finding) and send a raw escape sequence to the
terminal. So every format people or CI logs read (concise, full, grouped, pylint,
github, junit) shows such text through :func:`printable`, applied once, in
:func:`readable`, by ``format_findings``; the machine formats (JSON, JSON lines,
SARIF, GitLab) carry the text unchanged, as JSON strings escape it themselves.

What is escaped: every character ``str.isprintable`` refuses, that is control
characters (C0 with newline, carriage return and ESC; DEL; C1), line and paragraph
separators, format characters (bidirectional overrides among them) and unassigned
code points, as ``\\n``, ``\\x1b``, ``\\u202e``; and an undecodable byte of a file
name (a surrogate escape) as ``\\xNN``. Everything else, letters of any script
included, is shown as it is. After this no line of output can hold a newline or
carriage return taken from the source, so no line can start with ``::`` but the
github format's own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint.core.model import Finding

__all__ = ["printable", "readable"]


def printable(text: str, *, tabs: bool = False) -> str:
    """``text`` with every character that cannot be printed safely escaped (see the
    module's docstring); ``tabs`` keeps tab characters (indentation of a source line)."""
    if text.isprintable():
        return text
    out: list[str] = []
    for char in text:
        if char.isprintable() or (tabs and char == "\t"):
            out.append(char)
        elif "\udc80" <= char <= "\udcff":  # an undecodable byte (surrogateescape)
            out.append(f"\\x{ord(char) - 0xDC00:02x}")
        else:
            out.append(char.encode("unicode_escape").decode("ascii"))
    return "".join(out)


def readable(findings: Iterable[Finding]) -> list[Finding]:
    """``findings`` with their file name, message, help and fix message made
    :func:`printable` (a finding with nothing to escape is kept as it is)."""
    out: list[Finding] = []
    for finding in findings:
        filename = printable(finding.filename)
        message = printable(finding.message)
        help = printable(finding.help) if finding.help is not None else None
        fix = finding.fix
        if fix is not None:
            fix_message = printable(fix.message)
            if fix_message != fix.message:
                fix = fix._replace(message=fix_message)
        if (
            filename != finding.filename
            or message != finding.message
            or help != finding.help
            or fix is not finding.fix
        ):
            finding = finding._replace(filename=filename, message=message, help=help, fix=fix)
        out.append(finding)
    return out
