"""``semantics-lint rule CODE`` / ``rule --all``: a rule explained."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from semantics_lint.cli.arguments import rule_parser
from semantics_lint.cli.console import EXIT_CLEAN, EXIT_ERROR, write


def rule_main(arguments: Sequence[str]) -> int:
    """``semantics-lint rule CODE`` / ``rule --all`` [``--output-format json``]."""
    namespace = rule_parser().parse_args(list(arguments))
    from semantics_lint.lint import rule_docs
    from semantics_lint.lint.output.rule_metadata import registry, rule_info, rule_url

    known = sorted(registry())
    if namespace.all:
        codes = known
    else:
        wanted = namespace.code.strip().upper()
        if wanted not in known:
            write(
                sys.stderr,
                f"error: unknown rule code {namespace.code!r}; known codes: {', '.join(known)}\n",
            )
            return EXIT_ERROR
        codes = [wanted]
    if namespace.output_format == "json":
        import json

        rows = []
        for code in codes:
            info = rule_info(code)
            rows.append(
                {
                    "code": code,
                    "name": info.name,
                    "severity": info.severity.value,
                    "summary": info.summary,
                    "fix": info.fix,
                    "explanation": rule_docs.render_rule(code),
                    "url": rule_url(code),
                }
            )
        document: Any = rows if namespace.all else rows[0]
        write(sys.stdout, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        return EXIT_CLEAN
    write(sys.stdout, "\n".join(rule_docs.render_rule(code) for code in codes))
    return EXIT_CLEAN
