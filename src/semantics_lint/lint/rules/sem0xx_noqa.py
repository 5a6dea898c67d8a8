"""SEM002: ``# noqa`` comments that suppress nothing.

The check itself runs where ``# noqa`` is applied, after the engine (the runner, in
``semantics_lint.lint.run.suppress``): it needs the file's findings before suppression.
The class here carries the code's metadata, documentation and examples, as the
SEM001 class does for the engine's own code.
"""

from __future__ import annotations

from semantics_lint.lint.rules.base import Invalid, Rule, Valid


class UnusedNoqa(Rule):
    """
    ## What it does
    Reports a code of ours listed in a `# noqa` comment that suppressed nothing on its
    line: its rule ran on the file and found nothing there, or no rule has that code.
    Reported by `semantics-lint check` and by the flake8 plugin alike (flake8 applies
    `# noqa` with the same grammar, and has no check of its own for a stale one).

    ## Why is this bad?
    A suppression that no longer suppresses anything hides the next real mistake on
    that line: when someone later breaks the declaration there, the stale comment
    silences the finding. A code that names no rule is a typo, and suppresses
    nothing either.

    ## Known problems
    Codes of other tools (`E501`), codes of rules that did not run for the file
    (`--ignore`, `per-file-ignores`) and a bare `# noqa` are left alone: whether they
    are needed is not ours to know. As ruff's RUF100 does, select it out
    (`ignore = ["SEM002"]`) while a rule is switched off for a while.
    """

    code = "SEM002"
    name = "unused-noqa"

    VALID = (
        Valid(
            """
            def tool(rows, export):
                return described_result(
                    facts=rows,
                    provenance={"measured_at": export.at, "source": "cmdb"},  # noqa: SEM102
                )
            """
        ),
        Valid(
            """
            def tool(rows, export):
                return described_result(facts=rows, provenance=export.provenance)  # noqa: E501
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(rows, export):
                return described_result(
                    facts=rows,
                    provenance={"measuredAt": export.at, "source": "cmdb"},  # noqa: SEM102
                )
            """,
            line=4,
            column=65,
            field="`SEM102`",
        ),
        Invalid(
            """
            def tool(rows, export):
                return described_result(facts=rows, provenance=export.provenance)  # noqa: SEM999
            """,
            line=2,
            field="no such rule",
        ),
    )
