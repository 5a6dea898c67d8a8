"""The two doors on literal claim contracts: SEM701 and ``run_record(claims=...)``.

Hypothesis writes contracts with literals only (valid ones and every way to break one:
not a dict, empty, an answer field that is not text, an entry that is not a dict, an
entity or field missing, not text or blank, extra keys), each as
``with run_record(claims=<literal>)`` in a module. The linter lints the module; the
runtime judges the same value (read with ``ast.literal_eval``; the module is never
run). The linter reports SEM701 exactly when the runtime refuses, and its first
finding says what the runtime's refusal says.
"""

from __future__ import annotations

import ast
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from semantics_lint.lint.core.settings import LintSettings
from semantics_lint.lint.engine import lint_source
from semantics_lint.runtime.claims.check import claim_contract
from semantics_lint.runtime.envelope.refusal import Refusal

SETTINGS = LintSettings(enabled=frozenset({"SEM701"}))

texts = st.sampled_from(["fleet", "jobs_local", "", " ", "\u3000", "\n", "vm 1", "x"])
odd: st.SearchStrategy[Any] = st.sampled_from([None, 0, 1.5, True, [], ["fleet"], {}, ("a",)])
halves = st.one_of(texts, odd)
entries = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={"entity": halves, "field": halves, "note": texts},
    ),
    st.builds(lambda e, f: {"entity": e, "field": f}, texts, texts),
    odd,
    texts,
)
answer_fields = st.one_of(
    st.sampled_from(["protected_jobs", "report.jobs", "items.0.a", "", "x"]),
    st.sampled_from([1, None, 2.5, True]),
)
contracts = st.one_of(
    st.dictionaries(answer_fields, entries, max_size=4),
    st.lists(st.tuples(texts, entries), max_size=2),
    texts,
    odd,
)


def _module(contract: Any) -> str:
    return (
        "from semantics_lint.runtime import run_record\n\n"
        f"with run_record(claims={contract!r}) as run:\n"
        "    run.check_claims({})\n"
    )


def _runtime(contract: Any) -> Refusal | None:
    if contract is None:
        return None
    try:
        claim_contract(contract)
    except Refusal as refusal:
        return refusal
    return None


@settings(max_examples=600, deadline=None)
@given(contracts)
def test_the_doors_agree_on_every_literal_contract(contract: Any) -> None:
    source = _module(contract)
    read = ast.literal_eval(repr(contract))  # the value as the module holds it
    refusal = _runtime(read)
    findings = lint_source(source.encode("utf-8"), "tool.py", SETTINGS)
    assert bool(findings) == (refusal is not None), (source, refusal, findings)
    if refusal is not None:
        assert findings[0].message == str(refusal)


def test_a_contract_not_written_with_literals_is_left_to_the_runtime() -> None:
    source = (
        "from semantics_lint.runtime import run_record\n"
        "CONTRACT = load()\n"
        "with run_record(claims=CONTRACT) as run: pass\n"
        "with run_record(claims={**CONTRACT}) as run: pass\n"
        "with run_record(claims={'a': {'entity': name, 'field': other}}) as run: pass\n"
        "with run_record(claims={'a': {**base}}) as run: pass\n"
        "with run_record(claims=None) as run: pass\n"
        "BAD = {'a': {'entity': '', 'field': 'f'}}\n"
        "with run_record(claims=BAD) as run: pass  # a name: not followed (yet)\n"
    )
    assert lint_source(source.encode(), "tool.py", SETTINGS) == []


def test_each_refused_entry_is_reported_where_it_is_written() -> None:
    source = (
        "from semantics_lint import runtime\n"
        "with runtime.run_record(claims={'a': {'entity': '', 'field': 'f'},\n"
        "                                'b': 'fleet.jobs', 1: {'entity': 'e', 'field': 'f'},\n"
        "                                'c': {'entity': 'e'}}) as run: pass\n"
    )
    found = [(f.start.line, f.start.column) for f in lint_source(source.encode(), "t.py", SETTINGS)]
    assert found == [(2, 48), (3, 37), (3, 51), (4, 37)]


def test_a_file_with_only_a_contract_passes_the_prefilter() -> None:
    source = "from semantics_lint.runtime import run_record\nrun_record(claims={})\n"
    [finding] = lint_source(source.encode(), "t.py", SETTINGS)
    assert finding.message.startswith("refused: claims: the contract names no answer field")
