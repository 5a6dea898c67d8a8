"""Every served result as an OpenTelemetry span, through the seam (``record_served``).

The spans are read with opentelemetry-sdk's own in-memory exporter; the frameworks'
runs are in ``test_otel_frameworks.py``.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import textwrap
from typing import Any

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.trace.sampling import ALWAYS_OFF
from opentelemetry.trace import StatusCode
from otel_spans import Spans, ids, spans  # noqa: F401 (the fixture)

from semantics_lint.runtime import (
    Refusal,
    absent,
    coverage,
    described_result,
    refusal_message,
    run_record,
    tool_message,
)
from semantics_lint.runtime.envelope.json_text import json_text
from semantics_lint.runtime.serving import tracing
from semantics_lint.runtime.serving.record import record_served

ENVIRONMENT = (
    tracing.CAPTURE_CONTENT_ENV,
    tracing.MAX_VALUE_BYTES_ENV,
    "OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT",
    "OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT",
)
PROVENANCE = {"measuredAt": "2024-05-01T00:00:00Z", "source": "cohesity export"}


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)


def envelope(**extra: Any) -> dict[str, Any]:
    return described_result(
        facts=[
            {"entity": "vm1", "backed_up": True, "site": "Zürich"},
            {"entity": "vm2", "backed_up": False},
        ],
        provenance=PROVENANCE,
        coverage={
            "checked": ["every backup job"],
            "cannotCover": [{"what": "PPDM", "why": "not collected"}],
        },
        render={"default": "table"},
        **extra,
    )


def serve(value: object, tool: str = "vm_backup_status") -> dict[str, Any]:
    """Serve ``value`` inside a run; the run record's entry."""
    with run_record() as run:
        record_served(tool, tool_message(value))
    return run.results[0]


def test_a_described_result_is_one_span_with_the_envelope(spans: Spans) -> None:
    value = envelope()
    entry = serve(value)
    (span,) = spans.ours()
    text = json_text(value)
    assert span.name == "semantics vm_backup_status"
    assert dict(span.attributes or {}) == {
        "semantics_lint.tool.name": "vm_backup_status",
        "semantics_lint.result.kind": "semantics",
        "semantics_lint.fact.count": 2,
        "semantics_lint.envelope.bytes": len(text.encode()),
        "semantics_lint.envelope.sha256": hashlib.sha256(text.encode()).hexdigest(),
        "semantics_lint.envelope.truncated": False,
        "output.value": text,
        "output.mime_type": "application/json",
    }
    assert json.loads(span.attributes["output.value"]) == entry["record"]
    assert span.status.status_code is StatusCode.UNSET
    assert span.kind is trace.SpanKind.INTERNAL
    assert not any(key.startswith("gen_ai.") for key in span.attributes)


def test_the_run_record_entry_carries_the_span_ids(spans: Spans) -> None:
    with run_record() as run:
        record_served("a", tool_message(envelope()))
        record_served("b", tool_message({"rows": 3}))
    first, second = spans.ours()
    assert run.results[0] == {
        "tool": "a",
        "kind": "semantics",
        "record": run.results[0]["record"],
        **ids(first),
    }
    assert run.results[1] == {"tool": "b", "kind": "data", "record": {"rows": 3}, **ids(second)}
    assert len(run.results[0]["trace_id"]) == 32 and len(run.results[0]["span_id"]) == 16
    assert run.results[0]["span_id"] != run.results[1]["span_id"]


def test_the_span_is_a_child_of_the_current_span(spans: Spans) -> None:
    tracer = spans.provider.get_tracer("the framework")
    with tracer.start_as_current_span("execute_tool vm_backup_status") as tool_span:
        entry = serve(envelope())
    ours = spans.by_id()[int(entry["span_id"], 16)]
    assert ours.parent is not None and ours.parent.span_id == tool_span.get_span_context().span_id
    assert ours.context.trace_id == tool_span.get_span_context().trace_id


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        (absent(what="runs of vm9", checked=["the export"]), "absent"),
        (coverage({"rows": [1]}, checked=["the export"]), "coverage"),
        ({"af_semantics": True, "facts": "not a list"}, "malformed"),
        ({"rows": 3}, "data"),
        ("plain text", "data"),
    ],
)
def test_every_kind_of_result_is_a_span(spans: Spans, value: object, kind: str) -> None:
    with pytest.warns() if kind == "malformed" else _nothing():
        entry = serve(value)
    (span,) = spans.ours()
    assert span.attributes["semantics_lint.result.kind"] == kind
    assert "semantics_lint.fact.count" not in span.attributes
    assert span.attributes["output.value"] == json_text(entry["record"])
    assert json.loads(span.attributes["output.value"]) == value


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def test_a_series_envelope_has_no_fact_count(spans: Spans) -> None:
    serve(
        described_result(
            series=[{"t": "2024-05-01", "entity": "vm1", "metric": "runs", "value": 3}],
            grain={"interval": "daily", "aggregation": "count", "isCounter": False},
            provenance=PROVENANCE,
        )
    )
    (span,) = spans.ours()
    assert span.attributes["semantics_lint.result.kind"] == "semantics"
    assert "semantics_lint.fact.count" not in span.attributes


def test_a_refusal_is_an_error_span_with_its_text(spans: Spans) -> None:
    try:
        described_result(facts=[])
    except Refusal as exc:
        message = refusal_message(exc)
    assert message is not None
    with run_record() as run:
        record_served("vm_backup_status", message)
    (span,) = spans.ours()
    assert span.status.status_code is StatusCode.ERROR
    assert span.status.description == message.text
    assert message.text.startswith("refused:")
    assert span.attributes["semantics_lint.result.kind"] == "refusal"
    assert json.loads(span.attributes["output.value"]) == message.text
    assert run.results[0]["span_id"] == ids(span)["span_id"]


def test_the_capture_switch_is_read_at_each_served_result(
    spans: Spans, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(tracing.CAPTURE_CONTENT_ENV, "false")
    serve(envelope(), "first")
    monkeypatch.setenv(tracing.CAPTURE_CONTENT_ENV, "true")
    serve(envelope(), "second")
    monkeypatch.setenv(tracing.CAPTURE_CONTENT_ENV, "OFF")
    serve(envelope(), "third")
    monkeypatch.delenv(tracing.CAPTURE_CONTENT_ENV)
    serve(envelope(), "fourth")
    first, second, third, fourth = spans.ours()
    assert "output.value" not in first.attributes and "output.value" not in third.attributes
    assert json.loads(second.attributes["output.value"]) == envelope()
    assert fourth.attributes["output.value"] == second.attributes["output.value"]
    kept = {
        k: v for k, v in second.attributes.items() if k not in ("output.value", "semantics_lint.tool.name")
    }
    assert {k: v for k, v in first.attributes.items() if k != "semantics_lint.tool.name"} == kept


def test_an_unreadable_capture_switch_keeps_content_out_and_says_so(
    spans: Spans, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(tracing.CAPTURE_CONTENT_ENV, "flase")
    with pytest.warns(RuntimeWarning, match="SEMANTICS_LINT_OTEL_CAPTURE_CONTENT='flase'"):
        serve(envelope())
    (span,) = spans.ours()
    assert "output.value" not in span.attributes
    assert span.attributes["semantics_lint.envelope.bytes"] > 0


def big_result(size: int = 1_000_000) -> dict[str, Any]:
    row = {"entity": 'vm-é😀"\\', "note": "x" * 990}
    return {"rows": [row] * (size // 1000)}


def _check_capped(span_value: str, full: str, limit: int) -> str:
    """``span_value`` is the valid, capped JSON of ``full``; its prefix."""
    encoded = span_value.encode("utf-8")  # strict: no lone surrogate survives
    assert len(encoded) <= limit
    capped = json.loads(span_value)
    data = full.encode("utf-8")
    assert capped == {
        "truncated": True,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "prefix": capped["prefix"],
    }
    prefix = capped["prefix"]
    assert full.startswith(prefix)
    # The longest prefix that fits: one more character would not.
    longer = json_text({**capped, "prefix": full[: len(prefix) + 1]})
    assert len(longer.encode("utf-8")) > limit
    return prefix


def test_a_megabyte_result_is_capped_to_valid_json(spans: Spans) -> None:
    value = big_result()
    entry = serve(value)
    (span,) = spans.ours()
    full = json_text(value)
    assert len(full.encode()) > 1_000_000
    assert span.attributes["semantics_lint.envelope.truncated"] is True
    assert span.attributes["semantics_lint.envelope.bytes"] == len(full.encode())
    prefix = _check_capped(span.attributes["output.value"], full, tracing.DEFAULT_MAX_VALUE_BYTES)
    assert len(prefix) > 50_000
    assert entry["record"] == value  # the record keeps the whole result


@pytest.mark.parametrize("shift", range(32))
def test_the_cut_falls_between_characters_whatever_sits_at_it(
    spans: Spans, monkeypatch: pytest.MonkeyPatch, shift: int
) -> None:
    # Multibyte characters, a lone surrogate (written as \\ud800), quotes, backslashes
    # and a line break around the cut: each shift moves the cut one byte on, across
    # a whole group of them.
    monkeypatch.setenv(tracing.MAX_VALUE_BYTES_ENV, "2000")
    pad = 1_800 - shift
    value = {"text": "a" * pad + ('é😀\ud800"\\\n€' * 40)}
    serve(value)
    (span,) = spans.ours()
    full = json_text(value)
    assert "\\ud800" in full
    prefix = _check_capped(span.attributes["output.value"], full, 2000)
    assert len(prefix) > pad + 20  # the cut is among the odd characters


def test_a_float_is_written_as_javascript_writes_it(spans: Spans) -> None:
    value = envelope()
    value["facts"][0].update(size=100.0, ratio=1e-7, big=1e21)
    entry = serve(value)
    (span,) = spans.ours()
    assert '"size":100,' in span.attributes["output.value"]
    assert '"ratio":1e-7,' in span.attributes["output.value"]
    assert span.attributes["output.value"] == json_text(entry["record"])


def test_the_cap_is_read_from_the_environment(spans: Spans, monkeypatch: pytest.MonkeyPatch) -> None:
    value = {"text": "x" * 10_000}
    monkeypatch.setenv(tracing.MAX_VALUE_BYTES_ENV, "5000")
    serve(value)
    monkeypatch.setenv(tracing.MAX_VALUE_BYTES_ENV, "20000")
    serve(value)
    monkeypatch.setenv(tracing.MAX_VALUE_BYTES_ENV, "10")  # raised to the smallest cap
    serve(value)
    capped, whole, smallest = spans.ours()
    full = json_text(value)
    _check_capped(capped.attributes["output.value"], full, 5000)
    assert whole.attributes["output.value"] == full
    assert whole.attributes["semantics_lint.envelope.truncated"] is False
    _check_capped(smallest.attributes["output.value"], full, tracing.MIN_VALUE_BYTES)


def test_a_cap_that_is_not_a_number_is_ignored_with_a_warning(
    spans: Spans, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(tracing.MAX_VALUE_BYTES_ENV, "64k")
    with pytest.warns(RuntimeWarning, match="SEMANTICS_LINT_OTEL_MAX_VALUE_BYTES='64k'"):
        serve({"text": "x" * 70_000})
    (span,) = spans.ours()
    _check_capped(span.attributes["output.value"], json_text({"text": "x" * 70_000}), 65_536)


def test_the_sdk_attribute_limit_lowers_the_cap_so_the_sdk_never_cuts_the_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The SDK cuts a longer string at its limit (in characters), which would leave
    # broken JSON; the cap follows the limit instead.
    monkeypatch.setenv("OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT", "3000")
    exporter = InMemorySpanExporter()
    provider = TracerProvider()  # reads the limit now
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.use_tracer_provider(provider)
    try:
        value = {"text": "é" * 5_000}
        serve(value)
    finally:
        tracing.use_tracer_provider(None)
    (span,) = exporter.get_finished_spans()
    _check_capped(span.attributes["output.value"], json_text(value), 3000)


def _refuse_writing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every way tracing writes, hashes or measures a record fails the test."""

    def refuse(*args: object, **kwargs: object) -> Any:
        raise AssertionError("nothing is written for a span that does not record")

    for name in ("json_text", "plain_text", "served_attributes", "capped_value"):
        monkeypatch.setattr(tracing, name, refuse)
    monkeypatch.setattr(tracing.hashlib, "sha256", refuse)


def test_no_provider_serves_and_records_as_before_and_serializes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _refuse_writing(monkeypatch)
    tracing.use_tracer_provider(trace.NoOpTracerProvider())
    try:
        entry = serve(envelope())
    finally:
        tracing.use_tracer_provider(None)
    assert entry == {"tool": "vm_backup_status", "kind": "semantics", "record": envelope()}


def test_a_span_the_sampler_drops_is_not_written(monkeypatch: pytest.MonkeyPatch) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider(sampler=ALWAYS_OFF)
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    _refuse_writing(monkeypatch)
    tracing.use_tracer_provider(provider)
    try:
        entry = serve(envelope())
    finally:
        tracing.use_tracer_provider(None)
    assert exporter.get_finished_spans() == ()
    assert "trace_id" not in entry and "span_id" not in entry


def test_a_record_that_is_not_json_still_gets_its_span_and_serving_goes_on(spans: Spans) -> None:
    # An adapter may record what the model text never held; the span says why it has
    # no envelope attributes, and the served result is untouched.
    message = tool_message({"rows": 3})._replace(record={"rows": {1, 2}})
    with run_record() as run:
        record_served("odd", message)
    (span,) = spans.ours()
    assert dict(span.attributes) == {
        "semantics_lint.tool.name": "odd",
        "semantics_lint.result.kind": "data",
    }
    assert [event.name for event in span.events] == ["exception"]
    assert run.results[0]["span_id"] == ids(span)["span_id"]


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_importing_the_runtime_and_serving_imports_no_opentelemetry() -> None:
    done = _python(
        """
        import sys
        import semantics_lint.runtime
        import semantics_lint.runtime.serving.message, semantics_lint.runtime.serving.tracing
        import semantics_lint.frameworks._common
        print(sorted(m for m in sys.modules if m.split(".")[0] == "opentelemetry"))
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_without_opentelemetry_serving_works_and_the_import_is_tried_once() -> None:
    done = _python(
        """
        import builtins, sys
        sys.modules["opentelemetry"] = None  # as if it were not installed
        tried = []
        real_import = builtins.__import__

        def counting(name, *args, **kwargs):
            if name.split(".")[0] == "opentelemetry":
                tried.append(name)
            return real_import(name, *args, **kwargs)

        builtins.__import__ = counting
        from semantics_lint.runtime import run_record, tool_message
        from semantics_lint.runtime.serving import tracing
        from semantics_lint.runtime.serving.record import record_served
        with run_record() as run:
            record_served("t", tool_message({"rows": 3}))
            record_served("t", tool_message({"rows": 4}))
        print([sorted(entry) for entry in run.results], [e["record"] for e in run.results])
        print(len(tried), tracing.current_tracer())
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines() == [
        "[['kind', 'record', 'tool'], ['kind', 'record', 'tool']] [{'rows': 3}, {'rows': 4}]",
        "1 None",
    ]


def test_a_refusal_traced_before_any_tracer_was_asked_for_gets_its_error_status() -> None:
    # Nothing here depends on which function ran first: trace_served given a tracer
    # in a fresh process, before current_tracer() ever ran.
    done = _python(
        """
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
        from semantics_lint.runtime import described_result, refusal_message
        from semantics_lint.runtime.serving import tracing
        exporter = InMemorySpanExporter()
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        try:
            described_result(facts=[])
        except Exception as error:
            message = refusal_message(error)
        tracing.trace_served("t", message, tracer=provider.get_tracer("test"))
        (span,) = exporter.get_finished_spans()
        print(span.status.status_code.name, span.status.description == message.text)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ERROR True"


def test_the_global_provider_is_read_at_each_served_result() -> None:
    # Before the application sets a provider nothing is traced; after, every result is.
    done = _python(
        """
        from opentelemetry import trace
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
        from semantics_lint.runtime import run_record, tool_message
        from semantics_lint.runtime.serving.record import record_served

        with run_record() as run:
            record_served("before", tool_message({"rows": 1}))
            exporter = InMemorySpanExporter()
            provider = TracerProvider()
            provider.add_span_processor(SimpleSpanProcessor(exporter))
            trace.set_tracer_provider(provider)
            record_served("after", tool_message({"rows": 2}))
        (span,) = exporter.get_finished_spans()
        print(span.name, "span_id" in run.results[0], run.results[1]["span_id"] == format(span.context.span_id, "016x"))
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "semantics after False True"
