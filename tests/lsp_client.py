"""A small raw JSON-RPC client that drives ``semantics-lint server`` over stdio.

No LSP library on this side: frames are ``Content-Length`` headers and JSON bodies,
written and read by hand, so the tests check the wire the editors see. A reader
thread collects every message; requests the server sends (``client/registerCapability``)
are answered with ``null``.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

Message = dict[str, Any]


def file_uri(path: Path) -> str:
    return path.resolve().as_uri()


class LspClient:
    def __init__(
        self,
        cwd: Path,
        *,
        env: dict[str, str] | None = None,
        command: list[str] | None = None,
    ) -> None:
        self.process = subprocess.Popen(
            command or [sys.executable, "-m", "semantics_lint", "server"],
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
        assert self.process.stderr is not None
        self.stderr = self.process.stderr.read()

    # -- messages -------------------------------------------------------------------

    def send_raw(self, body: bytes) -> None:
        """One frame with ``body`` as it is: not necessarily JSON, nor UTF-8."""
        assert self.process.stdin is not None
        with self._write_lock:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()

    def notify(self, method: str, params: Any = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any = None, timeout: float = 30.0) -> Message:
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

    def result(self, method: str, params: Any = None, timeout: float = 30.0) -> Any:
        response = self.request(method, params, timeout)
        assert "error" not in response, response
        return response["result"]

    def notifications(self, method: str | None = None) -> list[Message]:
        with self._arrived:
            return [m for m in self._notifications if method is None or m["method"] == method]

    def wait_for(
        self, predicate: Callable[[Message], bool], timeout: float = 30.0, after: int = 0
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
        self, uri: str, version: int | None = None, after: int = 0, timeout: float = 30.0
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
            {"textDocument": {"uri": uri, "languageId": "python", "version": version, "text": text}},
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
        return self.result(
            "textDocument/codeAction",
            {
                "textDocument": {"uri": uri},
                "range": {
                    "start": {"line": start[0], "character": start[1]},
                    "end": {"line": end[0], "character": end[1]},
                },
                "context": context,
            },
        ) or []

    def stop(self, timeout: float = 30.0) -> int:
        """``shutdown`` then ``exit``; the process's exit status."""
        self.result("shutdown")
        self.notify("exit")
        code = self.process.wait(timeout)
        self._stderr_reader.join(timeout)
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


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
        return [e for change in edit["documentChanges"] if change["textDocument"]["uri"] == uri for e in change["edits"]]
    return list((edit.get("changes") or {}).get(uri, []))
