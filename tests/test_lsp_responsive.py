"""``semantics-lint server`` stays responsive whatever one lint costs, and shrugs off
careless clients.

Over real stdio, as in ``test_lsp_server.py``. Nothing here is timed: each test
asserts the order in which the server's messages arrive (a small file's diagnostics
before a big buffer's, never an older version's after a newer one's), which only
holds if the big lint does not hold the small one up.
"""

from __future__ import annotations

import os
import signal
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsp_client import LspClient, file_uri

pytest.importorskip("pygls.lsp.server", reason="the 'lsp' extra is not installed")

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
    started = LspClient(project)
    try:
        yield started
    finally:
        started.kill()


def error_popups(client: LspClient) -> list[dict]:
    return [m for m in client.notifications("window/showMessage") if m["params"]["type"] == 1]


def test_a_small_file_is_linted_and_fixed_while_a_big_buffer_lints(
    client: LspClient, project: Path, big_text: str
) -> None:
    client.initialize(project)
    big = client.open(project / "big_tools.py", big_text)
    small = client.open(project / "tools.py", SMALL)
    diagnostics = client.diagnostics(small, version=1, timeout=120)
    assert [d["code"] for d in diagnostics] == ["SEM102"]
    start = diagnostics[0]["range"]["start"]
    actions = client.code_actions(small, (start["line"], start["character"]), (start["line"], start["character"]))
    answered = client.mark()
    assert [a["kind"] for a in actions] == ["quickfix", "source.fixAll.semantics-lint"]
    # The big buffer, opened first, had not been published when both were answered.
    before = client.notifications(PUBLISH)[:answered]
    assert [m["params"]["uri"] for m in client.notifications()[:answered] if m in before] == [small]
    big_diagnostics = client.diagnostics(big, version=1, timeout=300)
    assert len(big_diagnostics) == big_text.count('"measured_at"')
    assert error_popups(client) == []
    assert client.stop() == 0


def test_a_burst_of_changes_publishes_the_newest_version_last_and_no_older_after_it(
    client: LspClient, project: Path, big_text: str
) -> None:
    client.initialize(project, options={"lintDelay": 0})
    big = client.open(project / "big_tools.py", big_text)
    client.diagnostics(big, version=1, timeout=300)
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
    newest = client.diagnostics(big, version=4, after=mark, timeout=300)
    assert len(newest) == big_text.count('"measured_at"') - 3
    # A small file linted after that is published after it: nothing of the burst
    # was still on its way.
    small = client.open(project / "tools.py", SMALL)
    client.diagnostics(small, version=1, timeout=120)
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


def _workers(pid: int) -> list[int]:
    """The worker processes of the server ``pid`` (its children that run jobs)."""
    found: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as listing:
            for child in listing.read().split():
                with open(f"/proc/{child}/cmdline", "rb") as command:
                    if b"spawn_main" in command.read():
                        found.append(int(child))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_that_dies_mid_lint_is_logged_and_the_lint_run_again(
    client: LspClient, project: Path, big_text: str
) -> None:
    client.initialize(project)
    uri = client.open(project / "big_tools.py", big_text)
    # The lint starts on open and takes seconds: kill every worker under it, once the
    # three are there (the one linting, the one started ahead for the next lint, and the
    # one for code actions).
    workers: list[int] = []
    while len(workers) < 3 and not client.published(uri):
        workers = _workers(client.process.pid)
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    assert len(client.diagnostics(uri, version=1, timeout=300)) == big_text.count('"measured_at"')
    small = client.open(project / "tools.py", SMALL)
    assert [d["code"] for d in client.diagnostics(small, version=1, timeout=120)] == ["SEM102"]
    assert client.stop() == 0
    assert b"a worker died" in client.stderr
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
    client.send_raw(b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": '
                    b'{"uri": "file:///x.py", "languageId": "python", "version": 1, "text": "\xff\xfe"}}}')
    client.send_raw(b"[1, 2, 3]")
    client.notify("textDocument/didOpen", {"textDocument": {"uri": 7}})
    # Unknown methods: a request is answered with an error, a notification ignored.
    unknown = client.request("semantics/unknown", {"x": 1}, timeout=30)
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
