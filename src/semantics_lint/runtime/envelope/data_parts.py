"""The rules of the lists an envelope holds: ``series`` points, ``facts`` rows, ``edges``,
and the coverage's item lists.

Each rule reads one present list in the wire spelling and records what is wrong with it
on the :class:`~semantics_lint.runtime.envelope.faults.Judging` it is given. A well-formed
row calls nothing outside this module but the vocabulary's string test, so judging a long
list is one loop here. :data:`semantics_lint.runtime.envelope.parts.ENVELOPE` says when
each rule runs.
"""

from __future__ import annotations

from typing import Any

from semantics_lint.runtime.envelope.faults import _MISSING, Judging, text_kind
from semantics_lint.runtime.envelope.refusal import EMPTY, MISSING, WRONG_TYPE, FieldPath, text_fault
from semantics_lint.vocabulary import COVERAGE_WIRE_KEYS, is_non_empty_string, js_trim

__all__ = ["coverage_lists_rule", "edges_rule", "facts_rule", "series_rule"]


def coverage_lists_rule(j: Judging, coverage: dict[Any, Any]) -> dict[str, list[dict[str, Any]]]:
    """Judge the three lists of a rendered coverage (a dict); return the well-formed items
    (untrimmed) of each list that has some. A ``cannot_cover`` item needs its why; a
    list's field is spelled only to name a fault."""
    rendered: dict[str, list[dict[str, Any]]] = {}
    for key in COVERAGE_WIRE_KEYS:
        listed = coverage.get(key, _MISSING)
        if listed is _MISSING:
            continue
        if not isinstance(listed, list):
            field, path = _item_list_field(j, key)
            j.fault(
                field, f"`{field}` must be a list of {{what, why?}} items, or left out.", WRONG_TYPE, path
            )
            continue
        items: list[dict[str, Any]] = []
        for i, raw in enumerate(listed):
            if not isinstance(raw, dict) or not is_non_empty_string(raw.get("what", _MISSING)):
                field, path = _item_list_field(j, key)
                at = f"{field}[{i}]"
                if isinstance(raw, dict):
                    kind, where = text_kind(raw, "what"), (*path, i, "what")
                else:
                    kind, where = WRONG_TYPE, (*path, i)
                j.fault(
                    at,
                    f"`{at}` names no ground: a rendered coverage item is {{what, why?}} with a non-empty `what`.",
                    kind,
                    where,
                )
                continue
            why = raw.get("why", _MISSING)
            if why is _MISSING:
                if key == "cannot_cover":
                    field, path = _item_list_field(j, key)
                    at = f"{field}[{i}]"
                    j.fault(
                        f"{at}.why",
                        f"`{at}` ('{js_trim(raw['what'])}') has no `why`: a permanent blind spot "
                        "must say what makes it permanent.",
                        MISSING,
                        (*path, i, "why"),
                    )
                    continue
                items.append({"what": raw["what"]})
            elif is_non_empty_string(why):
                items.append({"what": raw["what"], "why": why})
            else:
                field, path = _item_list_field(j, key)
                at = f"{field}[{i}]"
                j.fault(
                    f"{at}.why",
                    f"`{at}.why` says nothing: give a reason or leave it out.",
                    text_fault(why),
                    (*path, i, "why"),
                )
        if items:
            rendered[key] = items
    return rendered


def _item_list_field(j: Judging, key: str) -> tuple[str, FieldPath]:
    """The field and path of the coverage list ``key`` in the judging's spelling."""
    spelled = j.spell(key)
    return f"coverage.{spelled}", ("coverage", spelled)


def _is_row_list(j: Judging, field: str, listed: object) -> bool:
    """The shape rule ``series``, ``facts`` and ``edges`` share: a non-empty list."""
    if isinstance(listed, list) and listed:
        return True
    if isinstance(listed, list):
        j.fault(
            field,
            f"`{field}` is empty: if nothing matched, return absent(what=..., checked=...) instead.",
            EMPTY,
            (field,),
        )
    else:
        j.fault(field, f"`{field}` must be a non-empty list of rows, or left out.", WRONG_TYPE, (field,))
    return False


def series_rule(j: Judging, series: object) -> None:
    """Every point of a present ``series``: a dict with a time, an entity, a metric and a value."""
    if not _is_row_list(j, "series", series):
        return
    assert isinstance(series, list)
    for i, point in enumerate(series):
        if not isinstance(point, dict):
            at = f"series[{i}]"
            j.fault(
                at, f"`{at}` is not a point dict {{t, entity, metric, value}}.", WRONG_TYPE, ("series", i)
            )
            continue
        t = point.get("t", _MISSING)
        if not isinstance(t, (str, int, float)) or isinstance(t, bool):
            at = f"series[{i}]"
            j.fault(
                f"{at}.t",
                f"`{at}.t` must be the measurement time (an ISO string or an epoch number).",
                MISSING if t is _MISSING else WRONG_TYPE,
                ("series", i, "t"),
            )
        if not is_non_empty_string(point.get("entity", _MISSING)):
            at = f"series[{i}]"
            j.fault(
                f"{at}.entity",
                f"`{at}.entity` must name what was measured.",
                text_kind(point, "entity"),
                ("series", i, "entity"),
            )
        if not is_non_empty_string(point.get("metric", _MISSING)):
            at = f"series[{i}]"
            j.fault(
                f"{at}.metric",
                f"`{at}.metric` must name the measurement.",
                text_kind(point, "metric"),
                ("series", i, "metric"),
            )
        if "value" not in point:
            at = f"series[{i}]"
            j.fault(
                f"{at}.value",
                f"`{at}` has no `value`: a point with no reading.",
                MISSING,
                ("series", i, "value"),
            )


def facts_rule(j: Judging, facts: object) -> None:
    """Every row of a present ``facts``: a dict that names its ``entity``."""
    if not _is_row_list(j, "facts", facts):
        return
    assert isinstance(facts, list)
    for i, row in enumerate(facts):
        if isinstance(row, dict) and is_non_empty_string(row.get("entity", _MISSING)):
            continue
        where: FieldPath
        if isinstance(row, dict):
            kind, where = text_kind(row, "entity"), ("facts", i, "entity")
        else:
            kind, where = WRONG_TYPE, ("facts", i)
        j.fault(
            f"facts[{i}].entity",
            f"`facts[{i}]` must say what it is about: every row needs a non-empty `entity`.",
            kind,
            where,
        )


def edges_rule(j: Judging, edges: object) -> None:
    """Every link of a present ``edges``: a dict with non-empty ``from``, ``to`` and ``kind``."""
    if not _is_row_list(j, "edges", edges):
        return
    assert isinstance(edges, list)
    for i, link in enumerate(edges):
        where: FieldPath
        if isinstance(link, dict):
            if (
                is_non_empty_string(link.get("from", _MISSING))
                and is_non_empty_string(link.get("to", _MISSING))
                and is_non_empty_string(link.get("kind", _MISSING))
            ):
                continue
            bad = next(k for k in ("from", "to", "kind") if not is_non_empty_string(link.get(k, _MISSING)))
            kind, where = text_kind(link, bad), ("edges", i, bad)
        else:
            kind, where = WRONG_TYPE, ("edges", i)
        j.fault(f"edges[{i}]", f"`edges[{i}]` must carry non-empty `from`, `to` and `kind`.", kind, where)
