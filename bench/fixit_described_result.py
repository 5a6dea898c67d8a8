"""A one-rule Fixit baseline for the benchmark: report every ``described_result`` call.

The benchmark runs Fixit with only this rule, so its figure is what Fixit costs for
the least a LibCST lint rule can do here (parse, the metadata Fixit always computes,
one visitor) and nothing of our rule set. It is loaded as a Fixit *local* rule:
``fixit --rules .fixit_described_result:DescribedResultCall lint PATHS`` run from
this folder (a leading dot means "a module in the current folder" to Fixit).
"""

from __future__ import annotations

from typing import ClassVar

import libcst as cst
import libcst.matchers as m
from fixit import Invalid, LintRule, Valid

# The names we recognize by name alone, spelled as the vocabulary spells them.
_NAMES = ("described_result", "describedResult")
_CALLEE = m.OneOf(
    *(m.Name(name) for name in _NAMES),
    *(m.Attribute(attr=m.Name(name)) for name in _NAMES),
)


class DescribedResultCall(LintRule):
    """Reports each call to ``described_result`` (a speed baseline, not a real check)."""

    MESSAGE = "described_result call"

    VALID: ClassVar[list[Valid | str]] = [
        Valid("result = summarize(rows)"),
        Valid("described = described_result_of(rows)"),
    ]
    INVALID: ClassVar[list[Invalid | str]] = [
        Invalid("described_result(facts=[{'entity': 'a'}])"),
        Invalid("api.describedResult(facts=rows)"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if m.matches(node.func, _CALLEE):
            self.report(node)
