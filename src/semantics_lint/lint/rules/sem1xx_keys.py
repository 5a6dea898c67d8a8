"""SEM1xx: the shape of a declaration — its keys, and whether it declares anything.

Keys are classified once by the declaration model (``lint.declaration``): a snake_case
spelling of a field is SEM102 and nothing else, a derived field SEM103, any other key
the part does not have SEM101. The other rules read a snake_case key as the field it
means.
"""

from __future__ import annotations

from semantics_lint import vocabulary
from semantics_lint.lint.calls.declaration import NAMEABLE_PARTS, Field
from semantics_lint.lint.calls.verdicts import DERIVED_KEY, SNAKE_CASE_KEY, UNKNOWN_KEY, closest_field
from semantics_lint.lint.rules.base import CALL_KINDS, Check, Claim, Invalid, Rule, Selector, Valid

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


class KeyRule(Rule):
    """A rule about one key of a part, by its spelling: parts given as a name are
    judged too (its messages say where such a dict was bound themselves), and so are
    the keys written before a ``**spread``, which stay in the dict whatever it holds."""

    abstract = True
    judges = Selector(
        calls=CALL_KINDS,
        named=NAMEABLE_PARTS,
        note_named=False,
        spelling=True,
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
        refusals=(Claim(CALL_KINDS, frozenset({UNKNOWN_KEY}), deeper=True),),
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
    the key as the field it means (`result_class="triage"` is a triage tool). A key
    written before a `**spread` is reported too (`dict(measured_at=t, **defaults)`,
    `{"measured_at": t, **defaults}`): the key stays in the dict whatever the spread
    holds, though the spread may give it another value.

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
        refusals=(Claim(CALL_KINDS, frozenset({SNAKE_CASE_KEY}), deeper=True),),
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
            def tool(export, defaults):
                return described_result(
                    facts=export.rows,
                    provenance=dict(measured_at=export.at, **defaults),
                    grain={"interval": "daily", "is_counter": False, **defaults},
                )
            """,
            codes=("SEM102", "SEM102"),
            line=4,
            column=24,
            field="measured_at",
            fixed="""
            def tool(export, defaults):
                return described_result(
                    facts=export.rows,
                    provenance=dict(measuredAt=export.at, **defaults),
                    grain={"interval": "daily", "isCounter": False, **defaults},
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
        refusals=(Claim(CALL_KINDS, frozenset({DERIVED_KEY}), deeper=True),),
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


KEY_RULES: tuple[type[Rule], ...] = (
    UnknownDeclarationKey,
    SnakeCaseDeclarationKey,
    DerivedFieldDeclared,
)
