"""A ``define_tool`` tool's declared ``inputSchema``, through every adapter and its real framework.

The schema each framework advertises keeps the declared properties (descriptions,
bounds, required); the framework validates each call against it, so ``execute`` never
runs with arguments the schema refuses; an ``execute(**arguments)`` tool gets exactly
the arguments the model gave. A schema ``execute`` cannot be called with is refused
where the adapter is made.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed: pip install -e '.[test]'")
pytest.importorskip("jsonschema", reason="a declared inputSchema is validated with jsonschema")

import anyio  # noqa: E402  (installed with mcp)

from semantics_lint.runtime import Refusal, define_tool, run_record  # noqa: E402

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "vm": {
            "type": "string",
            "description": "the VM's name, as the export spells it",
            "minLength": 2,
        },
        "days": {
            "type": "integer",
            "description": "how many days of runs",
            "minimum": 1,
            "maximum": 30,
        },
    },
    "required": ["vm"],
}


class Calls:
    """An ``execute(**arguments)`` that keeps the arguments of each call."""

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    def __call__(self, **arguments: Any) -> dict[str, Any]:
        self.seen.append(arguments)
        return {"runs": 3, **arguments}

    def tool(self, schema: dict[str, Any] = SCHEMA) -> Any:
        return define_tool(
            name="backup_runs",
            description="Backup runs of one VM.",
            execute=self,
            inputSchema=schema,
        )


def check_properties(properties: dict[str, Any]) -> None:
    assert list(properties) == ["vm", "days"]
    for name, declared in SCHEMA["properties"].items():
        for key, value in declared.items():
            assert properties[name][key] == value, (name, key)


# -- MCP: the official SDK and fastmcp ---------------------------------------------


def test_the_mcp_sdk_advertises_and_validates_the_declared_schema() -> None:
    pytest.importorskip("mcp.server.mcpserver", reason="written for the SDK 2.x (MCPServer, Client)")
    from mcp import Client
    from mcp.server.mcpserver import MCPServer

    from semantics_lint.frameworks.mcp import served

    calls = Calls()
    server = MCPServer("backups")
    server.tool()(served(calls.tool()))

    async def main() -> list[Any]:
        async with Client(server) as client:
            (tool,) = (await client.list_tools()).tools
            check_properties(tool.input_schema["properties"])
            assert tool.input_schema["required"] == ["vm"]
            return [
                await client.call_tool("backup_runs", arguments)
                for arguments in (
                    {"vm": "vm1"},
                    {"vm": "vm1", "days": 40},
                    {"vm": "v"},
                    {"vm": "vm1", "days": 3},
                )
            ]

    short, too_many, too_short, both = anyio.run(main)
    assert [r.is_error for r in (short, too_many, too_short, both)] == [False, True, True, False]
    assert "maximum of 30" in too_many.content[0].text
    assert calls.seen == [{"vm": "vm1"}, {"vm": "vm1", "days": 3}]
    assert json.loads(both.content[0].text) == {"runs": 3, "vm": "vm1", "days": 3}


def test_fastmcp_advertises_and_validates_the_declared_schema() -> None:
    fastmcp = pytest.importorskip("fastmcp", reason="fastmcp is not installed")
    from semantics_lint.frameworks.mcp import served

    calls = Calls()
    server = fastmcp.FastMCP("backups")
    server.tool(served(calls.tool()))

    async def main() -> list[Any]:
        async with fastmcp.Client(server) as client:
            (tool,) = await client.list_tools()
            check_properties(tool.input_schema["properties"])
            assert tool.input_schema["required"] == ["vm"]
            return [
                await client.call_tool_mcp("backup_runs", arguments)
                for arguments in ({"vm": "vm1"}, {"vm": "vm1", "days": 0})
            ]

    valid, invalid = anyio.run(main)
    assert (valid.is_error, invalid.is_error) == (False, True)
    assert calls.seen == [{"vm": "vm1"}]


# -- OpenAI Agents, LangChain, Pydantic AI -----------------------------------------


def test_openai_agents_advertises_and_validates_the_declared_schema() -> None:
    pytest.importorskip("agents", reason="the OpenAI Agents SDK is not installed")
    from agents import Agent, RunConfig, Runner
    from agents.testing import ScriptedModel, assistant_message, function_call

    from semantics_lint.frameworks.openai_agents import function_tool

    calls = Calls()
    tool = function_tool(calls.tool(), strict_mode=False)
    check_properties(tool.params_json_schema["properties"])
    assert tool.params_json_schema["required"] == ["vm"]
    model = ScriptedModel(
        [
            [function_call("backup_runs", {"vm": "vm1", "days": 99}, call_id="c1")],
            [function_call("backup_runs", {"vm": "vm1"}, call_id="c2")],
            [assistant_message("done")],
        ]
    )
    agent = Agent(name="backups", model=model, tools=[tool])
    asyncio.run(Runner.run(agent, "?", run_config=RunConfig(tracing_disabled=True)))
    assert calls.seen == [{"vm": "vm1"}]
    # In strict mode (the SDK's default) the SDK asks for every property.
    assert function_tool(calls.tool()).params_json_schema["required"] == ["vm", "days"]


def test_langchain_advertises_and_validates_the_declared_schema() -> None:
    pytest.importorskip("langchain_core", reason="LangChain is not installed")
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from pydantic import ValidationError

    from semantics_lint.frameworks.langchain import tool

    calls = Calls()
    served = tool(calls.tool())
    parameters = convert_to_openai_tool(served)["function"]["parameters"]
    check_properties(parameters["properties"])
    assert parameters["required"] == ["vm"]
    call = {"type": "tool_call", "id": "c1", "name": "backup_runs"}
    message = served.invoke({**call, "args": {"vm": "vm1"}})
    assert json.loads(message.content) == {"runs": 3, "vm": "vm1"}
    with pytest.raises(ValidationError, match="maximum of 30"):
        served.invoke({**call, "args": {"vm": "vm1", "days": 31}})
    assert calls.seen == [{"vm": "vm1"}]


def test_pydantic_ai_advertises_and_validates_the_declared_schema() -> None:
    pytest.importorskip("pydantic_ai", reason="Pydantic AI is not installed")
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from semantics_lint.frameworks.pydantic_ai import served

    calls = Calls()
    seen: dict[str, Any] = {}

    def model(messages: list[Any], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            seen["schema"] = info.function_tools[0].parameters_json_schema
            return ModelResponse(
                parts=[
                    ToolCallPart("backup_runs", {"vm": "vm1", "days": 0}, tool_call_id="c1"),
                    ToolCallPart("backup_runs", {"vm": "vm1", "days": 2}, tool_call_id="c2"),
                ]
            )
        return ModelResponse(parts=[TextPart("done")])

    agent = Agent(FunctionModel(model))
    agent.tool_plain(served(calls.tool()))
    result = agent.run_sync("?")
    check_properties(seen["schema"]["properties"])
    assert seen["schema"]["required"] == ["vm"]
    assert calls.seen == [{"vm": "vm1", "days": 2}]
    returns = {
        p.tool_call_id: p.outcome
        for m in result.all_messages()
        for p in m.parts
        if isinstance(p, ToolReturnPart)
    }
    assert returns == {
        "c1": "retried",
        "c2": "success",
    }  # Pydantic AI's own invalid-arguments answer


# -- what the schema says beyond its properties, and what is refused ------------------


def test_a_local_ref_is_written_out_and_a_root_constraint_is_checked_at_the_call() -> None:
    pytest.importorskip("mcp.server.mcpserver", reason="written for the SDK 2.x (MCPServer, Client)")
    from semantics_lint.frameworks.mcp import served

    schema = {
        "type": "object",
        "$defs": {
            "day": {
                "type": "string",
                "description": "a day, as 2024-05-01",
                "pattern": r"^\d{4}-\d\d-\d\d$",
            }
        },
        "properties": {"since": {"$ref": "#/$defs/day"}, "until": {"$ref": "#/$defs/day"}},
        "anyOf": [{"required": ["since"]}, {"required": ["until"]}],
    }
    calls = Calls()
    function = served(calls.tool(schema))
    from mcp import Client
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("backups")
    server.tool()(function)

    async def main() -> tuple[Any, Any, Any]:
        async with Client(server) as client:
            (tool,) = (await client.list_tools()).tools
            with run_record() as run:
                empty = await client.call_tool("backup_runs", {})
            given = await client.call_tool("backup_runs", {"until": "2024-05-01"})
            return tool, empty, (given, run)

    tool, empty, (given, run) = anyio.run(main)
    since = tool.input_schema["properties"]["since"]
    assert since["description"] == "a day, as 2024-05-01" and since["type"] == "string"
    assert "$ref" not in json.dumps(tool.input_schema)
    assert empty.is_error and empty.content[0].text.startswith("refused: backup_runs: the arguments")
    assert [r["kind"] for r in run.results] == ["refusal"]
    assert not given.is_error
    assert calls.seen == [{"until": "2024-05-01"}]


@pytest.mark.parametrize(
    ("execute", "schema", "refused"),
    [
        (lambda vm: {}, SCHEMA, "declares 'days', which execute does not take"),
        (lambda vm, days: {}, SCHEMA, "does not require 'days', which execute needs"),
        (lambda **kw: {}, {"type": "objekt"}, "is not a valid JSON schema"),
        (lambda **kw: {}, {"type": "array"}, "must describe an object of arguments"),
        (
            lambda **kw: {},
            {"properties": {"start-date": {}}},
            "'start-date' that cannot be a Python",
        ),
        (
            lambda **kw: {},
            {
                "$defs": {"n": {"properties": {"next": {"$ref": "#/$defs/n"}}}},
                "properties": {"head": {"$ref": "#/$defs/n"}},
            },
            "refers to itself through '#/$defs/n'",
        ),
        (lambda **kw: {}, {"properties": {"a": {"$ref": "#/$defs/none"}}}, "points nowhere"),
        (lambda **kw: {}, {"properties": {}, "required": ["a"]}, "requires 'a', which is not"),
    ],
)
def test_a_schema_execute_cannot_be_called_with_is_refused_when_served(
    execute: Any, schema: dict[str, Any], refused: str
) -> None:
    from semantics_lint.frameworks.mcp import served

    tool = define_tool(name="t", execute=execute, inputSchema=schema)
    with pytest.raises(Refusal, match=r"^refused: define_tool\('t'\): inputSchema ") as raised:
        served(tool)
    assert refused in str(raised.value)


def test_a_frameworks_context_parameter_stays_out_of_the_declared_schema() -> None:
    """``execute`` takes the framework's context beside the declared arguments: the
    MCP server's ``Context``, Pydantic AI's ``RunContext`` (``Agent.tool``)."""
    pytest.importorskip("mcp.server.mcpserver", reason="written for the SDK 2.x (MCPServer, Client)")
    from mcp import Client
    from mcp.server.mcpserver import Context, MCPServer

    from semantics_lint.frameworks.mcp import served

    def mcp_execute(ctx: Context, **arguments: Any) -> dict[str, Any]:
        return {"context": type(ctx).__name__, **arguments}

    # This module's annotations are text, and Context is imported here, not at the top.
    mcp_execute.__annotations__["ctx"] = Context

    server = MCPServer("backups")
    server.tool()(served(define_tool(name="runs", execute=mcp_execute, inputSchema=SCHEMA)))

    async def main() -> tuple[Any, Any]:
        async with Client(server) as client:
            (tool,) = (await client.list_tools()).tools
            return tool, await client.call_tool("runs", {"vm": "vm1"})

    tool, result = anyio.run(main)
    assert list(tool.input_schema["properties"]) == ["vm", "days"]
    assert json.loads(result.content[0].text) == {"context": "Context", "vm": "vm1"}

    pytest.importorskip("pydantic_ai", reason="Pydantic AI is not installed")
    from pydantic_ai import Agent, RunContext
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from semantics_lint.frameworks.pydantic_ai import served as pydantic_served

    def pydantic_execute(ctx: RunContext[str], **arguments: Any) -> dict[str, Any]:
        return {"deps": ctx.deps, **arguments}

    pydantic_execute.__annotations__["ctx"] = RunContext[str]

    def model(messages: list[Any], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            assert list(info.function_tools[0].parameters_json_schema["properties"]) == [
                "vm",
                "days",
            ]
            return ModelResponse(parts=[ToolCallPart("runs", {"vm": "vm1"}, tool_call_id="c1")])
        return ModelResponse(parts=[TextPart("done")])

    agent = Agent(FunctionModel(model), deps_type=str)
    agent.tool(pydantic_served(define_tool(name="runs", execute=pydantic_execute, inputSchema=SCHEMA)))
    result = agent.run_sync("?", deps="zrh")
    (part,) = [p for m in result.all_messages() for p in m.parts if isinstance(p, ToolReturnPart)]
    assert json.loads(part.content) == {"deps": "zrh", "vm": "vm1"}
