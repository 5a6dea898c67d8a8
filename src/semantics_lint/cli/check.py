"""``semantics-lint check``: argument plumbing over the runner.

The command translates flags into :class:`~semantics_lint.lint.run.runner.RunOptions`,
prints what the runner returns and chooses the exit code, as ruff does:

* 0: no findings remain (or ``--exit-zero``; with ``--fix-only``, whatever remains);
* 1: findings remain (with ``--diff``: some file would change; with
  ``--exit-non-zero-on-fix``: some file was changed);
* 2: a usage, configuration or internal error, a path that could not be linted, a
  file that could not be read while SEM001 is not selected, or a fix that could not
  be written (``--exit-zero`` does not hide these).

Findings go to stdout in the chosen format, followed there by the summary (``Found 3
errors.``, what ``--fix`` fixed or would fix) in the formats read by people
(``concise``, ``full``, ``grouped``, or ``--statistics`` as a table), as ruff does; a
machine format (``json``, ``sarif``...) prints its document alone. Errors, warnings
and the other messages go to stderr. Standard input is read for ``-`` or when
``--stdin-filename`` is given, and with ``--fix`` (``--diff``) the fixed source (the
diff) is what goes to stdout: the findings and the summary then go to stderr.

The flags are click parameters in :mod:`semantics_lint.cli.arguments`; what is
printed of a run over files is :mod:`semantics_lint.cli.report`, standard input and
``--add-noqa`` :mod:`semantics_lint.cli.check_inputs`. This module imports what every
run uses (the runner, the configuration, discovery); everything a given run may not
use (the pool, the output formats, fixing, TOML, the results cache) is imported
only when that run needs it.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from semantics_lint.cli.arguments import CheckFlags, build_check
from semantics_lint.cli.console import (
    DEFAULT,
    ENV_NO_CACHE,
    EXIT_CLEAN,
    EXIT_ERROR,
    QUIET,
    SILENT,
    STDIN_PATH,
    VERBOSE,
    WATCH_INTERVAL,
    CheckError,
    Console,
    write,
)
from semantics_lint.cli.report import lint_paths, report_result
from semantics_lint.lint.run import runner
from semantics_lint.lint.run.config import ConfigError, default_cache_dir
from semantics_lint.lint.run.discovery import DiscoveryError
from semantics_lint.vocabulary import env_flag

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint.run.runner import RunOptions


def main(argv: Sequence[str]) -> NoReturn:
    """Run ``semantics-lint ARGV`` (``check ...`` or ``rule ...``) in this process, and exit."""
    from semantics_lint.cli import run

    run(argv)


def check_main(flags: CheckFlags) -> int:
    """``semantics-lint check`` with its flags parsed: run, print; the exit code."""
    level = SILENT if flags.silent else QUIET if flags.quiet else VERBOSE if flags.verbose else DEFAULT
    console = Console(level)
    try:
        if flags.watch:
            return _watch(flags, console)
        return _check(flags, console)
    except CheckError as error:
        console.error(str(error))
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130


def _exit_with(flags: CheckFlags) -> None:
    click.get_current_context().exit(check_main(flags))


check_command = build_check(_exit_with)
"""The click command the group runs as ``check``."""


def _split_codes(values: Sequence[str] | None) -> tuple[str, ...]:
    """Codes from repeated and comma-separated options (``--select SEM1,SEM203``)."""
    codes: list[str] = []
    for value in values or ():
        codes.extend(part.strip() for part in value.split(",") if part.strip())
    return tuple(codes)


def _env_flag(name: str) -> bool:
    """A true/false environment value, read as every part of the project reads one; a
    value that is neither is a usage error naming the variable."""
    said = env_flag(os.environ.get(name), False)
    if said is None:
        raise click.UsageError(
            f"${name}={os.environ[name]!r} is neither true (1, true, yes, on) nor false (0, false, no, off)"
        )
    return said


def _run_options(flags: CheckFlags, paths: Sequence[str]) -> RunOptions:
    no_cache = flags.no_cache or _env_flag(ENV_NO_CACHE)
    fix = flags.fix or flags.fix_only
    config_file = Path(flags.config) if flags.config else None
    cache_dir = None
    if not no_cache:
        cache_dir = Path(flags.cache_dir) if flags.cache_dir else default_cache_dir(paths, config_file)
    return runner.RunOptions(
        select=_split_codes(flags.select) if flags.select else None,
        extend_select=_split_codes(flags.extend_select),
        ignore=_split_codes(flags.ignore),
        config_file=config_file,
        jobs=flags.jobs,
        fix=fix and not flags.diff and not flags.add_noqa,
        unsafe_fixes=flags.unsafe_fixes,
        diff=flags.diff,
        respect_gitignore=flags.respect_gitignore,
        force_exclude=flags.force_exclude,
        cache_dir=cache_dir,
    )


def _inputs(flags: CheckFlags, console: Console) -> tuple[list[str], bool]:
    """The paths to lint and whether the source comes from standard input."""
    paths = list(flags.paths) or ["."]
    if flags.stdin_filename is not None:
        ignored = [path for path in flags.paths if path != STDIN_PATH]
        if ignored:
            console.warning(f"ignoring {', '.join(ignored)}: --stdin-filename reads standard input")
        return [STDIN_PATH], True
    if STDIN_PATH in paths:
        if len(paths) > 1:
            raise CheckError("'-' (standard input) cannot be combined with other paths")
        return paths, True
    return paths, False


def _check(flags: CheckFlags, console: Console) -> int:
    started = time.perf_counter()
    paths, from_stdin = _inputs(flags, console)
    options = _run_options(flags, [] if from_stdin else paths)
    if flags.show_settings:
        return _show_settings(flags, options, paths[0] if not from_stdin else None)
    try:
        if from_stdin:
            from semantics_lint.cli.check_inputs import check_stdin

            return check_stdin(flags, options, console)
        if flags.add_noqa:
            from semantics_lint.cli.check_inputs import add_noqa_comments

            return add_noqa_comments(flags, options, console, paths)
        result, sources = lint_paths(paths, options, console)
    except (ConfigError, DiscoveryError) as error:
        raise CheckError(str(error)) from None
    except CheckError:
        raise
    except Exception as error:  # noqa: BLE001 - a bug in the linter is exit 2, never 1
        import traceback

        traceback.print_exc(file=sys.stderr)
        raise CheckError(f"internal error: {type(error).__name__}: {error}") from None
    return report_result(flags, options, console, result, sources, started)


# ---------------------------------------------------------------------------
# --watch
# ---------------------------------------------------------------------------


def _snapshot(paths: Sequence[str]) -> dict[str, tuple[int, int]]:
    """The modification time and size of every file and folder under ``paths``."""
    seen: dict[str, tuple[int, int]] = {}
    stack = [os.path.abspath(path) for path in paths]
    while stack:
        current = stack.pop()
        try:
            status = os.stat(current)
        except OSError:
            continue
        seen[current] = (status.st_mtime_ns, status.st_size)
        if os.path.isdir(current) and not os.path.islink(current):
            try:
                with os.scandir(current) as scan:
                    for entry in scan:
                        if entry.name in (".git", "__pycache__", ".semantics-lint-cache"):
                            continue
                        if entry.is_dir(follow_symlinks=False) or entry.name.endswith(
                            (".py", ".pyi", ".toml", ".gitignore")
                        ):
                            stack.append(entry.path)
            except OSError:
                continue
    return seen


def _watch(flags: CheckFlags, console: Console) -> int:
    """Lint, then lint again whenever a file under the paths changes, until interrupted."""
    if flags.fix or flags.diff or flags.add_noqa or flags.fix_only:
        raise CheckError("--watch reports findings only: it cannot be combined with fixes")
    paths, from_stdin = _inputs(flags, console)
    if from_stdin:
        raise CheckError("--watch needs paths: it cannot watch standard input")
    while True:
        stamp = time.strftime("%H:%M:%S")
        console.info(f"[{stamp}] Linting...\n")
        # Taken before the lint: a file changed while it ran (or half written when it
        # read it) is linted again at the next look.
        before = _snapshot(paths)
        try:
            _check(flags, console)
        except CheckError as error:
            console.error(str(error))
        console.info("Watching for file changes (Ctrl-C to stop).\n")
        while True:
            time.sleep(WATCH_INTERVAL)
            if _snapshot(paths) != before:
                break


# ---------------------------------------------------------------------------
# --show-settings
# ---------------------------------------------------------------------------


def _show_settings(flags: CheckFlags, options: RunOptions, path_text: str | None) -> int:
    """Print the configuration and codes that govern ``path_text`` (stdin: its name)."""
    from semantics_lint.lint.run.config import resolver_for
    from semantics_lint.lint.run.discovery import DEFAULT_EXCLUDE

    shown = path_text if path_text is not None else (flags.stdin_filename or ".")
    try:
        runner.check_options(options)
        resolver = resolver_for(options.config_file)
        path = Path(os.path.abspath(shown))
        config = resolver.for_folder(path if path.is_dir() else path.parent)
    except ConfigError as error:
        raise CheckError(str(error)) from None
    codes = runner.codes_for_file(config, options, path)
    settings = runner.settings_for(config, codes)
    exclude = DEFAULT_EXCLUDE if config.exclude is None else config.exclude
    lines = [
        f"path: {shown}",
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
    # A pyproject.toml the search passed over because it could not be read.
    lines.extend(f"not read: {where} ({why})" for where, why in resolver.unread.items())
    write(sys.stdout, "\n".join(lines) + "\n")
    return EXIT_CLEAN
