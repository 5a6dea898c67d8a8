"""What the rules see of one file: the file context and each recognized call site.

The engine parses a file with CPython's ``ast``, indexes it (``lint.index``) and
locates the calls of ours (``lint.locate``); every recognized call reaches the rules as
a :class:`CallSite`. Positions are file coordinates: 1-based lines, 0-based columns in
characters (``ast`` counts UTF-8 bytes; :meth:`FileContext.ast_range` converts).

Rules that judge a whole module (tool-level rules) get the :class:`FileContext`: the
text, the ``ast`` tree and its index, the filename, the settings, every call site, and
the file's resolver. Everything here belongs to one file and goes with it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from semantics_lint import vocabulary
from semantics_lint.lint.core.index import FileIndex, Scope
from semantics_lint.lint.core.model import Position
from semantics_lint.lint.core.settings import LintSettings
from semantics_lint.lint.core.source import Source
from semantics_lint.lint.resolve import ProjectCache, Resolver

__all__ = ["CallKind", "CallSite", "FileContext", "FunctionNode"]

CallKind = Literal["described_result", "absent", "coverage", "define_tool"]
"""What a recognized call is, whatever name or alias it was called through."""

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


@dataclass(eq=False)
class FileContext:
    """One decoded, parsed and indexed file: everything a rule may read."""

    filename: str
    text: str
    tree: ast.Module
    settings: LintSettings
    index: FileIndex
    calls: list[CallSite] = field(default_factory=list)
    memo: dict[object, object] = field(default_factory=dict, repr=False)
    """Answers about the whole file that several rules share, made once (keyed by what
    they answer); they go with the file."""
    project: ProjectCache | None = field(default=None, repr=False)
    """The run's cache of other modules of the project (the resolver's own when None)."""
    source: Source = field(init=False, repr=False)
    _resolver: Resolver | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.source = Source(self.text)

    @property
    def lines(self) -> list[str]:
        """The file's lines as CPython numbers them."""
        return self.source.lines

    def char_column(self, line: int, byte_column: int) -> int:
        """The 0-based character column of a UTF-8 byte offset on 1-based ``line``."""
        return self.source.char_column(line, byte_column)

    def segment(self, start: Position, end: Position) -> str:
        """The source text between two positions, lines joined with ``\\n``."""
        return self.source.segment(start, end)

    def ast_range(self, node: ast.expr | ast.stmt) -> tuple[Position, Position]:
        """Start and end of an ``ast`` node of the file (character columns)."""
        return self.source.range_of(node)

    @property
    def resolver(self) -> Resolver:
        """The file's resolver (made on first use): what names provably hold."""
        if self._resolver is None:
            names = frozenset((*self.settings.call_names, *vocabulary.API_FUNCTIONS))
            self._resolver = Resolver(self.source, self.tree, self.index, self.filename, names, self.project)
        return self._resolver

    def release(self) -> None:
        """Break the references between the file and its call sites once its findings
        are made, so that reference counting frees the file's trees at once."""
        self.calls = []
        self.memo.clear()
        self._resolver = None


@dataclass(eq=False)
class CallSite:
    """One recognized call of the declaration API in a file.

    ``spelled`` is the callee as written (``absent``, ``rt.absent``, ``cov``);
    ``function`` the innermost enclosing function or lambda (None at module level);
    ``scope`` the scope the call is written in; ``node`` the ``ast.Call``.
    """

    context: FileContext
    kind: CallKind
    spelled: str
    node: ast.Call
    function: FunctionNode | None
    scope: Scope

    @cached_property
    def _range(self) -> tuple[Position, Position]:
        return self.context.ast_range(self.node)

    @property
    def start(self) -> Position:
        """Where the call starts in the file."""
        return self._range[0]

    @property
    def end(self) -> Position:
        """Where the call ends in the file."""
        return self._range[1]

    @property
    def func_node(self) -> ast.expr:
        """The callee expression: where a missing-field finding is reported."""
        return self.node.func

    @property
    def segment(self) -> str:
        """The call's source text, lines joined with ``\\n``."""
        return self.context.segment(self.start, self.end)

    @property
    def resolver(self) -> Resolver:
        """The file's resolver."""
        return self.context.resolver

    def holds(self, node: ast.AST) -> bool:
        """True for a name (or dotted name) written in this call, False for one of a
        value followed from elsewhere: nodes nest by position, and a followed value of
        this file is bound outside every call that reads it."""
        if self.context.resolver.reading_of(node) is not self.context.resolver.main:
            return False
        call = self.node
        start = (node.lineno, node.col_offset)  # type: ignore[attr-defined]
        return (call.lineno, call.col_offset) <= start < (call.end_lineno or 0, call.end_col_offset or 0)
