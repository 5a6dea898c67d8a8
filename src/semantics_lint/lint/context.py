"""What the rules see of one file: the file context and each recognized call site.

The engine locates calls with CPython's ``ast`` (fast) and hands every recognized call
to the rules as a :class:`CallSite`. The declaration model is read from ``ast`` too;
LibCST parses only the pieces of a call that a rule or the resolver asks for, and
LibCST positions are computed only for a piece something is reported in. Positions
are file coordinates: 1-based lines, 0-based columns in characters (``ast`` counts
UTF-8 bytes; :meth:`FileContext.char_column` converts).

Rules that judge a whole module (tool-level rules) get the :class:`FileContext`: the
full text, the ``ast`` tree, the filename, the settings, and every call site.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from semantics_lint.lint.model import Position

if TYPE_CHECKING:
    import libcst as cst
    from libcst.metadata import CodeRange

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
    if "\r" not in text:
        return text.split("\n")  # the same split, without the regex
    return _NEWLINE.split(text)


# Statement lists of a node, the only places a statement can sit.
STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")

_DECORATED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def statements(body: Iterable[ast.stmt], skip: tuple[type[ast.AST], ...] = ()) -> Iterator[ast.AST]:
    """Every statement of ``body`` at any depth (and the except handlers and match
    cases that hold statements), without entering an expression; a node of a type
    in ``skip`` is given but not entered.

    The order is that of a depth-first walk of every node (children last-pushed
    first) with the expressions left out.
    """
    stack: list[ast.AST] = list(body)
    lists_of = _LISTS_IN_FIELD_ORDER.get
    while stack:
        node = stack.pop()
        yield node
        if skip and isinstance(node, skip):
            continue
        kind = type(node)
        names = lists_of(kind)
        if names is None:
            names = _LISTS_IN_FIELD_ORDER[kind] = _statement_lists(kind)
        for name in names:
            children = getattr(node, name)
            if isinstance(children, list):
                stack.extend(children)


def _statement_lists(kind: type) -> tuple[str, ...]:
    """The fields of ``kind`` that may hold statement lists, in ``_fields`` order."""
    return tuple(name for name in getattr(kind, "_fields", ()) if name in STATEMENT_LISTS)


# The statement lists of each node type, worked out once per type rather than by
# reading every field name of every statement (most statements hold none).
_LISTS_IN_FIELD_ORDER: dict[type, tuple[str, ...]] = {
    kind: _statement_lists(kind) for kind in vars(ast).values() if isinstance(kind, type) and issubclass(kind, ast.AST)
}


def lines_spelling(text: str, names: Iterable[str]) -> list[int] | None:
    """Sorted numbers of the lines of ``text`` on which one of ``names`` occurs as a
    word, or None when the text cannot answer for the tree.

    Every node that binds or uses a name spells it on one of its lines, so a walk may
    skip the nodes on no such line (:func:`walk_lines`). Not for a text with
    non-ASCII characters: the parser normalizes identifiers (NFKC), so a name may be
    spelled differently from what the tree holds.
    """
    if not text.isascii():
        return None
    return word_lines(text, names)


_WORD_CHARACTER = re.compile(r"\w")


def word_lines(text: str, names: Iterable[str]) -> list[int]:
    """Sorted numbers of the lines of ``text`` on which one of ``names`` occurs with
    no word character right before or after it."""
    wanted = sorted(set(names))
    if not wanted:
        return []
    starts: Iterable[int]
    if all(name and "\n" not in name and "\r" not in name for name in wanted):
        starts = _word_starts_found(text, wanted)
    elif "" in wanted:
        # An empty name matches between characters; only finditer's rules for empty
        # matches say where, so this rare case keeps the look-behind in the pattern.
        alternatives = "|".join(map(re.escape, wanted))
        pattern = re.compile(r"(?<![\w])(?:" + alternatives + r")(?![\w])")
        starts = (match.start() for match in pattern.finditer(text))
    else:
        alternatives = "|".join(map(re.escape, wanted))
        starts = _word_starts(text, re.compile("(?:" + alternatives + r")(?![\w])"))
    return lines_of(text, starts)


def lines_of(text: str, offsets: Iterable[int]) -> list[int]:
    """The numbers of the lines of ``text`` that hold ``offsets`` (ascending), each
    once, lines counted as CPython counts them (a line ends at \r\n, \r or \n)."""
    found: list[int] = []
    line = 1
    position = 0
    count = text.count
    # Line breaks are counted from one offset to the next; a text without \r needs
    # only its \n counted.
    if "\r" in text:
        for start in offsets:
            line += count("\n", position, start) + count("\r", position, start) - count("\r\n", position, start)
            position = start
            if not found or found[-1] != line:
                found.append(line)
    else:
        for start in offsets:
            line += count("\n", position, start)
            position = start
            if not found or found[-1] != line:
                found.append(line)
    return found


def _word_starts_found(text: str, names: list[str]) -> list[int]:
    """Sorted offsets at which one of ``names`` (non-empty, no line break in them)
    occurs with no word character right before or after it.

    Each name is looked for with ``str.find``, much faster than a regex of
    alternatives, which tries each name at every character. Where a regex search
    resumes after a match, this finds every occurrence, overlapping ones too: the
    extra ones lie on a line a match is on (the names hold no line break), so the
    lines are the same.
    """
    is_word = _WORD_CHARACTER.match
    find = text.find
    size = len(text)
    starts: list[int] = []
    for name in names:
        width = len(name)
        position = find(name)
        while position != -1:
            end = position + width
            if (not position or not is_word(text, position - 1)) and (end == size or not is_word(text, end)):
                starts.append(position)
            position = find(name, position + 1)
    starts.sort()
    return starts


def _word_starts(text: str, pattern: re.Pattern[str]) -> Iterator[int]:
    """Where ``pattern`` (non-empty names, a look-ahead after them) matches with no
    word character before it: the matches a look-behind for one would give.

    The check is made here because a look-behind in front of the names keeps the
    regex engine from skipping ahead to the characters the names can start with,
    which made the search about twice as slow. A match refused here is searched
    again one character further on, as the look-behind would have done.
    """
    search = pattern.search
    is_word = _WORD_CHARACTER.match
    position = 0
    while (match := search(text, position)) is not None:
        start = match.start()
        if start and is_word(text, start - 1):
            position = start + 1
            continue
        yield start
        position = match.end()


def walk_lines(tree: ast.AST, lines: list[int]) -> Iterator[ast.AST]:
    """The nodes of ``tree`` that :func:`ast.walk` gives, less every subtree whose
    lines hold none of ``lines`` (sorted).

    A node's children sit inside its lines, except decorators (before the ``def``
    line), which count as the node's own lines. Below an f-string nothing is skipped:
    the positions of expressions inside f-strings are not to be trusted on every
    Python version.
    """
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        first = getattr(node, "lineno", None)
        if first is not None:
            if isinstance(node, _DECORATED) and node.decorator_list:
                first = min(first, node.decorator_list[0].lineno)
            index = bisect_left(lines, first)
            last = getattr(node, "end_lineno", None) or first
            if index == len(lines) or lines[index] > last:
                continue
        if isinstance(node, ast.JoinedStr):
            yield from ast.walk(node)
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def contains(root: ast.AST, node: ast.AST) -> bool:
    """True when ``node`` is ``root`` or one of its descendants (by identity).

    Descends only into children whose position range holds ``node``'s (a node lies
    within its parent's range), so the answer costs a path, not a walk of ``root``.
    A node without a position, and everything under an f-string (whose inner
    positions are not to be trusted on every Python version), is entered whatever
    its range.
    """
    if node is root:
        return True
    line = getattr(node, "lineno", None)
    if line is None:
        return any(candidate is node for candidate in ast.walk(root))
    start = (line, node.col_offset)  # type: ignore[attr-defined]
    end = (node.end_lineno or line, node.end_col_offset or 0)  # type: ignore[attr-defined]
    stack: list[tuple[ast.AST, bool]] = [(root, False)]
    while stack:
        current, blind = stack.pop()
        blind = blind or isinstance(current, ast.JoinedStr)
        for child in ast.iter_child_nodes(current):
            if child is node:
                return True
            child_line = getattr(child, "lineno", None)
            if blind or child_line is None:
                stack.append((child, blind))
                continue
            child_start = (child_line, child.col_offset)  # type: ignore[attr-defined]
            child_end = (child.end_lineno or child_line, child.end_col_offset or 0)  # type: ignore[attr-defined]
            if child_start <= start and end <= child_end:
                stack.append((child, blind))
    return False


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
    # Plain assignments and imports of one scope's statements (module level, or one
    # function's body), read once per file however many calls ask; see
    # ``declaration.assigned_values``. Keyed by the id of the function node (0 for the
    # module): the tree keeps those nodes alive as long as this context.
    scope_assignments: dict[int, ScopeAssignments] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not self.lines:
            self.lines = split_lines(self.text)

    def char_column(self, line: int, byte_column: int) -> int:
        """The 0-based character column of a UTF-8 byte offset on 1-based ``line``."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if text.isascii():
            return byte_column
        return len(text.encode("utf-8")[:byte_column].decode("utf-8", errors="ignore"))

    def segment(self, start: Position, end: Position) -> str:
        """The source text between two positions, lines joined with ``\\n``."""
        lines = self.lines
        if start.line == end.line:
            return lines[start.line - 1][start.column : end.column]
        parts = [lines[start.line - 1][start.column :]]
        parts.extend(lines[start.line : end.line - 1])
        parts.append(lines[end.line - 1][: end.column])
        return "\n".join(parts)

    def ast_range(self, node: ast.expr | ast.stmt) -> tuple[Position, Position]:
        """Start and end of an ``ast`` node in file coordinates (character columns)."""
        start = Position(node.lineno, self.char_column(node.lineno, node.col_offset))
        end_line = node.end_lineno if node.end_lineno is not None else node.lineno
        end_col = node.end_col_offset if node.end_col_offset is not None else node.col_offset
        return start, Position(end_line, self.char_column(end_line, end_col))


@dataclass(eq=False, slots=True)
class ScopeAssignments:
    """What the statements of one scope bind by plain assignment, and what they import.

    ``values`` maps a name to the values assigned to it, in the order a depth-first
    walk of the statements meets them; ``imported`` holds every name an import binds.
    """

    values: dict[str, list[ast.expr]]
    imported: set[str]


@dataclass(eq=False)
class _Parsed:
    """One LibCST parse of a piece of a call: its module, root, and where it starts."""

    module: cst.Module
    root: cst.BaseExpression
    start: Position
    positions: Mapping[cst.CSTNode, CodeRange] | None = None


@dataclass(eq=False)
class CallSite:
    """One recognized call of the declaration API in a file.

    ``spelled`` is the callee as written (``absent``, ``rt.absent``, ``cov``);
    ``function`` the innermost enclosing function or lambda (None at module level);
    ``node`` the ``ast.Call``. LibCST is paid for only on demand, piece by piece:
    :meth:`cst_of` parses the source of one ``ast`` expression of the call (a field's
    value, say) and :attr:`cst` the whole call; :meth:`range_of` gives the file
    positions of a node of any of those parses.
    """

    context: FileContext
    kind: CallKind
    spelled: str
    node: ast.Call
    function: FunctionNode | None
    start: Position = field(init=False)
    end: Position = field(init=False)
    _parsed: dict[int, _Parsed] = field(default_factory=dict, init=False, repr=False)
    _resolver: Resolver | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.start, self.end = self.context.ast_range(self.node)

    @property
    def func_node(self) -> ast.expr:
        """The callee expression (``ast``): where a missing-field finding is reported."""
        return self.node.func

    @property
    def segment(self) -> str:
        """The call's source text, lines joined with ``\\n``."""
        return self.context.segment(self.start, self.end)

    @property
    def cst(self) -> cst.Call:
        """The whole call parsed with LibCST (raises :class:`CallParseError`)."""
        node = self.cst_of(self.node)
        assert isinstance(node, _libcst().Call)
        return node

    def cst_of(self, node: ast.expr) -> cst.BaseExpression:
        """The LibCST node of one ``ast`` expression of this call, parsed from its source.

        Parsed once per expression and cached; raises :class:`CallParseError` when
        LibCST cannot parse it (too deep, or syntax LibCST does not support).
        """
        cached = self._parsed.get(id(node))
        if cached is not None:
            return cached.root
        libcst = _libcst()
        start, end = self.context.ast_range(node)
        text = self.context.segment(start, end)
        # Parenthesized, the piece parses as one expression statement whatever the
        # indentation of its continuation lines; the "(" shifts its first line by one.
        try:
            module = libcst.parse_module("(" + text + ")\n")
        except libcst.ParserSyntaxError as exc:
            raise CallParseError(_first_line(str(exc))) from exc
        except RecursionError as exc:
            raise CallParseError("it is nested too deeply for LibCST") from exc
        statement = module.body[0]
        if not isinstance(statement, libcst.SimpleStatementLine) or not isinstance(
            statement.body[0], libcst.Expr
        ):
            raise CallParseError("its source is not one expression")
        root = statement.body[0].value
        self._parsed[id(node)] = _Parsed(module, root, start)
        return root

    def release(self) -> None:
        """Drop this call's parses and resolver: they refer back to the call."""
        self._parsed.clear()
        self._resolver = None

    @property
    def resolver(self) -> Resolver:
        """The resolver for expressions of this call (made on first use)."""
        if self._resolver is None:
            from semantics_lint.lint.resolve import Resolver

            self._resolver = Resolver(self)
        return self._resolver

    def range_of(self, node: cst.CSTNode | ast.AST) -> tuple[Position, Position]:
        """File positions (start, end) of an ``ast`` node of the file or a LibCST node
        of one of this call's parses; KeyError for a LibCST node of neither.

        LibCST positions are computed once per parse, and only when something asks:
        ``PositionProvider`` re-renders the code it measures.
        """
        if isinstance(node, ast.AST):
            return self.context.ast_range(node)  # type: ignore[arg-type]
        for parsed in self._parsed.values():
            if parsed.positions is None:
                from libcst.metadata import MetadataWrapper, PositionProvider

                wrapper = MetadataWrapper(parsed.module, unsafe_skip_copy=True)
                parsed.positions = wrapper.resolve(PositionProvider)
            code_range = parsed.positions.get(node)
            if code_range is not None:
                return _to_file(parsed.start, code_range.start.line, code_range.start.column), _to_file(
                    parsed.start, code_range.end.line, code_range.end.column
                )
        raise KeyError(node)


def _to_file(start: Position, line: int, column: int) -> Position:
    if line == 1:
        # Undo the "(" added before the piece.
        return Position(start.line, start.column + column - 1)
    return Position(start.line + line - 1, column)


def _libcst():  # type: ignore[no-untyped-def]
    import libcst

    return libcst


def _first_line(text: str) -> str:
    stripped = text.strip()
    return stripped.splitlines()[0] if stripped else "LibCST cannot parse this call"
