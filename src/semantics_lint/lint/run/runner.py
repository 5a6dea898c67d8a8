"""The one place that turns (paths, options) into findings, fixes and diffs.

Flow, per run:

1. discovery (``discovery.py``) lists the files; the configuration governing each
   file's folder (``config.py``) gives its settings (``selection.py``): which codes
   run (select, extend-select, ignore, per-file-ignores), the API modules and call
   names;
2. each file is read and put through the engine's textual prefilter, so a file
   that cannot hold a call of ours never costs a parse. The parent reads files
   until enough pass for a process pool to start (``--jobs``); the pool's workers
   then read and prefilter the rest themselves, so the parent neither reads nor
   sends their bytes. Without a pool, every file is read and prefiltered in-process;
3. the files that pass are linted (or fixed) in-process or in the pool (``pool.py``),
   one job per file (``jobs.py``); the engine's findings are filtered by the selected
   codes and by ``# noqa`` in the same step, so fixes never touch a suppressed finding;
4. fixed files are written here, in the parent (``write.py``), and every finding is
   sorted by (filename, line, column, code), so the output is the same whatever
   ``--jobs`` is. A lint run reads and fills the results cache (``cache.py``).

A failure on one file never aborts the run: the engine reports unparsable files
as SEM001 itself, and anything else that goes wrong on a file (an exception in a
rule, a worker process that dies) becomes a SEM001 finding for that file that
says so, and marks the run as having had an internal error (exit code 2).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from semantics_lint.lint.run.config import Config, ConfigResolver, resolver_for
from semantics_lint.lint.run.discovery import (
    PathProblem,
    SourceFile,
    discover,
    display_name,
    excluded_by_config,
)
from semantics_lint.lint.run.jobs import (
    CRASH_CODE,
    FileOutcome,
    Job,
    Mode,
    load,
    run_job,
    unreadable_finding,
    unused_noqa_only,
)
from semantics_lint.lint.run.pool import (
    MIN_FILES_FOR_POOL,
    Progress,
    default_jobs,
    pool_size,
    run_jobs,
)
from semantics_lint.lint.run.results import DEFAULT_OPTIONS, InMemory, RunOptions, RunResult
from semantics_lint.lint.run.selection import (
    check_options,
    codes_for_file,
    settings_for,
)
from semantics_lint.reading import MAX_SOURCE_BYTES, too_large

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint.core.model import Finding
    from semantics_lint.lint.engine import LintSettings
    from semantics_lint.lint.run.cache import ResultCache
    from semantics_lint.lint.run.write import FixScope

__all__ = [
    "DEFAULT_OPTIONS",
    "MAX_SOURCE_BYTES",
    "STDIN_DISPLAY",
    "Discovered",
    "InMemory",
    "RunOptions",
    "RunResult",
    "add_path_problems",
    "check_options",
    "codes_for_file",
    "config_problems",
    "discover_paths",
    "fix_scope",
    "run",
    "run_discovered",
    "run_sources",
    "run_stdin",
    "run_text",
    "settings_for",
]

STDIN_DISPLAY = "-"


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------


def _mode(options: RunOptions) -> Mode:
    if options.diff:
        return "diff"
    return "fix" if options.fix else "lint"


def run(paths: Sequence[str], options: RunOptions) -> RunResult:
    """Lint (or fix, or diff) every file ``paths`` reach.

    Raises :class:`ConfigError` (configuration or selector mistakes) and
    ``DiscoveryError`` (a path that does not exist) before any file is linted. A path
    the walk could not take is a message (see :func:`add_path_problems`).
    """
    return run_discovered(discover_paths(paths, options), paths, options)


Discovered = tuple[ConfigResolver, list[SourceFile], list[PathProblem]]
"""What :func:`discover_paths` found: the resolver, the files, the paths it could not take."""


def discover_paths(paths: Sequence[str], options: RunOptions) -> Discovered:
    """The first half of :func:`run`: check the options and walk ``paths``; a caller
    that shows progress learns here how many files there are."""
    check_options(options)
    resolver = _resolver(options)
    problems: list[PathProblem] = []
    sources = discover(
        paths,
        resolver,
        respect_gitignore=options.respect_gitignore,
        force_exclude=options.force_exclude,
        problems=problems,
    )
    return resolver, sources, problems


def run_discovered(
    found: Discovered, paths: Sequence[str], options: RunOptions, progress: Progress | None = None
) -> RunResult:
    """The second half of :func:`run`: lint what :func:`discover_paths` found; the paths
    it could not take, and the settings files that could not be read, are messages."""
    resolver, sources, problems = found
    result = run_sources(sources, resolver, options, scope=fix_scope(paths, options), progress=progress)
    add_path_problems(result, [*problems, *config_problems(resolver)])
    return result


def add_path_problems(result: RunResult, problems: Sequence[PathProblem]) -> None:
    """Report the paths discovery could not take: a message each, before the others,
    and a file error for each error (exit code 2); the rest was linted."""
    result.messages[:0] = [f"{problem.level}: {problem}" for problem in problems]
    result.file_errors += sum(problem.level == "error" for problem in problems)


def fix_scope(paths: Sequence[str], options: RunOptions) -> FixScope | None:
    """Where ``--fix`` may write for these command-line ``paths`` (None when not fixing)."""
    if _mode(options) != "fix":
        return None
    from semantics_lint.lint.run.write import FixScope

    return FixScope.of(paths)


def _resolver(options: RunOptions) -> ConfigResolver:
    return resolver_for(options.config_file)


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


def run_sources(
    sources: Sequence[SourceFile],
    resolver: ConfigResolver,
    options: RunOptions,
    *,
    scope: FixScope | None = None,
    progress: Progress | None = None,
) -> RunResult:
    """Lint the discovered ``sources`` (see :func:`run`).

    ``scope`` is where fixes may be written (the command line's paths); None writes
    each source's fix wherever its path leads, as if each had been named.
    ``progress`` is told as files are done (those settled in this process as they are
    read, the linted ones as they finish), for a progress line.
    """

    mode = _mode(options)
    unsafe = options.unsafe_fixes
    jobs: list[Job] = []
    targets: list[tuple[int, SourceFile]] = []  # each job's file and its place in sources
    not_linted: dict[int, FileOutcome] = {}  # unreadable, or ruled out by the prefilter
    settings_cache: dict[tuple[Config, frozenset[str]], LintSettings] = {}
    jobs_wanted = options.jobs if options.jobs is not None else default_jobs()
    # The results cache is opened when the first file passes the prefilter: a run
    # over files without calls of ours (most pre-commit runs) never needs it.
    caching = options.cache_dir is not None and mode == "lint"
    cache: ResultCache | None = None
    cached: list[list[Finding]] = []
    result = RunResult(files=len(sources))
    # Files are read here until enough pass the prefilter for a pool to start; the
    # workers read and prefilter the rest themselves, so the parent neither reads
    # nor sends their bytes. When no pool can start, every file is read here, and so
    # is every file when the cache, which knows a file by its bytes, is on.
    read_until = (
        max(2, MIN_FILES_FOR_POOL)
        if not caching and pool_size(jobs_wanted, len(sources))
        else None
    )
    for index, source in enumerate(sources):
        config = resolver.for_file(source.path)
        codes = codes_for_file(config, options, source.path)
        key = (config, codes)
        settings = settings_cache.get(key)
        if settings is None:
            settings = settings_cache[key] = settings_for(config, codes)
        job = Job(source.display, None, settings, mode, unsafe, os.fspath(source.path))
        if read_until is None or len(jobs) < read_until:
            loaded = load(job)
            if isinstance(loaded, FileOutcome):
                not_linted[index] = loaded
                if progress is not None:
                    progress(1)
                continue
            job = loaded
            if caching:
                if cache is None:
                    cache = _open_cache_telling(result, options, mode)
                assert job.source is not None
                known = cache.get(source.path, source.display, job.source, settings)
                if known is not None:
                    cached.append(known)
                    if progress is not None:
                        progress(1)
                    continue
        jobs.append(job)
        targets.append((index, source))

    workers = pool_size(jobs_wanted, len(jobs))
    # No file left to lint (every one ruled out by the prefilter, most pre-commit
    # runs): the engine is never imported.
    outcomes = run_jobs(jobs, workers, progress) if jobs else []

    result.used_pool = workers > 0
    linted = {
        index: (source, job, outcome)
        for (index, source), job, outcome in zip(targets, jobs, outcomes)
    }
    _gather(result, not_linted, linted, cached, cache, scope)
    result.findings.sort(key=_order)
    return result


def _gather(
    result: RunResult,
    not_linted: dict[int, FileOutcome],
    linted: dict[int, tuple[SourceFile, Job, FileOutcome]],
    cached: list[list[Finding]],
    cache: ResultCache | None,
    scope: FixScope | None,
) -> None:
    """Add every file's outcome to ``result`` and store the new ones in the cache."""
    # In the order of the sources, whoever read each file, so that messages come in
    # the same order whatever --jobs is.
    for index in sorted((*not_linted, *linted)):
        if index in not_linted:
            result.findings.extend(not_linted[index].findings)
            _collect_unread(result, not_linted[index])
            continue
        source, job, outcome = linted[index]
        result.linted += outcome.linted
        _collect(result, source, outcome, job, scope)
        if cache is not None and outcome.self_contained and job.source is not None:
            cache.put(source.path, job.display, job.source, job.settings, outcome.findings)
    for findings in cached:
        result.linted += 1
        result.cached += 1
        result.findings.extend(findings)
    if cache is not None:
        cache.save()


def _open_cache_telling(result: RunResult, options: RunOptions, mode: Mode) -> ResultCache:
    """The results cache, opened; a problem with it is a warning of ``result``."""
    cache = _open_cache(options, mode)
    assert cache is not None
    if cache.problem is not None:
        result.messages.append(f"warning: {cache.problem}")
    return cache


def _open_cache(options: RunOptions, mode: Mode) -> ResultCache | None:
    """The results cache for a lint run, or None: fixes and diffs always lint afresh."""
    if options.cache_dir is None or mode != "lint":
        return None
    from semantics_lint.lint.run.cache import ResultCache

    return ResultCache(options.cache_dir)


def _order(finding: Finding) -> tuple[str, int, int, str, str, str]:
    return (*finding.sort_key, finding.message, finding.help or "")


def _collect(
    result: RunResult,
    source: SourceFile | None,
    outcome: FileOutcome,
    job: Job,
    scope: FixScope | None = None,
) -> None:
    """Add one file's outcome to ``result``; write its fix (``source`` None: stdin)."""
    result.internal_error = result.internal_error or outcome.internal_error
    result.other_files = result.other_files or outcome.other_files
    _collect_unread(result, outcome)
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
            findings = run_job(
                Job(job.display, unchanged, job.settings, "lint", False, job.path)
            ).findings
            result.findings.extend(findings)
            return
        result.fixed += outcome.applied
        result.changed_files += 1
        result.fixed_files[outcome.display] = outcome.applied
    result.findings.extend(findings)


def _write_fix(
    result: RunResult, source: SourceFile, outcome: FileOutcome, scope: FixScope | None
) -> bool:
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
        result.messages.append(
            f"note: removed {leftover}, a temporary file an interrupted --fix left behind"
        )
    return True


def _collect_unread(result: RunResult, outcome: FileOutcome) -> None:
    """Report a file that could not be read: its SEM001 finding, else a message.

    As ruff reports an unreadable file as E902 when that code is selected (and only
    warns otherwise), the file is a SEM001 finding (exit code 1); with SEM001 not
    selected it is an error message naming the file, and the run exits 2, so that an
    unread file never passes for a clean one.
    """
    if outcome.read_error is not None and not outcome.findings:
        result.file_errors += 1
        result.messages.append(
            f"error: {outcome.display}: cannot read the file: {outcome.read_error}"
        )


def run_text(
    source: InMemory, options: RunOptions, *, settings: LintSettings | None = None
) -> RunResult:
    """Lint (or fix) a file held in memory: what :func:`run` does for a file on disk.

    The configuration is the one governing ``source.path``; with ``force_exclude``, a
    path the configuration excludes is not linted (``excluded``), as that file named
    on the command line would not be: editors and pre-commit pass every file by name.
    With ``--fix``, the fixed bytes are ``fixed_stdin``; nothing is written.

    ``settings`` given (flake8's options) replaces the configuration: none is read,
    and every finding the engine makes for the codes they enable is reported as it
    is, ``# noqa`` and selection being the caller's; an exception in the engine is
    the caller's too. Input larger than
    :data:`~semantics_lint.reading.MAX_SOURCE_BYTES` is not linted: it is the SEM001
    finding a file that large is.
    """
    check_options(options)
    display = source.path or STDIN_DISPLAY
    if settings is not None:
        result = RunResult(files=1)
        _lint_as_given(result, source, display, settings)
        return result
    resolver = _resolver(options)
    path = Path(os.path.abspath(source.path or "stdin.py"))
    config = resolver.for_file(path)
    if (
        options.force_exclude
        and source.path is not None
        and excluded_by_config(path, config, whole=True)
    ):
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
    reason = too_large(shown, MAX_SOURCE_BYTES)
    unread = [unreadable_finding(display, reason)] if codes is None or CRASH_CODE in codes else []
    _collect_unread(result, FileOutcome(display, unread, linted=False, read_error=reason))
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

    data = _bytes_of(result, source, display, codes)
    if data is None:
        return
    if not codes or not engine.might_contain_calls(data, settings):
        result.findings = unused_noqa_only(data, display, codes)
        return
    result.linted = 1
    job = Job(display, data, settings, _mode(options), options.unsafe_fixes)
    _collect(result, None, run_job(job), job)
    result.findings.sort(key=_order)


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
