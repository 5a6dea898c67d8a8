"""``semantics_lint.runtime`` offers the public names the README and docs/frameworks.md
use, and nothing heavy."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

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


DOCUMENTED_PATHS = {
    "semantics_lint.runtime.record": "semantics_lint.runtime.serving.record",
    "semantics_lint.runtime.tracing": "semantics_lint.runtime.serving.tracing",
    "semantics_lint.runtime.types": "semantics_lint.runtime.envelope.types",
    "semantics_lint.runtime.claims": "semantics_lint.runtime.claims.check",
    "semantics_lint.runtime.serving": "semantics_lint.runtime.serving.message",
}
"""The module paths the docs import from, and the module of the runtime's layers that holds
each."""


@pytest.mark.parametrize(("documented", "holder"), sorted(DOCUMENTED_PATHS.items()))
def test_a_documented_module_path_offers_its_module_s_public_names(documented: str, holder: str) -> None:
    offered, held = importlib.import_module(documented), importlib.import_module(holder)
    assert offered is not held
    assert offered.__all__ == held.__all__
    for name in held.__all__:
        assert getattr(offered, name) is getattr(held, name), name


def test_the_names_the_docs_import_from_a_module_path_are_there() -> None:
    from semantics_lint.runtime.claims import tool_call
    from semantics_lint.runtime.record import serve
    from semantics_lint.runtime.tracing import use_tracer_provider

    assert callable(serve) and callable(tool_call) and callable(use_tracer_provider)


def test_a_public_name_is_never_shadowed_by_a_module() -> None:
    # A submodule named like a public name would replace it on the package once imported.
    code = (
        "import sys, types, semantics_lint.runtime as runtime\n"
        "import semantics_lint.runtime.serving.record, semantics_lint.runtime.gate.command\n"
        "print(','.join(n for n in runtime.__all__ if isinstance(getattr(runtime, n), types.ModuleType)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == ""
    assert runtime.json_text({"a": 1.0}) == '{"a":1}'
