"""The parse floors of the benchmark: parse every ``.py`` file under a folder, in one process.

``python bench/parse_all.py read DIR`` only reads every file's bytes: the floor of a
run whose prefilter skips every file (a file without calls of ours should cost close to reading it).
``python bench/parse_all.py ast DIR`` is the floor any Python linter stands on
(``ast.parse`` of every file); ``python bench/parse_all.py libcst DIR`` is a bare
``libcst.parse_module`` of every file, the cost a LibCST linter pays before any rule
runs. Both read bytes, so the file's own encoding declaration decides, as the linters
do. Files that do not parse are counted, not fatal. Prints one summary line.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path


def python_files(root: Path) -> list[Path]:
    """Every ``.py`` file under ``root``, sorted, caches skipped."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        found.extend(Path(folder) / f for f in sorted(files) if f.endswith(".py"))
    return found


def _read_only(data: bytes) -> object:
    return len(data)


def _parser(kind: str) -> Callable[[bytes], object]:
    if kind == "read":
        return _read_only
    if kind == "ast":
        import ast

        return ast.parse
    if kind == "libcst":
        import libcst

        return libcst.parse_module
    raise SystemExit(f"unknown parser {kind!r}: use read, ast or libcst")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: parse_all.py read|ast|libcst DIR", file=sys.stderr)
        return 2
    parse = _parser(argv[0])
    parsed = failed = 0
    for path in python_files(Path(argv[1])):
        data = path.read_bytes()
        try:
            parse(data)
        # A corpus file that does not parse (or is too deep for the parser) is data,
        # not a reason to stop measuring the others.
        except Exception:  # noqa: BLE001 - SyntaxError, ParserSyntaxError, RecursionError...
            failed += 1
        else:
            parsed += 1
    print(f"{argv[0]}: parsed={parsed} failed={failed}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
