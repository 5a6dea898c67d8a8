"""The language server's code actions: a quickfix per fixable finding, and fix-all.

Answered from the last lint of the document, never a lint on demand (see
:mod:`semantics_lint.lsp.server`); the fixes run on the server's fix workers.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from lsprotocol import types

from semantics_lint.lsp.lint_adapter import FixFailed, Located
from semantics_lint.lsp.positions import LineIndex, Replacement
from semantics_lint.lsp.state import FIX_ALL_KIND, NAME, Buffer, Snapshot
from semantics_lint.lsp.workers import WorkerCrashed, WorkerFailed

if TYPE_CHECKING:  # pragma: no cover - typing only
    from pygls.lsp.server import LanguageServer

    from semantics_lint.lsp.positions import Point, Units
    from semantics_lint.lsp.state import Options
    from semantics_lint.lsp.workers import Pool

logger = logging.getLogger("semantics_lint.lsp.server")


class CodeActions:
    """The code-action handlers of :class:`semantics_lint.lsp.server.SemanticsLintServer`
    (a part of it: they read its buffers, options, client and fix workers)."""

    ls: LanguageServer
    buffers: dict[str, Buffer]
    options: Options
    fixes: Pool

    def _units(self) -> Units:
        raise NotImplementedError

    def _range(self, index: LineIndex, start: Point, end: Point) -> types.Range:
        raise NotImplementedError

    def diagnostic(self, found: Located, index: LineIndex) -> types.Diagnostic:
        raise NotImplementedError

    def _current_snapshot(self, uri: str) -> tuple[Buffer, Snapshot] | None:
        """The buffer and its last lint, if that lint is of the buffer's current text.

        Never a lint on demand: while the buffer has changed since its last lint, the
        next one is on its way, and its findings are what code actions must use.
        """
        buffer = self.buffers.get(uri)
        if buffer is None or buffer.snapshot is None:
            return None
        snapshot = buffer.snapshot
        if snapshot.text != self.ls.workspace.get_text_document(uri).source:
            return None
        return buffer, snapshot

    def _wanted(self, only: list[str] | None, kind: str) -> bool:
        if only is None:
            return True
        return any(kind == wanted or kind.startswith(f"{wanted}.") for wanted in only)

    async def code_action(self, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        uri = params.text_document.uri
        if uri not in self.buffers:
            return None
        current = self._current_snapshot(uri)
        if current is None:
            return []
        buffer, snapshot = current
        only = [str(getattr(kind, "value", kind)) for kind in params.context.only or ()] or None
        index = LineIndex(snapshot.text)
        units = self._units()
        start = index.from_client(params.range.start.line, params.range.start.character, units)
        end = index.from_client(params.range.end.line, params.range.end.character, units)
        actions: list[types.CodeAction] = []

        if self._wanted(only, types.CodeActionKind.QuickFix.value):
            under = tuple(
                found
                for found in snapshot.linted.findings
                if found.fixable
                and (self.options.unsafe_fixes or not found.unsafe)
                and (found.start.line, found.start.character) <= (end.line, end.character)
                and (found.end.line, found.end.character) >= (start.line, start.character)
            )
            if under:
                actions.extend(await self._quickfixes(buffer, snapshot, under, index))

        safe_fixes = any(found.fixable and not found.unsafe for found in snapshot.linted.findings)
        if safe_fixes and self._wanted(only, FIX_ALL_KIND):
            action = types.CodeAction(
                title=f"{NAME}: fix all safe fixes",
                kind=FIX_ALL_KIND,
                data={"uri": uri, "version": snapshot.version},
            )
            if not self._client_resolves_edits():
                action = await self.resolve_code_action(action)
            actions.append(action)
        return actions

    async def _quickfixes(
        self, buffer: Buffer, snapshot: Snapshot, under: tuple[Located, ...], index: LineIndex
    ) -> list[types.CodeAction]:
        try:
            fixes = await self.fixes.run("quick_fixes", snapshot.text, buffer.path, under)
        except (WorkerCrashed, WorkerFailed) as error:
            logger.error("%s: no quick fixes: %s", buffer.uri, error)
            return []
        actions: list[types.CodeAction] = []
        for found, changes in zip(under, fixes, strict=True):
            fix = found.finding.fix
            assert fix is not None
            if isinstance(changes, str):
                logger.warning("%s: no quick fix for %s: %s", buffer.uri, found.finding.code, changes)
                continue
            if not changes:
                continue
            title = f"{fix.message} ({found.finding.code})"
            if found.unsafe:
                title += " [unsafe fix]"
            actions.append(
                types.CodeAction(
                    title=title,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[self.diagnostic(found, index)],
                    is_preferred=not found.unsafe,
                    edit=self._workspace_edit(buffer.uri, snapshot.version, index, changes),
                )
            )
        return actions

    async def resolve_code_action(self, action: types.CodeAction) -> types.CodeAction:
        """Fill in the edit of ``source.fixAll.semantics-lint``: computed only when chosen,
        and only for the text it was offered on (otherwise the action is left without
        an edit: applying it does nothing)."""
        data = action.data if isinstance(action.data, dict) else {}
        uri = data.get("uri")
        if action.kind != FIX_ALL_KIND or not isinstance(uri, str) or action.edit is not None:
            return action
        current = self._current_snapshot(uri)
        if current is None or current[1].version != data.get("version"):
            return action
        buffer, snapshot = current
        if not snapshot.fix_all:
            try:
                changes = await self.fixes.run("fix_all", snapshot.text, buffer.path)
            except FixFailed as error:
                self.ls.window_show_message(
                    types.ShowMessageParams(types.MessageType.Error, f"{NAME}: {error}")
                )
                return action
            except (WorkerCrashed, WorkerFailed) as error:
                logger.error("%s: no fix-all: %s", uri, error)
                return action
            if not snapshot.fix_all:
                snapshot.fix_all.append(changes)
        if snapshot.fix_all[0]:
            index = LineIndex(snapshot.text)
            action.edit = self._workspace_edit(uri, snapshot.version, index, snapshot.fix_all[0])
        return action

    def _client_resolves_edits(self) -> bool:
        document = self.ls.client_capabilities.text_document
        code_action = document.code_action if document is not None else None
        resolve = code_action.resolve_support if code_action is not None else None
        return resolve is not None and "edit" in resolve.properties

    def _workspace_edit(
        self, uri: str, version: int | None, index: LineIndex, changes: Sequence[Replacement]
    ) -> types.WorkspaceEdit:
        edits = [
            types.TextEdit(range=self._range(index, change.start, change.end), new_text=change.text)
            for change in changes
        ]
        workspace = self.ls.client_capabilities.workspace
        workspace_edit = workspace.workspace_edit if workspace is not None else None
        if workspace_edit is not None and workspace_edit.document_changes:
            # Versioned: the client refuses the edit if the buffer changed meanwhile.
            identifier = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
            return types.WorkspaceEdit(
                document_changes=[types.TextDocumentEdit(text_document=identifier, edits=edits)]
            )
        return types.WorkspaceEdit(changes={uri: edits})
