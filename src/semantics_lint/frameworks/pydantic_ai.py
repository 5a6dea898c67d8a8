"""Serve a tool to Pydantic AI: :func:`served` (``pip install 'semantics-lint[pydantic-ai]'``).

``served(fn)`` (or ``served(fn, result_class=...)``, ``@served``,
``@served(result_class=...)``) takes a plain function or a ``define_tool`` tool, sync
or async, and returns the function to register with ``Agent.tool_plain``,
``Agent(tools=[...])`` or ``Tool(...)``: the tool's name, docstring and parameters
(Pydantic AI builds the input schema from them), async exactly when the tool is. Each
call returns ``ToolReturn(return_value=model, metadata=record)``:

* ``return_value`` is ``tool_message(value).model``, what the model reads (Pydantic
  AI writes it as JSON): the projection of a described result, an absence or a
  coverage ledger as written, any other value unchanged;
* ``metadata`` is the record, the whole envelope or the value: it lands on the
  ``ToolReturnPart.metadata`` of the message history, never sent to the model;
* a refusal raised inside the tool is raised as Pydantic AI's ``ToolFailed`` with its
  ``refused:`` text: a failed tool call (``ToolReturnPart.outcome == "failed"``) whose
  text the model reads, with no retry instruction and no retry budget spent, and the
  run goes on;
* any other exception propagates, as Pydantic AI's policy says (``ModelRetry`` still
  asks the model to retry; anything else ends the run).

Each call is recorded into the current ``run_record()`` and seen by the pytest plugin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, overload

from pydantic_ai import ToolFailed, ToolReturn

from semantics_lint.frameworks._common import prepare, served_function
from semantics_lint.runtime.serving import ToolMessage
from semantics_lint.runtime.tools import Tool

__all__ = ["served"]


def _tool_return(message: ToolMessage) -> ToolReturn[Any]:
    if message.is_error:
        raise ToolFailed(message.text)
    return ToolReturn(return_value=message.model, metadata=message.record)


def _serve(fn_or_tool: Callable[..., Any] | Tool, result_class: str | None) -> Callable[..., Any]:
    return served_function(prepare(fn_or_tool, result_class=result_class), _tool_return)


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
    if fn_or_tool is None:

        def decorate(fn: Callable[..., Any] | Tool) -> Callable[..., Any]:
            return _serve(fn, result_class)

        return decorate
    return _serve(fn_or_tool, result_class)
