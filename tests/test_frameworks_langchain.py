"""The LangChain adapter: ``invoke`` with tool-call dicts, and a loop over a fake chat model.

No network and no LLM: tools are invoked as an agent invokes them, with
``{"type": "tool_call", ...}``; the loop runs ``GenericFakeChatModel`` and reads, through
LangChain's own callbacks, the messages the model was sent.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from uuid import UUID

import pytest

pytest.importorskip("langchain_core", reason="LangChain is not installed: pip install -e '.[test]'")

from backup_tool import backup_status, vm_backup_status_async
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool, ToolException

from semantics_lint.frameworks.langchain import tool
from semantics_lint.runtime import compose_answer_with_coverage, define_tool, run_record, tool_message
from semantics_lint.runtime.mints.tools import Tool, observe_tools


def vm_backup_status(vm: str, days: int = 7) -> dict[str, Any]:
    """Backup posture for one VM across the backup clusters.

    Args:
        vm: the VM's name, as the export spells it
        days: how many days of runs to read
    """
    if vm == "vm-offline":
        raise ToolException("the backup export is offline")
    return backup_status(vm, days)


def _call(vm: str, call_id: str = "c1", name: str = "vm_backup_status") -> dict[str, Any]:
    return {"type": "tool_call", "id": call_id, "name": name, "args": {"vm": vm}}


def test_content_is_the_model_text_and_the_artifact_the_record() -> None:
    served = tool(vm_backup_status)
    envelope = vm_backup_status("vm-01")
    message = served.invoke(_call("vm-01"))
    assert isinstance(message, ToolMessage)
    assert message.content == json.dumps(
        tool_message(envelope).model, ensure_ascii=False, separators=(",", ":")
    )
    assert message.content == tool_message(envelope).text
    shown = json.loads(message.content)
    assert "af_semantics" not in shown and "render" not in shown and "coverage" not in shown
    assert "Zürich" in message.content
    assert message.artifact == envelope
    assert message.status == "success"
    assert message.tool_call_id == "c1"
    assert message.name == "vm_backup_status"


def test_an_absence_is_served_as_written() -> None:
    expected = tool_message(vm_backup_status("vm-unknown"))
    message = tool(vm_backup_status).invoke(_call("vm-unknown"))
    assert expected.kind == "absent"
    assert (message.content, message.artifact) == (expected.text, expected.record)


def test_a_refusal_is_an_error_tool_message() -> None:
    with run_record() as run:
        message = tool(vm_backup_status).invoke(_call("vm-no-source"))
    assert isinstance(message, ToolMessage)
    assert message.status == "error"
    assert isinstance(message.content, str)
    assert message.content.startswith("refused: ")
    assert "provenance" in message.content
    assert message.artifact is None
    assert [r["kind"] for r in run.results] == ["refusal"]


def test_other_exceptions_keep_langchain_policy() -> None:
    served = tool(vm_backup_status)
    with pytest.raises(KeyError):
        served.invoke(_call("vm-broken"))
    # A ToolException is LangChain's to handle: unhandled by default, it propagates ...
    with pytest.raises(ToolException, match="offline"):
        served.invoke(_call("vm-offline"))
    # ... and handled as handle_tool_error says.
    handled = tool(vm_backup_status, handle_tool_error=True).invoke(_call("vm-offline"))
    assert (handled.status, handled.content) == ("error", "the backup export is offline")
    fixed = tool(vm_backup_status, handle_tool_error="try later").invoke(_call("vm-offline"))
    assert (fixed.status, fixed.content) == ("error", "try later")
    computed = tool(vm_backup_status, handle_tool_error=lambda e: f"no: {e}")
    assert computed.invoke(_call("vm-offline")).content == "no: the backup export is offline"
    # A refusal is the call's error result whatever handle_tool_error says.
    assert computed.invoke(_call("vm-no-source")).content.startswith("refused: ")


def test_the_input_schema_keeps_the_parameters() -> None:
    served = tool(vm_backup_status, parse_docstring=True)
    assert isinstance(served, BaseTool)
    assert served.name == "vm_backup_status"
    assert served.description == "Backup posture for one VM across the backup clusters."
    assert served.response_format == "content_and_artifact"
    schema = served.tool_call_schema.model_json_schema()
    assert list(schema["properties"]) == ["vm", "days"]
    assert schema["required"] == ["vm"]
    assert schema["properties"]["vm"]["type"] == "string"
    assert schema["properties"]["vm"]["description"] == "the VM's name, as the export spells it"
    assert schema["properties"]["days"] == {
        "default": 7,
        "description": "how many days of runs to read",
        "title": "Days",
        "type": "integer",
    }


def test_a_define_tool_tool_and_an_async_one_are_served() -> None:
    defined = define_tool(
        name="vm_backup_status_async",
        description="Backup posture, asked asynchronously.",
        resultClass="triage",
        execute=vm_backup_status_async,
    )
    served = tool(defined)
    assert served.name == "vm_backup_status_async"
    assert served.description == "Backup posture, asked asynchronously."
    assert list(served.tool_call_schema.model_json_schema()["properties"]) == ["vm"]
    envelope = vm_backup_status("vm-02")
    with run_record() as run:
        message = asyncio.run(served.ainvoke(_call("vm-02", name="vm_backup_status_async")))
        refused = asyncio.run(served.ainvoke(_call("vm-no-source", "c2", name="vm_backup_status_async")))
    assert (message.content, message.artifact) == (tool_message(envelope).text, envelope)
    assert refused.status == "error" and refused.content.startswith("refused: ")
    assert [(r["tool"], r["kind"]) for r in run.results] == [
        ("vm_backup_status_async", "semantics"),
        ("vm_backup_status_async", "refusal"),
    ]


def test_the_pytest_plugin_sees_the_definition_and_the_value() -> None:
    seen: list[tuple[str, str, object]] = []

    class Recorder:
        def tool_defined(self, tool: Tool) -> None:
            seen.append(("defined", tool.name, tool.result_class))

        def tool_returned(self, tool: Tool, value: object) -> None:
            seen.append(("returned", tool.name, value))

    previous = observe_tools(Recorder())
    try:
        tool(vm_backup_status, result_class="inventory").invoke(_call("vm-01"))
    finally:
        observe_tools(previous)
    assert seen == [
        ("defined", "vm_backup_status", "inventory"),
        ("returned", "vm_backup_status", vm_backup_status("vm-01")),
    ]


class _Sent(BaseCallbackHandler):
    """The messages each chat-model call was sent, as LangChain reports them."""

    def __init__(self) -> None:
        self.calls: list[list[BaseMessage]] = []

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        **kwargs: Any,
    ) -> None:
        self.calls.extend(messages)


def test_a_fake_chat_model_loop_reads_the_text_and_the_answer_gets_coverage() -> None:
    served = tool(vm_backup_status, result_class="triage")
    model = GenericFakeChatModel(
        messages=iter(
            [
                AIMessage(
                    content="",
                    tool_calls=[
                        {"name": "vm_backup_status", "args": {"vm": "vm-no-source"}, "id": "c1"},
                        {"name": "vm_backup_status", "args": {"vm": "vm-01"}, "id": "c2"},
                    ],
                ),
                AIMessage(content="vm-01 is backed up."),
            ]
        )
    )
    sent = _Sent()
    messages: list[BaseMessage] = [HumanMessage("Is vm-01 backed up?")]
    with run_record() as run:
        while True:
            reply = model.invoke(messages, config={"callbacks": [sent]})
            messages.append(reply)
            if not isinstance(reply, AIMessage) or not reply.tool_calls:
                break
            for call in reply.tool_calls:
                messages.append(served.invoke({**call, "type": "tool_call"}))

    read = [m for m in sent.calls[-1] if isinstance(m, ToolMessage)]
    assert [(m.tool_call_id, m.status) for m in read] == [("c1", "error"), ("c2", "success")]
    assert read[0].content.startswith("refused: ")
    assert read[1].content == tool_message(vm_backup_status("vm-01")).text
    answer = compose_answer_with_coverage(str(messages[-1].content), run.declared)
    assert answer.startswith("vm-01 is backed up.\n\n---\n\nCoverage of this answer")
    assert "- PPDM — not collected on this install" in answer


def _says_refused(vm: str) -> str:
    """Raises LangChain's own ToolException, with text that reads like a refusal."""
    raise ToolException(f"refused: {vm} is not ours to read")


@pytest.mark.parametrize(
    "handling", [True, "try later", lambda e: f"no: {e}"], ids=["true", "text", "function"]
)
def test_a_tool_exception_saying_refused_keeps_langchain_handling(handling: Any) -> None:
    # LangChain's own ToolException keeps its meaning whatever its text says: handled as
    # handle_tool_error says, exactly as the tool registered without the adapter.
    from langchain_core.tools import StructuredTool

    native = StructuredTool.from_function(_says_refused, handle_tool_error=handling)
    with run_record() as run:
        served = tool(_says_refused, handle_tool_error=handling).invoke(_call("vm-9", name="_says_refused"))
    expected = native.invoke(_call("vm-9", name="_says_refused"))
    assert (served.status, served.content) == (expected.status, expected.content)
    assert run.results == []


def test_an_unhandled_tool_exception_saying_refused_propagates() -> None:
    with run_record() as run, pytest.raises(ToolException):
        tool(_says_refused).invoke(_call("vm-9", name="_says_refused"))
    assert run.results == []
