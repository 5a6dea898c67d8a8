"""What following names across modules costs: the ``projects`` corpus, against the parse.

``make_projects.py``'s packages are linted as runs lint them (one
``resolve.ProjectCache`` a project, the files in sorted order), in this process, and
every file is parsed with ``ast.parse``, round after round, alternating; CPU time of
each, their medians and the ratio of the medians are printed, with the findings and
the modules astroid built (read from the projects' sessions as each run ends). Run it
with ``PYTHONPATH=<another checkout>/src`` to measure that checkout on the same files.

Usage::

    python bench/projects.py [--runs 5] [--count 600] [--corpus bench/corpus/projects]
"""

from __future__ import annotations

import argparse
import ast
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def _lint(projects: list[list[Path]]) -> tuple[float, int, int]:
    from semantics_lint.lint import engine
    from semantics_lint.lint.resolve import ProjectCache

    findings = built = 0
    started = time.process_time()
    for files in projects:
        with ProjectCache() as run:
            for path in files:
                findings += len(engine.lint(path.read_bytes(), str(path), project=run).findings)
            session = run.bridge.session
            built += len(session.modules) if session is not None else 0
    return time.process_time() - started, findings, built


def _parse(projects: list[list[Path]]) -> float:
    started = time.process_time()
    for files in projects:
        for path in files:
            ast.parse(path.read_bytes(), str(path))
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--count", type=int, default=600)
    parser.add_argument(
        "--corpus",
        type=Path,
        default=BENCH / "corpus" / "projects",
        help="where the projects are written",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(BENCH))
    import make_projects

    root = make_projects.ensure_projects(args.corpus, args.count)
    projects = [sorted(folder.rglob("*.py")) for folder in sorted(root.iterdir()) if folder.is_dir()]
    _lint(projects[:20])  # imports, astroid's builtins
    lint_times, parse_times = [], []
    for _ in range(args.runs):
        seconds, findings, built = _lint(projects)
        lint_times.append(seconds)
        parse_times.append(_parse(projects))
    lint, parse = statistics.median(lint_times), statistics.median(parse_times)
    files = sum(len(files) for files in projects)
    print(f"{len(projects)} projects, {files} files: {findings} findings, {built} modules built by astroid")
    print(f"lint   median {lint:.3f} s CPU  (runs: {', '.join(f'{t:.3f}' for t in lint_times)})")
    print(f"parse  median {parse:.3f} s CPU")
    print(f"lint / ast.parse: {lint / parse:.1f}x")


if __name__ == "__main__":
    main()
