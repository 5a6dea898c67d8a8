"""Following names cheaply gives the answers the full work gave.

The resolver reads a value bound to a name from ``ast`` and parses it with LibCST only
when a rule asks for its LibCST node; whether LibCST could parse it at all is decided
before the parse is skipped (``resolve._libcst_reads``). These tests hold the shortcuts
to the slow ways they replace.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import libcst as cst
import pytest

from semantics_lint.lint import resolve
from semantics_lint.lint.context import CallSite, FileContext, split_lines
from semantics_lint.lint.engine import LintSettings
from semantics_lint.lint.locate import locate_calls

STDLIB = Path(sysconfig.get_paths()["stdlib"])


@pytest.fixture(autouse=True)
def _fresh_caches() -> None:
    resolve.clear_caches()


def call_sites(source: str, filename: str = "tool.py") -> list[CallSite]:
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


def keyword_ast(site: CallSite, keyword: str) -> ast.expr:
    for item in site.node.keywords:
        if item.arg == keyword:
            return item.value
    raise KeyError(keyword)


def _assigned_values(text: str) -> list[tuple[ast.expr, str]]:
    """Every value of a plain assignment in ``text``, with its source as the resolver
    cuts it (character columns, lines joined with ``\\n``)."""
    lines = split_lines(text)

    def column(line: str, byte_column: int) -> int:
        return len(line.encode("utf-8")[:byte_column].decode("utf-8", errors="ignore"))

    found: list[tuple[ast.expr, str]] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            value = node.value
            first, last = value.lineno, value.end_lineno or value.lineno
            start = column(lines[first - 1], value.col_offset)
            end = column(lines[last - 1], value.end_col_offset or 0)
            if first == last:
                source = lines[first - 1][start:end]
            else:
                source = "\n".join([lines[first - 1][start:], *lines[first : last - 1], lines[last - 1][:end]])
            found.append((value, source))
    return found


# -- which values may wait for their LibCST node ----------------------------------------


@pytest.mark.parametrize(
    "module",
    ["logging/__init__.py", "json/encoder.py", "email/_header_value_parser.py", "tarfile.py",
     "argparse.py", "typing.py", "locale.py", "_pydecimal.py"],
)
def test_every_value_libcst_is_said_to_read_it_reads(module: str) -> None:
    path = STDLIB / module
    if not path.is_file():
        pytest.skip(f"{module} is not in this Python's standard library")
    deferred = 0
    for value, source in _assigned_values(path.read_text(encoding="utf-8")):
        if resolve._libcst_reads(value, source):
            deferred += 1
            node = resolve._parse_detached(source)  # raises if the claim is wrong
            assert isinstance(node, cst.BaseExpression)
    assert deferred > 0


@pytest.mark.parametrize(
    ("source", "reads"),
    [
        ('{"measuredAt": EXPORT, "source": "s"}', True),
        ("datetime(2024, 5, 1)", True),
        ("-1 + 2 * x[1:2]", True),
        ('f"{x}"', False),  # f-strings: their grammar changed in 3.12
        ('"caf\\u00e9"', False),  # a backslash
        ('"café"', False),  # not ASCII
        ("lambda: 1", False),
        ("[x for x in y]", False),
        ("a if b else c", False),
    ],
)
def test_which_values_wait(source: str, reads: bool) -> None:
    value = ast.parse(source, mode="eval").body
    assert resolve._libcst_reads(value, source) is reads


def test_a_value_libcst_refuses_stays_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A value outside what LibCST surely reads is parsed at once; a refusal is unknown."""

    def refuse(text: str) -> cst.BaseExpression:
        raise cst.ParserSyntaxError("refused", lines=[text], raw_line=1, raw_column=0)

    monkeypatch.setattr(resolve, "_parse_detached", refuse)
    source = """
        WHEN = f"{2024}-05-01"
        DAY = "2024-05-01"

        def tool(rows):
            return described_result(facts=rows, provenance={"measuredAt": WHEN, "source": DAY})
        """
    site = call_sites(source)[0]
    provenance = keyword_ast(site, "provenance")
    assert isinstance(provenance, ast.Dict)
    when, day = provenance.values
    assert site.resolver.resolve_ast(when) is None
    found = site.resolver.resolve_ast(day)
    assert found is not None and found.origin == "line 3"  # deferred: not parsed yet
    with pytest.raises(cst.ParserSyntaxError):
        found.node  # noqa: B018


def test_the_libcst_node_is_made_when_asked_and_is_the_value() -> None:
    source = """
        PROV = {"measuredAt": "2024-05-01", "source": "s"}

        def tool(rows):
            return described_result(facts=rows, provenance=PROV)
        """
    site = call_sites(source)[0]
    found = site.resolver.resolve_ast(keyword_ast(site, "provenance"))
    assert found is not None and found.detached is not None
    assert found.detached._node is None  # nothing parsed with LibCST so far
    tree = site.resolver.value_ast(found, anchor=keyword_ast(site, "provenance"))
    assert tree is not None and found.detached._node is None
    node = found.node
    assert isinstance(node, cst.Dict)
    assert found.node is node  # parsed once
    assert cst.Module(body=[]).code_for_node(node) == '{"measuredAt": "2024-05-01", "source": "s"}'
    # The node belongs to its module, as an eagerly parsed one did.
    state = resolve._file_state(site.context)
    assert state.main.owns(node)
    assert state.main.range_of(node) == ((2, 7), (2, 50))


def test_following_names_read_from_ast_does_not_import_libcst(tmp_path: Path) -> None:
    tool = tmp_path / "tool.py"
    tool.write_text(
        textwrap.dedent(
            """
            from semantics_lint.runtime import described_result

            DAY = "2024-05-01"
            PROV = {"measuredAt": DAY, "source": "s"}

            def tool(rows):
                return described_result(facts=rows, provenance=PROV)
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
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert completed.stdout.strip() == "['SEM203'] False"
