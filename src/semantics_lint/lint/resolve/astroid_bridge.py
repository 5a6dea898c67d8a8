"""Following a name across modules of the linted project, with astroid.

The resolver (``resolve.Resolver``) follows a name to its one binding with the file's
index (``lint.index``). When that binding is an import (``from .constants import
EXPORT_DATE``, ``from pkg import constants`` then ``constants.EXPORT_DATE``, ``import
pkg.constants as c``) and the direct answer of ``resolve.project`` does not apply, it
asks this module *where* the imported name is bound: which file, which module-level
name. The resolver then reads that file with the same rules it applies at home (bound
exactly once, at top level, never mutated), so "provable" means one thing on both
sides of an import.

astroid is imported here (and in ``astroid_boundary``), and only the first time such a
question is asked: a file whose declarations are literal, or whose names are all local
or plain constants of the project, never pays for it.

Never guess:

* a module that cannot be found, cannot be read or does not parse, a name it does not
  bind, a name bound more than once (``TWICE = "a"; TWICE = "b"``, or rebound through
  ``global`` in a function), an import cycle, a star import in a module on the way, and
  inference that raises or yields several distinct values: all of these are *unknown*
  (``None``), never a finding.

Only the project's source files are read, and nothing of the project runs. astroid's
own way to find a module searches ``sys.path``, may call ``importlib.util.find_spec``
(which imports parent packages), loads C extensions named like standard-library ones,
and runs brains, some of which import the module they describe (``gi``, ``numpy``).
None of it is used:

* a module name is located by ``project_modules.locate``: a ``.py`` file or package of
  the importing file's source root, never a standard-library name, never shadowed by
  a compiled file, never outside the root; the module is built from the bytes read
  here, without astroid's transforms (so no brain runs on it), and kept by the
  session, never in astroid's process-wide module cache;
* every module built is one whose imports are the session's
  (``astroid_boundary.ProjectModule``): an import in a module of the project, a star
  import, an attribute read on a package all ask the session, where ``builtins`` is
  astroid's introspection of the interpreter and anything that is not a source module
  of the project is "cannot import", which inference turns into ``Uninferable``;
* so a value from outside the project (``datetime(2024, 5, 1)``, ``time.time()``) is
  ``Uninferable`` to astroid, which says nothing against its one binding: the
  in-file resolver judges its expression in its own file, as it would at home.

Work is bounded: every answer (also "unknown") is kept for the run (:class:`Bridge`,
held by the run's ``resolve.ProjectCache``), one linted file asks at most
``MAX_LOOKUPS`` questions (counted per file, so that a file's findings do not depend
on which other files the same process linted before it: ``--jobs``, the results cache
and the order of files change nothing), a chain of re-exports is followed at most
``MAX_HOPS`` modules deep, inference stops after ``MAX_INFERRED`` values, and a
``RecursionError`` inside astroid is an unknown. Exceptions that are not astroid's way
of saying "I don't know" are bugs and surface.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any

from semantics_lint.lint.core.source import decode_source
from semantics_lint.lint.resolve import project_modules

if TYPE_CHECKING:  # astroid is imported lazily; these names are for the type checker only
    from astroid import nodes

MAX_LOOKUPS = 256
"""Questions the lint of one file may ask; after that its cross-module names are unknown.
(Counted by the resolver, per linted file.)"""
MAX_HOPS = 8
"""Re-exports (``from .base import X`` in ``constants.py``) followed for one name."""
MAX_INFERRED = 16
"""Inferred values read for one name; more than one distinct value is unknown anyway."""


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


def project_layout(path: str, roots: dict[str, tuple[str, tuple[str, ...]]] | None = None) -> ProjectLayout:
    """The source root and module name of ``path``, from the ``__init__.py`` files above it.

    The source root is the first folder, walking up, that is not a package; a file in a
    folder without ``__init__.py`` is a top-level module and its folder is the root.
    ``roots`` keeps each folder's answer for the caller (one run).
    """
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    known = roots.get(folder) if roots is not None else None
    if known is None:
        known = _packages_above(folder)
        if roots is not None:
            roots[folder] = known
    source_root, package = known
    stem = os.path.splitext(os.path.basename(path))[0]
    # A module is its own package's member; for __init__.py the package is itself.
    module_name = ".".join(package) if stem == "__init__" else ".".join([*package, stem])
    return ProjectLayout(source_root=source_root, package=package, module_name=module_name)


def _packages_above(folder: str) -> tuple[str, tuple[str, ...]]:
    """The source root of the files of ``folder``, and the packages from it down to it."""
    package: list[str] = []
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        package.insert(0, os.path.basename(folder))
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return folder, tuple(package)


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
    """One project's astroid modules, built by us from its source files, and the answers.

    The modules live in the session (``modules``), never in astroid's process-wide
    cache: another project, or another user of astroid in the same process (a flake8
    plugin, pylint), never sees them, and they never see that cache. They are built
    without astroid's transforms, so no brain runs on them (some brains import the
    module they describe, ``gi`` and ``numpy`` among them). The session is replaced
    when the source root changes, or when a file one of its answers was read from has
    changed on disk since: each answer keeps the files of the modules looked up while it
    was worked out (and the file it names), and only those are checked when it is asked
    again.
    """

    def __init__(self, root: str, located: project_modules.Located) -> None:
        self.root = root
        self.located = located
        self.answers: dict[tuple[str, str, tuple[str, ...]], tuple[ModuleBinding | None, frozenset[str]]] = {}
        self.signatures: dict[str, tuple[int, int]] = {}
        self.modules: dict[str, nodes.Module] = {}
        self.paths: dict[str, str] = {}
        """The file each module built from one was read from."""
        self.touched: set[str] | None = None
        """While a question is answered: the files of the modules looked up for it."""

    def changed(self, paths: frozenset[str]) -> bool:
        """True when one of ``paths`` is not as it was when the session read it."""
        return any(project_modules.signature(path) != self.signatures.get(path) for path in paths)

    def module(self, name: str) -> nodes.Module:
        """The module ``name`` of this project, built from its source file.

        Every module astroid looks up while it answers for us comes here (every module
        built is an ``astroid_boundary.ProjectModule``): ``builtins`` is astroid's own
        (built by introspecting the interpreter, no file read); any other name that is
        not a source module of the project is astroid's "cannot import"
        (``AstroidImportError``), which inference turns into ``Uninferable``.
        """
        from astroid.exceptions import AstroidImportError
        from astroid.manager import AstroidManager

        from semantics_lint.lint.resolve import astroid_boundary

        if name == "builtins":
            return AstroidManager().builtins_module
        cached = self.modules.get(name)
        if cached is not None:
            if self.touched is not None and name in self.paths:
                self.touched.add(self.paths[name])
            return cached
        located = project_modules.locate(self.root, name, self.located)
        if located is None:
            raise AstroidImportError("{modname} is not a source module of the project", modname=name)
        if located.path is None:
            assert located.folder is not None
            module = astroid_boundary.namespace_module(name, located.folder, self.module)
            self.modules[name] = module
            return module
        return self._build(name, located.path)

    def _build(self, name: str, path: str) -> nodes.Module:
        from astroid.exceptions import AstroidImportError

        from semantics_lint.lint.resolve import astroid_boundary

        signature = project_modules.signature(path)  # before reading: a later change is seen as one
        data = project_modules.read_source(path)
        text = decode_source(data) if data is not None else None
        if not isinstance(text, str):
            raise AstroidImportError("{modname} cannot be read", modname=name, path=path)
        self.signatures.setdefault(path, signature)
        self.paths[name] = path
        if self.touched is not None:
            self.touched.add(path)
        return astroid_boundary.build(text, name, path, self.modules, self.module)

    def close(self) -> None:
        """Drop astroid's memo of inferences about this session's modules, and the
        modules (each of them refers back to the session, through ``module``)."""
        if self.modules:
            from semantics_lint.lint.resolve import astroid_boundary

            astroid_boundary.forget_inferences(list(self.modules.values()))
            self.modules.clear()


class Bridge:
    """What the astroid bridge keeps for one run: where each linted file sits in its
    project (``layout``), and the astroid session of the project last asked about.

    Made by ``resolve.ProjectCache`` (one per run, or per file where there is no run);
    :meth:`close` ends it. Nothing of it is kept anywhere else.
    """

    __slots__ = ("_layouts", "_roots", "located", "session")

    def __init__(self, located: project_modules.Located) -> None:
        self.located = located
        self.session: _Session | None = None
        self._layouts: dict[str, ProjectLayout] = {}
        self._roots: dict[str, tuple[str, tuple[str, ...]]] = {}

    def layout(self, path: str) -> ProjectLayout:
        """:func:`project_layout`, worked out once per file per run."""
        found = self._layouts.get(path)
        if found is None:
            found = self._layouts[path] = project_layout(path, self._roots)
        return found

    def fresh_session(self, root: str) -> _Session:
        """A new session for the project at ``root``, replacing the one before."""
        self.close()
        self.session = _Session(root, self.located)
        return self.session

    def close(self) -> None:
        """End the current session (its modules, and astroid's memo about them)."""
        if self.session is not None:
            self.session.close()
            self.session = None


def find_binding(request: ImportRequest, bridge: Bridge) -> ModuleBinding | None:
    """Where the imported name of ``request`` is bound, or None when that is not provable.

    The answer is a module-level name in one file of the project. The caller still has to
    check that name in that file (bound once, not mutated) before trusting its value.
    An answer given before in the run (``bridge``) is given again while the files it
    was worked out from are unchanged on disk (their size and modification time); when
    one has changed, the project's modules are read afresh.
    """
    layout = bridge.layout(request.importer)
    target = absolute_module(layout, request.module, request.level)
    if target is None or not request.names:
        return None
    session = bridge.session
    if session is None or session.root != layout.source_root:
        session = bridge.fresh_session(layout.source_root)
    key = (layout.source_root, target, request.names)
    known = session.answers.get(key)
    if known is not None:
        answer, read = known
        if not session.changed(read):
            return answer
        session = bridge.fresh_session(layout.source_root)
    found, answer, read = _answer(session, target, request.names)
    if session.changed(read):
        # A module read for an earlier answer changed since: start afresh.
        session = bridge.fresh_session(layout.source_root)
        found, answer, read = _answer(session, target, request.names)
    # A module that was not found at all may appear later, so that "unknown" is not kept.
    if found:
        session.answers[key] = (answer, read)
    return answer


def _answer(
    session: _Session, target: str, names: tuple[str, ...]
) -> tuple[bool, ModuleBinding | None, frozenset[str]]:
    """The answer, and the files of every module looked up to work it out."""
    session.touched = set()
    try:
        found, answer = _find(session, target, names)
    finally:
        read, session.touched = session.touched, None
    if answer is not None:
        session.signatures.setdefault(answer.path, project_modules.signature(answer.path))
        read.add(answer.path)
    return found, answer, frozenset(read)


def _find(session: _Session, target: str, names: tuple[str, ...]) -> tuple[bool, ModuleBinding | None]:
    """(whether the target module was read, the binding or None)."""
    from astroid.exceptions import AstroidError

    from semantics_lint.lint.resolve import astroid_boundary

    with astroid_boundary.one_question:
        try:
            module = session.module(target)
        except (AstroidError, RecursionError, OSError, UnicodeError, SyntaxError):
            return False, None  # missing or broken: unknown, and asked again next time
        try:
            return True, _follow(module, names, session.root, set())
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
            display=display_path(path, root),
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
    """astroid sees nothing against ``name`` in ``module`` having one value.

    Several distinct values mean several bindings are live (``TWICE``, a ``global``
    rebinding). Inference reads the project's modules only, so a value that comes from
    anywhere else is ``Uninferable``: ``datetime(2024, 5, 1)`` or ``datetime.now()``
    (``datetime`` is not the project's). That says nothing against the one binding,
    and the caller judges its expression; instances count as one value between them
    for the same reason.
    """
    values = _inferred_values(module, name)
    if not values:
        return False
    from astroid import nodes as anodes
    from astroid.bases import Instance
    from astroid.util import UninferableBase

    known = [value for value in values if not isinstance(value, UninferableBase)]
    if not known:
        return True
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
        isinstance(statement, anodes.ImportFrom) and any(name == "*" for name, _ in statement.names)
        for statement in module.body
    )


@functools.lru_cache(maxsize=1024)
def display_path(path: str, root: str) -> str:
    """How findings name a project file: its path from the source root, with ``/``.

    Pure (two absolute paths in, their relation out; nothing is read from the file
    system), so its answers are kept for the process."""
    try:
        relative = os.path.relpath(path, root)
    except ValueError:  # another drive on Windows
        return path
    return relative.replace(os.sep, "/")
