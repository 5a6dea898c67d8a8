"""Serve a tool to the OpenAI Agents SDK: :func:`function_tool` (``pip install
'semantics-lint[openai-agents]'``).

``function_tool(fn)`` takes a plain function or a ``define_tool`` tool, sync or async,
and returns the SDK's own ``FunctionTool``, built by the SDK's ``function_tool`` from
the tool's name, docstring and parameters (strict JSON schema by default, as the SDK
builds it):

* the model reads ``tool_message(value).text``: the projection of a described result
  as JSON, an absence or a coverage ledger as written, any other value as JSON (a
  ``str`` as itself), never a Python ``repr``;
* the record (the whole envelope, or the value) rides the tool-call output item:
  ``ToolCallOutputItem.custom_data[RECORD_KEY]``, the SDK's channel for data the model
  never reads, as JSON data;
* a refusal raised inside the tool is the call's output, its ``refused:`` text, and
  the run goes on; any other exception is left to the SDK (``failure_error_function``:
  by default the model reads the SDK's error message; ``None`` fails the run);
* each call is recorded into the current ``run_record()`` and seen by the pytest
  plugin;
* when the SDK's own tracing is on, each served result is also a ``custom_span``
  ``semantics {tool}`` under the SDK's function span, holding the attributes of its
  OpenTelemetry span (:mod:`semantics_lint.runtime.tracing`) and the envelope, so the
  SDK's trace processors see it.
"""

from __future__ import annotations

import datetime
import inspect
import json
from collections.abc import Callable, Mapping
from typing import Any, Final

from agents import FunctionTool, FunctionToolCustomDataContext
from agents import function_tool as _sdk_function_tool
from agents.tool_context import ToolContext
from agents.tracing import SpanError, custom_span, get_current_span
from agents.tracing.spans import NoOpSpan

from semantics_lint.frameworks._common import RECORD_KEY, prepare, served_function
from semantics_lint.runtime.serving import ToolMessage
from semantics_lint.runtime.tools import Tool
from semantics_lint.runtime.tracing import OUTPUT_VALUE, served_attributes

__all__ = ["RECORD_KEY", "function_tool"]

# The SDK hands the tool its ToolContext through a first parameter annotated so; the
# name is the adapter's own, never one of the tool's parameters.
_CONTEXT: Final = "_semantics_lint_tool_context"


def _message(message: ToolMessage) -> ToolMessage:
    return message


def _custom_span(name: str, context: ToolContext[Any], message: ToolMessage) -> None:
    # The SDK's tracing is its own, not OpenTelemetry's: the served result is also a
    # custom span under the SDK's function span, holding the attributes of the
    # OpenTelemetry span and the envelope (capped as output.value is) as data, so the
    # SDK's trace processors see it. Nothing is built when the SDK's tracing is off;
    # the envelope is left out when the run config or SEMANTICS_LINT_OTEL_CAPTURE_CONTENT
    # keeps content out of traces.
    current = get_current_span()
    if current is None or isinstance(current, NoOpSpan):
        return
    config = context.run_config
    capture = None if config is None or config.trace_include_sensitive_data else False
    try:
        data: dict[str, Any] = served_attributes(name, message, capture=capture)
    except (TypeError, ValueError):
        data = {}
    value = data.pop(OUTPUT_VALUE, None)
    if value is not None:
        data["envelope"] = json.loads(value)
    with custom_span(f"semantics {name}", data) as span:
        if message.is_error:
            span.set_error(SpanError(message=message.text, data=None))


def _iso(value: object) -> str:
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    raise TypeError(f"not JSON data: {type(value).__qualname__}")


def _json_data(record: object) -> Any:
    # custom_data must be JSON data; the record is written as the model's text is
    # (dates as ISO 8601 text), and tool_message already refused anything else.
    return json.loads(json.dumps(record, ensure_ascii=False, allow_nan=False, default=_iso))


def function_tool(
    fn_or_tool: Callable[..., Any] | Tool,
    /,
    *,
    result_class: str | None = None,
    name_override: str | None = None,
    description_override: str | None = None,
    custom_data_extractor: Callable[[FunctionToolCustomDataContext], Any] | None = None,
    **kwargs: Any,
) -> FunctionTool:
    """The SDK's ``FunctionTool`` serving ``fn_or_tool`` (see the module docstring).

    ``result_class`` declares the tool's result class, as ``define_tool``'s
    ``resultClass``. ``name_override`` and ``description_override`` rename and
    redescribe a plain function (a ``define_tool`` tool keeps its own). A
    ``custom_data_extractor`` of your own still runs: its mapping is merged with the
    record's key. Every other keyword (``strict_mode``, ``failure_error_function``,
    ``needs_approval``, ...) is passed to the SDK's ``function_tool`` unchanged.
    """
    prepared = prepare(
        fn_or_tool,
        result_class=result_class,
        name=name_override,
        description=description_override,
    )
    inner = served_function(prepared, _message)
    # What each call served, by its ToolContext, until the SDK asks for the custom data
    # of that call's output item (in the same invocation, after the tool returns).
    served: dict[int, tuple[ToolContext[Any], ToolMessage]] = {}

    if prepared.is_async:

        async def invoke_async(context: ToolContext[Any], /, *args: Any, **kw: Any) -> str:
            message: ToolMessage = await inner(*args, **kw)
            _custom_span(prepared.name, context, message)
            served[id(context)] = (context, message)
            return message.text

        invoke: Callable[..., Any] = invoke_async
    else:

        def invoke_sync(context: ToolContext[Any], /, *args: Any, **kw: Any) -> str:
            message: ToolMessage = inner(*args, **kw)
            _custom_span(prepared.name, context, message)
            served[id(context)] = (context, message)
            return message.text

        invoke = invoke_sync

    signature: inspect.Signature = inner.__signature__  # type: ignore[attr-defined]
    context = inspect.Parameter(_CONTEXT, inspect.Parameter.POSITIONAL_ONLY, annotation=ToolContext)
    invoke.__name__ = inner.__name__
    invoke.__qualname__ = inner.__qualname__
    invoke.__doc__ = inner.__doc__
    invoke.__module__ = inner.__module__
    invoke.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[context, *signature.parameters.values()]
    )
    invoke.__annotations__ = {_CONTEXT: ToolContext, **inner.__annotations__}

    async def extract(data: FunctionToolCustomDataContext) -> Mapping[str, Any] | None:
        entry = served.pop(id(data.tool_context), None)
        own = None
        if custom_data_extractor is not None:
            own = custom_data_extractor(data)
            if inspect.isawaitable(own):
                own = await own
        if entry is None or entry[0] is not data.tool_context:
            return own
        return {**(own or {}), RECORD_KEY: _json_data(entry[1].record)}

    return _sdk_function_tool(invoke, custom_data_extractor=extract, **kwargs)
