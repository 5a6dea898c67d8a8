"""What following names costs: lint time with names to resolve vs the same literals inlined.

Writes two copies of one generated package of tool modules (about 120 lines each):

* ``names``: values bound to names — module constants, a local per function, and
  constants imported from the package's ``constants.py`` (relative imports and
  ``module.attr``), so the resolver follows names in every module, and asks astroid
  across modules;
* ``literals``: the very same modules with every such value written in the call.

Both lint to the same findings codes (checked). Each run lints the whole corpus in this
process with the resolver's caches cleared first (astroid's import is paid once per
process and reported apart); the figure is the ratio of the medians.

    .venv/bin/python bench/names_vs_literals.py [--modules 40] [--runs 7]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import textwrap
import time
from collections import Counter
from pathlib import Path

CONSTANTS = '''\
"""Values the tools share."""

from datetime import datetime

EXPORT_DAY = "2024-05-01"
EXPORT_STAMP = datetime(2024, 5, 1, 6, 0)
TRIAGE = "triage"
INVENTORY = "inventory"
REPORT = "report"
SOURCE = "backup export"
NO_ROWS = []
'''


def tool_module(index: int, names: bool) -> str:
    """One module of five tools; ``names`` binds the values to names, else inlines them."""

    def value(name: str, literal: str) -> str:
        return name if names else literal

    header = textwrap.dedent(
        f'''\
        """Tools of group {index}."""

        from __future__ import annotations

        from semantics_lint.runtime import absent, define_tool, described_result

        from . import constants
        from .constants import EXPORT_DAY, INVENTORY, NO_ROWS, REPORT, TRIAGE

        DAY = "2024-05-{index % 28 + 1:02d}"
        ROWS = [{{"entity": "cluster-{index}"}}]
        EMPTY = []
        CLASS = "triage"
        '''
    )
    if not names:
        # The same module without the bindings: nothing left to follow.
        header = header.replace("from . import constants\n", "")
        header = header.replace("from .constants import EXPORT_DAY, INVENTORY, NO_ROWS, REPORT, TRIAGE\n", "")
    parts = [header]
    for tool in range(5):
        parts.append(
            textwrap.dedent(
                f'''

                def tool_{tool}(vm, export):
                    """Tool {tool} of group {index}."""
                    runs = [r for r in export.runs if r.vm == vm]
                    if not runs:
                        return absent(what=f"runs of {{vm}}", checked=["every job in the export"])
                    when = {value("DAY", repr(f"2024-05-{index % 28 + 1:02d}"))}
                    return described_result(
                        facts={value("ROWS", repr([{"entity": f"cluster-{index}"}]))},
                        provenance={{
                            "measuredAt": {value("EXPORT_DAY" if tool % 2 else "when", repr("2024-05-01"))},
                            "source": "backup export",
                        }},
                        coverage={{"checked": ["every job in the export"]}},
                    )


                def empty_{tool}(export):
                    if not export:
                        return absent(what="nothing", checked=["the export"])
                    return described_result(
                        facts={value("EMPTY" if tool % 2 else "NO_ROWS", "[]")},
                        provenance={{"measuredAt": {value("constants.EXPORT_STAMP", "datetime(2024, 5, 1, 6, 0)")}, "source": "x"}},
                    )


                TOOL_{tool} = define_tool(name="t{index}_{tool}", resultClass={value("REPORT" if tool == 0 else "TRIAGE", repr("report" if tool == 0 else "triage"))}, execute=tool_{tool})
                '''
            )
        )
    text = "".join(parts)
    if not names:
        text = text.replace(
            "from semantics_lint.runtime",
            "from datetime import datetime\nfrom semantics_lint.runtime",
            1,
        )
    return text


def write_corpus(root: Path, modules: int, names: bool) -> list[Path]:
    package = root / "toolpkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('"""Generated tools."""\n', encoding="utf-8")
    (package / "constants.py").write_text(CONSTANTS, encoding="utf-8")
    paths = []
    for index in range(modules):
        path = package / f"group_{index:03d}.py"
        path.write_text(tool_module(index, names), encoding="utf-8")
        paths.append(path)
    return paths


def lint_all(paths: list[Path]) -> tuple[float, Counter[str]]:
    from semantics_lint.lint.engine import lint_file

    start = time.perf_counter()
    codes: Counter[str] = Counter()
    for path in paths:
        codes.update(finding.code for finding in lint_file(path))
    return time.perf_counter() - start, codes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=int, default=40)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="sl-names-"))
    try:
        named = write_corpus(work / "names", args.modules, names=True)
        literal = write_corpus(work / "literals", args.modules, names=False)
        lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in named)

        started = time.perf_counter()
        import astroid  # noqa: F401  (what the first imported name costs, once a process)

        astroid_import = time.perf_counter() - started
        # Warm up: imports of LibCST and the rules, the bytecode caches.
        lint_all(literal[:2])
        lint_all(named[:2])

        samples: dict[str, list[float]] = {"literals": [], "names": []}
        codes: dict[str, Counter[str]] = {}
        for _ in range(args.runs):
            for label, paths in (("literals", literal), ("names", named)):
                seconds, found = lint_all(paths)
                samples[label].append(seconds)
                codes[label] = found
        if codes["literals"] != codes["names"]:
            print(f"warning: findings differ: {codes['literals']} vs {codes['names']}")

        medians = {label: statistics.median(values) for label, values in samples.items()}
        print(f"corpus: {args.modules} modules, {lines / args.modules:.0f} lines each, {args.runs} runs")
        print(f"findings per corpus: {dict(sorted(codes['names'].items()))}")
        for label in ("literals", "names"):
            per_file = medians[label] / args.modules * 1000
            print(f"{label:>9}: median {medians[label]:.3f} s ({per_file:.1f} ms a module)")
        print(f"ratio names / literals (medians): {medians['names'] / medians['literals']:.2f}x")
        print(f"astroid import, once a process: {astroid_import:.3f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
