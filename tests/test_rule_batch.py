"""The rule batch: what a rule declares is what it is handed, and shared answers hold.

The batch hands a rule only the parts and keys its selector (``judges``) admits, works out which hooks a class defines once, and the rule list
once per settings; SEM401/SEM405 share one reading of each coverage list, and the tool
rules one view of the file. These tests hold each to what it promises, on the examples,
the test data, generated benchmark modules and random declarations.
"""

from __future__ import annotations

import ast
import importlib.util
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from semantics_lint import vocabulary
from semantics_lint.lint import engine
from semantics_lint.lint.calls import declaration as declaration_module
from semantics_lint.lint.calls.context import FileContext
from semantics_lint.lint.core.model import Finding
from semantics_lint.lint.engine import Batch, LintSettings, file_context, lint_source
from semantics_lint.lint.rules import ALL_RULES, Rule, rules_for
from semantics_lint.lint.rules import sem4xx_items as coverage_rules
from semantics_lint.lint.rules.base import _ALL_HOOKS, Check, Selector

ROOT = Path(__file__).resolve().parent.parent


def _load_make_corpus() -> ModuleType:
    bench = ROOT / "bench"
    if str(bench) not in sys.path:
        sys.path.insert(0, str(bench))
    existing = sys.modules.get("make_corpus")
    if existing is not None:
        return existing
    spec = importlib.util.spec_from_file_location("make_corpus", bench / "make_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_corpus"] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


# -- inputs -------------------------------------------------------------------------------

_VALUES = (
    "None",
    "True",
    "3",
    "''",
    "'  '",
    "'daily'",
    "'2024-01-01T00:00:00Z'",
    "[]",
    "()",
    "['host-a']",
    "['']",
    "[{'what': 'x'}]",
    "[{'what': '', 'why': 'y'}]",
    "[{'what': 'x', 'why': ''}]",
    "[{'why': 'y'}]",
    "[{'what': 'x', 'extra': 1}]",
    "[3, None]",
    "[*more]",
    "{}",
    "{'x': 1}",
    "{**spread}",
    "dict(question='')",
    "rows",
    "CONSTANT",
    "module.CONSTANT",
    "now()",
    "datetime.now()",
    "[{'entity': 'a', 'value': 1}]",
    "[{'entity': '', 't': True}]",
    "[r for r in rows]",
    "[{'from': 'a', 'to': 'b'}]",
)


def _keys() -> list[str]:
    names: set[str] = set()
    for fields in vocabulary.PART_FIELDS.values():
        names.update(fields)
    spelled = {vocabulary.to_declaration(name) for name in names}
    snake = {name for name in (_snake(n) for n in names) if name}
    return sorted(names | spelled | snake | {"note", "notCovered", "not_covered", "bogus", "measuredat"})


def _snake(camel: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in camel)


def _value(rng: random.Random, keys: list[str], depth: int) -> str:
    if depth < 2 and rng.random() < 0.4:
        return _dict(rng, keys, depth + 1)
    if depth < 2 and rng.random() < 0.15:
        return "[" + ", ".join(_dict(rng, keys, depth + 1) for _ in range(rng.randint(1, 2))) + "]"
    return rng.choice(_VALUES)


def _dict(rng: random.Random, keys: list[str], depth: int) -> str:
    items = [f"{key!r}: {_value(rng, keys, depth)}" for key in rng.sample(keys, rng.randint(0, 4))]
    if rng.random() < 0.1:
        items.append("**extra")
    return "{" + ", ".join(items) + "}"


def random_module(seed: int) -> str:
    """A module of random calls of ours: every key in every part, values of every shape,
    parts given as names bound to dicts."""
    rng = random.Random(seed)
    keys = _keys()
    lines = [
        "from semantics_lint.runtime import absent, coverage, described_result",
        f"CONSTANT = {_dict(rng, keys, 1)}",
        f"rows = {rng.choice(_VALUES)}",
        "",
        "def tool(export, more, extra, spread):",
    ]
    for index in range(rng.randint(2, 5)):
        name = f"part{index}"
        lines.append(f"    {name} = {_dict(rng, keys, 1)}")
        function = rng.choice(("described_result", "described_result", "absent", "coverage"))
        arguments = [
            f"{key}={_value(rng, keys, 0) if rng.random() < 0.8 else name}"
            for key in rng.sample(keys, rng.randint(1, 6))
            if key.isidentifier()
        ]
        if function == "coverage" and rng.random() < 0.7:
            arguments.insert(0, rng.choice(("verdict", "described_result(facts=rows)")))
        lines.append(f"    result{index} = {function}({', '.join(arguments)})")
    lines.append("    return result0")
    return "\n".join(lines) + "\n"


def _examples() -> Iterator[tuple[str, str]]:
    for rule in ALL_RULES:
        for index, case in enumerate((*rule.VALID, *rule.INVALID)):
            yield f"{rule.code}-{index}.py", case.source


def _sources() -> list[tuple[str, bytes]]:
    found = [(name, text.encode("utf-8")) for name, text in _examples()]
    found += [(str(path), path.read_bytes()) for path in sorted((ROOT / "testdata").rglob("*.py"))]
    make_corpus = _load_make_corpus()
    for index in range(80):
        text, _ = make_corpus.render_module(make_corpus.DEFAULT_SEED, index)
        found.append((f"pkg/tools/module_{index}.py", text.encode("utf-8")))
    for seed in range(RANDOM_MODULES):
        found.append((f"random_{seed}.py", random_module(seed).encode("utf-8")))
    return found


RANDOM_MODULES = 200
SOURCES = _sources()


def _lint_all(settings: LintSettings = engine.DEFAULT_SETTINGS) -> list[list[Finding]]:
    return [lint_source(data, name, settings) for name, data in SOURCES]


# -- the batch hands a rule only what it judges -------------------------------------------


def test_narrow_batch_skips_the_parts_a_rule_does_not_judge() -> None:
    class Spy(Rule):
        abstract = True
        judges = Selector(parts=frozenset({"grain"}), statuses=frozenset({"snake"}))

        def __init__(self) -> None:
            self.parts: list[str] = []
            self.fields: list[str] = []

        def visit_part(self, check: Check, part: declaration_module.Part) -> None:
            self.parts.append(part.kind)

        def visit_field(self, check: Check, field: declaration_module.Field) -> None:
            self.fields.append(field.spelled)

    Spy.code = "SEM999"
    text = (
        "def tool(e):\n"
        "    return described_result(series=e.s, grain={'interval': 'daily', 'is_counter': False},\n"
        "                            provenance={'measured_at': e.at, 'source': 's'})\n"
    )
    tree = ast.parse(text)
    settings = LintSettings()
    context = file_context(text, tree, "tool.py", settings)
    declaration = declaration_module.build_declaration(context.calls[0])
    assert [part.kind for part in declaration.parts] == ["described_result", "grain", "provenance"]
    spy = Spy()
    assert Batch([spy], [Check(spy, context, [])]).run(declaration) is None
    assert spy.parts == ["grain"]
    assert spy.fields == ["is_counter"]

    class Keys(Spy):
        abstract = True
        judges = Selector(keys=frozenset({("provenance", "source"), ("grain", "interval")}))

    keys = Keys()
    assert Batch([keys], [Check(keys, context, [])]).run(declaration) is None
    assert keys.parts == ["described_result", "grain", "provenance"]
    assert keys.fields == ["interval", "source"]


def test_a_rule_stopped_by_recursion_misses_only_the_rest_of_that_call() -> None:
    seen: dict[str, list[str]] = {"deep": [], "other": []}

    class Deep(Rule):
        abstract = True

        def visit_part(self, check: Check, part: declaration_module.Part) -> None:
            seen["deep"].append(f"part {part.kind}")

        def visit_field(self, check: Check, field: declaration_module.Field) -> None:
            seen["deep"].append(field.spelled)
            if field.spelled == "grain":
                raise RecursionError

        def visit_row(self, check: Check, row: declaration_module.Row) -> None:
            seen["deep"].append(f"row {row.data_field}")

    class Other(Rule):
        abstract = True

        def visit_field(self, check: Check, field: declaration_module.Field) -> None:
            seen["other"].append(field.spelled)

    Deep.code, Other.code = "SEM998", "SEM999"
    text = (
        "def tool(e):\n"
        "    first = described_result(facts=[{'x': 1}], grain={'interval': 'daily'})\n"
        "    return described_result(facts=[{'y': 2}], provenance={'source': 's'})\n"
    )
    context = file_context(text, ast.parse(text), "tool.py", LintSettings())
    first, second = (declaration_module.build_declaration(call) for call in context.calls)
    deep, other = Deep(), Other()
    batch = Batch([deep, other], [Check(deep, context, []), Check(other, context, [])])
    assert batch.run(first) == "it is nested too deeply"
    # Deep stops at the key that failed: not the grain part, its key, nor the rows.
    assert seen == {
        "deep": ["part described_result", "facts", "grain"],
        "other": ["facts", "grain", "interval"],
    }
    assert batch.run(second) is None  # the next call is judged whole
    assert seen["deep"][3:] == [
        "part described_result",
        "facts",
        "provenance",
        "part provenance",
        "source",
        "row facts",
    ]


def test_a_part_given_as_a_name_goes_to_the_rules_that_judge_it_so() -> None:
    class Named(Rule):
        abstract = True
        judges = Selector(parts=frozenset({"grain", "provenance"}), named=frozenset({"grain"}))

        def __init__(self) -> None:
            self.seen: list[str] = []

        def visit_part(self, check: Check, part: declaration_module.Part) -> None:
            self.seen.append(f"part {part.kind}")

        def visit_field(self, check: Check, field: declaration_module.Field) -> None:
            self.seen.append(field.spelled)
            check.report(field.value_ast, f"saw {field.spelled}")

    class Both(Named):
        abstract = True
        judges = Named.judges._replace(named=frozenset({"grain", "provenance"}))

    Named.code = "SEM999"
    text = (
        "GRAIN = {'interval': 'daily'}\n"
        "PROV = {'source': 's'}\n"
        "def tool(e):\n"
        "    return described_result(series=e.s, grain=GRAIN, provenance=PROV)\n"
    )
    context = file_context(text, ast.parse(text), "tool.py", LintSettings())
    declaration = declaration_module.build_declaration(context.calls[0])
    assert {part.kind for part in declaration.named_parts()} == {"grain", "provenance"}
    findings: list[Finding] = []
    rule, both = Named(), Both()
    assert (
        Batch([rule, both], [Check(rule, context, findings), Check(both, context, [])]).run(declaration)
        is None
    )
    # The grain part given as a name, not the provenance one (not in its judges.named),
    # though another rule judges that one.
    assert rule.seen == ["part grain", "interval"]
    assert both.seen == ["part grain", "interval", "part provenance", "source"]
    # What it reports there goes to the name in the call, saying where it was bound.
    (finding,) = findings
    assert (finding.start.line, finding.start.column) == (4, text.splitlines()[3].index("GRAIN"))
    assert "GRAIN" in (finding.help or "")
    # The engine wrote nothing into the rules: their state is what they keep themselves.
    assert set(vars(rule)) == {"seen"} and set(vars(both)) == {"seen"}


# -- hooks and rule lists worked out once -------------------------------------------------


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda rule: rule.code)
def test_has_hook_is_the_override_test(rule: type[Rule]) -> None:
    for hook in _ALL_HOOKS:
        assert rule.has_hook(hook) is (getattr(rule, hook) is not getattr(Rule, hook))
    call_hooks = ("visit_declaration", "visit_part", "visit_field", "visit_row")
    assert rule.visits_calls() is any(rule.has_hook(hook) for hook in call_hooks)
    assert rule._call_hooks == tuple(rule.has_hook(hook) for hook in call_hooks)


def test_has_hook_of_a_subclass_follows_its_own_overrides() -> None:
    class Base(Rule):
        abstract = True

        def visit_field(self, check: Check, field: declaration_module.Field) -> None:
            pass

    class Child(Base):
        abstract = True

        def visit_module(self, check: Check) -> None:
            pass

    assert Base.has_hook("visit_field") and not Base.has_hook("visit_module")
    assert Child.has_hook("visit_field") and Child.has_hook("visit_module")
    assert Child._call_hooks == (False, False, True, False)
    assert not Rule.has_hook("visit_field")


def test_rules_for_gives_the_enabled_rules_one_instance_each() -> None:
    settings = LintSettings(enabled=frozenset({"SEM101", "SEM303", "SEM601"}))
    first = rules_for(settings)
    second = rules_for(LintSettings(enabled=frozenset({"SEM101", "SEM303", "SEM601"})))
    assert [type(r).__name__ for r in first[0]] == ["UnknownDeclarationKey", "GrainSaysNothing"]
    assert [r.code for r in first[1]] == ["SEM601"]
    # A rule keeps nothing about a file: one instance serves every file and settings.
    assert all(a is b for a, b in zip((*first[0], *first[1]), (*second[0], *second[1]), strict=True))
    assert all(vars(rule) == {} for rule in (*first[0], *first[1]))
    everything = rules_for(LintSettings())
    assert [r.code for r in (*everything[0], *everything[1])] == [
        r.code for r in ALL_RULES if r.visits_calls() or r.has_hook("visit_module")
    ]


# -- answers shared between rules ----------------------------------------------------------


def test_shared_item_problems_are_the_item_problems(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = 0
    real = coverage_rules.shared_item_problems

    def checking(call: object, field: declaration_module.Field) -> Iterator[coverage_rules.ItemProblem]:
        nonlocal seen
        shared = list(real(call, field))  # type: ignore[arg-type]
        assert shared == list(coverage_rules.item_problems(call, field))  # type: ignore[arg-type]
        seen += 1
        return iter(shared)

    monkeypatch.setattr(coverage_rules, "shared_item_problems", checking)
    _lint_all()
    assert seen > 100


def test_a_reading_cut_short_is_not_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (
        "from semantics_lint.runtime import absent\n"
        "def tool():\n"
        "    return absent(what='x', cannotCover=['b'])\n"
    )
    calls = 0

    def failing(call: object, field: declaration_module.Field) -> Iterator[coverage_rules.ItemProblem]:
        nonlocal calls
        calls += 1
        yield coverage_rules.ItemProblem("SEM401", field.value_ast, f"first, reading {calls}", "help")
        if calls == 1:
            raise RecursionError
        yield coverage_rules.ItemProblem("SEM405", field.value_ast, f"second, reading {calls}", "help")

    monkeypatch.setattr(coverage_rules, "item_problems", failing)
    findings = lint_source(text.encode("utf-8"), "tool.py")
    messages = sorted(f.message for f in findings if f.code in ("SEM401", "SEM405"))
    # SEM401 read first and was cut short: it keeps what it found; SEM405 read again.
    assert messages == ["first, reading 1", "second, reading 2"]
    assert any(f.code == "SEM001" and "nested too deeply" in f.message for f in findings)


# -- SEM106 reads a row's values without asking literal_eval the hopeless --------------------

_ODD_EXPRESSIONS = (
    "x",
    "a.b.c",
    "f'{x}'",
    "f'plain'",
    "rows[0]",
    "d['k']",
    "-1",
    "+2.5",
    "1 + 2j",
    "(1, 'a')",
    "[1, [2]]",
    "{'a': 1}",
    "set()",
    "{1, 2}",
    "dict(a=1)",
    "dict(a=x)",
    "list()",
    "tuple()",
    "None",
    "True",
    "b'bytes'",
    "...",
    "not x",
    "x if y else z",
    "lambda: 0",
    "[r for r in rows]",
    "f(x)",
    "'a' 'b'",
    "(-(1))",
    "~1",
    "2 ** 3",
    "x[1:2]",
    "*x",
)


def _expressions() -> Iterator[ast.expr]:
    for text in _ODD_EXPRESSIONS:
        tree = ast.parse(f"({text},)" if text.startswith("*") else text, mode="eval")
        yield from (node for node in ast.walk(tree) if isinstance(node, ast.expr))
    for _, data in SOURCES:
        try:
            tree = ast.parse(data)
        except SyntaxError:
            continue  # SEM001's examples
        for node in ast.walk(tree):  # the values of dict literals: where rows keep theirs
            if isinstance(node, ast.Dict):
                yield from node.values


def test_row_values_are_the_literal_values() -> None:
    from semantics_lint.lint.core.syntax import UNKNOWN as unknown
    from semantics_lint.lint.core.syntax import literal_value
    from semantics_lint.lint.rules.sem1xx_rows import _row_value

    compared = 0
    for node in _expressions():
        fast = _row_value(node)
        slow = literal_value(node)
        if slow is unknown:
            assert fast is unknown, ast.dump(node)
        else:
            assert fast is not unknown and type(fast) is type(slow) and fast == slow, ast.dump(node)
        compared += 1
    assert compared > 5_000


# -- the tool rules' shared view of a file ----------------------------------------------------

_TOOLS = """
from semantics_lint.runtime import define_tool

def run(vm, export):
    return described_result(
        facts=[{"entity": vm, "backed_up": True}],
        provenance={"measuredAt": export.at, "source": export.source},
    )

backup = define_tool(name="vm_backup_status", resultClass="triage", execute=run)
report = define_tool(name="vm_report", resultClass="report", execute=run)
"""


def test_tool_rules_read_one_view_and_keep_no_file_after_its_lint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import weakref

    from semantics_lint.lint.calls import tools

    contexts: list[weakref.ref[FileContext]] = []
    real = tools._read_tools

    def reading(context: FileContext) -> object:
        contexts.append(weakref.ref(context))
        return real(context)

    monkeypatch.setattr(tools, "_read_tools", reading)
    findings = lint_source(_TOOLS.encode("utf-8"), "tool.py")
    assert {"SEM601", "SEM602"} <= {f.code for f in findings}
    assert len(contexts) == 1  # one view of the file, shared by the rules
    assert contexts[0]() is None  # the file, its trees and the view went with its lint
    findings_again = lint_source(_TOOLS.encode("utf-8"), "tool.py")
    assert findings_again == findings and len(contexts) == 2
