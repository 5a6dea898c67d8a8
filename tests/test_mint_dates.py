"""Dates as Python holds them: the mints write an aware datetime or a date as ISO 8601 text.

``provenance.measuredAt``, a series point's ``t`` and ``coverage()``'s period instants
take a ``datetime`` with a zone (written as ``isoformat()``); ``measuredAt`` and ``t``
take a ``date`` too (a period instant needs a time and a zone). A naive ``datetime`` is
refused everywhere, saying it has no zone; any other type is refused naming it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from semantics_lint.runtime import coverage, described_result, read_semantics
from semantics_lint.runtime.envelope.refusal import BAD_VALUE, WRONG_TYPE, Refusal

UTC = dt.timezone.utc
AWARE = dt.datetime(2026, 5, 1, 6, 0, tzinfo=UTC)
PARIS = dt.datetime(2026, 5, 1, 8, 0, tzinfo=dt.timezone(dt.timedelta(hours=2)))
NAIVE = dt.datetime(2026, 5, 1, 6, 0)
DAY = dt.date(2026, 5, 1)
FACTS = [{"entity": "vm-01", "backed_up": True}]
GRAIN = {"interval": "5m", "aggregation": "avg"}


def _facts(measured_at: object) -> dict[str, Any]:
    return described_result(facts=FACTS, provenance={"measuredAt": measured_at, "source": "s"})


def _series(t: object) -> dict[str, Any]:
    return described_result(
        series=[{"t": t, "entity": "vm-01", "metric": "cpu", "value": 0.5}],
        grain=GRAIN,
        provenance={"measuredAt": "2026-05-01T06:00:00Z", "source": "s"},
    )


def _period(**instants: object) -> dict[str, Any]:
    queried = {"from": instants.get("start", AWARE), "to": instants.get("end", PARIS)}
    period: dict[str, Any] = {"queried": queried, "held": "unknown"}
    if "read_at" in instants:
        period["readAt"] = instants["read_at"]
    return coverage({"rows": []}, checked=["every job"], period=period)


@pytest.mark.parametrize(
    ("value", "text"),
    [(AWARE, "2026-05-01T06:00:00+00:00"), (PARIS, "2026-05-01T08:00:00+02:00"),
     (DAY, "2026-05-01")],
    ids=["utc", "offset", "date"],
)  # fmt: skip
def test_measured_at_and_series_t_take_a_datetime_or_a_date(value: object, text: str) -> None:
    minted = _facts(value)
    assert minted["provenance"]["measured_at"] == text
    assert read_semantics(minted) is not None
    assert _series(value)["series"][0]["t"] == text


def test_the_callers_series_point_is_not_changed() -> None:
    point = {"t": AWARE, "entity": "vm-01", "metric": "cpu", "value": 0.5}
    minted = described_result(
        series=[point],
        grain=GRAIN,
        provenance={"measuredAt": AWARE, "source": "s"},
    )
    assert point["t"] is AWARE
    assert minted["series"][0]["t"] == "2026-05-01T06:00:00+00:00"


@pytest.mark.parametrize(
    ("mint", "field"),
    [(_facts, "provenance.measuredAt"), (_series, "series[0].t")],
    ids=["measuredAt", "t"],
)
def test_a_naive_datetime_is_refused_saying_it_has_no_zone(mint: Any, field: str) -> None:
    with pytest.raises(Refusal) as caught:
        mint(NAIVE)
    assert str(caught.value).startswith(f"refused: {field}: a datetime with no zone")
    assert caught.value.kind == BAD_VALUE


@pytest.mark.parametrize(
    ("value", "got"),
    [(12345, "got int"), (dt.time(6, 0), "got time"), (b"2026", "got bytes"),
     (None, "got None")],
    ids=["int", "time", "bytes", "none"],
)  # fmt: skip
def test_measured_at_of_another_type_is_refused_naming_it(value: object, got: str) -> None:
    with pytest.raises(Refusal) as caught:
        _facts(value)
    assert str(caught.value).startswith("refused: provenance.measuredAt:")
    assert str(caught.value).endswith(f"; {got}.")
    assert caught.value.kind == WRONG_TYPE


def test_series_t_of_another_type_is_refused_naming_it() -> None:
    with pytest.raises(Refusal, match=r"^refused: series\[0\]\.t: .*; got time\.$"):
        _series(dt.time(6, 0))
    assert _series(1_777_615_200)["series"][0]["t"] == 1_777_615_200  # an epoch number


def test_period_instants_take_an_aware_datetime() -> None:
    minted = _period(read_at=PARIS)["af_coverage"]["period"]
    assert minted == {
        "queried": {"from": "2026-05-01T06:00:00+00:00", "to": "2026-05-01T08:00:00+02:00"},
        "held": "unknown",
        "read_at": "2026-05-01T08:00:00+02:00",
    }


@pytest.mark.parametrize(
    ("instants", "field", "says"),
    [
        ({"start": NAIVE}, "period.queried.from", "a datetime with no zone"),
        ({"read_at": NAIVE}, "period.readAt", "a datetime with no zone"),
        ({"end": DAY}, "period.queried.to", "is a date (2026-05-01), a whole day"),
        ({"start": 12345}, "period.queried.from", "got int (12345)"),
    ],
    ids=["naive", "naive-read-at", "date", "int"],
)
def test_a_period_instant_without_a_zone_or_of_another_type_is_refused(
    instants: dict[str, object], field: str, says: str
) -> None:
    with pytest.raises(Refusal) as caught:
        _period(**instants)
    assert caught.value.field == field
    assert says in str(caught.value)


def test_a_span_of_datetimes_that_runs_backwards_is_refused() -> None:
    with pytest.raises(Refusal, match="a span runs forward"):
        _period(start=PARIS + dt.timedelta(hours=1), end=AWARE)
