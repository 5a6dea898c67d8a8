"""Right ``absent()`` and ``coverage()`` declarations: both checkers are silent, the mints
accept each. The first two are the README's."""

from __future__ import annotations

from _data import EXPORT

from semantics_lint.runtime import AbsenceDeclaration, CoveredResult, Period, ToolAbsence, absent, coverage


def right_spec_absent(vm: str = "vm-01") -> ToolAbsence:
    return absent(what=f"backup runs for {vm}", checked=["every backup job in the export"])


def right_spec_coverage() -> CoveredResult[dict[str, str]]:
    verdict = {"state": "healthy"}
    return coverage(
        verdict,
        checked=["SRDF pair state on all 4 arrays"],
        notChecked=[{"what": "NDM sessions", "why": "the API timed out"}],
    )


def right_absent_every_field() -> ToolAbsence:
    return absent(
        what="FLOGI entries on fc1/3",
        checked=["the live fcns database", {"what": "fabric A", "why": "the only fabric"}],
        notChecked=[{"what": "fabric B"}],
        cannotCover=[{"what": "NPV switches", "why": "no collector runs there"}],
        tryInstead="Ask about fabric B tomorrow.",
    )


def right_absent_one_dict() -> ToolAbsence:
    declaration: AbsenceDeclaration = {"what": "VM vm-09", "checked": ["every VM in the export"]}
    return absent(declaration)


def right_coverage_period_and_in_progress() -> CoveredResult[list[str]]:
    period: Period = {
        "queried": {"from": "2026-09-26T09:00:00Z", "to": "2026-09-26T10:00:00Z"},
        "held": "unknown",
        "readAt": EXPORT.exported_at,
    }
    return coverage(
        ["job-1", "job-2"],
        checked=["every job in the export"],
        period=period,
        inProgress=["the nightly job", {"what": "replication of vol-7", "count": 2}],
    )


def right_coverage_one_dict() -> CoveredResult[int]:
    return coverage(3, {"cannotCover": [{"what": "tape", "why": "no collector"}]})


def right_coverage_keeps_the_content_type() -> int:
    covered = coverage(3, checked=["every array"])
    return covered["result"] + 1
