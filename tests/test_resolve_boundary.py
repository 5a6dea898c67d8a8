"""What the resolver keeps lives in a run's cache, and astroid is left as it was found.

``resolve.ProjectCache`` holds everything read about other modules for one run; a
lint without one keeps nothing once it ends. ``resolve/astroid_boundary.py`` is where
the linter meets astroid: these tests hold it to writing nothing of astroid's, to
finding every module of a question through the project alone (astroid's own search
of ``sys.path`` never runs for a project), and to leaving astroid's process-wide
module cache and memo as they were.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from astroid import MANAGER, nodes
from astroid.context import InferenceContext
from astroid.exceptions import AstroidImportError
from astroid.manager import AstroidManager

from semantics_lint.lint import engine
from semantics_lint.lint.resolve import ProjectCache, astroid_boundary

ROOT = Path(__file__).resolve().parent.parent
BOUNDARY = ROOT / "src/semantics_lint/lint/resolve"

TOOL = (
    "from semantics_lint.runtime import described_result\n"
    "from .constants import WHEN\n"
    "described_result(facts=rows, provenance={'measuredAt': WHEN, 'source': 's'})\n"
)
# A re-export: the direct answer leaves it to astroid.
REEXPORT = "from .base import WHEN\n"


def project(root: Path, when: str) -> Path:
    (root / "pkg").mkdir()
    (root / "pkg/__init__.py").write_text("", encoding="utf-8")
    (root / "pkg/base.py").write_text(f"WHEN = {when!r}\n", encoding="utf-8")
    (root / "pkg/constants.py").write_text(REEXPORT, encoding="utf-8")
    tool = root / "pkg/tools.py"
    tool.write_text(TOOL, encoding="utf-8")
    return tool


def sem203(tool: Path, cache: ProjectCache | None = None) -> list[int]:
    linted = engine.lint(tool.read_bytes(), str(tool), project=cache)
    assert linted.other_files
    return [finding.start.line for finding in linted.findings if finding.code == "SEM203"]


def _memo_roots() -> set[int]:
    return {id(key[0].root()) for key in InferenceContext().inferred if isinstance(key[0], nodes.NodeNG)}


def test_astroid_is_left_as_it_was_found(tmp_path: Path) -> None:
    tool = project(tmp_path, "2024-05-01")
    manager_methods = dict(vars(AstroidManager))
    module_methods = dict(vars(nodes.Module))
    denied = set(MANAGER.module_denylist)
    cached = set(MANAGER.astroid_cache)
    with ProjectCache() as run:
        assert sem203(tool, run) == [3]
        session = run.bridge.session
        assert session is not None and session.modules
        modules = {id(module) for module in session.modules.values()}
        assert all(isinstance(module, astroid_boundary.ProjectModule) for module in session.modules.values())
        assert _memo_roots() & modules  # astroid did infer in them...
        new = set(MANAGER.astroid_cache) - cached  # astroid's own builtins may be built
        assert not any(
            str(getattr(MANAGER.astroid_cache[name], "file", None) or "").startswith(str(tmp_path))
            for name in new
        ), new
    assert run.bridge.session is None
    assert not _memo_roots() & modules  # ...and its memo holds nothing of them once the run ends
    assert vars(AstroidManager) == manager_methods
    assert vars(nodes.Module) == module_methods
    assert MANAGER.module_denylist == denied


def test_nothing_outlives_a_lint_without_a_run(tmp_path: Path) -> None:
    """A file rewritten with the same size and time is read afresh by the next lint:
    nothing about it was kept when the last lint ended."""
    tool = project(tmp_path, "2024-05-01")
    base = tmp_path / "pkg/base.py"
    assert sem203(tool) == [3]
    status = base.stat()
    base.write_text("WHEN = 202405011111\n", encoding="utf-8")  # same length, no finding
    os.utime(base, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert base.stat().st_size == status.st_size
    assert sem203(tool) == []


def test_a_run_keeps_its_answers_and_another_run_does_not_see_them(tmp_path: Path) -> None:
    tool = project(tmp_path, "2024-05-01")
    base = tmp_path / "pkg/base.py"
    with ProjectCache() as run:
        assert sem203(tool, run) == [3]
        status = base.stat()
        base.write_text("WHEN = 202405011111\n", encoding="utf-8")
        os.utime(base, ns=(status.st_atime_ns, status.st_mtime_ns))
        assert sem203(tool, run) == [3]  # the run's answer, kept by size and time
        with ProjectCache() as other:
            assert sem203(tool, other) == []


# Every way a module of the project makes astroid look a module up: imports of the
# standard library, of a third-party package and of the project (absolute, relative,
# re-exported, of a package's submodule, through a namespace package), a star import
# (resolved while the module is built), an attribute set on an imported module (inferred
# while it is built), an import of the module itself, and attributes read on packages.
SHAPES: dict[str, str] = {
    "pkg/__init__.py": "from . import constants\nfrom .sub import deep\n",
    "pkg/base.py": "import json\nimport email.utils\nfrom imaplib import IMAP4\nWHEN = '2024-05-01'\nSHARED = {'source': 's'}\n",
    "pkg/constants.py": (
        "import pkg.base\nimport pkg.base as b2\nimport pytest\nfrom . import base\n"
        "from .base import WHEN\nfrom pkg.base import SHARED\n"
        "from pkg import constants as itself\nfrom nowhere.at.all import Thing\n"
        "base.EXTRA = 1\nALIAS = pkg.base.WHEN\nOTHER = b2.WHEN\nUNKNOWN = pkg.missing.WHEN\n"
        "SPACE = pkg.space.inner.VALUE\n"
    ),
    "pkg/starred.py": "from .base import *\nfrom collections import *\n",
    "pkg/sub/__init__.py": "",
    "pkg/sub/deep.py": "from ..base import WHEN as DEEP\nfrom ... import too_far\n",
    "pkg/space/inner.py": "VALUE = '2024-05-01'\n",
    "pkg/tools.py": (
        "from semantics_lint.runtime import described_result\n"
        "from .constants import WHEN, ALIAS, OTHER, UNKNOWN, SPACE, SHARED, itself\n"
        "from . import constants\nfrom .sub.deep import DEEP\nimport pkg\nfrom .starred import WHEN as STARRED\n"
        "described_result(facts=rows, provenance={'measuredAt': WHEN, 'source': 's'})\n"
        "described_result(facts=rows, provenance={'measuredAt': ALIAS, 'source': 's'})\n"
        "described_result(facts=rows, provenance={'measuredAt': OTHER, 'source': 's'})\n"
        "described_result(facts=rows, provenance={'measuredAt': UNKNOWN, 'source': 's'})\n"
        "described_result(facts=rows, provenance={'measuredAt': SPACE, 'source': 's'})\n"
        "described_result(facts=rows, provenance={'measuredAt': constants.WHEN, 'source': 's'})\n"
        "described_result(facts=rows, provenance={'measuredAt': DEEP, 'source': 's'})\n"
        "described_result(facts=rows, provenance={'measuredAt': pkg.constants.WHEN, 'source': 's'})\n"
        "described_result(facts=rows, provenance={'measuredAt': itself.WHEN, 'source': 's'})\n"
        "described_result(facts=rows, provenance=SHARED)\n"
        "described_result(facts=rows, provenance={'measuredAt': STARRED, 'source': 's'})\n"
    ),
}


def write_shapes(root: Path) -> Path:
    for name, text in SHAPES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg/tools.py"


def test_astroid_never_searches_for_a_module_of_a_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tripwire on astroid's own search (``sys.path``, ``find_spec``): it is never
    reached while the linter's questions are answered, whatever the project imports."""
    searched: list[str] = []
    search = AstroidManager.file_from_module_name

    def tripwire(self: Any, modname: str, contextfile: str | None) -> Any:
        searched.append(modname)
        return search(self, modname, contextfile)

    tool = write_shapes(tmp_path)
    monkeypatch.setattr(AstroidManager, "file_from_module_name", tripwire)
    with ProjectCache() as run:
        linted = engine.lint(tool.read_bytes(), str(tool), project=run)
        session = run.bridge.session
        assert session is not None
        built = set(session.modules)
    assert linted.other_files
    # The questions reached the star import, the submodules and the namespace package...
    assert {"pkg.constants", "pkg.base", "pkg.starred", "pkg.sub.deep", "pkg.space"} <= built, built
    # ...and the dates imported were judged across them.
    assert sorted(f.start.line for f in linted.findings if f.code == "SEM203") == [
        7,
        8,
        9,
        12,
        13,
        14,
        15,
    ]
    assert searched == []


def test_a_star_import_is_resolved_through_the_project_while_the_module_is_built(
    tmp_path: Path,
) -> None:
    """``build`` resolves star imports as astroid's builder does (``_post_build``), and
    asks the session for the module starred."""
    asked: list[str] = []
    modules: dict[str, nodes.Module] = {}
    base = astroid_boundary.build(
        "WHEN = '2024-05-01'\n", "pkg.base", str(tmp_path / "pkg/base.py"), modules, asked.append
    )

    def find(name: str) -> nodes.Module:
        asked.append(name)
        if name == "pkg.base":
            return base
        raise AstroidImportError("{modname} is not a source module of the project", modname=name)

    star = astroid_boundary.build(
        "from .base import *\n", "pkg.star", str(tmp_path / "pkg/star.py"), modules, find
    )
    assert asked == ["pkg.base"]
    assert isinstance(star, astroid_boundary.ProjectModule)
    assert modules == {"pkg.base": base, "pkg.star": star}
    assert [value.value for value in star.igetattr("WHEN")] == ["2024-05-01"]


def test_another_thread_keeps_astroids_own_lookup(tmp_path: Path) -> None:
    """While a question is answered in one thread, astroid works as usual in another;
    in the question, a standard-library module is not the project's and is not read."""
    inside, release = threading.Event(), threading.Event()
    seen: list[object] = []

    def find(name: str) -> nodes.Module:
        inside.set()
        release.wait(30)
        raise AstroidImportError("{modname} is not a source module of the project", modname=name)

    module = astroid_boundary.build("import email.utils\n", "pkg.mod", str(tmp_path / "mod.py"), {}, find)

    def answer() -> None:
        with astroid_boundary.one_question:
            try:
                seen.append(module.import_module("email.utils"))
            except AstroidImportError:
                seen.append("refused")

    worker = threading.Thread(target=answer)
    worker.start()
    try:
        assert inside.wait(30)
        assert AstroidManager().ast_from_module_name("email.utils").name == "email.utils"
    finally:
        release.set()
        worker.join(30)
    assert seen == ["refused"]


def test_a_checkout_on_sys_path_is_never_imported(tmp_path: Path) -> None:
    """Linted from inside the checkout with ``python -m`` (the checkout first on
    ``sys.path``), modules it plants under the names its modules import (standard
    library, third party, nowhere, its own package) are read as source at most, never
    run. (Names the interpreter itself imports at start are out of any linter's hands.)"""
    tool = write_shapes(tmp_path)
    marker = tmp_path / "ran"
    for planted in ("imaplib.py", "pytest.py", "nowhere/__init__.py", "nowhere/at/all.py"):
        path = tmp_path / planted
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"open({str(marker)!r}, 'a').write({planted!r})\n", encoding="utf-8")
    (tmp_path / "pkg/__init__.py").write_text(
        f"open({str(marker)!r}, 'a').write('pkg')\nfrom . import constants\n", encoding="utf-8"
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "semantics_lint",
            "check",
            "--no-cache",
            "--select",
            "SEM203",
            str(tool),
        ],
        check=False,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert "SEM203" in result.stdout, result.stdout + result.stderr
    assert not marker.exists(), marker.read_text()


def _astroid_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(
                (alias.asname or alias.name).split(".")[0]
                for alias in node.names
                if alias.name.startswith("astroid")
            )
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("astroid"):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _root_name(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


@pytest.mark.parametrize("module", ["astroid_boundary.py", "astroid_bridge.py"])
def test_the_linter_writes_nothing_of_astroids(module: str) -> None:
    """No assignment or deletion into anything imported from astroid (its classes, its
    modules), no ``setattr``, no private name of astroid imported or read from what
    was imported (the one private call, ``AstroidBuilder._post_build`` on a builder of
    our own, is documented in the boundary's docstring)."""
    tree = ast.parse((BOUNDARY / module).read_text(encoding="utf-8"))
    theirs = _astroid_names(tree)
    assert "AstroidManager" in theirs  # the scan sees what the module takes from astroid
    problems: list[str] = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            if isinstance(target, (ast.Attribute, ast.Subscript)) and _root_name(target) in theirs:
                problems.append(f"line {node.lineno}: writes into {ast.unparse(target)}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"setattr", "delattr"}
        ):
            problems.append(f"line {node.lineno}: {node.func.id}")
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("astroid"):
            problems += [
                f"line {node.lineno}: imports {a.name}" for a in node.names if a.name.startswith("_")
            ]
        if isinstance(node, ast.Attribute) and _private(node.attr) and _root_name(node) in theirs:
            problems.append(f"line {node.lineno}: reads {ast.unparse(node)}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr":
            name = node.args[1] if len(node.args) > 1 else None
            if isinstance(name, ast.Constant) and isinstance(name.value, str) and _private(name.value):
                problems.append(f"line {node.lineno}: reads {ast.unparse(node)}")
    # In a subclass of one of astroid's classes, ``self._x`` is astroid's private name.
    for cls in ast.walk(tree):
        if isinstance(cls, ast.ClassDef) and any(_root_name(base) in theirs for base in cls.bases):
            for node in ast.walk(cls):
                if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                    for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                        if (
                            isinstance(target, ast.Attribute)
                            and _root_name(target) == "self"
                            and _private(target.attr)
                        ):
                            problems.append(
                                f"line {node.lineno}: writes into {ast.unparse(target)} of {cls.name}"
                            )
    assert problems == []
