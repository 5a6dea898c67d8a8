"""The ``semantics-lint`` command: a click group with thin subcommands.

Each subcommand lives beside the code it drives and only plumbs arguments:
``check`` and ``rule`` in ``semantics_lint.lint.cli``, ``check-semantics`` in
``semantics_lint.runtime.cli``. Importing this module imports neither libcst nor
astroid; the linter pays for them only when a file needs them.
"""

from __future__ import annotations

import click

from semantics_lint.lint.cli import check_command, rule_command
from semantics_lint.runtime.cli import check_semantics_command


def _print_version(context: click.Context, _parameter: click.Parameter, value: bool) -> None:
    # click's own version option wants the version when the command is built; read
    # it only when asked for (see ``semantics_lint.__getattr__``).
    if not value or context.resilient_parsing:
        return
    import semantics_lint

    click.echo(f"semantics-lint, version {semantics_lint.__version__}")
    context.exit()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
    help="Show the version and exit.",
)
def main() -> None:
    """Lint and check the honesty declarations of agent tool results."""


main.add_command(check_command)
main.add_command(rule_command)
main.add_command(check_semantics_command)


@main.command("server")
@click.option(
    "--log-level", type=click.Choice(("error", "warning", "info", "debug")), default="warning",
    show_default=True, help="What the server logs on stderr.",
)
def server_command(log_level: str) -> None:
    """Run the language server (LSP over stdio) for editors; needs the 'lsp' extra."""
    from semantics_lint.lsp import run

    raise SystemExit(run(log_level))
