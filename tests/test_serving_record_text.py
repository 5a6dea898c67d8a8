"""Serving with the record's text (what a trace carries) is serving as ``tool_message`` does.

``served_with_record_text`` writes the parts the model reads once for both texts; the
message must be the one ``tool_message`` gives, and the record's text the one
``json_text`` writes for the record, whatever the envelope holds: odd numbers, lone
surrogates, parts the projection keeps, drops or rewrites, a ledger's order.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantics_lint.runtime import coverage, described_result, tool_message
from semantics_lint.runtime.envelope.json_text import json_text
from semantics_lint.runtime.envelope.rules import MODEL_COPIES, semantics_for_model
from semantics_lint.runtime.serving.message import served_with_record_text

_numbers = st.one_of(
    st.integers(-(2**60), 2**60),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([100.0, -0.0, 1e-7, 1e21, 2.5, 1e16]),
)
_text = st.one_of(st.text(max_size=12), st.sampled_from(["v1.0", "NaN", "e+5", "cut\ud800here", "😀"]))
_row = st.dictionaries(
    st.sampled_from(["price", "count", "site", "2", "note", "cut\ud800key"]),
    st.one_of(_numbers, _text, st.booleans(), st.none()),
    max_size=4,
).map(lambda row: {"entity": "vm1", **row})


def _equal_texts(value: object) -> None:
    message, record_text = served_with_record_text(value)
    expected = tool_message(value)
    assert message.text == expected.text
    assert message.kind == expected.kind
    assert json_text(message.model) == json_text(expected.model)
    assert json_text(message.record) == json_text(expected.record)
    if record_text is not None:
        assert record_text == json_text(message.record)


@given(
    rows=st.lists(_row, min_size=1, max_size=5),
    series=st.booleans(),
    clarify=st.booleans(),
    cannot=st.booleans(),
)
def test_a_described_result_is_served_alike_and_its_record_text_is_json_texts(
    rows: list[dict[str, Any]], series: bool, clarify: bool, cannot: bool
) -> None:
    fields: dict[str, Any] = {
        "provenance": {"measuredAt": "2024-05-01T00:00:00Z", "source": "export \ud800"},
    }
    if series:
        fields["series"] = [
            {**row, "metric": "gb", "t": "2024-05-01T00:00:00Z", "value": 1.5} for row in rows
        ]
        fields["grain"] = {"interval": "1d", "aggregation": "sum", "isCounter": False}
    else:
        fields["facts"] = rows
    if clarify:
        fields["clarify"] = {"question": "which one?", "candidates": ["a", 1e-7]}
    if cannot:
        fields["coverage"] = {"cannotCover": [{"what": "PPDM", "why": "not collected"}]}
    _equal_texts(described_result(**fields))


@given(
    result=st.one_of(
        _numbers,
        _text,
        st.lists(_numbers, max_size=4),
        st.dictionaries(_text, _numbers, max_size=3),
    )
)
def test_a_ledger_is_served_alike_and_its_record_text_is_json_texts(result: object) -> None:
    _equal_texts(coverage(result, checked=["every invoice"], notChecked=["last week"]))


def test_a_part_the_projection_rewrites_is_written_as_the_envelope_has_it() -> None:
    # The projection writes clarify's question first; a hand-built envelope may not.
    envelope = described_result(
        facts=[{"entity": "vm1"}],
        provenance={"measuredAt": "2024-05-01T00:00:00Z", "source": "export"},
    )
    envelope["clarify"] = {"candidates": ["vm1", "vm2"], "question": "which one?"}
    message, record_text = served_with_record_text(envelope)
    assert message.kind == "semantics"
    assert record_text == json_text(envelope)
    assert '"clarify":{"question":"which one?","candidates":["vm1","vm2"]}' in message.text


@pytest.mark.filterwarnings("ignore::semantics_lint.runtime.SemanticsWarning")
@pytest.mark.parametrize(
    "value",
    [
        "plain text",
        [1.5, 100.0],
        {"rows": 3},
        {"af_semantics": True, "facts": []},  # malformed: served as data
        {"af_semantics": True, "facts": [{"entity": "a", "price": {1, 2}}]},  # refused
    ],
)
def test_other_results_are_served_alike_and_leave_the_record_text_to_the_trace(
    value: object,
) -> None:
    message, record_text = served_with_record_text(value)
    assert (message, record_text) == (tool_message(value), None)


def test_the_parts_the_projection_copies_are_written_as_the_envelopes_are() -> None:
    # The claim MODEL_COPIES makes, checked on an envelope that has every such part.
    envelope = described_result(
        series=[{"entity": "vm1", "metric": "gb", "t": 0, "value": 2.5, "z": 1, "a": math.pi}],
        grain={"interval": "1d", "aggregation": "sum", "isCounter": False},
        provenance={"measuredAt": "2024-05-01T00:00:00Z", "source": "export"},
        coverage={
            "notChecked": ["the archive"],
            "cannotCover": [{"what": "PPDM", "why": "no access"}],
        },
    )
    model = semantics_for_model(envelope)
    kept = MODEL_COPIES & model.keys()
    assert kept == {"series", "grain", "provenance", "not_covered"}
    for key in kept:
        assert json_text(model[key]) == json_text(envelope[key])
