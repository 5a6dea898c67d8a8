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
from typing import TYPE_CHECKING, NamedTuple

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

STDIN_DISPLAY = "-"


# ---------------------------------------------------------------------------
# Options and results
# ---------------------------------------------------------------------------


class RunOptions(NamedTuple):
    """What the command line asked for. Selectors are checked by :func:`check_options`."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    config_file: Path | None = None
    jobs: int | None = None
    fix: bool = False
    unsafe_fixes: bool = False
    diff: bool = False
    respect_gitignore: bool = True
    force_exclude: bool = False
    cache_dir: Path | None = None
    """Where the results cache lives; None lints every file afresh."""


class RunResult:
    """Everything the CLI prints or decides the exit code from (filled in as the run goes).

    ``cached``: files whose findings came from the results cache. ``fixed_files``: how
    many findings the fixes applied (or, with ``--diff``, would apply) per file.
    ``excluded``: standard input stood for a file the configuration excludes
    (``force_exclude``). ``file_errors``: files that could not be read (when SEM001 is
    not selected to say so) or whose fix could not be written; each has a message in
    ``messages``. ``other_files``: some file's findings depend on other files of its
    project (its lint followed a name into another module).
    """

    __slots__ = (
        "findings", "files", "linted", "fixed", "diffs", "messages", "changed_files",
        "internal_error", "used_pool", "fixed_stdin", "cached", "fixed_files", "excluded",
        "file_errors", "other_files",
    )

    def __init__(self, *, files: int, linted: int = 0, excluded: bool = False) -> None:
        self.findings: list[Finding] = []
        self.files = files
        self.linted = linted
        self.fixed = 0
        self.diffs: list[str] = []
        self.messages: list[str] = []
        self.changed_files = 0
        self.internal_error = False
        self.used_pool = False
        self.fixed_stdin: bytes | None = None
        self.cached = 0
        self.fixed_files: dict[str, int] = {}
        self.excluded = excluded
        self.file_errors = 0
        self.other_files = False

    @property
    def failed(self) -> bool:
        """True when the run must exit 2: an internal error, or a file error."""
        return self.internal_error or self.file_errors > 0


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
        from semantics_lint.lint.run import write

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


def run_stdin(
    source: bytes,
    options: RunOptions,
    stdin_filename: str | None = None,
    *,
    complete: bool = True,
    size: int | None = None,
) -> RunResult:
    """Lint (or fix) bytes read from standard input (or an editor's buffer).

    ``stdin_filename`` names the file the bytes stand for: findings carry it, and
    it decides the configuration and per-file-ignores (from the current folder
    when it is not given). With ``force_exclude``, a ``stdin_filename`` that the
    configuration excludes is not linted (``excluded``), as that file named on the
    command line would not be: editors and pre-commit pass every file by name.

    Input larger than :data:`~semantics_lint.reading.MAX_SOURCE_BYTES` is not
    linted: it is the SEM001 finding a file that large is. ``complete`` false says
    that ``source`` is only the start of the input (reading stopped past the limit);
    ``size`` is the whole input's size when known.
    """
    check_options(options)
    resolver = _resolver(options)
    display = stdin_filename or STDIN_DISPLAY
    path = Path(os.path.abspath(stdin_filename or "stdin.py"))
    config = resolver.for_file(path)
    if (
        options.force_exclude
        and stdin_filename is not None
        and excluded_by_config(path, config, whole=True)
    ):
        result = RunResult(files=0, excluded=True)
    else:
        result = RunResult(files=1)
        _lint_stdin(result, source, display, options, config, path, complete, size)
    add_path_problems(result, config_problems(resolver))
    return result


def _lint_stdin(
    result: RunResult,
    source: bytes,
    display: str,
    options: RunOptions,
    config: Config,
    path: Path,
    complete: bool,
    size: int | None,
) -> None:
    from semantics_lint.lint import engine

    codes = codes_for_file(config, options, path)
    settings = settings_for(config, codes)
    if not complete or len(source) > MAX_SOURCE_BYTES:
        shown = size if size is not None else len(source) if complete else None
        reason = too_large(shown, MAX_SOURCE_BYTES)
        unread = [unreadable_finding(display, reason)] if CRASH_CODE in codes else []
        _collect_unread(result, FileOutcome(display, unread, linted=False, read_error=reason))
        result.findings = unread
        return
    if not codes or not engine.might_contain_calls(source, settings):
        result.findings = unused_noqa_only(source, display, codes)
        return
    result.linted = 1
    job = Job(display, source, settings, _mode(options), options.unsafe_fixes)
    _collect(result, None, run_job(job), job)
    result.findings.sort(key=_order)
