"""A recognized call read as a declaration: its parts, their fields, its data rows.

The rules judge this model rather than raw syntax, so that every rule reads keys the
same way:

* a key is classified once per part: a ``field`` of the part, a ``snake`` spelling of
  one (``measured_at``), a ``derived`` field (``note``, ``notCovered``), or
  ``unknown``; :meth:`Part.get` finds a field by the camelCase name it means, so
  ``provenance={"measured_at": t}`` *has* ``measuredAt`` for every rule but SEM102;
* a part that may hold keys the source does not show (``**spread``, a computed key,
  a positional that is not a dict literal) is ``open``: a rule never reports a missing
  field of an open part; a literal key that is not a string (``{1: "y"}``) is an
  ``unknown`` key, spelled as ``str`` writes it, and hides nothing;
* a key written twice is read as Python builds the dict: the last one; a key of a
  dict display written before a ``**spread`` or a computed key is still in the dict,
  but its value may be replaced: it is kept apart (:attr:`Part.replaced`), for the
  rules that judge a key by its spelling alone (``Selector.spelling``), and no other
  rule reads it. A key of a ``dict(...)`` call is never replaced (a spread holding it
  too raises ``TypeError``): it is read as written;
* a ``define_tool(...)`` call is one part, its keys those of ``vocabulary.TOOL_FIELDS``
  (the key rules judge its keys; the tool rules read its ``name``, ``resultClass`` and
  ``execute`` through ``lint.calls.tools``);
* parts are the call's top level (keywords, or one positional dict), and the dict
  literals or ``dict(...)`` calls under grain, provenance, coverage, clarify,
  render, period and its ``queried``/``held`` spans, and the dict items of the
  coverage lists and of ``inProgress``. Anything else is a value the rules leave to
  the resolver.

The model is read from the ``ast`` tree the engine already has, which costs next to
nothing; a field's value is :attr:`Field.value_ast` (:meth:`Field.literal` for its
Python value when it is written as a literal).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, get_args

from semantics_lint import vocabulary
from semantics_lint.lint.calls.context import CallSite, FileContext
from semantics_lint.lint.core.model import Position
from semantics_lint.lint.core.syntax import is_dict_form, iter_dict_items, last_wins, literal_value

if TYPE_CHECKING:
    from semantics_lint.lint.resolve import Resolved

FieldStatus = Literal["field", "snake", "derived", "unknown"]
FIELD_STATUSES: frozenset[str] = frozenset(get_args(FieldStatus))


NESTED_PARTS: dict[str, dict[str, str]] = {
    "described_result": {
        "grain": "grain",
        "provenance": "provenance",
        "coverage": "described_result.coverage",
        "clarify": "clarify",
        "render": "render",
    },
    "coverage": {"period": "period"},
    "period": {"queried": "period_span", "held": "period_span"},
}
# Parts whose coverage lists (checked, notChecked, cannotCover) hold coverage items.
_ITEM_LIST_PARTS = frozenset({"absent", "coverage", "described_result.coverage"})
# Parts of items in a list, by the kind of part holding the list and the list's field.
_ITEM_KINDS: dict[str, dict[str, str]] = {
    part: {field: "coverage_item" for field in vocabulary.COVERAGE_LIST_FIELDS} for part in _ITEM_LIST_PARTS
}
_ITEM_KINDS["coverage"]["inProgress"] = "in_progress_item"
# Parts whose keys are never derived fields: a key there is a field or unknown.
_NO_DERIVED = frozenset({"coverage_item", "period_span", "in_progress_item", "define_tool"})
# The keys of every part: a ``define_tool(...)`` definition is read as one part too.
_PART_FIELDS: dict[str, tuple[str, ...]] = {
    **vocabulary.PART_FIELDS,
    "define_tool": vocabulary.TOOL_FIELDS,
}


def fields_of_part(kind: str) -> tuple[str, ...]:
    """The fields (camelCase) a ``kind`` part may hold."""
    return _PART_FIELDS[kind]


def _parts_of(kind: str) -> frozenset[str]:
    found = {kind}
    for child in (*NESTED_PARTS.get(kind, {}).values(), *_ITEM_KINDS.get(kind, {}).values()):
        found |= _parts_of(child)
    return frozenset(found)


PARTS_OF_CALL: dict[str, frozenset[str]] = {
    kind: _parts_of(kind) for kind in ("described_result", "absent", "coverage", "define_tool")
}
"""The kinds of part each kind of call may hold, its top level included."""
NAMEABLE_PARTS: frozenset[str] = frozenset(
    kind for nested in NESTED_PARTS.values() for kind in nested.values()
)
"""The kinds of part a call may give as a name bound to a dict (``provenance=prov``)."""
# A key token the fix may respell: one plain string literal on one line.
_SIMPLE_STRING = re.compile(r"""^(?P<prefix>[rRuU]?)(?P<quote>['"])(?P<body>[^'"\\\r\n]*)(?P=quote)$""")


@dataclass(eq=False, slots=True)
class Field:
    """One key of a part, as written, with the field it means.

    ``key_ast`` is the key's ``ast`` node (an ``ast.keyword`` for a keyword argument,
    else the key expression); report a key finding at ``field`` itself (its range is
    the key's name or string). ``value_ast`` is the value's ``ast`` expression.
    """

    part: Part
    spelled: str
    name: str
    status: FieldStatus
    key_ast: ast.keyword | ast.expr
    value_ast: ast.expr
    key: object = None
    """The key as Python holds it (the spelling, or a literal that is not a string)."""

    @property
    def path(self) -> str:
        """``provenance.measured_at``: the field as the caller spelled it, in its part."""
        return f"{self.part.path}.{self.spelled}" if self.part.path else self.spelled

    @property
    def is_keyword(self) -> bool:
        return isinstance(self.key_ast, ast.keyword)

    @property
    def call(self) -> CallSite:
        return self.part.declaration.call

    @property
    def borrowed(self) -> bool:
        """True for a key of a part given as a name: it is written elsewhere."""
        return self.part.anchor is not None

    @property
    def range(self) -> tuple[Position, Position]:
        """Where the key is written: the keyword's name, or the whole key literal (for
        a key of a part given as a name, in the dict the name is bound to)."""
        context = self.call.context
        if isinstance(self.key_ast, ast.keyword):
            line = self.key_ast.lineno
            column = context.char_column(line, self.key_ast.col_offset)
            return Position(line, column), Position(line, column + len(self.spelled))
        return context.ast_range(self.key_ast)

    def key_token_range(self) -> tuple[Position, Position] | None:
        """The range of the key's spelling alone (inside the quotes), when the key is a
        keyword or one plain single-line string literal; None otherwise (a fix would be
        a guess: escapes, implicit concatenation, a multi-line string)."""
        if self.borrowed:
            return None  # the edit would be at the binding, maybe in another file
        start, end = self.range
        if self.is_keyword:
            return start, end
        if start.line != end.line:
            return None
        text = self.call.context.segment(start, end)
        match = _SIMPLE_STRING.match(text)
        if match is None or match.group("body") != self.spelled:
            return None
        inner = len(match.group("prefix")) + 1
        return Position(start.line, start.column + inner), Position(end.line, end.column - 1)

    def literal(self) -> object:
        """The value as a Python object when it is written as a literal, else UNKNOWN."""
        return literal_value(self.value_ast)


@dataclass(eq=False, slots=True)
class Part:
    """A dict of declaration fields: the call's top level or a nested part."""

    kind: str
    path: str
    node: ast.expr
    declaration: Declaration
    parent: Field | None
    fields: list[Field] = field(default_factory=list)
    open: bool = False
    replaced: list[Field] = field(default_factory=list)
    """Keys of a dict display written before a ``**spread`` or a computed key: in the
    dict whatever it holds, their values maybe not. Only spelling rules read them."""
    anchor: ast.expr | None = None
    """For a part given as a name: that name in the call, where its findings go."""
    via: Resolved | None = None
    """For a part given as a name: how it was followed (``via.describe()``)."""

    @property
    def bound(self) -> str:
        """`` (prov = {...} (line 73))`` for a part given as a name; else empty."""
        return f" ({self.via.describe()})" if self.via is not None else ""

    @property
    def allowed(self) -> tuple[str, ...]:
        """The declaration fields this part may hold (camelCase)."""
        return _PART_FIELDS[self.kind]

    @property
    def title(self) -> str:
        """How a message names this part: ``provenance`` in ``described_result(...)``."""
        call = f"{self.declaration.call.spelled}(...)"
        return f"`{self.path}` in {call}" if self.path else call

    def get(self, name: str) -> Field | None:
        """The field meaning ``name`` (camelCase), spelled either way; None if absent."""
        for item in self.fields:
            if item.name == name and item.status in ("field", "snake"):
                return item
        return None

    def has(self, name: str) -> bool:
        return self.get(name) is not None

    def spelled(self, spelling: str) -> Field | None:
        """The key spelled exactly ``spelling``, whatever its status (a key a spread
        may give another value included: the key is there)."""
        for item in (*self.fields, *self.replaced):
            if item.spelled == spelling:
                return item
        return None


@dataclass(eq=False, slots=True)
class Row:
    """A literal row of ``facts``/``series``/``edges`` (or a comprehension's element).

    ``keys`` maps each literal key to its (key, value) ``ast`` nodes; ``mapping`` is
    False for a row that is not a dict form at all (then ``node`` is whatever it is).
    """

    data_field: str
    index: int | None
    node: ast.expr
    mapping: bool
    keys: dict[str, tuple[ast.AST, ast.expr]] = field(default_factory=dict)
    open: bool = False

    @property
    def path(self) -> str:
        return f"{self.data_field}[{self.index}]" if self.index is not None else f"{self.data_field}[...]"


@dataclass(eq=False, slots=True)
class Declaration:
    """A recognized call read as a declaration."""

    call: CallSite
    kind: str
    top: Part = field(init=False)
    parts: list[Part] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    content: ast.expr | None = None
    """The value ``coverage(content, ...)`` covers (``ast``); None for other calls."""
    _named: list[Part] | None = field(default=None, repr=False)
    _by_name: list[tuple[Field, str]] | None = field(default=None, repr=False)
    memo: dict[object, object] = field(default_factory=dict, repr=False)
    """Answers the rules share about this declaration, computed once (keys name the
    question, e.g. ``("named parts may matter", kinds)``)."""

    def release(self) -> None:
        """Break the cycles between this declaration, its parts and their fields (the
        engine calls it once every rule is done with the file); the declaration is
        empty afterwards."""
        for part in (*self.parts, *(self._named or ())):
            part.fields = []
        self.parts = []
        self.rows = []
        self._named = None
        self._by_name = None
        self.memo.clear()
        if hasattr(self, "top"):
            del self.top  # the top part refers back to the declaration

    def part(self, kind: str) -> Part | None:
        """The first part of ``kind`` (e.g. ``"provenance"``), or None."""
        for item in self.parts:
            if item.kind == kind:
                return item
        return None

    def fields(self) -> Iterator[Field]:
        for part in self.parts:
            yield from part.fields

    def named_parts(self) -> list[Part]:
        """Nested parts given as a name bound to a dict (``provenance=prov``).

        Read like literal parts, from the dict the resolver proves the name holds;
        not in :attr:`parts` (a rule opts in, since following names costs a LibCST
        parse of the module). What a rule reports in them goes to the name in the call
        (``rules.base.Check.report``), with no fix, and ``part.bound`` says where the dict
        was bound. Computed once per declaration.
        """
        if self._named is None:
            self._named = _read_named_parts(self)
        return self._named

    def parts_given_by_name(self) -> list[tuple[Field, str]]:
        """The fields that hold a nested part and give it as a name or an attribute
        (``provenance=prov``, ``grain=constants.GRAIN``), with the kind of that part,
        in the order of :attr:`parts` and their fields. Only a field spelled as a field
        (camelCase or snake_case) counts. Computed once per declaration: every rule
        that looks for named parts starts from this list, which is usually empty.
        """
        if self._by_name is None:
            found: list[tuple[Field, str]] = []
            for parent in self.parts:
                nested = NESTED_PARTS.get(parent.kind)
                if nested is None:
                    continue
                for item in parent.fields:
                    kind = nested.get(item.name)
                    if (
                        kind is not None
                        and item.status in ("field", "snake")
                        and isinstance(item.value_ast, (ast.Name, ast.Attribute))
                    ):
                        found.append((item, kind))
            self._by_name = found
        return self._by_name


def declaration_of(call: CallSite) -> Declaration:
    """The declaration ``call`` makes, read once per file: the engine's batch and the
    tool model (``lint.calls.tools``) share it. Kept in the file's memo until
    :func:`release_declarations`."""
    made: dict[int, Declaration] = call.context.memo.setdefault(Declaration, {})  # type: ignore[assignment]
    found = made.get(id(call))
    if found is None:
        found = made[id(call)] = build_declaration(call)
    return found


def release_declarations(context: FileContext) -> None:
    """Release every declaration :func:`declaration_of` read in ``context``'s file."""
    made: dict[int, Declaration] = context.memo.pop(Declaration, {})  # type: ignore[assignment]
    for declaration in made.values():
        declaration.release()


def build_declaration(call: CallSite) -> Declaration:
    """Read ``call`` as a declaration, from its ``ast`` node."""
    node = call.node
    declaration = Declaration(call=call, kind=call.kind)
    top = Part(kind=call.kind, path="", node=node, declaration=declaration, parent=None)
    declaration.top = top
    declaration.parts.append(top)

    positional = list(node.args)
    if any(isinstance(arg, ast.Starred) for arg in positional):
        top.open = True
        positional = [arg for arg in positional if not isinstance(arg, ast.Starred)]
    if call.kind == "coverage":
        # coverage(content, decl?, **fields): the first positional is the value covered.
        if positional and not top.open:
            declaration.content = positional[0]
            positional = positional[1:]
        else:
            top.open = True
    if len(positional) > 1:
        top.open = True
    elif positional:
        holder = positional[0]
        if isinstance(holder, ast.Constant) and holder.value is None:
            pass  # None is no declaration: every mint then reads the keywords alone
        elif is_dict_form(holder):
            _read_keys(top, holder)
        else:
            top.open = True
    for keyword in node.keywords:
        if keyword.arg is None:
            top.open = True
        else:
            _add_field(top, keyword.arg, keyword, keyword.value)
    _descend(top)
    return declaration


def _read_keys(part: Part, node: ast.expr) -> None:
    seen: set[object] = set()
    display = isinstance(node, ast.Dict)
    for item in iter_dict_items(node):
        if item is None:
            part.open = True
            if display:
                # A spread (or a computed key) may hold any key, and replace the value of
                # any key written before it (``{"facts": [], **extra}`` may have rows):
                # those keys stay, for their spelling alone.
                part.replaced.extend(part.fields)
                part.fields.clear()
        else:
            key, key_node, value = item
            if key in seen:  # written twice: Python keeps the last
                part.fields = [field for field in part.fields if field.key != key]
                part.replaced = [field for field in part.replaced if field.key != key]
            seen.add(key)
            if isinstance(key, str):
                _add_field(part, key, key_node, value)  # type: ignore[arg-type]
            else:
                # A literal key that is not a string (``{1: "y"}``) is no field of any
                # part, and it hides none: the mint refuses it as an unknown key.
                spelled = _spelling(key)
                part.fields.append(Field(part, spelled, spelled, "unknown", key_node, value, key))  # type: ignore[arg-type]


def _spelling(key: object) -> str:
    """A key that is not a string, as ``str`` writes it (``1``, ``None``, ``(1, 2)``)."""
    try:
        return str(key)
    except (ValueError, RecursionError):  # an integer past ``sys.get_int_max_str_digits()``
        return "<a number too long to write>"


def _add_field(part: Part, spelled: str, key: ast.keyword | ast.expr, value: ast.expr) -> None:
    allowed = part.allowed
    status: FieldStatus
    name = spelled
    if spelled in allowed:
        status = "field"
    elif spelled in vocabulary.DERIVED_FIELDS and part.kind not in _NO_DERIVED:
        status = "derived"
    elif vocabulary.SNAKE_TO_CAMEL.get(spelled) in allowed:
        status = "snake"
        name = vocabulary.SNAKE_TO_CAMEL[spelled]
    else:
        status = "unknown"
    part.fields.append(Field(part, spelled, name, status, key, value, spelled))


def _descend(part: Part) -> None:
    declaration = part.declaration
    nested = NESTED_PARTS.get(part.kind, {})
    items = _ITEM_KINDS.get(part.kind, {})
    for item in list(part.fields):
        if item.status not in ("field", "snake"):
            continue
        path = f"{part.path}.{item.spelled}" if part.path else item.spelled
        kind = nested.get(item.name)
        if kind is not None and is_dict_form(item.value_ast):
            child = Part(kind=kind, path=path, node=item.value_ast, declaration=declaration, parent=item)
            _read_keys(child, item.value_ast)
            declaration.parts.append(child)
            _descend(child)
        elif item.name in items:
            _read_items(part, item, path, items[item.name])
        elif part.kind == "described_result" and item.name in vocabulary.DATA_FIELDS:
            _read_rows(declaration, item)


def _read_items(part: Part, holder: Field, path: str, kind: str) -> None:
    value = holder.value_ast
    if not isinstance(value, (ast.List, ast.Tuple)):
        return
    for index, element in enumerate(value.elts):
        if isinstance(element, ast.Starred):
            return  # items after a spread have unknown indexes
        if is_dict_form(element):
            child = Part(
                kind=kind,
                path=f"{path}[{index}]",
                node=element,
                declaration=part.declaration,
                parent=holder,
            )
            _read_keys(child, element)
            part.declaration.parts.append(child)


def _read_rows(declaration: Declaration, holder: Field) -> None:
    declaration.rows.extend(data_rows(holder.name, holder.value_ast))


def data_rows(data_field: str, value: ast.expr) -> list[Row]:
    """The rows of ``value``, a data field's value written as a list, tuple or set
    display (a set's items are rows too, for the mint; indexes as written, up to a
    ``*spread``) or a list comprehension or generator expression (its element, by its
    keys); none for anything else."""
    if isinstance(value, (ast.ListComp, ast.GeneratorExp)):
        return [_row(data_field, None, value.elt)] if is_dict_form(value.elt) else []
    if not isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        return []
    rows: list[Row] = []
    for index, element in enumerate(value.elts):
        if isinstance(element, ast.Starred):
            break  # rows after a spread have unknown indexes
        rows.append(_row(data_field, index, element))
    return rows


def _row(data_field: str, index: int | None, node: ast.expr) -> Row:
    if not is_dict_form(node):
        return Row(data_field, index, node, mapping=False)
    row = Row(data_field, index, node, mapping=True)
    for item in last_wins(iter_dict_items(node)):
        if item is None:
            row.open = True
        else:
            text, key, value = item
            if isinstance(text, str):
                row.keys[text] = (key, value)
    return row


def _read_named_parts(declaration: Declaration) -> list[Part]:
    found: list[Part] = []
    by_name = declaration.parts_given_by_name()
    if not by_name:
        return found
    resolver = declaration.call.resolver
    for item, kind in by_name:
        resolved = resolver.value_of(item.value_ast)
        if resolved is None:
            continue
        tree = resolved.value
        if not is_dict_form(tree):
            continue
        part = Part(
            kind=kind,
            path=item.path,
            node=tree,
            declaration=declaration,
            parent=item,
            anchor=item.value_ast,
            via=resolved,
        )
        _read_keys(part, tree)
        found.append(part)
    return found
