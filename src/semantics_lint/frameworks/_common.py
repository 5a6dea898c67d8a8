"""What every framework adapter shares: one tool, its parameters, and the served call.

No third-party import. An adapter is built in three steps:

1. :func:`prepare` takes what the user gave (a plain function, sync or async, or a
   ``define_tool`` tool) and returns a :class:`Prepared`: ONE
   :class:`~semantics_lint.runtime.mints.tools.Tool` made through ``define_tool`` (so the
   pytest plugin sees the definition and every value it returns), the tool's name and
   description, and the ``inspect.Signature`` the framework builds the tool's input
   schema from: the function's own parameters, or, for a tool that declares its
   ``inputSchema``, the schema's properties (:mod:`semantics_lint.frameworks._schema`).
2. :func:`call_prepared` (sync) or :func:`call_prepared_async` (async) runs the tool
   and gives its outcome: a :class:`~semantics_lint.runtime.serving.message.ToolMessage` (the
   value through ``tool_message``, or a refusal raised inside the tool through
   ``refusal_message``, recorded into the current ``run_record()``), or
   :class:`Unserved` for a value the seam does not write (not JSON data: a pydantic
   model, a dataclass, a set, ...), which the adapter hands to its framework to
   serialize as the framework does for any tool. Any other exception is re-raised
   unchanged, for the framework's own error policy.
3. :func:`served_function` builds the function a framework registers: the tool's
   name, docstring and parameters, async exactly when the tool is, returning what the
   adapter's ``finish`` makes of the outcome.

What a value means is decided in the seam (``tool_message``) only; an adapter only
translates the outcome into its framework's result type. Nothing is kept per call.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypeVar, cast

from semantics_lint.frameworks._schema import UNSET, Declared, declared
from semantics_lint.runtime.claims.check import contracts_open, tool_call
from semantics_lint.runtime.envelope.json_text import wire_data
from semantics_lint.runtime.envelope.refusal import BAD_VALUE, Refusal
from semantics_lint.runtime.mints.tools import AsyncTool, Tool, define_tool
from semantics_lint.runtime.serving.message import NotJSON, ToolMessage, refusal_message
from semantics_lint.runtime.serving.record import record_served, serve

if TYPE_CHECKING:
    from semantics_lint.runtime.envelope.types import ToolDefinition

RECORD_KEY: Final = "semantics-lint/record"
"""Where an adapter puts the record (the whole envelope) beside what the model reads."""

__all__ = [
    "RECORD_KEY",
    "Outcome",
    "Prepared",
    "Unserved",
    "call_prepared",
    "call_prepared_async",
    "decorator",
    "framework_error",
    "prepare",
    "record_entry",
    "served_function",
]

R = TypeVar("R")

CallIds = Callable[[tuple[Any, ...], dict[str, Any]], "tuple[str | None, int | None] | None"]
"""What an adapter reads of a call's arguments: the framework's tool-call id and
iteration (``semantics_lint.runtime.claims.check.tool_call``), or None."""


def _answering(
    calling: CallIds | None, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> AbstractContextManager[None]:
    # The ids are read only while a run declared with claims is open.
    ids = None if calling is None or not contracts_open() else calling(args, kwargs)
    return _UNCHANGED if ids is None else tool_call(*ids)


_UNCHANGED: Final = nullcontext()


class Unserved(NamedTuple):
    """A value the seam does not write (not JSON data), for the framework to serialize."""

    value: Any


Outcome = ToolMessage | Unserved
"""What one call of a served tool gives its adapter."""


class Prepared(NamedTuple):
    """A tool ready to serve.

    * ``tool``: the one ``define_tool`` tool every call goes through;
    * ``name``: the tool's name (the function's ``__name__`` or the tool's ``name``);
    * ``description``: the tool's ``description``, else the function's docstring
      (``inspect.getdoc``), else None;
    * ``signature``: the parameters the framework reads: the underlying function's,
      annotations resolved (``eval_str=True``; left as written when they cannot be
      resolved), or, for a declared ``inputSchema``, the framework's context
      parameters of ``execute`` followed by one keyword-only parameter per property;
    * ``function``: the underlying function (the one given, or the tool's ``execute``);
    * ``is_async``: True when calling the tool gives an awaitable;
    * ``declared``: the declared ``inputSchema`` as parameters, or None;
    * ``framework``: the top-level packages of the framework: an exception of a class
      one of them defines (or a subclass of one) keeps its framework meaning, whatever
      its text says (:func:`framework_error`).
    """

    tool: Tool
    name: str
    description: str | None
    signature: inspect.Signature
    function: Callable[..., Any]
    is_async: bool
    declared: Declared | None = None
    framework: tuple[str, ...] = ()


def framework_error(error: BaseException, packages: tuple[str, ...]) -> bool:
    """True when ``error``'s class, or a class it derives from, is defined in one of
    ``packages`` (a framework's own retry or error type: Pydantic AI's ``ModelRetry``,
    LangChain's ``ToolException``), which the framework handles as it always does,
    even when its text starts ``refused:``."""
    return any(kind.__module__.partition(".")[0] in packages for kind in type(error).__mro__)


def _signature(function: Callable[..., Any]) -> inspect.Signature | None:
    try:
        return inspect.signature(function, eval_str=True)
    except Exception:  # noqa: BLE001 (an annotation naming what only a type checker imports)
        try:
            return inspect.signature(function)
        except (TypeError, ValueError):  # a callable with no signature to read
            return None


def _no_context(parameter: inspect.Parameter) -> bool:
    return False


def _redefined(tool: Tool, result_class: str | None, renamed: bool) -> Tool:
    """``tool``, defined again with ``result_class`` when it declares no class."""
    if renamed:
        raise Refusal(
            f"refused: {tool.name!r} is a define_tool tool: its name and description are "
            "its own; give them to define_tool, not to the adapter.",
            kind=BAD_VALUE,
        )
    if result_class is None or result_class == tool.result_class:
        return tool
    if tool.result_class is not None:
        raise Refusal(
            f"refused: {tool.name!r} is defined with resultClass {tool.result_class!r}; "
            f"result_class={result_class!r} conflicts with it. Declare the class once, on "
            "define_tool.",
            path=("resultClass",),
            kind=BAD_VALUE,
        )
    definition: dict[str, Any] = {"name": tool.name, "execute": tool.execute}
    if tool.description is not None:
        definition["description"] = tool.description
    if tool.input_schema is not None:
        definition["inputSchema"] = tool.input_schema
    definition["resultClass"] = result_class
    return define_tool(cast("ToolDefinition", definition))


def prepare(
    fn_or_tool: Callable[..., Any] | Tool,
    *,
    result_class: str | None = None,
    name: str | None = None,
    description: str | None = None,
    context: Callable[[inspect.Parameter], bool] = _no_context,
    extra: str = "",
    framework: tuple[str, ...] = (),
) -> Prepared:
    """One ``define_tool`` tool for ``fn_or_tool``, with its name, description and parameters.

    ``result_class`` (None: not given) is checked as ``define_tool`` checks
    ``resultClass``: a class outside ``RESULT_CLASSES`` is refused (``refused:``), and
    so is a class that differs from the one a ``define_tool`` tool already declares.
    A tool given with no class and a ``result_class`` is defined again with it.
    ``name`` and ``description`` override the function's ``__name__`` and docstring
    (a plain function only: a tool has its own). ``context`` tells the parameters the
    framework fills itself (its context object), which a declared ``inputSchema``
    leaves out; ``extra`` names the adapter's extra, for the error raised when what a
    declared schema needs is not installed; ``framework`` names the framework's
    packages, whose own exceptions keep their meaning (``Prepared.framework``).
    """
    if isinstance(fn_or_tool, Tool):
        tool = _redefined(fn_or_tool, result_class, name is not None or description is not None)
        shown = tool.description if tool.description is not None else inspect.getdoc(tool.execute)
    else:
        shown = description if description is not None else inspect.getdoc(fn_or_tool)
        definition = {
            "name": name if name is not None else getattr(fn_or_tool, "__name__", None),
            "execute": fn_or_tool,
        }
        if shown is not None:
            definition["description"] = shown
        if result_class is not None:
            definition["resultClass"] = result_class
        tool = define_tool(cast("ToolDefinition", definition))
    function = tool.execute
    own = _signature(function)
    schema = None
    if tool.input_schema is not None:
        schema = declared(tool.name, tool.input_schema, own, context, extra)
        kept = [p for p in own.parameters.values() if context(p)] if own is not None else []
        signature = inspect.Signature([*kept, *schema.parameters])
    else:
        signature = own if own is not None else inspect.Signature()
    is_async = isinstance(tool, AsyncTool)
    return Prepared(tool, tool.name, shown, signature, function, is_async, schema, framework)


def _arguments(prepared: Prepared, kwargs: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments ``execute`` gets: a property the model left out is dropped,
    and the declared schema's root constraints are checked (a ``Refusal`` if broken)."""
    schema = prepared.declared
    if schema is None:
        return kwargs
    given = {key: value for key, value in kwargs.items() if value is not UNSET}
    schema.check(prepared.name, {k: v for k, v in given.items() if k in schema.names})
    return given


def _settled(prepared: Prepared, value: object) -> Outcome:
    try:
        return serve(prepared.name, value)
    except NotJSON:
        return Unserved(value)


def _refused(prepared: Prepared, error: Exception) -> ToolMessage:
    """The refusal ``error`` is, recorded; any other exception, and the framework's own
    (:func:`framework_error`), is raised again, unchanged."""
    message = None if framework_error(error, prepared.framework) else refusal_message(error)
    if message is None:
        raise error
    record_served(prepared.name, message)
    return message


def call_prepared(prepared: Prepared, /, *args: Any, **kwargs: Any) -> Outcome:
    """Call a sync tool: its served value, its refusal, or the value left to the framework.

    Any exception that is not a refusal propagates unchanged.
    """
    try:
        value = prepared.tool(*args, **_arguments(prepared, kwargs))
    except Exception as error:
        return _refused(prepared, error)
    return _settled(prepared, value)


async def call_prepared_async(prepared: Prepared, /, *args: Any, **kwargs: Any) -> Outcome:
    """Call a tool and await its value when it is async; otherwise as :func:`call_prepared`."""
    try:
        value = prepared.tool(*args, **_arguments(prepared, kwargs))
    except Exception as error:
        return _refused(prepared, error)
    if prepared.is_async or inspect.isawaitable(value):
        return await _awaited(prepared, value)
    return _settled(prepared, value)


async def _awaited(prepared: Prepared, awaitable: Any) -> Outcome:
    """What the awaitable a tool gave gives: served, refused, or left to the framework."""
    try:
        value = await awaitable
    except Exception as error:
        return _refused(prepared, error)
    return _settled(prepared, value)


async def _served_later(
    prepared: Prepared, awaitable: Any, finish: Callable[[Outcome, Any], R], lead: Any
) -> R:
    """``finish`` of what ``awaitable`` gives, when the framework awaits it."""
    return finish(await _awaited(prepared, awaitable), lead)


def decorator(
    fn_or_tool: Callable[..., Any] | Tool | None, make: Callable[[Callable[..., Any] | Tool], R]
) -> R | Callable[[Callable[..., Any] | Tool], R]:
    """A decorator used with or without arguments (``@served``, ``@served(result_class=...)``,
    ``served(fn)``): ``make(fn_or_tool)`` when a function or tool is given, else ``make``
    itself, to be applied to the one decorated."""
    return make if fn_or_tool is None else make(fn_or_tool)


def served_function(
    prepared: Prepared,
    finish: Callable[[Outcome, Any], R],
    *,
    lead: inspect.Parameter | None = None,
    calling: CallIds | None = None,
) -> Callable[..., Any]:
    """The function a framework registers for ``prepared``.

    It has the tool's ``__name__``, ``__doc__`` (the description), ``__module__``, the
    parameters of ``prepared.signature`` as ``__signature__`` and
    ``__annotations__``, and no return annotation (so a framework derives no output
    schema). It is a coroutine function exactly when the tool is async; it calls the
    tool through :func:`call_prepared` / :func:`call_prepared_async` and returns
    ``finish(outcome, lead_argument)``. It has no ``__wrapped__``: a framework that
    unwraps functions must not reach the original's return annotation.

    ``lead`` is a first parameter the framework fills (the OpenAI Agents SDK's tool
    context): its argument is handed to ``finish`` (None without a lead), and to the
    tool as well when the tool's own first parameter has that name.

    ``calling`` reads the framework's tool-call id and iteration from the call's
    arguments (all of them, the lead's too): the results served by the call are
    recorded as its answer.
    """
    parameters = list(prepared.signature.parameters.values())
    # The lead argument the framework fills is the tool's own first parameter, or one
    # the adapter adds in front of the tool's (and then not passed to the tool).
    added = lead is not None and not (parameters and parameters[0].name == lead.name)
    if added and lead is not None:
        parameters.insert(0, lead)

    def split(args: tuple[Any, ...]) -> tuple[Any, tuple[Any, ...]]:
        """The lead argument (None without a lead), and the tool's own arguments."""
        if lead is None:
            return None, args
        return args[0], args[1:] if added else args

    if prepared.is_async:

        async def call_async(*args: Any, **kwargs: Any) -> R:
            given, own = split(args)
            with _answering(calling, args, kwargs):
                outcome = await call_prepared_async(prepared, *own, **kwargs)
            return finish(outcome, given)

        function: Callable[..., Any] = call_async
    else:

        def call(*args: Any, **kwargs: Any) -> Any:
            given, own = split(args)
            with _answering(calling, args, kwargs):
                outcome = call_prepared(prepared, *own, **kwargs)
            if isinstance(outcome, Unserved) and inspect.isawaitable(outcome.value):
                # The tool's code gave an awaitable (an async tool under a plain sync
                # decorator): the framework gets an awaitable too, as it would without
                # the adapter, and serves what it gives when it awaits it.
                return _served_later(prepared, outcome.value, finish, given)
            return finish(outcome, given)

        function = call
    function.__name__ = prepared.name
    function.__qualname__ = prepared.name
    function.__doc__ = prepared.description
    function.__module__ = getattr(prepared.function, "__module__", None) or __name__
    function.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    function.__annotations__ = {
        p.name: p.annotation for p in parameters if p.annotation is not inspect.Parameter.empty
    }
    return function


def record_entry(message: ToolMessage) -> dict[str, Any]:
    """``{RECORD_KEY: record}``, for a channel beside the text: the message's record
    (already a plain copy of JSON data, taken when served) as data any JSON writer can
    write (``json_text.wire_data``): ``NaN`` and ``±Infinity`` as None (JSON's
    ``null``, as the text writes them) and a lone surrogate, in a string or a key, as
    the text of its escape (``\\ud800``), so no two keys become one."""
    return {RECORD_KEY: wire_data(message.record)}
