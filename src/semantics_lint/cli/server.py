"""``semantics-lint server``: the language server (its imports wait until it runs)."""

from __future__ import annotations

import click

from semantics_lint.cli.style import command


def _serve(log_level: str) -> None:
    from semantics_lint.lsp import run as run_server

    raise SystemExit(run_server(log_level))


server_command = command(
    "server",
    callback=_serve,
    params=[
        click.Option(
            ["--log-level"],
            type=click.Choice(("error", "warning", "info", "debug")),
            default="warning",
            show_default=True,
            help="What the server logs on stderr.",
        )
    ],
    help="Run the language server (LSP over stdio) for editors; needs the 'lsp' extra.",
)
"""The click command the group runs as ``server``."""
