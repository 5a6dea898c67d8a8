"""``semantics-lint server`` stays responsive whatever one lint costs, and shrugs off
careless clients.

Over real stdio, as in ``test_lsp_server.py``. Nothing here is timed, and nothing
waits for a moment to pass: a lint that takes long is a worker the test has stopped
(``SIGSTOP``) and lets go (``SIGCONT``) when it chooses, and the tests learn which
worker runs which job from the server's own log (``--log-level debug``). Each test
asserts the order in which the server's messages arrive (a small file's diagnostics
while a big buffer's lint is held, never an older version's after a newer one's),
which only holds if the held lint does not hold the rest up.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsp_client import LspClient, can_hold_workers, file_uri

pytest.importorskip("pygls.lsp.server", reason="the 'lsp' extra is not installed")

# Each test starts a real server and its worker processes.
pytestmark = pytest.mark.slow

SMALL = textwrap.dedent(
    """\
    from semantics_lint.runtime import described_result


    def vm_status(export):
        return described_result(
            facts=[{"entity": export.vm, "ok": True}],
            provenance={"measured_at": export.at, "source": export.source},
        )
    """
)


def tool(index: int) -> str:
    key = '"measured_at"' if index % 5 == 0 else '"measuredAt"'
    return textwrap.dedent(
        f'''\


        def backup_status_{index}(export, vm: str):
            """Backup runs of one VM, day by day (tool {index})."""
            runs = [r for r in export.runs if r.vm == vm]
            latest = runs[-1]
            return described_result(
                facts=[{{"entity": vm, "backedUp": latest.ok == 1, "tool": {index}}}],
                series=[
                    {{"t": r.day, "entity": vm, "metric": "backup_runs_ok", "value": r.ok}}
                    for r in runs
                ],
                grain={{"interval": "daily", "aggregation": "count", "isCounter": False}},
                provenance={{{key}: export.exported_at, "source": export.source}},
                coverage={{"checked": [f"every backup job in the export of {{export.exported_at}}"]}},
            )
        '''
    )


def big_module(size: int) -> str:
    """Tool code of about ``size`` bytes: a finding in every fifth tool."""
    parts = ["from semantics_lint.runtime import described_result\n"]
    total, index = 0, 0
    while total < size:
        parts.append(tool(index))
        total += len(parts[-1])
        index += 1
    return "".join(parts)


BIG = 3_400_000
PUBLISH = "textDocument/publishDiagnostics"


@pytest.fixture(scope="module")
def big_text() -> str:
    return big_module(BIG)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text("[tool.semantics-lint]\n")
    return root


@pytest.fixture
def client(project: Path) -> Iterator[LspClient]:
    # debug: the server logs each worker it starts and the worker each job runs on.
    started = LspClient(project, log_level="debug")
    try:
        yield started
    finally:
        started.kill()  # held workers are let go first


def held_lint_workers(client: LspClient, project: Path) -> list[int]:
    """Start the server's lint workers (by linting a file) and stop them all: the next
    lint job waits, on a worker the server's log names, until the test lets it go."""
    warm = client.open(project / "warm.py", SMALL)
    client.diagnostics(warm, version=1)
    # The first lint starts a worker and, ahead of the next lint, a second one.
    workers = client.started_workers("lint", 2)
    client.hold(*workers)
    return workers


needs_signals = pytest.mark.skipif(not can_hold_workers, reason="holds workers with SIGSTOP and SIGCONT")


def error_popups(client: LspClient) -> list[dict]:
    return [m for m in client.notifications("window/showMessage") if m["params"]["type"] == 1]


@needs_signals
def test_a_small_file_is_linted_and_fixed_while_a_big_buffer_lints(
    client: LspClient, project: Path, big_text: str
) -> None:
    client.initialize(project)
    workers = held_lint_workers(client, project)
    log = client.log_mark()
    big = client.open(project / "big_tools.py", big_text)
    # The big buffer's lint is on one of the stopped workers, and stays there.
    busy, _ = client.job_worker("lint", "lint", after=log)
    client.let_go(*(pid for pid in workers if pid != busy))
    small = client.open(project / "tools.py", SMALL)
    diagnostics = client.diagnostics(small, version=1)
    assert [d["code"] for d in diagnostics] == ["SEM102"]
    start = diagnostics[0]["range"]["start"]
    actions = client.code_actions(
        small, (start["line"], start["character"]), (start["line"], start["character"])
    )
    assert [a["kind"] for a in actions] == ["quickfix", "source.fixAll.semantics-lint"]
    # Both answered while the big buffer's lint is held: it has published nothing.
    assert client.published(big) == []
    client.let_go(busy)
    big_diagnostics = client.diagnostics(big, version=1)
    assert len(big_diagnostics) == big_text.count('"measured_at"')
    assert error_popups(client) == []
    assert client.stop() == 0


def test_a_burst_of_changes_publishes_the_newest_version_last_and_no_older_after_it(
    client: LspClient, project: Path, big_text: str
) -> None:
    client.initialize(project, options={"lintDelay": 0})
    big = client.open(project / "big_tools.py", big_text)
    client.diagnostics(big, version=1)
    mark = client.mark()
    # lintDelay 0: each change starts a lint at once, and the next one supersedes it
    # while it runs.
    texts = {
        2: big_text.replace('"measured_at"', '"measuredAt"', 1),
        3: big_text.replace('"measured_at"', '"measuredAt"', 2),
        4: big_text.replace('"measured_at"', '"measuredAt"', 3),
    }
    for version, text in texts.items():
        client.change(big, text, version)
    newest = client.diagnostics(big, version=4, after=mark)
    assert len(newest) == big_text.count('"measured_at"') - 3
    # A small file linted after that is published after it: nothing of the burst
    # was still on its way.
    small = client.open(project / "tools.py", SMALL)
    client.diagnostics(small, version=1)
    versions = [m["params"]["version"] for m in client.published(big, after=mark)]
    assert versions[-1] == 4
    assert versions == sorted(versions)
    assert client.stop() == 0


def test_a_buffer_too_big_to_lint_as_you_type_is_linted_on_save_and_the_user_told_once(
    client: LspClient, project: Path
) -> None:
    text = SMALL + "\n" * 2000  # some 2.3 kB
    client.initialize(project, options={"lintDelay": 0, "lintOnChangeMaxBytes": 2000})
    uri = client.open(project / "tools.py", text)
    assert [d["code"] for d in client.diagnostics(uri, version=1)] == ["SEM102"]
    mark = client.mark()
    fixed = text.replace('"measured_at"', '"measuredAt"')
    for version in range(2, 6):
        client.change(uri, fixed if version % 2 else text, version)
    client.change(uri, fixed, 6)
    # The code actions of a text not linted yet: none, at once.
    assert client.code_actions(uri, (0, 0), (9, 0)) == []
    notice = client.wait_for(lambda m: m["method"] == "window/showMessage", after=mark)
    assert notice["params"]["type"] == 2  # a warning
    assert "tools.py" in notice["params"]["message"] and "save" in notice["params"]["message"]
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    assert client.diagnostics(uri, version=6, after=mark) == []
    assert [m["params"]["version"] for m in client.published(uri, after=mark)] == [6]
    assert len(client.notifications("window/showMessage")) == 1
    # A small buffer beside it is linted as it changes.
    other = client.open(project / "other.py", SMALL)
    client.diagnostics(other, version=1)
    client.change(other, SMALL.replace('"measured_at"', '"measuredAt"'), 2)
    assert client.diagnostics(other, version=2) == []
    assert client.stop() == 0


@needs_signals
def test_a_worker_that_dies_mid_lint_is_logged_and_the_lint_run_again(
    client: LspClient, project: Path
) -> None:
    client.initialize(project)
    workers = held_lint_workers(client, project)
    log = client.log_mark()
    uri = client.open(project / "tools.py", SMALL)
    # The lint is on a stopped worker: it cannot have answered. Kill that worker alone.
    linting, index = client.job_worker("lint", "lint", after=log)
    assert linting in workers
    client.kill_worker(linting)
    died_at, _ = client.wait_for_log(r"lint: a worker died during lint; running it again", after=index)
    # Run again on a worker that is alive: the other stopped one, or a new one.
    again, _ = client.job_worker("lint", "lint", after=died_at)
    assert again != linting
    client.let_go(*workers)
    assert [d["code"] for d in client.diagnostics(uri, version=1)] == ["SEM102"]
    # The pool goes on: the next lint gets a worker too.
    other = client.open(project / "other.py", SMALL.replace('"measured_at"', '"measuredAt"'))
    assert client.diagnostics(other, version=1) == []
    assert client.stop() == 0
    assert client.logged("a worker died") != []
    assert client.logged(r"linting .* failed") == []
    assert error_popups(client) == []


def test_careless_and_hostile_clients_get_no_error_popup_and_the_server_stays_up(
    client: LspClient, project: Path
) -> None:
    client.initialize(project)
    never_opened = file_uri(project / "never.py")
    # A change, a save, a close and a code action for a document never opened.
    client.change(never_opened, SMALL, 2)
    client.notify("textDocument/didSave", {"textDocument": {"uri": never_opened}})
    client.notify("textDocument/didClose", {"textDocument": {"uri": never_opened}})
    assert client.code_actions(never_opened, (0, 0), (3, 0)) == []
    # Bodies that are not JSON, not UTF-8, not a message.
    client.send_raw(b"this is not json")
    client.send_raw(
        b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": '
        b'{"uri": "file:///x.py", "languageId": "python", "version": 1, "text": "\xff\xfe"}}}'
    )
    client.send_raw(b"[1, 2, 3]")
    client.notify("textDocument/didOpen", {"textDocument": {"uri": 7}})
    # Unknown methods: a request is answered with an error, a notification ignored.
    unknown = client.request("semantics/unknown", {"x": 1})
    assert unknown["error"]["code"] == -32601
    client.notify("semantics/unknownNotification", {"x": 1})
    client.notify("$/setTrace", {"value": "off"})
    # A lone surrogate in the text: bytes that are not UTF-8 once saved (SEM001 says so).
    surrogate = client.open(project / "surrogate.py", SMALL + 'NOTE = "\ud800"\n')
    assert [d["code"] for d in client.diagnostics(surrogate, version=1)] == ["SEM001"]
    # Positions past the end of the text.
    actions = client.code_actions(surrogate, (10_000, 10_000), (20_000, 5))
    assert isinstance(actions, list)
    # An untitled buffer, and 200 changes in a row.
    untitled = "untitled:Untitled-3"
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": untitled, "languageId": "python", "version": 1, "text": SMALL}},
    )
    fixed = SMALL.replace('"measured_at"', '"measuredAt"')
    mark = client.mark()
    for version in range(2, 202):
        client.change(untitled, fixed if version % 2 else SMALL, version)
    assert client.diagnostics(untitled, version=201, after=mark) == []
    versions = [m["params"]["version"] for m in client.published(untitled, after=mark)]
    assert versions == sorted(versions) and versions[-1] == 201
    # Still up and answering.
    tools = client.open(project / "tools.py", SMALL)
    assert [d["code"] for d in client.diagnostics(tools, version=1)] == ["SEM102"]
    assert error_popups(client) == []
    assert client.stop() == 0
    # What could not be read is in the log (stderr), not in front of the user.
    assert b"Unable to handle message" in client.stderr
