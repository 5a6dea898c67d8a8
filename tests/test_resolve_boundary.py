"""What the resolver keeps lives in a run's cache, and astroid is left as it was found.

``resolve.ProjectCache`` holds everything read about other modules for one run; a
lint without one keeps nothing once it ends. ``resolve/astroid_boundary.py`` is the one
place that reaches past astroid's public API: these tests hold it to putting
everything back.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from astroid import MANAGER
from astroid.context import _INFERENCE_CACHE
from astroid.exceptions import AstroidImportError
from astroid.manager import AstroidManager

from semantics_lint.lint.core import engine
from semantics_lint.lint.resolve import ProjectCache, astroid_boundary

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


def test_astroid_is_left_as_it_was_found(tmp_path: Path) -> None:
    tool = project(tmp_path, "2024-05-01")
    lookup = AstroidManager.__dict__["ast_from_module_name"]
    cached = set(MANAGER.astroid_cache)
    with ProjectCache() as run:
        assert sem203(tool, run) == [3]
        assert run.bridge.session is not None and run.bridge.session.modules
        modules = {id(module) for module in run.bridge.session.modules.values()}
        assert AstroidManager.__dict__["ast_from_module_name"] is lookup
        new = set(MANAGER.astroid_cache) - cached  # astroid's own builtins may be built
        assert not any(
            str(getattr(MANAGER.astroid_cache[name], "file", None) or "").startswith(str(tmp_path)) for name in new
        ), new
    assert run.bridge.session is None
    assert astroid_boundary.project_manager().astroid_cache == {}  # no module between questions
    # astroid's memo of inferences holds nothing about the run's modules once it ends.
    roots = {id(key[0].root()) for key in _INFERENCE_CACHE if hasattr(key[0], "root")}
    assert not roots & modules


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


def test_other_threads_keep_astroids_own_lookup(tmp_path: Path) -> None:
    """While a question is answered in one thread, astroid works as usual in another."""
    inside, release = threading.Event(), threading.Event()
    seen: list[object] = []

    def refuse(name: str) -> object:
        raise AstroidImportError("{modname} is not a source module of the project", modname=name)

    def answer() -> None:
        manager = astroid_boundary.project_manager()
        with astroid_boundary.answering(manager, {}, refuse):
            try:
                seen.append(AstroidManager().ast_from_module_name("email.utils"))
            except AstroidImportError:
                seen.append("refused")
            inside.set()
            release.wait(30)

    worker = threading.Thread(target=answer)
    worker.start()
    try:
        assert inside.wait(30)
        assert AstroidManager().ast_from_module_name("email.utils").name == "email.utils"
    finally:
        release.set()
        worker.join(30)
    # In the answering thread, a standard-library module is not read.
    assert seen == ["refused"]
