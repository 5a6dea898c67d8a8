"""Linting a file leaves no reference cycle of ours behind.

The engine breaks the cycles between a file's context, call sites, declarations,
parts and fields once the findings are made, so reference counting frees each file's
trees at once. Left to the cyclic garbage collector they cost a sixth of a run (its
collections walked them again and again); this test keeps it that way.
"""

from __future__ import annotations

import gc
from collections import Counter
from pathlib import Path
from types import FrameType

from semantics_lint.lint.engine import lint_file

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "testdata" / "corpus").glob("*.py")) + sorted(
    (ROOT / "testdata" / "project").rglob("*.py")
)
OURS = ("semantics_lint.",)


def test_linting_leaves_no_cycle_of_ours() -> None:
    assert FILES
    for path in FILES:  # warm up: imports and module-level caches
        lint_file(path)
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    garbage: Counter[str] = Counter()
    found = 0
    checked = 0
    try:
        for path in FILES:
            found += len(lint_file(path))
            gc.collect()
            # A caught exception's traceback holds its frames, and they hold it: a
            # cycle Python itself makes (astroid failing to import a missing module
            # is one). Such a file is not judged here.
            if not any(isinstance(o, FrameType) for o in gc.garbage):
                checked += 1
                garbage.update(
                    f"{type(o).__module__}.{type(o).__qualname__}"
                    for o in gc.garbage
                    if type(o).__module__.startswith(OURS)
                )
            gc.garbage.clear()
            gc.collect()
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()
    assert found > 0  # the files were linted, with findings
    assert checked >= len(FILES) // 2
    assert garbage == Counter()
