"""Where a command's text goes: the exit codes, the verbosity levels, the progress line.

Shared by ``semantics-lint check`` and ``semantics-lint rule``; nothing here parses
arguments or lints.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2

STDIN_PATH = "-"
ENV_NO_CACHE = "SEMANTICS_LINT_NO_CACHE"
ENV_OUTPUT_FORMAT = "SEMANTICS_LINT_OUTPUT_FORMAT"
WATCH_INTERVAL = 0.5
"""Seconds between two looks at the files in ``--watch``."""

# Verbosity, ruff's log levels.
SILENT, QUIET, DEFAULT, VERBOSE = 0, 1, 2, 3


class CheckError(Exception):
    """A usage, configuration or internal error: printed as ``error: ...``, exit code 2."""


# ---------------------------------------------------------------------------
# Printing
# ---------------------------------------------------------------------------


def write(stream: TextIO, text: str) -> None:
    """Write ``text``; characters the stream cannot encode become backslash escapes.

    A message or a name can hold characters a terminal's encoding lacks (a file
    name that is not UTF-8 arrives with surrogate escapes): that is never a crash.
    """
    if not text:
        return
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "utf-8"
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding, "replace"))
    if stream is sys.stderr:
        # Messages reach the reader in order with the findings, whatever buffers the
        # stream (a test harness's, a redirected file's).
        stream.flush()


class Console:
    """Where a run's text goes, filtered by verbosity (``-q``, ``-s``, ``-v``)."""

    def __init__(self, level: int) -> None:
        self.level = level

    def out(self, text: str, *, to_stderr: bool = False) -> None:
        """Findings and other results: hidden only by ``--silent``."""
        if self.level > SILENT:
            write(sys.stderr if to_stderr else sys.stdout, text)

    def error(self, text: str) -> None:
        if self.level > SILENT:
            write(sys.stderr, f"error: {text}\n")

    def warning(self, text: str) -> None:
        if self.level > QUIET:
            write(sys.stderr, f"warning: {text}\n")

    def info(self, text: str, *, to_stderr: bool = False) -> None:
        """The summary and what fixes did: hidden by ``--quiet``. On stdout, after the
        findings, unless stdout carries something else (the fixed source of stdin)."""
        if self.level > QUIET:
            write(sys.stderr if to_stderr else sys.stdout, text)

    def debug(self, text: str) -> None:
        if self.level >= VERBOSE:
            write(sys.stderr, f"debug: {text}\n")


class ProgressLine:
    """``Linting: done/total files`` on stderr while a long run goes on.

    Shown only on a terminal (never in a pipe, a file or CI, where a line that
    rewrites itself is noise), only once the run has taken about a second, and at most
    ten times a second; erased before the findings are printed.
    """

    DELAY = 1.0
    INTERVAL = 0.1

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.done = 0
        self.started = time.monotonic()
        self.last = 0.0
        self.shown = False

    @staticmethod
    def wanted(console: Console, stream: TextIO) -> bool:
        if console.level < DEFAULT or os.environ.get("CI") or os.environ.get("TERM") == "dumb":
            return False
        isatty = getattr(stream, "isatty", None)
        try:
            return bool(isatty is not None and isatty())
        except ValueError:
            return False

    def __call__(self, count: int) -> None:
        self.done += count
        now = time.monotonic()
        if now - self.started < self.DELAY or now - self.last < self.INTERVAL:
            return
        self.last = now
        self.shown = True
        write(self.stream, f"\rLinting: {min(self.done, self.total)}/{self.total} files")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            write(self.stream, "\r\x1b[K")
            self.stream.flush()
