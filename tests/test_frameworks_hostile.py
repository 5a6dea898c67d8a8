"""Hostile values through every adapter and its real framework (MCP over stdio too).

A lone surrogate in a value or a key, NaN and infinities, an int JavaScript cannot hold,
a pydantic model, a dataclass, a ``str``, a refusal, an exception that is no refusal:

* what the seam writes (JSON data, a ``str``) reaches the model as ``tool_message``'s
  text, always valid UTF-8;
* what it does not write (not JSON data) reaches the model exactly as the framework
  writes it for the same tool registered without the adapter;
* a refusal is the call's error result, an exception the framework's own policy;
* the server stays up and later calls work; an agent run goes on and ends.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed: pip install -e '.[test]'")

import anyio  # noqa: E402  (installed with mcp)
from hostile_values import JSON_DATA, NOT_JSON, TEXTS, build_server, hostile, plain  # noqa: E402

import semantics_lint  # noqa: E402
from semantics_lint.frameworks.mcp import RECORD_KEY  # noqa: E402
from semantics_lint.runtime import tool_message  # noqa: E402

SERVED = (*JSON_DATA, *TEXTS)


def written(which: str) -> str:
    """What the seam writes for ``hostile(which)``: valid UTF-8."""
    text = tool_message(hostile(which)).text
    text.encode("utf-8")
    return text


RECORDS_READ: dict[str, Any] = {
    "surrogate": {"note": "cut from UTF-16: \\ud800 here", "ok": "Zürich"},
    "surrogate_key": {"k\\udc80ey": 1, "pair": "\U0001f600"},
    "surrogate_keys": {"r\\udcffport.txt": 1, "r\\udcfeport.txt": 2},
    "nan": {"ratio": None, "top": None, "floor": None},
    "text": "3 backups, all green",
    "surrogate_text": "a \\udcff b",
    "envelope": [{"entity": "vm-\\ud800", "note": "a\\udc00"}],  # its facts
}
"""The record a client reads in ``_meta``: NaN as null, a lone surrogate as the text of
its escape (``\\ud800``, six characters), so two keys apart stay apart."""


def wire(result: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = result.model_dump(by_alias=True, exclude_none=True, mode="json")
    dumped.pop("_meta", None)  # the server's own details
    return dumped


# -- MCP -----------------------------------------------------------------------------


async def mcp_session_checks(call: Any, native: Any = None) -> None:
    """Every hostile value, then a plain call: answered each, and the session goes on.
    ``hostile``'s record rides ``_meta`` as JSON data (NaN as null, a lone surrogate as
    the text of its escape)."""
    for which in SERVED:
        result = await call("hostile", {"which": which})
        assert not result.is_error, which
        assert [c.text for c in result.content] == [written(which)], which
        record = result.meta[RECORD_KEY]
        if which == "envelope":
            assert record["af_semantics"] is True  # the whole envelope
            record = record["facts"]
        assert record == RECORDS_READ[which], which
    for which in NOT_JSON:
        result = await call("hostile", {"which": which})
        if native is not None:
            assert wire(result) == wire(await native("hostile", {"which": which})), which
        assert result.content, which
    refused = await call("hostile", {"which": "refusal"})
    assert refused.is_error and refused.content[0].text.startswith("refused: ")
    crashed = await call("hostile", {"which": "crash"})
    assert crashed.is_error and not crashed.content[0].text.startswith("refused: ")
    after = await call("plain", {"n": 2})
    assert not after.is_error and after.content[0].text == tool_message(plain(2)).text


def native_server() -> Any:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("native")
    server.tool()(hostile)
    return server


def test_mcp_sdk_in_memory() -> None:
    pytest.importorskip(
        "mcp.server.mcpserver", reason="written for the SDK 2.x (its results' snake_case fields)"
    )
    from mcp import Client

    async def main() -> None:
        async with Client(build_server()) as client, Client(native_server()) as native:
            await mcp_session_checks(client.call_tool, native.call_tool)

    anyio.run(main)


def test_fastmcp_in_memory() -> None:
    fastmcp = pytest.importorskip("fastmcp", reason="fastmcp is not installed")
    from semantics_lint.frameworks.mcp import served

    server, native = fastmcp.FastMCP("hostile"), fastmcp.FastMCP("native")
    server.tool(served(hostile, record_in_meta=True))
    server.tool(served(plain))
    native.tool(hostile)

    async def main() -> None:
        async with fastmcp.Client(server) as client, fastmcp.Client(native) as reference:
            await mcp_session_checks(client.call_tool_mcp, reference.call_tool_mcp)

    anyio.run(main)


def test_mcp_over_stdio_the_server_stays_up(tmp_path: Path) -> None:
    pytest.importorskip(
        "mcp.server.mcpserver", reason="written for the SDK 2.x (its results' snake_case fields)"
    )
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    tests = str(Path(__file__).parent)
    package = str(Path(semantics_lint.__file__).parent.parent)
    script = tmp_path / "server.py"
    script.write_text(
        f"import runpy, sys\nsys.path[:0] = [{tests!r}, {package!r}]\n"
        "runpy.run_module('hostile_values', run_name='__main__')\n",
        encoding="utf-8",
    )
    params = StdioServerParameters(command=sys.executable, args=[str(script)])
    errors = tmp_path / "stderr.txt"

    async def main() -> None:
        with errors.open("w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    await mcp_session_checks(session.call_tool)
                    # Twice: nothing the first round served broke the connection.
                    await mcp_session_checks(session.call_tool)

    anyio.run(main)


# -- OpenAI Agents -------------------------------------------------------------------


def _agents_outputs(tool: Any, names: tuple[str, ...]) -> dict[str, str]:
    from agents import Agent, RunConfig, Runner
    from agents.testing import ScriptedModel, assistant_message, function_call

    calls = [function_call("hostile", {"which": name}, call_id=name) for name in names]
    model = ScriptedModel([calls, [assistant_message("done")]])
    agent = Agent(name="hostile", model=model, tools=[tool])
    result = asyncio.run(Runner.run(agent, "?", run_config=RunConfig(tracing_disabled=True)))
    model.assert_complete()  # one answer per call, and no call asked again
    assert result.final_output == "done"
    return {
        item["call_id"]: item["output"]
        for item in model.calls[-1].input
        if isinstance(item, dict) and item.get("type") == "function_call_output"
    }


def test_openai_agents_run_goes_on_and_ends() -> None:
    pytest.importorskip("agents", reason="the OpenAI Agents SDK is not installed")
    from agents import function_tool as sdk_function_tool

    from semantics_lint.frameworks.openai_agents import function_tool

    names = (*SERVED, *NOT_JSON, "refusal", "crash")
    read = _agents_outputs(function_tool(hostile), names)
    native = _agents_outputs(sdk_function_tool(hostile), (*NOT_JSON, "crash"))
    for which in SERVED:
        assert read[which] == written(which), which
    for which in NOT_JSON:
        assert read[which] == native[which], which
    assert read["refusal"].startswith("refused: ")
    # Another exception keeps the SDK's own policy: the text a plain SDK tool gives.
    assert read["crash"] == native["crash"]


def test_openai_agents_custom_data_keeps_keys_apart_as_meta_does() -> None:
    pytest.importorskip("agents", reason="the OpenAI Agents SDK is not installed")
    from agents import Agent, RunConfig, Runner
    from agents.items import ToolCallOutputItem
    from agents.testing import ScriptedModel, assistant_message, function_call

    from semantics_lint.frameworks.openai_agents import function_tool

    names = ("surrogate", "surrogate_key", "surrogate_keys", "nan", "surrogate_text")
    calls = [function_call("hostile", {"which": name}, call_id=name) for name in names]
    model = ScriptedModel([calls, [assistant_message("done")]])
    agent = Agent(name="hostile", model=model, tools=[function_tool(hostile)])
    result = asyncio.run(Runner.run(agent, "?", run_config=RunConfig(tracing_disabled=True)))
    custom = {
        item.call_id: item.custom_data for item in result.new_items if isinstance(item, ToolCallOutputItem)
    }
    for which in names:
        assert custom[which] == {RECORD_KEY: RECORDS_READ[which]}, which


# -- LangChain -----------------------------------------------------------------------


def test_langchain_tool_messages() -> None:
    pytest.importorskip("langchain_core", reason="LangChain is not installed")
    from langchain_core.tools import StructuredTool

    from semantics_lint.frameworks.langchain import tool

    served, native = tool(hostile), StructuredTool.from_function(hostile)

    def invoke(on: Any, which: str) -> Any:
        return on.invoke({"type": "tool_call", "id": which, "name": "hostile", "args": {"which": which}})

    for which in SERVED:
        message = invoke(served, which)
        assert (message.status, message.content) == ("success", written(which)), which
    for which in NOT_JSON:
        message = invoke(served, which)
        assert (message.status, message.content) == ("success", invoke(native, which).content)
    assert invoke(served, "refusal").status == "error"
    with pytest.raises(KeyError):  # LangChain's policy for an exception
        invoke(served, "crash")
    assert invoke(served, "text").content == "3 backups, all green"


# -- Pydantic AI ---------------------------------------------------------------------


def _pydantic_ai_reads(function: Any, names: tuple[str, ...]) -> dict[str, Any]:
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    def model(messages: list[Any], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("hostile", {"which": n}, tool_call_id=n) for n in names])
        return ModelResponse(parts=[TextPart("done")])

    agent = Agent(FunctionModel(model))
    agent.tool_plain(function)
    result = agent.run_sync("?")
    assert result.output == "done"
    return {
        part.tool_call_id: (part.outcome, part.model_response_str())
        for message in result.all_messages()
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    }


def test_pydantic_ai_run_goes_on() -> None:
    pytest.importorskip("pydantic_ai", reason="Pydantic AI is not installed")
    from semantics_lint.frameworks.pydantic_ai import served

    read = _pydantic_ai_reads(served(hostile), (*SERVED, *NOT_JSON, "refusal"))
    native = _pydantic_ai_reads(hostile, NOT_JSON)
    for which in SERVED:
        assert read[which] == ("success", written(which)), which
    for which in NOT_JSON:
        assert read[which] == native[which], which
    assert read["refusal"][0] == "failed"
    with pytest.raises(KeyError):  # Pydantic AI's policy for an exception
        _pydantic_ai_reads(served(hostile), ("crash",))


# --- an async tool under a plain (sync) decorator ------------------------------------------


def _logged(function: Any) -> Any:
    """A decorator as applications write them: sync, so the async tool it wraps gives
    the framework a coroutine to await."""
    import functools

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return function(*args, **kwargs)

    return wrapper


@_logged
async def _wrapped_status(vm: str) -> dict[str, Any]:
    """Backup posture of one VM."""
    from semantics_lint.runtime import described_result

    return described_result(
        facts=[{"entity": vm, "ok": True}],
        provenance={"measuredAt": "2024-05-01T00:00:00Z", "source": "backup export"},
        coverage={"checked": ["every job"]},
        render={"default": "table"},
    )


def test_an_async_tool_under_a_sync_decorator_is_served_when_the_framework_awaits_it() -> None:
    fastmcp = pytest.importorskip("fastmcp", reason="fastmcp is not installed")
    pytest.importorskip("pydantic_ai", reason="Pydantic AI is not installed")
    from pydantic_ai import Agent
    from pydantic_ai.messages import ToolReturnPart
    from pydantic_ai.models.test import TestModel

    from semantics_lint.frameworks import mcp, pydantic_ai
    from semantics_lint.runtime import run_record

    async def through_fastmcp() -> str:
        server = fastmcp.FastMCP("wrapped")
        server.tool(mcp.served(_wrapped_status))
        async with fastmcp.Client(server) as client:
            return (await client.call_tool_mcp("_wrapped_status", {"vm": "vm1"})).content[0].text

    expected = tool_message(asyncio.run(_wrapped_status.__wrapped__("vm1"))).text
    with run_record() as run:
        text = anyio.run(through_fastmcp)
    assert text == expected
    assert "af_semantics" not in text and "render" not in text and "checked" not in text
    assert [entry["tool"] for entry in run.results] == ["_wrapped_status"]

    agent = Agent(TestModel())
    agent.tool_plain(pydantic_ai.served(_wrapped_status))
    with run_record() as run:
        result = agent.run_sync("?")
    part = next(p for m in result.all_messages() for p in m.parts if isinstance(p, ToolReturnPart))
    assert "af_semantics" not in part.model_response_str() and "render" not in part.model_response_str()
    assert [entry["tool"] for entry in run.results] == ["_wrapped_status"]
