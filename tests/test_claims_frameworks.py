"""A structured answer held to the run, through each framework's own loop and test model.

The seeds' story in each: a tool settles ``jobs_local(fleet) = 331`` (beside
``jobs_replicated_in: 607``), the model answers ``protected_jobs: 938`` (the sum that
must never be made), and the finding names both numbers and the call that settled the
fact, by the id the framework itself gave it (read back from the framework's own
messages, never written into the test).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pydantic
import pytest

from semantics_lint.runtime import Disposition, described_result, run_record

# The context classes a tool's annotation names, read from this module's globals.
try:
    from pydantic_ai import RunContext
except ImportError:  # pragma: no cover - the extra is not installed
    RunContext = None  # type: ignore[assignment,misc]
try:  # the SDK 2.x server's context; 1.x calls the server FastMCP
    from mcp.server.mcpserver import Context
except ImportError:  # pragma: no cover - SDK 1.x, or no SDK
    try:
        from mcp.server.fastmcp import Context
    except ImportError:
        Context = None  # type: ignore[assignment,misc]

CONTRACT = {
    "protected_jobs": {"entity": "fleet", "field": "jobs_local"},
    "replicated_in": {"entity": "fleet", "field": "jobs_replicated_in"},
}


def fleet_protection() -> dict[str, Any]:
    """Backup jobs that protect the fleet, by where they run."""
    return described_result(
        facts=[{"entity": "fleet", "jobs_local": 331, "jobs_replicated_in": 607}],
        provenance={"measuredAt": "2026-03-01T06:00:00Z", "source": "backup-catalog"},
    )


class Answer(pydantic.BaseModel):
    protected_jobs: int
    replicated_in: int | None = None


ANSWER = {"protected_jobs": 938, "replicated_in": 607}


def finding_message(call: str) -> str:
    return (
        "The answer's 'protected_jobs' claims 938 but the run's settled fact is "
        f"jobs_local(fleet) = 331 ({call}, measured_at 2026-03-01T06:00:00Z). The record "
        "supports the fact, not the claim — nothing here rewrites the answer; it makes the "
        "disagreement attributable."
    )


def verdict(check: Any) -> list[str]:
    assert check.dispositions == (
        ("protected_jobs", Disposition.CHECKED_FAIL),
        ("replicated_in", Disposition.CHECKED_PASS),
    )
    return [f.message for f in check.findings]


# --- Pydantic AI --------------------------------------------------------------------------


def _pydantic_script(call_id: str) -> Any:
    from pydantic_ai.messages import ModelResponse, ToolCallPart

    def script(messages: list[Any], info: Any) -> Any:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("fleet_protection", {}, tool_call_id=call_id)])
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name, ANSWER)])

    return script


def _returned(result: Any, tool: str) -> Any:
    from pydantic_ai.messages import ToolReturnPart

    [part] = [
        p
        for m in result.all_messages()
        for p in m.parts
        if isinstance(p, ToolReturnPart) and p.tool_name == tool
    ]
    return part


def test_pydantic_ai_with_the_run_context() -> None:
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.models.function import FunctionModel

    from semantics_lint.frameworks.pydantic_ai import served

    steps: list[int] = []

    def fleet_protection_in(ctx: RunContext[None]) -> dict[str, Any]:
        """Backup jobs that protect the fleet, by where they run."""
        steps.append(ctx.run_step)
        return fleet_protection()

    fleet_protection_in.__name__ = "fleet_protection"
    agent = Agent(FunctionModel(_pydantic_script("pyd_call_7")), output_type=Answer)
    agent.tool(served(fleet_protection_in))
    with run_record(claims=CONTRACT) as run:
        result = agent.run_sync("How many backup jobs protect the fleet?")
        check = run.check_claims(result.output)
    call = _returned(result, "fleet_protection").tool_call_id
    assert verdict(check) == [finding_message(f"fleet_protection (call {call}, iteration {steps[0]})")]


def test_pydantic_ai_tool_plain_with_the_capability() -> None:
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.models.function import FunctionModel

    from semantics_lint.frameworks.pydantic_ai import served, tool_call_ids

    def run_once(capabilities: list[Any]) -> tuple[Any, Any]:
        agent = Agent(
            FunctionModel(_pydantic_script("pyd_call_7")),
            output_type=Answer,
            capabilities=capabilities,
        )
        agent.tool_plain(served(fleet_protection))
        with run_record(claims=CONTRACT) as run:
            result = agent.run_sync("How many backup jobs protect the fleet?")
            return result, run.check_claims(result.output)

    result, check = run_once([tool_call_ids()])
    call = _returned(result, "fleet_protection").tool_call_id
    [message] = verdict(check)
    assert message.startswith(
        "The answer's 'protected_jobs' claims 938 but the run's settled fact "
        f"is jobs_local(fleet) = 331 (fleet_protection (call {call}, iteration "
    )
    # Without the capability, tool_plain hands the tool no context: the fallback.
    _, bare = run_once([])
    assert verdict(bare) == [finding_message("fleet_protection (call #1)")]


# --- OpenAI Agents ------------------------------------------------------------------------


def test_openai_agents_final_output() -> None:
    pytest.importorskip("agents")
    import json

    from agents import Agent, RunConfig, Runner
    from agents.items import ToolCallOutputItem
    from agents.testing import ScriptedModel, assistant_message, function_call

    from semantics_lint.frameworks.openai_agents import function_tool

    model = ScriptedModel(
        [
            [function_call("fleet_protection", {}, call_id="call_abc")],
            [assistant_message(json.dumps(ANSWER))],
        ]
    )
    agent = Agent(name="backups", model=model, tools=[function_tool(fleet_protection)], output_type=Answer)
    with run_record(claims=CONTRACT) as run:
        result = asyncio.run(
            Runner.run(
                agent,
                "How many backup jobs protect the fleet?",
                run_config=RunConfig(tracing_disabled=True),
            )
        )
        check = run.check_claims(result.final_output)
    [output] = [i for i in result.new_items if isinstance(i, ToolCallOutputItem)]
    call = output.raw_item["call_id"]
    assert isinstance(result.final_output, Answer)
    assert verdict(check) == [finding_message(f"fleet_protection (call {call})")]


# --- LangChain ----------------------------------------------------------------------------


def test_langchain_structured_response() -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.output_parsers.openai_tools import PydanticToolsParser

    from semantics_lint.frameworks.langchain import tool

    served = tool(fleet_protection)
    model = GenericFakeChatModel(
        messages=iter(
            [
                AIMessage(
                    content="",
                    tool_calls=[{"name": "fleet_protection", "args": {}, "id": "call_lc1"}],
                ),
                AIMessage(content="", tool_calls=[{"name": "Answer", "args": ANSWER, "id": "call_lc2"}]),
            ]
        )
    )
    messages: list[Any] = [HumanMessage("How many backup jobs protect the fleet?")]
    with run_record(claims=CONTRACT) as run:
        reply = model.invoke(messages)
        messages += [reply, *(served.invoke(call) for call in reply.tool_calls)]
        final = model.invoke(messages)
        [answer] = PydanticToolsParser(tools=[Answer]).invoke(final)
        check = run.check_claims(answer)
    call = messages[-1].tool_call_id
    assert verdict(check) == [finding_message(f"fleet_protection (call {call})")]


def test_langchain_reads_the_graph_step() -> None:
    pytest.importorskip("langchain_core")
    from semantics_lint.frameworks.langchain import tool

    served = tool(fleet_protection)
    call = {"type": "tool_call", "name": "fleet_protection", "args": {}, "id": "call_lc1"}
    with run_record(claims=CONTRACT) as run:
        message = served.invoke(call, config={"metadata": {"langgraph_step": 3}})
        asyncio.run(served.ainvoke(call | {"id": "call_lc2"}, config={"metadata": {"langgraph_step": 5}}))
        served.invoke({})  # bare arguments: no call id
        check = run.check_claims(ANSWER)
    assert [(r["call_id"], r["iteration"]) for r in run.results] == [
        (message.tool_call_id, 3),
        ("call_lc2", 5),
        (None, None),
    ]
    assert verdict(check) == [finding_message("fleet_protection (call #3)")]


# --- MCP ----------------------------------------------------------------------------------


def test_mcp_request_id_from_the_context() -> None:
    pytest.importorskip("mcp")
    try:
        from mcp.server.mcpserver import MCPServer as Server
    except ImportError:  # SDK 1.x
        from mcp.server.fastmcp import FastMCP as Server

    from semantics_lint.frameworks.mcp import served

    seen: list[str] = []

    def fleet_protection_in(ctx: Context) -> dict[str, Any]:
        """Backup jobs that protect the fleet, by where they run."""
        seen.append(ctx.request_id)
        return fleet_protection()

    fleet_protection_in.__name__ = "fleet_protection"
    server = Server("backups")
    server.tool()(served(fleet_protection_in))

    async def main() -> Any:
        with run_record(claims=CONTRACT) as run:
            try:
                from mcp import Client
            except ImportError:  # SDK 1.x: its in-memory session
                from mcp.shared.memory import create_connected_server_and_client_session

                async with create_connected_server_and_client_session(server._mcp_server) as session:
                    await session.call_tool("fleet_protection", {})
            else:
                async with Client(server) as client:
                    await client.call_tool("fleet_protection", {})
            return run.check_claims(ANSWER)

    check = asyncio.run(main())
    assert verdict(check) == [finding_message(f"fleet_protection (call {seen[0]})")]


def test_fastmcp_request_id_without_a_context_parameter() -> None:
    fastmcp = pytest.importorskip("fastmcp")
    from fastmcp.server.dependencies import get_context

    from semantics_lint.frameworks.mcp import served

    seen: list[str] = []
    server = fastmcp.FastMCP("backups")

    @server.tool
    @served
    def fleet_protection_here() -> dict[str, Any]:
        """Backup jobs that protect the fleet, by where they run."""
        seen.append(get_context().request_id)
        return fleet_protection()

    async def main() -> Any:
        with run_record(claims=CONTRACT) as run:
            async with fastmcp.Client(server) as client:
                await client.call_tool_mcp("fleet_protection_here", {})
            return run.check_claims(ANSWER)

    check = asyncio.run(main())
    assert verdict(check) == [finding_message(f"fleet_protection_here (call {seen[0]})")]
