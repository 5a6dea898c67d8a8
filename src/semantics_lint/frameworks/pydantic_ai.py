"""Serve a tool to Pydantic AI: :func:`served` (``pip install 'semantics-lint[pydantic-ai]'``).

``served(fn)`` (or ``served(fn, result_class=...)``, ``@served``,
``@served(result_class=...)``) takes a plain function or a ``define_tool`` tool, sync
or async, and returns the function to register with ``Agent.tool_plain``,
``Agent(tools=[...])`` or ``Tool(...)``: the tool's name, docstring and parameters
(Pydantic AI builds the input schema from them; a ``define_tool`` tool's declared
``inputSchema`` is served as its properties, which Pydantic AI validates), async
exactly when the tool is; a first parameter annotated ``RunContext[...]`` gets the
run's context, for ``Agent.tool``. Each call returns
``ToolReturn(return_value=text, metadata=record)``:

* ``return_value`` is ``tool_message(value).text``, a ``str``, which Pydantic AI
  hands to the model as it is: the text every adapter serves (the projection of a
  described result as JSON, an absence or a coverage ledger as written, any other
  value as JSON, a ``str`` as itself), never Pydantic AI's own writing of a dict;
* ``metadata`` is the record, the whole envelope or the value: it lands on the
  ``ToolReturnPart.metadata`` of the message history, never sent to the model;
* a refusal raised inside the tool is raised as Pydantic AI's ``ToolFailed`` with its
  ``refused:`` text: a failed tool call (``ToolReturnPart.outcome == "failed"``) whose
  text the model reads, with no retry instruction and no retry budget spent, and the
  run goes on;
* any other exception propagates, as Pydantic AI's policy says (``ModelRetry`` still
  asks the model to retry; anything else ends the run);
* a value the seam does not write (not JSON data: a pydantic model, a dataclass) is
  returned to Pydantic AI as it is, which serializes it as for any tool.

Each call is recorded into the current ``run_record()`` and seen by the pytest plugin.
It is recorded as the answer to Pydantic AI's tool call (``RunContext.tool_call_id``,
and ``RunContext.run_step`` as its iteration) when the tool takes a ``RunContext``, or
when the agent runs with the :func:`tool_call_ids` capability
(``Agent(..., capabilities=[tool_call_ids()])``), which reads them for every tool,
``tool_plain`` ones too; otherwise the run's fallback applies (``#n``, no iteration).
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, overload

from semantics_lint.extras import framework_import

with framework_import(__name__, "pydantic-ai"):
    from pydantic_ai import RunContext, ToolFailed, ToolReturn
    from pydantic_ai.capabilities import AbstractCapability

from semantics_lint.frameworks._common import Outcome, Unserved, decorator, prepare, served_function
from semantics_lint.runtime.claims.check import contracts_open, tool_call
from semantics_lint.runtime.mints.tools import Tool

__all__ = ["served", "tool_call_ids"]

_FRAMEWORK: Final = ("pydantic_ai",)
"""Pydantic AI's package: ``ModelRetry``, ``ToolFailed``, ``CallDeferred`` and its other
exceptions keep their meaning, whatever their text says."""


def _tool_return(outcome: Outcome, _lead: object) -> Any:
    if isinstance(outcome, Unserved):
        return outcome.value
    if outcome.is_error:
        raise ToolFailed(outcome.text)
    return ToolReturn(return_value=outcome.text, metadata=outcome.record)


def _is_context(parameter: inspect.Parameter) -> bool:
    """A parameter Pydantic AI fills: annotated ``RunContext[...]``."""
    annotation = parameter.annotation
    return (typing.get_origin(annotation) or annotation) is RunContext


def _call_ids(args: tuple[Any, ...], _kwargs: dict[str, Any]) -> tuple[str | None, int | None] | None:
    context = args[0] if args else None
    if isinstance(context, RunContext) and context.tool_call_id is not None:
        return context.tool_call_id, context.run_step
    return None


@dataclass
class _ToolCallIds(AbstractCapability[Any]):
    """Each tool call's results recorded as the answer to that call (see :func:`tool_call_ids`)."""

    async def wrap_tool_execute(
        self, ctx: RunContext[Any], *, call: Any, tool_def: Any, args: Any, handler: Any
    ) -> Any:
        if not contracts_open():
            return await handler(args)
        with tool_call(call.tool_call_id, ctx.run_step):
            return await handler(args)


def tool_call_ids() -> AbstractCapability[Any]:
    """A Pydantic AI capability: every served result of a tool call is recorded with
    that call's ``tool_call_id`` and the run step (``Agent(..., capabilities=[...])``)."""
    return _ToolCallIds()


def _serve(fn_or_tool: Callable[..., Any] | Tool, result_class: str | None) -> Callable[..., Any]:
    prepared = prepare(
        fn_or_tool,
        result_class=result_class,
        context=_is_context,
        extra="pydantic-ai",
        framework=_FRAMEWORK,
    )
    return served_function(prepared, _tool_return, calling=_call_ids)


@overload
def served(
    fn_or_tool: Callable[..., Any] | Tool, /, *, result_class: str | None = None
) -> Callable[..., Any]: ...
@overload
def served(
    *, result_class: str | None = None
) -> Callable[[Callable[..., Any] | Tool], Callable[..., Any]]: ...
def served(
    fn_or_tool: Callable[..., Any] | Tool | None = None,
    /,
    *,
    result_class: str | None = None,
) -> Callable[..., Any]:
    """The function Pydantic AI registers for ``fn_or_tool`` (see the module docstring).

    ``result_class`` declares the tool's result class, as ``define_tool``'s
    ``resultClass``. Rename or redescribe the tool where Pydantic AI registers it
    (``Agent.tool_plain(name=..., description=...)``, ``Tool(name=...)``).
    """
    return decorator(fn_or_tool, lambda given: _serve(given, result_class))
