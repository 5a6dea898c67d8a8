"""Tools served over MCP with the real SDK and fastmcp: in memory, and over stdio."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed: pip install -e '.[test]'")

import anyio  # noqa: E402  (installed with mcp)

import semantics_lint  # noqa: E402
from semantics_lint.frameworks.mcp import RECORD_KEY, served  # noqa: E402
from semantics_lint.runtime import (  # noqa: E402
    Refusal,
    absent,
    compose_answer_with_coverage,
    define_tool,
    described_result,
    run_record,
    semantics_for_model,
    tool_message,
)

try:  # the SDK 2.x server; 1.x calls it FastMCP
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # pragma: no cover - SDK 1.x
    from mcp.server.fastmcp import FastMCP as Server


def envelope(vm: str) -> dict[str, Any]:
    return described_result(
        facts=[{"entity": vm, "backed_up": True, "site": "Zürich"}],
        provenance={"measuredAt": "2024-05-01T00:00:00Z", "source": "cohesity export"},
        coverage={
            "checked": ["every backup job in the export"],
            "cannotCover": [{"what": "PPDM", "why": "not collected on this install"}],
        },
        render={"default": "table", "columns": ["entity", "backed_up"]},
    )


def vm_backup_status(vm: str, days: int = 7) -> dict[str, Any]:
    """Backup posture for one VM."""
    if vm == "refuse":
        return described_result(facts=[])
    if vm == "crash":
        raise KeyError("the export is gone")
    return envelope(vm)


async def find_runs(vm: str) -> dict[str, Any]:
    return absent(what=f"backup runs for {vm}", checked=["every backup job in the export"])


def build_server() -> Any:
    server = Server("backups")
    server.tool()(served(result_class="triage", record_in_meta=True)(vm_backup_status))
    tool = define_tool(
        name="find_runs",
        description="Backup runs of one VM.",
        execute=find_runs,
        resultClass="triage",
    )
    server.tool()(served(tool))

    @server.tool()
    @served
    def plain(n: int) -> dict[str, int]:
        """Plain data."""
        return {"n": n, "twice": 2 * n}

    return server


@asynccontextmanager
async def connected(server: Any) -> AsyncIterator[Any]:
    """A client session on ``server`` in memory, with the SDK's own client."""
    try:
        from mcp import Client
    except ImportError:  # pragma: no cover - SDK 1.x
        from mcp.shared.memory import create_connected_server_and_client_session

        async with create_connected_server_and_client_session(server._mcp_server) as session:
            yield session
    else:
        async with Client(server) as client:
            yield client


def wire(result: Any) -> dict[str, Any]:
    """A result as the protocol carries it (camelCase keys, ``_meta``)."""
    dumped: dict[str, Any] = result.model_dump(by_alias=True, exclude_none=True, mode="json")
    return dumped


def check_served_envelope(result: dict[str, Any], vm: str) -> None:
    """The text the seam writes, and nothing else but the record asked for in ``_meta``."""
    model = semantics_for_model(envelope(vm))
    [content] = result["content"]
    assert content == {"type": "text", "text": tool_message(envelope(vm)).text}
    assert content["text"] == json.dumps(model, ensure_ascii=False, separators=(",", ":"))
    assert "af_semantics" not in content["text"] and "render" not in content["text"]
    assert "structuredContent" not in result
    assert result["_meta"][RECORD_KEY] == envelope(vm)
    assert result.get("isError", False) is False


async def session_checks(client: Any) -> None:
    listed = {
        tool.name: tool.model_dump(by_alias=True, exclude_none=True)
        for tool in (await client.list_tools()).tools
    }
    assert set(listed) == {"vm_backup_status", "find_runs", "plain"}
    status = listed["vm_backup_status"]
    assert status["description"] == "Backup posture for one VM."
    assert list(status["inputSchema"]["properties"]) == ["vm", "days"]
    assert status["inputSchema"]["required"] == ["vm"]
    assert all("outputSchema" not in tool for tool in listed.values())
    assert listed["find_runs"]["description"] == "Backup runs of one VM."

    check_served_envelope(wire(await client.call_tool("vm_backup_status", {"vm": "vm1"})), "vm1")

    refused = wire(await client.call_tool("vm_backup_status", {"vm": "refuse"}))
    assert refused["isError"] is True
    [content] = refused["content"]
    assert content["text"].startswith("refused: facts: `facts` is empty")
    assert "structuredContent" not in refused

    crashed = wire(await client.call_tool("vm_backup_status", {"vm": "crash"}))
    assert crashed["isError"] is True  # the server's own policy for an exception
    assert not crashed["content"][0]["text"].startswith("refused:")
    assert RECORD_KEY not in crashed.get("_meta", {})

    # The session goes on after a refusal and an exception.
    found = wire(await client.call_tool("find_runs", {"vm": "vm9"}))
    expected = await find_runs("vm9")
    assert found["content"] == [{"type": "text", "text": tool_message(expected).text}]
    assert "structuredContent" not in found
    assert RECORD_KEY not in found.get("_meta", {})  # not asked for
    plain = wire(await client.call_tool("plain", {"n": 2}))
    assert plain["content"][0]["text"] == '{"n":2,"twice":4}'
    assert "structuredContent" not in plain


def test_official_sdk_in_memory() -> None:
    async def main() -> Any:
        with run_record() as run:
            async with connected(build_server()) as client:
                await session_checks(client)
        return run

    run = anyio.run(main)
    assert [(r["tool"], r["kind"]) for r in run.results] == [
        ("vm_backup_status", "semantics"),
        ("vm_backup_status", "refusal"),
        ("find_runs", "absent"),
        ("plain", "data"),
    ]
    answer = compose_answer_with_coverage("vm1 is backed up; vm9 has no runs.", run.declared)
    assert answer.endswith(
        "Checked:\n- every backup job in the export\n\nCannot cover:\n- PPDM — not collected on this install"
    )


def test_fastmcp_in_memory() -> None:
    fastmcp = pytest.importorskip("fastmcp", reason="fastmcp is not installed: pip install -e '.[test]'")
    server = fastmcp.FastMCP("backups")
    server.tool(served(result_class="triage", record_in_meta=True)(vm_backup_status))
    server.tool(
        served(define_tool(name="find_runs", description="Backup runs of one VM.", execute=find_runs))
    )

    async def main() -> Any:
        with run_record() as run:
            async with fastmcp.Client(server) as client:
                tools = {tool.name: wire(tool) for tool in await client.list_tools()}
                assert "outputSchema" not in tools["vm_backup_status"]
                assert tools["vm_backup_status"]["inputSchema"]["required"] == ["vm"]
                result = await client.call_tool_mcp("vm_backup_status", {"vm": "vm1"})
                check_served_envelope(wire(result), "vm1")
                refused = wire(await client.call_tool_mcp("vm_backup_status", {"vm": "refuse"}))
                assert refused["isError"] is True
                assert refused["content"][0]["text"].startswith("refused: ")
                crashed = wire(await client.call_tool_mcp("vm_backup_status", {"vm": "crash"}))
                assert crashed["isError"] is True
                assert not crashed["content"][0]["text"].startswith("refused:")
                found = wire(await client.call_tool_mcp("find_runs", {"vm": "vm9"}))
                assert found["content"][0]["text"] == tool_message(await find_runs("vm9")).text
                assert "structuredContent" not in found
        return run

    run = anyio.run(main)
    assert [r["kind"] for r in run.results] == ["semantics", "refusal", "absent"]
    assert len(run.declared) == 2


SERVER_SCRIPT = """
import sys
sys.path[:0] = [{tests!r}, {package!r}]
from test_frameworks_mcp import build_server
build_server().run()
"""


def test_official_sdk_over_stdio(tmp_path: Path) -> None:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    script = tmp_path / "server.py"
    # The server process finds this test module and the package where this process does.
    package = str(Path(semantics_lint.__file__).parent.parent)
    script.write_text(
        SERVER_SCRIPT.format(tests=str(Path(__file__).parent), package=package), encoding="utf-8"
    )
    params = StdioServerParameters(command=sys.executable, args=[str(script)])

    async def main() -> None:
        with (tmp_path / "stderr.txt").open("w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    await session_checks(session)

    anyio.run(main)


def test_a_conflicting_result_class_is_refused_at_definition() -> None:
    tool = define_tool(name="t", execute=lambda: 1, resultClass="inventory")
    with pytest.raises(Refusal, match="^refused: 't' is defined with resultClass 'inventory'"):
        served(tool, result_class="triage")
    with pytest.raises(Refusal, match="^refused: .*resultClass 'x' is not a result class"):
        served(result_class="x")(vm_backup_status)


PROJECT_TEST = '''
import anyio
from mcp import Client
from mcp.server.mcpserver import MCPServer

from semantics_lint.frameworks.mcp import served
from semantics_lint.runtime import described_result


def triage(vm: str) -> dict:
    """Triage one VM."""
    return described_result(
        facts=[{"entity": vm, "ok": True}],
        provenance={"measuredAt": "2024-05-01T00:00:00Z", "source": "export"},
    )


def test_triage_answers() -> None:
    server = MCPServer("s")
    server.tool()(served(result_class="triage")(triage))

    async def main() -> None:
        async with Client(server) as client:
            result = await client.call_tool("triage", {"vm": "vm1"})
            assert not result.is_error

    anyio.run(main)
'''


def test_the_pytest_gate_names_a_triage_tool_served_over_mcp(tmp_path: Path) -> None:
    pytest.importorskip("mcp.server.mcpserver", reason="the project test is written for the SDK 2.x")
    (tmp_path / "test_project.py").write_text(textwrap.dedent(PROJECT_TEST), encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--semantics",
            "-q",
            str(tmp_path),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 passed" in done.stdout
    assert "tool 'triage' is declared 'triage'" in done.stdout, done.stdout
    assert "[triage-without-coverage]" in done.stdout, done.stdout


def big_envelope(rows: int) -> dict[str, Any]:
    return described_result(
        facts=[
            {"entity": f"vm-{i:05d}", "backed_up": i % 3 != 0, "site": "Zürich", "note": 'a "word"'}
            for i in range(rows)
        ],
        provenance={"measuredAt": "2024-05-01T00:00:00Z", "source": "cohesity export"},
        coverage={"checked": ["every backup job in the export"]},
        render={"default": "table"},
    )


def test_a_big_result_on_the_wire_is_its_text_once() -> None:
    """The bytes the server writes for a big result are at most 2.2 times the text the
    model reads (no structuredContent, no record unless asked for)."""
    big = big_envelope(5000)
    server = Server("big")
    server.tool(name="big")(served(lambda: big))
    server.tool(name="big_with_record")(served(record_in_meta=True)(lambda: big))

    async def main() -> tuple[Any, Any]:
        return await server.call_tool("big", {}), await server.call_tool("big_with_record", {})

    result, with_record = anyio.run(main)
    text = result.content[0].text
    assert text == tool_message(big).text and len(text) > 300_000
    written = result.model_dump_json(by_alias=True, exclude_none=True).encode()
    assert len(written) <= 2.2 * len(text.encode())
    assert "structuredContent" not in wire(result)
    assert RECORD_KEY not in wire(result).get("_meta", {})
    assert with_record.content == result.content
    assert wire(with_record)["_meta"][RECORD_KEY] == big  # the whole envelope, when asked for


def test_the_serving_benchmark_runs() -> None:
    """``bench/mcp_serving.py`` measures its three tools on a tiny result (no speed is
    asserted here: the figures are the benchmark's)."""
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "bench" / "mcp_serving.py"
    spec = importlib.util.spec_from_file_location("_bench_mcp_serving", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    figures = anyio.run(bench.measure, 20, 1)
    assert set(figures) == {"plain", "served", "served_meta"}
    assert figures["plain"]["time_ratio"] == 1.0
    assert figures["served"]["text_bytes"] < figures["plain"]["text_bytes"]  # the projection
    assert figures["served"]["wire_per_text"] < 2 < figures["served_meta"]["wire_per_text"]
