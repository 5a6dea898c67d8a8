"""The runtime checker: the envelope rules, the mints and the check-semantics gate.

What static analysis cannot see (values built at run time) is judged here, by a
faithful Python implementation of the reference framework's rules
(agentfootprint 9.62.0):

* the mints a tool returns from: :func:`described_result` (alias
  ``describedResult``), :func:`absent` and :func:`coverage`; each refuses at the
  call site with a :class:`Refusal` whose message starts ``refused:`` and whose
  ``path`` and ``kind`` say the same as data;
* :mod:`semantics_lint.runtime.mints.judge`: the mints' verdict on literal values
  (``refusal_of``, ``part_refusal``), for a program that reads source;
* the envelope rule set over the snake_case wire form:
  :func:`semantic_issues`, :func:`read_semantics`, :func:`explain_semantics`,
  :func:`semantics_for_model`, :func:`compose_not_covered` and
  :func:`read_coverage_result`;
* the tool-definition door :func:`define_tool` (alias ``defineTool``), whose
  ``resultClass`` the gate's class rules are about;
* the gate over a catalog of sample results (loaded on first use):
  :func:`check_semantics`, :func:`format_semantics_report`,
  :func:`coerce_semantics_catalog` and :func:`run_check_semantics_cli`
  (``semantics-lint check-semantics``);
* serving a result to an agent (loaded on first use): the tool message
  (:mod:`semantics_lint.runtime.serving`: :func:`tool_message`,
  :func:`refusal_message`, :class:`ToolMessage`, :class:`Kind`,
  :class:`SemanticsWarning`), the one encoder (:func:`json_text`, :class:`NotJSON`)
  and the run record (:mod:`semantics_lint.runtime.record`: :func:`run_record`,
  :class:`RunRecord`, :func:`current_run` and :func:`compose_answer_with_coverage`);
* the answer checked against what the run settled (loaded on first use,
  :mod:`semantics_lint.runtime.claims`): :func:`claim_rows`,
  :func:`unsupported_claims`, :class:`ClaimRow`, :class:`ClaimCheck`,
  :class:`ClaimFinding`, :class:`Disposition`.

The markers, notes, result classes and counter words are re-exported from
:mod:`semantics_lint.vocabulary`, the one place they are written.

The declarations and the envelopes are also types (:mod:`semantics_lint.runtime.types`:
``Provenance``, ``DescribedResultDeclaration``, ``ToolSemantics``, ...), re-exported
here. They are loaded on first use, so code that only calls the mints or the rule set
(the linter among them) never imports ``typing_extensions``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from semantics_lint.runtime.envelope.refusal import Refusal
from semantics_lint.runtime.envelope.rules import (
    compose_not_covered,
    explain_semantics,
    read_coverage_result,
    read_semantics,
    semantic_issues,
    semantics_for_model,
)
from semantics_lint.runtime.mints.absent_coverage import absent, coverage
from semantics_lint.runtime.mints.described import described_result, describedResult
from semantics_lint.runtime.mints.tools import AsyncTool, Tool, define_tool, defineTool
from semantics_lint.vocabulary import (
    ABSENCE_MARKER,
    ABSENCE_NOTE,
    COUNTER_AGGREGATION_WORDS,
    COVERAGE_MARKER,
    COVERAGE_NOTE,
    RESULT_CLASSES,
    SEMANTICS_MARKER,
    SEMANTICS_NOTE,
    is_counter_looking_aggregation,
)

if TYPE_CHECKING:
    from semantics_lint.runtime.claims.check import (
        ClaimCheck,
        ClaimFinding,
        ClaimRow,
        Disposition,
        claim_rows,
        unsupported_claims,
    )
    from semantics_lint.runtime.envelope.json_text import NotJSON, json_text
    from semantics_lint.runtime.envelope.types import (
        AbsenceDeclaration,
        AbsenceFields,
        CannotCoverItem,
        Clarify,
        ClarifyDeclaration,
        Coverage,
        CoverageDeclaration,
        CoverageItem,
        CoverageLedger,
        CoveredResult,
        DescribedResultDeclaration,
        DescribedResultFields,
        Edge,
        EdgesDeclaration,
        Fact,
        FactsDeclaration,
        Grain,
        InProgressItem,
        Period,
        PeriodOnWire,
        PeriodSpan,
        Provenance,
        Render,
        SemanticClarify,
        SemanticCoverage,
        SemanticGrain,
        SemanticProvenance,
        SemanticRender,
        SeriesDeclaration,
        SeriesPoint,
        ToolAbsence,
        ToolDefinition,
        ToolDefinitionFields,
        ToolResultClass,
        ToolSemantics,
    )
    from semantics_lint.runtime.gate.check import (
        SemanticsCatalogError,
        check_semantics,
        coerce_semantics_catalog,
        format_semantics_report,
    )
    from semantics_lint.runtime.gate.command import SemanticsCliIO, run_check_semantics_cli
    from semantics_lint.runtime.serving.message import (
        Kind,
        SemanticsWarning,
        ToolMessage,
        refusal_message,
        tool_message,
    )
    from semantics_lint.runtime.serving.record import (
        RunRecord,
        compose_answer_with_coverage,
        current_run,
        run_record,
    )

__all__ = [
    "ABSENCE_MARKER",
    "ABSENCE_NOTE",
    "COUNTER_AGGREGATION_WORDS",
    "COVERAGE_MARKER",
    "COVERAGE_NOTE",
    "RESULT_CLASSES",
    "SEMANTICS_MARKER",
    "SEMANTICS_NOTE",
    "AbsenceDeclaration",
    "AbsenceFields",
    "AsyncTool",
    "CannotCoverItem",
    "ClaimCheck",
    "ClaimFinding",
    "ClaimRow",
    "Clarify",
    "ClarifyDeclaration",
    "Coverage",
    "CoverageDeclaration",
    "CoverageItem",
    "CoverageLedger",
    "CoveredResult",
    "DescribedResultDeclaration",
    "DescribedResultFields",
    "Disposition",
    "Edge",
    "EdgesDeclaration",
    "Fact",
    "FactsDeclaration",
    "Grain",
    "InProgressItem",
    "Kind",
    "NotJSON",
    "Period",
    "PeriodOnWire",
    "PeriodSpan",
    "Provenance",
    "Refusal",
    "Render",
    "RunRecord",
    "SemanticClarify",
    "SemanticCoverage",
    "SemanticGrain",
    "SemanticProvenance",
    "SemanticRender",
    "SemanticsCatalogError",
    "SemanticsCliIO",
    "SemanticsWarning",
    "SeriesDeclaration",
    "SeriesPoint",
    "Tool",
    "ToolAbsence",
    "ToolDefinition",
    "ToolDefinitionFields",
    "ToolMessage",
    "ToolResultClass",
    "ToolSemantics",
    "absent",
    "check_semantics",
    "claim_rows",
    "coerce_semantics_catalog",
    "compose_answer_with_coverage",
    "compose_not_covered",
    "coverage",
    "current_run",
    "defineTool",
    "define_tool",
    "describedResult",
    "described_result",
    "explain_semantics",
    "format_semantics_report",
    "is_counter_looking_aggregation",
    "json_text",
    "read_coverage_result",
    "read_semantics",
    "refusal_message",
    "run_check_semantics_cli",
    "run_record",
    "semantic_issues",
    "semantics_for_model",
    "tool_message",
    "unsupported_claims",
]

_LAZY = {
    "Kind": "serving.message",
    "SemanticsWarning": "serving.message",
    "ToolMessage": "serving.message",
    "refusal_message": "serving.message",
    "tool_message": "serving.message",
    "NotJSON": "envelope.json_text",
    "json_text": "envelope.json_text",
    "RunRecord": "serving.record",
    "compose_answer_with_coverage": "serving.record",
    "current_run": "serving.record",
    "run_record": "serving.record",
    "ClaimCheck": "claims.check",
    "ClaimFinding": "claims.check",
    "ClaimRow": "claims.check",
    "Disposition": "claims.check",
    "claim_rows": "claims.check",
    "unsupported_claims": "claims.check",
    "SemanticsCatalogError": "gate.check",
    "check_semantics": "gate.check",
    "coerce_semantics_catalog": "gate.check",
    "format_semantics_report": "gate.check",
    "SemanticsCliIO": "gate.command",
    "run_check_semantics_cli": "gate.command",
}
"""Where each name loaded on first use lives."""


def __getattr__(name: str) -> object:
    # The serving seam, the gate (which the linter never needs) and the types module
    # (and typing_extensions under it) load on first use only.
    if name in _LAZY:
        module = importlib.import_module(f"{__name__}.{_LAZY[name]}")
        return getattr(module, name)
    if name in __all__:
        from semantics_lint.runtime.envelope import types

        return getattr(types, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
