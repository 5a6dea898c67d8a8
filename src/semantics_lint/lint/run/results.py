"""What a run of the linter is asked (:class:`RunOptions`, and :class:`InMemory` for a
file held in memory) and what it gives (:class:`RunResult`).

The runner (:mod:`semantics_lint.lint.run.runner`, which names both too) fills a
result as its files are linted; the command line prints it and chooses the exit
code from it, the language server and flake8 read its findings.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint.core.model import Finding


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


DEFAULT_OPTIONS = RunOptions()
"""The options of ``semantics-lint check`` without flags (but ``--no-cache``)."""


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
        "findings",
        "files",
        "linted",
        "fixed",
        "diffs",
        "messages",
        "changed_files",
        "internal_error",
        "used_pool",
        "fixed_stdin",
        "cached",
        "fixed_files",
        "excluded",
        "file_errors",
        "other_files",
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


class InMemory(NamedTuple):
    """A file's content held in memory: standard input, an editor's buffer, flake8's lines.

    ``path`` is the file it stands for (it need not exist): findings carry it, and it
    decides the configuration and per-file-ignores; None is standard input unnamed
    (shown as ``-``, configured from the current folder). ``data`` is the bytes the
    file would hold if saved; None takes them from ``text`` (``source.saved_bytes``).
    ``tree``, given with ``text`` (flake8 hands a plugin both), is linted as it is
    when ``data`` decodes to this very text: the file is not parsed again.
    ``complete`` false says that ``data`` is only the start of a larger input
    (reading stopped past the size limit), whose whole size is ``size`` when known.
    """

    path: str | None
    data: bytes | None = None
    text: str | None = None
    tree: Any = None
    complete: bool = True
    size: int | None = None
