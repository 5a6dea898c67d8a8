"""What the pytest plugin says of its own, beside the gate's findings.

Its three findings (``uncalled-tool``, ``refusing-tool``, ``undeclared-result``: all
warnings), the words that make a result look declared, the report's first line
(the tools called, how many gave sample results, the ones that refused every call)
and its verdict line, and what a session in which no tool was seen says. Loaded only when the plugin is
enabled (:mod:`semantics_lint.pytest_plugin` imports nothing of this while inert).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

UNCALLED_CODE: Final = "uncalled-tool"
REFUSING_CODE: Final = "refusing-tool"
UNDECLARED_CODE: Final = "undeclared-result"
NO_TEST: Final = "no test (collection)"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# ---------------------------------------------------------------------------
# A result that looks declared and is not
# ---------------------------------------------------------------------------


def declaration_words() -> frozenset[str]:
    """The keys that make a result look declared: the caveat parts and their compound fields.

    ``grain``, ``provenance`` and ``coverage``, the fields of those parts whose two
    spellings differ (``measuredAt``/``measured_at``, ``isCounter``/``is_counter``,
    ``notChecked``/``not_checked``, ...) and the derived ``not_covered``; one-word
    fields (``source``, ``interval``, ``checked``) are ordinary data words and left out.
    """
    from semantics_lint.vocabulary import (
        CAMEL_TO_SNAKE,
        COVERAGE_FIELDS,
        DERIVED_FIELDS,
        DESCRIBED_RESULT_FIELDS,
        GRAIN_FIELDS,
        PROVENANCE_FIELDS,
        SEMANTICS_MARKER,
    )

    parts = {"grain": GRAIN_FIELDS, "provenance": PROVENANCE_FIELDS, "coverage": COVERAGE_FIELDS}
    assert set(parts) <= set(DESCRIBED_RESULT_FIELDS)
    compound = [key for fields in parts.values() for key in fields if key in CAMEL_TO_SNAKE]
    derived = [key for key in DERIVED_FIELDS if key != SEMANTICS_MARKER and key != "note"]
    return frozenset([*parts, *compound, *(CAMEL_TO_SNAKE[key] for key in compound), *derived])


def undeclared_words(value: object, words: frozenset[str], markers: tuple[str, ...]) -> list[str]:
    """The declaration words among a result's keys, when it carries no marker; else ``[]``."""
    if not isinstance(value, dict):
        return []
    try:  # a user's dict subclass may raise anything, even from ``in``
        if any(marker in value for marker in markers):
            return []
        return [key for key in value if isinstance(key, str) and key in words]
    except Exception:  # noqa: BLE001
        return []


# ---------------------------------------------------------------------------
# The plugin's findings
# ---------------------------------------------------------------------------


def refusing_finding(name: str, refusals: Sequence[tuple[str, str | None]]) -> dict[str, Any]:
    """``refusing-tool``: every call of ``name`` refused; ``refusals`` are the
    (message, test) of its calls. The finding quotes the first test's."""
    message, test = min(refusals, key=lambda refusal: refusal[1] or "")
    return {
        "tool": name,
        "code": REFUSING_CODE,
        "severity": "warning",
        "field": "results",
        "test": test or NO_TEST,
        "message": (
            f"tool {name!r} refused in every call the tests made "
            f"({plural(len(refusals), 'call')}), so the gate judged nothing it returns; "
            f"it refused with: {message} Add a test whose call returns a result."
        ),
    }


def uncalled_finding(name: str) -> dict[str, Any]:
    return {
        "tool": name,
        "code": UNCALLED_CODE,
        "severity": "warning",
        "field": "results",
        "message": (
            f"tool {name!r} was defined but no test called it: no sample exercises it, so "
            "the gate judged nothing of what it returns. Call it in a test (with mocked "
            "inputs)."
        ),
    }


def undeclared_finding(name: str, bare: Sequence[tuple[int, str | None, list[str]]]) -> dict[str, Any]:
    """``undeclared-result``: the samples of ``name`` that carry declaration words
    bare, each (its index among the tool's samples, its test, the words)."""
    index, test, words = bare[0]
    others = f" (and {plural(len(bare) - 1, 'other')})" if len(bare) > 1 else ""
    return {
        "tool": name,
        "code": UNDECLARED_CODE,
        "severity": "warning",
        "field": words[0],
        "resultIndex": index,
        "test": test or NO_TEST,
        "message": (
            f"tool {name!r}, sample result {index + 1}{others} carries "
            f"{', '.join(words)} without the "
            "af_semantics marker: it looks declared, declares nothing, and a model reads "
            "it as bare data. Return described_result(..., provenance={'measuredAt': ..., "
            "'source': ...}) (or absent(), coverage()) so the words reach the model as "
            "caveats."
        ),
    }


# ---------------------------------------------------------------------------
# The report's first line, and a session without tools
# ---------------------------------------------------------------------------


def heading(sampled: Sequence[str], refusing: Sequence[str], uncalled: Sequence[str], results: int) -> str:
    """The report's first line: the tools called (and defined, when some were not
    called), how many gave sample results and which refused every call, and the
    sample results.

    ``check-semantics: 3 tools called, 2 with sample results (refused every call:
    quota); 5 sample results``.
    """
    called = len(sampled) + len(refusing)
    if uncalled:
        text = f"{plural(called + len(uncalled), 'tool')} defined, {called} called"
    else:
        text = f"{plural(called, 'tool')} called"
    if refusing:
        text += f", {len(sampled)} with sample results (refused every call: {', '.join(refusing)})"
    return f"check-semantics: {text}; {plural(results, 'sample result')}"


def verdict_line(*, passed: bool, ok: bool, errors: int, warnings: int) -> str:
    """The report's last line: the gate's verdict with the plugin's findings counted; a
    gate failed on warnings alone names ``--semantics-strict``, the option that made
    warnings fail it."""
    if passed:
        verdict = "passed"
    elif ok:
        verdict = "FAILED (--semantics-strict: warnings fail the gate)"
    else:
        verdict = "FAILED"
    return f"{verdict}: {plural(errors, 'error')}, {plural(warnings, 'warning')}"


def nothing_seen_lines(import_errors: Iterable[str]) -> list[str]:
    """What a session in which no tool was seen says: what the plugin looks for, and
    why none may have been seen (naming the test modules that failed to import)."""
    failed = list(import_errors)
    reasons = [
        "no test that ran imports a module that defines a tool (or calls one);",
        "the tests run their tools in another process (a server started over stdio, "
        "a subprocess), which this one does not see.",
    ]
    if failed:
        reasons.insert(
            0,
            f"{', '.join(failed)} failed to import (the errors are above): a tool that only "
            f"{'they import was' if len(failed) > 1 else 'it imports was'} never defined;",
        )
    return [
        "no tool was seen in this session: the gate had nothing to judge.",
        "  The plugin records the tools made with semantics_lint.runtime.define_tool and the "
        "tools given to an adapter of semantics_lint.frameworks (MCP, fastmcp, OpenAI Agents, "
        "LangChain, Pydantic AI: each makes its tool with define_tool), defined or called in "
        "this pytest process (and its pytest-xdist workers). None was; maybe:",
        *(f"  - {reason}" for reason in reasons),
    ]
