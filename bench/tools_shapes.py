"""Whole-process cost of linting tool collections, beside ``ast.parse`` and ruff.

    .venv/bin/python bench/tools_shapes.py [--runs 5] [--seed N]

Lints each shape of ``make_tools.py`` (one tool a module, 1,000 and 4,000 tools in one
module, a 5 MB module) with ``semantics-lint check --no-cache --jobs 1``, parses it with
``bench/parse_all.py ast`` and checks it with ruff as ``bench/run.py`` does (``--select
F401``). Each sample is a fresh process tree timed by ``bench/timed.py``; samples are
interleaved, one round at a time; every figure is a median (wall, CPU, peak RSS of the
largest process). Prints a table and the ratios of the targets: 4,000 tools <= 3x their
``ast.parse``, <= 4.5x 1,000 tools, the 5 MB module under 500 MB.
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
sys.path.insert(0, str(BENCH))

import make_tools  # noqa: E402  (bench/ on sys.path, above)
from make_corpus import DEFAULT_SEED  # noqa: E402

PYTHON = Path(sys.executable)
TOOLS = {
    "ast": lambda target: (str(PYTHON), str(BENCH / "parse_all.py"), "ast", target),
    "semantics-lint": lambda target: (
        str(PYTHON.parent / "semantics-lint"),
        "check",
        "--no-cache",
        "--no-respect-gitignore",
        "--jobs",
        "1",
        target,
    ),
    "ruff": lambda target: (
        str(PYTHON.parent / "ruff"),
        "check",
        "--no-cache",
        "--select",
        "F401",
        "--output-format",
        "concise",
        target,
    ),
}


def sample(command: tuple[str, ...], cwd: Path) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        out = subprocess.run(
            [str(PYTHON), str(BENCH / "timed.py"), str(Path(folder) / "out"), "--", *command],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=True,
        )
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=BENCH / "corpus" / "tools")
    args = parser.parse_args(argv)
    manifest = make_tools.ensure_tools(args.out, seed=args.seed)
    shapes = {str(s["shape"]): s for s in manifest["shapes"]}  # type: ignore[union-attr]
    samples: dict[tuple[str, str], list[dict[str, float]]] = {}
    for _ in range(args.runs):
        for shape, info in shapes.items():
            target = str(
                args.out
                / (str(info["path"]) if shape == "one-per-module" else Path(str(info["path"])).parent)
            )
            for tool, command in TOOLS.items():
                samples.setdefault((shape, tool), []).append(sample(command(target), args.out))
    median: dict[tuple[str, str], dict[str, float]] = {
        key: {field: statistics.median(s[field] for s in runs) for field in ("wall", "cpu", "maxrss_kb")}
        for key, runs in samples.items()
    }
    print("| shape | size | measurement | wall (s) | CPU (s) | peak RSS (MB) | / ast.parse (wall) |")
    print("|---|---|---|---:|---:|---:|---:|")
    for shape, info in shapes.items():
        size = f"{info['tools']} tools, {info['lines']} lines, {int(info['bytes']) / 1e6:.2f} MB"
        for tool in TOOLS:
            m = median[(shape, tool)]
            ratio = m["wall"] / median[(shape, "ast")]["wall"]
            print(
                f"| {shape} | {size} | {tool} | {m['wall']:.3f} | {m['cpu']:.3f} | "
                f"{m['maxrss_kb'] / 1024:.1f} | {ratio:.2f} |"
            )
    sl = {shape: median[(shape, "semantics-lint")] for shape in shapes}
    print()
    print(
        f"- 4,000 tools / their ast.parse (target <= 3): "
        f"{sl['tools-4000']['wall'] / median[('tools-4000', 'ast')]['wall']:.2f}"
    )
    print(
        f"- 4,000 tools / 1,000 tools (target <= 4.5): {sl['tools-4000']['wall'] / sl['tools-1000']['wall']:.2f}"
    )
    print(f"- 5 MB module, peak RSS (target < 500 MB): {sl['tools-5mb']['maxrss_kb'] / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
