"""The ``semantics-lint`` command: a click group with thin subcommands.

Each subcommand lives beside the code it drives and only plumbs arguments:
``check`` and ``rule`` in ``semantics_lint.lint.cli``, ``check-semantics`` in
``semantics_lint.runtime.cli``. Importing this module imports neither libcst nor
astroid; the linter pays for them only when a file needs them.
"""

from __future__ import annotations

import click

from semantics_lint import __version__
from semantics_lint.lint.cli import check_command, rule_command
from semantics_lint.runtime.cli import check_semantics_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="semantics-lint")
def main() -> None:
    """Lint and check the honesty declarations of agent tool results."""


main.add_command(check_command)
main.add_command(rule_command)
main.add_command(check_semantics_command)
