"""What a served result costs in a run without claims, beside a baseline checkout, and
what declaring claims adds.

    .venv/bin/python bench/claims_cost.py [--rounds 9] [--calls 2000] [--baseline SRC]

Each sample is a fresh process that serves one described result ``--calls`` times in
one ``run_record()`` and prints the CPU time of one call (the best third of 15 repeats,
medianed: what a busy machine disturbs least), for:

* ``serve``: ``record.serve`` (what every adapter does with a tool's value);
* ``pydantic_ai``, ``mcp``: a call of the function the adapter registers (the
  framework's own machinery left out), with no framework context;
* ``serve+claims``: ``serve`` inside a tool call's ids, in a run declared with claims
  (what a run that checks its answer pays per result; not in the baseline).

``--baseline SRC`` (the ``src`` folder of another checkout) runs every sample a second
time with that code first on ``PYTHONPATH``, in the same rounds, and prints the ratios
(this code / baseline). Medians of ``--rounds`` samples.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

_SAMPLE = r"""
import json, statistics, sys, time, timeit
from semantics_lint.runtime import described_result, run_record
from semantics_lint.runtime.record import serve
from semantics_lint.frameworks.pydantic_ai import served as pydantic_served
from semantics_lint.frameworks.mcp import served as mcp_served

calls = int(sys.argv[1])
envelope = described_result(
    facts=[{"entity": "vm1", "backed_up": True, "jobs_local": 331}],
    provenance={"measuredAt": "2026-03-01T06:00:00Z", "source": "backup catalog"},
)
def fleet() -> dict:
    "Backup jobs."
    return envelope

def per_call(function, **run):
    with run_record(**run) as record:
        times = timeit.repeat(function, number=calls, repeat=15, timer=time.process_time)
        if run:
            record.check_claims({})
    return statistics.median(sorted(times)[:5]) / calls * 1e6

found = {
    "serve": per_call(lambda: serve("fleet", envelope)),
    "pydantic_ai": per_call(pydantic_served(fleet)),
    "mcp": per_call(mcp_served(fleet)),
}
try:
    from semantics_lint.runtime.claims import tool_call
except ImportError:
    pass
else:
    def answered():
        with tool_call("call_abc", 1):
            serve("fleet", envelope)
    contract = {"jobs": {"entity": "vm1", "field": "jobs_local"}}
    found["serve+claims"] = per_call(answered, claims=contract)
print(json.dumps(found))
"""


def _sample(calls: int, source: str | None) -> dict[str, float]:
    environment = dict(os.environ)
    if source is not None:
        environment["PYTHONPATH"] = source + os.pathsep + environment.get("PYTHONPATH", "")
    done = subprocess.run(
        [sys.executable, "-c", _SAMPLE, str(calls)],
        capture_output=True,
        text=True,
        check=True,
        env=environment,
    )
    found: dict[str, float] = json.loads(done.stdout)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--baseline", help="the src folder of another checkout")
    options = parser.parse_args()
    ours: list[dict[str, float]] = []
    theirs: list[dict[str, float]] = []
    for _ in range(options.rounds):
        ours.append(_sample(options.calls, None))
        if options.baseline:
            theirs.append(_sample(options.calls, options.baseline))
    print("| per served result (CPU µs, median) | this code | baseline | ratio |")
    print("|---|---|---|---|")
    for name in ours[0]:
        mine = statistics.median(s[name] for s in ours)
        row = f"| {name} | {mine:.2f} |"
        if theirs and name in theirs[0]:
            base = statistics.median(s[name] for s in theirs)
            ratios = statistics.median(a[name] / b[name] for a, b in zip(ours, theirs, strict=True))
            row += f" {base:.2f} | {ratios:.3f} |"
        else:
            row += " | |"
        print(row)


if __name__ == "__main__":
    main()
