"""The package's modules import in one direction: each layer only from the layers below.

Every ``import`` and ``from ... import`` of ``src/semantics_lint`` is counted wherever it
is written: at the top of a module, inside a function (a lazy import is still a
dependency), under ``TYPE_CHECKING`` (so is a type). The contract (ARCHITECTURE.md):

* no import cycle anywhere in the package;
* folders are layers (``FOLDER_ORDER``): a folder (or a module at the package's top)
  imports only from folders below it, so there is no cycle between folders either;
* the runtime's subpackages are layers too: the wire envelope (``runtime.envelope``) ->
  the mints, the gate and the claims check (``runtime.mints``, ``runtime.gate``,
  ``runtime.claims``; none imports another) -> serving (``runtime.serving``) -> the
  package's own modules (its ``__init__`` and the documented module paths kept there,
  ``RUNTIME_TOP``);
* the linter's core is ordered: vocabulary -> model, reading, settings, syntax, scopes ->
  source, index -> the resolver package -> locate, context -> declaration -> tools -> the runtime door
  (``lint.verdicts``) -> ``rules.base`` -> ``rules.values`` -> ``rules.emptiness`` -> the rule families -> the
  rule registry -> ``engine``; a module imports only from ranks below its own, and no
  family imports another;
* the core imports nothing above the engine (runner, CLI, output, cache, fixes...);
* the two doors: the runtime never imports the linter, and the linter imports the
  runtime only through ``lint.verdicts``;
* LibCST and astroid are each imported at one boundary, lazily (inside a function,
  or for types only): astroid by the resolver's bridge and ``astroid_boundary``, which
  imports it at its top and is itself imported only lazily; LibCST by the writing of
  fixes, which checks that a fixed file still parses.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "semantics_lint"

CORE_ORDER: tuple[tuple[str, ...], ...] = (
    ("semantics_lint.vocabulary_codes",),
    ("semantics_lint.vocabulary", "semantics_lint.reading"),
    (
        "semantics_lint.lint.core.model",
        "semantics_lint.lint.core.settings",
        "semantics_lint.lint.core.syntax",
        "semantics_lint.lint.core.scopes",
        "semantics_lint.lint.core.flow",
    ),
    ("semantics_lint.lint.core.source", "semantics_lint.lint.core.index"),
    ("semantics_lint.lint.resolve.module_reading",),
    ("semantics_lint.lint.resolve.shapes",),
    ("semantics_lint.lint.resolve.project_modules",),
    ("semantics_lint.lint.resolve.astroid_boundary",),
    ("semantics_lint.lint.resolve.astroid_bridge",),
    ("semantics_lint.lint.resolve.project",),
    ("semantics_lint.lint.resolve",),
    (
        "semantics_lint.lint.calls",
        "semantics_lint.lint.calls.locate",
        "semantics_lint.lint.calls.context",
    ),
    ("semantics_lint.lint.calls.declaration",),
    ("semantics_lint.lint.calls.tools",),
    ("semantics_lint.lint.calls.verdicts",),
    ("semantics_lint.lint.rules.base",),
    ("semantics_lint.lint.rules.values",),
    ("semantics_lint.lint.rules.emptiness",),
    (
        "semantics_lint.lint.rules.sem0xx_noqa",
        "semantics_lint.lint.rules.sem0xx_syntax",
        "semantics_lint.lint.rules.sem1xx_data",
        "semantics_lint.lint.rules.sem1xx_keys",
        "semantics_lint.lint.rules.sem1xx_refusals",
        "semantics_lint.lint.rules.sem1xx_rows",
        "semantics_lint.lint.rules.sem2xx_clock",
        "semantics_lint.lint.rules.sem2xx_provenance",
        "semantics_lint.lint.rules.sem3xx_grain",
        "semantics_lint.lint.rules.sem4xx_coverage",
        "semantics_lint.lint.rules.sem4xx_items",
        "semantics_lint.lint.rules.sem4xx_period",
        "semantics_lint.lint.rules.sem5xx_clarify_render",
        "semantics_lint.lint.rules.sem6xx_tools",
        "semantics_lint.lint.rules.sem6xx_data_variable",
        "semantics_lint.lint.rules.sem7xx_claims",
    ),
    ("semantics_lint.lint.rules",),
    ("semantics_lint.lint.engine",),
)
FOLDER_ORDER: tuple[tuple[str, ...], ...] = (
    ("semantics_lint", "semantics_lint.vocabulary_codes"),
    ("semantics_lint.vocabulary", "semantics_lint.reading", "semantics_lint.extras"),
    ("semantics_lint.runtime.envelope",),
    ("semantics_lint.runtime.mints", "semantics_lint.runtime.gate", "semantics_lint.runtime.claims"),
    ("semantics_lint.runtime.serving",),
    ("semantics_lint.runtime",),
    ("semantics_lint.frameworks", "semantics_lint.pytest_findings"),
    ("semantics_lint.pytest_plugin",),
    ("semantics_lint.lint.core",),
    ("semantics_lint.lint.resolve",),
    ("semantics_lint.lint.calls",),
    ("semantics_lint.lint.rules",),
    ("semantics_lint.lint",),
    ("semantics_lint.lint.output",),
    ("semantics_lint.lint.run",),
    ("semantics_lint.lsp", "semantics_lint.flake8_plugin", "semantics_lint.gen"),
    ("semantics_lint.cli",),
    ("semantics_lint.__main__",),
)
"""The folders bottom to top (a module at the package's top is its own folder)."""
FOLDER_RANK = {folder: rank for rank, layer in enumerate(FOLDER_ORDER) for folder in layer}
RANK = {module: rank for rank, layer in enumerate(CORE_ORDER) for module in layer}
THE_RUNTIME_DOOR = "semantics_lint.lint.calls.verdicts"
RUNTIME_TOP = {
    "semantics_lint.runtime",
    "semantics_lint.runtime.record",
    "semantics_lint.runtime.tracing",
    "semantics_lint.runtime.types",
}
"""The modules at the runtime's top: the package and the documented module paths, each
re-exporting the public names of the module that holds them."""


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    lazy: bool  # inside a function, or under ``if TYPE_CHECKING``
    line: int


def _modules() -> dict[str, tuple[Path, bool]]:
    found: dict[str, tuple[Path, bool]] = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        found[".".join(parts)] = (path, is_package)
    return found


MODULES = _modules()


def _target(name: str) -> str:
    """The module of the package ``name`` is (or the nearest package holding it)."""
    while name not in MODULES and "." in name:
        name = name.rpartition(".")[0]
    return name


def _imports_of(module: str) -> list[Import]:
    """Every import a module writes, of the package or of anything else."""
    path, is_package = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if is_package else module.rpartition(".")[0]
    found: list[Import] = []
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, lazy = stack.pop()
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(module, alias.name, lazy, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                full = f"{source}.{alias.name}"
                found.append(Import(module, full if full in MODULES else source, lazy, node.lineno))
        inner = (
            lazy
            or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            or (isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test))
        )
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))
    return found


IMPORTS = [item for module in MODULES for item in _imports_of(module)]
OURS = [
    Import(item.importer, _target(item.imported), item.lazy, item.line)
    for item in IMPORTS
    if item.imported == PACKAGE or item.imported.startswith(PACKAGE + ".")
]


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {module: set() for module in MODULES}
    for item in OURS:
        if item.imported != item.importer:
            graph[item.importer].add(item.imported)
    return graph


def _folder(module: str) -> str:
    """The folder a module lies in; a module at the package's top is its own folder."""
    path, is_package = MODULES[module]
    if is_package or module.count(".") == 1:
        return module
    return module.rpartition(".")[0]


def upward_folder_imports(imports: list[Import]) -> list[str]:
    """Each import from a folder to one at its own rank or above (another folder)."""
    wrong = []
    for item in imports:
        importer, imported = _folder(item.importer), _folder(item.imported)
        if importer != imported and FOLDER_RANK[imported] >= FOLDER_RANK[importer]:
            wrong.append(f"{item.importer} line {item.line}: {item.imported} ({importer} -> {imported})")
    return wrong


def test_every_folder_has_a_layer() -> None:
    assert {_folder(module) for module in MODULES} == set(FOLDER_RANK)


def test_folders_import_only_from_folders_below() -> None:
    assert upward_folder_imports(OURS) == []


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("semantics_lint.lint.core.index", "semantics_lint.lint.resolve"),  # upward
        ("semantics_lint.lint.resolve.project", "semantics_lint.lint.calls.context"),  # upward
        (
            "semantics_lint.lint.calls.locate",
            "semantics_lint.lint.calls.locate",
        ),  # same folder: fine
        (
            "semantics_lint.lint.calls.locate",
            "semantics_lint.lint.calls.tools",
        ),  # same folder: fine
        ("semantics_lint.lint.rules.base", "semantics_lint.lint.calls.tools"),  # downward: fine
        ("semantics_lint.runtime.envelope.parts", "semantics_lint.runtime.mints.items"),  # upward
        ("semantics_lint.runtime.mints.tools", "semantics_lint.runtime.serving.message"),  # upward
        ("semantics_lint.runtime.gate.check", "semantics_lint.runtime.claims.check"),  # a sibling
        ("semantics_lint.runtime.claims.check", "semantics_lint.runtime.mints.judge"),  # a sibling
        ("semantics_lint.runtime.serving.record", "semantics_lint.runtime.record"),  # the top
        ("semantics_lint.runtime.serving.record", "semantics_lint.runtime.claims.check"),  # fine
        ("semantics_lint.runtime.mints.judge", "semantics_lint.runtime.envelope.rules"),  # fine
        ("semantics_lint.runtime.types", "semantics_lint.runtime.envelope.types"),  # fine
    ],
)
def test_the_folder_check_sees_an_upward_import(importer: str, imported: str) -> None:
    # Whether the check above can fail: one import added to the real ones.
    extra = Import(importer, imported, True, 1)
    importer_folder, imported_folder = _folder(importer), _folder(imported)
    upward = (
        importer_folder != imported_folder and FOLDER_RANK[imported_folder] >= FOLDER_RANK[importer_folder]
    )
    assert bool(upward_folder_imports([*OURS, extra])) == upward


def test_the_runtime_s_top_holds_its_door_and_the_documented_paths_only() -> None:
    # Every other runtime module lies in the subpackage of its layer.
    top = {module for module in MODULES if _folder(module) == "semantics_lint.runtime"}
    assert top == RUNTIME_TOP
    layers = {
        _folder(module)
        for module in MODULES
        if module.startswith("semantics_lint.runtime.") and module not in RUNTIME_TOP
    }
    assert layers == {folder for folder in FOLDER_RANK if folder.startswith("semantics_lint.runtime.")}


def test_the_runtime_s_layers_are_used_in_their_order() -> None:
    # The order is the real one, not only an allowed one: each layer above the envelope
    # imports from the envelope, serving from the mints and the claims check.
    def imports_between(importer: str, imported: str) -> bool:
        return any(_folder(item.importer) == importer and _folder(item.imported) == imported for item in OURS)

    runtime = "semantics_lint.runtime"
    for layer in ("mints", "gate", "claims", "serving"):
        assert imports_between(f"{runtime}.{layer}", f"{runtime}.envelope"), layer
    assert imports_between(f"{runtime}.serving", f"{runtime}.mints")
    assert imports_between(f"{runtime}.serving", f"{runtime}.claims")
    for path in (RUNTIME_TOP - {runtime}) | {f"{runtime}.claims", f"{runtime}.serving"}:
        # A documented path only re-exports: nothing of the package imports it.
        assert not [item for item in OURS if item.imported == path], path


def test_every_module_is_seen_with_its_lazy_and_typing_imports() -> None:
    # The walk counts what a top-level-only reading would miss.
    assert len(MODULES) > 60
    assert any(item.lazy for item in OURS)
    engine = {item.imported for item in OURS if item.importer == "semantics_lint.lint.engine"}
    assert "semantics_lint.lint.rules" in engine  # imported inside a function


def test_there_is_no_import_cycle() -> None:
    graph = _graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    assert cycles == []


@pytest.mark.parametrize("module", sorted(RANK), ids=lambda m: m.removeprefix("semantics_lint."))
def test_the_core_imports_only_from_layers_below(module: str) -> None:
    assert module in MODULES, f"{module} is in the layer table but not in the package"
    wrong = [
        f"line {item.line}: {item.imported}"
        for item in OURS
        if item.importer == module
        and item.imported != module
        and not item.imported.startswith("semantics_lint.runtime")
        and (item.imported not in RANK or RANK[item.imported] >= RANK[module])
    ]
    assert wrong == []


def test_every_core_module_has_a_layer() -> None:
    core = {
        module
        for module in MODULES
        if module.startswith(
            (
                "semantics_lint.lint.rules",
                "semantics_lint.lint.resolve",
                "semantics_lint.lint.calls",
            )
        )
    }
    assert core <= set(RANK)


def test_the_runtime_never_imports_the_linter_and_the_linter_asks_it_through_one_door() -> None:
    runtime_to_lint = [
        item
        for item in OURS
        if item.importer.startswith("semantics_lint.runtime")
        and item.imported.startswith("semantics_lint.lint")
    ]
    assert runtime_to_lint == []
    doors = {
        item.importer
        for item in OURS
        if item.importer.startswith("semantics_lint.lint")
        and item.imported.startswith("semantics_lint.runtime")
    }
    assert doors == {THE_RUNTIME_DOOR}


@pytest.mark.parametrize(
    ("library", "allowed", "eager"),
    [
        (
            "astroid",
            {
                "semantics_lint.lint.resolve.astroid_bridge",
                "semantics_lint.lint.resolve.astroid_boundary",
            },
            "semantics_lint.lint.resolve.astroid_boundary",
        ),
        ("libcst", {"semantics_lint.lint.run.fix"}, None),
    ],
)
def test_a_heavy_library_is_imported_lazily_at_one_boundary(
    library: str, allowed: set[str], eager: str | None
) -> None:
    """Only ``allowed`` modules import ``library``; one of them (``eager``) may do so at
    its top, when every import of that module is itself lazy."""
    users = [item for item in IMPORTS if item.imported == library or item.imported.startswith(library + ".")]
    assert {item.importer for item in users} <= allowed
    assert all(item.lazy for item in users if item.importer != eager), [
        item for item in users if not item.lazy and item.importer != eager
    ]
    if eager is not None:
        importers = [item for item in OURS if item.imported == eager]
        assert importers, f"nothing imports {eager}"
        assert all(item.lazy for item in importers), [item for item in importers if not item.lazy]


def test_rule_families_are_imported_by_the_registry_only() -> None:
    families = {module for module in MODULES if module.startswith("semantics_lint.lint.rules.sem")}
    importers = {item.importer for item in OURS if item.imported in families}
    assert importers == {"semantics_lint.lint.rules"}
    # Within the core, only the engine imports the registry.
    core_users = {
        item.importer
        for item in OURS
        if item.imported == "semantics_lint.lint.rules" and item.importer in RANK
    }
    assert core_users <= {"semantics_lint.lint.engine"}
