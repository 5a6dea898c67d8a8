"""What a run gives, file by file: each file's outcome added to the run's result.

Shared by the runner's two entries, :func:`semantics_lint.lint.run.runner.run` (files
on disk) and :func:`semantics_lint.lint.run.texts.run_text` (a file held in memory):
a file's findings, its fix written (or kept, for standard input) or its diff, a file
that could not be read, the paths and settings files a run could not take.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from semantics_lint.lint.run.discovery import PathProblem, SourceFile, display_name
from semantics_lint.lint.run.jobs import FileOutcome, Job, Mode, run_job
from semantics_lint.lint.run.results import RunOptions, RunResult

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint.core.model import Finding
    from semantics_lint.lint.run.config import ConfigResolver
    from semantics_lint.lint.run.write import FixScope


def mode_of(options: RunOptions) -> Mode:
    if options.diff:
        return "diff"
    return "fix" if options.fix else "lint"


def add_path_problems(result: RunResult, problems: Sequence[PathProblem]) -> None:
    """Report the paths discovery could not take: a message each, before the others,
    and a file error for each error (exit code 2); the rest was linted."""
    result.messages[:0] = [f"{problem.level}: {problem}" for problem in problems]
    result.file_errors += sum(problem.level == "error" for problem in problems)


def config_problems(resolver: ConfigResolver) -> list[PathProblem]:
    """The ``pyproject.toml`` files the configuration search met but could not read:
    an error each (the run exits 2), since which settings apply is then unsure."""
    return [
        PathProblem(
            _shown(path),
            f"not read ({why}); the files below it were linted with the configuration "
            "found above it (or the defaults)",
        )
        for path, why in resolver.unread.items()
    ]


def _shown(path: Path) -> str:
    """``path`` as a message names it: relative to the current folder when inside it."""
    text = os.fspath(path)
    try:
        relative = os.path.relpath(text)
    except ValueError:  # another drive (Windows)
        relative = text
    return display_name(text if relative.startswith(os.pardir) else relative)


def order(finding: Finding) -> tuple[str, int, int, str, str, str]:
    return (*finding.sort_key, finding.message, finding.help or "")


def collect(
    result: RunResult,
    source: SourceFile | None,
    outcome: FileOutcome,
    job: Job,
    scope: FixScope | None = None,
) -> None:
    """Add one file's outcome to ``result``; write its fix (``source`` None: stdin)."""
    result.internal_error = result.internal_error or outcome.internal_error
    result.other_files = result.other_files or outcome.other_files
    collect_unread(result, outcome)
    if outcome.fix_error is not None:
        result.messages.append(f"error: {outcome.fix_error}")
    findings = outcome.findings
    if outcome.fixed_source is not None:
        if job.mode == "diff":
            assert outcome.diff is not None
            result.diffs.append(outcome.diff)
        elif source is None:
            result.fixed_stdin = outcome.fixed_source
        elif not _write_fix(result, source, outcome, scope):
            # What remains is what the unchanged file held, not the fixed text.
            unchanged = outcome.original if outcome.original is not None else job.source
            findings = run_job(Job(job.display, unchanged, job.settings, "lint", False, job.path)).findings
            result.findings.extend(findings)
            return
        result.fixed += outcome.applied
        result.changed_files += 1
        result.fixed_files[outcome.display] = outcome.applied
    result.findings.extend(findings)


def _write_fix(result: RunResult, source: SourceFile, outcome: FileOutcome, scope: FixScope | None) -> bool:
    """Write one file's fix (see ``write.py``); False, with a message, when it was not."""
    from semantics_lint.lint.run import write

    assert outcome.fixed_source is not None
    trees = scope.trees_for(source.path) if scope is not None else None
    try:
        written = write.write_atomic(
            source.path, outcome.fixed_source, expected=outcome.original, trees=trees
        )
    except write.NotWritten as refusal:
        result.file_errors += refusal.error
        level = "error" if refusal.error else "warning"
        result.messages.append(f"{level}: {outcome.display}: not fixed: {refusal}")
        return False
    except OSError as error:
        result.file_errors += 1
        result.messages.append(
            f"error: {outcome.display}: could not write the fixed file "
            f"({error.strerror or error}); it was left unchanged"
        )
        return False
    for leftover in written.removed:
        result.messages.append(f"note: removed {leftover}, a temporary file an interrupted --fix left behind")
    return True


def collect_unread(result: RunResult, outcome: FileOutcome) -> None:
    """Report a file that could not be read: its SEM001 finding, else a message.

    As ruff reports an unreadable file as E902 when that code is selected (and only
    warns otherwise), the file is a SEM001 finding (exit code 1); with SEM001 not
    selected it is an error message naming the file, and the run exits 2, so that an
    unread file never passes for a clean one.
    """
    if outcome.read_error is not None and not outcome.findings:
        result.file_errors += 1
        result.messages.append(f"error: {outcome.display}: cannot read the file: {outcome.read_error}")
