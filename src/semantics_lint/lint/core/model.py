"""The data every linter frontend shares: positions, edits, fixes and findings.

Immutable records (named tuples) with no behaviour beyond rendering themselves in
ruff's JSON shape (``--output-format json``, docs/cli.md). Rows are 1-based; columns
are 0-based here (as ``ast`` and flake8 count them) and become 1-based only in JSON
output.

Named tuples rather than dataclasses: every run imports this module, one over files
without calls of ours too, and ``dataclasses`` (with ``inspect``) costs such a run
about a fifth of its time. Change a record with ``_replace``.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple


class Severity(str, Enum):
    """E: the source proves it wrong. W: a strong heuristic, and says so."""

    ERROR = "E"
    WARNING = "W"


class Applicability(str, Enum):
    """Safe fixes apply with ``--fix``; unsafe ones need ``--unsafe-fixes`` too."""

    SAFE = "safe"
    UNSAFE = "unsafe"


class Position(NamedTuple):
    """A place in a file: ``line`` 1-based, ``column`` 0-based (in characters)."""

    line: int
    column: int

    def to_json(self) -> dict[str, int]:
        return {"row": self.line, "column": self.column + 1}


class Edit(NamedTuple):
    """Replace the text between ``start`` and ``end`` with ``content``."""

    content: str
    start: Position
    end: Position

    def to_json(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "location": self.start.to_json(),
            "end_location": self.end.to_json(),
        }


class Fix(NamedTuple):
    """A proposed change: how safe it is, what it does, and the edits."""

    applicability: Applicability
    message: str
    edits: tuple[Edit, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "applicability": self.applicability.value,
            "message": self.message,
            "edits": [edit.to_json() for edit in self.edits],
        }


class Finding(NamedTuple):
    """One reported mistake in one file.

    ``message`` says what is wrong, naming the field, in a line; ``help``, when given,
    says why it matters and what to write instead (ruff's ``help:``): every format
    that shows one line per finding shows the message alone.
    """

    code: str
    message: str
    severity: Severity
    filename: str
    start: Position
    end: Position
    fix: Fix | None = None
    url: str | None = None
    help: str | None = None

    @property
    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.filename, self.start.line, self.start.column, self.code)

    def to_json(self) -> dict[str, Any]:
        """The finding in the JSON shape ruff prints (``--output-format json``, docs/cli.md)."""
        return {
            "code": self.code,
            "message": self.message,
            "severity": self.severity.value,
            "filename": self.filename,
            "location": self.start.to_json(),
            "end_location": self.end.to_json(),
            "fix": self.fix.to_json() if self.fix is not None else None,
            "url": self.url,
            "help": self.help,
        }
