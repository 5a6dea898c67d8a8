"""``semantics-lint check-semantics``: the gate over a catalog of sample results."""

from __future__ import annotations

import click


@click.command("check-semantics")
@click.argument("catalog")
@click.option("--strict", is_flag=True, help="Warnings fail the gate too.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def check_semantics_command(catalog: str, strict: bool, as_json: bool) -> None:
    """Judge a catalog of sample tool results against the envelope rules."""
    raise click.UsageError("the gate is not built yet")
