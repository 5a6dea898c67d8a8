"""Applying the fixes findings carry: edits, a fixpoint loop, re-parsing.

The contract (fixes are safe or not offered):

* an edit is a range given as positions (line 1-based, column 0-based in characters of
  the decoded text) plus the text that replaces it; nothing else of the file changes, so
  comments, spacing, line endings (CRLF stays CRLF) and a BOM survive;
* when fixes overlap, the first (outermost) one wins and the others wait for the next
  pass, where they are re-computed on the new text;
* with unsafe fixes allowed, they still wait until no safe fix is left, so that they
  are computed on the text the safe ones produced;
* ``fix_source`` re-lints after every pass until nothing changes, within a bound, and
  never hands back text that does not parse: it raises :class:`FixError` instead, so a
  caller writes nothing;
* writing a fixed file back is ``write.py``'s job.

Unsafe fixes (SEM101's rename to a close match) apply only when the caller asks.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from semantics_lint.lint.core.model import Applicability, Finding, Fix
from semantics_lint.lint.core.source import Decoded, decode

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint.engine import LintSettings

Linter = Callable[["str | Finding", str, "LintSettings | None"], list[Finding]]
"""What lints one file's decoded text (or the SEM001 of bytes that cannot be decoded):
``engine.lint_decoded``'s signature, findings only."""

__all__ = ["FixError", "FixResult", "Linter", "apply_fixes", "fix_decoded", "fix_source"]

# Python's own line breaks. Not ``str.splitlines``: that also breaks on form feed,
# vertical tab, U+2028 and friends, which the tokenizer (and so every position the
# engine reports) does not count as new lines.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BOM = "\ufeff"


class FixError(Exception):
    """Fixing a file failed; nothing should be written. The message says why."""


@dataclass(frozen=True, slots=True)
class FixResult:
    """The outcome of :func:`fix_source`.

    ``source`` is the fixed file (the original bytes when nothing changed), ``applied``
    counts the findings whose fix was applied over all passes, and ``remaining`` holds
    the findings of the fixed source (no noqa filtering: the caller does that); ``text``
    is the fixed file's text when it changed (None otherwise).
    """

    source: bytes
    changed: bool
    applied: int
    remaining: list[Finding] = field(default_factory=list)
    text: str | None = None


# ---------------------------------------------------------------------------
# Edits to offsets
# ---------------------------------------------------------------------------


def _line_starts(text: str) -> list[int]:
    """Offsets at which each line begins; one more entry than line breaks."""
    return [0, *(match.end() for match in _LINE_BREAK.finditer(text))]


def _line_end(text: str, starts: Sequence[int], index: int) -> int:
    """Offset just past the content of line ``index`` (0-based), before its break."""
    if index + 1 < len(starts):
        end = starts[index + 1]
        # Step back over the break: CRLF is two characters, CR or LF one.
        if text.startswith("\r\n", end - 2) and end - 2 >= starts[index]:
            return end - 2
        return end - 1
    return len(text)


def _offset(text: str, starts: Sequence[int], line: int, column: int, what: str) -> int:
    if not 1 <= line <= len(starts):
        raise FixError(f"{what} is on line {line}, but the text has {len(starts)} lines")
    end = _line_end(text, starts, line - 1)
    start = starts[line - 1]
    # The column may point just past the line's content (a range ending at the end of
    # a line) but not into the middle of a line break or beyond it.
    if not 0 <= column <= end - start:
        raise FixError(
            f"{what} is at line {line}, column {column}, past the end of that line ({end - start} characters)"
        )
    return start + column


def _dominant_newline(text: str) -> str:
    match = _LINE_BREAK.search(text)
    return match.group(0) if match else "\n"


@dataclass(frozen=True, slots=True)
class _PlannedFix:
    """One finding's fix, as sorted offset ranges in the current text."""

    ranges: tuple[tuple[int, int, str], ...]

    @property
    def start(self) -> int:
        return self.ranges[0][0]

    @property
    def end(self) -> int:
        return max(end for _, end, _ in self.ranges)


def _plan(text: str, starts: Sequence[int], fix: Fix, code: str) -> _PlannedFix:
    newline = _dominant_newline(text)
    ranges: list[tuple[int, int, str]] = []
    for edit in fix.edits:
        what = f"an edit of the {code} fix"
        start = _offset(text, starts, edit.start.line, edit.start.column, what)
        end = _offset(text, starts, edit.end.line, edit.end.column, what)
        if end < start:
            raise FixError(f"{what} ends before it starts ({edit.start} > {edit.end})")
        content = edit.content
        if newline != "\n" and "\n" in content:
            # New lines written by a fix take the file's own line ending.
            content = _LINE_BREAK.sub(newline, content)
        ranges.append((start, end, content))
    ranges.sort(key=lambda item: (item[0], item[1]))
    return _PlannedFix(tuple(ranges))


def _overlaps(a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
    (a_start, a_end, _), (b_start, b_end, _) = a, b
    if a_start < b_end and b_start < a_end:
        return True
    # Two changes at the same point (an insertion beside anything that starts there)
    # have no order we could defend; the second waits for the next pass.
    return a_start == b_start


def _applicable(findings: Iterable[Finding], unsafe: bool) -> list[Finding]:
    allowed = {Applicability.SAFE, Applicability.UNSAFE} if unsafe else {Applicability.SAFE}
    return [
        finding
        for finding in findings
        if finding.fix is not None and finding.fix.edits and finding.fix.applicability in allowed
    ]


def apply_fixes(text: str, findings: Iterable[Finding], unsafe: bool) -> tuple[str, int]:
    """Apply the fixes of ``findings`` to ``text``; return the new text and how many applied.

    ``text`` is the decoded file without its BOM (positions count characters after it).
    Only safe fixes apply unless ``unsafe`` is true. Fixes are taken outermost first
    (earliest start, then widest range); a fix whose edits overlap an accepted one is
    left for the next pass. Findings carrying the very same fix (two rules proposing
    one change) are all counted as applied, and the change is made once.

    Raises :class:`FixError` when an edit's position does not exist in ``text`` (the
    findings were computed on other text).
    """
    candidates = _applicable(findings, unsafe)
    if not candidates:
        return text, 0
    starts = _line_starts(text)
    planned: list[tuple[_PlannedFix, Finding]] = []
    for finding in candidates:
        assert finding.fix is not None  # filtered by _applicable
        planned.append((_plan(text, starts, finding.fix, finding.code), finding))
    planned.sort(key=lambda item: (item[0].start, -item[0].end))

    accepted: list[tuple[int, int, str]] = []
    accepted_fixes: set[tuple[tuple[int, int, str], ...]] = set()
    applied = 0
    for plan, _finding in planned:
        if plan.ranges in accepted_fixes:
            applied += 1
            continue
        if any(_overlaps(mine, theirs) for mine in plan.ranges for theirs in accepted):
            continue
        accepted.extend(plan.ranges)
        accepted_fixes.add(plan.ranges)
        applied += 1

    # Splice from the end so earlier offsets stay valid.
    pieces: list[str] = []
    cursor = len(text)
    for start, end, content in sorted(accepted, key=lambda item: item[0], reverse=True):
        pieces.append(text[end:cursor])
        pieces.append(content)
        cursor = start
    pieces.append(text[:cursor])
    return "".join(reversed(pieces)), applied


# ---------------------------------------------------------------------------
# The fixpoint loop
# ---------------------------------------------------------------------------


def _encode(decoded: Decoded, text: str, filename: str) -> bytes:
    try:
        return decoded.encode(text)
    except UnicodeEncodeError as exc:
        raise FixError(
            f"{filename}: the fixed text cannot be written in the file's encoding "
            f"{decoded.encoding} ({exc.reason}); nothing was written"
        ) from exc


def _python_compiles(text: str) -> bool:
    """True when CPython compiles ``text``: the parser and the symbol table both accept it.

    Stricter than ``ast.parse``, which accepts a repeated keyword argument or a repeated
    parameter name. Compiling runs nothing. Warnings (an invalid escape in the user's
    code) are the user's business, not this check's, and are silenced.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(text, "<fixed>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
    return True


def _python_parses(text: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
    return True


def _libcst_parses(text: str) -> bool:
    import libcst

    try:
        libcst.parse_module(text)
    except (libcst.ParserSyntaxError, RecursionError, MemoryError):
        return False
    return True


def _duplicate_keys(text: str) -> int | None:
    """How many string keys repeat within dict literals, plus keyword arguments repeated
    within calls (``ast.parse`` accepts those; the compiler refuses them). None when
    ``text`` does not parse.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
    repeats = 0
    for node in ast.walk(tree):
        names: list[object] = []
        if isinstance(node, ast.Dict):
            names = [
                key.value for key in node.keys if isinstance(key, ast.Constant) and isinstance(key.value, str)
            ]
        elif isinstance(node, ast.Call):
            names = [keyword.arg for keyword in node.keywords if keyword.arg is not None]
        repeats += len(names) - len(set(names))
    return repeats


def _collides(before: str, after: str) -> bool:
    """True when ``after`` repeats a key (or keyword) that ``before`` did not."""
    old = _duplicate_keys(before)
    if old is None:
        return False  # nothing to compare against; the parse check decides
    new = _duplicate_keys(after)
    # Text that no longer parses is not a collision: the parse check refuses it, loudly.
    return new is not None and new > old


def _one_pass(text: str, findings: list[Finding], unsafe: bool) -> tuple[str, int]:
    """One pass of the loop: the safe fixes, or, once none is left, the unsafe ones.

    Unsafe fixes wait until the safe ones are done so that they are computed on the
    text the safe ones produced. Two rules may each rename a key to the same field
    (SEM102 ``measured_at`` and SEM101 ``mesuredAt`` beside it, both to
    ``measuredAt``); each is right alone, but applied together they would declare the
    field twice. Re-linted after the safe pass, the unsafe rename sees the field
    already present and is no longer offered.

    Fixes of one pass can still collide among themselves (two typos of one field in
    one dict, each "closest" to it). When a pass would repeat a key that was not
    repeated before, it keeps only the fixes that do not; the next pass is computed
    on that text, where the field is present and the second rename is not offered.
    """
    if unsafe and _applicable(findings, unsafe=False):
        unsafe = False
    new_text, count = apply_fixes(text, findings, unsafe)
    if count == 0 or not _collides(text, new_text):
        return new_text, count
    # Rare: take the fixes one by one, in position order, keeping each that does not
    # collide with those kept so far; the rest wait for the next pass.
    kept: list[Finding] = []
    candidates = sorted(
        _applicable(findings, unsafe),
        key=lambda finding: (finding.fix.edits[0].start, finding.code),  # type: ignore[union-attr]
    )
    for finding in candidates:
        trial, _ = apply_fixes(text, [*kept, finding], unsafe)
        if not _collides(text, trial):
            kept.append(finding)
    # When every fix would repeat a key, none is applied: the findings stay reported
    # and the loop ends, with the text as it was.
    return apply_fixes(text, kept, unsafe)


def fix_source(
    source: bytes,
    filename: str,
    settings: LintSettings | None = None,
    *,
    unsafe: bool,
    max_passes: int = 10,
    lint: Linter | None = None,
) -> FixResult:
    """:func:`fix_decoded` of ``source``, decoded here (``source.decode``)."""
    return fix_decoded(
        source, decode(source), filename, settings, unsafe=unsafe, max_passes=max_passes, lint=lint
    )


def _engine_linter(settings: LintSettings | None) -> tuple[Linter, LintSettings]:
    """The engine's findings of a text, after the prefilter (``fix_decoded``'s default
    ``lint``), and the settings it lints with (the defaults when None)."""
    from semantics_lint.lint import engine

    if settings is None:
        settings = engine.LintSettings()

    def lint(text: str | Finding, filename: str, settings: LintSettings | None) -> list[Finding]:
        assert settings is not None
        if isinstance(text, str) and not engine.might_contain_calls(text, settings):
            return []
        return engine.lint_decoded(text, filename, settings).findings

    return lint, settings


def _checker_for(text: str) -> Callable[[str], bool]:
    """The strictest parse check ``text`` passes: CPython's compile, ``ast.parse``, or LibCST."""
    if _python_compiles(text):
        return _python_compiles
    if _python_parses(text):
        return _python_parses
    return _libcst_parses


def fix_decoded(
    source: bytes,
    decoded: Decoded | Finding,
    filename: str,
    settings: LintSettings | None = None,
    *,
    unsafe: bool,
    max_passes: int = 10,
    lint: Linter | None = None,
) -> FixResult:
    """Fix one file's bytes, ``decoded`` as ``source.decode`` gives them (the caller
    decoded them once): apply, re-lint the text, repeat until nothing changes.

    Returns the fixed bytes (same encoding, BOM and line endings as ``source``), whether
    they differ, how many findings were fixed, and the findings that remain. A file the
    engine cannot decode or parse is returned unchanged with its SEM001 finding.

    Raises :class:`FixError` (and so nothing must be written) when a pass produces text
    that does not parse, when the text cannot be encoded back, or when fixes keep
    changing the text after ``max_passes`` passes.

    ``lint`` gives the findings of a text (by default ``engine.lint_decoded``'s, after
    the prefilter; tests drive the loop with findings no real rule produces).

    The parse check is CPython's ``compile`` (parser and symbol table; nothing runs).
    A file that already fails it is held to ``ast.parse``, and one that fails even that
    but that LibCST parses (newer syntax) to LibCST: a fix must not make a file worse,
    and fixing such a file is neither refused nor unchecked.
    """
    if max_passes < 1:
        raise ValueError("max_passes must be at least 1")
    if lint is None:
        lint, settings = _engine_linter(settings)
    if isinstance(decoded, Finding):
        # Bytes that cannot be decoded: left as they are, with their finding.
        return FixResult(source, False, 0, lint(decoded, filename, settings))
    findings = lint(decoded.text, filename, settings)
    if not _applicable(findings, unsafe):
        return FixResult(source, False, 0, findings)

    # Hold the fixed text to the strictest check the original passes: a fix must not
    # make the file worse, and a file this Python cannot compile (newer syntax, or a
    # module-level "return" it already had) is still checked as far as it goes.
    checker = _checker_for(decoded.text)
    text = decoded.text
    current = source
    applied = 0
    for _ in range(max_passes):
        new_text, count = _one_pass(text, findings, unsafe)
        if new_text == text:
            break
        if not checker(new_text):
            raise FixError(
                f"{filename}: applying the fixes would produce code that does not parse; nothing was written"
            )
        text = new_text
        applied += count
        current = _encode(decoded, text, filename)
        findings = lint(text, filename, settings)
        if any(finding.code == "SEM001" for finding in findings):
            raise FixError(f"{filename}: the fixed code no longer parses for the linter; nothing was written")
    else:
        # The bound is spent; converged only if one more pass would change nothing.
        if _one_pass(text, findings, unsafe)[0] != text:
            raise FixError(
                f"{filename}: fixes did not converge after {max_passes} passes; nothing was written"
            )
    changed = current != source
    return FixResult(current, changed, applied, findings, text if changed else None)
