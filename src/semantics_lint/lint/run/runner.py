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
from typing import TYPE_CHECKING

from semantics_lint.lint.run.config import Config, ConfigResolver, resolver_for
from semantics_lint.lint.run.discovery import PathProblem, SourceFile, discover
from semantics_lint.lint.run.jobs import FileOutcome, Job, Mode, load
from semantics_lint.lint.run.outcomes import (
    add_path_problems,
    collect,
    collect_unread,
    config_problems,
    mode_of,
    order,
)
from semantics_lint.lint.run.pool import MIN_FILES_FOR_POOL, Progress, default_jobs, pool_size, run_jobs
from semantics_lint.lint.run.results import DEFAULT_OPTIONS, InMemory, RunOptions, RunResult
from semantics_lint.lint.run.selection import check_options, codes_for_file, settings_for
from semantics_lint.lint.run.texts import STDIN_DISPLAY, run_stdin, run_text
from semantics_lint.reading import MAX_SOURCE_BYTES

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


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------


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
    resolver = resolver_for(options.config_file)
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


def fix_scope(paths: Sequence[str], options: RunOptions) -> FixScope | None:
    """Where ``--fix`` may write for these command-line ``paths`` (None when not fixing)."""
    if mode_of(options) != "fix":
        return None
    from semantics_lint.lint.run.write import FixScope

    return FixScope.of(paths)


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

    mode = mode_of(options)
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
    read_until = max(2, MIN_FILES_FOR_POOL) if not caching and pool_size(jobs_wanted, len(sources)) else None
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
        for (index, source), job, outcome in zip(targets, jobs, outcomes, strict=True)
    }
    _gather(result, not_linted, linted, cached, cache, scope)
    result.findings.sort(key=order)
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
            collect_unread(result, not_linted[index])
            continue
        source, job, outcome = linted[index]
        result.linted += outcome.linted
        collect(result, source, outcome, job, scope)
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
