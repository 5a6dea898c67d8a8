"""Code that looks like ours but is not: wire records, coverage.py, unknown values (clean)."""

from __future__ import annotations

import coverage

from semantics_lint.runtime import absent, described_result

from .exports import load_rows

# A saved wire envelope is snake_case forever: it is data, not a declaration.
SAVED_RECORD = {
    "af_semantics": True,
    "facts": [{"entity": "vm-1"}],
    "provenance": {"measured_at": "2024-05-01T00:00:00Z", "source": "cohesity"},
    "grain": {"is_counter": False},
}


def measure_tests() -> None:
    cov = coverage.Coverage()
    cov.start()


def passthrough(facts: list[dict[str, object]], provenance: dict[str, str]) -> dict[str, object]:
    if not facts:
        return absent(what="rows to pass through", checked=["the rows the caller gave"])
    # Values the linter cannot resolve are the runtime checker's ground, never a finding.
    return described_result(facts=facts, provenance=provenance)


def spread(parts: dict[str, object]) -> dict[str, object]:
    rows = load_rows("things")
    if not rows:
        return absent(what="things", checked=["the things export"])
    return described_result(facts=rows, **parts)
