"""Tool modules written the way engineers write them, held out: each file under
``tests/data/engineer_shapes/`` marks the line of every finding it must get with
``# expect: SEMnnn`` (the files named ``ok_*`` none: they look like the others, but the
value may change, or is never a constant); the linter must report exactly those.

What each mistake is reached through: a module-level dict (``SNAPSHOT["taken_at"]``), a
tuple (``STAMPS[0]``), a local dict, a class constant (``self.X``, ``Jobs.X``), an
f-string of constants, an annotated list and its alias, a walrus, a comprehension over
an empty iterable, ``functools.partial`` of a declaration call, a sibling module. What
each correct module does to its value: changes it in place (through any name), hands it
to a call, rebinds it (in a loop, a branch, a function with ``global``, an instance's
``__init__``, a subclass), or reads it through a dataclass field, an enum member, a
variable key. A parameter default and a helper's return are not followed
(``unresolved_parameter_default.py``).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from semantics_lint.lint.engine import lint_source

HERE = Path(__file__).parent / "data" / "engineer_shapes"
MODULES = sorted(path for path in HERE.rglob("*.py") if path.name not in ("__init__.py", "constants.py"))
_EXPECT = re.compile(r"#\s*expect:\s*(SEM\d{3}(?:\s*,\s*SEM\d{3})*)")


def _expected(text: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        match = _EXPECT.search(line)
        if match:
            found.extend((number, code.strip()) for code in match.group(1).split(","))
    return sorted(found)


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(HERE)))
def test_the_linter_reports_exactly_the_mistakes(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = sorted((f.start.line, f.code) for f in lint_source(text.encode("utf-8"), str(path)))
    assert found == _expected(text), [
        (f.start.line, f.code, f.message) for f in lint_source(text.encode(), str(path))
    ]


def test_the_held_out_set_is_balanced() -> None:
    """Twenty modules with one mistake each, twenty correct ones (the unresolved shapes
    apart): precision and recall are both measured."""
    mistakes = [path for path in MODULES if _expected(path.read_text(encoding="utf-8"))]
    correct = [path for path in MODULES if path.name.startswith("ok_")]
    assert len(mistakes) == 20 and all(len(_expected(p.read_text(encoding="utf-8"))) == 1 for p in mistakes)
    assert len(correct) == 20 and not any(_expected(p.read_text(encoding="utf-8")) for p in correct)


def test_flake8_reports_what_the_command_line_reports() -> None:
    """Both frontends, each in its own process, over the whole folder: the same findings,
    and the ones the files mark."""
    expected = sorted(
        (str(path.relative_to(HERE)), line, code)
        for path in MODULES
        for line, code in _expected(path.read_text(encoding="utf-8"))
    )
    flake8 = subprocess.run(
        [
            sys.executable,
            "-m",
            "flake8",
            "--isolated",
            "--select",
            "SEM",
            "--format=%(path)s|%(row)d|%(code)s",
            ".",
        ],
        cwd=HERE,
        capture_output=True,
        text=True,
        check=False,
    )
    command = subprocess.run(
        [
            sys.executable,
            "-m",
            "semantics_lint",
            "check",
            "--no-cache",
            "--output-format",
            "json",
            ".",
        ],
        cwd=HERE,
        capture_output=True,
        text=True,
        check=False,
    )
    by_flake8 = sorted(
        (path.removeprefix("./"), int(line), code)
        for path, line, code in (row.split("|") for row in flake8.stdout.splitlines())
    )
    by_command = sorted(
        (
            str((HERE / f["filename"]).resolve().relative_to(HERE.resolve())),
            f["location"]["row"],
            f["code"],
        )
        for f in json.loads(command.stdout)
    )
    assert by_flake8 == by_command == expected, (flake8.stderr, command.stderr)
