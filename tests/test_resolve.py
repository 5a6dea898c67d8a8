"""Following values across names and modules: what resolves, and every way it refuses.

Two layers: ``resolve_astroid.find_binding`` (where an imported name is bound, asked of
astroid) and ``resolve.Resolver`` (the answer a rule gets for a name of a call, or of a
value followed before).
Each refusal case is a case where guessing would be wrong; the expected answer there is
``None`` (unknown), never a value.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from semantics_lint.lint.calls.context import CallSite
from semantics_lint.lint.engine import LintSettings, file_context, lint_file
from semantics_lint.lint.resolve import ProjectCache, Resolved, project_modules
from semantics_lint.lint.resolve import astroid_bridge as resolve_astroid
from semantics_lint.lint.resolve import project as resolve_project
from semantics_lint.lint.resolve.astroid_bridge import (
    ImportRequest,
    ModuleBinding,
    absolute_module,
    project_layout,
)


def write_tree(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


RUN = ProjectCache()
"""What one run keeps about other modules; each test starts a run of its own."""


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    global RUN
    RUN = ProjectCache()
    yield
    RUN.close()


def find_binding(request: ImportRequest) -> ModuleBinding | None:
    """The astroid bridge's answer, within the test's run."""
    return resolve_astroid.find_binding(request, RUN.bridge)


def direct_binding(request: ImportRequest, names: frozenset[str]) -> ModuleBinding | None:
    """The direct answer, within the test's run, as one lint sees the files."""
    return resolve_project._direct_binding(request, names, RUN, project_modules.Snapshot())


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
def test_absolute_module(package: tuple[str, ...], module: str, level: int, expected: str | None) -> None:
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
        NO_ROWS = []
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


# The direct answer (``resolve.project``) for names a module assigns once to a literal
# must be astroid's answer wherever it is given. Every module-level binding shape:
SHAPES = {
    "shapes/__init__.py": 'PACKAGE_LEVEL = "p"\n',
    "shapes/plain.py": """\
        \"\"\"The module's docstring.\"\"\"
        import os
        from .base import BASE_DATE
        from . import base
        STRING = "2024-05-01"
        NUMBER = 3
        NOTHING = None
        ANNOTATED: str = "2024-05-01"
        BARE: str
        DICT = {"interval": "daily", "aggregation": "count"}
        NESTED = {"a": [1, {"b": (2, 3)}], "c": {*"xy"}}
        LIST = ["a", "b"]
        TUPLE = ("a", 1)
        SET = {"a"}
        EMPTY = []
        SPREAD_DICT = {**DICT}
        SPREAD_LIST = [*LIST, "c"]
        WALRUS_LIST = [(w := 1)]
        NEGATIVE = -1
        JOINED = f"{STRING}"
        CALL = dict(a=1)
        ALIAS = STRING
        (PARENS) = "p"
        MULTILINE = (
            "a"
            "b"
        )
        CHAINED = OTHER = "c"
        FIRST, SECOND = "a", "b"
        TWICE = "a"
        TWICE = "b"
        AUGMENTED = "a"
        AUGMENTED += "b"
        if os.sep:
            BRANCH = "a"
        for LOOP in "ab":
            pass
        with open(os.devnull) as HANDLE:
            pass
        try:
            pass
        except Exception as CAUGHT:
            pass
        match os.sep:
            case CAPTURED:
                pass
        LOOPED = "a"
        for LOOPED in "ab":
            pass
        HANDLED = "a"
        try:
            pass
        except Exception as HANDLED:
            pass
        MATCHED = "a"
        match os.sep:
            case [*MATCHED]:
                pass
        COMPREHENDED = "a"
        _ = [(COMPREHENDED := x) for x in "ab"]
        DELETED = "a"
        del DELETED
        REBOUND = "a"
        def rebind():
            global REBOUND
            REBOUND = "b"
        SHADOWED = "a"
        def shadow():
            SHADOWED = "b"
            return SHADOWED
        class Holder:
            IN_CLASS = "a"
        def function():
            pass
        __all__ = ["STRING"]
        __version__ = "1.0"
        __doc__ = "replaced"
        """,
    "shapes/base.py": 'BASE_DATE = "2023-01-01"\n',
    "shapes/starred.py": 'from .base import *\nOWN = "2024-01-01"\n',
    "shapes/typed.py": "TYPED = []  # type: list[str]\n",
    "shapes/broken.py": 'BROKEN = "a"\ndef (:\n',
    "shapes/space/loose.py": 'LOOSE = "a"\n',
    "shapes/bound/__init__.py": "from . import sub\n",
    "shapes/bound/sub.py": 'SUB = "a"\n',
    "shapes/shadow/__init__.py": 'sub = "a string, not the module"\n',
    "shapes/shadow/sub.py": 'SUB = "a"\n',
    "shapes/aliases.py": """\
        from .base import BASE_DATE
        from .base import BASE_DATE as RENAMED
        from .plain import TWICE, ALIAS
        from .starred import OWN
        from .missing import GONE
        from shapes.base import BASE_DATE as ABSOLUTE
        from . import base
        LOCAL = "x"
        LOCAL_ALIAS = LOCAL
        IMPORTED_ALIAS = BASE_DATE
        RENAMED_ALIAS = RENAMED
        ABSOLUTE_ALIAS = ABSOLUTE
        TWICE_ALIAS = TWICE
        ALIAS_OF_ALIAS = ALIAS
        STARRED_ALIAS = OWN
        GONE_ALIAS = GONE
        UNDEFINED_ALIAS = NOWHERE
        EARLY_ALIAS = LATE
        LATE = "y"
        CHAIN = LOCAL_ALIAS
        MODULE_ALIAS = base
        CALL = dict()
        CALL_ALIAS = CALL
        BUILTIN_ALIAS = len
        """,
    "shapes/tools.py": "",
}


def test_a_direct_answer_is_astroids_answer(tmp_path: Path) -> None:

    write_tree(tmp_path, SHAPES)
    importer = str(tmp_path / "shapes/tools.py")
    questions = [
        ImportRequest(importer, "plain", 1, (name,)) for name in sorted(_names(SHAPES["shapes/plain.py"]))
    ]
    questions += [
        ImportRequest(importer, "aliases", 1, (name,)) for name in sorted(_names(SHAPES["shapes/aliases.py"]))
    ]
    questions += [
        ImportRequest(importer, "shapes.plain", 0, ("STRING",)),
        ImportRequest(importer, "", 1, ("PACKAGE_LEVEL",)),
        ImportRequest(importer, "", 1, ("plain",)),
        ImportRequest(importer, "", 1, ("plain", "STRING")),
        ImportRequest(importer, "shapes", 0, ("plain", "DICT")),
        ImportRequest(importer, "", 2, ("shapes", "plain", "LIST")),
        ImportRequest(importer, "", 1, ("space", "loose", "LOOSE")),
        ImportRequest(importer, "space", 1, ("loose", "LOOSE")),
        ImportRequest(importer, "", 1, ("plain", "STRING", "upper")),
        ImportRequest(importer, "", 1, ("plain", "TWICE")),
        ImportRequest(importer, "", 1, ("base", "BASE_DATE")),
        ImportRequest(importer, "", 1, ("starred", "OWN")),
        ImportRequest(importer, "bound", 1, ("sub", "SUB")),
        ImportRequest(importer, "shadow", 1, ("sub", "SUB")),
        ImportRequest(importer, "", 1, ("__init__", "PACKAGE_LEVEL")),
        ImportRequest(importer, "base", 1, ("BASE_DATE",)),
        ImportRequest(importer, "starred", 1, ("OWN",)),
        ImportRequest(importer, "typed", 1, ("TYPED",)),
        ImportRequest(importer, "broken", 1, ("BROKEN",)),
        ImportRequest(importer, "space.loose", 1, ("LOOSE",)),
        ImportRequest(importer, "missing", 1, ("MISSING",)),
        ImportRequest(importer, "plain", 3, ("STRING",)),
    ]
    direct = {}
    for question in questions:
        answer = direct_binding(question, frozenset({"described_result"}))
        if answer is not None:
            assert answer == find_binding(question), question
            direct[(question.module, question.names)] = answer.line
    # The direct way answers the plain literals and displays, and leaves the rest to astroid.
    assert direct == {
        ("plain", ("STRING",)): 5,
        ("plain", ("NUMBER",)): 6,
        ("plain", ("NOTHING",)): 7,
        ("plain", ("ANNOTATED",)): 8,
        ("plain", ("DICT",)): 10,
        ("plain", ("NESTED",)): 11,
        ("plain", ("LIST",)): 12,
        ("plain", ("TUPLE",)): 13,
        ("plain", ("SET",)): 14,
        ("plain", ("EMPTY",)): 15,
        ("plain", ("ALIAS",)): 22,
        ("plain", ("PARENS",)): 23,
        ("plain", ("MULTILINE",)): 24,
        ("plain", ("__all__",)): 75,
        ("plain", ("__version__",)): 76,
        ("plain", ("__doc__",)): 77,
        ("shapes.plain", ("STRING",)): 5,
        ("aliases", ("LOCAL",)): 8,
        ("aliases", ("LOCAL_ALIAS",)): 9,
        ("aliases", ("IMPORTED_ALIAS",)): 10,
        ("aliases", ("RENAMED_ALIAS",)): 11,
        ("aliases", ("LATE",)): 19,
        ("", ("plain", "STRING")): 5,
        ("shapes", ("plain", "DICT")): 10,
        ("", ("space", "loose", "LOOSE")): 1,
        ("space", ("loose", "LOOSE")): 1,
        ("", ("base", "BASE_DATE")): 1,
        ("", ("PACKAGE_LEVEL",)): 1,
        ("base", ("BASE_DATE",)): 1,
        ("space.loose", ("LOOSE",)): 1,
    }


def test_a_direct_answer_is_worked_out_again_when_its_module_changes(tmp_path: Path) -> None:

    write_tree(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/constants.py": 'DAY = "2024-05-01"\n', "pkg/tools.py": ""},
    )
    question = ImportRequest(str(tmp_path / "pkg/tools.py"), "constants", 1, ("DAY",))
    first = direct_binding(question, frozenset())
    assert first is not None and first.line == 1
    assert direct_binding(question, frozenset()) == first  # kept
    # Each rewrite changes the size: seen even within one tick of the file system's clock.
    (tmp_path / "pkg/constants.py").write_text('NOTE = "x"\nDAY = "2024-05-01"\n', encoding="utf-8")
    moved = direct_binding(question, frozenset())
    assert moved is not None and moved.line == 2
    (tmp_path / "pkg/constants.py").write_text('DAY = "2024-05-01"\nDAY = "2024-05-02"\n', encoding="utf-8")
    assert direct_binding(question, frozenset()) is None


def test_one_lint_stats_each_project_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """However many names a file imports from a module, one lint takes that file's
    signature (what kept answers and readings are checked against) once; the next lint
    takes it again."""
    from semantics_lint.lint.resolve import project_modules

    constants = (
        'SOURCE = "billing-db"\nDAY = "2024-05-01"\nGRAIN = {"interval": "daily", "aggregation": "sum"}\n'
        'PROV = {"measuredAt": "2024-05-01T00:00:00Z", "source": "billing"}\n'
    )
    tool = (
        "from semantics_lint.runtime import described_result\n"
        "from .constants import SOURCE, DAY, GRAIN, PROV\n\n"
        "def one(rows):\n"
        "    return described_result(facts=rows, series=rows, grain=GRAIN, provenance=PROV)\n\n"
        "def two(rows):\n"
        '    return described_result(facts=rows, provenance={"measuredAt": DAY, "source": SOURCE})\n'
    )
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/constants.py": constants, "pkg/tools.py": tool})
    stated: list[str] = []
    real_signature = project_modules.signature

    def counted(path: str) -> tuple[int, int]:
        stated.append(path)
        return real_signature(path)

    monkeypatch.setattr(project_modules, "signature", counted)
    constants_path = str(tmp_path / "pkg" / "constants.py")
    findings = lint_file(tmp_path / "pkg" / "tools.py")
    assert {finding.code for finding in findings} >= {"SEM203"}  # DAY and PROV were followed
    assert stated.count(constants_path) == 1
    stated.clear()
    lint_file(tmp_path / "pkg" / "tools.py")
    assert stated.count(constants_path) == 1


def test_a_module_too_deep_for_astroid_is_read_directly(tmp_path: Path) -> None:
    # astroid builds its tree recursively (astroid 4 gives up on this module); the index
    # is built without recursion.

    deep = 'DAY = "2024-05-01"\nSUM = ' + "1 + " * 2500 + "1\n"
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/constants.py": deep, "pkg/tools.py": ""})
    question = ImportRequest(str(tmp_path / "pkg/tools.py"), "constants", 1, ("DAY",))
    found = direct_binding(question, frozenset())
    assert found is not None and (found.name, found.line) == ("DAY", 1)


def _names(text: str) -> set[str]:
    """Every name a module's text binds or reads, and a few it does not."""
    tree = ast.parse(textwrap.dedent(text))
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    return names | {"BARE", "IN_CLASS", "function", "Holder", "os", "base", "UNBOUND"}


def test_relative_import_finds_the_binding(project: Path) -> None:
    found = ask(project, "constants", 1, "EXPORT_DATE")
    assert found == ModuleBinding(
        path=str(project / "pkg/constants.py"),
        name="EXPORT_DATE",
        line=3,
        display="pkg/constants.py",
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


def test_an_answer_through_a_re_export_follows_every_file_it_was_read_from(project: Path) -> None:
    # constants.BASE_DATE is a re-export of base.BASE_DATE: the answer names base.py,
    # and was worked out from constants.py too. A change to either is seen; a change to
    # a module the answer never read is not a reason to read the project again.
    assert ask(project, "constants", 1, "BASE_DATE") is not None
    (project / "pkg/unrelated.py").write_text("X = 1\n", encoding="utf-8")
    assert ask(project, "constants", 1, "BASE_DATE") is not None
    (project / "pkg/constants.py").write_text(
        (project / "pkg/constants.py")
        .read_text(encoding="utf-8")
        .replace("from .base import BASE_DATE", "BASE_DATE = 1\nBASE_DATE = 2"),
        encoding="utf-8",
    )
    os.utime(project / "pkg/constants.py", ns=(1, 1))
    assert ask(project, "constants", 1, "BASE_DATE") is None


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
    code = "import sys\nimport semantics_lint.lint.resolve.astroid_bridge\nprint('astroid' in sys.modules)\n"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


# -- the resolver rules ask -----------------------------------------------------------


def call_sites(source: str, filename: str = "tool.py") -> list[CallSite]:
    """The recognized calls of ``source``, as the engine hands them to the rules."""
    text = textwrap.dedent(source)
    return file_context(text, ast.parse(text), filename, LintSettings()).calls


def argument(site: CallSite, keyword: str) -> ast.expr:
    for item in site.node.keywords:
        if item.arg == keyword:
            return item.value
    raise KeyError(keyword)


def code(found: Resolved) -> str:
    """The followed value's source, as written in its module."""
    return found.reading.source.text_of(found.value)


def resolve_in(
    source: str, keyword: str = "provenance", index: int = -1, filename: str = "tool.py"
) -> Resolved | None:
    site = call_sites(source, filename)[index]
    return site.resolver.value_of(argument(site, keyword))


def test_a_literal_is_not_a_name_to_follow() -> None:
    # A literal is its own value; the resolver answers for names only.
    assert resolve_in('described_result(provenance={"measuredAt": "x", "source": "s"})') is None


def test_a_module_constant_used_in_a_function() -> None:
    found = resolve_in(
        """
        EXPORT_DATE = "2024-05-01"

        def tool():
            return described_result(provenance=EXPORT_DATE)
        """
    )
    assert found is not None
    assert (code(found), found.origin, found.name) == ('"2024-05-01"', "line 2", "EXPORT_DATE")
    assert found.describe() == 'EXPORT_DATE = "2024-05-01" (line 2)'


def test_a_local_dict_bound_before_the_call() -> None:
    found = resolve_in(
        """
        def tool(rows, export):
            prov = {"measuredAt": export.at, "source": "backup export"}
            return described_result(facts=rows, provenance=prov)
        """
    )
    assert found is not None and found.origin == "line 3"
    assert isinstance(found.value, ast.Dict)


def test_a_chain_of_names_is_followed_and_described() -> None:
    found = resolve_in(
        """
        BASE = "2024-01-01"
        ALIAS = BASE

        def tool():
            return described_result(provenance=ALIAS)
        """
    )
    assert found is not None and code(found) == '"2024-01-01"'
    assert found.describe() == 'ALIAS = BASE = "2024-01-01" (line 2)'


def test_names_inside_a_followed_value_resolve_too() -> None:
    site = call_sites(
        """
        DATE = "2024-05-01"
        PROV = {"measuredAt": DATE, "source": "export"}

        def tool():
            return described_result(provenance=PROV)
        """
    )[0]
    outer = site.resolver.value_of(argument(site, "provenance"))
    assert outer is not None and isinstance(outer.value, ast.Dict)
    # The followed value is the module's own node, not a copy parsed again.
    assert outer.value is site.context.tree.body[1].value  # type: ignore[attr-defined]
    inner = site.resolver.value_of(outer.value.values[0])
    assert inner is not None and code(inner) == '"2024-05-01"' and inner.origin == "line 2"


def test_a_clock_call_through_a_name_is_the_call() -> None:
    found = resolve_in(
        """
        from datetime import datetime

        def tool():
            now = datetime.now()
            return described_result(provenance=now)
        """
    )
    assert found is not None and code(found) == "datetime.now()"


def test_a_comprehension_variable_does_not_shadow_the_module_constant() -> None:
    source = """
        d = "2024-05-01"

        def tool(rows):
            return described_result(facts=[{"entity": d} for d in rows], provenance=d)
        """
    found = resolve_in(source)
    assert found is not None and code(found) == '"2024-05-01"'
    site = call_sites(source)[0]
    comprehension = argument(site, "facts")
    assert isinstance(comprehension, ast.ListComp)
    row = comprehension.elt
    assert isinstance(row, ast.Dict)
    # Inside the comprehension, ``d`` is the loop variable: unknown.
    assert site.resolver.value_of(row.values[0]) is None


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(
            """
            def tool(rows):
                if rows:
                    prov = "2024-01-01"
                else:
                    prov = "2024-02-01"
                return described_result(provenance=prov)
            """,
            id="rebound-in-branches",
        ),
        pytest.param(
            """
            def tool(rows):
                if rows:
                    prov = "2024-01-01"
                return described_result(provenance=prov)
            """,
            id="bound-only-in-a-branch",
        ),
        pytest.param(
            """
            def tool(rows):
                for row in rows:
                    prov = "2024-01-01"
                return described_result(provenance=prov)
            """,
            id="bound-in-a-loop",
        ),
        pytest.param(
            """
            def tool(prov):
                return described_result(provenance=prov)
            """,
            id="parameter",
        ),
        pytest.param(
            """
            def tool(prov="2024-01-01"):
                return described_result(provenance=prov)
            """,
            id="parameter-with-a-literal-default",
        ),
        pytest.param(
            """
            def tool():
                prov = {"measuredAt": "2024-01-01"}
                prov["source"] = "export"
                return described_result(provenance=prov)
            """,
            id="dict-mutated-after-binding",
        ),
        pytest.param(
            """
            def tool():
                prov = {"measuredAt": "2024-01-01"}
                prov.update(source="export")
                return described_result(provenance=prov)
            """,
            id="dict-mutated-by-a-method",
        ),
        pytest.param(
            """
            PROV = {"measuredAt": "2024-01-01"}
            enrich(PROV)

            def tool():
                return described_result(provenance=PROV)
            """,
            id="dict-handed-to-a-function",
        ),
        pytest.param(
            """
            PROV = {"measuredAt": "2024-01-01"}

            def other():
                PROV["measuredAt"] = "later"

            def tool():
                return described_result(provenance=PROV)
            """,
            id="dict-mutated-in-another-function",
        ),
        pytest.param(
            """
            def tool():
                rows = []

                def fill(row):
                    rows.append(row)  # a closure: the enclosing function's rows

                load(fill)
                return described_result(facts=rows)
            """,
            id="list-grown-by-a-nested-function",
        ),
        pytest.param(
            """
            ROWS = []

            class Loader:
                def load(self, row):
                    ROWS.append(row)  # a method reads the module's ROWS

            def tool():
                return described_result(facts=ROWS)
            """,
            id="list-grown-by-a-method",
        ),
        pytest.param(
            """
            ROWS = []

            def other():
                global ROWS
                ROWS = fetch()

            def tool():
                return described_result(facts=ROWS)
            """,
            id="global-in-another-function",
        ),
        pytest.param(
            """
            ROWS = []

            def other():
                global ROWS
                ROWS.append(fetch())

            def tool():
                return described_result(facts=ROWS)
            """,
            id="global-grown-in-another-function",
        ),
        pytest.param(
            """
            def tool():
                x = "2024-01-01"

                def between():
                    def innermost():
                        nonlocal x  # tool's x: between binds none
                        x = "later"

                return described_result(provenance=x)
            """,
            id="nonlocal-two-functions-down",
        ),
        pytest.param(
            """
            def tool():
                rows = []
                rows += fetch()
                return described_result(facts=rows)
            """,
            id="list-augmented",
        ),
        pytest.param(
            """
            def tool():
                rows = []
                rows[:] = fetch()
                return described_result(facts=rows)
            """,
            id="list-slice-assigned",
        ),
        pytest.param(
            """
            def tool():
                rows = []
                fill(rows)
                return described_result(facts=rows)
            """,
            id="list-handed-to-a-call",
        ),
        pytest.param(
            """
            def tool():
                rows = []
                alias = rows
                alias.insert(0, {"entity": "a"})
                return described_result(facts=rows)
            """,
            id="list-aliased",
        ),
        pytest.param(
            """
            def tool():
                rows = []
                [rows.extend(more) for more in batches]
                return described_result(facts=rows)
            """,
            id="list-grown-in-a-comprehension",
        ),
        pytest.param(
            """
            X = "2024-01-01"

            def bump():
                global X
                X = "2024-02-01"

            def tool():
                return described_result(provenance=X)
            """,
            id="global",
        ),
        pytest.param(
            """
            def tool():
                x = "2024-01-01"

                def inner():
                    nonlocal x
                    x = "later"

                inner()
                return described_result(provenance=x)
            """,
            id="nonlocal",
        ),
        pytest.param(
            """
            X = "2024-01-01"
            X += "T00:00Z"

            def tool():
                return described_result(provenance=X)
            """,
            id="augmented-assignment",
        ),
        pytest.param(
            """
            X = "2024-01-01"
            del X

            def tool():
                return described_result(provenance=X)
            """,
            id="deleted",
        ),
        pytest.param(
            """
            def tool():
                result = described_result(provenance=x)
                x = "2024-01-01"
                return result
            """,
            id="bound-after-the-use",
        ),
        pytest.param(
            """
            from constants import *

            X = "2024-01-01"

            def tool():
                return described_result(provenance=X)
            """,
            id="star-import",
        ),
        pytest.param(
            """
            def tool(rows):
                with open(rows) as prov:
                    return described_result(provenance=prov)
            """,
            id="with-target",
        ),
        pytest.param(
            """
            def tool(rows):
                if (prov := "2024-01-01"):
                    pass
                return described_result(provenance=prov)
            """,
            id="walrus",
        ),
        pytest.param(
            """
            def tool(rows):
                a, prov = rows
                return described_result(provenance=prov)
            """,
            id="tuple-unpacking",
        ),
        pytest.param(
            """
            class Tool:
                PROV = {"measuredAt": "2024-01-01"}

                def __init__(self, at):
                    self.PROV = {"measuredAt": at}

                def run(self):
                    return described_result(provenance=self.PROV)
            """,
            id="attribute-of-self-stored-in-init",
        ),
        pytest.param(
            """
            def tool(export):
                return described_result(provenance=export.provenance)
            """,
            id="attribute-of-a-parameter",
        ),
        pytest.param(
            """
            def tool():
                return described_result(provenance=undefined_name)
            """,
            id="undefined",
        ),
        pytest.param(
            """
            try:
                X = "2024-01-01"
            except ImportError:
                X = "2024-02-01"

            def tool():
                return described_result(provenance=X)
            """,
            id="try-except",
        ),
        pytest.param(
            """
            def tool(rows):
                return described_result(provenance=[p for p in rows][0])
            """,
            id="subscript",
        ),
    ],
)
def test_refuses_to_guess(source: str) -> None:
    keyword = "facts" if "facts=" in source else "provenance"
    assert resolve_in(source, keyword) is None


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(
            """
            PROV = {"measuredAt": "2024-01-01"}

            def other():
                PROV = {}
                PROV["x"] = 1  # another function's own PROV

            def tool():
                return described_result(provenance=PROV)
            """,
            id="same-spelling-bound-and-changed-in-another-function",
        ),
        pytest.param(
            """
            def first():
                rows = fetch()
                rows.append({"entity": "x"})
                return rows

            def tool():
                rows = []
                return described_result(provenance=rows)
            """,
            id="another-functions-local",
        ),
        pytest.param(
            """
            def tool(batches):
                rows = []

                def inner(rows):
                    rows.append(1)  # a parameter of its own

                for rows_seen in [len(rows) for rows in batches]:
                    pass
                return described_result(provenance=rows)
            """,
            id="shadowed-by-a-parameter-and-a-comprehension",
        ),
        pytest.param(
            """
            ROWS = []

            class Table:
                ROWS = fetch()  # the class's own name, not the module's
                ROWS.append(1)

            def tool():
                return described_result(provenance=ROWS)
            """,
            id="shadowed-in-a-class-body",
        ),
        pytest.param(
            """
            X = "2024-01-01"

            def other():
                global Y
                Y = 1
                X = 2
                del X

            def tool():
                return described_result(provenance=X)
            """,
            id="another-functions-global-and-del",
        ),
        pytest.param(
            """
            def other():
                x = 1

                def inner():
                    nonlocal x  # other's x, not tool's
                    x = 2

            def tool():
                x = "2024-01-01"
                return described_result(provenance=x)
            """,
            id="nonlocal-in-another-function",
        ),
    ],
)
def test_a_name_is_followed_in_its_own_scope(source: str) -> None:
    """A binding, a change or a ``global`` of the same spelling in another scope is
    another name: the value is still known."""
    assert resolve_in(source) is not None


def test_a_name_read_elsewhere_without_mutation_is_still_known() -> None:
    found = resolve_in(
        """
        PROV = {"measuredAt": "2024-01-01", "source": "export"}

        def first():
            return described_result(facts=[{"entity": "a"}], provenance=PROV)

        def second():
            return described_result(facts=[{"entity": "b"}], provenance={**PROV})
        """,
        index=0,
    )
    assert found is not None and isinstance(found.value, ast.Dict)


def test_one_answer_per_name_and_file() -> None:
    sites = call_sites(
        """
        A = "2024-01-01"
        B = {"interval": "daily"}

        def one():
            return described_result(provenance=A, grain=B)

        def two():
            return described_result(provenance=A, grain=B)
        """
    )
    answers = [site.resolver.value_of(keyword.value) for site in sites for keyword in site.node.keywords]
    assert all(answer is not None for answer in answers)
    # One resolver for the file: a name asked again by another rule costs nothing.
    assert sites[0].resolver is sites[1].resolver
    node = sites[0].node.keywords[0].value
    assert sites[0].resolver.value_of(node) is sites[1].resolver.value_of(node)


# -- through imports -------------------------------------------------------------------

TOOLS = """\
from semantics_lint.runtime import described_result
from .constants import EXPORT_DATE, GRAIN, TWICE, WHEN, ALIAS, BASE_DATE, REBOUND
from . import constants
import pkg.constants
import pkg.constants as pc
from .missing import NOPE


def t_relative():
    return described_result(provenance=EXPORT_DATE)


def t_dict():
    return described_result(provenance=GRAIN)


def t_module_attribute():
    return described_result(provenance=constants.EXPORT_DATE)


def t_dotted_module():
    return described_result(provenance=pkg.constants.GRAIN)


def t_module_alias():
    return described_result(provenance=pc.WHEN)


def t_alias_in_the_other_module():
    return described_result(provenance=ALIAS)


def t_re_export():
    return described_result(provenance=BASE_DATE)


def t_twice():
    return described_result(provenance=TWICE)


def t_rebound():
    return described_result(provenance=REBOUND)


def t_missing():
    return described_result(provenance=NOPE)


def t_not_in_module():
    return described_result(provenance=constants.NOT_THERE)
"""


@pytest.fixture()
def tools(project: Path) -> list[CallSite]:
    path = project / "pkg/tools.py"
    path.write_text(TOOLS, encoding="utf-8")
    return call_sites(TOOLS, filename=str(path))


def through(tools: list[CallSite], function: str) -> Resolved | None:
    for site in tools:
        if site.function is not None and getattr(site.function, "name", "") == function:
            return site.resolver.value_of(argument(site, "provenance"))
    raise KeyError(function)


@pytest.mark.parametrize(
    ("function", "value", "described"),
    [
        ("t_relative", '"2024-05-01"', 'EXPORT_DATE = "2024-05-01" (pkg/constants.py:3)'),
        (
            "t_module_attribute",
            '"2024-05-01"',
            'constants.EXPORT_DATE = "2024-05-01" (pkg/constants.py:3)',
        ),
        (
            "t_module_alias",
            "datetime(2024, 5, 1)",
            "pc.WHEN = datetime(2024, 5, 1) (pkg/constants.py:5)",
        ),
        (
            "t_alias_in_the_other_module",
            '"2024-05-01"',
            'ALIAS = EXPORT_DATE = "2024-05-01" (pkg/constants.py:3)',
        ),
        ("t_re_export", '"2023-01-01"', 'BASE_DATE = "2023-01-01" (pkg/base.py:1)'),
    ],
)
def test_imported_values(tools: list[CallSite], function: str, value: str, described: str) -> None:
    found = through(tools, function)
    assert found is not None
    assert code(found) == value
    assert found.describe() == described


def test_imported_dicts(tools: list[CallSite]) -> None:
    for function in ("t_dict", "t_dotted_module"):
        found = through(tools, function)
        assert found is not None and isinstance(found.value, ast.Dict), function
        assert found.origin == "pkg/constants.py:4"


@pytest.mark.parametrize("function", ["t_twice", "t_rebound", "t_missing", "t_not_in_module"])
def test_imported_unknowns(tools: list[CallSite], function: str) -> None:
    assert through(tools, function) is None


def test_an_imported_dict_mutated_by_the_importer_is_unknown(project: Path) -> None:
    source = """\
from semantics_lint.runtime import described_result
from .constants import GRAIN
from . import constants

GRAIN["interval"] = "hourly"


def tool():
    return described_result(grain=GRAIN)


def other():
    return described_result(grain=constants.GRAIN)
"""
    path = project / "pkg/tools.py"
    path.write_text(source, encoding="utf-8")
    first, second = call_sites(source, filename=str(path))
    assert first.resolver.value_of(argument(first, "grain")) is None
    # The module attribute is a different binding in this file, read only by the API.
    assert second.resolver.value_of(argument(second, "grain")) is not None


def test_an_imported_module_attribute_rebound_by_the_importer_is_unknown(project: Path) -> None:
    source = """\
from . import constants

constants.GRAIN = {}


def tool():
    return described_result(grain=constants.GRAIN)
"""
    path = project / "pkg/tools.py"
    path.write_text(source, encoding="utf-8")
    site = call_sites(source, filename=str(path))[0]
    assert site.resolver.value_of(argument(site, "grain")) is None


def test_an_imported_dict_mutated_in_its_own_module_is_unknown(project: Path) -> None:
    (project / "pkg/mutable.py").write_text(
        'PROV = {"measuredAt": "2024-01-01"}\nPROV["source"] = "x"\n', encoding="utf-8"
    )
    source = "from .mutable import PROV\ndescribed_result(provenance=PROV)\n"
    path = project / "pkg/tools.py"
    path.write_text(source, encoding="utf-8")
    site = call_sites(source, filename=str(path))[0]
    assert site.resolver.value_of(argument(site, "provenance")) is None


def test_a_file_that_is_not_on_disk_follows_no_import(project: Path) -> None:
    site = call_sites(
        "from .constants import EXPORT_DATE\ndescribed_result(provenance=EXPORT_DATE)\n",
        filename="-",
    )[0]
    assert site.resolver.value_of(argument(site, "provenance")) is None


_PROBE = """\
import sys
from semantics_lint.lint.engine import lint_file
lint_file(sys.argv[1])
print("astroid" in sys.modules)
"""


def _astroid_imported(path: Path) -> bool:
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, str(path)], capture_output=True, text=True, check=True
    )
    return result.stdout.strip() == "True"


def test_astroid_is_imported_only_when_a_name_needs_it(project: Path) -> None:
    # SEM105 asks the resolver for ``facts``: each file gets one finding. A name of the
    # file, or a constant its module assigns once, is read directly; a module attribute
    # (``constants.NO_ROWS``) is asked of astroid.
    tail = "    return described_result(facts={facts}, provenance={{'measuredAt': rows, 'source': 's'}})\n"
    files = {
        "local": "NO_ROWS = []\ndef tool(rows):\n" + tail.format(facts="NO_ROWS"),
        "constant": "from .constants import NO_ROWS\ndef tool(rows):\n" + tail.format(facts="NO_ROWS"),
        "attribute": "from . import constants\ndef tool(rows):\n" + tail.format(facts="constants.NO_ROWS"),
    }
    imported = {}
    for stem, body in files.items():
        path = project / f"pkg/{stem}.py"
        path.write_text("from semantics_lint.runtime import described_result\n" + body, encoding="utf-8")
        assert [f.code for f in lint_file(path)] == ["SEM105"], stem
        imported[stem] = _astroid_imported(path)
    assert imported == {"local": False, "constant": False, "attribute": True}


# -- the ast door ----------------------------------------------------------------------


def test_resolve_ast_follows_a_name_of_the_call() -> None:
    site = call_sites(
        """
        EXPORT_DATE = "2024-05-01"

        def tool():
            return described_result(provenance=EXPORT_DATE)
        """
    )[0]
    found = site.resolver.value_of(argument(site, "provenance"))
    assert found is not None and code(found) == '"2024-05-01"'
    assert found.describe() == 'EXPORT_DATE = "2024-05-01" (line 2)'


def test_an_ast_node_from_elsewhere_is_unknown() -> None:
    site = call_sites(
        """
        EXPORT_DATE = "2024-05-01"
        described_result(provenance=EXPORT_DATE)
        """
    )[0]
    # Same name, same position as the real use, but parsed from other text: no place.
    stray = ast.parse("\ndescribed_result(provenance=EXPORT_DATE)").body[0]
    assert isinstance(stray, ast.Expr) and isinstance(stray.value, ast.Call)
    assert site.resolver.value_of(stray.value.keywords[0].value) is None


def test_names_of_a_value_from_another_module_are_followed_there(project: Path) -> None:
    (project / "pkg/prov.py").write_text(
        'from .constants import EXPORT_DATE\nPROV = {"measuredAt": EXPORT_DATE, "source": "export"}\n',
        encoding="utf-8",
    )
    source = "from .prov import PROV\ndescribed_result(provenance=PROV)\n"
    path = project / "pkg/tools.py"
    path.write_text(source, encoding="utf-8")
    site = call_sites(source, filename=str(path))[0]
    outer = site.resolver.value_of(argument(site, "provenance"))
    assert outer is not None and outer.origin == "pkg/prov.py:2"
    value = outer.value
    assert isinstance(value, ast.Dict)
    inner = site.resolver.value_of(value.values[0])
    assert inner is not None and code(inner) == '"2024-05-01"'
    assert inner.origin == "pkg/constants.py:3"
    assert not outer.same_file and not inner.same_file
    # A literal inside the followed value is judged as written, not asked about.
    assert site.resolver.value_of(value.values[1]) is None


def test_excerpts_survive_wide_characters() -> None:
    site = call_sites(
        """
        DATE = "2024-05-01"
        PROV = {"é": "日本", "measuredAt": DATE}

        def tool():
            return described_result(provenance=PROV)
        """
    )[0]
    outer = site.resolver.value_of(argument(site, "provenance"))
    assert outer is not None
    assert outer.describe() == 'PROV = {"é": "日本", "measuredAt": DATE} (line 3)'
    value = outer.value
    assert isinstance(value, ast.Dict)
    inner = site.resolver.value_of(value.values[1])
    assert inner is not None and code(inner) == '"2024-05-01"'


def test_qualified_names_inside_a_value_bound_in_another_module(project: Path) -> None:
    (project / "pkg/clocks.py").write_text(
        "import datetime as dt\n"
        "from datetime import datetime\n"
        "import time\n"
        "STAMP = datetime(2024, 5, 1)\n"
        "NOW = dt.datetime.now()\n"
        "TICK = time.time()\n",
        encoding="utf-8",
    )
    source = (
        "from .clocks import STAMP, NOW, TICK\n"
        "def datetime_like():\n"
        "    pass\n"
        "LOCAL = datetime_like()\n"
        "described_result(provenance=STAMP)\n"
        "described_result(provenance=NOW)\n"
        "described_result(provenance=TICK)\n"
        "described_result(provenance=LOCAL)\n"
    )
    path = project / "pkg/tools.py"
    path.write_text(source, encoding="utf-8")
    answers: list[str | None] = []
    for site in call_sites(source, filename=str(path)):
        use = argument(site, "provenance")
        resolved = site.resolver.value_of(use)
        if resolved is None:
            answers.append("unknown")
            continue
        value = resolved.value
        assert isinstance(value, ast.Call)
        answers.append(site.resolver.qualified_name(value.func))
    # astroid reads none of ``datetime`` or ``time`` (they are not the project's): each
    # name has one binding, and its call is named by the imports of clocks.py, as it
    # would be if the three were bound in tools.py itself.
    assert answers == ["datetime.datetime", "datetime.datetime.now", "time.time", None]
    # The call's own nodes are not a followed value: the rule reads its file's imports.
    site = call_sites(source, filename=str(path))[0]
    assert site.resolver.qualified_name(argument(site, "provenance")) is None


def test_no_linted_file_outlives_its_lint(tmp_path: Path) -> None:
    """Per-file caches (the resolver's, the rules') must not keep a file's state alive."""
    import gc

    from semantics_lint.lint.calls.context import FileContext

    source = textwrap.dedent(
        """
        from semantics_lint.runtime import absent, define_tool

        SOURCE = "backup export"
        GRAIN = {"interval": "daily", "aggregation": "count", "isCounter": False}

        def run(rows, at):
            prov = {"measuredAt": at, "source": SOURCE}
            if not rows:
                return absent(what="runs", checked=["the export"])
            return described_result(series=rows, grain=GRAIN, provenance=prov)

        tool = define_tool(name="t", resultClass="triage", execute=run)
        """
    )
    for index in range(12):
        path = tmp_path / f"tool_{index}.py"
        path.write_text(source, encoding="utf-8")
        assert lint_file(path)  # SEM602: the names were followed
    gc.collect()
    alive = [obj for obj in gc.get_objects() if isinstance(obj, FileContext)]
    assert len(alive) <= 2, f"{len(alive)} file contexts still alive"


# -- names in every kind of scope -------------------------------------------------------

SCOPES = """\
import os.path
from datetime import datetime

A = "2024-05-01"
B = {"measuredAt": A, "source": os.sep}
C = datetime(2024, 5, 1)
TWICE = 1
TWICE = 2


def plain(rows):
    local = {"measuredAt": A, "when": C}
    again = local
    f(local, again, A, B, C, TWICE, rows, os.path.sep)


def outer():
    closed = "2024-01-01"

    def inner():
        return f(closed, A)

    return inner


class Tool:
    KIND = "triage"
    f(KIND, A)

    def run(self):
        return f(KIND, A, self)


lam = lambda A: f(A)
comp = [f(A) for A in range(3)]
f(A, B, later)
later = "2024-06-01"
"""


def _scope_answers(source: str) -> list[str | None]:
    """What each name argument of each ``f(...)`` call resolves to: the value's source."""
    tree = ast.parse(source)
    context = file_context(source, tree, "scopes.py", LintSettings())
    answers: list[str | None] = []
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    for node in sorted(calls, key=lambda call: (call.lineno, call.col_offset)):
        if isinstance(node.func, ast.Name) and node.func.id == "f":
            for arg in node.args:
                found = context.resolver.value_of(arg) if isinstance(arg, (ast.Name, ast.Attribute)) else None
                answers.append(None if found is None else f"{found.name}: {code(found)} ({found.origin})")
    return answers


def test_names_resolve_as_python_scopes_them() -> None:
    answers = _scope_answers(SCOPES)
    assert answers == [
        # plain(): a dict bound before the call but also read by f() (which may change
        # it), an alias of it, a module constant, another dict f() reads, a call value,
        # a name bound twice, a parameter, an attribute of an import (the file is not on
        # disk: imports are not followed)
        None,
        None,
        'A: "2024-05-01" (line 4)',
        None,
        "C: datetime(2024, 5, 1) (line 6)",
        None,
        None,
        None,
        # inner(): a name of the enclosing function, and a module constant
        'closed: "2024-01-01" (line 18)',
        'A: "2024-05-01" (line 4)',
        # the class body reads its own names, never followed; a method does not see them
        None,
        'A: "2024-05-01" (line 4)',
        None,
        'A: "2024-05-01" (line 4)',
        None,
        # a lambda's parameter, a comprehension's variable
        None,
        None,
        # at module level: bound before, a dict f() reads, bound after the use
        'A: "2024-05-01" (line 4)',
        None,
        None,
    ]


def test_following_never_imports_libcst(tmp_path: Path) -> None:
    tool = tmp_path / "tool.py"
    tool.write_text(
        textwrap.dedent(
            """
            from semantics_lint.runtime import described_result

            DAY = "2024-05-01"
            PROV = {"measuredAt": DAY, "source": "s"}

            def outer(rows):
                def inner():
                    return described_result(facts=rows, provenance=PROV)
                return [described_result(facts=[r], provenance=PROV) for r in rows], inner
            """
        ),
        encoding="utf-8",
    )
    script = textwrap.dedent(
        f"""
        import sys
        from semantics_lint.lint.engine import lint_file
        codes = sorted(f.code for f in lint_file({str(tool)!r}))
        print(codes, "libcst" in sys.modules)
        """
    )
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert completed.stdout.strip() == "['SEM203', 'SEM203', 'SEM604'] False"


def test_a_project_file_with_every_kind_of_name_is_linted_without_libcst() -> None:
    path = Path(__file__).resolve().parent.parent / "testdata/project/fleet/named_tools.py"
    findings = lint_file(path)
    assert {f.code for f in findings} >= {"SEM203", "SEM204", "SEM105", "SEM601"}


def test_a_very_long_attribute_chain_is_unknown_not_a_crash() -> None:
    chain = "a" + ".b" * 900  # close to what the parser itself accepts
    source = f"a = 1\ndescribed_result(provenance={chain})\n"
    site = call_sites(source)[0]
    assert site.resolver.value_of(argument(site, "provenance")) is None
