"""SEM2xx: provenance — when the world was measured, and from which system.

``provenance.measuredAt`` must be the time the data says it was measured (the export's
time, the newest sample), never a date typed into the tool (SEM203) nor the tool's own
clock (SEM204); ``provenance.source`` must name the system of record; ``ageSeconds``
must be a finite number >= 0 (SEM205). Series and facts need provenance at all
(SEM201), with both of its required fields (SEM202).

The first part of this module holds the small value helpers that the SEM2xx–SEM5xx
rules share: following a name through the resolver, telling what kind of literal an
expression is, and the qualified name of a callee from the file's imports. Every one
of them answers "unknown" (None) for what the source does not prove, and unknown is
never a finding.
"""

from __future__ import annotations

import ast
import math
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final

from semantics_lint import vocabulary
from semantics_lint.lint.index import (
    ANNOTATED,
    ASSIGN,
    AUGMENTED,
    CLASS_DEF,
    DEF,
    DELETE,
    IMPORT,
    IMPORT_FROM,
    PARAMETER,
    STORE,
    WALRUS,
)
from semantics_lint.lint.model import Severity
from semantics_lint.lint.rules.base import Invalid, Rule, Valid

if TYPE_CHECKING:
    from semantics_lint.lint.context import CallSite, FileContext
    from semantics_lint.lint.declaration import Declaration, Field, Part, Row
    from semantics_lint.lint.model import Fix
    from semantics_lint.lint.resolve import Resolved

# -- values: what an expression provably is ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Value:
    """What an expression of a call provably holds.

    ``node`` is the expression itself, or, when the expression is a name the resolver
    could follow, the expression it is bound to (an ``ast`` tree from the resolver's
    ``value_ast``: it has no position in the call, so a finding about it is reported
    at the use). ``via`` is the resolution then.
    """

    node: ast.expr
    via: Resolved | None = None

    @property
    def bound(self) -> str:
        """`` (EXPORT_DAY = '2024-05-01' (line 3))`` for a followed name; else empty."""
        if self.via is None:
            return ""
        return f" ({self.via.describe()})"

    @property
    def same_file(self) -> bool:
        """True unless the value was bound in another module: its callees then mean what
        that module imports, which the resolver qualifies (``Resolver.qualified_name``)."""
        return self.via is None or self.via.same_file


def is_literalish(node: ast.expr) -> bool:
    """What most rules judge: a value written out as a literal (see :func:`literal_kind`)."""
    return literal_kind(node) is not None


def not_a_dict(node: ast.expr) -> bool:
    """A literal that cannot be a part: ``grain=None``, ``render="table"``."""
    kind = literal_kind(node)
    return kind is not None and kind != "dict"


def may_be_time(node: ast.expr) -> bool:
    """What ``measuredAt`` judges: a date-like string, an f-string, a call, an operation."""
    text = text_of(node)
    if text is not None:
        return looks_like_date(text)
    return isinstance(node, (ast.JoinedStr, ast.Call, ast.BinOp))


def text_problem(node: ast.expr) -> bool:
    """A literal that is not a usable text: blank, or not a string at all."""
    kind = literal_kind(node)
    return kind is not None and (kind != "str" or is_blank_text(node))


def follow(
    call: CallSite,
    node: ast.expr,
    wanted: Callable[[ast.expr], bool] = is_literalish,
    *,
    imports: bool = True,
) -> Value | None:
    """The value ``node`` provably holds, or None.

    ``node`` is an ``ast`` expression of ``call``, or of a value followed before (the
    resolver keeps following names inside those). Anything but a name or
    ``module.attr`` is its own value (judge only the node kinds you understand); a
    name is asked of the resolver, never looked through here.

    ``wanted`` says which bound values the caller can judge at all: a name of the call
    that no assignment binds to such a value (nor to another name, nor by an import)
    is not worth following, and the resolver's parse of the module is not paid for it.
    ``imports=False`` does not follow a name of the call bound by an import, for a
    mistake too rare to pay the parse of the module (and its import) for.
    """
    if not isinstance(node, (ast.Name, ast.Attribute)):
        return Value(node)
    imported = qualified_name(call.context, node)
    if imported is not None and imported.split(".")[0] in sys.stdlib_module_names:
        # The standard library holds no constant of the project (``os.sep``); asking
        # would only load astroid to say "unknown".
        return None
    if call.holds(node):
        if not _worth_following(call, node, wanted):
            return None
        if not imports and not _bound_here(call, node):
            return None
    resolved = call.resolver.value_of(node)
    if resolved is None:
        return None
    return Value(resolved.value, resolved)


def _bound_here(call: CallSite, node: ast.expr) -> bool:
    """True for a name the call reads that no import binds where it is read."""
    from semantics_lint.lint.declaration import assigned_values

    return isinstance(node, ast.Name) and assigned_values(call, node.id) is not None


def _worth_following(call: CallSite, node: ast.expr, wanted: Callable[[ast.expr], bool]) -> bool:
    """False when ``node`` provably cannot resolve to a value ``wanted`` accepts.

    A cheap ``ast`` look (the declaration model's ``may_resolve_to``): an attribute is
    worth it only on an imported module or an alias (``constants.SOURCE``), never on a
    parameter or a value built by a call (``export.at``).
    """
    from semantics_lint.lint.declaration import may_resolve_to

    if isinstance(node, ast.Attribute):
        base: ast.expr = node
        while isinstance(base, ast.Attribute):
            base = base.value
        if not isinstance(base, ast.Name):
            return False
        return may_resolve_to(call, base, lambda value: False)
    return may_resolve_to(call, node, wanted)


LiteralKind = str
"""``str``, ``bytes``, ``number``, ``bool``, ``none``, ``list``, ``tuple``, ``dict``,
``set`` or ``generator``: the type a literal expression provably has."""


def literal_kind(node: ast.expr) -> LiteralKind | None:
    """The type ``node`` provably has when it is written out as a literal, else None.

    Containers count by their brackets alone (``[x]`` is a list whatever ``x`` is), and
    so do comprehensions; an f-string is a str.
    """
    if isinstance(node, ast.Constant):
        value = node.value
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "bool"
        if isinstance(value, (int, float, complex)):
            return "number"
        if isinstance(value, str):
            return "str"
        if isinstance(value, bytes):
            return "bytes"
        return None  # Ellipsis
    if isinstance(node, ast.JoinedStr):
        return "str"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = literal_kind(node.operand)
        return "number" if inner in ("number", "bool") else None
    if isinstance(node, (ast.List, ast.ListComp)):
        return "list"
    if isinstance(node, ast.Tuple):
        return "tuple"
    if isinstance(node, (ast.Dict, ast.DictComp)):
        return "dict"
    if isinstance(node, (ast.Set, ast.SetComp)):
        return "set"
    if isinstance(node, ast.GeneratorExp):
        return "generator"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args:
        if node.func.id in ("list", "tuple") and not node.keywords:
            return node.func.id
        if node.func.id == "dict" and all(kw.arg is not None for kw in node.keywords):
            return "dict"
    return None


_KIND_WORDS: Final = {
    "str": "a string",
    "bytes": "bytes",
    "number": "a number",
    "bool": "a bool",
    "none": "None",
    "list": "a list",
    "tuple": "a tuple",
    "dict": "a dict",
    "set": "a set",
    "generator": "a generator",
}


def kind_word(kind: LiteralKind) -> str:
    """``a string``, ``None``...: how a message names a literal's type."""
    return _KIND_WORDS.get(kind, kind)


def text_of(node: ast.expr) -> str | None:
    """The text of a string literal (not an f-string); None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def is_blank_text(node: ast.expr) -> bool:
    """True for a string that is provably empty after JavaScript's trim (``""``, ``"  "``,
    ``f""``); False for a non-empty one and for anything unknown."""
    text = text_of(node)
    if text is not None:
        return vocabulary.js_trim(text) == ""
    if isinstance(node, ast.JoinedStr):
        # Only an f-string with no replacement field can be proved blank.
        return all(
            isinstance(part, ast.Constant) and vocabulary.js_trim(str(part.value)) == ""
            for part in node.values
        )
    return False


def is_empty_sequence(node: ast.expr) -> bool:
    """``[]``, ``()``, ``list()`` or ``tuple()``."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return not node.elts
    return literal_kind(node) in ("list", "tuple") and isinstance(node, ast.Call)


def shown(node: ast.expr) -> str:
    """A short one-line rendering of an expression for a message."""
    try:
        text = " ".join(ast.unparse(node).split())
    except (ValueError, RecursionError):  # unparse fails on odd trees; a message needs none
        return "this value"
    return text if len(text) <= 50 else text[:47] + "..."


def keys_in_doubt(part: Part) -> bool:
    """True when a part may hold a field the model cannot see by its name.

    A spread (``**extra``) hides keys; a misspelled key (SEM101) may be the field meant;
    a derived or wire key (SEM103) says the dict is a hand-built envelope. A missing
    field of such a part is never reported: that mistake is already reported, or not
    provable.
    """
    return part.open or any(item.status in ("unknown", "derived") for item in part.fields)


def data_field(field: Field) -> bool:
    """True for a field spelled as a field of its part (camelCase or its wire spelling)."""
    return field.status in ("field", "snake")


# -- parts given as a name --------------------------------------------------------------


# The fields a part must have: a bound dict without one of them is worth reading.
_REQUIRED_OF_PART: Final[dict[str, tuple[str, ...]]] = {
    "provenance": ("measuredAt", "source"),
    "clarify": ("question",),
    "render": ("default",),
    "period": ("queried", "held"),
}


# Fields whose only mistake is rare (a blank source): an imported name there is not
# followed, so the module is not parsed for it.
_NOT_FOLLOWED_THROUGH_IMPORTS: Final = frozenset({("provenance", "source")})


def _judged_value(kind: str, key: str, keys: set[str]) -> Callable[[ast.expr], bool] | None:
    """Which values of field ``key`` of a ``kind`` part the rules judge (None: none are).

    ``keys`` are the part's fields (camelCase): an aggregation is judged only when
    ``isCounter`` is not among them.
    """
    if kind == "provenance":
        return {
            "measuredAt": lambda node: text_problem(node) or may_be_time(node),
            "source": text_problem,
            "ageSeconds": lambda node: text_problem(node) or isinstance(node, (ast.Call, ast.UnaryOp)),
        }.get(key)
    if kind == "grain":
        if key == "isCounter":
            return lambda node: literal_kind(node) not in (None, "bool")
        if key == "aggregation" and "isCounter" not in keys:
            return lambda node: text_problem(node) or _reads_like_counter(node)
        return text_problem
    if kind == "clarify":
        if key == "question":
            return text_problem
        return lambda node: literal_kind(node) not in (None, "list", "tuple", "none")
    if kind == "render" and key == "default":
        return text_problem
    return is_literalish


def _reads_like_counter(node: ast.expr) -> bool:
    text = text_of(node)
    return text is not None and vocabulary.is_counter_looking_aggregation(text)


def _dict_may_matter(call: CallSite, kind: str) -> Callable[[ast.expr], bool]:
    """Whether a dict bound to a part's name could hold anything these rules judge.

    A cheap look at each candidate dict: a required field missing, an empty dict, a
    spread, a key that is not a field, or a value of the kind the rules judge for its
    field, written out or behind a name that may be bound to one. A dict whose values
    are all read from data (``export.at``, ``row["source"]``) or say what they should
    holds nothing to judge, and the resolver's parse of the module is not paid for it.
    """
    from semantics_lint.lint.declaration import assigned_values, may_resolve_to

    imports = imports_of(call.context)
    allowed = vocabulary.PART_FIELDS[kind]

    def value_may_matter(judged: Callable[[ast.expr], bool], value: ast.expr, local_only: bool) -> bool:
        if isinstance(value, ast.Subscript):
            return False
        if isinstance(value, ast.Attribute):
            base: ast.expr = value
            while isinstance(base, ast.Attribute):
                base = base.value
            return isinstance(base, ast.Name) and base.id in imports
        if isinstance(value, ast.Name):
            if local_only and assigned_values(call, value.id) is None:
                return False
            return may_resolve_to(call, value, judged)
        return judged(value)

    def wanted(node: ast.expr) -> bool:
        if isinstance(node, ast.Dict):
            keys = [key.value if isinstance(key, ast.Constant) else None for key in node.keys]
            values = list(node.values)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
            if node.args:
                return True
            keys = [keyword.arg for keyword in node.keywords]
            values = [keyword.value for keyword in node.keywords]
        else:
            return False
        if not keys or any(not isinstance(key, str) for key in keys):
            return True
        named = {vocabulary.to_declaration(key) for key in keys if isinstance(key, str)}
        if any(field not in named for field in _REQUIRED_OF_PART.get(kind, ())):
            return True
        for key, value in zip(keys, values):
            field = vocabulary.to_declaration(str(key))
            if field not in allowed:
                return True
            judged = _judged_value(kind, field, named)
            local_only = (kind, field) in _NOT_FOLLOWED_THROUGH_IMPORTS
            if judged is not None and value_may_matter(judged, value, local_only):
                return True
        return False

    return wanted


def _named_part_may_matter(declaration: Declaration, kinds: frozenset[str]) -> bool:
    """True when some part of ``kinds`` is given as a name worth following."""
    from semantics_lint.lint.declaration import may_resolve_to

    call = declaration.call
    for field, kind in declaration.parts_given_by_name():
        if kind not in kinds:
            continue
        value = field.value_ast
        if isinstance(value, ast.Attribute):
            if _worth_following(call, value, is_literalish):
                return True
        elif isinstance(value, ast.Name) and may_resolve_to(call, value, _dict_may_matter(call, kind)):
            return True
    return False


class FollowingRule(Rule):
    """A rule that also judges parts given as names, reporting them at the name.

    Call :meth:`visit_named_parts` from ``visit_declaration``: the rule's own
    ``visit_part`` and ``visit_field`` then run over each named part of the given
    kinds, and every finding they report lands on the name in the call, with where
    the dict was bound appended to the message.
    """

    abstract = True
    _anchor: tuple[ast.expr, str] | None = None

    def visit_named_parts(self, declaration: Declaration, kinds: frozenset[str]) -> None:
        # Several rules ask the same of one declaration: answered once.
        key = ("named parts may matter", kinds)
        matters = declaration.memo.get(key)
        if matters is None:
            matters = declaration.memo[key] = _named_part_may_matter(declaration, kinds)
        if not matters:
            return  # following would only pay the resolver's parse to say nothing
        for part in declaration.named_parts():
            if part.kind not in kinds or part.anchor is None or part.via is None:
                continue
            self._anchor = (part.anchor, f"`{part.path}` is {part.via.describe()}")
            try:
                if self.has_hook("visit_part"):
                    self.visit_part(part)
                if self.has_hook("visit_field"):
                    for field in part.fields:
                        self.visit_field(field)
            finally:
                self._anchor = None

    def report(self, where: Field | Part | Row | ast.expr, message: str, *, fix: Fix | None = None) -> None:
        if self._anchor is not None:
            node, note = self._anchor
            super().report(node, f"{message} ({note})")
            return
        super().report(where, message, fix=fix)


# -- imports: the qualified name of a callee --------------------------------------------

# Bindings that make an imported name's meaning unprovable when the file also has one.
_NOT_AN_IMPORT: Final = frozenset(
    {ASSIGN, ANNOTATED, AUGMENTED, WALRUS, STORE, DELETE, PARAMETER, DEF, CLASS_DEF}
)


def imports_of(context: FileContext) -> Mapping[str, str]:
    """Local name -> the module path it stands for, from the file's imports.

    ``import datetime as dt`` gives ``dt -> datetime``; ``from datetime import
    datetime`` gives ``datetime -> datetime.datetime``. A name imported twice as two
    different things, or also bound otherwise anywhere in the file (assigned, a
    parameter, a def), is left out: its meaning is not provable. Read from the index
    once per file.
    """
    index = context.index
    known = index.memo("imports")
    if known is not None:
        return known  # type: ignore[return-value]
    found: dict[str, str] = {}
    doubtful: set[str] = set()
    for scope in index.scopes.values():
        for local, bindings in scope.bindings.items():
            for binding in bindings:
                alias = binding.node
                statement = binding.statement
                if binding.kind == IMPORT:
                    target = alias.name if alias.asname is not None else local  # type: ignore[attr-defined]
                elif (
                    binding.kind == IMPORT_FROM
                    and isinstance(statement, ast.ImportFrom)
                    and statement.module
                    and not statement.level
                ):
                    target = f"{statement.module}.{alias.name}"  # type: ignore[attr-defined]
                else:
                    continue
                if found.get(local, target) != target:
                    doubtful.add(local)
                found[local] = target
    result = {
        local: target
        for local, target in found.items()
        if local not in doubtful
        and not any(binding.kind in _NOT_AN_IMPORT for binding in index.bindings_anywhere(local))
    }
    index.remember("imports", result)
    return result


def qualified_name(context: FileContext, node: ast.expr) -> str | None:
    """``datetime.datetime.now`` for ``datetime.now`` after ``from datetime import
    datetime``; None when the base name is not provably an import."""
    attrs: list[str] = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    base = imports_of(context).get(node.id)
    if base is None:
        return None
    return ".".join([base, *reversed(attrs)])


# -- dates and clocks ------------------------------------------------------------------

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_YEAR = r"(?:19|20|21)\d\d"
# Each pattern is a whole date; numbers glued to other digits are not dates.
_DATE_PATTERNS: Final = (
    # 2024-05-01, 2024-05-01T10:00:00Z, 2024-05-01 10:00
    re.compile(rf"(?<![\d.])({_YEAR})-(\d\d)-(\d\d)(?!\d|[.-]\d\d\b)"),
    # 20240501T100000Z (ISO 8601 basic format, with a time so that it is not any number)
    re.compile(rf"(?<![\d.])({_YEAR})(\d\d)(\d\d)T\d\d(?:\d\d)?"),
    # 2024/05/01
    re.compile(rf"(?<![\d.])({_YEAR})/(\d{{1,2}})/(\d{{1,2}})(?![\d/]|\.\d)"),
    # 05/01/2024, 1.5.2024
    re.compile(rf"(?<![\d./])(\d{{1,2}})([/.])(\d{{1,2}})\2({_YEAR})(?!\d|[./]\d)"),
    # 1 May 2024, 1st of May 2024, Wed, 01 May 2024 10:00:00 GMT
    re.compile(rf"(?<![\w])\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\.?,?\s+{_YEAR}(?!\d)", re.IGNORECASE),
    # May 1, 2024
    re.compile(rf"(?<![\w]){_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+{_YEAR}(?!\d)", re.IGNORECASE),
)


def _valid_month_day(month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= 31


def looks_like_date(text: str) -> bool:
    """True when ``text`` holds a calendar date: ISO (``2024-05-01``, with or without a
    time), ``2024/05/01``, ``05/01/2024``, ``1.5.2024``, ``1 May 2024``, ``May 1, 2024``.

    Conservative: the year is 1900–2199, months and days must be possible, and digits
    glued to the match (a version ``1.2.2024.3``, an id ``120240501``) are not dates.
    """
    for index, pattern in enumerate(_DATE_PATTERNS):
        for match in pattern.finditer(text):
            if index in (0, 1, 2):
                if _valid_month_day(int(match.group(2)), int(match.group(3))):
                    return True
            elif index == 3:
                first, second = int(match.group(1)), int(match.group(3))
                if _valid_month_day(first, second) or _valid_month_day(second, first):
                    return True
            else:
                return True
    return False


# Callees whose result is a time read from the clock when the tool runs.
_CLOCK_CALLS: Final = frozenset(
    {
        "datetime.datetime.now",
        "datetime.datetime.utcnow",
        "datetime.datetime.today",
        "datetime.date.today",
        "time.time",
        "time.time_ns",
        "time.gmtime",
        "time.localtime",
        "time.ctime",
        "time.asctime",
        "arrow.now",
        "arrow.utcnow",
        "pendulum.now",
        "pendulum.today",
        "pandas.Timestamp.now",
        "pandas.Timestamp.utcnow",
        "pandas.Timestamp.today",
    }
)
# Callees that build a fixed time from literal arguments.
_DATE_CONSTRUCTORS: Final = frozenset({"datetime.datetime", "datetime.date"})
# Callees that parse a fixed time from a literal first argument.
_DATE_PARSERS: Final = frozenset(
    {
        "datetime.datetime.fromisoformat",
        "datetime.date.fromisoformat",
        "datetime.datetime.strptime",
        "datetime.datetime.fromtimestamp",
        "datetime.datetime.utcfromtimestamp",
        "datetime.date.fromtimestamp",
    }
)
# Methods that keep the time they are called on (a string of it, the same instant in
# another zone, its timestamp...).
_TIME_KEEPING_METHODS: Final = frozenset(
    {
        "isoformat",
        "strftime",
        "timestamp",
        "replace",
        "astimezone",
        "date",
        "ctime",
        "__str__",
        "format",
        "to_iso8601_string",
    }
)
# Builtins that convert a time (or a timestamp) and keep what it is.
_CONVERTERS: Final = frozenset({"str", "int", "float", "round", "repr"})
# time.strftime(format, t?) reads the clock when given no time.
_STRFTIME: Final = frozenset({"time.strftime"})


@dataclass(frozen=True, slots=True)
class TimeSource:
    """Where a ``measuredAt`` value provably comes from: ``"date"`` (typed into the
    source) or ``"clock"`` (read when the tool runs); ``what`` is the expression that
    shows it, for the message."""

    kind: str
    what: str
    bound: str = ""
    """`` (DAY = '2024-05-01' (line 3))`` when a followed name holds it; else empty."""


def time_source(call: CallSite, node: ast.expr, *, same_file: bool = True) -> TimeSource | None:
    """Whether ``node`` is a hard-coded date or a clock reading, and through what value.

    ``same_file`` is False inside a value bound in another module: the callees there
    mean what that module imports, which is not read, so only literals are judged.
    """
    if isinstance(node, (ast.Name, ast.Attribute)):
        value = follow(call, node, may_be_time)
        if value is None or value.via is None:
            return None
        found = _time_of(call, value.node, same_file=same_file and value.same_file)
        if found is not None and not found.bound:
            found = TimeSource(found.kind, found.what, value.bound)
        return found
    return _time_of(call, node, same_file=same_file)


def _time_of(call: CallSite, node: ast.expr, *, same_file: bool) -> TimeSource | None:
    context = call.context

    def inner(expr: ast.expr) -> TimeSource | None:
        return time_source(call, expr, same_file=same_file)

    text = text_of(node)
    if text is not None:
        return TimeSource("date", repr(text)) if looks_like_date(text) else None
    if isinstance(node, ast.JoinedStr):
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                if looks_like_date(part.value):
                    return TimeSource("date", shown(node))
            elif isinstance(part, ast.FormattedValue):
                found = inner(part.value)
                if found is not None:
                    return found
        return None
    if isinstance(node, ast.BinOp):
        # A fixed or clock time shifted by a delta is still that time.
        return inner(node.left) or inner(node.right)
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    # Names inside a value bound in another module mean what that module imports.
    qualified = qualified_name(context, func) if same_file else call.resolver.qualified_name(func)
    if qualified in _CLOCK_CALLS:
        return TimeSource("clock", shown(node))
    if qualified in _STRFTIME:
        if len(node.args) >= 2:
            return inner(node.args[1])
        return TimeSource("clock", shown(node))
    if qualified in _DATE_CONSTRUCTORS:
        components = [*node.args, *(kw.value for kw in node.keywords if kw.arg not in ("tzinfo", "fold"))]
        if components and all(literal_kind(arg) == "number" for arg in components):
            return TimeSource("date", shown(node))
        return None
    if qualified in _DATE_PARSERS:
        if node.args:
            first = node.args[0]
            if text_of(first) is not None or literal_kind(first) == "number":
                return TimeSource("date", shown(node))
            return inner(first)
        return None
    if isinstance(func, ast.Attribute) and func.attr in _TIME_KEEPING_METHODS:
        return inner(func.value)
    if isinstance(func, ast.Name) and func.id in _CONVERTERS and len(node.args) == 1 and func.id not in imports_of(context):
        return inner(node.args[0])
    return None


# -- the rules --------------------------------------------------------------------------

_PROVENANCE: Final = frozenset({"provenance"})


class DataWithoutProvenance(Rule):
    """
    ## What it does
    Reports a `described_result(...)` that carries `series` or `facts` and no
    `provenance` at all. The finding is on the call's name.

    ## Why is this bad?
    Numbers without a time and a source cannot be read honestly: the model cannot tell
    a reading from this morning from one of last year, nor which system said so. The
    mint refuses series or facts without `provenance.measuredAt` and
    `provenance.source` at run time. Edges and a clarify question need no provenance.

    ## Known problems
    Nothing is reported when the call spreads a dict (`**decl`), or holds a key that
    is not a field (it may be the provenance misspelled, reported on its own).
    """

    code = "SEM201"
    name = "data-without-provenance"
    calls = frozenset({"described_result"})

    VALID = (
        Valid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.exported_at, "source": "cmdb"},
                )
            """
        ),
        Valid(
            """
            def tool(matches):
                # A clarify question and edges need no provenance.
                return described_result(
                    edges=[{"from": "vm-01", "to": "ds-7", "kind": "rides"}],
                    clarify={"question": "Which vm?", "candidates": matches},
                )
            """
        ),
        Valid(
            """
            def tool(rows, decl):
                return described_result(facts=rows, **decl)
            """
        ),
        Valid(
            """
            def saved_record(rows):
                # A hand-built wire envelope is not a declaration.
                return {"af_semantics": True, "facts": rows}
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows)
            """,
            line=2,
            column=11,
            field="provenance",
        ),
        Invalid(
            """
            def tool(vm, runs):
                return described_result(
                    series=[{"t": r.day, "entity": vm, "metric": "ok", "value": r.ok} for r in runs],
                    grain={"interval": "daily", "aggregation": "count", "isCounter": False},
                )
            """,
            line=2,
            column=11,
            field="series",
        ),
        Invalid(
            """
            def tool(export):
                return describedResult({"facts": export.rows, "render": {"default": "table"}})
            """,
            field="describedResult",
        ),
    )

    def visit_declaration(self, declaration: Declaration) -> None:
        top = declaration.top
        if keys_in_doubt(top) or top.has("provenance"):
            return
        carried = [name for name in ("series", "facts") if top.has(name)]
        if not carried:
            return
        spelled = " and ".join(f"`{top.get(name).spelled}`" for name in carried)  # type: ignore[union-attr]
        self.report(
            declaration.call.func_node,
            f"{self.call.spelled}(...) carries {spelled} with no `provenance`: add "
            "provenance={'measuredAt': <when the data was measured>, 'source': <the system of record>}",
        )


def _problem_with_text(value: Value) -> str | None:
    """Why a required text field's value is provably not a non-empty string, or None."""
    node = value.node
    kind = literal_kind(node)
    if kind is None:
        return None
    if kind == "str":
        return "is empty" if is_blank_text(node) else None
    return f"is {kind_word(kind)}, not a string"


class IncompleteProvenance(FollowingRule):
    """
    ## What it does
    Reports a `provenance` without `measuredAt` or without `source`, or with either
    provably empty: an empty or blank string, `None`, or a literal that is not a string.
    A missing field is reported on the provenance dict, an empty one on its value.

    ## Why is this bad?
    `measuredAt` says when the world was measured and `source` which system of record
    said so; a reader needs both to judge the numbers. The mint refuses a result with
    data whose provenance lacks either, or holds an empty one, at run time.

    A snake_case `measured_at` counts as the field it means here: it is reported once,
    as a snake_case key.

    ## Known problems
    A provenance that spreads a dict (`{**base, ...}`) or holds a key that is not a
    field (it may be the missing one misspelled) is not reported as incomplete. A
    `source` imported from another module is not followed: a blank one is too rare to
    parse every module that imports its source for.
    """

    code = "SEM202"
    name = "incomplete-provenance"
    calls = frozenset({"described_result"})

    VALID = (
        Valid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.exported_at, "source": export.system, "ageSeconds": 30},
                )
            """
        ),
        Valid(
            """
            def tool(export, base):
                return described_result(facts=export.rows, provenance={**base, "source": "cmdb"})
            """
        ),
        Valid(
            """
            def tool(export, source):
                return described_result(facts=export.rows, provenance=dict(measuredAt=export.at, source=source))
            """
        ),
        Valid(
            """
            def tool(export):
                # Call results are unknown: the runtime checker judges them.
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.newest(), "source": export.system_name()},
                )
            """
        ),
        Valid(
            """
            def tool(export):
                provenance = {"measuredAt": export.at}
                # Changed after it was bound: the linter cannot know its keys.
                provenance["source"] = export.system
                return described_result(facts=export.rows, provenance=provenance)
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"source": "powerstore"},
                )
            """,
            line=4,
            column=19,
            field="measuredAt",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "  "})
            """,
            line=2,
            column=94,
            field="provenance.source",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": None, "source": "cmdb"})
            """,
            field="provenance.measuredAt",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={})
            """,
            field="`measuredAt` and `source`",
        ),
        Invalid(
            """
            UNKNOWN_SOURCE = ""

            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": UNKNOWN_SOURCE},
                )
            """,
            line=6,
            field='UNKNOWN_SOURCE = ""',
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"measured_at": export.at})
            """,
            codes=("SEM102", "SEM202"),
            field="source",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance=None)
            """,
            field="provenance",
        ),
    )

    def visit_declaration(self, declaration: Declaration) -> None:
        self.visit_named_parts(declaration, _PROVENANCE)

    def visit_field(self, field: Field) -> None:
        if not data_field(field):
            return
        part = field.part
        if part.kind == "described_result" and field.name == "provenance":
            value = follow(self.call, field.value_ast, not_a_dict)
            if value is None:
                return
            kind = literal_kind(value.node)
            if kind is not None and kind != "dict":
                self.report(
                    field.value_ast,
                    f"`provenance` in {self.call.spelled}(...) is {kind_word(kind)}{value.bound}: "
                    "give a dict {'measuredAt': ..., 'source': ...}, or leave it out when the "
                    "result carries no series or facts",
                )
            return
        if part.kind != "provenance" or field.name not in ("measuredAt", "source"):
            return
        value = follow(
            self.call,
            field.value_ast,
            text_problem,
            imports=(part.kind, field.name) not in _NOT_FOLLOWED_THROUGH_IMPORTS,
        )
        if value is None:
            return
        problem = _problem_with_text(value)
        if problem is None:
            return
        meant = (
            "when the world was measured, taken from the data"
            if field.name == "measuredAt"
            else "the system of record the values were read from"
        )
        self.report(
            field.value_ast,
            f"`{field.path}` in {self.call.spelled}(...) {problem}{value.bound}: it must say {meant}",
        )

    def visit_part(self, part: Part) -> None:
        if part.kind != "provenance" or keys_in_doubt(part):
            return
        missing = [name for name in ("measuredAt", "source") if not part.has(name)]
        if not missing:
            return
        said = " and ".join(f"`{name}`" for name in missing)
        self.report(
            part,
            f"`provenance` in {self.call.spelled}(...) has no {said}: a reader needs "
            "`measuredAt` (when the world was measured, from the data) and `source` "
            "(the system of record)",
        )


class TimeInMeasuredAt(FollowingRule):
    """A `measuredAt` whose time does not come from the data (SEM203, SEM204)."""

    abstract = True
    time_kind: ClassVar[str]
    """The :class:`TimeSource` kind the rule reports: ``date`` or ``clock``."""
    problem: ClassVar[str]
    consequence: ClassVar[str]

    def visit_declaration(self, declaration: Declaration) -> None:
        self.visit_named_parts(declaration, _PROVENANCE)

    def visit_field(self, field: Field) -> None:
        if field.part.kind != "provenance" or field.name != "measuredAt" or not data_field(field):
            return
        source = time_source(self.call, field.value_ast)
        if source is None or source.kind != self.time_kind:
            return
        self.report(
            field.value_ast,
            f"`{field.path}` in {self.call.spelled}(...) {self.problem} "
            f"({source.what}){source.bound}: {self.consequence}; take the time from the "
            "data (the export's timestamp, the newest sample)",
        )


class HardCodedMeasuredAt(TimeInMeasuredAt):
    """
    ## What it does
    Reports a date typed into the tool as `provenance.measuredAt`: a date-like string
    literal (`"2024-05-01"`, `"2024-05-01T10:00:00Z"`, `"05/01/2024"`, `"1 May 2024"`),
    an f-string with a date-like part, `datetime(2024, 5, 1)` / `date(...)` with literal
    arguments, `datetime.fromisoformat("...")` and the like, or a name bound to one of
    these (the finding is at the use, naming where the value was bound).

    ## Why is this bad?
    `measuredAt` tells the model how old the numbers are. A date written in the source
    stays the same on every run, so from the day after it was written every answer
    claims a measurement time that is false. Take it from the data: the export's
    timestamp, the newest sample.

    ## Known problems
    A value bound in another module is judged as written there, but its calls are not
    (the linter does not read that module's imports).
    """

    code = "SEM203"
    name = "hard-coded-measured-at"
    calls = frozenset({"described_result"})

    VALID = (
        Valid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.exported_at, "source": "cmdb"},
                )
            """
        ),
        Valid(
            """
            def tool(export, day):
                # A date in a fact column is the tool's data, not its provenance.
                return described_result(
                    facts=[{"entity": "vm-01", "last_backup": "2024-05-01"}],
                    provenance={"measuredAt": f"{day}T00:00:00Z", "source": "backup export"},
                )
            """
        ),
        Valid(
            """
            from datetime import datetime

            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": datetime.fromisoformat(export.at).isoformat(), "source": "cmdb"},
                )
            """
        ),
        Valid(
            """
            def tool(export, at):
                return described_result(facts=export.rows, provenance={"measuredAt": at, "source": "cmdb"})
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": "2024-05-01T00:00:00Z", "source": "cohesity"},
                )
            """,
            line=4,
            column=34,
            field="provenance.measuredAt",
        ),
        Invalid(
            """
            from datetime import datetime

            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": datetime(2024, 5, 1), "source": "unisphere"},
                )
            """,
            line=6,
            column=34,
            field="datetime(2024, 5, 1)",
        ),
        Invalid(
            """
            REPORT_DAY = "2024-06-30"

            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": REPORT_DAY, "source": "servicenow"},
                )
            """,
            line=6,
            column=34,
            field='REPORT_DAY = "2024-06-30" (line 1)',
        ),
        Invalid(
            """
            import datetime as dt

            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance=dict(measuredAt=dt.date.fromisoformat("2024-05-01").isoformat(), source="x"),
                )
            """,
            field="measuredAt",
        ),
        Invalid(
            """
            def tool(export, hour):
                return described_result(facts=export.rows, provenance={"measuredAt": f"1 May 2024 {hour}:00", "source": "x"})
            """,
            field="1 May 2024",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"measured_at": "05/01/2024", "source": "x"})
            """,
            codes=("SEM102", "SEM203"),
            field="provenance.measured_at",
        ),
        Invalid(
            """
            PROVENANCE = {"measuredAt": "2024-05-01", "source": "cmdb"}

            def tool(export):
                return described_result(facts=export.rows, provenance=PROVENANCE)
            """,
            line=4,
            column=58,
            field="`provenance` is PROVENANCE = ",
        ),
    )

    time_kind = "date"
    problem = "is a date written into the source"
    consequence = "it will be wrong from the next run on"


class MeasuredAtFromClock(TimeInMeasuredAt):
    """
    ## What it does
    Reports a `provenance.measuredAt` read from the clock: `datetime.now()`,
    `datetime.utcnow()`, `datetime.now(timezone.utc)`, `date.today()`, `time.time()`,
    their `.isoformat()` or `str(...)`, an f-string of them, or a name bound to one.

    ## Why is this bad?
    The clock says when the tool ran, not when the world was measured. An export from
    last night read now would claim to be fresh, and the model would trust stale
    numbers. Take the time from the data: the export's timestamp, the newest sample.

    This is a warning: a tool that really does measure the world at the moment it runs
    (a live poll) may be right to use the clock; suppress the finding there with
    `# noqa: SEM204`.
    """

    code = "SEM204"
    name = "measured-at-from-clock"
    severity = Severity.WARNING
    calls = frozenset({"described_result"})

    VALID = (
        Valid(
            """
            from datetime import datetime

            def tool(export):
                return described_result(
                    facts=[{"entity": "vm-01", "checked_at": datetime.now().isoformat()}],
                    provenance={"measuredAt": export.exported_at, "source": "cmdb"},
                )
            """
        ),
        Valid(
            """
            def tool(export, now):
                # A parameter called now is still the caller's value, not the clock.
                return described_result(facts=export.rows, provenance={"measuredAt": now(), "source": "cmdb"})
            """
        ),
        Valid(
            """
            from datetime import datetime

            def now_record(rows):
                return {"af_semantics": True, "facts": rows, "provenance": {"measured_at": datetime.now()}}
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            from datetime import datetime

            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": datetime.now(), "source": "unisphere"},
                )
            """,
            line=6,
            column=34,
            field="datetime.now()",
        ),
        Invalid(
            """
            from datetime import datetime, timezone

            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": datetime.now(timezone.utc).isoformat(), "source": "x"},
                )
            """,
            field="provenance.measuredAt",
        ),
        Invalid(
            """
            import time

            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": str(time.time()), "source": "x"})
            """,
            field="time.time()",
        ),
        Invalid(
            """
            import datetime

            def tool(export):
                stamp = f"{datetime.date.today()}"
                return described_result(facts=export.rows, provenance={"measuredAt": stamp, "source": "x"})
            """,
            line=5,
            field="stamp = ",
        ),
        Invalid(
            """
            from datetime import datetime, timezone

            STARTED = datetime.now(timezone.utc)

            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": STARTED.isoformat(), "source": "x"})
            """,
            line=6,
            field="STARTED = datetime.now(timezone.utc) (line 3)",
        ),
    )

    time_kind = "clock"
    problem = "is read from the clock"
    consequence = "that is when the tool ran, not when the world was measured"


# Callees and constants that are provably not a finite number.
_NOT_FINITE_CONSTANTS: Final = frozenset(
    {"math.inf", "math.nan", "numpy.inf", "numpy.nan", "numpy.NaN", "numpy.Inf", "cmath.inf", "cmath.nan"}
)


def _age_problem(call: CallSite, node: ast.expr) -> tuple[str, Value] | None:
    """Why an ``ageSeconds`` value is provably not a finite number >= 0, or None."""
    context = call.context
    negate = False
    inner = node
    if isinstance(inner, ast.UnaryOp) and isinstance(inner.op, (ast.USub, ast.UAdd)):
        negate = isinstance(inner.op, ast.USub)
        inner = inner.operand
    if isinstance(inner, (ast.Name, ast.Attribute)):
        if qualified_name(context, inner) in _NOT_FINITE_CONSTANTS:
            return "is not finite", Value(node)
        if negate:
            return None
        value = follow(call, node, lambda bound: is_literalish(bound) or isinstance(bound, ast.Call))
        if value is None or value.via is None:
            return None
        problem = _literal_age_problem(value.node)
        return (problem, value) if problem is not None else None
    problem = _literal_age_problem(node)
    return (problem, Value(node)) if problem is not None else None


def _literal_age_problem(node: ast.expr) -> str | None:
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "float"
        and len(node.args) == 1
        and not node.keywords
    ):
        text = text_of(node.args[0])
        if text is None:
            return None
        try:
            number = float(text)
        except ValueError:
            return None  # float() would raise: that is the call's error, not this field's
        if not math.isfinite(number):
            return "is not finite"
        return "is negative" if number < 0 else None
    kind = literal_kind(node)
    if kind is None:
        return None
    if kind == "bool":
        return "is a bool, not a number"
    if kind != "number":
        return f"is {kind_word(kind)}, not a number"
    value = _number(node)
    if value is None:
        return None
    if isinstance(value, complex):
        return "is a complex number"
    if not math.isfinite(value):
        return "is not finite"
    if value < 0:
        return "is negative"
    return None


def _number(node: ast.expr) -> float | complex | None:
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, complex)):
        return None
    if isinstance(value, int):
        # An integer too large for a float is read as JSON reads it: infinite.
        if abs(value) < 2**1000:
            return float(value)
        return math.inf if value > 0 else -math.inf
    return value


class InvalidAgeSeconds(FollowingRule):
    """
    ## What it does
    Reports a `provenance.ageSeconds` that is provably not a finite number >= 0: a
    negative number, `float("inf")`, `float("nan")`, `math.inf`, a bool, a string,
    `None`, a list — written in the call or bound to a name.

    ## Why is this bad?
    `ageSeconds` tells the model how old the data was when it was read. A negative or
    infinite age is no age at all, and `True` is not a number of seconds (although
    Python lets a bool pass for an int). The mint refuses it at run time.
    """

    code = "SEM205"
    name = "invalid-age-seconds"
    calls = frozenset({"described_result"})

    VALID = (
        Valid(
            """
            def tool(export, now):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "cmdb", "ageSeconds": now - export.epoch},
                )
            """
        ),
        Valid(
            """
            def tool(export):
                # An age column of a fact row is the tool's data.
                return described_result(
                    facts=[{"entity": "snap-1", "age_seconds": -1}],
                    provenance={"measuredAt": export.at, "source": "powerstore", "ageSeconds": 0},
                )
            """
        ),
        Valid(
            """
            def tool(export, age):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x", "ageSeconds": -age})
            """
        ),
        Valid(
            """
            def tool(export, age_of):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x", "ageSeconds": age_of(export)})
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(newest):
                return described_result(
                    facts=[{"entity": "vol-1", "snapshot": newest.name}],
                    provenance={"measuredAt": newest.taken_at, "source": "powerstore", "ageSeconds": -5},
                )
            """,
            line=4,
            column=89,
            field="provenance.ageSeconds",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x", "ageSeconds": float("inf")})
            """,
            field="not finite",
        ),
        Invalid(
            """
            import math

            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x", "ageSeconds": math.nan})
            """,
            field="not finite",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x", "ageSeconds": True})
            """,
            field="bool",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x", "ageSeconds": "30"})
            """,
            field="a string",
        ),
        Invalid(
            """
            STALE = None

            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance=dict(measuredAt=export.at, source="x", age_seconds=STALE),
                )
            """,
            codes=("SEM102", "SEM205"),
            field="STALE = None (line 1)",
        ),
    )

    def visit_declaration(self, declaration: Declaration) -> None:
        self.visit_named_parts(declaration, _PROVENANCE)

    def visit_field(self, field: Field) -> None:
        if field.part.kind != "provenance" or field.name != "ageSeconds" or not data_field(field):
            return
        found = _age_problem(self.call, field.value_ast)
        if found is None:
            return
        problem, value = found
        self.report(
            field.value_ast,
            f"`{field.path}` in {self.call.spelled}(...) {problem}{value.bound}: it must be a "
            "finite number of seconds >= 0 (how old the data was when read), or left out",
        )


PROVENANCE_RULES: tuple[type[Rule], ...] = (
    DataWithoutProvenance,
    IncompleteProvenance,
    HardCodedMeasuredAt,
    MeasuredAtFromClock,
    InvalidAgeSeconds,
)
