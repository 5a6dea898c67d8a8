"""``semantics-lint server``: the linter as a language server (LSP 3.17 over stdio).

Built on pygls 2 and lsprotocol. What it does:

* **diagnostics** on the buffer's text (unsaved edits included) on open, change and
  save: one per finding, code ``SEMxxx``, source ``semantics-lint``, the message the
  command line prints with the finding's help on the next line, a link to the rule's
  documentation;
* **code actions**: a ``quickfix`` per fixable finding under the cursor (unsafe ones
  only with the initialization option ``unsafeFixes: true``, and titled as unsafe),
  and ``source.fixAll.semantics-lint``, which applies every safe fix as ``--fix`` does.
  Edits are the smallest ``TextEdit``s that turn the buffer into the fixed text.

Responsiveness (see :mod:`semantics_lint.lsp.workers`):

* every lint and fix runs in a worker process, never in the server's: documents lint
  side by side (one worker each, up to the number of cores), and code actions have
  workers of their own, so a long lint of one buffer delays neither another buffer's
  diagnostics nor any code action;
* a change starts a lint after a short pause (``lintDelay``, seconds); at most one lint
  of a document is on a worker at a time, plus the newest one waiting. A newer version
  supersedes a pending lint, and one already running on a text of more than
  :data:`KILL_ABOVE` characters is stopped by killing its worker (a smaller one finishes,
  sooner than a new interpreter would start); a superseded lint is never published, and
  diagnostics of an older version never follow a newer one's;
* code actions are answered from the last lint of the document: none while the
  buffer has changed since (its next lint is on its way), never a lint on demand;
* a buffer of more than ``lintOnChangeMaxBytes`` bytes (UTF-8) is linted when opened
  and saved, not as it changes; the editor is told so once per document
  (``window/showMessage``, a warning);
* what a careless client sends (a change to a document never opened, a body that is
  not JSON or not UTF-8, parameters of the wrong shape) is logged on stderr and
  otherwise ignored: the server's own errors never pop up in the editor.

Long-lived correctness:

* ``didClose`` forgets the buffer and clears its diagnostics;
* findings that followed a name into another module depend on that module's file on
  disk: when a file is saved (``didSave``) or a watched file changes
  (``workspace/didChangeWatchedFiles``), the open buffers whose findings used other
  modules are linted again (each lint reads them afresh); a changed
  ``pyproject.toml`` re-lints every open buffer;
* a lint reads the buffer's own text and path only: nothing of one buffer is kept for
  another.

Documents are synchronized in full: the text the server lints is always exactly the
client's, whatever line breaks it holds.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCRequest
from pygls.protocol.language_server import lsp_method
from pygls.uris import to_fs_path

from semantics_lint.lint.core.model import Severity
from semantics_lint.lsp import lint_adapter
from semantics_lint.lsp.code_actions import CodeActions
from semantics_lint.lsp.lint_adapter import Located
from semantics_lint.lsp.positions import LineIndex, Point, Units
from semantics_lint.lsp.state import FIX_ALL_KIND, NAME, PYTHON_SUFFIXES, SOURCE, Buffer, Options, Snapshot
from semantics_lint.lsp.workers import Pool, WorkerCrashed, WorkerFailed

logger = logging.getLogger(__name__)

KILL_ABOVE = 500_000
"""Characters above which a running lint that a newer version supersedes is stopped
(its worker killed) rather than left to finish: a lint of 500,000 characters takes
about as long as a new worker takes to start (some 0.4 s)."""
FIX_WORKERS = 2
"""Workers for code actions, apart from the linting ones."""


def lint_workers() -> int:
    """Worker processes for lints: one a core, at least 2, at most 8."""
    return max(2, min(os.cpu_count() or 2, 8))


_ANSWERED = object()
"""A request that could not be read, already answered with an error."""


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, with every request answered (LSP: a client waits for each):

    * a request whose parameters cannot be read (a position below zero, a field of
      the wrong type) is answered with pygls's error for it (InvalidParams), where
      pygls would log it and leave the client waiting;
    * a request after ``shutdown`` is answered with InvalidRequest, as LSP says,
      where pygls drops it (openlawlibrary/pygls#605);
    * a ``didChange`` for a document that is not open is ignored (pygls would fail on
      it with a ``KeyError``).
    """

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Any:
        if unquote(params.text_document.uri) not in self.workspace.text_documents:
            logger.info("ignored a change to %s, which is not open", params.text_document.uri)
            return
        yield from super().lsp_text_document__did_change(params)

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            ident = data.get("id")
            if "method" not in data or not isinstance(ident, (int, str)) or isinstance(ident, bool):
                raise  # a notification or a response: nobody waits for an answer
            self._send_response(ident, error=error.to_response_error())
            return _ANSWERED

    def handle_message(self, message: Any) -> None:
        if message is _ANSWERED:
            return
        if self._shutdown and isinstance(message, RPCRequest) and message.method != types.EXIT:
            refusal = JsonRpcInvalidRequest("the server is shutting down: only exit is accepted")
            self._send_response(message.id, error=refusal.to_response_error())
            return
        super().handle_message(message)


class _LanguageServer(LanguageServer):
    """pygls's server, with its own errors logged rather than shown to the user."""

    def report_server_error(self, error: Exception, source: Any) -> None:
        # pygls would pop up "Error in server: ..." (window/showMessage, an error) for a
        # body that is not JSON, a notification it cannot read, and the like: the
        # client's mistake or ours, and nothing the user can act on. The log has it.
        logger.error("%s: %s", getattr(source, "__name__", source), error)


class SemanticsLintServer(CodeActions):
    """The server's state and handlers, over one pygls ``LanguageServer``."""

    def __init__(self) -> None:
        from semantics_lint import __version__

        self.ls = _LanguageServer(
            NAME,
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Full,
            protocol_cls=_Protocol,
        )
        self.options = Options()
        self.buffers: dict[str, Buffer] = {}
        self.shutdown_requested = False
        # Started when first needed: a server that never sees a Python buffer starts none.
        self.lints = Pool("lint", lint_workers())
        self.fixes = Pool("fix", FIX_WORKERS)
        self._register()

    # -- registration -------------------------------------------------------------

    def _register(self) -> None:
        def feature(method: str, options: Any = None) -> Callable[[Callable[..., Any]], None]:
            def register(handler: Callable[..., Any]) -> None:
                self.ls.feature(method, options)(_plain(handler))

            return register

        feature(types.INITIALIZE)(self.initialize)
        feature(types.INITIALIZED)(self.initialized)
        feature(types.SHUTDOWN)(self.shutdown)
        feature(types.TEXT_DOCUMENT_DID_OPEN)(self.did_open)
        feature(types.TEXT_DOCUMENT_DID_CHANGE)(self.did_change)
        feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))(self.did_save)
        feature(types.TEXT_DOCUMENT_DID_CLOSE)(self.did_close)
        feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)(self.did_change_watched_files)
        feature(
            types.TEXT_DOCUMENT_CODE_ACTION,
            types.CodeActionOptions(
                code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND],
                resolve_provider=True,
            ),
        )(self.code_action)
        feature(types.CODE_ACTION_RESOLVE)(self.resolve_code_action)

    # -- life cycle ---------------------------------------------------------------

    def initialize(self, params: types.InitializeParams) -> None:
        self.options = Options.read(params.initialization_options)
        logger.info("options: %s", self.options)

    async def initialized(self, _params: types.InitializedParams) -> None:
        capabilities = self.ls.client_capabilities
        workspace = capabilities.workspace
        watched = workspace.did_change_watched_files if workspace is not None else None
        if watched is None or not watched.dynamic_registration:
            return
        watchers = [
            types.FileSystemWatcher(glob_pattern="**/*.py"),
            types.FileSystemWatcher(glob_pattern="**/*.pyi"),
            types.FileSystemWatcher(glob_pattern="**/pyproject.toml"),
        ]
        registration = types.Registration(
            id=f"{NAME}-watched-files",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
        )
        try:
            await self.ls.client_register_capability_async(
                types.RegistrationParams(registrations=[registration])
            )
        except Exception:  # noqa: BLE001 - a client that refuses still gets didSave
            logger.warning("the client did not accept the file watchers", exc_info=True)

    def shutdown(self, *_args: object) -> None:
        self.shutdown_requested = True
        for buffer in self.buffers.values():
            if buffer.task is not None:
                buffer.task.cancel()
        self.close()

    def close(self) -> None:
        """Stop every worker process."""
        self.lints.close()
        self.fixes.close()

    # -- documents ----------------------------------------------------------------

    def did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        document = params.text_document
        path = self._path_of(document.uri)
        if document.language_id != "python" and not path.endswith(PYTHON_SUFFIXES):
            return  # a client that sends every document: only Python is ours
        previous = self.buffers.pop(document.uri, None)  # opened twice: the newer wins
        if previous is not None and previous.task is not None:
            previous.task.cancel()
        self.buffers[document.uri] = Buffer(document.uri, path)
        self.fixes.warm()  # the first code action finds a worker ready
        self.schedule(document.uri, delay=0.0)

    def did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        buffer = self.buffers.get(uri)
        if buffer is None:
            return
        size = _utf8_size(self.ls.workspace.get_text_document(uri).source)
        limit = self.options.lint_on_change_max_bytes
        if size > limit:
            if not buffer.told_too_big:
                buffer.told_too_big = True
                name = os.path.basename(buffer.path)
                self.ls.window_show_message(
                    types.ShowMessageParams(
                        types.MessageType.Warning,
                        f"{NAME}: {name} is {_megabytes(size)}, more than the {_megabytes(limit)}"
                        f" linted as you type: it is linted when you save it.",
                    )
                )
            return
        self.schedule(uri, delay=self.options.lint_delay)

    def did_save(self, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        buffer = self.buffers.get(uri)
        self.schedule(uri, delay=0.0)
        self.files_changed([buffer.path if buffer is not None else self._path_of(uri)], saved=uri)

    def did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        buffer = self.buffers.pop(uri, None)
        if buffer is None:
            return
        if buffer.task is not None:
            buffer.task.cancel()
        self.publish(uri, None, [])

    def did_change_watched_files(self, params: types.DidChangeWatchedFilesParams) -> None:
        paths = [path for change in params.changes if (path := to_fs_path(change.uri)) is not None]
        self.files_changed(paths)

    def files_changed(self, paths: list[str], saved: str | None = None) -> None:
        """Files changed on disk: re-lint the open buffers whose findings may change."""
        if not paths:
            return
        configuration = any(lint_adapter.is_configuration_file(path) for path in paths)
        again: list[str] = []
        for uri, buffer in list(self.buffers.items()):
            if uri == saved:
                continue  # already scheduled
            snapshot = buffer.snapshot
            # A buffer not linted yet may be reading the old file right now.
            if configuration or snapshot is None or snapshot.linted.uses_other_modules:
                self.schedule(uri, delay=0.0)
                again.append(uri)
        logger.debug(
            "changed on disk: %s; linting again: %s",
            ", ".join(paths),
            ", ".join(again) or "nothing",
        )

    def _path_of(self, uri: str) -> str:
        path = to_fs_path(uri)
        if path is not None:
            return path
        # An unsaved, untitled buffer: configured as a file in the workspace's root.
        root = self.ls.workspace.root_path or os.getcwd()
        name = os.path.basename(uri.split(":", 1)[-1]) or "untitled"
        return os.path.join(root, name if name.endswith(PYTHON_SUFFIXES) else f"{name}.py")

    # -- linting ------------------------------------------------------------------

    def schedule(self, uri: str, delay: float) -> None:
        """Lint ``uri`` after ``delay`` seconds, superseding any lint of it not yet published.

        A superseded lint that is still waiting is cancelled; one running on a worker is
        stopped when its text is large (:data:`KILL_ABOVE`) and otherwise left to finish
        with its result dropped: the new one waits for it, so that one document never
        holds two workers.
        """
        buffer = self.buffers.get(uri)
        if buffer is None:
            return
        task = buffer.task
        running_small = task is buffer.in_flight and buffer.in_flight_size <= KILL_ABOVE
        if task is not None and not task.done() and not running_small:
            task.cancel()
        buffer.generation += 1
        buffer.task = asyncio.ensure_future(self._lint_later(buffer, buffer.generation, delay))

    async def _lint_later(self, buffer: Buffer, generation: int, delay: float) -> None:
        def current() -> bool:
            return self.buffers.get(buffer.uri) is buffer and buffer.generation == generation

        if delay > 0:
            await asyncio.sleep(delay)
        while buffer.in_flight is not None and not buffer.in_flight.done():
            await asyncio.wait({buffer.in_flight})
        if not current():
            return
        document = self.ls.workspace.get_text_document(buffer.uri)
        text, version = document.source, document.version
        logger.debug("linting %s, version %s", buffer.uri, version)
        buffer.in_flight, buffer.in_flight_size = asyncio.current_task(), len(text)
        try:
            linted = await self.lints.run("lint", text, buffer.path)
        except (WorkerCrashed, WorkerFailed) as error:
            # A bug in the linter, or a worker that died twice: this version goes
            # without diagnostics; the next change lints again.
            logger.error("linting %s failed: %s", buffer.uri, error)
            return
        finally:
            if buffer.in_flight is asyncio.current_task():
                buffer.in_flight = None
        if not current():
            return  # superseded: a newer lint of this buffer is on its way
        buffer.snapshot = Snapshot(version, text, linted)
        if linted.error is not None and linted.error not in buffer.errors_shown:
            buffer.errors_shown.add(linted.error)
            self.ls.window_show_message(
                types.ShowMessageParams(types.MessageType.Error, f"{NAME}: {linted.error}")
            )
        if version is not None and buffer.published is not None and version < buffer.published:
            return  # a client that numbers versions backwards: keep the newer findings
        buffer.published = version
        index = LineIndex(text)
        self.publish(buffer.uri, version, [self.diagnostic(found, index) for found in linted.findings])

    def publish(self, uri: str, version: int | None, diagnostics: list[types.Diagnostic]) -> None:
        self.ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    def _units(self) -> Units:
        return self.ls.workspace.position_codec.client_num_units

    def _range(self, index: LineIndex, start: Point, end: Point) -> types.Range:
        units = self._units()
        start_line, start_character = index.to_client(start, units)
        end_line, end_character = index.to_client(end, units)
        return types.Range(
            start=types.Position(line=start_line, character=start_character),
            end=types.Position(line=end_line, character=end_character),
        )

    def diagnostic(self, found: Located, index: LineIndex) -> types.Diagnostic:
        finding = found.finding
        url = lint_adapter.rule_url(finding.code)
        return types.Diagnostic(
            range=self._range(index, found.start, found.end),
            # Editors show a diagnostic's text whole on hover and in their problem
            # lists: the line that says what is wrong, then the help under it.
            message=f"{finding.message}\n{finding.help}" if finding.help else finding.message,
            severity=(
                types.DiagnosticSeverity.Warning
                if finding.severity is Severity.WARNING
                else types.DiagnosticSeverity.Error
            ),
            code=finding.code,
            code_description=types.CodeDescription(href=url) if url else None,
            source=SOURCE,
        )


def _utf8_size(text: str) -> int:
    """The bytes ``text`` takes in UTF-8 (a lone surrogate as three)."""
    return len(text.encode("utf-8", errors="surrogatepass"))


def _megabytes(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"


def _plain(method: Callable[..., Any]) -> Callable[..., Any]:
    """A plain function calling ``method``: pygls marks the handlers it registers with
    attributes, which a bound method cannot carry."""
    if asyncio.iscoroutinefunction(method):

        async def call_async(*args: Any) -> Any:
            return await method(*args)

        return call_async

    def call(*args: Any) -> Any:
        return method(*args)

    return call


def serve() -> int:
    """Serve over stdin/stdout until the client says ``exit``; the process's exit code."""
    server = SemanticsLintServer()
    try:
        server.ls.start_io()
    finally:
        server.close()
    # LSP: exit after shutdown is a normal end (0); exit without it, or a client
    # that went away, is not (1).
    return 0 if server.shutdown_requested else 1
