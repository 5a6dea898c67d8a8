"""One module as the resolver reads it: its text, its tree and its index, and where it is.

The linted file is read this way (``display`` None: its bindings are named ``line N``),
and so is each project module a name is followed into (``display`` is its path from
the project's source root: ``pkg/constants.py``). A value followed to is a node of the
module's own tree: nothing is parsed again from text.
"""

from __future__ import annotations

import ast

from semantics_lint.lint.core.index import FileIndex, build_index
from semantics_lint.lint.core.source import Source, decode_source, parse_module
from semantics_lint.reading import read_regular

__all__ = ["MAX_MODULE_BYTES", "ModuleReading", "read_module"]

MAX_MODULE_BYTES = 2_000_000
"""An imported module larger than this is not read: its names are unknown."""


class ModuleReading:
    """A module's text, tree and index; ``path`` is its absolute path when it is a real
    file (imports are followed only from real files)."""

    __slots__ = ("display", "index", "path", "source", "tree")

    def __init__(
        self,
        source: Source,
        tree: ast.Module,
        index: FileIndex,
        path: str | None,
        display: str | None,
    ) -> None:
        self.source = source
        self.tree = tree
        self.index = index
        self.path = path
        self.display = display

    def origin(self, line: int) -> str:
        """How a message names line ``line`` of this module."""
        return f"line {line}" if self.display is None else f"{self.display}:{line}"

    def excerpt(self, node: ast.expr) -> str:
        """The node's source on one line, at most 60 characters."""
        text = " ".join(self.source.text_of(node).split())
        return text if len(text) <= 60 else text[:57] + "..."


def read_module(path: str, size: int, declaration_names: frozenset[str]) -> ModuleReading | None:
    """A project module read from disk, or None when it cannot be read, decoded or
    parsed, or is too large (its names are then unknown)."""
    if size > MAX_MODULE_BYTES:
        return None
    try:  # a regular file within the limit, never a blocking open (semantics_lint/reading.py)
        data = read_regular(path, MAX_MODULE_BYTES)
    except OSError:
        return None
    text = decode_source(data)
    if not isinstance(text, str):
        return None
    try:
        tree = parse_module(text, path)
        index = build_index(tree, declaration_names)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return ModuleReading(Source(text), tree, index, path, display=None)
