"""Following a name across modules of the linted project, with astroid.

The in-file resolver (``resolve.py``) follows a name to its one binding with LibCST's
scope metadata. When that binding is an import (``from .constants import EXPORT_DATE``,
``from pkg import constants`` then ``constants.EXPORT_DATE``, ``import pkg.constants as c``),
it asks this module *where* the imported name is bound: which file, which module-level
name. The in-file resolver then reads that file with the same rules it applies at home
(bound exactly once, at top level, never mutated), so "provable" means one thing on both
sides of an import.

astroid is imported here, and only here, the first time such a question is asked: a file
whose declarations are literal, or whose names are all local, never pays for it.

Never guess:

* a module that cannot be found, cannot be read or does not parse, a name it does not
  bind, a name bound more than once (``TWICE = "a"; TWICE = "b"``, or rebound through
  ``global`` in a function), an import cycle, a star import in a module on the way, and
  inference that raises, yields only ``Uninferable``, or several distinct values: all of
  these are *unknown* (``None``), never a finding;
* astroid reads source only. C extensions of the project are never loaded (astroid's
  ``always_load_extensions`` stays off and the extension allow-list stays empty, as pylint
  keeps them, because loading one may run arbitrary code), and no user module is imported.

Work is bounded: every answer (also "unknown") is cached for the run, one linted file
asks at most ``MAX_LOOKUPS`` questions (counted per file, so that a file's findings do
not depend on which other files the same process linted before it: ``--jobs``, the
results cache and the order of files change nothing), a chain of re-exports is followed at most ``MAX_HOPS``
modules deep, inference stops after ``MAX_INFERRED`` values, and a ``RecursionError``
inside astroid is an unknown. Exceptions that are not astroid's way of saying "I don't
know" are bugs and surface.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # astroid is imported lazily; these names are for the type checker only
    from astroid import nodes

MAX_LOOKUPS = 256
"""Questions the lint of one file may ask; after that its cross-module names are unknown.
(Counted by the resolver, per linted file.)"""
MAX_HOPS = 8
"""Re-exports (``from .base import X`` in ``constants.py``) followed for one name."""
MAX_INFERRED = 16
"""Inferred values read for one name; more than one distinct value is unknown anyway."""

requests = 0
"""Questions about another module asked in this process so far, answered from the
cache or not. The results cache reads it around each file: a file whose lint asked
any depends on other files, and its findings are not stored."""


@dataclass(frozen=True, slots=True)
class ImportRequest:
    """An imported name, as the importing file wrote it.

    ``module`` and ``level`` are the import's module and number of leading dots
    (``from ..pkg.constants import X``: ``"pkg.constants"``, 2; ``from . import c``:
    ``""``, 1; ``import pkg.constants as c``: ``"pkg.constants"``, 0). ``names`` is the
    name taken from that module followed by the attributes read from it: ``("X",)`` for
    ``from .constants import X``; ``("constants", "X")`` for ``from . import constants``
    then ``constants.X``; ``("X",)`` for ``import pkg.constants as c`` then ``c.X``.
    """

    importer: str
    module: str
    level: int
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ModuleBinding:
    """Where an imported name is bound: a module-level name of one project file.

    ``display`` is the file's path relative to the project's source root (the folder
    above its top package), which is how findings name it: ``pkg/constants.py``.
    """

    path: str
    name: str
    line: int
    display: str


@dataclass(frozen=True, slots=True)
class ProjectLayout:
    """Where a file sits in its project: the source root and its dotted module name."""

    source_root: str
    package: tuple[str, ...]
    module_name: str


@functools.lru_cache(maxsize=1024)
def project_layout(path: str) -> ProjectLayout:
    """The source root and module name of ``path``, from the ``__init__.py`` files above it.

    The source root is the first folder, walking up, that is not a package; a file in a
    folder without ``__init__.py`` is a top-level module and its folder is the root.
    """
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    package: list[str] = []
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        package.insert(0, os.path.basename(folder))
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    if stem == "__init__":
        module_name = ".".join(package)
    else:
        module_name = ".".join([*package, stem])
    # A module is its own package's member; for __init__.py the package is itself.
    own_package = tuple(package)
    return ProjectLayout(source_root=folder, package=own_package, module_name=module_name)


def absolute_module(layout: ProjectLayout, module: str, level: int) -> str | None:
    """The absolute dotted name an import refers to, or None when it climbs too high."""
    if level == 0:
        return module or None
    if level > len(layout.package):
        return None  # Python refuses to climb above the top-level package
    base = list(layout.package[: len(layout.package) - (level - 1)])
    parts = [*base, *(module.split(".") if module else [])]
    return ".".join(parts) if parts else None


class _Session:
    """One run's astroid state: the project root on the search path, and the answers.

    astroid caches modules by dotted name in one process-wide manager, so two projects
    with a package of the same name would read each other's modules. A session
    therefore makes astroid forget the modules of the previous project whenever the
    source root changes, or when a file it answered from has changed on disk since.
    Only the project's own modules are forgotten: the standard library stays cached
    (astroid's full ``clear_cache`` rebuilds builtins and costs about a second).
    """

    def __init__(self) -> None:
        self.root: str | None = None
        self.answers: dict[tuple[str, str, tuple[str, ...]], ModuleBinding | None] = {}
        self.signatures: dict[str, tuple[int, int]] = {}

    def reset(self, root: str) -> None:
        if self.root is not None:
            _forget_modules_under(self.root)
        if root != self.root:
            _forget_modules_under(root)
        self.root = root
        self.answers.clear()
        self.signatures.clear()

    def stale(self) -> bool:
        for path, signature in self.signatures.items():
            if _signature(path) != signature:
                return True
        return False


def _forget_modules_under(root: str) -> None:
    """Drop astroid's cached modules (and module lookups) that live under ``root``."""
    from astroid import MANAGER
    from astroid.interpreter._import import spec

    prefix = os.path.join(os.path.abspath(root), "")
    for name, module in list(MANAGER.astroid_cache.items()):
        places = [module.file] if module.file else list(getattr(module, "path", None) or ())
        if any(os.path.abspath(place).startswith(prefix) for place in places if place):
            del MANAGER.astroid_cache[name]
    # Where each module name was found, and the finders' memo of it: cheap to rebuild.
    # These are private to astroid and vary across its versions: clear what exists.
    MANAGER._mod_file_cache.clear()
    memos = [getattr(spec, "_find_spec", None)]
    finders = getattr(spec, "_SPEC_FINDERS", ())
    memos.extend(getattr(finder, "find_module", None) for finder in finders)
    for memo in memos:
        cache_clear = getattr(memo, "cache_clear", None)
        if cache_clear is not None:
            cache_clear()


_SESSION: _Session | None = None


def _session() -> _Session:
    global _SESSION  # one per process: astroid's own manager is one per process too
    if _SESSION is None:
        _configure_astroid()
        _SESSION = _Session()
    return _SESSION


def _configure_astroid() -> None:
    """Keep astroid on source: never load a C extension of the project to read it."""
    from astroid import MANAGER

    MANAGER.always_load_extensions = False
    MANAGER.extension_package_whitelist = set()


def _signature(path: str) -> tuple[int, int]:
    try:
        status = os.stat(path)
    except OSError:
        return (-1, -1)
    return (status.st_mtime_ns, status.st_size)


@contextlib.contextmanager
def _search_path(root: str) -> Iterator[None]:
    """Put the project's source root first on the module search path, for astroid only.

    astroid finds ``pkg.constants`` the way the import system would, through
    ``sys.path``; pylint adds the linted package roots the same way. Nothing is imported.
    """
    saved = list(sys.path)
    sys.path.insert(0, root)
    try:
        yield
    finally:
        sys.path[:] = saved


def clear() -> None:
    """Forget every answer and the project's modules in astroid (between runs, in tests)."""
    global _SESSION
    project_layout.cache_clear()
    if _SESSION is not None and _SESSION.root is not None:
        _forget_modules_under(_SESSION.root)
    _SESSION = None


def find_binding(request: ImportRequest) -> ModuleBinding | None:
    """Where the imported name of ``request`` is bound, or None when that is not provable.

    The answer is a module-level name in one file of the project. The caller still has to
    check that name in that file (bound once, not mutated) before trusting its value.
    """
    global requests
    requests += 1
    layout = project_layout(request.importer)
    target = absolute_module(layout, request.module, request.level)
    if target is None or not request.names:
        return None
    session = _session()
    if session.root != layout.source_root or session.stale():
        session.reset(layout.source_root)
    key = (layout.source_root, target, request.names)
    if key in session.answers:
        return session.answers[key]
    found, answer = _find(target, request.names, layout.source_root)
    # The answer (a binding, or "unknown") holds while every module of the project that
    # astroid read for it is unchanged: the target, the modules re-exports led to, those
    # inference looked into. A module that was not found at all may appear later, so
    # that "unknown" is not kept.
    _watch_project_modules(session, layout.source_root)
    if found:
        session.answers[key] = answer
    if answer is not None:
        session.signatures.setdefault(answer.path, _signature(answer.path))
    return answer


def _watch_project_modules(session: _Session, root: str) -> None:
    """Record the file signature of every module of ``root`` astroid holds, once each."""
    from astroid import MANAGER

    prefix = os.path.join(os.path.abspath(root), "")
    for module in list(MANAGER.astroid_cache.values()):
        place = module.file
        if place and place not in session.signatures and os.path.abspath(place).startswith(prefix):
            session.signatures[place] = _signature(place)


def _find(target: str, names: tuple[str, ...], root: str) -> tuple[bool, ModuleBinding | None]:
    """(whether the target module was read, the binding or None)."""
    from astroid import MANAGER
    from astroid.exceptions import AstroidError

    with _search_path(root):
        try:
            module = MANAGER.ast_from_module_name(target)
        except (AstroidError, RecursionError, OSError, UnicodeError, SyntaxError):
            return False, None  # missing or broken: unknown, and asked again next time
        try:
            return True, _follow(module, names, root, set())
        except (AstroidError, RecursionError, OSError, UnicodeError, SyntaxError):
            # astroid's "cannot know" (an inference error, inference recursing through
            # a cycle): unknown, never a finding.
            return True, None


def _follow(
    module: nodes.Module, names: tuple[str, ...], root: str, seen: set[tuple[str, str]]
) -> ModuleBinding | None:
    """Follow ``names`` from ``module``: submodules first, then the bound name."""
    from astroid import nodes as anodes

    if len(seen) >= MAX_HOPS or _has_star_import(module):
        return None
    head, rest = names[0], names[1:]
    if (module.name, head) in seen:
        return None  # an import cycle
    seen.add((module.name, head))
    if not _single_inferred(module, head):
        return None
    bindings = module.getattr(head)
    if len(bindings) != 1:
        return None
    binding = bindings[0]
    if rest:
        # ``constants.X``: the head must be a module (a submodule, or one imported here).
        inner = _module_of(module, head, binding)
        if inner is None:
            return None
        return _follow(inner, rest, root, seen)
    if isinstance(binding, anodes.ImportFrom):
        # A re-export (``from .base import X`` in constants.py): follow it to its home.
        if any(name == "*" for name, _ in binding.names):
            return None
        source_module = binding.do_import_module(binding.modname)
        return _follow(source_module, (binding.real_name(head),), root, seen)
    if isinstance(binding, anodes.AssignName) and module.file:
        path = os.path.abspath(module.file)
        if not path.endswith(".py"):
            return None
        return ModuleBinding(
            path=path,
            name=head,
            line=binding.lineno or 0,
            display=_display(path, root),
        )
    return None


def _module_of(module: nodes.Module, name: str, binding: Any) -> nodes.Module | None:
    """The module a name stands for in ``module``, when it provably is one."""
    from astroid import nodes as anodes

    values = _inferred_values(module, name)
    if values is None or len(values) != 1 or not isinstance(values[0], anodes.Module):
        return None
    if not isinstance(binding, (anodes.Import, anodes.ImportFrom)) and binding is not values[0]:
        # A module-level variable that happens to hold a module is a rebindable value,
        # not an import: don't follow it.
        return None
    return values[0]


def _single_inferred(module: nodes.Module, name: str) -> bool:
    """astroid agrees that ``name`` in ``module`` has one value (or one unknown instance).

    Several distinct values mean several bindings are live (``TWICE``, a ``global``
    rebinding). A call such as ``datetime(2024, 5, 1)`` infers to an instance of the class
    plus ``Uninferable`` (the C accelerator behind ``datetime``); that is one binding, and
    the caller judges its expression, so instances count as one value between them.
    """
    values = _inferred_values(module, name)
    if not values:
        return False
    from astroid import nodes as anodes
    from astroid.bases import Instance
    from astroid.util import UninferableBase

    known = [value for value in values if not isinstance(value, UninferableBase)]
    if not known:
        return False
    if all(isinstance(value, Instance) for value in known):
        return True
    if any(isinstance(value, Instance) for value in known):
        return False
    distinct = {id(value) for value in known}
    if len(distinct) != 1:
        return False
    return isinstance(known[0], anodes.NodeNG)


def _inferred_values(module: nodes.Module, name: str) -> list[Any] | None:
    from astroid.context import InferenceContext
    from astroid.exceptions import AstroidError

    # astroid's own cap (``max_inferable_values``, 100 nodes per inference) bounds the
    # work inside; ``islice`` bounds what is read here.
    try:
        return list(islice(module.igetattr(name, InferenceContext()), MAX_INFERRED))
    except (AstroidError, RecursionError):
        return None


def _has_star_import(module: nodes.Module) -> bool:
    from astroid import nodes as anodes

    return any(
        isinstance(statement, anodes.ImportFrom)
        and any(name == "*" for name, _ in statement.names)
        for statement in module.body
    )


def _display(path: str, root: str) -> str:
    try:
        relative = os.path.relpath(path, root)
    except ValueError:  # another drive on Windows
        return path
    return relative.replace(os.sep, "/")
