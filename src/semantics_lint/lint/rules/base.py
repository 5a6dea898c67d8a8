"""The rule framework: one small class per code, its examples, and how it reports.

A rule is a class with its metadata as class attributes (``code``, ``name``,
``severity``, ``fix``), its documentation as the docstring (``## What it does``,
``## Why is this bad?``, optionally ``## Fix safety`` / ``## Known problems``), its
examples as ``VALID``/``INVALID`` (they are the tests and the docs), and its logic as
hooks the engine calls in one batched pass over each recognized call. Each hook gets
a :class:`Check` first (the call being judged, the file, and ``report``), then the
piece of the declaration model it judges:

* ``visit_declaration(check, declaration)`` once per call of a kind the rule judges;
* ``visit_part(check, part)`` for every part (top level and nested);
* ``visit_field(check, field)`` for every key of every part;
* ``visit_row(check, row)`` for every literal data row;
* ``visit_module(check)`` once per file, after the calls: for tool-level rules that
  link calls together (``define_tool`` and its execute function).

A rule says what it judges in one :class:`Selector`, its ``judges`` class attribute:
the call kinds, the kinds of part, the keys and their statuses, the parts it also
judges when the call gives them as a name bound to a dict (``provenance=prov``), and
the runtime refusals it reports itself (:class:`Claim`; SEM100 reports the refusals no
rule claims). The engine hands each hook only what the selector names (the batch's
dispatch tables are worked out from the selectors), and a selector that can never
match is an error when the class is made. Rule instances hold no state: one serves
every file.

A finding is one ``check.report(where, message, help=..., fix=...)`` call: at a field
(its key), a part or row, or an ``ast`` expression of the file; in a part given as a
name, it lands at the name in the call (:meth:`Check.at_name`). ``message`` says in a
line what is wrong, naming the field as spelled (`` `provenance.measuredAt` is read
from the clock``); ``help`` says why it matters and what to write instead, and ends
with where a followed name was bound and (added by ``report``) the call the field is
in. The one-line formats show the message alone. A rule reads the declaration, the
file's index and the value library (``rules.values``), nothing else.

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
from functools import cache
from typing import TYPE_CHECKING, ClassVar, Final, Literal, NamedTuple

from semantics_lint import vocabulary
from semantics_lint.lint.calls.declaration import (
    FIELD_STATUSES,
    NAMEABLE_PARTS,
    PARTS_OF_CALL,
    Declaration,
    Field,
    FieldStatus,
    Part,
    Row,
    fields_of_part,
)
from semantics_lint.lint.calls.verdicts import ARGUMENTS, REFUSAL_KINDS, Refusal
from semantics_lint.lint.core.model import Applicability, Edit, Finding, Fix, Position, Severity

if TYPE_CHECKING:
    from semantics_lint.lint.calls.context import CallSite, FileContext

FixKind = Literal["none", "safe", "unsafe"]

DATA_KEYS: frozenset[FieldStatus] = frozenset({"field", "snake"})
"""The statuses of a key spelled as a field of its part (camelCase or its wire spelling)."""

DATA_FIELD_KEYS: frozenset[tuple[str, str]] = frozenset(
    ("described_result", name) for name in vocabulary.DATA_FIELDS
)
"""The data fields of a described result (``facts``, ``series``, ``edges``), as
``Selector.keys`` names them."""

DECLARATION_CALLS: frozenset[str] = frozenset({"described_result", "absent", "coverage"})
"""The call kinds that declare a result (every kind but ``define_tool``)."""
DEFINE_TOOL: Final = "define_tool"
CALL_KINDS: frozenset[str] = frozenset(PARTS_OF_CALL)

ANY: Final = "*"
"""A step of a claimed refusal's path: any key or list index."""
INDEX: Final = "#"
"""A step of a claimed refusal's path: any list index."""

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


class Claim(NamedTuple):
    """A kind of refusal of the runtime's mints that a rule reports itself, so that
    SEM100 does not (``Selector.refusals``).

    It matches a refusal of a call whose kind is in ``calls``, whose ``kind`` is in
    ``faults``, and whose path matches ``path`` step by step: a key, a set of keys,
    ``ANY`` or ``INDEX``; the refusal's path may go on below it when ``deeper``.
    ``bare``: only a call written with nothing declared at all (``absent()``,
    ``coverage(r)``). The claims of two rules never overlap (checked when the second
    rule class is made).
    """

    calls: frozenset[str]
    faults: frozenset[str]
    path: tuple[str | frozenset[str], ...] = ()
    deeper: bool = False
    bare: bool = False

    def matches(self, kind: str, refusal: Refusal, call: ast.Call | None) -> bool:
        """Whether this claim takes ``refusal`` of a ``kind`` call (``call``: its node)."""
        if kind not in self.calls or refusal.kind not in self.faults:
            return False
        path = refusal.path
        steps = self.path
        if len(path) < len(steps) or (len(path) > len(steps) and not self.deeper):
            return False
        for step, key in zip(steps, path, strict=False):  # a prefix when deeper
            if step == ANY:
                continue
            if step == INDEX:
                if not isinstance(key, int):
                    return False
            elif isinstance(step, str):
                if key != step:
                    return False
            elif key not in step:
                return False
        if self.bare:
            return (
                call is not None
                and not path
                and refusal.argument is None
                and not call.keywords
                and len(call.args) == (1 if kind == "coverage" else 0)
            )
        return True

    def overlaps(self, other: Claim) -> bool:
        """Whether some refusal could match both claims."""
        if self.calls.isdisjoint(other.calls) or self.faults.isdisjoint(other.faults):
            return False
        mine, theirs = self.path, other.path
        if len(mine) != len(theirs):
            shorter = self if len(mine) < len(theirs) else other
            if not shorter.deeper:
                return False
        return all(_steps_meet(a, b) for a, b in zip(mine, theirs, strict=False))  # the common prefix


def _steps_meet(a: str | frozenset[str], b: str | frozenset[str]) -> bool:
    if a == ANY or b == ANY:
        return True
    if a == INDEX or b == INDEX:
        return a == b
    keys_a = frozenset({a}) if isinstance(a, str) else a
    keys_b = frozenset({b}) if isinstance(b, str) else b
    return not keys_a.isdisjoint(keys_b)


_CLAIMS: list[tuple[Claim, str]] = []
"""Every rule's claimed refusals, with the rule's code, in the order the classes were made."""
_CLAIMS_BY_FAULT: dict[str, list[tuple[Claim, str]]] = {}
"""The same, by each kind of refusal a claim takes."""


def specific_code(kind: str, refusal: Refusal, call: ast.Call | None = None) -> str | None:
    """The code of the rule that claims ``refusal`` of a ``kind`` call (``call``: its
    node, which tells a call that declares nothing at all), or None: then SEM100
    reports it."""
    for claim, code in _CLAIMS_BY_FAULT.get(refusal.kind, ()):
        if claim.matches(kind, refusal, call):
            return code
    return None


def claimed_refusals() -> list[tuple[str, Claim]]:
    """Every claimed refusal, with the code that reports it, in code order."""
    return sorted(((code, claim) for claim, code in _CLAIMS), key=lambda pair: pair[0])


class Selector(NamedTuple):
    """What a rule judges: the one declaration the engine's dispatch tables are made of.

    ``calls``: the call kinds whose declarations the rule visits (every declaration
    call by default, ``DECLARATION_CALLS``; add ``DEFINE_TOOL`` for the keys of ``define_tool(...)``). ``parts``:
    the kinds of part its ``visit_part``/``visit_field`` take (None: every kind).
    ``keys``: the (kind of part, field) pairs its ``visit_field`` takes, the field named
    by the camelCase name it means (None: every key of those parts). ``statuses``: the
    statuses of those keys (``DATA_KEYS`` for keys spelled as a field; None: every
    status). ``named``: the kinds of part (among ``parts``) it also judges when the
    call gives the part as a name bound to a dict (``provenance=prov``); what it
    reports there goes to the name in the call, with where the dict was bound
    appended to the help unless ``note_named`` is False (the rule says it itself).
    ``refusals``: the runtime refusals the rule reports (:class:`Claim`); SEM100
    reports those no rule claims. ``spelling``: the rule judges a key by its spelling
    alone, never by its value, so it is also handed the keys of a dict display written
    before a ``**spread`` or a computed key (``{"measured_at": t, **defaults}``): the
    key stays in the dict whatever the spread holds, though its value may not
    (``Part.replaced``).

    Checked when the rule class is made: a selector that can never match is an error.
    """

    calls: frozenset[str] = frozenset({"described_result", "absent", "coverage"})
    parts: frozenset[str] | None = None
    keys: frozenset[tuple[str, str]] | None = None
    statuses: frozenset[FieldStatus] | None = None
    named: frozenset[str] = frozenset()
    note_named: bool = True
    refusals: tuple[Claim, ...] = ()
    spelling: bool = False


class Check:
    """What a hook is handed besides the model: the call being judged (``call``; None in
    ``visit_module``), the file (``file``: its index, resolver, text) and
    :meth:`report`, which decides where a finding lands.

    The engine makes one per rule and file and sets ``call`` before each call's hooks;
    a part given as a name is judged through :meth:`at_name`'s check, which reports at
    the name."""

    __slots__ = ("_anchor", "_noted", "_rule", "_sink", "call", "file")

    def __init__(self, rule: Rule, file: FileContext, sink: list[Finding]) -> None:
        self._rule = rule
        self.file = file
        self._sink = sink
        self.call: CallSite = None  # type: ignore[assignment]
        self._anchor: ast.expr | None = None
        self._noted: Part | None = None

    def at_name(self, part: Part) -> Check:
        """This check for a part given as a name: everything it reports goes to the
        name in the call, noting where the dict was bound (``Selector.note_named``)."""
        check = Check(self._rule, self.file, self._sink)
        check.call = self.call
        check._anchor = part.anchor
        if type(self._rule).judges.note_named and part.via is not None:
            check._noted = part
        return check

    def report(
        self,
        where: Field | Part | Row | ast.expr,
        message: str,
        *,
        help: str | None = None,
        fix: Fix | None = None,
    ) -> None:
        """Report ``message`` (and ``help``) at ``where``: a :class:`Field` (its key), a
        :class:`Part` or :class:`Row` (the dict), or an ``ast`` expression of the file.
        In a part given as a name, a field or the part is reported at that name.

        A message names the field, not the call around it; the help then ends by
        naming the call (``(in described_result(...))``), so that the finding still
        says which declaration it is about."""
        file = self.file
        noted = self._noted
        if noted is not None:
            start, end = file.ast_range(self._anchor)  # type: ignore[arg-type]
            bound = f"`{noted.path}` is {noted.via.describe()}"  # type: ignore[union-attr]
            help = f"{help} ({bound})" if help else bound
            self._emit(message, self._naming_the_call(message, help), start, end, None)
            return
        if isinstance(where, Field):
            anchor = where.part.anchor
            start, end = file.ast_range(anchor) if anchor is not None else where.range
        elif isinstance(where, Part):
            start, end = file.ast_range(where.anchor if where.anchor is not None else where.node)
        elif isinstance(where, Row):
            start, end = file.ast_range(where.node)
        else:
            start, end = file.ast_range(where)
        self._emit(message, self._naming_the_call(message, help), start, end, fix)

    def _naming_the_call(self, message: str, help: str | None) -> str | None:
        """``help``, ending with the call when neither it nor ``message`` names it."""
        call = f"{self.call.spelled}(...)"
        if call in message or (help is not None and call in help):
            return help
        return f"{help} (in {call})" if help else f"in {call}"

    def report_ast(self, node: ast.expr | ast.stmt, message: str, *, help: str | None = None) -> None:
        """Report at an ``ast`` node of the file, as written (for module-level rules)."""
        start, end = self.file.ast_range(node)
        self._emit(message, help, start, end, None)

    def _emit(self, message: str, help: str | None, start: Position, end: Position, fix: Fix | None) -> None:
        rule = self._rule
        self._sink.append(
            Finding(
                code=rule.code,
                message=message,
                severity=rule.severity,
                filename=self.file.filename,
                start=start,
                end=end,
                fix=fix,
                help=help,
            )
        )


class Rule:
    """Base of every SEM rule. Subclasses set the class attributes and some hooks.

    The engine writes nothing into a rule: one instance serves every file, and each
    hook is handed a :class:`Check` (the call, the file, ``report``)."""

    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity] = Severity.ERROR
    fix: ClassVar[FixKind] = "none"
    judges: ClassVar[Selector] = Selector()
    """What the rule judges (:class:`Selector`)."""
    VALID: ClassVar[tuple[Valid, ...]] = ()
    INVALID: ClassVar[tuple[Invalid, ...]] = ()

    _own_hooks: ClassVar[frozenset[str]] = frozenset()
    """The hooks this class overrides, worked out once when the class is made."""
    _call_hooks: ClassVar[tuple[bool, bool, bool, bool]] = (False, False, False, False)
    """Whether it overrides visit_declaration, visit_part, visit_field, visit_row."""
    _names_by_kind: ClassVar[dict[str, frozenset[str]]] = {}

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._own_hooks = frozenset(
            hook for hook in _ALL_HOOKS if getattr(cls, hook) is not getattr(Rule, hook)
        )
        on_declaration, on_part, on_field, on_row = (hook in cls._own_hooks for hook in _HOOKS)
        cls._call_hooks = (on_declaration, on_part, on_field, on_row)
        by_kind: dict[str, set[str]] = {}
        for part_kind, field_name in cls.judges.keys or ():
            by_kind.setdefault(part_kind, set()).add(field_name)
        cls._names_by_kind = {kind: frozenset(names) for kind, names in by_kind.items()}
        if cls.__dict__.get("abstract", False):
            return
        _check_rule_class(cls)
        _check_selector(cls)
        _claim_refusals(cls)

    # -- the engine's side ---------------------------------------------------------

    @classmethod
    def visits_part(cls, part_kind: str) -> bool:
        """Whether the batch hands a ``part_kind`` part to ``visit_part``."""
        parts = cls.judges.parts
        return cls._call_hooks[1] and (parts is None or part_kind in parts)

    @classmethod
    def judges_key(cls, part_kind: str, status: FieldStatus, name: str) -> bool:
        """Whether the batch hands ``visit_field`` a key of a ``part_kind`` part whose
        status is ``status`` and which means the field ``name``."""
        judges = cls.judges
        if not cls._call_hooks[2] or (judges.parts is not None and part_kind not in judges.parts):
            return False
        if judges.statuses is not None and status not in judges.statuses:
            return False
        names = cls.field_names(part_kind)
        return names is None or name in names

    @classmethod
    def field_names(cls, part_kind: str) -> frozenset[str] | None:
        """The fields of a ``part_kind`` part whose keys ``visit_field`` judges (None:
        every one; empty: none), from ``judges.keys``."""
        if cls.judges.keys is None:
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

    def visit_declaration(self, check: Check, declaration: Declaration) -> None:
        """Once per recognized call whose kind is in ``judges.calls``."""

    def visit_part(self, check: Check, part: Part) -> None:
        """Every part of the declaration, the top level first."""

    def visit_field(self, check: Check, field: Field) -> None:
        """Every key of every part."""

    def visit_row(self, check: Check, row: Row) -> None:
        """Every literal data row."""

    def visit_module(self, check: Check) -> None:
        """Once per file, after every call was visited (``check.call`` is None)."""

    # -- fixes ----------------------------------------------------------------------

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


def _check_selector(cls: type[Rule]) -> None:
    """A selector that can never match is an error, naming the rule and the fix."""
    where = f"{cls.__module__}.{cls.__qualname__} ({cls.code})"
    judges = cls.judges
    if not isinstance(judges, Selector):
        raise TypeError(f"{where}: judges must be a Selector(...), not {judges!r}")
    unknown_calls = judges.calls - CALL_KINDS
    if unknown_calls:
        raise TypeError(
            f"{where}: judges.calls holds {sorted(unknown_calls)}, no call kind; use {sorted(CALL_KINDS)}"
        )
    reachable = frozenset(kind for call in judges.calls for kind in PARTS_OF_CALL[call])
    for kind in sorted(judges.parts or ()):
        if kind not in reachable:
            raise TypeError(
                f"{where}: judges.parts holds {kind!r}, which no call of {sorted(judges.calls)} has; "
                f"its parts are {sorted(reachable)} (or add the call kind that has it to judges.calls)"
            )
    parts = reachable if judges.parts is None else judges.parts
    for kind, name in sorted(judges.keys or ()):
        if kind not in parts:
            raise TypeError(
                f"{where}: judges.keys names a key of {kind!r}, which is not in judges.parts; add it there"
            )
        if name not in fields_of_part(kind):
            raise TypeError(
                f"{where}: judges.keys names {name!r}, which is no field of {kind!r}; "
                f"its fields are {list(fields_of_part(kind))} (name a field by its camelCase name)"
            )
    unknown_statuses = (judges.statuses or frozenset()) - FIELD_STATUSES
    if unknown_statuses:
        raise TypeError(
            f"{where}: judges.statuses holds {sorted(unknown_statuses)}; use {sorted(FIELD_STATUSES)}"
        )
    for kind in sorted(judges.named):
        if kind not in parts or kind not in NAMEABLE_PARTS:
            raise TypeError(
                f"{where}: judges.named holds {kind!r}, which is not a part in judges.parts that a call can give "
                f"as a name; those are {sorted(NAMEABLE_PARTS & parts)}"
            )
    _, on_part, on_field, _ = cls._call_hooks
    if (judges.keys is not None or judges.statuses is not None or judges.spelling) and not on_field:
        raise TypeError(
            f"{where}: judges.keys/statuses/spelling select keys, but the rule has no visit_field"
        )
    if (judges.parts is not None or judges.named) and not (on_part or on_field):
        raise TypeError(
            f"{where}: judges.parts/named select parts, but the rule has no visit_part or visit_field"
        )
    if any(cls._call_hooks) and not judges.calls:
        raise TypeError(
            f"{where}: the rule has call hooks but judges.calls is empty; name the call kinds it judges"
        )
    for claim in judges.refusals:
        _check_claim(where, claim)


def _check_claim(where: str, claim: Claim) -> None:
    if not isinstance(claim, Claim):
        raise TypeError(f"{where}: judges.refusals holds {claim!r}; write Claim(...)")
    if not claim.calls or claim.calls - CALL_KINDS:
        raise TypeError(
            f"{where}: a claimed refusal names calls {sorted(claim.calls)}; use {sorted(CALL_KINDS)}"
        )
    if not claim.faults or claim.faults - REFUSAL_KINDS:
        raise TypeError(
            f"{where}: a claimed refusal names kinds {sorted(claim.faults)}; the runtime's kinds are {sorted(REFUSAL_KINDS)}"
        )
    if claim.bare and (claim.faults != {ARGUMENTS} or claim.path):
        raise TypeError(f"{where}: a bare claim takes the refusal of a call's arguments, with no path")
    known = _known_keys()
    for step in claim.path:
        keys = frozenset({step}) if isinstance(step, str) else step
        stray = sorted(key for key in keys - {ANY, INDEX} if key not in known)
        if stray:
            raise TypeError(
                f"{where}: a claimed refusal's path names {stray}, no key of any part; name keys as the mint spells them"
            )


@cache
def _known_keys() -> frozenset[str]:
    """Every key of every part of every call, worked out once."""
    return frozenset(
        name for call in CALL_KINDS for kind in PARTS_OF_CALL[call] for name in fields_of_part(kind)
    )


def _claim_refusals(cls: type[Rule]) -> None:
    """Add the class's claims to every rule's; one that overlaps another rule's is an error."""
    for claim in cls.judges.refusals:
        meeting = {id(pair): pair for fault in claim.faults for pair in _CLAIMS_BY_FAULT.get(fault, ())}
        for other, code in meeting.values():
            if code != cls.code and claim.overlaps(other):
                raise TypeError(
                    f"{cls.__module__}.{cls.__qualname__} ({cls.code}): claims refusals {code} claims already "
                    f"({claim} meets {other}); narrow the faults or the path"
                )
        if (claim, cls.code) not in _CLAIMS:
            _CLAIMS.append((claim, cls.code))
            for fault in claim.faults:
                _CLAIMS_BY_FAULT.setdefault(fault, []).append((claim, cls.code))
