"""A served value's walk through the package stays short, whatever the size of the value.

The walk is the runtime's modules (``semantics_lint.runtime``) that serving a value
enters, in the order it enters them: each Python call into a module other than the one
the last call went to is one entry (``sys.setprofile``'s call events; a return is not an
entry). The vocabulary, the words the linter and the runtime share, is read from
everywhere and is not a room of the walk. A *return to a room* is an entry into a
module the walk has entered before: how often a reader following the value must go back
to a module they already left. The envelope's rules are one table, each part's rules in
one place, and a well-formed row calls nothing outside its rule but the vocabulary's
string test, so the count does not grow with the rows either.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from semantics_lint.runtime import absent, coverage, described_result
from semantics_lint.runtime.serving import served_with_record_text, tool_message

MOST_RETURNS = 15

PROVENANCE = {"measuredAt": "2026-01-04T00:00:00Z", "source": "backup export"}
GRAIN = {"interval": "daily", "aggregation": "count", "isCounter": False}
COVERAGE = {"checked": ["every backup job"], "cannotCover": [{"what": "PPDM", "why": "not collected"}]}


def _series(rows: int) -> Any:
    points = [
        {"t": f"2026-01-{1 + i % 28:02d}", "entity": "vm1", "metric": "backupRunsOk", "value": i}
        for i in range(rows)
    ]
    return described_result(series=points, grain=GRAIN, provenance=PROVENANCE, coverage=COVERAGE)


def _every_part(rows: int) -> Any:
    return described_result(
        series=[{"t": 1_700_000_000 + i, "entity": "vm1", "metric": "ok", "value": i} for i in range(rows)],
        facts=[{"entity": f"vm{i}", "state": "ok"} for i in range(rows)],
        edges=[{"from": f"vm{i}", "to": "host1", "kind": "runsOn"} for i in range(rows)],
        grain=GRAIN,
        provenance={**PROVENANCE, "ageSeconds": 60, "sourceExportDate": "2026-01-04"},
        coverage={
            "checked": [f"job {i}" for i in range(rows)],
            "notChecked": [{"what": f"site {i}"} for i in range(rows)],
            "cannotCover": [{"what": f"store {i}", "why": "not collected"} for i in range(rows)],
        },
        clarify={"question": "which vm?", "candidates": [f"vm{i}" for i in range(rows)]},
        render={"default": "table", "columns": [f"column {i}" for i in range(rows)], "sort": "entity"},
    )


SHAPES: dict[str, Callable[[int], Any]] = {
    "series with grain, provenance and coverage": _series,
    "facts": lambda rows: described_result(
        facts=[{"entity": f"vm{i}", "sizeGb": i} for i in range(rows)], provenance=PROVENANCE
    ),
    "every part": _every_part,
    "an absence": lambda rows: absent(what="backups of vm1", checked=[f"job {i}" for i in range(rows)]),
    "a ledger": lambda rows: coverage({"jobs": list(range(rows))}, checked=[f"job {i}" for i in range(rows)]),
    "plain data": lambda rows: {"vm": "vm1", "jobs": [{"name": f"job{i}", "ok": True} for i in range(rows)]},
}


def walk(serve: Callable[[object], object], value: object) -> list[str]:
    """The runtime's modules serving ``value`` enters by a call, in order."""
    serve(value)  # anything imported on first use is imported before the walk is taken
    entered: list[str] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if module.startswith("semantics_lint.runtime.") and (not entered or entered[-1] != module):
            entered.append(module)

    sys.setprofile(profile)
    try:
        serve(value)
    finally:
        sys.setprofile(None)
    return entered


def returns(entered: list[str]) -> int:
    """How many entries go back to a module the walk entered before."""
    return len(entered) - len(set(entered))


@pytest.mark.parametrize(
    "serve", [tool_message, served_with_record_text], ids=["tool_message", "with_record_text"]
)
@pytest.mark.parametrize("shape", SHAPES)
def test_a_served_value_returns_to_a_room_it_left_at_most_fifteen_times(
    shape: str, serve: Callable[[object], object]
) -> None:
    for rows in (1, 3, 200):
        entered = walk(serve, SHAPES[shape](rows))
        assert returns(entered) <= MOST_RETURNS, (rows, entered)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_walk_does_not_grow_with_the_rows(shape: str) -> None:
    assert walk(tool_message, SHAPES[shape](2)) == walk(tool_message, SHAPES[shape](500))


def test_the_walk_is_counted_as_it_is_taken() -> None:
    # The measure itself: a back-and-forth between two modules is counted, a stay is not.
    assert returns(["a", "b", "a", "b", "c"]) == 2
    assert returns(["a", "b", "c"]) == 0
    entered = walk(tool_message, SHAPES["plain data"](3))
    assert entered[0] == "semantics_lint.runtime.serving.message"
