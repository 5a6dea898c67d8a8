"""A file's findings do not depend on what the same process linted before it.

A long-lived process (the flake8 plugin in an editor, a language server) lints the same
file again and again, with settings that may change in between. What the linter keeps
about another module (its reading, astroid's answers) must be keyed by everything the
answer depends on: here, the names the settings recognize as declaration calls, which
decide whether a dict in the imported module is only ever read by a declaration.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

CONSTANTS = """\
PROV = {"measuredAt": "2024-05-01", "source": "cmdb"}
make_result(provenance=PROV)
"""

TOOL = """\
from semantics_lint.runtime import described_result
from consts import PROV


def tool(rows):
    return described_result(facts=rows, provenance=PROV)
"""

# Lints tool.py once per settings named on the command line, in one process, and prints
# each run's codes as a JSON list.
SCRIPT = textwrap.dedent(
    """
    import json, sys
    from semantics_lint import vocabulary
    from semantics_lint.lint.engine import LintSettings, lint_file

    extended = LintSettings(call_names=(*vocabulary.DESCRIBED_RESULT_NAMES, "make_result"))
    chosen = {"default": LintSettings(), "extended": extended}
    print(json.dumps([[f.code for f in lint_file(sys.argv[1], chosen[name])] for name in sys.argv[2:]]))
    """
)


def _runs(tmp_path: Path, *settings: str) -> list[list[str]]:
    (tmp_path / "consts.py").write_text(CONSTANTS)
    (tmp_path / "tool.py").write_text(TOOL)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "tool.py"), *settings],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    result: list[list[str]] = json.loads(done.stdout)
    return result


def test_settings_that_change_an_imported_modules_reading_are_part_of_its_key(
    tmp_path: Path,
) -> None:
    # Alone, each settings give their own answer: the dict in consts.py is only read by
    # a declaration call when make_result is one, so only then is its date followed.
    assert _runs(tmp_path, "extended") == [["SEM203"]]
    assert _runs(tmp_path, "default") == [[]]
    # One after the other in one process, in either order, the answers stay the same.
    assert _runs(tmp_path, "default", "extended") == [[], ["SEM203"]]
    assert _runs(tmp_path, "extended", "default") == [["SEM203"], []]
