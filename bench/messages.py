"""How long the findings' messages (and helps) are on a corpus: what a run's reader reads.

A finding says what is wrong in its message, one line naming the field, and why and
what to write instead in its help (``full`` shows it; the one-line formats do not).
This prints the mean and median length, in characters, of the messages and of the
helps of ``semantics-lint check --output-format json`` over a corpus, overall and per
code (the corpus is generated on first use, as ``run.py`` does).

Run::

    .venv/bin/python bench/messages.py [--corpus synthetic|names]

With ``PYTHONPATH=<a checkout>/src`` first on the path it measures that checkout's
linter (``equivalence.py`` runs main's the same way).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import make_corpus  # noqa: E402 - the benchmark's own helpers, beside this file
import make_shapes  # noqa: E402

CORPUS = BENCH / "corpus"


def _lengths(values: list[int]) -> str:
    if not values:
        return "-"
    return f"mean {statistics.mean(values):.0f}, median {statistics.median(values):.0f}, max {max(values)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default="synthetic", choices=("synthetic", "names"))
    args = parser.parse_args(argv)
    folder = CORPUS / args.corpus
    if args.corpus == "synthetic":
        make_corpus.ensure_synthetic(folder)
    else:
        make_shapes.ensure_names(folder)
    done = subprocess.run(
        [sys.executable, "-m", "semantics_lint", "check", "--no-cache", "--exit-zero",
         "--no-respect-gitignore", "--output-format", "json", str(folder)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return 2
    findings = json.loads(done.stdout)
    by_code: dict[str, list[dict[str, object]]] = defaultdict(list)
    for finding in findings:
        by_code[str(finding["code"])].append(finding)
    print(f"{args.corpus}: {len(findings)} findings")
    print(f"  message: {_lengths([len(str(f['message'])) for f in findings])}")
    print(f"  help:    {_lengths([len(str(f['help'])) for f in findings if f.get('help')])}")
    print("| code | findings | message mean | help mean |")
    print("|---|---:|---:|---:|")
    for code in sorted(by_code):
        rows = by_code[code]
        helps = [len(str(f["help"])) for f in rows if f.get("help")]
        print(
            f"| {code} | {len(rows)} | {statistics.mean(len(str(f['message'])) for f in rows):.0f} "
            f"| {statistics.mean(helps) if helps else 0:.0f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
