"""SEM0xx: files the linter cannot read.

The engine itself reports SEM001 (decoding and parsing happen before any rule runs);
the class here carries the code's metadata, documentation and examples.
"""

from __future__ import annotations

from semantics_lint.lint.rules.base import Invalid, Rule, Valid


class UnparsableFile(Rule):
    """
    ## What it does
    Reports a file the linter cannot read: it is not valid UTF-8 and declares no other
    encoding, it has a syntax error, or it is nested too deeply for the parser. The
    finding sits at the position of the problem; every other file is still linted.

    ## Why is this bad?
    A file that cannot be parsed cannot be checked, so every mistake in its
    declarations goes unreported. A syntax error fails at import time anyway; a
    file in a legacy encoding needs a `# -*- coding: ... -*-` line so that Python
    (and the linter) read it the same way.

    ## Known problems
    A file the textual prefilter skips (no call name appears in it) is not parsed,
    so its syntax errors are not reported here; use your usual linter for those.
    """

    code = "SEM001"
    name = "unparsable-file"

    VALID = (
        Valid(
            """
            # -*- coding: latin-1 -*-
            def tool(rows, export):
                return described_result(facts=rows, provenance={"measuredAt": export.at, "source": "cmdb"})
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            def tool(rows:
                return described_result(facts=rows)
            """,
            line=1,
            column=8,
            field="cannot be parsed",
        ),
    )
