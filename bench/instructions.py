"""Instructions, not seconds: the lint of a corpus sample beside ``ast.parse``, under callgrind.

    .venv/bin/python bench/instructions.py [--corpus synthetic|names|big|stdlib] [--every 10]

On a machine shared with others, CPU seconds move with the load; the number of
instructions a process executes does not. Each figure is one fresh process run under
``valgrind --tool=callgrind`` (instructions counted, nothing else kept), reading the
same files (every ``--every``-th ``.py`` file of the corpus, sorted):

* ``start``: the interpreter, the linter's engine imported, the files read;
* ``parse``: that, then ``ast.parse`` of every file;
* ``lint``: that start, then ``engine.lint_source`` of every file (which parses too),
  the files sharing one ``resolve.ProjectCache`` as the files of a run do.

It prints the three counts, ``(lint - start) / (parse - start)`` (the lint's own cost
over the parse floor in one process) and ``lint / parse`` (whole processes, as
``run.py`` compares them). Use it to decide whether a change makes the linter cheaper;
``run.py`` gives the wall and CPU figures the README quotes.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent

_SCRIPT = r"""
import ast, gc, sys
from pathlib import Path
from semantics_lint.lint import engine

root, every, what = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
files = sorted(p for p in root.rglob("*.py") if p.is_file())[::every]
sources = [(str(p), p.read_bytes()) for p in files]
if what == "parse":
    gc.disable()
    for name, data in sources:
        try:
            ast.parse(data, filename=name)
        except (SyntaxError, ValueError):
            pass
elif what == "lint":
    settings = engine.LintSettings()
    # One cache of other modules for every file, as the runner keeps for a run
    # (a linter without run caches kept them in the process).
    try:
        from semantics_lint.lint.resolve import ProjectCache
        run = {"project": ProjectCache()}
    except ImportError:
        run = {}
    for name, data in sources:
        engine.lint_source(data, name, settings, **run)
        engine.settle_imports()
"""

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def count(root: Path, every: int, what: str) -> int:
    """Instructions of one fresh process doing ``what`` (start, parse, lint)."""
    return callgrind(_SCRIPT, str(root), str(every), what)


def callgrind(script: str, *arguments: str) -> int:
    """Instructions of one fresh process running ``script`` with ``arguments``."""
    completed = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            script,
            *arguments,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    found = _COLLECTED.search(completed.stderr)
    if completed.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed ({' '.join(arguments[2:])}):\n{completed.stderr[-2000:]}")
    return int(found.group(1))


def options_and_corpus(description: str, argv: list[str] | None) -> tuple[argparse.Namespace, Path] | None:
    """The command line (``--corpus``, ``--every``, ``--work-dir``) and the corpus folder,
    with the linter's bytecode written first; None when there is no corpus."""
    parser = argparse.ArgumentParser(description=description.split("\n")[0])
    parser.add_argument("--corpus", default="synthetic")
    parser.add_argument("--every", type=int, default=10, help="every n-th file (default 10)")
    parser.add_argument("--work-dir", type=Path, default=BENCH / "corpus")
    options = parser.parse_args(argv)
    root = options.work_dir / options.corpus
    if not root.is_dir():
        print(
            f"no corpus at {root}: run bench/run.py (or bench/equivalence.py) first",
            file=sys.stderr,
        )
        return None
    # The linter's bytecode written first, as an installed package has it (with
    # PYTHONDONTWRITEBYTECODE set, every process would compile the modules again).
    import semantics_lint

    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(Path(semantics_lint.__file__).parent)],
        check=False,
    )
    return options, root


def main(argv: list[str] | None = None) -> int:
    found = options_and_corpus(__doc__, argv)
    if found is None:
        return 2
    options, root = found
    start = count(root, options.every, "start")
    parse = count(root, options.every, "parse")
    lint = count(root, options.every, "lint")
    print(
        f"{options.corpus} (every {options.every}th file): start {start / 1e9:.3f} G, "
        f"parse {parse / 1e9:.3f} G, lint {lint / 1e9:.3f} G instructions; "
        f"lint over the parse floor {(lint - start) / (parse - start):.2f}x, "
        f"whole processes {lint / parse:.2f}x"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
