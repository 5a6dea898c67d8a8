"""``semantics_lint.runtime`` offers the public names the README and docs/frameworks.md
use, and nothing heavy."""

from __future__ import annotations

import subprocess
import sys

from semantics_lint import runtime, vocabulary

PUBLIC_NAMES = (
    "semantic_issues",
    "read_semantics",
    "explain_semantics",
    "semantics_for_model",
    "compose_not_covered",
    "is_counter_looking_aggregation",
    "read_coverage_result",
    "check_semantics",
    "format_semantics_report",
    "coerce_semantics_catalog",
    "run_check_semantics_cli",
    "described_result",
    "absent",
    "coverage",
)
CONSTANTS = (
    "SEMANTICS_MARKER",
    "SEMANTICS_NOTE",
    "ABSENCE_MARKER",
    "ABSENCE_NOTE",
    "COVERAGE_MARKER",
    "COVERAGE_NOTE",
    "RESULT_CLASSES",
    "COUNTER_AGGREGATION_WORDS",
)


def test_every_public_name_is_exported_and_callable() -> None:
    for name in PUBLIC_NAMES:
        assert name in runtime.__all__, name
        assert callable(getattr(runtime, name)), name


def test_constants_are_the_vocabulary_s_own() -> None:
    for name in CONSTANTS:
        assert name in runtime.__all__, name
        assert getattr(runtime, name) is getattr(vocabulary, name), name


def test_all_lists_only_what_the_package_has() -> None:
    assert sorted(set(runtime.__all__)) == sorted(runtime.__all__)
    for name in runtime.__all__:
        assert hasattr(runtime, name), name


def test_the_public_mints_work_together() -> None:
    verdict = runtime.coverage(
        runtime.absent(what="FLOGI entries on fc1/3", checked=["the live fcns database"]),
        checked=["fabric A"],
    )
    reading = runtime.read_coverage_result(verdict)
    assert reading is not None and reading["status"] == "absent"
    assert [entry["kind"] for entry in reading["declared"]] == ["ledger", "absence"]


def test_importing_the_runtime_loads_no_linter_or_cli_machinery() -> None:
    code = (
        "import sys, semantics_lint.runtime\n"
        "print(','.join(m for m in ('libcst', 'astroid', 'click') if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == ""
