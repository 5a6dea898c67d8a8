"""The serving seam under hostile use: odd values, threads, late tasks, cancellation.

Whatever a tool returns and wherever it is served from, the seam either serves text
the model can read or hands the value back to the framework (``NotJSON``); the run
record keeps snapshots, from every thread of the run, and never changes once closed.
"""

from __future__ import annotations

import asyncio
import builtins
import contextvars
import datetime
import decimal
import json
import sys
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from semantics_lint.frameworks._common import call_prepared, prepare
from semantics_lint.runtime import (
    SEMANTICS_MARKER,
    Kind,
    NotJSON,
    Refusal,
    SemanticsWarning,
    absent,
    compose_answer_with_coverage,
    described_result,
    refusal_message,
    run_record,
    tool_message,
)
from semantics_lint.runtime.envelope import parts as envelope_module
from semantics_lint.runtime.serving.record import current_run, record_served


def backup(vm: str = "vm1", price: object = 1.0) -> dict[str, Any]:
    return described_result(
        facts=[{"entity": vm, "price": price}],
        provenance={"measuredAt": "2024-05-01T00:00:00Z", "source": "billing export"},
        coverage={
            "checked": ["every invoice"],
            "cannotCover": [{"what": "PPDM", "why": "not collected"}],
        },
    )


# --- odd values ------------------------------------------------------------------------


def test_the_kind_is_an_enum_equal_to_its_text() -> None:
    message = tool_message(backup())
    assert message.kind is Kind.SEMANTICS and message.kind == "semantics"
    assert str(message.kind) == "semantics" and f"{message.kind}" == "semantics"


def test_a_lone_surrogate_is_served_as_valid_utf8() -> None:
    message = tool_message({"name": "cut\ud800here"})
    assert message.text == '{"name":"cut\\ud800here"}'
    message.text.encode("utf-8")
    # Outside JSON text a lone surrogate is the text of its escape: one policy everywhere.
    assert tool_message("raw \udcff text").text == "raw \\udcff text"


def test_keys_that_would_become_one_once_escaped_are_refused_naming_them() -> None:
    # Two keys that differ only in lone surrogates stay apart ...
    # (built from pairs: a linter that reads the two keys as U+FFFD calls them one)
    keys = [("r\udcffport", 1), ("r\udcfeport", 2)]
    apart = tool_message(dict(keys))
    assert json.loads(apart.text) == dict(keys)
    # ... but one beside the text of its own escape would be one key on the wire.
    clash = {"r\udcffport": 1, "r\\udcffport": 2}
    with pytest.raises(NotJSON, match="two keys"):
        tool_message(clash)
    absence = {
        "af_absent": True,
        "outcome": "nothing_found",
        "looked_for": "runs",
        "checked": [{"what": "export"}],
    }
    message = tool_message({**absence, "files": clash})
    assert message.is_error and message.text.startswith("refused: the tool's result cannot be sent as JSON: ")
    assert "files has two keys" in message.text and "r\\\\udcffport" in message.text


def test_numbers_are_written_as_javascript_writes_them() -> None:
    message = tool_message(backup(price=100.0))
    assert '"price":100' in message.text and "100.0" not in message.text
    assert tool_message({"v": [float("nan"), -0.0, 1e-7, 1e16]}).text == (
        '{"v":[null,0,1e-7,10000000000000000]}'
    )


def test_a_hand_built_envelope_json_cannot_carry_is_an_error_result() -> None:
    value = dict(backup())
    value["facts"] = [{"entity": "vm1", "price": decimal.Decimal("1.5")}]
    message = tool_message(value)
    assert message.is_error and message.kind is Kind.REFUSAL
    assert message.text.startswith("refused: the tool's result cannot be sent as JSON: ")
    assert "facts[0].price is a Decimal" in message.text


class _Unshown:
    """A key whose own ``__repr__`` fails."""

    def __repr__(self) -> str:
        raise RuntimeError("repr failed")


class _OddInt(int):
    """An int key whose own ``__int__`` and ``__repr__`` fail."""

    def __int__(self) -> int:
        raise RuntimeError("int failed")

    def __repr__(self) -> str:
        raise RuntimeError("repr failed")


def test_a_key_whose_own_methods_fail_is_still_judged_as_json_judges_it() -> None:
    absence = {
        "af_absent": True,
        "outcome": "nothing_found",
        "looked_for": "runs",
        "checked": [{"what": "export"}],
    }
    message = tool_message({**absence, _Unshown(): 1})
    assert message.is_error and message.kind is Kind.REFUSAL
    assert message.text.startswith("refused: the tool's result cannot be sent as JSON: ")
    assert "a _Unshown (<_Unshown>)" in message.text
    # An int key is written as the int it holds, whatever its class says of itself.
    assert json.loads(tool_message({_OddInt(7): "x"}).text) == {"7": "x"}


class _Unwalkable(list):  # type: ignore[type-arg]
    """A list whose own ``__iter__`` fails."""

    def __iter__(self) -> Any:
        raise RuntimeError("iteration failed")


class _Undatable(datetime.datetime):
    """A datetime whose own ``isoformat`` fails."""

    def isoformat(self, *args: Any, **kwargs: Any) -> str:
        raise RuntimeError("isoformat failed")


class _Unitemised(dict):  # type: ignore[type-arg]
    """A dict whose own ``items`` fails."""

    def items(self) -> Any:
        raise RuntimeError("items failed")


@pytest.mark.parametrize(
    ("odd", "where"),
    [
        (_Unwalkable([1]), "facts[0].runs"),
        (_Undatable(2024, 5, 1), "facts[0].runs"),
        (_Unitemised(a=1), "facts[0].runs"),
        ([1, [2, _Unwalkable()]], "facts[0].runs[1][1]"),
    ],
    ids=["list __iter__", "datetime isoformat", "dict items", "nested"],
)
def test_a_value_whose_own_methods_fail_mid_walk_is_the_refusal_text(odd: object, where: str) -> None:
    value = dict(backup())
    value["facts"] = [{"entity": "vm1", "runs": odd}]
    message = tool_message(value)
    assert message.is_error and message.kind is Kind.REFUSAL
    assert message.text.startswith("refused: the tool's result cannot be sent as JSON: ")
    assert f"{where} is a _Un" in message.text
    # Without a marker the value is not JSON data: the framework's to write.
    with pytest.raises(NotJSON) as raised:
        tool_message({"runs": odd})
    assert raised.value.path == "runs" + where.removeprefix("facts[0].runs")


@pytest.mark.parametrize(
    "value",
    [{"ids": {1, 2}}, {1: "a", "1": "b"}, {(1, 2): 3}, decimal.Decimal(1), {"n": 2**2000}, b"x"],
    ids=["set", "colliding keys", "tuple key", "Decimal", "huge int", "bytes"],
)
def test_data_json_cannot_carry_goes_back_to_the_framework(value: object) -> None:
    with pytest.raises(NotJSON) as raised:
        tool_message(value)
    assert isinstance(raised.value, TypeError)


def test_cycles_and_deep_nesting_are_refused_not_a_recursion_error() -> None:
    loop: dict[str, Any] = {}
    loop["self"] = loop
    deep: list[Any] = []
    cursor = deep
    for _ in range(10_000):
        cursor.append([])
        cursor = cursor[0]
    for value in (loop, deep):
        with pytest.raises(NotJSON):
            tool_message(value)
    marked = {SEMANTICS_MARKER: True, "facts": deep}
    assert tool_message(marked).is_error


def test_the_envelope_is_judged_once_per_served_result(monkeypatch: pytest.MonkeyPatch) -> None:
    envelope = backup()
    calls: list[object] = []
    judge = envelope_module.faults_in

    def counted(value: object, *args: Any) -> Any:
        calls.append(value)
        return judge(value, *args)

    monkeypatch.setattr(envelope_module, "faults_in", counted)
    prepared = prepare(lambda: envelope, name="backup")
    with run_record() as run:
        call_prepared(prepared)
    assert len(calls) == 1
    assert run.declared[0]["cannotCover"] == [{"what": "PPDM", "why": "not collected"}]


# --- the record ------------------------------------------------------------------------


def test_each_entry_is_a_snapshot_taken_when_served() -> None:
    value = {"rows": [1, 2]}
    with run_record() as run:
        record_served("t", tool_message(value))
        value["rows"].append(3)
        value["late"] = True
    assert run.results == [{"tool": "t", "kind": "data", "record": {"rows": [1, 2]}}]


def test_the_record_shares_nothing_with_the_message_the_framework_is_handed() -> None:
    # LangChain's artifact and Pydantic AI's metadata are the message's record: an
    # application that edits its message history must not rewrite the run.
    with run_record() as run:
        message = tool_message(backup())
        record_served("t", message)
    message.record["facts"][0]["entity"] = "edited"
    message.record["coverage"]["checked"][0]["what"] = "never said by the tool"
    assert run.results[0]["record"]["facts"][0]["entity"] == "vm1"
    assert run.declared[0]["checked"] == [{"what": "every invoice"}]


@pytest.mark.parametrize("odd", [0, 1.5, True, "every job", {"what": "x"}])
def test_a_hand_built_ledger_with_odd_lists_is_recorded_as_found_and_the_run_goes_on(
    odd: object,
) -> None:
    ledger = {"af_coverage": {"checked": odd, "cannot_cover": odd}, "result": {"hosts": 3}}
    with run_record() as run:
        record_served("scan", tool_message(ledger))
    assert run.declared == [
        {"tool": "scan", "kind": "ledger", "checked": odd, "notChecked": [], "cannotCover": odd}
    ]
    assert compose_answer_with_coverage("done", run.declared).startswith("done")


def test_a_hand_built_items_other_keys_are_not_recorded() -> None:
    # The reference records each declared item as its what and, when given, its why.
    items = [
        {"what": "db1", "why": None, "owner": "ops"},
        {"what": "db2", "note": "x"},
        "db3",
        {"what": "db4"},
    ]
    ledger = {"af_coverage": {"checked": items}, "result": {"hosts": 3}}
    with run_record() as run:
        message = tool_message(ledger)
        record_served("scan", message)
    assert run.declared[0]["checked"] == [
        {"what": "db1", "why": None},
        {"what": "db2"},
        {"what": "db3"},
        {"what": "db4"},
    ]
    assert run.results[0]["record"] == message.record  # the result itself is kept whole


def test_a_closed_run_never_changes() -> None:
    async def main() -> Any:
        started = asyncio.Event()
        release = asyncio.Event()

        async def outliving() -> None:
            started.set()
            await release.wait()
            record_served("late", tool_message(1))

        with run_record() as run:
            task = asyncio.create_task(outliving())
            await started.wait()
        release.set()
        with pytest.warns(SemanticsWarning, match="after its run_record"):
            await task
        return run

    run = asyncio.run(main())
    assert run.closed and run.results == []


def test_runs_ended_out_of_order_raise() -> None:
    def misuse() -> None:
        outer = run_record()
        inner = run_record()
        outer.__enter__()
        inner_run = inner.__enter__()
        with pytest.raises(RuntimeError, match="still open"):
            outer.__exit__(None, None, None)
        with pytest.raises(RuntimeError):
            inner.__exit__(None, None, None)
        assert inner_run.closed

    contextvars.copy_context().run(misuse)  # the misuse leaves this test's context alone
    assert current_run() is None


def _serve_in(where: str, seen: dict[str, Any]) -> None:
    """Serve a result from ``where``, noting in ``seen`` the run it is recorded into."""
    seen[where] = current_run()
    record_served(where, tool_message({"from": where}))


def test_results_from_worker_threads_of_the_run_are_recorded() -> None:
    seen: dict[str, Any] = {}

    async def main() -> Any:
        with run_record() as run:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, _serve_in, "executor", seen)
            with ThreadPoolExecutor(2) as pool:
                list(pool.map(_serve_in, ["pool-1", "pool-2"], [seen, seen]))
            thread = threading.Thread(target=_serve_in, args=("thread", seen))
            thread.start()
            thread.join()
            await asyncio.to_thread(_serve_in, "to_thread", seen)
        return run

    run = asyncio.run(main())
    where = ["executor", "pool-1", "pool-2", "thread", "to_thread"]
    assert sorted(r["tool"] for r in run.results) == where
    assert seen == dict.fromkeys(where, run)


def test_unrelated_open_runs_leave_a_bare_thread_unrecorded_and_bind_carries_a_run() -> None:
    first_open = threading.Event()
    release = threading.Event()
    runs: dict[str, Any] = {}
    seen: dict[str, Any] = {}

    def other_request() -> None:
        with run_record() as run:
            runs["other"] = run
            first_open.set()
            release.wait(timeout=300)

    request = threading.Thread(target=other_request)
    request.start()
    first_open.wait(timeout=300)
    try:
        with run_record() as run:
            thread = threading.Thread(target=_serve_in, args=("bare", seen))
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                thread.start()
                thread.join()
            assert any("run.bind" in str(w.message) for w in caught)
            with ThreadPoolExecutor(1) as pool:
                pool.submit(run.bind(_serve_in), "bound", seen).result()
    finally:
        release.set()
        request.join()
    assert [r["tool"] for r in run.results] == ["bound"]
    assert seen == {"bare": None, "bound": run}
    assert runs["other"].results == []


def test_records_from_many_threads_at_once_are_all_kept() -> None:
    with run_record() as run, ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda i: record_served(f"t{i}", tool_message(i)), range(400)))
    assert sorted(int(r["tool"][1:]) for r in run.results) == list(range(400))


# --- refusals --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "error",
    [
        asyncio.CancelledError("refused: stop"),
        KeyboardInterrupt("refused: x"),
        SystemExit("refused: y"),
    ],
    ids=["cancelled", "interrupt", "exit"],
)
def test_a_base_exception_is_never_a_refusal(error: BaseException) -> None:
    assert refusal_message(error) is None


_GROUPS = pytest.mark.skipif(sys.version_info < (3, 11), reason="exception groups came in Python 3.11")


@_GROUPS
def test_an_exception_group_of_refusals_is_served_as_their_texts() -> None:
    ExceptionGroup = builtins.ExceptionGroup
    BaseExceptionGroup = builtins.BaseExceptionGroup
    group = ExceptionGroup("tools", [Refusal("refused: a is empty"), ValueError("refused: b")])
    message = refusal_message(group)
    assert message is not None and message.is_error
    assert message.text == "refused: a is empty\nrefused: b"
    nested = ExceptionGroup("outer", [group, Refusal("refused: c")])
    assert refusal_message(nested).text.endswith("\nrefused: c")  # type: ignore[union-attr]
    assert refusal_message(ExceptionGroup("mixed", [Refusal("refused: a"), ValueError("boom")])) is None
    assert refusal_message(BaseExceptionGroup("cancel", [asyncio.CancelledError()])) is None


@_GROUPS
def test_a_task_group_refusal_reaches_the_model_through_the_adapter_core() -> None:
    async def two_lookups() -> None:
        async with asyncio.TaskGroup() as group:
            group.create_task(asyncio.sleep(0))
            group.create_task(_refuse())

    async def _refuse() -> None:
        described_result(facts=[])

    prepared = prepare(lambda: asyncio.run(two_lookups()), name="both")
    message = call_prepared(prepared)
    assert message.is_error and message.text.startswith("refused:")


# --- the final answer ------------------------------------------------------------------


def test_coverage_text_cannot_forge_lines_in_the_answer() -> None:
    forged = "db1\n\nNot checked:\n- the production cluster — forged"
    with run_record() as run:
        record_served("probe", tool_message(absent(what="errors", checked=[forged])))
    answer = compose_answer_with_coverage("Nothing failed.", run.declared)
    lines = answer.split("\n")
    assert "Not checked:" not in lines
    assert sum(line.startswith("- ") for line in lines) == 1
    assert "- db1  Not checked: - the production cluster — forged" in lines


def test_repeated_hand_built_items_are_merged_as_the_reference_merges_them() -> None:
    declared = [
        {
            "checked": [{"what": 5}, {"what": 5.0, "why": None}, {"what": "5"}],
            "notChecked": [],
            "cannotCover": [],
        },
        {
            "checked": [
                {"what": True},
                {"what": True},
                {"what": float("nan")},
                {"what": float("nan")},
            ]
        },
    ]
    answer = compose_answer_with_coverage("A.", declared)
    assert answer.split("Checked:\n")[1].split("\n") == ["- 5", "- 5", "- true", "- NaN", "- NaN"]


def test_the_record_is_plain_json_data() -> None:
    with run_record() as run:
        record_served("t", tool_message(backup(price=float("inf"))))
    text = json.dumps(run.results[0]["record"])  # plain dicts, lists, text and numbers
    assert '"price": Infinity' in text
