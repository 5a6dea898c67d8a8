"""The rule framework: one small class per code, its examples, and how it reports.

A rule is a class with its metadata as class attributes (``code``, ``name``,
``severity``, ``fix``), its documentation as the docstring (``## What it does``,
``## Why is this bad?``, optionally ``## Fix safety`` / ``## Known problems``), its
examples as ``VALID``/``INVALID`` (they are the tests and the docs), and its logic as
hooks the engine calls in one batched pass over each recognized call:

* ``visit_declaration(decl)`` once per call of a kind in ``calls``;
* ``visit_part(part)`` for every part (top level and nested);
* ``visit_field(field)`` for every key of every part;
* ``visit_row(row)`` for every literal data row;
* ``visit_module(context)`` once per file, after the calls: for tool-level rules that
  link calls together (``define_tool`` and its execute function).

A rule declares what it judges, and the engine hands it only that (the batch's
dispatch tables are worked out from these declarations): ``calls``, the call kinds it
judges; ``part_kinds``, the kinds of part its ``visit_part``/``visit_field`` judge;
``fields``, the (kind of part, field) pairs its ``visit_field`` judges;
``field_statuses``, the statuses of the keys its ``visit_field`` judges; and
``named_parts``, the kinds of part (among its ``part_kinds``) it also judges when the
call gives the part as a name bound to a dict (``provenance=prov``): the engine reads
those parts (following the name through the file's resolver) only when some enabled
rule declares them, runs the rule's ``visit_part``/``visit_field`` on them, and reports
what the rule finds there at the name in the call, with where the dict was bound
appended to the message (a rule whose messages say that themselves sets
``named_part_note = False``).

A finding is one ``self.report(where, message, help=..., fix=...)`` call: at a field
(its key), a part or row, or an ``ast`` node of the file. ``message`` says in a line
what is wrong, naming the field as spelled (`` `provenance.measuredAt` is read from
the clock``); ``help`` says why it matters and what to write instead, and ends with
where a followed name was bound and (added by ``report``) the call the field is in.
The one-line formats show the message alone. A rule
reads the declaration, the file's index and the value library (``rules.values``),
nothing else.

Checked when the class is created (as Fixit checks its rules): the code's family
matches the module (``sem1xx_keys`` holds ``SEM1xx``), the name is kebab-case, the
docstring has the required sections, every rule has a VALID and an INVALID example,
and a rule that offers a fix shows the fixed form in some INVALID example.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from semantics_lint.lint.model import (
    Applicability,
    Edit,
    Finding,
    Fix,
    Position,
    Severity,
)

from semantics_lint.lint.declaration import Declaration, Field, FieldStatus, Part, Row

if TYPE_CHECKING:
    from semantics_lint.lint.context import CallSite, FileContext

FixKind = Literal["none", "safe", "unsafe"]

DATA_KEYS: frozenset[FieldStatus] = frozenset({"field", "snake"})
"""The statuses of a key spelled as a field of its part (camelCase or its wire spelling)."""

ALL_CALL_KINDS: frozenset[str] = frozenset({"described_result", "absent", "coverage"})

_CODE = re.compile(r"^SEM(\d)\d\d$")
_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)+$")
_REQUIRED_SECTIONS = ("## What it does", "## Why is this bad?")
_HOOKS = ("visit_declaration", "visit_part", "visit_field", "visit_row")
_ALL_HOOKS = (*_HOOKS, "visit_module")


def _clean(source: str) -> str:
    """Examples are written indented in class bodies; store them dedented."""
    text = textwrap.dedent(source)
    text = text.removeprefix("\n")
    return text


@dataclass(frozen=True, slots=True)
class Valid:
    """Source in which the rule must report nothing."""

    source: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", _clean(self.source))


@dataclass(frozen=True, slots=True)
class Invalid:
    """Source in which the rule must report, and what exactly.

    ``codes``: the codes the linter reports on this source among the rule's family and
    the codes listed (defaults to the rule's own code, once); codes of other families
    are not checked, so an example need not satisfy rules added later. ``line``/``column`` (1-based line,
    0-based column) pin the first finding of the rule's code; ``field`` is text that
    message must contain (the field as spelled); ``fixed`` the whole source after
    applying this rule's fixes (unsafe ones included).
    """

    source: str
    codes: tuple[str, ...] | None = None
    line: int | None = None
    column: int | None = None
    field: str | None = None
    fixed: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", _clean(self.source))
        if self.fixed is not None:
            object.__setattr__(self, "fixed", _clean(self.fixed))


class Rule:
    """Base of every SEM rule. Subclasses set the class attributes and some hooks."""

    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity] = Severity.ERROR
    fix: ClassVar[FixKind] = "none"
    calls: ClassVar[frozenset[str]] = ALL_CALL_KINDS
    """The call kinds whose declarations this rule visits."""
    part_kinds: ClassVar[frozenset[str] | None] = None
    """The kinds of part (``"grain"``, ``"described_result"``, ...) the batch hands to
    ``visit_part``, and whose keys it hands to ``visit_field``; None: every kind. Set
    it only when the hooks do nothing for the other kinds."""
    field_statuses: ClassVar[frozenset[FieldStatus] | None] = None
    """The statuses of the keys the batch hands to ``visit_field``; None: every status.
    Set it only when ``visit_field`` does nothing for the others."""
    fields: ClassVar[frozenset[tuple[str, str]] | None] = None
    """The keys ``visit_field`` judges, as (kind of part, field) pairs, the field named
    by the camelCase name it means; None: every key of the parts it is handed."""
    named_parts: ClassVar[frozenset[str]] = frozenset()
    """The kinds of part this rule also judges when given as a name bound to a dict."""
    named_part_note: ClassVar[bool] = True
    """Append where a named part's dict was bound to what the rule reports in it."""
    VALID: ClassVar[tuple[Valid, ...]] = ()
    INVALID: ClassVar[tuple[Invalid, ...]] = ()

    context: FileContext
    call: CallSite

    _own_hooks: ClassVar[frozenset[str]] = frozenset()
    """The hooks this class overrides, worked out once when the class is made."""
    _call_hooks: ClassVar[tuple[bool, bool, bool, bool]] = (False, False, False, False)
    _names_by_kind: ClassVar[dict[str, frozenset[str]]] = {}
    """Whether it overrides visit_declaration, visit_part, visit_field, visit_row."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._own_hooks = frozenset(hook for hook in _ALL_HOOKS if getattr(cls, hook) is not getattr(Rule, hook))
        on_declaration, on_part, on_field, on_row = (hook in cls._own_hooks for hook in _HOOKS)
        cls._call_hooks = (on_declaration, on_part, on_field, on_row)
        by_kind: dict[str, set[str]] = {}
        for part_kind, field_name in cls.fields or ():
            by_kind.setdefault(part_kind, set()).add(field_name)
        cls._names_by_kind = {kind: frozenset(names) for kind, names in by_kind.items()}
        if cls.__dict__.get("abstract", False):
            return
        _check_rule_class(cls)

    # -- the engine's side ---------------------------------------------------------

    _anchor: tuple[ast.expr, Part | None] | None = None
    """While the batch hands the rule a part given as a name: that name in the call,
    where everything the rule reports goes, and the part, when the rule appends where
    its dict was bound (``named_part_note``)."""

    def begin_file(self, context: FileContext, sink: list[Finding]) -> None:
        """Called once per file before any hook."""
        self.context = context
        self._sink = sink

    @classmethod
    def visits_part(cls, part_kind: str) -> bool:
        """Whether the batch hands a ``part_kind`` part to ``visit_part``."""
        return cls._call_hooks[1] and (cls.part_kinds is None or part_kind in cls.part_kinds)

    @classmethod
    def judges_key(cls, part_kind: str, status: FieldStatus, name: str) -> bool:
        """Whether the batch hands ``visit_field`` a key of a ``part_kind`` part whose
        status is ``status`` and which means the field ``name``."""
        if not cls._call_hooks[2] or (cls.part_kinds is not None and part_kind not in cls.part_kinds):
            return False
        if cls.field_statuses is not None and status not in cls.field_statuses:
            return False
        names = cls.field_names(part_kind)
        return names is None or name in names

    @classmethod
    def field_names(cls, part_kind: str) -> frozenset[str] | None:
        """The fields of a ``part_kind`` part whose keys ``visit_field`` judges (None:
        every one; empty: none), from ``fields``."""
        if cls.fields is None:
            return None
        return cls._names_by_kind.get(part_kind, frozenset())

    @classmethod
    def has_hook(cls, hook: str) -> bool:
        """True when the rule overrides ``hook`` (the engine calls only those)."""
        return hook in cls._own_hooks

    @classmethod
    def visits_calls(cls) -> bool:
        return not cls._own_hooks.isdisjoint(_HOOKS)

    # -- hooks (override what the rule needs) --------------------------------------

    def visit_declaration(self, declaration: Declaration) -> None:
        """Once per recognized call whose kind is in ``calls``."""

    def visit_part(self, part: Part) -> None:
        """Every part of the declaration, the top level first."""

    def visit_field(self, field: Field) -> None:
        """Every key of every part."""

    def visit_row(self, row: Row) -> None:
        """Every literal data row."""

    def visit_module(self, context: FileContext) -> None:
        """Once per file, after every call was visited."""

    # -- reporting ------------------------------------------------------------------

    def report(
        self,
        where: Field | Part | Row | ast.expr,
        message: str,
        *,
        help: str | None = None,
        fix: Fix | None = None,
    ) -> None:
        """Report ``message`` (and ``help``) at ``where``: a :class:`Field` (its key), a
        :class:`Part` or :class:`Row` (the dict; a part given as a name: that name), or
        an ``ast`` expression of the file.

        A message names the field, not the call around it; the help then ends by
        naming the call (``(in described_result(...))``), so that the finding still
        says which declaration it is about."""
        if self._anchor is not None and self._anchor[1] is not None:
            anchor, part = self._anchor
            start, end = self.context.ast_range(anchor)
            bound = f"`{part.path}` is {part.via.describe()}"  # type: ignore[union-attr]
            help = f"{help} ({bound})" if help else bound
            self._emit(message, self._naming_the_call(message, help), start, end, None)
            return
        if isinstance(where, Field):
            start, end = where.range
        elif isinstance(where, Part):
            start, end = self.context.ast_range(where.anchor if where.anchor is not None else where.node)
        elif isinstance(where, Row):
            start, end = self.context.ast_range(where.node)
        else:
            start, end = self.context.ast_range(where)
        self._emit(message, self._naming_the_call(message, help), start, end, fix)

    def _naming_the_call(self, message: str, help: str | None) -> str | None:
        """``help``, ending with the call when neither it nor ``message`` names it."""
        call = f"{self.call.spelled}(...)"
        if call in message or (help is not None and call in help):
            return help
        return f"{help} (in {call})" if help else f"in {call}"

    def report_ast(self, node: ast.expr | ast.stmt, message: str, *, help: str | None = None) -> None:
        """Report at an ``ast`` node of the file (for module-level rules)."""
        start, end = self.context.ast_range(node)
        self._emit(message, help, start, end, None)

    def _emit(
        self, message: str, help: str | None, start: Position, end: Position, fix: Fix | None
    ) -> None:
        self._sink.append(
            Finding(
                code=self.code,
                message=message,
                severity=self.severity,
                filename=self.context.filename,
                start=start,
                end=end,
                fix=fix,
                help=help,
            )
        )

    def rename_key_fix(self, field: Field, new_name: str, message: str) -> Fix | None:
        """A fix that respells one key, keeping its prefix and quotes.

        Only for a keyword or a plain single-line string key (no escapes, no implicit
        concatenation); None otherwise. The applicability follows the rule's ``fix``.
        """
        token = field.key_token_range()
        if token is None or not new_name.isidentifier():
            return None
        applicability = Applicability.SAFE if self.fix == "safe" else Applicability.UNSAFE
        return Fix(applicability, message, (Edit(new_name, token[0], token[1]),))


# -- class checks ---------------------------------------------------------------------


def family_of(module_name: str) -> str | None:
    """``semantics_lint.lint.rules.sem1xx_keys`` -> ``"1"``; None for other modules."""
    match = re.search(r"\bsem(\d)xx_", module_name)
    return match.group(1) if match else None


def _check_rule_class(cls: type[Rule]) -> None:
    where = f"{cls.__module__}.{cls.__qualname__}"
    code = getattr(cls, "code", None)
    if not isinstance(code, str) or not _CODE.match(code):
        raise TypeError(f"{where}: code must look like SEM123, not {code!r}")
    family = family_of(cls.__module__)
    if family is not None and not code.startswith(f"SEM{family}"):
        raise TypeError(f"{where}: {code} does not belong in the SEM{family}xx module")
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not _NAME.match(name):
        raise TypeError(f"{where}: name must be kebab-case (e.g. snake-case-declaration-key)")
    if cls.part_kinds is not None and not cls.named_parts <= cls.part_kinds:
        raise TypeError(f"{where}: named_parts must be kinds of part_kinds (its hooks judge those parts)")
    if cls.fix not in ("none", "safe", "unsafe"):
        raise TypeError(f"{where}: fix must be 'none', 'safe' or 'unsafe'")
    doc = cls.__doc__ or ""
    for section in _REQUIRED_SECTIONS:
        if section not in doc:
            raise TypeError(f"{where}: the docstring needs a '{section}' section")
    if not cls.VALID or not cls.INVALID:
        raise TypeError(f"{where}: needs at least one VALID and one INVALID example")
    if cls.fix != "none" and not any(case.fixed is not None for case in cls.INVALID):
        raise TypeError(f"{where}: offers a fix but no INVALID example shows the fixed form")
    if cls.fix == "none" and any(case.fixed is not None for case in cls.INVALID):
        raise TypeError(f"{where}: shows a fixed form but declares fix = 'none'")
