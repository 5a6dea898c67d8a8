"""Inline suppression: flake8's ``# noqa`` grammar, applied to our findings.

One comment works in both frontends: ``semantics-lint check`` filters with this
module, and flake8 (which runs our plugin) filters with its own copy of the same
grammar. The grammar is flake8's (``flake8.defaults.NOQA_INLINE_REGEXP``):

* ``# noqa`` (any casing: ``# NOQA``, ``# NoQA``) suppresses every code on the line;
* ``# noqa: SEM102`` / ``# noqa:SEM102,SEM203`` / ``# noqa: SEM102 SEM203`` suppress
  the codes listed, and a listed prefix (``# noqa: SEM1``) suppresses what it starts;
* a comment that starts ``# noqa:`` but lists nothing that looks like a code is a
  blanket ``# noqa``, exactly as flake8 reads it.

The comment is looked for on the line a finding *starts* on (the reported line).
As in flake8, a statement whose tokens span several lines without a line break
token between them (a multi-line string, a backslash continuation) counts as one
line for this purpose, so a ``# noqa`` after a triple-quoted string covers a
finding inside it. Inside brackets every physical line stands alone, so a finding
on an inner line of a multi-line call needs its comment on that inner line.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from semantics_lint.lint.model import Finding

# The grammar of flake8's NOQA_INLINE_REGEXP: the marker (any casing), then optionally
# ":" with at most one whitespace, then codes separated by commas and/or whitespace.
NOQA_INLINE = re.compile(
    r"# noqa(?::[\s]?(?P<codes>(?:[A-Z]+[0-9]+(?:[,\s]+)?)+))?",
    re.IGNORECASE,
)
_CODE_SEPARATOR = re.compile(r"[,\s]+")
# Python's own line breaks. Not ``str.splitlines``: that also breaks on form feed,
# U+2028 and friends, which the tokenizer (and so every reported line) does not count.
_PHYSICAL_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


@dataclass(frozen=True, slots=True)
class Noqa:
    """One parsed ``# noqa`` comment: ``codes`` is None for a blanket suppression."""

    codes: tuple[str, ...] | None

    def suppresses(self, code: str) -> bool:
        """True when this comment suppresses ``code`` (exact code or listed prefix).

        Codes compare case-sensitively, as flake8 compares them: ``# noqa:sem102``
        parses but suppresses nothing of ours.
        """
        if self.codes is None:
            return True
        return code in self.codes or code.startswith(self.codes)


def parse_noqa(line: str) -> Noqa | None:
    """The ``# noqa`` comment of ``line``, or None when it has none."""
    match = NOQA_INLINE.search(line)
    if match is None:
        return None
    codes_text = match.group("codes")
    if codes_text is None:
        return Noqa(None)
    codes = tuple(code for code in _CODE_SEPARATOR.split(codes_text) if code)
    return Noqa(codes)


def physical_lines(text: str) -> list[str]:
    """``text`` cut at Python's line breaks (``\\n``, ``\\r\\n``, ``\\r``), ends kept."""
    return _PHYSICAL_LINE.findall(text)


def noqa_lines(text: str) -> dict[int, str]:
    """Map each 1-based line number to the text searched for its ``# noqa``.

    Mirrors flake8's line mapping: lines between two line-break tokens (NEWLINE or
    NL) are joined, so a token spanning lines shares one comment. When the text
    cannot be tokenized, every physical line stands alone.
    """
    lines = physical_lines(text)
    mapping: dict[int, str] = {}
    try:
        # Universal newlines, so a lone "\r" ends a line for the tokenizer too.
        tokens = list(tokenize.generate_tokens(io.StringIO(text, newline=None).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        tokens = []
    first = len(lines) + 2
    last = -1
    for token in tokens:
        if token.type in (tokenize.ENDMARKER, tokenize.DEDENT):
            continue
        first = min(first, token.start[0])
        last = max(last, token.end[0])
        if token.type in (tokenize.NL, tokenize.NEWLINE):
            joined = "".join(lines[first - 1 : last])
            for number in range(first, last + 1):
                mapping[number] = joined
            first = len(lines) + 2
            last = -1
    # Lines the tokenizer never reached (or all of them, if it failed) stand alone.
    for number, line in enumerate(lines, start=1):
        mapping.setdefault(number, line)
    return mapping


def filter_noqa(text: str, findings: Iterable[Finding]) -> list[Finding]:
    """The findings of one file that no ``# noqa`` comment on their line suppresses.

    ``text`` is the decoded source of the file the findings came from. Files that
    never mention ``noqa`` (the common case) are not tokenized at all.
    """
    kept = list(findings)
    if not kept or "noqa" not in text.lower():
        return kept
    mapping = noqa_lines(text)
    return [f for f in kept if not _is_suppressed(f, mapping)]


def _is_suppressed(finding: Finding, mapping: Mapping[int, str]) -> bool:
    line = mapping.get(finding.start.line)
    if line is None:
        return False
    noqa = parse_noqa(line)
    return noqa is not None and noqa.suppresses(finding.code)
