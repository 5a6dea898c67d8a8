"""What the rules see of one file: the file context and each recognized call site.

The engine locates calls with CPython's ``ast`` (fast) and hands every recognized call
to the rules as a :class:`CallSite`. A call site parses only its own source segment
with LibCST, on first use, and computes positions only when something is reported in
it; positions are mapped back to file coordinates (1-based lines, 0-based columns in
characters, where ``ast`` counts UTF-8 bytes).

Rules that judge a whole module (tool-level rules) get the :class:`FileContext`: the
full text, the ``ast`` tree, the filename, the settings, and every call site.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from semantics_lint.lint.model import Position

if TYPE_CHECKING:
    import libcst as cst

    from semantics_lint.lint.engine import LintSettings
    from semantics_lint.lint.resolve import Resolver

CallKind = Literal["described_result", "absent", "coverage", "define_tool"]
"""What a recognized call is, whatever name or alias it was called through."""

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda

# CPython's tokenizer ends a line at \r\n, \r or \n, and only there; str.splitlines
# would also split at form feeds and Unicode separators and shift every line number.
_NEWLINE = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as CPython numbers them, without their line endings."""
    return _NEWLINE.split(text)


class CallParseError(Exception):
    """LibCST could not parse a call that CPython accepted (too deep, or unsupported)."""


@dataclass(eq=False)
class FileContext:
    """One decoded, parsed file: everything a rule or the resolver may read."""

    filename: str
    text: str
    tree: ast.Module
    settings: LintSettings
    lines: list[str] = field(default_factory=list)
    calls: list[CallSite] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.lines:
            self.lines = split_lines(self.text)

    def char_column(self, line: int, byte_column: int) -> int:
        """The 0-based character column of a UTF-8 byte offset on 1-based ``line``."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if text.isascii():
            return byte_column
        return len(text.encode("utf-8")[:byte_column].decode("utf-8", errors="ignore"))

    def ast_range(self, node: ast.expr | ast.stmt) -> tuple[Position, Position]:
        """Start and end of an ``ast`` node in file coordinates (character columns)."""
        start = Position(node.lineno, self.char_column(node.lineno, node.col_offset))
        end_line = node.end_lineno if node.end_lineno is not None else node.lineno
        end_col = node.end_col_offset if node.end_col_offset is not None else node.col_offset
        return start, Position(end_line, self.char_column(end_line, end_col))


@dataclass(eq=False)
class CallSite:
    """One recognized call of the declaration API in a file.

    ``spelled`` is the callee as written (``absent``, ``rt.absent``, ``cov``);
    ``function`` the innermost enclosing function or lambda (None at module level).
    The LibCST node (:attr:`cst`) is parsed from the call's own source segment on
    first access; :meth:`range_of` gives file positions of any node inside it.
    """

    context: FileContext
    kind: CallKind
    spelled: str
    node: ast.Call
    function: FunctionNode | None
    start: Position = field(init=False)
    end: Position = field(init=False)
    _cst: cst.Call | None = field(default=None, init=False, repr=False)
    _module: cst.Module | None = field(default=None, init=False, repr=False)
    _positions: object = field(default=None, init=False, repr=False)
    _resolver: Resolver | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.start, self.end = self.context.ast_range(self.node)

    @property
    def segment(self) -> str:
        """The call's source text, lines joined with ``\\n``."""
        lines = self.context.lines
        if self.start.line == self.end.line:
            return lines[self.start.line - 1][self.start.column : self.end.column]
        parts = [lines[self.start.line - 1][self.start.column :]]
        parts.extend(lines[self.start.line : self.end.line - 1])
        parts.append(lines[self.end.line - 1][: self.end.column])
        return "\n".join(parts)

    @property
    def cst(self) -> cst.Call:
        """The call parsed with LibCST (raises :class:`CallParseError` if it cannot be)."""
        if self._cst is None:
            import libcst

            # Parenthesized, the segment parses as one expression statement whatever
            # the indentation of its continuation lines; the "(" shifts line 1 by one.
            try:
                module = libcst.parse_module("(" + self.segment + ")\n")
            except libcst.ParserSyntaxError as exc:
                raise CallParseError(_first_line(str(exc))) from exc
            except RecursionError as exc:
                raise CallParseError("the call is nested too deeply for LibCST") from exc
            statement = module.body[0]
            assert isinstance(statement, libcst.SimpleStatementLine)
            expr = statement.body[0]
            assert isinstance(expr, libcst.Expr)
            call = expr.value
            if not isinstance(call, libcst.Call):
                raise CallParseError("the call's source segment is not a call")
            self._module = module
            self._cst = call
        return self._cst

    @property
    def func_node(self) -> cst.BaseExpression:
        """The callee expression: where a missing-field finding is reported."""
        return self.cst.func

    @property
    def resolver(self) -> Resolver:
        """The resolver for expressions of this call (made on first use)."""
        if self._resolver is None:
            from semantics_lint.lint.resolve import Resolver

            self._resolver = Resolver(self)
        return self._resolver

    def range_of(self, node: cst.CSTNode) -> tuple[Position, Position]:
        """File positions (start, end) of a node of :attr:`cst`.

        Positions are computed once per call, and only for calls with something to
        report: LibCST's ``PositionProvider`` re-renders the code it measures.
        """
        if self._positions is None:
            from libcst.metadata import MetadataWrapper, PositionProvider

            self.cst  # parse first if nobody has yet
            assert self._module is not None
            wrapper = MetadataWrapper(self._module, unsafe_skip_copy=True)
            self._positions = wrapper.resolve(PositionProvider)
        code_range = self._positions[node]  # type: ignore[index]
        return self._to_file(code_range.start.line, code_range.start.column), self._to_file(
            code_range.end.line, code_range.end.column
        )

    def _to_file(self, line: int, column: int) -> Position:
        if line == 1:
            # Undo the "(" added before the segment.
            return Position(self.start.line, self.start.column + column - 1)
        return Position(self.start.line + line - 1, column)


def _first_line(text: str) -> str:
    stripped = text.strip()
    return stripped.splitlines()[0] if stripped else "LibCST cannot parse this call"
