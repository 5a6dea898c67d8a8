"""Instructions per stage of the engine, beside ``ast.parse``, under callgrind.

    .venv/bin/python bench/stages_instructions.py [--corpus synthetic|names|big|stdlib] [--every 10]

One fresh process per stage runs the engine's steps over every ``--every``-th file and
stops after that stage (freeing what it made, as the engine does); a stage's count is
its run's minus the run that stops before it. Stable on a shared machine where CPU
seconds are not (see ``instructions.py``); a guide to where the lint's own cost goes.
"""

from __future__ import annotations

from instructions import callgrind, options_and_corpus

STAGES = ("none", "parse", "index", "locate", "declaration", "named", "batch", "module")

_SCRIPT = r"""
import gc, sys
from pathlib import Path
from semantics_lint import vocabulary
from semantics_lint.lint import engine
from semantics_lint.lint.calls.context import CallSite, FileContext
from semantics_lint.lint.calls.declaration import build_declaration
from semantics_lint.lint.core.index import build_index
from semantics_lint.lint.calls.locate import locate_calls
from semantics_lint.lint.rules.base import Check
from semantics_lint.lint.rules import rules_for
from semantics_lint.lint.core.source import decode_source, parse_module

root, every, stop = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
files = sorted(p for p in root.rglob("*.py") if p.is_file())[::every]
sources = [(str(p), p.read_bytes()) for p in files]
settings = engine.LintSettings()
gc.disable()
for name, data in sources:
    if stop < 1 or not engine.might_contain_calls(data, settings):
        continue
    text = decode_source(data)
    try:
        tree = parse_module(text, name)
    except (SyntaxError, ValueError):
        continue
    if stop < 2:
        continue
    index = build_index(tree, (*settings.call_names, *vocabulary.API_FUNCTIONS))
    if stop < 3:
        continue
    context = FileContext(filename=name, text=text, tree=tree, settings=settings, index=index)
    found = locate_calls(index, settings.call_names, settings.api_modules)
    context.calls = [CallSite(context, f.kind, f.spelled, f.node, f.function, f.scope) for f in found]
    declarations = []
    try:
        if stop < 4 or not context.calls:
            continue
        call_rules, module_rules = rules_for(settings)
        findings = []
        checks = {id(rule): Check(rule, context, findings) for rule in (*call_rules, *module_rules)}
        batch = engine.Batch(call_rules, [checks[id(rule)] for rule in call_rules])
        declarations = [build_declaration(call) for call in context.calls if call.kind != "define_tool"]
        if stop < 5:
            continue
        for declaration in declarations:
            declaration.named_parts()
        if stop < 6:
            continue
        for declaration in declarations:
            batch.run(declaration)
        if stop < 7:
            continue
        for rule in module_rules:
            rule.visit_module(checks[id(rule)])
    finally:
        for declaration in declarations:
            declaration.release()
        context.release()
"""


def main(argv: list[str] | None = None) -> int:
    found = options_and_corpus(__doc__, argv)
    if found is None:
        return 2
    options, root = found
    counts = [callgrind(_SCRIPT, str(root), str(options.every), str(stop)) for stop in range(len(STAGES))]
    parse = counts[1] - counts[0]
    print(f"{options.corpus} (every {options.every}th file), instructions per stage:")
    for stage, before, after in zip(STAGES[1:], counts, counts[1:], strict=False):
        print(f"  {stage:12} {(after - before) / 1e6:8.0f} M  {(after - before) / parse:5.2f}x parse")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
