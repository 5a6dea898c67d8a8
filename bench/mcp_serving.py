"""What serving a big result through the MCP adapter costs, beside a plain MCP tool.

Three tools on one real ``MCPServer`` (the official SDK; ``FastMCP`` in its 1.x), each
returning the same big described result (an envelope dict made once):

* ``plain``: the function alone, registered with ``@server.tool()`` (no return
  annotation): the SDK writes the dict itself (JSON text, indented);
* ``served``: the same function through ``semantics_lint.frameworks.mcp.served``: the
  seam judges the envelope, projects it and writes the model's text;
* ``served_meta``: the same with ``record_in_meta=True`` (the whole envelope in ``_meta``).

One sample of a tool is one in-process ``await server.call_tool(name, {})`` followed by
writing the result as the server writes it on the wire (``model_dump_json``, by alias):
the time of both, and the bytes written. Samples are interleaved across tools, one round
at a time; the figures are medians, and the ratios divide each tool's median by
``plain``'s. Wire bytes are divided by the bytes of the text the model reads.

    .venv/bin/python bench/mcp_serving.py [--rows 20000] [--runs 9]

Targets: ``served`` ≤ 3x ``plain``'s time; ``served``'s wire bytes ≤ 2.2x its text.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from typing import Any

try:  # the SDK 2.x server; 1.x calls it FastMCP
    from mcp.server.mcpserver import MCPServer
except ImportError:  # SDK 1.x
    from mcp.server.fastmcp import FastMCP as MCPServer  # type: ignore[assignment]

from semantics_lint.frameworks.mcp import served
from semantics_lint.runtime import absent, described_result

TOOLS = ("plain", "served", "served_meta")
EXPORTED_AT = "2024-05-01T06:00:00Z"  # the synthetic export's own timestamp


def big_result(rows: int, exported_at: str) -> dict[str, Any]:
    """A described result of ``rows`` facts, about 200 bytes of text each."""
    facts = [
        {
            "entity": f"vm-{i:06d}",
            "backed_up": i % 7 != 0,
            "last_run": f"2024-05-{1 + i % 28:02d}T0{i % 10}:00:00Z",
            "size_gb": round(i * 0.37, 2),
            "site": ("Zürich", "Genève", "Lugano")[i % 3],
            "note": 'a "quoted" word and a tab\there',
        }
        for i in range(rows)
    ]
    if not facts:
        return absent(what="backup runs", checked=["every backup job in the export"])
    return described_result(
        facts=facts,
        provenance={"measuredAt": exported_at, "source": "backup export"},
        coverage={
            "checked": ["every backup job in the export"],
            "cannotCover": [{"what": "PPDM", "why": "not collected on this install"}],
        },
        render={"default": "table", "columns": ["entity", "backed_up"]},
    )


def build(envelope: dict[str, Any]) -> MCPServer:
    server = MCPServer("bench")

    def plain():
        return envelope

    def result() -> dict[str, Any]:
        return envelope

    server.tool(name="plain")(plain)
    server.tool(name="served")(served(result))
    server.tool(name="served_meta")(served(record_in_meta=True)(result))
    return server


def as_result(value: Any) -> Any:
    """The ``CallToolResult`` the server writes for a call. ``call_tool`` gives it in 2.x;
    1.x's ``FastMCP`` gives a plain tool's content (and structured content), which its
    low-level server then wraps as here."""
    if hasattr(value, "model_dump_json"):
        return value
    from mcp.types import CallToolResult

    content, structured = value if isinstance(value, tuple) else (value, None)
    return CallToolResult(content=list(content), structuredContent=structured)


async def sample(server: MCPServer, name: str) -> tuple[float, int, int]:
    """Seconds, wire bytes, and bytes of the text the model reads, for one call."""
    start = time.perf_counter()
    result = as_result(await server.call_tool(name, {}))
    wire = result.model_dump_json(by_alias=True, exclude_none=True)
    seconds = time.perf_counter() - start
    text = "".join(item.text for item in result.content)
    return seconds, len(wire.encode()), len(text.encode())


async def measure(rows: int, runs: int) -> dict[str, dict[str, float]]:
    server = build(big_result(rows, EXPORTED_AT))
    for name in TOOLS:  # warm up: imports, pydantic's validators
        await sample(server, name)
    samples: dict[str, list[tuple[float, int, int]]] = {name: [] for name in TOOLS}
    for _ in range(runs):
        for name in TOOLS:
            samples[name].append(await sample(server, name))
    figures = {}
    for name in TOOLS:
        seconds, wire, text = zip(*samples[name], strict=True)
        figures[name] = {
            "median_s": statistics.median(seconds),
            "wire_bytes": statistics.median(wire),
            "text_bytes": statistics.median(text),
        }
    base = figures["plain"]["median_s"]
    for figure in figures.values():
        figure["time_ratio"] = figure["median_s"] / base
        figure["wire_per_text"] = figure["wire_bytes"] / figure["text_bytes"]
    return figures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20000, help="facts in the result")
    parser.add_argument("--runs", type=int, default=9, help="samples a tool")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = asyncio.run(measure(args.rows, args.runs))
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{args.rows} facts, {args.runs} runs a tool, load average {os.getloadavg()[0]:.2f}")
    print(f"{'tool':<12} {'median ms':>10} {'x plain':>8} {'wire MB':>8} {'text MB':>8} {'wire/text':>9}")
    for name, f in figures.items():
        print(
            f"{name:<12} {f['median_s'] * 1000:>10.1f} {f['time_ratio']:>8.2f} "
            f"{f['wire_bytes'] / 1e6:>8.2f} {f['text_bytes'] / 1e6:>8.2f} {f['wire_per_text']:>9.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
