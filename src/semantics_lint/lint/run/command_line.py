"""``semantics-lint check`` and ``semantics-lint rule``: argument plumbing over the runner.

The commands translate flags into :class:`~semantics_lint.lint.run.runner.RunOptions`,
print what the runner returns and choose the exit code, as ruff does:

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

The flags are parsed with ``argparse``, not click: a pre-commit hook or an editor
pays the start-up of every run, and click costs more to import than linting a
file without calls. Everything a given run does not use (the runner's pool, the
output formats, fixing, TOML) is imported only when that run needs it.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

if TYPE_CHECKING:  # pragma: no cover - typing only
    import argparse

    from semantics_lint.lint.run.discovery import SourceFile
    from semantics_lint.lint.run.runner import RunOptions, RunResult

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2

STDIN_PATH = "-"
ENV_NO_CACHE = "SEMANTICS_LINT_NO_CACHE"
ENV_OUTPUT_FORMAT = "SEMANTICS_LINT_OUTPUT_FORMAT"
WATCH_INTERVAL = 0.5
"""Seconds between two looks at the files in ``--watch``."""

# Verbosity, ruff's log levels.
SILENT, QUIET, DEFAULT, VERBOSE = 0, 1, 2, 3


class CheckError(Exception):
    """A usage, configuration or internal error: printed as ``error: ...``, exit code 2."""


# ---------------------------------------------------------------------------
# Printing
# ---------------------------------------------------------------------------


def write(stream: TextIO, text: str) -> None:
    """Write ``text``; characters the stream cannot encode become backslash escapes.

    A message or a name can hold characters a terminal's encoding lacks (a file
    name that is not UTF-8 arrives with surrogate escapes): that is never a crash.
    """
    if not text:
        return
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "utf-8"
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding, "replace"))
    if stream is sys.stderr:
        # Messages reach the reader in order with the findings, whatever buffers the
        # stream (a test harness's, a redirected file's).
        stream.flush()


class Console:
    """Where a run's text goes, filtered by verbosity (``-q``, ``-s``, ``-v``)."""

    def __init__(self, level: int) -> None:
        self.level = level

    def out(self, text: str, *, to_stderr: bool = False) -> None:
        """Findings and other results: hidden only by ``--silent``."""
        if self.level > SILENT:
            write(sys.stderr if to_stderr else sys.stdout, text)

    def error(self, text: str) -> None:
        if self.level > SILENT:
            write(sys.stderr, f"error: {text}\n")

    def warning(self, text: str) -> None:
        if self.level > QUIET:
            write(sys.stderr, f"warning: {text}\n")

    def info(self, text: str, *, to_stderr: bool = False) -> None:
        """The summary and what fixes did: hidden by ``--quiet``. On stdout, after the
        findings, unless stdout carries something else (the fixed source of stdin)."""
        if self.level > QUIET:
            write(sys.stderr if to_stderr else sys.stdout, text)

    def debug(self, text: str) -> None:
        if self.level >= VERBOSE:
            write(sys.stderr, f"debug: {text}\n")


class ProgressLine:
    """``Linting: done/total files`` on stderr while a long run goes on.

    Shown only on a terminal (never in a pipe, a file or CI, where a line that
    rewrites itself is noise), only once the run has taken about a second, and at most
    ten times a second; erased before the findings are printed.
    """

    DELAY = 1.0
    INTERVAL = 0.1

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.done = 0
        self.started = time.monotonic()
        self.last = 0.0
        self.shown = False

    @staticmethod
    def wanted(console: Console, stream: TextIO) -> bool:
        if console.level < DEFAULT or os.environ.get("CI") or os.environ.get("TERM") == "dumb":
            return False
        isatty = getattr(stream, "isatty", None)
        try:
            return bool(isatty is not None and isatty())
        except ValueError:
            return False

    def __call__(self, count: int) -> None:
        self.done += count
        now = time.monotonic()
        if now - self.started < self.DELAY or now - self.last < self.INTERVAL:
            return
        self.last = now
        self.shown = True
        write(self.stream, f"\rLinting: {min(self.done, self.total)}/{self.total} files")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            write(self.stream, "\r\x1b[K")
            self.stream.flush()


# ---------------------------------------------------------------------------
# Parsers
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------


def main(argv: Sequence[str]) -> NoReturn:
    """Run ``check`` or ``rule`` (``argv[0]``) with the arguments after it, and exit."""
    command, arguments = argv[0], list(argv[1:])
    if command == "rule":
        sys.exit(rule_main(arguments))
    sys.exit(check_main(arguments))


def check_main(arguments: Sequence[str]) -> int:
    """``semantics-lint check``: parse the flags, run, print; the exit code."""
    namespace = check_parser().parse_args(list(arguments))
    level = (
        SILENT if namespace.silent else QUIET if namespace.quiet
        else VERBOSE if namespace.verbose else DEFAULT
    )
    console = Console(level)
    try:
        if namespace.watch:
            return _watch(namespace, console)
        return _check(namespace, console)
    except CheckError as error:
        console.error(str(error))
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130


def _split_codes(values: Sequence[str] | None) -> tuple[str, ...]:
    """Codes from repeated and comma-separated options (``--select SEM1,SEM203``)."""
    codes: list[str] = []
    for value in values or ():
        codes.extend(part.strip() for part in value.split(",") if part.strip())
    return tuple(codes)


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _run_options(namespace: argparse.Namespace, paths: Sequence[str]) -> RunOptions:
    from pathlib import Path

    from semantics_lint.lint.run import runner

    no_cache = namespace.no_cache or _env_flag(ENV_NO_CACHE)
    fix = namespace.fix or namespace.fix_only
    config_file = Path(namespace.config) if namespace.config else None
    cache_dir = None
    if not no_cache:
        from semantics_lint.lint.run.cache import default_cache_dir

        cache_dir = (
            Path(namespace.cache_dir) if namespace.cache_dir
            else default_cache_dir(paths, config_file)
        )
    return runner.RunOptions(
        select=_split_codes(namespace.select) if namespace.select else None,
        extend_select=_split_codes(namespace.extend_select),
        ignore=_split_codes(namespace.ignore),
        config_file=config_file,
        jobs=namespace.jobs,
        fix=fix and not namespace.diff and not namespace.add_noqa,
        unsafe_fixes=namespace.unsafe_fixes,
        diff=namespace.diff,
        respect_gitignore=namespace.respect_gitignore,
        force_exclude=namespace.force_exclude,
        cache_dir=cache_dir,
    )


def _inputs(namespace: argparse.Namespace, console: Console) -> tuple[list[str], bool]:
    """The paths to lint and whether the source comes from standard input."""
    paths = list(namespace.paths) or ["."]
    if namespace.stdin_filename is not None:
        ignored = [path for path in namespace.paths if path != STDIN_PATH]
        if ignored:
            console.warning(
                f"ignoring {', '.join(ignored)}: --stdin-filename reads standard input"
            )
        return [STDIN_PATH], True
    if STDIN_PATH in paths:
        if len(paths) > 1:
            raise CheckError("'-' (standard input) cannot be combined with other paths")
        return paths, True
    return paths, False


def _check(namespace: argparse.Namespace, console: Console) -> int:
    from semantics_lint.lint.run.config import ConfigError
    from semantics_lint.lint.run.discovery import DiscoveryError

    started = time.perf_counter()
    paths, from_stdin = _inputs(namespace, console)
    options = _run_options(namespace, [] if from_stdin else paths)
    if namespace.show_settings:
        return _show_settings(namespace, options, paths[0] if not from_stdin else None)
    try:
        if from_stdin:
            return _check_stdin(namespace, options, console)
        if namespace.add_noqa:
            return _add_noqa(namespace, options, console, paths)
        result, sources = _lint(paths, options, console)
    except (ConfigError, DiscoveryError) as error:
        raise CheckError(str(error)) from None
    except CheckError:
        raise
    except Exception as error:  # noqa: BLE001 - a bug in the linter is exit 2, never 1
        import traceback

        traceback.print_exc(file=sys.stderr)
        raise CheckError(f"internal error: {type(error).__name__}: {error}") from None
    return _report(namespace, options, console, result, sources, started)


def _lint(
    paths: Sequence[str], options: RunOptions, console: Console | None = None
) -> tuple[RunResult, list[SourceFile]]:
    """Discover the files under ``paths`` and lint them (:func:`runner.run` with the
    files kept); the paths the walk could not take are messages of the result.

    With a ``console`` that allows it, a progress line runs on stderr (see
    :class:`ProgressLine`).
    """
    from semantics_lint.lint.run import runner

    found = runner.discover_paths(paths, options)
    sources = found[1]
    progress = None
    if console is not None and sources and ProgressLine.wanted(console, sys.stderr):
        progress = ProgressLine(len(sources), sys.stderr)
    try:
        result = runner.run_discovered(found, paths, options, progress)
    finally:
        if progress is not None:
            progress.close()
    return result, sources


def _source_reader(sources: Sequence[SourceFile], stdin: bytes | None = None) -> Any:
    """The text of a file by its display name, for ``--output-format full``."""
    paths = {source.display: source.path for source in sources}

    def read(display: str) -> str | None:
        from semantics_lint.reading import MAX_SOURCE_BYTES, read_regular
        from semantics_lint.lint.core.source import text_of

        if stdin is not None:
            return text_of(stdin)
        path = paths.get(display)
        if path is None:
            return None
        try:
            # Read as the run read it: a file the run could not read shows no source.
            return text_of(read_regular(path, MAX_SOURCE_BYTES))
        except OSError:
            return None

    return read


def _print_findings(
    namespace: argparse.Namespace,
    console: Console,
    findings: Sequence[Any],
    read_source: Any,
    *,
    to_stderr: bool = False,
    sources: Sequence[SourceFile] = (),
) -> None:
    from semantics_lint.lint.output import format_findings, format_statistics, use_color

    unsafe = namespace.unsafe_fixes
    if namespace.statistics:
        text = format_statistics(findings, namespace.output_format, unsafe)
    else:
        stream = sys.stderr if to_stderr else sys.stdout
        text = format_findings(
            findings,
            namespace.output_format,
            unsafe=unsafe,
            color=use_color(stream),
            read_source=read_source,
            raw_names={source.display: source.raw for source in sources if source.raw},
        )
    console.out(text, to_stderr=to_stderr)


def _wants_summary(namespace: argparse.Namespace) -> bool:
    from semantics_lint.lint.output import wants_summary

    return wants_summary(namespace.output_format, namespace.statistics)


def _report(
    namespace: argparse.Namespace,
    options: RunOptions,
    console: Console,
    result: RunResult,
    sources: Sequence[SourceFile],
    started: float,
) -> int:
    for message in result.messages:
        # The runner's messages already say "error: ..." (a fix it could not write).
        console.out(message + "\n", to_stderr=True)
    if result.files == 0 and not result.messages:
        console.warning("no Python files found under the given paths")
    console.debug(
        f"{result.files} files found, {result.linted} linted "
        f"({result.cached} from the results cache), "
        f"{'a pool of workers' if result.used_pool else 'in-process'}, "
        f"{time.perf_counter() - started:.2f} s"
    )
    from semantics_lint.lint.output import overview

    broken = result.failed
    summarize = _wants_summary(namespace)
    if options.diff:
        for text in result.diffs:
            console.out(text)
        if summarize:
            console.info(overview.would_fix_summary(result.fixed, result.changed_files))
        return _exit_code(
            EXIT_FINDINGS if result.changed_files else EXIT_CLEAN, namespace, broken
        )
    if namespace.show_fixes and options.fix and summarize:
        console.info(_fixes_text(result))
    if namespace.fix_only:
        if summarize and not namespace.show_fixes:
            console.info(overview.fixed_summary(result.fixed))
        code = EXIT_FINDINGS if namespace.exit_non_zero_on_fix and result.changed_files else EXIT_CLEAN
        return _exit_code(code, namespace, broken)
    _print_findings(namespace, console, result.findings, _source_reader(sources), sources=sources)
    if summarize:
        from semantics_lint.lint.output import summary

        console.info(summary(result.findings, unsafe=namespace.unsafe_fixes, fixed=result.fixed))
    code = EXIT_FINDINGS if result.findings else EXIT_CLEAN
    if namespace.exit_non_zero_on_fix and result.changed_files:
        code = EXIT_FINDINGS
    return _exit_code(code, namespace, broken)


def _fixes_text(result: RunResult) -> str:
    """``--show-fixes``: the fixes made, per file."""
    from semantics_lint.lint.output.overview import format_fixes

    return format_fixes(result.fixed_files)



def _exit_code(code: int, namespace: argparse.Namespace, broken: bool) -> int:
    """2 for an error whatever else; ``--exit-zero`` turns every other code into 0."""
    if broken:
        return EXIT_ERROR
    return EXIT_CLEAN if namespace.exit_zero else code


def _read_stdin() -> tuple[bytes, bool, int | None]:
    """Standard input as ``(bytes, complete, size)``: never more than the source limit
    is read (``complete`` false: there was more), and ``size`` is its whole size when
    it is a regular file (``< file.py``: one larger than the limit is not read at all).
    """
    import stat

    from semantics_lint.reading import MAX_SOURCE_BYTES

    stream = sys.stdin.buffer
    try:
        status = os.fstat(stream.fileno())
        size = status.st_size if stat.S_ISREG(status.st_mode) else None
    except (OSError, ValueError):  # io.UnsupportedOperation is a ValueError and an OSError
        size = None
    if size is not None and size > MAX_SOURCE_BYTES:
        return b"", False, size
    data = stream.read(MAX_SOURCE_BYTES + 1)
    return data, len(data) <= MAX_SOURCE_BYTES, size


def _check_stdin(namespace: argparse.Namespace, options: RunOptions, console: Console) -> int:
    from semantics_lint.lint.run import runner

    if namespace.add_noqa:
        raise CheckError("--add-noqa needs files: it cannot rewrite standard input")
    source, complete, size = _read_stdin()
    result = runner.run_stdin(
        source, options, namespace.stdin_filename, complete=complete, size=size
    )
    for message in result.messages:
        console.out(message + "\n", to_stderr=True)
    from semantics_lint.lint.output import overview

    # stdout carries the diff or the fixed source: what is said about them goes to stderr.
    summarize = _wants_summary(namespace)
    if options.diff:
        for text in result.diffs:
            console.out(text)
        if summarize:
            console.info(overview.would_fix_summary(result.fixed, result.changed_files), to_stderr=True)
        return _exit_code(
            EXIT_FINDINGS if result.changed_files else EXIT_CLEAN, namespace, result.failed
        )
    if options.fix:
        # stdout carries the fixed source (the original when nothing changed).
        fixed = result.fixed_stdin if result.fixed_stdin is not None else source
        sys.stdout.flush()
        sys.stdout.buffer.write(fixed)
        if not complete:
            # Input over the limit was not linted; what was not read goes through
            # unchanged, a chunk at a time.
            import shutil

            shutil.copyfileobj(sys.stdin.buffer, sys.stdout.buffer, 1 << 20)
        sys.stdout.flush()
    if namespace.fix_only:
        if summarize:
            console.info(overview.fixed_summary(result.fixed), to_stderr=True)
    else:
        _print_findings(
            namespace, console, result.findings,
            _source_reader((), stdin=result.fixed_stdin or source), to_stderr=options.fix,
        )
        if summarize:
            from semantics_lint.lint.output import summary

            console.info(
                summary(result.findings, unsafe=namespace.unsafe_fixes, fixed=result.fixed),
                to_stderr=options.fix,
            )
    code = EXIT_FINDINGS if result.findings and not namespace.fix_only else EXIT_CLEAN
    if namespace.exit_non_zero_on_fix and result.fixed_stdin is not None and result.fixed_stdin != source:
        code = EXIT_FINDINGS
    return _exit_code(code, namespace, result.failed)


# ---------------------------------------------------------------------------
# --add-noqa
# ---------------------------------------------------------------------------


def _add_noqa(
    namespace: argparse.Namespace, options: RunOptions, console: Console, paths: Sequence[str]
) -> int:
    """Add the ``# noqa`` comments the remaining findings need; the next run is clean."""
    from semantics_lint.lint.run import write as writing
    from semantics_lint.lint.output.overview import plural
    from semantics_lint.reading import MAX_SOURCE_BYTES, read_regular
    from semantics_lint.lint.run.suppress import add_noqa

    lint_options = options._replace(fix=False, diff=False, cache_dir=None)
    result, sources = _lint(paths, lint_options)
    for message in result.messages:
        console.out(message + "\n", to_stderr=True)
    by_file: dict[str, list[Any]] = {}
    for finding in result.findings:
        by_file.setdefault(finding.filename, []).append(finding)
    paths_by_display = {source.display: source.path for source in sources}
    scope = writing.FixScope.of(paths)  # written as --fix writes: within the paths given
    added = 0
    failed = False
    for display, findings in sorted(by_file.items()):
        path = paths_by_display.get(display)
        if path is None:
            continue
        try:
            data = read_regular(path, MAX_SOURCE_BYTES)
        except OSError as error:
            console.error(f"{display}: cannot read the file ({error.strerror or error}); no comment added")
            failed = True
            continue
        encoded = _with_noqa(data, findings, add_noqa)
        if encoded is None:
            console.warning(f"{display}: cannot place comments in a file that does not tokenize")
            continue
        new_data, count = encoded
        if not count or new_data == data:
            continue
        try:
            writing.write_atomic(path, new_data, expected=data, trees=scope.trees_for(path))
        except writing.NotWritten as refusal:
            (console.error if refusal.error else console.warning)(f"{display}: no comment added: {refusal}")
            failed = failed or bool(refusal.error)
            continue
        except OSError as error:
            console.error(f"{display}: could not write the file ({error.strerror or error}); it was left unchanged")
            failed = True
            continue
        added += count
    console.info(f"Added {plural(added, 'noqa directive')}.\n", to_stderr=True)
    return EXIT_ERROR if failed or result.failed else EXIT_CLEAN


def _with_noqa(data: bytes, findings: Sequence[Any], add_noqa: Any) -> tuple[bytes, int] | None:
    """``data`` with the comments added, in the file's own encoding, BOM and line endings."""
    from semantics_lint.lint.core.source import Decoded, decode

    decoded = decode(data)
    if not isinstance(decoded, Decoded):
        return None
    changed = add_noqa(decoded.text, findings)
    if changed is None:
        return None
    try:
        return decoded.encode(changed[0]), changed[1]
    except UnicodeEncodeError:
        return None


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


def _watch(namespace: argparse.Namespace, console: Console) -> int:
    """Lint, then lint again whenever a file under the paths changes, until interrupted."""
    if namespace.fix or namespace.diff or namespace.add_noqa or namespace.fix_only:
        raise CheckError("--watch reports findings only: it cannot be combined with fixes")
    paths, from_stdin = _inputs(namespace, console)
    if from_stdin:
        raise CheckError("--watch needs paths: it cannot watch standard input")
    while True:
        stamp = time.strftime("%H:%M:%S")
        console.info(f"[{stamp}] Linting...\n")
        try:
            _check(namespace, console)
        except CheckError as error:
            console.error(str(error))
        before = _snapshot(paths)
        console.info("Watching for file changes (Ctrl-C to stop).\n")
        while True:
            time.sleep(WATCH_INTERVAL)
            if _snapshot(paths) != before:
                break


# ---------------------------------------------------------------------------
# --show-settings
# ---------------------------------------------------------------------------


def _show_settings(namespace: argparse.Namespace, options: RunOptions, path_text: str | None) -> int:
    """Print the configuration and codes that govern ``path_text`` (stdin: its name)."""
    from pathlib import Path

    from semantics_lint.lint.run import runner
    from semantics_lint.lint.run.config import ConfigError, resolver_for
    from semantics_lint.lint.run.discovery import DEFAULT_EXCLUDE

    shown = path_text if path_text is not None else (namespace.stdin_filename or ".")
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


# ---------------------------------------------------------------------------
# semantics-lint rule
# ---------------------------------------------------------------------------


def rule_main(arguments: Sequence[str]) -> int:
    """``semantics-lint rule CODE`` / ``rule --all`` [``--output-format json``]."""
    namespace = rule_parser().parse_args(list(arguments))
    from semantics_lint.lint import rule_docs
    from semantics_lint.lint.output.rule_metadata import registry, rule_info, rule_url

    known = sorted(registry())
    if namespace.all:
        codes = known
    else:
        wanted = namespace.code.strip().upper()
        if wanted not in known:
            write(
                sys.stderr,
                f"error: unknown rule code {namespace.code!r}; known codes: {', '.join(known)}\n",
            )
            return EXIT_ERROR
        codes = [wanted]
    if namespace.output_format == "json":
        import json

        rows = []
        for code in codes:
            info = rule_info(code)
            rows.append(
                {
                    "code": code,
                    "name": info.name,
                    "severity": info.severity.value,
                    "summary": info.summary,
                    "fix": info.fix,
                    "explanation": rule_docs.render_rule(code),
                    "url": rule_url(code),
                }
            )
        document: Any = rows if namespace.all else rows[0]
        write(sys.stdout, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        return EXIT_CLEAN
    write(sys.stdout, "\n".join(rule_docs.render_rule(code) for code in codes))
    return EXIT_CLEAN
