"""The flags of ``semantics-lint check`` and ``semantics-lint rule``, as click parameters.

``check``'s help lists its options in sections (fixes, rule selection, file
selection, output, miscellaneous, log levels), as ruff's help does; the style
every command shares is :mod:`semantics_lint.cli.style`. Nothing here lints: the commands' callbacks are in
:mod:`semantics_lint.cli.check` and :mod:`semantics_lint.cli.rule`.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import click

from semantics_lint.cli.console import ENV_NO_CACHE, ENV_OUTPUT_FORMAT
from semantics_lint.cli.style import SectionedCommand, command
from semantics_lint.lint.output import OUTPUT_FORMATS

CHECK_HELP = """\
Lint tool modules for mistakes in their described_result / absent / coverage
declarations.

PATHS are files and folders (default: the current folder); '-' reads standard
input.

\b
Exit codes:
  0  no findings remain
  1  findings remain
  2  usage, configuration or internal error, or a path that could not be linted
"""


class CheckFlags(SimpleNamespace):
    """The flags of one ``semantics-lint check`` run, by the names its options give them.

    These annotations are the one list of the flags: each option below is made from
    its field (:func:`_option`: its name ``--field-name``, and its kind from the type),
    and :func:`build_check` refuses a field without an option.
    """

    paths: tuple[str, ...]
    fix: bool
    unsafe_fixes: bool
    fix_only: bool
    show_fixes: bool
    diff: bool
    exit_non_zero_on_fix: bool
    add_noqa: bool
    select: tuple[str, ...]
    extend_select: tuple[str, ...]
    ignore: tuple[str, ...]
    respect_gitignore: bool
    force_exclude: bool
    stdin_filename: str | None
    output_format: str
    statistics: bool
    show_settings: bool
    watch: bool
    config: str | None
    jobs: int | None
    no_cache: bool
    cache_dir: str | None
    exit_zero: bool
    verbose: bool
    quiet: bool
    silent: bool


_KINDS: dict[str, dict[str, Any]] = {
    "bool": {"is_flag": True},
    "tuple[str, ...]": {"multiple": True, "metavar": "CODES"},
    "str | None": {},
    "int | None": {"type": int},
    "str": {},  # its click type is given where it is declared
}
"""How a field's type (as annotated) is read from the command line."""


def _option(field: str, *aliases: str, help: str, negatable: bool = False, **settings: Any) -> click.Option:
    """The option of :class:`CheckFlags`' ``field``: ``--field-name`` (with ``aliases``,
    and ``--no-field-name`` when ``negatable``), of the kind its annotation says."""
    long = "--" + field.replace("_", "-")
    if negatable:
        long = f"{long}/--no-{long[2:]}"
    kind = _KINDS[CheckFlags.__annotations__[field]]
    return click.Option([*aliases, long, field], help=help, **{**kind, **settings})


def _positive(_context: click.Context, _parameter: click.Parameter, value: int | None) -> int | None:
    if value is not None and value < 1:
        raise click.BadParameter(f"{value} is not a positive number")
    return value


def _fixes() -> list[click.Parameter]:
    """The flags that change files, or show how they would change."""
    return [
        _option("fix", help="Apply safe fixes, then report what remains."),
        _option(
            "unsafe_fixes",
            help="With --fix, --fix-only or --diff, apply unsafe fixes too; otherwise count them as fixable.",
        ),
        _option(
            "fix_only",
            help="Apply fixes and report only what was fixed; leftover findings do not fail the run "
            "(implies --fix).",
        ),
        _option(
            "show_fixes",
            help="With --fix, list each file that was fixed and how many fixes it got.",
        ),
        _option(
            "diff",
            help="Print the diff of what --fix would change and write nothing; exit 1 when something "
            "would change.",
        ),
        _option(
            "exit_non_zero_on_fix",
            help="Exit 1 when a file was changed by --fix, even if no finding remains.",
        ),
        _option(
            "add_noqa",
            help="Add the '# noqa: CODE' comments that suppress every finding now reported, then exit.",
        ),
    ]


def _rule_selection() -> list[click.Parameter]:
    return [
        _option(
            "select",
            help="Codes or prefixes to run (comma-separated or repeated; replaces the configuration's "
            "select).",
        ),
        _option("extend_select", help="Codes or prefixes to run on top of select."),
        _option("ignore", help="Codes or prefixes not to run."),
    ]


def _file_selection() -> list[click.Parameter]:
    return [
        _option(
            "respect_gitignore",
            negatable=True,
            default=True,
            help="Skip (default) or also lint the files that .gitignore files ignore.",
        ),
        _option(
            "force_exclude",
            help="Apply exclude and extend-exclude to files named explicitly too (for pre-commit).",
        ),
        _option(
            "stdin_filename",
            metavar="PATH",
            help="Read the source from standard input, and name it PATH (for messages, configuration "
            "and per-file-ignores).",
        ),
    ]


def _output() -> list[click.Parameter]:
    return [
        _option(
            "output_format",
            type=click.Choice(OUTPUT_FORMATS),
            metavar="FORMAT",
            default="concise",
            envvar=ENV_OUTPUT_FORMAT,
            show_envvar=True,
            help=f"How findings are printed: {', '.join(OUTPUT_FORMATS)} (default: concise).",
        ),
        _option("statistics", help="Print a count per code instead of the findings."),
        _option("show_settings", help="Print the resolved settings for the first path and exit."),
        _option("watch", "-w", help="Lint again whenever a file changes (Ctrl-C ends)."),
    ]


def _miscellaneous() -> list[click.Parameter]:
    return [
        _option(
            "config",
            metavar="FILE",
            help="Read [tool.semantics-lint] from FILE for every path instead of the closest pyproject.toml.",
        ),
        _option(
            "jobs",
            "-j",
            callback=_positive,
            metavar="N",
            help="Worker processes (default: the number of cores; 1 lints in-process).",
        ),
        _option(
            "no_cache",
            "-n",
            help=f"Lint every file afresh; neither read nor write the results cache (${ENV_NO_CACHE}).",
        ),
        _option(
            "cache_dir",
            metavar="DIR",
            help="The results cache lives in DIR/.semantics-lint-cache (default DIR: "
            "$SEMANTICS_LINT_CACHE_DIR, else the project root: the folder of the pyproject.toml in "
            "use, else the current folder).",
        ),
        _option("exit_zero", "-e", help="Exit 0 even when findings remain (errors still exit 2)."),
    ]


LOG_LEVELS = ("verbose", "quiet", "silent")


def _log_levels() -> list[click.Parameter]:
    return [
        _option("verbose", "-v", help="Also say what the run did."),
        _option("quiet", "-q", help="Print the findings, and nothing else."),
        _option("silent", "-s", help="Print nothing; the exit code still says whether findings remain."),
    ]


_CHECK_SECTIONS = (
    ("Fixes", _fixes),
    ("Rule selection", _rule_selection),
    ("File selection", _file_selection),
    ("Output", _output),
    ("Miscellaneous", _miscellaneous),
    ("Log levels (one at most)", _log_levels),
)


def build_check(callback: Callable[[CheckFlags], None]) -> click.Command:
    """``semantics-lint check``: the flags parsed into :class:`CheckFlags` for ``callback``."""

    def parsed(**values: Any) -> None:
        loud = [name for name in LOG_LEVELS if values[name]]
        if len(loud) > 1:
            shown = " and ".join(f"--{name}" for name in loud)
            raise click.UsageError(f"{shown} cannot be used together: choose one log level")
        callback(CheckFlags(**values))

    parameters: list[click.Parameter] = [click.Argument(["paths"], nargs=-1, metavar="[PATHS]...")]
    sections = []
    for title, make in _CHECK_SECTIONS:
        made = make()
        parameters.extend(made)
        sections.append((title, [parameter.name for parameter in made]))
    missing = set(CheckFlags.__annotations__) - {parameter.name for parameter in parameters}
    if missing:
        raise TypeError(f"CheckFlags fields without an option: {', '.join(sorted(missing))}")
    return SectionedCommand("check", callback=parsed, params=parameters, help=CHECK_HELP, sections=sections)


def build_rule(callback: Callable[[str | None, bool, str], None]) -> click.Command:
    """``semantics-lint rule CODE`` / ``rule --all``: ``callback(code, every, output_format)``."""

    def parsed(code: str | None, every: bool, output_format: str) -> None:
        if code is None and not every:
            raise click.UsageError("give a rule CODE (e.g. SEM203) or --all")
        if code is not None and every:
            raise click.UsageError("give a rule CODE or --all, not both")
        callback(code, every, output_format)

    return command(
        "rule",
        callback=parsed,
        params=[
            click.Argument(["code"], required=False, metavar="[CODE]"),
            click.Option(["--all", "every"], is_flag=True, help="Every rule."),
            click.Option(
                ["--output-format"],
                type=click.Choice(("text", "json")),
                default="text",
                show_default=True,
                help="The rule's page as text, or its fields as JSON.",
            ),
        ],
        help="Explain a rule: what it catches, why, an example and the fix.\n\n"
        "CODE is a rule code (e.g. SEM203, in any case); --all explains every rule.",
    )
