"""Serve a tool to the OpenAI Agents SDK: :func:`function_tool` (``pip install
'semantics-lint[openai-agents]'``).

``function_tool(fn)`` takes a plain function or a ``define_tool`` tool, sync or async,
and returns the SDK's own ``FunctionTool``, built by the SDK's ``function_tool`` from
the tool's name, docstring and parameters (strict JSON schema by default, as the SDK
builds it; a ``define_tool`` tool's declared ``inputSchema`` is served as its
properties). A first parameter annotated ``RunContextWrapper[...]`` or
``ToolContext[...]`` gets the SDK's context, as with the SDK's own decorator, and is
not part of the schema.

* the model reads ``tool_message(value).text``: the projection of a described result
  as JSON, an absence or a coverage ledger as written, any other value as JSON (a
  ``str`` as itself), never a Python ``repr``;
* a value the seam does not write (not JSON data: a pydantic model, a dataclass) is
  returned to the SDK as it is, which writes it as for any tool (``str(value)``, or
  its structured output types);
* the record (the whole envelope, or the value) rides the tool-call output item:
  ``ToolCallOutputItem.custom_data[RECORD_KEY]``, the SDK's channel for data the model
  never reads, as JSON data;
* a refusal raised inside the tool is the call's output, its ``refused:`` text, and
  the run goes on; any other exception is left to the SDK (``failure_error_function``:
  by default the model reads the SDK's error message; ``None`` fails the run);
* each call is recorded into the current ``run_record()`` as the answer to the SDK's
  tool call (its ``call_id``, ``ToolContext.tool_call_id``; the SDK gives a tool no
  turn number, so the iteration is None), and seen by the pytest plugin;
* when the SDK's own tracing is on, each served result is also a ``custom_span``
  ``semantics {tool}`` under the SDK's function span, holding the attributes of its
  OpenTelemetry span (:mod:`semantics_lint.runtime.serving.tracing`) and the envelope, so the
  SDK's trace processors see it.

What a call served waits for the SDK's custom data in a weak mapping keyed by the
call's ``ToolContext``: a run that ends before the SDK asks (a tool output guardrail's
tripwire, a cancellation) leaves nothing behind once the SDK lets the context go.
"""

from __future__ import annotations

import inspect
import json
import typing
import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from semantics_lint.extras import framework_import

with framework_import(__name__, "openai-agents"):
    from agents import FunctionTool, FunctionToolCustomDataContext, RunContextWrapper
    from agents import function_tool as _sdk_function_tool
    from agents.tool_context import ToolContext
    from agents.tracing import SpanError, custom_span, get_current_span
    from agents.tracing.spans import NoOpSpan

from semantics_lint.frameworks._common import RECORD_KEY, Unserved, prepare, record_entry
from semantics_lint.frameworks._common import served_function as _served_function
from semantics_lint.runtime.serving.tracing import OUTPUT_VALUE, span_attributes

if TYPE_CHECKING:
    from semantics_lint.frameworks._common import Outcome
    from semantics_lint.runtime.mints.tools import Tool
    from semantics_lint.runtime.serving.message import ToolMessage

__all__ = ["RECORD_KEY", "function_tool"]

_FRAMEWORK: Final = ("agents",)
"""The SDK's package: its own exceptions keep their meaning, whatever their text says."""

# The SDK hands a tool its ToolContext through a first parameter annotated so; when
# the tool takes none, the adapter's own takes it, named as no tool parameter is.
_CONTEXT: Final = "_semantics_lint_tool_context"


def _is_context(parameter: inspect.Parameter) -> bool:
    """A parameter the SDK fills: annotated ``RunContextWrapper[...]`` or ``ToolContext[...]``."""
    annotation = parameter.annotation
    origin = typing.get_origin(annotation) or annotation
    return inspect.isclass(origin) and issubclass(origin, RunContextWrapper)


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
    config = getattr(context, "run_config", None)
    capture = None if config is None or config.trace_include_sensitive_data else False
    attributes, _ = span_attributes(name, message, capture=capture)
    data: dict[str, Any] = dict(attributes)
    value = data.pop(OUTPUT_VALUE, None)
    if value is not None:
        data["envelope"] = json.loads(value)
    with custom_span(f"semantics {name}", data) as span:
        if message.is_error:
            span.set_error(SpanError(message=message.text, data=None))


def _call_ids(args: tuple[Any, ...], _kwargs: dict[str, Any]) -> tuple[str | None, int | None] | None:
    context = args[0] if args else None
    return (context.tool_call_id, None) if isinstance(context, ToolContext) else None


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
        context=_is_context,
        extra="openai-agents",
        framework=_FRAMEWORK,
    )
    first = next(iter(prepared.signature.parameters.values()), None)
    lead = (
        first
        if first is not None and _is_context(first)
        else inspect.Parameter(_CONTEXT, inspect.Parameter.POSITIONAL_ONLY, annotation=ToolContext)
    )
    # What each call served, until the SDK asks for the custom data of that call's
    # output item (in the same invocation, after the tool returns).
    served: weakref.WeakKeyDictionary[ToolContext[Any], ToolMessage] = weakref.WeakKeyDictionary()

    def finish(outcome: Outcome, context: ToolContext[Any]) -> Any:
        if isinstance(outcome, Unserved):
            return outcome.value
        _custom_span(prepared.name, context, outcome)
        served[context] = outcome
        return outcome.text

    async def extract(data: FunctionToolCustomDataContext) -> Mapping[str, Any] | None:
        message = served.pop(data.tool_context, None)
        own = None
        if custom_data_extractor is not None:
            own = custom_data_extractor(data)
            if inspect.isawaitable(own):
                own = await own
        if message is None:
            return own
        return {**(own or {}), **record_entry(message)} or own

    invoke = _served_function(prepared, finish, lead=lead, calling=_call_ids)
    return _sdk_function_tool(invoke, custom_data_extractor=extract, **kwargs)
