"""``semantics-lint check`` and ``semantics-lint rule`` end to end: every flag, every exit code.

Most tests drive the click command in-process (stdout and stderr kept apart); a few
run the installed module in a subprocess where a real process matters (stdin, the
process pool, exit codes as a shell sees them).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from semantics_lint.cli import main
from semantics_lint.lint.run import runner

SNAKE_KEY = textwrap.dedent(
    """\
    from semantics_lint.runtime import described_result


    def vm_status(export, rows):
        return described_result(
            facts=[{"entity": export.vm}],
            provenance={"measured_at": export.at, "source": export.source},  # keep me
        )
    """
)
# Line 7, column 20 (1-based 21): the key "measured_at".
SNAKE_AT = (7, 21)

EMPTY_FACTS = textwrap.dedent(
    """\
    from semantics_lint.runtime import described_result


    def nothing(export):
        return described_result(
            facts=[],
            provenance={"measuredAt": export.at, "source": export.source},
        )
    """
)
# Line 6, column 15: the value [].
EMPTY_AT = (6, 15)

CLEAN = textwrap.dedent(
    """\
    from semantics_lint.runtime import described_result


    def vm_status(export, rows):
        return described_result(
            facts=[{"entity": export.vm}],
            provenance={"measuredAt": export.at, "source": export.source},
        )
    """
)

# An unknown key close to one field: SEM101 offers only an unsafe rename.
UNSAFE_ONLY = textwrap.dedent(
    """\
    from semantics_lint.runtime import described_result


    def vm_status(export, rows):
        return described_result(
            facts=[{"entity": export.vm}],
            provenance={"measuredAt": export.at, "sourse": export.source},
        )
    """
)


@dataclass
class Outcome:
    code: int
    out: str
    err: str


def cli_runner() -> CliRunner:
    """A runner that keeps stderr apart from stdout (click < 8.2 needs asking; 8.2+ always does)."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


def check(*args: str, cwd: Path | None = None, stdin: str | None = None) -> Outcome:
    """Run ``semantics-lint check ARGS`` in-process."""
    cli = cli_runner()
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = cli.invoke(main, ["check", *args], input=stdin, catch_exceptions=False)
    finally:
        os.chdir(old)
    return Outcome(result.exit_code, result.stdout, result.stderr)


def check_process(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m semantics_lint check ARGS`` in a real process."""
    env = dict(os.environ)
    return subprocess.run(
        [sys.executable, "-m", "semantics_lint", "check", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    """A folder with one file per kind: snake key, empty facts, clean, no calls."""
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "snake.py").write_text(SNAKE_KEY, encoding="utf-8")
    (tmp_path / "tools" / "empty.py").write_text(EMPTY_FACTS, encoding="utf-8")
    (tmp_path / "tools" / "clean.py").write_text(CLEAN, encoding="utf-8")
    (tmp_path / "tools" / "helpers.py").write_text("def helper():\n    return 1\n", encoding="utf-8")
    yield tmp_path


def codes_in(text: str) -> list[str]:
    return re.findall(r": (SEM\d{3}) ", text)


# ---------------------------------------------------------------------------
# Text output and exit codes
# ---------------------------------------------------------------------------


def test_findings_exit_1_text_then_summary_on_stdout(project: Path) -> None:
    result = check("tools", cwd=project)
    assert result.code == 1
    lines = result.out.splitlines()
    assert lines == [
        f"tools/empty.py:{EMPTY_AT[0]}:{EMPTY_AT[1]}: SEM105 {lines[0].split(' SEM105 ', 1)[1]}",
        f"tools/snake.py:{SNAKE_AT[0]}:{SNAKE_AT[1]}: SEM102 {lines[1].split(' SEM102 ', 1)[1]}",
        "Found 2 errors.",
        "[*] 1 fixable with the `--fix` option.",
    ]
    assert "measured_at" in lines[1] and "measuredAt" in lines[1]
    assert "Found" not in result.err and "SEM102" not in result.err


def test_clean_exit_0(project: Path) -> None:
    result = check("tools/clean.py", "tools/helpers.py", cwd=project)
    assert result.code == 0
    assert result.out == "All checks passed!\n"
    assert result.err == ""


def test_default_path_is_the_current_folder(project: Path) -> None:
    result = check(cwd=project)
    assert result.code == 1
    assert codes_in(result.out) == ["SEM105", "SEM102"]


def test_exit_zero(project: Path) -> None:
    result = check("tools", "--exit-zero", cwd=project)
    assert result.code == 0
    assert codes_in(result.out) == ["SEM105", "SEM102"]


def test_missing_path_exits_2_even_with_exit_zero(project: Path) -> None:
    result = check("tools", "nope/missing.py", "--exit-zero", cwd=project)
    assert result.code == 2
    assert "nope/missing.py: no such file or directory" in result.err
    assert result.out == ""


# ---------------------------------------------------------------------------
# Selection
# ---------------------------------------------------------------------------


def test_select_ignore_extend_select(project: Path) -> None:
    assert codes_in(check("tools", "--select", "SEM105", cwd=project).out) == ["SEM105"]
    assert codes_in(check("tools", "--select", "SEM10", cwd=project).out) == ["SEM105", "SEM102"]
    assert codes_in(check("tools", "--ignore", "SEM105", cwd=project).out) == ["SEM102"]
    both = check("tools", "--select", "SEM105", "--extend-select", "SEM102", cwd=project)
    assert codes_in(both.out) == ["SEM105", "SEM102"]
    comma = check("tools", "--select", "SEM105,SEM102", "--ignore", "SEM1", cwd=project)
    assert codes_in(comma.out) == ["SEM105", "SEM102"]  # more specific selectors win
    none = check("tools", "--ignore", "SEM1", cwd=project)
    assert none.code == 0 and none.out == "All checks passed!\n"


@pytest.mark.parametrize("flag", ["--select", "--ignore", "--extend-select"])
def test_bad_selector_exits_2(project: Path, flag: str) -> None:
    result = check("tools", flag, "E501", cwd=project)
    assert result.code == 2
    assert flag in result.err and "E501" in result.err


# ---------------------------------------------------------------------------
# Formats
# ---------------------------------------------------------------------------


def test_json_is_ruffs_shape(project: Path) -> None:
    result = check("tools", "--output-format", "json", cwd=project)
    assert result.code == 1
    data = json.loads(result.out)
    assert isinstance(data, list) and len(data) == 2
    for item in data:
        assert set(item) == {
            "code",
            "message",
            "severity",
            "filename",
            "location",
            "end_location",
            "fix",
            "url",
            "help",
        }
        assert set(item["location"]) == {"row", "column"}
    snake = next(item for item in data if item["code"] == "SEM102")
    assert snake["filename"] == "tools/snake.py"
    assert (snake["location"]["row"], snake["location"]["column"]) == SNAKE_AT
    assert snake["severity"] == "E"
    assert snake["fix"]["applicability"] == "safe"
    edit = snake["fix"]["edits"][0]
    assert "measuredAt" in edit["content"]
    assert edit["location"]["row"] == SNAKE_AT[0]
    empty = next(item for item in data if item["code"] == "SEM105")
    assert empty["fix"] is None
    # The summary stays off stdout, so the output is exactly one JSON document.
    assert "Found" not in result.out


def test_json_of_a_clean_run_is_an_empty_list(project: Path) -> None:
    result = check("tools/clean.py", "--output-format", "json", cwd=project)
    assert result.code == 0
    assert json.loads(result.out) == []


def test_github_annotations(project: Path) -> None:
    result = check("tools", "--output-format", "github", cwd=project)
    assert result.code == 1
    lines = result.out.splitlines()
    assert len(lines) == 2
    pattern = re.compile(
        r"^::(error|warning) file=(?P<file>[^,]+),line=(?P<line>\d+),col=(?P<col>\d+),"
        r"endLine=\d+,endColumn=\d+,title=(?P<code>SEM\d{3})::(?P<message>.+)$"
    )
    match = pattern.match(lines[1])
    assert match is not None, lines[1]
    assert match["file"] == "tools/snake.py"
    assert (int(match["line"]), int(match["col"])) == SNAKE_AT
    assert match["code"] == "SEM102"
    assert "measured_at" in match["message"]


def test_sarif_structure(project: Path) -> None:
    result = check("tools", "--output-format", "sarif", cwd=project)
    assert result.code == 1
    log = json.loads(result.out)
    assert log["version"] == "2.1.0"
    assert "sarif" in log["$schema"]
    assert len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "semantics-lint"
    rule_ids = [rule["id"] for rule in driver["rules"]]
    assert "SEM102" in rule_ids and "SEM105" in rule_ids
    assert rule_ids == sorted(rule_ids)
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning")
    assert len(run["results"]) == 2
    for res in run["results"]:
        assert driver["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
        assert res["level"] in ("error", "warning")
        assert res["message"]["text"]
        region = res["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
    snake = next(r for r in run["results"] if r["ruleId"] == "SEM102")
    location = snake["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "tools/snake.py"
    assert (location["region"]["startLine"], location["region"]["startColumn"]) == SNAKE_AT
    assert snake["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"]


def test_statistics(project: Path) -> None:
    (project / "tools" / "snake2.py").write_text(SNAKE_KEY, encoding="utf-8")
    result = check("tools", "--statistics", cwd=project)
    assert result.code == 1
    assert result.out.splitlines() == [
        "2\tSEM102\t[*] snake-case-declaration-key",
        "1\tSEM105\t[ ] empty-data-literal",
        "Found 3 errors.",
        "[*] 2 fixable with the `--fix` option.",
    ]
    machine = check("tools", "--statistics", "--output-format", "json", cwd=project)
    assert "Found" not in machine.err  # a machine format prints its document alone, as ruff's
    as_json = json.loads(machine.out)
    assert as_json[0] == {
        "code": "SEM102",
        "name": "snake-case-declaration-key",
        "count": 2,
        "fixable": True,
        "fixable_count": 2,
    }


# ---------------------------------------------------------------------------
# Fixes
# ---------------------------------------------------------------------------


def test_fix_writes_safe_fixes_and_reports_what_remains(project: Path) -> None:
    result = check("tools", "--fix", cwd=project)
    fixed = (project / "tools" / "snake.py").read_text(encoding="utf-8")
    assert fixed == SNAKE_KEY.replace('"measured_at"', '"measuredAt"')
    assert "# keep me" in fixed
    # SEM105 has no fix: it remains, so the exit code is still 1.
    assert result.code == 1
    assert codes_in(result.out) == ["SEM105"]
    assert "Found 2 errors (1 fixed, 1 remaining)." in result.out
    again = check("tools/snake.py", cwd=project)
    assert again.code == 0


def test_fix_that_fixes_everything_exits_0(project: Path) -> None:
    result = check("tools/snake.py", "--fix", cwd=project)
    assert result.code == 0
    assert result.out == "Found 1 error (1 fixed, 0 remaining).\n"


def test_diff_writes_nothing(project: Path) -> None:
    result = check("tools", "--diff", cwd=project)
    assert result.code == 1
    assert (project / "tools" / "snake.py").read_text(encoding="utf-8") == SNAKE_KEY
    assert "--- tools/snake.py" in result.out
    assert "+++ tools/snake.py" in result.out
    assert '-        provenance={"measured_at"' in result.out
    assert '+        provenance={"measuredAt"' in result.out
    assert result.out.endswith("\nWould fix 1 error in 1 file.\n")
    nothing = check("tools/clean.py", "tools/empty.py", "--diff", cwd=project)
    assert nothing.code == 0 and nothing.out == "No errors would be fixed.\n"


def test_unsafe_fixes_hint_and_flag(project: Path) -> None:
    (project / "tools" / "typo.py").write_text(UNSAFE_ONLY, encoding="utf-8")
    result = check("tools/typo.py", cwd=project)
    assert result.code == 1
    assert codes_in(result.out) == ["SEM101"]
    assert "(1 hidden fix can be enabled with the `--unsafe-fixes` option)" in result.out
    safe_only = check("tools/typo.py", "--fix", cwd=project)
    assert safe_only.code == 1
    assert (project / "tools" / "typo.py").read_text(encoding="utf-8") == UNSAFE_ONLY
    unsafe = check("tools/typo.py", "--fix", "--unsafe-fixes", cwd=project)
    assert unsafe.code == 0
    assert '"source": export.source' in (project / "tools" / "typo.py").read_text(encoding="utf-8")


def test_fix_keeps_crlf_and_bom(project: Path) -> None:
    path = project / "tools" / "crlf.py"
    data = b"\xef\xbb\xbf" + SNAKE_KEY.replace("\n", "\r\n").encode("utf-8")
    path.write_bytes(data)
    result = check("tools/crlf.py", "--fix", cwd=project)
    assert result.code == 0
    assert path.read_bytes() == data.replace(b'"measured_at"', b'"measuredAt"')


# ---------------------------------------------------------------------------
# stdin
# ---------------------------------------------------------------------------


def test_stdin_lint_and_fix(project: Path) -> None:
    linted = check("-", stdin=SNAKE_KEY, cwd=project)
    assert linted.code == 1
    assert linted.out.startswith(f"-:{SNAKE_AT[0]}:{SNAKE_AT[1]}: SEM102 ")
    named = check("-", "--stdin-filename", "tools/x.py", stdin=SNAKE_KEY, cwd=project)
    assert named.out.startswith("tools/x.py:")
    fixed = check("-", "--fix", stdin=SNAKE_KEY + "\n\n" + EMPTY_FACTS.split("\n\n\n", 1)[1], cwd=project)
    assert fixed.code == 1  # the SEM105 remains
    assert '"measuredAt"' in fixed.out and '"measured_at"' not in fixed.out
    assert "SEM105" in fixed.err and "SEM105" not in fixed.out
    # stdout carries the fixed source alone: the summary goes to stderr, as ruff's does.
    assert "Found 2 errors (1 fixed, 1 remaining)." in fixed.err and "Found" not in fixed.out
    assert linted.out.endswith("Found 1 error.\n[*] 1 fixable with the `--fix` option.\n")
    untouched = check("-", "--fix", stdin=CLEAN, cwd=project)
    assert untouched.code == 0 and untouched.out == CLEAN
    assert untouched.err == "All checks passed!\n"
    diff = check("-", "--diff", stdin=SNAKE_KEY, cwd=project)
    assert diff.code == 1 and diff.out.startswith("---") and "Would fix" not in diff.out
    assert diff.err == "Would fix 1 error in 1 file.\n"
    only = check("-", "--fix-only", stdin=SNAKE_KEY, cwd=project)
    assert only.code == 0 and only.out == SNAKE_KEY.replace('"measured_at"', '"measuredAt"')
    assert only.err == "Fixed 1 error.\n"


def test_stdin_cannot_be_mixed_with_paths(project: Path) -> None:
    result = check("-", "tools", cwd=project)
    assert result.code == 2


def test_stdin_in_a_real_process(project: Path) -> None:
    done = check_process("-", "--fix", cwd=project, stdin=SNAKE_KEY.encode("utf-8"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode("utf-8") == SNAKE_KEY.replace('"measured_at"', '"measuredAt"')


# ---------------------------------------------------------------------------
# Suppression comments
# ---------------------------------------------------------------------------


def test_noqa_on_the_reported_line(project: Path) -> None:
    path = project / "tools" / "snake.py"
    path.write_text(SNAKE_KEY.replace("# keep me", "# noqa: SEM102"), encoding="utf-8")
    assert check("tools/snake.py", cwd=project).code == 0
    path.write_text(SNAKE_KEY.replace("# keep me", "# noqa:SEM105,SEM203"), encoding="utf-8")
    listed = check("tools/snake.py", cwd=project)
    # The comment suppresses nothing it lists: SEM002 says so, at the comment.
    assert codes_in(listed.out) == ["SEM102", "SEM002"]
    assert "`SEM105`, `SEM203`" in listed.out
    assert codes_in(check("tools/snake.py", "--ignore", "SEM002", cwd=project).out) == ["SEM102"]
    path.write_text(SNAKE_KEY.replace("# keep me", "# NOQA"), encoding="utf-8")
    assert check("tools/snake.py", cwd=project).code == 0
    # A noqa'd finding is not fixed either.
    path.write_text(SNAKE_KEY.replace("# keep me", "# noqa"), encoding="utf-8")
    check("tools/snake.py", "--fix", cwd=project)
    assert '"measured_at"' in path.read_text(encoding="utf-8")


def test_unused_noqa_in_files_with_and_without_calls(project: Path) -> None:
    plain = project / "tools" / "helpers.py"
    plain.write_text("def helper():  # noqa: SEM102, E501\n    return 1  # noqa\n", encoding="utf-8")
    result = check("tools/helpers.py", cwd=project)
    assert result.code == 1
    assert codes_in(result.out) == ["SEM002"]
    assert result.out.startswith("tools/helpers.py:1:16: SEM002 ")  # at the comment
    assert "`SEM102`" in result.out and "E501" not in result.out  # another tool's code
    # A code that names no rule, in a string: only real comments count.
    plain.write_text('x = "# noqa: SEM102"  # noqa: SEM999\n', encoding="utf-8")
    result = check("tools/helpers.py", cwd=project)
    assert codes_in(result.out) == ["SEM002"]
    assert "no such rule: `SEM999`" in result.out and ":1:23:" in result.out
    # Codes of rules that do not run for the file are left alone.
    plain.write_text("x = 1  # noqa: SEM102\n", encoding="utf-8")
    assert check("tools/helpers.py", "--ignore", "SEM102", cwd=project).code == 0
    plain.write_text("x = 1  # noqa: SEM102, SEM002\n", encoding="utf-8")
    assert check("tools/helpers.py", cwd=project).code == 0  # it may suppress itself
    # Standard input too.
    piped = check("-", stdin="x = 1  # noqa: SEM203\n", cwd=project)
    assert codes_in(piped.out) == ["SEM002"]


# ---------------------------------------------------------------------------
# Configuration, end to end
# ---------------------------------------------------------------------------


def write_config(folder: Path, body: str, name: str = "pyproject.toml") -> Path:
    path = folder / name
    path.write_text("[tool.semantics-lint]\n" + textwrap.dedent(body), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('select = ["SEM105"]\n', ["SEM105"]),
        ('ignore = ["SEM105"]\n', ["SEM102"]),
        ('select = ["SEM105"]\nextend-select = ["SEM102"]\n', ["SEM105", "SEM102"]),
        ('[tool.semantics-lint.per-file-ignores]\n"tools/snake.py" = ["SEM102"]\n', ["SEM105"]),
        ('[tool.semantics-lint.per-file-ignores]\n"empty.py" = ["SEM1"]\n', ["SEM102"]),
        ('extend-exclude = ["snake.py"]\n', ["SEM105"]),
        ('exclude = ["tools/empty.py"]\n', ["SEM102"]),
    ],
)
def test_config_options_reach_the_run(project: Path, body: str, expected: list[str]) -> None:
    write_config(project, body)
    result = check("tools", cwd=project)
    assert codes_in(result.out) == expected
    # The closest configuration is found from the paths, not from the current folder.
    from_elsewhere = check(str(project / "tools"), cwd=project.parent)
    assert codes_in(from_elsewhere.out) == expected


def test_command_line_select_overrides_config(project: Path) -> None:
    write_config(project, 'select = ["SEM105"]\n')
    assert codes_in(check("tools", "--select", "SEM102", cwd=project).out) == ["SEM102"]
    assert codes_in(check("tools", "--extend-select", "SEM102", cwd=project).out) == [
        "SEM105",
        "SEM102",
    ]


def test_api_modules_and_call_names(project: Path) -> None:
    source = textwrap.dedent(
        """\
        from company.semantics import absent


        def lookup(host):
            return absent(what=host, checked=["the CMDB"], not_checked=["the lab"])


        def make(export):
            return make_result(facts=[{"entity": export.host}], provenance={"measured_at": export.at, "source": "x"})
        """
    )
    (project / "tools" / "custom.py").write_text(source, encoding="utf-8")
    assert check("tools/custom.py", cwd=project).code == 0
    write_config(project, 'api-modules = ["company.semantics"]\ncall-names = ["make_result"]\n')
    result = check("tools/custom.py", cwd=project)
    assert [line.split(":")[1] for line in result.out.splitlines() if line.startswith("tools/")] == ["5", "9"]
    assert codes_in(result.out) == ["SEM102", "SEM102"]


def test_explicit_config_file(project: Path) -> None:
    write_config(project, 'select = ["SEM105"]\n')
    other = write_config(project, 'select = ["SEM102"]\n', name="strict.toml")
    result = check("tools", "--config", str(other), cwd=project)
    assert codes_in(result.out) == ["SEM102"]
    missing = check("tools", "--config", "nope.toml", cwd=project)
    assert missing.code == 2


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ('selct = ["SEM1"]\n', "'selct'"),
        ('select = "SEM1"\n', "select"),
        ('per-file-ignores = ["x"]\n', "per-file-ignores"),
        ('select = ["SEM1"\n', "invalid TOML"),
    ],
)
def test_config_mistakes_exit_2_naming_file_and_key(project: Path, body: str, named: str) -> None:
    path = write_config(project, body)
    result = check("tools", "--exit-zero", cwd=project)
    assert result.code == 2
    assert str(path) in result.err
    assert named in result.err
    assert result.out == ""


def test_show_settings(project: Path) -> None:
    path = write_config(project, 'ignore = ["SEM105"]\napi-modules = ["company.semantics"]\n')
    result = check("tools", "--show-settings", cwd=project)
    assert result.code == 0
    assert f"configuration: {path}" in result.out
    assert "company.semantics" in result.out
    enabled = next(line for line in result.out.splitlines() if line.startswith("enabled codes"))
    assert "SEM102" in enabled and "SEM105" not in enabled


# ---------------------------------------------------------------------------
# Bad files among good ones, and --jobs
# ---------------------------------------------------------------------------


def test_bad_files_among_good_ones(project: Path) -> None:
    tools = project / "tools"
    (tools / "broken.py").write_text("def f(:\n    return described_result(facts=[])\n", encoding="utf-8")
    (tools / "latin.py").write_bytes(b"x = '\xe9'\nr = described_result(facts=rows)\n")
    (tools / "blank.py").write_bytes(b"")
    result = check("tools", "--output-format", "json", cwd=project)
    assert result.code == 1
    found = sorted((item["filename"], item["code"]) for item in json.loads(result.out))
    assert found == [
        ("tools/broken.py", "SEM001"),
        ("tools/empty.py", "SEM105"),
        ("tools/latin.py", "SEM001"),
        ("tools/snake.py", "SEM102"),
    ]


def test_jobs_output_is_identical(project: Path) -> None:
    tools = project / "tools"
    for i in range(12):
        (tools / f"copy{i:02d}.py").write_text(SNAKE_KEY if i % 2 else EMPTY_FACTS, encoding="utf-8")
    one = check_process(".", "--jobs", "1", "--output-format", "json", cwd=project)
    two = check_process(".", "--jobs", "2", "--output-format", "json", cwd=project)
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout
    assert len(json.loads(one.stdout)) == 14


def test_jobs_must_be_positive(project: Path) -> None:
    assert check("tools", "--jobs", "0", cwd=project).code == 2


# ---------------------------------------------------------------------------
# semantics-lint rule
# ---------------------------------------------------------------------------


def test_rule_prints_the_docs_page() -> None:
    from semantics_lint.lint import rule_docs

    result = cli_runner().invoke(main, ["rule", "SEM102"])
    assert result.exit_code == 0
    assert result.stdout == rule_docs.render_rule("SEM102")
    assert "SEM102" in result.stdout and "snake-case-declaration-key" in result.stdout
    lower = cli_runner().invoke(main, ["rule", "sem102"])
    assert lower.exit_code == 0 and lower.stdout == result.stdout


def test_rule_unknown_code_exits_2() -> None:
    result = cli_runner().invoke(main, ["rule", "SEM999"])
    assert result.exit_code == 2
    assert "unknown rule code 'SEM999'" in result.stderr


def test_force_exclude_applies_excludes_to_named_files(project: Path) -> None:
    write_config(project, 'extend-exclude = ["tools/snake.py"]\n')
    named = check("tools/snake.py", "tools/empty.py", cwd=project)
    assert codes_in(named.out) == ["SEM105", "SEM102"]  # named files are taken as given
    forced = check("tools/snake.py", "tools/empty.py", "--force-exclude", cwd=project)
    assert codes_in(forced.out) == ["SEM105"]


def test_no_respect_gitignore(project: Path) -> None:
    (project / ".git").mkdir()
    (project / ".gitignore").write_text("snake.py\n", encoding="utf-8")
    assert codes_in(check("tools", cwd=project).out) == ["SEM105"]
    assert codes_in(check("tools", "--no-respect-gitignore", cwd=project).out) == [
        "SEM105",
        "SEM102",
    ]


def test_a_bug_in_the_runner_exits_2(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> runner.RunResult:
        raise RuntimeError("unexpected state")

    monkeypatch.setattr(runner, "run_sources", broken)
    result = check("tools", "--exit-zero", cwd=project)
    assert result.code == 2
    assert "internal error: RuntimeError: unexpected state" in result.err


def test_warnings_are_github_warnings_and_sarif_warnings(project: Path) -> None:
    clock = textwrap.dedent(
        """\
        from datetime import datetime

        from semantics_lint.runtime import described_result


        def now_status(vm):
            return described_result(
                facts=[{"entity": vm}],
                provenance={"measuredAt": datetime.now(), "source": "vcenter"},
            )
        """
    )
    (project / "tools" / "clock.py").write_text(clock, encoding="utf-8")
    github = check("tools/clock.py", "--output-format", "github", cwd=project)
    assert github.code == 1
    assert github.out.startswith("::warning file=tools/clock.py,line=9,")
    assert ",title=SEM204::" in github.out
    sarif = json.loads(check("tools/clock.py", "--output-format", "sarif", cwd=project).out)
    result = sarif["runs"][0]["results"][0]
    assert (result["ruleId"], result["level"]) == ("SEM204", "warning")
    as_json = json.loads(check("tools/clock.py", "--output-format", "json", cwd=project).out)
    assert [(item["code"], item["severity"]) for item in as_json] == [("SEM204", "W")]


def test_no_python_files_is_a_warning_not_an_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    result = check(".", cwd=tmp_path)
    assert result.code == 0
    assert "warning: no Python files found" in result.err


def test_stderr_is_flushed_as_it_is_written(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A buffered stderr that nobody flushes (click 8.1's CliRunner, a redirected file
    # read before exit) still holds the messages once the run returns.
    import io

    from semantics_lint.cli.check import main as lint_main

    buffer = io.BytesIO()
    stderr = io.TextIOWrapper(buffer, encoding="utf-8", write_through=False)
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    monkeypatch.chdir(project)
    with pytest.raises(SystemExit):
        lint_main(["check", "--no-cache", "tools", "missing.py"])
    assert b"missing.py" in buffer.getvalue()
