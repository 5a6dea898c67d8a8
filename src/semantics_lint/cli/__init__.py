"""Every command of semantics-lint: the only package that parses arguments, all with click.

``semantics-lint`` is :func:`run`; ``semantics-lint-check-semantics``, the pre-commit
hook's entry, is :func:`semantics_lint.cli.hooks.check_semantics_main`. Below this
package the linter is a plain library (``semantics_lint.lint.run.runner.run(paths,
options)`` for files, ``texts.run_text(InMemory(path, ...), options)`` for a file
held in memory, called alike by ``check``, the language server and flake8) and the gate is
``semantics_lint.runtime.gate``; neither parses a command line.

Start-up is what a pre-commit hook or an editor pays on every run, so what a
command imports is decided here, in one place: :data:`COMMANDS` names each command's
module, which is imported only when that command runs or shows its own help (the
group's ``--help`` lists them from the table, importing none); ``check`` does not
import the runtime checker, ``check-semantics`` not the linter, ``server`` pygls only
when it runs. While the console script starts, the cyclic garbage collector is
paused: the imports make only objects that live as long as the process, and
collections would walk them again and again. Once the command's module is loaded,
they are moved to the collector's permanent generation and collection resumes
(:func:`start_up_over`), before any file is read.

:data:`main` (the click group) is what click's test runner and in-process callers
invoke (``main(["check", ...], standalone_mode=False)``).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:  # pragma: no cover - typing only
    import click

COMMANDS: dict[str, tuple[str, str, str]] = {
    "check": (
        "semantics_lint.cli.check",
        "check_command",
        "Lint tool modules for mistakes in their semantics declarations.",
    ),
    "check-semantics": (
        "semantics_lint.cli.check_semantics",
        "check_semantics_command",
        "Judge catalogs of sample tool results against the envelope and class rules.",
    ),
    "rule": (
        "semantics_lint.cli.rule",
        "rule_command",
        "Explain a rule: what it catches, why, an example and the fix.",
    ),
    "server": (
        "semantics_lint.cli.server",
        "server_command",
        "Run the language server (LSP over stdio) for editors; needs the 'lsp' extra.",
    ),
}
"""Each command: the module that defines it, the command's name there, its summary."""

_PAUSED = [False]


def run(argv: Sequence[str] | None = None) -> NoReturn:
    """The ``semantics-lint`` console script: run the command ``argv`` names, and exit.

    It raises ``SystemExit`` as click does, and the interpreter then ends as it
    always does (``atexit`` callbacks, streams flushed).
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    if gc.isenabled():
        gc.disable()
        _PAUSED[0] = True
    try:
        _group().main(args=arguments, prog_name="semantics-lint")
    finally:
        start_up_over()
    raise SystemExit(0)  # pragma: no cover - click's main exits itself


def start_up_over() -> None:
    """Resume the garbage collector :func:`run` paused, keeping it off what start-up made."""
    if _PAUSED[0]:
        _PAUSED[0] = False
        gc.freeze()
        gc.enable()


def __getattr__(name: str) -> Any:
    # ``main`` (the click group) is built on first use: importing this module does
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

    from semantics_lint.cli.style import OwnHelp

    def print_version(context: click.Context, _parameter: click.Parameter, value: bool) -> None:
        # Read only when asked for (see ``semantics_lint.__getattr__``).
        if not value or context.resilient_parsing:
            return
        import semantics_lint

        click.echo(f"semantics-lint, version {semantics_lint.__version__}")
        context.exit()

    class Group(OwnHelp, click.Group):
        """The commands of :data:`COMMANDS`, each imported when it is run."""

        def list_commands(self, ctx: click.Context) -> list[str]:
            return sorted(COMMANDS)

        def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
            if cmd_name not in COMMANDS:
                return None
            module, name, _summary = COMMANDS[cmd_name]
            command: click.Command = getattr(import_module(module), name)
            start_up_over()
            return command

        def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
            # From the table: listing the commands imports none of them.
            with formatter.section("Commands"):
                formatter.write_dl([(name, COMMANDS[name][2]) for name in self.list_commands(ctx)])

    version = click.Option(
        ["--version"],
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=print_version,
        help="Show the version and exit.",
    )
    return Group(
        "semantics-lint",
        params=[version],
        help="Lint and check the honesty declarations of agent tool results.",
        # check-semantics (click's own help option) answers -h too.
        context_settings={"help_option_names": ["-h", "--help"]},
    )
