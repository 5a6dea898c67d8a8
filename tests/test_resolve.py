"""Following values across names and modules: what resolves, and every way it refuses.

Two layers: ``resolve_astroid.find_binding`` (where an imported name is bound, asked of
astroid) and ``resolve.Resolver`` (the answer a rule gets for an expression of a call).
Each refusal case is a case where guessing would be wrong; the expected answer there is
``None`` (unknown), never a value.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import libcst as cst
import pytest

from semantics_lint.lint import resolve, resolve_astroid
from semantics_lint.lint.context import CallSite, FileContext
from semantics_lint.lint.engine import LintSettings, lint_file
from semantics_lint.lint.locate import locate_calls
from semantics_lint.lint.resolve import Resolved
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
def _fresh_caches() -> None:
    # Each test builds its own project; astroid's module cache is per process.
    resolve.clear_caches()


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


# -- the resolver rules ask -----------------------------------------------------------



def call_sites(source: str, filename: str = "tool.py") -> list[CallSite]:
    """The recognized calls of ``source``, as the engine hands them to the rules."""
    text = textwrap.dedent(source)
    tree = ast.parse(text)
    settings = LintSettings()
    context = FileContext(filename=filename, text=text, tree=tree, settings=settings)
    located = locate_calls(tree, settings.call_names, settings.api_modules)
    context.calls = [
        CallSite(context, found.kind, found.spelled, found.node, found.function)  # type: ignore[arg-type]
        for found in located
    ]
    return context.calls


def argument(site: CallSite, keyword: str) -> cst.BaseExpression:
    for arg in site.cst.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    raise KeyError(keyword)


def code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def resolve_in(
    source: str, keyword: str = "provenance", index: int = -1, filename: str = "tool.py"
) -> Resolved | None:
    site = call_sites(source, filename)[index]
    return site.resolver.resolve(argument(site, keyword))


def test_a_literal_resolves_to_itself() -> None:
    found = resolve_in('described_result(provenance={"measuredAt": "x", "source": "s"})')
    assert found is not None and found.origin is None and found.describe() == ""
    assert code(found.node) == '{"measuredAt": "x", "source": "s"}'


def test_a_module_constant_used_in_a_function() -> None:
    found = resolve_in(
        """
        EXPORT_DATE = "2024-05-01"

        def tool():
            return described_result(provenance=EXPORT_DATE)
        """
    )
    assert found is not None
    assert (code(found.node), found.origin, found.name) == ('"2024-05-01"', "line 2", "EXPORT_DATE")
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
    assert isinstance(found.node, cst.Dict)


def test_a_chain_of_names_is_followed_and_described() -> None:
    found = resolve_in(
        """
        BASE = "2024-01-01"
        ALIAS = BASE

        def tool():
            return described_result(provenance=ALIAS)
        """
    )
    assert found is not None and code(found.node) == '"2024-01-01"'
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
    outer = site.resolver.resolve(argument(site, "provenance"))
    assert outer is not None and isinstance(outer.node, cst.Dict)
    element = outer.node.elements[0]
    assert isinstance(element, cst.DictElement)
    inner = site.resolver.resolve(element.value)
    assert inner is not None and code(inner.node) == '"2024-05-01"' and inner.origin == "line 2"


def test_a_clock_call_through_a_name_is_the_call() -> None:
    found = resolve_in(
        """
        from datetime import datetime

        def tool():
            now = datetime.now()
            return described_result(provenance=now)
        """
    )
    assert found is not None and code(found.node) == "datetime.now()"


def test_a_comprehension_variable_does_not_shadow_the_module_constant() -> None:
    source = """
        d = "2024-05-01"

        def tool(rows):
            return described_result(facts=[{"entity": d} for d in rows], provenance=d)
        """
    found = resolve_in(source)
    assert found is not None and code(found.node) == '"2024-05-01"'
    site = call_sites(source)[0]
    comprehension = argument(site, "facts")
    assert isinstance(comprehension, cst.ListComp)
    row = comprehension.elt
    assert isinstance(row, cst.Dict) and isinstance(row.elements[0], cst.DictElement)
    # Inside the comprehension, ``d`` is the loop variable: unknown.
    assert site.resolver.resolve(row.elements[0].value) is None


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
            PROV = {"measuredAt": "2024-01-01"}

            def other():
                PROV = {}
                PROV["x"] = 1  # another PROV; the same spelling is enough to refuse

            def tool():
                return described_result(provenance=PROV)
            """,
            id="same-spelling-mutated-elsewhere",
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

                def run(self):
                    return described_result(provenance=self.PROV)
            """,
            id="attribute-of-self",
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
    assert resolve_in(source) is None


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
    assert found is not None and isinstance(found.node, cst.Dict)


class _Builds:
    """Counts whole-module LibCST analyses (parse + scope metadata)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = resolve.ModuleAnalysis._build

        def counting(analysis: resolve.ModuleAnalysis) -> bool:
            if not analysis._built:
                self.count += 1
            return original(analysis)

        monkeypatch.setattr(resolve.ModuleAnalysis, "_build", counting)


def test_literal_calls_and_parameters_never_parse_the_module(monkeypatch: pytest.MonkeyPatch) -> None:
    builds = _Builds(monkeypatch)
    for site in call_sites(
        """
        def tool(rows, when):
            return described_result(facts=rows, provenance={"measuredAt": when, "source": "s"})
        """
    ):
        for arg in site.cst.args:
            site.resolver.resolve(arg.value)
    assert builds.count == 0


def test_one_module_analysis_per_file(monkeypatch: pytest.MonkeyPatch) -> None:
    builds = _Builds(monkeypatch)
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
    answers = [site.resolver.resolve(arg.value) for site in sites for arg in site.cst.args]
    assert all(answer is not None for answer in answers)
    assert builds.count == 1


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
            return site.resolver.resolve(argument(site, "provenance"))
    raise KeyError(function)


@pytest.mark.parametrize(
    ("function", "value", "described"),
    [
        ("t_relative", '"2024-05-01"', 'EXPORT_DATE = "2024-05-01" (pkg/constants.py:3)'),
        ("t_module_attribute", '"2024-05-01"', 'constants.EXPORT_DATE = "2024-05-01" (pkg/constants.py:3)'),
        ("t_module_alias", "datetime(2024, 5, 1)", "pc.WHEN = datetime(2024, 5, 1) (pkg/constants.py:5)"),
        ("t_alias_in_the_other_module", '"2024-05-01"', 'ALIAS = EXPORT_DATE = "2024-05-01" (pkg/constants.py:3)'),
        ("t_re_export", '"2023-01-01"', 'BASE_DATE = "2023-01-01" (pkg/base.py:1)'),
    ],
)
def test_imported_values(tools: list[CallSite], function: str, value: str, described: str) -> None:
    found = through(tools, function)
    assert found is not None
    assert code(found.node) == value
    assert found.describe() == described


def test_imported_dicts(tools: list[CallSite]) -> None:
    for function in ("t_dict", "t_dotted_module"):
        found = through(tools, function)
        assert found is not None and isinstance(found.node, cst.Dict), function
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
    assert first.resolver.resolve(argument(first, "grain")) is None
    # The module attribute is a different binding in this file, read only by the API.
    assert second.resolver.resolve(argument(second, "grain")) is not None


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
    assert site.resolver.resolve(argument(site, "grain")) is None


def test_an_imported_dict_mutated_in_its_own_module_is_unknown(project: Path) -> None:
    (project / "pkg/mutable.py").write_text(
        'PROV = {"measuredAt": "2024-01-01"}\nPROV["source"] = "x"\n', encoding="utf-8"
    )
    source = "from .mutable import PROV\ndescribed_result(provenance=PROV)\n"
    path = project / "pkg/tools.py"
    path.write_text(source, encoding="utf-8")
    site = call_sites(source, filename=str(path))[0]
    assert site.resolver.resolve(argument(site, "provenance")) is None


def test_a_file_that_is_not_on_disk_follows_no_import(project: Path) -> None:
    site = call_sites(
        "from .constants import EXPORT_DATE\ndescribed_result(provenance=EXPORT_DATE)\n",
        filename="-",
    )[0]
    assert site.resolver.resolve(argument(site, "provenance")) is None


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


def test_astroid_is_imported_only_when_an_import_is_followed(project: Path) -> None:
    # SEM105 asks the resolver for ``facts``: both files get one finding, only one of
    # them through an import.
    local = project / "pkg/local.py"
    local.write_text(
        "from semantics_lint.runtime import described_result\n"
        "import os\n"
        "NO_ROWS = []\n"
        "def tool(rows):\n"
        "    return described_result(facts=NO_ROWS, provenance={'measuredAt': rows,"
        " 'source': os.sep})\n",
        encoding="utf-8",
    )
    imported = project / "pkg/imported.py"
    imported.write_text(
        "from semantics_lint.runtime import described_result\n"
        "from .constants import NO_ROWS\n"
        "def tool(rows):\n"
        "    return described_result(facts=NO_ROWS, provenance={'measuredAt': rows,"
        " 'source': 's'})\n",
        encoding="utf-8",
    )
    assert [f.code for f in lint_file(local)] == ["SEM105"]
    assert [f.code for f in lint_file(imported)] == ["SEM105"]
    assert not _astroid_imported(local)
    assert _astroid_imported(imported)


# -- the ast door ----------------------------------------------------------------------


def keyword_ast(site: CallSite, keyword: str) -> ast.expr:
    for item in site.node.keywords:
        if item.arg == keyword:
            return item.value
    raise KeyError(keyword)


def test_resolve_ast_follows_a_name_of_the_call() -> None:
    site = call_sites(
        """
        EXPORT_DATE = "2024-05-01"

        def tool():
            return described_result(provenance=EXPORT_DATE)
        """
    )[0]
    found = site.resolver.resolve_ast(keyword_ast(site, "provenance"))
    assert found is not None and code(found.node) == '"2024-05-01"'
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
    assert site.resolver.resolve_ast(stray.value.keywords[0].value) is None


def test_value_ast_keeps_names_followable_across_modules(project: Path) -> None:
    (project / "pkg/prov.py").write_text(
        'from .constants import EXPORT_DATE\n'
        'PROV = {"measuredAt": EXPORT_DATE, "source": "export"}\n',
        encoding="utf-8",
    )
    source = "from .prov import PROV\ndescribed_result(provenance=PROV)\n"
    path = project / "pkg/tools.py"
    path.write_text(source, encoding="utf-8")
    site = call_sites(source, filename=str(path))[0]
    outer = site.resolver.resolve_ast(keyword_ast(site, "provenance"))
    assert outer is not None and outer.origin == "pkg/prov.py:2"
    value = site.resolver.value_ast(outer)
    assert isinstance(value, ast.Dict)
    inner = site.resolver.resolve_ast(value.values[0])
    assert inner is not None and code(inner.node) == '"2024-05-01"'
    assert inner.origin == "pkg/constants.py:3"
    # A literal inside the followed value is judged as written, not asked about.
    assert site.resolver.resolve_ast(value.values[1]) is None


def test_value_ast_columns_survive_wide_characters() -> None:
    site = call_sites(
        """
        DATE = "2024-05-01"
        PROV = {"é": "日本", "measuredAt": DATE}

        def tool():
            return described_result(provenance=PROV)
        """
    )[0]
    outer = site.resolver.resolve_ast(keyword_ast(site, "provenance"))
    assert outer is not None
    value = site.resolver.value_ast(outer)
    assert isinstance(value, ast.Dict)
    inner = site.resolver.resolve_ast(value.values[1])
    assert inner is not None and code(inner.node) == '"2024-05-01"'


def test_value_ast_of_a_literal_in_the_call_is_none() -> None:
    site = call_sites('described_result(provenance={"measuredAt": "x"})')[0]
    found = site.resolver.resolve_ast(keyword_ast(site, "provenance"))
    assert found is not None and site.resolver.value_ast(found) is None


def test_nodes_of_a_followed_value_know_their_anchor_in_the_call() -> None:
    site = call_sites(
        """
        DATE = "2024-05-01"
        PROV = {"measuredAt": DATE, "source": "export"}

        def tool():
            return described_result(provenance=PROV)
        """
    )[0]
    use = keyword_ast(site, "provenance")
    outer = site.resolver.resolve_ast(use)
    assert outer is not None
    value = site.resolver.value_ast(outer, anchor=use)
    assert isinstance(value, ast.Dict)
    assert site.resolver.anchor_of(value.values[1]) == (use, outer)
    # Following on from inside keeps the outermost use as the anchor.
    inner = site.resolver.resolve_ast(value.values[0])
    assert inner is not None
    date = site.resolver.value_ast(inner, anchor=value.values[0])
    assert isinstance(date, ast.Constant) and date.value == "2024-05-01"
    assert site.resolver.anchor_of(date) == (use, inner)
    assert site.resolver.anchor_of(use) is None


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
        use = keyword_ast(site, "provenance")
        resolved = site.resolver.resolve_ast(use)
        if resolved is None:
            answers.append("unknown")
            continue
        value = site.resolver.value_ast(resolved, anchor=use)
        assert isinstance(value, ast.Call)
        answers.append(site.resolver.qualified_name(value.func))
    # astroid reads none of ``datetime`` or ``time`` (they are not the project's): each
    # name has one binding, and its call is named by the imports of clocks.py, as it
    # would be if the three were bound in tools.py itself.
    assert answers == ["datetime.datetime", "datetime.datetime.now", "time.time", None]
    # The call's own nodes are not a followed value: the rule reads its file's imports.
    site = call_sites(source, filename=str(path))[0]
    assert site.resolver.qualified_name(keyword_ast(site, "provenance")) is None


def test_no_linted_file_outlives_its_lint(tmp_path: Path) -> None:
    """Per-file caches (the resolver's, the rules') must not keep a file's state alive."""
    import gc

    from semantics_lint.lint.context import FileContext

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


# -- the ast reading of scopes agrees with LibCST's ----------------------------------


def _answers(source: str, filename: str, fast: bool, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every name argument of every call of ``source``, resolved one way or the other."""
    if not fast:
        monkeypatch.setattr(resolve.ModuleAnalysis, "fast_value", lambda *args: resolve.FALLBACK)
    else:
        monkeypatch.undo()
    resolve.clear_caches()
    tree = ast.parse(source)
    context = FileContext(filename=filename, text=source, tree=tree, settings=LintSettings())
    functions: dict[int, ast.AST] = {}

    def mark(node: ast.AST, function: ast.AST | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Call) and function is not None:
                functions[id(child)] = function
            inner = child if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) else function
            mark(child, inner)

    mark(tree, None)
    found: list[object] = []
    for call in [node for node in ast.walk(tree) if isinstance(node, ast.Call)]:
        site = CallSite(context, "described_result", "f", call, functions.get(id(call)))  # type: ignore[arg-type]
        for arg in [*call.args, *(keyword.value for keyword in call.keywords)]:
            if not isinstance(arg, (ast.Name, ast.Attribute)):
                continue
            answer = site.resolver.resolve_ast(arg)
            if answer is None:
                found.append(None)
                continue
            found.append((_shape(answer.node), answer.origin))
            value = site.resolver.value_ast(answer, anchor=arg)
            for inner in ast.walk(value) if value is not None else ():
                if isinstance(inner, ast.Name):
                    nested = site.resolver.resolve_ast(inner)
                    found.append(None if nested is None else (_shape(nested.node), nested.origin))
                    found.append(site.resolver.qualified_name(inner))
    return found


def _shape(node: cst.CSTNode) -> str:
    """A value's meaning without its spelling: parentheses and layout differ by reader."""
    return ast.dump(ast.parse(f"({code(node)})", mode="eval"))


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


def test_the_ast_reading_agrees_with_libcst_scope(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _answers(SCOPES, "scopes.py", True, monkeypatch)
    slow = _answers(SCOPES, "scopes.py", False, monkeypatch)
    assert fast == slow
    assert sum(answer is not None for answer in fast) >= 8


@pytest.mark.parametrize("module", ["logging/handlers.py", "json/encoder.py", "base64.py"])
def test_the_ast_reading_agrees_on_the_standard_library(
    module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sysconfig

    path = Path(sysconfig.get_paths()["stdlib"]) / module
    source = path.read_text(encoding="utf-8")
    assert _answers(source, str(path), True, monkeypatch) == _answers(
        source, str(path), False, monkeypatch
    )


def test_common_names_never_parse_the_module_with_libcst(monkeypatch: pytest.MonkeyPatch) -> None:
    builds = _Builds(monkeypatch)
    path = Path(__file__).resolve().parent.parent / "testdata/project/fleet/named_tools.py"
    findings = lint_file(path)
    assert {f.code for f in findings} >= {"SEM203", "SEM204", "SEM105", "SEM601"}
    assert builds.count == 0


def test_a_very_long_attribute_chain_is_unknown_not_a_crash() -> None:
    chain = "a" + ".b" * 900  # close to what the parser itself accepts
    source = f"a = 1\ndescribed_result(provenance={chain})\n"
    site = call_sites(source)[0]
    assert site.resolver.resolve_ast(keyword_ast(site, "provenance")) is None
