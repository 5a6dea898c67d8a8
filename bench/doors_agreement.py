"""How often the two doors agree on literal declarations, and where they do not.

Generates N literal declarations with a seed (valid ones, and mutations of them: see
``tests/doors/gen.py``), writes each as a tool module, lints it with the engine in this
process, and calls the mint on the literal values of its arguments
(``ast.literal_eval``; the module is never run). The doors agree on an example when
the linter reports an E finding (SEM203 left out: by design, the mint never parses
``measuredAt``) exactly when the mint refuses it with ``refused:``.

Prints the agreement rate (also with SEM203 counted), the crashes of either door,
and a table of the disagreement classes: which door is wrong, what it said (the
refusal's kind and path, or the linter's codes), the code that should say it (the
table of docs/agreement.md; SEM100 where no specific code fits) and a minimal example of each.
``--cli-sample K`` also lints K of the modules through the ``semantics-lint check``
command and checks that it reports what the engine reported in process.

    .venv/bin/python bench/doors_agreement.py [--examples 3000] [--seed 1] [--seed 2 ...]
        [--cli-sample 200] [--markdown] [--summary]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from doors.gen import sample  # noqa: E402
from doors.verdict import Judged, coarse, judge_all, shrink  # noqa: E402


def cli_codes(judged: list[Judged], count: int) -> tuple[int, int]:
    """Lint ``count`` of the modules with the command; (files checked, files that differ)."""
    chosen = judged[:count]
    with tempfile.TemporaryDirectory(prefix="doors-") as folder:
        paths = []
        for i, example in enumerate(chosen):
            path = Path(folder) / f"tool_{i:05d}.py"
            path.write_text(example.module, encoding="utf-8")
            paths.append(path)
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "semantics_lint",
                "check",
                "--no-cache",
                "--output-format",
                "json",
                "--exit-zero",
                folder,
            ],
            capture_output=True,
            text=True,
            check=False,
            timeout=900,
        )
        if result.returncode != 0:
            raise SystemExit(f"semantics-lint check exited {result.returncode}: {result.stderr}")
        by_file: dict[str, list[str]] = defaultdict(list)
        for finding in json.loads(result.stdout):
            by_file[Path(finding["filename"]).name].append(finding["code"])
    differ = 0
    for path, example in zip(paths, chosen, strict=True):
        expected = sorted(f.code for f in example.findings)
        if sorted(by_file.get(path.name, [])) != expected:
            differ += 1
    return len(chosen), differ


Classes = dict[tuple[str, str, str], list[Judged]]


def print_table(classes: Classes, markdown: bool) -> None:
    """One row per class: how many, which door, what it said, the code, a shrunk example."""
    rows = sorted(classes.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    if markdown:
        print("\n| n | door | what it said | code | minimal example |\n|---|---|---|---|---|")
    for (door, said, code), members in rows:
        smallest = shrink(min(members, key=lambda j: (len(j.call.render()), j.call.render())))
        example = " ".join(smallest.call.render().split())
        if len(example) > 160:
            example = example[:157] + "..."
        if markdown:
            print(f"| {len(members)} | {door} | {said} | {code} | `{example}` |")
        else:
            print(f"  {len(members):5d}  {door:32s} {said:60s} {code:8s} {example}")


def report(
    seed: int, count: int, cli_sample: int, markdown: bool, merged: Classes, summary_only: bool
) -> dict[str, object]:
    started = time.process_time()
    examples = sample(count, seed)
    judged, skipped = judge_all(examples)
    seconds = time.process_time() - started
    total = len(judged)
    agree = sum(j.agree for j in judged)
    agree_raw = sum(j.agree_raw for j in judged)
    refused = sum(j.runtime_refuses for j in judged)
    classes: Classes = defaultdict(list)
    for j in judged:
        found = j.disagreement()
        if found is not None:
            classes[found].append(j)
    print(
        f"\nseed {seed}: {total} literal declarations ({skipped} drawn that were not literal "
        f"left out), {refused} refused by the mint; {seconds:.0f} s CPU"
    )
    print(
        f"  agreement: {agree / total:.2%} ({total - agree} disagree); "
        f"with SEM203 counted as an error: {agree_raw / total:.2%}"
    )
    crashes = {k: v for k, v in classes.items() if k[0].endswith("crash")}
    print(f"  crashes: {sum(len(v) for v in crashes.values())}")
    if cli_sample:
        checked, differ = cli_codes(judged, cli_sample)
        print(f"  through the command: {checked} modules, {differ} with findings unlike in process")
    for found, members in classes.items():
        merged[coarse(found)].extend(members)
    if not summary_only:
        print_table(classes, markdown)
    return {"seed": seed, "examples": total, "agree": agree, "agree_raw": agree_raw}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=3000)
    parser.add_argument("--seed", type=int, action="append")
    parser.add_argument("--cli-sample", type=int, default=0)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument(
        "--summary",
        action="store_true",
        help="print only the classes of all seeds together, folded (coverage.<list>[i].why)",
    )
    options = parser.parse_args()
    merged: Classes = defaultdict(list)
    results = [
        report(seed, options.examples, options.cli_sample, options.markdown, merged, options.summary)
        for seed in options.seed or [1]
    ]
    if options.summary:
        print(f"\nevery seed, classes folded ({sum(len(m) for m in merged.values())} disagreements):")
        print_table(merged, options.markdown)
    if len(results) > 1:
        rates = ", ".join(f"{r['agree'] / r['examples']:.2%}" for r in results)  # type: ignore[operator]
        print(f"\nagreement per seed: {rates}")


if __name__ == "__main__":
    main()
