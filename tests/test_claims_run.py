"""``run_record(claims=...)`` and ``run.check_claims(answer)``: the rows a run settled,
the answer as a framework gives it, the unchecked run's warning, and the span."""

from __future__ import annotations

import dataclasses
import json
import warnings
from typing import Any

import pydantic
import pytest
from otel_spans import Spans, ids, spans  # noqa: F401 (the fixture)

from semantics_lint.runtime import Disposition, Refusal, SemanticsWarning, described_result, run_record
from semantics_lint.runtime.claims.check import tool_call
from semantics_lint.runtime.serving.record import serve

CONTRACT = {"protected_jobs": {"entity": "fleet", "field": "jobs_local"}}
PROVENANCE = {"measuredAt": "2026-03-01T06:00:00Z", "source": "backup-catalog"}


def fleet_status(local: int = 331) -> Any:
    return described_result(
        facts=[{"entity": "fleet", "jobs_local": local, "jobs_replicated_in": 607}],
        provenance=PROVENANCE,
    )


def test_the_seeds_story_names_both_numbers_and_the_call() -> None:
    with run_record(claims=CONTRACT) as run:
        with tool_call("call_abc", 2):
            serve("vm_backup_status", fleet_status())
        check = run.check_claims({"protected_jobs": 938})
    assert run.claim_check is check
    assert check.dispositions == (("protected_jobs", Disposition.CHECKED_FAIL),)
    [finding] = check.findings
    assert finding.message == (
        "The answer's 'protected_jobs' claims 938 but the run's settled fact is "
        "jobs_local(fleet) = 331 (vm_backup_status (call call_abc, iteration 2), "
        "measured_at 2026-03-01T06:00:00Z). The record supports the fact, not the claim — "
        "nothing here rewrites the answer; it makes the disagreement attributable."
    )
    assert run.results[0]["call_id"] == "call_abc" and run.results[0]["iteration"] == 2


def test_rows_come_from_recognized_envelopes_in_the_order_served() -> None:
    with run_record(claims=CONTRACT) as run:
        serve("plain", {"entity": "fleet", "jobs_local": 1})  # data, not an envelope
        with tool_call("c1", 1):
            serve("vm_backup_status", fleet_status(300))
        with tool_call("c2", 3):
            serve("vm_backup_status", fleet_status(331))
        assert run.check_claims({"protected_jobs": 331}).findings == ()
        [finding] = run.check_claims({"protected_jobs": 300}).findings
    assert "(call c2, iteration 3)" in finding.message
    assert [w.provenance for w in finding.witnesses][-1] == "vm_backup_status (call c1, iteration 1)"


def test_without_the_framework_s_call_id_the_place_in_the_run_stands_for_it() -> None:
    with run_record(claims=CONTRACT) as run:
        serve("other", {"x": 1})
        serve("vm_backup_status", fleet_status())
        [finding] = run.check_claims({"protected_jobs": 938}).findings
    assert "(vm_backup_status (call #2), measured_at" in finding.message


class Answer(pydantic.BaseModel):
    protected_jobs: int | str | None = None


@dataclasses.dataclass
class AnswerData:
    protected_jobs: int


@pytest.mark.parametrize(
    "answer",
    [
        {"protected_jobs": 938},
        Answer(protected_jobs=938),
        AnswerData(938),
        json.dumps({"protected_jobs": 938}),
        json.dumps({"protected_jobs": 938}).encode(),
    ],
    ids=["dict", "pydantic", "dataclass", "json-text", "json-bytes"],
)
def test_the_answer_as_a_framework_gives_it(answer: object) -> None:
    with run_record(claims=CONTRACT) as run:
        serve("vm_backup_status", fleet_status())
        check = run.check_claims(answer)
    assert check.dispositions == (("protected_jobs", Disposition.CHECKED_FAIL),)


@pytest.mark.parametrize("answer", ["938 jobs are protected", "938", '"text"', None, 938, "{bad"])
def test_an_answer_with_no_typed_stratum_is_unreachable(answer: object) -> None:
    with run_record(claims=CONTRACT) as run:
        serve("vm_backup_status", fleet_status())
        check = run.check_claims(answer)
    assert check.dispositions == (("protected_jobs", Disposition.UNREACHABLE),)
    assert check.findings == ()


def test_json_text_is_read_as_json_parse_reads_it() -> None:
    with run_record(claims=CONTRACT) as run:
        serve("vm_backup_status", fleet_status())
        assert run.check_claims('{"protected_jobs": NaN}').dispositions[0][1] == "unreachable"
        assert run.check_claims('[{"protected_jobs": 1}]').dispositions[0][1] == "not-applicable"


def test_a_run_declared_with_claims_that_ends_unchecked_warns() -> None:
    with pytest.warns(SemanticsWarning, match="check_claims"):
        with run_record(claims=CONTRACT):
            serve("vm_backup_status", fleet_status())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with run_record(claims=CONTRACT) as run:
            run.check_claims({"protected_jobs": 331})
        with run_record():
            serve("vm_backup_status", fleet_status())


def test_a_run_that_raised_does_not_add_the_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(KeyError), run_record(claims=CONTRACT):
            raise KeyError("the run failed")


def test_the_contract_is_refused_where_it_is_declared() -> None:
    with pytest.raises(Refusal, match=r"^refused: claims: 'protected_jobs' must name a non-empty entity"):
        with run_record(claims={"protected_jobs": {"entity": "", "field": "jobs_local"}}):
            pass


def test_check_claims_needs_a_contract() -> None:
    with run_record() as run, pytest.raises(RuntimeError, match="run_record"):
        run.check_claims({})


def test_the_check_is_a_span_linked_to_the_settling_result(spans: Spans) -> None:  # noqa: F811
    with run_record(
        claims={
            **CONTRACT,
            "replicated": {"entity": "fleet", "field": "jobs_replicated_in"},
            "missing": {"entity": "vm9", "field": "jobs_local"},
        }
    ) as run:
        with tool_call("call_abc", 2):
            serve("vm_backup_status", fleet_status())
        run.check_claims({"protected_jobs": 938, "replicated": None, "missing": 1})
    [claims] = [s for s in spans.ours() if s.name == "semantics claims"]
    [served] = [s for s in spans.ours() if s.name == "semantics vm_backup_status"]
    assert dict(claims.attributes or {}) == {
        "semantics_lint.claims.checked_pass": 1,
        "semantics_lint.claims.checked_fail": 1,
        "semantics_lint.claims.not_applicable": 0,
        "semantics_lint.claims.unreachable": 1,
        "semantics_lint.claims.advisory": 1,
    }
    assert [link.context.span_id for link in claims.links] == [served.context.span_id]
    events = [dict(e.attributes or {}) for e in claims.events]
    assert [e["semantics_lint.claims.answer_field"] for e in events] == [
        "protected_jobs",
        "replicated",
    ]
    assert [e["semantics_lint.claims.advisory"] for e in events] == [False, True]
    assert {e["semantics_lint.claims.settled_span_id"] for e in events} == {ids(served)["span_id"]}
    assert events[0]["semantics_lint.claims.message"] == run.claim_check.findings[0].message  # type: ignore[union-attr]


def test_a_finding_about_text_with_a_lone_surrogate_is_sent_as_valid_utf8(spans: Spans) -> None:  # noqa: F811
    field = "jobs\ud800"
    with run_record(claims={field: CONTRACT["protected_jobs"]}) as run:
        serve("vm_backup_status", fleet_status())
        run.check_claims({field: 938})
    [claims] = [s for s in spans.ours() if s.name == "semantics claims"]
    [event] = [dict(e.attributes or {}) for e in claims.events]
    for value in event.values():
        if isinstance(value, str):
            value.encode("utf-8")  # an exporter sends attributes as UTF-8
    assert event["semantics_lint.claims.answer_field"] == "jobs\\ud800"
    assert "\\ud800" in str(event["semantics_lint.claims.message"])


def test_a_run_without_claims_keeps_its_entries_as_before() -> None:
    with run_record() as run:
        with tool_call("call_abc", 2):
            serve("vm_backup_status", fleet_status())
    assert set(run.results[0]) == {"tool", "kind", "record"}
