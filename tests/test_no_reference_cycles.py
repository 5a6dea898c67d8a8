"""Linting a file leaves no reference cycle of ours behind.

The engine breaks the cycles between a file's context, call sites, declarations,
parts and fields once the findings are made, so reference counting frees each file's
trees at once. Left to the cyclic garbage collector they cost a sixth of a run (its
collections walked them again and again); this test keeps it that way.

The check runs in an interpreter of its own: each full collection walks every object
the process holds, and a pytest-xdist worker that has collected the whole suite
holds so many that the same collections took seven times as long there.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import FrameType

from semantics_lint.lint.engine import lint_file

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "testdata" / "corpus").glob("*.py")) + sorted(
    (ROOT / "testdata" / "project").rglob("*.py")
)
OURS = ("semantics_lint.",)


def garbage_of_ours() -> dict[str, object]:
    """Lint every file with the cyclic collector off; after each, the objects of ours
    that only a collection would free."""
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
    return {"found": found, "checked": checked, "garbage": dict(garbage)}


def test_linting_leaves_no_cycle_of_ours() -> None:
    script = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); "
        "from test_no_reference_cycles import garbage_of_ours; print(json.dumps(garbage_of_ours()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(Path(__file__).parent)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["found"] > 0  # the files were linted, with findings
    assert report["checked"] >= len(FILES) // 2
    assert report["garbage"] == {}
