"""``semantics-lint server`` end to end: a real process, a raw JSON-RPC client over stdio.

Each test starts the server from outside the repository (in a temporary project),
speaks LSP to it frame by frame (``lsp_client.py``), and compares what it answers
with what ``semantics-lint check`` says about the same text.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsp_client import LspClient, apply_edits, can_hold_workers, file_uri, workspace_edits

pytest.importorskip("pygls.lsp.server", reason="the 'lsp' extra is not installed")

# Each test starts a real server and its worker processes.
pytestmark = pytest.mark.slow

PUBLISH = "textDocument/publishDiagnostics"
RULES_PAGE = Path(__file__).resolve().parents[1] / "docs" / "rules.md"

CLEAN = textwrap.dedent(
    """\
    from semantics_lint.runtime import described_result


    def vm_status(export):
        return described_result(
            facts=[{"entity": export.vm, "ok": True}],
            provenance={"measuredAt": export.at, "source": export.source},
        )


    def day_report(export):
        return described_result(
            facts=[{"entity": export.vm}],
            provenance={"measuredAt": export.at, "source": "veeam"},
        )
    """
)

# The same module with a snake_case key (line 7) and a hard-coded date (line 14);
# 0-based: 6 and 13.
DEFECTIVE = CLEAN.replace(
    '"measuredAt": export.at, "source": export.source',
    '"measured_at": export.at, "source": export.source',
).replace('"measuredAt": export.at, "source": "veeam"', '"measuredAt": "2024-05-01", "source": "veeam"')


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[tool.semantics-lint]\nignore = ["SEM604"]\n')
    return root


@pytest.fixture
def client(project: Path) -> Iterator[LspClient]:
    started = LspClient(project)
    try:
        yield started
    finally:
        started.kill()


@pytest.fixture
def logging_client(project: Path) -> Iterator[LspClient]:
    """A server that logs what it does (``--log-level debug``), for tests that wait
    for it: which lint it starts, which worker runs it, what a changed file re-lints."""
    started = LspClient(project, log_level="debug")
    try:
        yield started
    finally:
        started.kill()


def cli_json(project: Path, text: str, name: str, *extra: str) -> list[dict]:
    """``semantics-lint check`` on ``text`` as the file ``name``, its findings as JSON."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "semantics_lint",
            "check",
            "-",
            "--stdin-filename",
            name,
            "--output-format",
            "json",
            *extra,
        ],
        cwd=project,
        input=text.encode(),
        capture_output=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def cli_fix(project: Path, text: str, name: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "semantics_lint", "check", "-", "--stdin-filename", name, "--fix"],
        cwd=project,
        input=text.encode(),
        capture_output=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout.decode()


def codes(diagnostics: list[dict]) -> list[str]:
    return [d["code"] for d in diagnostics]


# -- the "Must show" list ------------------------------------------------------------


def test_initialize_advertises_full_sync_and_code_actions(client: LspClient, project: Path) -> None:
    capabilities = client.initialize(project)["capabilities"]
    sync = capabilities["textDocumentSync"]
    assert sync["openClose"] is True
    assert sync["change"] == 1  # Full
    assert "save" in sync
    actions = capabilities["codeActionProvider"]
    assert set(actions["codeActionKinds"]) == {"quickfix", "source.fixAll.semantics-lint"}
    assert capabilities["positionEncoding"] == "utf-16"
    assert client.stop() == 0


def test_unsaved_buffer_gets_the_findings_of_its_text_not_of_the_file(
    client: LspClient, project: Path
) -> None:
    path = project / "tools.py"
    path.write_text(CLEAN)
    assert cli_json(project, CLEAN, "tools.py") == []  # the file on disk is clean

    client.initialize(project)
    uri = client.open(path, DEFECTIVE)
    diagnostics = client.diagnostics(uri, version=1)

    expected = cli_json(project, DEFECTIVE, "tools.py")
    assert [f["code"] for f in expected] == ["SEM102", "SEM203"]
    assert codes(diagnostics) == ["SEM102", "SEM203"]
    assert [d["range"]["start"]["line"] for d in diagnostics] == [6, 13]
    for diagnostic, finding in zip(diagnostics, expected, strict=True):
        assert diagnostic["source"] == "semantics-lint"
        assert diagnostic["severity"] == 1  # Error
        # What the line says, then its help under it (editors show both).
        assert finding["help"]
        assert diagnostic["message"] == f"{finding['message']}\n{finding['help']}"
        # The CLI's 1-based rows and columns are the server's 0-based ones, plus one.
        assert diagnostic["range"] == {
            "start": {
                "line": finding["location"]["row"] - 1,
                "character": finding["location"]["column"] - 1,
            },
            "end": {
                "line": finding["end_location"]["row"] - 1,
                "character": finding["end_location"]["column"] - 1,
            },
        }
        # The link is the command line's: the rule's section of the rule reference.
        href = diagnostic["codeDescription"]["href"]
        assert href == finding["url"]
        page, _, anchor = href.partition("#")
        assert page.endswith("rules.md")
        assert anchor.startswith(finding["code"].lower() + "-")
        assert f"](#{anchor})" in RULES_PAGE.read_text()
    assert diagnostics[0]["codeDescription"]["href"].endswith("#sem102-snake-case-declaration-key")
    assert path.read_text() == CLEAN  # the server wrote nothing
    assert client.stop() == 0


def test_the_snake_case_quickfix_renames_that_key_and_nothing_else(client: LspClient, project: Path) -> None:
    client.initialize(project)
    uri = client.open(project / "tools.py", DEFECTIVE)
    diagnostics = client.diagnostics(uri, version=1)
    snake = next(d for d in diagnostics if d["code"] == "SEM102")
    start, end = snake["range"]["start"], snake["range"]["end"]

    actions = client.code_actions(
        uri, (start["line"], start["character"]), (end["line"], end["character"]), only=["quickfix"]
    )
    assert len(actions) == 1
    action = actions[0]
    assert action["kind"] == "quickfix"
    assert action["isPreferred"] is True
    assert "measuredAt" in action["title"] and "SEM102" in action["title"]
    assert [d["code"] for d in action["diagnostics"]] == ["SEM102"]
    fixed = apply_edits(DEFECTIVE, workspace_edits(action, uri))
    assert fixed == DEFECTIVE.replace('"measured_at"', '"measuredAt"', 1)
    # Only that key: the hard-coded date on another line is untouched.
    assert '"measuredAt": "2024-05-01"' in fixed
    assert client.stop() == 0


def test_fix_all_leaves_no_snake_case_key_and_matches_the_cli_fix(client: LspClient, project: Path) -> None:
    text = DEFECTIVE.replace('"ok": True}', '"ok": True, "age_seconds": 3}').replace(
        "def day_report(export):", "def day_report(export):  # noqa: SEM203"
    )
    client.initialize(project)
    uri = client.open(project / "tools.py", text)
    client.diagnostics(uri, version=1)

    actions = client.code_actions(uri, (0, 0), (0, 0), only=["source.fixAll"])
    assert [a["kind"] for a in actions] == ["source.fixAll.semantics-lint"]
    fixed = apply_edits(text, workspace_edits(actions[0], uri))
    assert fixed == cli_fix(project, text, "tools.py")
    assert "measured_at" not in fixed
    ast.parse(fixed)
    # The noqa on the def line suppresses nothing there: SEM002 says so.
    assert [f["code"] for f in cli_json(project, fixed, "tools.py")] == ["SEM002", "SEM203"]
    # Every edit is small: the renamed keys, not whole lines.
    assert all(len(e["newText"]) <= len("measuredAt") for e in workspace_edits(actions[0], uri))
    assert client.stop() == 0


def test_a_clean_change_clears_the_diagnostics(client: LspClient, project: Path) -> None:
    client.initialize(project)
    uri = client.open(project / "tools.py", DEFECTIVE)
    assert codes(client.diagnostics(uri, version=1)) == ["SEM102", "SEM203"]
    client.change(uri, CLEAN, version=2)
    assert client.diagnostics(uri, version=2) == []
    assert client.stop() == 0


def test_shutdown_then_exit_ends_with_status_0_and_a_quiet_stderr(client: LspClient, project: Path) -> None:
    client.initialize(project)
    uri = client.open(project / "tools.py", DEFECTIVE)
    client.diagnostics(uri, version=1)
    assert client.stop() == 0
    assert client.stderr == b""


def test_every_request_gets_an_answer_even_unreadable_or_after_shutdown(
    client: LspClient, project: Path
) -> None:
    # A client waits for the answer to each request: one whose parameters cannot be
    # read (a negative position) is an InvalidParams error, one after shutdown an
    # InvalidRequest error, as LSP says; neither is left unanswered.
    client.initialize(project)
    uri = client.open(project / "tools.py", DEFECTIVE)
    client.diagnostics(uri, version=1)
    nowhere = {"start": {"line": -1, "character": -5}, "end": {"line": 0, "character": 0}}
    unreadable = client.request(
        "textDocument/codeAction",
        {"textDocument": {"uri": uri}, "range": nowhere, "context": {"diagnostics": []}},
    )
    assert unreadable["error"]["code"] == -32602
    assert client.request("shutdown")["result"] is None
    late = client.request(
        "textDocument/codeAction",
        {"textDocument": {"uri": uri}, "range": {**nowhere, "start": {"line": 0, "character": 0}},
         "context": {"diagnostics": []}},
    )  # fmt: skip
    assert late["error"]["code"] == -32600
    client.notify("exit")
    assert client.process.wait(30) == 0


def test_exit_without_shutdown_is_status_1(client: LspClient, project: Path) -> None:
    client.initialize(project)
    client.notify("exit")
    assert client.process.wait(30) == 1


# -- positions -----------------------------------------------------------------------


def test_non_ascii_text_before_a_finding_does_not_shift_it(client: LspClient, project: Path) -> None:
    # "é" is one UTF-16 unit, "😀" two; a form feed is no line break for LSP.
    text = DEFECTIVE.replace(
        "def vm_status(export):",
        "\x0c\ndef vm_status(export):  # café ☕",
    ).replace(
        '"measured_at": export.at',
        '"entité😀": 1, "measured_at": export.at',
    )
    client.initialize(project)
    uri = client.open(project / "tools.py", text)
    diagnostics = client.diagnostics(uri, version=1)
    snake = next(d for d in diagnostics if d["code"] == "SEM102")
    line = text.split("\n")[snake["range"]["start"]["line"]]
    code_points = line.index('"measured_at"')
    assert snake["range"]["start"]["character"] == code_points + 1  # the emoji's second unit
    assert snake["range"]["end"]["character"] == code_points + 1 + len('"measured_at"')
    # And the quickfix edits the right characters.
    start = snake["range"]["start"]
    actions = client.code_actions(
        uri,
        (start["line"], start["character"]),
        (start["line"], start["character"]),
        only=["quickfix"],
    )
    fixed = apply_edits(text, workspace_edits(actions[0], uri))
    assert fixed == text.replace('"measured_at"', '"measuredAt"')
    assert client.stop() == 0


def test_crlf_buffer_keeps_its_line_endings_through_fix_all(client: LspClient, project: Path) -> None:
    text = DEFECTIVE.replace("\n", "\r\n")
    client.initialize(project)
    uri = client.open(project / "tools.py", text)
    assert [d["range"]["start"]["line"] for d in client.diagnostics(uri, version=1)] == [6, 13]
    actions = client.code_actions(uri, (0, 0), (0, 0), only=["source.fixAll.semantics-lint"])
    fixed = apply_edits(text, workspace_edits(actions[0], uri))
    assert fixed == text.replace('"measured_at"', '"measuredAt"')
    assert client.stop() == 0


# -- configuration, noqa, exclusion --------------------------------------------------


def test_configuration_and_noqa_come_from_each_documents_own_project(
    client: LspClient, project: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "pyproject.toml").write_text('[tool.semantics-lint]\nignore = ["SEM102"]\n')
    noqa = DEFECTIVE.replace(
        '"measuredAt": "2024-05-01", "source": "veeam"},',
        '"measuredAt": "2024-05-01", "source": "veeam"},  # noqa: SEM203',
    )
    client.initialize(tmp_path)
    first = client.open(project / "tools.py", noqa)
    second = client.open(other / "tools.py", DEFECTIVE)
    assert codes(client.diagnostics(first, version=1)) == ["SEM102"]
    assert codes(client.diagnostics(second, version=1)) == ["SEM203"]
    assert [f["code"] for f in cli_json(other, DEFECTIVE, "tools.py")] == ["SEM203"]
    # Code actions of one buffer never carry the other's findings or edits.
    actions = client.code_actions(second, (0, 0), (20, 0))
    assert actions == []
    actions = client.code_actions(first, (0, 0), (20, 0))
    assert {a["kind"] for a in actions} == {"quickfix", "source.fixAll.semantics-lint"}
    for action in actions:
        assert workspace_edits(action, second) == []
    assert client.stop() == 0


def test_documents_that_are_not_python_are_left_alone(client: LspClient, project: Path) -> None:
    client.initialize(project)
    notes = file_uri(project / "notes.md")
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": notes, "languageId": "markdown", "version": 1, "text": DEFECTIVE}},
    )
    uri = client.open(project / "tools.py", DEFECTIVE)
    assert codes(client.diagnostics(uri, version=1)) == ["SEM102", "SEM203"]
    assert all(m["params"]["uri"] == uri for m in client.notifications(PUBLISH))
    assert client.stop() == 0


def test_an_untitled_buffer_is_linted_with_the_workspace_configuration(
    client: LspClient, project: Path
) -> None:
    (project / "pyproject.toml").write_text('[tool.semantics-lint]\nignore = ["SEM203"]\n')
    client.initialize(project)
    uri = "untitled:Untitled-1"
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": DEFECTIVE}},
    )
    assert codes(client.diagnostics(uri, version=1)) == ["SEM102"]
    assert client.stop() == 0


def test_excluded_files_get_no_diagnostics(client: LspClient, project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.semantics-lint]\nextend-exclude = ["generated"]\n')
    (project / "generated").mkdir()
    client.initialize(project)
    uri = client.open(project / "generated" / "tools.py", DEFECTIVE)
    assert client.diagnostics(uri, version=1) == []
    kept = client.open(project / "tools.py", DEFECTIVE)
    assert codes(client.diagnostics(kept, version=1)) == ["SEM102", "SEM203"]
    assert client.stop() == 0


def test_a_configuration_error_is_shown_once_and_nothing_is_reported(
    client: LspClient, project: Path
) -> None:
    (project / "pyproject.toml").write_text('[tool.semantics-lint]\nselekt = ["SEM1"]\n')
    client.initialize(project)
    uri = client.open(project / "tools.py", DEFECTIVE)
    assert client.diagnostics(uri, version=1) == []
    message = client.wait_for(lambda m: m["method"] == "window/showMessage")
    assert "selekt" in message["params"]["message"]
    assert message["params"]["type"] == 1
    assert client.stop() == 0


# -- unsafe fixes ----------------------------------------------------------------------

TYPO = CLEAN.replace(
    '"measuredAt": export.at, "source": export.source',
    '"measuredAt": export.at, "sourse": export.source',
)


@pytest.mark.parametrize("enabled", [False, True])
def test_unsafe_fixes_are_offered_only_when_enabled_and_say_so(
    client: LspClient, project: Path, enabled: bool
) -> None:
    client.initialize(project, options={"lintDelay": 0, "unsafeFixes": enabled})
    uri = client.open(project / "tools.py", TYPO)
    diagnostics = client.diagnostics(uri, version=1)
    assert codes(diagnostics) == ["SEM101"]
    start = diagnostics[0]["range"]["start"]
    actions = client.code_actions(
        uri, (start["line"], start["character"]), (start["line"], start["character"])
    )
    quickfixes = [a for a in actions if a["kind"] == "quickfix"]
    # fix-all applies safe fixes only: none here.
    assert [a for a in actions if a["kind"] != "quickfix"] == []
    if not enabled:
        assert quickfixes == []
    else:
        assert len(quickfixes) == 1
        assert "unsafe" in quickfixes[0]["title"]
        assert quickfixes[0]["isPreferred"] is False
        fixed = apply_edits(TYPO, workspace_edits(quickfixes[0], uri))
        assert fixed == CLEAN
    assert client.stop() == 0


# -- long-lived correctness ----------------------------------------------------------


@pytest.mark.skipif(not can_hold_workers, reason="holds the workers with SIGSTOP and SIGCONT")
def test_a_newer_change_supersedes_a_pending_lint(logging_client: LspClient, project: Path) -> None:
    client = logging_client
    client.initialize(project)
    uri = client.open(project / "tools.py", CLEAN)
    assert client.diagnostics(uri, version=1) == []
    # Both lint workers stopped: a lint sent to one waits there until they are let go.
    workers = client.started_workers("lint", 2)
    client.hold(*workers)
    mark, log = client.mark(), client.log_mark()
    client.change(uri, DEFECTIVE, version=2)
    client.job_worker("lint", "lint", after=log)  # version 2 is on a (stopped) worker
    # Version 3 waits for it (one lint of a buffer at a time); version 4 supersedes it.
    client.change(uri, DEFECTIVE.replace('"measured_at"', '"measuredAt"'), version=3)
    client.change(
        uri,
        CLEAN.replace(
            '"measuredAt": export.at, "source": "veeam"',
            '"measuredAt": "2024-05-02", "source": "veeam"',
        ),
        version=4,
    )
    # A request is answered after the notifications before it are handled.
    assert client.code_actions(uri, (0, 0), (1, 0)) == []
    client.let_go(*workers)
    assert codes(client.diagnostics(uri, version=4, after=mark)) == ["SEM203"]
    published = [m["params"].get("version") for m in client.notifications(PUBLISH)[mark:]]
    assert published == [4]  # version 2 was linted but superseded, version 3 never linted
    linted = [int(m.group(1)) for m in client.logged(r"linting \S+tools\.py, version (\d+)", after=log)]
    assert linted == [2, 4]
    assert client.stop() == 0


def test_did_close_clears_the_diagnostics(client: LspClient, project: Path) -> None:
    client.initialize(project)
    uri = client.open(project / "tools.py", DEFECTIVE)
    assert client.diagnostics(uri, version=1) != []
    mark = client.mark()
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert client.diagnostics(uri, after=mark) == []
    # A closed document has no code actions.
    assert client.code_actions(uri, (0, 0), (20, 0)) == []
    assert client.stop() == 0


PACKAGE_TOOL = textwrap.dedent(
    """\
    from semantics_lint.runtime import described_result

    from .constants import EXPORT_DAY


    def weekly(team):
        return described_result(
            facts=[{"entity": team}],
            provenance={"measuredAt": EXPORT_DAY, "source": "servicenow"},
        )
    """
)


@pytest.fixture
def package(project: Path) -> Path:
    folder = project / "pkg"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "constants.py").write_text('EXPORT_DAY = "2024-05-01"\n')
    (folder / "tool.py").write_text(PACKAGE_TOOL)
    (folder / "other.py").write_text(CLEAN)
    return folder


def _rewrite_keeping_size_and_time(path: Path, text: str) -> None:
    """Replace the file's content with the same number of bytes and the same mtime:
    only being told can make the server see the change."""
    before = path.stat()
    assert len(text.encode()) == before.st_size
    path.write_text(text)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_a_watched_file_change_relints_the_buffers_that_depend_on_it(
    logging_client: LspClient, project: Path, package: Path
) -> None:
    client = logging_client
    client.initialize(project)
    tool = client.open(package / "tool.py", PACKAGE_TOOL)
    other = client.open(package / "other.py", DEFECTIVE)
    assert codes(client.diagnostics(tool, version=1)) == ["SEM203"]
    assert codes(client.diagnostics(other, version=1)) == ["SEM102", "SEM203"]

    mark = client.mark()
    _rewrite_keeping_size_and_time(package / "constants.py", "EXPORT_DAY = export.day()\n")
    client.notify(
        "workspace/didChangeWatchedFiles",
        {"changes": [{"uri": file_uri(package / "constants.py"), "type": 2}]},
    )
    # The buffer that used no other module is not linted again: the server says which
    # it lints again when it is told of the change.
    _, relinted = client.wait_for_log(r"changed on disk: .*constants\.py; linting again: (.*)")
    assert relinted.group(1).strip() == tool
    assert client.diagnostics(tool, after=mark) == []
    assert [m["params"]["uri"] for m in client.notifications(PUBLISH)[mark:]] == [tool]
    assert client.stop() == 0


def test_saving_a_module_relints_its_dependents(client: LspClient, project: Path, package: Path) -> None:
    client.initialize(project)
    tool = client.open(package / "tool.py", PACKAGE_TOOL)
    assert codes(client.diagnostics(tool, version=1)) == ["SEM203"]
    constants = client.open(package / "constants.py", 'EXPORT_DAY = "2024-05-01"\n')
    client.diagnostics(constants, version=1)

    mark = client.mark()
    _rewrite_keeping_size_and_time(package / "constants.py", "EXPORT_DAY = export.day()\n")
    client.change(constants, "EXPORT_DAY = export.day()\n", version=2)
    client.notify("textDocument/didSave", {"textDocument": {"uri": constants}})
    assert client.diagnostics(tool, after=mark) == []
    assert client.stop() == 0


def test_a_changed_pyproject_relints_every_open_buffer(client: LspClient, project: Path) -> None:
    client.initialize(project)
    uri = client.open(project / "tools.py", DEFECTIVE)
    assert codes(client.diagnostics(uri, version=1)) == ["SEM102", "SEM203"]
    mark = client.mark()
    (project / "pyproject.toml").write_text('[tool.semantics-lint]\nignore = ["SEM2"]\n')
    client.notify(
        "workspace/didChangeWatchedFiles",
        {"changes": [{"uri": file_uri(project / "pyproject.toml"), "type": 2}]},
    )
    assert codes(client.diagnostics(uri, after=mark)) == ["SEM102"]
    assert client.stop() == 0


def test_the_server_registers_file_watchers_when_the_client_can(client: LspClient, project: Path) -> None:
    client.initialize(
        project,
        capabilities={"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}},
    )
    # The registration is a request from the server, answered by the client.
    request = client.wait_for(lambda m: m["method"] == "client/registerCapability")
    registration = request["params"]["registrations"][0]
    assert registration["method"] == "workspace/didChangeWatchedFiles"
    patterns = {w["globPattern"] for w in registration["registerOptions"]["watchers"]}
    assert {"**/*.py", "**/pyproject.toml"} <= patterns
    assert client.stop() == 0


def test_fix_all_edits_are_resolved_lazily_when_the_client_can(client: LspClient, project: Path) -> None:
    client.initialize(
        project,
        capabilities={
            "textDocument": {"codeAction": {"resolveSupport": {"properties": ["edit"]}}},
            "workspace": {"workspaceEdit": {"documentChanges": True}},
        },
    )
    uri = client.open(project / "tools.py", DEFECTIVE)
    client.diagnostics(uri, version=1)
    (action,) = client.code_actions(uri, (0, 0), (0, 0), only=["source.fixAll.semantics-lint"])
    assert "edit" not in action or action["edit"] is None
    resolved = client.result("codeAction/resolve", action)
    (change,) = resolved["edit"]["documentChanges"]
    assert change["textDocument"] == {"uri": uri, "version": 1}
    fixed = apply_edits(DEFECTIVE, change["edits"])
    assert fixed == DEFECTIVE.replace('"measured_at"', '"measuredAt"')
    assert client.stop() == 0


# -- without the extra ---------------------------------------------------------------


def test_without_the_lsp_extra_the_command_says_what_to_install_and_exits_2(tmp_path: Path) -> None:
    block = (
        "import sys; sys.modules['pygls'] = None; sys.argv = ['semantics-lint', 'server'];"
        "from semantics_lint.cli import main; main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", block], cwd=tmp_path, capture_output=True, input=b"", timeout=60
    )
    assert done.returncode == 2
    # The extra's requirements as the package declares them: semantics-lint itself is
    # on no package index, so "pip install 'semantics-lint[lsp]'" would not find it.
    from semantics_lint.lsp import install_hint

    hint = done.stderr.decode().splitlines()[-1].strip()
    assert hint == install_hint()
    assert hint.startswith("pip install ") and "'pygls" in hint and "'lsprotocol" in hint
    assert "semantics-lint[" not in done.stderr.decode()
    assert done.stdout == b""


def test_a_module_planted_in_the_workspace_never_runs_in_the_workers(project: Path) -> None:
    """The server started as its command in the workspace (as editors start it): its
    worker processes start as ``python -c ...``, which would put the workspace first on
    ``sys.path``; a ``multiprocessing.py`` planted there must not run."""
    marker = project / "ran"
    (project / "multiprocessing.py").write_text(f"open({str(marker)!r}, 'a').write('ran')\n")
    command = [str(Path(sys.executable).with_name("semantics-lint")), "server"]
    if not Path(command[0]).exists():
        pytest.skip("the semantics-lint command is not installed beside this interpreter")
    client = LspClient(project, command=command)
    try:
        client.initialize(project)
        uri = client.open(project / "tools.py", DEFECTIVE)
        assert codes(client.diagnostics(uri, version=1)) == ["SEM102", "SEM203"]
    finally:
        client.kill()
    assert not marker.exists()
