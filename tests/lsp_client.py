"""A small raw JSON-RPC client that drives ``semantics-lint server`` over stdio.

No LSP library on this side: frames are ``Content-Length`` headers and JSON bodies,
written and read by hand, so the tests check the wire the editors see. A reader
thread collects every message; requests the server sends (``client/registerCapability``)
are answered with ``null``. Another collects the server's log (stderr) line by line,
so that a test can wait for what the server says it did (``wait_for_log``).

Every wait is for an event (a message, a response, a log line). Its timeout,
:data:`PATIENCE` unless a test says otherwise, only turns a server that never sends
it into a failure instead of a hang: a server that behaves never comes near it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

Message = dict[str, Any]

PATIENCE = 300.0
"""Seconds a wait gives up after: a failure detector, never part of a passing run."""


def file_uri(path: Path) -> str:
    return path.resolve().as_uri()


class LspClient:
    def __init__(
        self,
        cwd: Path,
        *,
        env: dict[str, str] | None = None,
        command: list[str] | None = None,
        log_level: str | None = None,
    ) -> None:
        command = command or [sys.executable, "-m", "semantics_lint", "server"]
        if log_level is not None:
            command = [*command, "--log-level", log_level]
        self.process = subprocess.Popen(
            command,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})},
        )
        self._next_id = 0
        self._responses: dict[int, Message] = {}
        self._notifications: list[Message] = []
        self._arrived = threading.Condition()
        self._write_lock = threading.Lock()
        self.stderr = b""
        self._log: list[str] = []
        self._held: set[int] = set()
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    # -- wire -----------------------------------------------------------------------

    def _send(self, message: Message) -> None:
        body = json.dumps(message).encode("utf-8")
        assert self.process.stdin is not None
        with self._write_lock:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()

    def _read_loop(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    with self._arrived:
                        self._arrived.notify_all()
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            assert length is not None, "a frame without Content-Length"
            message = json.loads(stream.read(length))
            if "method" in message and "id" in message:
                # A request from the server: accept it.
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            with self._arrived:
                if "id" in message and "method" not in message:
                    self._responses[message["id"]] = message
                else:
                    self._notifications.append(message)
                self._arrived.notify_all()

    def _read_stderr(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        for line in stream:
            with self._arrived:
                self.stderr += line
                self._log.append(line.decode("utf-8", "replace"))
                self._arrived.notify_all()
        with self._arrived:
            self._arrived.notify_all()

    # -- messages -------------------------------------------------------------------

    def send_raw(self, body: bytes) -> None:
        """One frame with ``body`` as it is: not necessarily JSON, nor UTF-8."""
        assert self.process.stdin is not None
        with self._write_lock:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()

    def notify(self, method: str, params: Any = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any = None, timeout: float = PATIENCE) -> Message:
        """Send a request and wait for its response message (result or error)."""
        self._next_id += 1
        number = self._next_id
        self._send({"jsonrpc": "2.0", "id": number, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        with self._arrived:
            while number not in self._responses:
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None and number not in self._responses:
                    raise TimeoutError(f"no response to {method} within {timeout} s")
                self._arrived.wait(left)
            return self._responses.pop(number)

    def result(self, method: str, params: Any = None, timeout: float = PATIENCE) -> Any:
        response = self.request(method, params, timeout)
        assert "error" not in response, response
        return response["result"]

    def notifications(self, method: str | None = None) -> list[Message]:
        with self._arrived:
            return [m for m in self._notifications if method is None or m["method"] == method]

    def wait_for(
        self, predicate: Callable[[Message], bool], timeout: float = PATIENCE, after: int = 0
    ) -> Message:
        """The first notification (from index ``after`` on) that ``predicate`` accepts."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                for message in self._notifications[after:]:
                    if predicate(message):
                        return message
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise TimeoutError("the expected notification did not arrive")
                self._arrived.wait(left)

    # -- the server's log (stderr) ----------------------------------------------------

    def log_mark(self) -> int:
        """A position in the log's lines, for ``wait_for_log(after=...)``."""
        with self._arrived:
            return len(self._log)

    def wait_for_log(
        self, pattern: str, after: int = 0, timeout: float = PATIENCE
    ) -> tuple[int, re.Match[str]]:
        """The first log line (from index ``after`` on) that ``pattern`` matches: its
        index and the match. Start the server with a ``log_level`` that writes it."""
        found = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                for index in range(after, len(self._log)):
                    match = found.search(self._log[index])
                    if match is not None:
                        return index, match
                left = deadline - time.monotonic()
                if left <= 0 or not self._stderr_reader.is_alive():
                    raise TimeoutError(f"the server logged no line matching {pattern!r}")
                self._arrived.wait(left)

    def logged(self, pattern: str, after: int = 0, before: int | None = None) -> list[re.Match[str]]:
        """Every match of ``pattern`` in the log lines from ``after`` up to ``before``."""
        found = re.compile(pattern)
        with self._arrived:
            lines = self._log[after:before]
        return [match for line in lines if (match := found.search(line)) is not None]

    def started_workers(self, pool: str, count: int) -> list[int]:
        """The process ids of the first ``count`` workers the pool ``pool`` started,
        once it has logged them (``log_level="info"`` or lower)."""
        pids: list[int] = []
        after = 0
        while len(pids) < count:
            index, match = self.wait_for_log(rf"{pool}: started worker process (\d+)", after)
            pids.append(int(match.group(1)))
            after = index + 1
        return pids

    def job_worker(self, pool: str, job: str, after: int = 0) -> tuple[int, int]:
        """The worker the next job ``job`` of ``pool`` logged from line ``after`` on was
        handed to, and that log line's index (``log_level="debug"``)."""
        index, match = self.wait_for_log(rf"{pool}: {job} on worker process (\d+)", after)
        return int(match.group(1)), index

    def published(self, uri: str, after: int = 0) -> list[Message]:
        """The ``publishDiagnostics`` notifications for ``uri`` so far (from ``after`` on)."""
        with self._arrived:
            return [
                m
                for m in self._notifications[after:]
                if m["method"] == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
            ]

    def mark(self) -> int:
        """A position in the notification list, for ``wait_for(after=...)``."""
        with self._arrived:
            return len(self._notifications)

    def diagnostics(
        self, uri: str, version: int | None = None, after: int = 0, timeout: float = PATIENCE
    ) -> list[Message]:
        """The diagnostics of the next ``publishDiagnostics`` for ``uri`` (and ``version``)."""

        def wanted(message: Message) -> bool:
            if message["method"] != "textDocument/publishDiagnostics":
                return False
            params = message["params"]
            return params["uri"] == uri and (version is None or params.get("version") == version)

        return self.wait_for(wanted, timeout, after)["params"]["diagnostics"]

    # -- LSP steps ------------------------------------------------------------------

    def initialize(
        self,
        root: Path,
        options: dict[str, Any] | None = None,
        capabilities: dict[str, Any] | None = None,
    ) -> Message:
        result = self.result(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": file_uri(root),
                "capabilities": capabilities or {},
                "initializationOptions": options if options is not None else {"lintDelay": 0},
            },
        )
        self.notify("initialized", {})
        return result

    def open(self, path: Path, text: str, version: int = 1) -> str:
        uri = file_uri(path)
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": "python",
                    "version": version,
                    "text": text,
                }
            },
        )
        return uri

    def change(self, uri: str, text: str, version: int) -> None:
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
        )

    def code_actions(
        self, uri: str, start: tuple[int, int], end: tuple[int, int], only: list[str] | None = None
    ) -> list[Message]:
        context: dict[str, Any] = {"diagnostics": []}
        if only is not None:
            context["only"] = only
        return (
            self.result(
                "textDocument/codeAction",
                {
                    "textDocument": {"uri": uri},
                    "range": {
                        "start": {"line": start[0], "character": start[1]},
                        "end": {"line": end[0], "character": end[1]},
                    },
                    "context": context,
                },
            )
            or []
        )

    def stop(self, timeout: float = PATIENCE) -> int:
        """``shutdown`` then ``exit``; the process's exit status."""
        self.result("shutdown")
        self.notify("exit")
        code = self.process.wait(timeout)
        self._stderr_reader.join(timeout)
        return code

    # -- the server's workers ----------------------------------------------------------

    def hold(self, *pids: int) -> None:
        """Stop the worker processes ``pids`` (``SIGSTOP``): a job sent to one waits,
        unanswered, until :meth:`let_go` (or the end of the test) lets it run."""
        for pid in pids:
            self._held.add(pid)
            _signal(pid, signal.SIGSTOP)

    def let_go(self, *pids: int) -> None:
        """Let stopped workers run again (``SIGCONT``)."""
        for pid in pids:
            self._held.discard(pid)
            _signal(pid, signal.SIGCONT)

    def kill_worker(self, pid: int) -> None:
        self._held.discard(pid)
        _signal(pid, signal.SIGKILL)

    def kill(self) -> None:
        self.let_go(*self._held)
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def _signal(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except ProcessLookupError:
        pass  # gone already


can_hold_workers = hasattr(signal, "SIGSTOP")
"""Whether this platform can stop and resume a process (``hold``, ``let_go``)."""


def apply_edits(text: str, edits: list[Message]) -> str:
    """Apply LSP ``TextEdit``s (UTF-16 positions) to ``text``, as an editor does."""
    lines = _lines(text)

    def offset(position: Message) -> int:
        line, character = position["line"], position["character"]
        if line >= len(lines):
            return len(text)
        start = sum(len(previous) for previous in lines[:line])
        content = lines[line].rstrip("\r\n")
        units = 0
        for index, char in enumerate(content):
            if units >= character:
                return start + index
            units += 2 if ord(char) > 0xFFFF else 1
        return start + len(content)

    ranges = sorted(
        ((offset(e["range"]["start"]), offset(e["range"]["end"]), e["newText"]) for e in edits),
        reverse=True,
    )
    for start, end, new in ranges:
        text = text[:start] + new + text[end:]
    return text


def _lines(text: str) -> list[str]:
    import re

    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)


def workspace_edits(action: Message, uri: str) -> list[Message]:
    """The ``TextEdit``s a code action makes to ``uri`` (either edit shape)."""
    edit = action.get("edit") or {}
    if "documentChanges" in edit:
        return [
            e
            for change in edit["documentChanges"]
            if change["textDocument"]["uri"] == uri
            for e in change["edits"]
        ]
    return list((edit.get("changes") or {}).get(uri, []))
