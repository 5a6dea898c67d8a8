"""Loading the exports the tools read. No declarations here: the prefilter skips it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

EXPORT_DIR = Path("/var/lib/exports")


@dataclass(frozen=True)
class Run:
    vm: str
    day: str
    ok: int


@dataclass(frozen=True)
class BackupExport:
    exported_at: str
    source: str
    runs: list[Run]


def load_backup_export() -> BackupExport:
    raw = json.loads((EXPORT_DIR / "backups.json").read_text(encoding="utf-8"))
    runs = [Run(r["vm"], r["day"], int(r["ok"])) for r in raw["runs"]]
    return BackupExport(raw["exportedAt"], raw["source"], runs)


def load_rows(name: str) -> list[dict[str, object]]:
    return json.loads((EXPORT_DIR / f"{name}.json").read_text(encoding="utf-8"))
