"""One style of help for every command: ``-h``/``--help``, and options in sections.

Each command of the group takes :func:`help_option` (``-h``/``--help``, click's
own behaviour; :class:`OwnHelp`) in place of click's built-in one, whose text is
translated on every run, help or not (``gettext`` searching the locale's catalogs, with ``locale``
imported for it: a millisecond of every run). Usage mistakes are click's
(``Usage: ...``, ``Error: ...``, exit code 2) everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

HELP_TEXT = "Show this message and exit."


def _show_help(context: click.Context, _parameter: click.Parameter, value: bool) -> None:
    if not value or context.resilient_parsing:
        return
    click.echo(context.get_help(), color=context.color)
    context.exit()


def help_option() -> click.Option:
    """``-h``/``--help``: print the command's help and exit 0."""
    return click.Option(
        ["-h", "--help"],
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=_show_help,
        help=HELP_TEXT,
    )


class OwnHelp:
    """A command (or group) whose ``-h``/``--help`` is :func:`help_option`, made once:
    click lists it, runs it and names it in a usage error's ``Try ... for help.``
    as its own."""

    add_help_option: bool
    _own_help: click.Option | None = None

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        if not self.add_help_option:
            return None
        if self._own_help is None:
            self._own_help = help_option()
        return self._own_help


class Command(OwnHelp, click.Command):
    """A command of the group."""


def command(name: str, params: Sequence[click.Parameter], **settings: Any) -> click.Command:
    """A command of the group: ``params`` and ``-h``/``--help``."""
    return Command(name, params=list(params), **settings)


class SectionedCommand(OwnHelp, click.Command):
    """A command whose help lists its options under titled sections.

    ``sections`` pairs each title with the names of the parameters shown under it;
    a parameter named in none (``--help``) is listed last, under "Other options".
    """

    def __init__(
        self, *args: Any, sections: Sequence[tuple[str, Sequence[str | None]]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.sections = sections

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        records = {}
        for parameter in self.get_params(ctx):
            record = parameter.get_help_record(ctx)
            if record is not None:
                records[parameter.name] = record
        placed: set[str | None] = set()
        for title, names in self.sections:
            rows = [records[name] for name in names if name in records]
            placed.update(names)
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)
        rest = [record for name, record in records.items() if name not in placed]
        if rest:
            with formatter.section("Other options"):
                formatter.write_dl(rest)
