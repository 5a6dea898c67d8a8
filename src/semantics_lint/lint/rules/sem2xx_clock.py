"""SEM2xx: ``provenance.measuredAt`` read from a date typed into the tool or from its clock.

``provenance.measuredAt`` must be the time the data says it was measured (the export's
time, the newest sample), never a date typed into the tool (SEM203) nor the tool's own
clock (SEM204). :func:`time_source` says which of the two a value provably is, through
the names it is bound to; :func:`looks_like_date` which texts are calendar dates.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final

from semantics_lint.lint.core.model import Severity
from semantics_lint.lint.resolve import FOLLOWED
from semantics_lint.lint.rules.base import DATA_KEYS, Check, Invalid, Rule, Selector, Valid
from semantics_lint.lint.rules.values import follow, imports_of, literal_kind, qualified_name, shown, text_of

if TYPE_CHECKING:
    from semantics_lint.lint.calls.context import CallSite
    from semantics_lint.lint.calls.declaration import Field

_PROVENANCE: Final = frozenset({"provenance"})


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
    re.compile(
        rf"(?<![\w])\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\.?,?\s+{_YEAR}(?!\d)",
        re.IGNORECASE,
    ),
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
    if isinstance(node, ast.NamedExpr):
        return time_source(call, node.value, same_file=same_file)
    if isinstance(node, FOLLOWED):
        value = follow(call, node)
        if value is None or value.via is None:
            # An f-string the resolver cannot fold is judged by its pieces.
            return _time_of(call, node, same_file=same_file) if isinstance(node, ast.JoinedStr) else None
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
        components = [
            *node.args,
            *(kw.value for kw in node.keywords if kw.arg not in ("tzinfo", "fold")),
        ]
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
    if (
        isinstance(func, ast.Name)
        and func.id in _CONVERTERS
        and len(node.args) == 1
        and func.id not in imports_of(context)
    ):
        return inner(node.args[0])
    return None


# -- the rules --------------------------------------------------------------------------


class TimeInMeasuredAt(Rule):
    """A `measuredAt` whose time does not come from the data (SEM203, SEM204)."""

    abstract = True
    judges = Selector(
        parts=_PROVENANCE,
        keys=frozenset({("provenance", "measuredAt")}),
        statuses=DATA_KEYS,
        named=_PROVENANCE,
    )
    time_kind: ClassVar[str]
    """The :class:`TimeSource` kind the rule reports: ``date`` or ``clock``."""
    problem: ClassVar[str]
    consequence: ClassVar[str]

    def visit_field(self, check: Check, field: Field) -> None:
        source = time_source(check.call, field.value_ast)
        if source is None or source.kind != self.time_kind:
            return
        check.report(
            field.value_ast,
            f"`{field.path}` {self.problem} ({source.what})",
            help=f"{self.consequence}; take the time from the data (the export's timestamp, "
            f"the newest sample){source.bound}",
        )


class HardCodedMeasuredAt(TimeInMeasuredAt):
    """
    ## What it does
    Reports a date typed into the tool as `provenance.measuredAt`: a date-like string
    literal (`"2024-05-01"`, `"2024-05-01T10:00:00Z"`, `"05/01/2024"`, `"1 May 2024"`),
    an f-string with a date-like part, `datetime(2024, 5, 1)` / `date(...)` with literal
    arguments, `datetime.fromisoformat("...")` and the like, or a value that holds one
    (a name bound to it, a class constant, `SNAPSHOT["taken_at"]`, an f-string of
    constants: see "Values the linter follows"; the finding is at the use, naming where
    the value was bound).

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
    judges = TimeInMeasuredAt.judges._replace(calls=frozenset({"described_result"}))

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
        Valid(
            """
            class Jobs:
                EXPORTED_AT = "2024-08-01T12:00:00Z"

                def __init__(self, export):
                    self.EXPORTED_AT = export.exported_at  # each instance its own: not a constant

                def run(self, export):
                    return described_result(facts=export.rows, provenance={"measuredAt": self.EXPORTED_AT, "source": "x"})
            """
        ),
        Valid(
            """
            SNAPSHOT = {"taken_at": "2024-05-01T00:00:00Z"}

            def load(export):
                SNAPSHOT["taken_at"] = export.exported_at

            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": SNAPSHOT["taken_at"], "source": "x"})
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
        Invalid(
            """
            SNAPSHOT = {"taken_at": "2024-05-01T00:00:00Z", "source": "veeam"}

            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": SNAPSHOT["taken_at"], "source": "x"})
            """,
            field="('2024-05-01T00:00:00Z')",
        ),
        Invalid(
            """
            class Jobs:
                EXPORTED_AT = "2024-08-01T12:00:00Z"

                def run(self, export):
                    return described_result(facts=export.rows, provenance={"measuredAt": self.EXPORTED_AT, "source": "x"})
            """,
            field="('2024-08-01T12:00:00Z')",
        ),
        Invalid(
            """
            YEAR = 2024

            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": f"{YEAR}-{9:02d}-30", "source": "x"})
            """,
            field="('2024-09-30')",
        ),
        Invalid(
            """
            from functools import partial

            reply = partial(described_result, provenance={"measuredAt": "2024-05-01", "source": "x"})
            """,
            field="('2024-05-01')",
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
    judges = TimeInMeasuredAt.judges._replace(calls=frozenset({"described_result"}))

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


CLOCK_RULES: tuple[type[Rule], ...] = (
    HardCodedMeasuredAt,
    MeasuredAtFromClock,
)
