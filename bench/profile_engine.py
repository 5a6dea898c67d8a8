"""Profile ``semantics-lint check --jobs 1`` in-process with cProfile: where the time goes.

    .venv/bin/python bench/profile_engine.py [--corpus synthetic|names|big|stdlib] [--limit N]

Runs the real command (``semantics_lint.cli.main``) over the benchmark's corpus (made
by ``bench/run.py`` or ``bench/make_corpus.py``; the synthetic one is generated here if
missing), then prints the functions with the most cumulative and the most own time,
and each stage's share: prefilter, ``ast.parse``, locating calls, LibCST, rules,
imports. The raw profile is kept in ``bench/out/profile-<corpus>.prof`` for
``python -m pstats`` or snakeviz. Profiling slows Python code more than C code (the
parsers), so read the shares as a guide and the benchmark's figures as the truth.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
from collections.abc import Sequence
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import make_corpus  # noqa: E402  (bench/ on sys.path, above)
import make_shapes  # noqa: E402

# Stage -> substrings of "file:line(function)" keys whose cumulative time is the stage's.
# Functions are matched by name so that the report survives the engine moving code;
# a stage whose functions are gone just shows nothing.
STAGES: dict[str, tuple[str, ...]] = {
    "whole lint of the files (engine.lint_source)": ("engine.py", "(lint_source)"),
    "textual prefilter (might_contain_calls)": ("settings.py", "(might_contain_calls)"),
    "decoding (decode_source)": ("source.py", "(decode_source)"),
    "ast.parse": ("ast.py", "(parse)"),
    "indexing the file (build_index)": ("index.py", "(build_index)"),
    "locating calls (locate_calls)": ("locate.py", "(locate_calls)"),
    "building declarations": ("declaration.py", "(build_declaration)"),
    "reading parts given as a name": ("declaration.py", "(named_parts)"),
    "rules (the batch)": ("engine.py", "(run)"),
    "following names (Resolver.value_of)": ("resolve/__init__.py", "(value_of)"),
    "other modules (astroid)": ("astroid_bridge.py", "(find_binding)"),
    "noqa filtering": ("suppress.py", "(filter_noqa)"),
    "imports": ("<frozen importlib._bootstrap>", "(_find_and_load)"),
}


def stage_times(stats: pstats.Stats) -> dict[str, float]:
    """Cumulative seconds per stage (the largest matching entry: no double counting)."""
    table = stats.stats  # type: ignore[attr-defined]
    out: dict[str, float] = {}
    for stage, (where, name) in STAGES.items():
        best = 0.0
        for (filename, line, function), (_, _, _, cumulative, _) in table.items():
            key = f"{filename}:{line}({function})"
            if where in filename and name in key:
                best = max(best, cumulative)
        out[stage] = best
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", choices=("synthetic", "names", "big", "stdlib"), default="synthetic")
    parser.add_argument("--limit", type=int, default=25, help="rows per listing")
    parser.add_argument("--work-dir", type=Path, default=BENCH)
    args = parser.parse_args(argv)

    root = (args.work_dir / "corpus" / args.corpus).resolve()
    if args.corpus == "synthetic":
        make_corpus.ensure_synthetic(root)
    elif args.corpus == "names":
        make_shapes.ensure_names(root)
    elif args.corpus == "big":
        make_shapes.ensure_big(root)
    else:
        make_corpus.ensure_stdlib(root)
    out_dir = args.work_dir / "out"
    out_dir.mkdir(parents=True, exist_ok=True)

    from semantics_lint.cli import main as cli_main

    profiler = cProfile.Profile()
    findings = io.StringIO()
    real_stdout = sys.stdout
    sys.stdout = findings  # the findings are not the point here; keep the report readable
    try:
        profiler.enable()
        try:
            cli_main(["check", "--no-respect-gitignore", "--jobs", "1", str(root)], standalone_mode=False)
        except SystemExit:
            pass  # exit 1 means findings, which the synthetic corpus is made to have
        finally:
            profiler.disable()
    finally:
        sys.stdout = real_stdout
    prof_path = out_dir / f"profile-{args.corpus}.prof"
    profiler.dump_stats(str(prof_path))

    stats = pstats.Stats(profiler)
    total = max(stats.total_tt, 1e-9)  # type: ignore[attr-defined]
    print(
        f"{args.corpus}: {findings.getvalue().count(chr(10))} output lines, "
        f"{total:.2f} s under the profiler\n"
    )
    print("stage shares (cumulative; stages nest, so they do not add up):")
    for stage, seconds in stage_times(stats).items():
        print(f"  {stage:48} {seconds:8.2f} s {100 * seconds / total:5.1f}%")
    for order in ("cumulative", "tottime"):
        print(f"\ntop {args.limit} by {order}:")
        buffer = io.StringIO()
        pstats.Stats(profiler, stream=buffer).sort_stats(order).print_stats(args.limit)
        text = buffer.getvalue()
        start = text.find("   ncalls")
        print(text[start:] if start >= 0 else text)
    print(f"raw profile: {prof_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
