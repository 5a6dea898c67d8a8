"""``semantics-lint check-semantics``: the gate over catalogs of sample results.

Argument plumbing only: click parses ``CATALOG... [--strict] [--json]
[--all-findings]`` and :func:`semantics_lint.runtime.gate.command.run_check_semantics`
does the rest. Exit codes: 0 ok, 1 findings failed the gate (with ``--strict``,
warnings too), 2 usage or input error (unreadable file, invalid JSON, unknown
shape, unknown ``resultClass``, a catalog named twice), reported as one line per
catalog on stderr and never as a traceback.
"""

from __future__ import annotations

import sys

import click

from semantics_lint.runtime.gate.check import SHOWN_IN_ALL, SHOWN_PER_CODE
from semantics_lint.runtime.gate.command import SemanticsCliIO, run_check_semantics


def _echo_stdout(text: str) -> None:
    click.echo(text)


def _echo_stderr(text: str) -> None:
    click.echo(text, err=True)


def _read_stdin() -> str:
    # The bytes under sys.stdin (click.get_binary_stream is deprecated since click 8.5).
    return sys.stdin.buffer.read().decode("utf-8", errors="replace")


@click.command("check-semantics")
@click.argument("catalogs", metavar="CATALOG...", nargs=-1, required=True)
@click.option("--strict", is_flag=True, help="Warnings fail the gate too.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--all-findings",
    is_flag=True,
    help=(
        f"Show every finding (by default a tool's findings of one code are shown up to "
        f"{SHOWN_PER_CODE}, {SHOWN_IN_ALL} in all, and the rest counted)."
    ),
)
def check_semantics_command(
    catalogs: tuple[str, ...], strict: bool, as_json: bool, all_findings: bool
) -> None:
    """Judge catalogs of sample tool results against the envelope and class rules.

    Each CATALOG is a JSON file ('-' reads standard input) shaped as
    [{"name", "resultClass"?, "results": [...]}], [{"name", "resultClass"?,
    "result": ...}] or {"tools": [...]}; several are judged into one report.
    Exit 0 ok, 1 findings failed the gate, 2 input error.
    """
    # click's echo writes through the streams click's test runner captures, and
    # stays correct on terminals that cannot print every character.
    io = SemanticsCliIO(stdout=_echo_stdout, stderr=_echo_stderr, read_stdin=_read_stdin)
    code = run_check_semantics(
        list(catalogs), strict=strict, as_json=as_json, all_findings=all_findings, io=io
    )
    click.get_current_context().exit(code)
