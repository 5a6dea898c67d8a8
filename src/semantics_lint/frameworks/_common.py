"""What every framework adapter shares: one tool, its signature, and the served call.

No third-party import. An adapter is built in three steps:

1. :func:`prepare` takes what the user gave (a plain function, sync or async, or a
   ``define_tool`` tool) and an optional ``result_class``, and returns a
   :class:`Prepared`: ONE :class:`~semantics_lint.runtime.tools.Tool` made through
   ``define_tool`` (so the pytest plugin sees the definition and every value it
   returns), the tool's name and description, and the ``inspect.Signature`` of the
   underlying function with its annotations resolved, from which the framework builds
   the tool's input schema.
2. :func:`call_prepared` (sync) or :func:`call_prepared_async` (async) runs the tool
   and returns a :class:`~semantics_lint.runtime.serving.ToolMessage`: the value
   through ``tool_message``, a refusal raised inside the tool through
   ``refusal_message`` (``is_error=True``, its ``refused:`` text); any other exception
   is re-raised unchanged, for the framework's own error policy. Each served result
   (refusals included) is recorded into the current ``run_record()``.
3. :func:`served_function` builds the function a framework registers: the tool's
   name, docstring and parameters, async exactly when the tool is, returning what the
   adapter's ``finish`` makes of the ``ToolMessage`` (a framework's result type).

What a value means is decided in the seam (``tool_message``) only; an adapter only
translates a ``ToolMessage`` into its framework's result type.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypeVar, cast

from semantics_lint.runtime.refusal import BAD_VALUE, Refusal
from semantics_lint.runtime.record import record_served
from semantics_lint.runtime.serving import ToolMessage, refusal_message, tool_message
from semantics_lint.runtime.tools import AsyncTool, Tool, define_tool

if TYPE_CHECKING:
    from semantics_lint.runtime.types import ToolDefinition

RECORD_KEY: Final = "semantics-lint/record"
"""Where an adapter puts the record (the whole envelope) beside what the model reads."""

__all__ = [
    "RECORD_KEY",
    "Prepared",
    "call_prepared",
    "call_prepared_async",
    "prepare",
    "served_function",
]

R = TypeVar("R")


class Prepared(NamedTuple):
    """A tool ready to serve.

    * ``tool``: the one ``define_tool`` tool every call goes through;
    * ``name``: the tool's name (the function's ``__name__`` or the tool's ``name``);
    * ``description``: the tool's ``description``, else the function's docstring
      (``inspect.getdoc``), else None;
    * ``signature``: the underlying function's signature, annotations resolved
      (``eval_str=True``; left as written when they cannot be resolved);
    * ``function``: the underlying function (the one given, or the tool's ``execute``);
    * ``is_async``: True when calling the tool gives an awaitable.
    """

    tool: Tool
    name: str
    description: str | None
    signature: inspect.Signature
    function: Callable[..., Any]
    is_async: bool


def _signature(function: Callable[..., Any]) -> inspect.Signature:
    try:
        return inspect.signature(function, eval_str=True)
    except Exception:  # noqa: BLE001 (an annotation naming what only a type checker imports)
        return inspect.signature(function)


def prepare(
    fn_or_tool: Callable[..., Any] | Tool,
    *,
    result_class: str | None = None,
    name: str | None = None,
    description: str | None = None,
) -> Prepared:
    """One ``define_tool`` tool for ``fn_or_tool``, with its name, description and signature.

    ``result_class`` (None: not given) is checked as ``define_tool`` checks
    ``resultClass``: a class outside ``RESULT_CLASSES`` is refused (``refused:``), and
    so is a class that differs from the one a ``define_tool`` tool already declares.
    A tool given with no class and a ``result_class`` is defined again with it.
    ``name`` and ``description`` override the function's ``__name__`` and docstring
    (a plain function only: a tool has its own).
    """
    if isinstance(fn_or_tool, Tool):
        tool = fn_or_tool
        if name is not None or description is not None:
            raise Refusal(
                f"refused: {tool.name!r} is a define_tool tool: its name and description are "
                "its own; give them to define_tool, not to the adapter.",
                kind=BAD_VALUE,
            )
        if result_class is not None and result_class != tool.result_class:
            if tool.result_class is not None:
                raise Refusal(
                    f"refused: {tool.name!r} is defined with resultClass "
                    f"{tool.result_class!r}; result_class={result_class!r} conflicts with it. "
                    "Declare the class once, on define_tool.",
                    path=("resultClass",),
                    kind=BAD_VALUE,
                )
            definition: dict[str, Any] = {"name": tool.name, "execute": tool.execute}
            if tool.description is not None:
                definition["description"] = tool.description
            if tool.input_schema is not None:
                definition["inputSchema"] = tool.input_schema
            definition["resultClass"] = result_class
            tool = define_tool(cast("ToolDefinition", definition))
        function = tool.execute
        shown = tool.description if tool.description is not None else inspect.getdoc(function)
    else:
        function = fn_or_tool
        shown = description if description is not None else inspect.getdoc(function)
        definition = {
            "name": name if name is not None else getattr(function, "__name__", None),
            "execute": function,
        }
        if shown is not None:
            definition["description"] = shown
        if result_class is not None:
            definition["resultClass"] = result_class
        tool = define_tool(cast("ToolDefinition", definition))
    return Prepared(
        tool, tool.name, shown, _signature(function), function, isinstance(tool, AsyncTool)
    )


def _served(prepared: Prepared, message: ToolMessage) -> ToolMessage:
    record_served(prepared.name, message)
    return message


def call_prepared(prepared: Prepared, /, *args: Any, **kwargs: Any) -> ToolMessage:
    """Call a sync tool: its value or its refusal as a ``ToolMessage``, recorded.

    Any exception that is not a refusal propagates unchanged.
    """
    try:
        value = prepared.tool(*args, **kwargs)
    except Exception as exc:
        refusal = refusal_message(exc)
        if refusal is None:
            raise
        return _served(prepared, refusal)
    return _served(prepared, tool_message(value))


async def call_prepared_async(prepared: Prepared, /, *args: Any, **kwargs: Any) -> ToolMessage:
    """Call a tool and await its value when it is async; otherwise as :func:`call_prepared`."""
    try:
        value = prepared.tool(*args, **kwargs)
        if prepared.is_async or inspect.isawaitable(value):
            value = await value
    except Exception as exc:
        refusal = refusal_message(exc)
        if refusal is None:
            raise
        return _served(prepared, refusal)
    return _served(prepared, tool_message(value))


def served_function(
    prepared: Prepared,
    finish: Callable[[ToolMessage], R],
    *,
    returns: Any = inspect.Signature.empty,
) -> Callable[..., Any]:
    """The function a framework registers for ``prepared``.

    It has the tool's ``__name__``, ``__doc__`` (the description), ``__module__``,
    and the underlying function's parameters as ``__signature__`` and
    ``__annotations__`` (resolved), with ``returns`` as its return annotation (none by
    default, so a framework derives no output schema from the function's own). It is a
    coroutine function exactly when the tool is async; it calls the tool through
    :func:`call_prepared` / :func:`call_prepared_async` and returns
    ``finish(message)``. It has no ``__wrapped__``: a framework that unwraps functions
    must not reach the original's return annotation.
    """
    if prepared.is_async:

        async def call_async(*args: Any, **kwargs: Any) -> R:
            return finish(await call_prepared_async(prepared, *args, **kwargs))

        function: Callable[..., Any] = call_async
    else:

        def call(*args: Any, **kwargs: Any) -> R:
            return finish(call_prepared(prepared, *args, **kwargs))

        function = call
    signature = prepared.signature.replace(return_annotation=returns)
    annotations = {
        p.name: p.annotation
        for p in signature.parameters.values()
        if p.annotation is not inspect.Parameter.empty
    }
    if returns is not inspect.Signature.empty:
        annotations["return"] = returns
    function.__name__ = prepared.name
    function.__qualname__ = prepared.name
    function.__doc__ = prepared.description
    function.__module__ = getattr(prepared.function, "__module__", None) or __name__
    function.__signature__ = signature  # type: ignore[attr-defined]
    function.__annotations__ = annotations
    return function
