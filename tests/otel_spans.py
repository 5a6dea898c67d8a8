"""What the tracing tests share: an SDK tracer provider whose spans land in memory."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest

pytest.importorskip("opentelemetry.sdk", reason="the tracing tests need opentelemetry-sdk (the test extra)")

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402

from semantics_lint.runtime.serving import tracing  # noqa: E402


class Spans(NamedTuple):
    provider: TracerProvider
    exporter: InMemorySpanExporter

    def finished(self) -> list[ReadableSpan]:
        return list(self.exporter.get_finished_spans())

    def ours(self) -> list[ReadableSpan]:
        """The served results' spans, in the order they ended."""
        return [s for s in self.finished() if s.instrumentation_scope.name == tracing.TRACER_NAME]

    def by_id(self) -> dict[int, ReadableSpan]:
        return {s.context.span_id: s for s in self.finished()}


def ids(span: ReadableSpan) -> dict[str, Any]:
    """A span's ids as the run record writes them."""
    return {
        "trace_id": format(span.context.trace_id, "032x"),
        "span_id": format(span.context.span_id, "016x"),
    }


@pytest.fixture
def spans() -> Iterator[Spans]:
    """A fresh SDK provider with an in-memory exporter, given to ``use_tracer_provider``."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.use_tracer_provider(provider)
    try:
        yield Spans(provider, exporter)
    finally:
        tracing.use_tracer_provider(None)
        provider.shutdown()
