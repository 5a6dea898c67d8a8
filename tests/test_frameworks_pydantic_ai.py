"""The Pydantic AI adapter, in full agent runs driven by Pydantic AI's own ``FunctionModel``.

No network and no LLM: the model is a local function that asks for tool calls, then
answers; the messages it is handed are what a real model would read.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("pydantic_ai", reason="Pydantic AI is not installed: pip install -e '.[test]'")

from backup_tool import backup_status, vm_backup_status_async
from pydantic_ai import Agent, ModelRetry, Tool
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from semantics_lint.frameworks.pydantic_ai import served
from semantics_lint.runtime import compose_answer_with_coverage, define_tool, run_record, tool_message
from semantics_lint.runtime.mints.tools import Tool as DefinedTool
from semantics_lint.runtime.mints.tools import observe_tools


def vm_backup_status(vm: str, days: int = 7) -> dict[str, Any]:
    """Backup posture for one VM across the backup clusters.

    Args:
        vm: the VM's name, as the export spells it
        days: how many days of runs to read
    """
    if vm == "vm-retry":
        raise ModelRetry("ask for vm-01 instead")
    return backup_status(vm, days)


class Script:
    """A model that asks for the given tool calls, one batch a turn, then answers."""

    def __init__(self, *turns: list[ToolCallPart]) -> None:
        self.turns = list(turns)
        self.received: list[list[ModelMessage]] = []
        self.tools: list[Any] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.received.append(list(messages))
        self.tools = info.function_tools
        if self.turns:
            return ModelResponse(parts=self.turns.pop(0))
        return ModelResponse(parts=[TextPart("vm-01 is backed up.")])

    def returns(self) -> dict[str, ToolReturnPart]:
        """The tool returns the model was handed, by tool call id."""
        parts: dict[str, ToolReturnPart] = {}
        for message in self.received[-1]:
            if isinstance(message, ModelRequest):
                for part in message.parts:
                    if isinstance(part, ToolReturnPart):
                        parts[part.tool_call_id] = part
        return parts


def _call(vm: str, call_id: str, name: str = "vm_backup_status") -> ToolCallPart:
    return ToolCallPart(name, {"vm": vm}, tool_call_id=call_id)


def test_the_model_reads_the_projection_and_the_record_is_metadata() -> None:
    script = Script([_call("vm-01", "c1")])
    agent = Agent(FunctionModel(script))
    agent.tool_plain(served(vm_backup_status))
    result = agent.run_sync("Is vm-01 backed up?")

    envelope = vm_backup_status("vm-01")
    part = script.returns()["c1"]
    assert part.outcome == "success"
    assert part.content == tool_message(envelope).text
    read = part.model_response_str()
    assert read == tool_message(envelope).text  # the seam's text, as every adapter serves it
    assert "af_semantics" not in read and "render" not in read and "checked" not in read
    assert "Zürich" in read
    assert part.metadata == envelope
    assert result.output == "vm-01 is backed up."


def test_an_absence_is_served_as_written() -> None:
    script = Script([_call("vm-unknown", "c1")])
    agent = Agent(FunctionModel(script), tools=[served(vm_backup_status)])
    agent.run_sync("?")
    expected = tool_message(vm_backup_status("vm-unknown"))
    part = script.returns()["c1"]
    assert expected.kind == "absent"
    assert (part.content, part.metadata) == (expected.text, expected.record)


def test_a_refusal_is_a_failed_call_the_model_reads_and_the_run_goes_on() -> None:
    script = Script([_call("vm-no-source", "c1")], [_call("vm-01", "c2")])
    agent = Agent(FunctionModel(script))
    agent.tool_plain(served(vm_backup_status))
    with run_record() as run:
        result = agent.run_sync("?")
    failed = script.returns()["c1"]
    assert failed.outcome == "failed"
    assert failed.retry is None
    assert isinstance(failed.content, str)
    assert failed.content.startswith("refused: ") and "provenance" in failed.content
    assert json.loads(failed.model_response_str()) == {"error": failed.content}
    assert script.returns()["c2"].outcome == "success"
    assert result.output == "vm-01 is backed up."
    assert [r["kind"] for r in run.results] == ["refusal", "semantics"]


def test_other_exceptions_keep_pydantic_ai_policy() -> None:
    agent = Agent(FunctionModel(Script([_call("vm-broken", "c1")])))
    agent.tool_plain(served(vm_backup_status))
    with pytest.raises(KeyError):
        agent.run_sync("?")

    script = Script([_call("vm-retry", "c1")])
    agent = Agent(FunctionModel(script))
    agent.tool_plain(served(vm_backup_status))
    assert agent.run_sync("?").output == "vm-01 is backed up."
    retried = script.returns()["c1"]
    assert retried.outcome == "retried"
    assert "ask for vm-01 instead" in retried.model_response_str()


def test_the_input_schema_keeps_the_parameters() -> None:
    script = Script()
    agent = Agent(FunctionModel(script))
    agent.tool_plain(served(vm_backup_status))
    agent.run_sync("?")
    (definition,) = script.tools
    assert definition.name == "vm_backup_status"
    assert definition.description == "Backup posture for one VM across the backup clusters."
    schema = definition.parameters_json_schema
    assert list(schema["properties"]) == ["vm", "days"]
    assert schema["required"] == ["vm"]
    assert schema["properties"]["vm"] == {
        "description": "the VM's name, as the export spells it",
        "type": "string",
    }
    assert schema["properties"]["days"]["default"] == 7


def test_a_define_tool_tool_and_an_async_one_are_served() -> None:
    defined = define_tool(
        name="vm_backup_status_async",
        description="Backup posture, asked asynchronously.",
        resultClass="triage",
        execute=vm_backup_status_async,
    )
    script = Script(
        [
            _call("vm-02", "a1", "vm_backup_status_async"),
            _call("vm-no-source", "a2", "vm_backup_status_async"),
        ]
    )
    agent = Agent(FunctionModel(script), tools=[Tool(served(defined))])
    with run_record() as run:
        result = asyncio.run(agent.run("?"))
    (definition,) = script.tools
    assert definition.name == "vm_backup_status_async"
    assert definition.description == "Backup posture, asked asynchronously."
    assert list(definition.parameters_json_schema["properties"]) == ["vm"]
    envelope = vm_backup_status("vm-02")
    parts = script.returns()
    assert (parts["a1"].content, parts["a1"].metadata) == (tool_message(envelope).text, envelope)
    assert parts["a2"].outcome == "failed"
    assert result.output == "vm-01 is backed up."
    assert [(r["tool"], r["kind"]) for r in run.results] == [
        ("vm_backup_status_async", "semantics"),
        ("vm_backup_status_async", "refusal"),
    ]


def test_run_record_sees_the_calls_and_the_answer_gets_its_coverage() -> None:
    agent = Agent(FunctionModel(Script([_call("vm-01", "c1")])))
    agent.tool_plain(served(result_class="triage")(vm_backup_status))
    with run_record() as run:
        result = agent.run_sync("?")
    assert [(r["tool"], r["kind"]) for r in run.results] == [("vm_backup_status", "semantics")]
    answer = compose_answer_with_coverage(result.output, run.declared)
    assert answer.startswith("vm-01 is backed up.\n\n---\n\nCoverage of this answer")
    assert "- PPDM — not collected on this install" in answer


def test_the_pytest_plugin_sees_the_definition_and_the_value() -> None:
    seen: list[tuple[str, str, object]] = []

    class Recorder:
        def tool_defined(self, tool: DefinedTool) -> None:
            seen.append(("defined", tool.name, tool.result_class))

        def tool_returned(self, tool: DefinedTool, value: object) -> None:
            seen.append(("returned", tool.name, value))

    previous = observe_tools(Recorder())
    try:
        agent = Agent(FunctionModel(Script([_call("vm-01", "c1")])))
        agent.tool_plain(served(vm_backup_status, result_class="inventory"))
        agent.run_sync("?")
    finally:
        observe_tools(previous)
    assert seen == [
        ("defined", "vm_backup_status", "inventory"),
        ("returned", "vm_backup_status", vm_backup_status("vm-01")),
    ]


# --- the framework's own exceptions keep their meaning ------------------------------------


def _retried_once(vm: str) -> str:
    """Asks the model to call again the first time (with refusal-looking text), then answers."""
    if vm == "vm-first":
        raise ModelRetry("refused: ask for vm-second instead")
    return f"{vm} ok"


def _parts_read(function: Any) -> list[tuple[str, Any, str]]:
    """Each tool part of the requests the model was sent: its class, outcome and text."""

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("_retried_once", {"vm": "vm-first"}, tool_call_id="r1")])
        if len(messages) == 3:
            return ModelResponse(
                parts=[ToolCallPart("_retried_once", {"vm": "vm-second"}, tool_call_id="r2")]
            )
        return ModelResponse(parts=[TextPart("done")])

    agent = Agent(FunctionModel(model))
    agent.tool_plain(retries=2)(function)
    result = agent.run_sync("?")
    assert result.output == "done"
    return [
        (
            type(part).__name__,
            getattr(part, "outcome", None),
            str(part.model_response_str())
            if hasattr(part, "model_response_str")
            else str(part.model_response()),
        )
        for message in result.all_messages()
        if isinstance(message, ModelRequest)
        for part in message.parts
        if hasattr(part, "tool_call_id")
    ]


def test_model_retry_saying_refused_still_asks_for_a_retry() -> None:
    # Pydantic AI's own ModelRetry keeps its meaning whatever its text says: the model
    # is asked to call again, exactly as for the tool registered without the adapter,
    # and no refusal is recorded (the second call's value is).
    with run_record() as run:
        read = _parts_read(served(_retried_once))
    native = _parts_read(_retried_once)
    assert read == native and len(read) == 2
    assert [entry["kind"] for entry in run.results] == ["data"]
