"""SEM1xx: the shape of a declaration — its keys, and whether it declares anything.

Keys are classified once by the declaration model (``lint.declaration``): a snake_case
spelling of a field is SEM102 and nothing else, a derived field SEM103, any other key
the part does not have SEM101. The other rules read a snake_case key as the field it
means.
"""

from __future__ import annotations

import ast

from semantics_lint import vocabulary
from semantics_lint.lint.declaration import NESTED_PARTS, Declaration, Field, Row
from semantics_lint.lint.rules.base import (
    ANY,
    DATA_KEYS,
    DECLARATION_CALLS,
    DEFINE_TOOL,
    Check,
    Claim,
    Invalid,
    Rule,
    Selector,
    Valid,
    specific_code,
)
from semantics_lint.lint.syntax import UNKNOWN, literal_of, literal_value
from semantics_lint.lint.verdicts import (
    DERIVED_KEY,
    EMPTY,
    SAYS_NOTHING,
    SNAKE_CASE_KEY,
    UNKNOWN_KEY,
    VALUE_FAULTS,
    closest_field,
    followable,
    refusals,
)


# Which nested part holds a field that was written one level too high.
_HOME_OF_FIELD: dict[str, dict[str, str]] = {
    "described_result": {
        name: part
        for part, fields in (
            ("grain", vocabulary.GRAIN_FIELDS),
            ("provenance", vocabulary.PROVENANCE_FIELDS),
            ("coverage", vocabulary.COVERAGE_FIELDS),
            ("clarify", vocabulary.CLARIFY_FIELDS),
            ("render", vocabulary.RENDER_FIELDS),
        )
        for name in fields
    },
    "coverage": {name: "period" for name in vocabulary.PERIOD_FIELDS},
}


def _fields_list(allowed: tuple[str, ...]) -> str:
    return ", ".join(allowed)


_RAISED_BY_MINT = "the runtime mint raises this at the call site when the tool runs, and the tool answers nothing"
_RAISED = {"define_tool": "define_tool() raises this where the tool is defined, so the module defining it does not load"}


class RuntimeRefusesDeclaration(Rule):
    """
    ## What it does
    Reports what the runtime mint would refuse in a declaration written with literals,
    when no more specific code says it: the linter hands the literal values it reads
    from the source (never running the code) to the mint's own validators
    (`semantics_lint.runtime.judge`) and quotes the refusal.

    A call whose arguments are all literals is judged whole (the mint's first
    refusal). Each top-level field written as a literal is also judged alone, with the
    function the mint runs on it (a keyword, a key of the positional dict that no
    later `**spread` may replace, and the result `coverage()` wraps), so a call that
    is not all literals is judged too, and every refused field is reported once.

    A top-level field given as a name (`facts=ROWS`) is followed to the literal the
    name is provably bound to (`ROWS = "rows"` at module level, or a constant imported
    from the project), judged as if written in place, and reported at the name, with
    where the value was bound. A `define_tool(...)` definition is judged by the
    runtime's `define_tool` on the fields whose values are known: a missing or blank
    `name`, an `execute` missing or not a function.

    A refusal is reported as SEM100 only when no other rule claims it (each rule
    declares the kinds of refusal it reports, at which fields): the rule never repeats
    a specific finding, whether or not that rule is enabled. What it adds: a dict and
    keywords both; a positional declaration that is not a dict, or none at all;
    `coverage()` given no result; a data field or coverage list that is not a list;
    `inProgress` and its items, `period` that is not a dict;
    `render.sort`/`filterNote`/`chartHint` and `provenance.sourceExportDate` empty or
    not strings; the other values of the wrong type. It is reported at the smallest
    node the refusal concerns (the value of the field at its path; the call's name
    when it concerns the call as a whole).

    ## Why is this bad?
    The mint raises `refused:` at the call site when the tool runs, and the tool
    answers nothing. The two doors of the rule set agree on every literal declaration
    (docs/agreement.md): what the runtime would refuse, the linter reports first.
    """

    code = "SEM100"
    name = "runtime-refuses-declaration"
    judges = Selector(calls=DECLARATION_CALLS | {DEFINE_TOOL})

    VALID = (
        Valid(
            """
            def tool(export):
                return described_result(facts=export.rows, edges=[{"from": "a", "to": "b", "kind": "srdf"}], provenance={"measuredAt": export.at, "source": "x"})
            """
        ),
        Valid(
            """
            from semantics_lint.runtime import absent, coverage

            def tool(vm, verdict, rows):
                if not rows:
                    return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
                return coverage(verdict, checked=["SRDF pair state"], inProgress=[{"what": "pair 7", "count": 2}])
            """
        ),
        Valid(
            """
            def tool(export):
                # A value the linter cannot read is the runtime's to judge.
                return described_result(facts=export.rows, provenance=export.provenance, edges=export.edges)
            """
        ),
        Valid(
            """
            from semantics_lint.runtime import define_tool

            NAME = "vm_backup_status"

            def run(vm):
                return vm.status

            # A name bound to a function, or to a literal the runtime accepts: nothing.
            backup = define_tool(name=NAME, execute=run, description="backup state")
            """
        ),
        Valid(
            """
            def tool(export):
                # What a specific code says is not said again: SEM101 alone.
                return described_result(facts=[{"entity": "vm-01"}], provenance={"measuredAt": export.at, "source": "x", "tz": "UTC"})
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, edges={}, provenance={"measuredAt": export.at, "source": "x"})
            """,
            line=2,
            column=53,
            field="edges",
        ),
        Invalid(
            """
            from agentfootprint import absent

            def tool(vm):
                return absent({"what": "backup runs", "checked": ["the export"]}, tryInstead="vm_list")
            """,
            line=4,
            column=11,
            field="not both",
        ),
        Invalid(
            """
            from agentfootprint import coverage

            def tool(verdict, skipped):
                # A dict and keywords both: refused whatever the values hold.
                return coverage(verdict, {"checked": ["SRDF pair state"]}, notChecked=skipped)
            """,
            line=5,
            column=11,
            field="not both",
        ),
        Invalid(
            """
            from agentfootprint import coverage

            def tool(verdict):
                return coverage(verdict, checked=["SRDF pair state"], inProgress=[{"what": "pair 7", "count": 1.5}])
            """,
            line=4,
            column=98,
            field="`count` must be a whole number",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=[{"entity": "vm-01"}],
                    provenance={"measuredAt": "x", "source": "cmdb", "sourceExportDate": ""},
                    render={"default": "table", "sort": None},
                )
            """,
            codes=("SEM100", "SEM100"),
            line=4,
            column=77,
            field="sourceExportDate",
        ),
        Invalid(
            """
            ROWS = "rows"

            def tool(export):
                return described_result(facts=ROWS, provenance={"measuredAt": export.at, "source": "x"})
            """,
            line=4,
            column=34,
            field="non-empty list",
        ),
        Invalid(
            """
            from semantics_lint.runtime import define_tool

            def run(vm):
                return vm.status

            backup = define_tool(name=" ", execute=run)
            listing = define_tool(name="vm_list", description="every vm")
            """,
            codes=("SEM100", "SEM100"),
            line=6,
            column=26,
            field="`name` must name the tool",
        ),
    )

    def visit_declaration(self, check: Check, declaration: Declaration) -> None:
        call = check.call
        kind = call.kind
        followed: dict[int, object] = {}
        bound: dict[int, str] = {}
        for name in followable(kind, call.node):
            resolved = call.resolver.value_of(name)
            if resolved is None:
                continue
            value = literal_of(resolved.value)
            if value is not UNKNOWN:
                followed[id(name)] = value
                bound[id(name)] = f" ({resolved.describe()})"
        for refusal, node in refusals(kind, call.node, followed):
            if specific_code(kind, refusal, call.node) is not None:
                continue
            where = node if node is not None else call.func_node
            check.report(
                where,  # type: ignore[arg-type]
                str(refusal),
                help=f"{_RAISED.get(kind, _RAISED_BY_MINT)}{bound.get(id(node), '')}",
            )


class KeyRule(Rule):
    """A rule about one key of a part; parts given as a name are judged too, and its
    messages say where such a dict was bound themselves."""

    abstract = True
    judges = Selector(
        calls=DECLARATION_CALLS | {DEFINE_TOOL},
        named=frozenset(kind for nested in NESTED_PARTS.values() for kind in nested.values()),
        note_named=False,
    )


class UnknownDeclarationKey(KeyRule):
    """
    ## What it does
    Reports a key that the declaration, or its grain, provenance, coverage,
    clarify, render, period, a `queried`/`held` span, an `inProgress` item or a
    coverage item of `described_result(...)`, or a `define_tool(...)` definition, does
    not have; a literal key that is not a string (`{1: "x"}`) too. When exactly one field is a close match (a typo
    such as `measuerdAt`), the message names it and an unsafe fix renames the key.
    Other keys of an `absent(...)` or `coverage(...)` coverage item are not reported:
    those mints drop them, as the reference does.

    ## Why is this bad?
    The mint refuses the call at run time: a key it does not know would otherwise
    vanish without a word, and with it the caveat the author meant to declare.
    Caught here, it is fixed before the tool ever answers.

    ## Fix safety
    The fix is unsafe: a close spelling is a guess at what was meant. It is offered
    only when exactly one field is close and that field is not already in the dict.
    """

    code = "SEM101"
    name = "unknown-declaration-key"
    fix = "unsafe"
    judges = KeyRule.judges._replace(
        statuses=frozenset({"unknown"}),
        refusals=(
            Claim(DECLARATION_CALLS | {DEFINE_TOOL}, frozenset({UNKNOWN_KEY}), deeper=True),
        ),
    )

    VALID = (
        Valid(
            """
            def tool(export):
                return described_result(
                    facts=[{"entity": "vm-01", "backed_up": True}],
                    provenance={"measuredAt": export.at, "source": "backup export"},
                )
            """
        ),
        Valid(
            """
            def envelope(at):
                # A hand-built wire record is not a declaration.
                return {"af_semantics": True, "provenance": {"measured_at": at, "tz": "UTC"}}
            """
        ),
        Valid(
            """
            def tool(export, extra):
                return described_result(facts=export.rows, provenance={**extra, "source": "cmdb"})
            """
        ),
        Valid(
            """
            from agentfootprint import absent, coverage

            def tool(vm, verdict):
                # absent() and coverage() drop an item's other keys, as the reference does.
                if vm is None:
                    return absent(what="backup runs", checked=[{"what": "the export", "notes": "daily", 7: "x"}])
                return coverage(verdict, checked=[{"what": "all arrays", "seen": True}])
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuerdAt": export.at, "source": "cmdb"},
                )
            """,
            line=4,
            column=20,
            field="measuerdAt",
            fixed="""
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                )
            """,
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, provenance={"tz": "UTC", "source": "x"})
            """,
            field="tz",
        ),
        Invalid(
            """
            from semantics_lint.runtime import absent

            def tool(vm):
                return absent(what=f"backup runs for {vm}", checked=["the export"], reason="none")
            """,
            line=4,
            column=72,
            field="reason",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(facts=export.rows, measuredAt=export.at)
            """,
            field="provenance",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "x"},
                    coverage={"checked": ["all arrays"], "cannotCover": [{"what": "NDM", "whyy": "no API"}]},
                )
            """,
            field="whyy",
            fixed="""
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "x"},
                    coverage={"checked": ["all arrays"], "cannotCover": [{"what": "NDM", "why": "no API"}]},
                )
            """,
        ),
        Invalid(
            """
            import agentfootprint as af

            def tool(verdict, start):
                # The spans of a period and the items of inProgress have their own keys.
                return af.coverage(verdict, checked=["all arrays"], period={"queried": {"from": start, "To": start}, "held": "unknown"},
                                   inProgress=[{"what": "pair 7", "count": 1, 1: "x"}])
            """,
            codes=("SEM101", "SEM101"),
            line=5,
            column=91,
            field="period.queried.To",
        ),
        Invalid(
            """
            def tool(rows, export):
                # A misspelled data field is one mistake: not also "declares nothing".
                return described_result(fact=rows, provenance={"measuredAt": export.at, "source": "x"})
            """,
            line=3,
            column=28,
            field="did you mean `facts`",
            fixed="""
            def tool(rows, export):
                # A misspelled data field is one mistake: not also "declares nothing".
                return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "x"})
            """,
        ),
        Invalid(
            """
            from semantics_lint.runtime import define_tool

            def run(vm):
                return vm.status

            backup = define_tool(name="vm_backup_status", excute=run)
            """,
            line=6,
            column=46,
            field="excute",
            fixed="""
            from semantics_lint.runtime import define_tool

            def run(vm):
                return vm.status

            backup = define_tool(name="vm_backup_status", execute=run)
            """,
        ),
    )

    def visit_field(self, check: Check, field: Field) -> None:
        part = field.part
        if part.kind == "coverage_item" and part.declaration.kind != "described_result":
            return  # absent() and coverage() drop an item's other keys, as the reference does
        allowed = part.allowed
        meant = closest_field(field.spelled, allowed)
        home = _HOME_OF_FIELD.get(part.kind, {}).get(vocabulary.to_declaration(field.spelled))
        if meant is not None:
            advice = f"did you mean `{meant}`?"
        elif home is not None:
            advice = f"`{vocabulary.to_declaration(field.spelled)}` belongs in `{home}`"
        else:
            advice = f"the fields are {_fields_list(allowed)}"
        message = f"`{field.path}` is not a field of {f'`{part.path}`' if part.path else part.title}"
        fix = None
        if meant is not None and part.spelled(meant) is None:
            fix = self.rename_key_fix(field, meant, f"Rename `{field.spelled}` to `{meant}`")
        check.report(field, message, help=f"{advice}{part.bound}", fix=fix)


class SnakeCaseDeclarationKey(KeyRule):
    """
    ## What it does
    Reports a snake_case spelling of a camelCase declaration field (`measured_at`,
    `is_counter`, `not_checked`, `cannot_cover`, `age_seconds`,
    `source_export_date`, `filter_note`, `chart_hint`, `try_instead`,
    `in_progress`, `read_at`; in `define_tool(...)`: `result_class`,
    `input_schema`), as a dict key or a keyword, and renames it. The other rules read
    the key as the field it means (`result_class="triage"` is a triage tool).

    ## Why is this bad?
    Declarations are camelCase; snake_case is the spelling of the wire envelope
    the mint produces. The mint refuses a snake_case key at run time ("did you mean
    measuredAt?"), so the tool fails where the model reads its answer.

    Hand-built wire envelopes and saved records are snake_case on purpose and are
    never reported: only keys inside `described_result(...)`, `absent(...)`,
    `coverage(...)` and `define_tool(...)` are.

    ## Fix safety
    The fix is safe: it changes only the spelling of the key, inside its quotes
    (or the keyword name), so comments, spacing and quote style are kept. It is not
    offered when the camelCase key is already in the same dict.
    """

    code = "SEM102"
    name = "snake-case-declaration-key"
    fix = "safe"
    judges = KeyRule.judges._replace(
        statuses=frozenset({"snake"}),
        refusals=(
            Claim(DECLARATION_CALLS | {DEFINE_TOOL}, frozenset({SNAKE_CASE_KEY}), deeper=True),
        ),
    )

    VALID = (
        Valid(
            """
            def tool(export):
                return described_result(
                    series=export.points,
                    grain={"interval": "daily", "aggregation": "count", "isCounter": False},
                    provenance={"measuredAt": export.at, "source": export.source},
                )
            """
        ),
        Valid(
            """
            def saved_record(at):
                return {"provenance": {"measured_at": at, "source": "cmdb"}, "is_counter": False}
            """
        ),
        Valid(
            """
            def tool(export, source):
                # A dict changed after it was built is not provably what the call gets.
                prov = {"measured_at": export.at}
                prov["source"] = source
                return described_result(facts=export.rows, provenance=prov)
            """
        ),
        Valid(
            """
            def tool(export):
                # Row columns are the tool's own data, in any spelling.
                return described_result(
                    facts=[{"entity": "vm-01", "backed_up": True, "last_run_at": export.at}],
                    provenance={"measuredAt": export.at, "source": "backup export"},
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
                    provenance={"measured_at": export.at, "source": export.source},  # the export's time
                )
            """,
            line=4,
            column=20,
            field="measured_at",
            fixed="""
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": export.source},  # the export's time
                )
            """,
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    series=export.points,
                    grain={'interval': 'daily', 'aggregation': 'count', 'is_counter': False},
                    provenance=dict(measuredAt=export.at, source=export.source, age_seconds=30),
                )
            """,
            codes=("SEM102", "SEM102"),
            line=4,
            column=60,
            field="is_counter",
            fixed="""
            def tool(export):
                return described_result(
                    series=export.points,
                    grain={'interval': 'daily', 'aggregation': 'count', 'isCounter': False},
                    provenance=dict(measuredAt=export.at, source=export.source, ageSeconds=30),
                )
            """,
        ),
        Invalid(
            """
            from semantics_lint.runtime import absent

            def tool(vm):
                return absent(what=vm, checked=["the export"], not_checked=["the archive"])
            """,
            line=4,
            column=51,
            field="not_checked",
            fixed="""
            from semantics_lint.runtime import absent

            def tool(vm):
                return absent(what=vm, checked=["the export"], notChecked=["the archive"])
            """,
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "measured_at": export.at, "source": "x"},
                )
            """,
            field="measured_at",
        ),
        Invalid(
            """
            def tool(export):
                prov = {"measured_at": export.at, "source": export.source}
                return described_result(facts=export.rows, provenance=prov)
            """,
            line=3,
            column=58,
            field="prov = ",
        ),
        Invalid(
            """
            from agentfootprint import coverage

            def tool(verdict, read):
                return coverage(
                    verdict,
                    checked=["SRDF pair state"],
                    period={"queried": read.start, "held": read.end, 'read_at': read.at},
                    in_progress=["pair 7 still synchronizing"],
                )
            """,
            codes=("SEM102", "SEM102"),
            line=7,
            column=57,
            field="period.read_at",
            fixed="""
            from agentfootprint import coverage

            def tool(verdict, read):
                return coverage(
                    verdict,
                    checked=["SRDF pair state"],
                    period={"queried": read.start, "held": read.end, 'readAt': read.at},
                    inProgress=["pair 7 still synchronizing"],
                )
            """,
        ),
        Invalid(
            """
            from semantics_lint.runtime import define_tool

            def run(vm):
                return vm.status

            backup = define_tool(name="vm_backup_status", result_class="triage", execute=run)
            hosts = define_tool({"name": "host_list", "execute": run, "input_schema": {}})
            """,
            codes=("SEM102", "SEM102"),
            line=6,
            column=46,
            field="result_class",
            fixed="""
            from semantics_lint.runtime import define_tool

            def run(vm):
                return vm.status

            backup = define_tool(name="vm_backup_status", resultClass="triage", execute=run)
            hosts = define_tool({"name": "host_list", "execute": run, "inputSchema": {}})
            """,
        ),
    )

    def visit_field(self, check: Check, field: Field) -> None:
        camel = field.name
        part = field.part
        if part.spelled(camel) is not None:
            check.report(
                field,
                f"`{field.path}` repeats `{camel}` in its wire spelling",
                help=f"remove it{part.bound}",
            )
            return
        message = f"`{field.path}` is the wire (snake_case) spelling of `{camel}`"
        fix = self.rename_key_fix(field, camel, f"Rename `{field.spelled}` to `{camel}`")
        check.report(
            field,
            message,
            help=f"rename it to `{camel}`: declaration fields are camelCase{part.bound}",
            fix=fix,
        )


_DERIVED_WHY = {
    "note": "the mint adds the static note itself",
    vocabulary.SEMANTICS_MARKER: "the mint adds the marker itself",
    "not_covered": "the mint composes it from coverage (notChecked, cannotCover)",
    "notCovered": "the mint composes it from coverage (notChecked, cannotCover)",
}


class DerivedFieldDeclared(KeyRule):
    """
    ## What it does
    Reports a derived field declared by hand: `not_covered` / `notCovered`, `note`
    or `af_semantics`.

    ## Why is this bad?
    The mint derives these itself: the marker, the static note, and the
    `not_covered` lines composed from the coverage lists, so that the lines the model
    reads and the lists on the record can never disagree. A hand-written copy is
    refused at run time. Declare the ground in `coverage` (`notChecked`,
    `cannotCover`) instead.
    """

    code = "SEM103"
    name = "derived-field-declared"
    judges = KeyRule.judges._replace(
        statuses=frozenset({"derived"}),
        refusals=(
            Claim(DECLARATION_CALLS | {DEFINE_TOOL}, frozenset({DERIVED_KEY}), deeper=True),
        ),
    )

    VALID = (
        Valid(
            """
            def tool(export):
                return described_result(
                    facts=export.rows,
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                    coverage={"checked": ["the CMDB"], "cannotCover": [{"what": "PPDM", "why": "not collected"}]},
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
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                    not_covered=["PPDM is not collected"],
                )
            """,
            line=5,
            column=8,
            field="not_covered",
        ),
        Invalid(
            """
            def tool(export):
                return described_result({"facts": export.rows, "note": "counts are daily", "af_semantics": True})
            """,
            codes=("SEM103", "SEM103"),
            field="note",
        ),
    )

    def visit_field(self, check: Check, field: Field) -> None:
        why = _DERIVED_WHY.get(field.spelled, "the mint derives it")
        check.report(
            field,
            f"`{field.path}` is derived and cannot be declared",
            help=f"{why}; remove it{field.part.bound}",
        )


class EmptyDeclaration(Rule):
    """
    ## What it does
    Reports a `described_result(...)` that declares nothing: no `series`, `facts`
    or `edges`, and no `clarify` (or `clarify=None`).

    ## Why is this bad?
    A described result carries data, or hands a question back with `clarify`.
    One with neither is refused at run time. If the search found nothing, that is
    an answer of its own: return `absent(what=..., checked=...)`.

    ## Known problems
    Nothing is reported when the call spreads a dict (`**decl`) or passes a
    declaration the linter cannot see.
    """

    code = "SEM104"
    name = "empty-described-result"
    judges = Selector(
        calls=frozenset({"described_result"}),
        refusals=(
            Claim(frozenset({"described_result"}), frozenset({SAYS_NOTHING})),
        ),
    )

    VALID = (
        Valid(
            """
            def tool(matches):
                return described_result(clarify={"question": "Which customer?", "candidates": matches})
            """
        ),
        Valid(
            """
            def tool(decl):
                return described_result(**decl)
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(provenance={"measuredAt": export.at, "source": "cmdb"})
            """,
            line=2,
            column=11,
            field="described_result",
        ),
        Invalid(
            """
            def tool():
                return describedResult(clarify=None)
            """,
            field="clarify",
        ),
    )

    def visit_declaration(self, check: Check, declaration: Declaration) -> None:
        top = declaration.top
        if top.open:
            return
        if any(top.has(name) for name in vocabulary.DATA_FIELDS):
            return
        clarify = top.get("clarify")
        if clarify is not None and not (
            isinstance(clarify.value_ast, ast.Constant) and clarify.value_ast.value is None
        ):
            return
        for item in top.fields:
            # A misspelled data field is one mistake, reported as SEM101 only.
            if item.status == "unknown" and closest_field(item.spelled, top.allowed) in (
                *vocabulary.DATA_FIELDS,
                "clarify",
            ):
                return
        said = " (clarify=None asks nothing)" if clarify is not None else ""
        check.report(
            declaration.call.func_node,
            f"{top.title} declares nothing{said}",
            help="give it series, facts, edges or a clarify question; if nothing matched, "
            "return absent(what=..., checked=...) instead",
        )


def _is_empty_literal_ast(node: ast.expr) -> bool:
    if isinstance(node, (ast.List, ast.Tuple)):
        return not node.elts
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id in ("list", "tuple") and not node.args and not node.keywords
    return False


class EmptyDataLiteral(Rule):
    """
    ## What it does
    Reports `facts`, `series` or `edges` given as an empty literal: `[]`, `()`,
    `list()` or `tuple()`.

    ## Why is this bad?
    An empty list is not "nothing matched": the data lists of a described result
    are never empty, and the mint refuses one. When the search matched nothing,
    return `absent(what=..., checked=...)`, which tells the model that the look
    happened, what ground it covered, and that asking again returns the same.
    Write both branches: `described_result(...) if rows else absent(...)`.
    """

    code = "SEM105"
    name = "empty-data-literal"
    judges = Selector(
        calls=frozenset({"described_result"}),
        parts=frozenset({"described_result"}),
        keys=frozenset(("described_result", name) for name in vocabulary.DATA_FIELDS),
        statuses=DATA_KEYS,
        refusals=(
            Claim(frozenset({"described_result"}), frozenset({EMPTY}), (frozenset(vocabulary.DATA_FIELDS),)),
        ),
    )

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import absent

            def tool(vm, rows, export):
                if not rows:
                    return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
                return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "x"})
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(facts=[], provenance={"measuredAt": export.at, "source": "x"})
            """,
            line=2,
            column=34,
            field="facts",
        ),
        Invalid(
            """
            def tool(export):
                return described_result({"series": list(), "edges": ()})
            """,
            codes=("SEM105", "SEM105"),
            field="series",
        ),
    )

    def visit_field(self, check: Check, field: Field) -> None:
        where = ""
        if not _is_empty_literal_ast(field.value_ast):
            # Only a name can still be proved empty.
            if not isinstance(field.value_ast, (ast.Name, ast.Attribute)):
                return
            resolved = check.call.resolver.value_of(field.value_ast)
            if resolved is None or not _is_empty_literal_ast(resolved.value):
                return
            where = f" ({resolved.describe()})"
        check.report(
            field.value_ast,
            f"`{field.path}` is empty",
            help='an empty list is not "nothing matched"; return absent(what=..., checked=...) '
            f"instead{where}",
        )


def _is_text(value: object) -> bool:
    return vocabulary.is_non_empty_string(value)


def _is_instant(value: object) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


# Per data field: the required keys, and which of them must be non-empty strings.
_TEXT_KEYS = {"facts": ("entity",), "series": ("entity", "metric"), "edges": ("from", "to", "kind")}
# Expressions that are never a literal: ``literal_value`` says UNKNOWN for them only
# after ``ast.literal_eval`` raised, which costs more than the rest of the row's check.
_NEVER_LITERAL = (ast.Name, ast.Attribute, ast.JoinedStr, ast.Subscript)


def _row_value(node: ast.expr) -> object:
    """``literal_value(node)``, without asking it about names, attributes, f-strings and
    subscripts (UNKNOWN)."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, _NEVER_LITERAL):
        return UNKNOWN
    return literal_value(node)
_ROW_WORD = {"facts": "a fact", "series": "a point", "edges": "an edge"}


class UnhonourableRow(Rule):
    """
    ## What it does
    Reports a literal data row that cannot be honoured: a fact without a non-empty
    `entity`, a series point without `t`, `entity`, `metric` and `value`, an edge
    without non-empty `from`, `to` and `kind`, or a row that is not a dict at all.
    Rows built by a comprehension are checked too, by their keys.

    ## Why is this bad?
    Every row says what it is about: a fact or point without an entity, or an edge
    without its ends and kind, cannot be read by the model or drawn by a UI, and
    the mint refuses the whole result at run time.

    ## Known problems
    A row that spreads another dict (`{**base, ...}`) is only checked for the values
    it spells out.
    """

    code = "SEM106"
    name = "unhonourable-data-row"
    judges = Selector(
        calls=frozenset({"described_result"}),
        refusals=(
            Claim(frozenset({"described_result"}), VALUE_FAULTS, (frozenset(vocabulary.DATA_FIELDS), ANY), deeper=True),
        ),
    )

    VALID = (
        Valid(
            """
            def tool(vm, runs, export):
                return described_result(
                    facts=[{"entity": vm, "runs_seen": len(runs)}],
                    series=[{"t": r.day, "entity": vm, "metric": "backup_runs_ok", "value": r.ok} for r in runs],
                    edges=[{"from": vm, "to": "ds-7", "kind": "rides"}],
                    grain={"interval": "daily", "aggregation": "count", "isCounter": False},
                    provenance={"measuredAt": export.at, "source": "backup export"},
                )
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=[{"entity": "vm-01"}, {"name": "vm-02", "state": "up"}],
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                )
            """,
            line=3,
            column=36,
            field="facts[1]",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    facts=[{"entity": "  "}],
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                )
            """,
            line=3,
            column=26,
            field="entity",
        ),
        Invalid(
            """
            def tool(vm, runs, export):
                return described_result(
                    series=[{"t": r.day, "entity": vm, "value": r.ok} for r in runs],
                    grain={"interval": "daily", "aggregation": "count", "isCounter": False},
                    provenance={"measuredAt": export.at, "source": "backup export"},
                )
            """,
            field="metric",
        ),
        Invalid(
            """
            def tool(export):
                return described_result(
                    edges=[{"from": "vm-01", "to": "ds-7"}, "vm-02 -> ds-7"],
                    provenance={"measuredAt": export.at, "source": "cmdb"},
                )
            """,
            codes=("SEM106", "SEM106"),
            field="kind",
        ),
    )

    def visit_row(self, check: Check, row: Row) -> None:
        word = _ROW_WORD[row.data_field]
        if not row.mapping:
            if literal_value(row.node) is not UNKNOWN:
                check.report(row, f"`{row.path}` is not a row", help=f"{word} is a dict")
            return
        problems: list[tuple[str, ast.expr | None]] = []
        required = vocabulary.ROW_REQUIRED_FIELDS[row.data_field]
        text_keys = _TEXT_KEYS[row.data_field]
        for key in required:
            found = row.keys.get(key)
            if found is None:
                if not row.open:
                    problems.append((f"no `{key}`", None))
                continue
            if key not in text_keys and key != "t":
                continue  # present is all that is asked of it (a point's value)
            value = _row_value(found[1])
            if value is UNKNOWN:
                continue
            if key in text_keys and not _is_text(value):
                problems.append((f"`{key}` is not a non-empty string", found[1]))
            elif key == "t" and not _is_instant(value):
                problems.append(("`t` is not a time (a string or a number)", found[1]))
        if not problems:
            return
        said = "; ".join(text for text, _ in problems)
        single = problems[0][1] if len(problems) == 1 else None
        needs = ", ".join(f"`{key}`" for key in required)
        check.report(
            single if single is not None else row,
            f"`{row.path}` cannot be honoured: {said}",
            help=f"{word} needs {needs}",
        )


KEY_RULES: tuple[type[Rule], ...] = (
    RuntimeRefusesDeclaration,
    UnknownDeclarationKey,
    SnakeCaseDeclarationKey,
    DerivedFieldDeclared,
    EmptyDeclaration,
    EmptyDataLiteral,
    UnhonourableRow,
)
