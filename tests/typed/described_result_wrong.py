"""Wrong ``described_result`` declarations: each draws a type error on its marked line,
and the runtime refuses each (``wrong_*``) or fails reading it (``misread_*``).

``# type-error`` marks a line both checkers report: the part that holds the wrong key,
since the mint has one signature whose keywords are typed by the parts. What a keyword
call gets wrong across fields (facts without provenance, series without grain, nothing
declared, a dict and keywords both) is the linter's and the runtime's to say.
"""

from __future__ import annotations

from _data import EXPORT

from semantics_lint.runtime import ToolSemantics, described_result

ROWS = [{"entity": "vm-01", "backed_up": True}]


def wrong_snake_case_provenance_key() -> ToolSemantics:
    return described_result(facts=ROWS, provenance={"measured_at": EXPORT.exported_at, "source": "s"})  # type-error


def wrong_snake_case_provenance_key_on_its_own_line() -> ToolSemantics:
    return described_result(
        facts=ROWS,
        provenance={"measured_at": EXPORT.exported_at, "source": EXPORT.source},  # type-error
    )


def wrong_cannot_cover_without_why() -> ToolSemantics:
    return described_result(
        facts=ROWS,
        provenance={"measuredAt": EXPORT.exported_at, "source": EXPORT.source},
        coverage={"cannotCover": [{"what": "x"}]},  # type-error
    )


def wrong_snake_case_grain_key() -> ToolSemantics:
    return described_result(
        series=[{"t": 1, "entity": "vm-01", "metric": "runs", "value": 3}],
        grain={"aggregation": "count", "is_counter": False},  # type-error
        provenance={"measuredAt": EXPORT.exported_at, "source": EXPORT.source},
    )


def wrong_derived_field_declared() -> ToolSemantics:
    return described_result(facts=ROWS, provenance={"measuredAt": "t", "source": "s"}, notCovered=["x"])  # type-error


def wrong_provenance_without_source() -> ToolSemantics:
    return described_result(facts=ROWS, provenance={"measuredAt": EXPORT.exported_at})  # type-error


def wrong_render_without_default() -> ToolSemantics:
    return described_result(
        facts=ROWS,
        provenance={"measuredAt": EXPORT.exported_at, "source": EXPORT.source},
        render={"columns": ["entity"]},  # type-error
    )


def wrong_cannot_cover_bare_string() -> ToolSemantics:
    return described_result(
        facts=ROWS,
        provenance={"measuredAt": EXPORT.exported_at, "source": EXPORT.source},
        coverage={"cannotCover": ["PPDM"]},  # type-error
    )


def wrong_snake_case_in_one_dict() -> ToolSemantics:
    return described_result({"facts": ROWS, "provenance": {"measuredAt": "t", "source": "s"}, "coverage": {"not_checked": ["x"]}})  # type-error


def stricter_series_point_with_another_key() -> ToolSemantics:
    return described_result(
        series=[{"t": 1, "entity": "vm-01", "metric": "runs", "value": 3, "unit": "runs"}],  # type-error
        grain={"interval": "daily"},
        provenance={"measuredAt": EXPORT.exported_at, "source": EXPORT.source},
    )


def stricter_part_in_an_unannotated_variable() -> ToolSemantics:
    # A dict literal kept in a variable is a dict[str, str] to both checkers, whatever
    # it holds: annotate it (provenance: Provenance = {...}).
    provenance = {"measuredAt": EXPORT.exported_at, "source": EXPORT.source}
    return described_result(facts=ROWS, provenance=provenance)  # type-error


def stricter_clarify_without_candidates() -> ToolSemantics:
    return described_result(clarify={"question": "which one?"})  # type-error


def misread_envelope_in_declaration_spelling() -> str:
    envelope = described_result(facts=ROWS, provenance={"measuredAt": "t", "source": "s"})
    return envelope["provenance"]["measuredAt"]  # type-error
