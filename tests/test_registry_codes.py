"""A rule added to the registry is known at once: no generation step first.

``vocabulary.RULE_CODES`` is generated from the registry (``python -m
semantics_lint.gen``) and is the fast path: a run whose files all fail the prefilter
never imports the rules. Where the list does not know a code (a ``--select`` of a new
rule, a ``# noqa`` naming it), the registry is asked. Each run here is a fresh process
whose registry holds one more rule, ``SEM999``, than the generated list.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from semantics_lint import vocabulary

SCRATCH_REGISTRY = '''
import sys

from semantics_lint.lint import rules
from semantics_lint.lint.rules.base import Invalid, Rule, Valid


class ScratchRule(Rule):
    """
    ## What it does
    Reports every call of ours (a rule for this test only).

    ## Why is this bad?
    It is not: the rule shows that a new code is known without a generation step.
    """

    code = "SEM999"
    name = "scratch-rule"
    VALID = (Valid("x = 1"),)
    INVALID = (Invalid("described_result(facts=[])", line=1, column=0),)

    def visit_module(self, check):
        for call in check.file.calls:
            check.report_ast(call.node.func, "a scratch finding")


if sys.argv[1] == "registered":
    rules.ALL_RULES = (*rules.ALL_RULES, ScratchRule)
    rules._BY_CODE[ScratchRule.code] = ScratchRule
if sys.argv[2] == "flake8":
    from flake8.main.cli import main

    sys.exit(main(sys.argv[3:]))
from semantics_lint.cli.check import main

main(["check", *sys.argv[3:]])
'''

TOOL = (
    "from semantics_lint.runtime import described_result\n"
    "\n"
    "\n"
    "def tool(rows, at):\n"
    "    return described_result(facts=rows, provenance={'measuredAt': at, 'source': 's'})\n"
)


def run(tmp_path: Path, registry: str, frontend: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SCRATCH_REGISTRY, registry, frontend, *arguments],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


@pytest.fixture
def tool(tmp_path: Path) -> Path:
    assert "SEM999" not in vocabulary.RULE_CODES
    path = tmp_path / "tool.py"
    path.write_text(TOOL, encoding="utf-8")
    return path


def test_select_runs_a_rule_the_generated_list_does_not_hold(tmp_path: Path, tool: Path) -> None:
    found = run(tmp_path, "registered", "check", "--no-cache", "--select", "SEM999", tool.name)
    assert found.returncode == 1, found.stderr
    assert "tool.py:5:12: SEM999 a scratch finding" in found.stdout, found.stdout
    # Without the rule in the registry, the code names no rule.
    missing = run(tmp_path, "unregistered", "check", "--no-cache", "--select", "SEM999", tool.name)
    assert missing.returncode == 2 and "'SEM999' matches no rule" in missing.stderr, missing.stderr


def test_noqa_names_a_rule_the_generated_list_does_not_hold(tmp_path: Path, tool: Path) -> None:
    tool.write_text(TOOL.replace("'s'})\n", "'s'})  # noqa: SEM999\n"), encoding="utf-8")
    quiet = run(tmp_path, "registered", "check", "--no-cache", "--select", "SEM999,SEM002", tool.name)
    assert quiet.returncode == 0 and "SEM" not in quiet.stdout, quiet.stdout + quiet.stderr
    # Unknown to the registry too, the code is "no such rule".
    unknown = run(tmp_path, "unregistered", "check", "--no-cache", "--select", "SEM002", tool.name)
    assert "SEM002" in unknown.stdout and "no such rule: `SEM999`" in unknown.stdout, unknown.stdout


def test_flake8_runs_a_rule_the_generated_list_does_not_hold(tmp_path: Path, tool: Path) -> None:
    found = run(tmp_path, "registered", "flake8", "--isolated", "--select", "SEM999", tool.name)
    assert "tool.py:5:12: SEM999 a scratch finding" in found.stdout, found.stdout + found.stderr
