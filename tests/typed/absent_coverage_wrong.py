"""Wrong ``absent()`` and ``coverage()`` declarations: each draws a type error on its
marked line, and the runtime refuses each (``wrong_*``), or accepts what the types, as
the reference's do, refuse (``stricter_*``)."""

from __future__ import annotations

from semantics_lint.runtime import CoveredResult, ToolAbsence, absent, coverage


def wrong_absent_snake_case_keyword() -> ToolAbsence:
    return absent(what="VM vm-09", checked=["every VM"], try_instead="Ask for another VM.")  # type-error


def wrong_absent_cannot_cover_without_why() -> ToolAbsence:
    return absent(what="VM vm-09", checked=["every VM"], cannotCover=[{"what": "tape"}])  # type-error


def wrong_absent_snake_case_in_one_dict() -> ToolAbsence:
    return absent({"what": "VM vm-09", "checked": ["every VM"], "not_checked": ["tape"]})  # type-error


def wrong_coverage_snake_case_keyword() -> CoveredResult[int]:
    return coverage(3, checked=["every array"], not_checked=["NDM sessions"])  # type-error


def wrong_coverage_cannot_cover_without_why() -> CoveredResult[int]:
    return coverage(3, cannotCover=[{"what": "host multipathing"}])  # type-error


def wrong_coverage_period_without_held() -> CoveredResult[int]:
    return coverage(3, checked=["x"], period={"queried": {"from": "2026-09-26T09:00:00Z", "to": "2026-09-26T10:00:00Z"}})  # type-error


def wrong_coverage_snake_case_period_key() -> CoveredResult[int]:
    return coverage(
        3,
        checked=["x"],
        period={  # type-error: mypy
            "queried": {"from": "2026-09-26T09:00:00Z", "to": "2026-09-26T10:00:00Z"},
            "held": "unknown",
            "read_at": "2026-09-26T10:00:00Z",  # type-error: pyright
        },
    )


def wrong_coverage_count_not_a_number() -> CoveredResult[int]:
    return coverage(3, checked=["x"], inProgress=[{"what": "the nightly job", "count": "two"}])  # type-error


def stricter_absent_item_with_another_key() -> ToolAbsence:
    return absent(what="VM vm-09", checked=[{"what": "every VM", "kind": "inventory"}])  # type-error
