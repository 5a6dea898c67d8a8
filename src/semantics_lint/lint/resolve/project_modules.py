"""Where a dotted module name lives in the linted project, from the file system alone.

Cross-module following (``resolve.project`` and ``resolve.astroid_bridge``) reads the
project's own source files and nothing else. This module answers "which file is ``pkg.constants``?" the way Python's
path finder would for one folder, the project's source root, without the import
system: no ``sys.path``, no ``importlib.util.find_spec`` (which imports parent
packages), no finder or loader, no ``.pth`` file, nothing executed or loaded.

A name is located only when the answer is certain:

* its top-level name is not a standard-library module (``xml``, ``json``, ``_ssl``...):
  whether the project's file or the interpreter's module is imported depends on how
  the tool is started, and the interpreter's modules are not the project's to read;
* every package on the way is a folder of the source root holding ``__init__.py``, or a
  folder without one (a namespace package, read as empty);
* the module is ``name.py`` or ``name/__init__.py``, a regular file, with the exact
  spelling of the name (case-insensitive file systems included), inside the source
  root once symbolic links are resolved;
* no compiled file shadows it: Python prefers an extension module
  (``name.cpython-311-x86_64-linux-gnu.so``, ``name.pyd``) over source, so where one
  exists the source is not what runs, and nothing is said.

Everything else is ``None``: unknown, never a finding.

An answer is kept, in the run's cache (``located``, a dict the caller owns: see
``resolve.ProjectCache``), with the modification times of the folders it was read
from, and given again while none of them has changed (a file added, removed or renamed in one
of them changes its time): asking again costs a ``stat`` per folder, not a listing
and a resolution of every symbolic link on the way. A folder changed in the last
seconds is not trusted that way (file systems keep times in ticks of a few
milliseconds, so a change in the tick of the listing would go unseen): the answer is
then worked out afresh each time.
"""

from __future__ import annotations

import importlib.machinery
import keyword
import os
import stat
import sys
import time
from dataclasses import dataclass

_EXTENSION_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)
_SOURCE_SUFFIX = ".py"
_STANDARD_LIBRARY = frozenset(sys.stdlib_module_names) | frozenset(sys.builtin_module_names)


@dataclass(frozen=True, slots=True)
class ModuleFile:
    """A located module: its source file, or, for a namespace package, its folder.

    ``path`` is the ``.py`` file to read (``None`` for a namespace package);
    ``folder`` is where its submodules are (``None`` for a plain module).
    """

    name: str
    path: str | None
    folder: str | None

    @property
    def package(self) -> bool:
        return self.folder is not None


MAX_KEPT = 1024
"""Answers of :func:`locate` kept at once."""
SETTLED_NS = 2_000_000_000
"""How long before a listing a folder must have last changed for the answer to be kept."""

Located = dict[tuple[str, str], tuple[tuple[tuple[str, int], ...], ModuleFile | None]]
"""Answers of :func:`locate` kept for a run: (root, name) -> (folders and their times, answer)."""


def locate(root: str, name: str, kept: Located | None = None) -> ModuleFile | None:
    """The module ``name`` of the project whose source root is ``root``, or None.

    With ``kept`` (the run's answers so far), an answer is taken from it while the
    folders it was read from are unchanged, and a new one is put in it.
    """
    key = (root, name)
    known = kept.get(key) if kept is not None else None
    if known is not None and all(_modified(folder) == when for folder, when in known[0]):
        return known[1]
    listed: list[tuple[str, int]] = []
    settled = time.time_ns() - SETTLED_NS
    found = _locate(root, name, listed)
    if kept is not None and all(0 <= when < settled for _, when in listed):
        if len(kept) >= MAX_KEPT:
            kept.clear()
        kept[key] = (tuple(listed), found)
    return found


def _modified(folder: str) -> int:
    try:
        return os.stat(folder).st_mtime_ns
    except (OSError, ValueError):
        return -1


def _locate(root: str, name: str, listed: list[tuple[str, int]]) -> ModuleFile | None:
    """:func:`locate`, noting each folder listed (with its time, taken before)."""
    parts = name.split(".")
    if not all(part.isidentifier() and not keyword.iskeyword(part) for part in parts):
        return None
    if parts[0] in _STANDARD_LIBRARY:
        return None
    try:
        real_root = os.path.realpath(root)
    except (OSError, ValueError):
        return None
    folder = root
    found: ModuleFile | None = None
    for index, part in enumerate(parts):
        found = _locate_in(folder, part, ".".join(parts[: index + 1]), listed)
        if found is None:
            return None
        if index < len(parts) - 1:
            if found.folder is None:
                return None  # a plain module has no submodules
            folder = found.folder
    assert found is not None
    place = found.path if found.path is not None else found.folder
    assert place is not None
    if not _inside(real_root, place):
        return None
    return found


def _locate_in(folder: str, part: str, dotted: str, listed: list[tuple[str, int]]) -> ModuleFile | None:
    """``part`` in ``folder``, in the order Python's path finder tries it."""
    listed.append((folder, _modified(folder)))
    try:
        entries = set(os.listdir(folder))
    except (OSError, ValueError):
        return None
    namespace: str | None = None
    if part in entries:
        package = os.path.join(folder, part)
        if os.path.isdir(package):
            listed.append((package, _modified(package)))
            try:
                inside = set(os.listdir(package))
            except (OSError, ValueError):
                return None
            if any("__init__" + suffix in inside for suffix in _EXTENSION_SUFFIXES):
                return None  # a compiled package: its source is not what runs
            if "__init__" + _SOURCE_SUFFIX in inside:
                init = os.path.join(package, "__init__" + _SOURCE_SUFFIX)
                return ModuleFile(dotted, init, package) if _regular(init) else None
            if "__init__.pyc" in inside:
                return None  # a package compiled to bytecode only
            namespace = package
    if any(part + suffix in entries for suffix in _EXTENSION_SUFFIXES):
        return None  # an extension module: it would be loaded, and is never read
    if part + _SOURCE_SUFFIX in entries:
        source = os.path.join(folder, part + _SOURCE_SUFFIX)
        return ModuleFile(dotted, source, None) if _regular(source) else None
    if namespace is not None:
        return ModuleFile(dotted, None, namespace)
    return None


def _regular(path: str) -> bool:
    """A regular file (after symbolic links), not a FIFO or a device that would block."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _inside(real_root: str, path: str) -> bool:
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return False
    return real == real_root or real.startswith(os.path.join(real_root, ""))


def signature(path: str) -> tuple[int, int]:
    """A file's modification time and size, ``(-1, -1)`` when it cannot be stat'ed: what
    answers kept about the file are checked against."""
    try:
        status = os.stat(path)
    except OSError:
        return (-1, -1)
    return (status.st_mtime_ns, status.st_size)


class Snapshot:
    """The signatures of the project's files as one lint first sees them: each file is
    stat'ed once per lint, however many questions read it (one lint reads the project as
    it was when it began)."""

    __slots__ = ("_seen",)

    def __init__(self) -> None:
        self._seen: dict[str, tuple[int, int]] = {}

    def signature(self, path: str) -> tuple[int, int]:
        seen = self._seen.get(path)
        if seen is None:
            seen = self._seen[path] = signature(path)
        return seen


def read_source(path: str) -> bytes | None:
    """The bytes of the source file ``path``: a regular file no larger than the in-file
    resolver reads (``resolve.MAX_MODULE_BYTES``), opened without blocking (a FIFO put
    in its place since :func:`locate` looked is refused, not waited on)."""
    from semantics_lint.lint.resolve.module_reading import MAX_MODULE_BYTES
    from semantics_lint.reading import read_regular

    try:
        return read_regular(path, MAX_MODULE_BYTES)
    except OSError:
        return None
