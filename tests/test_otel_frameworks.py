"""The served results' spans in real runs of each framework, read with the SDK's
in-memory exporter (and, for the OpenAI Agents SDK, with a processor of its own tracing).

Each framework serves a described result, an async tool's result and a refusal; each
test checks where the span sits (under the framework's tool span, where it has one),
its attributes against the run record, and that the model reads the same text with a
tracer provider as without one. MCP reads the global tracer provider only (its
tracer is made when the SDK is imported), so its run is a process of its own.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from backup_tool import backup_status
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.trace import StatusCode
from otel_spans import Spans, ids, spans  # noqa: F401 (the fixture)

from semantics_lint.runtime import described_result, run_record
from semantics_lint.runtime.envelope.json_text import json_text
from semantics_lint.runtime.serving import tracing

TESTS = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (tracing.CAPTURE_CONTENT_ENV, tracing.MAX_VALUE_BYTES_ENV):
        monkeypatch.delenv(name, raising=False)


def vm_backup_status(vm: str, days: int = 7) -> dict[str, Any]:
    """Backup posture for one VM across the backup clusters."""
    return backup_status(vm, days)


async def vm_backup_status_async(vm: str) -> dict[str, Any]:
    """The same, from an async tool."""
    await asyncio.sleep(0)
    return backup_status(vm)


def vm_refused(vm: str) -> dict[str, Any]:
    """A tool whose every result is refused: facts with no provenance."""
    return described_result(facts=[{"entity": vm, "backed_up": True}])


def check_span(span: ReadableSpan, entry: dict[str, Any], kind: str) -> None:
    """``span`` is the span of the run record's ``entry``, with the attributes of ``kind``."""
    assert span.name == f"semantics {entry['tool']}"
    assert entry["kind"] == kind == span.attributes["semantics_lint.result.kind"]
    assert span.attributes["semantics_lint.tool.name"] == entry["tool"]
    assert ids(span) == {"trace_id": entry["trace_id"], "span_id": entry["span_id"]}
    text = json_text(entry["record"])
    assert span.attributes["output.value"] == text
    assert json.loads(span.attributes["output.value"]) == entry["record"]
    assert span.attributes["output.mime_type"] == "application/json"
    assert span.attributes["semantics_lint.envelope.bytes"] == len(text.encode())
    assert span.attributes["semantics_lint.envelope.truncated"] is False
    if kind == "refusal":
        assert span.status.status_code is StatusCode.ERROR
        assert span.status.description == entry["record"]
        assert entry["record"].startswith("refused:")
    else:
        assert span.status.status_code is StatusCode.UNSET
        assert span.attributes["semantics_lint.fact.count"] == 1


def parent_of(spans: Spans, span: ReadableSpan) -> ReadableSpan:
    assert span.parent is not None
    parent = spans.by_id()[span.parent.span_id]
    assert parent.context.trace_id == span.context.trace_id
    return parent


# Pydantic AI ------------------------------------------------------------------------


def _pydantic_ai_run(provider: Any | None, *tools: Any) -> list[str]:
    """A TestModel run calling each tool once; what the model read of each, in order."""
    from pydantic_ai import Agent, InstrumentationSettings
    from pydantic_ai.capabilities import Instrumentation
    from pydantic_ai.messages import ToolReturnPart
    from pydantic_ai.models.test import TestModel

    from semantics_lint.frameworks.pydantic_ai import served

    capabilities = (
        []
        if provider is None
        else [Instrumentation(settings=InstrumentationSettings(tracer_provider=provider))]
    )
    agent = Agent(TestModel(), capabilities=capabilities)
    for function in tools:
        agent.tool_plain(served(function))
    result = agent.run_sync("Is vm-01 backed up?")
    return sorted(
        f"{part.tool_name}: {part.model_response_str()}"
        for message in result.all_messages()
        for part in getattr(message, "parts", ())
        if isinstance(part, ToolReturnPart)
    )


def test_pydantic_ai_sync_and_async_tools_each_have_a_span_under_execute_tool(spans: Spans) -> None:
    pytest.importorskip("pydantic_ai")
    with run_record() as run:
        _pydantic_ai_run(spans.provider, vm_backup_status, vm_backup_status_async, vm_refused)
    by_tool = {entry["tool"]: entry for entry in run.results}
    assert set(by_tool) == {"vm_backup_status", "vm_backup_status_async", "vm_refused"}
    ours = {span.attributes["semantics_lint.tool.name"]: span for span in spans.ours()}
    assert set(ours) == set(by_tool)
    for tool, span in ours.items():
        check_span(span, by_tool[tool], "refusal" if tool == "vm_refused" else "semantics")
        assert parent_of(spans, span).name == f"execute_tool {tool}"


def test_pydantic_ai_model_reads_the_same_text_with_and_without_a_provider(spans: Spans) -> None:
    pytest.importorskip("pydantic_ai")
    traced = _pydantic_ai_run(spans.provider, vm_backup_status, vm_backup_status_async, vm_refused)
    assert len(spans.ours()) == 3
    tracing.use_tracer_provider(None)  # the global provider: none in this process
    plain = _pydantic_ai_run(None, vm_backup_status, vm_backup_status_async, vm_refused)
    assert len(spans.ours()) == 3
    assert traced == plain and len(plain) == 3


def test_pydantic_ai_capture_switch_set_between_two_runs(
    spans: Spans, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("pydantic_ai")
    monkeypatch.setenv(tracing.CAPTURE_CONTENT_ENV, "false")
    _pydantic_ai_run(spans.provider, vm_backup_status)
    monkeypatch.setenv(tracing.CAPTURE_CONTENT_ENV, "true")
    _pydantic_ai_run(spans.provider, vm_backup_status)
    first, second = spans.ours()
    assert "output.value" not in first.attributes
    assert json.loads(second.attributes["output.value"])["facts"][0]["site"] == "Zürich"
    for span in (first, second):
        assert parent_of(spans, span).name == "execute_tool vm_backup_status"
        assert span.attributes["semantics_lint.fact.count"] == 1


# LangChain --------------------------------------------------------------------------


def _langchain_calls() -> list[Any]:
    from semantics_lint.frameworks.langchain import tool

    calls = [
        (tool(vm_backup_status), {"vm": "vm-01"}),
        (tool(vm_backup_status_async), {"vm": "vm-01"}),
        (tool(vm_refused), {"vm": "vm-01"}),
    ]
    messages = []
    for number, (served, args) in enumerate(calls):
        call = {"type": "tool_call", "id": f"c{number}", "name": served.name, "args": args}
        if number == 1:
            messages.append(asyncio.run(served.ainvoke(call)))
        else:
            messages.append(served.invoke(call))
    return messages


def test_langchain_tools_each_have_a_span_under_the_applications_span(spans: Spans) -> None:
    pytest.importorskip("langchain_core")
    # LangChain writes no OpenTelemetry span of its own: the span sits under whatever
    # span is current, here the application's agent loop.
    tracer = spans.provider.get_tracer("the application")
    with run_record() as run, tracer.start_as_current_span("agent loop") as loop:
        traced = _langchain_calls()
    for span, entry in zip(spans.ours(), run.results, strict=True):
        check_span(span, entry, "refusal" if entry["tool"] == "vm_refused" else "semantics")
        assert span.parent is not None and span.parent.span_id == loop.get_span_context().span_id
    tracing.use_tracer_provider(None)
    plain = _langchain_calls()
    assert [(m.content, m.status) for m in traced] == [(m.content, m.status) for m in plain]
    assert [m.status for m in plain] == ["success", "success", "error"]


# OpenAI Agents SDK ------------------------------------------------------------------


def _agents_run(tools: list[Any], calls: list[tuple[str, str]], **config: Any) -> list[str]:
    """A scripted run calling ``calls`` (tool, call id); the outputs the model read, in order."""
    from agents import Agent, RunConfig, Runner
    from agents.testing import ScriptedModel, assistant_message, function_call

    model = ScriptedModel(
        [
            [function_call(name, {"vm": "vm-01"}, call_id=call_id) for name, call_id in calls],
            [assistant_message("All checked.")],
        ]
    )
    agent = Agent(name="backups", model=model, tools=tools)
    asyncio.run(Runner.run(agent, "Is vm-01 backed up?", run_config=RunConfig(**config)))
    return [
        item["output"]
        for request in model.calls
        if isinstance(request.input, list)
        for item in request.input
        if isinstance(item, dict) and item.get("type") == "function_call_output"
    ]


@pytest.fixture
def agents_spans() -> Any:
    """The OpenAI Agents SDK's own spans, as a processor registered with it sees them."""
    pytest.importorskip("agents")
    from agents import set_trace_processors
    from agents.tracing import TracingProcessor
    from agents.tracing.processors import default_processor

    class Collect(TracingProcessor):
        def __init__(self) -> None:
            self.spans: list[dict[str, Any]] = []

        def on_trace_start(self, trace: Any) -> None: ...
        def on_trace_end(self, trace: Any) -> None: ...
        def on_span_start(self, span: Any) -> None: ...
        def on_span_end(self, span: Any) -> None:
            self.spans.append(span.export())

        def shutdown(self) -> None: ...
        def force_flush(self) -> None: ...

    collect = Collect()
    set_trace_processors([collect])
    try:
        yield collect.spans
    finally:
        set_trace_processors([default_processor()])


AGENT_CALLS = [("vm_backup_status", "c1"), ("vm_backup_status_async", "c2"), ("vm_refused", "c3")]


def _agents_tools() -> list[Any]:
    from semantics_lint.frameworks.openai_agents import function_tool

    return [function_tool(f) for f in (vm_backup_status, vm_backup_status_async, vm_refused)]


def test_openai_agents_processors_see_a_custom_span_under_the_function_span(
    spans: Spans, agents_spans: list[dict[str, Any]]
) -> None:
    with run_record() as run:
        _agents_run(_agents_tools(), AGENT_CALLS)
    by_id = {span["id"]: span for span in agents_spans}
    custom = [s for s in agents_spans if s["span_data"]["name"].startswith("semantics ")]
    by_tool = {entry["tool"]: entry for entry in run.results}
    assert sorted(s["span_data"]["name"] for s in custom) == [f"semantics {t}" for t, _ in AGENT_CALLS]
    for span in custom:
        tool = span["span_data"]["name"].removeprefix("semantics ")
        parent = by_id[span["parent_id"]]["span_data"]
        assert (parent["type"], parent["name"]) == ("function", tool)
        data = span["span_data"]["data"]
        entry = by_tool[tool]
        assert data["envelope"] == entry["record"]
        assert data["semantics_lint.result.kind"] == entry["kind"]
        assert data["semantics_lint.tool.name"] == tool
        refused = tool == "vm_refused"
        assert span["error"] == ({"message": entry["record"], "data": None} if refused else None)
    # The OpenTelemetry spans are written too, and the record carries their ids.
    for span in spans.ours():
        tool = span.attributes["semantics_lint.tool.name"]
        check_span(span, by_tool[tool], "refusal" if tool == "vm_refused" else "semantics")


def test_openai_agents_custom_span_leaves_content_out_when_asked(
    agents_spans: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    _agents_run(_agents_tools()[:1], AGENT_CALLS[:1], trace_include_sensitive_data=False)
    monkeypatch.setenv(tracing.CAPTURE_CONTENT_ENV, "false")
    _agents_run(_agents_tools()[:1], AGENT_CALLS[:1])
    monkeypatch.delenv(tracing.CAPTURE_CONTENT_ENV)
    _agents_run(_agents_tools()[:1], AGENT_CALLS[:1])
    custom = [
        s["span_data"]["data"] for s in agents_spans if s["span_data"]["name"] == "semantics vm_backup_status"
    ]
    assert ["envelope" in data for data in custom] == [False, False, True]
    assert all(data["semantics_lint.fact.count"] == 1 for data in custom)


def test_openai_agents_model_reads_the_same_text_whether_traced_or_not(
    spans: Spans, agents_spans: list[dict[str, Any]]
) -> None:
    traced = _agents_run(_agents_tools(), AGENT_CALLS)
    assert agents_spans and spans.ours()
    tracing.use_tracer_provider(None)
    count = len(agents_spans)
    plain = _agents_run(_agents_tools(), AGENT_CALLS, tracing_disabled=True)
    assert len(agents_spans) == count  # the SDK's tracing off: no custom span is made
    assert traced == plain and len(plain) == 3 and plain[2].startswith("refused:")


# MCP (its own process: the SDK traces with the global provider) ----------------------

MCP_RUN = """
    import json, sys
    import anyio
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    sys.path.insert(0, {tests!r})
    from mcp_backup_server import call_each as calls
    from semantics_lint.runtime import run_record

    plain = anyio.run(calls)  # no provider yet
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    with run_record() as run:
        traced = anyio.run(calls)
    spans = [
        {{"name": s.name, "scope": s.instrumentation_scope.name, "kind": s.kind.name,
          "trace_id": format(s.context.trace_id, "032x"), "span_id": format(s.context.span_id, "016x"),
          "parent": format(s.parent.span_id, "016x") if s.parent else None,
          "status": s.status.status_code.name, "description": s.status.description,
          "attributes": dict(s.attributes)}}
        for s in exporter.get_finished_spans()
    ]
    print(json.dumps({{"plain": plain, "traced": traced, "results": run.results, "spans": spans}}))
"""


def test_mcp_tools_each_have_a_span_under_the_servers_tools_call_span() -> None:
    pytest.importorskip("mcp.server.mcpserver", reason="the MCP SDK 2.x server")
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(MCP_RUN.format(tests=str(TESTS)))],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["traced"] == out["plain"]
    assert [is_error for is_error, _ in out["plain"]] == [False, False, True]
    by_id = {span["span_id"]: span for span in out["spans"]}
    ours = [span for span in out["spans"] if span["scope"] == tracing.TRACER_NAME]
    assert len(ours) == len(out["results"]) == 3
    for span, entry in zip(ours, out["results"], strict=True):
        assert (span["name"], span["trace_id"], span["span_id"]) == (
            f"semantics {entry['tool']}",
            entry["trace_id"],
            entry["span_id"],
        )
        assert span["attributes"]["output.value"] == json_text(entry["record"])
        assert span["attributes"]["semantics_lint.result.kind"] == entry["kind"]
        parent = by_id[span["parent"]]
        assert (parent["name"], parent["kind"]) == (f"tools/call {entry['tool']}", "SERVER")
        refused = entry["tool"] == "vm_refused"
        assert entry["kind"] == ("refusal" if refused else "semantics")
        assert (span["status"], span["description"]) == (
            ("ERROR", entry["record"]) if refused else ("UNSET", None)
        )


def test_openai_agents_custom_span_of_a_record_that_is_not_json_keeps_the_tool_name(
    agents_spans: list[dict[str, Any]],
) -> None:
    # A message an adapter built by hand, whose record JSON cannot carry: the custom
    # span still says whose result it is, as the OpenTelemetry span does.
    from agents.tracing import function_span, trace

    from semantics_lint.frameworks import openai_agents
    from semantics_lint.runtime import tool_message

    message = tool_message({"rows": 3})._replace(record={"rows": {1, 2}})
    with trace("odd"), function_span("odd"):
        openai_agents._custom_span("odd", None, message)  # type: ignore[arg-type]
    (custom,) = [s["span_data"] for s in agents_spans if s["span_data"]["name"] == "semantics odd"]
    assert custom["data"] == {
        "semantics_lint.tool.name": "odd",
        "semantics_lint.result.kind": "data",
    }
