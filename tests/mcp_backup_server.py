"""The MCP server the tracing tests start in a process of their own (OpenTelemetry's
global provider is set once per process): three served tools, one of them refused, and
the calls a client makes to each in turn."""

from __future__ import annotations

from typing import Any

from backup_tool import backup_status, vm_backup_status_async
from mcp import Client
from mcp.server.mcpserver import MCPServer

from semantics_lint.frameworks.mcp import served
from semantics_lint.runtime import described_result

server = MCPServer("backups")

TOOLS = ("vm_backup_status", "vm_backup_status_async", "vm_refused")


@server.tool()
@served
def vm_backup_status(vm: str) -> dict[str, Any]:
    "Backup posture for one VM."
    return backup_status(vm)


server.tool()(served(vm_backup_status_async))


@server.tool()
@served
def vm_refused(vm: str) -> dict[str, Any]:
    "Always refused: facts without provenance."
    return described_result(facts=[{"entity": vm, "backed_up": True}])


async def call_each() -> list[list[Any]]:
    """Each tool called once through an in-memory client: ``[is_error, text]`` of each."""
    read = []
    async with Client(server) as client:
        for name in TOOLS:
            result = await client.call_tool(name, {"vm": "vm-01"})
            read.append([result.is_error, result.content[0].text])
    return read
