"""The engine: decoding, the prefilter, recognition of our calls, bad input, positions."""

from __future__ import annotations

import ast
import codecs
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from semantics_lint.lint import rules
from semantics_lint.lint.core.model import Finding, Position
from semantics_lint.lint.engine import LintSettings, lint_file, lint_source, might_contain_calls

# The engine's behaviour is pinned with the key rules alone, so that rules added later
# (which may have more to say about these snippets) do not change these tests.
KEY_RULES = LintSettings(
    enabled=frozenset({"SEM001", "SEM101", "SEM102", "SEM103", "SEM104", "SEM105", "SEM106"})
)


def lint(source: str | bytes, settings: LintSettings | None = None) -> list[Finding]:
    data = source if isinstance(source, bytes) else textwrap.dedent(source).encode("utf-8")
    return lint_source(data, "tool.py", settings or KEY_RULES)


def codes(source: str | bytes, settings: LintSettings | None = None) -> list[str]:
    return [finding.code for finding in lint(source, settings)]


SNAKE_PROVENANCE = 'described_result(facts=rows, provenance={"measured_at": at, "source": "x"})\n'

# -- decoding -----------------------------------------------------------------------


def test_encoding_cookie_is_honoured_and_columns_count_characters() -> None:
    source = (
        "# -*- coding: latin-1 -*-\n"
        'x = described_result(facts=rows, provenance={"é": 1, "measured_at": at, "source": "s"})\n'
    ).encode("latin-1")
    findings = lint(source)
    assert [f.code for f in findings] == ["SEM101", "SEM102"]
    snake = findings[1]
    line = 'x = described_result(facts=rows, provenance={"é": 1, "measured_at": at, "source": "s"})'
    assert snake.start == Position(2, line.index('"measured_at"'))
    assert snake.fix is not None
    edit = snake.fix.edits[0]
    assert edit.start == Position(2, line.index("measured_at"))
    assert edit.end == Position(2, line.index("measured_at") + len("measured_at"))


def test_utf8_characters_before_a_key_count_as_one_column_each() -> None:
    line = 'described_result(facts=[{"entity": "日本"}], provenance={"measured_at": at, "source": "s"})'
    (finding,) = lint(line + "\n")
    assert finding.start == Position(1, line.index('"measured_at"'))


def test_a_bom_is_not_a_column() -> None:
    findings = lint(codecs.BOM_UTF8 + SNAKE_PROVENANCE.encode("utf-8"))
    assert [(f.code, f.start) for f in findings] == [
        ("SEM102", Position(1, SNAKE_PROVENANCE.index('"measured_at"')))
    ]


def test_crlf_line_endings_keep_lines_and_columns() -> None:
    source = "def tool(rows, at):\r\n    return " + SNAKE_PROVENANCE.replace("\n", "\r\n")
    (finding,) = lint(source.encode("utf-8"))
    assert finding.start == Position(2, len("    return ") + SNAKE_PROVENANCE.index('"measured_at"'))


def test_non_utf8_without_a_cookie_is_one_sem001_at_the_bad_byte() -> None:
    source = b"x = 1\n# caf\xe9\n" + SNAKE_PROVENANCE.encode()
    (finding,) = lint(source)
    assert finding.code == "SEM001"
    assert finding.start == Position(2, 5)
    assert "utf-8" in finding.message and "coding" in finding.message


def test_an_unknown_encoding_cookie_is_sem001() -> None:
    (finding,) = lint(b"# -*- coding: no-such-codec -*-\n" + SNAKE_PROVENANCE.encode())
    assert finding.code == "SEM001"


def test_syntax_error_is_one_finding_at_its_line() -> None:
    findings = lint("def tool(rows):\n    return described_result(facts=rows\n\nx = )\n")
    assert len(findings) == 1
    assert findings[0].code == "SEM001"
    assert findings[0].start.line in (2, 4)
    assert "cannot be parsed" in findings[0].message


def test_null_bytes_are_sem001_not_a_crash() -> None:
    (finding,) = lint(b"described_result(facts=[])\x00\n")
    assert finding.code == "SEM001"


@pytest.mark.parametrize("source", [b"", b"\n\n", b"   \n\t\n"])
def test_empty_file_has_no_findings(source: bytes) -> None:
    assert lint(source) == []


def test_sem001_can_be_disabled() -> None:
    settings = LintSettings(enabled=frozenset({"SEM102"}))
    assert lint(b"described_result(\n", settings) == []


# -- huge and deep input --------------------------------------------------------------


def test_thousand_deep_nested_literals_are_reported_not_raised() -> None:
    source = "described_result(facts=" + "[" * 1000 + "]" * 1000 + ")\n"
    (finding,) = lint(source)
    assert finding.code == "SEM001"


def test_thousands_of_concatenated_strings_in_a_call_are_judged_from_ast() -> None:
    # The declaration model comes from ``ast``, which joins the strings into one
    # constant: the row is fine, and LibCST (which refuses this nesting) is never asked.
    source = 'described_result(facts=[{"entity": ' + " ".join(['"a"'] * 5000) + "}])\n"
    assert codes(source) == []


def test_thousands_of_chained_additions_are_reported_not_raised() -> None:
    source = "described_result(facts=" + " + ".join(["[1]"] * 5000) + ")\n"
    try:
        ast.parse(source)
    except (RecursionError, MemoryError, SyntaxError):
        # CPython 3.11+ refuses this nesting: one SEM001 for the file, never a crash.
        assert codes(source) == ["SEM001"]
    else:
        # CPython 3.10 parses it; a sum of lists proves nothing, so nothing is reported.
        assert codes(source) == []


def test_deep_but_parseable_call_still_yields_its_findings() -> None:
    nested = "[" * 50 + "1" + "]" * 50
    source = f'described_result(facts=[{{"entity": "e", "x": {nested}}}], provenance={{"measured_at": a, "source": "s"}})\n'
    assert codes(source) == ["SEM102"]


# -- the prefilter --------------------------------------------------------------------


def test_prefilter_says_no_for_files_without_call_names() -> None:
    assert not might_contain_calls("import os\nprint(os.getcwd())\n")
    assert not might_contain_calls(b"def f(x):\n    return x\n")
    assert might_contain_calls("from semantics_lint.runtime import absent\n")
    assert might_contain_calls(b"x = describedResult\n")


def test_prefilter_knows_configured_call_names() -> None:
    settings = LintSettings(call_names=("make_result",))
    assert might_contain_calls("make_result(facts=[])", settings)
    assert not might_contain_calls("described_result(facts=[])", settings)


def test_a_file_the_prefilter_skips_is_never_parsed() -> None:
    # A syntax error would be SEM001 if the file were parsed.
    assert lint("def broken(:\n    pass\n") == []


def test_prefilter_hit_without_a_call_of_ours_has_no_findings() -> None:
    assert lint("# we used to call described_result here\nx = 1\n") == []


# -- imports stay light ---------------------------------------------------------------


def test_importing_the_engine_does_not_import_libcst_or_astroid() -> None:
    code = (
        "import sys, semantics_lint.lint.engine as e\n"
        "e.lint_source(b'import os\\n', 'x.py')\n"
        "assert 'libcst' not in sys.modules, 'libcst imported'\n"
        "assert 'astroid' not in sys.modules, 'astroid imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# -- recognition: what is ours --------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "from semantics_lint.runtime import absent\nabsent(what='x', checked=['y'], not_checked=['z'])\n",
        "from semantics_lint.runtime import absent as nothing\nnothing(what='x', checked=['y'], not_checked=['z'])\n",
        "import agentfootprint as af\naf.absent(what='x', checked=['y'], not_checked=['z'])\n",
        "import semantics_lint.runtime as rt\nrt.absent(what='x', checked=['y'], not_checked=['z'])\n",
        "import semantics_lint.runtime\nsemantics_lint.runtime.absent(what='x', checked=['y'], not_checked=['z'])\n",
        "from semantics_lint import runtime\nruntime.absent(what='x', checked=['y'], not_checked=['z'])\n",
        "from agentfootprint import coverage as cov\ncov(v, checked=['y'], not_checked=['z'])\n",
        "def tool():\n    from agentfootprint import absent\n    return absent(what='x', checked=['y'], not_checked=['z'])\n",
        "from semantics_lint.runtime import absent\nclass T:\n    def run(self):\n        return absent(what='x', checked=['y'], not_checked=['z'])\n",
        "try:\n    from agentfootprint import absent\nexcept ImportError:\n    from semantics_lint.runtime import absent\nabsent(what='x', checked=['y'], not_checked=['z'])\n",
    ],
)
def test_api_functions_imported_from_api_modules_are_ours(source: str) -> None:
    assert codes(source) == ["SEM102"]


def test_configured_api_module() -> None:
    source = "from mytools.semantics import absent\nabsent(what='x', checked=['y'], not_checked=['z'])\n"
    assert codes(source) == []
    settings = LintSettings(api_modules=("mytools.semantics",), enabled=KEY_RULES.enabled)
    assert codes(source, settings) == ["SEM102"]


def test_configured_call_name_is_ours_by_name() -> None:
    source = 'make_result(facts=rows, provenance={"measured_at": at, "source": "x"})\n'
    assert codes(source) == []
    settings = LintSettings(call_names=("make_result",), enabled=KEY_RULES.enabled)
    assert codes(source, settings) == ["SEM102"]


def test_described_result_is_ours_by_name_alone() -> None:
    assert codes(SNAKE_PROVENANCE) == ["SEM102"]
    assert codes(SNAKE_PROVENANCE.replace("described_result", "describedResult")) == ["SEM102"]


def test_nested_calls_are_each_checked() -> None:
    source = (
        "from semantics_lint.runtime import coverage\n"
        "coverage(described_result(facts=r, provenance={'measured_at': a, 'source': 's'}), "
        "checked=['x'], not_checked=['y'])\n"
    )
    assert codes(source) == ["SEM102", "SEM102"]


# -- recognition: never guess ---------------------------------------------------------

NEVER_OURS = {
    "coverage.py module": "import coverage\ncov = coverage.Coverage(data_suffix=True)\ncoverage.coverage(not_checked=1)\n",
    "coverage.py function": "from coverage import coverage\ncoverage(not_checked=['x'], is_counter=1)\n",
    "no import": "absent(what='x', not_checked=['y'])\ncoverage(v, not_checked=['z'])\n",
    "local def": (
        "from semantics_lint.runtime import absent\n"
        "def absent(**kw):\n    return kw\n"
        "absent(what='x', not_checked=['y'])\n"
    ),
    "parameter": (
        "from semantics_lint.runtime import absent\n"
        "def tool(absent):\n    return absent(what='x', not_checked=['y'])\n"
    ),
    "local assignment": (
        "from semantics_lint.runtime import coverage\n"
        "def tool(v):\n    coverage = make()\n    return coverage(v, not_checked=['y'])\n"
    ),
    "class attribute": (
        "from semantics_lint.runtime import coverage\n"
        "class Tool:\n    coverage = staticmethod(make)\n    x = coverage(v, not_checked=['y'])\n"
    ),
    "self method": (
        "from semantics_lint.runtime import coverage\n"
        "class Tool:\n    def run(self, v):\n        return self.coverage(v, not_checked=['y'])\n"
    ),
    "other module's attribute": "import mylib\nmylib.absent(what='x', not_checked=['y'])\n",
    "star import": "from semantics_lint.runtime import *\nabsent(what='x', not_checked=['y'])\n",
    "rebound at module level": (
        "from semantics_lint.runtime import absent\nabsent = wrap(absent)\n"
        "absent(what='x', not_checked=['y'])\n"
    ),
    "relative import": "from .runtime import absent\nabsent(what='x', not_checked=['y'])\n",
    "hand-built wire envelope": (
        "def envelope(at):\n"
        "    return {'af_semantics': True, 'provenance': {'measured_at': at, 'source': 's'},\n"
        "            'grain': {'is_counter': False}, 'not_covered': [], 'note': 'n'}\n"
    ),
    "saved record passed to described_result's neighbour": (
        "record = {'measured_at': at, 'is_counter': False}\nsave(described_result_record=record)\n"
    ),
}


@pytest.mark.parametrize("source", list(NEVER_OURS.values()), ids=list(NEVER_OURS))
def test_calls_that_are_not_ours_are_never_reported(source: str) -> None:
    assert lint(source, LintSettings()) == []


UNKNOWN_SHAPES = {
    "spread": "def tool(decl, extra):\n    return described_result(**decl, provenance={**extra})\n",
    "positional name": "def tool(decl):\n    return described_result(decl)\n",
    "star args": "def tool(args):\n    return described_result(*args)\n",
    "non-literal parts": "def tool(p, g):\n    return described_result(facts=rows(), provenance=p, grain=g)\n",
    "computed key": "def tool(k, at):\n    return described_result(facts=r, provenance={k: at, 'source': 's'})\n",
    "parameter as data": "def tool(rows):\n    return described_result(facts=rows)\n",
}


@pytest.mark.parametrize("source", list(UNKNOWN_SHAPES.values()), ids=list(UNKNOWN_SHAPES))
def test_what_the_source_does_not_show_is_never_a_key_finding(source: str) -> None:
    assert lint(source) == []


# -- files ----------------------------------------------------------------------------


def test_lint_file_reads_bytes(tmp_path: Path) -> None:
    path = tmp_path / "tool.py"
    path.write_bytes(SNAKE_PROVENANCE.encode())
    (finding,) = lint_file(path, KEY_RULES)
    assert finding.code == "SEM102" and finding.filename == str(path)


def test_unreadable_file_is_sem001_naming_the_error(tmp_path: Path) -> None:
    (finding,) = lint_file(tmp_path / "missing.py", KEY_RULES)
    assert finding.code == "SEM001"
    assert "No such file" in finding.message


def test_findings_are_sorted_and_json_shaped() -> None:
    source = (
        "def tool(rows, at):\n"
        "    return described_result(facts=[], provenance={'measured_at': at, 'tz': 'UTC'})\n"
    )
    findings = lint(source)
    assert [f.code for f in findings] == ["SEM105", "SEM102", "SEM101"]
    data = findings[1].to_json()
    assert data["location"] == {"row": 2, "column": findings[1].start.column + 1}
    assert data["fix"]["applicability"] == "safe"


def test_global_rebinding_in_a_function_makes_the_module_name_not_ours() -> None:
    source = (
        "from agentfootprint import absent\n"
        "def reset():\n    global absent\n    absent = None\n"
        "absent(what='x', checked=['y'], not_checked=['z'])\n"
    )
    assert lint(source) == []


def test_syntax_error_column_counts_characters() -> None:
    (finding,) = lint('x = "日本語" $ described_result(facts=rows)\n')
    assert finding.code == "SEM001"
    assert finding.start == Position(1, 10)


# -- every finding sits inside the file -------------------------------------------------

_REPO = Path(__file__).resolve().parent.parent
_REAL_FILES = sorted(
    [
        *(_REPO / "testdata").rglob("*.py"),
        *(_REPO / "src" / "semantics_lint").rglob("*.py"),
        *(_REPO / "tests").glob("test_*.py"),
    ]
)


@pytest.mark.parametrize("path", _REAL_FILES, ids=lambda p: str(p.relative_to(_REPO)))
def test_real_files_lint_without_error_and_positions_fit(path: Path) -> None:
    from ast import PyCF_ONLY_AST as python_ast_only

    from semantics_lint.lint.core.source import split_lines

    findings = lint_file(path, LintSettings())
    lines = split_lines(path.read_bytes().decode("utf-8-sig", errors="replace"))
    try:
        compile(path.read_bytes(), str(path), "exec", python_ast_only)
        parses = True
    except (SyntaxError, ValueError):
        parses = False  # a deliberately broken fixture: SEM001 is its right answer
    for finding in findings:
        assert finding.code != "SEM001" or not parses, finding
        assert finding.start <= finding.end, finding
        for position in (finding.start, finding.end):
            assert 1 <= position.line <= len(lines), finding
            assert 0 <= position.column <= len(lines[position.line - 1]), finding
        if finding.fix is not None:
            for edit in finding.fix.edits:
                text = lines[edit.start.line - 1][edit.start.column : edit.end.column]
                assert edit.start.line == edit.end.line and text.isidentifier(), (finding, text)


@pytest.mark.parametrize("enabled", [True, False])
def test_the_garbage_collector_state_is_restored(enabled: bool) -> None:
    import gc

    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        lint(SNAKE_PROVENANCE)
        lint(b"described_result(\n")
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


# -- what the rules declare decides what the engine reads ----------------------------------


def test_parts_given_by_name_are_read_only_for_a_rule_that_judges_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from semantics_lint.lint import resolve

    asked: list[object] = []
    real = resolve.Resolver.value_of

    def spy(self, expr):  # type: ignore[no-untyped-def]
        asked.append(expr)
        return real(self, expr)

    monkeypatch.setattr(resolve.Resolver, "value_of", spy)
    source = (
        "def tool(rows, at):\n    prov = {'measured_at': at, 'source': 's'}\n"
        "    return described_result(facts=rows, provenance=prov)\n"
    )
    # SEM201 judges the top level only: the dict behind ``prov`` is never read.
    assert lint(source, LintSettings(enabled=frozenset({"SEM201"}))) == [] and asked == []
    # SEM102 judges the keys of every part, those given as a name too.
    assert [f.code for f in lint(source, LintSettings(enabled=frozenset({"SEM102"})))] == ["SEM102"]
    assert asked


def test_the_engine_runs_the_rules_its_caller_hands_it() -> None:
    # Rules are data: the engine runs what it is given, whatever the settings enable.
    source = b'from semantics_lint.runtime import described_result\n\ndescribed_result(facts=[], provenance={"measured_at": "x", "source": "s", "bogus": 1})\n'
    every = {finding.code for finding in lint_source(source, "t.py", LintSettings())}
    assert {"SEM101", "SEM102"} <= every
    only_keys = rules.get_rule("SEM102")()
    given = lint_source(source, "t.py", LintSettings(), rules=lambda settings: ([only_keys], []))
    assert {finding.code for finding in given} == {"SEM102"}
    assert lint_source(source, "t.py", LintSettings(), rules=lambda settings: ([], [])) == []
