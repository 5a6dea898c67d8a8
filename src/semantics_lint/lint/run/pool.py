"""Many files' jobs at once: in-process, or in a pool of worker processes.

The outcomes come back in the order of the jobs whatever the pool did. Files go to
the workers in chunks; the workers are forked from a parent that has imported what
the engine needs (:func:`import_for_pool`). A worker that dies (killed, out of
memory, a crash in a C extension) costs only the file that killed it: the files in
flight are run again one at a time, and that file gets a SEM001 finding that says so.

``multiprocessing`` and ``concurrent.futures`` are imported when a pool starts, not
with this module: most runs (a pre-commit hook's few files, an editor's buffer) never
start one.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from semantics_lint.lint.run.jobs import FileOutcome, Job, crash_finding, run_job

if TYPE_CHECKING:  # pragma: no cover - typing only
    from concurrent.futures import Future, ProcessPoolExecutor

    from semantics_lint.lint.resolve import ProjectCache

Progress = Callable[[int], None]
"""Told how many more files are done, as they finish."""

# Below this many files that pass the prefilter, a pool costs more than it saves:
# the parent imports the engine and starts the workers before their first file,
# while one file costs a few milliseconds in-process.
MIN_FILES_FOR_POOL = 8


def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - platforms without sched_getaffinity
        return max(1, os.cpu_count() or 1)


def pool_size(jobs: int, work: int) -> int:
    """How many worker processes to start for ``work`` files; 0 means in-process.

    Never more than the cores this process may use, nor than the files: ``--jobs 200``
    on two cores starts two workers (more would only compete for the same cores).
    Under pre-commit too: the hook is require_serial, so this process is the only one
    linting the files pre-commit names.
    """
    jobs = min(jobs, default_jobs(), work)
    if jobs <= 1 or work < max(2, MIN_FILES_FOR_POOL):
        return 0
    return jobs


def run_jobs(jobs: Sequence[Job], workers: int, progress: Progress | None = None) -> list[FileOutcome]:
    """Run ``jobs`` (in-process when ``workers`` is 0); outcomes in the order of ``jobs``.

    ``progress`` is told as files finish (in-process: each file; in a pool: each chunk).
    """
    if workers <= 0:
        if progress is None:
            return run_chunk(jobs)
        from semantics_lint.lint.resolve import ProjectCache

        outcomes_here: list[FileOutcome] = []
        with ProjectCache() as project:
            for job in jobs:
                outcomes_here.extend(run_chunk([job], project))
                progress(1)
        return outcomes_here
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

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
                for index, outcome in zip(chunk, future.result(), strict=True):
                    outcomes[index] = outcome
            except BrokenProcessPool:
                suspects.extend(chunk)
            else:
                if progress is not None:
                    progress(len(chunk))
    # A worker died (killed, out of memory, a crash in a C extension): every file in
    # flight lost its answer. Re-run those one at a time in a single worker, so the
    # file that kills its worker is known and every other file still gets linted.
    for index, outcome in zip(
        sorted(suspects), _run_one_by_one([jobs[i] for i in sorted(suspects)]), strict=True
    ):
        outcomes[index] = outcome
    if progress is not None and suspects:
        progress(len(suspects))
    return [outcome for outcome in outcomes if outcome is not None]


def chunk_size(work: int, workers: int) -> int:
    """How many files one pool task lints: about eight tasks a worker, at most 32
    files a task (a slow file then holds up little), at least one."""
    return max(1, min(32, work // (max(1, workers) * 8)))


POOL_IMPORTS: tuple[str, ...] = (
    "semantics_lint.lint.run.cache",
    "semantics_lint.lint.engine",
    "semantics_lint.lint.run.suppress",
    "semantics_lint.lint.calls.locate",
    "semantics_lint.lint.calls.context",
    "semantics_lint.lint.calls.declaration",
    "semantics_lint.lint.rules",
    "semantics_lint.lint.resolve",
    "semantics_lint.lint.resolve.astroid_bridge",
    "semantics_lint.lint.run.fix",
    # SEM701 asks the runtime's claim_contract, imported where a contract is judged.
    "semantics_lint.runtime.claims.check",
)
"""The linter's own modules that linting or fixing a file imports, which the parent
imports before it starts a pool. LibCST and astroid stay lazy (astroid with
``resolve.astroid_boundary``, which imports it at its top): they are imported by the
workers that meet a file which needs them, as in a run without a pool."""


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


def run_chunk(jobs: Sequence[Job], project: ProjectCache | None = None) -> list[FileOutcome]:
    """Run ``jobs`` one after the other (in-process or in a worker); outcomes in their order.

    The jobs share ``project``, the run's cache of other modules; without it, one is
    made for them and closed after the last.
    """
    from semantics_lint.lint import engine
    from semantics_lint.lint.resolve import ProjectCache

    shared = project if project is not None else ProjectCache()
    outcomes: list[FileOutcome] = []
    try:
        for job in jobs:
            outcomes.append(run_job(job, shared))
            engine.settle_imports()
    finally:
        if project is None:
            shared.close()
    return outcomes


def _run_one_by_one(jobs: Sequence[Job]) -> list[FileOutcome]:
    """Run ``jobs`` in one worker, one at a time; a new worker replaces one that dies."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

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
