"""The results cache: a file linted before, unchanged, is not linted again.

A file's findings depend on its bytes, on the settings it was linted with, on the
linter itself and on the Python that parsed it; an entry is keyed by all of them. They
may also depend on other files: a name imported from another module of the project is
followed into that module. A per-file key cannot see those files change, so the
findings of a file whose lint asked about any other module (any project import it
followed, found or not) are never stored: such a file is linted on every run. What is
stored is therefore exactly what a fresh lint would say.

The cache lives in a folder of its own, ``.semantics-lint-cache``, inside the chosen
cache folder (``--cache-dir``, ``$SEMANTICS_LINT_CACHE_DIR``, else the project root: the
folder of the ``pyproject.toml`` the configuration came from, else the current folder,
as ruff keeps ``.ruff_cache``). The linter creates that folder and marks it as its own
with a ``CACHEDIR.TAG`` (which backup tools honour) and a ``.gitignore`` holding ``*``,
both inside it; it writes, replaces and deletes only there, and only in a folder so
marked: a folder of that name it did not make (no tag of ours, or a symbolic link) is
left alone and the run goes on without a cache.

One JSON file per linter build lives there. It is read once at the start of a run and
written once at the end, atomically, merged with what other runs wrote meanwhile
(pre-commit runs several at once); another build's file is deleted when this one is
written. An unreadable, damaged or foreign cache file, or a damaged entry of any shape
(wrong types, truncated, nested a thousand deep, larger than :data:`MAX_CACHE_BYTES`),
counts as empty, and a folder that cannot be written only means no caching. JSON, not
pickle: loading a cache shipped with a repository must not run code.

A checkout can also ship a cache folder of its own, marked as ours, whose entries
claim that its files are clean. So every entry is signed (HMAC-SHA256) with the
user's key (``user_key.py``: a secret kept outside every project, ``0600`` in the
user's cache home), over the file's path, name as shown, bytes, settings, the
linter build and the findings themselves: an entry the checkout wrote, or one whose
findings were edited, fails the check and the file is linted afresh. Without a key
(no home folder to keep it in) there is no cache.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from semantics_lint.lint.core.model import Applicability, Edit, Finding, Fix, Position, Severity
from semantics_lint.lint.run.config import CACHE_DIR_ENV, default_cache_dir

__all__ = [
    "CACHE_DIR_ENV",
    "CACHE_FOLDER",
    "MAX_CACHE_BYTES",
    "ResultCache",
    "build_fingerprint",
    "default_cache_dir",
]

CACHE_FOLDER = ".semantics-lint-cache"
"""The folder of its own the cache keeps inside the chosen cache folder."""
MAX_CACHE_BYTES = 256 * 1024 * 1024
"""A cache file larger than this counts as empty (and is replaced when the run saves)."""
_FORMAT = 2
_PREFIX = "results-"
_RESULTS_NAME = re.compile(r"results-[0-9A-Za-z]+\.json")
_TEMP_NAME = re.compile(r"\.tmp-[A-Za-z0-9_]+\.json")
_TAG_NAME = "CACHEDIR.TAG"
_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by semantics-lint (its results cache).\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_GITIGNORE = "# Written by semantics-lint: its results cache.\n*\n"
"""Also the marker of a cache folder made before the tag was written: such a folder,
holding exactly this ``.gitignore``, is ours too and gets the tag."""


def build_fingerprint(package: Path | None = None) -> str:
    """What identifies the linter that made an entry: its code, and what it parses with.

    The package's own files (``package``: this one by default) are named by size and
    modification time, so a change to a rule in an editable install invalidates the
    cache as surely as a new release, another Python or another LibCST does. (Files,
    not the version number: the metadata lookup costs more than the whole check.)
    """
    import hashlib
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
        libcst_status = os.stat(origin) if origin else None
    except OSError:
        libcst_status = None
    if libcst_status is not None:
        digest.update(f"|libcst {origin}:{libcst_status.st_size}:{libcst_status.st_mtime_ns}".encode())
    return digest.hexdigest()[:20]


def settings_key(settings: Any) -> str:
    """The settings of a file as text that is the same in every process."""
    import json

    enabled = getattr(settings, "enabled", None)
    return json.dumps(
        [
            list(getattr(settings, "api_modules", ())),
            list(getattr(settings, "call_names", ())),
            sorted(enabled) if enabled is not None else None,
        ]
    )


class ResultCache:
    """The stored findings of files, by absolute path (see the module docstring).

    ``directory`` is the chosen cache folder; the cache itself is its subfolder
    :data:`CACHE_FOLDER` (``folder``).
    """

    def __init__(self, directory: Path, fingerprint: str | None = None, key: bytes | None = None) -> None:
        """``key`` signs the entries; None: the user's key (``user_key.load``)."""
        self.directory = directory
        self.folder = directory / CACHE_FOLDER
        self.fingerprint = fingerprint or build_fingerprint()
        self.path = self.folder / f"{_PREFIX}{self.fingerprint}.json"
        self.problem: str | None = None
        """Why the cache is not used this run (a folder that is not ours, no key), or None."""
        if _is_folder(self.folder) is not False and not _is_ours(self.folder):
            self.problem = (
                f"{self.folder} was not made by semantics-lint (it has no CACHEDIR.TAG "
                "of ours); the results cache is off for this run and the folder left alone"
            )
        self._key = key
        if key is None and self.problem is None:
            from semantics_lint.lint.run import user_key

            self._key = user_key.load()
            if self._key is None:
                self.problem = f"the results cache is off for this run: {user_key.problem()}"
        self._entries: dict[str, dict[str, Any]] = {} if self.problem else self._load(self.path)
        self._changed: dict[str, dict[str, Any]] = {}
        self.hits = 0

    @staticmethod
    def _load(path: Path) -> dict[str, dict[str, Any]]:
        """The entries of the cache file at ``path``; empty when it is missing or damaged."""
        import json

        try:
            fd = os.open(path, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
            with os.fdopen(fd, "rb") as handle:
                status = os.fstat(handle.fileno())
                if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_CACHE_BYTES:
                    return {}
                raw = handle.read(MAX_CACHE_BYTES + 1)
            if len(raw) > MAX_CACHE_BYTES:
                return {}
            document = json.loads(raw.decode("utf-8"))
        except (OSError, ValueError, RecursionError, MemoryError):
            return {}  # unreadable, not UTF-8 or JSON, nested too deep, too large
        entries = document.get("entries") if isinstance(document, dict) else None
        if not isinstance(entries, dict) or document.get("format") != _FORMAT:
            return {}
        return {
            name: entry
            for name, entry in entries.items()
            if isinstance(name, str)
            and "\0" not in name
            and isinstance(entry, dict)
            and isinstance(entry.get("mac"), str)
            and isinstance(entry.get("findings"), list)
        }

    def _mac(self, name: str, display: str, source: bytes, settings: Any, rows: Any) -> str:
        """The signature of an entry: what the findings were computed from, and the findings.

        Raises ``ValueError``, ``TypeError`` or ``RecursionError`` for rows that are not
        plain JSON (a forged entry).
        """
        import hashlib
        import json

        from semantics_lint.lint.run import user_key

        assert self._key is not None, "a cache without a key is never read or written"
        findings = json.dumps(rows, separators=(",", ":"), allow_nan=False)
        return user_key.sign(
            self._key,
            (
                name.encode("utf-8", "surrogatepass"),
                display.encode("utf-8", "surrogatepass"),
                hashlib.sha256(source).digest(),
                settings_key(settings).encode(),
                self.fingerprint.encode(),
                findings.encode(),
            ),
        )

    def get(self, path: Path, display: str, source: bytes, settings: Any) -> list[Finding] | None:
        """The findings stored for this file as it is now, or None (lint it).

        Only an entry signed with the user's key for exactly these bytes, name and
        settings counts: a stale, damaged or forged one means "lint the file".
        """
        name = os.path.abspath(path)
        entry = self._entries.get(name)
        if entry is None:
            return None
        import hmac

        try:
            mac = self._mac(name, display, source, settings, entry["findings"])
            if not hmac.compare_digest(mac, entry["mac"]):
                return None
            findings = [_finding(display, row) for row in entry["findings"]]
        except (KeyError, TypeError, ValueError, RecursionError):
            return None  # a damaged entry: lint the file
        self.hits += 1
        return findings

    def put(
        self, path: Path, display: str, source: bytes, settings: Any, findings: Sequence[Finding]
    ) -> None:
        """Store the findings of a file whose lint read no other file."""
        if self._key is None:
            return
        name = os.path.abspath(path)
        rows = [_row(finding) for finding in findings]
        self._changed[name] = {
            "mac": self._mac(name, display, source, settings, rows),
            "findings": rows,
        }

    def save(self) -> None:
        """Write what this run learned, merged with the file as it is now; never raises."""
        if not self._changed or self.problem:
            return
        import json
        import tempfile

        try:
            if not self._make_folder():
                return
            entries = self._load(self.path)  # what other runs wrote meanwhile
            entries.update(self._changed)
            # A file deleted or renamed since loses its entry.
            entries = {name: entry for name, entry in entries.items() if os.path.exists(name)}
            text = json.dumps({"format": _FORMAT, "entries": entries}, separators=(",", ":"))
            handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as out:
                    out.write(text)
                os.replace(temporary, self.path)
            except BaseException:
                os.unlink(temporary)
                raise
            self._remove_other_builds()
        except (OSError, ValueError):
            return  # no cache this time; the findings are unaffected
        self._changed.clear()

    def _make_folder(self) -> bool:
        """Create the cache's own folder, marked as ours, or check that it is; True if usable."""
        self.directory.mkdir(parents=True, exist_ok=True)
        try:
            os.mkdir(self.folder)
        except FileExistsError:
            return _is_ours(self.folder)
        for name, text in ((_TAG_NAME, _TAG), (".gitignore", _GITIGNORE)):
            _create(self.folder / name, text)
        return True

    def _remove_other_builds(self) -> None:
        """Delete what this linter left in its own folder: other builds' files, stale temporaries."""
        with os.scandir(self.folder) as scan:
            for entry in scan:
                if entry.name == self.path.name or not entry.is_file(follow_symlinks=False):
                    continue
                if _RESULTS_NAME.fullmatch(entry.name) or (
                    _TEMP_NAME.fullmatch(entry.name) and _older_than(entry, 3600)
                ):
                    os.unlink(entry.path)


def _is_folder(path: Path) -> bool | None:
    """True for a real folder, False when nothing is there, None for anything else."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    except OSError:
        return None
    return True if stat.S_ISDIR(mode) else None


def _is_ours(folder: Path) -> bool:
    """True when ``folder`` is a real folder this linter made (its tag, or its old ``.gitignore``).

    A folder made before the tag was written is recognised by its ``.gitignore`` and
    gets the tag.
    """
    if _is_folder(folder) is not True:
        return False
    if _holds(folder / _TAG_NAME, _TAG):
        return True
    if _holds(folder / ".gitignore", _GITIGNORE):
        try:
            _create(folder / _TAG_NAME, _TAG)
        except OSError:
            return False
        return True
    return False


def _holds(path: Path, text: str) -> bool:
    """True when ``path`` is a regular file (not a link) holding exactly ``text``."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return False
        return handle.read(len(text) + 1) == text.encode("utf-8")


def _create(path: Path, text: str) -> None:
    """Create ``path`` holding ``text``; never over anything already there."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)


def _older_than(entry: os.DirEntry[str], seconds: float) -> bool:
    return time.time() - entry.stat(follow_symlinks=False).st_mtime > seconds


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
        finding.help,
    ]


def _finding(display: str, row: Any) -> Finding:
    """The finding a stored row holds; ``ValueError`` for a row of any other shape."""
    code, message, severity, span, fix, url, help = _shaped(row, 7)
    line, column, end_line, end_column = (_count(n) for n in _shaped(span, 4))
    made_fix = None
    if fix is not None:
        applicability, fix_message, edits = _shaped(fix, 3)
        made_fix = Fix(
            Applicability(_text(applicability)),
            _text(fix_message),
            tuple(_edit(edit) for edit in _shaped(edits, None)),
        )
    if line < 1 or end_line < 1:
        raise ValueError("a line number below 1")
    return Finding(
        code=_text(code),
        message=_text(message),
        severity=Severity(_text(severity)),
        filename=display,
        start=Position(line, column),
        end=Position(end_line, end_column),
        fix=made_fix,
        url=None if url is None else _text(url),
        help=None if help is None else _text(help),
    )


def _edit(row: Any) -> Edit:
    content, a, b, c, d = _shaped(row, 5)
    if _count(a) < 1 or _count(c) < 1:
        raise ValueError("a line number below 1")
    return Edit(_text(content), Position(a, _count(b)), Position(c, _count(d)))


def _shaped(value: Any, length: int | None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise ValueError("a stored row of the wrong shape")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("a stored text that is not a string")
    return value


def _count(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise ValueError("a stored position that is not a count")
    return value
