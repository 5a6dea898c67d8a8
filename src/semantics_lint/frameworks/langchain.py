"""Serve a tool to LangChain: :func:`tool` (``pip install 'semantics-lint[langchain]'``).

``tool(fn)`` takes a plain function or a ``define_tool`` tool, sync or async, and
returns a ``langchain_core`` ``StructuredTool`` with the tool's name, docstring and
parameters (its ``args_schema`` built from the function's signature) and
``response_format="content_and_artifact"``. A ``define_tool`` tool's declared
``inputSchema`` is its ``args_schema``'s properties, which LangChain validates; a
parameter LangChain injects (``InjectedToolArg``, ``RunnableConfig``) stays out of
the schema, as for any tool. Invoked with a tool call
(``{"type": "tool_call", "id": ..., "name": ..., "args": ...}``) it gives a
``ToolMessage``:

* ``content`` is ``tool_message(value).text``, what the model reads: the projection of
  a described result as JSON, an absence or a coverage ledger as written, any other
  value as JSON (a ``str`` as itself);
* ``artifact`` is the record: the whole envelope, or the value (never sent to the
  model);
* a value the seam does not write (not JSON data: a pydantic model, a dataclass) is
  handed to LangChain as the content, which writes it as for any tool (JSON when
  ``json.dumps`` can, else ``str(value)``), with the value as the artifact;
* a refusal raised inside the tool gives ``ToolMessage(status="error",
  content=<its refused: text>)``, and the run goes on;
* any other exception follows LangChain's policy: a ``ToolException`` is handled as
  ``handle_tool_error`` says (by default it propagates), anything else propagates.

Each call is recorded into the current ``run_record()`` and seen by the pytest plugin,
as the answer to LangChain's tool call (the ``id`` of the tool call it was invoked
with, ``ToolMessage.tool_call_id``) in the graph step LangGraph runs it in (the
config's ``langgraph_step``) as its iteration; invoked with bare arguments, it has no
call id and the run's fallback applies (``#n``, no iteration).
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from typing import Any, Final

from semantics_lint.extras import framework_import

with framework_import(__name__, "langchain"):
    from langchain_core.runnables import RunnableConfig
    from langchain_core.tools import InjectedToolArg, StructuredTool, ToolException

    # LangChain's own handling of a ToolException by a handle_tool_error flag (True, a
    # text, a function), which BaseTool.run applies; reused so that a flag means here
    # exactly what it means there (tests/test_frameworks_langchain.py compares them).
    from langchain_core.tools.base import _handle_tool_error

from semantics_lint.frameworks._common import Outcome, Unserved, prepare, served_function
from semantics_lint.runtime.claims.check import contracts_open, tool_call
from semantics_lint.runtime.mints.tools import Tool

__all__ = ["tool"]

_FRAMEWORK: Final = ("langchain_core", "langchain")
"""LangChain's packages: a ``ToolException`` keeps its meaning, whatever its text says."""

ToolErrorHandling = bool | str | Callable[[ToolException], Any] | None
"""What LangChain's ``handle_tool_error`` takes."""


class _Refused(ToolException):
    """A refusal raised inside the tool, on its way to an error ``ToolMessage``."""


def _content_and_artifact(outcome: Outcome, _lead: object) -> tuple[Any, Any]:
    if isinstance(outcome, Unserved):
        return outcome.value, outcome.value
    if outcome.is_error:
        raise _Refused(outcome.text)
    return outcome.text, outcome.record


def _injected(annotation: object) -> bool:
    return any(
        isinstance(arg, InjectedToolArg) or (inspect.isclass(arg) and issubclass(arg, InjectedToolArg))
        for arg in (annotation, *typing.get_args(annotation)[1:])
    )


def _is_context(parameter: inspect.Parameter) -> bool:
    """A parameter LangChain fills: an injected argument, or the run's config."""
    return parameter.annotation is RunnableConfig or _injected(parameter.annotation)


def _tool_errors(handle_tool_error: ToolErrorHandling) -> Callable[[ToolException], Any]:
    """LangChain's ``handle_tool_error``, with a refusal always handled as its text."""

    def handle(exc: ToolException) -> Any:
        if isinstance(exc, _Refused):
            return str(exc)
        if not handle_tool_error:
            raise exc
        return _handle_tool_error(exc, flag=handle_tool_error)

    return handle


def _step(config: object) -> int | None:
    metadata = config.get("metadata") if isinstance(config, dict) else None
    step = metadata.get("langgraph_step") if isinstance(metadata, dict) else None
    return step if isinstance(step, int) and not isinstance(step, bool) else None


class _ServedTool(StructuredTool):
    """A ``StructuredTool`` whose results are recorded as the answer to its tool call."""

    def run(self, tool_input: Any, *args: Any, **kwargs: Any) -> Any:
        if not contracts_open():
            return super().run(tool_input, *args, **kwargs)
        with tool_call(kwargs.get("tool_call_id"), _step(kwargs.get("config"))):
            return super().run(tool_input, *args, **kwargs)

    async def arun(self, tool_input: Any, *args: Any, **kwargs: Any) -> Any:
        if not contracts_open():
            return await super().arun(tool_input, *args, **kwargs)
        with tool_call(kwargs.get("tool_call_id"), _step(kwargs.get("config"))):
            return await super().arun(tool_input, *args, **kwargs)


def tool(
    fn_or_tool: Callable[..., Any] | Tool,
    /,
    *,
    result_class: str | None = None,
    name: str | None = None,
    description: str | None = None,
    handle_tool_error: ToolErrorHandling = False,
    **kwargs: Any,
) -> StructuredTool:
    """A LangChain ``StructuredTool`` serving ``fn_or_tool`` (see the module docstring).

    ``result_class`` declares the tool's result class, as ``define_tool``'s
    ``resultClass``. ``name`` and ``description`` rename and redescribe a plain
    function (a ``define_tool`` tool keeps its own). ``handle_tool_error`` applies to
    each ``ToolException`` the tool raises itself, as in LangChain (one left
    unhandled propagates, without the ``on_tool_error`` callback); a refusal is always
    the call's error result. Every other keyword (``parse_docstring``,
    ``return_direct``, ``tags``, ...) goes to ``StructuredTool.from_function``.
    """
    prepared = prepare(
        fn_or_tool,
        result_class=result_class,
        name=name,
        description=description,
        context=_is_context,
        extra="langchain",
        framework=_FRAMEWORK,
    )
    function = served_function(prepared, _content_and_artifact)
    return _ServedTool.from_function(
        func=None if prepared.is_async else function,
        coroutine=function if prepared.is_async else None,
        name=prepared.name,
        response_format="content_and_artifact",
        handle_tool_error=_tool_errors(handle_tool_error),
        **kwargs,
    )
