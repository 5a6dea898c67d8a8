"""A recognized call read as a declaration: its parts, their fields, its data rows.

The rules judge this model rather than raw syntax, so that every rule reads keys the
same way (SPEC section 4, "How findings count"):

* a key is classified once per part: a ``field`` of the part, a ``snake`` spelling of
  one (``measured_at``), a ``derived`` field (``note``, ``notCovered``), or
  ``unknown``; :meth:`Part.get` finds a field by the camelCase name it means, so
  ``provenance={"measured_at": t}`` *has* ``measuredAt`` for every rule but SEM102;
* a part that may hold keys the source does not show (``**spread``, a key that is
  not a string literal, a positional that is not a dict literal) is ``open``: a rule
  never reports a missing field of an open part;
* parts are the call's top level (keywords, or one positional dict), and the dict
  literals or ``dict(...)`` calls under grain, provenance, coverage, clarify,
  render, period, and the items of the coverage lists. Anything else is a value the
  rules leave to the resolver.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Literal

import libcst as cst

from semantics_lint import vocabulary
from semantics_lint.lint.context import CallSite

FieldStatus = Literal["field", "snake", "derived", "unknown"]

# Which nested part a field of a part holds, by the part's kind and the field's name.
_NESTED_PARTS: dict[str, dict[str, str]] = {
    "described_result": {
        "grain": "grain",
        "provenance": "provenance",
        "coverage": "described_result.coverage",
        "clarify": "clarify",
        "render": "render",
    },
    "coverage": {"period": "period"},
}
# Parts whose coverage lists (checked, notChecked, cannotCover) hold coverage items.
_ITEM_LIST_PARTS = frozenset({"absent", "coverage", "described_result.coverage"})


@dataclass(eq=False)
class Field:
    """One key of a part, as written, with the field it means."""

    part: Part
    spelled: str
    name: str
    status: FieldStatus
    key: cst.CSTNode
    value: cst.BaseExpression

    @property
    def path(self) -> str:
        """``provenance.measured_at``: the field as the caller spelled it, in its part."""
        return f"{self.part.path}.{self.spelled}" if self.part.path else self.spelled

    @property
    def is_keyword(self) -> bool:
        return isinstance(self.key, cst.Name)


@dataclass(eq=False)
class Part:
    """A dict of declaration fields: the call's top level or a nested part."""

    kind: str
    path: str
    node: cst.CSTNode
    declaration: Declaration
    parent: Field | None
    fields: list[Field] = field(default_factory=list)
    open: bool = False

    @property
    def allowed(self) -> tuple[str, ...]:
        """The declaration fields this part may hold (camelCase)."""
        return vocabulary.PART_FIELDS[self.kind]

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
        """The key spelled exactly ``spelling``, whatever its status."""
        for item in self.fields:
            if item.spelled == spelling:
                return item
        return None


@dataclass(eq=False)
class Row:
    """A literal row of ``facts``/``series``/``edges`` (or a comprehension's element)."""

    data_field: str
    index: int | None
    node: cst.BaseExpression
    mapping: bool
    keys: dict[str, tuple[cst.CSTNode, cst.BaseExpression]] = field(default_factory=dict)
    open: bool = False

    @property
    def path(self) -> str:
        return f"{self.data_field}[{self.index}]" if self.index is not None else f"{self.data_field}[...]"


@dataclass(eq=False)
class Declaration:
    """A recognized call read as a declaration."""

    call: CallSite
    kind: str
    top: Part = field(init=False)
    parts: list[Part] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    content: cst.BaseExpression | None = None

    def part(self, kind: str) -> Part | None:
        """The first part of ``kind`` (e.g. ``"provenance"``), or None."""
        for item in self.parts:
            if item.kind == kind:
                return item
        return None

    def fields(self) -> Iterator[Field]:
        for part in self.parts:
            yield from part.fields


def build_declaration(call: CallSite) -> Declaration:
    """Read ``call`` as a declaration (parses the call with LibCST if not yet done)."""
    node = call.cst
    declaration = Declaration(call=call, kind=call.kind)
    top = Part(kind=call.kind, path="", node=node, declaration=declaration, parent=None)
    declaration.top = top
    declaration.parts.append(top)

    positional = [arg for arg in node.args if arg.keyword is None and arg.star == ""]
    if any(arg.star for arg in node.args):
        top.open = True
    if call.kind == "coverage":
        # coverage(content, decl?, **fields): the first positional is the value covered.
        if positional:
            declaration.content = positional[0].value
            positional = positional[1:]
        else:
            top.open = True
    if len(positional) > 1:
        top.open = True
    elif positional:
        holder = positional[0].value
        if _is_dict_form(holder):
            _read_keys(top, holder)
        else:
            top.open = True
    for arg in node.args:
        if arg.keyword is not None:
            _add_field(top, arg.keyword.value, arg.keyword, arg.value)
    _descend(top)
    return declaration


def _is_dict_form(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Dict):
        return True
    return (
        isinstance(expr, cst.Call)
        and isinstance(expr.func, cst.Name)
        and expr.func.value == "dict"
    )


def literal_key(expr: cst.BaseExpression) -> str | None:
    """The text of a string-literal key (not bytes, not an f-string), else None."""
    if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString)):
        try:
            value = expr.evaluated_value
        except Exception:  # LibCST evaluates with ast.literal_eval; odd escapes raise
            return None
        return value if isinstance(value, str) else None
    return None


def iter_dict_items(
    node: cst.BaseExpression,
) -> Iterator[tuple[str, cst.CSTNode, cst.BaseExpression] | None]:
    """The (key text, key node, value) of a dict literal or ``dict(...)`` call.

    Yields None for anything that hides keys: ``**spread``, a computed key, a
    positional argument of ``dict(...)``.
    """
    if isinstance(node, cst.Dict):
        for element in node.elements:
            if isinstance(element, cst.DictElement):
                text = literal_key(element.key)
                yield (text, element.key, element.value) if text is not None else None
            else:
                yield None
    elif isinstance(node, cst.Call):
        for arg in node.args:
            if arg.keyword is not None and not arg.star:
                yield arg.keyword.value, arg.keyword, arg.value
            else:
                yield None


def _read_keys(part: Part, node: cst.BaseExpression) -> None:
    for item in iter_dict_items(node):
        if item is None:
            part.open = True
        else:
            _add_field(part, *item)


def _add_field(part: Part, spelled: str, key: cst.CSTNode, value: cst.BaseExpression) -> None:
    allowed = part.allowed
    status: FieldStatus
    name = spelled
    if spelled in allowed:
        status = "field"
    elif spelled in vocabulary.DERIVED_FIELDS and part.kind != "coverage_item":
        status = "derived"
    elif vocabulary.SNAKE_TO_CAMEL.get(spelled) in allowed:
        status = "snake"
        name = vocabulary.SNAKE_TO_CAMEL[spelled]
    else:
        status = "unknown"
    part.fields.append(Field(part, spelled, name, status, key, value))


def _descend(part: Part) -> None:
    declaration = part.declaration
    nested = _NESTED_PARTS.get(part.kind, {})
    for item in list(part.fields):
        if item.status not in ("field", "snake"):
            continue
        path = f"{part.path}.{item.spelled}" if part.path else item.spelled
        kind = nested.get(item.name)
        if kind is not None and _is_dict_form(item.value):
            child = Part(kind=kind, path=path, node=item.value, declaration=declaration, parent=item)
            _read_keys(child, item.value)
            declaration.parts.append(child)
            _descend(child)
        elif part.kind in _ITEM_LIST_PARTS and item.name in vocabulary.COVERAGE_LIST_FIELDS:
            _read_items(part, item, path)
        elif part.kind == "described_result" and item.name in vocabulary.DATA_FIELDS:
            _read_rows(declaration, item)


def _read_items(part: Part, holder: Field, path: str) -> None:
    value = holder.value
    if not isinstance(value, (cst.List, cst.Tuple)):
        return
    for index, element in enumerate(value.elements):
        if isinstance(element, cst.Element) and _is_dict_form(element.value):
            child = Part(
                kind="coverage_item",
                path=f"{path}[{index}]",
                node=element.value,
                declaration=part.declaration,
                parent=holder,
            )
            _read_keys(child, element.value)
            part.declaration.parts.append(child)


def _read_rows(declaration: Declaration, holder: Field) -> None:
    value = holder.value
    data_field = holder.name
    if isinstance(value, (cst.ListComp, cst.GeneratorExp)):
        if _is_dict_form(value.elt):
            declaration.rows.append(_row(data_field, None, value.elt))
        return
    if not isinstance(value, (cst.List, cst.Tuple)):
        return
    for index, element in enumerate(value.elements):
        if isinstance(element, cst.StarredElement):
            # Rows after a spread have unknown indexes; report none of them by index.
            return
        declaration.rows.append(_row(data_field, index, element.value))


def _row(data_field: str, index: int | None, node: cst.BaseExpression) -> Row:
    if not _is_dict_form(node):
        return Row(data_field, index, node, mapping=False)
    row = Row(data_field, index, node, mapping=True)
    for item in iter_dict_items(node):
        if item is None:
            row.open = True
        else:
            text, key, value = item
            row.keys.setdefault(text, (key, value))
    return row
