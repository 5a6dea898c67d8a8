"""``define_tool``: the tool-definition door the gate's class rules are about.

``define_tool(name=..., description=..., execute=..., resultClass=..., inputSchema=...)``
(keywords, or one positional dict of the same keys, as the mints take them) checks
the definition and returns a :class:`Tool`. It refuses at definition time, with a
:class:`~semantics_lint.runtime.envelope.refusal.Refusal` whose message starts ``refused:``:

* a missing or blank ``name``, a missing or uncallable ``execute``;
* a ``resultClass`` that is not one of ``RESULT_CLASSES`` (the reference's
  ``assertResultClass``); ``None`` is a value, so leave the key out for no class;
* a key the definition does not have; a snake_case key (``result_class``) names the
  camelCase one meant (``resultClass``), through the vocabulary's one map.

Calling the tool runs ``execute`` with the same arguments and returns its value
unchanged; when ``execute`` is a coroutine function the tool is an
:class:`AsyncTool`, whose call is awaitable and gives the value unchanged.

The pytest plugin (``semantics_lint.pytest_plugin``) watches tools through
:func:`observe_tools`: while an observer is set, every definition and every
returned value is handed to it, and so is every refusal a call raises (a
:class:`~semantics_lint.runtime.envelope.refusal.Refusal`, or any exception whose message
starts ``refused:``) when the observer has a ``tool_refused`` method. With no
observer a call costs one attribute check.
"""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, Protocol

from semantics_lint.runtime.envelope.refusal import (
    ARGUMENTS,
    BAD_VALUE,
    MISSING,
    WRONG_TYPE,
    Refusal,
    refuse_unknown_keys,
    text_fault,
)
from semantics_lint.runtime.mints.items import shown
from semantics_lint.vocabulary import RESULT_CLASSES, TOOL_FIELDS, is_non_empty_string

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from semantics_lint.runtime.envelope.types import ToolDefinition, ToolDefinitionFields

__all__ = [
    "AsyncTool",
    "RefusalObserver",
    "Tool",
    "ToolObserver",
    "defineTool",
    "define_tool",
    "defined_tools",
    "is_refusal",
    "observe_tools",
]

_SHAPE: Final = "define_tool(name=..., execute=..., description=?, resultClass=?, inputSchema=?)"


class ToolObserver(Protocol):
    """What watches tools: told of each definition and of each value a tool returns."""

    def tool_defined(self, tool: Tool) -> None: ...

    def tool_returned(self, tool: Tool, value: object) -> None: ...


class RefusalObserver(ToolObserver, Protocol):
    """An observer also told of each refusal a tool's call raised (``tool_refused``)."""

    def tool_refused(self, tool: Tool, error: BaseException) -> None: ...


def is_refusal(error: BaseException) -> bool:
    """True for a :class:`Refusal`, or any exception whose message starts ``refused:``."""
    if isinstance(error, Refusal):
        return True
    try:
        return str(error).startswith("refused:")
    except Exception:  # noqa: BLE001 - a user's __str__ may raise anything
        return False


class _Watching:
    """``with _Watching(tool):`` around a call of the tool's code: a refusal it raises
    is handed to the observer (when one is set and watches refusals), then raised on,
    unchanged. The one place a tool's exception is told of."""

    __slots__ = ("tool",)

    def __init__(self, tool: Tool) -> None:
        self.tool = tool

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> None:
        told = getattr(_observer, "tool_refused", None)
        if told is not None and isinstance(error, Exception) and is_refusal(error):
            told(self.tool, error)


_observer: ToolObserver | None = None
# Every tool defined in this process and still alive, for an observer set after
# some tools were defined (a conftest imported before the plugin configured).
_alive: weakref.WeakSet[Tool] = weakref.WeakSet()


def observe_tools(observer: ToolObserver | None) -> ToolObserver | None:
    """Set the observer of every tool (``None`` removes it); returns the previous one."""
    global _observer
    previous, _observer = _observer, observer
    return previous


def defined_tools() -> list[Tool]:
    """The tools defined in this process that are still alive, in no particular order."""
    return list(_alive)


class Tool:
    """A defined tool: call it as you would call ``execute``.

    ``name``, ``description``, ``result_class`` (``None`` when no class was declared),
    ``input_schema`` and ``execute`` are readable. The value returned is the one
    ``execute`` returned, unchanged.
    """

    __slots__ = ("__weakref__", "description", "execute", "input_schema", "name", "result_class")

    name: str
    description: str | None
    result_class: str | None
    input_schema: Any
    execute: Callable[..., Any]

    def __init__(
        self,
        name: str,
        execute: Callable[..., Any],
        description: str | None = None,
        result_class: str | None = None,
        input_schema: Any = None,
    ) -> None:
        self.name = name
        self.execute = execute
        self.description = description
        self.result_class = result_class
        self.input_schema = input_schema

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _observer is None:
            return self.execute(*args, **kwargs)
        with _Watching(self):
            value = self.execute(*args, **kwargs)
        observer = _observer
        if observer is None:
            return value
        if inspect.iscoroutine(value):
            # A sync callable that hands back a coroutine: its value is known only
            # once awaited.
            return _watched_await(self, value)
        observer.tool_returned(self, value)
        return value

    def __repr__(self) -> str:
        shown_class = f", result_class={self.result_class!r}" if self.result_class else ""
        return f"{type(self).__name__}(name={self.name!r}{shown_class})"


class AsyncTool(Tool):
    """A tool whose ``execute`` is a coroutine function: its call is awaited."""

    __slots__ = ()

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return await _watched_await(self, self.execute(*args, **kwargs))


async def _watched_await(tool: Tool, awaitable: Any) -> Any:
    """The value ``awaitable`` gives, handed to the observer; a refusal told of."""
    with _Watching(tool):
        value = await awaitable
    observer = _observer
    if observer is not None:
        observer.tool_returned(tool, value)
    return value


def _declaration(decl: object, fields: Mapping[str, Any]) -> Mapping[str, Any]:
    if decl is not None and fields:
        raise Refusal(
            "refused: define_tool() takes its definition either as one dict or as keyword "
            f"arguments, not both: {_SHAPE}.",
            kind=ARGUMENTS,
        )
    if decl is None:
        return fields
    if not isinstance(decl, Mapping):
        raise Refusal(
            "refused: define_tool() takes its definition as keyword arguments or one dict, "
            f"got {shown(decl)}: {_SHAPE}.",
            kind=ARGUMENTS,
            argument=0,
        )
    return decl


def _result_class(name: str, declared: object) -> str:
    if isinstance(declared, str) and declared in RESULT_CLASSES:
        return declared
    hint = ""
    if isinstance(declared, str):
        import difflib  # only for a class that is not one: importing tools stays light

        close = difflib.get_close_matches(declared.strip().lower(), RESULT_CLASSES, n=1)
        if close:
            hint = f" (did you mean {close[0]!r}?)"
    leave_out = (
        "to declare no class, leave resultClass out"
        if declared is None
        else "leave resultClass out when neither fits"
    )
    raise Refusal(
        f"refused: define_tool({name!r}): resultClass {shown(declared)} is not a result "
        f"class{hint}; the classes are {' and '.join(RESULT_CLASSES)} ({leave_out}). A class "
        "is a rule the gate can prove: triage and inventory results must declare coverage.",
        path=("resultClass",),
        kind=BAD_VALUE if isinstance(declared, str) else WRONG_TYPE,
    )


def _is_async(execute: object) -> bool:
    """True for a coroutine function, or an object whose ``__call__`` is one."""
    if inspect.iscoroutinefunction(execute):
        return True
    call = type(execute).__call__ if callable(execute) else None
    return not inspect.isfunction(execute) and inspect.iscoroutinefunction(call)


# One signature, its keywords typed by types.ToolDefinitionFields, so that a type
# checker names the key at fault (result_class=) and a resultClass outside the classes.
def define_tool(decl: ToolDefinition | None = None, /, **fields: Unpack[ToolDefinitionFields]) -> Tool:
    """Define a tool, or refuse the definition; see the module docstring for the rules.

    ``name`` (a non-empty string) and ``execute`` (a callable) are required;
    ``description``, ``resultClass`` (one of ``RESULT_CLASSES``) and ``inputSchema``
    (the JSON schema of the arguments) are optional and kept as given.
    """
    declaration = _declaration(decl, fields)
    try:
        refuse_unknown_keys((), declaration, TOOL_FIELDS)
    except Refusal as refusal:
        named = declaration.get("name")
        which = f"{named!r}" if is_non_empty_string(named) else ""
        raise Refusal(
            f"refused: define_tool({which}): {str(refusal).removeprefix('refused: ')}",
            path=refusal.path,
            kind=refusal.kind,
            meant=refusal.meant,
        ) from None
    name = declaration.get("name")
    if not is_non_empty_string(name):
        raise Refusal(
            f"refused: define_tool(): `name` must name the tool (a non-empty string, as the "
            f"model will call it); got {shown(name) if 'name' in declaration else 'nothing'}.",
            path=("name",),
            kind=text_fault(name, present="name" in declaration),
        )
    assert isinstance(name, str)
    if "execute" not in declaration:
        raise Refusal(
            f"refused: define_tool({name!r}): `execute` is missing: give the function that "
            "runs the tool and returns its result.",
            path=("execute",),
            kind=MISSING,
        )
    execute = declaration["execute"]
    if not callable(execute):
        raise Refusal(
            f"refused: define_tool({name!r}): `execute` must be a function; got {shown(execute)}.",
            path=("execute",),
            kind=WRONG_TYPE,
        )
    result_class = _result_class(name, declaration["resultClass"]) if "resultClass" in declaration else None
    kind = AsyncTool if _is_async(execute) else Tool
    tool = kind(
        name,
        execute,
        description=declaration.get("description"),
        result_class=result_class,
        input_schema=declaration.get("inputSchema"),
    )
    _alive.add(tool)
    observer = _observer
    if observer is not None:
        observer.tool_defined(tool)
    return tool


defineTool = define_tool
"""The reference's camelCase name, accepted as ``describedResult`` is."""
