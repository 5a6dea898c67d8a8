"""The OTLP setup docs/frameworks.md shows delivers each served result to a collector.

The page's block runs as written in a fresh interpreter, whose MCP server
(``mcp_backup_server.py``) then serves two described results and a refusal through a
real in-memory MCP client; the exporter sends
the spans over OTLP/HTTP (protobuf) to a receiver this test runs on a local port
(``OTEL_EXPORTER_OTLP_ENDPOINT``), which decodes them with OpenTelemetry's own protobuf
classes. What arrives is what the run record holds, under the server's ``tools/call`` span.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("opentelemetry.exporter.otlp.proto.http", reason="the OTLP/HTTP exporter")
pytest.importorskip("mcp.server.mcpserver", reason="the MCP SDK 2.x server")

from google.protobuf.json_format import MessageToDict  # noqa: E402
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest  # noqa: E402

from semantics_lint.runtime.envelope.json_text import json_text  # noqa: E402

PAGE = Path(__file__).resolve().parent.parent / "docs" / "frameworks.md"
TESTS = Path(__file__).resolve().parent

SERVE = """
import json, sys
import anyio

sys.path.insert(0, {tests!r})
from mcp_backup_server import call_each
from semantics_lint.runtime import run_record

with run_record() as run:
    anyio.run(call_each)
provider.shutdown()  # sends what the batch processor holds, as the process would at exit
print(json.dumps(run.results))
"""


def otlp_block() -> str:
    blocks = re.findall(r"^```python\n(.*?)^```$", PAGE.read_text(encoding="utf-8"), re.M | re.S)
    (block,) = [block for block in blocks if "OTLPSpanExporter" in block]
    return block


class Receiver(BaseHTTPRequestHandler):
    """An OTLP/HTTP trace receiver: keeps each request's path, content type and body."""

    received: list[tuple[str, str, bytes]]

    def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append((self.path, self.headers.get("Content-Type", ""), body))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def collector() -> Iterator[tuple[str, list[tuple[str, str, bytes]]]]:
    received: list[tuple[str, str, bytes]] = []
    handler = type("Handler", (Receiver,), {"received": received})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", received
    finally:
        server.shutdown()
        server.server_close()


def spans_received(received: list[tuple[str, str, bytes]]) -> list[dict[str, Any]]:
    spans = []
    for path, content_type, body in received:
        assert (path, content_type) == ("/v1/traces", "application/x-protobuf")
        request = ExportTraceServiceRequest.FromString(body)
        for resource in request.resource_spans:
            service = {a.key: a.value.string_value for a in resource.resource.attributes}
            for scope in resource.scope_spans:
                for span in scope.spans:
                    found = MessageToDict(span)
                    found["scope"] = scope.scope.name
                    found["service"] = service.get("service.name")
                    found["ids"] = (
                        span.trace_id.hex(),
                        span.span_id.hex(),
                        span.parent_span_id.hex(),
                    )
                    found["attributes"] = {
                        a["key"]: next(iter(a["value"].values())) for a in found.get("attributes", [])
                    }
                    spans.append(found)
    return spans


def test_the_docs_otlp_setup_sends_every_served_result_to_the_collector(
    collector: tuple[str, list[tuple[str, str, bytes]]],
) -> None:
    endpoint, received = collector
    code = otlp_block() + textwrap.dedent(SERVE.format(tests=str(TESTS)))
    env = {**os.environ, "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint}
    for name in ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER"):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    spans = spans_received(received)
    by_id = {span["ids"][1]: span for span in spans}
    ours = [span for span in spans if span["scope"] == "semantics_lint"]
    assert [span["name"] for span in ours] == [
        "semantics vm_backup_status",
        "semantics vm_backup_status_async",
        "semantics vm_refused",
    ]
    assert len(results) == 3
    for span, entry in zip(ours, results, strict=True):
        trace_id, span_id, parent = span["ids"]
        assert (trace_id, span_id) == (entry["trace_id"], entry["span_id"])
        assert span["service"] == "backup-agent"
        assert by_id[parent]["name"] == f"tools/call {entry['tool']}"
        attributes = span["attributes"]
        assert attributes["semantics_lint.result.kind"] == entry["kind"]
        assert attributes["output.value"] == json_text(entry["record"])
        assert attributes["output.mime_type"] == "application/json"
    assert ours[0]["attributes"]["semantics_lint.fact.count"] == str(len(results[0]["record"]["facts"]))
    refused = ours[2]
    assert refused["status"] == {"code": "STATUS_CODE_ERROR", "message": results[2]["record"]}
