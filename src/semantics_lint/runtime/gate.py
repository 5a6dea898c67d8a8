"""The ``check-semantics`` gate: judge a catalog of sample tool results.

A catalog names each tool, its declared ``resultClass`` (``triage``,
``inventory`` or none) and sample results, typically what the project's mock
tools return, dumped to JSON. The gate never runs a tool; it judges the shapes:

* every envelope that carries ``af_semantics: true`` must pass the envelope rule
  set (:func:`semantics_lint.runtime.envelope.semantic_issues`); each fault is an
  error naming its field;
* a ``triage`` or ``inventory`` tool must declare coverage on every sample,
  through any door: a described result with ``coverage``, a ``coverage()`` ledger
  or an ``absent()``;
* warnings: a classed tool with no samples (silence must not read as a pass),
  and an inventory whose facts carry no render hint.

The report keeps the reference's keys (``ok``, ``findings[{tool, code, severity,
field, resultIndex?, message}]``, ``checkedTools``, ``checkedResults``), so CI
that reads either tool's report reads both. Behaviour follows agentfootprint
9.62.0 (``src/lib/semantics/check.ts`` and ``cli.ts``); the messages are ours.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from semantics_lint.runtime.envelope import read_coverage_result, semantic_issues
from semantics_lint.vocabulary import (
    CLASS_NEEDING_RENDER,
    CLASSES_NEEDING_COVERAGE,
    RESULT_CLASSES,
    SEMANTICS_MARKER,
    js_trim,
)

__all__ = [
    "PROG",
    "SemanticsCatalogError",
    "SemanticsCliIO",
    "check_semantics",
    "coerce_semantics_catalog",
    "format_semantics_report",
    "load_semantics_catalog",
    "run_check_semantics",
    "run_check_semantics_cli",
]

PROG: Final = "semantics-lint check-semantics"

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_INPUT_ERROR: Final = 2


class SemanticsCatalogError(ValueError):
    """A catalog the gate cannot judge: wrong shape, no tool name, an unknown class.

    A definition-side mistake, not a finding: the command maps it to exit code 2.
    A malformed *result* is never this error; it is a finding, the thing the gate
    exists to report.
    """


# ---------------------------------------------------------------------------
# The checker
# ---------------------------------------------------------------------------


def _is_plain_object(value: object) -> bool:
    return isinstance(value, dict)


def _is_array(value: object) -> bool:
    return isinstance(value, (list, tuple))


def _carries_marker(value: object) -> bool:
    # Exactly ``True``: ``1`` or ``"true"`` is data, not a near-miss envelope.
    return isinstance(value, dict) and value.get(SEMANTICS_MARKER) is True


def _declares_coverage(result: object, recognized_envelope: bool) -> bool:
    """True when a result states its boundary through any door the reader knows."""
    if recognized_envelope:
        assert isinstance(result, dict)
        return "coverage" in result
    return read_coverage_result(result) is not None


def _ordinal(result_index: int) -> str:
    return f"sample result {result_index + 1}"


def _class_coverage_finding(tool: str, cls: str, result_index: int) -> dict[str, Any]:
    why = (
        "a triage that cannot say what it did NOT check turns 'everything looks fine' into "
        "a claim about ground it never stood on"
        if cls == "triage"
        else "an inventory that cannot say which population it covered ('4 of 5 clusters') "
        "reads as the whole fleet"
    )
    return {
        "tool": tool,
        "code": f"{cls}-without-coverage",
        "severity": "error",
        "field": "coverage",
        "resultIndex": result_index,
        "message": (
            f"tool {tool!r} is declared {cls!r} but {_ordinal(result_index)} declares no "
            f"coverage; {why}. Return described_result(..., coverage={{'checked': [...], "
            "'notChecked': [...], 'cannotCover': [...]}), or coverage(result, checked=[...]), "
            "or absent(what=..., checked=[...]) when nothing was found."
        ),
    }


def check_semantics(entries: object) -> dict[str, Any]:
    """Judge catalog entries ``[{name, resultClass?, results: [...]}]``; return the report.

    Raises :class:`SemanticsCatalogError` only for a malformed catalog: entries that
    are not a list, an entry that is not a dict, a tool with no name (blank after
    JavaScript trimming), a ``resultClass`` present but not one of ``RESULT_CLASSES``
    (``None`` included), or ``results`` that is not a list. ``ok`` is false when any
    finding is an error; warnings never fail it (``--strict`` decides that).
    """
    if not _is_array(entries):
        raise SemanticsCatalogError(
            "check_semantics takes a list of {name, resultClass?, results} entries"
        )
    assert isinstance(entries, (list, tuple))
    findings: list[dict[str, Any]] = []
    checked_results = 0

    for entry_index, entry in enumerate(entries):
        if not _is_plain_object(entry):
            raise SemanticsCatalogError(f"entries[{entry_index}] is not an object")
        name = entry.get("name")
        if not isinstance(name, str) or js_trim(name) == "":
            raise SemanticsCatalogError(f"entries[{entry_index}] has no tool name")
        has_class = "resultClass" in entry
        cls = entry.get("resultClass")
        if has_class and not (isinstance(cls, str) and cls in RESULT_CLASSES):
            raise SemanticsCatalogError(
                f"tool {name!r} declares resultClass {json.dumps(cls, default=repr)}, which "
                f"is not a class this gate knows; the classes are {', '.join(RESULT_CLASSES)}. "
                "Leave the field out for a tool with no class rules."
            )
        results = entry.get("results")
        if not _is_array(results):
            raise SemanticsCatalogError(
                f"tool {name!r} has no `results` list; the gate judges sample results, so "
                "give it at least one (a mock tool's return is the natural sample)"
            )
        assert isinstance(results, (list, tuple))

        if has_class and len(results) == 0:
            findings.append(
                {
                    "tool": name,
                    "code": "unsampled-tool-class",
                    "severity": "warning",
                    "field": "results",
                    "message": (
                        f"tool {name!r} is declared {cls!r} but has no sample results; the "
                        "gate cannot check what it cannot see, so add one sample (a mock "
                        "return is enough)."
                    ),
                }
            )

        for result_index, result in enumerate(results):
            checked_results += 1
            marked = _carries_marker(result)
            issues = semantic_issues(result) if marked else []
            if issues:
                for issue in issues:
                    findings.append(
                        {
                            "tool": name,
                            "code": issue["code"],
                            "severity": "error",
                            "field": issue["field"],
                            "resultIndex": result_index,
                            "message": f"tool {name!r}, {_ordinal(result_index)}: "
                            f"{issue['message']}",
                        }
                    )
                # A broken envelope is not judged for class rules: its faults are
                # already errors, and guessing at a broken shape would report the
                # same problem twice under two names.
                continue
            recognized = marked
            if cls in CLASSES_NEEDING_COVERAGE and not _declares_coverage(result, recognized):
                assert isinstance(cls, str)
                findings.append(_class_coverage_finding(name, cls, result_index))
            if (
                cls == CLASS_NEEDING_RENDER
                and recognized
                and "facts" in result
                and "render" not in result
            ):
                findings.append(
                    {
                        "tool": name,
                        "code": "inventory-without-render",
                        "severity": "warning",
                        "field": "render",
                        "resultIndex": result_index,
                        "message": (
                            f"tool {name!r}, {_ordinal(result_index)}: an inventory with "
                            "`facts` and no `render` hint; the tool's author knows the right "
                            "columns and sort better than any consumer. Consider "
                            "render={'default': 'table', 'columns': [...]}."
                        ),
                    }
                )

    return {
        "ok": not any(finding["severity"] == "error" for finding in findings),
        "findings": findings,
        "checkedTools": len(entries),
        "checkedResults": checked_results,
    }


# ---------------------------------------------------------------------------
# The catalog file
# ---------------------------------------------------------------------------


def coerce_semantics_catalog(value: object) -> list[dict[str, Any]]:
    """Normalize the accepted catalog shapes to the checker's entries.

    Accepted: ``[{name, resultClass?, results: [...]}]``, ``[{name, resultClass?,
    result: ...}]`` (one sample) and ``{"tools": [...]}`` holding either row shape.
    ``resultClass`` is passed through untouched, ``None`` included: the checker is
    the one owner of that refusal. Raises :class:`SemanticsCatalogError` on any
    other shape.
    """
    if _is_array(value):
        rows = value
    elif isinstance(value, dict) and _is_array(value.get("tools")):
        rows = value["tools"]
    else:
        raise SemanticsCatalogError(
            'expected a JSON array of {"name", "resultClass"?, "results"} rows, or '
            '{"tools": [...]}'
        )
    assert isinstance(rows, (list, tuple))
    entries: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            raise SemanticsCatalogError(f"tools[{index}] is not an object")
        name = row.get("name")
        if not isinstance(name, str) or name == "":
            raise SemanticsCatalogError(f"tools[{index}] has no string 'name'")
        if _is_array(row.get("results")):
            results = row["results"]
        elif "result" in row:
            results = [row["result"]]
        else:
            raise SemanticsCatalogError(
                f"tools[{index}] ({name!r}) has neither 'results' (a list of sample results) "
                "nor 'result' (one sample); the gate judges sample results, and a mock "
                "tool's return is the natural sample"
            )
        entry: dict[str, Any] = {"name": name}
        if "resultClass" in row:
            entry["resultClass"] = row["resultClass"]
        entry["results"] = results
        entries.append(entry)
    return entries


def _reject_constant(name: str) -> Any:
    # JSON has no NaN or Infinity; Python's json module would accept them.
    raise ValueError(f"{name} is not valid JSON")


def load_semantics_catalog(text: str) -> list[dict[str, Any]]:
    """Parse catalog text as strict JSON and coerce it; raises ValueError on either failure."""
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except ValueError as error:
        raise SemanticsCatalogError(f"invalid JSON: {error}") from None
    return coerce_semantics_catalog(value)


# ---------------------------------------------------------------------------
# The text report
# ---------------------------------------------------------------------------


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _finding_line(finding: Mapping[str, Any]) -> str:
    mark = "error" if finding["severity"] == "error" else "warning"
    result = (
        f"result {finding['resultIndex'] + 1}"
        if "resultIndex" in finding
        else "the tool as a whole"
    )
    return (
        f"  {mark}: {finding['tool']}, {result}, field {finding['field']} "
        f"[{finding['code']}]\n      {finding['message']}"
    )


def format_semantics_report(report: Mapping[str, Any]) -> str:
    """The report as text for a terminal or a build log.

    One heading line with the counts, one entry per finding (each naming the tool,
    the result and the field, the three facts a fix needs), and a verdict line.
    """
    findings: Sequence[Mapping[str, Any]] = report["findings"]
    errors = sum(1 for finding in findings if finding["severity"] == "error")
    warnings = len(findings) - errors
    heading = (
        f"check-semantics: {_plural(report['checkedTools'], 'tool')}, "
        f"{_plural(report['checkedResults'], 'sample result')}"
    )
    lines = [heading]
    if not findings:
        lines.append("  every sample result keeps the envelope rules and its class rules")
    lines.extend(_finding_line(finding) for finding in findings)
    verdict = "passed" if report["ok"] else "FAILED"
    lines.append(f"{verdict}: {_plural(errors, 'error')}, {_plural(warnings, 'warning')}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# The command's core, with its IO injected
# ---------------------------------------------------------------------------


def _read_text_file(path: str) -> str:
    # Undecodable bytes become U+FFFD, as the reference's utf8 read does: a
    # catalog with a stray byte inside a string is still judged.
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


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


USAGE: Final = f"""usage: {PROG} CATALOG [--strict] [--json]

  CATALOG    a JSON file of tools and sample results ('-' reads standard input):
               [{{"name", "resultClass"?, "results": [...]}}]
               [{{"name", "resultClass"?, "result": ...}}]     (one sample)
               {{"tools": [...]}}                             (either row shape)
             resultClass is one of {", ".join(RESULT_CLASSES)}, or left out for a tool
             with no class rules (the envelope rules still apply).

  --strict   warnings fail the gate too
  --json     print the report as JSON instead of text

exit codes: 0 ok, 1 findings failed the gate, 2 usage or input error"""


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


def run_check_semantics(
    catalog: str, *, strict: bool = False, as_json: bool = False, io: SemanticsCliIO | None = None
) -> int:
    """Read, judge and report one catalog; return the exit code (0, 1 or 2).

    Any failure to read, parse, coerce or check the catalog is an input error: one
    line on stderr naming the catalog and the reason, nothing on stdout, exit 2.
    """
    io = io or SemanticsCliIO()
    stdout = io.stdout

    def stderr(text: str) -> None:
        io.stderr(_encodable(text))

    try:
        text = io.read_stdin() if catalog == "-" else io.read_file(catalog)
        report = check_semantics(load_semantics_catalog(text))
    except OSError as error:
        reason = error.strerror or str(error)
        stderr(f"{PROG}: {catalog}: cannot read the catalog: {_one_line(reason)}")
        return EXIT_INPUT_ERROR
    except RecursionError:
        stderr(f"{PROG}: {catalog}: the catalog is nested too deeply to judge")
        return EXIT_INPUT_ERROR
    # Every failure here is the input's, as in the reference: a catalog the
    # gate cannot judge is exit 2 with a reason, never a traceback.
    except Exception as error:  # noqa: BLE001
        stderr(f"{PROG}: {catalog}: {_one_line(str(error))}")
        return EXIT_INPUT_ERROR

    if as_json:
        stdout(_encodable(json.dumps(report, indent=2, ensure_ascii=False)))
    else:
        stdout(_encodable(format_semantics_report(report)))
    if not report["ok"]:
        return EXIT_FAILED
    if strict and report["findings"]:
        return EXIT_FAILED
    return EXIT_OK


def run_check_semantics_cli(argv: Sequence[str], io: SemanticsCliIO | None = None) -> int:
    """The command line ``CATALOG [--strict] [--json]`` in-process; returns the exit code.

    Flags may come in any order and repeat. ``-h``/``--help`` prints the usage on
    stdout and returns 0; an unknown flag, a flag with a value (``--strict=true``),
    a missing or an extra path prints the reason and the usage on stderr and
    returns 2. ``-`` as the path reads the catalog from standard input.
    """
    io = io or SemanticsCliIO()
    path: str | None = None
    strict = False
    as_json = False
    for arg in argv:
        if arg == "--strict":
            strict = True
        elif arg == "--json":
            as_json = True
        elif arg in ("-h", "--help"):
            io.stdout(USAGE)
            return EXIT_OK
        elif arg.startswith("-") and arg != "-":
            io.stderr(f"{PROG}: unknown option {arg!r}\n\n{USAGE}")
            return EXIT_INPUT_ERROR
        elif path is None:
            path = arg
        else:
            io.stderr(f"{PROG}: unexpected extra argument {arg!r}\n\n{USAGE}")
            return EXIT_INPUT_ERROR
    if path is None:
        io.stderr(f"{PROG}: missing the CATALOG argument\n\n{USAGE}")
        return EXIT_INPUT_ERROR
    return run_check_semantics(path, strict=strict, as_json=as_json, io=io)
