"""What serving one result costs, in instructions, beside a baseline checkout.

Each row is a shape of result a tool returns; each is served through the adapters'
seam (``frameworks._common.call_prepared``, which makes the tool message and records
it in an open run) and through ``tool_message`` alone. A row's count is the
instructions of one fresh process serving ``--calls`` results, less those of the same
process serving none, divided by ``--calls`` (``valgrind --tool=callgrind``, one hash
seed): the machine's load does not move it. With ``--baseline SRC`` (another
checkout's ``src``), each row is counted on both and the ratio printed beside it::

    .venv/bin/python bench/serving_instructions.py [--calls 200] [--baseline SRC]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

_SRC = Path(__file__).resolve().parent.parent / "src"
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")

SHAPES = ("small", "facts100", "tiny_floats100", "series1000", "every_part", "plain_dict")
WAYS = ("seam", "tool_message")

_CHILD = r"""
import sys
shape, way, calls = sys.argv[1], sys.argv[2], int(sys.argv[3])
from semantics_lint.runtime import described_result
from semantics_lint.runtime.serving import tool_message
from semantics_lint.runtime.record import run_record
from semantics_lint.frameworks._common import call_prepared, prepare

PROVENANCE = {"measuredAt": "2026-01-04T00:00:00Z", "source": "backup export"}
COVERAGE = {"checked": ["every backup job"], "cannotCover": [{"what": "PPDM", "why": "not collected"}]}
GRAIN = {"interval": "daily", "aggregation": "count", "isCounter": False}

def build():
    if shape == "small":
        return described_result(
            series=[{"t": f"2026-01-0{d}", "entity": "vm1", "metric": "backupRunsOk", "value": d} for d in range(1, 4)],
            grain=GRAIN, provenance=PROVENANCE, coverage=COVERAGE)
    if shape == "facts100":
        return described_result(
            facts=[{"entity": f"vm{i}", "lastBackup": "2026-01-03", "sizeGb": i * 3} for i in range(100)],
            provenance=PROVENANCE)
    if shape == "tiny_floats100":
        return described_result(
            facts=[{"entity": f"vm{i}", "ratio": 1e-9 * (i + 1)} for i in range(100)], provenance=PROVENANCE)
    if shape == "series1000":
        return described_result(
            series=[{"t": 1700000000 + i, "entity": "vm1", "metric": "ok", "value": i % 7} for i in range(1000)],
            grain=GRAIN, provenance=PROVENANCE)
    if shape == "every_part":
        return described_result(
            series=[{"t": "2026-01-01", "entity": "vm1", "metric": "ok", "value": 1}],
            facts=[{"entity": "vm1", "state": "ok"}],
            edges=[{"from": "vm1", "to": "host1", "kind": "runsOn"}],
            grain=GRAIN, provenance={**PROVENANCE, "ageSeconds": 60, "sourceExportDate": "2026-01-04"},
            coverage={"checked": ["a"], "notChecked": [{"what": "b"}], "cannotCover": [{"what": "c", "why": "d"}]},
            clarify={"question": "which vm?", "candidates": ["vm1", "vm2"]},
            render={"default": "table", "columns": ["entity", "state"], "sort": "entity"})
    return {"vm": "vm1", "jobs": [{"name": f"job{i}", "ok": True} for i in range(20)]}

value = build()
if way == "seam":
    prepared = prepare(lambda: value, name="backup")
    with run_record():
        for _ in range(calls):
            call_prepared(prepared)
else:
    for _ in range(calls):
        tool_message(value)
"""


def instructions(src: Path, shape: str, way: str, calls: int) -> int:
    """Instructions of one fresh process importing from ``src`` and serving ``calls`` results."""
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    completed = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", _CHILD]
        + [shape, way, str(calls)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    found = _COLLECTED.search(completed.stderr)
    if completed.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed ({shape}, {way}):\n{completed.stderr[-2000:]}")
    return int(found.group(1))


def per_result(src: Path, shape: str, way: str, calls: int) -> float:
    """Instructions per served result: ``calls`` results less none, divided by ``calls``."""
    return (instructions(src, shape, way, calls) - instructions(src, shape, way, 0)) / calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--baseline", type=Path, help="another checkout's src folder")
    parser.add_argument("--only", default="", help="comma-separated shapes")
    options = parser.parse_args(argv)
    shapes = [s for s in options.only.split(",") if s] or list(SHAPES)
    print("| shape | way | this checkout | baseline | ratio |")
    print("|---|---|---:|---:|---:|")
    for shape in shapes:
        for way in WAYS:
            ours = per_result(_SRC, shape, way, options.calls)
            if options.baseline is None:
                print(f"| {shape} | {way} | {ours:,.0f} | | |", flush=True)
                continue
            theirs = per_result(options.baseline, shape, way, options.calls)
            print(f"| {shape} | {way} | {ours:,.0f} | {theirs:,.0f} | {ours / theirs:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
