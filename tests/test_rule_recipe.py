"""A new rule written as ARCHITECTURE.md's "Where a new rule goes" says runs everywhere.

The package is copied to a scratch folder; one class is added to one family module
(``sem2xx_provenance.py``) and to that module's tuple, and no other module changes.
Before the generation step the copy runs the rule under ``semantics-lint check
--select`` (reported at the key it judges, in a part given as a name too) and under
flake8; after ``python -m semantics_lint.gen`` (the recipe's step 6), also in the
default run, in ``semantics-lint rule``, and in the language server. Each in a fresh
process.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_client import LspClient

import semantics_lint

NEW_RULE = '''

class SourceSaysUnknown(Rule):
    """
    ## What it does
    Reports a `provenance.source` written as the text `unknown`.

    ## Why is this bad?
    A source that says it is unknown names no system of record.
    """

    code = "SEM299"
    name = "provenance-source-says-unknown"
    judges = Selector(
        calls=frozenset({"described_result"}),
        parts=frozenset({"provenance"}),
        keys=frozenset({("provenance", "source")}),
        statuses=DATA_KEYS,
        named=frozenset({"provenance"}),
    )

    VALID = (Valid("described_result(facts=[], provenance={'measuredAt': t, 'source': 'cmdb'})\\n"),)
    INVALID = (
        Invalid(
            "described_result(facts=[], provenance={'measuredAt': t, 'source': 'unknown'})\\n",
            line=1,
            column=56,
            field="source",
        ),
    )

    def visit_field(self, check: Check, field: Field) -> None:
        if field.literal() == "unknown":
            check.report(field, f"`{field.path}` says the source is unknown", help="name the system of record")


PROVENANCE_RULES = (*PROVENANCE_RULES, SourceSaysUnknown)
'''

TOOL = (
    "from semantics_lint.runtime import described_result\n"
    "\n"
    "PROV = {'measuredAt': '2026-01-01T00:00:00Z', 'source': 'unknown'}\n"
    "\n"
    "\n"
    "def tool(rows, at):\n"
    "    first = described_result(facts=rows, provenance={'measuredAt': at, 'source': 'unknown'})\n"
    "    return first, described_result(facts=rows, provenance=PROV)\n"
)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("scratch-package")
    package = Path(semantics_lint.__file__).parent
    shutil.copytree(package, root / "semantics_lint", ignore=shutil.ignore_patterns("__pycache__"))
    family = root / "semantics_lint" / "lint" / "rules" / "sem2xx_provenance.py"
    family.write_text(family.read_text(encoding="utf-8") + NEW_RULE, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory, scratch: Path) -> Path:
    """Another copy with the new rule, after the recipe's generation step."""
    root = tmp_path_factory.mktemp("generated-package")
    shutil.copytree(scratch / "semantics_lint", root / "semantics_lint")
    made = _run(root, root, "-m", "semantics_lint.gen")
    assert made.returncode == 0, made.stdout + made.stderr
    wrote = {Path(line.removeprefix("wrote ")).name for line in made.stdout.splitlines()}
    assert {"vocabulary_codes.py", "rules.md"} <= wrote, made.stdout
    return root


def _run(scratch: Path, cwd: Path, *command: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(scratch)}
    return subprocess.run(
        [sys.executable, *command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_the_new_rule_runs_under_check_when_selected(scratch: Path, tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(TOOL, encoding="utf-8")
    where = _run(scratch, tmp_path, "-c", "import semantics_lint; print(semantics_lint.__file__)")
    assert where.stdout.startswith(str(scratch)), where.stdout + where.stderr
    found = _run(
        scratch,
        tmp_path,
        "-m",
        "semantics_lint",
        "check",
        "--no-cache",
        "--select",
        "SEM299",
        "tool.py",
    )
    assert found.returncode == 1, found.stdout + found.stderr
    lines = [line for line in found.stdout.splitlines() if "SEM299" in line]
    # At the key in the literal part; at the name for the part given as a name.
    assert lines == [
        "tool.py:7:72: SEM299 `provenance.source` says the source is unknown",
        "tool.py:8:59: SEM299 `provenance.source` says the source is unknown",
    ], found.stdout
    # Its examples hold in the copy, as the parametrized example test checks them.
    examples = _run(
        scratch,
        tmp_path,
        "-c",
        "from semantics_lint.lint.rules import get_rule\n"
        "from semantics_lint.lint.engine import lint_source\n"
        "rule = get_rule('SEM299')\n"
        "print([f.start for f in lint_source(rule.INVALID[0].source.encode(), 'x.py') if f.code == 'SEM299'])\n",
    )
    assert examples.stdout.strip() == "[Position(line=1, column=56)]", examples.stdout + examples.stderr


def test_the_new_rule_runs_in_flake8(scratch: Path, tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(TOOL, encoding="utf-8")
    found = _run(scratch, tmp_path, "-m", "flake8", "--isolated", "--select", "SEM299", "tool.py")
    assert "tool.py:7:72: SEM299 `provenance.source` says the source is unknown" in found.stdout, (
        found.stdout + found.stderr
    )


def test_after_generation_the_new_rule_runs_in_the_default_run(generated: Path, tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(TOOL, encoding="utf-8")
    found = _run(generated, tmp_path, "-m", "semantics_lint", "check", "--no-cache", "tool.py")
    assert found.returncode == 1, found.stdout + found.stderr
    assert "tool.py:7:72: SEM299 `provenance.source` says the source is unknown" in found.stdout, found.stdout
    # A family selects it too, and the rule command explains it from the generated docs.
    family = _run(
        generated,
        tmp_path,
        "-m",
        "semantics_lint",
        "check",
        "--no-cache",
        "--select",
        "SEM2",
        "tool.py",
    )
    assert "tool.py:8:59: SEM299" in family.stdout, family.stdout + family.stderr
    explained = _run(generated, tmp_path, "-m", "semantics_lint", "rule", "SEM299")
    assert explained.returncode == 0, explained.stderr
    assert "provenance-source-says-unknown" in explained.stdout
    assert "Reports a `provenance.source` written as the text `unknown`." in explained.stdout


@pytest.mark.slow
def test_after_generation_the_new_rule_reaches_the_language_server(generated: Path, tmp_path: Path) -> None:
    path = tmp_path / "tool.py"
    path.write_text(TOOL, encoding="utf-8")
    client = LspClient(tmp_path, env={"PYTHONPATH": str(generated)})
    try:
        client.initialize(tmp_path)
        uri = client.open(path, TOOL)
        diagnostics = client.diagnostics(uri, version=1)
        assert client.stop() == 0
    finally:
        client.kill()
    found = [(d["code"], d["range"]["start"]["line"]) for d in diagnostics if d["code"] == "SEM299"]
    assert found == [("SEM299", 6), ("SEM299", 7)], diagnostics
