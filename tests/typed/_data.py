"""Data the typed examples read, as a tool module would: an export with its own time."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Run:
    vm: str
    day: str
    ok: int
    copies: int


@dataclass(frozen=True)
class Export:
    exported_at: str
    source: str
    runs: list[Run] = field(default_factory=list)


EXPORT = Export(
    exported_at="2026-09-26T02:00:00Z",
    source="cohesity-export",
    runs=[Run("vm-01", "2026-09-25", 3, 2), Run("vm-01", "2026-09-26", 2, 2)],
)
