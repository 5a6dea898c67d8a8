"""``semantics-lint check`` and ``semantics-lint rule``: argument plumbing over the engine."""

from __future__ import annotations

import click


@click.command("check")
@click.argument("paths", nargs=-1, type=click.Path())
def check_command(paths: tuple[str, ...]) -> None:
    """Lint tool modules for mistakes in their semantics declarations."""
    raise click.UsageError("the linter is not built yet")


@click.command("rule")
@click.argument("code")
def rule_command(code: str) -> None:
    """Explain one rule: what it catches, why, an example and the fix."""
    raise click.UsageError("the linter is not built yet")
