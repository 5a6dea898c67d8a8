"""The rules of the lists of data: ``series`` points, ``facts`` rows, ``edges``.

Each walks one present list in the wire spelling and appends :class:`Fault` records;
:func:`semantics_lint.runtime.envelope.parts.part_faults` and the whole envelope's rule run them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from semantics_lint.runtime.envelope.faults import (
    _MISSING,
    Fault,
    Spelling,
    _fault,
    _is_number,
    _is_plain_object,
    _text_kind,
)
from semantics_lint.runtime.envelope.refusal import EMPTY, MISSING, WRONG_TYPE, FieldPath, text_fault
from semantics_lint.vocabulary import is_non_empty_string, js_trim


def _check_item_list(
    faults: list[Fault], field: str, path: FieldPath, listed: object, require_why: bool
) -> list[dict[str, Any]]:
    """Judge one rendered coverage list; return its well-formed items (untrimmed)."""
    if listed is _MISSING:
        return []
    if not isinstance(listed, list):
        _fault(
            faults,
            field,
            f"`{field}` must be a list of {{what, why?}} items, or left out.",
            WRONG_TYPE,
            path,
        )
        return []
    items: list[dict[str, Any]] = []
    for i, raw in enumerate(listed):
        at = f"{field}[{i}]"
        if not _is_plain_object(raw) or not is_non_empty_string(raw.get("what", _MISSING)):
            if _is_plain_object(raw):
                kind, where = _text_kind(raw, "what"), (*path, i, "what")
            else:
                kind, where = WRONG_TYPE, (*path, i)
            _fault(
                faults,
                at,
                f"`{at}` names no ground: a rendered coverage item is "
                "{what, why?} with a non-empty `what`.",
                kind,
                where,
            )
            continue
        why = raw.get("why", _MISSING)
        if why is not _MISSING and not is_non_empty_string(why):
            _fault(
                faults,
                f"{at}.why",
                f"`{at}.why` says nothing: give a reason or leave it out.",
                text_fault(why),
                (*path, i, "why"),
            )
            continue
        if require_why and why is _MISSING:
            _fault(
                faults,
                f"{at}.why",
                f"`{at}` ('{js_trim(raw['what'])}') has no `why`: a permanent blind spot "
                "must say what makes it permanent.",
                MISSING,
                (*path, i, "why"),
            )
            continue
        item: dict[str, Any] = {"what": raw["what"]}
        if why is not _MISSING:
            item["why"] = why
        items.append(item)
    return items


def _data_list_faults(
    faults: list[Fault], field: str, listed: object, row_faults: Callable[[int, Any], None]
) -> None:
    """The shared shape rule of ``series``/``facts``/``edges``: a non-empty list."""
    if isinstance(listed, list) and not listed:
        _fault(
            faults,
            field,
            f"`{field}` is empty: if nothing matched, return absent(what=..., checked=...) instead.",
            EMPTY,
            (field,),
        )
    elif not isinstance(listed, list):
        _fault(
            faults,
            field,
            f"`{field}` must be a non-empty list of rows, or left out.",
            WRONG_TYPE,
            (field,),
        )
    else:
        for i, row in enumerate(listed):
            row_faults(i, row)


def _series_faults(faults: list[Fault], series: object, spell: Spelling) -> None:
    def point_faults(i: int, point: Any) -> None:
        at = f"series[{i}]"
        if not _is_plain_object(point):
            _fault(
                faults,
                at,
                f"`{at}` is not a point dict {{t, entity, metric, value}}.",
                WRONG_TYPE,
                ("series", i),
            )
            return
        t = point.get("t", _MISSING)
        if not (isinstance(t, str) or _is_number(t)):
            _fault(
                faults,
                f"{at}.t",
                f"`{at}.t` must be the measurement time (an ISO string or an epoch number).",
                MISSING if t is _MISSING else WRONG_TYPE,
                ("series", i, "t"),
            )
        if not is_non_empty_string(point.get("entity", _MISSING)):
            _fault(
                faults,
                f"{at}.entity",
                f"`{at}.entity` must name what was measured.",
                _text_kind(point, "entity"),
                ("series", i, "entity"),
            )
        if not is_non_empty_string(point.get("metric", _MISSING)):
            _fault(
                faults,
                f"{at}.metric",
                f"`{at}.metric` must name the measurement.",
                _text_kind(point, "metric"),
                ("series", i, "metric"),
            )
        if "value" not in point:
            _fault(
                faults,
                f"{at}.value",
                f"`{at}` has no `value`: a point with no reading.",
                MISSING,
                ("series", i, "value"),
            )

    _data_list_faults(faults, "series", series, point_faults)


def _facts_faults(faults: list[Fault], facts: object, spell: Spelling) -> None:
    def row_faults(i: int, row: Any) -> None:
        if not _is_plain_object(row) or not is_non_empty_string(row.get("entity", _MISSING)):
            where: FieldPath
            if _is_plain_object(row):
                kind, where = _text_kind(row, "entity"), ("facts", i, "entity")
            else:
                kind, where = WRONG_TYPE, ("facts", i)
            _fault(
                faults,
                f"facts[{i}].entity",
                f"`facts[{i}]` must say what it is about: every row needs a non-empty `entity`.",
                kind,
                where,
            )

    _data_list_faults(faults, "facts", facts, row_faults)


def _edges_faults(faults: list[Fault], edges: object, spell: Spelling) -> None:
    def edge_faults(i: int, link: Any) -> None:
        where: FieldPath
        if _is_plain_object(link):
            bad = next(
                (k for k in ("from", "to", "kind") if not is_non_empty_string(link.get(k, _MISSING))),
                None,
            )
            if bad is None:
                return
            kind, where = _text_kind(link, bad), ("edges", i, bad)
        else:
            kind, where = WRONG_TYPE, ("edges", i)
        _fault(
            faults,
            f"edges[{i}]",
            f"`edges[{i}]` must carry non-empty `from`, `to` and `kind`.",
            kind,
            where,
        )

    _data_list_faults(faults, "edges", edges, edge_faults)
