"""Instructions each rule costs, under callgrind: the lint with every rule, less the lint
with every rule but that one.

    .venv/bin/python bench/rules_instructions.py [--corpus synthetic|names|big|stdlib] [--every 10]

One fresh process per figure lints every ``--every``-th file of the corpus (as
``instructions.py`` does): with every rule, with no rule but SEM001 (then no
declaration is read), and once without each rule in turn. A rule's figure is what the
lint saves without it. Work several rules share (reading the declarations, the batch,
the parts given as a name, the resolver's answers kept for the file) is paid as long
as one of them runs, so it shows in the last line, not under any rule. Counts do not
move with the load: a guide to which rule to look at first, in minutes rather than
seconds (one process per rule). Every process gets the same hash seed: with a random one,
the same run moves by a few million instructions (the order sets and dicts keep), as
much as the cheapest rules cost; a figure under ~5 M is still within what the seed
alone moves.
"""

from __future__ import annotations

import os

from instructions import callgrind, options_and_corpus

from semantics_lint import vocabulary

_SCRIPT = r"""
import sys
from pathlib import Path
from semantics_lint import vocabulary
from semantics_lint.lint import engine

root, every, left_out = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
files = sorted(p for p in root.rglob("*.py") if p.is_file())[::every]
sources = [(str(p), p.read_bytes()) for p in files]
if left_out != "start":
    # "every-rule" leaves no code out, "rules" leaves out every rule but SEM001.
    if left_out == "rules":
        enabled = frozenset({"SEM001"})
    else:
        enabled = frozenset(vocabulary.RULE_CODES) - {left_out}
    settings = engine.LintSettings(enabled=enabled)
    findings = 0
    try:  # one cache of other modules for every file, as a run keeps
        from semantics_lint.lint.resolve import ProjectCache
        run = {"project": ProjectCache()}
    except ImportError:
        run = {}
    for name, data in sources:
        findings += len(engine.lint_source(data, name, settings, **run))
        engine.settle_imports()
    print(findings)  # what the run found, for tests/test_bench_smoke.py
"""


def main(argv: list[str] | None = None) -> int:
    found = options_and_corpus(__doc__, argv)
    if found is None:
        return 2
    options, root = found
    os.environ["PYTHONHASHSEED"] = "0"  # inherited by every process measured
    arguments = (str(root), str(options.every))
    start = callgrind(_SCRIPT, *arguments, "start")
    every_rule = callgrind(_SCRIPT, *arguments, "every-rule") - start
    no_rule = callgrind(_SCRIPT, *arguments, "rules") - start
    costs = {
        code: every_rule - (callgrind(_SCRIPT, *arguments, code) - start)
        for code in sorted(vocabulary.RULE_CODES)
        if code != "SEM001"
    }
    rules = every_rule - no_rule
    print(
        f"{options.corpus} (every {options.every}th file): the lint {every_rule / 1e6:.0f} M instructions, "
        f"{rules / 1e6:.0f} M ({rules / every_rule:.1%}) of them for the rules"
    )
    for code, cost in sorted(costs.items(), key=lambda item: -item[1]):
        print(f"  {code}  {cost / 1e6:8.1f} M  {cost / every_rule:6.2%}")
    shared = rules - sum(costs.values())
    print(
        f"  shared   {shared / 1e6:8.1f} M  {shared / every_rule:6.2%}  (declarations, the batch, names followed)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
