"""``semantics-lint rule CODE`` / ``rule --all``: a rule explained."""

from __future__ import annotations

import sys
from typing import Any

import click

from semantics_lint.cli.arguments import build_rule
from semantics_lint.cli.console import EXIT_CLEAN, EXIT_ERROR, write


def rule_main(code: str | None, every: bool, output_format: str) -> int:
    """Explain the rule ``code`` (every rule with ``every``) as text or JSON; the exit code."""
    from semantics_lint.lint import rule_docs
    from semantics_lint.lint.output.rule_metadata import registry, rule_info, rule_url

    known = sorted(registry())
    if every:
        codes = known
    else:
        assert code is not None
        wanted = code.strip().upper()
        if wanted not in known:
            write(
                sys.stderr,
                f"error: unknown rule code {code!r}; known codes: {', '.join(known)}\n",
            )
            return EXIT_ERROR
        codes = [wanted]
    if output_format == "json":
        import json

        rows = []
        for one in codes:
            info = rule_info(one)
            rows.append(
                {
                    "code": one,
                    "name": info.name,
                    "severity": info.severity.value,
                    "summary": info.summary,
                    "fix": info.fix,
                    "explanation": rule_docs.render_rule(one),
                    "url": rule_url(one),
                }
            )
        document: Any = rows if every else rows[0]
        write(sys.stdout, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        return EXIT_CLEAN
    write(sys.stdout, "\n".join(rule_docs.render_rule(one) for one in codes))
    return EXIT_CLEAN


def _exit_with(code: str | None, every: bool, output_format: str) -> None:
    click.get_current_context().exit(rule_main(code, every, output_format))


rule_command = build_rule(_exit_with)
"""The click command the group runs as ``rule``."""
