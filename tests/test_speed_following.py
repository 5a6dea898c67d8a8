"""Following names cheaply gives the answers the full work gave.

The resolver reads a value bound to a name from ``ast`` and parses it with LibCST only
when a rule asks for its LibCST node; whether LibCST could parse it at all is decided
before the parse is skipped (``resolve._libcst_reads``). These tests hold the shortcuts
to the slow ways they replace.
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import libcst as cst
import pytest

from semantics_lint import vocabulary
from semantics_lint.lint import declaration as declaration_module
from semantics_lint.lint import resolve
from semantics_lint.lint.context import CallSite, FileContext, split_lines
from semantics_lint.lint.declaration import (
    Declaration,
    build_declaration,
    iter_dict_items,
    may_resolve_to,
    named_parts_may_misspell,
)
from semantics_lint.lint.engine import LintSettings
from semantics_lint.lint.locate import locate_calls
from semantics_lint.lint.rules import sem2xx_provenance as sem2xx

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


# -- parts given by name: one list per declaration, the old loops' answers ------------

ROOT = Path(__file__).resolve().parent.parent


def _make_corpus():  # type: ignore[no-untyped-def]
    """bench/make_corpus.py, loaded by path (bench/ is a folder of scripts)."""
    loaded = sys.modules.get("make_corpus")
    if loaded is not None:
        return loaded
    bench = ROOT / "bench"
    if str(bench) not in sys.path:
        sys.path.insert(0, str(bench))
    spec = importlib.util.spec_from_file_location("make_corpus", bench / "make_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_corpus"] = module
    spec.loader.exec_module(module)
    return module


def _sources() -> list[tuple[str, str]]:
    """Synthetic tool modules and the example files: many parts given by name."""
    make_corpus = _make_corpus()
    found = [(f"synthetic_{index}.py", make_corpus.render_module(20261130, index)[0]) for index in range(120)]
    for path in sorted((ROOT / "testdata").rglob("*.py")):
        found.append((str(path), path.read_text(encoding="utf-8")))
    found.append(("crafted.py", CRAFTED))
    return found


CRAFTED = """\
from semantics_lint.runtime import coverage, described_result
from pkg import constants
import shared as sh

PROV = {"measuredAt": "2024-05-01", "source": "s"}
GRAIN = {"interval": "daily", "aggregation": "count"}
PERIOD = {"queried": "2024", "held": "2024"}


def attributes(rows, export):
    return described_result(series=rows, grain=constants.GRAIN, provenance=sh.PROV,
                            clarify=export.clarify, render=constants.RENDER)


def names(rows, export):
    prov = {"measured_at": export.at, "source": export.system, **export.extra}
    return described_result(facts=rows, provenance=prov, grain=GRAIN, coverage=constants.COVERAGE)


def spelled_snake(rows):
    return described_result(facts=rows, provenance=PROV, grain=sh.GRAIN)


def covered(rows):
    return coverage(rows, period=PERIOD, checked=["x"])
"""


def _declarations(source: str, filename: str) -> list[Declaration]:
    try:
        ast.parse(source)
    except SyntaxError:
        return []
    sites = call_sites(source, filename)
    return [build_declaration(site) for site in sites if site.kind != "define_tool"]


_NESTED = {
    "described_result": {
        "grain": "grain",
        "provenance": "provenance",
        "coverage": "described_result.coverage",
        "clarify": "clarify",
        "render": "render",
    },
    "coverage": {"period": "period"},
}


def _old_may_misspell(declaration: Declaration) -> bool:
    """named_parts_may_misspell as it was: every field of every part looked at."""
    for parent in declaration.parts:
        nested = _NESTED.get(parent.kind, {})
        for item in parent.fields:
            kind = nested.get(item.name)
            if kind is None or item.status not in ("field", "snake"):
                continue
            allowed = vocabulary.PART_FIELDS[kind]

            def misspells(value: ast.expr, allowed: tuple[str, ...] = allowed) -> bool:
                if not declaration_module._is_dict_form(value):
                    return False
                return any(entry is None or entry[0] not in allowed for entry in iter_dict_items(value))

            if may_resolve_to(declaration.call, item.value_ast, misspells):
                return True
    return False


def _old_may_matter(declaration: Declaration, kinds: frozenset[str]) -> bool:
    """sem2xx's _named_part_may_matter as it was."""
    call = declaration.call
    for parent in declaration.parts:
        nested = _NESTED.get(parent.kind, {})
        for item in parent.fields:
            kind = nested.get(item.name)
            if kind not in kinds or not sem2xx.data_field(item):
                continue
            value = item.value_ast
            if isinstance(value, ast.Attribute):
                if sem2xx._worth_following(call, value, sem2xx.is_literalish):
                    return True
            elif isinstance(value, ast.Name) and may_resolve_to(
                call, value, sem2xx._dict_may_matter(call, kind)
            ):
                return True
    return False


def _old_named_parts(declaration: Declaration) -> list[tuple[str, str, int, str]]:
    """What _read_named_parts found, as it was: (kind, path, anchor id, bound)."""
    found = []
    resolver = declaration.call.resolver
    for parent in declaration.parts:
        nested = _NESTED.get(parent.kind, {})
        for item in parent.fields:
            kind = nested.get(item.name)
            if kind is None or item.status not in ("field", "snake"):
                continue
            if not isinstance(item.value_ast, (ast.Name, ast.Attribute)):
                continue
            resolved = resolver.resolve_ast(item.value_ast)
            if resolved is None or resolved.origin is None:
                continue
            tree = resolver.value_ast(resolved, anchor=item.value_ast)
            if tree is None or not declaration_module._is_dict_form(tree):
                continue
            path = f"{parent.path}.{item.spelled}" if parent.path else item.spelled
            found.append((kind, path, id(item.value_ast), resolved.describe()))
    return found


def test_the_nested_parts_table_is_the_declaration_models() -> None:
    assert _NESTED == declaration_module._NESTED_PARTS


KINDS = [
    frozenset({"provenance"}),
    frozenset({"grain"}),
    frozenset({"clarify"}),
    frozenset({"render"}),
    frozenset({"described_result.coverage"}),
    frozenset({"period"}),
    frozenset(declaration_module._NESTED_PARTS["described_result"].values()),
]


def test_parts_given_by_name_answer_as_the_full_loops_did() -> None:
    asked = named = by_name = attributes = 0
    for filename, source in _sources():
        for declaration in _declarations(source, filename):
            by_name += len(declaration.parts_given_by_name())
            attributes += sum(
                isinstance(item.value_ast, ast.Attribute) for item, _ in declaration.parts_given_by_name()
            )
            assert named_parts_may_misspell(declaration) == _old_may_misspell(declaration)
            for kinds in KINDS:
                asked += 1
                assert sem2xx._named_part_may_matter(declaration, kinds) == _old_may_matter(
                    declaration, kinds
                ), (filename, declaration.call.node.lineno, kinds)
            old = _old_named_parts(declaration)
            new = [
                (part.kind, part.path, id(part.anchor), part.via.describe() if part.via else "")
                for part in declaration.named_parts()
            ]
            assert new == old, (filename, declaration.call.node.lineno)
            named += len(new)
    assert asked > 1000 and by_name > 50 and named > 20 and attributes >= 5


# -- the call's own nodes, told from a followed value's without a descent ----------------


def test_the_calls_own_nodes_and_a_followed_values_are_told_apart() -> None:
    from semantics_lint.lint.context import contains

    source = """
        DAY = "2024-05-01"
        PROV = {"measuredAt": DAY, "source": "s", "ageSeconds": -1}
        GRAIN = {"interval": "daily", "aggregation": "count"}

        def tool(rows, export):
            return described_result(facts=rows, provenance=PROV, grain=GRAIN,
                                    render={"default": export.view, "x": [DAY, (1, 2)]})
        """
    site = call_sites(source)[0]
    resolver = site.resolver
    followed: list[ast.AST] = []
    for keyword in ("provenance", "grain"):
        anchor = keyword_ast(site, keyword)
        found = resolver.resolve_ast(anchor)
        assert found is not None
        tree = resolver.value_ast(found, anchor=anchor)
        assert tree is not None
        followed.extend(node for node in ast.walk(tree) if isinstance(node, ast.expr))
    # Expressions only: follow() is handed those (ast.Load and the operators are
    # shared by every tree).
    own = [node for node in ast.walk(site.node) if isinstance(node, ast.expr)]
    assert len(followed) > 10 and len(own) > 10
    for node in own:
        assert sem2xx._in_call(site, node) is contains(site.node, node) is True
    for node in followed:
        assert sem2xx._in_call(site, node) is contains(site.node, node) is False


# -- a scope's bindings, walking only the expressions that can bind --------------------

BINDINGS = """\
import os, json as j
from x import (a, b as c)

A = [i for i in range(3)]
B, (C, *D) = 1, (2, 3)
E: int = 1
F += 1
del G
with open(p) as (H, I), other() as J:
    K = f"{[k for k in y]}" + f"{len(y)}"
for L in y:
    pass
else:
    M = 1
try:
    pass
except OSError as N:
    O = N
match y:
    case {"a": P, **Q} if (lambda R=[r for r in y]: R)():
        pass
    case [S, *T] | S:
        pass


@decorate([u for u in y])
def U(V=[w for w in y], *, W=lambda X=[x2 for x2 in y]: X):
    global Y
    Z = 1


class AA(Base, metaclass=[m for m in y][0]):
    BB = 1


print(*[q
        for q in y], key=lambda: [l2 for l2 in y])
async def CC():
    async with ctx() as DD:
        async for EE in aiter():
            FF = [ff async for ff in gen()]
"""


def _every_body(tree: ast.Module) -> list[list[ast.stmt]]:
    bodies = [tree.body]
    bodies.extend(
        node.body for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    )
    return bodies


def _normal(block: tuple[dict[str, list[ast.AST]], list[tuple[int, int]]]) -> tuple[object, object]:
    found, classes = block
    return {name: sorted(map(id, nodes)) for name, nodes in found.items()}, sorted(classes)


@pytest.mark.parametrize("name", ["crafted", "synthetic", "stdlib"])
def test_bindings_read_on_the_lines_that_can_bind_are_those_of_every_node(name: str) -> None:
    if name == "crafted":
        sources = [BINDINGS]
    elif name == "synthetic":
        sources = [source for _, source in _sources()]
    else:
        sources = [
            (STDLIB / module).read_text(encoding="utf-8")
            for module in ("argparse.py", "tarfile.py", "typing.py", "pdb.py", "dataclasses.py", "inspect.py")
        ]
    pruned = 0
    for source in sources:
        tree = ast.parse(source)
        lines = None if ":=" in source else resolve.lines_spelling(source, ("for",))
        for body in _every_body(tree):
            fast = resolve._bindings_of_block(body, lines)
            assert _normal(fast) == _normal(resolve._bindings_of_block(body))
            pruned += lines is not None
    assert pruned > 0
    if name == "crafted":
        found, classes = resolve._bindings_of_block(ast.parse(BINDINGS).body, resolve.lines_spelling(BINDINGS, ("for",)))
        assert set(found) >= {"os", "j", "a", "c", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K",
                              "L", "M", "N", "O", "P", "Q", "S", "T", "U", "AA", "CC"}
        assert not set(found) & {"i", "R", "V", "W", "X", "Y", "Z", "BB", "DD", "EE", "FF"}
        assert len(classes) >= 6


# -- nested scopes of a call, known without a walk when its text has none ---------------

NESTED = """\
from semantics_lint.runtime import described_result

def tool(rows, export):
    a = described_result(facts=rows, provenance=PROV)
    b = described_result(facts=[r for r in rows], provenance=PROV)
    c = described_result(facts=rows, render={"default": lambda: "t"})
    d = described_result(facts=rows,
                         clarify={"question": f"{[q for q in export.q]}"})
    e = described_result(facts=rows, provenance={"source": "café"})
    f = described_result(facts=rows, provenance={"source": "information"})
    return a, b, c, d, e, f
"""


def test_a_calls_nested_scopes_are_those_a_walk_finds() -> None:
    sources = [NESTED] + [source for _, source in _sources()]
    empty = walked = 0
    for source in sources:
        for site in call_sites(source):
            expected = resolve._ids_in_nested_scopes(site.node)
            assert site.resolver._nested_ids() == expected
            if site.resolver._nested_ids():
                walked += 1
            else:
                empty += 1
    assert empty > 100 and walked >= 3
