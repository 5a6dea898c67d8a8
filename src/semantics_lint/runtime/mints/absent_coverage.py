"""The coverage mints: ``absent()`` and ``coverage()``.

``absent(what=..., checked=[...])`` says "I looked, and there is nothing" in a
shape a model cannot read as a failure, and cannot productively retry.
``coverage(verdict, checked=[...], notChecked=[...], cannotCover=[...])`` wraps a
verdict with its own boundary: what it stands on and what it does NOT rule out.

Both take their declaration as camelCase keyword arguments or as one positional
dict, and both refuse at the call site: a :class:`Refusal` whose message starts
``refused:``, names the field as the caller spelled it, and says the fix. Every
key a declaration does not have is refused, never dropped (a list declared under
``not_checked`` would otherwise vanish without a word), and a snake_case key
names the camelCase one meant.

What the reference (agentfootprint 9.62.0) renders is reproduced exactly,
including the static notes; ``period`` and ``inProgress`` on ``coverage()``
follow the reference's later ``period.ts`` and ``inProgress.ts``.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, TypeVar, cast

from semantics_lint.runtime.envelope.refusal import (
    ARGUMENTS,
    BAD_VALUE,
    EMPTY,
    MISSING,
    SAYS_NOTHING,
    UNKNOWN_KEY,
    WRONG_TYPE,
    FieldPath,
    Refusal,
    field_text,
    refuse_unknown_keys,
    text_fault,
    unknown_key_refusal,
)
from semantics_lint.runtime.mints.items import (
    NOT_PASSED,
    coverage_content,
    is_list,
    normalize_coverage_list,
    shown,
    time_text,
    type_named,
)
from semantics_lint.vocabulary import (
    ABSENCE_MARKER,
    ABSENCE_NOTE,
    ABSENCE_OUTCOME,
    ABSENT_FIELDS,
    COVERAGE_MARKER,
    COVERAGE_NOTE,
    IN_PROGRESS_ITEM_FIELDS,
    LEDGER_FIELDS,
    PERIOD_FIELDS,
    PERIOD_HELD_UNKNOWN,
    PERIOD_SPAN_FIELDS,
    is_non_empty_string,
    js_trim,
    to_wire,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from semantics_lint.runtime.envelope.types import (
        AbsenceDeclaration,
        AbsenceFields,
        CoverageDeclaration,
        CoveredResult,
        ToolAbsence,
    )

__all__ = [
    "absent",
    "absent_checked",
    "absent_what",
    "coverage",
    "coverage_content",
    "instant_of",
    "mint_in_progress",
    "mint_period",
    "period_problem",
]

_MAX_SAFE_INTEGER: Final = 2**53 - 1

_Content = TypeVar("_Content")


def _declaration(
    fn: str, decl: object, fields: Mapping[str, Any], shape: str, argument: int
) -> Mapping[str, Any]:
    """The one declaration a mint was given: a positional dict or keyword arguments.

    ``argument`` is the positional index the dict takes in the call.
    """
    if decl is not None and fields:
        raise Refusal(
            f"refused: {fn}() takes its declaration either as one dict or as keyword "
            f"arguments, not both: {shape}.",
            kind=ARGUMENTS,
        )
    if decl is None:
        if not fields:
            raise Refusal(f"refused: {fn}() takes a declaration: {shape}.", kind=ARGUMENTS)
        return fields
    if not isinstance(decl, Mapping):
        raise Refusal(
            f"refused: {fn}() takes its declaration as keyword arguments or one dict, "
            f"got {shown(decl)}: {shape}.",
            kind=ARGUMENTS,
            argument=argument,
        )
    return decl


def _get(decl: Mapping[str, Any], key: str) -> object:
    """``decl[key]``, or :data:`NOT_PASSED` when the key is not there (``None`` stays ``None``)."""
    return decl.get(key, NOT_PASSED)


# ---------------------------------------------------------------------------
# absent()
# ---------------------------------------------------------------------------

_ABSENT_SHAPE: Final = "absent(what=..., checked=[...], notChecked=?, cannotCover=?, tryInstead=?)"


# One signature, its keywords typed by the parts, so that a type checker names the
# key at fault (types.AbsenceFields). The runtime judges every rule.
def absent(decl: AbsenceDeclaration | None = None, /, **fields: Unpack[AbsenceFields]) -> ToolAbsence:
    """Say "I looked, and there is nothing": the rendered absence a tool returns.

    ``what`` (non-empty) names what was looked for; ``checked`` (non-empty) the
    ground that WAS searched; ``notChecked`` and ``cannotCover`` (each item with a
    ``why``) the ground that was not; ``tryInstead`` where to go instead. A
    ``tryInstead`` that is not a non-empty string is left out, as the reference
    does. Raises :class:`Refusal` for anything a reader could not act on.
    """
    fn = "absent"
    declaration = _declaration(fn, decl, fields, _ABSENT_SHAPE, 0)
    refuse_unknown_keys((), declaration, ABSENT_FIELDS)
    what = absent_what(_get(declaration, "what"))
    checked = absent_checked(_get(declaration, "checked"), what)
    not_checked = normalize_coverage_list(fn, "notChecked", _get(declaration, "notChecked"), False)
    cannot_cover = normalize_coverage_list(fn, "cannotCover", _get(declaration, "cannotCover"), True)
    raw_try = declaration.get("tryInstead")
    try_instead = js_trim(raw_try) if isinstance(raw_try, str) else ""

    rendered: dict[str, Any] = {
        ABSENCE_MARKER: True,
        "outcome": ABSENCE_OUTCOME,
        "looked_for": what,
        "checked": checked,
    }
    if not_checked:
        rendered[to_wire("notChecked")] = not_checked
    if cannot_cover:
        rendered[to_wire("cannotCover")] = cannot_cover
    rendered["retry_returns_the_same"] = True
    if try_instead:
        rendered[to_wire("tryInstead")] = try_instead
    rendered["note"] = ABSENCE_NOTE
    return cast("ToolAbsence", rendered)


def absent_what(raw: object) -> str:
    """``absent()``'s ``what`` trimmed (:data:`NOT_PASSED` when not given), or a refusal."""
    what = js_trim(raw) if isinstance(raw, str) else ""
    if what == "":
        raise Refusal(
            "refused: absent(): `what` must say what was looked for (e.g. 'FLOGI entries on "
            "fc1/3'); an absence that cannot name what it did not find reads like a tool "
            "that returned nothing by accident.",
            path=("what",),
            kind=text_fault(raw, present=raw is not NOT_PASSED),
        )
    return what


def absent_checked(raw: object, what: str | None = None) -> list[dict[str, str]]:
    """``absent()``'s ``checked`` normalized (never empty), or a refusal.

    ``what`` (already judged) is quoted in the message; None when it is not known.
    """
    checked = normalize_coverage_list("absent", "checked", raw, False)
    if not checked:
        said = f" {shown(what)}:" if what is not None else ""
        raise Refusal(
            f"refused: absent():{said} `checked` must name at least one source, "
            "window or population that WAS searched; without it a reader cannot tell "
            "'I looked and there is nothing' from 'I could not look'. If the tool could not "
            "look, raise an error instead.",
            path=("checked",),
            kind=MISSING if raw is NOT_PASSED else EMPTY,
        )
    return checked


# ---------------------------------------------------------------------------
# period: {queried: {from, to}, held: {from, to} | "unknown", readAt?}
# ---------------------------------------------------------------------------

# RFC 3339 as a foreign minter may write it (lower-case ``t``/``z`` and the leap
# second ``:60`` accepted); a zone is required: an instant without one could be
# any of 24 hours, so it is refused rather than guessed.
_INSTANT: Final = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?"
    r"(?:([Zz])|([+-])(\d{2}):(\d{2}))",
    re.ASCII,
)


def _days_in_month(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (any year, no datetime limits)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def instant_of(value: object) -> tuple[int, int] | None:
    """``(seconds since the epoch, nanoseconds)`` of an ISO 8601 instant with a zone, or None.

    Exact: a nine-digit fraction is never rounded. A day past the month's end,
    hour 24 or an offset past 23:59 is not an instant.
    """
    if not isinstance(value, str):
        return None
    match = _INSTANT.fullmatch(value)
    if match is None:
        return None
    year, month, day, hour, minute = (int(match.group(i)) for i in range(1, 6))
    second = int(match.group(6)) if match.group(6) is not None else 0
    if not 1 <= month <= 12 or not 1 <= day <= _days_in_month(year, month):
        return None
    # 60 is RFC 3339's leap second: it compares as the next minute's :00.
    if hour > 23 or minute > 59 or second > 60:
        return None
    offset_minutes = 0
    if match.group(8) is None:
        offset_hours, offset_mins = int(match.group(10)), int(match.group(11))
        if offset_hours > 23 or offset_mins > 59:
            return None
        offset_minutes = (offset_hours * 60 + offset_mins) * (-1 if match.group(9) == "-" else 1)
    fraction = int(match.group(7).ljust(9, "0")) if match.group(7) is not None else 0
    seconds = (
        _days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset_minutes * 60
    )
    return seconds, fraction


def _unknown_key_problem(value: Mapping[Any, Any], known: tuple[str, ...], at: FieldPath) -> Refusal | None:
    for key in value:
        if key not in known:
            return unknown_key_refusal(at, key, known)
    return None


def _instant(value: object, path: FieldPath) -> object:
    """A period instant as the wire holds it: an aware ``datetime`` as its ISO 8601 text.

    A naive ``datetime`` or a ``date`` (a day, with no time or zone) is returned as
    its :class:`Refusal`; any other value is returned unchanged, for the instant rule.
    """
    where = field_text(path)
    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        return Refusal(
            f"refused: `{where}` is a date ({value.isoformat()}), a whole day, where an "
            "instant with a zone goes: give a datetime with its zone, e.g. "
            "datetime(2026, 9, 26, 8, 0, tzinfo=timezone.utc).",
            path=path,
            kind=BAD_VALUE,
        )
    try:
        return time_text(value, where, path)
    except Refusal as refusal:
        return refusal


def _instant_problem(span: Mapping[Any, Any], key: str, at: FieldPath) -> Refusal | None:
    value = _instant(span.get(key), (*at, key))
    if isinstance(value, Refusal):
        return value
    if instant_of(value) is not None:
        return None
    if value is None:
        kind = MISSING if key not in span else WRONG_TYPE
    else:
        kind = BAD_VALUE if isinstance(value, str) else WRONG_TYPE
    where = field_text((*at, key))
    got = (
        f"got {shown(value)}"
        if value is None or isinstance(value, str)
        else (f"{type_named(value)} ({shown(value)})")
    )
    return Refusal(
        f"refused: `{where}` must be an ISO 8601 instant with a zone, e.g. "
        f"'2026-09-26T08:00:00Z' or '2026-09-26T10:00:00+02:00'; {got}. "
        "An instant with no zone could be any of 24 hours, so it is refused, not guessed.",
        path=(*at, key),
        kind=kind,
    )


def _span_problem(value: object, at: FieldPath) -> Refusal | None:
    where = field_text(at)
    if not isinstance(value, Mapping):
        return Refusal(
            f"refused: `{where}` must be {{'from': ..., 'to': ...}}, two instants; got {shown(value)}.",
            path=at,
            kind=WRONG_TYPE,
        )
    extra = _unknown_key_problem(value, PERIOD_SPAN_FIELDS, at)
    if extra is not None:
        return extra
    bad = _instant_problem(value, "from", at) or _instant_problem(value, "to", at)
    if bad is not None:
        return bad
    start, end = _wire_span(value, at).values()
    if (instant_of(start) or (0, 0)) > (instant_of(end) or (0, 0)):
        return Refusal(
            f"refused: `{where}.from` ({start}) is after `{where}.to` ({end}); a span runs forward.",
            path=at,
            kind=BAD_VALUE,
        )
    return None


def _wire_span(span: Mapping[Any, Any], at: FieldPath) -> dict[str, Any]:
    """``{from, to}`` of a span already judged, each instant as its text."""
    return {key: _instant(span.get(key), (*at, key)) for key in ("from", "to")}


def period_problem(value: object) -> Refusal | None:
    """The first fault of a declared (camelCase) period as a :class:`Refusal`, or None.

    In order: a dict; no key it does not have; ``queried`` a ``{from, to}`` span of
    instants with ``from`` not after ``to``; ``held`` the literal ``"unknown"`` or a
    span by the same rule; ``readAt``, when given, an instant.
    """
    if not isinstance(value, Mapping):
        return Refusal(
            "refused: `period` must be {'queried': {'from', 'to'}, 'held': {'from', 'to'} "
            f"or 'unknown', 'readAt'?}}; got {shown(value)}.",
            path=("period",),
            kind=WRONG_TYPE,
        )
    extra = _unknown_key_problem(value, PERIOD_FIELDS, ("period",))
    if extra is not None:
        return extra
    queried = value.get("queried")
    if queried is None:
        return Refusal(
            "refused: `period.queried` must say what the read asked for: "
            "{'from': ..., 'to': ...}, two instants of the read behind this result.",
            path=("period", "queried"),
            kind=MISSING if "queried" not in value else WRONG_TYPE,
        )
    problem = _span_problem(queried, ("period", "queried"))
    if problem is not None:
        return problem
    held = value.get("held")
    if held != PERIOD_HELD_UNKNOWN:
        if held is None:
            return Refusal(
                "refused: `period.held` must say what the store holds: {'from': ..., "
                "'to': ...}, or 'unknown' when the tool cannot vouch for it.",
                path=("period", "held"),
                kind=MISSING if "held" not in value else WRONG_TYPE,
            )
        if isinstance(held, str):
            return Refusal(
                f"refused: `period.held` is {shown(held)}; it must be "
                "{'from': ..., 'to': ...} or the literal 'unknown'.",
                path=("period", "held"),
                kind=BAD_VALUE,
            )
        problem = _span_problem(held, ("period", "held"))
        if problem is not None:
            return problem
    if value.get("readAt") is not None:
        return _instant_problem(value, "readAt", ("period",))
    return None


def mint_period(declared: object) -> dict[str, Any] | None:
    """The wire form of a declared period, ``None`` when not declared; refuses a bad one.

    ``None`` (or a missing key) means "not declared", as in the reference. The wire
    spells ``readAt`` as ``read_at``; nothing of the caller's dicts is kept.
    """
    if declared is None or declared is NOT_PASSED:
        return None
    problem = period_problem(declared)
    if problem is not None:
        raise problem
    assert isinstance(declared, Mapping)
    queried, held = declared["queried"], declared["held"]
    wire: dict[str, Any] = {"queried": _wire_span(queried, ("period", "queried"))}
    wire["held"] = (
        PERIOD_HELD_UNKNOWN if held == PERIOD_HELD_UNKNOWN else _wire_span(held, ("period", "held"))
    )
    if declared.get("readAt") is not None:
        wire[to_wire("readAt")] = _instant(declared["readAt"], ("period", "readAt"))
    return wire


# ---------------------------------------------------------------------------
# inProgress: what the read found still running
# ---------------------------------------------------------------------------


def _is_count(value: object) -> bool:
    """A whole number of at least 1 that JavaScript holds exactly (a bool is not a number)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if isinstance(value, float) and (not math.isfinite(value) or not value.is_integer()):
        return False
    return 1 <= value <= _MAX_SAFE_INTEGER


def _in_progress_item(raw: object, path: FieldPath) -> dict[str, Any]:
    at = field_text(path)
    if isinstance(raw, str):
        if js_trim(raw) == "":
            raise Refusal(f"refused: `{at}` is blank; say what is still running.", path=path, kind=EMPTY)
        return {"what": js_trim(raw)}
    if not isinstance(raw, Mapping):
        raise Refusal(
            f"refused: `{at}` must be a non-empty string or "
            "{'what': ..., 'why'?: ..., 'count'?: ...}; "
            f"got {shown(raw)}.",
            path=path,
            kind=WRONG_TYPE,
        )
    unknown = next((key for key in raw if key not in IN_PROGRESS_ITEM_FIELDS), None)
    if unknown == "kind":
        raise Refusal(
            f"refused: `{at}.kind`: `kind` names ground a call did NOT reach, and an item "
            "in progress is ground the call read. Leave it out.",
            path=(*path, "kind"),
            kind=UNKNOWN_KEY,
        )
    refuse_unknown_keys(path, raw, IN_PROGRESS_ITEM_FIELDS)
    what = raw.get("what")
    if not is_non_empty_string(what):
        raise Refusal(
            f"refused: `{at}` names nothing: `what` must say what is still running.",
            path=(*path, "what"),
            kind=text_fault(what, present="what" in raw),
        )
    assert isinstance(what, str)
    item: dict[str, Any] = {"what": js_trim(what)}
    # ``None`` reads as omitted here, as in the reference's in-progress reader.
    why = raw.get("why")
    if why is not None:
        if not is_non_empty_string(why):
            raise Refusal(
                f"refused: `{at}` ({shown(what)}) has a `why` that says nothing; give one or leave it out.",
                path=(*path, "why"),
                kind=text_fault(why),
            )
        item["why"] = js_trim(why)
    count = raw.get("count")
    if count is not None:
        if not _is_count(count):
            number = not isinstance(count, bool) and isinstance(count, (int, float))
            raise Refusal(
                f"refused: `{at}` ({shown(what)}): `count` must be a whole number of at least 1 "
                f"(how many things this item stands for), or left out for one; got {shown(count)}.",
                path=(*path, "count"),
                kind=BAD_VALUE if number else WRONG_TYPE,
            )
        item["count"] = count
    return item


def mint_in_progress(raw: object) -> list[dict[str, Any]]:
    """The normalized ``inProgress`` items, ``[]`` when not declared; refuses a bad list."""
    if raw is None or raw is NOT_PASSED:
        return []
    if not is_list(raw):
        raise Refusal(
            "refused: `inProgress` must be a list of strings or "
            "{'what': ..., 'why'?: ..., 'count'?: ...} items; to say nothing is running, "
            "leave it out.",
            path=("inProgress",),
            kind=WRONG_TYPE,
        )
    assert isinstance(raw, (list, tuple))
    return [_in_progress_item(item, ("inProgress", index)) for index, item in enumerate(raw)]


# ---------------------------------------------------------------------------
# coverage()
# ---------------------------------------------------------------------------

_COVERAGE_SHAPE: Final = "coverage(result, checked=?, notChecked=?, cannotCover=?, period=?, inProgress=?)"


# One signature, its keywords typed by the parts, so that a type checker names the
# key at fault. The default marks a call given no content, which the runtime refuses.
def coverage(
    content: _Content = NOT_PASSED,  # type: ignore[assignment]
    decl: CoverageDeclaration | None = None,
    /,
    **fields: Unpack[CoverageDeclaration],
) -> CoveredResult[_Content]:
    """Return ``content`` with its own boundary: ``{"af_coverage": {...}, "result": content}``.

    The boundary comes first on purpose: a limit placed after a long result gets
    skimmed past. ``checked``/``notChecked``/``cannotCover`` are coverage lists;
    ``period`` says what time the read covered; ``inProgress`` what the read found
    still running (it needs ``checked`` beside it: an item in progress is ground the
    call read). A boundary that declares nothing is refused, and so is a described
    result as ``content``: it carries its own coverage.
    """
    fn = "coverage"
    plain = coverage_content(content)
    declaration = _declaration(fn, decl, fields, _COVERAGE_SHAPE, 1)
    refuse_unknown_keys((), declaration, LEDGER_FIELDS)
    checked = normalize_coverage_list(fn, "checked", _get(declaration, "checked"), False)
    not_checked = normalize_coverage_list(fn, "notChecked", _get(declaration, "notChecked"), False)
    cannot_cover = normalize_coverage_list(fn, "cannotCover", _get(declaration, "cannotCover"), True)
    period = mint_period(_get(declaration, "period"))
    in_progress = mint_in_progress(_get(declaration, "inProgress"))
    if in_progress and not checked:
        raise Refusal(
            "refused: coverage(): `inProgress` needs `checked` beside it: an item still "
            "running is ground the call read, so name what the read covered in `checked`.",
            path=("checked",),
            kind=MISSING if "checked" not in declaration else EMPTY,
        )
    if not (checked or not_checked or cannot_cover or period is not None or in_progress):
        raise Refusal(
            "refused: coverage(): the boundary declares nothing (every list is empty and "
            "there is no period), which would tell a reader nothing while looking like it "
            "did. Name what was checked, what was skipped, or what can never be seen; or "
            "return the result bare.",
            kind=SAYS_NOTHING,
        )
    marker: dict[str, Any] = {}
    if checked:
        marker["checked"] = checked
    if not_checked:
        marker[to_wire("notChecked")] = not_checked
    if cannot_cover:
        marker[to_wire("cannotCover")] = cannot_cover
    if period is not None:
        marker["period"] = period
    if in_progress:
        marker[to_wire("inProgress")] = in_progress
    marker["note"] = COVERAGE_NOTE
    return cast("CoveredResult[_Content]", {COVERAGE_MARKER: marker, "result": plain})
