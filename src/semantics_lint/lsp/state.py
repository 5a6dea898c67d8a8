"""What the language server keeps: the client's options, and per open buffer its lint."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types

from semantics_lint.lsp.lint_adapter import Linted
from semantics_lint.lsp.positions import Replacement

NAME = "semantics-lint"
SOURCE = "semantics-lint"
FIX_ALL_KIND = f"{types.CodeActionKind.SourceFixAll.value}.{NAME}"
PYTHON_SUFFIXES = (".py", ".pyi")
DEFAULT_LINT_DELAY = 0.15
"""Seconds a buffer must stay unchanged before it is linted (typing pauses)."""
DEFAULT_LINT_ON_CHANGE_MAX_BYTES = 4_000_000
"""A buffer larger than this (UTF-8 bytes) is linted on open and save only: at about
0.8 s a megabyte on one core, a lint of 4 MB takes some 3 s, the most that still
follows typing."""


@dataclass(slots=True)
class Options:
    """What the client set in ``initializationOptions``."""

    unsafe_fixes: bool = False
    lint_delay: float = DEFAULT_LINT_DELAY
    lint_on_change_max_bytes: int = DEFAULT_LINT_ON_CHANGE_MAX_BYTES

    @classmethod
    def read(cls, raw: Any) -> Options:
        options = cls()
        if not isinstance(raw, dict):
            return options
        # Some clients nest the options under the server's name.
        nested = raw.get(NAME)
        if isinstance(nested, dict):
            raw = {**raw, **nested}
        unsafe = raw.get("unsafeFixes")
        if isinstance(unsafe, bool):
            options.unsafe_fixes = unsafe
        delay = raw.get("lintDelay")
        if isinstance(delay, (int, float)) and not isinstance(delay, bool) and 0 <= delay <= 10:
            options.lint_delay = float(delay)
        limit = raw.get("lintOnChangeMaxBytes")
        if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0:
            options.lint_on_change_max_bytes = limit
        return options


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One lint of one version of a buffer."""

    version: int | None
    text: str
    linted: Linted
    fix_all: list[tuple[Replacement, ...]] = field(default_factory=list)
    """The replacements of fix-all, once computed (one entry at most)."""


@dataclass(slots=True)
class Buffer:
    """What the server keeps about one open document."""

    uri: str
    path: str
    generation: int = 0
    """Bumped by every lint that is scheduled; a lint whose generation is no longer
    the buffer's has been superseded and is dropped."""
    task: asyncio.Task[None] | None = None
    """The newest lint: waiting for its pause, for a worker, or running."""
    in_flight: asyncio.Task[None] | None = None
    """The lint whose job is on a worker (the newest or an older one), if any."""
    in_flight_size: int = 0
    snapshot: Snapshot | None = None
    published: int | None = None
    """The version of the diagnostics published last."""
    errors_shown: set[str] = field(default_factory=set)
    told_too_big: bool = False
