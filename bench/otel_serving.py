"""What tracing adds to serving one result: no provider against today, a provider against none.

Serving is what an adapter does with every result: the tool's call through the seam
(``frameworks/_common.call_prepared``: the ``define_tool`` tool, then ``record.serve``:
``tool_message`` and ``record_served`` into a ``run_record()``). The tool returns an envelope built once, so
the tool's own work is not counted. Rows, each timed in this one process:

* ``today``: serving with the span left out (``record.serve`` told there is no tracer,
  without asking OpenTelemetry), as before tracing existed;
* ``not installed``: OpenTelemetry cannot be imported (the cached failed import);
* ``no provider``: OpenTelemetry installed, no tracer provider set (its own no-op);
* ``provider``: an SDK ``TracerProvider`` with a ``BatchSpanProcessor`` (as an
  application runs it: spans exported from its own thread) into an
  ``InMemorySpanExporter``, content captured; flushed between samples;
* ``provider, no content``: the same with ``SEMANTICS_LINT_OTEL_CAPTURE_CONTENT=false``;
* ``provider, simple``: a ``SimpleSpanProcessor`` instead (each span exported in the
  serving thread as it ends), content captured;
* ``SDK span alone``: not serving; what the SDK alone costs for one span with the
  same attributes (built beforehand) under the simple processor, the floor of any
  span written per result.

Results: ``small`` (one VM's described result, about 900 bytes), ``100 facts`` (about
13 KB) and ``1 MB`` (a data result of 1,000,000 bytes of JSON, cut to 65,536 in
``output.value``). Each sample is the median time of one call over a batch; the rows
are interleaved (round 1 of every row, then round 2...), and the table gives the
median of ``--rounds`` samples and the ratios, side by side.

The 1 MB rows take 1 call in 40 of the others' per sample.

Two more tables, each in fresh processes (one per sample):

* ``--through mcp``: a tool call as an MCP client makes it, through a real in-memory
  ``mcp.Client`` to a real ``MCPServer`` serving the tool with ``served`` (the request
  written, sent, validated, the tool called and its result written back): ``no
  provider``; ``provider`` (a global SDK provider, batch processor into memory: the
  SDK's own ``tools/call`` span and ours); ``provider, ours off`` (the same with our
  span left out, as ``today``: what the framework's tracing alone adds). One sample is
  the median time of ``--calls`` calls in one process; processes alternate by row.
* ``--instructions``: the seam's rows counted in instructions under
  ``valgrind --tool=callgrind`` (a process serving ``--calls`` results, less one that
  serves none), which the load of a shared machine does not move.

Run::

    .venv/bin/python bench/otel_serving.py [--rounds 15] [--calls 400] [--through mcp] [--instructions]

It prints Markdown tables and writes them to ``bench/out/otel_serving.md``. Targets:
no provider costs what today costs; a provider within 1.5x of none.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from semantics_lint.frameworks._common import call_prepared, prepare
from semantics_lint.runtime import described_result, run_record, tool_message
from semantics_lint.runtime.serving import record, tracing

OUT = Path(__file__).resolve().parent / "out"
PROVENANCE: Any = {"measuredAt": "2026-05-01T06:00:00Z", "source": "backup export"}


def _facts(count: int, provenance: Any) -> Any:
    return described_result(
        facts=[
            {"entity": f"vm-{i:03}", "backed_up": i % 3 != 0, "days": 7, "site": "Zürich"}
            for i in range(count)
        ],
        provenance=provenance,
        coverage={
            "checked": ["every backup job in the export of 2026-05-01"],
            "cannotCover": [{"what": "PPDM", "why": "not collected on this install"}],
        },
        render={"default": "table", "columns": ["entity", "backed_up"], "sort": "entity"},
    )


RESULTS: dict[str, Any] = {
    "small": _facts(1, PROVENANCE),
    "100 facts": _facts(100, PROVENANCE),
    "1 MB": {"rows": [{"entity": f"vm-{i:05}", "note": "x" * 970} for i in range(1000)]},
}


def _none() -> None:
    return None


def leave_out_our_span() -> None:
    """Serve as before tracing existed: no tracer asked for, no span, no text for one."""
    record.current_tracer = _none  # type: ignore[assignment]


class Providers:
    """The SDK providers of the rows, each exporting into memory."""

    def __init__(self) -> None:
        self.exporter = InMemorySpanExporter()
        self.batch = TracerProvider()
        self.batch_processor = BatchSpanProcessor(self.exporter, max_queue_size=1_000_000)
        self.batch.add_span_processor(self.batch_processor)
        self.simple = TracerProvider()
        self.simple.add_span_processor(SimpleSpanProcessor(self.exporter))

    def clear(self) -> None:
        self.batch_processor.force_flush()
        self.exporter.clear()


@contextmanager
def mode(name: str, providers: Providers) -> Iterator[None]:
    """The conditions of one row, undone after."""
    saved_tracer, saved_state = record.current_tracer, tracing._TRACING
    try:
        if name == "today":
            leave_out_our_span()
        elif name == "not installed":
            # The state of a process whose import of OpenTelemetry failed once.
            tracing._TRACING = tracing._Tracing()  # type: ignore[misc]
            tracing._TRACING._tried = True
        elif name.startswith("provider"):
            simple = name == "provider, simple"
            tracing.use_tracer_provider(providers.simple if simple else providers.batch)
            if name == "provider, no content":
                os.environ[tracing.CAPTURE_CONTENT_ENV] = "false"
        yield
    finally:
        record.current_tracer = saved_tracer  # type: ignore[assignment]
        tracing._TRACING = saved_state  # type: ignore[misc]
        tracing.use_tracer_provider(None)
        os.environ.pop(tracing.CAPTURE_CONTENT_ENV, None)
        providers.clear()


MODES = (
    "today",
    "not installed",
    "no provider",
    "provider",
    "provider, no content",
    "provider, simple",
)
ROWS = (*MODES, "SDK span alone")


def one_sample(serve: Callable[[], object], calls: int) -> float:
    """The median seconds of one call, over ``calls`` calls inside one run."""
    times = []
    with run_record() as run:
        for _ in range(calls):
            start = time.perf_counter()
            serve()
            times.append(time.perf_counter() - start)
            if len(run.results) > 50:
                run.results.clear()
    return statistics.median(times)


def _span_alone(providers: Providers, value: object) -> Callable[[], object]:
    message = tool_message(value)
    attributes = tracing.served_attributes("vm_backup_status", message)
    tracer = providers.simple.get_tracer(tracing.TRACER_NAME)

    def span() -> None:
        one = tracer.start_span("semantics vm_backup_status")
        one.set_attributes(attributes)
        one.end()

    return span


def measure(rounds: int, calls: int) -> dict[tuple[str, str], float]:
    providers = Providers()
    assert isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider), "no global provider"
    samples: dict[tuple[str, str], list[float]] = {}
    for size, value in RESULTS.items():
        prepared = prepare(lambda vm, value=value: value, name="vm_backup_status")
        n = calls if size != "1 MB" else max(calls // 40, 5)
        alone = _span_alone(providers, value)

        def serve(prepared: Any = prepared) -> object:
            return call_prepared(prepared, "vm-01")

        for _ in range(rounds):
            for name in MODES:
                with mode(name, providers):
                    sample = one_sample(serve, n)
                samples.setdefault((size, name), []).append(sample)
            samples.setdefault((size, ROWS[-1]), []).append(one_sample(alone, n))
            providers.clear()
    return {key: statistics.median(values) for key, values in samples.items()}


def table(medians: dict[tuple[str, str], float]) -> str:
    lines = [
        "| result | mode | median per result | vs today | vs no provider |",
        "|---|---|---:|---:|---:|",
    ]
    for size in RESULTS:
        today = medians[(size, "today")]
        none = medians[(size, "no provider")]
        for name in ROWS:
            value = medians[(size, name)]
            lines.append(
                f"| {size} | {name} | {value * 1e6:,.1f} µs | {value / today:.2f}x | {value / none:.2f}x |"
            )
    return "\n".join(lines)


# Through MCP ---------------------------------------------------------------------------

MCP_MODES = ("no provider", "provider", "provider, ours off")


def mcp_child(name: str, size: str, calls: int) -> tuple[float, list[str]]:
    """In this fresh process: the median seconds of one MCP tool call in row ``name``,
    and the names of the spans written (each name once)."""
    import anyio
    from mcp import Client
    from mcp.server.mcpserver import MCPServer

    from semantics_lint.frameworks.mcp import served

    exporter = InMemorySpanExporter()
    processor = None
    if name != "no provider":  # the baseline starts no processor thread
        provider = TracerProvider()
        processor = BatchSpanProcessor(exporter, max_queue_size=1_000_000)
        provider.add_span_processor(processor)
        trace.set_tracer_provider(provider)
    if name == "provider, ours off":
        leave_out_our_span()
    value = RESULTS[size]
    server = MCPServer("bench")

    @server.tool()
    @served
    def vm_backup_status(vm: str) -> dict[str, Any]:
        "Backup posture for one VM."
        return value  # type: ignore[no-any-return]

    async def calls_made() -> float:
        times = []
        async with Client(server) as client:
            await client.call_tool("vm_backup_status", {"vm": "vm-01"})  # warm up
            with run_record() as run:
                for _ in range(calls):
                    start = time.perf_counter()
                    await client.call_tool("vm_backup_status", {"vm": "vm-01"})
                    times.append(time.perf_counter() - start)
                    run.results.clear()
        return statistics.median(times)

    median = anyio.run(calls_made)
    if processor is not None:
        processor.force_flush()
    return median, sorted({span.name for span in exporter.get_finished_spans()})


def _child(*args: str) -> list[str]:
    return [sys.executable, __file__, "--child", *args]


def measure_mcp(rounds: int, calls: int) -> dict[tuple[str, str], float]:
    samples: dict[tuple[str, str], list[float]] = {}
    for size in RESULTS:
        n = calls if size != "1 MB" else max(calls // 40, 5)
        for _ in range(rounds):
            for name in MCP_MODES:
                done = subprocess.run(
                    _child("mcp", name, size, str(n)), capture_output=True, text=True, check=True
                )
                samples.setdefault((size, name), []).append(json.loads(done.stdout)["median"])
    return {key: statistics.median(values) for key, values in samples.items()}


def mcp_table(medians: dict[tuple[str, str], float]) -> str:
    lines = [
        "| result | through MCP | median per call | vs no provider | ours alone vs no provider |",
        "|---|---|---:|---:|---:|",
    ]
    for size in RESULTS:
        none = medians[(size, "no provider")]
        ours = medians[(size, "provider")] - medians[(size, "provider, ours off")]
        for name in MCP_MODES:
            value = medians[(size, name)]
            share = f"{ours / none:+.2f}x" if name == "provider" else ""
            lines.append(f"| {size} | {name} | {value * 1e6:,.1f} µs | {value / none:.2f}x | {share} |")
    return "\n".join(lines)


# Instructions ----------------------------------------------------------------------------

COUNTED = ("today", "no provider", "provider", "provider, no content", "SDK span alone")


def seam_child(name: str, size: str, calls: int) -> None:
    """In this fresh process: serve ``calls`` results at the seam in row ``name``, untimed."""
    providers = Providers()
    value = RESULTS[size]
    prepared = prepare(lambda vm: value, name="vm_backup_status")
    call_prepared(prepared, "vm-01")  # imports and caches, counted in the process that serves none
    alone = _span_alone(providers, value)
    alone()
    serve = alone if name == "SDK span alone" else (lambda: call_prepared(prepared, "vm-01"))
    with mode("no provider" if name == "SDK span alone" else name, providers), run_record() as run:
        for _ in range(calls):
            serve()
            run.results.clear()


def _instructions(*args: str) -> int:
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *_child(*args)],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output: {done.stderr[-500:]}")
    return int(found.group(1).replace(",", ""))


def measure_instructions(calls: int) -> dict[tuple[str, str], float]:
    counts: dict[tuple[str, str], float] = {}
    for size in RESULTS:
        n = calls if size != "1 MB" else max(calls // 40, 5)
        for name in COUNTED:
            served_n = _instructions("seam", name, size, str(n))
            counts[(size, name)] = (served_n - _instructions("seam", name, size, "0")) / n
    return counts


def instructions_table(counts: dict[tuple[str, str], float]) -> str:
    lines = [
        "| result | mode | instructions per result | vs no provider |",
        "|---|---|---:|---:|",
    ]
    for size in RESULTS:
        none = counts[(size, "no provider")]
        for name in COUNTED:
            value = counts[(size, name)]
            lines.append(f"| {size} | {name} | {value:,.0f} | {value / none:.2f}x |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        what, name, size, calls = argv[1:]
        if what == "mcp":
            median, spans = mcp_child(name, size, int(calls))
            print(json.dumps({"median": median, "spans": spans}))
        else:
            seam_child(name, size, int(calls))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--through", choices=["mcp"], help="also time tool calls through MCP")
    parser.add_argument("--instructions", action="store_true", help="also count instructions (valgrind)")
    args = parser.parse_args(argv)
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind on PATH")
    load = os.getloadavg()[0]
    text = table(measure(args.rounds, args.calls))
    if args.through:
        text += "\n\n" + mcp_table(measure_mcp(max(args.rounds // 3, 3), max(args.calls // 4, 20)))
    if args.instructions:
        text += "\n\n" + instructions_table(measure_instructions(max(args.calls // 2, 50)))
    text += f"\n\nload average (1 min) at the start: {load:.2f}; {os.cpu_count()} CPUs\n"
    print(text)
    OUT.mkdir(exist_ok=True)
    (OUT / "otel_serving.md").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
