"""The one vocabulary of semantics-lint: markers, notes, keys, spellings, counter words.

Both doors read this module and nothing else for these words: the static linter
(``semantics_lint.lint``) and the runtime checker (``semantics_lint.runtime``).
It is pure data plus a few tiny pure helpers, and imports nothing from libcst,
astroid or click, so any tool (and ``canonical-notes.json``) can be derived from it.

Two spellings exist for the same fields:

* the **declaration** spelling, camelCase, which tool authors write in
  ``described_result(...)``, ``absent(...)`` and ``coverage(...)``;
* the **wire** spelling, snake_case, which the minted envelopes carry and which
  saved records keep forever.

Only a handful of field names differ between the two; ``CAMEL_TO_SNAKE`` lists
them all, and every other key is one word on both sides.
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Final, Mapping

from semantics_lint.vocabulary_codes import RULE_CODES as RULE_CODES

# ---------------------------------------------------------------------------
# Markers and notes (published as data in canonical-notes.json)
# ---------------------------------------------------------------------------

SEMANTICS_MARKER: Final = "af_semantics"
ABSENCE_MARKER: Final = "af_absent"
COVERAGE_MARKER: Final = "af_coverage"

SEMANTICS_NOTE: Final = (
    "Typed data, not prose. `grain` and `provenance` are caveats that travel with the "
    "numbers: check `is_counter` before summing values from a series, read `measured_at` "
    "(and `age_seconds`) as how old the data is, and treat everything under `not_covered` "
    "as ground this result does NOT cover \u2014 a clean look here says nothing about it."
)
ABSENCE_NOTE: Final = (
    "The search ran and matched nothing. This is an ANSWER, not an error: nothing failed, "
    "nothing was substituted for what was asked, and calling this tool again with the same "
    "arguments returns this same result. `checked` is the ground this answer covers; "
    "anything under `not_checked` or `cannot_cover` is ground it does NOT cover, and "
    "reaching that needs a different question, not a retry."
)
COVERAGE_NOTE: Final = (
    "This result covers only what `checked` lists. `not_checked` is ground this call did "
    "not look at, and `cannot_cover` is ground this tool can never see \u2014 a clean result "
    "here is NOT evidence about either, and no retry changes `cannot_cover`. Carry these "
    "limits into any answer you build on this result."
)

MARKERS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "ABSENCE_MARKER": ABSENCE_MARKER,
        "COVERAGE_MARKER": COVERAGE_MARKER,
        "SEMANTICS_MARKER": SEMANTICS_MARKER,
    }
)
NOTES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "ABSENCE_NOTE": ABSENCE_NOTE,
        "COVERAGE_NOTE": COVERAGE_NOTE,
        "SEMANTICS_NOTE": SEMANTICS_NOTE,
    }
)

# ---------------------------------------------------------------------------
# Result classes and counter words
# ---------------------------------------------------------------------------

RESULT_CLASSES: Final = ("triage", "inventory")
"""The closed set of ``resultClass`` values; each carries a rule the gate can prove."""

CLASSES_NEEDING_COVERAGE: Final = frozenset(RESULT_CLASSES)
"""Classes whose every described result must declare coverage."""

CLASS_NEEDING_RENDER: Final = "inventory"
"""The class whose results with facts are warned at when they carry no render hint."""

COUNTER_AGGREGATION_WORDS: Final = ("sum", "count", "total", "cumulative", "counter", "delta")
"""Aggregation words that make ``isCounter`` required (whole token, singular or plural)."""

_NON_LETTERS = re.compile(r"[^a-z]+")


def is_counter_looking_aggregation(aggregation: str) -> bool:
    """True when a whole token of ``aggregation`` is a counter word, singular or plural.

    Tokens are runs of ASCII letters after lower-casing, so ``"Sum of deltas"`` and
    ``"count_per_host"`` look like counters while ``"summary"``, ``"subtotal"`` and
    ``"counted_by_host"`` do not.
    """
    for token in _NON_LETTERS.split(aggregation.lower()):
        if token in COUNTER_AGGREGATION_WORDS:
            return True
        if token.endswith("s") and token[:-1] in COUNTER_AGGREGATION_WORDS:
            return True
    return False


# ---------------------------------------------------------------------------
# Spellings: camelCase declaration <-> snake_case wire
# ---------------------------------------------------------------------------

CAMEL_TO_SNAKE: Final[Mapping[str, str]] = MappingProxyType(
    {
        "isCounter": "is_counter",
        "measuredAt": "measured_at",
        "ageSeconds": "age_seconds",
        "sourceExportDate": "source_export_date",
        "filterNote": "filter_note",
        "chartHint": "chart_hint",
        "notChecked": "not_checked",
        "cannotCover": "cannot_cover",
        "tryInstead": "try_instead",
        "inProgress": "in_progress",
        "readAt": "read_at",
        "resultClass": "result_class",
        "inputSchema": "input_schema",
    }
)
"""Every camelCase declaration key with its snake_case spelling (the wire's name, or for
``define_tool``'s keys the spelling a Python author slips into), and nothing else."""

SNAKE_TO_CAMEL: Final[Mapping[str, str]] = MappingProxyType(
    {snake: camel for camel, snake in CAMEL_TO_SNAKE.items()}
)


def to_wire(key: str) -> str:
    """The wire (snake_case) spelling of a declaration key."""
    return CAMEL_TO_SNAKE.get(key, key)


def to_declaration(key: str) -> str:
    """The declaration (camelCase) spelling of a wire key."""
    return SNAKE_TO_CAMEL.get(key, key)


# ---------------------------------------------------------------------------
# Declaration keys (camelCase), per part, in the order the reference lists them
# ---------------------------------------------------------------------------

DATA_FIELDS: Final = ("series", "facts", "edges")
"""The data lists of a described result; never empty."""

DESCRIBED_RESULT_FIELDS: Final = (
    "series",
    "facts",
    "edges",
    "grain",
    "provenance",
    "coverage",
    "clarify",
    "render",
)
GRAIN_FIELDS: Final = ("interval", "aggregation", "isCounter", "collapsed")
PROVENANCE_FIELDS: Final = ("measuredAt", "ageSeconds", "source", "sourceExportDate")
COVERAGE_FIELDS: Final = ("checked", "notChecked", "cannotCover")
"""The coverage part of ``described_result`` (the three ground lists)."""
COVERAGE_LIST_FIELDS: Final = COVERAGE_FIELDS
CLARIFY_FIELDS: Final = ("question", "candidates")
RENDER_FIELDS: Final = ("default", "columns", "sort", "filterNote", "chartHint")
ABSENT_FIELDS: Final = ("what", "checked", "notChecked", "cannotCover", "tryInstead")
LEDGER_FIELDS: Final = ("checked", "notChecked", "cannotCover", "period", "inProgress")
"""The declaration that ``coverage(content, ...)`` takes."""
PERIOD_FIELDS: Final = ("queried", "held", "readAt")
PERIOD_SPAN_FIELDS: Final = ("from", "to")
"""``period.queried`` and ``period.held`` are spans of two ISO 8601 instants with a zone."""
PERIOD_HELD_UNKNOWN: Final = "unknown"
"""The literal ``period.held`` takes when the store cannot vouch for what it holds."""
TOOL_FIELDS: Final = ("name", "description", "inputSchema", "resultClass", "execute")
"""The keys ``define_tool(...)`` takes, in the order the reference's ``defineTool`` lists them."""
COVERAGE_ITEM_FIELDS: Final = ("what", "why")
IN_PROGRESS_ITEM_FIELDS: Final = ("what", "why", "count")
"""An ``inProgress`` item: a coverage item plus how many things it stands for."""

DERIVED_FIELDS: Final = frozenset({"not_covered", "notCovered", "note", SEMANTICS_MARKER})
"""Keys the mint derives itself; declaring one by hand is a mistake (SEM103)."""

# Required keys of a literal data row, per data field.
ROW_REQUIRED_FIELDS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "facts": ("entity",),
        "series": ("t", "entity", "metric", "value"),
        "edges": ("from", "to", "kind"),
    }
)

# Which nested part of which call holds which keys.
PART_FIELDS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "described_result": DESCRIBED_RESULT_FIELDS,
        "absent": ABSENT_FIELDS,
        "coverage": LEDGER_FIELDS,
        "grain": GRAIN_FIELDS,
        "provenance": PROVENANCE_FIELDS,
        "described_result.coverage": COVERAGE_FIELDS,
        "clarify": CLARIFY_FIELDS,
        "render": RENDER_FIELDS,
        "period": PERIOD_FIELDS,
        "coverage_item": COVERAGE_ITEM_FIELDS,
        "period_span": PERIOD_SPAN_FIELDS,
        "in_progress_item": IN_PROGRESS_ITEM_FIELDS,
    }
)
"""Declaration keys of every part, by part name."""

# ---------------------------------------------------------------------------
# Wire keys (snake_case), per part
# ---------------------------------------------------------------------------

ENVELOPE_WIRE_KEYS: Final = (
    SEMANTICS_MARKER,
    "series",
    "facts",
    "edges",
    "grain",
    "provenance",
    "coverage",
    "not_covered",
    "clarify",
    "render",
    "note",
)
"""The keys of a wire envelope as agentfootprint 9.62.0 judges it: a top-level ``period``
(added to the wire by later releases) is not among them, so an envelope carrying one is
faulted, as the reference faults it."""
GRAIN_WIRE_KEYS: Final = tuple(to_wire(k) for k in GRAIN_FIELDS)
PROVENANCE_WIRE_KEYS: Final = tuple(to_wire(k) for k in PROVENANCE_FIELDS)
COVERAGE_WIRE_KEYS: Final = tuple(to_wire(k) for k in COVERAGE_FIELDS)
CLARIFY_WIRE_KEYS: Final = CLARIFY_FIELDS
RENDER_WIRE_KEYS: Final = tuple(to_wire(k) for k in RENDER_FIELDS)
PERIOD_WIRE_KEYS: Final = tuple(to_wire(k) for k in PERIOD_FIELDS)
ABSENCE_WIRE_KEYS: Final = (
    ABSENCE_MARKER,
    "outcome",
    "looked_for",
    "checked",
    "not_checked",
    "cannot_cover",
    "retry_returns_the_same",
    "try_instead",
    "note",
)
LEDGER_WIRE_KEYS: Final = (
    "checked",
    "not_checked",
    "cannot_cover",
    "period",
    "in_progress",
    "note",
)
"""Keys inside ``af_coverage`` of a rendered ledger ``{af_coverage: {...}, result}``."""

ABSENCE_OUTCOME: Final = "nothing_found"

# ---------------------------------------------------------------------------
# Call names
# ---------------------------------------------------------------------------

DESCRIBED_RESULT_NAMES: Final = ("described_result", "describedResult")
"""Recognized by name alone: the name is ours wherever it is written."""
API_FUNCTIONS: Final = ("absent", "coverage", "define_tool", "defineTool")
"""Common words: ours only when the name resolves to an API module."""
API_FUNCTION_KINDS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "absent": "absent",
        "coverage": "coverage",
        "define_tool": "define_tool",
        "defineTool": "define_tool",
    }
)
"""The call kind each of :data:`API_FUNCTIONS` makes (``defineTool``, the reference's
spelling, is ``define_tool``)."""
DEFAULT_API_MODULES: Final = ("semantics_lint.runtime", "agentfootprint")

ADAPTERS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "semantics_lint.frameworks.mcp": ("served",),
        "semantics_lint.frameworks.openai_agents": ("function_tool",),
        "semantics_lint.frameworks.langchain": ("tool",),
        "semantics_lint.frameworks.pydantic_ai": ("served",),
    }
)
"""The adapters that serve a function as a framework's tool, by module: ``served(fn,
result_class=...)``, ``function_tool(fn, ...)``, ``tool(fn, ...)``, or a decorator
``@served(result_class=...)``. A function given to one with :data:`ADAPTER_CLASS_KEYWORD`
is a tool of that result class."""
ADAPTER_CLASS_KEYWORD: Final = "result_class"
"""The adapters' keyword argument that names the tool's result class."""

CLAIMS_CALLS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {"semantics_lint.runtime": ("run_record",), "semantics_lint.runtime.record": ("run_record",)}
)
"""The calls that declare a claim contract for a run's final answer, by module:
``run_record(claims={answer_field: {"entity": ..., "field": ...}})``."""
CLAIMS_KEYWORD: Final = "claims"
"""The keyword argument of :data:`CLAIMS_CALLS` that holds the contract."""
CLAIM_KEYS: Final = ("entity", "field")
"""The keys of one contract entry: the fact an answer field claims."""

# ---------------------------------------------------------------------------
# Static rule codes
# ---------------------------------------------------------------------------

# ``RULE_CODES``, every static rule code in code order, is generated from the rule
# registry into ``vocabulary_codes.py`` (``python -m semantics_lint.gen``) and imported
# at the top: selection and noqa comments read the codes without importing the rules; a
# code it does not hold is asked of the registry (``config.registered_codes``).

# ---------------------------------------------------------------------------
# Strings: JavaScript's notion of "empty"
# ---------------------------------------------------------------------------

JS_WHITESPACE: Final = (
    "\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""The set ``String.prototype.trim()`` removes; not the same as ``str.strip()``'s."""


def js_trim(text: str) -> str:
    """``text`` trimmed exactly as ECMAScript's ``String.prototype.trim()`` trims it."""
    return text.strip(JS_WHITESPACE)


def is_non_empty_string(value: object) -> bool:
    """True for a ``str`` that is not empty after ECMAScript trimming."""
    return isinstance(value, str) and js_trim(value) != ""


# ---------------------------------------------------------------------------
# Environment flags: the words a true/false environment variable is read from
# ---------------------------------------------------------------------------

FLAG_TRUE_WORDS: Final = frozenset({"true", "1", "yes", "on"})
FLAG_FALSE_WORDS: Final = frozenset({"false", "0", "no", "off"})


def env_flag(raw: str | None, default: bool) -> bool | None:
    """A true/false environment value read one way everywhere: unset or blank is
    ``default``; ``true``/``1``/``yes``/``on`` and ``false``/``0``/``no``/``off`` (any
    case, spaces around) are True and False; anything else is None, which the caller
    reads as its own policy says (and says so)."""
    word = "" if raw is None else raw.strip().lower()
    if not word:
        return default
    if word in FLAG_TRUE_WORDS:
        return True
    if word in FLAG_FALSE_WORDS:
        return False
    return None


def canonical_notes() -> dict[str, object]:
    """The content of ``canonical-notes.json``: notes and markers, for other languages."""
    return {
        "$comment": (
            "Generated from semantics_lint.vocabulary by `python -m semantics_lint.gen`; "
            "do not edit by hand. These are the strings a tool written in another language "
            "must reproduce byte for byte: the static note each result shape carries and the "
            "reserved marker keys that make those shapes recognizable."
        ),
        "notes": dict(NOTES),
        "markers": dict(MARKERS),
    }
