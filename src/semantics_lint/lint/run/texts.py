"""The runner's entry for a file held in memory: standard input, an editor's buffer,
flake8's lines (:func:`run_text`).

What it does for a file is what :func:`semantics_lint.lint.run.runner.run` does for a
file on disk: its configuration, selection, ``# noqa``, ``--fix`` (the fixed bytes kept
in the result, never written). With the caller's settings (flake8's), it needs none of
that, and imports none of it: a file without our API costs flake8 one scan of its text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from semantics_lint.lint.run.results import DEFAULT_OPTIONS, InMemory, RunOptions, RunResult
from semantics_lint.reading import MAX_SOURCE_BYTES, too_large

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint.core.settings import LintSettings

__all__ = [
    "DEFAULT_OPTIONS",
    "MAX_SOURCE_BYTES",
    "STDIN_DISPLAY",
    "InMemory",
    "RunOptions",
    "run_stdin",
    "run_text",
]

STDIN_DISPLAY = "-"


def run_text(source: InMemory, options: RunOptions, *, settings: LintSettings | None = None) -> RunResult:
    """Lint (or fix) a file held in memory: what :func:`run` does for a file on disk.

    The configuration is the one governing ``source.path``; with ``force_exclude``, a
    path the configuration excludes is not linted (``excluded``), as that file named
    on the command line would not be: editors and pre-commit pass every file by name.
    With ``--fix``, the fixed bytes are ``fixed_stdin``; nothing is written.

    ``settings`` given (flake8's options) replaces the configuration and ``options``:
    none is read, and every finding the engine makes for the codes they enable is reported as it
    is, ``# noqa`` and selection being the caller's; an exception in the engine is
    the caller's too. Input larger than
    :data:`~semantics_lint.reading.MAX_SOURCE_BYTES` is not linted: it is the SEM001
    finding a file that large is.
    """
    display = source.path or STDIN_DISPLAY
    if settings is not None:
        result = RunResult(files=1)
        _lint_as_given(result, source, display, settings)
        return result
    import os
    from pathlib import Path

    from semantics_lint.lint.run.config import resolver_for
    from semantics_lint.lint.run.discovery import excluded_by_config
    from semantics_lint.lint.run.outcomes import add_path_problems, config_problems
    from semantics_lint.lint.run.selection import check_options, codes_for_file, settings_for

    check_options(options)
    resolver = resolver_for(options.config_file)
    path = Path(os.path.abspath(source.path or "stdin.py"))
    config = resolver.for_file(path)
    if options.force_exclude and source.path is not None and excluded_by_config(path, config, whole=True):
        result = RunResult(files=0, excluded=True)
    else:
        result = RunResult(files=1)
        codes = codes_for_file(config, options, path)
        _lint_text(result, source, display, options, settings_for(config, codes), codes)
    add_path_problems(result, config_problems(resolver))
    return result


def run_stdin(
    source: bytes,
    options: RunOptions,
    stdin_filename: str | None = None,
    *,
    complete: bool = True,
    size: int | None = None,
) -> RunResult:
    """Lint (or fix) bytes read from standard input (:func:`run_text`), named
    ``stdin_filename`` (None: ``-``)."""
    return run_text(InMemory(stdin_filename, source, complete=complete, size=size), options)


def _too_large(
    result: RunResult,
    source: InMemory,
    data: bytes | None,
    display: str,
    codes: frozenset[str] | None,
) -> bool:
    """True when the input is over the size limit; it is then the result's SEM001 (or,
    with SEM001 not selected, its error). ``codes`` None: every code runs."""
    if source.complete and (data is None or len(data) <= MAX_SOURCE_BYTES):
        return False
    shown = source.size
    if shown is None and data is not None and source.complete:
        shown = len(data)
    from semantics_lint.lint.run.jobs import CRASH_CODE, FileOutcome, unreadable_finding
    from semantics_lint.lint.run.outcomes import collect_unread

    reason = too_large(shown, MAX_SOURCE_BYTES)
    unread = [unreadable_finding(display, reason)] if codes is None or CRASH_CODE in codes else []
    collect_unread(result, FileOutcome(display, unread, linted=False, read_error=reason))
    result.findings = unread
    return True


def _bytes_of(
    result: RunResult, source: InMemory, display: str, codes: frozenset[str] | None
) -> bytes | None:
    """The bytes of ``source`` (its text written back when it holds none); None when it
    is over the size limit, which is then the result's SEM001 (see :func:`_too_large`)."""
    data = source.data
    if _too_large(result, source, data, display, codes):
        return None
    if data is None:
        from semantics_lint.lint.core.source import saved_bytes

        data = saved_bytes(source.text or "")
        if _too_large(result, source, data, display, codes):
            return None
    return data


def _lint_text(
    result: RunResult,
    source: InMemory,
    display: str,
    options: RunOptions,
    settings: LintSettings,
    codes: frozenset[str],
) -> None:
    from semantics_lint.lint import engine
    from semantics_lint.lint.run.jobs import Job, run_job, unused_noqa_only
    from semantics_lint.lint.run.outcomes import collect, mode_of, order

    data = _bytes_of(result, source, display, codes)
    if data is None:
        return
    if not codes or not engine.might_contain_calls(data, settings):
        result.findings = unused_noqa_only(data, display, codes)
        return
    result.linted = 1
    job = Job(display, data, settings, mode_of(options), options.unsafe_fixes)
    collect(result, None, run_job(job), job)
    result.findings.sort(key=order)


def _lint_as_given(result: RunResult, source: InMemory, display: str, settings: LintSettings) -> None:
    """The engine's findings for ``settings``, nothing filtered (see :func:`run_text`)."""
    from semantics_lint.lint import engine

    text = source.text
    if text is not None and not engine.might_contain_calls(text, settings):
        return  # most files: one scan of the text, nothing encoded
    data = _bytes_of(result, source, display, None)
    if data is None:
        return
    result.linted = 1
    if (
        source.tree is not None
        and engine.might_contain_calls(data, settings)
        and engine.decode_source(data) == text
    ):
        # The engine would parse this very text, as the caller did: its tree is linted.
        result.findings = engine.lint_parsed(source.tree, text, display, settings)
    else:
        result.findings = engine.lint_source(data, display, settings)
