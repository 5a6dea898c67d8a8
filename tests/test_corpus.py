"""Lint the bundled tool modules and compare with the expectations planted in them.

``testdata/corpus/`` is a small repository of tool modules and ``testdata/tools/`` two
more, clean and defective. A planted defect carries ``# expect: CODE`` (or
``# expect: CODE, CODE``) on the line it is reported on, in the style of bugbear's
eval files. The run must find every planted defect on its line and report nothing
else: no false positive anywhere in the corpus, suppressed lines included.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections import Counter
from pathlib import Path

import pytest

from semantics_lint import vocabulary
from semantics_lint.lint.run import runner

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"
CORPUS = TESTDATA / "corpus"
TOOLS = TESTDATA / "tools"

EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>SEM\d{3}(?:\s*,\s*SEM\d{3})*)\s*$")

Expectation = tuple[str, int, str]  # (file name relative to testdata, line, code)


def planted(path: Path) -> Counter[Expectation]:
    """The ``# expect:`` comments of one file, read from its comment tokens."""
    expected: Counter[Expectation] = Counter()
    text = path.read_text(encoding="utf-8")
    relative = path.relative_to(TESTDATA).as_posix()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type != tokenize.COMMENT:
            continue
        # A noqa comment may sit before the expectation on the same line.
        match = EXPECT.search(token.string)
        if match is None:
            continue
        for code in re.split(r"\s*,\s*", match.group("codes")):
            expected[(relative, token.start[0], code)] += 1
    return expected


def found(paths: list[Path], jobs: int = 1) -> Counter[Expectation]:
    result = runner.run([str(p) for p in paths], runner.RunOptions(jobs=jobs))
    assert not result.internal_error
    return Counter(
        (Path(f.filename).resolve().relative_to(TESTDATA).as_posix(), f.start.line, f.code)
        for f in result.findings
    )


def _difference(want: Counter[Expectation], got: Counter[Expectation]) -> str:
    missing = sorted((want - got).elements())
    extra = sorted((got - want).elements())
    lines = [f"missing {m}" for m in missing] + [f"unexpected {e}" for e in extra]
    return "\n".join(lines)


def test_the_corpus_is_a_real_repository() -> None:
    modules = sorted(CORPUS.glob("*.py"))
    assert len(modules) >= 12
    assert sum(planted(m).total() for m in modules) >= 15
    # Clean modules are part of the point: silence is checked as strictly as findings.
    assert sum(1 for m in modules if not planted(m)) >= 5


def test_the_corpus_plants_every_rule() -> None:
    planted_codes = {code for (_, _, code) in expected_for(CORPUS)}
    # SEM001 needs a broken file; SEM002 is the command line's check of its own noqa
    # comments, which flake8 (compared with the command line on this corpus) does not make.
    wanted = set(vocabulary.RULE_CODES) - {"SEM001", "SEM002"}
    assert sorted(wanted - planted_codes) == [], (
        "the bundled example shows every rule: plant a line each of these codes reports in "
        "testdata/corpus/, marked `# expect: CODE` (ARCHITECTURE.md, Where a new rule goes)"
    )
    assert sorted(planted_codes - wanted) == [], "planted codes that are not rules"


def expected_for(folder: Path) -> Counter[Expectation]:
    expected: Counter[Expectation] = Counter()
    for path in sorted(folder.rglob("*.py")):
        expected += planted(path)
    return expected


@pytest.mark.parametrize("folder", [CORPUS, TOOLS], ids=["corpus", "tools"])
def test_every_planted_defect_and_nothing_else(folder: Path) -> None:
    want = expected_for(folder)
    got = found([folder])
    assert got == want, _difference(want, got)


def test_clean_tool_module_is_clean() -> None:
    assert found([TOOLS / "backup_status.py"]) == Counter()


def test_parallel_run_finds_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    options = runner.RunOptions(jobs=2)
    parallel = runner.run([str(CORPUS), str(TOOLS)], options)
    serial = runner.run([str(CORPUS), str(TOOLS)], runner.RunOptions(jobs=1))
    assert parallel.used_pool and not serial.used_pool
    assert parallel.findings == serial.findings


@pytest.mark.integration
def test_flake8_reports_the_same_codes_on_the_same_lines() -> None:
    """flake8 (our plugin, flake8's own noqa handling) agrees with the CLI on the corpus."""
    import subprocess
    import sys

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "flake8",
            "--select",
            "SEM",
            "--format",
            "%(path)s:%(row)d:%(code)s",
            str(CORPUS),
            str(TOOLS),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    from_flake8: Counter[Expectation] = Counter()
    for line in done.stdout.splitlines():
        path, row, code = line.rsplit(":", 2)
        from_flake8[(Path(path).resolve().relative_to(TESTDATA).as_posix(), int(row), code)] += 1
    from_cli = found([CORPUS, TOOLS])
    assert from_flake8 == from_cli, _difference(from_cli, from_flake8)
    assert from_cli.total() >= 30
