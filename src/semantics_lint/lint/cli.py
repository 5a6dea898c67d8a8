"""``semantics-lint check`` and ``semantics-lint rule``: argument plumbing over the runner.

The commands only translate flags into :class:`~semantics_lint.lint.runner.RunOptions`,
print what the runner returns and choose the exit code, as ruff does:

* 0: no findings remain (or ``--exit-zero``);
* 1: findings remain (with ``--diff``: some file would change);
* 2: a usage, configuration or internal error, a file that could not be read while
  SEM001 is not selected, or a fix that could not be written (``--exit-zero`` does
  not hide these).

Findings go to stdout in the chosen format; the summary line and messages go to
stderr. With ``-`` as the only path the source is read from stdin, and with
``--fix`` the fixed source is what goes to stdout (findings then go to stderr).
"""

from __future__ import annotations

import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING

import click

from semantics_lint.lint.config import ConfigError, ConfigResolver, load_config
from semantics_lint.lint.discovery import DEFAULT_EXCLUDE, STDIN_PATH, DiscoveryError
from semantics_lint.lint.output import (
    OUTPUT_FORMATS,
    format_findings,
    format_statistics,
    summary,
)

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint.runner import RunOptions

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2


class CheckError(click.ClickException):
    """A usage, configuration or internal error: printed, exit code 2."""

    exit_code = EXIT_ERROR

    def show(self, file: object = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


def _split_codes(values: tuple[str, ...]) -> tuple[str, ...]:
    """Codes from repeated and comma-separated options (``--select SEM1,SEM203``)."""
    codes: list[str] = []
    for value in values:
        codes.extend(part.strip() for part in value.split(",") if part.strip())
    return tuple(codes)


@click.command("check")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--select", "select", multiple=True, metavar="CODES",
    help="Codes or prefixes to run (replaces the configuration's select).",
)
@click.option(
    "--extend-select", "extend_select", multiple=True, metavar="CODES",
    help="Codes or prefixes to run on top of select.",
)
@click.option(
    "--ignore", "ignore", multiple=True, metavar="CODES",
    help="Codes or prefixes not to run.",
)
@click.option(
    "--output-format", type=click.Choice(OUTPUT_FORMATS), default="text", show_default=True,
    help="How findings are printed.",
)
@click.option("--statistics", is_flag=True, help="Print a count per code instead of findings.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings remain.")
@click.option(
    "--config", "config_file", type=click.Path(dir_okay=False, path_type=Path),
    help="Use this pyproject.toml for every path instead of the closest one.",
)
@click.option("--fix", is_flag=True, help="Apply safe fixes, then report what remains.")
@click.option(
    "--unsafe-fixes", is_flag=True,
    help="With --fix or --diff, apply unsafe fixes too; otherwise count them as fixable.",
)
@click.option("--diff", is_flag=True, help="Print the diff of what --fix would change; write nothing.")
@click.option(
    "--jobs", "-j", type=click.IntRange(min=1), default=None,
    help="Worker processes (default: the number of cores; 1 lints in-process).",
)
@click.option(
    "--stdin-filename", default=None,
    help="With '-' as the path: the file name that stdin stands for.",
)
@click.option(
    "--no-respect-gitignore", "no_gitignore", is_flag=True,
    help="Lint files that .gitignore files ignore.",
)
@click.option(
    "--force-exclude", is_flag=True,
    help="Apply exclude and extend-exclude to files named explicitly too (for pre-commit).",
)
@click.option(
    "--no-cache", "no_cache", is_flag=True, envvar="SEMANTICS_LINT_NO_CACHE",
    help="Lint every file afresh; do not read or write the results cache.",
)
@click.option(
    "--cache-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
    metavar="DIR",
    help="The results cache lives in DIR/.semantics-lint-cache (default DIR: "
    "$SEMANTICS_LINT_CACHE_DIR, else the project root: the folder of the pyproject.toml "
    "in use, else the current folder).",
)
@click.option("--show-settings", is_flag=True, help="Print the resolved settings and exit.")
def check_command(
    paths: tuple[str, ...],
    select: tuple[str, ...],
    extend_select: tuple[str, ...],
    ignore: tuple[str, ...],
    output_format: str,
    statistics: bool,
    exit_zero: bool,
    config_file: Path | None,
    fix: bool,
    unsafe_fixes: bool,
    diff: bool,
    jobs: int | None,
    stdin_filename: str | None,
    no_gitignore: bool,
    force_exclude: bool,
    no_cache: bool,
    cache_dir: Path | None,
    show_settings: bool,
) -> None:
    """Lint tool modules for mistakes in their semantics declarations."""
    from semantics_lint.lint import runner
    from semantics_lint.lint.cache import default_cache_dir

    arguments = paths or (".",)
    options = runner.RunOptions(
        select=_split_codes(select) if select else None,
        extend_select=_split_codes(extend_select),
        ignore=_split_codes(ignore),
        config_file=config_file,
        jobs=jobs,
        fix=fix,
        unsafe_fixes=unsafe_fixes,
        diff=diff,
        respect_gitignore=not no_gitignore,
        force_exclude=force_exclude,
        cache_dir=None if no_cache else (cache_dir or default_cache_dir(arguments, config_file)),
    )
    from_stdin = STDIN_PATH in arguments
    if from_stdin and len(arguments) > 1:
        raise CheckError("'-' (standard input) cannot be combined with other paths")
    if show_settings:
        _show_settings(arguments[0] if not from_stdin else (stdin_filename or "."), options)
        return
    stdin_source = b""
    try:
        if from_stdin:
            stdin_source = sys.stdin.buffer.read()
            result = runner.run_stdin(stdin_source, options, stdin_filename)
        else:
            result = runner.run(arguments, options)
    except (ConfigError, DiscoveryError) as error:
        raise CheckError(str(error)) from None
    except Exception as error:  # noqa: BLE001 - a bug in the linter is exit 2, never 1
        traceback.print_exc(file=sys.stderr)
        raise CheckError(f"internal error: {type(error).__name__}: {error}") from None

    for message in result.messages:
        click.echo(message, err=True)
    if not from_stdin and result.files == 0:
        click.echo("warning: no Python files found under the given paths", err=True)

    if diff:
        for text in result.diffs:
            click.echo(text, nl=False)
        fixable = result.fixed
        if fixable:
            click.echo(
                f"Would fix {fixable} error{'s' if fixable != 1 else ''} "
                f"in {result.changed_files} file{'s' if result.changed_files != 1 else ''}.",
                err=True,
            )
        else:
            click.echo("No errors would be fixed.", err=True)
        code = EXIT_FINDINGS if result.changed_files else EXIT_CLEAN
        _exit(code, exit_zero, result.failed)
        return

    # With stdin and --fix, stdout carries the fixed source, so findings go to stderr.
    findings_to_stderr = from_stdin and fix
    if from_stdin and fix:
        source = result.fixed_stdin if result.fixed_stdin is not None else stdin_source
        sys.stdout.buffer.write(source)
        sys.stdout.flush()
    if statistics:
        text = format_statistics(result.findings, output_format, unsafe_fixes)
    else:
        text = format_findings(result.findings, output_format)
    if text:
        click.echo(text, nl=False, err=findings_to_stderr)
    if output_format == "text" or statistics:
        click.echo(summary(result.findings, unsafe=unsafe_fixes, fixed=result.fixed), nl=False, err=True)
    code = EXIT_FINDINGS if result.findings else EXIT_CLEAN
    _exit(code, exit_zero, result.failed)


def _exit(code: int, exit_zero: bool, failed: bool) -> None:
    if failed:
        sys.exit(EXIT_ERROR)
    if exit_zero:
        sys.exit(EXIT_CLEAN)
    sys.exit(code)


def _show_settings(path_text: str, options: RunOptions) -> None:
    """Print the configuration and codes that govern ``path_text``."""
    from semantics_lint.lint import runner

    try:
        runner.check_options(options)
        if options.config_file is not None:
            resolver = ConfigResolver(explicit=load_config(options.config_file.resolve()))
        else:
            resolver = ConfigResolver()
        path = Path(path_text).resolve()
        config = resolver.for_folder(path if path.is_dir() else path.parent)
    except ConfigError as error:
        raise CheckError(str(error)) from None
    codes = runner.codes_for_file(config, options, path)
    settings = runner.settings_for(config, codes)
    exclude = DEFAULT_EXCLUDE if config.exclude is None else config.exclude
    lines = [
        f"path: {path_text}",
        f"configuration: {config.path if config.path is not None else 'none (defaults)'}",
        f"select: {list(config.select) if config.select is not None else ['ALL']}",
        f"extend-select: {list(config.extend_select)}",
        f"ignore: {list(config.ignore)}",
        (
            f"command line: select={list(options.select) if options.select is not None else None} "
            f"extend-select={list(options.extend_select)} ignore={list(options.ignore)}"
        ),
        f"per-file-ignores: { {g: list(c) for g, c in config.per_file_ignores} }",
        f"exclude: {list(exclude)}",
        f"extend-exclude: {list(config.extend_exclude)}",
        f"api-modules: {list(settings.api_modules)}",
        f"call-names: {list(settings.call_names)}",
        f"enabled codes for this path: {', '.join(sorted(codes)) or '(none)'}",
    ]
    click.echo("\n".join(lines))


@click.command("rule")
@click.argument("code")
def rule_command(code: str) -> None:
    """Explain one rule: what it catches, why, an example and the fix."""
    from semantics_lint.lint import rules

    wanted = code.strip().upper()
    known = sorted(rule.code for rule in getattr(rules, "ALL_RULES", ()))
    if wanted not in known:
        raise CheckError(
            f"unknown rule code {code!r}; known codes: {', '.join(known) or '(none)'}"
        )
    from semantics_lint.lint import docs

    click.echo(docs.render_rule(wanted), nl=False)
