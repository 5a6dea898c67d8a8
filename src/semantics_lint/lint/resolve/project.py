"""Other modules of the linted project: where an imported name is bound, and its module.

Where an imported name is bound (which file, which module-level name) is asked of the
astroid bridge (``resolve.astroid_bridge``, which imports astroid the first time a name
crosses a module: a file whose names are all its own never pays for astroid). The
module found is read like the linted file (:class:`ModuleReading`), once per version of
the file and per set of declaration names (they decide which of its dicts are only read
by declarations): the key holds everything the reading depends on, so a file's findings
never depend on what the process linted before it.
"""

from __future__ import annotations

import os

from semantics_lint.lint.resolve import astroid_bridge
from semantics_lint.lint.resolve.reading import ModuleReading, read_module

__all__ = ["MAX_CACHED_MODULES", "clear", "imported_binding", "lookups_so_far", "module_reading"]

MAX_CACHED_MODULES = 256


_READINGS: dict[tuple[str, frozenset[str]], tuple[tuple[int, int], ModuleReading | None]] = {}


def module_reading(path: str, declaration_names: frozenset[str]) -> ModuleReading | None:
    """The reading of a project module, from disk once per version of the file."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    signature = (status.st_mtime_ns, status.st_size)
    key = (path, declaration_names)
    cached = _READINGS.get(key)
    if cached is not None and cached[0] == signature:
        return cached[1]
    if len(_READINGS) >= MAX_CACHED_MODULES:
        _READINGS.clear()
    reading = read_module(path, status.st_size, declaration_names)
    _READINGS[key] = (signature, reading)
    return reading


def max_questions() -> int:
    """Distinct questions about other modules the lint of one file may ask."""
    return astroid_bridge.MAX_LOOKUPS


def imported_binding(question: astroid_bridge.ImportRequest) -> astroid_bridge.ModuleBinding | None:
    """Where the imported name is bound, when astroid can say so from source alone."""
    return astroid_bridge.find_binding(question)


def lookups_so_far() -> int:
    """How many questions about another module this process has asked so far (the
    results cache reads it around a file: a change means the file's findings depend
    on other files)."""
    return astroid_bridge.requests


def clear() -> None:
    """Forget every module read so far, and astroid's answers (between runs, in tests)."""
    _READINGS.clear()
    astroid_bridge.clear()
