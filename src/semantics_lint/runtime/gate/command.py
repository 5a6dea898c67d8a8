"""The ``check-semantics`` command's core, with its IO injected (tests run it in-process).

:func:`run_check_semantics` reads, judges and reports catalogs and returns the exit
code; :func:`run_check_semantics_cli` takes the command's own words
(``CATALOG... [--strict] [--json] [--all-findings]``). The console command
(``semantics_lint.cli.check_semantics``) hands this its parsed flags.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from semantics_lint.runtime.gate.check import (
    EXIT_FAILED,
    EXIT_INPUT_ERROR,
    EXIT_OK,
    PROG,
    SHOWN_IN_ALL,
    SHOWN_PER_CODE,
    CatalogReport,
    gate_report,
    judge_catalog,
)
from semantics_lint.runtime.gate.report_text import report_lines
from semantics_lint.vocabulary import RESULT_CLASSES

__all__ = ["USAGE", "SemanticsCliIO", "run_check_semantics", "run_check_semantics_cli"]


def _read_text_file(path: str) -> str:
    # Only a regular file is read (``semantics_lint.reading``, the linter's reader too):
    # a FIFO, socket or device named as a catalog (a slip, or a file list from a
    # hostile checkout) is refused, never opened in a way that blocks or reads
    # without end. Undecodable bytes become U+FFFD, as the reference's utf8 read
    # does: a catalog with a stray byte inside a string is still judged.
    from semantics_lint.reading import read_regular

    return read_regular(path, None).decode("utf-8", errors="replace")


def _read_stdin() -> str:
    data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
    return data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data


def _print_stdout(text: str) -> None:
    sys.stdout.write(text + "\n")


def _print_stderr(text: str) -> None:
    sys.stderr.write(text + "\n")


@dataclass(frozen=True)
class SemanticsCliIO:
    """Where the command writes and how it reads: injected so tests run it in-process.

    ``stdout``/``stderr`` receive one block of text per call (a newline is added by
    the writer); ``read_file`` returns a file's text; ``read_stdin`` the text of
    standard input, read when the catalog path is ``-``.
    """

    stdout: Callable[[str], None] = field(default=_print_stdout)
    stderr: Callable[[str], None] = field(default=_print_stderr)
    read_file: Callable[[str], str] = field(default=_read_text_file)
    read_stdin: Callable[[], str] = field(default=_read_stdin)


USAGE: Final = f"""usage: {PROG} CATALOG [CATALOG ...] [--strict] [--json] [--all-findings]

  CATALOG    a JSON file of tools and sample results ('-' reads standard input):
               [{{"name", "resultClass"?, "results": [...]}}]
               [{{"name", "resultClass"?, "result": ...}}]     (one sample)
               {{"tools": [...]}}                             (either row shape)
             resultClass is one of {", ".join(RESULT_CLASSES)}, or left out for a tool
             with no class rules (the envelope rules still apply). Several catalogs
             are judged together into one report; '--' ends the options.

  --strict         warnings fail the gate too
  --json           print the report as JSON instead of text
  --all-findings   show every finding (by default a tool's findings of one code
                   are shown up to {SHOWN_PER_CODE}, {SHOWN_IN_ALL} in all; the rest counted)

exit codes: 0 ok, 1 findings failed the gate, 2 usage or input error (then no report)"""


def _one_line(text: str) -> str:
    return " ".join(text.split())


_LONE_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _encodable(text: str) -> str:
    """``text`` with every lone surrogate written as a ``\\uXXXX`` escape.

    JSON strings may hold lone surrogates (``"\\ud800"``) and Python keeps them
    as such; no stream can encode one, so printing a tool name that holds one
    would crash. Inside a JSON document the escape is the same string, which is
    also how JavaScript's ``JSON.stringify`` writes it.
    """
    return _LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def _judge_named(catalog: str, io: SemanticsCliIO, all_findings: bool) -> CatalogReport | str:
    """The report on one catalog, or the one-line reason it cannot be judged."""
    try:
        text = io.read_stdin() if catalog == "-" else io.read_file(catalog)
        return judge_catalog(text, catalog, all_findings=all_findings)
    except OSError as error:
        reason = error.strerror or str(error)
        return f"{PROG}: {catalog}: cannot read the catalog: {_one_line(reason)}"
    except RecursionError:
        return f"{PROG}: {catalog}: the catalog is nested too deeply to judge"
    # Every failure here is the input's, as in the reference: a catalog the
    # gate cannot judge is exit 2 with a reason, never a traceback.
    except Exception as error:  # noqa: BLE001
        return f"{PROG}: {catalog}: {_one_line(str(error))}"


def run_check_semantics(
    catalogs: str | Sequence[str],
    *,
    strict: bool = False,
    as_json: bool = False,
    all_findings: bool = False,
    io: SemanticsCliIO | None = None,
) -> int:
    """Read, judge and report one or more catalogs; return the exit code (0, 1 or 2).

    Every catalog is judged; if any cannot be (unreadable, not JSON, a shape the
    gate refuses), each such one is a line on stderr naming the catalog and the
    reason, nothing goes to stdout, and the exit code is 2. Otherwise one report
    covers them all. A path named twice is a usage error.
    """
    io = io or SemanticsCliIO()
    paths = [catalogs] if isinstance(catalogs, str) else list(catalogs)

    def stderr(text: str) -> None:
        io.stderr(_encodable(text))

    repeated = next((path for index, path in enumerate(paths) if path in paths[:index]), None)
    if repeated is not None:
        stderr(f"{PROG}: {repeated} is named twice; name each catalog once")
        return EXIT_INPUT_ERROR
    reports: list[CatalogReport] = []
    failures: list[str] = []
    for path in paths:
        judged = _judge_named(path, io, all_findings)
        if isinstance(judged, str):
            failures.append(judged)
        else:
            reports.append(judged)
    if failures:
        for failure in failures:
            stderr(failure)
        return EXIT_INPUT_ERROR

    report = gate_report(reports, strict=strict)
    if as_json:
        _write_in_blocks(io, json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(report))
    else:
        _write_in_blocks(io, (line + "\n" for line in report_lines(report)))
    return EXIT_OK if report["passed"] else EXIT_FAILED


_BLOCK: Final = 1 << 20


def _write_in_blocks(io: SemanticsCliIO, pieces: Iterable[str]) -> None:
    """Write text made of ``pieces`` in blocks of whole lines, never all of it at once.

    A report with every finding of a huge catalog is hundreds of megabytes; built as
    one string (and again encoded) it would cost that twice over. The writer adds a
    newline after each block, so each block ends just before one.
    """
    pending: list[str] = []
    size = 0
    for piece in pieces:
        pending.append(piece)
        size += len(piece)
        if size >= _BLOCK and "\n" in piece:
            text = "".join(pending)
            cut = text.rindex("\n")
            io.stdout(_encodable(text[:cut]))
            rest = text[cut + 1 :]
            pending, size = [rest], len(rest)
    text = "".join(pending)
    io.stdout(_encodable(text[:-1] if text.endswith("\n") else text))


def run_check_semantics_cli(argv: Sequence[str], io: SemanticsCliIO | None = None) -> int:
    """The command line ``CATALOG [CATALOG ...] [--strict] [--json] [--all-findings]``.

    In-process; returns the exit code. Flags may come in any order and repeat;
    ``--`` ends them. ``-h``/``--help`` prints the usage on stdout and returns 0; an
    unknown flag, a flag with a value (``--strict=true``) or no catalog prints the
    reason and the usage on stderr and returns 2. ``-`` as a path reads a catalog
    from standard input.
    """
    io = io or SemanticsCliIO()
    paths: list[str] = []
    strict = False
    as_json = False
    all_findings = False
    only_paths = False
    for arg in argv:
        if only_paths or arg == "-" or not arg.startswith("-"):
            paths.append(arg)
        elif arg == "--":
            only_paths = True
        elif arg == "--strict":
            strict = True
        elif arg == "--json":
            as_json = True
        elif arg == "--all-findings":
            all_findings = True
        elif arg in ("-h", "--help"):
            io.stdout(USAGE)
            return EXIT_OK
        else:
            io.stderr(f"{PROG}: unknown option {arg!r}\n\n{USAGE}")
            return EXIT_INPUT_ERROR
    if not paths:
        io.stderr(f"{PROG}: missing the CATALOG argument\n\n{USAGE}")
        return EXIT_INPUT_ERROR
    return run_check_semantics(paths, strict=strict, as_json=as_json, all_findings=all_findings, io=io)
