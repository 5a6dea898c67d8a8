"""SEM4xx: the items of coverage lists — each names its ground, and says why it cannot be covered.

Coverage lists (``checked``, ``notChecked``, ``cannotCover``) appear in
``described_result(coverage={...})``, ``absent(...)`` and ``coverage(content, ...)``.
Their items are a non-empty string or ``{"what": ..., "why": ...}``; every
``cannotCover`` item needs a ``why`` (SEM401); an item must name its ground and a
``why`` must say something (SEM405).

The items are judged in the order the runtime normalizer judges them (``what`` first,
then a present ``why``, then a missing one), so an item gets one finding: its first
mistake.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, cast

from semantics_lint import vocabulary
from semantics_lint.lint.calls.verdicts import EMPTY, MISSING, WRONG_TYPE
from semantics_lint.lint.rules.base import (
    ANY,
    DATA_KEYS,
    DECLARATION_CALLS,
    INDEX,
    Check,
    Claim,
    Invalid,
    Rule,
    Selector,
    Valid,
)
from semantics_lint.lint.rules.values import (
    follow,
    is_blank_text,
    kind_word,
    literal_kind,
    nothing_said,
    says_nothing,
    string_keys,
    text_of,
)

if TYPE_CHECKING:
    from semantics_lint.lint.calls.context import CallSite
    from semantics_lint.lint.calls.declaration import Field

# The parts whose coverage lists hold coverage items.

_ITEM_LIST_PARTS: Final = frozenset({"absent", "coverage", "described_result.coverage"})
_WHY_REQUIRED: Final = "cannotCover"
_COVERAGE_PART: Final = frozenset({"described_result.coverage"})


_LIST_HEADS: Final = frozenset({"coverage", *vocabulary.COVERAGE_LIST_FIELDS})
"""The first key of a refusal's path in a coverage list (``coverage`` in a described result)."""
_ITEM_FAULTS: Final = frozenset({MISSING, EMPTY, WRONG_TYPE})


@dataclass(frozen=True, slots=True)
class ItemProblem:
    """One coverage item's first mistake: the code, where to report it, and what to say
    (what is wrong, and the help: why, and what to write instead)."""

    code: str
    node: ast.expr
    message: str
    help: str


def _text_item_problems(
    field: Field, node: ast.expr, at: str, report_at: ast.expr, bound: str
) -> Iterator[ItemProblem]:
    """The mistake of an item written as a string: empty, or (in a list whose items
    need a reason) one with no ``why``."""
    if is_blank_text(node):
        yield ItemProblem(
            "SEM405",
            report_at,
            f"`{at}` is empty",
            "an item names its ground (which source, window or population); remove it "
            f"or say what it is{bound}",
        )
    elif field.name == _WHY_REQUIRED:
        text = text_of(node)
        said = f" {vocabulary.js_trim(text)!r}" if text is not None else ""
        yield ItemProblem(
            "SEM401",
            report_at,
            f"`{at}`{said} has no `why`",
            "a blind spot the tool can never see needs a reason; write {'what': ..., "
            f"'why': ...}}, or move it to notChecked if a wider call could reach it{bound}",
        )


def item_problems(call: CallSite, field: Field) -> Iterator[ItemProblem]:
    """The first mistake of every provably wrong item of a coverage list field."""
    holder = follow(call, field.value_ast)
    if holder is None or not isinstance(holder.node, (ast.List, ast.Tuple)):
        return
    in_call = holder.via is None
    for index, element in enumerate(holder.node.elts):
        if isinstance(element, ast.Starred):
            return  # later items have unknown indexes
        at = f"{field.path}[{index}]"
        report_at = element if in_call else field.value_ast
        bound = holder.bound
        item = follow(call, element)
        if item is None:
            continue
        bound = bound or item.bound
        # Keys of an item bound to a name have no place in the call: report at the use.
        inside = in_call and item.via is None
        node = item.node
        kind = literal_kind(node)
        if kind == "str":
            yield from _text_item_problems(field, node, at, report_at, bound)
            continue
        found = string_keys(node)
        if found is None:
            if kind is not None:
                yield ItemProblem(
                    "SEM405",
                    report_at,
                    f"`{at}` is {kind_word(kind)}, which names no ground",
                    "an item is a non-empty string or {'what': ..., 'why': ...}" + bound,
                )
            continue
        keys, hidden = found
        # An unknown key of a described result's item may be a misspelled field (SEM101
        # says so); absent() and coverage() drop an item's other keys, so there it hides
        # nothing.
        doubt = hidden or (
            call.kind == "described_result"
            and any(key not in vocabulary.COVERAGE_ITEM_FIELDS for key in keys)
        )
        what = keys.get("what")
        if what is None:
            if not doubt:
                yield ItemProblem(
                    "SEM405",
                    report_at,
                    f"`{at}` has no `what`",
                    f"say which source, window or population the item is about{bound}",
                )
            continue
        what_value = follow(call, what[1])
        if what_value is not None and says_nothing(what_value.node):
            yield ItemProblem(
                "SEM405",
                what[1] if inside else report_at,
                f"`{at}.what` {nothing_said(what_value.node)}",
                f"say which source, window or population the item is about{bound or what_value.bound}",
            )
            continue
        why = keys.get("why")
        if why is not None:
            why_value = follow(call, why[1])
            if why_value is not None and says_nothing(why_value.node):
                yield ItemProblem(
                    "SEM405",
                    why[1] if inside else report_at,
                    f"`{at}.why` {nothing_said(why_value.node)}",
                    f"give a reason, or leave `why` out{bound or why_value.bound}",
                )
            continue
        if field.name == _WHY_REQUIRED and not doubt:
            yield ItemProblem(
                "SEM401",
                report_at,
                f"`{at}` has no `why`",
                "a blind spot the tool can never see needs a reason; add 'why', or move the "
                f"item to notChecked if a wider call could reach it{bound}",
            )


def shared_item_problems(call: CallSite, field: Field) -> Iterator[ItemProblem]:
    """:func:`item_problems`, worked out once per field for the rules that ask
    (SEM401 and SEM405 judge the same items, each keeping its own code's problems).

    The problems are given as they are found, and remembered in the declaration's memo
    only once all are found: a look cut short by an exception is made again by the
    next rule that asks, as if nothing were shared.
    """
    memo = field.part.declaration.memo
    key = ("coverage item problems", field)
    known = memo.get(key)
    if known is not None:
        yield from cast("list[ItemProblem]", known)
        return
    found: list[ItemProblem] = []
    for problem in item_problems(call, field):
        found.append(problem)
        yield problem
    memo[key] = found


class CannotCoverWithoutWhy(Rule):
    """
    ## What it does
    Reports a `cannotCover` item with no `why`: a bare string, or a dict without a
    `why` key. One finding per item, on the item.

    ## Why is this bad?
    `cannotCover` is ground this tool can never see — a claim about its capability.
    Without a reason the reader cannot tell a permanent blind spot from a skipped one,
    nor act on it. The mints refuse such an item at run time. Ground a wider call
    could reach belongs in `notChecked`, where `why` is optional.
    """

    code = "SEM401"
    name = "cannot-cover-without-why"
    judges = Selector(
        parts=_ITEM_LIST_PARTS,
        keys=frozenset((kind, _WHY_REQUIRED) for kind in _ITEM_LIST_PARTS),
        statuses=DATA_KEYS,
        named=_COVERAGE_PART,
        refusals=(
            Claim(DECLARATION_CALLS, frozenset({MISSING}), ("cannotCover", ANY, "why")),
            Claim(DECLARATION_CALLS, frozenset({MISSING}), ("coverage", "cannotCover", ANY, "why")),
        ),
    )

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import absent

            def tool(vm):
                return absent(
                    what=f"backup runs for {vm}",
                    checked=["every backup job in the export"],
                    notChecked=["jobs older than 30 days"],
                    cannotCover=[{"what": "PPDM", "why": "not collected on this install"}],
                )
            """
        ),
        Valid(
            """
            def tool(export, gaps):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "x"},
                    coverage={"checked": ["the alert feed"], "cannotCover": gaps},
                )
            """
        ),
        Valid(
            """
            def tool(export, gap):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "x"},
                    coverage={"checked": ["the alert feed"], "cannotCover": [gap, {**gap}]},
                )
            """
        ),
        Valid(
            """
            def saved_absence(vm):
                # A hand-built wire record keeps the reference's rendered shape.
                return {"af_absent": True, "looked_for": vm, "cannot_cover": [{"what": "PPDM"}]}
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(alerts, export):
                return described_result(
                    facts=alerts,
                    provenance={"measuredAt": export.at, "source": "unisphere alerts"},
                    coverage={
                        "checked": ["the alert feed of the last 24 hours"],
                        "cannotCover": [
                            "alerts acknowledged before the poll",
                            {"what": "hardware alerts", "why": "sent to the vendor only"},
                            {"what": "SNMP traps"},
                        ],
                    },
                )
            """,
            codes=("SEM401", "SEM401"),
            line=8,
            column=16,
            field="coverage.cannotCover[0]",
        ),
        Invalid(
            """
            import agentfootprint as af

            def tool(verdict):
                return af.coverage(verdict, checked=["SRDF pair state"], cannotCover=[{"what": "NDM sessions"}])
            """,
            line=4,
            column=74,
            field="cannotCover[0]",
        ),
        Invalid(
            """
            from semantics_lint.runtime import absent

            BLIND_SPOTS = ["PPDM"]

            def tool(vm):
                return absent(what=vm, checked=["the export"], cannot_cover=BLIND_SPOTS)
            """,
            codes=("SEM102", "SEM401"),
            line=6,
            field='BLIND_SPOTS = ["PPDM"]',
        ),
    )

    def visit_field(self, check: Check, field: Field) -> None:
        for problem in shared_item_problems(check.call, field):
            if problem.code == self.code:
                check.report(problem.node, problem.message, help=problem.help)


class ItemNamesNoGround(Rule):
    """
    ## What it does
    Reports a coverage item (in `checked`, `notChecked` or `cannotCover`) that names
    no ground: an empty or blank string, a dict without `what` or with an empty one,
    or a value that is not a string or a dict (`None`, a number); and an item whose
    `why` is empty or not a string.

    ## Why is this bad?
    Every item says which source, window or population it is about; an empty one
    only looks like a declaration. A `why` that says nothing is worse than none. The
    mints refuse both at run time.
    """

    code = "SEM405"
    name = "coverage-item-names-no-ground"
    judges = Selector(
        parts=_ITEM_LIST_PARTS,
        keys=frozenset((kind, name) for kind in _ITEM_LIST_PARTS for name in vocabulary.COVERAGE_LIST_FIELDS),
        statuses=DATA_KEYS,
        named=_COVERAGE_PART,
        refusals=(
            Claim(DECLARATION_CALLS, _ITEM_FAULTS, (_LIST_HEADS, INDEX)),
            Claim(DECLARATION_CALLS, _ITEM_FAULTS, (_LIST_HEADS, ANY, INDEX)),
            Claim(DECLARATION_CALLS, _ITEM_FAULTS, (_LIST_HEADS, ANY, ANY, INDEX)),
            Claim(DECLARATION_CALLS, _ITEM_FAULTS, (_LIST_HEADS, ANY, "what")),
            Claim(DECLARATION_CALLS, _ITEM_FAULTS, (_LIST_HEADS, ANY, ANY, "what")),
            Claim(DECLARATION_CALLS, _ITEM_FAULTS, (_LIST_HEADS - {"cannotCover"}, ANY, "why")),
            Claim(DECLARATION_CALLS, frozenset({EMPTY, WRONG_TYPE}), ("cannotCover", ANY, "why")),
            Claim(DECLARATION_CALLS, _ITEM_FAULTS, (_LIST_HEADS - {"coverage"}, ANY, ANY, "why")),
            Claim(
                DECLARATION_CALLS,
                _ITEM_FAULTS,
                ("coverage", _LIST_HEADS - {"cannotCover"}, ANY, "why"),
            ),
            Claim(
                DECLARATION_CALLS,
                frozenset({EMPTY, WRONG_TYPE}),
                ("coverage", "cannotCover", ANY, "why"),
            ),
        ),
    )

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict, arrays):
                return coverage(
                    verdict,
                    checked=[f"SRDF pair state on {len(arrays)} arrays"],
                    notChecked=[{"what": "NDM sessions", "why": "the API timed out"}],
                )
            """
        ),
        Valid(
            """
            def tool(export, reason):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "x"},
                    coverage={"notChecked": [{"what": export.archive, "why": reason}]},
                )
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict):
                return coverage(verdict, checked=["SRDF pairs", ""], notChecked=[{"what": "NDM", "why": " "}])
            """,
            codes=("SEM405", "SEM405"),
            line=4,
            column=52,
            field="checked[1]",
        ),
        Invalid(
            """
            from semantics_lint.runtime import absent

            def tool(vm):
                return absent(what=vm, checked=["the export"], notChecked=[{"why": "timed out"}])
            """,
            field="notChecked[0]",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "x"},
                    coverage={"checked": ["the CMDB"], "cannotCover": [{"what": None, "why": "no API"}]},
                )
            """,
            field="coverage.cannotCover[0].what",
        ),
    )

    def visit_field(self, check: Check, field: Field) -> None:
        for problem in shared_item_problems(check.call, field):
            if problem.code == self.code:
                check.report(problem.node, problem.message, help=problem.help)


ITEM_RULES: tuple[type[Rule], ...] = (
    CannotCoverWithoutWhy,
    ItemNamesNoGround,
)
