"""What ``semantics-lint check`` prints of a run over files, and its exit code."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from semantics_lint.cli.console import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, Console, ProgressLine

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.cli.arguments import CheckFlags
    from semantics_lint.lint.run.discovery import SourceFile
    from semantics_lint.lint.run.runner import RunOptions, RunResult


def lint_paths(
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


def source_reader(sources: Sequence[SourceFile], stdin: bytes | None = None) -> Any:
    """The text of a file by its display name, for ``--output-format full``."""
    paths = {source.display: source.path for source in sources}

    def read(display: str) -> str | None:
        from semantics_lint.lint.core.source import text_of
        from semantics_lint.reading import MAX_SOURCE_BYTES, read_regular

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


def print_findings(
    flags: CheckFlags,
    console: Console,
    findings: Sequence[Any],
    read_source: Any,
    *,
    to_stderr: bool = False,
    sources: Sequence[SourceFile] = (),
) -> None:
    from semantics_lint.lint.output import format_findings, format_statistics, use_color

    unsafe = flags.unsafe_fixes
    if flags.statistics:
        text = format_statistics(findings, flags.output_format, unsafe)
    else:
        stream = sys.stderr if to_stderr else sys.stdout
        text = format_findings(
            findings,
            flags.output_format,
            unsafe=unsafe,
            color=use_color(stream),
            read_source=read_source,
            raw_names={source.display: source.raw for source in sources if source.raw},
        )
    console.out(text, to_stderr=to_stderr)


def summary_wanted(flags: CheckFlags) -> bool:
    from semantics_lint.lint.output import wants_summary

    return wants_summary(flags.output_format, flags.statistics)


def report_result(
    flags: CheckFlags,
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
    broken = result.failed
    summarize = summary_wanted(flags)
    if options.diff:
        return report_diff(flags, console, result)
    if flags.show_fixes and options.fix and summarize:
        console.info(fixes_text(result))
    if flags.fix_only:
        if summarize and not flags.show_fixes:
            from semantics_lint.lint.output.overview import fixed_summary

            console.info(fixed_summary(result.fixed))
        code = EXIT_FINDINGS if flags.exit_non_zero_on_fix and result.changed_files else EXIT_CLEAN
        return exit_code(code, flags, broken)
    print_findings(flags, console, result.findings, source_reader(sources), sources=sources)
    if summarize:
        from semantics_lint.lint.output import summary

        console.info(summary(result.findings, unsafe=flags.unsafe_fixes, fixed=result.fixed))
    code = EXIT_FINDINGS if result.findings else EXIT_CLEAN
    if flags.exit_non_zero_on_fix and result.changed_files:
        code = EXIT_FINDINGS
    return exit_code(code, flags, broken)


def report_diff(
    flags: CheckFlags, console: Console, result: RunResult, *, summary_to_stderr: bool = False
) -> int:
    """``--diff``: the diffs on stdout, then what would be fixed (on stderr with
    ``summary_to_stderr``); exit 1 when some file would change, 2 on an error."""
    from semantics_lint.lint.output.overview import would_fix_summary

    for text in result.diffs:
        console.out(text)
    if summary_wanted(flags):
        console.info(would_fix_summary(result.fixed, result.changed_files), to_stderr=summary_to_stderr)
    return exit_code(EXIT_FINDINGS if result.changed_files else EXIT_CLEAN, flags, result.failed)


def fixes_text(result: RunResult) -> str:
    """``--show-fixes``: the fixes made, per file."""
    from semantics_lint.lint.output.overview import format_fixes

    return format_fixes(result.fixed_files)


def exit_code(code: int, flags: CheckFlags, broken: bool) -> int:
    """2 for an error whatever else; ``--exit-zero`` turns every other code into 0."""
    if broken:
        return EXIT_ERROR
    return EXIT_CLEAN if flags.exit_zero else code
