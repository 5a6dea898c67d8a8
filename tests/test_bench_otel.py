"""``bench/otel_serving.py`` measures what its rows say (it times nothing here).

Each row's conditions hold while it serves: ``today`` and ``no provider`` write no span,
the provider rows write one per result (``provider, no content`` without its value),
and everything is undone after each row.
"""

from __future__ import annotations

import json
import os
import runpy
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("opentelemetry.sdk", reason="the benchmark needs opentelemetry-sdk")

from semantics_lint.frameworks._common import call_prepared, prepare  # noqa: E402
from semantics_lint.runtime import run_record  # noqa: E402
from semantics_lint.runtime.envelope.json_text import json_text  # noqa: E402
from semantics_lint.runtime.serving import record, tracing  # noqa: E402

BENCH = Path(__file__).resolve().parent.parent / "bench"

# bench/ is a folder of scripts, not a package: the script's namespace, run by path.
bench = SimpleNamespace(**runpy.run_path(str(BENCH / "otel_serving.py"), run_name="_bench_otel"))


def test_each_row_serves_under_its_own_conditions() -> None:
    providers = bench.Providers()
    prepared = prepare(lambda vm: bench.RESULTS["small"], name="vm_backup_status")
    written: dict[str, list[object]] = {}
    for name in bench.MODES:
        with bench.mode(name, providers), run_record() as run:
            call_prepared(prepared, "vm-01")
            providers.batch_processor.force_flush()
            written[name] = [dict(s.attributes) for s in providers.exporter.get_finished_spans()]
            assert ("span_id" in run.results[0]) == name.startswith("provider")
        # Undone after the row.
        assert record.current_tracer is tracing.current_tracer and tracing._TRACING.api() is not None
        assert tracing.CAPTURE_CONTENT_ENV not in os.environ
        assert providers.exporter.get_finished_spans() == ()
    assert written["today"] == written["not installed"] == written["no provider"] == []
    for name in ("provider", "provider, simple"):
        (attributes,) = written[name]
        assert attributes["semantics_lint.result.kind"] == "semantics"
        assert "output.value" in attributes
    (quiet,) = written["provider, no content"]
    assert "output.value" not in quiet and quiet["semantics_lint.envelope.bytes"] > 0


def test_the_table_has_every_row_and_ratio() -> None:
    medians = {(size, name): 1e-6 for size in bench.RESULTS for name in bench.ROWS}
    medians[("small", "provider")] = 1.5e-6
    text = bench.table(medians)
    assert text.count("\n| small |") == len(bench.ROWS)
    assert "| small | provider | 1.5 µs | 1.50x | 1.50x |" in text


def test_the_megabyte_result_is_over_the_cap() -> None:
    text = json_text(bench.tool_message(bench.RESULTS["1 MB"]).record)
    assert len(text.encode()) >= 1_000_000 > tracing.DEFAULT_MAX_VALUE_BYTES


@pytest.mark.parametrize(
    ("row", "ours", "mcps"),
    [("no provider", False, False), ("provider", True, True), ("provider, ours off", False, True)],
)
def test_each_row_through_mcp_writes_the_spans_it_names(row: str, ours: bool, mcps: bool) -> None:
    pytest.importorskip("mcp.server.mcpserver", reason="the MCP SDK 2.x server")
    done = subprocess.run(
        bench._child("mcp", row, "small", "2"),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["median"] > 0
    assert ("semantics vm_backup_status" in out["spans"]) is ours
    assert ("tools/call vm_backup_status" in out["spans"]) is mcps


def test_the_other_tables_have_every_row_and_ratio() -> None:
    medians = {(size, name): 1e-3 for size in bench.RESULTS for name in bench.MCP_MODES}
    medians[("small", "provider")] = 1.3e-3
    medians[("small", "provider, ours off")] = 1.1e-3
    text = bench.mcp_table(medians)
    assert text.count("\n| small |") == len(bench.MCP_MODES)
    assert "| small | provider | 1,300.0 µs | 1.30x | +0.20x |" in text
    counts = {(size, name): 1000.0 for size in bench.RESULTS for name in bench.COUNTED}
    counts[("1 MB", "provider")] = 1500.0
    text = bench.instructions_table(counts)
    assert text.count("\n| 1 MB |") == len(bench.COUNTED)
    assert "| 1 MB | provider | 1,500 | 1.50x |" in text
