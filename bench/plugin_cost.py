"""What the flake8 plugin costs flake8: loading it, and each file, beside a baseline checkout.

    .venv/bin/python bench/plugin_cost.py [--corpus synthetic|stdlib] [--every 1] [--runs 7]
                                          [--baseline SRC]

Each sample is a fresh process that first makes what flake8 hands a plugin for every
file of the corpus (its lines as flake8 reads them, its ``ast`` tree; not timed, and
moved out of the collector's way: flake8 holds one file's tree at a time), then
times, in CPU seconds of that process:

* ``load``: importing ``semantics_lint.flake8_plugin`` and ``parse_options`` (what
  flake8 does once per process);
* ``first pass``: the plugin's ``run()`` on every file, the first file importing what
  linting needs;
* ``second pass``: the same files again (the steady cost of a file), and that divided
  by the number of files.

``--baseline SRC`` (the ``src`` folder of another checkout) runs every sample a second
time with that code first on ``PYTHONPATH``, in the same rounds, and prints the ratios.
Medians of ``--runs`` samples. ``--instructions`` counts instead the instructions of
each stage under ``valgrind --tool=callgrind`` (one process per stage and variant):
figures that do not move with the machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import make_corpus  # noqa: E402 - the benchmark's own helper, beside this file

_SAMPLE = r"""
import ast, io, json, sys, time, tokenize
from pathlib import Path

stop = int(sys.argv[1]) if len(sys.argv) > 1 else 3  # the stages to run (--instructions)
files = [Path(line) for line in sys.stdin.read().splitlines()]
inputs = []
for path in files:
    try:
        with tokenize.open(path) as handle:  # as flake8 reads a file (its BOM dropped)
            lines = io.StringIO(handle.read().removeprefix("\ufeff")).readlines()
    except (SyntaxError, UnicodeError):
        continue  # flake8 would read it as Latin-1; not a file of these corpora
    try:
        tree = ast.parse("".join(lines))
    except (SyntaxError, ValueError):
        continue  # flake8 reports E999 and runs no plugin
    inputs.append((tree, lines, str(path)))

# Kept out of the collector's way: flake8 holds one file's tree at a time, not all of
# them, and collections walking every prepared tree would be most of what is timed.
import gc
gc.collect()
gc.freeze()
clock = time.process_time
if stop == 0:
    sys.exit()
start = clock()
from semantics_lint.flake8_plugin import SemanticsLintPlugin

class Options:
    sem_api_modules = None
    sem_call_names = None

SemanticsLintPlugin.parse_options(Options())
loaded = clock()
if stop == 1:
    sys.exit()
found = 0
for tree, lines, name in inputs:
    found += len(list(SemanticsLintPlugin(tree, lines, name).run()))
first = clock()
if stop == 2:
    sys.exit()
for tree, lines, name in inputs:
    list(SemanticsLintPlugin(tree, lines, name).run())
second = clock()
print(json.dumps({"load": loaded - start, "first": first - loaded, "second": second - first,
                  "files": len(inputs), "findings": found}))
"""


def _sample(files: list[Path], env: dict[str, str]) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", _SAMPLE],
        input="\n".join(map(str, files)),
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"a sample failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def _instructions(files: list[Path], env: dict[str, str], stop: int) -> int:
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            _SAMPLE,
            str(stop),
        ],
        # One hash seed: with random ones, the count of a stage moves with the dicts' layout.
        input="\n".join(map(str, files)),
        capture_output=True,
        text=True,
        env={**env, "PYTHONHASHSEED": "0"},
        check=False,
    )
    found = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def _instructions_table(files: list[Path], variants: dict[str, dict[str, str]]) -> None:
    print(f"{len(files)} files, instructions (millions) of each stage, one process each")
    print("| variant | load | first pass | second pass |")
    print("|---|---:|---:|---:|")
    stages: dict[str, list[int]] = {}
    for name, env in variants.items():
        counts = [_instructions(files, env, stop) for stop in range(4)]
        stages[name] = [after - before for before, after in zip(counts, counts[1:], strict=False)]
        print(f"| {name} | " + " | ".join(f"{count / 1e6:.1f}" for count in stages[name]) + " |")
    if "baseline" in stages:
        print(
            "ratios (this checkout / baseline): "
            + ", ".join(
                f"{stage} {now / then:.3f}x"
                for stage, now, then in zip(
                    ("load", "first", "second"),
                    stages["this checkout"],
                    stages["baseline"],
                    strict=True,
                )
            )
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", choices=("synthetic", "stdlib"), default="synthetic")
    parser.add_argument("--every", type=int, default=1, help="every n-th file (default 1)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--baseline", type=Path, help="the src folder of another checkout")
    parser.add_argument("--instructions", action="store_true", help="count instructions (callgrind)")
    args = parser.parse_args(argv)
    root = BENCH / "corpus" / args.corpus
    if args.corpus == "synthetic":
        make_corpus.ensure_synthetic(root)
    else:
        make_corpus.ensure_stdlib(root)
    files = sorted(root.rglob("*.py"))[:: args.every]
    import semantics_lint

    trees = [
        Path(semantics_lint.__file__).resolve().parent,
        *([args.baseline] if args.baseline else []),
    ]
    for tree in trees:  # bytecode written first, as an installed package has it
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(tree)],
            check=False,
            stdout=subprocess.DEVNULL,
        )
    variants = {"this checkout": {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}}
    if args.baseline is not None:
        variants["baseline"] = {
            **variants["this checkout"],
            "PYTHONPATH": str(args.baseline.resolve()),
        }
    if args.instructions:
        _instructions_table(files, variants)
        return 0
    samples: dict[str, list[dict[str, float]]] = {name: [] for name in variants}
    for _ in range(args.runs):
        for name, env in variants.items():
            samples[name].append(_sample(files, env))
    print(
        f"{args.corpus}: {samples['this checkout'][0]['files']} files, median of {args.runs} "
        f"processes each (CPU), 1-minute load average {os.getloadavg()[0]:.2f}"
    )
    print("| variant | load ms | first pass ms | second pass ms | per file (second pass) us | findings |")
    print("|---|---:|---:|---:|---:|---:|")
    medians: dict[str, dict[str, float]] = {}
    for name, rows in samples.items():
        median = {key: statistics.median(row[key] for row in rows) for key in ("load", "first", "second")}
        medians[name] = median
        count = rows[0]["files"]
        print(
            f"| {name} | {median['load'] * 1e3:.1f} | {median['first'] * 1e3:.1f} | "
            f"{median['second'] * 1e3:.1f} | {median['second'] / count * 1e6:.1f} | {int(rows[0]['findings'])} |"
        )
    if "baseline" in medians:
        now, then = medians["this checkout"], medians["baseline"]
        print(
            "ratios (this checkout / baseline): "
            + ", ".join(f"{key} {now[key] / then[key]:.2f}x" for key in ("load", "first", "second"))
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
