"""The OpenAI Agents SDK adapter, in full ``Runner.run`` loops with the SDK's own scripted model.

No network and no LLM: ``agents.testing.ScriptedModel`` (a ``Model`` of the SDK's own
interface) asks for tool calls, then answers; what it was sent is what a real model
would read.
"""

from __future__ import annotations

import asyncio
import gc
import json
from typing import Any

import pytest

pytest.importorskip(
    "agents",
    reason="the OpenAI Agents SDK is not installed: pip install -e '.[test]'",
)

from agents import (
    Agent,
    FunctionTool,
    RunConfig,
    RunContextWrapper,
    Runner,
    ToolGuardrailFunctionOutput,
    ToolOutputGuardrailTripwireTriggered,
    UserError,
    tool_output_guardrail,
)
from agents.items import ToolCallOutputItem
from agents.testing import ScriptedModel, assistant_message, function_call
from agents.tool import default_tool_error_function
from agents.tool_context import ToolContext
from backup_tool import backup_status, vm_backup_status_async

from semantics_lint.frameworks.openai_agents import RECORD_KEY, function_tool
from semantics_lint.runtime import compose_answer_with_coverage, define_tool, run_record, tool_message
from semantics_lint.runtime.mints.tools import Tool, observe_tools
from semantics_lint.runtime.serving.message import ToolMessage as ServedMessage


def vm_backup_status(vm: str, days: int = 7) -> dict[str, Any]:
    """Backup posture for one VM across the backup clusters.

    Args:
        vm: the VM's name, as the export spells it
        days: how many days of runs to read
    """
    return backup_status(vm, days)


def _run(tools: list[FunctionTool], *steps: Any) -> tuple[Any, ScriptedModel]:
    model = ScriptedModel([*steps, [assistant_message("All checked.")]])
    agent = Agent(name="backups", instructions="Answer about backups.", model=model, tools=tools)
    result = asyncio.run(
        Runner.run(agent, "Is vm-01 backed up?", run_config=RunConfig(tracing_disabled=True))
    )
    model.assert_complete()
    return result, model


def _outputs_read(model: ScriptedModel) -> dict[str, str]:
    """The function-call outputs the model was sent, by call id."""
    sent: dict[str, str] = {}
    for call in model.calls:
        if isinstance(call.input, list):
            for item in call.input:
                if isinstance(item, dict) and item.get("type") == "function_call_output":
                    sent[item["call_id"]] = item["output"]
    return sent


def _output_items(result: Any) -> dict[str, ToolCallOutputItem]:
    return {item.call_id: item for item in result.new_items if isinstance(item, ToolCallOutputItem)}


def test_the_model_reads_the_projection_and_the_record_rides_custom_data() -> None:
    tool = function_tool(vm_backup_status)
    envelope = vm_backup_status("vm-01", 3)
    result, model = _run(
        [tool], [function_call("vm_backup_status", {"vm": "vm-01", "days": 3}, call_id="c1")]
    )

    read = _outputs_read(model)["c1"]
    assert read == json.dumps(tool_message(envelope).model, ensure_ascii=False, separators=(",", ":"))
    assert read == tool_message(envelope).text
    assert "Zürich" in read
    shown = json.loads(read)
    assert "af_semantics" not in shown and "render" not in shown and "coverage" not in shown
    assert shown["not_covered"] == ["PPDM — not collected on this install"]

    item = _output_items(result)["c1"]
    assert item.custom_data == {RECORD_KEY: envelope}
    assert result.final_output == "All checked."


def test_an_absence_is_served_as_written() -> None:
    tool = function_tool(vm_backup_status)
    expected = tool_message(vm_backup_status("vm-unknown"))
    result, model = _run(
        [tool], [function_call("vm_backup_status", {"vm": "vm-unknown", "days": 1}, call_id="c1")]
    )
    assert expected.kind == "absent"
    assert _outputs_read(model)["c1"] == expected.text
    assert _output_items(result)["c1"].custom_data == {RECORD_KEY: expected.record}


def test_a_refusal_is_the_call_output_and_the_run_goes_on() -> None:
    tool = function_tool(vm_backup_status)
    with run_record() as run:
        result, model = _run(
            [tool],
            [function_call("vm_backup_status", {"vm": "vm-no-source", "days": 1}, call_id="c1")],
            [function_call("vm_backup_status", {"vm": "vm-01", "days": 1}, call_id="c2")],
        )
    read = _outputs_read(model)
    assert read["c1"].startswith("refused: ")
    assert "provenance" in read["c1"]
    assert json.loads(read["c2"])["facts"][0]["entity"] == "vm-01"
    assert result.final_output == "All checked."
    assert _output_items(result)["c1"].custom_data == {RECORD_KEY: read["c1"]}
    assert [r["kind"] for r in run.results] == ["refusal", "semantics"]


def test_another_exception_keeps_the_sdk_default_policy() -> None:
    tool = function_tool(vm_backup_status)
    with run_record() as run:
        result, model = _run(
            [tool],
            [function_call("vm_backup_status", {"vm": "vm-broken", "days": 1}, call_id="c1")],
        )
    read = _outputs_read(model)["c1"]
    # The SDK's own default error function decides the text, whatever its release writes,
    # given the exception the tool raised (0.22 writes its text, 0.25 does not).
    assert read == default_tool_error_function(None, KeyError("vm-broken"))  # type: ignore[arg-type]
    assert _output_items(result)["c1"].custom_data is None
    assert result.final_output == "All checked."
    assert run.results == []


def test_another_exception_fails_the_run_when_the_sdk_is_told_so() -> None:
    tool = function_tool(vm_backup_status, failure_error_function=None)
    model = ScriptedModel([[function_call("vm_backup_status", {"vm": "vm-broken", "days": 1}, call_id="c1")]])
    agent = Agent(name="backups", model=model, tools=[tool])
    with pytest.raises(UserError) as raised:
        asyncio.run(Runner.run(agent, "?", run_config=RunConfig(tracing_disabled=True)))
    assert isinstance(raised.value.__cause__, KeyError)


def test_the_input_schema_keeps_the_parameters_and_is_strict() -> None:
    tool = function_tool(vm_backup_status)
    assert tool.name == "vm_backup_status"
    assert tool.description == "Backup posture for one VM across the backup clusters."
    assert tool.strict_json_schema is True
    schema = tool.params_json_schema
    assert list(schema["properties"]) == ["vm", "days"]
    assert schema["properties"]["vm"]["type"] == "string"
    assert schema["properties"]["vm"]["description"] == "the VM's name, as the export spells it"
    assert schema["properties"]["days"]["type"] == "integer"
    assert schema["additionalProperties"] is False
    assert "_semantics_lint_tool_context" not in json.dumps(schema)


def test_a_define_tool_tool_and_an_async_one_are_served() -> None:
    defined = define_tool(
        name="vm_backup_status_async",
        description="Backup posture, asked asynchronously.",
        resultClass="triage",
        execute=vm_backup_status_async,
    )
    tool = function_tool(defined)
    assert tool.name == "vm_backup_status_async"
    assert tool.description == "Backup posture, asked asynchronously."
    assert list(tool.params_json_schema["properties"]) == ["vm"]
    assert tool.params_json_schema["required"] == ["vm"]

    envelope = vm_backup_status("vm-02")
    with run_record() as run:
        result, model = _run([tool], [function_call("vm_backup_status_async", {"vm": "vm-02"}, call_id="a1")])
    assert _outputs_read(model)["a1"] == tool_message(envelope).text
    assert _output_items(result)["a1"].custom_data == {RECORD_KEY: envelope}
    assert run.results == [{"tool": "vm_backup_status_async", "kind": "semantics", "record": envelope}]


def test_run_record_sees_the_calls_and_the_answer_gets_its_coverage() -> None:
    tool = function_tool(vm_backup_status, result_class="triage")
    with run_record() as run:
        result, _ = _run(
            [tool], [function_call("vm_backup_status", {"vm": "vm-01", "days": 2}, call_id="c1")]
        )
    assert [(r["tool"], r["kind"]) for r in run.results] == [("vm_backup_status", "semantics")]
    answer = compose_answer_with_coverage(result.final_output, run.declared)
    assert answer.startswith("All checked.\n\n---\n\nCoverage of this answer")
    assert "- PPDM — not collected on this install" in answer


def test_the_pytest_plugin_sees_the_definition_and_the_value() -> None:
    seen: list[tuple[str, str, object]] = []

    class Recorder:
        def tool_defined(self, tool: Tool) -> None:
            seen.append(("defined", tool.name, tool.result_class))

        def tool_returned(self, tool: Tool, value: object) -> None:
            seen.append(("returned", tool.name, value))

    previous = observe_tools(Recorder())
    try:
        tool = function_tool(vm_backup_status, result_class="inventory")
        _run([tool], [function_call("vm_backup_status", {"vm": "vm-01", "days": 7}, call_id="c1")])
    finally:
        observe_tools(previous)
    assert seen == [
        ("defined", "vm_backup_status", "inventory"),
        ("returned", "vm_backup_status", vm_backup_status("vm-01", 7)),
    ]


def test_your_own_custom_data_is_kept_beside_the_record() -> None:
    def mine(data: Any) -> dict[str, Any]:
        return {"call": data.tool_context.tool_call_id}

    tool = function_tool(vm_backup_status, custom_data_extractor=mine)
    result, _ = _run([tool], [function_call("vm_backup_status", {"vm": "vm-01", "days": 7}, call_id="c9")])
    custom = _output_items(result)["c9"].custom_data
    assert custom is not None
    assert custom["call"] == "c9"
    assert custom[RECORD_KEY] == vm_backup_status("vm-01", 7)


def test_a_name_override_renames_a_plain_function() -> None:
    tool = function_tool(vm_backup_status, name_override="backup_posture")
    assert tool.name == "backup_posture"
    _, model = _run([tool], [function_call("backup_posture", {"vm": "vm-01", "days": 7}, call_id="c1")])
    assert json.loads(_outputs_read(model)["c1"])["facts"][0]["entity"] == "vm-01"


# -- the SDK's own conventions -----------------------------------------------------


class Deployment:
    """The run's own context object, as an application passes it to ``Runner.run``."""

    def __init__(self, site: str) -> None:
        self.site = site


def _run_with_context(tools: list[FunctionTool], *steps: Any) -> tuple[Any, ScriptedModel]:
    model = ScriptedModel([*steps, [assistant_message("All checked.")]])
    agent = Agent[Deployment](name="backups", model=model, tools=tools)
    result = asyncio.run(
        Runner.run(agent, "?", context=Deployment("zrh"), run_config=RunConfig(tracing_disabled=True))
    )
    model.assert_complete()
    return result, model


def status_with_run_context(ctx: RunContextWrapper[Deployment], vm: str) -> dict[str, Any]:
    """Backup posture for one VM, at the run's site."""
    return {"vm": vm, "site": ctx.context.site}


async def status_with_tool_context(ctx: ToolContext[Deployment], vm: str) -> dict[str, Any]:
    """Backup posture for one VM, naming the call."""
    return {"vm": vm, "site": ctx.context.site, "call": ctx.tool_call_id}


@pytest.mark.parametrize(
    ("function", "expected"),
    [
        (status_with_run_context, {"vm": "vm-01", "site": "zrh"}),
        (status_with_tool_context, {"vm": "vm-01", "site": "zrh", "call": "c1"}),
    ],
)
def test_a_first_context_parameter_gets_the_sdks_context(function: Any, expected: dict[str, Any]) -> None:
    tool = function_tool(function)
    assert list(tool.params_json_schema["properties"]) == ["vm"]
    assert "ctx" not in json.dumps(tool.params_json_schema)
    with run_record() as run:
        result, model = _run_with_context(
            [tool], [function_call(function.__name__, {"vm": "vm-01"}, call_id="c1")]
        )
    assert json.loads(_outputs_read(model)["c1"]) == expected
    assert _output_items(result)["c1"].custom_data == {RECORD_KEY: expected}
    assert [r["kind"] for r in run.results] == ["data"]


def test_a_define_tool_tool_with_a_context_and_a_declared_schema() -> None:
    def execute(ctx: RunContextWrapper[Deployment], **arguments: Any) -> dict[str, Any]:
        return {"site": ctx.context.site, **arguments}

    defined = define_tool(
        name="runs",
        execute=execute,
        description="Backup runs.",
        inputSchema={
            "type": "object",
            "properties": {"vm": {"type": "string", "description": "the VM", "minLength": 2}},
            "required": ["vm"],
        },
    )
    tool = function_tool(defined)
    assert tool.params_json_schema["properties"]["vm"]["description"] == "the VM"
    assert tool.params_json_schema["properties"]["vm"]["minLength"] == 2
    result, model = _run_with_context(
        [tool],
        [function_call("runs", {"vm": "vm-01"}, call_id="c1")],
        [function_call("runs", {"vm": "v"}, call_id="c2")],
    )
    read = _outputs_read(model)
    assert json.loads(read["c1"]) == {"site": "zrh", "vm": "vm-01"}
    assert "vm-01" not in read["c2"]  # too short: the SDK's invalid-arguments answer
    assert _output_items(result)["c2"].custom_data is None


def test_nothing_is_held_after_runs_ended_by_a_tool_output_guardrail() -> None:
    """Each run ends by the guardrail's tripwire before the SDK asks for the custom
    data: the adapter keeps no message of those calls once the runs are gone."""
    marker = "guardrail-run-row-"
    big = {"rows": [marker + "x" * 1000] * 200}

    @tool_output_guardrail
    def stop(data: Any) -> ToolGuardrailFunctionOutput:
        return ToolGuardrailFunctionOutput.raise_exception(output_info="too much")

    def export(vm: str) -> dict[str, Any]:
        """The whole export."""
        return big

    tool = function_tool(export, tool_output_guardrails=[stop])
    for n in range(20):
        model = ScriptedModel([[function_call("export", {"vm": "vm-01"}, call_id=f"c{n}")]])
        agent = Agent(name="backups", model=model, tools=[tool])
        with pytest.raises(ToolOutputGuardrailTripwireTriggered):
            asyncio.run(Runner.run(agent, "?", run_config=RunConfig(tracing_disabled=True)))
        del agent, model
    gc.collect()
    held = [o for o in gc.get_objects() if isinstance(o, ServedMessage) and marker in o.text]
    assert held == []
