"""Following values across names and modules: what resolves, and every way it refuses.

Two layers: ``resolve_astroid.find_binding`` (where an imported name is bound, asked of
astroid) and ``resolve.Resolver`` (the answer a rule gets for an expression of a call).
Each refusal case is a case where guessing would be wrong; the expected answer there is
``None`` (unknown), never a value.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from semantics_lint.lint import resolve_astroid
from semantics_lint.lint.resolve_astroid import (
    ImportRequest,
    ModuleBinding,
    absolute_module,
    find_binding,
    project_layout,
)


def write_tree(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.fixture(autouse=True)
def _fresh_astroid() -> None:
    # Each test builds its own project; astroid's module cache is per process.
    resolve_astroid.clear()


# -- layout ----------------------------------------------------------------------------


def test_layout_of_a_module_in_a_package(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/sub/__init__.py": "", "pkg/sub/tools.py": ""})
    layout = project_layout(str(tmp_path / "pkg/sub/tools.py"))
    assert layout.source_root == str(tmp_path)
    assert layout.package == ("pkg", "sub")
    assert layout.module_name == "pkg.sub.tools"


def test_layout_of_a_package_init_and_of_a_loose_file(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pkg/__init__.py": "", "loose.py": ""})
    init = project_layout(str(tmp_path / "pkg/__init__.py"))
    assert (init.module_name, init.package) == ("pkg", ("pkg",))
    loose = project_layout(str(tmp_path / "loose.py"))
    assert (loose.source_root, loose.module_name, loose.package) == (str(tmp_path), "loose", ())


@pytest.mark.parametrize(
    ("package", "module", "level", "expected"),
    [
        (("pkg", "sub"), "constants", 1, "pkg.sub.constants"),
        (("pkg", "sub"), "constants", 2, "pkg.constants"),
        (("pkg", "sub"), "", 1, "pkg.sub"),
        (("pkg", "sub"), "", 2, "pkg"),
        (("pkg", "sub"), "x", 3, None),  # climbs above the top package
        (("pkg", "sub"), "", 3, None),
        (("pkg",), "x", 3, None),
        ((), "x", 1, None),
        (("pkg",), "pkg.constants", 0, "pkg.constants"),
    ],
)
def test_absolute_module(
    package: tuple[str, ...], module: str, level: int, expected: str | None
) -> None:
    layout = resolve_astroid.ProjectLayout("/root", package, ".".join(package))
    assert absolute_module(layout, module, level) == expected


# -- find_binding ---------------------------------------------------------------------

PROJECT = {
    "pkg/__init__.py": "from . import constants\n",
    "pkg/constants.py": """\
        from datetime import datetime
        from .base import BASE_DATE
        EXPORT_DATE = "2024-05-01"
        GRAIN = {"interval": "daily", "aggregation": "count", "isCounter": False}
        WHEN = datetime(2024, 5, 1)
        TWICE = "a"
        TWICE = "b"
        ALIAS = EXPORT_DATE

        def rebind():
            global REBOUND
            REBOUND = "2025-01-01"

        REBOUND = "2024-01-01"
        """,
    "pkg/base.py": 'BASE_DATE = "2023-01-01"\n',
    "pkg/cycle_a.py": "from .cycle_b import LOOP\n",
    "pkg/cycle_b.py": "from .cycle_a import LOOP\n",
    "pkg/starred.py": 'from .base import *\nOWN = "2024-01-01"\n',
    "pkg/tools.py": "",
}


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    write_tree(tmp_path, PROJECT)
    return tmp_path


def ask(project: Path, module: str, level: int, *names: str) -> ModuleBinding | None:
    return find_binding(ImportRequest(str(project / "pkg/tools.py"), module, level, names))


def test_relative_import_finds_the_binding(project: Path) -> None:
    found = ask(project, "constants", 1, "EXPORT_DATE")
    assert found == ModuleBinding(
        path=str(project / "pkg/constants.py"), name="EXPORT_DATE", line=3, display="pkg/constants.py"
    )


def test_absolute_import_and_module_attribute(project: Path) -> None:
    absolute = ask(project, "pkg.constants", 0, "GRAIN")
    attribute = ask(project, "", 1, "constants", "GRAIN")
    dotted = ask(project, "pkg", 0, "constants", "GRAIN")
    assert absolute is not None and absolute.line == 4
    assert absolute == attribute == dotted


def test_a_call_value_is_one_binding(project: Path) -> None:
    # datetime(...) infers to an instance plus Uninferable: still one binding.
    found = ask(project, "constants", 1, "WHEN")
    assert found is not None and found.line == 5


def test_a_re_export_is_followed_to_its_home(project: Path) -> None:
    found = ask(project, "constants", 1, "BASE_DATE")
    assert found is not None
    assert (found.display, found.name, found.line) == ("pkg/base.py", "BASE_DATE", 1)


def test_an_alias_stops_at_its_own_binding(project: Path) -> None:
    # The in-file resolver of constants.py follows ALIAS = EXPORT_DATE from there.
    found = ask(project, "constants", 1, "ALIAS")
    assert found is not None and (found.name, found.line) == ("ALIAS", 8)


@pytest.mark.parametrize(
    ("module", "level", "names"),
    [
        ("constants", 1, ("TWICE",)),  # bound twice
        ("constants", 1, ("REBOUND",)),  # rebound through ``global`` in a function
        ("constants", 1, ("NOT_THERE",)),  # not bound at all
        ("missing", 1, ("X",)),  # no such module
        ("cycle_a", 1, ("LOOP",)),  # an import cycle
        ("starred", 1, ("OWN",)),  # a star import may rebind anything
        ("starred", 1, ("BASE_DATE",)),  # only a star import binds it
        ("constants", 1, ("EXPORT_DATE", "upper")),  # an attribute of a value
        ("constants", 5, ("EXPORT_DATE",)),  # climbs above the top package
    ],
)
def test_unknown_is_none(project: Path, module: str, level: int, names: tuple[str, ...]) -> None:
    assert ask(project, module, level, *names) is None


def test_a_broken_module_is_unknown(project: Path) -> None:
    (project / "pkg/broken.py").write_text("X = (\n", encoding="utf-8")
    assert ask(project, "broken", 1, "X") is None


def test_answers_follow_the_file_on_disk(project: Path) -> None:
    assert ask(project, "base", 1, "BASE_DATE") is not None
    (project / "pkg/base.py").write_text('BASE_DATE = "x"\nBASE_DATE = "y"\n', encoding="utf-8")
    os.utime(project / "pkg/base.py", ns=(1, 1))  # a different signature, whatever the clock
    assert ask(project, "base", 1, "BASE_DATE") is None


def test_two_projects_with_the_same_package_name(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    write_tree(first, {"pkg/__init__.py": "", "pkg/c.py": "X = 1\n", "pkg/tools.py": ""})
    write_tree(second, {"pkg/__init__.py": "", "pkg/c.py": "\n\nX = 2\n", "pkg/tools.py": ""})
    one = find_binding(ImportRequest(str(first / "pkg/tools.py"), "c", 1, ("X",)))
    two = find_binding(ImportRequest(str(second / "pkg/tools.py"), "c", 1, ("X",)))
    assert one is not None and one.path == str(first / "pkg/c.py") and one.line == 1
    assert two is not None and two.path == str(second / "pkg/c.py") and two.line == 3


def test_user_code_is_never_imported(tmp_path: Path) -> None:
    marker = tmp_path / "imported.txt"
    write_tree(
        tmp_path,
        {
            "app/__init__.py": f"open({str(marker)!r}, 'w').close()\n",
            "app/constants.py": f"open({str(marker)!r}, 'w').close()\nX = '2024-05-01'\n",
            "app/tools.py": "",
        },
    )
    # A C extension of the project is never loaded either (this one is not even valid).
    (tmp_path / "app" / "native.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF junk")
    found = find_binding(ImportRequest(str(tmp_path / "app/tools.py"), "constants", 1, ("X",)))
    assert found is not None and found.name == "X"
    assert find_binding(ImportRequest(str(tmp_path / "app/tools.py"), "native", 1, ("X",))) is None
    assert not marker.exists()
    assert not any(name == "app" or name.startswith("app.") for name in sys.modules)
    from astroid import MANAGER

    assert MANAGER.always_load_extensions is False
    assert not MANAGER.extension_package_whitelist


def test_the_search_path_is_restored(project: Path) -> None:
    before = list(sys.path)
    ask(project, "constants", 1, "EXPORT_DATE")
    assert sys.path == before


def test_importing_the_module_does_not_import_astroid() -> None:
    code = (
        "import sys\n"
        "import semantics_lint.lint.resolve_astroid\n"
        "print('astroid' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
