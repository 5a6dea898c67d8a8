"""The one place that turns (paths, options) into findings, fixes and diffs.

Flow, per run:

1. discovery (``discovery.py``) lists the files; the configuration governing each
   file's folder (``config.py``) gives its settings: which codes run (select,
   extend-select, ignore, per-file-ignores), the API modules and call names;
2. each file is read and put through the engine's textual prefilter, so a file
   that cannot hold a call of ours never costs a parse. The parent reads files
   until enough pass for a process pool to start (``--jobs``); the pool's workers
   then read and prefilter the rest themselves, so the parent neither reads nor
   sends their bytes. Without a pool, every file is read and prefiltered in-process;
3. the files that pass are linted (or fixed) in-process or in the pool, whose
   workers are forked from a parent that has imported what the engine needs
   (:func:`import_for_pool`); the engine's findings are filtered by the selected
   codes and by ``# noqa`` in the same step, so fixes never touch a suppressed finding;
4. fixed files are written atomically here, in the parent, and every finding is
   sorted by (filename, line, column, code), so the output is the same whatever
   ``--jobs`` is.

A failure on one file never aborts the run: the engine reports unparsable files
as SEM001 itself, and anything else that goes wrong on a file (an exception in a
rule, a worker process that dies) becomes a SEM001 finding for that file that
says so, and marks the run as having had an internal error (exit code 2).
"""

from __future__ import annotations

import codecs
import difflib
import importlib
import io
import multiprocessing
import os
import tokenize
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from semantics_lint.lint.config import (
    ALL_SELECTOR,
    Config,
    ConfigError,
    ConfigResolver,
    check_selectors,
    known_codes,
    load_config,
)
from semantics_lint.lint.cache import ResultCache, lookups_so_far
from semantics_lint.lint.discovery import SourceFile, discover, matches_any
from semantics_lint.lint.model import Finding, Position, Severity
from semantics_lint.lint.suppress import filter_noqa, physical_lines

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint.engine import LintSettings

# Below this many files that pass the prefilter, a pool costs more than it saves:
# the parent imports the engine and starts the workers before their first file,
# while one file costs a few milliseconds in-process.
MIN_FILES_FOR_POOL = 8

PRE_COMMIT_ENV = "PRE_COMMIT"

Mode = Literal["lint", "fix", "diff"]
"""What a job does: report findings, fix and report what remains, or fix for a diff."""
CRASH_CODE = "SEM001"
STDIN_DISPLAY = "-"


# ---------------------------------------------------------------------------
# Options and results
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RunOptions:
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


@dataclass(slots=True)
class FileOutcome:
    """What happened to one file."""

    display: str
    findings: list[Finding] = field(default_factory=list)
    applied: int = 0
    fixed_source: bytes | None = None
    original: bytes | None = None
    fix_error: str | None = None
    internal_error: bool = False
    linted: bool = True
    """False when the file was not linted: it could not be read, or the prefilter found
    no call of ours in it."""
    self_contained: bool = False
    """True when the findings came from the file alone: linted (not fixed), without a
    failure, and without asking about any other module. Only such findings are cached."""


@dataclass(slots=True)
class RunResult:
    """Everything the CLI prints or decides the exit code from."""

    findings: list[Finding]
    files: int
    linted: int
    fixed: int = 0
    diffs: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    changed_files: int = 0
    internal_error: bool = False
    used_pool: bool = False
    fixed_stdin: bytes | None = None
    cached: int = 0
    """Files whose findings came from the results cache."""


# ---------------------------------------------------------------------------
# Rule selection
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Layer:
    select: tuple[str, ...] | None
    extend_select: tuple[str, ...]
    ignore: tuple[str, ...]


def _specificity(code: str, selectors: Iterable[str]) -> int:
    """Length of the longest selector matching ``code`` (``ALL`` counts 0); -1 for none."""
    best = -1
    for selector in selectors:
        if selector == ALL_SELECTOR:
            best = max(best, 0)
        elif code.startswith(selector):
            best = max(best, len(selector))
    return best


def select_codes(universe: Iterable[str], layers: Sequence[_Layer]) -> frozenset[str]:
    """The codes that run, resolved as ruff resolves rule selection.

    Layers apply in order (configuration, then command line). A layer with a
    ``select`` starts over from it; ``extend-select`` adds; ``ignore`` removes.
    Within a layer, when a code is both selected and ignored, the more specific
    selector wins (``select=["SEM1"]`` with ``ignore=["SEM102"]`` runs every SEM1xx
    but SEM102), and on a tie ``ignore`` wins.
    """
    enabled: set[str] = set()
    for code in universe:
        state = False
        for layer in layers:
            selects = (*(layer.select or ()), *layer.extend_select)
            selected = _specificity(code, selects)
            ignored = _specificity(code, layer.ignore)
            if layer.select is not None:
                state = selected >= 0 and selected > ignored
            elif selected >= 0 and selected > ignored:
                state = True
            elif ignored >= 0:
                state = False
        if state:
            enabled.add(code)
    return frozenset(enabled)


def check_options(options: RunOptions) -> None:
    """Raise :class:`ConfigError` for a command-line selector that names no rule."""
    if options.select is not None:
        check_selectors(options.select, "--select")
    check_selectors(options.extend_select, "--extend-select")
    check_selectors(options.ignore, "--ignore")


@lru_cache(maxsize=256)
def enabled_codes(config: Config, options: RunOptions) -> frozenset[str]:
    """The codes that run for files governed by ``config`` (before per-file-ignores)."""
    layers = [
        _Layer(
            config.select if config.select is not None else (ALL_SELECTOR,),
            config.extend_select,
            config.ignore,
        ),
        _Layer(options.select, options.extend_select, options.ignore),
    ]
    return select_codes(known_codes(), layers)


def per_file_ignored(config: Config, path: Path) -> tuple[str, ...]:
    """The selectors ``config``'s ``per-file-ignores`` apply to the file at ``path``."""
    ignored: list[str] = []
    for glob, codes in config.per_file_ignores:
        if matches_any(path, config.root, (glob,)):
            ignored.extend(codes)
    return tuple(ignored)


def codes_for_file(config: Config, options: RunOptions, path: Path) -> frozenset[str]:
    """The codes that run for the file at ``path``, per-file-ignores included."""
    codes = enabled_codes(config, options)
    ignored = per_file_ignored(config, path)
    if not ignored:
        return codes
    return frozenset(code for code in codes if _specificity(code, ignored) < 0)


def settings_for(config: Config, codes: frozenset[str]) -> LintSettings:
    """The engine's settings for a file: its configuration and its codes."""
    from semantics_lint.lint.engine import LintSettings

    values: dict[str, Any] = {"enabled": codes}
    if config.api_modules is not None:
        values["api_modules"] = config.api_modules
    if config.call_names is not None:
        values["call_names"] = config.call_names
    return LintSettings(**values)


# ---------------------------------------------------------------------------
# One file (runs in a worker or in-process)
# ---------------------------------------------------------------------------


def decode_for_noqa(source: bytes) -> str:
    """The text of ``source`` as Python reads it (BOM, coding cookie), never failing."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
        codecs.lookup(encoding)
    except (SyntaxError, LookupError):
        encoding = "utf-8"
    text = source.decode(encoding, errors="replace")
    return text.removeprefix("\ufeff")


@dataclass(frozen=True, slots=True)
class Job:
    """One file's work, sent to a worker: everything is picklable.

    ``source`` None means the file has not been read yet: whoever runs the job reads
    ``path`` and puts it through the prefilter first (see :func:`run_job`).
    """

    display: str
    source: bytes | None
    settings: LintSettings
    mode: Mode
    unsafe: bool
    path: str | None = None


def _filtered_linter(
    codes: frozenset[str],
) -> Callable[[bytes, str, LintSettings | None], list[Finding]]:
    """``engine.lint_source`` with the selected codes and ``# noqa`` applied."""
    from semantics_lint.lint import engine

    def lint(source: bytes, filename: str, settings: LintSettings | None) -> list[Finding]:
        raw = engine.lint_source(source, filename, settings or engine.LintSettings())
        findings = [f for f in raw if f.code in codes]
        if not findings:
            return findings  # nothing to suppress: the text need not be decoded again
        return filter_noqa(decode_for_noqa(source), findings)

    return lint


def crash_finding(display: str, what: str) -> Finding:
    """The finding that stands for a file the linter itself failed on."""
    return Finding(
        code=CRASH_CODE,
        message=(
            f"internal error: the linter failed on this file ({what}); "
            "other files were linted; please report this with the file"
        ),
        severity=Severity.ERROR,
        filename=display,
        start=Position(1, 0),
        end=Position(1, 0),
    )


def run_job(job: Job) -> FileOutcome:
    """Lint or fix one file. Never raises: a failure becomes a finding for the file.

    A job that carries no source is read and prefiltered here first, as
    :func:`run_sources` does for the files it reads itself.
    """
    try:
        if job.source is None:
            loaded = _load(job)
            if isinstance(loaded, FileOutcome):
                return loaded
            job = loaded
        return _run_job(job)
    except Exception as error:  # noqa: BLE001 - one file's failure must not end the run
        outcome = FileOutcome(job.display, [crash_finding(job.display, _describe(error))])
        outcome.internal_error = True
        return outcome


def _describe(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _load(job: Job) -> Job | FileOutcome:
    """``job`` with its file's bytes, or the outcome of a file that is not linted.

    The same steps and answers as :func:`run_sources` for a file it reads: an
    unreadable file is the engine's SEM001 for it (when selected), a file the
    prefilter rules out (or one with no code selected) has no findings.
    """
    from semantics_lint.lint import engine

    assert job.path is not None, "a job without source names its file"
    codes = job.settings.enabled if job.settings.enabled is not None else known_codes()
    data = _read(Path(job.path))
    if isinstance(data, OSError):
        findings = [
            _renamed(f, job.display)
            for f in engine.lint_file(job.path, job.settings)
            if f.code in codes
        ]
        return FileOutcome(job.display, findings, linted=False)
    if not codes or not engine.might_contain_calls(data, job.settings):
        return FileOutcome(job.display, linted=False)
    return Job(job.display, data, job.settings, job.mode, job.unsafe, job.path)


def _run_job(job: Job) -> FileOutcome:
    source = job.source
    assert source is not None, "run_job reads a job's file before it runs"
    codes = job.settings.enabled if job.settings.enabled is not None else known_codes()
    lint = _filtered_linter(frozenset(codes))
    if job.mode == "lint":
        before = lookups_so_far()
        outcome = FileOutcome(job.display, lint(source, job.display, job.settings))
        outcome.self_contained = lookups_so_far() == before
        return outcome
    from semantics_lint.lint import fix

    try:
        result = fix.fix_source(source, job.display, job.settings, unsafe=job.unsafe, lint=lint)
    except fix.FixError as error:
        return FileOutcome(
            job.display, lint(source, job.display, job.settings), fix_error=str(error)
        )
    outcome = FileOutcome(job.display, list(result.remaining), applied=result.applied)
    if result.changed:
        outcome.fixed_source = result.source
        outcome.original = source
    return outcome


# ---------------------------------------------------------------------------
# Many files
# ---------------------------------------------------------------------------


def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - platforms without sched_getaffinity
        return max(1, os.cpu_count() or 1)


def pool_size(jobs: int, work: int) -> int:
    """How many worker processes to start for ``work`` files; 0 means in-process."""
    if jobs <= 1 or work < max(2, MIN_FILES_FOR_POOL):
        return 0
    if os.environ.get(PRE_COMMIT_ENV) == "1":
        # pre-commit already runs hooks in parallel over slices of the file list.
        return 0
    return min(jobs, work)


def run_jobs(jobs: Sequence[Job], workers: int) -> list[FileOutcome]:
    """Run ``jobs`` (in-process when ``workers`` is 0); outcomes in the order of ``jobs``."""
    if workers <= 0:
        return run_chunk(jobs)
    outcomes: list[FileOutcome | None] = [None] * len(jobs)
    suspects: list[int] = []
    # Files go to the workers in chunks: one task per file spent more on the pool's
    # own messages than on linting. Chunks stay small enough that the workers finish
    # together.
    size = chunk_size(len(jobs), workers)
    chunks = [list(range(start, min(start + size, len(jobs)))) for start in range(0, len(jobs), size)]
    if multiprocessing.get_start_method() == "fork":
        # Forked workers start with what this process has imported; workers started
        # any other way import what they need themselves.
        import_for_pool()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures: list[tuple[list[int], Future[list[FileOutcome]]]] = []
        try:
            for chunk in chunks:
                futures.append((chunk, pool.submit(run_chunk, [jobs[i] for i in chunk])))
        except BrokenProcessPool:
            pass
        submitted = {index for chunk, _ in futures for index in chunk}
        suspects.extend(index for index in range(len(jobs)) if index not in submitted)
        for chunk, future in futures:
            try:
                for index, outcome in zip(chunk, future.result()):
                    outcomes[index] = outcome
            except BrokenProcessPool:
                suspects.extend(chunk)
    # A worker died (killed, out of memory, a crash in a C extension): every file in
    # flight lost its answer. Re-run those one at a time in a single worker, so the
    # file that kills its worker is known and every other file still gets linted.
    for index, outcome in zip(sorted(suspects), _run_one_by_one([jobs[i] for i in sorted(suspects)])):
        outcomes[index] = outcome
    return [outcome for outcome in outcomes if outcome is not None]


def chunk_size(work: int, workers: int) -> int:
    """How many files one pool task lints: about eight tasks a worker, at most 32
    files a task (a slow file then holds up little), at least one."""
    return max(1, min(32, work // (max(1, workers) * 8)))


POOL_IMPORTS: tuple[str, ...] = (
    "semantics_lint.lint.engine",
    "semantics_lint.lint.locate",
    "semantics_lint.lint.context",
    "semantics_lint.lint.declaration",
    "semantics_lint.lint.rules",
    "semantics_lint.lint.resolve",
    "semantics_lint.lint.resolve_astroid",
    "semantics_lint.lint.fix",
)
"""The linter's own modules that linting or fixing a file imports, which the parent
imports before it starts a pool. LibCST and astroid stay lazy: they are imported
by the workers that meet a file which needs them, as in a run without a pool."""


def import_for_pool() -> None:
    """Import :data:`POOL_IMPORTS` in this process, before it starts a pool.

    A forked worker starts with what its parent has imported. When the parent had
    not imported them, every worker imported (and, without cached bytecode,
    compiled) the engine, the rules and the resolver itself before its first file:
    the same wait for the first results, but that CPU paid once per worker instead
    of once. What the imports made is then moved to the collector's permanent
    generation (see :func:`engine.settle_imports`), so the workers' collections do
    not walk it again.
    """
    for name in POOL_IMPORTS:
        importlib.import_module(name)
    from semantics_lint.lint import engine

    engine.settle_imports()


def run_chunk(jobs: Sequence[Job]) -> list[FileOutcome]:
    """Run ``jobs`` one after the other (in-process or in a worker); outcomes in their order."""
    from semantics_lint.lint import engine

    outcomes: list[FileOutcome] = []
    for job in jobs:
        outcomes.append(run_job(job))
        engine.settle_imports()
    return outcomes


def _run_one_by_one(jobs: Sequence[Job]) -> list[FileOutcome]:
    """Run ``jobs`` in one worker, one at a time; a new worker replaces one that dies."""
    outcomes: list[FileOutcome] = []
    pool: ProcessPoolExecutor | None = None
    try:
        for job in jobs:
            if pool is None:
                pool = ProcessPoolExecutor(max_workers=1)
            try:
                outcomes.append(pool.submit(run_job, job).result())
            except BrokenProcessPool:
                pool.shutdown(wait=True)
                pool = None
                outcome = FileOutcome(
                    job.display,
                    [crash_finding(job.display, "the worker process ended abruptly")],
                )
                outcome.internal_error = True
                outcomes.append(outcome)
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
    return outcomes


def _read(path: Path) -> bytes | OSError:
    try:
        return path.read_bytes()
    except OSError as error:
        return error


def _mode(options: RunOptions) -> Mode:
    if options.diff:
        return "diff"
    return "fix" if options.fix else "lint"


def run(paths: Sequence[str], options: RunOptions) -> RunResult:
    """Lint (or fix, or diff) every file ``paths`` reach.

    Raises :class:`ConfigError` (configuration or selector mistakes) and
    ``DiscoveryError`` (a path that does not exist) before any file is linted.
    """
    check_options(options)
    resolver = _resolver(options)
    sources = discover(
        paths,
        resolver,
        respect_gitignore=options.respect_gitignore,
        force_exclude=options.force_exclude,
    )
    return run_sources(sources, resolver, options)


def _resolver(options: RunOptions) -> ConfigResolver:
    if options.config_file is None:
        return ConfigResolver()
    if not options.config_file.is_file():
        raise ConfigError(f"{options.config_file}: no such configuration file")
    return ConfigResolver(explicit=load_config(options.config_file.resolve()))


def run_sources(
    sources: Sequence[SourceFile], resolver: ConfigResolver, options: RunOptions
) -> RunResult:
    """Lint the discovered ``sources`` (see :func:`run`)."""

    mode = _mode(options)
    unsafe = options.unsafe_fixes
    jobs: list[Job] = []
    targets: list[SourceFile] = []
    unreadable: list[Finding] = []
    settings_cache: dict[tuple[Config, frozenset[str]], LintSettings] = {}
    jobs_wanted = options.jobs if options.jobs is not None else default_jobs()
    cache = _open_cache(options, mode)
    cached: list[list[Finding]] = []
    # Files are read here until enough pass the prefilter for a pool to start; the
    # workers read and prefilter the rest themselves, so the parent neither reads
    # nor sends their bytes. When no pool can start, every file is read here, and so
    # is every file when the cache, which knows a file by its bytes, is on.
    read_until = (
        max(2, MIN_FILES_FOR_POOL)
        if cache is None and pool_size(jobs_wanted, len(sources))
        else None
    )
    for source in sources:
        config = resolver.for_file(source.path)
        codes = codes_for_file(config, options, source.path)
        key = (config, codes)
        settings = settings_cache.get(key)
        if settings is None:
            settings = settings_cache[key] = settings_for(config, codes)
        job = Job(source.display, None, settings, mode, unsafe, os.fspath(source.path))
        if read_until is None or len(jobs) < read_until:
            loaded = _load(job)
            if isinstance(loaded, FileOutcome):
                unreadable.extend(loaded.findings)  # none when the prefilter ruled it out
                continue
            job = loaded
            if cache is not None:
                assert job.source is not None
                known = cache.get(source.path, source.display, job.source, settings)
                if known is not None:
                    cached.append(known)
                    continue
        jobs.append(job)
        targets.append(source)

    workers = pool_size(jobs_wanted, len(jobs))
    outcomes = run_jobs(jobs, workers)

    result = RunResult(findings=list(unreadable), files=len(sources), linted=0)
    result.used_pool = workers > 0
    for source, job, outcome in zip(targets, jobs, outcomes):
        result.linted += outcome.linted
        _collect(result, source, outcome, job)
        if cache is not None and outcome.self_contained and job.source is not None:
            cache.put(source.path, job.display, job.source, job.settings, outcome.findings)
    for findings in cached:
        result.linted += 1
        result.cached += 1
        result.findings.extend(findings)
    if cache is not None:
        cache.save()
    result.findings.sort(key=_order)
    return result


def _open_cache(options: RunOptions, mode: Mode) -> ResultCache | None:
    """The results cache for a lint run, or None: fixes and diffs always lint afresh."""
    if options.cache_dir is None or mode != "lint":
        return None
    return ResultCache(options.cache_dir)


def _renamed(finding: Finding, display: str) -> Finding:
    if finding.filename == display:
        return finding
    return Finding(
        finding.code,
        finding.message,
        finding.severity,
        display,
        finding.start,
        finding.end,
        finding.fix,
        finding.url,
    )


def _order(finding: Finding) -> tuple[str, int, int, str, str]:
    return (*finding.sort_key, finding.message)


def _collect(result: RunResult, source: SourceFile | None, outcome: FileOutcome, job: Job) -> None:
    """Add one file's outcome to ``result``; write its fix (``source`` None: stdin)."""
    from semantics_lint.lint import fix

    result.internal_error = result.internal_error or outcome.internal_error
    if outcome.fix_error is not None:
        result.messages.append(f"error: {outcome.fix_error}")
    findings = outcome.findings
    if outcome.fixed_source is not None:
        written = True
        if job.mode == "diff":
            result.diffs.append(
                unified_diff(outcome.display, outcome.original or b"", outcome.fixed_source)
            )
        elif source is None:
            result.fixed_stdin = outcome.fixed_source
        else:
            try:
                fix.write_atomic(source.path, outcome.fixed_source)
            except OSError as error:
                written = False
                result.internal_error = True
                result.messages.append(
                    f"error: {outcome.display}: could not write the fixed file "
                    f"({error.strerror or error}); it was left unchanged"
                )
                # What remains is what the unchanged file holds, not the fixed text.
                unchanged = outcome.original if outcome.original is not None else job.source
                findings = run_job(
                    Job(job.display, unchanged, job.settings, "lint", False, job.path)
                ).findings
        if written:
            result.fixed += outcome.applied
            result.changed_files += 1
    result.findings.extend(findings)


def unified_diff(display: str, before: bytes, after: bytes) -> str:
    """A unified diff of one file's fix, in the file's own text."""
    old = physical_lines(decode_for_noqa(before))
    new = physical_lines(decode_for_noqa(after))
    lines = list(difflib.unified_diff(old, new, fromfile=display, tofile=display))
    text = "".join(line if line.endswith(("\n", "\r")) else line + "\n" for line in lines)
    return text


def run_stdin(
    source: bytes, options: RunOptions, stdin_filename: str | None = None
) -> RunResult:
    """Lint (or fix) bytes read from standard input.

    ``stdin_filename`` names the file the bytes stand for: findings carry it, and
    it decides the configuration and per-file-ignores (from the current folder
    when it is not given).
    """
    from semantics_lint.lint import engine

    check_options(options)
    resolver = _resolver(options)
    display = stdin_filename or STDIN_DISPLAY
    path = Path(os.path.abspath(stdin_filename or "stdin.py"))
    config = resolver.for_file(path)
    codes = codes_for_file(config, options, path)
    settings = settings_for(config, codes)
    mode = _mode(options)
    result = RunResult(findings=[], files=1, linted=0)
    if not codes or not engine.might_contain_calls(source, settings):
        return result
    result.linted = 1
    job = Job(display, source, settings, mode, options.unsafe_fixes)
    _collect(result, None, run_job(job), job)
    result.findings.sort(key=_order)
    return result
