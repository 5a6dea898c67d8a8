"""The unsupported-claim check: each fence of the reference's, its own test cases
re-expressed, and the contract's refusals."""

from __future__ import annotations

import math
from typing import Any

import pytest

from semantics_lint.runtime import described_result
from semantics_lint.runtime.claims.check import (
    ClaimRow,
    Disposition,
    claim_contract,
    claim_rows,
    js_string_to_number,
    unsupported_claims,
)
from semantics_lint.runtime.envelope.refusal import EMPTY, MISSING, WRONG_TYPE, Refusal

PASS, FAIL = Disposition.CHECKED_PASS, Disposition.CHECKED_FAIL
NA, UNREACHABLE = Disposition.NOT_APPLICABLE, Disposition.UNREACHABLE


def row(entity: str, field: str, value: Any, **over: Any) -> ClaimRow:
    base: dict[str, Any] = {"tool": "whats_here", "call_id": "c1", "iteration": 1}
    return ClaimRow(entity, field, value, **{**base, **over})


def nav(answer: Any, *rows: ClaimRow) -> Any:
    return unsupported_claims({"nav_count": {"entity": "screen2", "field": "nav"}}, rows, answer)


def test_a_contradiction_files_one_finding_with_both_witnesses() -> None:
    check = nav({"nav_count": 5}, row("screen2", "nav", 2))
    assert check.dispositions == (("nav_count", FAIL),)
    [finding] = check.findings
    assert not finding.advisory
    assert [w.stratum for w in finding.witnesses] == ["asserted", "asserted"]
    assert finding.message == (
        "The answer's 'nav_count' claims 5 but the run's settled fact is nav(screen2) = 2 "
        "(whats_here (call c1, iteration 1)). The record supports the fact, not the claim "
        "— nothing here rewrites the answer; it makes the disagreement attributable."
    )


def test_the_honest_claim_is_a_checked_pass() -> None:
    check = nav({"nav_count": 2}, row("screen2", "nav", 2))
    assert check == ((("nav_count", PASS),), ())


def test_the_latest_row_settles_and_earlier_rows_are_quoted() -> None:
    ledger = [row("screen2", "nav", 1, iteration=1), row("screen2", "nav", 2, iteration=3)]
    check = nav({"nav_count": 1}, *ledger)
    [finding] = check.findings
    assert finding.witnesses[-1].stratum == "quoted"
    assert finding.witnesses[-1].provenance == "whats_here (call c1, iteration 1)"
    assert "iteration 3" in finding.message
    assert nav({"nav_count": 2}, *ledger).findings == ()


def test_an_uncollected_fact_is_unreachable() -> None:
    assert nav({"nav_count": 5}) == ((("nav_count", UNREACHABLE),), ())


def test_an_omitted_field_is_not_applicable() -> None:
    assert nav({}, row("screen2", "nav", 2)) == ((("nav_count", NA),), ())
    for through in ({"nav_count": None}, None, "text", 5):
        check = unsupported_claims(
            {"a.b": {"entity": "screen2", "field": "nav"}},
            [row("screen2", "nav", 2)],
            {"a": through},
        )
        assert check.dispositions == (("a.b", NA),)


@pytest.mark.parametrize("doubted", [None, "unknown"])
def test_doubt_against_a_verified_value_is_an_advisory(doubted: Any) -> None:
    check = unsupported_claims(
        {"scope": {"entity": "run", "field": "scope"}},
        [row("run", "scope", "verified")],
        {"scope": doubted},
    )
    assert check.dispositions == (("scope", PASS),)
    [finding] = check.findings
    assert finding.advisory and check.advisories == (finding,) and check.contradictions == ()
    shown = "null" if doubted is None else '"unknown"'
    assert finding.message == (
        f"The answer's 'scope' says {shown} while the run verified scope(run) = "
        '"verified" (whats_here (call c1, iteration 1)). Declining to claim a verified '
        "fact is doubt, not contradiction — filed as an advisory, counted apart."
    )


@pytest.mark.parametrize("settled", [None, "unknown", {"kind": "known", "value": None, "evidence": "e"}])
def test_doubt_agreeing_with_a_settled_non_reading_is_agreement(settled: Any) -> None:
    for doubted in (None, "unknown"):
        check = nav({"nav_count": doubted}, row("screen2", "nav", settled))
        assert check == ((("nav_count", PASS),), ())


@pytest.mark.parametrize("kind", ["unknown", "not-applicable"])
def test_a_settled_unknown_claim_is_unreachable(kind: str) -> None:
    settled = {"kind": kind, "reason": "meter offline"}
    assert nav({"nav_count": 5}, row("screen2", "nav", settled)).dispositions == (("nav_count", UNREACHABLE),)
    # ...even when an earlier row was a reading: the latest settles.
    ledger = [row("screen2", "nav", 2), row("screen2", "nav", settled)]
    assert nav({"nav_count": 5}, *ledger).dispositions == (("nav_count", UNREACHABLE),)


def test_a_known_claim_compares_by_its_value() -> None:
    known = {"kind": "known", "value": 2, "evidence": "the meter"}
    assert nav({"nav_count": 2}, row("screen2", "nav", known)).findings == ()
    [finding] = nav({"nav_count": 3}, row("screen2", "nav", known)).findings
    assert "nav(screen2) = 2 " in finding.message and finding.settled == 2
    assert nav({"nav_count": known}, row("screen2", "nav", 2)).findings == ()


def test_a_claimed_unknown_claim_never_conflicts() -> None:
    claimed = {"kind": "unknown", "reason": "not measured"}
    assert nav({"nav_count": claimed}, row("screen2", "nav", 2)).dispositions == (("nav_count", PASS),)


@pytest.mark.parametrize("text", ["30", " 30 ", "3e1", "0x1e", "0X1E", "30.0", "+30", "\u00a030\n"])
def test_a_number_answered_as_its_text_passes(text: str) -> None:
    assert nav({"nav_count": text}, row("screen2", "nav", 30)).dispositions == (("nav_count", PASS),)


@pytest.mark.parametrize("text", ["1_000", "", " ", "30px", "-0x1e", "thirty", "３０", "0x", "1e"])
def test_only_javascript_number_text_is_lenient(text: str) -> None:
    settled = 1000 if text == "1_000" else 30
    check = nav({"nav_count": text}, row("screen2", "nav", settled))
    assert check.dispositions == (("nav_count", FAIL),)


def test_the_leniency_is_one_direction() -> None:
    assert nav({"nav_count": 30}, row("screen2", "nav", "30")).dispositions == (("nav_count", FAIL),)


def test_javascript_number_of_text() -> None:
    assert js_string_to_number("0b101") == 5 and js_string_to_number("0o17") == 15
    assert js_string_to_number("") == 0 and js_string_to_number(".5") == 0.5
    assert js_string_to_number("-Infinity") == -math.inf
    assert math.isnan(js_string_to_number("infinity")) and math.isnan(js_string_to_number("1_0"))


def test_values_compare_as_json_with_sorted_keys() -> None:
    assert nav({"nav_count": True}, row("screen2", "nav", 1)).dispositions == (("nav_count", FAIL),)
    assert nav({"nav_count": 1.0}, row("screen2", "nav", 1)).dispositions == (("nav_count", PASS),)
    assert nav({"nav_count": [2, 1]}, row("screen2", "nav", [1, 2])).dispositions == (("nav_count", FAIL),)
    same = nav(
        {"nav_count": {"b": 1, "a": {"y": 2, "x": 1}}},
        row("screen2", "nav", {"a": {"x": 1, "y": 2}, "b": 1}),
    )
    assert same.dispositions == (("nav_count", PASS),)


def test_dot_paths_read_dicts_and_lists() -> None:
    contract = {"report.items.1.nav": {"entity": "screen2", "field": "nav"}}
    answer = {"report": {"items": [{"nav": 2}, {"nav": 5}]}}
    check = unsupported_claims(contract, [row("screen2", "nav", 2)], answer)
    assert check.dispositions == (("report.items.1.nav", FAIL),)
    for path in ("report.items.01.nav", "report.items.2.nav", "report.items.1.length"):
        missing = unsupported_claims(
            {path: {"entity": "screen2", "field": "nav"}}, [row("screen2", "nav", 2)], answer
        )
        assert missing.dispositions == ((path, NA),)


def test_a_list_s_length_is_read_as_javascript_reads_it() -> None:
    check = unsupported_claims(
        {"report.items.length": {"entity": "screen2", "field": "nav"}},
        [row("screen2", "nav", 3)],
        {"report": {"items": [1, 2]}},
    )
    assert check.dispositions == (("report.items.length", FAIL),)
    assert check.findings[0].claimed == 2


def test_two_fields_of_one_entity_are_two_findings() -> None:
    check = unsupported_claims(
        {
            "nav_count": {"entity": "screen2", "field": "nav"},
            "tap_count": {"entity": "screen2", "field": "taps"},
        },
        [row("screen2", "nav", 2), row("screen2", "taps", 7)],
        {"nav_count": 5, "tap_count": 9},
    )
    assert [d for _, d in check.dispositions] == [FAIL, FAIL]
    assert [(f.entity, f.field) for f in check.findings] == [
        ("screen2", "nav"),
        ("screen2", "taps"),
    ]


def test_an_advisory_never_swallows_a_contradiction() -> None:
    check = unsupported_claims(
        {
            "scope": {"entity": "run", "field": "scope"},
            "count": {"entity": "run", "field": "count"},
        },
        [row("run", "scope", "verified"), row("run", "count", 2)],
        {"scope": None, "count": 99},
    )
    assert len(check.findings) == 2 and [f.answer_field for f in check.contradictions] == ["count"]
    assert check.counts() == {
        "checked-pass": 1,
        "checked-fail": 1,
        "not-applicable": 0,
        "unreachable": 0,
        "advisory": 1,
    }


def test_values_are_written_as_json_stringify_writes_them() -> None:
    check = unsupported_claims(
        {"x": {"entity": "e", "field": "f"}},
        [row("e", "f", {"b": 1e21, "2": -0.0, "a": "é\n"}, measured_at=1.5e-7)],
        {"x": 100.0},
    )
    assert check.findings[0].message.startswith(
        "The answer's 'x' claims 100 but the run's settled fact is "
        'f(e) = {"2":0,"b":1e+21,"a":"é\\n"} (whats_here (call c1, iteration 1), '
        "measured_at 1.5e-7)."
    )


def test_the_provenance_names_the_call_alone_without_an_iteration() -> None:
    [finding] = nav({"nav_count": 5}, row("screen2", "nav", 2, call_id="#1", iteration=None)).findings
    assert "(whats_here (call #1))" in finding.message


def test_assert_supported() -> None:
    nav({"nav_count": 2}, row("screen2", "nav", 2)).assert_supported()
    with pytest.raises(AssertionError, match="nav_count"):
        nav({"nav_count": 5}, row("screen2", "nav", 2)).assert_supported()
    doubt = nav({"nav_count": None}, row("screen2", "nav", 2))
    doubt.assert_supported()
    with pytest.raises(AssertionError, match="doubt"):
        doubt.assert_supported(advisories=True)


# --- the rows ---------------------------------------------------------------------------


def test_rows_of_facts_then_series_in_declaration_order() -> None:
    envelope = described_result(
        series=[{"t": "2026-01-02T00:00:00Z", "entity": "vm1", "metric": "jobs", "value": 4}],
        grain={"interval": "1d", "aggregation": "sum", "isCounter": False},
        facts=[
            {"entity": "vm1", "status": "down", "jobs_local": 331},
            {"entity": "vm2", "status": "up"},
        ],
        provenance={"measuredAt": "2026-01-01T00:00:00Z", "source": "backup-db"},
    )
    rows = claim_rows(envelope, tool="t", call_id="c9", iteration=2)
    assert [(r.entity, r.field, r.value, r.measured_at) for r in rows] == [
        ("vm1", "status", "down", "2026-01-01T00:00:00Z"),
        ("vm1", "jobs_local", 331, "2026-01-01T00:00:00Z"),
        ("vm2", "status", "up", "2026-01-01T00:00:00Z"),
        ("vm1", "jobs", 4, "2026-01-02T00:00:00Z"),
    ]
    assert {(r.tool, r.call_id, r.iteration) for r in rows} == {("t", "c9", 2)}


def test_edges_and_clarify_settle_nothing() -> None:
    envelope = described_result(
        edges=[{"from": "a", "to": "b", "kind": "runs-on"}],
        provenance={"measuredAt": "2026-01-01T00:00:00Z", "source": "cmdb"},
    )
    assert claim_rows(envelope, tool="t", call_id="c", iteration=1) == []
    assert claim_rows("not an envelope", tool="t", call_id="c", iteration=1) == []


def test_rows_are_copies_in_javascript_key_order() -> None:
    value = {"list": [1]}
    rows = claim_rows(
        {"facts": [{"entity": "e", "b": value, "10": 1, "2": 2}]},
        tool="t",
        call_id="c",
        iteration=1,
    )
    assert [r.field for r in rows] == ["2", "10", "b"]
    value["list"].append(2)
    assert rows[2].value == {"list": [1]}


# --- the contract -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "path", "kind"),
    [
        ({}, (), EMPTY),
        ([("a", {"entity": "e", "field": "f"})], (), WRONG_TYPE),
        ({"nav": "screen2.nav"}, ("nav",), WRONG_TYPE),
        ({"nav": None}, ("nav",), WRONG_TYPE),
        ({"nav": {"field": "nav"}}, ("nav", "entity"), MISSING),
        ({"nav": {"entity": "", "field": "nav"}}, ("nav", "entity"), EMPTY),
        ({"nav": {"entity": "screen2", "field": " \u3000"}}, ("nav", "field"), EMPTY),
        ({"nav": {"entity": "screen2", "field": 3}}, ("nav", "field"), WRONG_TYPE),
        ({1: {"entity": "screen2", "field": "nav"}}, (1,), WRONG_TYPE),
    ],
)
def test_a_contract_nobody_could_have_meant_is_refused(
    contract: Any, path: tuple[object, ...], kind: str
) -> None:
    with pytest.raises(Refusal) as refused:
        claim_contract(contract)
    assert str(refused.value).startswith("refused: claims: ")
    assert (refused.value.path, refused.value.kind) == (path, kind)
    if path:
        assert repr(path[0]) in str(refused.value)


def test_a_contract_is_read_in_order() -> None:
    contract = {
        "b": {"entity": "e", "field": "f", "note": "ignored"},
        "a": {"entity": "e", "field": "g"},
    }
    assert [c.answer_field for c in claim_contract(contract)] == ["b", "a"]
