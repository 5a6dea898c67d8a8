"""Other modules of the linted project: where an imported name is bound, and its module.

Where an imported name is bound (which file, which module-level name) is answered in
one of two ways:

* **directly**, for the most common case: ``from .constants import X`` (or ``from .
  import constants`` then ``constants.X``, where the package binds nothing named
  ``constants``) where ``constants.py`` binds ``X`` once, anywhere in the module, by a
  plain assignment of a literal or a display (``X = "2024-05-01"``, ``X = {...}``,
  ``X: T = [...]``), or of a name bound so before it (``X = SOURCE``, ``SOURCE``
  assigned in the module or taken by ``from .other import SOURCE`` from a module that
  assigns it so), and holds nothing that could rebind it (no star import,
  ``global``, ``del``) and no type comment (astroid parses those, and may refuse a
  module ``ast`` accepts). The modules are located and read as below; nothing else is
  looked up;
* otherwise by the astroid bridge (``resolve.astroid_bridge``, which imports astroid
  the first time it is asked: a file whose names are its own, or come from plain
  constants, never pays for it): re-exports, modules bound by an import, names bound
  in branches, anything inference has to say something about.

The direct answer is given only where astroid's would be the same binding (a
differential test holds the two together), with one difference on purpose: a module
nested more deeply than astroid's recursive tree builder can take is unknown to
astroid, and read directly all the same (the index is built without recursion).

The module found is read like the linted file (:class:`ModuleReading`), once per
version of the file and per set of declaration names (they decide which of its dicts
are only read by declarations): the key holds everything the reading depends on, so a
file's findings never depend on what the run linted before it.

Everything kept between questions lives in a :class:`ProjectCache`, made for one run
(the runner's, a pool worker's chunk) or for one file where no run exists (a library
call, flake8, the language server): nothing is kept in this module.
"""

from __future__ import annotations

import ast
import os

from semantics_lint.lint.core.index import ANNOTATED, ASSIGN, IMPORT_FROM, Binding, FileIndex
from semantics_lint.lint.resolve import astroid_bridge, project_modules
from semantics_lint.lint.resolve.module_reading import ModuleReading, read_module

__all__ = [
    "MAX_CACHED_MODULES",
    "ProjectCache",
    "imported_binding",
    "max_questions",
    "module_reading",
]

MAX_CACHED_MODULES = 256
"""Project modules a :class:`ProjectCache` keeps read at once."""
MAX_KEPT_ANSWERS = 4096
"""Direct answers kept at once (each with the files it was read from)."""

_Signed = tuple[tuple[str, tuple[int, int]], ...]


class ProjectCache:
    """What the linter keeps about other modules of projects for one run, and nothing
    outlives it: where module names are located (``located``), the modules read
    (``readings``), where imported names are bound (``answers``, and the astroid
    bridge's session in ``bridge``). Every entry is keyed by all it depends on and
    checked against the files it was read from, so a file's findings never depend on
    which files the run linted before it.

    ``questions`` counts the questions about another module asked so far: the engine
    reads it around one file to say whether the file's findings depend on other files.
    :meth:`close` ends the run (astroid's memo of the run's modules is dropped).
    """

    __slots__ = ("answers", "bridge", "located", "questions", "readings")

    def __init__(self) -> None:
        self.located: project_modules.Located = {}
        self.readings: dict[tuple[str, frozenset[str]], tuple[tuple[int, int], ModuleReading | None]] = {}
        self.answers: dict[
            tuple[str, str, tuple[str, ...]], tuple[astroid_bridge.ModuleBinding | None, _Signed]
        ] = {}
        self.bridge = astroid_bridge.Bridge(self.located)
        self.questions = 0

    def close(self) -> None:
        """Forget everything kept (the run is over, or a file changed in a way its size
        and modification time do not show)."""
        self.bridge.close()
        self.located.clear()
        self.readings.clear()
        self.answers.clear()

    def __enter__(self) -> ProjectCache:  # noqa: PYI034 - the class is not subclassed
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def module_reading(
    path: str,
    declaration_names: frozenset[str],
    cache: ProjectCache,
    snapshot: project_modules.Snapshot,
) -> ModuleReading | None:
    """The reading of a project module, from disk once per version of the file (as
    ``snapshot``, the lint's view of the files, sees it) in the run (``cache``)."""
    signature = snapshot.signature(path)
    if signature[1] < 0:
        return None  # cannot be stat'ed
    key = (path, declaration_names)
    readings = cache.readings
    cached = readings.get(key)
    if cached is not None and cached[0] == signature:
        return cached[1]
    if len(readings) >= MAX_CACHED_MODULES:
        readings.clear()
    reading = read_module(path, signature[1], declaration_names)
    readings[key] = (signature, reading)
    return reading


def max_questions() -> int:
    """Distinct questions about other modules the lint of one file may ask."""
    return astroid_bridge.MAX_LOOKUPS


def imported_binding(
    question: astroid_bridge.ImportRequest,
    declaration_names: frozenset[str],
    cache: ProjectCache,
    snapshot: project_modules.Snapshot,
) -> astroid_bridge.ModuleBinding | None:
    """Where the imported name is bound, when the project's source says so (as
    ``snapshot``, the lint's view of the files, sees it)."""
    cache.questions += 1
    direct = _direct_binding(question, declaration_names, cache, snapshot)
    if direct is not None:
        return direct
    return astroid_bridge.find_binding(question, cache.bridge)


def _direct_binding(
    question: astroid_bridge.ImportRequest,
    declaration_names: frozenset[str],
    cache: ProjectCache,
    snapshot: project_modules.Snapshot,
) -> astroid_bridge.ModuleBinding | None:
    """The direct answer (see the module docstring), or None (then astroid is asked).

    An answer worked out before is given again while the files it was read from are
    unchanged on disk, as astroid's are; one whose module was not found or could not
    be read is worked out afresh each time (the module may appear).
    """
    names = question.names
    if not names or len(names) > astroid_bridge.MAX_HOPS:
        return None
    layout = cache.bridge.layout(question.importer)
    target = astroid_bridge.absolute_module(layout, question.module, question.level)
    if target is None:
        return None
    key = (layout.source_root, target, names)
    reader = _Reader(declaration_names, cache, snapshot)
    kept = cache.answers.get(key)
    if kept is not None and all(reader.snapshot.signature(path) == signature for path, signature in kept[1]):
        return kept[0]
    answer, complete = _constant_binding(layout.source_root, target, names, reader)
    if complete:
        if len(cache.answers) >= MAX_KEPT_ANSWERS:
            cache.answers.clear()
        cache.answers[key] = (answer, tuple(reader.read))
    return answer


class _Reader:
    """Reads the modules one direct answer is worked out from, noting each file's
    signature (before reading it: a later change is seen as one)."""

    __slots__ = ("cache", "declaration_names", "read", "snapshot")

    def __init__(
        self,
        declaration_names: frozenset[str],
        cache: ProjectCache,
        snapshot: project_modules.Snapshot,
    ) -> None:
        self.declaration_names = declaration_names
        self.cache = cache
        self.snapshot = snapshot
        self.read: list[tuple[str, tuple[int, int]]] = []

    def locate(self, root: str, name: str) -> project_modules.ModuleFile | None:
        return project_modules.locate(root, name, self.cache.located)

    def module(self, path: str) -> ModuleReading | None:
        self.read.append((path, self.snapshot.signature(path)))
        return module_reading(path, self.declaration_names, self.cache, self.snapshot)


def _constant_binding(
    root: str,
    target: str,
    names: tuple[str, ...],
    reader: _Reader,
    *,
    aliases: bool = True,
) -> tuple[astroid_bridge.ModuleBinding | None, bool]:
    """The binding of a name its module assigns once, to a literal or a display (or,
    with ``aliases``, to a name bound so before it), or None; and whether every module
    on the way was read (``reader`` notes the files). Every condition here is one
    astroid's answer would also meet; anything else (a re-export, a module bound by an
    import, a name bound twice or in a branch, a value inference has to work out) is
    left to it."""
    *heads, name = names
    for head in heads:
        # ``from pkg import constants`` then ``constants.X``: the submodule, when the
        # package binds nothing of that name itself.
        located = reader.locate(root, target)
        if located is None or located.folder is None:
            return None, False
        if head.startswith("__"):
            return None, True
        if located.path is not None:
            package = reader.module(located.path)
            if package is None:
                return None, False
            if _typed(package) or not _unbound(package.index, head):
                return None, True
        target = f"{target}.{head}"
    located = reader.locate(root, target)
    if located is None or located.path is None:
        return None, False
    reading = reader.module(located.path)
    if reading is None:
        return None, False
    index = reading.index
    if _typed(reading) or index.star_import:
        return None, True
    binding = _only_binding(index, name)
    if binding is None or binding.kind not in (ASSIGN, ANNOTATED):
        return None, True
    value = binding.value
    if isinstance(value, ast.Name) and aliases:
        # ``PROVENANCE_SOURCE = SOURCE``: inference gives SOURCE's one value.
        plain, complete = _plain_alias(
            root, target, located.folder is not None, index, value.id, binding, reader
        )
        if not plain:
            return None, complete
    elif not _plain_display(value):
        return None, True
    path = os.path.abspath(located.path)
    answer = astroid_bridge.ModuleBinding(
        path=path,
        name=name,
        line=binding.node.lineno,  # type: ignore[attr-defined]
        display=astroid_bridge.display_path(path, root),
    )
    return answer, True


def _only_binding(index: FileIndex, name: str) -> Binding | None:
    """The one binding of ``name`` in the module, when it is at module level and
    nothing else anywhere binds it or could (``global``, ``del``)."""
    if name in index.unstable:
        return None
    bindings = index.bindings_anywhere(name)
    if len(bindings) != 1 or index.module.bindings.get(name) != bindings:
        return None
    return bindings[0]


def _plain_alias(
    root: str,
    target: str,
    package: bool,
    index: FileIndex,
    name: str,
    alias: Binding,
    reader: _Reader,
) -> tuple[bool, bool]:
    """Whether ``name``, the value of ``alias`` in module ``target``, is bound before it
    once, to a literal or a display: here, or by a relative ``from`` import of a name
    its module binds so (``from .constants import SOURCE``); and whether every module
    on the way was read."""
    binding = _only_binding(index, name)
    statement = binding.statement if binding is not None else None
    if binding is None or statement is None or statement.lineno >= alias.statement.lineno:  # type: ignore[attr-defined, union-attr]
        return False, True
    if binding.kind in (ASSIGN, ANNOTATED):
        return _plain_display(binding.value), True
    if binding.kind != IMPORT_FROM or not isinstance(statement, ast.ImportFrom) or not statement.level:
        return False, True
    # Relative to the module's own dotted name, as astroid resolves it.
    parts = tuple(target.split("."))
    layout = astroid_bridge.ProjectLayout(root, parts if package else parts[:-1], target)
    source = astroid_bridge.absolute_module(layout, statement.module or "", statement.level)
    if source is None:
        return False, True
    imported: str = binding.node.name  # type: ignore[attr-defined]
    answer, complete = _constant_binding(root, source, (imported,), reader, aliases=False)
    return answer is not None, complete


def _typed(reading: ModuleReading) -> bool:
    """The module may hold a type comment: astroid parses those, and may refuse a
    module ``ast`` accepts, so astroid is asked."""
    return "type:" in reading.source.text


def _unbound(index: FileIndex, name: str) -> bool:
    """Nothing in the module binds ``name``, or could (a star import, ``global``)."""
    return not index.star_import and name not in index.unstable and not index.bindings_anywhere(name)


def _plain_display(value: ast.expr | None) -> bool:
    """A literal, or a display whose items are written out (no ``*x``, ``**x`` or
    walrus, which inference would have to look through)."""
    if isinstance(value, ast.Constant):
        return True
    if isinstance(value, ast.Dict):
        return None not in value.keys
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        return not any(isinstance(item, (ast.Starred, ast.NamedExpr)) for item in value.elts)
    return False
