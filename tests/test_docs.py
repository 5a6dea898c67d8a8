"""The rule reference is generated from the rule classes and must not drift."""

from __future__ import annotations

import pytest

from semantics_lint import gen
from semantics_lint.lint.rule_docs import docstring_sections, render_all, render_rule
from semantics_lint.lint.rules import ALL_RULES, Rule


def test_docs_rules_md_has_not_drifted() -> None:
    assert gen.RULES_DOC.is_file(), "docs/rules.md is missing; run: python -m semantics_lint.gen"
    shipped = gen.RULES_DOC.read_text(encoding="utf-8")
    assert shipped == render_all(), (
        "docs/rules.md drifted from the rule classes; run: python -m semantics_lint.gen"
    )


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda rule: rule.code)
def test_every_rule_page_has_the_ruff_sections(rule: type[Rule]) -> None:
    page = render_rule(rule.code)
    assert page.startswith(f"# {rule.code}: {rule.name}\n")
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert heading in page
    assert f"Severity: {'error' if rule.severity.value == 'E' else 'warning'}" in page
    assert rule.INVALID[0].source.rstrip("\n") in page
    if rule.fix != "none":
        assert f"Fix: {rule.fix}" in page
    if rule.fix == "unsafe":
        assert "## Fix safety" in page


def test_use_instead_shows_the_fixed_form_when_there_is_one() -> None:
    page = render_rule("SEM102")
    example = next(rule for rule in ALL_RULES if rule.code == "SEM102").INVALID[0]
    assert example.fixed is not None
    instead = page[page.index("## Use instead") :]
    assert example.fixed.rstrip("\n") in instead
    assert example.source.rstrip("\n") not in instead


def test_render_rule_accepts_lower_case_and_rejects_unknown_codes() -> None:
    assert render_rule("sem101").startswith("# SEM101")
    with pytest.raises(KeyError):
        render_rule("SEM999")


def test_docstring_sections_are_split_by_heading() -> None:
    sections = docstring_sections(next(r for r in ALL_RULES if r.code == "SEM101"))
    assert list(sections)[:2] == ["What it does", "Why is this bad?"]
    assert "close match" in sections["What it does"]
