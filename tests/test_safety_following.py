"""Following a name into another module never runs the linted project's code.

A hostile checkout plants modules under names that astroid treats specially, each of
which writes a marker file when it runs:

* ``gi/``: astroid's gi brain imports ``gi`` when it meets ``require_version(...)``;
* ``numpy.py``: astroid's numpy brain imports ``numpy`` to read its version;
* ``xml/`` and ``wsgiref/`` (standard-library names): looking up a submodule the
  project does not have makes astroid call ``importlib.util.find_spec``, which imports
  the parent package;
* ``requests/`` (a popular package): read for a constant, never imported;
* a compiled extension named like a standard-library one (``_ssl<suffix>``), reached
  through a one-step re-export: astroid loads standard-library extensions to read
  them, and the project's file came first.

Each is linted the ways a user runs the linter: ``semantics-lint check`` in-process
and with a pool of workers, and ``flake8 --select SEM``, both with the project's folder
as the current directory (``python -m`` puts it first on ``sys.path``). No marker may
appear, and the constants the project's source does prove are still followed (its
SEM203 findings are there: nothing is refused that is safe to read).
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from semantics_lint.lint.engine import lint_file

MARKERS = "markers"

TOOLS = """\
    from semantics_lint.runtime import described_result

    from {consts} import WHEN


    def {name}(vm):
        return described_result(
            facts=[{{"entity": vm}}],
            provenance={{"measuredAt": WHEN, "source": "backup export"}},
        )
    """


def marker_code(root: Path, name: str) -> str:
    """A line of Python that, if it ever runs, leaves ``markers/<name>`` behind."""
    return f"open({str(root / MARKERS / name)!r}, 'w').close()\n"


def write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


def hostile_project(root: Path) -> dict[str, int]:
    """Plant the modules; return, per tool module, the SEM203 findings it must draw."""
    (root / MARKERS).mkdir()
    write(root, "pyproject.toml", "[tool.semantics-lint]\n")
    # astroid's gi brain: ``require_version(...)`` made it ``import gi``.
    write(root, "gi/__init__.py", marker_code(root, "gi") + "def require_version(*args):\n    pass\n")
    write(
        root,
        "consts_gi.py",
        'from gi import require_version\nrequire_version("Gtk", "3.0")\nWHEN = "2024-05-01"\n',
    )
    # astroid's numpy brain: inferring ``np.ndarray`` asked for numpy's version.
    write(
        root,
        "numpy.py",
        marker_code(root, "numpy") + "class ndarray:\n    pass\n\nversion = None\n",
    )
    write(root, "consts_numpy.py", "import numpy as np\nWHEN = np.ndarray\n")
    # A standard-library package name: find_spec("xml.missing") imports ``xml``.
    write(root, "xml/__init__.py", marker_code(root, "xml"))
    write(root, "xml/helpers.py", marker_code(root, "xml.helpers") + 'WHEN = "2024-05-01"\n')
    write(root, "consts_xml.py", "from xml.missing import WHEN\n")
    # Another one, of our choice, that nothing in the linter's process imports itself.
    write(root, "wsgiref/__init__.py", marker_code(root, "wsgiref"))
    write(root, "consts_wsgiref.py", "from wsgiref.handlers_of_ours import WHEN\n")
    # A popular package: its source is the project's, read and never run.
    write(root, "requests/__init__.py", marker_code(root, "requests"))
    write(root, "requests/compat.py", marker_code(root, "requests.compat") + 'WHEN = "2024-05-01"\n')
    write(root, "consts_requests.py", "from requests.compat import WHEN\n")
    expected = {}
    for kind, findings in [("gi", 1), ("numpy", 0), ("xml", 0), ("wsgiref", 0), ("requests", 1)]:
        write(root, f"tools_{kind}.py", TOOLS.format(consts=f"consts_{kind}", name=f"{kind}_day"))
        expected[f"tools_{kind}.py"] = findings
    return expected


def markers_written(root: Path) -> list[str]:
    return sorted(os.listdir(root / MARKERS))


def run_linter(how: str, root: Path) -> str:
    """Lint ``root`` as a user would, from inside it; return the report."""
    if how == "flake8":
        command = [sys.executable, "-m", "flake8", "--isolated", "--select", "SEM", "."]
    else:
        jobs = how.removeprefix("check --jobs ")
        command = [
            sys.executable,
            "-m",
            "semantics_lint",
            "check",
            "--no-cache",
            "--jobs",
            jobs,
            ".",
        ]
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    done = subprocess.run(
        command, cwd=root, capture_output=True, text=True, timeout=300, env=env, check=False
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return done.stdout


RUNNERS = ["check --jobs 1", "check --jobs 2", "flake8"]


@pytest.mark.parametrize("how", RUNNERS)
def test_no_planted_module_runs(tmp_path: Path, how: str) -> None:
    expected = hostile_project(tmp_path)
    report = run_linter(how, tmp_path)
    assert markers_written(tmp_path) == [], report
    for tools, count in expected.items():
        found = [line for line in report.splitlines() if tools in line and "SEM203" in line]
        assert len(found) == count, (tools, report)


def test_no_project_module_is_imported_in_process(tmp_path: Path) -> None:
    """An in-process lint leaves no module of the project in ``sys.modules``, and
    astroid's shared state as it found it."""
    from astroid import MANAGER
    from astroid.manager import AstroidManager

    expected = hostile_project(tmp_path)
    lookup = AstroidManager.__dict__["ast_from_module_name"]
    path, meta_path = list(sys.path), list(sys.meta_path)
    cached = set(MANAGER.astroid_cache)
    before = set(sys.modules)
    found = {name: lint_file(tmp_path / name) for name in expected}
    added = set(sys.modules) - before
    ours = sorted(
        name
        for name, module in sys.modules.items()
        if str(getattr(module, "__file__", None) or "").startswith(str(tmp_path))
    )
    assert ours == [], ours
    assert not added & {"gi", "numpy", "requests", "requests.compat", "consts_gi"}, added
    assert markers_written(tmp_path) == []
    for name, count in expected.items():
        assert sum(finding.code == "SEM203" for finding in found[name]) == count, name
    # Nothing of astroid's or of the import system is left changed.
    assert AstroidManager.__dict__["ast_from_module_name"] is lookup
    assert sys.path == path and sys.meta_path == meta_path
    new = set(MANAGER.astroid_cache) - cached
    assert not any(
        str(getattr(MANAGER.astroid_cache[name], "file", None) or "").startswith(str(tmp_path))
        for name in new
    ), new


def compiler() -> str | None:
    return shutil.which("cc") or shutil.which("gcc")


EXTENSION_SOURCE = """\
#include <stdio.h>
__attribute__((constructor)) static void ran(void) {
    FILE *marker = fopen("%s", "w");
    if (marker) { fputs("loaded", marker); fclose(marker); }
}
"""


def build_extension(root: Path, module: str) -> None:
    """A shared object named like the extension module ``module`` whose loading (not
    even its init function: its constructor) writes ``markers/<module>``."""
    cc = compiler()
    assert cc is not None
    source = root / f"{module}_ext.c"
    source.write_text(EXTENSION_SOURCE % (root / MARKERS / module), encoding="utf-8")
    target = root / (module + importlib.machinery.EXTENSION_SUFFIXES[0])
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(target), str(source)], check=True)
    source.unlink()


@pytest.mark.skipif(compiler() is None, reason="no C compiler (cc or gcc) to build an extension")
@pytest.mark.parametrize("how", RUNNERS)
def test_a_compiled_extension_of_the_project_is_never_loaded(tmp_path: Path, how: str) -> None:
    (tmp_path / MARKERS).mkdir()
    write(tmp_path, "pyproject.toml", "[tool.semantics-lint]\n")
    # Named like the standard library's: astroid loads those to read them.
    build_extension(tmp_path, "_ssl")
    write(tmp_path, "consts_ssl.py", "from _ssl import WHEN\n")  # one re-export away
    write(tmp_path, "tools_ssl.py", TOOLS.format(consts="consts_ssl", name="ssl_day"))
    # A project module compiled beside its source: Python would load the extension, so
    # its source proves nothing about what runs, and neither is read.
    build_extension(tmp_path, "helpers")
    write(tmp_path, "helpers.py", 'WHEN = "2024-05-01"\n')
    write(tmp_path, "tools_helpers.py", TOOLS.format(consts="helpers", name="helpers_day"))
    report = run_linter(how, tmp_path)
    assert markers_written(tmp_path) == [], report
    assert "SEM203" not in report, report


# -- what is read: the project's regular source files, inside its root -----------------


def test_a_module_linked_from_outside_the_project_is_not_read(tmp_path: Path) -> None:
    outside, project = tmp_path / "outside", tmp_path / "project"
    write(outside, "secret.py", 'WHEN = "2024-05-01"\n')
    write(outside, "shared/__init__.py", 'WHEN = "2024-05-01"\n')
    write(project, "pyproject.toml", "[tool.semantics-lint]\n")
    (project / "consts.py").symlink_to(outside / "secret.py")
    (project / "shared").symlink_to(outside / "shared", target_is_directory=True)
    write(project, "tools_file.py", TOOLS.format(consts="consts", name="file_day"))
    write(project, "tools_folder.py", TOOLS.format(consts="shared", name="folder_day"))
    # The same text inside the project is followed: only the link's target is refused.
    write(project, "inside.py", 'WHEN = "2024-05-01"\n')
    write(project, "tools_inside.py", TOOLS.format(consts="inside", name="inside_day"))
    report = run_linter("check --jobs 1", project)
    assert [line.split(":")[0] for line in report.splitlines() if "SEM203" in line] == ["tools_inside.py"], (
        report
    )


@pytest.mark.parametrize(
    ("files", "name", "expected"),
    [
        ({"pkg/__init__.py": "", "pkg/c.py": ""}, "pkg.c", "pkg/c.py"),
        ({"pkg/__init__.py": ""}, "pkg", "pkg/__init__.py"),
        ({"ns/c.py": ""}, "ns.c", "ns/c.py"),  # a namespace package of the project
        ({"c.py": "", "c/__init__.py": ""}, "c", "c/__init__.py"),  # a package comes first
        ({"c.py": "", "c/x.txt": ""}, "c", "c.py"),  # a module before a namespace
        ({"c.py": "", "c" + importlib.machinery.EXTENSION_SUFFIXES[0]: ""}, "c", None),
        (
            {"c/__init__.py": "", "c/__init__" + importlib.machinery.EXTENSION_SUFFIXES[-1]: ""},
            "c",
            None,
        ),
        ({"c.pyc": ""}, "c", None),
        ({"C.py": ""}, "c", None),  # the name's exact spelling, on any file system
        ({"json/__init__.py": ""}, "json", None),  # a standard-library name
        ({"pkg/__init__.py": "", "pkg/c.py": ""}, "pkg.c.d", None),  # a module has no submodules
        ({"c.py": ""}, "c.class", None),
    ],
)
def test_locate(tmp_path: Path, files: dict[str, str], name: str, expected: str | None) -> None:
    from semantics_lint.lint.resolve.project_modules import locate

    for relative, text in files.items():
        write(tmp_path, relative, text)
    found = locate(str(tmp_path), name)
    if expected is None:
        assert found is None
    else:
        assert found is not None and found.name == name
        place = found.path if found.path is not None else found.folder
        assert place == str(tmp_path / expected)


def test_locate_sees_a_folder_change_after_it_answered(tmp_path: Path) -> None:
    from semantics_lint.lint.resolve import project_modules

    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/c.py", "")
    hour_ago = time.time() - 3600
    for folder in (tmp_path, tmp_path / "pkg"):
        os.utime(folder, (hour_ago, hour_ago))  # settled: the answer is kept
    kept: project_modules.Located = {}
    found = project_modules.locate(str(tmp_path), "pkg.c", kept)
    assert found is not None and found.path == str(tmp_path / "pkg/c.py")
    assert kept  # kept, and checked against the folders' times
    # A compiled module put beside the source now shadows it.
    write(tmp_path, "pkg/c" + importlib.machinery.EXTENSION_SUFFIXES[0], "")
    assert project_modules.locate(str(tmp_path), "pkg.c", kept) is None
    (tmp_path / ("pkg/c" + importlib.machinery.EXTENSION_SUFFIXES[0])).unlink()
    assert project_modules.locate(str(tmp_path), "pkg.c", kept) == found
    (tmp_path / "pkg/c.py").unlink()
    assert project_modules.locate(str(tmp_path), "pkg.c", kept) is None


def test_locate_keeps_nothing_about_a_folder_changed_just_now(tmp_path: Path) -> None:
    from semantics_lint.lint.resolve import project_modules

    write(tmp_path, "c.py", "")
    kept: project_modules.Located = {}
    assert project_modules.locate(str(tmp_path), "c", kept) is not None
    assert not kept


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_neither_located_nor_waited_on(tmp_path: Path) -> None:
    from semantics_lint.lint.resolve.module_reading import read_module
    from semantics_lint.lint.resolve.project_modules import locate, read_source

    os.mkfifo(tmp_path / "consts.py")  # opening it to read would wait for a writer
    assert locate(str(tmp_path), "consts") is None
    assert read_source(str(tmp_path / "consts.py")) is None
    # Put in place of a module after it was located: the resolver's reading refuses it
    # too, at once (a blocking open would wait here for a writer that never comes).
    answers: list[object] = []
    reader = threading.Thread(
        target=lambda: answers.append(read_module(str(tmp_path / "consts.py"), 0, frozenset())),
        daemon=True,
    )
    reader.start()
    reader.join(timeout=10)
    assert not reader.is_alive(), "read_module waited on a FIFO"
    assert answers == [None]
