"""Rendering findings in every format ``--output-format`` accepts.

Every renderer is pure: findings (already filtered and sorted by the runner) in, one
string out. The CLI prints it on stdout, followed by the summary in the formats people
read (:func:`wants_summary`), as ruff does, so a pipe that reads a machine format gets
only the document it asked for. Each format lives in the module that
needs its imports, imported when that format is asked for: a run that prints
``concise`` never imports ``json``, XML or the rule registry.

=============  ===========================================================  ============
format         what                                                         module
=============  ===========================================================  ============
concise        ``path:line:col: CODE [*] message`` (``text`` is an alias)   ``human``
full           concise, plus the source lines, a caret and the fix          ``human``
grouped        the findings under one heading per file                      ``human``
pylint         ``path:line: [CODE] message``                                ``human``
json           one list in ruff's shape (docs/cli.md)                       ``machine``
json-lines     the same objects, one a line                                 ``machine``
github         GitHub Actions annotations                                   ``machine``
gitlab         GitLab code quality report                                   ``machine``
junit          JUnit XML                                                    ``machine``
sarif          SARIF 2.1.0                                                  ``sarif``
=============  ===========================================================  ============

The formats people and CI logs read (concise, full, grouped, pylint, github, junit)
show the checkout's text (messages quote the source; file names) with control
characters escaped, here, once for all of them (``printable.py``); the machine
formats carry it unchanged in JSON strings.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint.core.model import Finding

FORMATS: tuple[str, ...] = (
    "concise",
    "full",
    "grouped",
    "json",
    "json-lines",
    "github",
    "gitlab",
    "junit",
    "pylint",
    "sarif",
)
"""The output formats, ruff's names."""

ALIASES = {"text": "concise"}
"""Other names accepted for a format (``text`` was the name of ``concise``)."""

OUTPUT_FORMATS: tuple[str, ...] = (*FORMATS, *ALIASES)
"""Every name ``--output-format`` accepts."""

HUMAN_FORMATS = frozenset({"concise", "full", "grouped"})
"""The formats after which the summary is printed (on stdout, after the findings), as ruff does."""

LINE_FORMATS = frozenset({"concise", "full", "grouped", "pylint"})
"""The formats of :mod:`~semantics_lint.lint.output.human`: a line (or a block) per
finding, and nothing at all without findings."""

ALL_CLEAR = "All checks passed!\n"
"""The summary of a run that found nothing and fixed nothing."""

READABLE_FORMATS = frozenset({"concise", "full", "grouped", "pylint", "github", "junit"})
"""The formats whose text is read as lines (by people, terminals, CI logs): the
checkout's text is escaped in them (see ``printable.py``)."""


def canonical(output_format: str) -> str:
    """The format ``output_format`` names (``text`` is ``concise``)."""
    return ALIASES.get(output_format, output_format)


def wants_summary(output_format: str, statistics: bool) -> bool:
    """Whether the summary lines (``Found 3 errors.``, what ``--fix`` fixed or would
    fix) follow the output: in the formats people read and ``--statistics``' table,
    never after a machine format's document (ruff prints none there either)."""
    output_format = canonical(output_format)
    if statistics:
        return output_format not in ("json", "json-lines")
    return output_format in HUMAN_FORMATS


def format_findings(
    findings: Sequence[Finding],
    output_format: str,
    *,
    unsafe: bool = False,
    color: bool = False,
    read_source: Callable[[str], str | None] | None = None,
    cwd: str | None = None,
    raw_names: Mapping[str, str] | None = None,
) -> str:
    """The findings in ``output_format`` (one of :data:`OUTPUT_FORMATS`).

    ``unsafe``: whether ``--unsafe-fixes`` was given (which findings get ``[*]``);
    ``color``: ANSI colour in the human formats; ``read_source``: the text of a
    file by its display name (``full`` shows source lines); ``cwd``: the folder
    relative names are relative to (SARIF); ``raw_names``: the real name of a file
    whose shown name is escaped (SARIF URIs encode the real bytes).
    """
    name = canonical(output_format)
    if not findings and name in LINE_FORMATS:
        return ""  # nothing to show: a clean run imports no renderer
    if name in READABLE_FORMATS:
        from semantics_lint.lint.output.printable import readable

        findings = readable(findings)
    if name in LINE_FORMATS:
        from semantics_lint.lint.output import human

        if name == "concise":
            return human.format_concise(findings, unsafe=unsafe, color=color)
        if name == "full":
            return human.format_full(findings, unsafe=unsafe, color=color, read_source=read_source)
        if name == "grouped":
            return human.format_grouped(findings, unsafe=unsafe, color=color)
        return human.format_pylint(findings)
    if name == "sarif":
        from semantics_lint.lint.output.sarif import format_sarif

        return format_sarif(findings, cwd=cwd, raw_names=raw_names)
    if name in FORMATS:
        from semantics_lint.lint.output import machine

        renderer = {
            "json": machine.format_json,
            "json-lines": machine.format_json_lines,
            "github": machine.format_github,
            "gitlab": machine.format_gitlab,
            "junit": machine.format_junit,
        }[name]
        return renderer(findings)
    raise ValueError(f"unknown output format {output_format!r}")


def use_color(stream: TextIO) -> bool:
    """Whether to colour what goes to ``stream``: on a terminal, as the environment allows.

    ``NO_COLOR`` (any non-empty value) turns colour off (no-color.org);
    ``FORCE_COLOR`` (any non-empty value) turns it on off a terminal too;
    ``TERM=dumb`` turns it off.
    """
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty is not None and isatty())
    except ValueError:  # a closed stream
        return False


def summary(findings: Sequence[Finding], *, unsafe: bool, fixed: int = 0) -> str:
    """The summary printed after the findings (ruff's): counts, what ``--fix`` could do,
    the unsafe-fix hint; :data:`ALL_CLEAR` for a run that found and fixed nothing."""
    remaining = len(findings)
    if remaining == 0 and fixed == 0:
        return ALL_CLEAR
    from semantics_lint.lint.output.human import is_fixable
    from semantics_lint.lint.output.overview import plural

    lines: list[str] = []
    if fixed:
        lines.append(f"Found {plural(remaining + fixed, 'error')} ({fixed} fixed, {remaining} remaining).")
    else:
        lines.append(f"Found {plural(remaining, 'error')}.")
    fixable = sum(1 for f in findings if is_fixable(f, unsafe))
    hidden = sum(1 for f in findings if f.fix is not None and not is_fixable(f, unsafe))
    hint = f"{plural(hidden, 'hidden fix', 'hidden fixes')} can be enabled with the `--unsafe-fixes` option"
    if fixable:
        option = "`--fix --unsafe-fixes`" if unsafe else "`--fix`"
        line = f"[*] {fixable} fixable with the {option} option"
        lines.append(f"{line} ({hint})." if hidden else f"{line}.")
    elif hidden:
        lines.append(f"No fixes available ({hint}).")
    return "".join(line + "\n" for line in lines)


def format_statistics(findings: Sequence[Finding], output_format: str, unsafe: bool) -> str:
    """``--statistics`` (see :mod:`semantics_lint.lint.output.overview`)."""
    from semantics_lint.lint.output.overview import format_statistics as render

    return render(findings, canonical(output_format), unsafe)
