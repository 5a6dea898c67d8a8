"""One library for arguments, one style of help and errors, and what a command's start costs.

* Every command line is parsed with click, under ``semantics_lint/cli/`` alone: no
  module imports argparse, and only ``cli/`` modules import click (every import
  counted, lazy ones too).
* Every command answers ``-h``; a usage mistake is click's ``Usage:`` / ``Error:`` on
  stderr and exit code 2, for ``check`` and ``rule`` as for the rest.
* The group's ``--help`` lists the commands without importing them.
* The console script pauses the garbage collector while it starts and always
  resumes it; it ends as Python ends (its output written, ``atexit`` callbacks run):
  no private interpreter API to end it sooner.
"""

from __future__ import annotations

import ast
import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from semantics_lint.cli import COMMANDS, main, run

SRC = Path(__file__).resolve().parent.parent / "src" / "semantics_lint"
TOOL = (
    "from semantics_lint.runtime import described_result\n"
    "r = described_result(facts=[{'entity': 'a'}], provenance={'measured_at': t, 'source': s})\n"
)


def _imported(path: Path) -> set[str]:
    """The top-level names of every module ``path`` imports, wherever it does."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_click_parses_every_command_and_only_under_cli() -> None:
    argparse_users, click_users = [], []
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC).as_posix()
        imported = _imported(path)
        if "argparse" in imported:
            argparse_users.append(relative)
        if "click" in imported and not relative.startswith("cli/"):
            click_users.append(relative)
    assert argparse_users == [], f"argparse imported by {argparse_users}: click parses every command"
    assert click_users == [], f"click imported outside cli/ by {click_users}"


def _invoke(*arguments: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:  # click 8.2+ keeps them apart always
        runner = CliRunner()
    result = runner.invoke(main, list(arguments), env=env)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("command", [[], *([name] for name in sorted(COMMANDS))])
def test_every_command_answers_dash_h(command: list[str]) -> None:
    code, out, _ = _invoke(*command, "-h")
    assert code == 0
    assert out.startswith(f"Usage: semantics-lint {' '.join(command)}".rstrip())
    assert "-h, --help" in out


def test_check_help_lists_its_options_in_sections() -> None:
    code, out, _ = _invoke("check", "--help")
    assert code == 0
    sections = [line for line in out.splitlines() if line and not line.startswith(" ") and line.endswith(":")]
    assert sections == [
        "Fixes:",
        "Rule selection:",
        "File selection:",
        "Output:",
        "Miscellaneous:",
        "Log levels (one at most):",
        "Other options:",
    ]
    for flag in (
        "--fix",
        "--select CODES",
        "--no-respect-gitignore",
        "--output-format FORMAT",
        "-j, --jobs N",
        "-s, --silent",
    ):
        assert flag in out
    assert "Exit codes:" in out


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (["check", "-q", "-s", "."], "--quiet and --silent cannot be used together"),
        (["check", "--jobs", "0", "."], "0 is not a positive number"),
        (["check", "--output-format", "xml", "."], "'xml' is not one of"),
        (["check", "--selec", "SEM1", "."], "--selec"),  # click 8.1 and 8.5 word it apart
        (["rule"], "give a rule CODE"),
        (["rule", "SEM102", "--all"], "not both"),
        (["nope"], "No such command 'nope'"),
    ],
)
def test_a_usage_mistake_is_clicks_error_and_exit_2(arguments: list[str], says: str) -> None:
    code, out, err = _invoke(*arguments)
    assert code == 2
    assert out == ""
    assert err.startswith("Usage: semantics-lint")
    assert "for help." in err.splitlines()[1]  # Try 'semantics-lint ... -h' for help.
    assert "\nError: " in err and says in err


def test_an_unknown_output_format_in_the_environment_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(TOOL, encoding="utf-8")
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        code, out, err = _invoke(
            "check", "--no-cache", "tool.py", env={"SEMANTICS_LINT_OUTPUT_FORMAT": "bogus"}
        )
    finally:
        os.chdir(old)
    assert code == 2 and out == ""
    # The error names the option, the variable the bad value came from, and the value.
    assert "'--output-format'" in err
    assert "SEMANTICS_LINT_OUTPUT_FORMAT" in err and "'bogus'" in err


def test_the_group_help_imports_no_command() -> None:
    probe = (
        "import sys\n"
        "from semantics_lint.cli import run\n"
        "try:\n    run(['--help'])\nexcept SystemExit as exit:\n    code = exit.code\n"
        "print(code, sorted(m for m in sys.modules if m.startswith('semantics_lint.cli.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    for name in COMMANDS:
        assert f"\n  {name} " in done.stdout
    assert done.stdout.splitlines()[-1] == "0 ['semantics_lint.cli.style']"


@pytest.mark.parametrize("arguments", [["rule", "SEM102"], ["nope"], ["check", "--jobs", "0"]])
def test_the_collector_runs_again_after_a_command(arguments: list[str]) -> None:
    assert gc.isenabled()
    with pytest.raises(SystemExit):
        run(arguments)
    assert gc.isenabled()


def _script(*arguments: str, cwd: Path, prelude: str = "") -> subprocess.CompletedProcess[str]:
    """``semantics-lint ARGUMENTS`` as the console script runs it (no argv given)."""
    code = f"import sys\n{prelude}\nsys.argv = ['semantics-lint', *{list(arguments)!r}]\nfrom semantics_lint.cli import run\nrun()\n"
    # Output to a pipe is buffered (unless PYTHONUNBUFFERED says otherwise).
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )


def test_the_console_script_writes_all_its_output(tmp_path: Path) -> None:
    for index in range(300):
        (tmp_path / f"tool{index:03d}.py").write_text(TOOL, encoding="utf-8")
    done = _script("check", "--no-cache", "--jobs", "1", ".", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stdout.count(" SEM102 ") == 300
    # The summary, a short write after the findings, sat in the pipe's buffer.
    assert done.stdout.endswith("Found 300 errors.\n[*] 300 fixable with the `--fix` option.\n")


def test_the_console_script_ends_as_python_ends(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(TOOL, encoding="utf-8")
    prelude = "import atexit\natexit.register(lambda: print('atexit ran'))"
    done = _script("check", "--no-cache", "tool.py", cwd=tmp_path, prelude=prelude)
    assert done.returncode == 1, done.stderr
    assert done.stdout.endswith("atexit ran\n")


# ---------------------------------------------------------------------------
# check's flags: CheckFlags' fields are the one list of them
# ---------------------------------------------------------------------------

_TYPES = {
    "bool": (bool,),
    "tuple[str, ...]": (tuple,),
    "str": (str,),
    "str | None": (str, type(None)),
    "int | None": (int, type(None)),
}


def _parsed_flags(*arguments: str) -> object:
    from semantics_lint.cli.arguments import CheckFlags
    from semantics_lint.cli.check import check_command

    context = check_command.make_context("check", list(arguments))
    return CheckFlags(**context.params)


def test_every_check_flag_is_one_option_named_after_its_field() -> None:
    from semantics_lint.cli.arguments import CheckFlags
    from semantics_lint.cli.check import check_command

    fields = CheckFlags.__annotations__
    names = [parameter.name for parameter in check_command.params]
    assert sorted(names) == sorted(fields)
    for parameter in check_command.params:
        if parameter.name != "paths":
            assert f"--{parameter.name.replace('_', '-')}" in parameter.opts, parameter.opts
    # Parsed with nothing given and with every option given, each value has its type.
    given = _parsed_flags(
        "a.py",
        "--fix",
        "--select",
        "SEM1",
        "--no-respect-gitignore",
        "--stdin-filename",
        "x.py",
        "--output-format",
        "json",
        "--jobs",
        "2",
        "--config",
        "c.toml",
        "--cache-dir",
        "d",
    )
    for flags in (_parsed_flags(), given):
        for field, annotation in fields.items():
            assert isinstance(getattr(flags, field), _TYPES[annotation]), (field, annotation)
    assert (given.fix, given.select, given.respect_gitignore, given.jobs) == (  # type: ignore[attr-defined]
        True,
        ("SEM1",),
        False,
        2,
    )


def test_a_check_flag_without_an_option_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from semantics_lint.cli.arguments import CheckFlags, build_check

    monkeypatch.setitem(CheckFlags.__annotations__, "new_flag", "bool")
    with pytest.raises(TypeError, match="new_flag"):
        build_check(lambda flags: None)
