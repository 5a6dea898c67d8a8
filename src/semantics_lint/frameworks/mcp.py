"""Serve a tool over MCP: the official SDK (1.x ``FastMCP``, 2.x ``MCPServer``) and fastmcp.

``pip install 'semantics-lint[mcp]'``. :func:`served` turns a function or a
``define_tool`` tool into the function an MCP server registers::

    server = MCPServer("backups")           # or FastMCP("backups"), either package

    @server.tool()
    @served(result_class="triage")
    def vm_backup_status(vm: str) -> dict:
        \"\"\"Backup posture for one VM.\"\"\"
        return described_result(...)

The registered function keeps the tool's name, docstring and parameters (so the
server builds the same input schema) and is annotated to return ``CallToolResult``,
which every one of these servers passes through as it is and from which none derives
an output schema. Each call returns a ``CallToolResult`` made from
``tool_message(value)``:

* one text content item whose ``text`` is what the model reads;
* ``structuredContent``: the model's view when it is a JSON object (never the
  envelope: the projection of a described result, an absence or a ledger as
  written, a plain dict), else none;
* ``_meta["semantics-lint/record"]``: the record (the whole envelope, or the value);
* ``isError=True`` for a refusal raised inside the tool, whose ``refused:`` text is
  the content; the session goes on. Any other exception is re-raised, and the
  server's own error policy applies.

Every call is recorded into the current ``run_record()`` and, through
``define_tool``, seen by the pytest plugin.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, overload

from mcp.types import CallToolResult

from semantics_lint.frameworks._common import RECORD_KEY, prepare, served_function
from semantics_lint.runtime.serving import ToolMessage
from semantics_lint.runtime.tools import Tool

__all__ = ["RECORD_KEY", "call_tool_result", "served"]


def call_tool_result(message: ToolMessage) -> CallToolResult:
    """The ``CallToolResult`` of one served result (see the module docstring)."""
    result: dict[str, Any] = {
        "content": [{"type": "text", "text": message.text}],
        "isError": message.is_error,
        "_meta": {RECORD_KEY: message.record},
    }
    if not message.is_error and isinstance(message.model, dict):
        # The JSON the model reads, as an object: dates already ISO text.
        result["structuredContent"] = json.loads(message.text)
    return CallToolResult.model_validate(result)


@overload
def served(
    fn_or_tool: Callable[..., Any] | Tool, /, *, result_class: str | None = None
) -> Callable[..., Any]: ...
@overload
def served(
    fn_or_tool: None = None, /, *, result_class: str | None = None
) -> Callable[[Callable[..., Any] | Tool], Callable[..., Any]]: ...
def served(
    fn_or_tool: Callable[..., Any] | Tool | None = None, /, *, result_class: str | None = None
) -> Any:
    """The function an MCP server registers for ``fn_or_tool``.

    Use it as ``@served``, ``@served(result_class="triage")`` or ``served(fn)``.
    ``result_class`` is checked as ``define_tool``'s ``resultClass`` (a refusal at
    definition time, ``refused: ...``); for a ``define_tool`` tool it must agree with
    the tool's own class.
    """
    if fn_or_tool is None:
        return lambda given: served(given, result_class=result_class)
    prepared = prepare(fn_or_tool, result_class=result_class)
    return served_function(prepared, call_tool_result, returns=CallToolResult)
