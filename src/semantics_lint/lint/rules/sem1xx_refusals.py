"""SEM100: what the runtime mint refuses in a literal declaration and no other rule says.

The mint itself judges the literal values read from the source (``lint.verdicts``);
each other rule claims the refusals it reports (``Selector.refusals``), and SEM100
reports the rest.
"""

from __future__ import annotations

from semantics_lint.lint.calls.declaration import Declaration
from semantics_lint.lint.calls.verdicts import followable, refusals
from semantics_lint.lint.core.syntax import UNKNOWN, literal_of
from semantics_lint.lint.rules.base import CALL_KINDS, Check, Invalid, Rule, Selector, Valid, specific_code

# Which nested part holds a field that was written one level too high.

_RAISED_BY_MINT = (
    "the runtime mint raises this at the call site when the tool runs, and the tool answers nothing"
)
_RAISED = {
    "define_tool": "define_tool() raises this where the tool is defined, so the module defining it does not load"
}


class RuntimeRefusesDeclaration(Rule):
    """
    ## What it does
    Reports what the runtime mint would refuse in a declaration written with literals,
    when no more specific code says it: the linter hands the literal values it reads
    from the source (never running the code) to the mint's own validators
    (`semantics_lint.runtime.mints.judge`) and quotes the refusal.

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
    judges = Selector(calls=CALL_KINDS)

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


REFUSAL_RULES: tuple[type[Rule], ...] = (RuntimeRefusesDeclaration,)
