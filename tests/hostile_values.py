"""Values a careless tool returns, served through every adapter by the hostile-value tests.

``hostile(which)`` returns ``VALUES[which]``, or raises for ``"refusal"`` (a mint's
refusal) and ``"crash"`` (a ``KeyError``, no refusal). Run as a script, this module is
an MCP server over stdio serving ``hostile`` (its record in ``_meta``) and ``plain``
through the adapter.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pydantic

from semantics_lint.runtime import described_result


class Posture(pydantic.BaseModel):
    """A pydantic model, which is not JSON data: the framework writes it its own way."""

    vm: str = "vm-01"
    backed_up: bool = True


@dataclasses.dataclass
class Run:
    """A dataclass, which is not JSON data either."""

    vm: str = "vm-01"
    minutes: int = 12


VALUES: dict[str, Any] = {
    "surrogate": {"note": "cut from UTF-16: \ud800 here", "ok": "Zürich"},
    "surrogate_key": {"k\udc80ey": 1, "pair": "\ud83d\ude00"},
    # File names read with os.fsdecode: two names that differ only in a byte UTF-8
    # cannot decode are two keys apart only by their lone surrogates.
    "surrogate_keys": dict([("r\udcffport.txt", 1), ("r\udcfeport.txt", 2)]),
    "nan": {"ratio": float("nan"), "top": float("inf"), "floor": float("-inf")},
    "big_int": {"id": 10**400},
    "model": Posture(),
    "dataclass": Run(),
    "text": "3 backups, all green",
    "surrogate_text": "a \udcff b",
    "envelope": None,  # a described result, made at call time
}

JSON_DATA = ("surrogate", "surrogate_key", "surrogate_keys", "nan", "envelope")
"""The values the seam writes itself (JSON data)."""
NOT_JSON = ("big_int", "model", "dataclass")
"""The values the seam leaves to the framework: it writes them as for any tool."""
TEXTS = ("text", "surrogate_text")
RAISING = ("refusal", "crash")


def hostile(which: str) -> Any:
    """A careless tool: returns what it is asked for."""
    if which == "refusal":
        return described_result(facts=[])
    if which == "crash":
        raise KeyError(which)
    if which == "envelope":
        return described_result(
            facts=[{"entity": "vm-\ud800", "note": "a\udc00"}],
            provenance={"measuredAt": "2024-05-01T00:00:00Z", "source": "export"},
        )
    return VALUES[which]


def plain(n: int) -> dict[str, int]:
    """A well-behaved tool, called after the others to show the server is still up."""
    return {"n": n, "twice": 2 * n}


def build_server() -> Any:
    try:
        from mcp.server.mcpserver import MCPServer as Server
    except ImportError:  # pragma: no cover - SDK 1.x
        from mcp.server.fastmcp import FastMCP as Server

    from semantics_lint.frameworks.mcp import served

    server = Server("hostile")
    server.tool()(served(hostile, record_in_meta=True))
    server.tool()(served(plain))
    return server


if __name__ == "__main__":
    build_server().run("stdio")
