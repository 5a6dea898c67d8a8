"""The flags of ``semantics-lint check`` and ``semantics-lint rule``.

Parsed with ``argparse``: a pre-commit hook or an editor pays the start-up of every
run, and click costs more to import than linting a file without calls (click parses
the group's other commands, ``server`` and ``check-semantics``, in
:mod:`semantics_lint.cli`).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from semantics_lint.cli.console import ENV_NO_CACHE, ENV_OUTPUT_FORMAT

if TYPE_CHECKING:  # pragma: no cover - typing only
    import argparse


def _help_width() -> int:
    """The terminal's width for help text, as ``shutil.get_terminal_size`` finds it.

    Given to argparse's formatter, which otherwise imports ``shutil`` (and with it
    ``bz2`` and ``lzma``) on every run to validate the flags, help or not.
    """
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 80
    return max(columns - 2, 40)


def _formatter(prog: str) -> argparse.HelpFormatter:
    import argparse

    return argparse.RawDescriptionHelpFormatter(prog, width=_help_width())


def check_parser() -> argparse.ArgumentParser:
    """The parser of ``semantics-lint check`` (ruff's flag names and meanings)."""
    import argparse

    from semantics_lint.lint.output import OUTPUT_FORMATS

    parser = argparse.ArgumentParser(
        prog="semantics-lint check",
        description=(
            "Lint tool modules for mistakes in their described_result / absent / coverage\n"
            "declarations. PATHS are files and folders (default: the current folder);\n"
            "'-' reads standard input. Exit 0: no findings; 1: findings remain; 2: usage,\n"
            "configuration or internal error, or a path that could not be linted."
        ),
        formatter_class=_formatter,
        allow_abbrev=False,
    )
    parser.add_argument("paths", nargs="*", metavar="PATHS", help="files or folders to lint")
    _fix_options(parser)
    _selection_options(parser)
    report = parser.add_argument_group("output")
    report.add_argument(
        "--output-format", choices=OUTPUT_FORMATS, metavar="FORMAT",
        default=os.environ.get(ENV_OUTPUT_FORMAT) or "concise",
        help=f"how findings are printed: {', '.join(OUTPUT_FORMATS)} (default: concise; "
        f"${ENV_OUTPUT_FORMAT})",
    )
    report.add_argument("--statistics", action="store_true", help="print a count per code instead of the findings")
    report.add_argument(
        "--show-settings", action="store_true", help="print the resolved settings for the first path and exit"
    )
    report.add_argument(
        "-w", "--watch", action="store_true", help="lint again whenever a file changes (Ctrl-C ends)"
    )
    misc = parser.add_argument_group("miscellaneous")
    misc.add_argument(
        "--config", metavar="FILE",
        help="read [tool.semantics-lint] from FILE for every path instead of the closest pyproject.toml",
    )
    misc.add_argument(
        "-j", "--jobs", type=_positive, metavar="N",
        help="worker processes (default: the number of cores; 1 lints in-process)",
    )
    misc.add_argument(
        "-n", "--no-cache", action="store_true",
        help=f"lint every file afresh; neither read nor write the results cache (${ENV_NO_CACHE})",
    )
    misc.add_argument(
        "--cache-dir", metavar="DIR",
        help="the results cache lives in DIR/.semantics-lint-cache (default DIR: "
        "$SEMANTICS_LINT_CACHE_DIR, else the project root: the folder of the pyproject.toml "
        "in use, else the current folder)",
    )
    misc.add_argument(
        "-e", "--exit-zero", action="store_true",
        help="exit 0 even when findings remain (errors still exit 2)",
    )
    loudness = parser.add_argument_group("log levels").add_mutually_exclusive_group()
    loudness.add_argument("-v", "--verbose", action="store_true", help="also say what the run did")
    loudness.add_argument("-q", "--quiet", action="store_true", help="print the findings, and nothing else")
    loudness.add_argument(
        "-s", "--silent", action="store_true",
        help="print nothing; the exit code still says whether findings remain",
    )
    return parser


def _fix_options(parser: argparse.ArgumentParser) -> None:
    """The ``fixes`` group: the flags that change files, or show how they would change."""
    fixing = parser.add_argument_group("fixes")
    fixing.add_argument("--fix", action="store_true", help="apply safe fixes, then report what remains")
    fixing.add_argument(
        "--unsafe-fixes", action="store_true",
        help="with --fix, --fix-only or --diff, apply unsafe fixes too; otherwise count them as fixable",
    )
    fixing.add_argument(
        "--fix-only", action="store_true",
        help="apply fixes and report only what was fixed; leftover findings do not fail the run (implies --fix)",
    )
    fixing.add_argument("--show-fixes", action="store_true", help="list the fixes made, per file and code")
    fixing.add_argument(
        "--diff", action="store_true",
        help="print the diff of what --fix would change and write nothing; exit 1 when something would change",
    )
    fixing.add_argument(
        "--exit-non-zero-on-fix", action="store_true",
        help="exit 1 when a file was changed by --fix, even if no finding remains",
    )
    fixing.add_argument(
        "--add-noqa", action="store_true",
        help="add the '# noqa: CODE' comments that suppress every finding now reported, then exit",
    )


def _selection_options(parser: argparse.ArgumentParser) -> None:
    """The ``rule selection`` and ``file selection`` groups: what is linted."""
    selection = parser.add_argument_group("rule selection")
    selection.add_argument(
        "--select", action="append", metavar="CODES",
        help="codes or prefixes to run (comma-separated; replaces the configuration's select)",
    )
    selection.add_argument(
        "--extend-select", action="append", default=[], metavar="CODES",
        help="codes or prefixes to run on top of select",
    )
    selection.add_argument(
        "--ignore", action="append", default=[], metavar="CODES", help="codes or prefixes not to run",
    )
    files = parser.add_argument_group("file selection")
    files.add_argument(
        "--no-respect-gitignore", dest="respect_gitignore", action="store_false",
        help="also lint files that .gitignore files ignore",
    )
    files.add_argument(
        "--force-exclude", action="store_true",
        help="apply exclude and extend-exclude to files named explicitly too (for pre-commit)",
    )
    files.add_argument(
        "--stdin-filename", metavar="PATH",
        help="read the source from standard input, and name it PATH (for messages, "
        "configuration and per-file-ignores)",
    )


def _positive(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return value


def rule_parser() -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(
        prog="semantics-lint rule",
        description="Explain a rule: what it catches, why, an example and the fix.",
        formatter_class=_formatter,
        allow_abbrev=False,
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("code", nargs="?", metavar="CODE", help="a rule code, e.g. SEM203")
    which.add_argument("--all", action="store_true", help="every rule")
    parser.add_argument(
        "--output-format", choices=("text", "json"), default="text", help="text (default) or json"
    )
    return parser
