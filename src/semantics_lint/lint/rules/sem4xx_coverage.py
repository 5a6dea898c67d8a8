"""SEM4xx: coverage — the ground a result stands on, and the ground it does not.

Coverage lists (``checked``, ``notChecked``, ``cannotCover``) appear in
``described_result(coverage={...})``, ``absent(...)`` and ``coverage(content, ...)``.
Their items are a non-empty string or ``{"what": ..., "why": ...}``; every
``cannotCover`` item needs a ``why`` (SEM401); an item must name its ground and a
``why`` must say something (SEM405); a coverage must name some ground (SEM402); a
described result carries its own coverage and is never wrapped (SEM403); ``absent()``
needs ``what`` and ``checked`` (SEM404); ``coverage()``'s ``period`` instants are ISO
8601 with a zone and ``inProgress`` needs ``checked`` (SEM406).

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
from semantics_lint.lint.rules.base import (
    ANY,
    DATA_KEYS,
    DECLARATION_CALLS,
    DEFINE_TOOL,
    INDEX,
    Check,
    Claim,
    Invalid,
    Rule,
    Selector,
    Valid,
)
from semantics_lint.lint.rules.values import (
    Value,
    data_field,
    follow,
    is_blank_text,
    is_empty_sequence,
    keys_in_doubt,
    kind_word,
    literal_kind,
    text_of,
)
from semantics_lint.lint.syntax import is_dict_form, iter_dict_items
from semantics_lint.lint.verdicts import (
    ARGUMENTS,
    BAD_VALUE,
    EMPTY,
    MISSING,
    SAYS_NOTHING,
    VALUE_FAULTS,
    WRAPPED,
    WRONG_TYPE,
    instant,
    wraps_described_result,
)

if TYPE_CHECKING:
    from semantics_lint.lint.context import CallSite
    from semantics_lint.lint.declaration import Declaration, Field, Part

# The parts whose coverage lists hold coverage items.
_ITEM_LIST_PARTS: Final = frozenset({"absent", "coverage", "described_result.coverage"})
_WHY_REQUIRED: Final = "cannotCover"
_COVERAGE_PART: Final = frozenset({"described_result.coverage"})
_PERIOD: Final = frozenset({"period"})


def _dict_items(node: ast.expr) -> tuple[dict[str, tuple[ast.AST, ast.expr]], bool] | None:
    """The literal string keys of a dict literal or ``dict(...)`` call (a key written
    twice: the last, as Python keeps it), and whether others may hide (a spread, a
    computed key); None when ``node`` is not a dict form. A literal key that is not a
    string (``{1: "x"}``) hides nothing."""
    if not is_dict_form(node):
        return None
    keys: dict[str, tuple[ast.AST, ast.expr]] = {}
    hidden = False
    for item in iter_dict_items(node):
        if item is None:
            hidden = True
        elif isinstance(item[0], str):
            keys[item[0]] = (item[1], item[2])  # a key written twice: the last
    return keys, hidden


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
            continue
        found = _dict_items(node)
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
            call.kind == "described_result" and any(key not in vocabulary.COVERAGE_ITEM_FIELDS for key in keys)
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
        if what_value is not None and _says_nothing(what_value.node):
            yield ItemProblem(
                "SEM405",
                what[1] if inside else report_at,
                f"`{at}.what` {_nothing(what_value.node)}",
                "say which source, window or population the item is about"
                f"{bound or what_value.bound}",
            )
            continue
        why = keys.get("why")
        if why is not None:
            why_value = follow(call, why[1])
            if why_value is not None and _says_nothing(why_value.node):
                yield ItemProblem(
                    "SEM405",
                    why[1] if inside else report_at,
                    f"`{at}.why` {_nothing(why_value.node)}",
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


def _says_nothing(node: ast.expr) -> bool:
    kind = literal_kind(node)
    return kind is not None and (kind != "str" or is_blank_text(node))


def _nothing(node: ast.expr) -> str:
    kind = literal_kind(node)
    return "is empty" if kind == "str" else f"is {kind_word(kind or 'str')}, not a string"


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
            Claim(DECLARATION_CALLS, _ITEM_FAULTS, ("coverage", _LIST_HEADS - {"cannotCover"}, ANY, "why")),
            Claim(DECLARATION_CALLS, frozenset({EMPTY, WRONG_TYPE}), ("coverage", "cannotCover", ANY, "why")),
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


def _no_ground(call: CallSite, field: Field) -> bool:
    """True when a ground field provably holds no ground: an empty list, or None."""
    value = follow(call, field.value_ast)
    if value is None:
        return False
    return is_empty_sequence(value.node) or literal_kind(value.node) == "none"


_LIST_SHAPE: Final = "{'checked': [...], 'notChecked': [...], 'cannotCover': [...]}"


class CoverageNamesNoGround(Rule):
    """
    ## What it does
    Reports a coverage that names no ground at all: `coverage={}` (or with only empty
    lists) in `described_result(...)`, `coverage=None` there, and a `coverage(content,
    ...)` call whose lists are all missing or empty, with no `period` and no
    `inProgress` (each is ground of its own).

    ## Why is this bad?
    A coverage that declares nothing tells a reader nothing while looking like it did:
    the model reads the boundary as "covered everything". The mints refuse it at run
    time. Name what was checked, what was skipped, or what can never be seen; or leave
    coverage out.
    """

    code = "SEM402"
    name = "coverage-names-no-ground"
    judges = Selector(
        calls=frozenset({"described_result", "coverage"}),
        parts=frozenset({"described_result", "described_result.coverage"}),
        keys=frozenset({("described_result", "coverage")}),
        statuses=DATA_KEYS,
        named=_COVERAGE_PART,
        refusals=(
            Claim(frozenset({"described_result"}), frozenset({WRONG_TYPE}), ("coverage",)),
            Claim(frozenset({"described_result", "absent"}), frozenset({SAYS_NOTHING}), (_LIST_HEADS,), deeper=True),
            Claim(frozenset({"coverage"}), frozenset({SAYS_NOTHING}), deeper=True),
            Claim(frozenset({"coverage"}), frozenset({ARGUMENTS}), bare=True),
        ),
    )

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict, window):
                return coverage(verdict, period={"queried": window, "held": "unknown"})
            """
        ),
        Valid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict, ledger):
                return coverage(verdict, ledger)
            """
        ),
        Valid(
            """
            def tool(export, checked):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "x"},
                    coverage={"checked": checked, "notChecked": []},
                )
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "x"},
                    coverage={"checked": [], "cannotCover": []},
                )
            """,
            line=5,
            column=17,
            field="coverage",
        ),
        Invalid(
            """
            from semantics_lint.runtime import coverage as cov

            def tool(verdict):
                return cov(verdict, notChecked=[])
            """,
            line=4,
            column=11,
            field="cov(...)",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x"}, coverage=None)
            """,
            field="coverage",
        ),
    )

    def visit_declaration(self, check: Check, declaration: Declaration) -> None:
        if declaration.kind != "coverage":
            return
        top = declaration.top
        if keys_in_doubt(top):
            return
        for field in top.fields:
            # Every field of coverage() is ground (lists, period, inProgress) but none
            # may name any; unknown and derived keys already made the part doubtful.
            if data_field(field) and not _no_ground(check.call, field):
                return
        check.report(
            declaration.call.func_node,
            f"{check.call.spelled}(...) names no ground at all",
            help="every list is missing or empty and there is no period or inProgress; name "
            "what was checked, what was skipped or what can never be seen, or return the "
            "result bare",
        )

    def visit_part(self, check: Check, part: Part) -> None:
        if part.kind != "described_result.coverage" or keys_in_doubt(part):
            return
        for field in part.fields:
            if data_field(field) and not _no_ground(check.call, field):
                return
        check.report(
            part,
            "`coverage` names no ground at all",
            help=f"declare at least one item in {_LIST_SHAPE}, or leave coverage out",
        )

    def visit_field(self, check: Check, field: Field) -> None:
        value = follow(check.call, field.value_ast)
        if value is None:
            return
        kind = literal_kind(value.node)
        if kind is None or kind == "dict":
            return
        check.report(
            field.value_ast,
            f"`coverage` is {kind_word(kind)}, which names no ground",
            help=f"give {_LIST_SHAPE}, or leave coverage out{value.bound}",
        )


def _is_described_result_call(call: CallSite, node: ast.expr) -> bool:
    """True when ``node`` is a call the engine recognized as ``described_result``."""
    for site in call.context.calls:
        if site.node is node:
            return site.kind == "described_result"
    return False


def _names_described_result(call: CallSite, node: ast.expr) -> bool:
    """True for a call of ``described_result`` (by name alone) in a followed value."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return name is not None and name in call.context.settings.call_names


class DescribedResultInCoverage(Rule):
    """
    ## What it does
    Reports `coverage(described_result(...), ...)`: a described result wrapped in a
    coverage boundary, written in the call or through a name bound to one. The finding
    is on the wrapping `coverage(`.

    ## Why is this bad?
    A described result carries its own coverage. Wrapped, its ground is declared twice
    in two places that can disagree, and the reader sees the boundary of the wrapper
    instead of the result's. The `coverage()` mint refuses it at run time. Declare the
    lists in `described_result(..., coverage={...})` and return it bare.
    """

    code = "SEM403"
    name = "described-result-in-coverage"
    judges = Selector(
        calls=frozenset({"coverage"}),
        refusals=(
            Claim(DECLARATION_CALLS | {DEFINE_TOOL}, frozenset({WRAPPED}), deeper=True),
        ),
    )

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import coverage

            def tool(pairs):
                verdict = {"pairs_ok": all(p.ok for p in pairs)}
                return coverage(verdict, checked=["SRDF pair state on all 4 arrays"])
            """
        ),
        Valid(
            """
            import coverage

            def measure(described_result):
                # coverage.py's API, not ours.
                return coverage.Coverage(described_result(1))
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            from semantics_lint.runtime import coverage

            def tool(export):
                return coverage(
                    described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x"}),
                    checked=["every job in the export"],
                )
            """,
            line=4,
            column=11,
            field="coverage(...)",
        ),
        Invalid(
            """
            from agentfootprint import coverage

            def tool(export):
                result = described_result(facts=export.rows, provenance={"measuredAt": export.at, "source": "x"})
                return coverage(result, checked=["every job in the export"])
            """,
            line=5,
            column=11,
            field="result = described_result(",
        ),
        Invalid(
            """
            from agentfootprint import coverage

            def tool(rows, export):
                # A wire envelope written out is a described result too.
                return coverage({"af_semantics": True, "facts": rows}, checked=["every job in the export"])
            """,
            line=5,
            column=11,
        ),
    )

    def visit_declaration(self, check: Check, declaration: Declaration) -> None:
        content = declaration.content
        if content is None:
            return
        bound = ""
        if not _is_described_result_call(check.call, content) and not wraps_described_result(content):
            if not isinstance(content, (ast.Name, ast.Attribute)):
                return
            value = follow(check.call, content)
            if value is None or value.via is None or not _names_described_result(check.call, value.node):
                return
            bound = value.bound
        check.report(
            declaration.call.func_node,
            f"{check.call.spelled}(...) wraps a described result",
            help="a described result carries its own coverage: declare the lists in "
            f"described_result(..., coverage={_LIST_SHAPE}) and return it bare{bound}",
        )


class AbsentWithoutWhatOrChecked(Rule):
    """
    ## What it does
    Reports an `absent(...)` without a non-empty `what` (what was looked for), or
    without a non-empty `checked` (the ground that was searched): missing, empty,
    `None`, or not a list. A missing field is reported on the call's name, a bad value
    on the value.

    ## Why is this bad?
    "Nothing found" is an answer only when it says what was looked for and where.
    Without `checked`, a reader cannot tell "I looked and there is nothing" from "I
    could not look". The mint refuses both at run time; if the tool could not look,
    raise an error instead.
    """

    code = "SEM404"
    name = "absent-without-what-or-checked"
    judges = Selector(
        calls=frozenset({"absent"}),
        refusals=(
            Claim(frozenset({"absent"}), frozenset({ARGUMENTS}), bare=True),
            Claim(frozenset({"absent"}), VALUE_FAULTS, ("what",)),
            Claim(frozenset({"absent"}), VALUE_FAULTS - {SAYS_NOTHING}, ("checked",)),
        ),
    )

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import absent

            def tool(name, sources):
                return absent(what=f"host {name}", checked=sources)
            """
        ),
        Valid(
            """
            from semantics_lint.runtime import absent

            def tool(name, decl):
                return absent(what=f"host {name}", **decl)
            """
        ),
        Valid(
            """
            def absent(what):
                # A function of the project's own, not the API's.
                return what

            def tool(name):
                return absent(what=f"host {name}")
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            from semantics_lint.runtime import absent

            def tool(name):
                return absent(what=f"host {name}")
            """,
            line=4,
            column=11,
            field="checked",
        ),
        Invalid(
            """
            from semantics_lint.runtime import absent

            def tool():
                return absent(what="  ", checked=["the CMDB"])
            """,
            line=4,
            column=23,
            field="what",
        ),
        Invalid(
            """
            from semantics_lint.runtime import absent

            def tool(name):
                return absent({"what": name, "checked": []})
            """,
            field="checked",
        ),
        Invalid(
            """
            from semantics_lint.runtime import absent

            def tool(name):
                return absent(what=name, checked="the CMDB")
            """,
            field="a string",
        ),
    )

    def visit_declaration(self, check: Check, declaration: Declaration) -> None:
        top = declaration.top
        doubt = keys_in_doubt(top)
        where = f"{check.call.spelled}(...)"
        what = top.get("what")
        if what is None:
            if not doubt:
                check.report(
                    declaration.call.func_node,
                    f"{where} has no `what`",
                    help="say what was looked for (e.g. 'FLOGI entries on fc1/3')",
                )
        else:
            value = follow(check.call, what.value_ast)
            if value is not None and _says_nothing(value.node):
                check.report(
                    what.value_ast,
                    f"`{what.path}` {_nothing(value.node)}",
                    help=f"say what was looked for (e.g. 'FLOGI entries on fc1/3'){value.bound}",
                )
        checked = top.get("checked")
        if checked is None:
            if not doubt:
                check.report(
                    declaration.call.func_node,
                    f"{where} has no `checked`",
                    help="name at least one source, window or population that WAS searched; "
                    "if the tool could not look, raise an error instead",
                )
            return
        value = follow(check.call, checked.value_ast)
        if value is None:
            return
        kind = literal_kind(value.node)
        if kind is None:
            return
        if kind in ("list", "tuple"):
            if not is_empty_sequence(value.node):
                return
            problem = "is empty"
        else:
            problem = f"is {kind_word(kind)}, not a list"
        check.report(
            checked.value_ast,
            f"`{checked.path}` {problem}",
            help=f"name at least one source, window or population that WAS searched{value.bound}",
        )


def _instant_problem(call: CallSite, node: ast.expr) -> tuple[str, Value] | None:
    """Why an instant is provably not ISO 8601 with a zone, or None."""
    value = follow(call, node)
    if value is None:
        return None
    kind = literal_kind(value.node)
    if kind is None:
        return None
    text = text_of(value.node)
    if text is None:
        if kind == "str":
            return None  # an f-string: its parts are not known
        return f"is {kind_word(kind)}, not an ISO 8601 instant", value
    if instant(text) is None:
        return f"is {text!r}, not an ISO 8601 instant with a zone", value
    return None


_INSTANT_EXAMPLE: Final = "e.g. '2026-09-26T08:00:00Z' or '2026-09-26T10:00:00+02:00'"


class BadPeriodOrInProgress(Rule):
    """
    ## What it does
    Reports a `coverage(...)` `period` whose instants (`queried` and `held` spans'
    `from`/`to`, and `readAt`) are not ISO 8601 instants with a zone, a span whose
    `from` is after its `to`, a `held` that is neither a span nor `"unknown"`, a
    period without `queried` or `held`; and an `inProgress` list with no `checked`
    beside it.

    ## Why is this bad?
    An instant with no zone could be any of 24 hours, so the mint refuses it rather
    than guess. An item still in progress is ground the call read, so the call must
    name what it covered in `checked`. Both are refused at run time.
    """

    code = "SEM406"
    name = "bad-period-or-in-progress"
    judges = Selector(
        calls=frozenset({"coverage"}),
        parts=_PERIOD,
        named=_PERIOD,
        refusals=(
            Claim(frozenset({"coverage"}), frozenset({BAD_VALUE, WRONG_TYPE, MISSING}), ("period", ANY), deeper=True),
            Claim(frozenset({"coverage"}), frozenset({MISSING, EMPTY}), ("checked",)),
        ),
    )

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict, read_at):
                return coverage(
                    verdict,
                    checked=["SRDF pair state"],
                    period={
                        "queried": {"from": "2026-09-26T00:00:00Z", "to": "2026-09-26T08:00:00+02:00"},
                        "held": "unknown",
                        "readAt": read_at,
                    },
                    inProgress=["2 pair resyncs"],
                )
            """
        ),
        Valid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict, window, running, checked):
                return coverage(verdict, checked=checked, period={"queried": window, "held": window}, inProgress=running)
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict, end):
                return coverage(
                    verdict,
                    checked=["SRDF pair state"],
                    period={"queried": {"from": "2026-09-26T00:00:00", "to": end}, "held": "unknown"},
                )
            """,
            line=7,
            column=36,
            field="period.queried.from",
        ),
        Invalid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict):
                return coverage(verdict, inProgress=["2 pair resyncs"])
            """,
            line=4,
            column=29,
            field="inProgress",
        ),
        Invalid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict, window):
                return coverage(verdict, checked=["x"], period={"queried": window, "held": "2026-09-26"})
            """,
            field="period.held",
        ),
        Invalid(
            """
            from semantics_lint.runtime import coverage

            START = "2026-09-27T00:00:00Z"

            def tool(verdict):
                return coverage(
                    verdict,
                    checked=["x"],
                    period={"queried": {"from": START, "to": "2026-09-26T00:00:00Z"}, "held": "unknown"},
                )
            """,
            field="period.queried",
        ),
        Invalid(
            """
            from semantics_lint.runtime import coverage

            def tool(verdict, window):
                return coverage(verdict, checked=["x"], period={"queried": window})
            """,
            field="held",
        ),
    )

    def visit_part(self, check: Check, part: Part) -> None:
        if part.kind != "period":
            return
        if not keys_in_doubt(part):
            missing = [name for name in ("queried", "held") if not part.has(name)]
            if missing:
                said = " and ".join(f"`{name}`" for name in missing)
                check.report(
                    part,
                    f"`period` has no {said}",
                    help="a period says what the read asked for (queried: {'from', 'to'}) and "
                    "what the store holds (held: a span, or 'unknown')",
                )
        for field in part.fields:
            if not data_field(field):
                continue
            if field.name == "readAt":
                value = follow(check.call, field.value_ast)
                if value is not None and literal_kind(value.node) == "none":
                    continue  # None reads as "not given"
                self._instant(check, field.value_ast, field.path)
            elif field.name in ("queried", "held"):
                self._span(check, field)

    def _instant(self, check: Check, node: ast.expr, path: str) -> tuple[int, int] | None:
        """Report a bad instant; return the instant when it is a good literal one."""
        found = _instant_problem(check.call, node)
        if found is not None:
            problem, value = found
            check.report(
                node,
                f"`{path}` {problem}",
                help=f"write an ISO 8601 instant with a zone, {_INSTANT_EXAMPLE}{value.bound}",
            )
            return None
        value = follow(check.call, node)
        text = text_of(value.node) if value is not None else None
        return instant(text) if text is not None else None

    def _span(self, check: Check, field: Field) -> None:
        where = f"`{field.path}`"
        value = follow(check.call, field.value_ast)
        if value is None:
            return
        kind = literal_kind(value.node)
        if kind is None:
            return
        if field.name == "held" and kind == "str":
            if text_of(value.node) != vocabulary.PERIOD_HELD_UNKNOWN:
                check.report(
                    field.value_ast,
                    f"{where} is a string",
                    help="it must be a span {'from': ..., 'to': ...} or the literal 'unknown'"
                    + value.bound,
                )
            return
        found = _dict_items(value.node)
        if found is None:
            check.report(
                field.value_ast,
                f"{where} is {kind_word(kind)}",
                help="it must be a span {'from': ..., 'to': ...} of two instants"
                + (" or the literal 'unknown'" if field.name == "held" else "")
                + value.bound,
            )
            return
        if value.via is not None:
            return  # a span bound to a name: its instants have no place in the call
        keys, hidden = found
        span_fields = vocabulary.PERIOD_SPAN_FIELDS
        if not hidden and any(key not in span_fields for key in keys):
            hidden = True  # an unknown key may be the missing one misspelled
        instants: dict[str, tuple[int, int] | None] = {}
        for name in span_fields:
            if name in keys:
                instants[name] = self._instant(check, keys[name][1], f"{field.path}.{name}")
        missing = [name for name in span_fields if name not in keys]
        if missing and not hidden:
            check.report(
                field.value_ast,
                f"{where} has no {' and no '.join(f'`{name}`' for name in missing)}",
                help="a span is {'from': ..., 'to': ...}, two instants",
            )
            return
        start, end = instants.get("from"), instants.get("to")
        if start is not None and end is not None and start > end:
            check.report(
                field.value_ast,
                f"{where} runs backward",
                help="`from` is after `to`",
            )

    def visit_declaration(self, check: Check, declaration: Declaration) -> None:
        top = declaration.top
        progress = top.get("inProgress")
        if progress is None or keys_in_doubt(top):
            return
        value = follow(check.call, progress.value_ast)
        if value is None or not isinstance(value.node, (ast.List, ast.Tuple)):
            return
        if not any(not isinstance(element, ast.Starred) for element in value.node.elts):
            return
        checked = top.get("checked")
        if checked is not None and not _no_ground(check.call, checked):
            return
        check.report(
            progress,
            f"`{progress.path}` has no `checked` beside it",
            help="an item still running is ground the call read, so name what the read "
            "covered in `checked`",
        )


COVERAGE_RULES: tuple[type[Rule], ...] = (
    CannotCoverWithoutWhy,
    CoverageNamesNoGround,
    DescribedResultInCoverage,
    AbsentWithoutWhatOrChecked,
    ItemNamesNoGround,
    BadPeriodOrInProgress,
)
