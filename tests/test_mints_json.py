"""The mints refuse, where they are called, what JSON cannot carry, naming the path and
the type; what they return is plain JSON data, dates as ISO 8601 text."""

from __future__ import annotations

import datetime
import decimal
import enum
import json
import math
import uuid
from typing import Any

import pytest

from semantics_lint.runtime import Refusal, coverage, described_result, tool_message
from semantics_lint.runtime.envelope.refusal import WRONG_TYPE

PROVENANCE = {"measuredAt": "2024-05-01T00:00:00Z", "source": "billing export"}


class Colour(enum.Enum):
    RED = (255, 0, 0)


class Tier(str, enum.Enum):
    GOLD = "gold"


def _loop() -> list[Any]:
    loop: list[Any] = []
    loop.append(loop)
    return loop


def _deep() -> list[Any]:
    value: list[Any] = []
    for _ in range(500):
        value = [value]
    return value


ODD = [
    (decimal.Decimal("1.5"), "is a Decimal"),
    ({1, 2}, "is a set"),
    (b"\x00", "is a bytes"),
    (uuid.UUID(int=7), "is a UUID"),
    (Colour.RED, "is a Colour"),
    (object(), "is an object"),
    ({(1, 2): "pair"}, "has a key that is a tuple"),
    ({1: "a", "1": "b"}, "two keys that are both '1'"),
    (_loop(), "contains itself"),
    (_deep(), "nested deeper than 100"),
    (10**400, "is an int of"),
]
IDS = [
    "Decimal",
    "set",
    "bytes",
    "UUID",
    "Enum",
    "object",
    "tuple key",
    "colliding keys",
    "cycle",
    "deep",
    "huge int",
]


@pytest.mark.parametrize(("value", "words"), ODD, ids=IDS)
def test_described_result_refuses_a_fact_value_json_cannot_carry(value: object, words: str) -> None:
    with pytest.raises(Refusal) as refused:
        described_result(facts=[{"entity": "vm1", "price": value}], provenance=PROVENANCE)
    assert str(refused.value).startswith("refused: facts[0].price")
    assert words in str(refused.value)
    assert refused.value.path[:3] == ("facts", 0, "price") and refused.value.kind == WRONG_TYPE


@pytest.mark.parametrize(("value", "words"), ODD, ids=IDS)
def test_coverage_refuses_content_json_cannot_carry(value: object, words: str) -> None:
    with pytest.raises(Refusal, match=r"^refused: result\.rows\[1\]") as refused:
        coverage({"rows": [1, value]}, checked=["the export"])
    assert words in str(refused.value)


def test_a_part_key_is_named_as_declared() -> None:
    with pytest.raises(Refusal, match=r"^refused: clarify\.candidates\[0\] is a set"):
        described_result(clarify={"question": "Which?", "candidates": [{"a"}]})


def test_what_json_carries_is_accepted_and_returned_as_plain_data() -> None:
    naive = datetime.datetime(2024, 5, 1, 6, 0)
    envelope = described_result(
        facts=[
            {
                "entity": "vm1",
                "at": naive,
                "day": datetime.date(2024, 5, 1),
                "tier": Tier.GOLD,
                "sizes": (1, 2),
                "ratio": math.nan,
                3: "int key",
            }
        ],
        provenance=PROVENANCE,
    )
    row = envelope["facts"][0]
    assert row["at"] == "2024-05-01T06:00:00" and row["day"] == "2024-05-01"
    assert type(row["tier"]) is str and row["sizes"] == [1, 2] and row["3"] == "int key"
    assert math.isnan(row["ratio"])
    assert '"ratio":null' in tool_message(envelope).text  # NaN served as JSON.stringify writes it


def test_the_envelope_is_a_copy_of_what_was_declared() -> None:
    row = {"entity": "vm1", "jobs": [1]}
    envelope = described_result(facts=[row], provenance=PROVENANCE)
    row["jobs"].append(2)
    assert envelope["facts"][0]["jobs"] == [1]
    json.dumps(envelope)  # plain dicts, lists and scalars only
