"""Lints and fixes in worker processes, so that one buffer's lint never delays another's.

The linter is CPU-bound Python: threads would take turns on one interpreter lock, and
the linter keeps process-wide state (what it read from other modules, the garbage
collector paused per file), so each lint runs in a process of its own. A
:class:`Pool` starts its processes when first asked (``spawn``: a fresh interpreter
that imports the linter and nothing of the server's), keeps them for the next job,
and starts one ahead when the last idle one is taken, so that a job rarely waits for
an interpreter to start.

A worker runs one job at a time: the name of one of :data:`JOBS` and its arguments,
sent pickled over a pipe; it answers with the job's value, the message of a
:class:`~semantics_lint.lsp.lint_adapter.FixFailed`, or the traceback of any other
exception. The linter never imports or runs the code it reads, and neither does a
worker.

A job whose caller is cancelled (a newer version of the buffer, a request the client
cancelled) kills its worker at once; a worker that dies (killed from outside, out of
memory) fails the job with :class:`WorkerCrashed`, and the pool starts a new one for
the next job. Nothing waits on a worker that is gone: its pipe closes when it dies.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import threading
import traceback
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from semantics_lint.lsp import lint_adapter
from semantics_lint.lsp.lint_adapter import FixFailed, Linted, Located
from semantics_lint.lsp.positions import Replacement, replacements

logger = logging.getLogger(__name__)

__all__ = ["JOBS", "Pool", "WorkerCrashed", "WorkerFailed"]


# -- the jobs (run in a worker) ---------------------------------------------------------


def lint(text: str, path: str) -> Linted:
    """The lint of ``text`` as the file ``path``."""
    return lint_adapter.lint_text(text, path)


def quick_fixes(text: str, path: str, found: tuple[Located, ...]) -> list[tuple[Replacement, ...] | str]:
    """For each finding (found in ``text``), the replacements its fix makes, or why it
    cannot be applied."""
    result: list[tuple[Replacement, ...] | str] = []
    for located in found:
        try:
            result.append(tuple(replacements(text, lint_adapter.fix_one(text, path, located))))
        except FixFailed as error:
            result.append(str(error))
    return result


def fix_all(text: str, path: str) -> tuple[Replacement, ...]:
    """The replacements that apply every safe fix to ``text``, as ``--fix`` does.

    Raises :class:`~semantics_lint.lsp.lint_adapter.FixFailed` when ``--fix`` would
    write nothing because of an error."""
    return tuple(replacements(text, lint_adapter.fix_all(text, path)))


JOBS: dict[str, Callable[..., Any]] = {"lint": lint, "quick_fixes": quick_fixes, "fix_all": fix_all}
"""What a worker runs, by name."""


def serve_jobs(connection: Connection) -> None:
    """A worker's life: import the linter, then run the jobs sent on ``connection``
    until it closes.

    A job is ``(name, arguments)``; nothing of one job is kept for the next (each lint
    reads the other modules it needs afresh). The answer is ``("ok", value)``,
    ``("fix-failed", message)`` or ``("error", traceback)``.
    """
    # Paid once, before the first job: the imports of a first lint.
    from semantics_lint.lint import engine  # noqa: F401
    from semantics_lint.lint.run import fix, runner  # noqa: F401

    while True:
        try:
            name, arguments = connection.recv()
        except (EOFError, OSError):
            return  # the server closed the pipe or is gone
        try:
            answer: tuple[str, Any] = ("ok", JOBS[name](*arguments))
        except FixFailed as error:
            answer = ("fix-failed", str(error))
        except Exception:  # noqa: BLE001 - the server logs it; the worker goes on
            answer = ("error", traceback.format_exc())
        finally:
            engine.settle_imports()
        try:
            connection.send(answer)
        except (EOFError, OSError):
            return


# -- the pool (in the server) -----------------------------------------------------------


class WorkerCrashed(Exception):
    """The worker died before it answered (killed, out of memory, a crash)."""


class WorkerFailed(Exception):
    """The job raised an exception in the worker; the message is its traceback."""


_LAUNCHING = threading.Lock()
_LAUNCH_FOLDER = os.path.dirname(os.__file__)
"""Where workers are started: a folder whose modules are the standard library itself."""


class _Worker:
    """One worker process and the server's end of its pipe."""

    __slots__ = ("connection", "process")

    def __init__(self, context: Any, name: str) -> None:
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=serve_jobs, args=(theirs,), name=name, daemon=True)
        with _LAUNCHING:
            # A spawned worker starts as ``python -c ...``, which puts the working folder
            # first on ``sys.path``: an editor starts the server in the workspace, and a
            # ``multiprocessing.py`` planted there would run. The worker is started from
            # the standard library's own folder instead (it gets absolute paths only).
            here = os.getcwd()
            os.chdir(_LAUNCH_FOLDER)
            try:
                self.process.start()
            finally:
                os.chdir(here)
        theirs.close()  # ours must be the only other end: its death closes the pipe

    def run(self, job: tuple[str, tuple[Any, ...]]) -> tuple[str, Any]:
        """Send one job and wait for its answer (blocks: called on a thread)."""
        try:
            self.connection.send(job)
            return self.connection.recv()  # type: ignore[no-any-return]
        except (EOFError, OSError) as error:
            self.process.join(5)
            raise WorkerCrashed(
                f"the worker process {self.process.pid} ended (exit code {self.process.exitcode})"
            ) from error

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()

    def close(self) -> None:
        self.kill()
        self.process.join(5)
        self.connection.close()


class Pool:
    """At most ``size`` worker processes running jobs; a job waits (first come, first
    served) only when all of them are busy."""

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.size = max(1, size)
        self._context = multiprocessing.get_context("spawn")
        self._idle: list[_Worker] = []
        self._started = 0
        self._busy: set[_Worker] = set()
        self._waiting: deque[asyncio.Future[_Worker]] = deque()
        self._threads: ThreadPoolExecutor | None = None
        self._closed = False

    @property
    def started(self) -> int:
        """Worker processes alive or starting (idle or busy)."""
        return self._started

    def warm(self) -> None:
        """Start a worker now if none is idle and the pool has room for one."""
        if not self._closed and not self._idle and self._started < self.size:
            self._idle.append(self._start())

    async def run(self, name: str, *arguments: Any, retries: int = 1) -> Any:
        """Run the job ``name`` on a worker; its value.

        Raises :class:`FixFailed` as the job did, :class:`WorkerFailed` for another
        exception in the job, and :class:`WorkerCrashed` when the worker died ``retries``
        + 1 times. Cancelling the caller kills the worker running the job.
        """
        for attempt in range(retries + 1):
            worker = await self._acquire()
            logger.debug("%s: %s on worker process %s", self.name, name, worker.process.pid)
            job = (name, arguments)
            if self._threads is None:
                self._threads = ThreadPoolExecutor(self.size, thread_name_prefix=f"{self.name}-pipe")
            running: Future[tuple[str, Any]] = self._threads.submit(worker.run, job)
            waited = asyncio.wrap_future(running)
            try:
                status, value = await asyncio.shield(waited)
            except asyncio.CancelledError:
                worker.kill()
                running.add_done_callback(functools.partial(self._later, asyncio.get_running_loop(), worker))
                raise
            except WorkerCrashed:
                self._discard(worker)
                if attempt < retries:
                    logger.warning("%s: a worker died during %s; running it again", self.name, name)
                    continue
                raise
            self._release(worker)
            if status == "ok":
                return value
            if status == "fix-failed":
                raise FixFailed(value)
            raise WorkerFailed(value)
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Kill every worker; the pool starts no more."""
        self._closed = True
        for worker in [*self._idle, *self._busy]:
            worker.close()
        self._idle.clear()
        self._busy.clear()
        for waiter in self._waiting:
            waiter.cancel()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)

    # -- bookkeeping (on the event loop) --------------------------------------------------

    def _start(self) -> _Worker:
        self._started += 1
        worker = _Worker(self._context, f"{self.name}-worker")
        logger.info("%s: started worker process %s", self.name, worker.process.pid)
        return worker

    async def _acquire(self) -> _Worker:
        if self._closed:
            raise asyncio.CancelledError
        while self._idle and not self._idle[-1].process.is_alive():
            self._idle.pop().close()  # died while idle (killed from outside)
            self._started -= 1
        if self._idle:
            worker = self._idle.pop()
        elif self._started < self.size:
            worker = self._start()
        else:
            waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
            self._waiting.append(waiter)
            try:
                worker = await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():
                    self._release(waiter.result())  # handed over just as we left
                raise
        self._busy.add(worker)
        self.warm()  # the next job finds an interpreter ready
        return worker

    def _release(self, worker: _Worker) -> None:
        self._busy.discard(worker)
        if self._closed:
            worker.close()
            return
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    def _discard(self, worker: _Worker) -> None:
        if worker not in self._busy:
            return
        self._busy.discard(worker)
        self._started -= 1
        worker.close()
        if self._closed:
            return
        # A job waiting for a worker gets a new one.
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                new = self._start()
                waiter.set_result(new)
                return
        self.warm()

    def _later(self, loop: asyncio.AbstractEventLoop, worker: _Worker, _done: object) -> None:
        # On the pipe's thread, when the job of a killed worker has ended.
        try:
            loop.call_soon_threadsafe(self._discard, worker)
        except RuntimeError:
            worker.close()  # the loop is closed: the server is exiting
