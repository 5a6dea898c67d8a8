"""Findings before and after a change to the engine: saved once, compared after each step.

``save DIR`` lints every corpus below with the linter importable now (run it with
``PYTHONPATH=<a checkout of main>/src`` to record main's findings) and writes one
JSON-lines file per corpus and settings variant into ``DIR``: a line per file, its
findings exactly as ``Finding.to_json()`` gives them (positions, messages, fixes), or
the exception a file raised. ``check DIR`` lints the same again into a temporary folder
and compares line for line: it prints the first files that differ and exits 1 when any
does. The engine is called directly (``engine.lint_source``, one process per corpus
and variant, files in sorted order as ``--jobs 1`` lints them), so neither the runner,
the CLI nor the results cache is involved.

Corpora (``--only`` picks some; the generated ones are made in ``bench/corpus/`` first):

* ``testdata``: every ``.py`` under ``testdata/`` (the corpus, the tools, the project
  whose constants are imported across modules);
* ``examples``: every VALID and INVALID example of every rule;
* ``synthetic``: ``make_corpus.py``'s 2,000 tool modules;
* ``names``: ``make_shapes.py``'s 2,000 name-heavy tool modules and their sibling
  constants;
* ``big``: ``make_shapes.py``'s single modules of 1,000, 4,000 and 19,000 calls (5 MB);
* ``stdlib``: a copy of the standard library (few calls, odd code);
* ``tools``: ``make_tools.py``'s tool collections (helper classes, async ``execute``,
  nested functions, ``define_tool`` registrations), one tool a module and thousands in one;
* ``projects``: ``make_projects.py``'s 600 small packages whose tools read names from
  other modules (re-exports, star imports, submodules, branches: astroid's share).

Variants: ``default`` settings everywhere; and, on the small corpora (testdata, the
examples, the first 300 modules of synthetic and names), each rule enabled alone
(``rule-SEM203``...), which checks that a rule's findings do not depend on which other
rules run (their shared answers and the cost gates derived from what they judge).

Usage::

    PYTHONPATH=/path/to/main/src python bench/equivalence.py save bench/out/equivalence-main
    python bench/equivalence.py check bench/out/equivalence-main [--only testdata,examples]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
CORPUS = BENCH / "corpus"
SMALL_SHARE = 300
"""Modules of synthetic and names linted once per rule, each rule alone."""
BIG_SIZES = (1000, 4000, 19000)
CORPORA = ("testdata", "examples", "synthetic", "names", "big", "stdlib", "tools", "projects")
PER_RULE = ("testdata", "examples", "synthetic", "names")


def _ensure(corpus: str) -> Path:
    """The root folder of a corpus, generated first when it is one of ours."""
    sys.path.insert(0, str(BENCH))
    import make_corpus
    import make_projects
    import make_shapes
    import make_tools

    if corpus == "testdata":
        return ROOT / "testdata"
    if corpus == "synthetic":
        make_corpus.ensure_synthetic(CORPUS / "synthetic")
    elif corpus == "names":
        make_shapes.ensure_names(CORPUS / "names")
    elif corpus == "big":
        make_shapes.ensure_big(CORPUS / "big", BIG_SIZES)
    elif corpus == "stdlib":
        make_corpus.ensure_stdlib(CORPUS / "stdlib")
    elif corpus == "tools":
        make_tools.ensure_tools(CORPUS / "tools")
    elif corpus == "projects":
        make_projects.ensure_projects(CORPUS / "projects")
    return CORPUS / corpus


def _files(corpus: str, root: Path, small: bool) -> list[str]:
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*.py") if p.is_file())
    if small and corpus in ("synthetic", "names"):
        tools = [f for f in files if "/tool" in f]
        return tools[:SMALL_SHARE]
    return files


def _variants(corpus: str) -> list[str]:
    from semantics_lint import vocabulary

    variants = ["default"]
    if corpus in PER_RULE:
        variants += [f"rule-{code}" for code in sorted(vocabulary.RULE_CODES)]
    return variants


def _sources(corpus: str, variant: str) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of every file to lint, in order; the working folder is set here."""
    if corpus == "examples":
        from semantics_lint.lint.rules import ALL_RULES

        for rule in ALL_RULES:
            for kind, cases in (("valid", rule.VALID), ("invalid", rule.INVALID)):
                for index, case in enumerate(cases):
                    yield f"{rule.code}-{kind}-{index}.py", case.source.encode("utf-8")
        return
    root = _ensure(corpus)
    os.chdir(root)
    for name in _files(corpus, root, variant != "default"):
        yield name, Path(name).read_bytes()


def run_one(corpus: str, variant: str, out: Path) -> None:
    """Lint one corpus with one variant in this process; write its JSON lines."""
    from semantics_lint.lint import engine

    settings = engine.LintSettings()
    if variant.startswith("rule-"):
        settings = engine.LintSettings(enabled=frozenset({variant[len("rule-") :]}))
    started = time.process_time()
    count = 0
    with out.open("w", encoding="utf-8") as sink:
        for name, data in _sources(corpus, variant):
            try:
                findings = [f.to_json() for f in engine.lint_source(data, name, settings)]
                line: dict[str, object] = {"file": name, "findings": findings}
            except Exception as exc:  # recorded: a crash is part of what is compared
                line = {"file": name, "error": f"{type(exc).__name__}: {exc}"}
            sink.write(json.dumps(line, ensure_ascii=False) + "\n")
            count += 1
            settle = getattr(engine, "settle_imports", None)
            if settle is not None:
                settle()
    seconds = time.process_time() - started
    print(f"  {corpus:9} {variant:14} {count:5} files  {seconds:7.2f} s CPU", flush=True)


def _jobs(only: Sequence[str], every_variant: bool) -> list[tuple[str, str]]:
    return [
        (corpus, variant)
        for corpus in only
        for variant in _variants(corpus)
        if every_variant or variant == "default"
    ]


def _run_all(only: Sequence[str], out_dir: Path, every_variant: bool = True) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for corpus, variant in _jobs(only, every_variant):
        target = out_dir / f"{corpus}.{variant}.jsonl"
        subprocess.run(
            [sys.executable, __file__, "_run", corpus, variant, str(target)],
            check=True,
        )


def _by_file(path: Path) -> dict[str, str]:
    lines: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        lines[json.loads(line)["file"]] = line
    return lines


def _compare(saved: Path, fresh: Path, limit: int = 5) -> list[str]:
    """What differs, file by file. A file only one side has is named, not compared
    (a rule added since brings new examples)."""
    problems: list[str] = []
    for expected_file in sorted(saved.glob("*.jsonl")):
        actual_file = fresh / expected_file.name
        if not actual_file.exists():
            continue
        expected, actual = _by_file(expected_file), _by_file(actual_file)
        differing = [
            (expected[name], actual[name])
            for name in expected
            if name in actual and expected[name] != actual[name]
        ]
        gone = sorted(set(expected) - set(actual))
        new = sorted(set(actual) - set(expected))
        if gone:
            problems.append(
                f"{expected_file.stem}: {len(gone)} files saved but not linted now: {', '.join(gone[:5])}"
            )
        if new:
            print(f"{expected_file.stem}: {len(new)} files linted now but not saved: {', '.join(new[:5])}")
        if differing:
            problems.append(f"{expected_file.stem}: {len(differing)} files differ")
            for e, a in differing[:limit]:
                problems.append(f"  saved: {e[:600]}")
                problems.append(f"  now:   {a[:600]}")
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "_run":
        run_one(args[1], args[2], Path(args[3]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=("save", "check"))
    parser.add_argument("dir", type=Path)
    parser.add_argument("--only", default=",".join(CORPORA), help="corpora, comma-separated")
    parser.add_argument("--keep", type=Path, help="check: write the fresh lines here")
    parser.add_argument(
        "--default-only", action="store_true", help="only the default settings, not each rule alone"
    )
    options = parser.parse_args(args)
    only = [c for c in options.only.split(",") if c]
    unknown = set(only) - set(CORPORA)
    if unknown:
        parser.error(f"unknown corpus: {', '.join(sorted(unknown))}")
    saved = options.dir.resolve()
    if options.action == "save":
        _run_all(only, saved, not options.default_only)
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        fresh = options.keep.resolve() if options.keep else Path(scratch)
        _run_all(only, fresh, not options.default_only)
        problems = _compare(saved, fresh)
    for line in problems:
        print(line)
    print("equivalent" if not problems else "DIFFERENT")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
