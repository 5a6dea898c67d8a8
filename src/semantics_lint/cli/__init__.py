"""Every command of semantics-lint: the only package that parses arguments.

``semantics-lint`` is :func:`run`; ``semantics-lint-check-semantics``, the pre-commit
hook's entry, is :func:`semantics_lint.cli.hooks.check_semantics_main`. Below this
package the linter is a plain library (``semantics_lint.lint.run.runner.run(paths,
options)``, called alike by ``check``, the language server and flake8) and the gate
is ``semantics_lint.runtime.gate``; neither parses a command line.

``check`` and ``rule``, the linter's commands,
go straight to their own parsers (``semantics_lint.cli.arguments``, argparse): a
pre-commit hook or an editor pays the start-up of every run, and neither click nor
the runtime checker is imported for them. Everything else (``--help``,
``--version``, ``check-semantics``, ``server``) goes to :data:`main`, a click group,
built on first use, whose ``check-semantics`` command (``semantics_lint.cli.check_semantics``)
is imported only when it runs or its help is shown, and whose ``server`` imports the
language server only when it runs.

``main`` stays a click group so that click's test runner and callers that invoke
it in-process (``main(["check", ...], standalone_mode=False)``) keep working; its
``check`` and ``rule`` hand their arguments, unparsed, to the same parsers.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:  # pragma: no cover - typing only
    import click

LINT_COMMANDS = ("check", "rule")


def run(argv: Sequence[str] | None = None) -> NoReturn:
    """The ``semantics-lint`` console script."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0] in LINT_COMMANDS:
        from semantics_lint.cli.check import main as lint_main

        lint_main(arguments)
    _group().main(args=arguments, prog_name="semantics-lint")
    raise SystemExit(0)  # pragma: no cover - click's main exits itself


def __getattr__(name: str) -> Any:
    # ``main`` (the click group) is built on first use: importing this module must
    # not import click.
    if name == "main":
        return _group()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_GROUP: list[click.Group] = []


def _group() -> click.Group:
    if not _GROUP:
        _GROUP.append(_build_group())
    return _GROUP[0]


def _build_group() -> click.Group:
    import click

    def print_version(context: click.Context, _parameter: click.Parameter, value: bool) -> None:
        # Read only when asked for (see ``semantics_lint.__getattr__``).
        if not value or context.resilient_parsing:
            return
        import semantics_lint

        click.echo(f"semantics-lint, version {semantics_lint.__version__}")
        context.exit()

    class Group(click.Group):
        def list_commands(self, ctx: click.Context) -> list[str]:
            return sorted({*super().list_commands(ctx), "check-semantics"})

        def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
            if cmd_name == "check-semantics":
                from semantics_lint.cli.check_semantics import check_semantics_command

                return check_semantics_command
            return super().get_command(ctx, cmd_name)

    version = click.Option(
        ["--version"], is_flag=True, expose_value=False, is_eager=True, callback=print_version,
        help="Show the version and exit.",
    )
    main = Group(
        "semantics-lint",
        params=[version],
        help="Lint and check the honesty declarations of agent tool results.",
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    for name, summary in (
        ("check", "Lint tool modules for mistakes in their semantics declarations."),
        ("rule", "Explain a rule: what it catches, why, an example and the fix."),
    ):
        main.add_command(_forward(name, summary))
    main.add_command(_server_command())
    return main


def _server_command() -> click.Command:
    """``semantics-lint server``: the language server (its imports wait until it runs)."""
    import click

    def serve(log_level: str) -> None:
        from semantics_lint.lsp import run as run_server

        raise SystemExit(run_server(log_level))

    return click.Command(
        "server",
        callback=serve,
        params=[
            click.Option(
                ["--log-level"], type=click.Choice(("error", "warning", "info", "debug")),
                default="warning", show_default=True, help="What the server logs on stderr.",
            )
        ],
        help="Run the language server (LSP over stdio) for editors; needs the 'lsp' extra.",
    )


def _forward(name: str, summary: str) -> click.Command:
    """A click command that hands its arguments, unparsed, to the linter's parser."""
    import click

    def forward(arguments: tuple[str, ...]) -> None:
        from semantics_lint.cli.check import main as lint_main

        lint_main([name, *arguments])

    return click.Command(
        name,
        callback=forward,
        params=[click.Argument(["arguments"], nargs=-1, type=click.UNPROCESSED)],
        help=f"{summary} (`semantics-lint {name} --help` lists the flags.)",
        short_help=summary,
        add_help_option=False,
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )
