"""The multi-module example project: every rule through names and imports as on literals.

``testdata/project/fleet`` plants each defect three times — in the call, through a name
of the same module, through an import — with ``# expect: CODE`` on the line it must be
reported on, and holds modules of names that must never be followed (no finding at
all).

Only codes of registered rules are compared: a rule family that has not landed yet
has nothing to report, and the moment it lands its expectations here apply.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from semantics_lint.lint.core.model import Finding
from semantics_lint.lint.engine import lint_file
from semantics_lint.lint.rules import ALL_RULES

PROJECT = Path(__file__).resolve().parent.parent / "testdata" / "project"
PACKAGE = PROJECT / "fleet"
MODULES = sorted(PACKAGE.glob("*.py"))
REGISTERED = frozenset(rule.code for rule in ALL_RULES)
THROUGH_A_NAME = ("named_tools.py", "imported_tools.py")
_MARK = re.compile(r"#\s*expect:\s*([A-Z0-9, ]+)")

Site = tuple[str, int, str]  # file name, line, code


def marks() -> Counter[Site]:
    """Every ``# expect:`` mark of the project, one entry per code."""
    found: Counter[Site] = Counter()
    for path in MODULES:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for codes in _MARK.findall(line):
                for code in codes.split(","):
                    found[(path.name, number, code.strip())] += 1
    return found


@pytest.fixture(scope="module")
def findings() -> list[Finding]:
    result: list[Finding] = []
    for path in MODULES:
        result.extend(lint_file(path))
    return result


def sites(findings: list[Finding]) -> Counter[Site]:
    return Counter((Path(f.filename).name, f.start.line, f.code) for f in findings)


def test_the_project_holds_every_kind_of_case() -> None:
    names = {path.name for path in MODULES}
    assert {"literal_tools.py", "named_tools.py", "imported_tools.py"} <= names
    assert {"ambiguous_tools.py", "star_tools.py", "cycle_tools.py"} <= names
    assert len(marks()) >= 29


def test_every_planted_defect_and_nothing_else(findings: list[Finding]) -> None:
    expected = Counter({site: n for site, n in marks().items() if site[2] in REGISTERED})
    reported = sites(findings)
    missing = expected - reported
    extra = reported - expected
    assert not missing and not extra, (
        f"missing: {sorted(missing)}\nunexpected: "
        f"{sorted((s, f.message) for f in findings for s in [(Path(f.filename).name, f.start.line, f.code)] if s in extra)}"
    )


def test_ambiguous_names_give_no_finding_at_all(findings: list[Finding]) -> None:
    quiet = {"ambiguous_tools.py", "star_tools.py", "cycle_tools.py", "cycle_a.py", "cycle_b.py"}
    assert [f for f in findings if Path(f.filename).name in quiet] == []


def test_each_rule_fires_through_names_as_on_literals() -> None:
    def codes(name: str) -> set[str]:
        return {code for (file, _, code) in marks() if file == name}

    literal = codes("literal_tools.py")
    assert literal >= {
        "SEM105",
        "SEM203",
        "SEM204",
        "SEM205",
        "SEM601",
        "SEM602",
        "SEM603",
        "SEM604",
    }
    for name in THROUGH_A_NAME:
        assert codes(name) == literal, name


def test_findings_through_a_name_say_where_the_value_was_bound(findings: list[Finding]) -> None:
    # The class rules (SEM602/603) and SEM604 are about the call, not about one value.
    valued = {"SEM105", "SEM203", "SEM204", "SEM205", "SEM601"}
    checked = 0
    for finding in findings:
        name = Path(finding.filename).name
        if finding.code not in valued or name not in THROUGH_A_NAME:
            continue
        where = r"\bline \d+" if name == "named_tools.py" else r"fleet/(constants|base)\.py:\d+"
        assert re.search(where, finding.help or ""), finding
        checked += 1
    assert checked >= sum(
        1 for (file, _, code) in marks() if file in THROUGH_A_NAME and code in valued and code in REGISTERED
    )


def test_findings_are_reported_at_the_use_in_the_call(findings: list[Finding]) -> None:
    for finding in findings:
        if Path(finding.filename).name != "imported_tools.py" or finding.code != "SEM203":
            continue
        line = (
            (PACKAGE / "imported_tools.py").read_text(encoding="utf-8").splitlines()[finding.start.line - 1]
        )
        used = line[finding.start.column : finding.end.column]
        assert used in ("EXPORT_DATE", "fleet.constants.REPORTING_DAY", "constants.EXPORT_STAMP")


_PROBE = """\
import sys
from semantics_lint.lint.engine import lint_file
for path in sys.argv[1:]:
    lint_file(path)
print("astroid" in sys.modules)
"""


def _astroid_imported(*paths: Path) -> bool:
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, *map(str, paths)],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip() == "True"


def test_astroid_is_paid_for_only_by_the_module_that_imports_values() -> None:
    assert not _astroid_imported(PACKAGE / "literal_tools.py", PACKAGE / "named_tools.py")
    assert _astroid_imported(PACKAGE / "imported_tools.py")
