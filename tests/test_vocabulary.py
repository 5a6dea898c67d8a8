"""The vocabulary is the one source of keys and notes; these tests pin it to the data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from semantics_lint import gen
from semantics_lint import vocabulary as v

CONFORMANCE = Path(__file__).resolve().parent.parent / "testdata" / "conformance"


def test_canonical_notes_json_has_not_drifted() -> None:
    shipped = gen.CANONICAL_NOTES.read_text(encoding="utf-8")
    assert shipped == gen.render_canonical_notes(), (
        "canonical-notes.json drifted from the vocabulary; run: python -m semantics_lint.gen"
    )


def test_canonical_notes_ship_in_the_package() -> None:
    from importlib.resources import files

    data = json.loads(files("semantics_lint").joinpath("canonical-notes.json").read_text("utf-8"))
    assert data["markers"]["SEMANTICS_MARKER"] == "af_semantics"
    assert set(data["notes"]) == {"ABSENCE_NOTE", "COVERAGE_NOTE", "SEMANTICS_NOTE"}


def _notes_in(kind: str, marker: str) -> set[str]:
    found: set[str] = set()
    for case in json.loads((CONFORMANCE / f"{kind}.json").read_text("utf-8")):
        expected = case["expected"]
        value = expected.get("value") if isinstance(expected, dict) else None
        if isinstance(value, dict):
            holder = value.get(marker) if marker == v.COVERAGE_MARKER else value
            if isinstance(holder, dict) and isinstance(holder.get("note"), str):
                found.add(holder["note"])
    return found


def test_notes_are_the_ones_the_reference_renders() -> None:
    assert _notes_in("absent", v.ABSENCE_MARKER) == {v.ABSENCE_NOTE}
    assert v.COVERAGE_NOTE in _notes_in("coverage", v.COVERAGE_MARKER)
    projections = {
        case["expected"]["semanticsForModel"]["note"]
        for case in json.loads((CONFORMANCE / "envelope.json").read_text("utf-8"))
        if "semanticsForModel" in case["expected"]
    }
    assert v.SEMANTICS_NOTE in projections


def test_camel_snake_map_round_trips() -> None:
    for camel, snake in v.CAMEL_TO_SNAKE.items():
        assert v.to_wire(camel) == snake
        assert v.to_declaration(snake) == camel
        assert "_" in snake and "_" not in camel
    assert v.to_wire("source") == "source"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sum", True),
        ("Counts", True),
        ("Sum of deltas", True),
        ("count_per_host", True),
        ("summary", False),
        ("subtotal", False),
        ("counted_by_host", False),
        ("summed", False),
        ("", False),
    ],
)
def test_counter_words_are_whole_tokens(text: str, expected: bool) -> None:
    assert v.is_counter_looking_aggregation(text) is expected


@pytest.mark.parametrize(
    ("text", "non_empty"),
    [
        (" ", False),
        ("\ufeff", False),
        ("\u3000x\u3000", True),
        ("\u0085", True),
        ("\u200b", True),
        ("\x1c", True),
    ],
)
def test_emptiness_follows_javascript_trim(text: str, non_empty: bool) -> None:
    assert v.is_non_empty_string(text) is non_empty
