"""``semantics-lint check`` on standard input, and ``--add-noqa``."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from semantics_lint.cli.console import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, CheckError, Console
from semantics_lint.cli.report import (
    exit_code,
    lint_paths,
    print_findings,
    report_diff,
    source_reader,
    summary_wanted,
)

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.cli.arguments import CheckFlags
    from semantics_lint.lint.run.runner import RunOptions


def read_stdin() -> tuple[bytes, bool, int | None]:
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


def check_stdin(flags: CheckFlags, options: RunOptions, console: Console) -> int:
    from semantics_lint.lint.run import texts

    if flags.add_noqa:
        raise CheckError("--add-noqa needs files: it cannot rewrite standard input")
    source, complete, size = read_stdin()
    stdin = texts.InMemory(flags.stdin_filename, source, complete=complete, size=size)
    result = texts.run_text(stdin, options)
    for message in result.messages:
        console.out(message + "\n", to_stderr=True)
    # stdout carries the diff or the fixed source: what is said about them goes to stderr.
    if options.diff:
        return report_diff(flags, console, result, summary_to_stderr=True)
    from semantics_lint.lint.output import overview

    summarize = summary_wanted(flags)
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
    if flags.fix_only:
        if summarize:
            console.info(overview.fixed_summary(result.fixed), to_stderr=True)
    else:
        print_findings(
            flags,
            console,
            result.findings,
            source_reader((), stdin=result.fixed_stdin or source),
            to_stderr=options.fix,
        )
        if summarize:
            from semantics_lint.lint.output import summary

            console.info(
                summary(result.findings, unsafe=flags.unsafe_fixes, fixed=result.fixed),
                to_stderr=options.fix,
            )
    code = EXIT_FINDINGS if result.findings and not flags.fix_only else EXIT_CLEAN
    if flags.exit_non_zero_on_fix and result.fixed_stdin is not None and result.fixed_stdin != source:
        code = EXIT_FINDINGS
    return exit_code(code, flags, result.failed)


# ---------------------------------------------------------------------------
# --add-noqa
# ---------------------------------------------------------------------------


def add_noqa_comments(flags: CheckFlags, options: RunOptions, console: Console, paths: Sequence[str]) -> int:
    """Add the ``# noqa`` comments the remaining findings need; the next run is clean."""
    from semantics_lint.lint.output.overview import plural
    from semantics_lint.lint.run import write as writing
    from semantics_lint.lint.run.suppress import add_noqa
    from semantics_lint.reading import MAX_SOURCE_BYTES, read_regular

    lint_options = options._replace(fix=False, diff=False, cache_dir=None)
    result, sources = lint_paths(paths, lint_options)
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
        encoded = with_noqa(data, findings, add_noqa)
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
            console.error(
                f"{display}: could not write the file ({error.strerror or error}); it was left unchanged"
            )
            failed = True
            continue
        added += count
    console.info(f"Added {plural(added, 'noqa directive')}.\n", to_stderr=True)
    return EXIT_ERROR if failed or result.failed else EXIT_CLEAN


def with_noqa(data: bytes, findings: Sequence[Any], add_noqa: Any) -> tuple[bytes, int] | None:
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
