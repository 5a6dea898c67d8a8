"""Peak memory, CPU time and report size of the check-semantics gate on a huge catalog.

``python bench/catalog_size.py [--results N] [--runs R] [--work-dir DIR]`` writes a
catalog of N short results (default 1,000,000) for one triage tool that declares no
coverage, so every sample is a finding (the report's worst case), and measures three
ways of judging it, each in a fresh process (``bench/timed.py``: ``getrusage`` of the
process tree):

* ``gate``: ``semantics-lint check-semantics CATALOG``, as CI runs it: samples
  streamed, repeated findings bounded and counted;
* ``gate-all``: the same with ``--all-findings`` (every finding printed);
* ``whole``: what the command did before streaming: parse the catalog whole,
  ``check_semantics`` keeping every finding, and print the whole report.

It prints one line per way (medians over the runs) and a JSON document with every
sample on its last line. The three must agree on the exit code and the error count.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
SAMPLE = {
    "af_semantics": True,
    "facts": [{"entity": "vm-01", "ok": True}],
    "provenance": {"measured_at": "2026-08-19T10:20:00Z", "source": "export"},
}
WHOLE = """
import sys
from semantics_lint.runtime.gate.check import (
    check_semantics, format_semantics_report, load_semantics_catalog,
)
with open(sys.argv[1], encoding="utf-8") as handle:
    report = check_semantics(load_semantics_catalog(handle.read()))
sys.stdout.write(format_semantics_report(report) + "\\n")
sys.exit(0 if report["ok"] else 1)
"""


def write_catalog(path: Path, results: int) -> None:
    sample = json.dumps(SAMPLE)
    with path.open("w", encoding="utf-8") as out:
        out.write('[{"name": "vm_backup_status", "resultClass": "triage", "results": [\n')
        written = 0
        while written < results:
            batch = min(10_000, results - written)
            out.write(",\n".join([sample] * batch))
            written += batch
            out.write(",\n" if written < results else "\n")
        out.write("]}]\n")


def measure(command: list[str], out: Path) -> dict[str, float]:
    timed = subprocess.run(
        [sys.executable, str(BENCH / "timed.py"), str(out), "--", *command],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    sample = json.loads(timed.stdout)
    text = out.read_text(encoding="utf-8", errors="replace")
    last = text.rstrip("\n").rsplit("\n", 1)[-1]
    return {
        "cpu_s": sample["cpu"],
        "wall_s": sample["wall"],
        "peak_rss_mb": sample["maxrss_kb"] / 1024,
        "report_mb": out.stat().st_size / 2**20,
        "returncode": sample["returncode"],
        "verdict": last,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--work-dir", type=Path, default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.work_dir) as scratch:
        work = Path(scratch)
        catalog = work / "semantics-catalog.json"
        write_catalog(catalog, args.results)
        gate = [sys.executable, "-m", "semantics_lint", "check-semantics", str(catalog)]
        ways = {
            "gate": gate,
            "gate-all": [*gate, "--all-findings"],
            "whole": [sys.executable, "-c", WHOLE, str(catalog)],
        }
        samples: dict[str, list[dict[str, float]]] = {way: [] for way in ways}
        for _ in range(args.runs):
            for way, command in ways.items():
                samples[way].append(measure(command, work / f"{way}.out"))
        size_mb = catalog.stat().st_size / 2**20
    print(f"catalog: {args.results} results, {size_mb:.1f} MB; medians of {args.runs} run(s)")
    for way, runs in samples.items():
        median = {
            key: statistics.median(run[key] for run in runs) for key in ("cpu_s", "peak_rss_mb", "report_mb")
        }
        print(
            f"  {way:9s} peak RSS {median['peak_rss_mb']:8.1f} MB   CPU {median['cpu_s']:6.1f} s   "
            f"report {median['report_mb']:8.2f} MB   "
            f"exit {runs[0]['returncode']}   {runs[0]['verdict']}"
        )
    verdicts = {(runs[0]["returncode"], runs[0]["verdict"]) for runs in samples.values()}
    agree = len(verdicts) == 1
    print("  verdicts agree" if agree else f"  VERDICTS DIFFER: {sorted(verdicts)}")
    print(json.dumps({"results": args.results, "catalog_mb": size_mb, "samples": samples}))
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
