"""The unsupported-claim check against odd inputs: huge and deep answers, numbers at
the edges of a double, contracts that change under the check, literal contracts the
linter cannot see whole."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator, Mapping
from typing import Any

import pydantic
import pytest

from semantics_lint.lint.core.settings import LintSettings
from semantics_lint.lint.engine import lint_source
from semantics_lint.runtime import described_result, run_record
from semantics_lint.runtime.claims.check import ClaimRow, Disposition, claim_contract, unsupported_claims
from semantics_lint.runtime.envelope.json_text import NotJSON
from semantics_lint.runtime.envelope.refusal import Refusal
from semantics_lint.runtime.serving.record import serve

PASS, FAIL = Disposition.CHECKED_PASS, Disposition.CHECKED_FAIL
JOBS = {"jobs": {"entity": "fleet", "field": "jobs"}}
PROVENANCE: Any = {"measuredAt": "2026-03-01T06:00:00Z", "source": "catalog"}


def settle(*facts: dict[str, Any]) -> None:
    serve("status", described_result(facts=list(facts), provenance=PROVENANCE))


def row(value: Any, entity: str = "fleet", field: str = "jobs") -> ClaimRow:
    return ClaimRow(entity, field, value, "status", "c1", 1)


def verdict(answer: Any, settled: Any) -> Disposition:
    return unsupported_claims(JOBS, [row(settled)], {"jobs": answer}).dispositions[0][1]


# --- size and depth ----------------------------------------------------------------------


class CountedRows(list[ClaimRow]):
    """Rows that count how often the check walks them."""

    walks = 0

    def __iter__(self) -> Iterator[ClaimRow]:
        CountedRows.walks += 1
        return super().__iter__()


def test_the_rows_are_walked_once_however_many_claims() -> None:
    contract = {f"k{i}": {"entity": f"vm{i}", "field": "jobs"} for i in range(300)}
    rows = CountedRows(row(i, entity=f"vm{i}") for i in range(300))
    CountedRows.walks = 0
    check = unsupported_claims(contract, rows, {f"k{i}": i + i % 2 for i in range(300)})
    assert len(check.findings) == 150
    assert CountedRows.walks <= 1


def test_a_run_of_many_claims_and_findings_is_checked_in_linear_time() -> None:
    n = 20_000
    contract = {f"k{i}": {"entity": f"vm{i}", "field": "jobs"} for i in range(n)}
    with run_record(claims=contract) as run:
        settle(*({"entity": f"vm{i}", "jobs": i} for i in range(n)))
        start = time.perf_counter()
        check = run.check_claims({f"k{i}": i + 1 for i in range(n)})
        elapsed = time.perf_counter() - start
    assert len(check.contradictions) == n
    # Quadratic work (a walk of every row per claim or per finding) takes minutes here.
    assert elapsed < 20, elapsed


@dataclasses.dataclass
class Node:
    child: Node | None


def test_a_deep_dataclass_answer_is_refused_as_not_json_not_a_recursion_error() -> None:
    deep = Node(None)
    for _ in range(1_500):
        deep = Node(deep)
    with run_record(claims={"child": {"entity": "fleet", "field": "jobs"}}) as run:
        with pytest.raises(NotJSON, match="nested deeper"):
            run.check_claims(deep)
        run.check_claims({})


@pytest.mark.parametrize("references", [1, 2])
def test_an_answer_that_contains_itself_is_refused_at_once(references: int) -> None:
    answer: dict[str, Any] = {"jobs": 1}
    for name in ("self", "again")[:references]:
        answer[name] = answer
    with run_record(claims=JOBS) as run:
        with pytest.raises(NotJSON, match="contains itself"):
            run.check_claims(answer)
        with pytest.raises(NotJSON, match="contains itself"):
            run.check_claims([Node(None), answer])
        node = Pair(None, None)
        node.left = node.right = node  # the walk would fan out twice at each step
        with pytest.raises(NotJSON, match="is a Pair"):
            run.check_claims(node)
        run.check_claims({})


@dataclasses.dataclass
class Pair:
    left: Pair | None
    right: Pair | None


@dataclasses.dataclass
class Inner:
    jobs: int
    tags: tuple[str, ...]


@dataclasses.dataclass
class Outer:
    report: Inner
    by_vm: dict[str, Inner]


def test_nested_dataclasses_are_read_as_their_fields() -> None:
    contract = {
        "report.jobs": {"entity": "fleet", "field": "jobs"},
        "report.tags.1": {"entity": "fleet", "field": "tag"},
        "by_vm.vm1.jobs": {"entity": "vm1", "field": "jobs"},
    }
    with run_record(claims=contract) as run:
        settle({"entity": "fleet", "jobs": 331, "tag": "b"}, {"entity": "vm1", "jobs": 2})
        check = run.check_claims(Outer(Inner(331, ("a", "b")), {"vm1": Inner(3, ())}))
    assert [d for _, d in check.dispositions] == [PASS, PASS, FAIL]


class Chain(pydantic.BaseModel):
    child: Chain | None = None
    extra: Any = None


@pytest.mark.parametrize("deep", [True, False])
def test_a_model_its_serializer_cannot_write_is_refused_as_not_json(deep: bool) -> None:
    answer = Chain(extra=object())
    if deep:
        answer = Chain()
        for _ in range(1_500):
            answer = Chain(child=answer)
    with run_record(claims={"child": {"entity": "fleet", "field": "jobs"}}) as run:
        with pytest.raises(NotJSON, match="^answer "):
            run.check_claims(answer)
        run.check_claims({})


def test_json_text_is_held_to_the_rules_of_a_mapping_answer() -> None:
    deep = '{"jobs": 2, "deep": ' + "[" * 5_000 + "]" * 5_000 + "}"
    shallow_deep = '{"jobs": 2, "deep": ' + "[" * 300 + "]" * 300 + "}"
    with run_record(claims=JOBS) as run:
        settle({"entity": "fleet", "jobs": 1})
        for text in (deep, shallow_deep):
            with pytest.raises(NotJSON, match="nested deeper"):
                run.check_claims(text)
        with pytest.raises(NotJSON, match="nested deeper"):
            run.check_claims(json.loads(shallow_deep))
        run.check_claims("{}")


def test_a_number_literal_past_a_double_in_json_text_reads_as_infinity() -> None:
    # JSON.parse reads 400 digits as Infinity; the answer's other fields are still read.
    text = '{"jobs": 2, "huge": ' + "9" * 5_000 + ', "big": -' + "9" * 400 + "}"
    with run_record(claims={**JOBS, "huge": {"entity": "fleet", "field": "huge"}}) as run:
        settle({"entity": "fleet", "jobs": 1, "huge": 1})
        check = run.check_claims(text)
    assert [d for _, d in check.dispositions] == [FAIL, FAIL]
    assert "claims null but" in check.findings[1].message  # JSON.stringify(Infinity)


# --- numbers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claimed", "settled"),
    [(1e21, 10**21), (float(2**60), 2**60), ([1e21], [10**21]), ({"n": 2.0**70}, {"n": 2**70})],
)
def test_a_float_and_an_int_of_one_value_agree_past_two_to_the_53(claimed: Any, settled: Any) -> None:
    assert verdict(claimed, settled) == PASS
    assert verdict(settled, claimed) == PASS


def test_ints_past_two_to_the_53_compare_exactly_as_text_too() -> None:
    settled = 2**53 + 1
    assert verdict(2**53, settled) == FAIL  # the documented exact comparison
    assert verdict(float(2**53), settled) == FAIL
    for text in ("9007199254740992", " 9.007199254740992e15 ", "0x20000000000000"):
        assert verdict(text, settled) == FAIL, text
    for text in (
        "9007199254740993",
        "9007199254740993.0",
        "0x20000000000001",
        "+9.007199254740993e15",
    ):
        assert verdict(text, settled) == PASS, text
    # A settled double is compared as the double it is, as JavaScript compares it.
    assert verdict("9007199254740993", float(2**53)) == PASS
    assert verdict("0.1", 0.1) == PASS


# --- the contract -----------------------------------------------------------------------


class Shifty(Mapping[str, Any]):
    """An entry that answers differently each time it is read."""

    def __init__(self) -> None:
        self.reads = 0

    def __getitem__(self, key: str) -> Any:
        self.reads += 1
        return "fleet" if self.reads <= 2 else 5

    def __contains__(self, key: object) -> bool:
        return key in ("entity", "field")

    def __iter__(self) -> Iterator[str]:
        return iter(("entity", "field"))

    def __len__(self) -> int:
        return 2


class Agreeable(str):
    """Text that says it equals anything."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


def test_each_half_of_an_entry_is_read_once_and_kept_as_plain_text() -> None:
    [claim] = claim_contract({Agreeable("jobs"): Shifty()})
    assert (claim.entity, claim.field) == ("fleet", "fleet")
    assert all(type(text) is str for text in claim)
    [claim] = claim_contract({"jobs": {"entity": Agreeable("fleet"), "field": Agreeable("jobs")}})
    assert all(type(text) is str for text in claim)
    check = unsupported_claims([claim], [row(1, entity="vm9", field="other")], {"jobs": 2})
    assert check.dispositions == (("jobs", Disposition.UNREACHABLE),)


@pytest.mark.parametrize("contract", ["jobs", b"jobs", 5, None])
def test_the_pure_check_refuses_a_contract_that_is_not_a_mapping_as_run_record_does(
    contract: Any,
) -> None:
    with pytest.raises(Refusal, match="^refused: claims: a contract maps answer fields"):
        unsupported_claims(contract, [row(1)], {"jobs": 1})


# --- SEM701 -----------------------------------------------------------------------------

SETTINGS = LintSettings(enabled=frozenset({"SEM701"}))


def lint(contract: str) -> list[tuple[int, int]]:
    source = f"from semantics_lint.runtime import run_record\nrun_record(claims={contract})\n"
    return [(f.start.line, f.start.column) for f in lint_source(source.encode(), "t.py", SETTINGS)]


@pytest.mark.parametrize(
    "contract",
    [
        "{'a': {'entity': '', 'field': 'f'}, **base}",
        "{'a': {'entity': '', 'field': 'f'}, name: {'entity': 'e', 'field': 'f'}}",
        "{'a': {'entity': '', **rest, 'field': 'f'}}",
        "{'a': {'entity': '', key: 'v', 'field': 'f'}}",
    ],
)
def test_an_entry_a_later_spread_or_computed_key_may_replace_is_not_judged(contract: str) -> None:
    assert lint(contract) == []


@pytest.mark.parametrize(
    "contract",
    [
        "{**base, 'a': {'entity': '', 'field': 'f'}}",
        "{'a': {**rest, 'entity': ''}}",
        "{'a': {'entity': 'e', key: 'v', 'field': ''}}",
        "dict(base, a={'entity': '', 'field': 'f'})",
        "{'a': dict(rest, entity='')}",
    ],
)
def test_an_entry_written_after_every_spread_is_still_judged(contract: str) -> None:
    assert len(lint(contract)) == 1


def test_of_keys_that_are_one_key_the_first_written_is_named_as_the_runtime_names_it() -> None:
    source = (
        "from semantics_lint.runtime import run_record\n"
        "run_record(claims={1: {'entity': 'e', 'field': 'f'}, True: {'entity': 'e', 'field': 'f'}})\n"
    )
    [finding] = lint_source(source.encode(), "t.py", SETTINGS)
    with pytest.raises(Refusal) as refused:
        claim_contract(dict([(1, {"entity": "e", "field": "f"}), (True, {"entity": "e", "field": "f"})]))
    assert finding.message == str(refused.value)


def test_a_half_written_twice_is_reported_where_the_dict_keeps_it() -> None:
    for contract in (
        "{'a': {'entity': 'e', 'field': 'f', 'entity': ''}}",
        "{'a': {'entity': name, 'field': 'f', 'entity': ''}}",
    ):
        assert lint(contract) == [(2, len("run_record(claims=") + contract.rindex("''"))]
