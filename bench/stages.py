"""Where one lint of a corpus spends its CPU time, stage by stage and rule by rule.

    .venv/bin/python bench/stages.py [--corpus synthetic|stdlib] [--runs 5]

Each run is a fresh process that reads every file of the corpus, parses each with
``ast.parse`` (the floor) and then lints each with ``engine.lint_source``, timing both
with the process's CPU clock. For the breakdown, the benchmark wraps the engine's
functions in its own process with clocks (the engine has no clock of its own): seconds
per rule code (its hooks), for indexing the file and locating the calls (``locate``,
``engine.file_context``), for reading the declarations (``build_declaration``) and for
reading the parts given as a name (``Declaration.named_parts``); the rest of the lint
(decoding, the batch, the findings, the collector) is shown as the remainder. Figures are medians over the runs,
and the headline is the median of each run's own ratio lint / ``ast.parse``, which a
busy machine disturbs far less than either figure alone. The breakdown comes from a
second lint of the corpus in the same process with those clocks on (they cost about a
tenth of the lint themselves, and caches are warm by then): read it as shares.
Not the benchmark (that is ``run.py``: whole processes, wall time, the CLI): a guide to
where to look.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent

_ONE_RUN = r"""
import ast, gc, json, sys, time
from pathlib import Path
from semantics_lint.lint import engine


root = Path(sys.argv[1])
files = sorted(p for p in root.rglob("*.py") if p.is_file())
sources = [(str(p), p.read_bytes()) for p in files]
settings = engine.LintSettings()
clock = time.process_time
started = clock()
for name, data in sources:
    try:
        ast.parse(data, filename=name)
    except (SyntaxError, ValueError):
        pass
floor = clock() - started
def lint_all():
    findings = 0
    gc.collect()
    started = clock()
    for name, data in sources:
        findings += len(engine.lint_source(data, name, settings))
        engine.settle_imports()  # as the runner does between files
    return clock() - started, findings

timings = {}

def clocked(key, function):
    def wrapper(*args, **kwargs):
        started = clock()
        try:
            return function(*args, **kwargs)
        finally:
            timings[key] = timings.get(key, 0.0) + clock() - started
    return wrapper

def clocks_on():
    # The breakdown's clocks, put around the engine's functions in this process.
    from semantics_lint.lint.calls import declaration
    from semantics_lint.lint.rules import ALL_RULES

    engine.file_context = clocked("locate", engine.file_context)
    declaration.build_declaration = clocked("declarations", declaration.build_declaration)
    declaration.Declaration.named_parts = clocked("named parts", declaration.Declaration.named_parts)
    for rule in ALL_RULES:
        for hook in ("visit_declaration", "visit_part", "visit_field", "visit_row", "visit_module"):
            setattr(rule, hook, clocked(rule.code, getattr(rule, hook)))

# The headline without the clock calls per rule (they cost a tenth of the lint), then
# a second pass for the breakdown.
lint, findings = lint_all()
clocks_on()
timed, _ = lint_all()
print(json.dumps({"ast": floor, "lint": lint, "timed": timed, "findings": findings, "timings": timings}))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default="synthetic", choices=("synthetic", "names", "big", "stdlib"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--work-dir", type=Path, default=BENCH / "corpus")
    options = parser.parse_args(argv)
    root = options.work_dir / options.corpus
    if not root.is_dir():
        print(
            f"no corpus at {root}: run bench/run.py (or bench/make_corpus.py) first",
            file=sys.stderr,
        )
        return 2
    samples = []
    for _ in range(options.runs):
        completed = subprocess.run(
            [sys.executable, "-c", _ONE_RUN, str(root)], capture_output=True, text=True, check=False
        )
        if completed.returncode != 0:
            print(completed.stderr, file=sys.stderr)
            return 1
        samples.append(json.loads(completed.stdout))
    findings = {sample["findings"] for sample in samples}
    ratio = statistics.median(sample["lint"] / sample["ast"] for sample in samples)
    floor = statistics.median(sample["ast"] for sample in samples)
    lint = statistics.median(sample["lint"] for sample in samples)
    print(f"{options.corpus}: {len(samples)} runs, findings {sorted(findings)}")
    print(
        f"  ast.parse {floor:7.3f} s CPU   lint {lint:7.3f} s CPU   lint / ast.parse {ratio:.2f}x (median of ratios)"
    )
    keys = sorted({key for sample in samples for key in sample["timings"]})
    rows = {key: statistics.median(sample["timings"].get(key, 0.0) for sample in samples) for key in keys}
    rest = statistics.median(
        sample["timed"] - sample["ast"] - sum(sample["timings"].values()) for sample in samples
    )
    for key, seconds in sorted(rows.items(), key=lambda item: -item[1]):
        if seconds >= 0.005:
            print(f"  {key:12} {seconds:7.3f} s")
    print(
        f"  {'rest':12} {rest:7.3f} s  (the timed lint - ast.parse - the above: decoding, context, batch, findings, collector)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
