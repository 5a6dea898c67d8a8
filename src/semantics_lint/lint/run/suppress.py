"""Suppression comments: flake8's ``# noqa`` grammar, file-level exemptions, unused ones.

One comment works in both frontends: ``semantics-lint check`` filters with this
module, and flake8 (which runs our plugin) filters with its own copy of the same
grammar. The line grammar is flake8's (``flake8.defaults.NOQA_INLINE_REGEXP``):

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

A whole file is exempted by a line that starts with ``# semantics-lint: noqa``
(every code) or ``# semantics-lint: noqa: SEM102, SEM2`` (those codes), or with
flake8's ``# flake8: noqa`` (every code; with codes, only those, as ruff reads it:
flake8 itself then skips the whole file).

SEM002 (unused-noqa, ruff's RUF100) reports the codes of ours that a ``# noqa``
comment lists but that suppressed nothing on its line: a code whose rule ran and
found nothing there, or a ``SEM`` code that names no rule. Codes of other tools,
codes of rules that did not run for the file, and blanket comments are left alone:
the linter cannot know what they are for. Only real comments count (a ``# noqa``
inside a string is not a directive).

``--add-noqa`` (:func:`add_noqa`) writes the comment each remaining finding needs.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING

from semantics_lint.lint.core.model import Finding, Position, Severity

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint.engine import LintSettings

UNUSED_NOQA_CODE = "SEM002"


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The regular expressions, compiled on first use rather than at import."""
    # The grammar of flake8's NOQA_INLINE_REGEXP: the marker (any casing), then
    # optionally ":" with at most one whitespace, then codes separated by commas
    # and/or whitespace.
    inline = re.compile(r"# noqa(?::[\s]?(?P<codes>(?:[A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
    separator = re.compile(r"[,\s]+")
    # Python's own line breaks. Not ``str.splitlines``: that also breaks on form feed,
    # U+2028 and friends, which the tokenizer (and so every reported line) does not count.
    physical = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
    # A line that starts with the file-level marker (flake8 matches its own the same way).
    whole_file = re.compile(
        r"^[ \t\f]*#[ \t]*(?:flake8|semantics-lint)[:=][ \t]*noqa"
        r"(?::[ \t]*(?P<codes>[A-Z]+[0-9]+(?:[, \t]+[A-Z]+[0-9]+)*))?",
        re.IGNORECASE | re.MULTILINE,
    )
    return inline, separator, physical, whole_file


class Noqa:
    """One parsed ``# noqa`` comment: ``codes`` is None for a blanket suppression."""

    __slots__ = ("codes",)

    def __init__(self, codes: tuple[str, ...] | None) -> None:
        self.codes = codes

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Noqa) and other.codes == self.codes

    def __hash__(self) -> int:
        return hash(self.codes)

    def __repr__(self) -> str:
        return f"Noqa(codes={self.codes!r})"

    def suppresses(self, code: str) -> bool:
        """True when this comment suppresses ``code`` (exact code or listed prefix).

        Codes compare case-sensitively, as flake8 compares them: ``# noqa:sem102``
        parses but suppresses nothing of ours.
        """
        if self.codes is None:
            return True
        return code in self.codes or code.startswith(self.codes)


def _codes(text: str) -> tuple[str, ...]:
    return tuple(code for code in _patterns()[1].split(text) if code)


def parse_noqa(line: str) -> Noqa | None:
    """The ``# noqa`` comment of ``line``, or None when it has none."""
    match = _patterns()[0].search(line)
    if match is None:
        return None
    codes_text = match.group("codes")
    if codes_text is None:
        return Noqa(None)
    return Noqa(_codes(codes_text))


def file_noqa(text: str) -> Noqa | None:
    """The file-level exemption of ``text`` (all its marker lines together), or None."""
    if "noqa" not in text and "NOQA" not in text.upper():
        return None
    codes: list[str] = []
    found = False
    for match in _patterns()[3].finditer(text):
        found = True
        listed = match.group("codes")
        if listed is None:
            return Noqa(None)
        codes.extend(_codes(listed))
    return Noqa(tuple(dict.fromkeys(codes))) if found else None


def physical_lines(text: str) -> list[str]:
    """``text`` cut at Python's line breaks (``\\n``, ``\\r\\n``, ``\\r``), ends kept."""
    return _patterns()[2].findall(text)


def _tokens(text: str) -> list[tokenize.TokenInfo] | None:
    try:
        # Universal newlines, so a lone "\r" ends a line for the tokenizer too.
        return list(tokenize.generate_tokens(io.StringIO(text, newline=None).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None


def _spans(tokens: Iterable[tokenize.TokenInfo]) -> list[tuple[int, int]]:
    """The (first, last) physical lines between two line-break tokens, flake8's unit."""
    spans: list[tuple[int, int]] = []
    first, last = -1, -1
    for token in tokens:
        if token.type in (tokenize.ENDMARKER, tokenize.DEDENT):
            continue
        first = token.start[0] if first < 0 else min(first, token.start[0])
        last = max(last, token.end[0])
        if token.type in (tokenize.NL, tokenize.NEWLINE):
            spans.append((first, last))
            first, last = -1, -1
    return spans


def noqa_lines(text: str) -> dict[int, str]:
    """Map each 1-based line number to the text searched for its ``# noqa``.

    Mirrors flake8's line mapping: lines between two line-break tokens (NEWLINE or
    NL) are joined, so a token spanning lines shares one comment. When the text
    cannot be tokenized, every physical line stands alone.
    """
    lines = physical_lines(text)
    mapping: dict[int, str] = {}
    for first, last in _spans(_tokens(text) or ()):
        joined = "".join(lines[first - 1 : last])
        for number in range(first, last + 1):
            mapping[number] = joined
    # Lines the tokenizer never reached (or all of them, if it failed) stand alone.
    for number, line in enumerate(lines, start=1):
        mapping.setdefault(number, line)
    return mapping


def _mentions_noqa(text: str) -> bool:
    return "noqa" in text or "noqa" in text.lower()


def filter_noqa(text: str, findings: Iterable[Finding]) -> list[Finding]:
    """The findings of one file that no ``# noqa`` comment suppresses.

    ``text`` is the decoded source of the file the findings came from. Files that
    never mention ``noqa`` (the common case) are not tokenized at all.
    """
    kept = list(findings)
    if not kept or not _mentions_noqa(text):
        return kept
    exempt = file_noqa(text)
    if exempt is not None:
        kept = [f for f in kept if not exempt.suppresses(f.code)]
        if not kept:
            return kept
    mapping = noqa_lines(text)
    return [f for f in kept if not _is_suppressed(f, mapping)]


def _is_suppressed(finding: Finding, mapping: Mapping[int, str]) -> bool:
    line = mapping.get(finding.start.line)
    if line is None:
        return False
    noqa = parse_noqa(line)
    return noqa is not None and noqa.suppresses(finding.code)


# ---------------------------------------------------------------------------
# Unused noqa (SEM002)
# ---------------------------------------------------------------------------


def apply_noqa(
    text: str,
    findings: Iterable[Finding],
    enabled: Iterable[str] | None,
    filename: str,
) -> list[Finding]:
    """:func:`filter_noqa`, plus SEM002 for the codes of ours no comment needed.

    ``findings`` are the file's findings of the ``enabled`` codes (None: every
    code), before any ``# noqa``; SEM002 is reported only when it is enabled.
    """
    raw = list(findings)
    kept = filter_noqa(text, raw)
    codes = _known_codes() if enabled is None else frozenset(enabled)
    if UNUSED_NOQA_CODE not in codes or not _mentions_noqa(text):
        return kept
    exempt = file_noqa(text)
    if exempt is not None and exempt.suppresses(UNUSED_NOQA_CODE):
        return kept
    unused = unused_noqa(text, raw, codes, filename)
    if not unused:
        return kept
    mapping = noqa_lines(text)
    return kept + [f for f in unused if not _is_suppressed(f, mapping)]


def _known_codes() -> frozenset[str]:
    from semantics_lint.lint.run.config import known_codes

    return known_codes()


def _is_rule(code: str) -> bool:
    """True when ``code`` (a code or a prefix) matches a rule's code: one of the
    generated list, or (asked only when the list has none) of the rule registry, so
    that a rule added since the list was generated is known to ``# noqa``."""
    from semantics_lint.lint.run.config import known_codes, registered_codes

    return any(known.startswith(code) for known in known_codes()) or any(
        known.startswith(code) for known in registered_codes()
    )


def unused_noqa(
    text: str, findings: Iterable[Finding], enabled: Iterable[str], filename: str
) -> list[Finding]:
    """SEM002 findings: codes of ours that ``# noqa`` comments list and did not need."""
    tokens = _tokens(text)
    if tokens is None:
        return []
    enabled = frozenset(enabled)
    span_of: dict[int, tuple[int, int]] = {}
    for first, last in _spans(tokens):
        for number in range(first, last + 1):
            span_of[number] = (first, last)
    by_line: dict[int, list[str]] = {}
    for finding in findings:
        by_line.setdefault(finding.start.line, []).append(finding.code)
    inline = _patterns()[0]
    out: list[Finding] = []
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        match = inline.search(token.string)
        if match is None or match.group("codes") is None:
            continue
        row, column = token.start
        first, last = span_of.get(row, (row, row))
        found = [code for number in range(first, last + 1) for code in by_line.get(number, ())]
        unused: list[str] = []
        unknown: list[str] = []
        for code in _codes(match.group("codes")):
            if not code.startswith("SEM"):
                continue  # another tool's code
            if not _is_rule(code):
                unknown.append(code)
            elif any(enabled_code.startswith(code) for enabled_code in enabled) and not any(
                found_code.startswith(code) for found_code in found
            ):
                unused.append(code)
        if not unused and not unknown:
            continue
        parts = []
        if unused:
            parts.append("nothing to suppress: " + ", ".join(f"`{c}`" for c in unused))
        if unknown:
            parts.append("no such rule: " + ", ".join(f"`{c}`" for c in unknown))
        out.append(
            Finding(
                UNUSED_NOQA_CODE,
                f"unused `# noqa` directive ({'; '.join(parts)}); remove the code, or the comment",
                Severity.ERROR,
                filename,
                Position(row, column + match.start()),
                Position(row, column + match.end()),
            )
        )
    return out


def lint_with_noqa(source: bytes, filename: str, settings: LintSettings | None = None) -> list[Finding]:
    """The findings ``semantics-lint check`` reports for one file's bytes: the engine's,
    then ``# noqa`` and SEM002 (the runner's steps, for tests and examples)."""
    from semantics_lint.lint import engine
    from semantics_lint.lint.core.source import text_of

    settings = settings or engine.LintSettings()
    raw = engine.lint_source(source, filename, settings)
    enabled = settings.enabled
    if enabled is not None:
        raw = [f for f in raw if f.code in enabled]
    return sorted(
        apply_noqa(text_of(source), raw, enabled, filename),
        key=lambda f: (f.start.line, f.start.column, f.code),
    )


# ---------------------------------------------------------------------------
# --add-noqa
# ---------------------------------------------------------------------------


def add_noqa(text: str, findings: Iterable[Finding]) -> tuple[str, int] | None:
    """``text`` with the ``# noqa: CODE`` comments that suppress ``findings``.

    Each finding's comment goes at the end of the last line of its span (where a
    comment can stand: after a multi-line string, not inside it); a line that has
    a ``# noqa: ...`` comment gets the missing codes added to it. Returns the new
    text and how many comments were written or extended, or None when the text
    cannot be tokenized (nothing can be placed safely). SEM001 and SEM002 findings
    get no comment (a file that does not parse, a comment about a comment).
    """
    tokens = _tokens(text)
    if tokens is None:
        return None
    span_end: dict[int, int] = {}
    for first, last in _spans(tokens):
        for number in range(first, last + 1):
            span_end[number] = last
    comments = {token.start[0]: token for token in tokens if token.type == tokenize.COMMENT}
    wanted: dict[int, list[str]] = {}
    for finding in findings:
        if finding.code in ("SEM001", UNUSED_NOQA_CODE):
            continue
        target = span_end.get(finding.start.line, finding.start.line)
        codes = wanted.setdefault(target, [])
        if finding.code not in codes:
            codes.append(finding.code)
    if not wanted:
        return text, 0
    lines = physical_lines(text)
    inline = _patterns()[0]
    changed = 0
    for number, codes in sorted(wanted.items()):
        if not 1 <= number <= len(lines):
            continue
        line = lines[number - 1]
        body = line.rstrip("\r\n")
        ending = line[len(body) :]
        comment = comments.get(number)
        match = inline.search(comment.string) if comment is not None else None
        if comment is not None and match is not None:
            if match.group("codes") is None:
                continue  # a blanket noqa already covers the line
            present = _codes(match.group("codes"))
            missing = [code for code in codes if not Noqa(present).suppresses(code)]
            if not missing:
                continue
            listed = match.group("codes").rstrip(", \t")
            end = comment.start[1] + match.start("codes") + len(listed)
            body = body[:end] + ", " + ", ".join(missing) + body[end:]
        else:
            body = f"{body.rstrip()}  # noqa: {', '.join(codes)}"
        lines[number - 1] = body + ending
        changed += 1
    return "".join(lines), changed
