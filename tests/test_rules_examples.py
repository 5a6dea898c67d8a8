"""Every rule's VALID and INVALID examples are tests (ids like ``SEM102-invalid-3``).

Valid: the rule reports nothing. Invalid: the linter reports exactly the listed codes
among the codes of the rule's family and the listed ones (an example need not satisfy
rules of other families, which may be added at any time); the first finding of the
rule sits where the example says and names the field (in its message or its help);
and a fix, when shown, yields exactly the fixed text, which parses, re-lints clean of
the rule's code, and does not change when fixed again.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re

import pytest

from semantics_lint.lint import rules as rules_package
from semantics_lint.lint.rules import ALL_RULES, Invalid, Rule, Valid
from semantics_lint.lint.rules.base import Claim, Selector, claimed_refusals, specific_code
from semantics_lint.lint.run.fix import apply_fixes, fix_source
from semantics_lint.lint.run.suppress import lint_with_noqa


def _cases() -> list[object]:
    params: list[object] = []
    for rule in ALL_RULES:
        for index, case in enumerate(rule.VALID):
            params.append(pytest.param(rule, case, id=f"{rule.code}-valid-{index}"))
        for index, case in enumerate(rule.INVALID):
            params.append(pytest.param(rule, case, id=f"{rule.code}-invalid-{index}"))
    return params


def _lint(source: str) -> list:
    # What ``check`` reports: the engine's findings, then noqa comments and SEM002.
    return lint_with_noqa(source.encode("utf-8"), "example.py")


@pytest.mark.parametrize(("rule", "case"), _cases())
def test_example(rule: type[Rule], case: Valid | Invalid) -> None:
    findings = _lint(case.source)
    own = [f for f in findings if f.code == rule.code]
    if isinstance(case, Valid):
        assert own == [], f"{rule.code} reported on a valid example: {own}"
        return

    expected = case.codes if case.codes is not None else (rule.code,)
    family = rule.code[:4]
    relevant = [f for f in findings if f.code.startswith(family) or f.code in expected]
    assert sorted(f.code for f in relevant) == sorted(expected), [
        (f.code, f.start, f.message) for f in findings
    ]
    assert own, f"{rule.code} reported nothing"
    first = own[0]
    at = (
        f"{rule.code} reported at line {first.start.line}, column {first.start.column} "
        f"(lines count from 1, columns from 0): {first.message}"
    )
    if case.line is not None:
        assert first.start.line == case.line, at
    if case.column is not None:
        assert first.start.column == case.column, at
    said = f"{first.message}\n{first.help or ''}"
    if case.field is not None:
        assert case.field in said, first
    if not rule.code.startswith("SEM0"):  # a declaration's finding names its call
        assert re.search(r"\b\w+\(\.\.\.\)", said), first
    assert first.message and first.code not in first.message
    assert first.help is None or (first.help and first.code not in first.help), first
    assert first.severity == rule.severity

    if case.fixed is None:
        assert all(f.fix is None for f in own), "a fix is offered but the example shows none"
        return
    assert any(f.fix is not None for f in own), "the example shows a fix but none is offered"
    fixed, applied = apply_fixes(case.source, own, unsafe=True)
    assert applied >= 1
    assert fixed == case.fixed
    ast.parse(fixed)
    assert [f for f in _lint(fixed) if f.code == rule.code] == []
    again, applied_again = apply_fixes(fixed, [f for f in _lint(fixed) if f.code == rule.code], unsafe=True)
    assert (again, applied_again) == (fixed, 0)
    # The fix teammate's fixpoint loop agrees, and a second run changes nothing.
    result = fix_source(case.source.encode("utf-8"), "example.py", None, unsafe=True)
    assert result.changed
    second = fix_source(result.source, "example.py", None, unsafe=True)
    assert not second.changed


def test_every_rule_class_of_the_families_is_registered() -> None:
    # A class left out of its family's tuple would never run, and have no docs.
    defined: set[type[Rule]] = set()
    for found in pkgutil.iter_modules(rules_package.__path__):
        module = importlib.import_module(f"{rules_package.__name__}.{found.name}")
        defined.update(
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and issubclass(value, Rule)
            and value is not Rule
            and value.__module__ == module.__name__
            and not value.__dict__.get("abstract", False)
        )
    assert len(defined) >= len(ALL_RULES) > 0
    missing = sorted(f"{rule.__module__}.{rule.__name__}" for rule in defined - set(ALL_RULES))
    assert missing == [], "add each to its family's tuple at the end of its module (ARCHITECTURE.md)"


def test_a_rule_that_offers_a_fix_without_showing_it_is_refused() -> None:
    with pytest.raises(TypeError, match="fixed form"):

        class _Undemonstrated(Rule):
            """
            ## What it does
            x
            ## Why is this bad?
            y
            """

            code = "SEM199"
            name = "undemonstrated-fix"
            fix = "safe"
            VALID = (Valid("x = 1\n"),)
            INVALID = (Invalid("x = 2\n"),)


def test_a_rule_in_the_wrong_family_is_refused() -> None:
    with pytest.raises(TypeError, match="does not belong"):
        type(
            "Misplaced",
            (Rule,),
            {
                "__module__": "semantics_lint.lint.rules.sem1xx_keys",
                "__doc__": "## What it does\nx\n## Why is this bad?\ny",
                "code": "SEM201",
                "name": "misplaced-rule",
                "VALID": (Valid("x = 1\n"),),
                "INVALID": (Invalid("x = 2\n"),),
            },
        )


def _rule_judging(judges: Selector, *, hooks: bool = True) -> type[Rule]:
    namespace: dict[str, object] = {
        "__module__": "semantics_lint.lint.rules.sem1xx_scratch",
        "__doc__": "## What it does\nx\n## Why is this bad?\ny",
        "code": "SEM198",
        "name": "scratch-selector",
        "judges": judges,
        "VALID": (Valid("x = 1\n"),),
        "INVALID": (Invalid("x = 2\n"),),
    }
    if hooks:
        namespace["visit_part"] = lambda self, check, part: None
        namespace["visit_field"] = lambda self, check, field: None
    return type("Scratch", (Rule,), namespace)


@pytest.mark.parametrize(
    ("judges", "hooks", "says"),
    [
        (Selector(parts=frozenset({"grian"})), True, "'grian', which no call"),
        (
            Selector(calls=frozenset({"absent"}), parts=frozenset({"grain"})),
            True,
            "'grain', which no call",
        ),
        (Selector(calls=frozenset({"described"})), True, "no call kind"),
        (
            Selector(keys=frozenset({("grain", "interva")})),
            True,
            "'interva', which is no field of 'grain'",
        ),
        (Selector(keys=frozenset({("grain", "is_counter")})), True, "camelCase"),
        (
            Selector(parts=frozenset({"provenance"}), keys=frozenset({("grain", "interval")})),
            True,
            "not in judges.parts",
        ),
        (
            Selector(parts=frozenset({"grain"}), named=frozenset({"grain", "provenance"})),
            True,
            "judges.named",
        ),
        (Selector(named=frozenset({"coverage_item"})), True, "judges.named holds 'coverage_item'"),
        (Selector(statuses=frozenset({"snake_case"})), True, "judges.statuses"),
        (Selector(keys=frozenset({("grain", "interval")})), False, "no visit_field"),
        (
            Selector(refusals=(Claim(frozenset({"absent"}), frozenset({"missng"})),)),
            True,
            "the runtime's kinds",
        ),
        (
            Selector(refusals=(Claim(frozenset({"absent"}), frozenset({"missing"}), ("wat",)),)),
            True,
            "'wat'",
        ),
        # SEM101 claims every unknown key already.
        (
            Selector(refusals=(Claim(frozenset({"absent"}), frozenset({"unknown-key"}), ("what",)),)),
            True,
            "SEM101",
        ),
    ],
)
def test_a_selector_that_can_never_match_is_refused_when_the_class_is_made(
    judges: Selector, hooks: bool, says: str
) -> None:
    with pytest.raises(TypeError, match=re.escape(says)) as raised:
        _rule_judging(judges, hooks=hooks)
    assert "SEM198" in str(raised.value)


def test_a_sound_selector_is_accepted() -> None:
    rule = _rule_judging(
        Selector(
            parts=frozenset({"grain"}),
            keys=frozenset({("grain", "interval")}),
            statuses=frozenset({"field"}),
            named=frozenset({"grain"}),
        )
    )
    assert rule.field_names("grain") == {"interval"}


def test_every_refusal_kind_and_path_goes_to_at_most_one_rule() -> None:
    # The claims of two rules never overlap, so which rule reports a refusal does not
    # depend on the order the rules were made in.
    claims = claimed_refusals()
    assert {code for code, _ in claims} >= {"SEM101", "SEM202", "SEM405", "SEM601"}
    for position, (code, claim) in enumerate(claims):
        for other_code, other in claims[position + 1 :]:
            assert other_code == code or not claim.overlaps(other), (code, other_code)


@pytest.mark.parametrize(
    ("kind", "fault", "path", "code"),
    [
        ("described_result", "unknown-key", ("provenance", "tz"), "SEM101"),
        ("define_tool", "snake-case-key", ("result_class",), "SEM102"),
        ("described_result", "says-nothing", (), "SEM104"),
        ("described_result", "empty", ("facts",), "SEM105"),
        ("described_result", "missing", ("facts", 0, "entity"), "SEM106"),
        ("described_result", "counter-unstated", ("grain", "isCounter"), "SEM302"),
        ("described_result", "missing", ("grain",), "SEM301"),
        ("described_result", "wrong-type", ("grain",), "SEM303"),
        ("described_result", "wrong-type", ("provenance",), "SEM202"),
        ("described_result", "missing", ("coverage", "cannotCover", 0, "why"), "SEM401"),
        ("described_result", "empty", ("coverage", "cannotCover", 0, "why"), "SEM405"),
        ("absent", "says-nothing", ("checked",), "SEM402"),
        ("absent", "empty", ("checked",), "SEM404"),
        ("coverage", "bad-value", ("period", "queried", "from"), "SEM406"),
        ("described_result", "bad-value", ("clarify", "question"), None),
        ("described_result", "wrong-type", ("render", "sort"), None),
        ("described_result", "wrong-type", ("render", "columns", 0), "SEM502"),
        ("described_result", "empty", ("render", "columns", 0), "SEM502"),
        ("define_tool", "empty", ("name",), None),
    ],
)
def test_the_rule_claiming_a_refusal_reports_it(
    kind: str, fault: str, path: tuple[object, ...], code: str | None
) -> None:
    from semantics_lint.runtime.envelope.refusal import Refusal

    refusal = Refusal("refused: x", path=path, kind=fault)
    assert specific_code(kind, refusal) == code
