"""The results cache: a file linted before, unchanged, is not linted again.

A file's findings depend on its bytes, on the settings it was linted with, on the
linter itself and on the Python that parsed it; an entry is keyed by all of them. They
may also depend on other files: a name imported from another module of the project is
followed into that module. A per-file key cannot see those files change, so the
findings of a file whose lint asked about any other module (any project import it
followed, found or not) are never stored: such a file is linted on every run. What is
stored is therefore exactly what a fresh lint would say.

One JSON file per linter build lives in the cache folder (``.semantics-lint-cache`` by
default, beside a ``.gitignore`` that keeps it out of version control). It is read once
at the start of a run and written once at the end, atomically, merged with what other
runs wrote meanwhile (pre-commit runs several at once); an unreadable or foreign cache
file counts as empty, and a folder that cannot be written only means no caching. JSON,
not pickle: loading a cache shipped with a repository must not run code.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from semantics_lint.lint.model import (
    Applicability,
    Edit,
    Finding,
    Fix,
    Position,
    Severity,
)

__all__ = [
    "CACHE_DIR_ENV",
    "DEFAULT_CACHE_DIR",
    "ResultCache",
    "build_fingerprint",
    "default_cache_dir",
    "lookups_so_far",
]

DEFAULT_CACHE_DIR = ".semantics-lint-cache"
CACHE_DIR_ENV = "SEMANTICS_LINT_CACHE_DIR"
_FORMAT = 1
_PREFIX = "results-"


def default_cache_dir() -> Path:
    """``$SEMANTICS_LINT_CACHE_DIR``, else ``.semantics-lint-cache`` in the current folder."""
    return Path(os.environ.get(CACHE_DIR_ENV) or DEFAULT_CACHE_DIR)


def lookups_so_far() -> int:
    """How many times this process has asked about another module of a project.

    The runner reads it before and after a file: a change means the file's findings
    depend on other files, and are not cached. Nothing asked before the resolver's
    module is even imported.
    """
    from semantics_lint.lint.resolve import lookups_so_far as asked

    return asked()


def build_fingerprint(package: Path | None = None) -> str:
    """What identifies the linter that made an entry: its code, and what it parses with.

    The package's own files (``package``: this one by default) are named by size and
    modification time, so a change to a rule in an editable install invalidates the
    cache as surely as a new release, another Python or another LibCST does. (Files,
    not the version number: the metadata lookup costs more than the whole check.)
    """
    import importlib.util

    import semantics_lint

    digest = hashlib.sha256()
    digest.update(f"{_FORMAT}|{sys.implementation.name}|{sys.version}".encode())
    if package is None:
        package = Path(semantics_lint.__file__).resolve().parent
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".json") and path.is_file():
            status = path.stat()
            digest.update(f"|{path.relative_to(package)}:{status.st_size}:{status.st_mtime_ns}".encode())
    spec = importlib.util.find_spec("libcst")  # finds it without importing it
    origin = spec.origin if spec is not None else None
    try:
        status = os.stat(origin) if origin else None
    except OSError:
        status = None
    if status is not None:
        digest.update(f"|libcst {origin}:{status.st_size}:{status.st_mtime_ns}".encode())
    return digest.hexdigest()[:20]


def settings_key(settings: Any) -> str:
    """The settings of a file as text that is the same in every process."""
    enabled = getattr(settings, "enabled", None)
    return json.dumps(
        [
            list(getattr(settings, "api_modules", ())),
            list(getattr(settings, "call_names", ())),
            sorted(enabled) if enabled is not None else None,
        ]
    )


class ResultCache:
    """The stored findings of files, by absolute path (see the module docstring)."""

    def __init__(self, directory: Path, fingerprint: str | None = None) -> None:
        self.directory = directory
        self.fingerprint = fingerprint or build_fingerprint()
        self.path = directory / f"{_PREFIX}{self.fingerprint}.json"
        self._entries: dict[str, dict[str, Any]] = self._load(self.path)
        self._changed: dict[str, dict[str, Any]] = {}
        self.hits = 0

    @staticmethod
    def _load(path: Path) -> dict[str, dict[str, Any]]:
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        entries = document.get("entries") if isinstance(document, dict) else None
        if not isinstance(entries, dict) or document.get("format") != _FORMAT:
            return {}
        return {k: v for k, v in entries.items() if isinstance(k, str) and isinstance(v, dict)}

    @staticmethod
    def _key(display: str, source: bytes, settings: Any) -> str:
        digest = hashlib.sha256(source)
        digest.update(b"\0" + display.encode("utf-8", "surrogatepass"))
        digest.update(b"\0" + settings_key(settings).encode())
        return digest.hexdigest()

    def get(self, path: Path, display: str, source: bytes, settings: Any) -> list[Finding] | None:
        """The findings stored for this file as it is now, or None (lint it)."""
        name = os.path.abspath(path)
        entry = self._entries.get(name)
        if entry is None or entry.get("key") != self._key(display, source, settings):
            return None
        try:
            findings = [_finding(display, row) for row in entry["findings"]]
        except (KeyError, TypeError, ValueError):
            return None  # a damaged entry: lint the file
        self.hits += 1
        return findings

    def put(
        self, path: Path, display: str, source: bytes, settings: Any, findings: Sequence[Finding]
    ) -> None:
        """Store the findings of a file whose lint read no other file."""
        self._changed[os.path.abspath(path)] = {
            "key": self._key(display, source, settings),
            "findings": [_row(finding) for finding in findings],
        }

    def save(self) -> None:
        """Write what this run learned, merged with the file as it is now; never raises."""
        if not self._changed:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            ignore = self.directory / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# Written by semantics-lint: its results cache.\n*\n", encoding="utf-8")
            entries = self._load(self.path)  # what other runs wrote meanwhile
            entries.update(self._changed)
            # A file deleted or renamed since loses its entry.
            entries = {name: entry for name, entry in entries.items() if os.path.exists(name)}
            text = json.dumps({"format": _FORMAT, "entries": entries}, separators=(",", ":"))
            import tempfile

            handle, temporary = tempfile.mkstemp(dir=self.directory, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as out:
                    out.write(text)
                os.replace(temporary, self.path)
            except BaseException:
                os.unlink(temporary)
                raise
            for old in self.directory.glob(f"{_PREFIX}*.json"):
                if old != self.path:
                    old.unlink()  # made by another build of the linter
        except (OSError, ValueError):
            return  # no cache this time; the findings are unaffected
        self._changed.clear()


def _row(finding: Finding) -> list[Any]:
    fix = finding.fix
    return [
        finding.code,
        finding.message,
        finding.severity.value,
        [finding.start.line, finding.start.column, finding.end.line, finding.end.column],
        None
        if fix is None
        else [
            fix.applicability.value,
            fix.message,
            [
                [edit.content, edit.start.line, edit.start.column, edit.end.line, edit.end.column]
                for edit in fix.edits
            ],
        ],
        finding.url,
    ]


def _finding(display: str, row: list[Any]) -> Finding:
    code, message, severity, (line, column, end_line, end_column), fix, url = row
    made_fix = None
    if fix is not None:
        applicability, fix_message, edits = fix
        made_fix = Fix(
            Applicability(applicability),
            str(fix_message),
            tuple(
                Edit(str(content), Position(int(a), int(b)), Position(int(c), int(d)))
                for content, a, b, c, d in edits
            ),
        )
    return Finding(
        code=str(code),
        message=str(message),
        severity=Severity(severity),
        filename=display,
        start=Position(int(line), int(column)),
        end=Position(int(end_line), int(end_column)),
        fix=made_fix,
        url=None if url is None else str(url),
    )
