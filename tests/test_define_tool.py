"""``define_tool`` / ``defineTool``: refusals at definition, and a tool that returns unchanged."""

from __future__ import annotations

import asyncio
import functools
import inspect
from typing import Any

import pytest

from semantics_lint import runtime
from semantics_lint.runtime import AsyncTool, Refusal, Tool, define_tool, defineTool
from semantics_lint.runtime.mints.tools import observe_tools


def _run(x: int = 1) -> dict[str, Any]:
    return {"x": x}


async def _run_async(x: int = 1) -> dict[str, Any]:
    await asyncio.sleep(0)
    return {"x": x}


def _refusal(**fields: Any) -> str:
    with pytest.raises(Refusal) as caught:
        define_tool(**fields)
    message = str(caught.value)
    assert message.startswith("refused:"), message
    return message


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("declared", ["reporting", "Triage", "", "triage ", 1, None, ["triage"]])
def test_a_result_class_outside_the_closed_set_is_refused(declared: object) -> None:
    message = _refusal(name="vm_backup_status", execute=_run, resultClass=declared)
    assert "resultClass" in message and "vm_backup_status" in message
    assert "triage" in message and "inventory" in message


def test_a_near_miss_class_names_the_class_meant() -> None:
    assert "did you mean 'triage'" in _refusal(name="t", execute=_run, resultClass="Triage")


@pytest.mark.parametrize(
    ("snake", "camel"), [("result_class", "resultClass"), ("input_schema", "inputSchema")]
)
def test_a_snake_case_key_names_the_camel_case_one(snake: str, camel: str) -> None:
    message = _refusal(name="t", execute=_run, **{snake: "triage"})
    assert f"{snake}: did you mean {camel}?" in message


def test_an_unknown_key_is_refused_naming_the_fields() -> None:
    message = _refusal(name="t", execute=_run, handler=_run)
    assert "handler" in message and "execute" in message


@pytest.mark.parametrize("name", [None, "", "  \ufeff", 7])
def test_a_missing_or_blank_name_is_refused(name: object) -> None:
    assert "`name`" in _refusal(name=name, execute=_run)
    assert "`name`" in _refusal(execute=_run)


def test_a_missing_or_uncallable_execute_is_refused() -> None:
    assert "`execute` is missing" in _refusal(name="t", resultClass="triage")
    assert "`execute` must be a function" in _refusal(name="t", execute="run")


def test_one_dict_or_keywords_not_both() -> None:
    tool = define_tool({"name": "t", "execute": _run, "resultClass": "inventory"})
    assert tool.result_class == "inventory"
    with pytest.raises(Refusal, match="^refused:.*not both"):
        define_tool({"name": "t"}, execute=_run)  # type: ignore[call-overload]
    with pytest.raises(Refusal, match="^refused:"):
        define_tool("t")  # type: ignore[arg-type]
    with pytest.raises(Refusal, match="result_class: did you mean resultClass"):
        define_tool({"name": "t", "execute": _run, "result_class": "triage"})


# ---------------------------------------------------------------------------
# The tool
# ---------------------------------------------------------------------------


def test_the_tool_returns_execute_s_value_unchanged_and_says_what_it_is() -> None:
    schema = {"type": "object"}
    tool = define_tool(
        name="vm_backup_status",
        description="Backup posture",
        execute=_run,
        resultClass="triage",
        inputSchema=schema,
    )
    assert isinstance(tool, Tool) and not isinstance(tool, AsyncTool)
    assert (tool.name, tool.description, tool.result_class) == (
        "vm_backup_status",
        "Backup posture",
        "triage",
    )
    assert tool.input_schema is schema and tool.execute is _run
    sentinel = object()
    same = define_tool(name="same", execute=lambda: sentinel)
    assert same() is sentinel
    assert tool(x=3) == {"x": 3}
    assert "vm_backup_status" in repr(tool)


def test_no_class_reads_as_none() -> None:
    assert define_tool(name="t", execute=_run).result_class is None


def test_errors_of_execute_pass_through() -> None:
    def broken() -> None:
        raise KeyError("vm")

    with pytest.raises(KeyError):
        define_tool(name="t", execute=broken)()


def test_an_async_execute_makes_an_awaitable_tool() -> None:
    tool = define_tool(name="t", execute=_run_async, resultClass="triage")
    assert isinstance(tool, AsyncTool)
    assert inspect.iscoroutinefunction(tool.__call__)
    assert asyncio.run(tool(x=4)) == {"x": 4}


def test_an_async_callable_object_and_a_partial_are_async_too() -> None:
    class Runner:
        async def __call__(self) -> str:
            return "ran"

    assert asyncio.run(define_tool(name="obj", execute=Runner())()) == "ran"
    partial = define_tool(name="partial", execute=functools.partial(_run_async, 9))
    assert isinstance(partial, AsyncTool)
    assert asyncio.run(partial()) == {"x": 9}


def test_define_tool_is_exported_with_its_alias() -> None:
    assert defineTool is define_tool
    for name in ("define_tool", "defineTool", "Tool", "AsyncTool"):
        assert name in runtime.__all__


class _Recorder:
    def __init__(self) -> None:
        self.defined: list[str] = []
        self.returned: list[tuple[str, object]] = []

    def tool_defined(self, tool: Tool) -> None:
        self.defined.append(tool.name)

    def tool_returned(self, tool: Tool, value: object) -> None:
        self.returned.append((tool.name, value))


def test_an_observer_sees_definitions_and_values_sync_and_async() -> None:
    recorder = _Recorder()
    previous = observe_tools(recorder)
    try:
        sync = define_tool(name="sync", execute=_run)
        asyncish = define_tool(name="async", execute=_run_async)
        wrapped = define_tool(name="wrapped", execute=lambda: _run_async(5))
        sync(x=2)
        asyncio.run(asyncish(x=3))
        assert asyncio.run(wrapped()) == {"x": 5}
    finally:
        observe_tools(previous)
    assert recorder.defined == ["sync", "async", "wrapped"]
    assert recorder.returned == [("sync", {"x": 2}), ("async", {"x": 3}), ("wrapped", {"x": 5})]
    sync(x=9)  # no observer: nothing recorded
    assert len(recorder.returned) == 3


def test_a_refused_definition_is_never_observed() -> None:
    recorder = _Recorder()
    previous = observe_tools(recorder)
    try:
        with pytest.raises(Refusal):
            define_tool(name="t", execute=_run, resultClass="report")
    finally:
        observe_tools(previous)
    assert recorder.defined == []


class _RefusalRecorder(_Recorder):
    def __init__(self) -> None:
        super().__init__()
        self.refused: list[tuple[str, str]] = []

    def tool_refused(self, tool: Tool, error: BaseException) -> None:
        self.refused.append((tool.name, str(error)))


def _refuses(kind: str) -> dict[str, Any]:
    if kind == "refusal":
        raise Refusal("refused: provenance.measuredAt: missing")
    if kind == "text":
        raise ValueError("refused: the export is older than a day")
    raise KeyError("vm-09")


async def _refuses_async(kind: str) -> dict[str, Any]:
    await asyncio.sleep(0)
    return _refuses(kind)


def test_an_observer_with_tool_refused_sees_refusals_and_only_refusals() -> None:
    recorder = _RefusalRecorder()
    previous = observe_tools(recorder)
    try:
        sync = define_tool(name="sync", execute=_refuses)
        asyncish = define_tool(name="async", execute=_refuses_async)
        wrapped = define_tool(name="wrapped", execute=lambda kind: _refuses_async(kind))
        for kind, error in (("refusal", Refusal), ("text", ValueError), ("other", KeyError)):
            with pytest.raises(error):
                sync(kind)
            with pytest.raises(error):
                asyncio.run(asyncish(kind))
            with pytest.raises(error):
                asyncio.run(wrapped(kind))
    finally:
        observe_tools(previous)
    refusal, text = (
        "refused: provenance.measuredAt: missing",
        "refused: the export is older than a day",
    )
    assert recorder.refused == [
        ("sync", refusal), ("async", refusal), ("wrapped", refusal),
        ("sync", text), ("async", text), ("wrapped", text),
    ]  # fmt: skip
    assert recorder.returned == []


def test_an_observer_without_tool_refused_still_works_when_a_tool_refuses() -> None:
    recorder = _Recorder()
    previous = observe_tools(recorder)
    try:
        tool = define_tool(name="t", execute=_refuses)
        with pytest.raises(Refusal):
            tool("refusal")
        assert define_tool(name="u", execute=_run)(x=4) == {"x": 4}
    finally:
        observe_tools(previous)
    assert recorder.returned == [("u", {"x": 4})]
