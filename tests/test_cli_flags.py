"""The flags a ruff user types, the config file checks, path problems and start-up,
each through the real command (a subprocess run from outside the repository where the
process matters: stdin, exit codes, imports, signals)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_cli import EMPTY_FACTS, SNAKE_KEY

from semantics_lint import vocabulary

CLEAN = "import os\n\n\ndef helper(path):\n    return os.path.join(path, 'x')\n"


def sl(
    *args: str,
    cwd: Path,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """``semantics-lint ARGS`` in a real process, as a shell would run it."""
    full_env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "semantics_lint", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        env=full_env,
        timeout=timeout,
        check=False,
    )  # type: ignore[return-value]


def text(done: subprocess.CompletedProcess[bytes]) -> tuple[str, str]:
    return done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "snake.py").write_text(SNAKE_KEY, encoding="utf-8")
    (tmp_path / "tools" / "empty.py").write_text(EMPTY_FACTS, encoding="utf-8")
    (tmp_path / "tools" / "helpers.py").write_text(CLEAN, encoding="utf-8")
    yield tmp_path


# ---------------------------------------------------------------------------
# Standard input
# ---------------------------------------------------------------------------


def test_stdin_filename_alone_reads_stdin(project: Path) -> None:
    done = sl("check", "--stdin-filename", "tools/new.py", cwd=project, stdin=SNAKE_KEY.encode())
    out, err = text(done)
    assert done.returncode == 1, err
    assert out.startswith("tools/new.py:7:21: SEM102 [*] ")
    assert "tools/snake.py" not in out  # the folder was not linted
    named = sl("check", "tools", "--stdin-filename", "x.py", cwd=project, stdin=CLEAN.encode())
    out, err = text(named)
    assert named.returncode == 0 and out == "All checks passed!\n"
    assert "ignoring tools: --stdin-filename reads standard input" in err


def test_stdin_with_fix_only_prints_the_fixed_source(project: Path) -> None:
    done = sl("check", "-", "--fix-only", cwd=project, stdin=SNAKE_KEY.encode())
    out, err = text(done)
    assert done.returncode == 0, err
    assert out == SNAKE_KEY.replace('"measured_at"', '"measuredAt"')


# ---------------------------------------------------------------------------
# --config
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ('select = ["SEM102"]\n', "top-level select but no [tool.semantics-lint] table"),
        ('[tool.semantics_lint]\nselect = ["SEM102"]\n', "spelled [tool.semantics_lint]"),
        ('[tool.ruff]\nselect = ["E"]\n', "has no [tool.semantics-lint] table"),
    ],
)
def test_a_config_file_without_our_table_is_exit_2(project: Path, body: str, says: str) -> None:
    (project / "strict.toml").write_text(body, encoding="utf-8")
    done = sl("check", "tools", "--config", "strict.toml", "--exit-zero", cwd=project)
    out, err = text(done)
    assert done.returncode == 2
    assert out == ""
    assert err.startswith("error: ") and "strict.toml: " in err and says in err


def test_a_config_file_with_the_table_is_read(project: Path) -> None:
    (project / "semantics-lint.toml").write_text(
        '[tool.semantics-lint]\nselect = ["SEM105"]\n', encoding="utf-8"
    )
    done = sl("check", "tools", "--config", "semantics-lint.toml", cwd=project)
    out, _ = text(done)
    assert [line.split()[1] for line in out.splitlines() if line.startswith("tools/")] == ["SEM105"]


def test_a_pyproject_with_the_underscore_table_is_exit_2(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.semantics_lint]\nignore = ["SEM1"]\n', encoding="utf-8")
    done = sl("check", "tools", cwd=project)
    assert done.returncode == 2
    assert "[tool.semantics_lint]" in text(done)[1]


def test_a_pyproject_that_does_not_name_us_is_skipped(project: Path) -> None:
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    assert sl("check", "tools", cwd=project).returncode == 1


# ---------------------------------------------------------------------------
# Log levels and exit codes
# ---------------------------------------------------------------------------


def test_quiet_silent_verbose_and_e(project: Path) -> None:
    normal = sl("check", "tools", cwd=project)
    out, err = text(normal)
    assert normal.returncode == 1 and out.endswith(
        "Found 2 errors.\n[*] 1 fixable with the `--fix` option.\n"
    )
    quiet = sl("check", "tools", "-q", cwd=project)
    assert quiet.returncode == 1 and text(quiet) == (out.split("Found 2 errors.")[0], "")
    silent = sl("check", "tools", "-s", cwd=project)
    assert silent.returncode == 1 and text(silent) == ("", "")
    verbose = sl("check", "tools", "-v", cwd=project)
    assert "debug: 3 files found, 2 linted" in text(verbose)[1]
    assert sl("check", "tools", "-e", cwd=project).returncode == 0
    assert sl("check", "tools", "-q", "-s", cwd=project).returncode == 2  # not allowed together


def test_fix_only_and_exit_non_zero_on_fix(project: Path) -> None:
    done = sl("check", "tools", "--fix-only", cwd=project)
    out, err = text(done)
    assert done.returncode == 0, err  # the SEM105 that remains does not fail --fix-only
    assert out == "Fixed 1 error.\n"  # the summary alone: no finding is printed
    assert '"measuredAt"' in (project / "tools" / "snake.py").read_text(encoding="utf-8")
    (project / "tools" / "snake.py").write_text(SNAKE_KEY, encoding="utf-8")
    flagged = sl("check", "tools/snake.py", "--fix", "--exit-non-zero-on-fix", cwd=project)
    assert flagged.returncode == 1  # nothing remains, but a file was changed
    assert sl("check", "tools/snake.py", "--fix", "--exit-non-zero-on-fix", cwd=project).returncode == 0
    (project / "tools" / "snake.py").write_text(SNAKE_KEY, encoding="utf-8")
    only = sl("check", "tools", "--fix-only", "--exit-non-zero-on-fix", cwd=project)
    assert only.returncode == 1


def test_show_fixes_lists_what_was_fixed(project: Path) -> None:
    done = sl("check", "tools", "--fix", "--show-fixes", cwd=project)
    out, _ = text(done)
    assert "Fixed 1 error:\n- tools/snake.py: 1 fix\n" in out
    nothing = sl("check", "tools/helpers.py", "--fix", "--show-fixes", cwd=project)
    assert "No errors fixed." in text(nothing)[0]


# ---------------------------------------------------------------------------
# --add-noqa and suppression
# ---------------------------------------------------------------------------


def test_add_noqa_makes_the_next_run_clean(project: Path) -> None:
    multi = textwrap.dedent(
        '''\
        from semantics_lint.runtime import described_result


        def notes(export):
            return described_result(
                facts=[{"entity": export.vm}],
                provenance={"measuredAt": """2024-05-01""", "source": "x"},  # keep me
            )
        '''
    )
    (project / "tools" / "dated.py").write_text(multi, encoding="utf-8")
    crlf = project / "tools" / "crlf.py"
    crlf.write_bytes(b"\xef\xbb\xbf" + SNAKE_KEY.replace("\n", "\r\n").encode("utf-8"))
    before = sl("check", "tools", cwd=project)
    assert before.returncode == 1
    added = sl("check", "tools", "--add-noqa", cwd=project)
    _, err = text(added)
    assert added.returncode == 0, err
    assert "Added 4 noqa directives." in err
    after = sl("check", "tools", cwd=project)
    assert after.returncode == 0, text(after)
    snake = (project / "tools" / "snake.py").read_text(encoding="utf-8")
    # After the comment already there (flake8 finds "# noqa" anywhere in the line).
    assert "export.source},  # keep me  # noqa: SEM102\n" in snake
    assert "# keep me  # noqa: SEM203" in (project / "tools" / "dated.py").read_text(encoding="utf-8")
    data = crlf.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and data.count(b"\r\n") == SNAKE_KEY.count("\n")
    assert b"  # noqa: SEM102\r\n" in data
    again = sl("check", "tools", "--add-noqa", cwd=project)
    assert "Added 0 noqa directives." in text(again)[1]


def test_file_level_exemptions(project: Path) -> None:
    snake = project / "tools" / "snake.py"
    snake.write_text("# semantics-lint: noqa\n" + SNAKE_KEY, encoding="utf-8")
    assert sl("check", "tools/snake.py", cwd=project).returncode == 0
    snake.write_text("# flake8: noqa\n" + SNAKE_KEY, encoding="utf-8")
    assert sl("check", "tools/snake.py", cwd=project).returncode == 0
    snake.write_text("# semantics-lint: noqa: SEM2\n" + SNAKE_KEY, encoding="utf-8")
    assert sl("check", "tools/snake.py", cwd=project).returncode == 1
    snake.write_text("# semantics-lint: noqa: SEM203, SEM102\n" + SNAKE_KEY, encoding="utf-8")
    assert sl("check", "tools/snake.py", cwd=project).returncode == 0
    # Code before the marker: not a file-level exemption (as flake8 reads it).
    snake.write_text("x = 1  # flake8: noqa\n" + SNAKE_KEY, encoding="utf-8")
    assert sl("check", "tools/snake.py", cwd=project).returncode == 1


# ---------------------------------------------------------------------------
# semantics-lint rule
# ---------------------------------------------------------------------------


def test_rule_all_lists_every_code(tmp_path: Path) -> None:
    done = sl("rule", "--all", cwd=tmp_path)
    out, _ = text(done)
    assert done.returncode == 0
    for code in vocabulary.RULE_CODES:
        assert f"# {code}: " in out
    as_json = json.loads(text(sl("rule", "--all", "--output-format", "json", cwd=tmp_path))[0])
    assert [row["code"] for row in as_json] == sorted(vocabulary.RULE_CODES)
    assert set(as_json[0]) == {"code", "name", "severity", "summary", "fix", "explanation", "url"}
    one = json.loads(text(sl("rule", "sem102", "--output-format", "json", cwd=tmp_path))[0])
    assert one["code"] == "SEM102" and one["fix"] == "safe"
    assert sl("rule", cwd=tmp_path).returncode == 2
    assert sl("rule", "SEM999", cwd=tmp_path).returncode == 2


# ---------------------------------------------------------------------------
# Every output format from the command line
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "concise",
        "text",
        "full",
        "grouped",
        "json",
        "json-lines",
        "github",
        "gitlab",
        "junit",
        "pylint",
        "sarif",
    ],
)
def test_every_output_format_is_accepted(project: Path, name: str) -> None:
    done = sl("check", "tools", "--output-format", name, cwd=project)
    out, err = text(done)
    assert done.returncode == 1, err
    assert "SEM102" in out and "SEM105" in out
    if name in ("json", "gitlab", "sarif"):
        json.loads(out)
    elif name == "json-lines":
        assert len([json.loads(line) for line in out.splitlines()]) == 2
    elif name == "junit":
        ET.fromstring(out.encode("utf-8"))
    human = name in ("concise", "text", "full", "grouped")
    assert ("Found 2 errors." in out) is human
    assert "Found" not in err


def test_the_output_format_can_come_from_the_environment(project: Path) -> None:
    done = sl("check", "tools", cwd=project, env={"SEMANTICS_LINT_OUTPUT_FORMAT": "json"})
    assert len(json.loads(text(done)[0])) == 2


def test_sarif_names_an_absolute_path_with_a_file_uri(project: Path) -> None:
    target = project / "my tools"
    target.mkdir()
    (target / "inv é.py").write_text(SNAKE_KEY, encoding="utf-8")
    done = sl("check", str(target), "--output-format", "sarif", cwd=project)
    log = json.loads(text(done)[0])
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == (target / "inv é.py").as_uri()
    assert " " not in uri and "%20" in uri and "%C3%A9" in uri


def test_colour_on_request_only(project: Path) -> None:
    plain = text(sl("check", "tools", cwd=project))[0]
    assert "\x1b[" not in plain
    forced = text(sl("check", "tools", cwd=project, env={"FORCE_COLOR": "1"}))[0]
    assert "\x1b[" in forced
    assert (
        "\x1b[" not in text(sl("check", "tools", cwd=project, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}))[0]
    )


# ---------------------------------------------------------------------------
# Paths that cannot be linted
# ---------------------------------------------------------------------------


def test_a_fifo_is_its_sem001_and_the_rest_is_linted(project: Path) -> None:
    os.mkfifo(project / "tools" / "pipe.py")
    for arguments in (["tools"], ["tools/pipe.py", "tools/snake.py"]):
        done = sl("check", *arguments, cwd=project, timeout=60)
        out, err = text(done)
        assert done.returncode == 1, err
        assert "tools/pipe.py:1:1: SEM001 cannot read the file: not a regular file (a FIFO)" in out
        assert "SEM102" in out
        assert "Traceback" not in err


def test_a_folder_that_cannot_be_listed_is_an_error_and_the_rest_is_linted(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from semantics_lint.lint.run import runner

    (project / "tools" / "deep").mkdir()
    real_scandir = os.scandir
    locked = str(project / "tools" / "deep")

    def scandir(path: str) -> object:
        if os.fspath(path) == locked:
            raise PermissionError(13, "Permission denied", locked)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    result = runner.run([str(project / "tools")], runner.RunOptions(jobs=1))
    assert result.messages[0] == f"error: {project / 'tools' / 'deep'}: permission denied; not walked"
    assert result.failed
    assert [f.code for f in result.findings] == ["SEM105", "SEM102"]


@pytest.mark.parametrize("output_format", ["concise", "json", "sarif", "junit", "gitlab"])
def test_an_undecodable_name_prints_escaped(project: Path, output_format: str) -> None:
    bad = os.fsencode(project / "tools") + b"/caf\xe9.py"
    with open(bad, "wb") as handle:
        handle.write(SNAKE_KEY.encode("utf-8"))
    done = sl("check", "tools", "--output-format", output_format, cwd=project)
    out, err = text(done)
    assert "Traceback" not in err
    assert done.returncode == 2  # the name is a problem, said on stderr; the file is linted
    assert "tools/caf\\xe9.py: name is not valid UTF-8" in err
    assert "caf" in out and "SEM102" in out
    if output_format == "sarif":  # the URI encodes the real bytes of the name
        assert '"uri": "tools/caf%E9.py"' in out


def test_a_deep_tree_beside_a_good_file(project: Path) -> None:
    from test_discovery_problems import make_deep, remove_deep

    make_deep(project / "tools", 1000)
    try:
        done = sl("check", "tools", cwd=project)
    finally:
        remove_deep(project / "tools", "d")
    out, err = text(done)
    assert "Traceback" not in err
    assert done.returncode == 1, err
    assert "tools/snake.py" in out


# ---------------------------------------------------------------------------
# --watch
# ---------------------------------------------------------------------------


def test_watch_lints_again_when_a_file_changes(project: Path) -> None:
    env = dict(os.environ)

    def interruptible() -> None:
        # A suite started in the background by a non-interactive shell ignores SIGINT,
        # and the child would inherit that: Ctrl-C is what this test sends.
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    process = subprocess.Popen(
        [sys.executable, "-m", "semantics_lint", "check", "tools", "--watch"],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        preexec_fn=interruptible if sys.platform != "win32" else None,
    )
    # What the command prints (findings, summary, messages: one stream), read as it
    # comes by a thread, so that a wait for a line that never comes fails instead of
    # blocking on the pipe.
    seen = bytearray()
    arrived = threading.Condition()

    def read() -> None:
        assert process.stdout is not None
        while chunk := process.stdout.read1(4096):  # type: ignore[attr-defined]
            with arrived:
                seen.extend(chunk)
                arrived.notify_all()
        with arrived:
            arrived.notify_all()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()

    def wait_for(text: bytes, start: int) -> int:
        """Where ``text`` ends in the output after ``start``; a failure detector's
        timeout, not a budget: the command prints it within a second or two."""
        with arrived:
            ok = arrived.wait_for(lambda: text in seen[start:] or not reader.is_alive(), timeout=300)
            assert ok and text in seen[start:], f"{text!r} not printed:\n{seen.decode(errors='replace')}"
            return seen.index(text, start) + len(text)

    try:
        first = max(wait_for(b"Found 2 errors.", 0), wait_for(b"Watching for file changes", 0))
        (project / "tools" / "snake.py").write_text(
            SNAKE_KEY.replace("measured_at", "measuredAt"), encoding="utf-8"
        )
        wait_for(b"Found 1 error.", first)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=300)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join()
    assert process.returncode == 130


class _Stop(Exception):
    """Ends a watch in the test below."""


def test_watch_lints_again_a_file_that_changed_while_it_was_linted(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An editor that saves while a lint runs (or a file read half written) must be
    # linted again: the watch compares with the files as they were when the lint began.
    from semantics_lint.cli import check
    from semantics_lint.cli.arguments import CheckFlags
    from semantics_lint.cli.console import SILENT, Console

    snake = project / "tools" / "snake.py"
    lints: list[str] = []

    def lint(_flags: object, _console: object) -> int:
        lints.append(snake.read_text(encoding="utf-8"))
        if len(lints) == 1:
            snake.write_text(SNAKE_KEY.replace("measured_at", "measuredAt"), encoding="utf-8")
            return 1
        raise _Stop

    looks: list[float] = []

    def look(seconds: float) -> None:
        looks.append(seconds)
        assert len(looks) < 20, "the change made while the lint ran was never linted"

    monkeypatch.chdir(project)
    monkeypatch.setattr(check, "_check", lint)
    monkeypatch.setattr(check.time, "sleep", look)
    context = check.check_command.make_context("check", ["tools", "--watch"])
    with pytest.raises(_Stop):
        check._watch(CheckFlags(**context.params), Console(SILENT))
    assert len(lints) == 2 and "measuredAt" in lints[1]


# ---------------------------------------------------------------------------
# Start-up: what a run without calls imports
# ---------------------------------------------------------------------------

_IMPORTS_AFTER_CHECK = """
import sys
from semantics_lint.cli import run
try:
    run(["check", *sys.argv[2:], sys.argv[1]])
except SystemExit as exit:
    code = exit.code
heavy = (
    "libcst", "astroid", "semantics_lint.runtime", "multiprocessing", "concurrent",
    "argparse", "tomllib", "tomli", "pathspec", "semantics_lint.lint.run.fix", "semantics_lint.lint.run.write",
    "semantics_lint.lint.output.machine", "semantics_lint.lint.output.sarif", "semantics_lint.lint.rules",
    "json", "hashlib", "tempfile", "shutil",
    # The engine and what only linting or a noqa comment needs; dataclasses alone
    # cost such a run about a fifth of its time. (ast and tokenize are imported: by
    # click, through inspect.)
    "semantics_lint.lint.engine", "semantics_lint.lint.run.suppress", "dataclasses",
    # click's help option translates its text on every run, with locale imported for
    # it: the commands bring their own.
    "locale",
    # Nothing to print but the summary: no finding, no renderer.
    "semantics_lint.lint.core.model", "semantics_lint.lint.output.human",
    "semantics_lint.lint.output.overview",
)
print(code, sorted(name for name in sys.modules if name.split(".")[0] in heavy or name in heavy))
"""


@pytest.mark.parametrize("cache", ["--no-cache", "--cache-dir=here"])
def test_a_file_without_calls_imports_no_parser_no_runtime_no_pool(tmp_path: Path, cache: str) -> None:
    """Nor argparse (click parses every command), TOML (no pyproject names us),
    pathspec, the fix machinery, the formats not asked for, the rule registry, or what
    the results cache needs to read and write (a run whose files all fail the
    prefilter never opens it); nor the engine, ``# noqa`` handling or
    ``dataclasses``: the records on this path are named tuples and slotted classes."""
    (tmp_path / "plain.py").write_text(CLEAN, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "plain"\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", _IMPORTS_AFTER_CHECK, "plain.py", cache],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={k: v for k, v in os.environ.items() if k != "SEMANTICS_LINT_NO_CACHE"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("All checks passed!\n")  # the run's own summary, then the probe's
    code, imported = done.stdout.strip().splitlines()[-1].split(" ", 1)
    assert code == "0"
    assert imported == "[]", f"a run over a file without calls imported {imported}"
    assert not (tmp_path / "here").exists()
