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
server builds the same input schema; a ``define_tool`` tool's declared
``inputSchema`` is served as its properties, advertised and validated by the server)
and has no return annotation, so no server derives an output schema. Each call
returns a ``CallToolResult`` made from ``tool_message(value)``:

* one text content item whose ``text`` is what the model reads, and nothing else by
  default: no ``structuredContent`` (a tool with no output schema has none to
  conform to, and the text already says it all);
* ``_meta["semantics-lint/record"]``: the record (the whole envelope, or the value),
  only when the tool is served with ``record_in_meta=True``, as JSON data any client
  can read (``NaN`` as null, a lone surrogate as the text of its escape, ``\\ud800``);
* ``isError=True`` for a refusal raised inside the tool, whose ``refused:`` text is
  the content; the session goes on. Any other exception is re-raised, and the
  server's own error policy applies.

A value the seam does not write (not JSON data: a pydantic model, a dataclass, a set)
is returned to the server as it is, which serializes it as for any tool. Every call
is recorded into the current ``run_record()`` and, through ``define_tool``, seen by the
pytest plugin. It is recorded as the answer to the MCP request that called it (the
request's id) when the server tells it: a tool that takes the server's ``Context``
(any of the three), or any tool under fastmcp, whose current context is read. MCP has
no agent loop on the server's side, so the iteration is None; without a request id
the run's fallback applies (``#n``).
"""

from __future__ import annotations

import inspect
import sys
import typing
from collections.abc import Callable
from typing import Any, Final, overload

from semantics_lint.extras import framework_import

with framework_import(__name__, "mcp"):
    from mcp.types import CallToolResult

from semantics_lint.frameworks._common import (
    RECORD_KEY,
    Outcome,
    Unserved,
    decorator,
    prepare,
    record_entry,
    served_function,
)
from semantics_lint.runtime.mints.tools import Tool
from semantics_lint.runtime.serving.message import ToolMessage

__all__ = ["RECORD_KEY", "call_tool_result", "served"]

_FRAMEWORK: Final = ("mcp", "fastmcp")
"""The servers' packages: their own exceptions (``ToolError``) keep their meaning."""


def call_tool_result(message: ToolMessage, *, record_in_meta: bool = False) -> CallToolResult:
    """The ``CallToolResult`` of one served result (see the module docstring)."""
    result: dict[str, Any] = {
        "content": [{"type": "text", "text": message.text}],
        "isError": message.is_error,
    }
    meta = record_entry(message) if record_in_meta else None
    if meta:
        result["_meta"] = meta
    return CallToolResult.model_validate(result)


def _context_classes() -> tuple[type, ...]:
    # A parameter annotated with a server's Context class was written by code that
    # imported that server: only the modules already imported are looked in.
    found = (
        getattr(sys.modules.get(module), "Context", None)
        for module in ("mcp.server.mcpserver", "mcp.server.fastmcp", "fastmcp")
    )
    return tuple(c for c in found if inspect.isclass(c))


def _is_context(parameter: inspect.Parameter) -> bool:
    """A parameter the server fills with its ``Context``: annotated with its class."""
    annotation = parameter.annotation
    candidates = [annotation, *typing.get_args(annotation)]
    classes = _context_classes()
    return any(inspect.isclass(c) and issubclass(c, classes) for c in candidates)


def _request_id(context: object) -> str | None:
    try:
        found = getattr(context, "request_id", None)
    except (RuntimeError, LookupError, AttributeError):  # no request under way
        return None
    return None if found is None else str(found)


def _call_ids(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str | None, int | None] | None:
    classes = _context_classes()
    for value in (*args, *kwargs.values()):
        if classes and isinstance(value, classes):
            found = _request_id(value)
            if found is not None:
                return found, None
    # fastmcp's current context, when fastmcp serves the call (its public reader).
    get_context = getattr(sys.modules.get("fastmcp.server.dependencies"), "get_context", None)
    try:
        context = None if get_context is None else get_context()
    except RuntimeError:  # no context: not a fastmcp call
        context = None
    found = None if context is None else _request_id(context)
    return None if found is None else (found, None)


@overload
def served(
    fn_or_tool: Callable[..., Any] | Tool,
    /,
    *,
    result_class: str | None = None,
    record_in_meta: bool = False,
) -> Callable[..., Any]: ...
@overload
def served(
    fn_or_tool: None = None, /, *, result_class: str | None = None, record_in_meta: bool = False
) -> Callable[[Callable[..., Any] | Tool], Callable[..., Any]]: ...
def served(
    fn_or_tool: Callable[..., Any] | Tool | None = None,
    /,
    *,
    result_class: str | None = None,
    record_in_meta: bool = False,
) -> Any:
    """The function an MCP server registers for ``fn_or_tool``.

    Use it as ``@served``, ``@served(result_class="triage")`` or ``served(fn)``.
    ``result_class`` is checked as ``define_tool``'s ``resultClass`` (a refusal at
    definition time, ``refused: ...``); for a ``define_tool`` tool it must agree with
    the tool's own class. ``record_in_meta=True`` puts the record in each result's
    ``_meta`` (a client then reads the whole envelope; the result is about twice as
    large on the wire).
    """

    def finish(outcome: Outcome, _lead: object) -> Any:
        if isinstance(outcome, Unserved):
            return outcome.value
        return call_tool_result(outcome, record_in_meta=record_in_meta)

    def make(given: Callable[..., Any] | Tool) -> Callable[..., Any]:
        prepared = prepare(
            given, result_class=result_class, context=_is_context, extra="mcp", framework=_FRAMEWORK
        )
        return served_function(prepared, finish, calling=_call_ids)

    return decorator(fn_or_tool, make)
